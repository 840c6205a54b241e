/* SPDX-License-Identifier: MIT */
/* The lookup validator (lookup.h) with SSSE3 and SSE4.1: 16 bytes a
 * vector, pshufb for the nibble tables, palignr for the previous bytes. */
#ifndef UTFDFA_FAST_UTF8_LOOKUP_SSE4_H
#define UTFDFA_FAST_UTF8_LOOKUP_SSE4_H

#include "lookup.h"

#if FAST_X86
#define FAST_TARGET_SSE4 __attribute__((target("ssse3,sse4.1")))
#define LK_SSE4_INLINE FAST_INLINE FAST_TARGET_SSE4

#define LK_SSE4_LOAD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))

struct lk_sse4_ctx {
    __m128i ph, pl, ch, cl, sub[6], inc_max, pad, zero, tc, zpad;
};

LK_SSE4_INLINE void lk_sse4_init(struct lk_sse4_ctx *c, const lk_tables *t, const int cur_low)
{
    uint8_t inc[16];
    c->ph = LK_SSE4_LOAD(t->prev_high);
    c->pl = LK_SSE4_LOAD(t->prev_low);
    c->ch = LK_SSE4_LOAD(t->cur_high);
    c->cl = cur_low ? LK_SSE4_LOAD(t->cur_low) : _mm_set1_epi8(-1);
    for (int j = 2; j < t->max_len; j++)
        c->sub[j - 2] = _mm_set1_epi8((char)(t->longer_min[j - 1] - 0x80));
    lk_incomplete_bytes(t, inc, 16);
    c->inc_max = LK_SSE4_LOAD(inc);
    c->pad = _mm_set1_epi8((char)t->pad);
    c->zero = _mm_setzero_si128();
    c->tc = _mm_set1_epi8((char)t->two_conts);
    c->zpad = c->zero;
    for (int j = 2; j < t->max_len; j++)
        c->zpad = _mm_or_si128(c->zpad, _mm_subs_epu8(c->pad, c->sub[j - 2]));
}

/* The bytes k before each of cur's (k = 1..7; a constant once inlined). */
LK_SSE4_INLINE __m128i lk_sse4_prev(__m128i prev, __m128i cur, int k)
{
    switch (k) {
    case 1: return _mm_alignr_epi8(cur, prev, 15);
    case 2: return _mm_alignr_epi8(cur, prev, 14);
    case 3: return _mm_alignr_epi8(cur, prev, 13);
    case 4: return _mm_alignr_epi8(cur, prev, 12);
    case 5: return _mm_alignr_epi8(cur, prev, 11);
    case 6: return _mm_alignr_epi8(cur, prev, 10);
    default: return _mm_alignr_epi8(cur, prev, 9);
    }
}

LK_SSE4_INLINE void lk_sse4_load(const uint8_t *p, __m128i *v)
{
    v[0] = LK_SSE4_LOAD(p);
    v[1] = LK_SSE4_LOAD(p + 16);
    v[2] = LK_SSE4_LOAD(p + 32);
    v[3] = LK_SSE4_LOAD(p + 48);
}

LK_SSE4_INLINE void lk_sse4_load_tail(const struct lk_sse4_ctx *c, const lk_tables *t,
                                      const uint8_t *p, size_t len, __m128i *v)
{
    uint8_t buf[LK_GROUP];
    (void)c;
    memset(buf, t->pad, sizeof buf);
    if (len)
        memcpy(buf, p, len);
    lk_sse4_load(buf, v);
}

LK_SSE4_INLINE bool lk_sse4_ascii(const __m128i *v)
{
    __m128i o = _mm_or_si128(_mm_or_si128(v[0], v[1]), _mm_or_si128(v[2], v[3]));
    return _mm_movemask_epi8(o) == 0;
}

LK_SSE4_INLINE __m128i lk_sse4_or(__m128i a, __m128i b)
{
    return _mm_or_si128(a, b);
}

LK_SSE4_INLINE bool lk_sse4_any(__m128i v)
{
    return !_mm_testz_si128(v, v);
}

LK_SSE4_INLINE uint64_t lk_sse4_nonzero(__m128i v)
{
    return (uint64_t)(~_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128())) & 0xFFFF);
}

LK_SSE4_INLINE __m128i lk_sse4_incomplete(const struct lk_sse4_ctx *c, __m128i v)
{
    return _mm_subs_epu8(v, c->inc_max);
}

