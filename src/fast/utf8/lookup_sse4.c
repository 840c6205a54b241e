/* SPDX-License-Identifier: MIT */
/* The lookup validator with SSSE3 and SSE4.1 (lookup_sse4.h) over UTF-8's
 * derived tables: utfdfa__utf8_scan at LEVEL_SSE4 (select.c). */
#include "lookup_sse4.h"

#include "variants.h"

#if FAST_X86
FAST_TARGET_SSE4 size_t utfdfa__utf8_scan_lookup_sse4(const uint8_t *src, size_t n,
                                                      uint32_t *state)
{
    return lk_sse4_scan(fast_utf8(), &utf8_simd_tables, UTF8_SIMD_CUR_LOW, src, n, state);
}
#else
typedef int utfdfa__utf8_lookup_sse4_none; /* not x86-64: nothing here */
#endif
