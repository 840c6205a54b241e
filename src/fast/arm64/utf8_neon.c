/* SPDX-License-Identifier: MIT */
/* The UTF-8 fast paths of AArch64's NEON level (a set of
 * src/fast/utf8/variants.h): the portable engines (src/fast/utf8/scan.h,
 * decode.h, replace.h) with the ASCII path in NEON (ascii.h), as the
 * portable set has it in words; validation is the lookup validator's
 * (lookup_neon.h here, instantiated in src/fast/utf8/lookup.c), and
 * decoding strict is by slabs (slab.h): the lookup validator, then the
 * NEON transcoder of valid text (utf8_transcode.h: end-of-character masks
 * and tbl); replacing decodes valid text by the same slabs, errors by
 * windows. */
#include "../utf8/utf8_fast.h"

#include "../utf8/decode.h"
#include "../utf8/lanes.h"
#include "../utf8/replace.h"
#include "../utf8/lookup.h"
#include "../utf8/scan.h"
#include "../utf8/slab.h"
#include "../utf8/variants.h"

#include "utf8_transcode.h"

#if FAST_ARM64
static size_t fast_scan_neon(const uint8_t *src, size_t n, uint32_t *state)
{
    return fast_scan_engine(fast_utf8(), src, n, state, FAST_ASCII_NEON, 2);
}

static size_t fast_valid_neon_32(const uint8_t *src, size_t n, void *dst)
{
    return nt_valid(src, n, dst, false);
}

static size_t fast_valid_neon_16(const uint8_t *src, size_t n, void *dst)
{
    return nt_valid(src, n, dst, true);
}

static size_t fast_ascii32_neon(const uint8_t *src, size_t n, void *dst)
{
    return fast_ascii_widen_neon(src, n, dst, n, false);
}

static size_t fast_ascii16_neon_widen(const uint8_t *src, size_t n, void *dst)
{
    return fast_ascii_widen_neon(src, n, dst, n, true);
}

/* Strict decoding by slabs into UTF-32 or UTF-16 (u16): one body, the
 * two differing by the validating transcoder and the ASCII step alone. */
FAST_INLINE size_t fast_dec_neon(struct fast_call c, bool u16)
{
    return fast_slab_engine((struct fast_slab_ops){fast_utf8(), u16,
                                                   u16 ? fast_valid_neon_16 : fast_valid_neon_32,
                                                   utfdfa__utf8_scan_lookup_neon,
                                                   u16 ? fast_ascii16_neon_widen : fast_ascii32_neon},
                            c);
}

static size_t fast_dec_neon_32(const uint8_t *src, size_t n, uint32_t *state, uint32_t *partial,
                               uint32_t *dst, size_t cap, size_t *written)
{
    return fast_dec_neon((struct fast_call){src, n, state, partial, dst, cap, written, NULL}, false);
}

static size_t fast_dec_neon_16(const uint8_t *src, size_t n, uint32_t *state, uint32_t *partial,
                               uint16_t *dst, size_t cap, size_t *written)
{
    return fast_dec_neon((struct fast_call){src, n, state, partial, dst, cap, written, NULL}, true);
}

FAST_NOINLINE static void fast_rep_neon_run(const uint8_t *src, size_t n, size_t *pi, uint64_t *ps,
                                            uint32_t *pcp, struct fast_out out, size_t *perr)
{
    fast_rep_run(fast_utf8(), src, n, pi, ps, pcp, out, perr);
}

/* The windows around errors: the portable replacing engine. */
static size_t fast_rep_neon_win(const uint8_t *src, size_t n, uint32_t *state, uint32_t *partial,
                                uint32_t *dst, size_t cap, size_t *written, size_t *errors)
{
    return fast_rep_engine((struct fast_rep_ops){fast_utf8(), FAST_ASCII_NEON, fast_rep_neon_run},
                           (struct fast_call){src, n, state, partial, dst, cap, written, errors});
}

/* Replacing: valid runs by the slabs (the NEON transcoder), errors by the
 * windows (slab.h's fast_slab_rep, as at SSE4 and AVX2). */
static size_t fast_rep_neon(const uint8_t *src, size_t n, uint32_t *state, uint32_t *partial,
                            uint32_t *dst, size_t cap, size_t *written, size_t *errors)
{
    return fast_slab_rep((struct fast_call){src, n, state, partial, dst, cap, written, errors},
                         fast_dec_neon_32, fast_rep_neon_win);
}

const struct utfdfa__utf8_fast_impl utfdfa__utf8_fast_neon = {
    fast_scan_neon, fast_dec_neon_32, fast_dec_neon_16, fast_rep_neon, fast_ascii32_neon,
};
#else
typedef int utfdfa__utf8_neon_none; /* not AArch64: nothing here (a unit must declare something) */
#endif
