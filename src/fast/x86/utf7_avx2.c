/* SPDX-License-Identifier: MIT */
/* The AVX2 UTF-7 kernels (kernels.h): 32 characters a step, each 128-bit
 * lane as utf7_sse4.c does 16 (Muła and Lemire's base64 decoding with the
 * grammar's tables), the two lanes' six units each joined by a dword
 * permutation. What is unusual goes to the scalar reference (utf7.c). */
#include "utf7_x86.h"

#if KERN_X86
#include "encodings.gen.h"

#define KERN_AVX2_U7 __attribute__((target("avx2")))
#define AVX2_U7_INLINE KERN_INLINE KERN_AVX2_U7

struct avx2_u7 {
    __m256i direct, b64, roll, fix, high_bits, nibble;
};

AVX2_U7_INLINE __m256i avx2_u7_row(const uint8_t *row)
{
    return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)row));
}

AVX2_U7_INLINE struct avx2_u7 avx2_u7_tables(int imap)
{
    const uint8_t(*t)[16] = utf7_simd[imap != 0];
    struct avx2_u7 s;
    s.direct = avx2_u7_row(t[UTF7_SIMD_DIRECT]);
    s.b64 = avx2_u7_row(t[UTF7_SIMD_B64]);
    s.roll = avx2_u7_row(t[UTF7_SIMD_ROLL]);
    s.fix = avx2_u7_row(t[UTF7_SIMD_FIX]);
    s.high_bits = _mm256_setr_epi8(U7_HIGH_BITS, U7_HIGH_BITS);
    s.nibble = _mm256_set1_epi8(0x0F);
    return s;
}

/* The bytes of v (high nibbles hi) that are not in `set`: 0xFF each. */
AVX2_U7_INLINE __m256i avx2_outside(const struct avx2_u7 *s, __m256i v, __m256i hi, __m256i set)
{
    __m256i lo = _mm256_and_si256(v, s->nibble);
    __m256i bits =
        _mm256_and_si256(_mm256_shuffle_epi8(set, lo), _mm256_shuffle_epi8(s->high_bits, hi));
    return _mm256_cmpeq_epi8(bits, _mm256_setzero_si256());
}

/* 32 digits at p as twelve units, in order, in the first 24 bytes of
 * *units; 0 when a byte is not a digit, a unit is a surrogate or (imap) a
 * printing ASCII character. */
AVX2_U7_INLINE int avx2_b64_step(const struct avx2_u7 *s, int imap, const uint8_t *p,
                                 __m256i *units)
{
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)p);
    __m256i hi = _mm256_and_si256(_mm256_srli_epi16(v, 4), s->nibble);
    __m256i bad = avx2_outside(s, v, hi, s->b64);
    __m256i idx = _mm256_add_epi8(hi, _mm256_cmpeq_epi8(v, s->fix));
    __m256i val = _mm256_add_epi8(v, _mm256_shuffle_epi8(s->roll, idx));
    __m256i bits = _mm256_madd_epi16(_mm256_maddubs_epi16(val, _mm256_set1_epi32(U7_MADDUBS)),
                                     _mm256_set1_epi32(U7_MADDWD));
    __m256i u = _mm256_shuffle_epi8(bits, _mm256_setr_epi8(U7_UNIT_ORDER, U7_UNIT_ORDER));
    __m256i sur = _mm256_cmpeq_epi16(_mm256_and_si256(u, _mm256_set1_epi16((short)0xF800)),
                                     _mm256_set1_epi16((short)0xD800));
    if (imap) {
        __m256i x = _mm256_sub_epi16(u, _mm256_set1_epi16(0x20));
        sur = _mm256_or_si256(
            sur, _mm256_cmpeq_epi16(_mm256_min_epu16(x, _mm256_set1_epi16(0x7E - 0x20)), x));
    }
    *units = _mm256_permutevar8x32_epi32(u, _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7));
    return _mm256_testz_si256(_mm256_or_si256(bad, sur), _mm256_set1_epi8(-1));
}

AVX2_U7_INLINE void avx2_put_units(uint8_t *dst, unsigned width, __m256i u)
{
    __m128i lo = _mm256_castsi256_si128(u), hi = _mm256_extracti128_si256(u, 1);
    if (width == 4) {
        _mm256_storeu_si256((__m256i *)(void *)dst, _mm256_cvtepu16_epi32(lo));
        _mm_storeu_si128((__m128i *)(void *)(dst + 32), _mm_cvtepu16_epi32(hi));
    } else if (width == 2) {
        _mm_storeu_si128((__m128i *)(void *)dst, lo);
        _mm_storel_epi64((__m128i *)(void *)(dst + 16), hi);
    }
}

KERN_AVX2_U7 size_t utfdfa__avx2_utf7_b64(int imap, const uint8_t *src, size_t n, void *dst,
                                    unsigned width, size_t cap, size_t *written)
{
    const struct avx2_u7 s = avx2_u7_tables(imap);
    uint8_t *out = dst;
    size_t i = 0, w = 0, got = 0, k;
    while (n - i >= 32 && (!width || cap - w >= 12)) {
        __m256i u;
        if (avx2_b64_step(&s, imap, src + i, &u)) {
            avx2_put_units(out + w * width, width, u);
            i += 32;
            w += width ? 12 : 0;
            continue;
        }
        /* A pair across groups or what ends the kernel: group by group. */
        k = utfdfa__sse4_utf7_b64(imap, src + i, kern_min(n - i, 40),
                                  width ? out + w * width : NULL, width, cap - w, &got);
        i += k;
        w += got;
        if (k == 0) {
            *written = w;
            return i;
        }
    }
    k = utfdfa__sse4_utf7_b64(imap, src + i, n - i, width ? out + w * width : NULL, width,
                              cap - w, &got); /* AVX2 has SSE4's instructions */
    *written = w + got;
    return i + k;
}


KERN_AVX2_U7 size_t utfdfa__avx2_utf7_direct(int imap, const uint8_t *src, size_t n, void *dst,
                                       unsigned width, size_t cap)
{
    const struct avx2_u7 s = avx2_u7_tables(imap);
    uint8_t *out = dst;
    size_t i = 0, m = width ? kern_min(n, cap) : n;
    for (; m - i >= 32; i += 32) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(src + i));
        __m256i hi = _mm256_and_si256(_mm256_srli_epi16(v, 4), s.nibble);
        if (_mm256_movemask_epi8(avx2_outside(&s, v, hi, s.direct)))
            break;
        for (size_t q = 0; width == 4 && q < 32; q += 8)
            _mm256_storeu_si256((__m256i *)(void *)(out + (i + q) * 4),
                                _mm256_cvtepu8_epi32(
                                    _mm_loadl_epi64((const __m128i *)(const void *)(src + i + q))));
        for (size_t q = 0; width == 2 && q < 32; q += 16)
            _mm256_storeu_si256((__m256i *)(void *)(out + (i + q) * 2),
                                _mm256_cvtepu8_epi16(
                                    _mm_loadu_si128((const __m128i *)(const void *)(src + i + q))));
    }
    return i + utfdfa__sse4_utf7_direct(imap, src + i, m - i, width ? out + i * width : NULL,
                                        width, m - i);
}


#else
typedef int utfdfa__no_avx2_utf7_here; /* ISO C wants a declaration in every unit */
#endif
