/* SPDX-License-Identifier: MIT */
/* The AVX-512 VBMI/VBMI2 level: UTF-16 and UTF-32 straight into UTF-8, and
 * UTF-16 into UTF-32, 64 bytes of input a step, with no code points in
 * between; its other kernels are the AVX2 level's.
 *
 * The technique is the one Lemire and Clausecker published for AVX-512
 * (written anew here): each code point becomes a 16- or 32-bit lane
 * holding its UTF-8 bytes, cut out of the lane by one vpmultishiftqb and
 * finished with its lead bits; a 64-bit mask marks the lanes' bytes that
 * belong to the output, vpcompressb packs them, a masked store writes
 * exactly them. Units below 0x800 (most alphabets) stay 16-bit lanes, 32 a
 * step; others widen to 32-bit lanes, surrogate pairs joined in the high
 * surrogate's lane. A step that meets a unit the kernel must stop before,
 * or output that does not fit, goes to the scalar kernel, which stops
 * exactly there. Target attributes per function, as in avx2.c. */
#include "x86.h"

#if KERN_X86

#define KERN_VBMI                                                                          \
    __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx2,bmi,bmi2," \
                           "popcnt")))
#define VBMI_INLINE KERN_INLINE KERN_VBMI

/* vpmultishiftqb controls: for the 16-bit lane k of a quadword, byte 0 the
 * bits from 6 up (the lead's payload), byte 1 the bits from 0; for the
 * 32-bit lane d, bytes 0-3 the bits from `a`, `b`, `c`, `d` up. */
#define MS16(k) ((uint64_t)(16 * (k) + 6) << (16 * (k)) | (uint64_t)(16 * (k)) << (16 * (k) + 8))
#define MS32(d, a, b, c, e)                                                         \
    ((uint64_t)(32 * (d) + (a)) << (32 * (d)) | (uint64_t)(32 * (d) + (b)) << (32 * (d) + 8) | \
     (uint64_t)(32 * (d) + (c)) << (32 * (d) + 16) | (uint64_t)(32 * (d) + (e)) << (32 * (d) + 24))
#define CTRL_2BYTE (MS16(0) | MS16(1) | MS16(2) | MS16(3))
/* Bytes from bit 12, 6, 0 and 24 (zero for the BMP): the 3-byte form. */
#define CTRL_3BYTE (MS32(0, 12, 6, 0, 24) | MS32(1, 12, 6, 0, 24))
/* Bytes from bit 18, 12, 6, 0: the 4-byte form. */
#define CTRL_4BYTE (MS32(0, 18, 12, 6, 0) | MS32(1, 18, 12, 6, 0))
#define TERN_AND_OR 0xEA /* (a & b) | c */
#define EVERY_4TH 0x1111111111111111u

VBMI_INLINE __m512i vbmi_bswap32(__m512i v)
{
    const __m128i order = _mm_set_epi32(0x0C0D0E0F, 0x08090A0B, 0x04050607, 0x00010203);
    return _mm512_shuffle_epi8(v, _mm512_broadcast_i32x4(order));
}

/* 64 bytes of UTF-16 of form `be` as units in memory order (native). */
VBMI_INLINE __m512i vbmi_load16(const uint8_t *p, int be)
{
    __m512i v = _mm512_loadu_si512((const void *)p);
    return be ? _mm512_shldi_epi16(v, v, 8) : v;
}

/* Writes the bytes `keep` marks in v at dst, packed; returns how many. */
VBMI_INLINE size_t vbmi_put(uint8_t *dst, __m512i v, __mmask64 keep)
{
    size_t n = (size_t)_mm_popcnt_u64(keep);
    _mm512_mask_storeu_epi8(dst, _bzhi_u64(~0ull, (unsigned)n), _mm512_maskz_compress_epi8(keep, v));
    return n;
}

/* 16 code points (scalar values, or anything in a `drop` lane) as 32-bit
 * lanes of UTF-8 bytes; m2, m3, m4: the lanes of 2 or more, 3 or more, 4
 * bytes. *keep marks the output's bytes. */
