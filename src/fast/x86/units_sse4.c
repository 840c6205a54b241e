/* SPDX-License-Identifier: MIT */
/* The SSE4 and AVX2 levels' fused kernels between the unit forms: UTF-16
 * into UTF-16 (a check of the pairs and a copy, bytes swapped between the
 * orders), into UTF-32 (pairs joined in 32-bit lanes, the low surrogates'
 * lanes dropped by pshufb) and UTF-32 into UTF-16 (pairs made in 32-bit
 * lanes, the unused halves dropped). wide_sse4.h: the packing and the
 * scratch rule. */
#include "wide_sse4.h"

#if KERN_X86

/* UTF-16 into UTF-16: 8 units a step whose surrogates pair up are copied
 * (7 when the last is a high one: its low one comes with the next step). */
KERN_SSE4 size_t utfdfa__sse4_utf16_to_utf16(int be_in, int be_out, const uint8_t *src,
                                             size_t src_len, uint8_t *dst, size_t dst_len,
                                             size_t *written)
{
    size_t i = 0;
    while (src_len - i >= 16 && dst_len - i >= 16) {
        __m128i raw = X_LOAD(src + i), v = be_in ? wide_bswap16(raw) : raw;
        __m128i out = be_in != be_out ? wide_bswap16(raw) : raw;
        unsigned hm = (unsigned)_mm_movemask_epi8(sse4_high(v));
        unsigned lm = (unsigned)_mm_movemask_epi8(sse4_low(v));
        if (lm != (hm << 2 & 0xFFFF))
            break;
        if (hm >> 15) { /* units 0-6, in two overlapping stores */
            _mm_storel_epi64((__m128i *)(void *)(dst + i), out);
            _mm_storel_epi64((__m128i *)(void *)(dst + i + 6), _mm_srli_si128(out, 6));
            i += 14;
            continue;
        }
        X_STORE(dst + i, out);
        i += 16;
    }
    *written = i;
    return i;
}

/* 8 units of UTF-16 with pairs as 32-bit lanes of code points, units 0-3 in
 * c[0], 4-7 in c[1]; returns the mask of the lanes to keep (not a low
 * surrogate's; not a last high one's). */
SSE4_INLINE unsigned sse4_pair_points(__m128i v, __m128i high, __m128i low, unsigned last,
                                      __m128i c[2])
{
    const __m128i offset = _mm_set1_epi32(-0x35FDC00); /* (h << 10) + l - this: the pair */
    __m128i next = _mm_srli_si128(v, 2);
    for (int k = 0; k < 2; k++) {
        __m128i u = _mm_cvtepu16_epi32(v), n = _mm_cvtepu16_epi32(next);
        __m128i pair = _mm_add_epi32(_mm_add_epi32(_mm_slli_epi32(u, 10), n), offset);
        c[k] = _mm_blendv_epi8(u, pair, _mm_cvtepi16_epi32(high));
        v = _mm_srli_si128(v, 8);
        next = _mm_srli_si128(next, 8);
        high = _mm_srli_si128(high, 8);
    }
    unsigned drop = (unsigned)_mm_movemask_epi8(_mm_packs_epi16(low, low)) & 0xFF;
    return ~(drop | last << 7) & 0xFF;
}

/* UTF-16 into UTF-32: 8 units a step (7 when the last is a high surrogate). */
KERN_SSE4 size_t utfdfa__sse4_utf16_to_utf32(int be16, int be32, const uint8_t *src,
                                             size_t src_len, uint8_t *dst, size_t dst_len,
                                             size_t *written)
{
    size_t i = 0, w = 0;
    __m128i saved = _mm_setzero_si128();
    int dirty = 0;
    while (src_len - i >= 16 && dst_len - w >= 48) {
        __m128i v = X_LOAD(src + i), c[2];
        if (be16)
            v = wide_bswap16(v);
        __m128i sur = _mm_cmpeq_epi16(_mm_and_si128(v, X_SET16(0xF800)), X_SET16(0xD800));
        size_t r = 16, n;
        if (_mm_testz_si128(sur, sur)) {
            c[0] = _mm_cvtepu16_epi32(v);
            c[1] = _mm_cvtepu16_epi32(_mm_srli_si128(v, 8));
            n = 32;
            saved = X_LOAD(dst + w + 32);
            X_STORE(dst + w, be32 ? wide_bswap32(c[0]) : c[0]);
            X_STORE(dst + w + 16, be32 ? wide_bswap32(c[1]) : c[1]);
        } else {
            __m128i high = sse4_high(v), low = sse4_low(v);
            unsigned hm = (unsigned)_mm_movemask_epi8(high), lm = (unsigned)_mm_movemask_epi8(low);
            if (lm != (hm << 2 & 0xFFFF))
                break;
            if (hm == 0x3333) { /* 4 pairs (emoji) */
                c[0] = wide_pair_points(v);
                saved = X_LOAD(dst + w + 16);
                X_STORE(dst + w, be32 ? wide_bswap32(c[0]) : c[0]);
                n = 16;
            } else {
                unsigned keep = sse4_pair_points(v, high, low, hm >> 15, c);
                size_t n0 = 4 * (size_t)wide_ones[keep & 15];
                n = n0 + 4 * (size_t)wide_ones[keep >> 4];
                if (hm >> 15)
                    r = WIDE_RARELY(14);
                saved = X_LOAD(dst + w + n);
                for (int k = 0; k < 2; k++)
                    if (be32)
                        c[k] = wide_bswap32(c[k]);
                X_STORE(dst + w, _mm_shuffle_epi8(c[0], X_LOAD(wide_keep32[keep & 15])));
                X_STORE(dst + w + n0, _mm_shuffle_epi8(c[1], X_LOAD(wide_keep32[keep >> 4])));
            }
        }
        i += r;
        w += n;
        dirty = 1;
    }
    if (dirty)
        X_STORE(dst + w, saved);
    *written = w;
    return i;
}

