/* SPDX-License-Identifier: MIT */
/* The fused kernels (utfdfa__wide_transcode) of the SSE4 and AVX2 levels:
 * UTF-16 into UTF-8, UTF-16 and UTF-32, UTF-32 into UTF-8 and UTF-16,
 * either byte order (a pshufb swaps bytes), 8-16 units a step, surrogate
 * pairs checked and joined in the vector. A step whose units the kernel
 * must stop before (a lone surrogate, a UTF-32 surrogate or value above
 * U+10FFFF) or whose output may not fit ends the loop; the scalar kernel
 * then stops exactly there. (256-bit steps at the AVX2 level measured no
 * faster: the packing works in 128-bit halves either way.)
 *
 * Where the output's length varies, each lane holds its character's bytes
 * and pshufb packs them with a control looked up from the lanes' lengths
 * (the tables: gen/emit_wide.py). Packed output leaves up to 16 bytes of
 * scratch past its end, which the next step's stores cover. So that the
 * kernel still leaves dst past what it reports written as it found it,
 * each step first saves the 16 bytes at its own end (nothing has touched
 * them: every step writes at least 16 bytes and its scratch ends within 16
 * bytes of its end) and the kernel puts the last step's back when it
 * stops. */
#include "x86.h"

#if KERN_X86
#include "wide_x86.gen.h"

#define KERN_SSE4 __attribute__((target("ssse3,sse4.1")))
#define SSE4_INLINE KERN_INLINE KERN_SSE4
#define X_LOAD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define X_LOAD8(p) _mm_loadl_epi64((const __m128i *)(const void *)(p))
#define X_STORE(p, v) _mm_storeu_si128((__m128i *)(void *)(p), (v))
#define X_SET16(x) _mm_set1_epi16((short)(x))

SSE4_INLINE __m128i wide_bswap16(__m128i v)
{
    return _mm_shuffle_epi8(v, _mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14));
}

SSE4_INLINE __m128i wide_bswap32(__m128i v)
{
    return _mm_shuffle_epi8(v, _mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12));
}

/* 8 units that are 4 pairs, each 32-bit lane a high then a low surrogate,
 * as 4 code points. */
SSE4_INLINE __m128i wide_pair_points(__m128i v)
{
    __m128i hi = _mm_and_si128(_mm_slli_epi32(v, 10), _mm_set1_epi32(0xFFC00));
    __m128i lo = _mm_and_si128(_mm_srli_epi32(v, 16), _mm_set1_epi32(0x3FF));
    return _mm_add_epi32(_mm_or_si128(hi, lo), _mm_set1_epi32(0x10000));
}

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
 * 3-byte form. groups: for units 0-3 in bits 0-7, 4-7 in bits 8-15, which
 * are ASCII (bits 0-3) and which of at most 2 bytes or surrogates (4-7):
 * wide_utf8_group's index. */
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
    return (size_t)(row[0] >> 8) + (row[1] >> 8);
}

/* Writes them packed at dst (scratch past the end). */
SSE4_INLINE void wide_utf8_store(uint8_t *dst, const struct wide_utf8_8 *u, const unsigned row[2])
{
    X_STORE(dst, _mm_shuffle_epi8(_mm_unpacklo_epi16(u->a, u->b),
                                  X_LOAD(wide_utf8_shuffle[row[0] & 0xFF])));
    X_STORE(dst + (row[0] >> 8), _mm_shuffle_epi8(_mm_unpackhi_epi16(u->a, u->b),
                                                  X_LOAD(wide_utf8_shuffle[row[1] & 0xFF])));
}


/* A step that reads fewer bytes than the others (a high surrogate at its
 * end) takes a branch, not arithmetic, so that the next step's load does
 * not wait for this one's masks; the empty asm keeps the compiler from
 * turning the branch into a select. */
#if defined(__GNUC__)
#define WIDE_RARELY(bytes) (__extension__({ __asm__(""); (size_t)(bytes); }))
#else
#define WIDE_RARELY(bytes) ((size_t)(bytes))
#endif

/* The units of a unit vector that are high, low surrogates. */
SSE4_INLINE __m128i sse4_high(__m128i v)
{
    return _mm_cmpeq_epi16(_mm_and_si128(v, X_SET16(0xFC00)), X_SET16(0xD800));
}

