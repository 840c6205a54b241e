/* SPDX-License-Identifier: MIT */
/* The variants of AArch64's NEON level: the portable engines (scan.h,
 * decode.h, replace.h) with the ASCII path in NEON (ascii.h), as the
 * portable set has it in words; validation is the lookup validator's
 * (lookup_neon.h, lookup.c), and decoding strict is by slabs (slab.h):
 * the lookup validator, then a transcoder of valid text without the DFA
 * (a character a step by its first byte; 16 ASCII bytes a step). */
#include "utf8_fast.h"

#include "decode.h"
#include "lanes.h"
#include "replace.h"
#include "lookup.h"
#include "scan.h"
#include "slab.h"
#include "variants.h"

#if FAST_ARM64
static size_t fast_scan_neon(const uint8_t *src, size_t n, uint32_t *state)
{
    return fast_scan_engine(fast_utf8(), src, n, state, FAST_ASCII_NEON, 2);
}

/* One unit (u16) or code point at dst[o]. */
FAST_INLINE void fast_put_unit(void *dst, size_t o, uint32_t c, bool u16)
{
    if (u16) {
        uint16_t u = (uint16_t)c;
        memcpy((uint16_t *)dst + o, &u, 2);
    } else {
        memcpy((uint32_t *)dst + o, &c, 4);
    }
}

/* slab.h's transcoder: src[0..n) is whole valid characters. */
FAST_INLINE size_t fast_valid_neon(const uint8_t *src, size_t n, void *dst, bool u16)
{
    size_t i = 0, o = 0;
    while (i < n) {
        uint32_t b = src[i];
        if (b < 0x80) {
            if (n - i >= 16 && fast_ascii16_neon(src + i)) {
                uint8x16_t v = vld1q_u8(src + i), z = vdupq_n_u8(0);
                if (u16)
                    vst2q_u8((uint8_t *)((uint16_t *)dst + o), (uint8x16x2_t){{v, z}});
                else
                    vst4q_u8((uint8_t *)((uint32_t *)dst + o), (uint8x16x4_t){{v, z, z, z}});
                i += 16, o += 16;
                continue;
            }
            fast_put_unit(dst, o++, b, u16);
            i++;
        } else if (b < 0xE0) {
            fast_put_unit(dst, o++, (b & 0x1F) << 6 | (src[i + 1] & 0x3Fu), u16);
            i += 2;
        } else if (b < 0xF0) {
            fast_put_unit(dst, o++,
                          (b & 0x0F) << 12 | (src[i + 1] & 0x3Fu) << 6 | (src[i + 2] & 0x3Fu), u16);
            i += 3;
        } else {
            uint32_t c = (b & 0x07) << 18 | (src[i + 1] & 0x3Fu) << 12 |
                         (src[i + 2] & 0x3Fu) << 6 | (src[i + 3] & 0x3Fu);
            if (u16) {
                fast_put_unit(dst, o++, 0xD800 + ((c - 0x10000) >> 10), true);
                fast_put_unit(dst, o++, 0xDC00 + (c & 0x3FF), true);
            } else {
                fast_put_unit(dst, o++, c, false);
            }
            i += 4;
        }
    }
    return o;
}

static size_t fast_valid_neon_32(const uint8_t *src, size_t n, void *dst)
{
    return fast_valid_neon(src, n, dst, false);
}

static size_t fast_valid_neon_16(const uint8_t *src, size_t n, void *dst)
{
    return fast_valid_neon(src, n, dst, true);
}

static size_t fast_ascii32_neon(const uint8_t *src, size_t n, void *dst)
{
    return fast_ascii_widen_neon(src, n, dst, n, false);
}

static size_t fast_ascii16_neon_widen(const uint8_t *src, size_t n, void *dst)
{
    return fast_ascii_widen_neon(src, n, dst, n, true);
}

static size_t fast_dec_neon_32(const uint8_t *src, size_t n, uint32_t *state, uint32_t *partial,
                               uint32_t *dst, size_t cap, size_t *written)
{
    return fast_slab_engine((struct fast_slab_ops){fast_utf8(), false, fast_valid_neon_32,
                                                   utfdfa__utf8_scan_lookup_neon,
                                                   fast_ascii32_neon},
                            (struct fast_call){src, n, state, partial, dst, cap, written, NULL});
}

static size_t fast_dec_neon_16(const uint8_t *src, size_t n, uint32_t *state, uint32_t *partial,
                               uint16_t *dst, size_t cap, size_t *written)
{
    return fast_slab_engine((struct fast_slab_ops){fast_utf8(), true, fast_valid_neon_16,
                                                   utfdfa__utf8_scan_lookup_neon,
                                                   fast_ascii16_neon_widen},
                            (struct fast_call){src, n, state, partial, dst, cap, written, NULL});
}

FAST_NOINLINE static void fast_rep_neon_run(const uint8_t *src, size_t n, size_t *pi, uint64_t *ps,
                                            uint32_t *pcp, struct fast_out out, size_t *perr)
{
    fast_rep_run(fast_utf8(), src, n, pi, ps, pcp, out, perr);
}

static size_t fast_rep_neon(const uint8_t *src, size_t n, uint32_t *state, uint32_t *partial,
                            uint32_t *dst, size_t cap, size_t *written, size_t *errors)
{
    return fast_rep_engine((struct fast_rep_ops){fast_utf8(), FAST_ASCII_NEON, fast_rep_neon_run},
                           (struct fast_call){src, n, state, partial, dst, cap, written, errors});
}

const struct utfdfa__utf8_fast_impl utfdfa__utf8_fast_neon = {
    fast_scan_neon, fast_dec_neon_32, fast_dec_neon_16, fast_rep_neon, fast_ascii32_neon,
};
#else
typedef int utfdfa__utf8_neon_none; /* not AArch64: nothing here (a unit must declare something) */
#endif
