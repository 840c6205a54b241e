/* SPDX-License-Identifier: MIT */
/* The SSE4 UTF-7 kernels (kernels.h): the steps of 16 characters that
 * ../utf7_loop.h's kernels are written over, pshufb for the tables and
 * multiply-adds that pack four digits into 24 bits (utf7_x86.h). */
#include "utf7_x86.h"

#if KERN_X86
#include "encodings.gen.h"

#define KERN_SSE4 __attribute__((target("ssse3,sse4.1")))
#define U7_VEC __m128i
#define U7_UNITS __m128i
#define U7_STEP KERN_INLINE KERN_SSE4
/* Off the common path: out of line, so that the window loop keeps its registers. */
#define U7_RARE __attribute__((noinline)) static KERN_SSE4
#define U7_KERN KERN_SSE4
#define U7_B64 utfdfa__sse4_utf7_b64
#define U7_TEXT utfdfa__sse4_utf7_text

struct u7_isa {
    __m128i direct, b64, roll, fix, high_bits, nibble;
    int imap; /* the tables' form: IMAP's UTF-7 */
};

U7_STEP struct u7_isa u7_tables(int imap)
{
    const uint8_t(*t)[16] = utfdfa__utf7_simd[imap != 0];
    struct u7_isa s;
    s.direct = _mm_loadu_si128((const __m128i *)(const void *)t[UTF7_SIMD_DIRECT]);
    s.b64 = _mm_loadu_si128((const __m128i *)(const void *)t[UTF7_SIMD_B64]);
    s.roll = _mm_loadu_si128((const __m128i *)(const void *)t[UTF7_SIMD_ROLL]);
    s.fix = _mm_loadu_si128((const __m128i *)(const void *)t[UTF7_SIMD_FIX]);
    s.high_bits = _mm_setr_epi8(U7_HIGH_BITS);
    s.nibble = _mm_set1_epi8(0x0F);
    s.imap = imap;
    return s;
}

U7_STEP __m128i u7_load(const uint8_t *p)
{
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}

U7_STEP __m128i u7_high(const struct u7_isa *s, __m128i v)
{
    return _mm_and_si128(_mm_srli_epi16(v, 4), s->nibble);
}

U7_STEP __m128i u7_outside(const struct u7_isa *s, __m128i v, __m128i hi, __m128i set)
{
    __m128i lo = _mm_and_si128(v, s->nibble);
    __m128i bits = _mm_and_si128(_mm_shuffle_epi8(set, lo), _mm_shuffle_epi8(s->high_bits, hi));
    return _mm_cmpeq_epi8(bits, _mm_setzero_si128());
}

U7_STEP unsigned u7_bits(__m128i m)
{
    return (unsigned)_mm_movemask_epi8(m);
}

U7_STEP int u7_any(__m128i m)
{
    return !_mm_testz_si128(m, m);
}

U7_STEP __m128i u7_or(__m128i a, __m128i b)
{
    return _mm_or_si128(a, b);
}

U7_STEP unsigned u7_eq_bits(__m128i v, uint8_t c)
{
    return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8((char)c)));
}

U7_STEP __m128i u7_values(const struct u7_isa *s, __m128i v, __m128i hi)
{
    __m128i idx = _mm_add_epi8(hi, _mm_cmpeq_epi8(v, s->fix));
    return _mm_add_epi8(v, _mm_shuffle_epi8(s->roll, idx));
}

U7_STEP __m128i u7_units(const struct u7_isa *s, __m128i val)
{
    (void)s;
    __m128i bits = _mm_madd_epi16(_mm_maddubs_epi16(val, _mm_set1_epi32(U7_MADDUBS)),
                                  _mm_set1_epi32(U7_MADDWD));
    return _mm_shuffle_epi8(bits, _mm_setr_epi8(U7_UNIT_ORDER));
}

U7_STEP __m128i u7_printing(__m128i u) /* 0x20-0x7E: u - 0x20 at most 0x5E */
{
    __m128i x = _mm_sub_epi16(u, _mm_set1_epi16(0x20));
    return _mm_cmpeq_epi16(_mm_min_epu16(x, _mm_set1_epi16(0x7E - 0x20)), x);
}

U7_STEP unsigned u7_top_bits(__m128i u, uint16_t mask, uint16_t top)
{
    __m128i m = _mm_and_si128(u, _mm_set1_epi16((short)mask));
    return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi16(m, _mm_set1_epi16((short)top)));
}

U7_STEP unsigned u7_zero_bits(__m128i u)
{
    return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi16(u, _mm_setzero_si128()));
}

U7_STEP __m128i u7_iota(void)
{
    return _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
}

U7_STEP __m128i u7_from(__m128i v, unsigned at)
{
    return _mm_shuffle_epi8(v, _mm_add_epi8(u7_iota(), _mm_set1_epi8((char)at)));
}

U7_STEP __m128i u7_first(__m128i v, unsigned len)
{
    return _mm_and_si128(v, _mm_cmpgt_epi8(_mm_set1_epi8((char)len), u7_iota()));
}

U7_STEP void u7_put_units(uint8_t *dst, unsigned width, __m128i u)
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

/* Three pairs: one multiply-add (x86.h). */
U7_STEP void u7_put_three_pairs(uint8_t *dst, __m128i u)
{
    __m128i cp = _mm_add_epi32(_mm_madd_epi16(u, _mm_set1_epi32(KERN_SURROGATE_FACTORS)),
                               _mm_set1_epi32(KERN_SURROGATE_BIAS));
    uint32_t third = (uint32_t)_mm_extract_epi32(cp, 2);
    _mm_storel_epi64((__m128i *)(void *)dst, cp);
    memcpy(dst + 8, &third, 4);
}

/* One copy: its call costs less than its size. */
U7_RARE void u7_put_bytes(uint8_t *d, unsigned width, __m128i v)
{
    if (width == 4) {
        _mm_storeu_si128((__m128i *)(void *)d, _mm_cvtepu8_epi32(v));
        _mm_storeu_si128((__m128i *)(void *)(d + 16), _mm_cvtepu8_epi32(_mm_srli_si128(v, 4)));
        _mm_storeu_si128((__m128i *)(void *)(d + 32), _mm_cvtepu8_epi32(_mm_srli_si128(v, 8)));
        _mm_storeu_si128((__m128i *)(void *)(d + 48), _mm_cvtepu8_epi32(_mm_srli_si128(v, 12)));
    } else if (width == 2) {
        _mm_storeu_si128((__m128i *)(void *)d, _mm_cvtepu8_epi16(v));
        _mm_storeu_si128((__m128i *)(void *)(d + 16), _mm_cvtepu8_epi16(_mm_srli_si128(v, 8)));
    }
}

U7_STEP void u7_store_units(uint16_t *a, __m128i u)
{
    _mm_storeu_si128((__m128i *)(void *)a, u);
}

U7_STEP __m128i u7_plus_unit(void)
{
    return _mm_cvtsi32_si128('+');
}

#include "../utf7_loop.h"

#else
typedef int utfdfa__no_sse4_utf7_here; /* ISO C wants a declaration in every unit */
#endif
