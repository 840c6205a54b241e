/* SPDX-License-Identifier: MIT */
/* The ASCII fast path: helpers that only look at bytes (words, SSE2, and
 * AVX2 in functions of their own with the avx2 target, called only when
 * the CPU has it), and the narrowing of UTF-32 blocks to UTF-16. */
#ifndef UTFDFA_FAST_UTF8_ASCII_H
#define UTFDFA_FAST_UTF8_ASCII_H

#include "common.h"

#include "../levels.h"

#if FAST_X86
/* Called only from functions whose target has AVX2; unused elsewhere. */
#define FAST_AVX2_HELPER FAST_UNUSED __attribute__((target("avx2")))
#endif

static const uint64_t fast_high_bits = 0x8080808080808080u;

FAST_INLINE uint64_t fast_load64(const uint8_t *p)
{
    uint64_t w;
    memcpy(&w, p, sizeof w); /* unaligned, any alignment */
    return w;
}

/* Number of leading bytes of p[0..n) below 0x80, looking at words. */
FAST_INLINE size_t fast_ascii_prefix_word(const uint8_t *p, size_t n)
{
    size_t i = 0;
    while (n - i >= 32) {
        uint64_t w = fast_load64(p + i) | fast_load64(p + i + 8) | fast_load64(p + i + 16) |
                     fast_load64(p + i + 24);
        if (w & fast_high_bits)
            break;
        i += 32;
    }
    while (n - i >= 8) {
        uint64_t h = fast_load64(p + i) & fast_high_bits;
        if (h) {
#if FAST_WORD_LE
            return i + (size_t)__builtin_ctzll(h) / 8;
#else
            break;
#endif
        }
        i += 8;
    }
    while (i < n && p[i] < 0x80)
        i++;
    return i;
}

/* Whether p[0..16) is all below 0x80 (the peek before a DFA block). */
FAST_INLINE bool fast_ascii16_word(const uint8_t *p)
{
    return ((fast_load64(p) | fast_load64(p + 8)) & fast_high_bits) == 0;
}

#if FAST_X86
FAST_INLINE bool fast_ascii16_sse2(const uint8_t *p)
{
    return _mm_movemask_epi8(_mm_loadu_si128((const __m128i *)(const void *)p)) == 0;
}

FAST_INLINE size_t fast_ascii_prefix_sse2(const uint8_t *p, size_t n)
{
    size_t i = 0;
    while (n - i >= 64) {
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(p + i + 16));
        __m128i c = _mm_loadu_si128((const __m128i *)(const void *)(p + i + 32));
        __m128i d = _mm_loadu_si128((const __m128i *)(const void *)(p + i + 48));
        if (_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, d))))
            break;
        i += 64;
    }
    while (n - i >= 16) {
        unsigned m = (unsigned)_mm_movemask_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + i)));
        if (m)
            return i + (size_t)__builtin_ctz(m);
        i += 16;
    }
    while (i < n && p[i] < 0x80)
        i++;
    return i;
}

FAST_AVX2_HELPER static size_t fast_ascii_prefix_avx2(const uint8_t *p, size_t n)
{
    size_t i = 0;
    while (n - i >= 128) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(p + i));
        __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(p + i + 32));
        __m256i c = _mm256_loadu_si256((const __m256i *)(const void *)(p + i + 64));
        __m256i d = _mm256_loadu_si256((const __m256i *)(const void *)(p + i + 96));
        if (_mm256_movemask_epi8(_mm256_or_si256(_mm256_or_si256(a, b), _mm256_or_si256(c, d))))
            break;
        i += 128;
    }
    while (n - i >= 32) {
        unsigned m = (unsigned)_mm256_movemask_epi8(_mm256_loadu_si256((const __m256i *)(const void *)(p + i)));
        if (m)
            return i + (size_t)__builtin_ctz(m);
        i += 32;
    }
    while (i < n && p[i] < 0x80)
        i++;
    return i;
}

/* The CPU check: the level ladder's, asked once (src/fast/dispatch.c). */
FAST_INLINE bool fast_have_avx2(void)
{
    return utfdfa__fast_cpu_has(LEVEL_AVX2);
}
#endif /* FAST_X86 */

