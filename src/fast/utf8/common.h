/* SPDX-License-Identifier: MIT */
/* What every file of the UTF-8 fast paths shares: compiler spellings, the
 * ISA checks, the sizes the engines work in, the ASCII modes. */
#ifndef UTFDFA_FAST_UTF8_COMMON_H
#define UTFDFA_FAST_UTF8_COMMON_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#if defined(__GNUC__)
#define FAST_INLINE static inline __attribute__((always_inline))
#define FAST_UNUSED __attribute__((unused)) /* helpers a file does not call */
#define FAST_NOINLINE __attribute__((noinline))
#define FAST_LIKELY(x) __builtin_expect(!!(x), 1)
#define FAST_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define FAST_INLINE static inline
#define FAST_UNUSED
#define FAST_NOINLINE
#define FAST_LIKELY(x) (x)
#define FAST_UNLIKELY(x) (x)
#endif

#include "../isa.h"

#define FAST_X86 KERN_X86
#define FAST_ARM64 KERN_ARM64
#if FAST_X86
#include <immintrin.h>
/* Functions of avx2.c: target attributes, not per-file flags, so that the
 * single-file build (all sources in one unit) compiles them too. */
#define FAST_TARGET_AVX2 __attribute__((target("avx2,bmi2")))
#elif FAST_ARM64
#include <arm_neon.h>
#endif

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && defined(__GNUC__)
#define FAST_WORD_LE 1
#else
#define FAST_WORD_LE 0
#endif

/* Lanes of LANE_MIN to LANE_MAX bytes, entered after DENSE non-ASCII
 * blocks in a row; a lane start moves at most RESYNC_MAX bytes to find a
 * start-only byte. */
enum { LANE_MIN = 256, LANE_MAX = 2048, DENSE = 4, RESYNC_MAX = 16 };
/* Inputs from which the replacing decoder's error blocks go to its tabled
 * run (a call of its own); shorter ones keep the inline step. */
enum { REP_TABLES_MIN = 4096 };
/* Inputs from which decoding tries lanes, of DEC_LANE_MIN to DEC_LANE_MAX
 * bytes each. */
enum { DEC_LANES_MIN = 1024, DEC_LANE_MIN = 256, DEC_LANE_MAX = 2048 };

/* How the ASCII fast path looks at bytes. */
enum fast_ascii { FAST_ASCII_NONE, FAST_ASCII_WORD, FAST_ASCII_SSE2, FAST_ASCII_AVX2, FAST_ASCII_NEON };

#endif /* UTFDFA_FAST_UTF8_COMMON_H */
