/* SPDX-License-Identifier: MIT */
/* The AVX-512 operations of the lookup engine (lookup_engine.h), for
 * lookup_avx512.h, which includes this file once per kernel with LK_SUF,
 * LK_INLINE and LK_VBMI (1: the previous bytes by vpermt2b) defined. */
#define LK_O2(a, b) a##b
#define LK_O1(a, b) LK_O2(a, b)
#define LK_O(name) LK_O1(LK_O1(lk_, LK_SUF), LK_O1(_, name))

struct LK_O(ctx) {
    __m512i ph, pl, ch, cl, sub[6], inc_max, pad, zero, tc, idx[7], zpad, top;
};

LK_INLINE void LK_O(init)(struct LK_O(ctx) *c, const lk_tables *t, const int cur_low)
{
#define LK_TABLE(p) _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(const void *)(p)))
    c->ph = LK_TABLE(t->prev_high);
    c->pl = LK_TABLE(t->prev_low);
    c->ch = LK_TABLE(t->cur_high);
    c->cl = cur_low ? LK_TABLE(t->cur_low) : _mm512_set1_epi8(-1);
#undef LK_TABLE
    for (int j = 2; j < t->max_len; j++)
        c->sub[j - 2] = _mm512_set1_epi8((char)(t->longer_min[j - 1] - 0x80));
    c->inc_max = _mm512_set1_epi8(-1);
    for (int j = 1; j < t->max_len; j++)
        c->inc_max = _mm512_mask_set1_epi8(c->inc_max, (__mmask64)((uint64_t)1 << (64 - j)),
                                           (char)(t->longer_min[j - 1] - 1));
    c->pad = _mm512_set1_epi8((char)t->pad);
    c->zero = _mm512_setzero_si512();
    c->tc = _mm512_set1_epi8((char)t->two_conts);
    c->top = _mm512_set1_epi8((char)0x80);
    c->zpad = c->zero;
    for (int j = 2; j < t->max_len; j++)
        c->zpad = _mm512_or_si512(c->zpad, _mm512_subs_epu8(c->pad, c->sub[j - 2]));
    /* vpermt2b's indices: byte i takes byte 64 + i - k of prev:cur. */
    for (int k = 1; LK_VBMI && k < t->max_len && k <= 7; k++)
        c->idx[k - 1] = _mm512_add_epi8(_mm512_loadu_si512((const void *)lk_iota64),
                                        _mm512_set1_epi8((char)(64 - k)));
}

/* The bytes k before each of cur's (k = 1..7; a constant once inlined). */
LK_INLINE __m512i LK_O(prev)(const struct LK_O(ctx) *c, __m512i prev, __m512i cur, int k)
{
#if LK_VBMI
    return _mm512_permutex2var_epi8(prev, c->idx[k - 1], cur);
#else
    (void)c;
    __m512i m = _mm512_alignr_epi32(cur, prev, 12);
    switch (k) {
    case 1: return _mm512_alignr_epi8(cur, m, 15);
    case 2: return _mm512_alignr_epi8(cur, m, 14);
    case 3: return _mm512_alignr_epi8(cur, m, 13);
    case 4: return _mm512_alignr_epi8(cur, m, 12);
    case 5: return _mm512_alignr_epi8(cur, m, 11);
    case 6: return _mm512_alignr_epi8(cur, m, 10);
    default: return _mm512_alignr_epi8(cur, m, 9);
    }
#endif
}

LK_INLINE void LK_O(load)(const uint8_t *p, __m512i *v)
{
    v[0] = _mm512_loadu_si512((const void *)p);
}

/* A masked load: no byte at or past p[len) is read. */
LK_INLINE void LK_O(load_tail)(const struct LK_O(ctx) *c, const lk_tables *t, const uint8_t *p,
                               size_t len, __m512i *v)
{
    (void)t;
    v[0] = _mm512_mask_loadu_epi8(c->pad, (__mmask64)(((uint64_t)1 << len) - 1), p);
}

LK_INLINE bool LK_O(ascii)(const __m512i *v)
{
    return _mm512_movepi8_mask(v[0]) == 0;
}

LK_INLINE __m512i LK_O(or)(__m512i a, __m512i b)
{
    return _mm512_or_si512(a, b);
}

LK_INLINE bool LK_O(any)(__m512i v)
{
    return _mm512_test_epi8_mask(v, v) != 0;
}

LK_INLINE uint64_t LK_O(nonzero)(__m512i v)
{
    return (uint64_t)_mm512_test_epi8_mask(v, v);
}

LK_INLINE __m512i LK_O(incomplete)(const struct LK_O(ctx) *c, __m512i v)
{
    return _mm512_subs_epu8(v, c->inc_max);
}