#if FAST_ARM64
/* The same with NEON (AArch64's baseline): umaxv tests 16 bytes at once. */
FAST_INLINE bool fast_ascii16_neon(const uint8_t *p)
{
    return vmaxvq_u8(vld1q_u8(p)) < 0x80;
}

/* The first byte >= 0x80 of the 16 at p, which has one: a nibble a byte
 * (shrn), the lowest set one found by counting trailing zeros. */
FAST_INLINE size_t fast_first_high_neon(uint8x16_t v)
{
    uint8x16_t hi = vcltzq_s8(vreinterpretq_s8_u8(v));
    uint64_t m = vget_lane_u64(vreinterpret_u64_u8(vshrn_n_u16(vreinterpretq_u16_u8(hi), 4)), 0);
    return (size_t)__builtin_ctzll(m) / 4;
}

FAST_INLINE size_t fast_ascii_prefix_neon(const uint8_t *p, size_t n)
{
    size_t i = 0;
    while (n - i >= 64) {
        uint8x16_t a = vld1q_u8(p + i), b = vld1q_u8(p + i + 16), c = vld1q_u8(p + i + 32),
                   d = vld1q_u8(p + i + 48);
        if (vmaxvq_u8(vorrq_u8(vorrq_u8(a, b), vorrq_u8(c, d))) >= 0x80)
            break;
        i += 64;
    }
    while (n - i >= 16) {
        uint8x16_t v = vld1q_u8(p + i);
        if (vmaxvq_u8(v) >= 0x80)
            return i + fast_first_high_neon(v);
        i += 16;
    }
    while (i < n && p[i] < 0x80)
        i++;
    return i;
}
#endif /* FAST_ARM64 */

FAST_INLINE bool fast_ascii16(int amode, const uint8_t *p)
{
#if FAST_X86
    if (amode != FAST_ASCII_WORD)
        return fast_ascii16_sse2(p);
#elif FAST_ARM64
    if (amode == FAST_ASCII_NEON)
        return fast_ascii16_neon(p);
#endif
    (void)amode;
    return fast_ascii16_word(p);
}

FAST_INLINE size_t fast_ascii_prefix(int amode, const uint8_t *p, size_t n)
{
#if FAST_X86
    if (amode == FAST_ASCII_AVX2 && fast_have_avx2())
        return fast_ascii_prefix_avx2(p, n);
    if (amode == FAST_ASCII_SSE2)
        return fast_ascii_prefix_sse2(p, n);
#elif FAST_ARM64
    if (amode == FAST_ASCII_NEON)
        return fast_ascii_prefix_neon(p, n);
#endif
    (void)amode;
    return fast_ascii_prefix_word(p, n);
}

/* Decode a run of ASCII: copy the leading bytes of p[0..n) below 0x80 into
 * dst as 32-bit (u16 false) or 16-bit units, at most `room` of them, and
 * return how many. Whole 16-byte blocks are widened and stored at once;
 * the block holding the first byte >= 0x80 is stored whole too when there
 * is room (scratch beyond the count, allowed by the contract). */
FAST_INLINE size_t fast_ascii_widen_scalar(const uint8_t *p, size_t n, void *dst, size_t room,
                                           bool u16)
{
    size_t lim = n < room ? n : room, i = 0;
    while (i < lim && p[i] < 0x80) {
        if (u16)
            ((uint16_t *)dst)[i] = p[i];
        else
            ((uint32_t *)dst)[i] = p[i];
        i++;
    }
    return i;
}

FAST_INLINE size_t fast_ascii_widen_word(const uint8_t *p, size_t n, void *dst, size_t room,
                                         bool u16)
{
    size_t lim = n < room ? n : room, i = 0;
    while (lim - i >= 8) {
        uint64_t w = fast_load64(p + i);
        if (w & fast_high_bits)
            break;
        for (int k = 0; k < 8; k++) {
            if (u16)
                ((uint16_t *)dst)[i + (size_t)k] = p[i + (size_t)k];
            else
                ((uint32_t *)dst)[i + (size_t)k] = p[i + (size_t)k];
        }
        i += 8;
    }
    return i + fast_ascii_widen_scalar(p + i, n - i, u16 ? (void *)((uint16_t *)dst + i)
                                                         : (void *)((uint32_t *)dst + i),
                                       room - i, u16);
}