LK_SSE4_INLINE __m128i lk_sse4_check(const struct lk_sse4_ctx *c, const lk_tables *t,
                                     const int cur_low, __m128i prev, __m128i cur)
{
    const __m128i nib = _mm_set1_epi8(0x0F);
    __m128i p1 = lk_sse4_prev(prev, cur, 1);
    __m128i e = _mm_and_si128(_mm_shuffle_epi8(c->ph, _mm_and_si128(_mm_srli_epi16(p1, 4), nib)),
                              _mm_shuffle_epi8(c->pl, _mm_and_si128(p1, nib)));
    e = _mm_and_si128(e, _mm_shuffle_epi8(c->ch, _mm_and_si128(_mm_srli_epi16(cur, 4), nib)));
    if (cur_low)
        e = _mm_and_si128(e, _mm_shuffle_epi8(c->cl, _mm_and_si128(cur, nib)));
    __m128i must = _mm_setzero_si128();
    for (int j = 2; j < t->max_len; j++)
        must = _mm_or_si128(must, _mm_subs_epu8(lk_sse4_prev(prev, cur, j), c->sub[j - 2]));
    if (t->two_conts == 0x80)
        must = _mm_and_si128(must, _mm_set1_epi8((char)0x80));
    else
        must = _mm_and_si128(_mm_cmplt_epi8(must, _mm_setzero_si128()), c->tc);
    return _mm_xor_si128(e, must);
}

/* The engine's step: check's work with the longer-character test shifted
 * once (one palignr fewer a vector): byte i of "longer" has its top bit set
 * when b[i-j+2] >= longer_min[j-1] for some j = 2..max_len-1, so that
 * must(i) = longer(i-2), the previous vector's longer carried with it. */
struct lk_sse4_carry {
    __m128i v, longer;
};

LK_SSE4_INLINE struct lk_sse4_carry lk_sse4_carry_pad(const struct lk_sse4_ctx *c)
{
    struct lk_sse4_carry k = {c->pad, c->zpad};
    return k;
}

/* Below 0x80, no byte starts a longer character: its subtraction leaves
 * the top bit, all that is read of "longer", clear. */
LK_SSE4_INLINE struct lk_sse4_carry lk_sse4_carry_ascii(const struct lk_sse4_ctx *c, __m128i v)
{
    struct lk_sse4_carry k = {v, c->zero};
    return k;
}

LK_SSE4_INLINE __m128i lk_sse4_carry_vec(struct lk_sse4_carry k)
{
    return k.v;
}

LK_SSE4_INLINE __m128i lk_sse4_step(const struct lk_sse4_ctx *c, const lk_tables *t,
                                    const int cur_low, const struct lk_sse4_carry *prev,
                                    __m128i cur, struct lk_sse4_carry *next)
{
    const __m128i nib = _mm_set1_epi8(0x0F);
    __m128i p1 = lk_sse4_prev(prev->v, cur, 1);
    __m128i e = _mm_and_si128(_mm_shuffle_epi8(c->ph, _mm_and_si128(_mm_srli_epi16(p1, 4), nib)),
                              _mm_shuffle_epi8(c->pl, _mm_and_si128(p1, nib)));
    e = _mm_and_si128(e, _mm_shuffle_epi8(c->ch, _mm_and_si128(_mm_srli_epi16(cur, 4), nib)));
    if (cur_low)
        e = _mm_and_si128(e, _mm_shuffle_epi8(c->cl, _mm_and_si128(cur, nib)));
    __m128i longer = c->zero, must = c->zero;
    for (int j = 2; j < t->max_len; j++)
        longer = _mm_or_si128(
            longer, _mm_subs_epu8(j == 2 ? cur : j == 3 ? p1 : lk_sse4_prev(prev->v, cur, j - 2),
                                  c->sub[j - 2]));
    if (t->max_len > 2)
        must = lk_sse4_prev(prev->longer, longer, 2);
    next->v = cur;
    next->longer = longer;
    if (t->two_conts == 0x80)
        must = _mm_and_si128(must, _mm_set1_epi8((char)0x80));
    else
        must = _mm_and_si128(_mm_cmplt_epi8(must, _mm_setzero_si128()), c->tc);
    return _mm_xor_si128(e, must);
}

#define LK_SUF sse4
#define LK_INLINE LK_SSE4_INLINE
#define LK_V __m128i
#define LK_NB 4
#define LK_CARRY struct lk_sse4_carry
#define LK_BATCH 2
#include "lookup_engine.h"
#undef LK_CARRY
#undef LK_SUF
#undef LK_INLINE
#undef LK_V
#undef LK_NB
#endif /* FAST_X86 */

#endif /* UTFDFA_FAST_UTF8_LOOKUP_SSE4_H */
