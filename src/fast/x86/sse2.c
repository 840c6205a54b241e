/* SPDX-License-Identifier: MIT */
/* The SSE2 kernels (the x86-64 baseline, so no target attribute): 16
 * characters a step for ASCII, 8 UTF-16 units, 4 UTF-32 units; a step that
 * meets anything else hands that step to the scalar kernels. */
#include "x86.h"

#if KERN_X86

#define SSE2_LOAD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define SSE2_STORE(p, v) _mm_storeu_si128((__m128i *)(void *)(p), (v))

KERN_INLINE __m128i sse2_bswap16(__m128i v)
{
    return _mm_or_si128(_mm_slli_epi16(v, 8), _mm_srli_epi16(v, 8));
}

KERN_INLINE __m128i sse2_bswap32(__m128i v)
{
    v = sse2_bswap16(v);
    return _mm_shufflehi_epi16(_mm_shufflelo_epi16(v, 0xB1), 0xB1);
}

/* Loads 16 units of form f at p; if all are ASCII, puts their values in
 * *bytes and returns 1. */
KERN_INLINE int sse2_load_ascii16(enum fast_form f, const uint8_t *p, __m128i *bytes)
{
    size_t u = kern_unit(f);
    __m128i v0 = SSE2_LOAD(p), v1 = v0, v2 = v0, v3 = v0;
    if (u >= 2)
        v1 = SSE2_LOAD(p + 16);
    if (u == 4) {
        v2 = SSE2_LOAD(p + 32);
        v3 = SSE2_LOAD(p + 48);
    }
    __m128i any = _mm_or_si128(_mm_or_si128(v0, v1), _mm_or_si128(v2, v3));
    __m128i bad = _mm_and_si128(any, SSE2_LOAD(kern_ascii_masks[f]));
    if (_mm_movemask_epi8(_mm_cmpeq_epi8(bad, _mm_setzero_si128())) != 0xFFFF)
        return 0;
    switch (f) {
    case FORM_UTF8: *bytes = v0; break;
    case FORM_UTF16LE: *bytes = _mm_packus_epi16(v0, v1); break;
    case FORM_UTF16BE: *bytes = _mm_packus_epi16(_mm_srli_epi16(v0, 8), _mm_srli_epi16(v1, 8)); break;
    case FORM_UTF32LE:
        *bytes = _mm_packus_epi16(_mm_packs_epi32(v0, v1), _mm_packs_epi32(v2, v3));
        break;
    case FORM_UTF32BE:
        *bytes = _mm_packus_epi16(_mm_packs_epi32(_mm_srli_epi32(v0, 24), _mm_srli_epi32(v1, 24)),
                                  _mm_packs_epi32(_mm_srli_epi32(v2, 24), _mm_srli_epi32(v3, 24)));
        break;
    }
    return 1;
}

/* Writes the 16 ASCII bytes b as units of form f at p. */
KERN_INLINE void sse2_store_ascii16(enum fast_form f, uint8_t *p, __m128i b)
{
    __m128i z = _mm_setzero_si128();
    int be = f == FORM_UTF16BE || f == FORM_UTF32BE;
    /* BE puts the zero byte first: the value ends up in each unit's last byte. */
    __m128i lo16 = be ? _mm_unpacklo_epi8(z, b) : _mm_unpacklo_epi8(b, z);
    __m128i hi16 = be ? _mm_unpackhi_epi8(z, b) : _mm_unpackhi_epi8(b, z);
    switch (f) {
    case FORM_UTF8: SSE2_STORE(p, b); break;
    case FORM_UTF16LE:
    case FORM_UTF16BE:
        SSE2_STORE(p, lo16);
        SSE2_STORE(p + 16, hi16);
        break;
    case FORM_UTF32LE:
        SSE2_STORE(p, _mm_unpacklo_epi16(lo16, z));
        SSE2_STORE(p + 16, _mm_unpackhi_epi16(lo16, z));
        SSE2_STORE(p + 32, _mm_unpacklo_epi16(hi16, z));
        SSE2_STORE(p + 48, _mm_unpackhi_epi16(hi16, z));
        break;
    case FORM_UTF32BE:
        SSE2_STORE(p, _mm_unpacklo_epi16(z, lo16));
        SSE2_STORE(p + 16, _mm_unpackhi_epi16(z, lo16));
        SSE2_STORE(p + 32, _mm_unpacklo_epi16(z, hi16));
        SSE2_STORE(p + 48, _mm_unpackhi_epi16(z, hi16));
        break;
    }
}