/* 4 code points as UTF-16, each 32-bit lane its unit or its pair (the high
 * surrogate first); *supp: the lanes of pairs. */
SSE4_INLINE __m128i sse4_pair_units(__m128i c, __m128i *supp)
{
    __m128i s = _mm_sub_epi32(c, _mm_set1_epi32(0x10000));
    __m128i high = _mm_add_epi32(_mm_srli_epi32(s, 10), _mm_set1_epi32(0xD800));
    __m128i low = _mm_slli_epi32(_mm_and_si128(s, _mm_set1_epi32(0x3FF)), 16);
    *supp = _mm_cmpgt_epi32(c, _mm_set1_epi32(0xFFFF));
    return _mm_blendv_epi8(c, _mm_or_si128(_mm_or_si128(high, low), _mm_set1_epi32((int)0xDC000000u)),
                           *supp);
}

/* 4 code points' UTF-16 of order be16, packed in the low *len bytes. */
SSE4_INLINE __m128i sse4_units4(__m128i c, int be16, size_t *len)
{
    __m128i supp, p = sse4_pair_units(c, &supp);
    unsigned m = (unsigned)_mm_movemask_ps(_mm_castsi128_ps(supp));
    *len = 8 + 2 * (size_t)wide_ones[m];
    return _mm_shuffle_epi8(be16 ? wide_bswap16(p) : p, X_LOAD(wide_units16[m]));
}

/* UTF-32 into UTF-16: 16 code points a step. */
KERN_SSE4 size_t utfdfa__sse4_utf32_to_utf16(int be32, int be16, const uint8_t *src,
                                             size_t src_len, uint8_t *dst, size_t dst_len,
                                             size_t *written)
{
    size_t i = 0, w = 0;
    __m128i saved = _mm_setzero_si128();
    int dirty = 0;
    for (; src_len - i >= 64 && dst_len - w >= 80; i += 64, dirty = 1) {
        __m128i c0 = sse4_load32(src + i, be32), c1 = sse4_load32(src + i + 16, be32);
        __m128i c2 = sse4_load32(src + i + 32, be32), c3 = sse4_load32(src + i + 48, be32);
        __m128i most, supp;
        int kind = sse4_check32(c0, c1, c2, c3, &most);
        if (kind == 0)
            break;
        if (_mm_testz_si128(most, _mm_set1_epi32(-65536))) { /* the BMP: one unit each */
            __m128i u0 = _mm_packus_epi32(c0, c1), u1 = _mm_packus_epi32(c2, c3);
            saved = X_LOAD(dst + w + 32);
            X_STORE(dst + w, be16 ? wide_bswap16(u0) : u0);
            X_STORE(dst + w + 16, be16 ? wide_bswap16(u1) : u1);
            w += 32;
            continue;
        }
        size_t l0 = 16, l1 = 16, l2 = 16, l3 = 16;
        if (kind == 2) {
            c0 = sse4_pair_units(c0, &supp); /* pairs only (emoji): the lanes as they are */
            c1 = sse4_pair_units(c1, &supp);
            c2 = sse4_pair_units(c2, &supp);
            c3 = sse4_pair_units(c3, &supp);
            if (be16) {
                c0 = wide_bswap16(c0);
                c1 = wide_bswap16(c1);
                c2 = wide_bswap16(c2);
                c3 = wide_bswap16(c3);
            }
        } else {
            c0 = sse4_units4(c0, be16, &l0);
            c1 = sse4_units4(c1, be16, &l1);
            c2 = sse4_units4(c2, be16, &l2);
            c3 = sse4_units4(c3, be16, &l3);
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

#else
typedef int utfdfa__no_units_sse4_here; /* ISO C wants a declaration in every unit */
#endif
