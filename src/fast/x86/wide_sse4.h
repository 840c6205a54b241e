/* SPDX-License-Identifier: MIT */
/* What the SSE4 fused kernels (wide_sse4.c: into UTF-8; units_sse4.c:
 * between UTF-16 and UTF-32) share, at the SSE4 and AVX2 levels, with the
 * AVX2 level's into UTF-8 (wide_avx2.c: its own 256-bit steps, which on Zen
 * 3 measured faster, where Zen 4 had found them no faster).
 *
 * Where the output's length varies, each lane holds its character's bytes
 * and pshufb packs them with a control looked up from the lanes' lengths
 * (the tables: gen/emit_wide.py). Packed output leaves up to 16 bytes of
 * scratch past its end, which the next step's stores cover. So that a
 * kernel still leaves dst past what it reports written as it found it,
 * each step first saves the 16 bytes at its own end (nothing has touched
 * them: every step writes at least 16 bytes and its scratch ends within 16
 * bytes of its end) and the kernel puts the last step's back when it
 * stops. A step whose units the kernel must stop before (a lone surrogate,
 * a UTF-32 surrogate or value above U+10FFFF) or whose output may not fit
 * ends the loop; the scalar kernel then stops exactly there. */
#ifndef UTFDFA_FAST_X86_WIDE_SSE4_H
#define UTFDFA_FAST_X86_WIDE_SSE4_H

#include "x86.h"

#if KERN_X86
#include "wide.gen.h"

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

/* A step that reads fewer bytes than the others (a high surrogate at its
 * end) takes a branch, not arithmetic, so that the next step's load does
 * not wait for this one's masks; the empty asm keeps the compiler from
 * turning the branch into a select. */
#if defined(__GNUC__)
#define WIDE_RARELY(bytes) (__extension__({ __asm__(""); (size_t)(bytes); }))
#else
#define WIDE_RARELY(bytes) ((size_t)(bytes))
#endif

/* 8 units that are 4 pairs, each 32-bit lane a high then a low surrogate,
 * as 4 code points. */
SSE4_INLINE __m128i wide_pair_points(__m128i v)
{
    __m128i hi = _mm_and_si128(_mm_slli_epi32(v, 10), _mm_set1_epi32(0xFFC00));
    __m128i lo = _mm_and_si128(_mm_srli_epi32(v, 16), _mm_set1_epi32(0x3FF));
    return _mm_add_epi32(_mm_or_si128(hi, lo), _mm_set1_epi32(0x10000));
}

/* The units of a unit vector that are high, low surrogates. */
SSE4_INLINE __m128i sse4_high(__m128i v)
{
    return _mm_cmpeq_epi16(_mm_and_si128(v, X_SET16(0xFC00)), X_SET16(0xD800));
}

SSE4_INLINE __m128i sse4_low(__m128i v)
{
    return _mm_cmpeq_epi16(_mm_and_si128(v, X_SET16(0xFC00)), X_SET16(0xDC00));
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

/* units_sse4.c: the contract of utfdfa__wide_transcode (be_in, be_out:
 * the orders). */
size_t utfdfa__sse4_utf16_to_utf16(int be_in, int be_out, const uint8_t *src, size_t src_len,
                                   uint8_t *dst, size_t dst_len, size_t *written);
size_t utfdfa__sse4_utf16_to_utf32(int be_in, int be_out, const uint8_t *src, size_t src_len,
                                   uint8_t *dst, size_t dst_len, size_t *written);
/* wide_sse4.c: UTF-16, UTF-32 of order be into UTF-8 (the contract of
 * utfdfa__wide_transcode, less the scalar kernel's tail: they stop where
 * their steps stop); also the AVX2 kernel's for pairs and code points
 * above U+FFFF (wide_avx2.c). */
size_t utfdfa__sse4_utf16_to_utf8(int be, const uint8_t *src, size_t src_len, uint8_t *dst,
                                  size_t dst_len, size_t *written);
size_t utfdfa__sse4_utf32_to_utf8(int be, const uint8_t *src, size_t src_len, uint8_t *dst,
                                  size_t dst_len, size_t *written);
size_t utfdfa__sse4_utf32_to_utf16(int be_in, int be_out, const uint8_t *src, size_t src_len,
                                   uint8_t *dst, size_t dst_len, size_t *written);

#endif
#endif
