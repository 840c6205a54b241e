/* SPDX-License-Identifier: MIT */
/* The AVX2 UTF-7 text kernel (kernels.h). Text in most scripts is words of
 * 3-30 base64 digits between a few direct characters, and the SSE4
 * kernel's walk of 16-byte windows pays a mispredicted branch or two a
 * word. Here one classification of a 64-byte window gives bit masks of
 * what is not direct, not a digit, "-"; a word is then a few scalar steps
 * on the masks (where its direct characters end, where its run ends) and
 * the run's units from one 32-byte load at its first digit (up to 31
 * digits: the two lanes' six units each), written whole without a branch
 * on its length. A run of 32 digits or more goes on 32 digits (12 units) a
 * step. Surrogate pairs are joined by a scalar loop (text outside the BMP
 * is the rarer). What it cannot take (a lone surrogate, a pair cut by a
 * step, a run that ends badly) goes to the SSE4 kernel: that run alone when
 * its end is in the window, else with the rest of the input. Digits are
 * valued as in utf7_sse4.c (utf7_x86.h). */
#include "utf7_x86.h"

#if KERN_X86
#include "encodings.gen.h"

#define AVX2_INLINE KERN_INLINE KERN_AVX2
#if defined(__clang__) /* no per-function optimize attribute */
#define U7_FOR_SIZE
#else
#define U7_FOR_SIZE __attribute__((optimize("Os")))
#endif
#define U7_UNKNOWN_END 65 /* avx2_u7_window: the refused run's end is not in the window */

struct avx2_u7 {
    __m256i direct, b64, roll, fix, high_bits, nibble;
};

AVX2_INLINE __m256i avx2_u7_row(int row)
{
    const void *r = utfdfa__utf7_simd[0][row];
    return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)r));
}

/* Bits of the bytes of v (high nibbles hi) that are not in `set`. */
AVX2_INLINE uint32_t avx2_u7_outside(const struct avx2_u7 *s, __m256i v, __m256i hi, __m256i set)
{
    __m256i lo = _mm256_and_si256(v, s->nibble);
    __m256i bits = _mm256_and_si256(_mm256_shuffle_epi8(set, lo),
                                    _mm256_shuffle_epi8(s->high_bits, hi));
    return (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(bits, _mm256_setzero_si256()));
}

AVX2_INLINE __m256i avx2_u7_high_nibbles(const struct avx2_u7 *s, __m256i v)
{
    return _mm256_and_si256(_mm256_srli_epi16(v, 4), s->nibble);
}

/* The first len (at most 32) digits of v as units 0-11 in order, zero after. */
AVX2_INLINE __m256i avx2_u7_units(const struct avx2_u7 *s, __m256i v, __m256i hi, unsigned len)
{
    const __m256i iota = _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                                          16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
                                          30, 31);
    __m256i idx = _mm256_add_epi8(hi, _mm256_cmpeq_epi8(v, s->fix));
    __m256i val = _mm256_add_epi8(v, _mm256_shuffle_epi8(s->roll, idx));
    val = _mm256_and_si256(val, _mm256_cmpgt_epi8(_mm256_set1_epi8((char)len), iota));
    __m256i bits = _mm256_madd_epi16(_mm256_maddubs_epi16(val, _mm256_set1_epi32(U7_MADDUBS)),
                                     _mm256_set1_epi32(U7_MADDWD));
    __m256i u = _mm256_shuffle_epi8(bits, _mm256_setr_epi8(U7_UNIT_ORDER, U7_UNIT_ORDER));
    return _mm256_permutevar8x32_epi32(u, _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7));
}

/* The bytes of v widened at d: the first 8 (width 4) or 16 (width 2), all 32 when `all`. */
AVX2_INLINE void avx2_u7_put_bytes(uint8_t *d, unsigned width, __m256i v, int all)
{
    __m128i lo = _mm256_castsi256_si128(v), hi = _mm256_extracti128_si256(v, 1);
    if (width == 4) {
        _mm256_storeu_si256((__m256i *)(void *)d, _mm256_cvtepu8_epi32(lo));
        if (all) {
            __m256i *q = (__m256i *)(void *)d;
            _mm256_storeu_si256(q + 1, _mm256_cvtepu8_epi32(_mm_srli_si128(lo, 8)));
            _mm256_storeu_si256(q + 2, _mm256_cvtepu8_epi32(hi));
            _mm256_storeu_si256(q + 3, _mm256_cvtepu8_epi32(_mm_srli_si128(hi, 8)));
        }
    } else if (width == 2) {
        _mm256_storeu_si256((__m256i *)(void *)d, _mm256_cvtepu8_epi16(lo));
        if (all)
            _mm256_storeu_si256((__m256i *)(void *)(d + 32), _mm256_cvtepu8_epi16(hi));
    }
}

