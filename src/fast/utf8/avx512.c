/* SPDX-License-Identifier: MIT */
/* The variants for x86-64 with AVX-512 VBMI and VBMI2 (the kernel level
 * LEVEL_AVX512VBMI): decoding by slabs (slab.h) with a transcoder of valid
 * UTF-8 that works on 64 bytes at a time, after the technique of Clausecker
 * and Lemire ("Transcoding Unicode Characters with AVX-512 Instructions",
 * 2023), written here from its description:
 *   - the characters' first bytes are those that are not 10xxxxxx; their
 *     positions are compressed (vpcompressb over 0..63) into one vector;
 *   - for 16 characters at a time, a byte permute (vpermb) brings each
 *     character's bytes (its first byte and the three after it) into a
 *     32-bit lane, first byte lowest;
 *   - the lane's bytes are combined as a 4-byte character would be (two
 *     multiply-adds: b0 << 18 | b1 << 12 | b2 << 6 | b3, the later bytes
 *     masked to their 6 payload bits), then shifted right by 6 for each
 *     byte the character lacks, and the first byte's marker bits are
 *     masked off; the length comes from the first byte alone.
 * A block is taken up to its last first byte (the character there may go
 * on in the next block), so a block of 64 bytes moves at least 61 on.
 * Each function carries its target attribute (select.c calls them only at
 * that level, which requires the CPU features). */
#include "utf8_fast.h"

#include "slab.h"
#include "variants.h"

#if FAST_X86
#define FAST_TARGET_VBMI                                                                    \
    __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi,bmi2,"      \
                          "lzcnt,popcnt")))

/* Units from valid characters: lanes (first byte lowest) to code points. */
FAST_TARGET_VBMI FAST_INLINE __m512i vbmi_combine(__m512i b, __mmask16 *four)
{
    const __m512i lead = _mm512_and_si512(b, _mm512_set1_epi32(0xFF));
    /* Later bytes to their payload; the first byte whole for now. */
    __m512i t = _mm512_and_si512(b, _mm512_set1_epi32(0x3F3F3FFF));
    /* (b0 * 64 + b1, b2 * 64 + b3) per 16 bits, then the two as one. */
    t = _mm512_maddubs_epi16(t, _mm512_set1_epi16(0x0140));
    t = _mm512_madd_epi16(t, _mm512_set1_epi32(0x00011000));
    __mmask16 k2 = _mm512_cmpge_epu32_mask(lead, _mm512_set1_epi32(0xC0));
    __mmask16 k3 = _mm512_cmpge_epu32_mask(lead, _mm512_set1_epi32(0xE0));
    __mmask16 k4 = _mm512_cmpge_epu32_mask(lead, _mm512_set1_epi32(0xF0));
    const __m512i six = _mm512_set1_epi32(6);
    __m512i sh = _mm512_set1_epi32(18);
    sh = _mm512_mask_sub_epi32(sh, k2, sh, six);
    sh = _mm512_mask_sub_epi32(sh, k3, sh, six);
    sh = _mm512_mask_sub_epi32(sh, k4, sh, six);
    /* The payload's bits: 7, 5 + 6, 4 + 12, 3 + 18. */
    __m512i m = _mm512_set1_epi32(0x7F);
    m = _mm512_mask_mov_epi32(m, k2, _mm512_set1_epi32(0x7FF));
    m = _mm512_mask_mov_epi32(m, k3, _mm512_set1_epi32(0xFFFF));
    m = _mm512_mask_mov_epi32(m, k4, _mm512_set1_epi32(0x1FFFFF));
    *four = k4;
    return _mm512_and_si512(_mm512_srlv_epi32(t, sh), m);
}

/* Store the first cnt code points of c as UTF-16 at d; how many units. */
FAST_TARGET_VBMI FAST_INLINE size_t vbmi_store16(uint16_t *d, __m512i c, __mmask16 four,
                                                 unsigned cnt)
{
    __mmask16 live = (__mmask16)((1u << cnt) - 1);
    four &= live;
    if (FAST_LIKELY(four == 0)) {
        _mm256_mask_storeu_epi16(d, live, _mm512_cvtepi32_epi16(c));
        return cnt;
    }
    /* Pairs: high surrogate in the lane's low half, low one above it. */
    __m512i u = _mm512_sub_epi32(c, _mm512_set1_epi32(0x10000));
    __m512i hi = _mm512_or_si512(_mm512_srli_epi32(u, 10), _mm512_set1_epi32(0xD800));
    __m512i lo = _mm512_or_si512(_mm512_and_si512(u, _mm512_set1_epi32(0x3FF)),
                                 _mm512_set1_epi32(0xDC00));
    __m512i w = _mm512_mask_mov_epi32(c, four, _mm512_or_si512(hi, _mm512_slli_epi32(lo, 16)));
    __mmask32 keep = (__mmask32)(_pdep_u32(live, 0x55555555u) | _pdep_u32(four, 0xAAAAAAAAu));
    unsigned units = (unsigned)__builtin_popcount(keep);
    __m512i packed = _mm512_maskz_compress_epi16(keep, w); /* in a register: fast everywhere */
    _mm512_mask_storeu_epi16(d, (__mmask32)(((uint64_t)1 << units) - 1), packed);
    return units;
}

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