KERN_INLINE size_t sse2_ascii_loop(enum fast_form from, enum fast_form to, const uint8_t *src,
                                   size_t src_len, uint8_t *dst, size_t dst_len)
{
    size_t uf = kern_unit(from), ut = kern_unit(to);
    size_t n = kern_min(src_len / uf, dst_len / ut), i = 0;
    if (n == 0 || kern_load_unit(from, src) > 0x7F)
        return 0; /* quickly: the caller's slow path is next */
    __m128i b0;
    for (; n - i >= 16; i += 16) {
        if (!sse2_load_ascii16(from, src + i * uf, &b0))
            break;
        sse2_store_ascii16(to, dst + i * ut, b0);
    }
    return i + utfdfa__scalar_ascii_copy(from, to, src + i * uf, src_len - i * uf, dst + i * ut,
                                         dst_len - i * ut);
}

static size_t sse2_ascii_copy(enum fast_form from, enum fast_form to, const uint8_t *src,
                              size_t src_len, uint8_t *dst, size_t dst_len)
{
    switch (KERN_PAIR(from, to)) {
#define SSE2_ASCII_CASE(F, T) \
    case KERN_PAIR(F, T): return sse2_ascii_loop(F, T, src, src_len, dst, dst_len);
        KERN_EACH_PAIR(SSE2_ASCII_CASE)
#undef SSE2_ASCII_CASE
    }
    return 0;
}

/* UTF-16: 8 units without a surrogate become 8 code points, 4 pairs (each
 * 32-bit lane a high then a low surrogate) 4 code points; another step with
 * a surrogate goes to the scalar kernel, given the unit after the step too
 * so that a pair across its end is whole. */
static size_t sse2_utf16_to_cp(enum fast_form from, const uint8_t *src, size_t src_len,
                               uint32_t *dst, size_t cap, size_t *written)
{
    const __m128i top5 = _mm_set1_epi16((short)0xF800), surrogate = _mm_set1_epi16((short)0xD800);
    const __m128i z = _mm_setzero_si128();
    size_t i = 0, w = 0, got;
    while (src_len - i >= 16 && cap - w >= 8) {
        __m128i v = SSE2_LOAD(src + i);
        if (from == FORM_UTF16BE)
            v = sse2_bswap16(v);
        __m128i sur = _mm_cmpeq_epi16(_mm_and_si128(v, top5), surrogate);
        if (KERN_LIKELY(!_mm_movemask_epi8(sur))) {
            SSE2_STORE((uint8_t *)dst + w * 4, _mm_unpacklo_epi16(v, z));
            SSE2_STORE((uint8_t *)dst + w * 4 + 16, _mm_unpackhi_epi16(v, z));
            i += 16;
            w += 8;
            continue;
        }
        __m128i kinds = _mm_and_si128(v, _mm_set1_epi32((int)KERN_SURROGATE_TOPS));
        kinds = _mm_cmpeq_epi32(kinds, _mm_set1_epi32((int)KERN_SURROGATE_KINDS));
        if (_mm_movemask_epi8(kinds) == 0xFFFF) { /* 4 pairs from a pair's start (emoji text) */
            __m128i cp = _mm_madd_epi16(v, _mm_set1_epi32(KERN_SURROGATE_FACTORS));
            cp = _mm_add_epi32(cp, _mm_set1_epi32(KERN_SURROGATE_BIAS));
            SSE2_STORE((uint8_t *)dst + w * 4, cp);
            i += 16;
            w += 4;
            continue;
        }
        size_t r = utfdfa__scalar_utf16_to_cp(from, src + i, kern_min(src_len - i, 18), dst + w,
                                              cap - w, &got);
        i += r;
        w += got;
        if (r < 16) { /* a lone surrogate: the scalar kernel stopped for good */
            *written = w;
            return i;
        }
    }
    i += utfdfa__scalar_utf16_to_cp(from, src + i, src_len - i, dst + w, cap - w, &got);
    *written = w + got;
    return i;
}