/* Units 0-15 of u at d. */
AVX2_INLINE void avx2_u7_put_units(uint8_t *d, unsigned width, __m256i u)
{
    if (width == 4) {
        _mm256_storeu_si256((__m256i *)(void *)d, _mm256_cvtepu16_epi32(_mm256_castsi256_si128(u)));
        _mm256_storeu_si256((__m256i *)(void *)(d + 32),
                            _mm256_cvtepu16_epi32(_mm256_extracti128_si256(u, 1)));
    } else if (width == 2) {
        _mm256_storeu_si256((__m256i *)(void *)d, u);
    }
}

/* A run's units a[0..nu) with surrogates in them, when those are pairs:
 * at d as code points (width 4) or units (2), and 1 + how many; else 0.
 * Out of line: text outside the BMP is the rarer, and a loop is short. */
__attribute__((noinline)) static unsigned avx2_u7_pairs(uint8_t *d, unsigned width,
                                                        const uint16_t *a, unsigned nu)
{
    unsigned m = 0;
    for (unsigned k = 0; k < nu; k++, m++) {
        uint32_t cp = a[k];
        if (cp >= 0xD800 && cp <= 0xDBFF && k + 1 < nu && a[k + 1] >= 0xDC00 && a[k + 1] <= 0xDFFF)
            cp = 0x10000 + ((cp - 0xD800) << 10) + (a[++k] - 0xDC00u);
        else if (cp >= 0xD800 && cp <= 0xDFFF)
            return 0;
        if (width == 4)
            memcpy(d + 4 * m, &cp, 4);
    }
    if (width == 2)
        memcpy(d, a, 2 * nu);
    return 1 + (width == 2 ? nu : m);
}

/* Whether a run's last len digits (fresh: all of it, after its "+") may
 * end before a byte (direct, dash: whether it is a direct character, "-").
 * RFC 2152: fewer than 8 bits over (32 digits are 12 units: len % 8 is 0,
 * 1, 3 or 6), then "-" (taken) or a direct character; "+-" is "+". */
AVX2_INLINE int avx2_u7_ends_well(unsigned len, int fresh, int direct, int dash)
{
    return direct && (0x4Bu >> (len & 7) & 1) && (len || !fresh || dash);
}

/* The len digits of a run at p (32 bytes readable): 32 of its digits, or
 * its last len (< 32) before an end that avx2_u7_ends_well accepted. Their
 * units at d, *nu of them, when a step takes them; else 0 (a lone surrogate, or
 * bits over that are not zero). */
AVX2_INLINE int avx2_u7_run(const struct avx2_u7 *s, const uint8_t *p, unsigned len, int fresh,
                            uint8_t *d, unsigned width, unsigned *nu)
{
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)p);
    __m256i u = avx2_u7_units(s, v, avx2_u7_high_nibbles(s, v), len);
    unsigned units = 6 * len >> 4;
    uint32_t zero = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi16(u, _mm256_setzero_si256()));
    uint32_t sur = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi16(
        _mm256_and_si256(u, _mm256_set1_epi16((short)0xF800)), _mm256_set1_epi16((short)0xD800)));
    if (!(zero >> 2 * units & 1))
        return 0;
    if (sur & ((1u << 2 * units) - 1)) { /* pairs, or a lone one */
        uint16_t a[16];
        _mm256_storeu_si256((__m256i *)(void *)a, u);
        unsigned took = avx2_u7_pairs(d, width, a, units);
        *nu = took - 1;
        return took != 0;
    }
    if (len == 0 && fresh) {
        u = _mm256_set1_epi16('+');
        units = 1;
    }
    avx2_u7_put_units(d, width, u);
    *nu = units;
    return 1;
}

/* 64 bytes of text: bits of those that are not direct, not digits, "-". */
struct avx2_u7_window {
    uint64_t other, nondigit, dash;
};

AVX2_INLINE struct avx2_u7_window avx2_u7_classify(const struct avx2_u7 *s, const uint8_t *p)
{
    struct avx2_u7_window x = {0, 0, 0};
    for (int half = 0; half < 2; half++) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(p + 32 * half));
        __m256i hi = avx2_u7_high_nibbles(s, v);
        x.other |= (uint64_t)avx2_u7_outside(s, v, hi, s->direct) << 32 * half;
        x.nondigit |= (uint64_t)avx2_u7_outside(s, v, hi, s->b64) << 32 * half;
        uint32_t dash = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('-')));
        x.dash |= (uint64_t)dash << 32 * half;
    }
    return x;
}

/* A run of 32 digits or more at src[i] ("+"): 32 digits (12 units) a
 * step while their surrogates are pairs, then its last digits as in a window.
 * Returns the index after it, or i when it cannot take it (*w as it was).
 * Out of line and compiled for size: long runs are few, their steps long. */