VBMI_INLINE __m512i vbmi_utf8_lanes(__m512i c, __mmask16 m2, __mmask16 m3, __mmask16 m4,
                                    __mmask16 drop, __mmask64 *keep)
{
    __m512i t = _mm512_multishift_epi64_epi8(_mm512_set1_epi64((long long)CTRL_4BYTE), c);
    t = _mm512_ternarylogic_epi32(t, _mm512_set1_epi32(0x3F3F3F3F), _mm512_set1_epi32((int)0x808080F0u),
                                  TERN_AND_OR); /* F0|x3 80|x2 80|x1 80|x0 */
    t = _mm512_mask_srli_epi32(t, (__mmask16)~m4, t, 8);  /* 3 bytes or fewer: 80|x2 80|x1 80|x0 */
    t = _mm512_mask_srli_epi32(t, (__mmask16)~m3, t, 8);  /* 2 or fewer: 80|x1 80|x0 */
    t = _mm512_mask_or_epi32(t, m2 & (__mmask16)~m4, t, _mm512_set1_epi32(0x40)); /* C0|x1 */
    t = _mm512_mask_or_epi32(t, m3 & (__mmask16)~m4, t, _mm512_set1_epi32(0x20)); /* E0|x2 */
    t = _mm512_mask_mov_epi32(t, (__mmask16)~m2, c);                             /* ASCII */
    t = _mm512_maskz_mov_epi32((__mmask16)~drop, t);
    *keep = _mm512_test_epi8_mask(t, t) | _pdep_u64((uint16_t)~drop, EVERY_4TH);
    return t;
}

/* 16 code points of the BMP (no surrogates) as 32-bit lanes of UTF-8 bytes. */
VBMI_INLINE __m512i vbmi_utf8_bmp(__m512i c, __mmask16 m2, __mmask16 m3, __mmask64 *keep)
{
    __mmask16 two = m2 & (__mmask16)~m3;
    __m512i t = _mm512_multishift_epi64_epi8(_mm512_set1_epi64((long long)CTRL_3BYTE), c);
    t = _mm512_ternarylogic_epi32(t, _mm512_set1_epi32(0x003F3F3F), _mm512_set1_epi32(0x008080E0),
                                  TERN_AND_OR); /* E0|x2 80|x1 80|x0 00 */
    t = _mm512_mask_srli_epi32(t, two, t, 8);
    t = _mm512_mask_or_epi32(t, two, t, _mm512_set1_epi32(0x40)); /* C0|x1 80|x0 */
    t = _mm512_mask_mov_epi32(t, (__mmask16)~m2, c);
    *keep = _mm512_test_epi8_mask(t, t) | EVERY_4TH;
    return t;
}

/* The 32 units in v as code points, units 0-15 in *c0, 16-31 in *c1: a
 * high surrogate's lane holds the pair's code point, the low one's lane is
 * in *drop. A high surrogate in the last unit waits for the next step (it
 * is dropped; 62 bytes read). Returns the bytes read, 0 when a surrogate
 * is lone. */
VBMI_INLINE size_t vbmi_pairs(__m512i v, __mmask32 sur, __m512i *c0, __m512i *c1,
                              __mmask32 *drop)
{
    __mmask32 high = _mm512_cmpeq_epi16_mask(_mm512_and_si512(v, _mm512_set1_epi16((short)0xFC00)),
                                             _mm512_set1_epi16((short)0xD800));
    __mmask32 low = sur & ~high, last = high & 0x80000000u;
    high ^= last;
    if ((__mmask32)(high << 1) != low)
        return 0;
    __m512i a = _mm512_cvtepu16_epi32(_mm512_castsi512_si256(v));
    __m512i b = _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(v, 1));
    const __m512i offset = _mm512_set1_epi32(-0x35FDC00); /* (h << 10) + l - this: the pair */
    __m512i na = _mm512_add_epi32(_mm512_alignr_epi32(b, a, 1), offset);
    __m512i nb = _mm512_add_epi32(_mm512_alignr_epi32(_mm512_setzero_si512(), b, 1), offset);
    *c0 = _mm512_mask_add_epi32(a, (__mmask16)high, _mm512_slli_epi32(a, 10), na);
    *c1 = _mm512_mask_add_epi32(b, (__mmask16)(high >> 16), _mm512_slli_epi32(b, 10), nb);
    *drop = low | last;
    return last ? 62 : 64;
}

/* One step of UTF-16 into UTF-8: 32 units (62 bytes when a pair is cut).
 * Returns the bytes read (0: the scalar kernel goes on from here). */