LK_INLINE __m512i LK_O(check)(const struct LK_O(ctx) *c, const lk_tables *t, const int cur_low,
                              __m512i prev, __m512i cur)
{
    const __m512i nib = _mm512_set1_epi8(0x0F);
    __m512i p1 = LK_O(prev)(c, prev, cur, 1);
    __m512i e = _mm512_and_si512(
        _mm512_shuffle_epi8(c->ph, _mm512_and_si512(_mm512_srli_epi16(p1, 4), nib)),
        _mm512_shuffle_epi8(c->pl, _mm512_and_si512(p1, nib)));
    e = _mm512_and_si512(
        e, _mm512_shuffle_epi8(c->ch, _mm512_and_si512(_mm512_srli_epi16(cur, 4), nib)));
    if (cur_low)
        e = _mm512_and_si512(e, _mm512_shuffle_epi8(c->cl, _mm512_and_si512(cur, nib)));
    __m512i must = _mm512_setzero_si512();
    for (int j = 2; j < t->max_len; j++)
        must = _mm512_or_si512(must, _mm512_subs_epu8(LK_O(prev)(c, prev, cur, j), c->sub[j - 2]));
    if (t->two_conts == 0x80)
        must = _mm512_and_si512(must, _mm512_set1_epi8((char)0x80));
    else
        must = _mm512_maskz_mov_epi8(_mm512_movepi8_mask(must), c->tc);
    return _mm512_xor_si512(e, must);
}

#if LK_VBMI
/* VBMI's step: the nibble lookups by vpermb, which reads an index's low six
 * bits (the 16-byte tables are broadcast four times, so neither the bits a
 * 16-bit shift brings in nor a set top bit need masking off), and the
 * longer-character test shifted once: byte i of "longer" is set when
 * b[i-j+2] >= longer_min[j-1] for some j = 2..max_len-1, so that
 * must(i) = longer(i-2), the previous vector's longer carried with it. */
struct LK_O(carry) {
    __m512i v, longer;
};

LK_INLINE struct LK_O(carry) LK_O(carry_pad)(const struct LK_O(ctx) *c)
{
    struct LK_O(carry) k = {c->pad, c->zpad};
    return k;
}

/* Below 0x80, no byte starts a longer character: its subtraction leaves
 * the top bit, all that is read of "longer", clear. */
LK_INLINE struct LK_O(carry) LK_O(carry_ascii)(const struct LK_O(ctx) *c, __m512i v)
{
    struct LK_O(carry) k = {v, c->zero};
    return k;
}

LK_INLINE __m512i LK_O(carry_vec)(struct LK_O(carry) k)
{
    return k.v;
}

LK_INLINE __m512i LK_O(step)(const struct LK_O(ctx) *c, const lk_tables *t, const int cur_low,
                             const struct LK_O(carry) *prev, __m512i cur,
                             struct LK_O(carry) *next)
{
    __m512i p1 = LK_O(prev)(c, prev->v, cur, 1);
    __m512i e = _mm512_ternarylogic_epi32(
        _mm512_permutexvar_epi8(_mm512_srli_epi16(p1, 4), c->ph),
        _mm512_permutexvar_epi8(p1, c->pl),
        _mm512_permutexvar_epi8(_mm512_srli_epi16(cur, 4), c->ch), 0x80); /* a & b & c */
    if (cur_low)
        e = _mm512_and_si512(e, _mm512_permutexvar_epi8(cur, c->cl));
    __m512i longer = c->zero, must = c->zero;
    for (int j = 2; j < t->max_len; j++)
        longer = _mm512_or_si512(
            longer, _mm512_subs_epu8(j == 2 ? cur : j == 3 ? p1 : LK_O(prev)(c, prev->v, cur, j - 2),
                                     c->sub[j - 2]));
    if (t->max_len > 2)
        must = LK_O(prev)(c, prev->longer, longer, 2);
    next->v = cur;
    next->longer = longer;
    if (t->two_conts == 0x80)
        return _mm512_ternarylogic_epi32(must, c->top, e, 0x6A); /* (a & b) ^ c */
    return _mm512_xor_si512(e, _mm512_maskz_mov_epi8(_mm512_movepi8_mask(must), c->tc));
}

#define LK_CARRY struct LK_O(carry)
#endif
/* Four groups a test: the test and its branch cost as much as a sixth of
 * a group's step; eight spill the BW kernel's registers. */
#define LK_BATCH 4

#define LK_V __m512i
#define LK_NB 1
#include "lookup_engine.h"
#undef LK_CARRY
#undef LK_V
#undef LK_NB
#undef LK_O
#undef LK_O1
#undef LK_O2