#if FAST_X86
FAST_INLINE size_t fast_ascii_widen_sse2(const uint8_t *p, size_t n, void *dst, size_t room,
                                         bool u16)
{
    size_t lim = n < room ? n : room, i = 0;
    const __m128i z = _mm_setzero_si128();
    while (lim - i >= 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
        unsigned m = (unsigned)_mm_movemask_epi8(v);
        __m128i lo = _mm_unpacklo_epi8(v, z), hi = _mm_unpackhi_epi8(v, z);
        if (u16) {
            __m128i *q = (__m128i *)(void *)((uint16_t *)dst + i);
            _mm_storeu_si128(q, lo);
            _mm_storeu_si128(q + 1, hi);
        } else {
            __m128i *q = (__m128i *)(void *)((uint32_t *)dst + i);
            _mm_storeu_si128(q, _mm_unpacklo_epi16(lo, z));
            _mm_storeu_si128(q + 1, _mm_unpackhi_epi16(lo, z));
            _mm_storeu_si128(q + 2, _mm_unpacklo_epi16(hi, z));
            _mm_storeu_si128(q + 3, _mm_unpackhi_epi16(hi, z));
        }
        if (m)
            return i + (size_t)__builtin_ctz(m);
        i += 16;
    }
    return i + fast_ascii_widen_scalar(p + i, n - i, u16 ? (void *)((uint16_t *)dst + i)
                                                         : (void *)((uint32_t *)dst + i),
                                       room - i, u16);
}

FAST_AVX2_HELPER static size_t fast_ascii_widen_avx2(const uint8_t *p, size_t n, void *dst,
                                              size_t room, bool u16)
{
    size_t lim = n < room ? n : room, i = 0;
    while (lim - i >= 32) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(p + i));
        unsigned m = (unsigned)_mm256_movemask_epi8(v);
        __m128i v0 = _mm256_castsi256_si128(v), v1 = _mm256_extracti128_si256(v, 1);
        if (u16) {
            __m256i *q = (__m256i *)(void *)((uint16_t *)dst + i);
            _mm256_storeu_si256(q, _mm256_cvtepu8_epi16(v0));
            _mm256_storeu_si256(q + 1, _mm256_cvtepu8_epi16(v1));
        } else {
            __m256i *q = (__m256i *)(void *)((uint32_t *)dst + i);
            _mm256_storeu_si256(q, _mm256_cvtepu8_epi32(v0));
            _mm256_storeu_si256(q + 1, _mm256_cvtepu8_epi32(_mm_srli_si128(v0, 8)));
            _mm256_storeu_si256(q + 2, _mm256_cvtepu8_epi32(v1));
            _mm256_storeu_si256(q + 3, _mm256_cvtepu8_epi32(_mm_srli_si128(v1, 8)));
        }
        if (m)
            return i + (size_t)__builtin_ctz(m);
        i += 32;
    }
    return i + fast_ascii_widen_sse2(p + i, n - i, u16 ? (void *)((uint16_t *)dst + i)
                                                       : (void *)((uint32_t *)dst + i),
                                     room - i, u16);
}
#endif /* FAST_X86 */

#if FAST_ARM64
/* The widening's stores: st4 (UTF-32) or st2 (UTF-16) of the ASCII bytes
 * and zeros, one instruction for 16 bytes (tbl or zips and a store took 5
 * or 3). In asm, with the registers bound: GCC's st2/st4 intrinsics copy
 * the zeros beside each vector at every store (3-4 instructions), while
 * bound registers keep them for the whole run. The bytes are in v16, v20,
 * v24 and v28, each followed by three zeros (caller-saved registers, so
 * nothing is saved for them); FAST_NEON_ZEROS declares the zeros
 * (FAST_NEON_ZEROS16: those of v16 alone). */
#define FAST_NEON_ZEROS16(init)                                                                 \
    register uint8x16_t fast_z17 __asm__("v17") = (init), fast_z18 __asm__("v18") = fast_z17,   \
        fast_z19 __asm__("v19") = fast_z17
