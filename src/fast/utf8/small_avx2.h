/* SPDX-License-Identifier: MIT */
/* The AVX2 level's direct entry for a short chunk (utf8_fast.h's
 * utfdfa__utf8_stream32; select.c calls it at the AVX2 and AVX-512 levels
 * for n <= 64 with room for n + SMALL_SLACK units, variants.h): the
 * VBMI level's steps (avx512.c) with the AVX2 level's parts. A character
 * in progress is finished by the plain step; the rest, at most 64 bytes,
 * is a block padded with the lookup validator's pad (0) (a 64-byte chunk
 * loaded in place, a shorter one copied); a block of ASCII is widened
 * from those loads, any other is checked from ACCEPT by the AVX2
 * lookup validator (lookup_avx2.h), the character the end cuts left out by
 * the commit rule (lookup.h), the others transcoded by the 128-bit
 * transcoder's windows (two at a time by masked.h's mk_pair; mk_window for
 * ASCII) over the block, and the cut character's bytes stepped into the
 * cursor. At an error in the block it stops before the block: the
 * caller's general path finds the error.
 *
 * Included once, by masked.c: the windows' tables (utf8.shuffle.gen.h)
 * are static, and one unit keeps one copy of them. The library's size is
 * budgeted: the code is written to stay small (one copy of the check and
 * of the plain step). */
#ifndef UTFDFA_FAST_UTF8_SMALL_AVX2_H
#define UTFDFA_FAST_UTF8_SMALL_AVX2_H

#include "decode.h"
#include "lookup_avx2.h"
#include "masked.h"
#include "variants.h"

#if FAST_X86
_Static_assert(UTF8_SHUF_CONT_MAX == 0xBF && UTF8_SIMD_MAX_LEN == 4,
               "continuations are 80-BF: one signed comparison below C0");

#define SM_INLINE FAST_INLINE FAST_TARGET_AVX2BMI
#define SM_STORE(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))

/* The bytes 80-BF of v, as a bit mask. */
SM_INLINE uint64_t sm_cont(__m256i v)
{
    return (uint32_t)_mm256_movemask_epi8(_mm256_cmpgt_epi8(_mm256_set1_epi8((char)0xC0), v));
}

/* The plain step from i to the end of one character (stored at dst[*po]:
 * the room is there), or to n, or to a rejecting byte (before it): where
 * it stopped. */
FAST_INLINE size_t sm_step(const fast_tables *g, const uint8_t *src, size_t i, size_t n,
                           uint64_t *ps, uint32_t *pcp, uint32_t *dst, size_t *po)
{
    uint64_t s = *ps;
    uint32_t cp = *pcp;
    while (i < n) {
        uint64_t next = fast_next(g, s, src[i]);
        if (fast_is_reject(g, next))
            break;
        s = next;
        cp = cp << 6 | fast_payload(g, src[i++]);
        if (fast_is_accept(g, s)) {
            dst[(*po)++] = cp;
            cp = 0;
            break;
        }
    }
    *ps = s;
    *pcp = cp;
    return i;
}

/* The 32 bytes from byte i (1 to 3) of lo, hi after it. */
SM_INLINE __m256i sm_skip(__m256i lo, __m256i hi, size_t i)
{
    __m256i m = _mm256_permute2x128_si256(lo, hi, 0x21);
    return i == 1 ? _mm256_alignr_epi8(m, lo, 1)
                  : i == 2 ? _mm256_alignr_epi8(m, lo, 2) : _mm256_alignr_epi8(m, lo, 3);
}

/* lk_tail_len of the block at buf (the 4 bytes before it below longer_min[0])
 * up to e: one comparison of the last bytes with longer_min, not a loop
 * (SSE4's instructions: small_sse4.h's entry uses it too). */
