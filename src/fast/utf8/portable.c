/* SPDX-License-Identifier: MIT */
/* The portable set (C11; on x86-64 SSE2, which every x86-64 has): each
 * function an engine (scan.h, decode.h, replace.h) over UTF-8's generated
 * tables with its techniques fixed. The variants with other techniques,
 * which no level calls, are the tests' (tests/fast/utf8_variants.c). */
#include "utf8_fast.h"

#include "decode.h"
#include "lanes.h"
#include "replace.h"
#include "scan.h"
#include "variants.h"

/* The bytes of the character in progress (utf8_fast.h), for every CPU. */
size_t utfdfa__utf8_pending(const uint8_t *src, size_t k, uint32_t state)
{
    return fast_pending(fast_utf8(), src, k, state);
}

#if FAST_X86
/* Without BMI2 the shift goes through %cl (two uops): four lanes beat two. */
size_t utfdfa__utf8_scan_sse2_l4(const uint8_t *src, size_t n,
    uint32_t *state)
{
    return fast_scan_engine(fast_utf8(), src, n, state, FAST_ASCII_SSE2, 4);
}

size_t utfdfa__utf8_dec_free_sse2_32(const uint8_t *src, size_t n,
    uint32_t *state, uint32_t *partial, uint32_t *dst, size_t cap, size_t *written)
{
    return fast_dec_engine(
        (struct fast_dec_ops){fast_utf8(), false, FAST_ASCII_SSE2, fast_dec_block, 1, NULL},
        (struct fast_call){src, n, state, partial, dst, cap, written, NULL});
}

size_t utfdfa__utf8_dec_free_sse2_16(const uint8_t *src, size_t n,
    uint32_t *state, uint32_t *partial, uint16_t *dst, size_t cap, size_t *written)
{
    return fast_dec_engine((struct fast_dec_ops){fast_utf8(), true, FAST_ASCII_SSE2, fast_dec_block, 1, NULL},
                           (struct fast_call){src, n, state, partial, dst, cap, written, NULL});
}

FAST_NOINLINE static void fast_rep_sse2_run(const uint8_t *src, size_t n,
    size_t *pi, uint64_t *ps, uint32_t *pcp, struct fast_out out, size_t *perr)
{
    fast_rep_run(fast_utf8(), src, n, pi, ps, pcp, out, perr);
}

size_t utfdfa__utf8_rep_sse2(const uint8_t *src, size_t n, uint32_t *state,
    uint32_t *partial, uint32_t *dst, size_t cap, size_t *written, size_t *errors)
{
    return fast_rep_engine((struct fast_rep_ops){fast_utf8(), FAST_ASCII_SSE2, fast_rep_sse2_run},
                           (struct fast_call){src, n, state, partial, dst, cap, written, errors});
}

const struct utfdfa__utf8_fast_impl utfdfa__utf8_fast_portable = {
    utfdfa__utf8_scan_sse2_l4, utfdfa__utf8_dec_free_sse2_32, utfdfa__utf8_dec_free_sse2_16,
    utfdfa__utf8_rep_sse2, NULL,
};
#endif

#if !FAST_X86
/* Off x86-64: the ASCII path in words. */
size_t utfdfa__utf8_scan_word_l2(const uint8_t *src, size_t n,
    uint32_t *state)
{
    return fast_scan_engine(fast_utf8(), src, n, state, FAST_ASCII_WORD, 2);
}

FAST_NOINLINE static bool fast_dec_l2_word_lanes(const uint8_t *src, size_t n,
    size_t *pi, uint64_t *ps, uint32_t *pcp, struct fast_out out, size_t *pw)
{
    return fast_dec_lanes_run((struct fast_lane_ops){fast_utf8(), FAST_ASCII_WORD, 2}, src, n, pi,
                              ps, pcp, out, pw);
}

size_t utfdfa__utf8_dec_l2_word_32(const uint8_t *src, size_t n,
    uint32_t *state, uint32_t *partial, uint32_t *dst, size_t cap, size_t *written)
{
    return fast_dec_engine(
        (struct fast_dec_ops){fast_utf8(), false, FAST_ASCII_WORD, fast_dec_block, 2, fast_dec_l2_word_lanes},
        (struct fast_call){src, n, state, partial, dst, cap, written, NULL});
}

size_t utfdfa__utf8_dec_free_word_16(const uint8_t *src, size_t n,
    uint32_t *state, uint32_t *partial, uint16_t *dst, size_t cap, size_t *written)
{
    return fast_dec_engine((struct fast_dec_ops){fast_utf8(), true, FAST_ASCII_WORD, fast_dec_block, 1, NULL},
                           (struct fast_call){src, n, state, partial, dst, cap, written, NULL});
}

FAST_NOINLINE static void fast_rep_word_run(const uint8_t *src, size_t n,
    size_t *pi, uint64_t *ps, uint32_t *pcp, struct fast_out out, size_t *perr)
{
    fast_rep_run(fast_utf8(), src, n, pi, ps, pcp, out, perr);
}

size_t utfdfa__utf8_rep_word(const uint8_t *src, size_t n, uint32_t *state,
    uint32_t *partial, uint32_t *dst, size_t cap, size_t *written, size_t *errors)
{
    return fast_rep_engine((struct fast_rep_ops){fast_utf8(), FAST_ASCII_WORD, fast_rep_word_run},
                           (struct fast_call){src, n, state, partial, dst, cap, written, errors});
}

/* Shift rows need no lanes beyond two (the loads, not the chain, limit them). */
const struct utfdfa__utf8_fast_impl utfdfa__utf8_fast_portable = {
    utfdfa__utf8_scan_word_l2, utfdfa__utf8_dec_l2_word_32, utfdfa__utf8_dec_free_word_16,
    utfdfa__utf8_rep_word, NULL,
};
#endif
