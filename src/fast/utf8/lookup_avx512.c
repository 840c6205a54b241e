/* SPDX-License-Identifier: MIT */
/* The lookup validator with AVX-512 (lookup_avx512.h) over UTF-8's derived
 * tables: utfdfa__utf8_scan at LEVEL_AVX512 (BW) and LEVEL_AVX512VBMI
 * (select.c). */
#include "lookup_avx512.h"

#include "variants.h"

#if FAST_X86
FAST_TARGET_AVX512BW size_t utfdfa__utf8_scan_lookup_avx512(const uint8_t *src, size_t n,
                                                            uint32_t *state)
{
    return lk_avx512_scan(fast_utf8(), &utf8_simd_tables, UTF8_SIMD_CUR_LOW, src, n, state);
}

FAST_TARGET_AVX512VBMI size_t utfdfa__utf8_scan_lookup_vbmi(const uint8_t *src, size_t n,
                                                            uint32_t *state)
{
    return lk_vbmi_scan(fast_utf8(), &utf8_simd_tables, UTF8_SIMD_CUR_LOW, src, n, state);
}
#else
typedef int utfdfa__utf8_lookup_avx512_none; /* not x86-64: nothing here */
#endif
