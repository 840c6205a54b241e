/* SPDX-License-Identifier: MIT */
/* The lookup validator with AVX2 (lookup_avx2.h) over UTF-8's derived
 * tables: utfdfa__utf8_scan at LEVEL_AVX2 (select.c). */
#include "lookup_avx2.h"

#include "variants.h"

#if FAST_X86
FAST_TARGET_AVX2BMI size_t utfdfa__utf8_scan_lookup_avx2(const uint8_t *src, size_t n,
                                                         uint32_t *state)
{
    return lk_avx2_scan(fast_utf8(), &utf8_simd_tables, UTF8_SIMD_CUR_LOW, src, n, state);
}
#else
typedef int utfdfa__utf8_lookup_avx2_none; /* not x86-64: nothing here */
#endif
