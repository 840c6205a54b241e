/* SPDX-License-Identifier: MIT */
/* The AVX2 level's fused kernel: UTF-16 and UTF-32 straight into UTF-8, 16
 * units a step. Each code point becomes a 32-bit lane holding its UTF-8
 * bytes from byte 0 up (its four 6-bit fields with their marker bits, a
 * variable shift by length, the lead bits); the lanes are packed one after
 * the other into a small buffer on the stack (four bytes each, the next one
 * overwriting what is past the end of the last) and copied out with
 * overlapping 16- or 32-byte stores, so that nothing past the output is
 * written. A step with a surrogate (UTF-16) goes to the scalar kernel;
 * other pairs of forms go through the level's decoder and encoder kernels.
 * Target attributes per function, as in avx2.c. */
#include "x86.h"

#if KERN_X86

#define KERN_AVX2W __attribute__((target("avx2,bmi,bmi2,popcnt")))
#define AVX2W_INLINE KERN_INLINE KERN_AVX2W

/* 8 code points (scalar values) as lanes of UTF-8 bytes; *len: L - 1. */
AVX2W_INLINE __m256i avx2w_utf8_lanes(__m256i c, __m256i *len)
{
    __m256i m2 = _mm256_cmpgt_epi32(c, _mm256_set1_epi32(0x7F));
    __m256i m3 = _mm256_cmpgt_epi32(c, _mm256_set1_epi32(0x7FF));
    __m256i m4 = _mm256_cmpgt_epi32(c, _mm256_set1_epi32(0xFFFF));
    __m256i n = _mm256_sub_epi32(_mm256_sub_epi32(_mm256_sub_epi32(_mm256_setzero_si256(), m2), m3), m4);
    __m256i t = _mm256_or_si256(
        _mm256_or_si256(_mm256_srli_epi32(c, 18),
                        _mm256_and_si256(_mm256_srli_epi32(c, 4), _mm256_set1_epi32(0x3F00))),
        _mm256_or_si256(_mm256_and_si256(_mm256_slli_epi32(c, 10), _mm256_set1_epi32(0x3F0000)),
                        _mm256_and_si256(_mm256_slli_epi32(c, 24), _mm256_set1_epi32(0x3F000000))));
    __m256i s = _mm256_sub_epi32(_mm256_set1_epi32(3), n); /* 4 - L */
    t = _mm256_srlv_epi32(_mm256_or_si256(t, _mm256_set1_epi32((int)0x80808080u)),
                          _mm256_slli_epi32(s, 3)); /* 80|x(L-1) .. 80|x0 */
    const __m256i lead = _mm256_set1_epi32(0xF0);   /* F0, E0, C0 by length */
    t = _mm256_or_si256(t, _mm256_and_si256(_mm256_sllv_epi32(lead, s), lead));
    *len = n;
    return _mm256_blendv_epi8(c, t, m2);
}

/* Writes 16 lanes (their lengths L - 1 in n0, n1) packed at dst, which has
 * room for 64 bytes; returns how many bytes. */
KERN_AVX2W static size_t avx2w_put(uint8_t *dst, __m256i t0, __m256i t1, __m256i n0, __m256i n1)
{
    uint32_t words[16], lens[16];
    uint8_t buf[64 + 4];
    _mm256_storeu_si256((__m256i *)(void *)words, t0);
    _mm256_storeu_si256((__m256i *)(void *)(words + 8), t1);
    _mm256_storeu_si256((__m256i *)(void *)lens, n0);
    _mm256_storeu_si256((__m256i *)(void *)(lens + 8), n1);
    size_t p = 0;
    for (int k = 0; k < 16; k++) {
        memcpy(buf + p, &words[k], 4);
        p += 1 + lens[k];
    }
    if (p >= 32) { /* 32 to 64 bytes */
        _mm256_storeu_si256((__m256i *)(void *)dst, _mm256_loadu_si256((const __m256i *)(const void *)buf));
        _mm256_storeu_si256((__m256i *)(void *)(dst + p - 32),
                            _mm256_loadu_si256((const __m256i *)(const void *)(buf + p - 32)));
    } else { /* 16 to 31 */
        _mm_storeu_si128((__m128i *)(void *)dst, _mm_loadu_si128((const __m128i *)(const void *)buf));
        _mm_storeu_si128((__m128i *)(void *)(dst + p - 16),
                         _mm_loadu_si128((const __m128i *)(const void *)(buf + p - 16)));
    }
    return p;
}