#define FAST_NEON_ZEROS(init)                                                                   \
    FAST_NEON_ZEROS16(init), fast_z21 __asm__("v21") = fast_z17,                                \
        fast_z22 __asm__("v22") = fast_z17, fast_z23 __asm__("v23") = fast_z17,                 \
        fast_z25 __asm__("v25") = fast_z17, fast_z26 __asm__("v26") = fast_z17,                 \
        fast_z27 __asm__("v27") = fast_z17, fast_z29 __asm__("v29") = fast_z17,                 \
        fast_z30 __asm__("v30") = fast_z17, fast_z31 __asm__("v31") = fast_z17

/* The 16 bytes in v16 (fast_v16) as units at d, d advanced past them. */
#define FAST_NEON_STORE16(d, u16)                                                                \
    do {                                                                                         \
        if (u16)                                                                                 \
            __asm__("st2 {%2.16b, %3.16b}, [%0], #32"                                            \
                    : "+r"(d), "=m"(*(uint8_t(*)[32])(void *)d)                                  \
                    : "w"(fast_v16), "w"(fast_z17));                                             \
        else                                                                                     \
            __asm__("st4 {%2.16b - %5.16b}, [%0], #64"                                           \
                    : "+r"(d), "=m"(*(uint8_t(*)[64])(void *)d)                                  \
                    : "w"(fast_v16), "w"(fast_z17), "w"(fast_z18), "w"(fast_z19));               \
    } while (0)

/* The 64 bytes in v16, v20, v24, v28 as units at d, d advanced. */
#define FAST_NEON_STORE64(d, u16)                                                                \
    do {                                                                                         \
        if (u16)                                                                                 \
            __asm__("st2 {%2.16b, %3.16b}, [%0], #32\n\t"                                        \
                    "st2 {%4.16b, %5.16b}, [%0], #32\n\t"                                        \
                    "st2 {%6.16b, %7.16b}, [%0], #32\n\t"                                        \
                    "st2 {%8.16b, %9.16b}, [%0], #32"                                            \
                    : "+r"(d), "=m"(*(uint8_t(*)[128])(void *)d)                                 \
                    : "w"(fast_v16), "w"(fast_z17), "w"(fast_v20), "w"(fast_z21),                \
                      "w"(fast_v24), "w"(fast_z25), "w"(fast_v28), "w"(fast_z29));               \
        else                                                                                     \
            __asm__("st4 {%2.16b - %5.16b}, [%0], #64\n\t"                                       \
                    "st4 {%6.16b - %9.16b}, [%0], #64\n\t"                                       \
                    "st4 {%10.16b - %13.16b}, [%0], #64\n\t"                                     \
                    "st4 {%14.16b - %17.16b}, [%0], #64"                                         \
                    : "+r"(d), "=m"(*(uint8_t(*)[256])(void *)d)                                 \
                    : "w"(fast_v16), "w"(fast_z17), "w"(fast_z18), "w"(fast_z19),                \
                      "w"(fast_v20), "w"(fast_z21), "w"(fast_z22), "w"(fast_z23),                \
                      "w"(fast_v24), "w"(fast_z25), "w"(fast_z26), "w"(fast_z27),                \
                      "w"(fast_v28), "w"(fast_z29), "w"(fast_z30), "w"(fast_z31));               \
    } while (0)

/* The leading 64-byte blocks of ASCII of p[0..n) as units at dst (UTF-16
 * or UTF-32, little-endian), tested at once (one umaxv of their OR: a
 * block's test costs what a 16-byte one did); the bytes widened, a
 * multiple of 64, and nothing stored past them. */
FAST_INLINE size_t fast_ascii_widen64_neon(const uint8_t *p, size_t n, void *dst, bool u16)
{
    const uint8_t *s = p, *end = p + (n & ~(size_t)63);
    uint8_t *d = (uint8_t *)dst;
    FAST_NEON_ZEROS(vdupq_n_u8(0));
    while (s < end) {
        register uint8x16_t fast_v16 __asm__("v16") = vld1q_u8(s);
        register uint8x16_t fast_v20 __asm__("v20") = vld1q_u8(s + 16);
        register uint8x16_t fast_v24 __asm__("v24") = vld1q_u8(s + 32);
        register uint8x16_t fast_v28 __asm__("v28") = vld1q_u8(s + 48);
        if (vmaxvq_u8(vorrq_u8(vorrq_u8(fast_v16, fast_v20), vorrq_u8(fast_v24, fast_v28))) >= 0x80)
            break;
        FAST_NEON_STORE64(d, u16);
        s += 64;
    }
    return (size_t)(s - p);
}