SSE4_INLINE __m128i sse4_low(__m128i v)
{
    return _mm_cmpeq_epi16(_mm_and_si128(v, X_SET16(0xFC00)), X_SET16(0xDC00));
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

/* 8 units below 0x800 as UTF-8, packed in two 8-byte halves of *len[0],
 * *len[1] bytes (wide_utf8_two). */
SSE4_INLINE __m128i sse4_utf8_short8(__m128i v, size_t len[2])
{
    __m128i one = _mm_cmpeq_epi16(_mm_and_si128(v, X_SET16(0xFF80)), _mm_setzero_si128());
    unsigned two = ~(unsigned)_mm_movemask_epi8(_mm_packs_epi16(one, one)) & 0xFF;
    __m128i ctrl = _mm_unpacklo_epi64(X_LOAD8(wide_utf8_two[two & 15]), X_LOAD8(wide_utf8_two[two >> 4]));
    len[0] = 4 + (size_t)wide_ones[two & 15];
    len[1] = 4 + (size_t)wide_ones[two >> 4];
    return _mm_shuffle_epi8(sse4_utf8_short(v, one),
                            _mm_or_si128(ctrl, _mm_setr_epi32(0, 0, 0x08080808, 0x08080808)));
}

/* Writes the two halves (scratch past the end). */
SSE4_INLINE void sse4_put_halves(uint8_t *dst, __m128i bytes, size_t first)
{
    _mm_storel_epi64((__m128i *)(void *)dst, bytes);
    _mm_storeh_pd((double *)(void *)(dst + first), _mm_castsi128_pd(bytes));
}

/* 8 units of 3-byte forms as UTF-8 at dst (24 bytes, scratch past them). */
SSE4_INLINE void sse4_put_three8(uint8_t *dst, __m128i v)
{
    __m128i a = sse4_utf8_three(v), b = sse4_utf8_last(v);
    const __m128i ctrl = X_LOAD(wide_utf8_shuffle[80]); /* every lane 3 bytes */
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
    const __m128i by_group = _mm_setr_epi8(0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15);
    u->groups = (unsigned)_mm_movemask_epi8(_mm_shuffle_epi8(_mm_packs_epi16(one, le2), by_group));
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
        size_t len[4];
        __m128i p0 = sse4_utf8_short8(v0, len), p1 = sse4_utf8_short8(v1, len + 2);
        size_t n = len[0] + len[1] + len[2] + len[3];
        *saved = X_LOAD(dst + n);
        sse4_put_halves(dst, p0, len[0]);
        sse4_put_halves(dst + len[0] + len[1], p1, len[2]);
        *wrote = n;
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

KERN_SSE4 static size_t sse4_utf16_to_utf8(int be, const uint8_t *src, size_t src_len,
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

/* UTF-16 into UTF-16: 8 units a step whose surrogates pair up are copied
 * (7 when the last is a high one: its low one comes with the next step). */
KERN_SSE4 static size_t sse4_utf16_to_utf16(int be_in, int be_out, const uint8_t *src,
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
KERN_SSE4 static size_t sse4_utf16_to_utf32(int be16, int be32, const uint8_t *src,
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

/* 4 UTF-32 units of order be at p. */
SSE4_INLINE __m128i sse4_load32(const uint8_t *p, int be)
{
    __m128i c = X_LOAD(p);
    return be ? wide_bswap32(c) : c;
}

/* Checks 16 UTF-32 units: 0 when one is a surrogate or above U+10FFFF,
 * else 1, or 2 when every one is above U+FFFF (no surrogate to look for);
 * *most: their lanes' maximum. */
SSE4_INLINE int sse4_check32(__m128i c0, __m128i c1, __m128i c2, __m128i c3, __m128i *most)
{
    const __m128i ones = _mm_set1_epi32(-1);
    __m128i hi = _mm_max_epu32(_mm_max_epu32(c0, c1), _mm_max_epu32(c2, c3));
    __m128i lo = _mm_min_epu32(_mm_min_epu32(c0, c1), _mm_min_epu32(c2, c3));
    *most = hi;
    if (!_mm_testz_si128(_mm_cmpeq_epi32(_mm_max_epu32(hi, _mm_set1_epi32(0x110000)), hi), ones))
        return 0;
    if (_mm_testz_si128(_mm_cmpgt_epi32(_mm_set1_epi32(0x10000), lo), ones))
        return 2;
    const __m128i top21 = _mm_set1_epi32(-2048), sur = _mm_set1_epi32(0xD800);
    __m128i s = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi32(_mm_and_si128(c0, top21), sur),
                                          _mm_cmpeq_epi32(_mm_and_si128(c1, top21), sur)),
                             _mm_or_si128(_mm_cmpeq_epi32(_mm_and_si128(c2, top21), sur),
                                          _mm_cmpeq_epi32(_mm_and_si128(c3, top21), sur)));
    return _mm_testz_si128(s, s);
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
KERN_SSE4 static size_t sse4_utf32_to_utf16(int be32, int be16, const uint8_t *src,
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

/* UTF-32 into UTF-8: 16 code points a step. */
KERN_SSE4 static size_t sse4_utf32_to_utf8(int be, const uint8_t *src, size_t src_len,
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
        i = (from <= FORM_UTF16BE ? sse4_utf16_to_utf8 : sse4_utf32_to_utf8)(be, src, src_len, dst,
                                                                               dst_len, &w);
    else if (from <= FORM_UTF16BE)
        i = (to <= FORM_UTF16BE ? sse4_utf16_to_utf16 : sse4_utf16_to_utf32)(be, be_out, src, src_len,
                                                                              dst, dst_len, &w);
    else
        i = sse4_utf32_to_utf16(be, be_out, src, src_len, dst, dst_len, &w);
    i += utfdfa__scalar_wide_transcode(from, to, src + i, src_len - i, dst + w, dst_len - w, &got);
    *written = w + got;
    return i;
}

#else
typedef int utfdfa__no_wide_sse4_here; /* ISO C wants a declaration in every unit */
#endif