KERN_AVX2W static size_t avx2w_utf16_to_utf8(enum fast_form from, const uint8_t *src, size_t src_len,
                                        uint8_t *dst, size_t dst_len, size_t *written)
{
    const __m256i swap = _mm256_broadcastsi128_si256(
        _mm_set_epi8(14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1));
    size_t i = 0, w = 0, got;
    while (src_len - i >= 32 && dst_len - w >= 64) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(src + i)), n0, n1;
        if (from == FORM_UTF16BE)
            v = _mm256_shuffle_epi8(v, swap);
        __m128i lo = _mm256_castsi256_si128(v), hi = _mm256_extracti128_si256(v, 1);
        if (_mm256_testz_si256(v, _mm256_set1_epi16((short)0xFF80))) { /* ASCII */
            _mm_storeu_si128((__m128i *)(void *)(dst + w), _mm_packus_epi16(lo, hi));
            i += 32;
            w += 16;
            continue;
        }
        __m256i sur = _mm256_cmpeq_epi16(_mm256_and_si256(v, _mm256_set1_epi16((short)0xF800)),
                                         _mm256_set1_epi16((short)0xD800));
        if (!_mm256_testz_si256(sur, sur)) { /* the step, and the pair across its end */
            size_t r = utfdfa__scalar_wide_transcode(from, FORM_UTF8, src + i,
                                                     kern_min(src_len - i, 34), dst + w,
                                                     dst_len - w, &got);
            i += r;
            w += got;
            if (r < 32)
                break; /* a lone surrogate, or the output is full */
            continue;
        }
        __m256i t0 = avx2w_utf8_lanes(_mm256_cvtepu16_epi32(lo), &n0);
        __m256i t1 = avx2w_utf8_lanes(_mm256_cvtepu16_epi32(hi), &n1);
        w += avx2w_put(dst + w, t0, t1, n0, n1);
        i += 32;
    }
    *written = w;
    return i;
}

KERN_AVX2W static size_t avx2w_utf32_to_utf8(enum fast_form from, const uint8_t *src, size_t src_len,
                                        uint8_t *dst, size_t dst_len, size_t *written)
{
    const __m256i swap = _mm256_broadcastsi128_si256(
        _mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3));
    const __m256i top21 = _mm256_set1_epi32(-2048), surrogate = _mm256_set1_epi32(0xD800);
    size_t i = 0, w = 0;
    for (; src_len - i >= 64 && dst_len - w >= 64; i += 64) {
        __m256i c0 = _mm256_loadu_si256((const __m256i *)(const void *)(src + i)), n0, n1;
        __m256i c1 = _mm256_loadu_si256((const __m256i *)(const void *)(src + i + 32));
        if (from == FORM_UTF32BE) {
            c0 = _mm256_shuffle_epi8(c0, swap);
            c1 = _mm256_shuffle_epi8(c1, swap);
        }
        __m256i any = _mm256_or_si256(c0, c1);
        __m256i bad = _mm256_or_si256(
            _mm256_or_si256(_mm256_cmpeq_epi32(_mm256_and_si256(c0, top21), surrogate),
                            _mm256_cmpeq_epi32(_mm256_and_si256(c1, top21), surrogate)),
            _mm256_cmpgt_epi32(_mm256_srli_epi32(_mm256_max_epu32(c0, c1), 16),
                               _mm256_set1_epi32(0x10)));
        if (!_mm256_testz_si256(bad, bad))
            break;
        if (_mm256_testz_si256(any, _mm256_set1_epi32(-128))) { /* ASCII */
            __m256i b = _mm256_packus_epi16(_mm256_packs_epi32(c0, c1), _mm256_setzero_si256());
            b = _mm256_permutevar8x32_epi32(b, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
            _mm_storeu_si128((__m128i *)(void *)(dst + w), _mm256_castsi256_si128(b));
            w += 16;
            continue;
        }
        __m256i t0 = avx2w_utf8_lanes(c0, &n0), t1 = avx2w_utf8_lanes(c1, &n1);
        w += avx2w_put(dst + w, t0, t1, n0, n1);
    }
    *written = w;
    return i;
}

KERN_AVX2W size_t utfdfa__avx2_wide_transcode(enum fast_form from, enum fast_form to,
                                              const uint8_t *src, size_t src_len, uint8_t *dst,
                                              size_t dst_len, size_t *written)
{
    size_t i, w, got;
    if (to != FORM_UTF8)
        return utfdfa__fast_pivot(&utfdfa__fast_avx2, from, to, src, src_len, dst, dst_len,
                                  written);
    if (from <= FORM_UTF16BE)
        i = avx2w_utf16_to_utf8(from, src, src_len, dst, dst_len, &w);
    else
        i = avx2w_utf32_to_utf8(from, src, src_len, dst, dst_len, &w);
    i += utfdfa__scalar_wide_transcode(from, to, src + i, src_len - i, dst + w, dst_len - w, &got);
    *written = w + got;
    return i;
}

#else
typedef int utfdfa__no_avx2_wide_here; /* ISO C wants a declaration in every unit */
#endif
