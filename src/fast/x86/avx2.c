/* SPDX-License-Identifier: MIT */
/* The AVX2 kernels: 32 characters a step for ASCII, 16 UTF-16 units, 8
 * UTF-32 units; a step that meets anything else hands that step to the
 * scalar kernels. Each function carries KERN_AVX2 (x86.h) instead of the file
 * being compiled with -mavx2, so that it can share a unit with the rest of
 * the library (the amalgamation) and is only called after the CPU check. */
#include "x86.h"

#if KERN_X86

#define AVX2_INLINE KERN_INLINE KERN_AVX2
#define AVX2_LOAD(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define AVX2_STORE(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))

AVX2_INLINE __m256i avx2_bswap16(__m256i v)
{
    const __m256i order = _mm256_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14,
                                           1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14);
    return _mm256_shuffle_epi8(v, order);
}

AVX2_INLINE __m256i avx2_bswap32(__m256i v)
{
    const __m256i order = _mm256_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12,
                                           3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
    return _mm256_shuffle_epi8(v, order);
}

/* Four vectors of 8 values below 0x8000 each, as 32 bytes in order (the
 * packs work within 128-bit lanes; the permutation undoes it). */
AVX2_INLINE __m256i avx2_narrow32(__m256i v0, __m256i v1, __m256i v2, __m256i v3)
{
    __m256i b = _mm256_packus_epi16(_mm256_packs_epi32(v0, v1), _mm256_packs_epi32(v2, v3));
    return _mm256_permutevar8x32_epi32(b, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
}

/* Loads 32 units of form f at p; if all are ASCII, puts their values in
 * *bytes and returns 1. */
AVX2_INLINE int avx2_load_ascii32(enum fast_form f, const uint8_t *p, __m256i *bytes)
{
    size_t u = kern_unit(f);
    __m256i v0 = AVX2_LOAD(p), v1 = v0, v2 = v0, v3 = v0;
    if (u >= 2)
        v1 = AVX2_LOAD(p + 32);
    if (u == 4) {
        v2 = AVX2_LOAD(p + 64);
        v3 = AVX2_LOAD(p + 96);
    }
    __m256i any = _mm256_or_si256(_mm256_or_si256(v0, v1), _mm256_or_si256(v2, v3));
    __m256i mask = _mm256_broadcastsi128_si256(
        _mm_loadu_si128((const __m128i *)(const void *)kern_ascii_masks[f]));
    if (!_mm256_testz_si256(any, mask))
        return 0;
    switch (f) {
    case FORM_UTF8: *bytes = v0; break;
    case FORM_UTF16LE: *bytes = _mm256_permute4x64_epi64(_mm256_packus_epi16(v0, v1), 0xD8); break;
    case FORM_UTF16BE:
        *bytes = _mm256_permute4x64_epi64(
            _mm256_packus_epi16(_mm256_srli_epi16(v0, 8), _mm256_srli_epi16(v1, 8)), 0xD8);
        break;
    case FORM_UTF32LE: *bytes = avx2_narrow32(v0, v1, v2, v3); break;
    case FORM_UTF32BE:
        *bytes = avx2_narrow32(_mm256_srli_epi32(v0, 24), _mm256_srli_epi32(v1, 24),
                               _mm256_srli_epi32(v2, 24), _mm256_srli_epi32(v3, 24));
        break;
    }
    return 1;
}

/* Writes the 32 ASCII bytes b as units of form f at p. */
AVX2_INLINE void avx2_store_ascii32(enum fast_form f, uint8_t *p, __m256i b)
{
    __m128i lo = _mm256_castsi256_si128(b), hi = _mm256_extracti128_si256(b, 1);
    switch (f) {
    case FORM_UTF8: AVX2_STORE(p, b); break;
    case FORM_UTF16LE:
        AVX2_STORE(p, _mm256_cvtepu8_epi16(lo));
        AVX2_STORE(p + 32, _mm256_cvtepu8_epi16(hi));
        break;
    case FORM_UTF16BE:
        AVX2_STORE(p, _mm256_slli_epi16(_mm256_cvtepu8_epi16(lo), 8));
        AVX2_STORE(p + 32, _mm256_slli_epi16(_mm256_cvtepu8_epi16(hi), 8));
        break;
    case FORM_UTF32LE:
    case FORM_UTF32BE: {
        __m256i q0 = _mm256_cvtepu8_epi32(lo), q1 = _mm256_cvtepu8_epi32(_mm_srli_si128(lo, 8));
        __m256i q2 = _mm256_cvtepu8_epi32(hi), q3 = _mm256_cvtepu8_epi32(_mm_srli_si128(hi, 8));
        if (f == FORM_UTF32BE) { /* the value in each unit's last byte */
            q0 = _mm256_slli_epi32(q0, 24);
            q1 = _mm256_slli_epi32(q1, 24);
            q2 = _mm256_slli_epi32(q2, 24);
            q3 = _mm256_slli_epi32(q3, 24);
        }
        AVX2_STORE(p, q0);
        AVX2_STORE(p + 32, q1);
        AVX2_STORE(p + 64, q2);
        AVX2_STORE(p + 96, q3);
        break;
    }
    }
}

AVX2_INLINE size_t avx2_ascii_loop(enum fast_form from, enum fast_form to, const uint8_t *src,
                                   size_t src_len, uint8_t *dst, size_t dst_len)
{
    size_t uf = kern_unit(from), ut = kern_unit(to);
    size_t n = kern_min(src_len / uf, dst_len / ut), i = 0;
    if (n == 0 || kern_load_unit(from, src) > 0x7F)
        return 0; /* quickly: the caller's slow path is next */
    __m256i b0;
    for (; n - i >= 32; i += 32) {
        if (!avx2_load_ascii32(from, src + i * uf, &b0))
            break;
        avx2_store_ascii32(to, dst + i * ut, b0);
    }
    return i + utfdfa__scalar_ascii_copy(from, to, src + i * uf, src_len - i * uf, dst + i * ut,
                                         dst_len - i * ut);
}

KERN_AVX2 static size_t avx2_ascii_copy(enum fast_form from, enum fast_form to,
                                        const uint8_t *src, size_t src_len, uint8_t *dst,
                                        size_t dst_len)
{
    switch (KERN_PAIR(from, to)) {
#define AVX2_ASCII_CASE(F, T) \
    case KERN_PAIR(F, T): return avx2_ascii_loop(F, T, src, src_len, dst, dst_len);
        KERN_EACH_PAIR(AVX2_ASCII_CASE)
#undef AVX2_ASCII_CASE
    }
    return 0;
}

/* UTF-16: 16 units without a surrogate become 16 code points, 8 pairs
 * (each 32-bit lane a high then a low surrogate) 8 code points; another
 * step with a surrogate goes to the scalar kernel, given the unit after the
 * step too so that a pair across its end is whole. Aligned to 64 bytes:
 * where its loop fell among the 64-byte lines, with code before it changed
 * elsewhere, moved its speed by up to 1.2x. */
__attribute__((aligned(64))) KERN_AVX2 static size_t
avx2_utf16_to_cp(enum fast_form from, const uint8_t *src, size_t src_len, uint32_t *dst,
                 size_t cap, size_t *written)
{
    const __m256i top5 = _mm256_set1_epi16((short)0xF800);
    const __m256i surrogate = _mm256_set1_epi16((short)0xD800);
    size_t i = 0, w = 0, got;
    while (src_len - i >= 32 && cap - w >= 16) {
        __m256i v = AVX2_LOAD(src + i);
        if (from == FORM_UTF16BE)
            v = avx2_bswap16(v);
        __m256i sur = _mm256_cmpeq_epi16(_mm256_and_si256(v, top5), surrogate);
        if (KERN_LIKELY(!_mm256_movemask_epi8(sur))) {
            AVX2_STORE((uint8_t *)dst + w * 4, _mm256_cvtepu16_epi32(_mm256_castsi256_si128(v)));
            AVX2_STORE((uint8_t *)dst + w * 4 + 32,
                       _mm256_cvtepu16_epi32(_mm256_extracti128_si256(v, 1)));
            i += 32;
            w += 16;
            continue;
        }
        __m256i kinds = _mm256_and_si256(v, _mm256_set1_epi32((int)KERN_SURROGATE_TOPS));
        kinds = _mm256_xor_si256(kinds, _mm256_set1_epi32((int)KERN_SURROGATE_KINDS));
        if (_mm256_testz_si256(kinds, kinds)) { /* 8 pairs from a pair's start (emoji text) */
            __m256i cp = _mm256_madd_epi16(v, _mm256_set1_epi32(KERN_SURROGATE_FACTORS));
            AVX2_STORE((uint8_t *)dst + w * 4,
                       _mm256_add_epi32(cp, _mm256_set1_epi32(KERN_SURROGATE_BIAS)));
            i += 32;
            w += 8;
            continue;
        }
        size_t r = utfdfa__scalar_utf16_to_cp(from, src + i, kern_min(src_len - i, 34), dst + w,
                                              cap - w, &got);
        i += r;
        w += got;
        if (r < 32) { /* a lone surrogate: the scalar kernel stopped for good */
            *written = w;
            return i;
        }
    }
    i += utfdfa__scalar_utf16_to_cp(from, src + i, src_len - i, dst + w, cap - w, &got);
    *written = w + got;
    return i;
}

/* UTF-32: 8 units at most 0x10FFFF and not surrogates are copied. */
KERN_AVX2 static size_t avx2_utf32_to_cp(enum fast_form from, const uint8_t *src,
                                         size_t src_len, uint32_t *dst, size_t cap,
                                         size_t *written)
{
    const __m256i top21 = _mm256_set1_epi32(-2048); /* 0xFFFFF800 */
    const __m256i surrogate = _mm256_set1_epi32(0xD800), plane16 = _mm256_set1_epi32(0x10);
    size_t i = 0, w = 0, got;
    for (; src_len - i >= 32 && cap - w >= 8; i += 32, w += 8) {
        __m256i v = AVX2_LOAD(src + i);
        if (from == FORM_UTF32BE)
            v = avx2_bswap32(v);
        __m256i bad = _mm256_or_si256(_mm256_cmpgt_epi32(_mm256_srli_epi32(v, 16), plane16),
                                      _mm256_cmpeq_epi32(_mm256_and_si256(v, top21), surrogate));
        if (!_mm256_testz_si256(bad, bad))
            break;
        AVX2_STORE((uint8_t *)dst + w * 4, v);
    }
    i += utfdfa__scalar_utf32_to_cp(from, src + i, src_len - i, dst + w, cap - w, &got);
    *written = w + got;
    return i;
}

/* Code points to UTF-8: 32 ASCII ones are packed to bytes; 32 others are
 * written by the branch-free writer when 128 bytes are free. */
KERN_AVX2 static size_t avx2_cp_to_utf8(const uint32_t *src, size_t n, uint8_t *dst,
                                        size_t dst_len, size_t *written)
{
    const __m256i high = _mm256_set1_epi32(-128); /* bits above 0x7F */
    size_t i = 0, w = 0, got;
    for (; n - i >= 32 && dst_len - w >= 32; i += 32) {
        const uint8_t *p = (const uint8_t *)src + i * 4;
        __m256i v0 = AVX2_LOAD(p), v1 = AVX2_LOAD(p + 32), v2 = AVX2_LOAD(p + 64),
                v3 = AVX2_LOAD(p + 96);
        __m256i any = _mm256_or_si256(_mm256_or_si256(v0, v1), _mm256_or_si256(v2, v3));
        if (_mm256_testz_si256(any, high)) {
            AVX2_STORE(dst + w, avx2_narrow32(v0, v1, v2, v3));
            w += 32;
        } else if (dst_len - w >= 128) {
            w += kern_put_utf8_run(dst + w, src + i, 32);
        } else {
            break;
        }
    }
    i += utfdfa__scalar_cp_to_form(FORM_UTF8, src + i, n - i, dst + w, dst_len - w, &got);
    *written = w + got;
    return i;
}

/* 16 code points all above 0xFFFF (emoji text): each 32-bit lane becomes
 * its pair, the high surrogate in the low half (units in memory order). */
AVX2_INLINE __m256i avx2_pairs(__m256i v)
{
    __m256i c = _mm256_sub_epi32(v, _mm256_set1_epi32(0x10000));
    __m256i high = _mm256_add_epi32(_mm256_srli_epi32(c, 10), _mm256_set1_epi32(0xD800));
    __m256i low = _mm256_or_si256(_mm256_and_si256(c, _mm256_set1_epi32(0x3FF)),
                                  _mm256_set1_epi32(0xDC00));
    return _mm256_or_si256(high, _mm256_slli_epi32(low, 16));
}

/* Code points to UTF-16: 16 below 0x10000 are packed to units; 16 above
 * 0xFFFF become 16 pairs; a mix goes to the scalar kernel when 64 bytes are
 * free. */
AVX2_INLINE size_t avx2_cp_to_utf16(enum fast_form to, const uint32_t *src, size_t n,
                                    uint8_t *dst, size_t dst_len, size_t *written)
{
    size_t i = 0, w = 0, got;
    for (; n - i >= 16 && dst_len - w >= 32; i += 16) {
        const uint8_t *p = (const uint8_t *)src + i * 4;
        __m256i v0 = AVX2_LOAD(p), v1 = AVX2_LOAD(p + 32);
        if (_mm256_testz_si256(_mm256_or_si256(v0, v1), _mm256_set1_epi32(-65536))) {
            __m256i units = _mm256_permute4x64_epi64(_mm256_packus_epi32(v0, v1), 0xD8);
            AVX2_STORE(dst + w, to == FORM_UTF16BE ? avx2_bswap16(units) : units);
            w += 32;
        } else if (dst_len - w < 64) {
            break;
        } else if (_mm256_movemask_epi8(_mm256_cmpgt_epi32(_mm256_set1_epi32(0x10000),
                                                           _mm256_min_epu32(v0, v1))) == 0) {
            __m256i p0 = avx2_pairs(v0), p1 = avx2_pairs(v1);
            AVX2_STORE(dst + w, to == FORM_UTF16BE ? avx2_bswap16(p0) : p0);
            AVX2_STORE(dst + w + 32, to == FORM_UTF16BE ? avx2_bswap16(p1) : p1);
            w += 64;
        } else {
            utfdfa__scalar_cp_to_form(to, src + i, 16, dst + w, 64, &got);
            w += got;
        }
    }
    i += utfdfa__scalar_cp_to_form(to, src + i, n - i, dst + w, dst_len - w, &got);
    *written = w + got;
    return i;
}

AVX2_INLINE size_t avx2_cp_to_utf32(enum fast_form to, const uint32_t *src, size_t n,
                                    uint8_t *dst, size_t dst_len, size_t *written)
{
    size_t i = 0, got;
    for (; n - i >= 8 && dst_len - i * 4 >= 32; i += 8) {
        __m256i v = AVX2_LOAD((const uint8_t *)src + i * 4);
        AVX2_STORE(dst + i * 4, to == FORM_UTF32BE ? avx2_bswap32(v) : v);
    }
    size_t w = i * 4;
    i += utfdfa__scalar_cp_to_form(to, src + i, n - i, dst + w, dst_len - w, &got);
    *written = w + got;
    return i;
}

KERN_AVX2 static size_t avx2_cp_to_form(enum fast_form to, const uint32_t *src, size_t n,
                                        uint8_t *dst, size_t dst_len, size_t *written)
{
    switch (to) {
    case FORM_UTF8: return avx2_cp_to_utf8(src, n, dst, dst_len, written);
    case FORM_UTF16LE: return avx2_cp_to_utf16(FORM_UTF16LE, src, n, dst, dst_len, written);
    case FORM_UTF16BE: return avx2_cp_to_utf16(FORM_UTF16BE, src, n, dst, dst_len, written);
    case FORM_UTF32LE: return avx2_cp_to_utf32(FORM_UTF32LE, src, n, dst, dst_len, written);
    case FORM_UTF32BE: return avx2_cp_to_utf32(FORM_UTF32BE, src, n, dst, dst_len, written);
    }
    *written = 0;
    return 0;
}

const struct fast_kernels utfdfa__fast_avx2 = {
    "avx2", avx2_ascii_copy, avx2_utf16_to_cp, avx2_utf32_to_cp, avx2_cp_to_form,
    utfdfa__avx2_wide_transcode, WIDE_PAIRS, /* into UTF-8: wide_avx2.c */
    utfdfa__sse4_utf7_b64, utfdfa__avx2_utf7_text, /* base64 in 32-byte steps gained little */
    utfdfa__avx2_count,
};

#else
typedef int utfdfa__no_avx2_here; /* ISO C wants a declaration in every unit */
#endif
