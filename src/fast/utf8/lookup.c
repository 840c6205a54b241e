/* SPDX-License-Identifier: MIT */
/* The lookup validators (lookup.h) over UTF-8's derived tables
 * (utf8.simd.gen.h): utfdfa__utf8_scan from LEVEL_SSE4 on and at LEVEL_NEON (select.c). One
 * unit for the four, so that they share one copy of the tables and of the
 * plain DFA's steps; each kernel's code is in its ISA's header. */
#include "lookup_avx2.h"
#include "lookup_avx512.h"
#include "../arm64/lookup_neon.h"
#include "lookup_sse4.h"

#include "variants.h"

#if FAST_X86
_Static_assert(UTF8_SIMD_DERIVED, "UTF-8 has lookup tables");

FAST_TARGET_SSE4 size_t utfdfa__utf8_scan_lookup_sse4(const uint8_t *src, size_t n,
                                                      uint32_t *state)
{
    return lk_sse4_scan(fast_utf8(), &utf8_simd_tables, UTF8_SIMD_CUR_LOW, src, n, state);
}

FAST_TARGET_AVX2BMI size_t utfdfa__utf8_scan_lookup_avx2(const uint8_t *src, size_t n,
                                                         uint32_t *state)
{
    return lk_avx2_scan(fast_utf8(), &utf8_simd_tables, UTF8_SIMD_CUR_LOW, src, n, state);
}

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
#elif FAST_ARM64
_Static_assert(UTF8_SIMD_DERIVED, "UTF-8 has lookup tables");

size_t utfdfa__utf8_scan_lookup_neon(const uint8_t *src, size_t n, uint32_t *state)
{
    return lk_neon_scan(fast_utf8(), &utf8_simd_tables, UTF8_SIMD_CUR_LOW, src, n, state);
}
#else
typedef int utfdfa__utf8_lookup_none; /* not x86-64: nothing here (a unit must declare something) */
#endif
