/* SPDX-License-Identifier: MIT */
/* The VBMI level's ASCII steps: bytes below 0x80 widened to UTF-16 or
 * UTF-32 units, within a block (vbmi_widen, vbmi_widen64) and, at a slab's
 * start, over the whole ASCII run (vbmi_ascii: slab.h's ascii step).
 *
 * Included once, by avx512.c, which defines FAST_TARGET_VBMI. */
#ifndef UTFDFA_FAST_UTF8_VBMI_ASCII_H
#define UTFDFA_FAST_UTF8_VBMI_ASCII_H

/* ASCII bytes v (cnt of them) widened at dst. */
FAST_TARGET_VBMI FAST_INLINE void vbmi_widen(__m512i v, size_t cnt, void *dst, bool u16)
{
    __mmask64 m = cnt >= 64 ? ~(__mmask64)0 : ((__mmask64)1 << cnt) - 1;
    if (u16) {
        uint16_t *d = dst;
        _mm512_mask_storeu_epi16(d, (__mmask32)m, _mm512_cvtepu8_epi16(_mm512_castsi512_si256(v)));
        _mm512_mask_storeu_epi16(d + 32, (__mmask32)(m >> 32),
                                 _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(v, 1)));
    } else {
        uint32_t *d = dst;
        _mm512_mask_storeu_epi32(d, (__mmask16)m, _mm512_cvtepu8_epi32(_mm512_castsi512_si128(v)));
        _mm512_mask_storeu_epi32(d + 16, (__mmask16)(m >> 16),
                                 _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(v, 1)));
        _mm512_mask_storeu_epi32(d + 32, (__mmask16)(m >> 32),
                                 _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(v, 2)));
        _mm512_mask_storeu_epi32(d + 48, (__mmask16)(m >> 48),
                                 _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(v, 3)));
    }
}

/* 64 ASCII bytes v widened at dst (unmasked stores). */
FAST_TARGET_VBMI FAST_INLINE void vbmi_widen64(__m512i v, void *dst, bool u16)
{
    if (u16) {
        __m512i *d = dst;
        _mm512_storeu_si512(d, _mm512_cvtepu8_epi16(_mm512_castsi512_si256(v)));
        _mm512_storeu_si512(d + 1, _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(v, 1)));
    } else {
        __m512i *d = dst;
        _mm512_storeu_si512(d, _mm512_cvtepu8_epi32(_mm512_castsi512_si128(v)));
        _mm512_storeu_si512(d + 1, _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(v, 1)));
        _mm512_storeu_si512(d + 2, _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(v, 2)));
        _mm512_storeu_si512(d + 3, _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(v, 3)));
    }
}

FAST_TARGET_VBMI FAST_INLINE __m512i vbmi_load(const uint8_t *p, size_t rem)
{
    return _mm512_maskz_loadu_epi8(rem >= 64 ? ~(__mmask64)0 : ((__mmask64)1 << rem) - 1, p);
}

/* The 64 ASCII bytes at p widened at dst, each part loaded as it is widened
 * (the load folded into the widening: no shuffle to extract it). */
FAST_TARGET_VBMI FAST_INLINE void vbmi_widen_at(const uint8_t *p, void *dst, bool u16)
{
    if (u16) {
        __m512i *d = dst;
        for (int k = 0; k < 2; k++)
            _mm512_storeu_si512(d + k, _mm512_cvtepu8_epi16(_mm256_loadu_si256((const void *)(p + 32 * k))));
    } else {
        __m512i *d = dst;
        for (int k = 0; k < 4; k++)
            _mm512_storeu_si512(d + k, _mm512_cvtepu8_epi32(_mm_loadu_si128((const void *)(p + 16 * k))));
    }
}

/* The slab engine's ASCII step (slab.h's ascii): the leading ASCII bytes
 * of src[0..n) widened at dst in the pass that finds them, so that ASCII
 * text is read once rather than validated and then read again; the bytes
 * of the block where the run ends are widened too, nothing past them is
 * written. Bytes done. */
FAST_TARGET_VBMI FAST_INLINE size_t vbmi_ascii(const uint8_t *src, size_t n, void *dst, bool u16)
{
    size_t i = 0;
    /* 128 bytes a step while they are all ASCII (one test for two loads). */
    for (; n - i >= 128; i += 128) {
        __m512i a = _mm512_loadu_si512(src + i), b = _mm512_loadu_si512(src + i + 64);
        if (_mm512_movepi8_mask(_mm512_or_si512(a, b)))
            break;
        vbmi_widen_at(src + i, u16 ? (void *)((uint16_t *)dst + i) : (void *)((uint32_t *)dst + i), u16);
        vbmi_widen_at(src + i + 64, u16 ? (void *)((uint16_t *)dst + i + 64) : (void *)((uint32_t *)dst + i + 64), u16);
    }
    for (;; i += 64) {
        __m512i v = vbmi_load(src + i, n - i);
        __mmask64 h = _mm512_movepi8_mask(v);
        void *d = u16 ? (void *)((uint16_t *)dst + i) : (void *)((uint32_t *)dst + i);
        if (h == 0 && n - i >= 64) {
            vbmi_widen64(v, d, u16);
            continue;
        }
        size_t a = h ? (size_t)__builtin_ctzll(h) : n - i;
        vbmi_widen(v, a, d, u16);
        return i + a;
    }
}

FAST_TARGET_VBMI FAST_NOINLINE static size_t vbmi_ascii16(const uint8_t *src, size_t n, void *dst)
{
    return vbmi_ascii(src, n, dst, true);
}

FAST_TARGET_VBMI FAST_NOINLINE static size_t vbmi_ascii32(const uint8_t *src, size_t n, void *dst)
{
    return vbmi_ascii(src, n, dst, false);
}

#endif /* UTFDFA_FAST_UTF8_VBMI_ASCII_H */
