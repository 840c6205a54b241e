/* SPDX-License-Identifier: MIT */
/* The fused kernels (utfdfa__wide_transcode) of the SSE4 level into UTF-8:
 * UTF-16 (16 units a step, surrogate pairs checked and joined in the
 * vector) and UTF-32 (16 code points a step), either byte order (a pshufb
 * swaps bytes); between UTF-16 and UTF-32, units_sse4.c. The AVX2 level
 * has its own (wide_avx2.c), which hands these the steps with pairs or
 * code points above U+FFFF. How the output is packed and stored:
 * wide_sse4.h. */
#include "wide_sse4.h"

#if KERN_X86
#define WIDE_TABLES_HERE /* the one copy of the tables */
#include "wide.gen.h"
#undef WIDE_TABLES_HERE

/* The 4-byte forms of 4 code points above U+FFFF, in memory order. */
SSE4_INLINE __m128i wide_utf8_four(__m128i c)
{
    __m128i body = _mm_or_si128(
        _mm_or_si128(_mm_srli_epi32(c, 18), _mm_and_si128(_mm_srli_epi32(c, 4), _mm_set1_epi32(0x3F00))),
        _mm_or_si128(_mm_and_si128(_mm_slli_epi32(c, 10), _mm_set1_epi32(0x3F0000)),
                     _mm_and_si128(_mm_slli_epi32(c, 24), _mm_set1_epi32(0x3F000000))));
    return _mm_or_si128(body, _mm_set1_epi32((int)0x808080F0u));
}

/* UTF-8 of 8 units in two 16-bit lane vectors: a holds each unit's first
 * two bytes (of a surrogate: two of its pair's four), b the third of a
 * 3-byte form. groups: for units 0-3 in bits 0-7, 4-7 in bits 8-15, two
 * bits a unit: whether ASCII (bit 2k), whether of at most 2 bytes or a
 * surrogate (bit 2k + 1): wide_utf8_group's index. */
struct wide_utf8_8 {
    __m128i a, b;
    unsigned groups;
};

/* The rows of the two 4-unit halves (wide_utf8_group); returns the bytes
 * they pack. */
KERN_INLINE size_t wide_utf8_rows(const struct wide_utf8_8 *u, unsigned row[2])
{
    row[0] = wide_utf8_group[u->groups & 0xFF];
    row[1] = wide_utf8_group[u->groups >> 8];
    return (size_t)(row[0] >> 10) + (row[1] >> 10);
}

/* Writes them packed at dst (scratch past the end). */
SSE4_INLINE void wide_utf8_store(uint8_t *dst, const struct wide_utf8_8 *u, const unsigned row[2])
{
    X_STORE(dst, _mm_shuffle_epi8(_mm_unpacklo_epi16(u->a, u->b),
                                  X_LOAD(wide_utf8_shuffle + (row[0] & 0x3FF))));
    X_STORE(dst + (row[0] >> 10), _mm_shuffle_epi8(_mm_unpackhi_epi16(u->a, u->b),
                                                   X_LOAD(wide_utf8_shuffle + (row[1] & 0x3FF))));
}


/* The first two UTF-8 bytes of units below 0x800 (a 2-byte form's lead,
 * then the next byte in the high byte); ASCII units (one) as they are. */
SSE4_INLINE __m128i sse4_utf8_short(__m128i v, __m128i one)
{
    __m128i t8 = _mm_and_si128(_mm_slli_epi16(v, 8), X_SET16(0x3F00));
    return _mm_blendv_epi8(_mm_or_si128(_mm_or_si128(_mm_srli_epi16(v, 6), t8), X_SET16(0x80C0)), v,
                           one);
}

/* The first two bytes of units' 3-byte forms. */
SSE4_INLINE __m128i sse4_utf8_three(__m128i v)
{
    return _mm_or_si128(_mm_or_si128(_mm_srli_epi16(v, 12),
                                     _mm_and_si128(_mm_slli_epi16(v, 2), X_SET16(0x3F00))),
                        X_SET16(0x80E0));
}

/* Their third bytes. */
SSE4_INLINE __m128i sse4_utf8_last(__m128i v)
{
    return _mm_or_si128(_mm_and_si128(v, X_SET16(0x3F)), X_SET16(0x80));
}

/* 8 units below 0x800 as UTF-8, packed by one wide_utf8_two8 row into
 * the low *len bytes. */
SSE4_INLINE __m128i sse4_utf8_short8(__m128i v, size_t *len)
{
    __m128i one = _mm_cmpeq_epi16(_mm_and_si128(v, X_SET16(0xFF80)), _mm_setzero_si128());
    unsigned two = ~(unsigned)_mm_movemask_epi8(_mm_packs_epi16(one, one)) & 0xFF;
    *len = wide_utf8_two8_len[two];
    return _mm_shuffle_epi8(sse4_utf8_short(v, one), X_LOAD(wide_utf8_two8[two]));
}

