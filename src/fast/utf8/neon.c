/* SPDX-License-Identifier: MIT */
/* The variants of AArch64's NEON level: the portable engines (scan.h,
 * decode.h, replace.h) with the ASCII path in NEON (ascii.h), as the
 * portable set has it in words; validation is the lookup validator's
 * (lookup_neon.h, lookup.c). */
#include "utf8_fast.h"

#include "decode.h"
#include "lanes.h"
#include "replace.h"
#include "scan.h"
#include "variants.h"

#if FAST_ARM64
static size_t fast_scan_neon(const uint8_t *src, size_t n, uint32_t *state)
{
    return fast_scan_engine(fast_utf8(), src, n, state, FAST_ASCII_NEON, 2);
}

FAST_NOINLINE static bool fast_dec_neon_lanes(const uint8_t *src, size_t n, size_t *pi,
                                              uint64_t *ps, uint32_t *pcp, uint32_t *d, size_t cap,
                                              size_t *po, size_t *pw)
{
    return fast_dec_lanes_run(fast_utf8(), src, n, pi, ps, pcp, d, cap, po, pw, FAST_ASCII_NEON,
                              2);
}

static size_t fast_dec_neon_32(const uint8_t *src, size_t n, uint32_t *state, uint32_t *partial,
                               uint32_t *dst, size_t cap, size_t *written)
{
    return fast_dec_engine(fast_utf8(), src, n, state, partial, dst, cap, written, false,
                           FAST_ASCII_NEON, true, 2, fast_dec_neon_lanes);
}

static size_t fast_dec_neon_16(const uint8_t *src, size_t n, uint32_t *state, uint32_t *partial,
                               uint16_t *dst, size_t cap, size_t *written)
{
    return fast_dec_engine(fast_utf8(), src, n, state, partial, dst, cap, written, true,
                           FAST_ASCII_NEON, true, 1, NULL);
}

FAST_NOINLINE static void fast_rep_neon_run(const uint8_t *src, size_t n, size_t *pi, uint64_t *ps,
                                            uint32_t *pcp, uint32_t *d32, size_t cap, size_t *po,
                                            size_t *perr)
{
    fast_rep_run(fast_utf8(), src, n, pi, ps, pcp, d32, cap, po, perr);
}

static size_t fast_rep_neon(const uint8_t *src, size_t n, uint32_t *state, uint32_t *partial,
                            uint32_t *dst, size_t cap, size_t *written, size_t *errors)
{
    return fast_rep_engine(fast_utf8(), src, n, state, partial, dst, cap, written, errors,
                           FAST_ASCII_NEON, fast_rep_neon_run);
}

static size_t fast_ascii32_neon(const uint8_t *src, size_t n, void *dst)
{
    return fast_ascii_widen_neon(src, n, dst, n, false);
}

const struct utfdfa__utf8_fast_impl utfdfa__utf8_fast_neon = {
    fast_scan_neon, fast_dec_neon_32, fast_dec_neon_16, fast_rep_neon, fast_ascii32_neon,
};
#else
typedef int utfdfa__utf8_neon_none; /* not AArch64: nothing here (a unit must declare something) */
#endif
