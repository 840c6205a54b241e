/* SPDX-License-Identifier: MIT */
/* The SSE4 UTF-7 kernels (kernels.h): 16 characters a step. Base64 after
 * Muła and Lemire ("Faster Base64 Encoding and Decoding Using AVX2
 * Instructions"): a digit is classified by pshufb on its two nibbles, its
 * value is its byte plus an offset picked by its high nibble (the grammar's
 * alphabet gives both, gen/grammar_facts.py), multiply-adds pack four digits
 * into 24 bits, a pshufb orders them as UTF-16BE units. A step whose units
 * include a surrogate or (IMAP) a printing ASCII one, or whose bytes are
 * not all digits, goes to the scalar reference (utf7.c), which pairs
 * surrogates and stops where the caller's run logic must take over. */
#include "utf7_x86.h"

#if KERN_X86
#include "encodings.gen.h"

#define KERN_SSE4 __attribute__((target("ssse3,sse4.1")))
#define SSE4_INLINE KERN_INLINE KERN_SSE4

struct sse4_u7 {
    __m128i direct, b64, roll, fix, high_bits, nibble;
};

SSE4_INLINE struct sse4_u7 sse4_u7_tables(int imap)
{
    const uint8_t(*t)[16] = utf7_simd[imap != 0];
    struct sse4_u7 s;
    s.direct = _mm_loadu_si128((const __m128i *)(const void *)t[UTF7_SIMD_DIRECT]);
    s.b64 = _mm_loadu_si128((const __m128i *)(const void *)t[UTF7_SIMD_B64]);
    s.roll = _mm_loadu_si128((const __m128i *)(const void *)t[UTF7_SIMD_ROLL]);
    s.fix = _mm_loadu_si128((const __m128i *)(const void *)t[UTF7_SIMD_FIX]);
    s.high_bits = _mm_setr_epi8(U7_HIGH_BITS);
    s.nibble = _mm_set1_epi8(0x0F);
    return s;
}

/* The bytes of v (high nibbles hi) that are not in `set`: 0xFF each. */
SSE4_INLINE __m128i sse4_outside(const struct sse4_u7 *s, __m128i v, __m128i hi, __m128i set)
{
    __m128i lo = _mm_and_si128(v, s->nibble);
    __m128i bits = _mm_and_si128(_mm_shuffle_epi8(set, lo), _mm_shuffle_epi8(s->high_bits, hi));
    return _mm_cmpeq_epi8(bits, _mm_setzero_si128());
}

/* 16 digits at p as six units in *units; 0 when a byte is not a digit, a
 * unit is a surrogate or (imap) a printing ASCII character. */
SSE4_INLINE int sse4_b64_step(const struct sse4_u7 *s, int imap, const uint8_t *p, __m128i *units)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i hi = _mm_and_si128(_mm_srli_epi16(v, 4), s->nibble);
    __m128i bad = sse4_outside(s, v, hi, s->b64);
    __m128i idx = _mm_add_epi8(hi, _mm_cmpeq_epi8(v, s->fix));
    __m128i val = _mm_add_epi8(v, _mm_shuffle_epi8(s->roll, idx));
    __m128i bits = _mm_madd_epi16(_mm_maddubs_epi16(val, _mm_set1_epi32(U7_MADDUBS)),
                                  _mm_set1_epi32(U7_MADDWD));
    __m128i u = _mm_shuffle_epi8(bits, _mm_setr_epi8(U7_UNIT_ORDER));
    __m128i sur = _mm_cmpeq_epi16(_mm_and_si128(u, _mm_set1_epi16((short)0xF800)),
                                  _mm_set1_epi16((short)0xD800));
    if (imap) {
        __m128i x = _mm_sub_epi16(u, _mm_set1_epi16(0x20));
        sur = _mm_or_si128(sur, _mm_cmpeq_epi16(_mm_min_epu16(x, _mm_set1_epi16(0x7E - 0x20)), x));
    }
    *units = u;
    return _mm_testz_si128(_mm_or_si128(bad, sur), _mm_set1_epi8(-1));
}