/* 8 units of 3-byte forms as UTF-8 at dst (24 bytes, scratch past them). */
SSE4_INLINE void sse4_put_three8(uint8_t *dst, __m128i v)
{
    __m128i a = sse4_utf8_three(v), b = sse4_utf8_last(v);
    const __m128i ctrl = X_LOAD(wide_utf8_shuffle + WIDE_UTF8_THREES);
    X_STORE(dst, _mm_shuffle_epi8(_mm_unpacklo_epi16(a, b), ctrl));
    X_STORE(dst + 12, _mm_shuffle_epi8(_mm_unpackhi_epi16(a, b), ctrl));
}

/* 8 units (prev: the units shifted by one, the one before each) as UTF-8
 * lanes (struct wide_utf8_8); pairs: whether the step has surrogates, which then
 * pair up (checked by the caller). */
SSE4_INLINE void sse4_utf8_lanes(__m128i v, __m128i prev, int pairs, struct wide_utf8_8 *u)
{
    __m128i one = _mm_cmpeq_epi16(_mm_and_si128(v, X_SET16(0xFF80)), _mm_setzero_si128());
    __m128i top5 = _mm_and_si128(v, X_SET16(0xF800));
    __m128i le2 = _mm_cmpeq_epi16(top5, _mm_setzero_si128());
    __m128i t8 = _mm_and_si128(_mm_slli_epi16(v, 8), X_SET16(0x3F00));
    __m128i a = _mm_blendv_epi8(sse4_utf8_three(v), sse4_utf8_short(v, one), le2);
    if (pairs) {
        __m128i hp = _mm_add_epi16(v, X_SET16(0x2840)); /* h - 0xD7C0: the code point >> 10 */
        __m128i high = _mm_or_si128(_mm_or_si128(_mm_srli_epi16(hp, 8),
                                                 _mm_and_si128(_mm_slli_epi16(hp, 6), X_SET16(0x3F00))),
                                    X_SET16(0x80F0));
        __m128i mid = _mm_or_si128(_mm_and_si128(_mm_srli_epi16(v, 6), X_SET16(0x0F)),
                                   _mm_and_si128(_mm_slli_epi16(prev, 4), X_SET16(0x30)));
        __m128i low = _mm_or_si128(_mm_or_si128(mid, t8), X_SET16(0x8080));
        a = _mm_blendv_epi8(_mm_blendv_epi8(a, high, sse4_high(v)), low, sse4_low(v));
        le2 = _mm_or_si128(le2, _mm_cmpeq_epi16(top5, X_SET16(0xD800)));
    }
    /* low bytes: one; high bytes: le2 (one implies le2) */
    u->groups = (unsigned)_mm_movemask_epi8(_mm_and_si128(le2, _mm_or_si128(one, X_SET16(0xFF00))));
    u->a = a;
    u->b = sse4_utf8_last(v);
}

/* One step of UTF-16 into UTF-8: 16 units (30 bytes when the last is a
 * high surrogate), room for 64 bytes at dst. Returns the bytes read (0: a
 * surrogate is lone, nothing written); *wrote, *saved (the scratch rule, above). */
