/* SPDX-License-Identifier: MIT */
/* Where the UTF-8 text inside another encoding ends (utf8_fast.h,
 * utfdfa__utf8_part_end): the first byte outside [below, from), 64 bytes a
 * step, at the widest level the CPU has (src/fast/levels.h). A byte is
 * inside when b - below (mod 256) <= last = from - below - 1, unsigned. */
#include "utf8_fast.h"

#include "../levels.h"

static size_t part_tail(const uint8_t *src, size_t i, size_t n, unsigned below, unsigned from)
{
    while (i < n && src[i] >= below && src[i] < from)
        i++;
    return i;
}

#if KERN_X86
#include <immintrin.h>

/* A bit for each of the 16 bytes at p outside the range (max(x, last) != last). */
static inline unsigned part_outside16(const uint8_t *p, __m128i below, __m128i last)
{
    __m128i x = _mm_sub_epi8(_mm_loadu_si128((const __m128i *)(const void *)p), below);
    return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(x, last), last)) ^ 0xFFFFu;
}

static size_t part_end_sse2(const uint8_t *src, size_t n, unsigned below, unsigned from)
{
    const __m128i b = _mm_set1_epi8((char)below), last = _mm_set1_epi8((char)(from - below - 1));
    size_t i = 0;
    for (; n - i >= 64; i += 64) {
        uint64_t m = (uint64_t)part_outside16(src + i, b, last) |
                     (uint64_t)part_outside16(src + i + 16, b, last) << 16 |
                     (uint64_t)part_outside16(src + i + 32, b, last) << 32 |
                     (uint64_t)part_outside16(src + i + 48, b, last) << 48;
        if (m)
            return i + (size_t)__builtin_ctzll(m);
    }
    return part_tail(src, i, n, below, from);
}

__attribute__((target("avx512f,avx512bw"))) static size_t part_end_avx512(const uint8_t *src,
    size_t n, unsigned below, unsigned from)
{
    const __m512i b = _mm512_set1_epi8((char)below), last = _mm512_set1_epi8((char)(from - below - 1));
    size_t i = 0;
    for (; n - i >= 64; i += 64) {
        __m512i x = _mm512_sub_epi8(_mm512_loadu_si512((const void *)(src + i)), b);
        uint64_t m = _mm512_cmpgt_epu8_mask(x, last);
        if (m)
            return i + (size_t)__builtin_ctzll(m);
    }
    return part_tail(src, i, n, below, from);
}

size_t utfdfa__utf8_part_end(const uint8_t *src, size_t n, unsigned below, unsigned from)
{
    enum fast_level level = utfdfa__fast_level();
    return level >= LEVEL_AVX512 ? part_end_avx512(src, n, below, from)
           : level >= LEVEL_SSE2 ? part_end_sse2(src, n, below, from)
                                 : part_tail(src, 0, n, below, from);
}
#else
size_t utfdfa__utf8_part_end(const uint8_t *src, size_t n, unsigned below, unsigned from)
{
    return part_tail(src, 0, n, below, from);
}
#endif
