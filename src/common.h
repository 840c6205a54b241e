/* SPDX-License-Identifier: MIT */
/* What every part of the runtime shares (internal; not installed). The
 * runtime is decoders (src/decode/: bytes to code points), encoders
 * (src/encode/: code points to bytes), the output layer both write through
 * (src/output/: sinks, byte forms, limits) and the public functions that
 * compose them (src/api/). */
#ifndef UTFDFA_COMMON_H
#define UTFDFA_COMMON_H

#include "utfdfa.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* UTFDFA_INLINE_HINTS makes ALWAYS_INLINE a hint. The sanitized build sets
 * it: clang's inliner, forced through ASan's instrumented code, spends
 * minutes on each convert_from instance (199 s of CPU for one, 2 s as a
 * hint); the code it tests is the same. */
#if defined(__GNUC__) && !defined(UTFDFA_INLINE_HINTS)
#define ALWAYS_INLINE static inline __attribute__((always_inline))
#define NOINLINE __attribute__((noinline))
#else
#define ALWAYS_INLINE static inline
#define NOINLINE
#endif

#include "unicode.h" /* REPLACEMENT, BOM */

ALWAYS_INLINE bool is_high(uint32_t u)
{
    return u >= 0xD800 && u <= 0xDBFF;
}

ALWAYS_INLINE bool is_low(uint32_t u)
{
    return u >= 0xDC00 && u <= 0xDFFF;
}

/* (NULL, 0) is an empty buffer, but C gives NULL + 0 no meaning (C11
 * 6.5.6p8; clang's UBSan reports it) and the loops compute src + i and
 * dst + len: an empty buffer gets a real address. Only an empty one: NULL
 * with a length still faults where it would have. Nothing is read from it
 * or written to it (it is const, aligned for every unit). */
static const uint32_t empty_buffer[1];
#define REAL_ADDRESS(p, len) ((p) || (len) ? (void *)(p) : (void *)empty_buffer)

#endif /* UTFDFA_COMMON_H */