SSE4_INLINE size_t sse4_step_utf8(__m128i v0, __m128i v1, uint8_t *dst, size_t *wrote,
                                  __m128i *saved)
{
    if (_mm_testz_si128(_mm_or_si128(v0, v1), X_SET16(0xFF80))) { /* ASCII */
        *saved = X_LOAD(dst + 16);
        X_STORE(dst, _mm_packus_epi16(v0, v1));
        *wrote = 16;
        return 32;
    }
    if (_mm_testz_si128(_mm_or_si128(v0, v1), X_SET16(0xF800))) { /* all below 0x800 */
        size_t n0, n1;
        __m128i p0 = sse4_utf8_short8(v0, &n0), p1 = sse4_utf8_short8(v1, &n1);
        *saved = X_LOAD(dst + n0 + n1);
        X_STORE(dst, p0);
        X_STORE(dst + n0, p1);
        *wrote = n0 + n1;
        return 32;
    }
    __m128i t0 = _mm_and_si128(v0, X_SET16(0xF800)), t1 = _mm_and_si128(v1, X_SET16(0xF800));
    __m128i sur = _mm_or_si128(_mm_cmpeq_epi16(t0, X_SET16(0xD800)), _mm_cmpeq_epi16(t1, X_SET16(0xD800)));
    int pairs = !_mm_testz_si128(sur, sur);
    __m128i le2 = _mm_or_si128(_mm_cmpeq_epi16(t0, _mm_setzero_si128()),
                               _mm_cmpeq_epi16(t1, _mm_setzero_si128()));
    if (!pairs && _mm_testz_si128(le2, le2)) { /* 3 bytes each (CJK) */
        *saved = X_LOAD(dst + 48);
        sse4_put_three8(dst, v0);
        sse4_put_three8(dst + 24, v1);
        *wrote = 48;
        return 32;
    }
    unsigned last = 0;
    struct wide_utf8_8 u0, u1;
    if (pairs) {
        unsigned hm = (unsigned)_mm_movemask_epi8(_mm_packs_epi16(sse4_high(v0), sse4_high(v1)));
        unsigned lm = (unsigned)_mm_movemask_epi8(_mm_packs_epi16(sse4_low(v0), sse4_low(v1)));
        if (lm != (hm << 1 & 0xFFFF))
            return 0;
        if (hm == 0x5555) { /* 8 pairs (emoji): 4 bytes each, nothing to pack */
            *saved = X_LOAD(dst + 32);
            X_STORE(dst, wide_utf8_four(wide_pair_points(v0)));
            X_STORE(dst + 16, wide_utf8_four(wide_pair_points(v1)));
            *wrote = 32;
            return 32;
        }
        last = hm >> 15; /* its low one is in the next step */
    }
    sse4_utf8_lanes(v0, _mm_slli_si128(v0, 2), pairs, &u0);
    sse4_utf8_lanes(v1, _mm_alignr_epi8(v1, v0, 14), pairs, &u1);
    unsigned r0[2], r1[2];
    size_t n0 = wide_utf8_rows(&u0, r0), n = n0 + wide_utf8_rows(&u1, r1) - 2 * last;
    *saved = X_LOAD(dst + n);
    wide_utf8_store(dst, &u0, r0);
    wide_utf8_store(dst + n0, &u1, r1);
    *wrote = n;
    if (last)
        return WIDE_RARELY(30);
    return 32;
}

KERN_SSE4 size_t utfdfa__sse4_utf16_to_utf8(int be, const uint8_t *src, size_t src_len,
                                           uint8_t *dst, size_t dst_len, size_t *written)
{
    size_t i = 0, w = 0, wrote, r;
    __m128i saved = _mm_setzero_si128();
    int dirty = 0;
    while (src_len - i >= 32 && dst_len - w >= 64) {
        __m128i v0 = X_LOAD(src + i), v1 = X_LOAD(src + i + 16);
        if (be) {
            v0 = wide_bswap16(v0);
            v1 = wide_bswap16(v1);
        }
        if ((r = sse4_step_utf8(v0, v1, dst + w, &wrote, &saved)) == 0)
            break;
        i += r;
        w += wrote;
        dirty = 1;
    }
    if (dirty)
        X_STORE(dst + w, saved);
    *written = w;
    return i;
}

/* 4 code points' UTF-8, packed in the low *len bytes: each 32-bit lane the
 * 4-byte form's bytes with the lead bits of its length, its last len bytes
 * kept (wide_pair_shuffle: two lanes a half, wide_merge joins the halves). */
SSE4_INLINE __m128i sse4_utf8_of4(__m128i c, size_t *len)
{
    __m128i m2 = _mm_cmpgt_epi32(c, _mm_set1_epi32(0x7F)), m3 = _mm_cmpgt_epi32(c, _mm_set1_epi32(0x7FF));
    __m128i m4 = _mm_cmpgt_epi32(c, _mm_set1_epi32(0xFFFF));
    /* the 4-byte form's lead F0 80 80 80 turned into 3 bytes' 80 E0 80 80
     * or 2 bytes' 80 80 C0 80 (the bytes before the form are not kept) */
    __m128i tag = _mm_xor_si128(_mm_andnot_si128(m4, _mm_set1_epi32(0x000060F0)),
                                _mm_andnot_si128(m3, _mm_set1_epi32(0x0040E000)));
    __m128i bytes = _mm_blendv_epi8(_mm_slli_epi32(c, 24), _mm_xor_si128(wide_utf8_four(c), tag), m2);
    __m128i lm1 = _mm_abs_epi32(_mm_add_epi32(_mm_add_epi32(m2, m3), m4)); /* length - 1 */
    lm1 = _mm_or_si128(lm1, _mm_srli_epi64(lm1, 30)); /* of two lanes: a row */
    unsigned r0 = (unsigned)_mm_cvtsi128_si32(lm1) & 15, r1 = (unsigned)_mm_extract_epi8(lm1, 8);
    __m128i ctrl = _mm_unpacklo_epi64(X_LOAD8(wide_pair_shuffle[r0]), X_LOAD8(wide_pair_shuffle[r1]));
    ctrl = _mm_or_si128(ctrl, _mm_setr_epi32(0, 0, 0x08080808, 0x08080808));
    ctrl = _mm_shuffle_epi8(ctrl, X_LOAD(wide_merge[wide_pair_len[r0]]));
    *len = (size_t)wide_pair_len[r0] + wide_pair_len[r1];
    return _mm_shuffle_epi8(bytes, ctrl);
}

