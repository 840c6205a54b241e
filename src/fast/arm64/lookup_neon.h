/* SPDX-License-Identifier: MIT */
/* The lookup validator (lookup.h) with AArch64's ASIMD (NEON, baseline
 * there): 16 bytes a vector, tbl (vqtbl1q_u8) for the nibble tables, ext
 * for the previous bytes, a maximum across the vector (umaxv) for the
 * tests. */
#ifndef UTFDFA_FAST_ARM64_LOOKUP_NEON_H
#define UTFDFA_FAST_ARM64_LOOKUP_NEON_H

#include "../utf8/lookup.h"

#if FAST_ARM64
#define LK_NEON_INLINE FAST_INLINE

struct lk_neon_ctx {
    uint8x16_t ph, pl, ch, cl, sub[6], inc_max, pad, zero, tc;
};

LK_NEON_INLINE void lk_neon_init(struct lk_neon_ctx *c, const lk_tables *t, const int cur_low)
{
    uint8_t inc[16];
    c->ph = vld1q_u8(t->prev_high);
    c->pl = vld1q_u8(t->prev_low);
    c->ch = vld1q_u8(t->cur_high);
    c->cl = cur_low ? vld1q_u8(t->cur_low) : vdupq_n_u8(0xFF);
    for (int j = 2; j < t->max_len; j++)
        c->sub[j - 2] = vdupq_n_u8((uint8_t)(t->longer_min[j - 1] - 0x80));
    lk_incomplete_bytes(t, inc, 16);
    c->inc_max = vld1q_u8(inc);
    c->pad = vdupq_n_u8(t->pad);
    c->zero = vdupq_n_u8(0);
    c->tc = vdupq_n_u8(t->two_conts);
}

/* The bytes k before each of cur's (k = 1..7; a constant once inlined). */
LK_NEON_INLINE uint8x16_t lk_neon_prev(uint8x16_t prev, uint8x16_t cur, int k)
{
    switch (k) {
    case 1: return vextq_u8(prev, cur, 15);
    case 2: return vextq_u8(prev, cur, 14);
    case 3: return vextq_u8(prev, cur, 13);
    case 4: return vextq_u8(prev, cur, 12);
    case 5: return vextq_u8(prev, cur, 11);
    case 6: return vextq_u8(prev, cur, 10);
    default: return vextq_u8(prev, cur, 9);
    }
}

LK_NEON_INLINE void lk_neon_load(const uint8_t *p, uint8x16_t *v)
{
    v[0] = vld1q_u8(p);
    v[1] = vld1q_u8(p + 16);
    v[2] = vld1q_u8(p + 32);
    v[3] = vld1q_u8(p + 48);
}

LK_NEON_INLINE void lk_neon_load_tail(const struct lk_neon_ctx *c, const lk_tables *t,
                                      const uint8_t *p, size_t len, uint8x16_t *v)
{
    uint8_t buf[LK_GROUP];
    (void)c;
    memset(buf, t->pad, sizeof buf);
    if (len)
        memcpy(buf, p, len);
    lk_neon_load(buf, v);
}

LK_NEON_INLINE bool lk_neon_ascii(const uint8x16_t *v)
{
    uint8x16_t o = vorrq_u8(vorrq_u8(v[0], v[1]), vorrq_u8(v[2], v[3]));
    return vmaxvq_u8(o) < 0x80;
}

LK_NEON_INLINE uint8x16_t lk_neon_or(uint8x16_t a, uint8x16_t b)
{
    return vorrq_u8(a, b);
}

LK_NEON_INLINE bool lk_neon_any(uint8x16_t v)
{
    return vmaxvq_u32(vreinterpretq_u32_u8(v)) != 0;
}

/* Off the loop's path (a group with an error): byte by byte. */
LK_NEON_INLINE uint64_t lk_neon_nonzero(uint8x16_t v)
{
    uint8_t b[16];
    uint64_t m = 0;
    vst1q_u8(b, v);
    for (int k = 0; k < 16; k++)
        m |= (uint64_t)(b[k] != 0) << k;
    return m;
}

LK_NEON_INLINE uint8x16_t lk_neon_incomplete(const struct lk_neon_ctx *c, uint8x16_t v)
{
    return vqsubq_u8(v, c->inc_max);
}

LK_NEON_INLINE uint8x16_t lk_neon_check(const struct lk_neon_ctx *c, const lk_tables *t,
                                        const int cur_low, uint8x16_t prev, uint8x16_t cur)
{
    const uint8x16_t nib = vdupq_n_u8(0x0F);
    uint8x16_t p1 = lk_neon_prev(prev, cur, 1);
    uint8x16_t e = vandq_u8(vqtbl1q_u8(c->ph, vshrq_n_u8(p1, 4)), vqtbl1q_u8(c->pl, vandq_u8(p1, nib)));
    e = vandq_u8(e, vqtbl1q_u8(c->ch, vshrq_n_u8(cur, 4)));
    if (cur_low)
        e = vandq_u8(e, vqtbl1q_u8(c->cl, vandq_u8(cur, nib)));
    uint8x16_t must = vdupq_n_u8(0);
    for (int j = 2; j < t->max_len; j++)
        must = vorrq_u8(must, vqsubq_u8(lk_neon_prev(prev, cur, j), c->sub[j - 2]));
    if (t->two_conts == 0x80)
        must = vandq_u8(must, vdupq_n_u8(0x80));
    else
        must = vandq_u8(vtstq_u8(must, vdupq_n_u8(0x80)), c->tc);
    return veorq_u8(e, must);
}

#define LK_SUF neon
#define LK_INLINE LK_NEON_INLINE
#define LK_V uint8x16_t
#define LK_NB 4
#include "../utf8/lookup_engine.h"
#undef LK_SUF
#undef LK_INLINE
#undef LK_V
#undef LK_NB
#endif /* FAST_ARM64 */

#endif /* UTFDFA_FAST_UTF8_LOOKUP_NEON_H */
