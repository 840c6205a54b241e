/* SPDX-License-Identifier: MIT */
/* The lookup validator (lookup.h) with AVX-512: 64 bytes a vector (one a
 * group), the tail by a masked load. Two kernels: AVX-512 BW (the previous
 * bytes from valignd and vpalignr) and AVX-512 VBMI (one vpermt2b each, the
 * nibble tables by vpermb, the longer-character test carried), from
 * lookup_avx512_ops.h included once for each. */
#ifndef UTFDFA_FAST_UTF8_LOOKUP_AVX512_H
#define UTFDFA_FAST_UTF8_LOOKUP_AVX512_H

#include "lookup.h"

#if FAST_X86
#define FAST_TARGET_AVX512BW \
    __attribute__((target("avx512f,avx512bw,avx512vl,avx2,bmi,bmi2")))
#define FAST_TARGET_AVX512VBMI \
    __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx2,bmi,bmi2")))

/* 0, 1, ..., 63: vpermt2b's indices are these plus a constant. */
static const uint8_t lk_iota64[64] = {
    0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
    22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
    44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63,
};

#define LK_SUF avx512
#define LK_INLINE FAST_INLINE FAST_TARGET_AVX512BW
#define LK_VBMI 0
#include "lookup_avx512_ops.h"
#undef LK_SUF
#undef LK_INLINE
#undef LK_VBMI

#define LK_SUF vbmi
#define LK_INLINE FAST_INLINE FAST_TARGET_AVX512VBMI
#define LK_VBMI 1
#include "lookup_avx512_ops.h"
#undef LK_SUF
#undef LK_INLINE
#undef LK_VBMI
#endif /* FAST_X86 */

#endif /* UTFDFA_FAST_UTF8_LOOKUP_AVX512_H */