/* UTF-32 into UTF-8: 16 code points a step (also the AVX2 kernel's, for
 * code points above U+FFFF: wide_avx2.c). */
KERN_SSE4 size_t utfdfa__sse4_utf32_to_utf8(int be, const uint8_t *src, size_t src_len,
                                           uint8_t *dst, size_t dst_len, size_t *written)
{
    size_t i = 0, w = 0, l0, l1, l2, l3;
    __m128i saved = _mm_setzero_si128();
    int dirty = 0;
    for (; src_len - i >= 64 && dst_len - w >= 80; i += 64, dirty = 1) {
        __m128i c0 = sse4_load32(src + i, be), c1 = sse4_load32(src + i + 16, be);
        __m128i c2 = sse4_load32(src + i + 32, be), c3 = sse4_load32(src + i + 48, be);
        __m128i most;
        int kind = sse4_check32(c0, c1, c2, c3, &most);
        if (kind == 0)
            break;
        if (_mm_testz_si128(most, _mm_set1_epi32(-128))) { /* ASCII */
            saved = X_LOAD(dst + w + 16);
            X_STORE(dst + w, _mm_packus_epi16(_mm_packs_epi32(c0, c1), _mm_packs_epi32(c2, c3)));
            w += 16;
            continue;
        }
        if (_mm_testz_si128(most, _mm_set1_epi32(-65536))) { /* the BMP: as UTF-16 (no surrogates) */
            size_t wrote = 0; /* always set: no surrogate to stop at */
            sse4_step_utf8(_mm_packus_epi32(c0, c1), _mm_packus_epi32(c2, c3), dst + w, &wrote, &saved);
            w += wrote;
            continue;
        }
        if (kind == 2) {
            c0 = wide_utf8_four(c0); /* 4 bytes each (emoji): the lanes as they are */
            c1 = wide_utf8_four(c1);
            c2 = wide_utf8_four(c2);
            c3 = wide_utf8_four(c3);
            l0 = l1 = l2 = l3 = 16;
        } else {
            c0 = sse4_utf8_of4(c0, &l0);
            c1 = sse4_utf8_of4(c1, &l1);
            c2 = sse4_utf8_of4(c2, &l2);
            c3 = sse4_utf8_of4(c3, &l3);
        }
        saved = X_LOAD(dst + w + l0 + l1 + l2 + l3);
        X_STORE(dst + w, c0);
        X_STORE(dst + w + l0, c1);
        X_STORE(dst + w + l0 + l1, c2);
        X_STORE(dst + w + l0 + l1 + l2, c3);
        w += l0 + l1 + l2 + l3;
    }
    if (dirty)
        X_STORE(dst + w, saved);
    *written = w;
    return i;
}

size_t utfdfa__sse4_wide_transcode(enum fast_form from, enum fast_form to, const uint8_t *src,
                                   size_t src_len, uint8_t *dst, size_t dst_len,
                                   size_t *written)
{
    size_t i, w, got;
    int be = from == FORM_UTF16BE || from == FORM_UTF32BE;
    int be_out = to == FORM_UTF16BE || to == FORM_UTF32BE;
    if (!(WIDE_PAIRS >> KERN_PAIR(from, to) & 1))
        i = w = 0; /* not a pair of this level: the scalar kernel */
    else if (to == FORM_UTF8)
        i = (from <= FORM_UTF16BE ? utfdfa__sse4_utf16_to_utf8 : utfdfa__sse4_utf32_to_utf8)(
            be, src, src_len, dst, dst_len, &w);
    else if (from <= FORM_UTF16BE)
        i = (to <= FORM_UTF16BE ? utfdfa__sse4_utf16_to_utf16 : utfdfa__sse4_utf16_to_utf32)(be, be_out, src, src_len,
                                                                              dst, dst_len, &w);
    else
        i = utfdfa__sse4_utf32_to_utf16(be, be_out, src, src_len, dst, dst_len, &w);
    i += utfdfa__scalar_wide_transcode(from, to, src + i, src_len - i, dst + w, dst_len - w, &got);
    *written = w + got;
    return i;
}

#else
typedef int utfdfa__no_wide_sse4_here; /* ISO C wants a declaration in every unit */
#endif