__attribute__((noinline)) U7_FOR_SIZE static KERN_AVX2 size_t
avx2_u7_long_run(const struct avx2_u7 *s, const uint8_t *src, size_t n, size_t i, uint8_t *out,
                 unsigned width, size_t cap, size_t *w)
{
    size_t p = i + 1, w0 = *w;
    unsigned nu = 0;
    while (n - p >= 64 && (!width || cap - *w >= 16)) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(src + p));
        uint32_t nondigit = avx2_u7_outside(s, v, avx2_u7_high_nibbles(s, v), s->b64);
        unsigned len = nondigit ? (unsigned)__builtin_ctz(nondigit) : 32, end = src[p + len];
        int direct = utfdfa__utf7_simd[0][UTF7_SIMD_DIRECT][end & 15] >> (end >> 4) & 1;
        if ((len < 32 && (p == i + 1 || !avx2_u7_ends_well(len, 0, direct, end == '-'))) ||
            !avx2_u7_run(s, src + p, len, 0, out + *w * width, width, &nu))
            break;
        *w += width ? nu : 0;
        p += len;
        if (len < 32)
            return p + (end == '-');
    }
    *w = w0;
    return i;
}

/* The words of the 64-byte window at src (n - 96 bytes or more on, room for
 * 128 units at out + *w): their direct characters and the runs whose end is
 * in the window. Returns where it stopped: 64 or less (what follows is the
 * next window's), or the "+" of a run it cannot take (*refused: the bytes
 * from there to the one after the run, or U7_UNKNOWN_END). */
AVX2_INLINE unsigned avx2_u7_window(const struct avx2_u7 *s, const uint8_t *src, uint8_t *out,
                                    unsigned width, size_t *w, unsigned *refused)
{
    const struct avx2_u7_window x = avx2_u7_classify(s, src);
    unsigned at = 0, nu = 0;
    while (at < 63) {
        uint64_t rest = x.other >> at;
        unsigned direct = rest ? (unsigned)__builtin_ctzll(rest) : 64 - at;
        direct = direct > 32 ? 32 : direct;
        avx2_u7_put_bytes(out + *w * width, width,
                          _mm256_loadu_si256((const __m256i *)(const void *)(src + at)),
                          direct > (width == 4 ? 8u : 16u));
        *w += width ? direct : 0;
        at += direct;
        if (at >= 63 || !(x.other >> at & 1))
            continue; /* direct characters go on */
        if (src[at] != '+')
            break; /* a byte to stop at */
        uint64_t after = x.nondigit >> (at + 1);
        unsigned len = after ? (unsigned)__builtin_ctzll(after) : 64, end = at + 1 + len;
        if (!after && at)
            break; /* a run whose end is in the next window */
        if (!after || len >= 32 ||
            !avx2_u7_ends_well(len, 1, !(x.other >> end & 1), x.dash >> end & 1) ||
            !avx2_u7_run(s, src + at + 1, len, 1, out + *w * width, width, &nu)) {
            *refused = after ? end + 1 - at : U7_UNKNOWN_END;
            break;
        }
        *w += width ? nu : 0;
        at = end + (unsigned)(x.dash >> end & 1);
    }
    return at;
}

KERN_AVX2 size_t utfdfa__avx2_utf7_text(int imap, const uint8_t *src, size_t n, void *dst,
                                        unsigned width, size_t cap, size_t *written)
{
    if (imap) /* its kernel takes direct characters only */
        return utfdfa__sse4_utf7_text(imap, src, n, dst, width, cap, written);
    const struct avx2_u7 s = {avx2_u7_row(UTF7_SIMD_DIRECT), avx2_u7_row(UTF7_SIMD_B64),
                              avx2_u7_row(UTF7_SIMD_ROLL),   avx2_u7_row(UTF7_SIMD_FIX),
                              _mm256_setr_epi8(U7_HIGH_BITS, U7_HIGH_BITS), _mm256_set1_epi8(0x0F)};
    uint8_t scratch[1], *out = width ? dst : scratch; /* dst is NULL for width 0: no writes */
    size_t i = 0, w = 0, got = 0, k;
    while (n - i >= 96 && (!width || cap - w >= 128)) {
        unsigned refused = 0;
        unsigned at = avx2_u7_window(&s, src + i, out, width, &w, &refused);
        i += at;
        if (!refused && at)
            continue;
        if (!refused)
            break; /* a byte to stop at */
        size_t after = i;
        if (refused >= 32)
            after = avx2_u7_long_run(&s, src, n, i, out, width, cap, &w);
        if (after != i) {
            i = after;
            continue;
        }
        /* A run it cannot take: the SSE4 kernel's (to the end, when its end is unknown). */
        k = utfdfa__sse4_utf7_text(0, src + i, refused != U7_UNKNOWN_END ? refused : n - i,
                                   width ? out + w * width : NULL, width, width ? cap - w : 0,
                                   &got);
        i += k;
        w += got;
        if (k == 0)
            break;
    }
    k = utfdfa__sse4_utf7_text(0, src + i, n - i, width ? out + w * width : NULL, width,
                               width ? cap - w : 0, &got);
    *written = w + got;
    return i + k;
}

#else
typedef int utfdfa__no_avx2_utf7_here; /* ISO C wants a declaration in every unit */
#endif