MK_INLINE size_t sm_cut(const lk_tables *t, const uint8_t *buf, size_t e)
{
    uint32_t w;
    memcpy(&w, buf + e - 4, 4); /* bytes e-4 .. e-1 */
    __m128i b = _mm_cvtsi32_si128((int)w);
    __m128i lim = _mm_setr_epi8(-1, (char)t->longer_min[2], (char)t->longer_min[1],
                                (char)t->longer_min[0], -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                -1, -1);
    /* byte e-j at or above longer_min[j-1]: bit 4-j (the largest j first) */
    unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(b, lim), b)) & 14u;
    return 4 - (size_t)__builtin_ctz(m | 16u);
}

/* The block src[i..n) (n - i <= 64) from ACCEPT: its whole characters to
 * dst (units out at *po; scratch up to 16 units past the last), the bytes
 * they span (the cut character left); SIZE_MAX (nothing written) at an
 * error in the block. */
SM_INLINE size_t sm_block(const uint8_t *src, size_t i, size_t n, uint32_t *dst, size_t *po)
{
    const lk_tables *t = &utf8_simd_tables;
    const uint8_t *p = src + i;
    size_t o = *po, rem = n - i;
    /* 4 bytes before the block: pad, or the end of a character in progress
     * (both below every first byte of a longer character: sm_cut) */
    uint8_t room[4 + 96], *buf = room + 4;
    memset(room, t->pad, 4);
    SM_STORE(buf + 32, _mm256_setzero_si256());
    SM_STORE(buf + 64, _mm256_setzero_si256());
    __m256i v0, v1;
    if (n == 64 && i <= 3) { /* the 64 bytes are in bounds: two loads, no copying call
                                (i: the end of a character in progress, room's 4 bytes) */
        v0 = LK_AVX2_LOAD(src);
        v1 = LK_AVX2_LOAD(src + 32);
        SM_STORE(buf - i, v0); /* (the block at buf, the pad after it) */
        SM_STORE(buf - i + 32, v1);
        if (i) { /* the block in registers too: not a load of those stores */
            v0 = sm_skip(v0, v1, i);
            v1 = sm_skip(v1, _mm256_setzero_si256(), i);
        }
    } else {
        SM_STORE(buf, _mm256_setzero_si256());
        memcpy(buf, p, rem);
        v0 = LK_AVX2_LOAD(buf);
        v1 = LK_AVX2_LOAD(buf + 32);
    }
    if (!_mm256_movemask_epi8(_mm256_or_si256(v0, v1))) { /* all ASCII: widened, 16 bytes a step */
        __m128i q[4] = {_mm256_castsi256_si128(v0), _mm256_extracti128_si256(v0, 1),
                        _mm256_castsi256_si128(v1), _mm256_extracti128_si256(v1, 1)};
        for (size_t k = 0; 16 * k < rem; k++) {
            SM_STORE(dst + o + 16 * k, _mm256_cvtepu8_epi32(q[k]));
            SM_STORE(dst + o + 16 * k + 8, _mm256_cvtepu8_epi32(_mm_unpackhi_epi64(q[k], q[k])));
        }
        *po = o + rem;
        return rem;
    }
    struct lk_avx2_ctx lc;
    lk_avx2_init(&lc, t, UTF8_SIMD_CUR_LOW);
    uint64_t bad = 0;
    __m256i prev = lc.pad, cur = v0;
    for (unsigned h = 0;; h = 32) { /* a loop, not two copies: small */
        bad |= lk_avx2_nonzero(lk_avx2_check(&lc, t, UTF8_SIMD_CUR_LOW, prev, cur)) << h;
        if (h || rem <= 32)
            break;
        prev = v0;
        cur = v1;
    }
    if (_bzhi_u64(bad, (unsigned)rem)) /* (past rem: the pad's, after a cut character) */
        return SIZE_MAX;
    /* A byte ends a character when the next one is no continuation. From
     * whole on (the cut character, then pad), every byte counts as one of
     * a byte: a window's end mask stays one the tables know (a 12-byte
     * window never ends in more than 3 bytes of no end), and the units of
     * those bytes, scratch past the chunk's own, one a byte. */
    size_t whole = rem - sm_cut(t, buf, rem);
    uint64_t ends = ~(sm_cont(v0) >> 1 | sm_cont(v1) << 31) |
                    ~_bzhi_u64(~(uint64_t)0, (unsigned)whole);
    /* the windows read 16 bytes: the block's 64 and the pad after them */
    mk_block(buf, ends, whole, dst, &o, false);
    *po = o;
    return whole;
}

