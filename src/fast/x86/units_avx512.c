/* SPDX-License-Identifier: MIT */
/* The AVX-512 VBMI2 level's kernels between the unit forms: UTF-16 into
 * UTF-16 and UTF-32 into UTF-32 (a check of the values and a copy, bytes
 * swapped between the orders) and UTF-32 into UTF-16 (pairs made in 32-bit
 * lanes, the unused halves dropped by vpcompressw); UTF-16 into UTF-32 is
 * in avx512vbmi.c, with the kernels into UTF-8. 64 bytes of input a step;
 * a step that meets a unit the kernel must stop before, or output that does
 * not fit, goes to the scalar kernel, which stops exactly there. */
#include "x86.h"

#if KERN_X86

#define KERN_VBMI2 \
    __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi2,bmi,bmi2,popcnt")))

/* The byte swap of each 16-bit lane, for vpshufb (in each 128-bit lane). */
#define SWAP16(k) (char)((k) ^ 1)
#define SWAP16X16 SWAP16(15), SWAP16(14), SWAP16(13), SWAP16(12), SWAP16(11), SWAP16(10), \
    SWAP16(9), SWAP16(8), SWAP16(7), SWAP16(6), SWAP16(5), SWAP16(4), SWAP16(3), SWAP16(2), \
    SWAP16(1), SWAP16(0)

KERN_INLINE KERN_VBMI2 __m512i swap16(__m512i v)
{
    return _mm512_shuffle_epi8(v, _mm512_set_epi8(SWAP16X16, SWAP16X16, SWAP16X16, SWAP16X16));
}

#define SWAP32(k) (char)((k) ^ 3)
#define SWAP32X16 SWAP32(15), SWAP32(14), SWAP32(13), SWAP32(12), SWAP32(11), SWAP32(10), \
    SWAP32(9), SWAP32(8), SWAP32(7), SWAP32(6), SWAP32(5), SWAP32(4), SWAP32(3), SWAP32(2), \
    SWAP32(1), SWAP32(0)

KERN_INLINE KERN_VBMI2 __m512i swap32(__m512i v)
{
    return _mm512_shuffle_epi8(v, _mm512_set_epi8(SWAP32X16, SWAP32X16, SWAP32X16, SWAP32X16));
}

/* UTF-16 into UTF-16 (the orders may differ). Where a step's surrogates
 * pair up (each low one right after a high one, the last unit not a high
 * one), the step is copied; else the units before the first that breaks
 * the rule are, and the scalar kernel finds the stop. */
KERN_VBMI2 size_t utfdfa__vbmi_utf16_to_utf16(int be_in, int be_out, const uint8_t *src,
                                              size_t src_len, uint8_t *dst, size_t dst_len,
                                              size_t *written)
{
    const __m512i tag = _mm512_set1_epi16((short)0xFC00);
    size_t i = 0;
    while (src_len - i >= 64 && dst_len - i >= 64) {
        __m512i raw = _mm512_loadu_si512((const void *)(src + i));
        __m512i v = be_in ? swap16(raw) : raw;
        __m512i t = _mm512_and_si512(v, tag);
        uint32_t hi = _mm512_cmpeq_epi16_mask(t, _mm512_set1_epi16((short)0xD800));
        uint32_t lo = _mm512_cmpeq_epi16_mask(t, _mm512_set1_epi16((short)0xDC00));
        uint32_t bad = lo ^ hi << 1; /* a low one without its high one, or the reverse */
        size_t units = 32;
        if (bad | hi >> 31) {
            units = bad ? (size_t)__builtin_ctz(bad) : 31;
            units -= units && (hi >> (units - 1) & 1); /* a high one before the break */
        }
        __m512i out = be_in != be_out ? swap16(raw) : raw;
        _mm512_mask_storeu_epi16(dst + i, (__mmask32)((units == 32) ? ~0u : (1u << units) - 1),
                                 out);
        i += 2 * units;
        if (units < 31)
            break;
    }
    *written = i;
    return i;
}

/* UTF-32 into UTF-16: 16 code points a step; a step with a surrogate or a
 * value above U+10FFFF, or whose units do not fit, goes to the scalar kernel. */
KERN_VBMI2 size_t utfdfa__vbmi_utf32_to_utf16(int be_in, int be_out, const uint8_t *src,
                                              size_t src_len, uint8_t *dst, size_t dst_len,
                                              size_t *written)
{
    size_t i = 0, w = 0;
    while (src_len - i >= 64) {
        __m512i c = _mm512_loadu_si512((const void *)(src + i));
        if (be_in)
            c = swap32(c);
        __mmask16 big = _mm512_cmpgt_epu32_mask(c, _mm512_set1_epi32(0x10FFFF));
        __mmask16 sur = _mm512_cmpeq_epi32_mask(_mm512_and_si512(c, _mm512_set1_epi32(~0x7FF)),
                                                _mm512_set1_epi32(0xD800));
        if (big | sur)
            break;
        uint32_t supp = _mm512_cmpge_epu32_mask(c, _mm512_set1_epi32(0x10000));
        /* A pair in its lane: the high surrogate in the low half, the low
         * surrogate in the high half; a BMP value alone in the low half. */
        __m512i s = _mm512_sub_epi32(c, _mm512_set1_epi32(0x10000));
        __m512i high = _mm512_or_si512(_mm512_srli_epi32(s, 10), _mm512_set1_epi32(0xD800));
        __m512i low = _mm512_or_si512(_mm512_and_si512(s, _mm512_set1_epi32(0x3FF)),
                                      _mm512_set1_epi32(0xDC00));
        __m512i pair = _mm512_or_si512(high, _mm512_slli_epi32(low, 16));
        __m512i lanes = _mm512_mask_mov_epi32(c, (__mmask16)supp, pair);
        uint32_t keep = 0x55555555u | _pdep_u32(supp, 0xAAAAAAAAu);
        size_t units = (size_t)__builtin_popcount(keep);
        if (dst_len - w < 2 * units)
            break;
        __m512i packed = _mm512_maskz_compress_epi16((__mmask32)keep, lanes);
        if (be_out)
            packed = swap16(packed);
        _mm512_mask_storeu_epi16(dst + w, (__mmask32)(units == 32 ? ~0u : (1u << units) - 1),
                                 packed);
        i += 64;
        w += 2 * units;
    }
    *written = w;
    return i;
}

/* UTF-32 into UTF-32 (the orders may differ): the scalar values of a step
 * copied; a step with a surrogate or a value above U+10FFFF goes to the
 * scalar kernel. */
KERN_VBMI2 size_t utfdfa__vbmi_utf32_to_utf32(int be_in, int be_out, const uint8_t *src,
                                              size_t src_len, uint8_t *dst, size_t dst_len,
                                              size_t *written)
{
    size_t i = 0;
    while (src_len - i >= 64 && dst_len - i >= 64) {
        __m512i raw = _mm512_loadu_si512((const void *)(src + i));
        __m512i c = be_in ? swap32(raw) : raw;
        __mmask16 big = _mm512_cmpgt_epu32_mask(c, _mm512_set1_epi32(0x10FFFF));
        __mmask16 sur = _mm512_cmpeq_epi32_mask(_mm512_and_si512(c, _mm512_set1_epi32(~0x7FF)),
                                                _mm512_set1_epi32(0xD800));
        if (big | sur)
            break;
        _mm512_storeu_si512((void *)(dst + i), be_in != be_out ? swap32(raw) : raw);
        i += 64;
    }
    *written = i;
    return i;
}

#else
typedef int utfdfa__no_units_avx512_here; /* ISO C wants a declaration in every unit */
#endif
