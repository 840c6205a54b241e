/* SPDX-License-Identifier: MIT */
/* Variants for the tests and the benchmark only (no level of the library
 * calls them: SSE4 and up decode by slabs, SSE2 with the portable set).
 * The variants for x86-64 with BMI2: the shift DFA's shift is shrx (one
 * uop, variable count in any register, latency 1) instead of shr %cl (more
 * uops, the count forced through %cl, latency 2). Each function carries its
 * target attribute (select.c calls them only when the CPU has BMI2). */
#include "utf8_fast.h"

#include "decode.h"
#include "lanes.h"
#include "replace.h"
#include "scan.h"
#include "variants.h"

#if FAST_X86
#ifdef UTFDFA_FAST_VARIANTS
FAST_TARGET_BMI2 size_t utfdfa__utf8_scan_b_sse2_l2(const uint8_t *src, size_t n,
    uint32_t *state)
{
    return fast_scan_engine(fast_utf8(), src, n, state, FAST_ASCII_SSE2, 2);
}

FAST_TARGET_BMI2 FAST_NOINLINE static bool fast_dec_b_l2_sse2_lanes(const uint8_t *src, size_t n,
    size_t *pi, uint64_t *ps, uint32_t *pcp, uint32_t *d, size_t cap, size_t *po, size_t *pw)
{
    return fast_dec_lanes_run(fast_utf8(), src, n, pi, ps, pcp, d, cap, po, pw, FAST_ASCII_SSE2,
                              2);
}

FAST_TARGET_BMI2 size_t utfdfa__utf8_dec_b_l2_sse2_32(const uint8_t *src, size_t n,
    uint32_t *state, uint32_t *partial, uint32_t *dst, size_t cap, size_t *written)
{
    return fast_dec_engine(fast_utf8(), src, n, state, partial, dst, cap, written, false,
                           FAST_ASCII_SSE2, true, 2, fast_dec_b_l2_sse2_lanes);
}

FAST_TARGET_BMI2 size_t utfdfa__utf8_dec_b_l2_sse2_16(const uint8_t *src, size_t n,
    uint32_t *state, uint32_t *partial, uint16_t *dst, size_t cap, size_t *written)
{
    return fast_dec_engine(fast_utf8(), src, n, state, partial, dst, cap, written, true,
                           FAST_ASCII_SSE2, true, 2, fast_dec_b_l2_sse2_lanes);
}

FAST_TARGET_BMI2 size_t utfdfa__utf8_dec_b_free_sse2_32(const uint8_t *src, size_t n,
    uint32_t *state, uint32_t *partial, uint32_t *dst, size_t cap, size_t *written)
{
    return fast_dec_engine(fast_utf8(), src, n, state, partial, dst, cap, written, false,
                           FAST_ASCII_SSE2, true, 1, NULL);
}

FAST_TARGET_BMI2 size_t utfdfa__utf8_dec_b_free_sse2_16(const uint8_t *src, size_t n,
    uint32_t *state, uint32_t *partial, uint16_t *dst, size_t cap, size_t *written)
{
    return fast_dec_engine(fast_utf8(), src, n, state, partial, dst, cap, written, true,
                           FAST_ASCII_SSE2, true, 1, NULL);
}

FAST_TARGET_BMI2 FAST_NOINLINE static void fast_rep_b_sse2_run(const uint8_t *src, size_t n,
    size_t *pi, uint64_t *ps, uint32_t *pcp, uint32_t *d32, size_t cap, size_t *po, size_t *perr)
{
    fast_rep_run(fast_utf8(), src, n, pi, ps, pcp, d32, cap, po, perr);
}

FAST_TARGET_BMI2 size_t utfdfa__utf8_rep_b_sse2(const uint8_t *src, size_t n, uint32_t *state,
    uint32_t *partial, uint32_t *dst, size_t cap, size_t *written, size_t *errors)
{
    return fast_rep_engine(fast_utf8(), src, n, state, partial, dst, cap, written, errors,
                           FAST_ASCII_SSE2, fast_rep_b_sse2_run);
}