VBMI_INLINE size_t vbmi_step16_utf8(__m512i v, uint8_t *dst, size_t room, size_t *wrote)
{
    __mmask32 m2 = _mm512_test_epi16_mask(v, _mm512_set1_epi16((short)0xFF80));
    __mmask32 m3 = _mm512_test_epi16_mask(v, _mm512_set1_epi16((short)0xF800));
    if (m3 == 0) { /* 1 or 2 bytes each, in 16-bit lanes */
        __m512i t = _mm512_multishift_epi64_epi8(_mm512_set1_epi64((long long)CTRL_2BYTE), v);
        t = _mm512_ternarylogic_epi32(t, _mm512_set1_epi16(0x3F1F), _mm512_set1_epi16((short)0x80C0),
                                      TERN_AND_OR); /* C0|x1 80|x0 */
        t = _mm512_mask_mov_epi16(t, ~m2, v);
        __mmask64 keep = _mm512_test_epi8_mask(t, t) | 0x5555555555555555u;
        if ((size_t)_mm_popcnt_u64(keep) > room)
            return 0;
        *wrote = vbmi_put(dst, t, keep);
        return 64;
    }
    __mmask32 sur = _mm512_cmpeq_epi16_mask(_mm512_and_si512(v, _mm512_set1_epi16((short)0xF800)),
                                            _mm512_set1_epi16((short)0xD800));
    __m512i c0, c1, u0, u1;
    __mmask64 k0, k1;
    size_t read = 64;
    if (sur == 0) {
        c0 = _mm512_cvtepu16_epi32(_mm512_castsi512_si256(v));
        c1 = _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(v, 1));
        u0 = vbmi_utf8_bmp(c0, (__mmask16)m2, (__mmask16)m3, &k0);
        u1 = vbmi_utf8_bmp(c1, (__mmask16)(m2 >> 16), (__mmask16)(m3 >> 16), &k1);
    } else {
        __mmask32 drop, m4;
        if ((read = vbmi_pairs(v, sur, &c0, &c1, &drop)) == 0)
            return 0;
        m4 = sur & ~drop; /* the high surrogates' lanes: 4 bytes */
        u0 = vbmi_utf8_lanes(c0, (__mmask16)m2, (__mmask16)m3, (__mmask16)m4, (__mmask16)drop, &k0);
        u1 = vbmi_utf8_lanes(c1, (__mmask16)(m2 >> 16), (__mmask16)(m3 >> 16), (__mmask16)(m4 >> 16),
                             (__mmask16)(drop >> 16), &k1);
    }
    if ((size_t)(_mm_popcnt_u64(k0) + _mm_popcnt_u64(k1)) > room)
        return 0;
    size_t n = vbmi_put(dst, u0, k0);
    *wrote = n + vbmi_put(dst + n, u1, k1);
    return read;
}

VBMI_INLINE size_t vbmi_utf16_to_utf8(int be, const uint8_t *src, size_t src_len, uint8_t *dst,
                                      size_t dst_len, size_t *written)
{
    size_t i = 0, w = 0, wrote, r;
    while (src_len - i >= 64) {
        __m512i v = vbmi_load16(src + i, be);
        if (!_mm512_test_epi16_mask(v, _mm512_set1_epi16((short)0xFF80))) { /* ASCII */
            if (dst_len - w < 32)
                break;
            _mm256_storeu_si256((__m256i *)(void *)(dst + w), _mm512_cvtepi16_epi8(v));
            i += 64;
            w += 32;
            continue;
        }
        if ((r = vbmi_step16_utf8(v, dst + w, dst_len - w, &wrote)) == 0)
            break;
        i += r;
        w += wrote;
    }
    *written = w;
    return i;
}

/* UTF-32 into UTF-8, 16 units a step. */
VBMI_INLINE size_t vbmi_utf32_to_utf8(int be, const uint8_t *src, size_t src_len, uint8_t *dst,
                                      size_t dst_len, size_t *written)
{
    size_t i = 0, w = 0;
    for (; src_len - i >= 64; i += 64) {
        __m512i c = _mm512_loadu_si512((const void *)(src + i));
        if (be)
            c = vbmi_bswap32(c);
        __mmask16 bad = _mm512_cmpgt_epu32_mask(c, _mm512_set1_epi32(0x10FFFF)) |
                        _mm512_cmpeq_epi32_mask(_mm512_and_si512(c, _mm512_set1_epi32(-2048)),
                                                _mm512_set1_epi32(0xD800));
        __mmask16 m2 = _mm512_cmpgt_epu32_mask(c, _mm512_set1_epi32(0x7F));
        if (bad)
            break;
        if (m2 == 0) {
            if (dst_len - w < 16)
                break;
            _mm_storeu_si128((__m128i *)(void *)(dst + w), _mm512_cvtepi32_epi8(c));
            w += 16;
            continue;
        }
        __mmask64 keep;
        __m512i t = vbmi_utf8_lanes(c, m2, _mm512_cmpgt_epu32_mask(c, _mm512_set1_epi32(0x7FF)),
                                    _mm512_cmpgt_epu32_mask(c, _mm512_set1_epi32(0xFFFF)), 0, &keep);
        if ((size_t)_mm_popcnt_u64(keep) > dst_len - w)
            break;
        w += vbmi_put(dst + w, t, keep);
    }
    *written = w;
    return i;
}