/* The characters that begin at the set bits of `first` in v, to dst. */
FAST_TARGET_VBMI FAST_INLINE size_t vbmi_chars(__m512i v, __mmask64 first, void *dst, bool u16)
{
    /* Byte k of lane j: (j * 0x01010101) + k, then the group's offset. */
    const __m512i iota = _mm512_set_epi64(0x3F3E3D3C3B3A3938, 0x3736353433323130,
                                          0x2F2E2D2C2B2A2928, 0x2726252423222120,
                                          0x1F1E1D1C1B1A1918, 0x1716151413121110,
                                          0x0F0E0D0C0B0A0908, 0x0706050403020100);
    const __m512i spread = _mm512_mullo_epi32(
        _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
        _mm512_set1_epi32(0x01010101));
    const __m512i bytes4 = _mm512_set1_epi32(0x03020100);
    unsigned cnt = (unsigned)__builtin_popcountll(first);
    __m512i pos = _mm512_maskz_compress_epi8(first, iota);
    size_t o = 0;
    for (unsigned gi = 0; gi < cnt; gi += 16) {
        __m512i sel = _mm512_add_epi8(spread, _mm512_set1_epi8((char)gi));
        __m512i idx = _mm512_add_epi8(_mm512_permutexvar_epi8(sel, pos), bytes4);
        __mmask16 four;
        __m512i c = vbmi_combine(_mm512_permutexvar_epi8(idx, v), &four);
        unsigned k = cnt - gi < 16 ? cnt - gi : 16;
        if (u16) {
            o += vbmi_store16((uint16_t *)dst + o, c, four, k);
        } else {
            _mm512_mask_storeu_epi32((uint32_t *)dst + o, (__mmask16)((1u << k) - 1), c);
            o += k;
        }
    }
    return o;
}

/* The transcoder: src[0..n) is valid UTF-8, whole characters. */
FAST_TARGET_VBMI FAST_INLINE size_t vbmi_valid(const uint8_t *src, size_t n, void *dst, bool u16)
{
    size_t i = 0, o = 0;
    while (i < n) {
        size_t rem = n - i;
        __mmask64 lm = rem >= 64 ? ~(__mmask64)0 : ((__mmask64)1 << rem) - 1;
        __m512i v = _mm512_maskz_loadu_epi8(lm, src + i);
        void *d = u16 ? (void *)((uint16_t *)dst + o) : (void *)((uint32_t *)dst + o);
        if (_mm512_movepi8_mask(v) == 0) {
            size_t k = rem < 64 ? rem : 64;
            vbmi_widen(v, k, d, u16);
            i += k;
            o += k;
            continue;
        }
        /* First bytes: ASCII and 11xxxxxx, signed above 10111111. */
        __mmask64 first = _mm512_cmpgt_epi8_mask(v, _mm512_set1_epi8(-65)) & lm;
        size_t take = rem;
        if (rem > 64) {
            take = 63 - (size_t)__builtin_clzll(first); /* the last one: may go on */
            first &= ((__mmask64)1 << take) - 1;
        }
        o += vbmi_chars(v, first, d, u16);
        i += take;
    }
    return o;
}

FAST_TARGET_VBMI FAST_NOINLINE static size_t vbmi_valid32(const uint8_t *src, size_t n, void *dst)
{
    return vbmi_valid(src, n, dst, false);
}

FAST_TARGET_VBMI FAST_NOINLINE static size_t vbmi_valid16(const uint8_t *src, size_t n, void *dst)
{
    return vbmi_valid(src, n, dst, true);
}

FAST_TARGET_VBMI size_t utfdfa__utf8_dec_vbmi_32(const uint8_t *src, size_t n, uint32_t *state,
    uint32_t *partial, uint32_t *dst, size_t cap, size_t *written)
{
    return fast_slab_engine(fast_utf8(), src, n, state, partial, dst, cap, written, false,
                            vbmi_valid32);
}

FAST_TARGET_VBMI size_t utfdfa__utf8_dec_vbmi_16(const uint8_t *src, size_t n, uint32_t *state,
    uint32_t *partial, uint16_t *dst, size_t cap, size_t *written)
{
    return fast_slab_engine(fast_utf8(), src, n, state, partial, dst, cap, written, true,
                            vbmi_valid16);
}

FAST_TARGET_VBMI size_t utfdfa__utf8_rep_vbmi(const uint8_t *src, size_t n, uint32_t *state,
    uint32_t *partial, uint32_t *dst, size_t cap, size_t *written, size_t *errors)
{
    return fast_slab_rep(src, n, state, partial, dst, cap, written, errors,
                         utfdfa__utf8_dec_vbmi_32, utfdfa__utf8_rep_b_avx2);
}

/* The scan is the AVX2 level's (the validators are another file's). */
const struct utfdfa__utf8_fast_impl utfdfa__utf8_fast_vbmi = {
    utfdfa__utf8_scan_b_avx2_l2, utfdfa__utf8_dec_vbmi_32, utfdfa__utf8_dec_vbmi_16,
    utfdfa__utf8_rep_vbmi,
};
#else
typedef int utfdfa__utf8_fast_avx512_none; /* not x86-64: nothing here (a unit must declare something) */
#endif