/* The 64-byte blocks; the block that holds a byte >= 0x80, and what is
 * left, 16 bytes a step. */
FAST_INLINE size_t fast_ascii_widen_neon(const uint8_t *p, size_t n, void *dst, size_t room,
                                         bool u16)
{
    size_t lim = n < room ? n : room, i = fast_ascii_widen64_neon(p, lim, dst, u16);
    const uint8_t *s = p + i, *end16 = p + (lim & ~(size_t)15);
    uint8_t *d = (uint8_t *)dst + (u16 ? 2 : 4) * i;
    FAST_NEON_ZEROS16(vdupq_n_u8(0));
    while (s < end16) {
        register uint8x16_t fast_v16 __asm__("v16") = vld1q_u8(s);
        FAST_NEON_STORE16(d, u16);
        if (vmaxvq_u8(fast_v16) >= 0x80)
            return (size_t)(s - p) + fast_first_high_neon(fast_v16);
        s += 16;
    }
    i = (size_t)(s - p);
    return i + fast_ascii_widen_scalar(s, n - i, d, room - i, u16);
}
#endif /* FAST_ARM64 */

/* An ASCII step: the leading ASCII bytes of src[0..n) widened at dst (to
 * UTF-32, or UTF-16 for a decoder to UTF-16), their count; the block that
 * ends the run is widened whole, so dst must have room for n units. */
typedef size_t (*fast_ascii_fn)(const uint8_t *src, size_t n, void *dst);

FAST_INLINE size_t fast_ascii_widen(int amode, const uint8_t *p, size_t n, void *dst,
                                    size_t room, bool u16)
{
#if FAST_X86
    if (amode == FAST_ASCII_AVX2 && fast_have_avx2())
        return fast_ascii_widen_avx2(p, n, dst, room, u16);
    if (amode == FAST_ASCII_SSE2)
        return fast_ascii_widen_sse2(p, n, dst, room, u16);
#elif FAST_ARM64
    if (amode == FAST_ASCII_NEON)
        return fast_ascii_widen_neon(p, n, dst, room, u16);
#endif
    (void)amode;
    return fast_ascii_widen_word(p, n, dst, room, u16);
}

/* Store the 16 code points t[0..16) as 16 UTF-16 units (their low halves)
 * and say whether all of them are below 0x10000 (then the units are right). */
FAST_INLINE bool fast_narrow16(const uint32_t *t, uint16_t *d)
{
#if FAST_X86
    __m128i a = _mm_loadu_si128((const __m128i *)(const void *)t);
    __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(t + 4));
    __m128i c = _mm_loadu_si128((const __m128i *)(const void *)(t + 8));
    __m128i e = _mm_loadu_si128((const __m128i *)(const void *)(t + 12));
    /* Sign-extend each low half so the signed saturating pack is exact. */
#define FAST_LOW16(x) _mm_srai_epi32(_mm_slli_epi32((x), 16), 16)
    _mm_storeu_si128((__m128i *)(void *)d, _mm_packs_epi32(FAST_LOW16(a), FAST_LOW16(b)));
    _mm_storeu_si128((__m128i *)(void *)(d + 8), _mm_packs_epi32(FAST_LOW16(c), FAST_LOW16(e)));
#undef FAST_LOW16
    __m128i hi = _mm_srli_epi32(_mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, e)), 16);
    return _mm_movemask_epi8(_mm_cmpeq_epi32(hi, _mm_setzero_si128())) == 0xFFFF;
#else
    uint32_t any = 0;
    for (int k = 0; k < 16; k++) {
        any |= t[k];
        d[k] = (uint16_t)t[k];
    }
    return any <= 0xFFFF;
#endif
}


#endif /* UTFDFA_FAST_UTF8_ASCII_H */