/* UTF-32: 4 units at most 0x10FFFF and not surrogates are copied. */
static size_t sse2_utf32_to_cp(enum fast_form from, const uint8_t *src, size_t src_len,
                               uint32_t *dst, size_t cap, size_t *written)
{
    const __m128i top21 = _mm_set1_epi32(-2048); /* 0xFFFFF800 */
    const __m128i surrogate = _mm_set1_epi32(0xD800), plane16 = _mm_set1_epi32(0x10);
    size_t i = 0, w = 0, got;
    for (; src_len - i >= 16 && cap - w >= 4; i += 16, w += 4) {
        __m128i v = SSE2_LOAD(src + i);
        if (from == FORM_UTF32BE)
            v = sse2_bswap32(v);
        __m128i bad = _mm_or_si128(_mm_cmpgt_epi32(_mm_srli_epi32(v, 16), plane16),
                                   _mm_cmpeq_epi32(_mm_and_si128(v, top21), surrogate));
        if (_mm_movemask_epi8(bad))
            break;
        SSE2_STORE((uint8_t *)dst + w * 4, v);
    }
    i += utfdfa__scalar_utf32_to_cp(from, src + i, src_len - i, dst + w, cap - w, &got);
    *written = w + got;
    return i;
}

/* Code points to UTF-8: 16 ASCII ones are packed to bytes; 16 others are
 * written by the branch-free writer when 64 bytes are free. */
static size_t sse2_cp_to_utf8(const uint32_t *src, size_t n, uint8_t *dst, size_t dst_len,
                              size_t *written)
{
    const __m128i high = _mm_set1_epi32(-128); /* bits above 0x7F */
    size_t i = 0, w = 0, got;
    for (; n - i >= 16 && dst_len - w >= 16; i += 16) {
        const uint8_t *p = (const uint8_t *)src + i * 4;
        __m128i v0 = SSE2_LOAD(p), v1 = SSE2_LOAD(p + 16), v2 = SSE2_LOAD(p + 32),
                v3 = SSE2_LOAD(p + 48);
        __m128i any = _mm_or_si128(_mm_or_si128(v0, v1), _mm_or_si128(v2, v3));
        if (_mm_movemask_epi8(_mm_cmpeq_epi32(_mm_and_si128(any, high), _mm_setzero_si128())) ==
            0xFFFF) {
            SSE2_STORE(dst + w, _mm_packus_epi16(_mm_packs_epi32(v0, v1), _mm_packs_epi32(v2, v3)));
            w += 16;
        } else if (dst_len - w >= 64) {
            w += kern_put_utf8_run(dst + w, src + i, 16);
        } else {
            break;
        }
    }
    i += utfdfa__scalar_cp_to_form(FORM_UTF8, src + i, n - i, dst + w, dst_len - w, &got);
    *written = w + got;
    return i;
}

/* Code points to UTF-16: 8 below 0x10000 are packed to units; 8 with a
 * pair among them go to the scalar kernel when 32 bytes are free. */