FAST_TARGET_BMI2 size_t utfdfa__utf8_scan_b_dfa(const uint8_t *src, size_t n,
    uint32_t *state)
{
    return fast_scan_engine(fast_utf8(), src, n, state, FAST_ASCII_NONE, 1);
}

FAST_TARGET_BMI2 size_t utfdfa__utf8_scan_b_sse2(const uint8_t *src, size_t n,
    uint32_t *state)
{
    return fast_scan_engine(fast_utf8(), src, n, state, FAST_ASCII_SSE2, 1);
}

FAST_TARGET_BMI2 size_t utfdfa__utf8_scan_b_sse2_l3(const uint8_t *src, size_t n,
    uint32_t *state)
{
    return fast_scan_engine(fast_utf8(), src, n, state, FAST_ASCII_SSE2, 3);
}

FAST_TARGET_BMI2 size_t utfdfa__utf8_scan_b_sse2_l4(const uint8_t *src, size_t n,
    uint32_t *state)
{
    return fast_scan_engine(fast_utf8(), src, n, state, FAST_ASCII_SSE2, 4);
}

FAST_TARGET_BMI2 size_t utfdfa__utf8_dec_b_branchy_32(const uint8_t *src, size_t n,
    uint32_t *state, uint32_t *partial, uint32_t *dst, size_t cap, size_t *written)
{
    return fast_dec_engine(fast_utf8(), src, n, state, partial, dst, cap, written, false,
                           FAST_ASCII_NONE, false, 1, NULL);
}

FAST_TARGET_BMI2 size_t utfdfa__utf8_dec_b_branchy_16(const uint8_t *src, size_t n,
    uint32_t *state, uint32_t *partial, uint16_t *dst, size_t cap, size_t *written)
{
    return fast_dec_engine(fast_utf8(), src, n, state, partial, dst, cap, written, true,
                           FAST_ASCII_NONE, false, 1, NULL);
}

FAST_TARGET_BMI2 size_t utfdfa__utf8_dec_b_free_32(const uint8_t *src, size_t n,
    uint32_t *state, uint32_t *partial, uint32_t *dst, size_t cap, size_t *written)
{
    return fast_dec_engine(fast_utf8(), src, n, state, partial, dst, cap, written, false,
                           FAST_ASCII_NONE, true, 1, NULL);
}

FAST_TARGET_BMI2 size_t utfdfa__utf8_dec_b_free_16(const uint8_t *src, size_t n,
    uint32_t *state, uint32_t *partial, uint16_t *dst, size_t cap, size_t *written)
{
    return fast_dec_engine(fast_utf8(), src, n, state, partial, dst, cap, written, true,
                           FAST_ASCII_NONE, true, 1, NULL);
}

FAST_TARGET_BMI2 size_t utfdfa__utf8_dec_b_branchy_sse2_32(const uint8_t *src, size_t n,
    uint32_t *state, uint32_t *partial, uint32_t *dst, size_t cap, size_t *written)
{
    return fast_dec_engine(fast_utf8(), src, n, state, partial, dst, cap, written, false,
                           FAST_ASCII_SSE2, false, 1, NULL);
}

FAST_TARGET_BMI2 size_t utfdfa__utf8_dec_b_branchy_sse2_16(const uint8_t *src, size_t n,
    uint32_t *state, uint32_t *partial, uint16_t *dst, size_t cap, size_t *written)
{
    return fast_dec_engine(fast_utf8(), src, n, state, partial, dst, cap, written, true,
                           FAST_ASCII_SSE2, false, 1, NULL);
}

#endif
#else
typedef int utfdfa__utf8_fast_bmi2_none; /* not x86-64: nothing here (a unit must declare something) */
#endif