SSE4_INLINE void sse4_put_units(uint8_t *dst, unsigned width, __m128i u)
{
    if (width == 4) {
        _mm_storeu_si128((__m128i *)(void *)dst, _mm_cvtepu16_epi32(u));
        _mm_storel_epi64((__m128i *)(void *)(dst + 16), _mm_cvtepu16_epi32(_mm_srli_si128(u, 8)));
    } else if (width == 2) {
        uint32_t last = (uint32_t)_mm_extract_epi32(u, 2);
        _mm_storel_epi64((__m128i *)(void *)dst, u);
        memcpy(dst + 8, &last, 4);
    }
}

KERN_SSE4 size_t utfdfa__sse4_utf7_b64(int imap, const uint8_t *src, size_t n, void *dst,
                                 unsigned width, size_t cap, size_t *written)
{
    const struct sse4_u7 s = sse4_u7_tables(imap);
    uint8_t *out = dst;
    size_t i = 0, w = 0, got = 0, k;
    while (n - i >= 16 && (!width || cap - w >= 6)) {
        __m128i u;
        if (sse4_b64_step(&s, imap, src + i, &u)) {
            if (width) /* else dst is NULL: no arithmetic on it */
                sse4_put_units(out + w * width, width, u);
            i += 16;
            w += width ? 6 : 0;
            continue;
        }
        /* Pairs or what ends the kernel: group by group for a while (text
         * of surrogate pairs has them in most steps). */
        k = utfdfa__scalar_utf7_b64(imap, src + i, kern_min(n - i, 64),
                                    width ? out + w * width : NULL, width, cap - w, &got);
        i += k;
        w += got;
        if (k == 0) {
            *written = w;
            return i;
        }
    }
    k = utfdfa__scalar_utf7_b64(imap, src + i, n - i, width ? out + w * width : NULL, width,
                                cap - w, &got);
    *written = w + got;
    return i + k;
}


KERN_SSE4 size_t utfdfa__sse4_utf7_direct(int imap, const uint8_t *src, size_t n, void *dst,
                                    unsigned width, size_t cap)
{
    const struct sse4_u7 s = sse4_u7_tables(imap);
    uint8_t *out = dst;
    size_t i = 0, m = width ? kern_min(n, cap) : n;
    for (; m - i >= 16; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(src + i));
        __m128i hi = _mm_and_si128(_mm_srli_epi16(v, 4), s.nibble);
        if (_mm_movemask_epi8(sse4_outside(&s, v, hi, s.direct)))
            break;
        if (width == 4) {
            uint8_t *d = out + i * 4;
            _mm_storeu_si128((__m128i *)(void *)d, _mm_cvtepu8_epi32(v));
            _mm_storeu_si128((__m128i *)(void *)(d + 16), _mm_cvtepu8_epi32(_mm_srli_si128(v, 4)));
            _mm_storeu_si128((__m128i *)(void *)(d + 32), _mm_cvtepu8_epi32(_mm_srli_si128(v, 8)));
            _mm_storeu_si128((__m128i *)(void *)(d + 48),
                             _mm_cvtepu8_epi32(_mm_srli_si128(v, 12)));
        } else if (width == 2) {
            uint8_t *d = out + i * 2;
            _mm_storeu_si128((__m128i *)(void *)d, _mm_cvtepu8_epi16(v));
            _mm_storeu_si128((__m128i *)(void *)(d + 16), _mm_cvtepu8_epi16(_mm_srli_si128(v, 8)));
        }
    }
    return i + utfdfa__scalar_utf7_direct(imap, src + i, m - i, width ? out + i * width : NULL,
                                          width, m - i);
}


#else
typedef int utfdfa__no_sse4_utf7_here; /* ISO C wants a declaration in every unit */
#endif