KERN_INLINE size_t sse2_cp_to_utf16(enum fast_form to, const uint32_t *src, size_t n,
                                    uint8_t *dst, size_t dst_len, size_t *written)
{
    size_t i = 0, w = 0, got;
    for (; n - i >= 8 && dst_len - w >= 16; i += 8) {
        const uint8_t *p = (const uint8_t *)src + i * 4;
        __m128i v0 = SSE2_LOAD(p), v1 = SSE2_LOAD(p + 16);
        __m128i planes = _mm_srli_epi32(_mm_or_si128(v0, v1), 16);
        if (_mm_movemask_epi8(_mm_cmpeq_epi32(planes, _mm_setzero_si128())) == 0xFFFF) {
            /* Sign-extend the low halves so that the signed pack keeps them. */
            v0 = _mm_srai_epi32(_mm_slli_epi32(v0, 16), 16);
            v1 = _mm_srai_epi32(_mm_slli_epi32(v1, 16), 16);
            __m128i units = _mm_packs_epi32(v0, v1);
            SSE2_STORE(dst + w, to == FORM_UTF16BE ? sse2_bswap16(units) : units);
            w += 16;
        } else if (dst_len - w >= 32) {
            utfdfa__scalar_cp_to_form(to, src + i, 8, dst + w, 32, &got);
            w += got;
        } else {
            break;
        }
    }
    i += utfdfa__scalar_cp_to_form(to, src + i, n - i, dst + w, dst_len - w, &got);
    *written = w + got;
    return i;
}

KERN_INLINE size_t sse2_cp_to_utf32(enum fast_form to, const uint32_t *src, size_t n,
                                    uint8_t *dst, size_t dst_len, size_t *written)
{
    size_t i = 0, got;
    for (; n - i >= 4 && dst_len - i * 4 >= 16; i += 4) {
        __m128i v = SSE2_LOAD((const uint8_t *)src + i * 4);
        SSE2_STORE(dst + i * 4, to == FORM_UTF32BE ? sse2_bswap32(v) : v);
    }
    size_t w = i * 4;
    i += utfdfa__scalar_cp_to_form(to, src + i, n - i, dst + w, dst_len - w, &got);
    *written = w + got;
    return i;
}

static size_t sse2_cp_to_form(enum fast_form to, const uint32_t *src, size_t n, uint8_t *dst,
                              size_t dst_len, size_t *written)
{
    switch (to) {
    case FORM_UTF8: return sse2_cp_to_utf8(src, n, dst, dst_len, written);
    case FORM_UTF16LE: return sse2_cp_to_utf16(FORM_UTF16LE, src, n, dst, dst_len, written);
    case FORM_UTF16BE: return sse2_cp_to_utf16(FORM_UTF16BE, src, n, dst, dst_len, written);
    case FORM_UTF32LE: return sse2_cp_to_utf32(FORM_UTF32LE, src, n, dst, dst_len, written);
    case FORM_UTF32BE: return sse2_cp_to_utf32(FORM_UTF32BE, src, n, dst, dst_len, written);
    }
    *written = 0;
    return 0;
}

const struct fast_kernels utfdfa__fast_sse2 = {
    "sse2", sse2_ascii_copy, sse2_utf16_to_cp, sse2_utf32_to_cp, sse2_cp_to_form,
    utfdfa__scalar_wide_transcode, 0, /* no fused kernel: none measured faster than the */
    /* decoder and encoder kernels in turn (the scalar one, for the tests) */
    utfdfa__scalar_utf7_b64, utfdfa__scalar_utf7_text, utfdfa__sse2_count,
};

/* SSE4: SSE2's, UTF-7 with pshufb (utf7_sse4.c) and the fused kernels
 * (wide_sse4.c). */
const struct fast_kernels utfdfa__fast_sse4 = {
    "sse4", sse2_ascii_copy, sse2_utf16_to_cp, sse2_utf32_to_cp, sse2_cp_to_form,
    utfdfa__sse4_wide_transcode, WIDE_PAIRS, utfdfa__sse4_utf7_b64, utfdfa__sse4_utf7_text,
    utfdfa__sse2_count,
};

#else
typedef int utfdfa__no_sse2_here; /* ISO C wants a declaration in every unit */
#endif
