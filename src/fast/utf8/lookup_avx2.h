/* SPDX-License-Identifier: MIT */
/* The lookup validator (lookup.h) with AVX2: 32 bytes a vector, vpshufb
 * for the nibble tables (each broadcast to both halves), the previous
 * bytes from vperm2i128 and vpalignr. */
#ifndef UTFDFA_FAST_UTF8_LOOKUP_AVX2_H
#define UTFDFA_FAST_UTF8_LOOKUP_AVX2_H

#include "lookup.h"

#if FAST_X86
#define FAST_TARGET_AVX2BMI __attribute__((target("avx2,bmi,bmi2")))
#define LK_AVX2_INLINE FAST_INLINE FAST_TARGET_AVX2BMI

#define LK_AVX2_LOAD(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define LK_AVX2_TABLE(p) \
    _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(p)))

struct lk_avx2_ctx {
    __m256i ph, pl, ch, cl, sub[6], inc_max, pad, zero, tc;
};

LK_AVX2_INLINE void lk_avx2_init(struct lk_avx2_ctx *c, const lk_tables *t, const int cur_low)
{
    uint8_t inc[32];
    c->ph = LK_AVX2_TABLE(t->prev_high);
    c->pl = LK_AVX2_TABLE(t->prev_low);
    c->ch = LK_AVX2_TABLE(t->cur_high);
    c->cl = cur_low ? LK_AVX2_TABLE(t->cur_low) : _mm256_set1_epi8(-1);
    for (int j = 2; j < t->max_len; j++)
        c->sub[j - 2] = _mm256_set1_epi8((char)(t->longer_min[j - 1] - 0x80));
    lk_incomplete_bytes(t, inc, 32);
    c->inc_max = LK_AVX2_LOAD(inc);
    c->pad = _mm256_set1_epi8((char)t->pad);
    c->zero = _mm256_setzero_si256();
    c->tc = _mm256_set1_epi8((char)t->two_conts);
}

/* The bytes k before each of cur's (k = 1..7; a constant once inlined). */
LK_AVX2_INLINE __m256i lk_avx2_prev(__m256i prev, __m256i cur, int k)
{
    __m256i m = _mm256_permute2x128_si256(prev, cur, 0x21);
    switch (k) {
    case 1: return _mm256_alignr_epi8(cur, m, 15);
    case 2: return _mm256_alignr_epi8(cur, m, 14);
    case 3: return _mm256_alignr_epi8(cur, m, 13);
    case 4: return _mm256_alignr_epi8(cur, m, 12);
    case 5: return _mm256_alignr_epi8(cur, m, 11);
    case 6: return _mm256_alignr_epi8(cur, m, 10);
    default: return _mm256_alignr_epi8(cur, m, 9);
    }
}

LK_AVX2_INLINE void lk_avx2_load(const uint8_t *p, __m256i *v)
{
    v[0] = LK_AVX2_LOAD(p);
    v[1] = LK_AVX2_LOAD(p + 32);
}

LK_AVX2_INLINE void lk_avx2_load_tail(const struct lk_avx2_ctx *c, const lk_tables *t,
                                      const uint8_t *p, size_t len, __m256i *v)
{
    uint8_t buf[LK_GROUP];
    (void)c;
    memset(buf, t->pad, sizeof buf);
    if (len)
        memcpy(buf, p, len);
    lk_avx2_load(buf, v);
}

LK_AVX2_INLINE bool lk_avx2_ascii(const __m256i *v)
{
    return _mm256_movemask_epi8(_mm256_or_si256(v[0], v[1])) == 0;
}

LK_AVX2_INLINE __m256i lk_avx2_or(__m256i a, __m256i b)
{
    return _mm256_or_si256(a, b);
}

LK_AVX2_INLINE bool lk_avx2_any(__m256i v)
{
    return !_mm256_testz_si256(v, v);
}

LK_AVX2_INLINE uint64_t lk_avx2_nonzero(__m256i v)
{
    __m256i zero = _mm256_cmpeq_epi8(v, _mm256_setzero_si256());
    return (uint64_t)~(uint32_t)_mm256_movemask_epi8(zero);
}

LK_AVX2_INLINE __m256i lk_avx2_incomplete(const struct lk_avx2_ctx *c, __m256i v)
{
    return _mm256_subs_epu8(v, c->inc_max);
}

LK_AVX2_INLINE __m256i lk_avx2_check(const struct lk_avx2_ctx *c, const lk_tables *t,
                                     const int cur_low, __m256i prev, __m256i cur)
{
    const __m256i nib = _mm256_set1_epi8(0x0F);
    __m256i p1 = lk_avx2_prev(prev, cur, 1);
    __m256i e = _mm256_and_si256(
        _mm256_shuffle_epi8(c->ph, _mm256_and_si256(_mm256_srli_epi16(p1, 4), nib)),
        _mm256_shuffle_epi8(c->pl, _mm256_and_si256(p1, nib)));
    e = _mm256_and_si256(
        e, _mm256_shuffle_epi8(c->ch, _mm256_and_si256(_mm256_srli_epi16(cur, 4), nib)));
    if (cur_low)
        e = _mm256_and_si256(e, _mm256_shuffle_epi8(c->cl, _mm256_and_si256(cur, nib)));
    __m256i must = _mm256_setzero_si256();
    for (int j = 2; j < t->max_len; j++)
        must = _mm256_or_si256(must, _mm256_subs_epu8(lk_avx2_prev(prev, cur, j), c->sub[j - 2]));
    if (t->two_conts == 0x80)
        must = _mm256_and_si256(must, _mm256_set1_epi8((char)0x80));
    else
        must = _mm256_and_si256(_mm256_cmpgt_epi8(_mm256_setzero_si256(), must), c->tc);
    return _mm256_xor_si256(e, must);
}

#define LK_SUF avx2
#define LK_INLINE LK_AVX2_INLINE
#define LK_V __m256i
#define LK_NB 2
#define LK_BATCH 2
#include "lookup_engine.h"
#undef LK_SUF
#undef LK_INLINE
#undef LK_V
#undef LK_NB
#endif /* FAST_X86 */

#endif /* UTFDFA_FAST_UTF8_LOOKUP_AVX2_H */