/* The 8 bytes at lane 8k of v widened to dst[8k..8k+8). */
#define SM_WIDEN8(dst, v, k)                                                                     \
    SM_STORE((dst) + 8 * (k), _mm256_cvtepu8_epi32(_mm_srli_si128(                               \
                                  (k) < 2 ? _mm256_castsi256_si128(v)                           \
                                          : _mm256_extracti128_si256(v, 1), 8 * ((k) & 1))))

/* A chunk of 32 to 64 bytes all ASCII from ACCEPT (most chunks of most
 * text), with no copy and no store past dst[n): its first and last 32
 * bytes, loaded in place (they overlap when n < 64), widened where they
 * are (the overlap written twice, the same units); whether it was. */
SM_INLINE bool sm_ascii(const uint8_t *src, size_t n, uint32_t *dst)
{
    __m256i a = LK_AVX2_LOAD(src), b = LK_AVX2_LOAD(src + n - 32);
    if (_mm256_movemask_epi8(_mm256_or_si256(a, b)))
        return false;
    uint32_t *d = dst + n - 32;
    SM_WIDEN8(dst, a, 0);
    SM_WIDEN8(dst, a, 1);
    SM_WIDEN8(dst, a, 2);
    SM_WIDEN8(dst, a, 3);
    SM_WIDEN8(d, b, 0);
    SM_WIDEN8(d, b, 1);
    SM_WIDEN8(d, b, 2);
    SM_WIDEN8(d, b, 3);
    return true;
}

FAST_TARGET_AVX2BMI size_t utfdfa__utf8_small_avx2_32(const uint8_t *src, size_t n,
    struct utfdfa__utf8_cursor *c, uint32_t *dst, size_t cap, size_t *written)
{
    /* (ACCEPT: nothing pending after it either, as the VBMI level's entry) */
    if (c->state == 0 && n >= 32 && sm_ascii(src, n, dst)) {
        c->pending = 0;
        *written = n;
        return n;
    }
    const fast_tables *g = fast_utf8();
    uint64_t s = (uint64_t)c->state * g->shift_width; /* shift rows (variants.h) */
    uint32_t cp = c->partial;
    size_t i = 0, o = 0;
    (void)cap; /* the caller leaves n + SMALL_SLACK units of room */
    /* Twice at most: the character in progress (none in ACCEPT), then the
     * block and the character the end cuts (one step for both: small). */
    for (bool block = fast_is_accept(g, s);; block = true) {
        if (block) {
            c->pending = 0;
            size_t k = sm_block(src, i, n, dst, &o);
            if (k == SIZE_MAX)
                break;
            i += k;
        }
        size_t j = sm_step(g, src, i, n, &s, &cp, dst, &o);
        if (!block) {
            i = j;
            if (fast_is_accept(g, s))
                continue;
            c->pending += (uint32_t)i;
        } else if (j < n) { /* a first byte no character has: the general path's */
            s = fast_to_state(g, 0);
            cp = 0;
        } else { /* its bytes in the state (none completes it) */
            c->pending = (uint32_t)(n - i);
            i = n;
        }
        break;
    }
    c->state = (uint32_t)((s & 63) / g->shift_width);
    c->partial = cp;
    *written = o;
    return i;
}
#endif /* FAST_X86 */

#endif /* UTFDFA_FAST_UTF8_SMALL_AVX2_H */