/* Writes the `keep` lanes of c as UTF-32 of form `be` at dst; returns bytes. */
VBMI_INLINE size_t vbmi_put32(uint8_t *dst, __m512i c, __mmask16 keep, int be)
{
    size_t n = (size_t)_mm_popcnt_u32(keep);
    c = _mm512_maskz_compress_epi32(keep, c);
    _mm512_mask_storeu_epi32(dst, (__mmask16)_bzhi_u32(0xFFFF, (unsigned)n), be ? vbmi_bswap32(c) : c);
    return 4 * n;
}

/* UTF-16 into UTF-32, 32 units a step. */
VBMI_INLINE size_t vbmi_utf16_to_utf32(int be16, int be32, const uint8_t *src, size_t src_len,
                                       uint8_t *dst, size_t dst_len, size_t *written)
{
    size_t i = 0, w = 0, r;
    while (src_len - i >= 64 && dst_len - w >= 128) {
        r = 64;
        __m512i v = vbmi_load16(src + i, be16), c0, c1;
        __mmask32 sur = _mm512_cmpeq_epi16_mask(
            _mm512_and_si512(v, _mm512_set1_epi16((short)0xF800)), _mm512_set1_epi16((short)0xD800));
        __mmask32 drop = 0;
        if (sur == 0) {
            c0 = _mm512_cvtepu16_epi32(_mm512_castsi512_si256(v));
            c1 = _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(v, 1));
        } else if ((r = vbmi_pairs(v, sur, &c0, &c1, &drop)) == 0) {
            break;
        }
        size_t n = vbmi_put32(dst + w, c0, (__mmask16)~drop, be32);
        w += n + vbmi_put32(dst + w + n, c1, (__mmask16)(~drop >> 16), be32);
        i += r;
    }
    *written = w;
    return i;
}

KERN_VBMI static size_t vbmi_wide_transcode(enum fast_form from, enum fast_form to,
                                            const uint8_t *src, size_t src_len, uint8_t *dst,
                                            size_t dst_len, size_t *written)
{
    size_t i, w, got;
    int be = from == FORM_UTF16BE || from == FORM_UTF32BE;
    if (from <= FORM_UTF16BE && to == FORM_UTF8)
        i = vbmi_utf16_to_utf8(be, src, src_len, dst, dst_len, &w);
    else if (from >= FORM_UTF32LE && to == FORM_UTF8)
        i = vbmi_utf32_to_utf8(be, src, src_len, dst, dst_len, &w);
    else if (from <= FORM_UTF16BE && to >= FORM_UTF32LE)
        i = vbmi_utf16_to_utf32(be, to == FORM_UTF32BE, src, src_len, dst, dst_len, &w);
    else
        return utfdfa__fast_pivot(&utfdfa__fast_avx512vbmi, from, to, src, src_len, dst, dst_len,
                                  written);
    i += utfdfa__scalar_wide_transcode(from, to, src + i, src_len - i, dst + w, dst_len - w, &got);
    *written = w + got;
    return i;
}

/* The level's other kernels are the AVX2 level's. */
static size_t vbmi_ascii_copy(enum fast_form from, enum fast_form to, const uint8_t *src,
                              size_t src_len, uint8_t *dst, size_t dst_len)
{
    return utfdfa__fast_avx2.ascii_copy(from, to, src, src_len, dst, dst_len);
}

static size_t vbmi_utf16_to_cp(enum fast_form from, const uint8_t *src, size_t src_len,
                               uint32_t *dst, size_t cap, size_t *written)
{
    return utfdfa__fast_avx2.utf16_to_cp(from, src, src_len, dst, cap, written);
}

static size_t vbmi_utf32_to_cp(enum fast_form from, const uint8_t *src, size_t src_len,
                               uint32_t *dst, size_t cap, size_t *written)
{
    return utfdfa__fast_avx2.utf32_to_cp(from, src, src_len, dst, cap, written);
}

static size_t vbmi_cp_to_form(enum fast_form to, const uint32_t *src, size_t n, uint8_t *dst,
                              size_t dst_len, size_t *written)
{
    return utfdfa__fast_avx2.cp_to_form(to, src, n, dst, dst_len, written);
}

const struct fast_kernels utfdfa__fast_avx512vbmi = {
    "avx512vbmi", vbmi_ascii_copy, vbmi_utf16_to_cp, vbmi_utf32_to_cp, vbmi_cp_to_form,
    vbmi_wide_transcode,
};

#else
typedef int utfdfa__no_avx512vbmi_here; /* ISO C wants a declaration in every unit */
#endif
