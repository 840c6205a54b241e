/* SPDX-License-Identifier: MIT */
/* The SSE4 level's direct entry for a short chunk (utf8_fast.h's
 * utfdfa__utf8_stream32; select.c calls it at the SSE4 level for n <= 64
 * with room for n + SMALL_SLACK units, variants.h): small_avx2.h's
 * steps with 16-byte vectors. The level's decoder would set up a slab,
 * and the 128-bit transcoder's engine hands a run this short to its
 * scalar loop: a 64-byte chunk of text not ASCII took about three times
 * the whole buffer's instructions a byte. A character in progress is
 * finished by the plain step (sm_step); the rest, at most 64 bytes, is a
 * block padded with the lookup validator's pad (0): ASCII widened, any
 * other checked from ACCEPT by the SSE4 lookup validator (lookup_sse4.h),
 * the character the end cuts left out (sm_cut), the others transcoded by
 * the 128-bit transcoder's windows (masked.h's mk_window) and the cut
 * character's bytes stepped into the cursor. At an error in the block it
 * stops before the block: the caller's general path finds the error.
 *
 * Included once, by masked.c, after small_avx2.h (its plain step and
 * cut rule, and the shuffle tables' one copy). */
#ifndef UTFDFA_FAST_UTF8_SMALL_SSE4_H
#define UTFDFA_FAST_UTF8_SMALL_SSE4_H

#include "small_avx2.h"

#if FAST_X86
#define S4_INLINE FAST_INLINE FAST_TARGET_SSE4

/* Bits 0..k-1 set (k <= 64; the level has no bzhi). */
S4_INLINE uint64_t s4_low(size_t k)
{
    return k >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << k) - 1;
}

/* The 16 bytes from byte i (1 to 3) of lo, hi after it. */
S4_INLINE __m128i s4_skip(__m128i lo, __m128i hi, size_t i)
{
    return i == 1 ? _mm_alignr_epi8(hi, lo, 1)
                  : i == 2 ? _mm_alignr_epi8(hi, lo, 2) : _mm_alignr_epi8(hi, lo, 3);
}

/* A block of ASCII, v, rem bytes of it the chunk's: widened to dst at *po,
 * 16 bytes a step (scratch up to 15 units past the last); rem. */
S4_INLINE size_t s4_widen(const __m128i *v, size_t rem, uint32_t *dst, size_t *po)
{
    uint32_t *d = dst + *po;
    for (size_t k = 0; 16 * k < rem; k++) {
        MK_STORE(d + 16 * k, _mm_cvtepu8_epi32(v[k]));
        MK_STORE(d + 16 * k + 4, _mm_cvtepu8_epi32(_mm_srli_si128(v[k], 4)));
        MK_STORE(d + 16 * k + 8, _mm_cvtepu8_epi32(_mm_srli_si128(v[k], 8)));
        MK_STORE(d + 16 * k + 12, _mm_cvtepu8_epi32(_mm_srli_si128(v[k], 12)));
    }
    *po += rem;
    return rem;
}

/* The 64-byte block at buf (rem bytes of it the chunk's, then the pad),
 * v its four vectors: its whole characters to dst (units out at *po;
 * scratch up to 16 units past the last), the bytes they span; SIZE_MAX
 * (nothing written) at an error in the block. */
S4_INLINE size_t s4_transcode(const uint8_t *buf, const __m128i *v, size_t rem, uint32_t *dst,
                              size_t *po)
{
    const lk_tables *t = &utf8_simd_tables;
    size_t o = *po;
    if (lk_sse4_ascii(v))
        return s4_widen(v, rem, dst, po);
    struct lk_sse4_ctx lc;
    lk_sse4_init(&lc, t, UTF8_SIMD_CUR_LOW);
    uint64_t bad = 0, cont = 0;
    __m128i prev = lc.pad;
    for (size_t k = 0; 16 * k < rem; k++) { /* a loop, not four copies: small */
        bad |= lk_sse4_nonzero(lk_sse4_check(&lc, t, UTF8_SIMD_CUR_LOW, prev, v[k])) << 16 * k;
        cont |= (uint64_t)mk_cont(v[k]) << 16 * k;
        prev = v[k];
    }
    if (bad & s4_low(rem)) /* (past rem: the pad's, after a cut character) */
        return SIZE_MAX;
    /* ends as sm_block's: from whole on every byte counts as one of a byte */
    size_t whole = rem - sm_cut(t, buf, rem), pos = 0;
    uint64_t ends = ~(cont >> 1) | ~s4_low(whole);
    while (pos < whole) /* (the windows read 16 bytes: the pad after the block's) */
        pos += mk_window(buf + pos, ends >> pos | ~(~(uint64_t)0 >> pos), dst, &o, false);
    *po = o - (pos - whole); /* the bytes past the block: one unit each */
    return whole;
}

/* The block src[i..n) (n - i <= 64) from ACCEPT, as sm_block. */
S4_INLINE size_t s4_block(const uint8_t *src, size_t i, size_t n, uint32_t *dst, size_t *po)
{
    /* 4 bytes before the block: pad, or the end of a character in progress
     * (both below every first byte of a longer character: sm_cut) */
    uint8_t room[4 + 96], *buf = room + 4;
    __m128i v[4], zero = _mm_setzero_si128();
    memset(room, utf8_simd_tables.pad, 4);
    for (int k = 4; k < 6; k++)
        MK_STORE(buf + 16 * k, zero);
    if (n == 64 && i <= 3) { /* in bounds: four loads, no copying call (as sm_block) */
        lk_sse4_load(src, v);
        for (int k = 0; k < 4; k++)
            MK_STORE(buf - i + 16 * k, v[k]);
        if (i) { /* the pad's first bytes after the block; the block in
                    registers too: not a load of those stores */
            MK_STORE(buf + 64 - i, zero);
            for (int k = 0; k < 4; k++)
                v[k] = s4_skip(v[k], k < 3 ? v[k + 1] : zero, i);
        }
    } else {
        for (int k = 0; k < 4; k++)
            MK_STORE(buf + 16 * k, zero);
        memcpy(buf, src + i, n - i);
        lk_sse4_load(buf, v);
    }
    return s4_transcode(buf, v, n - i, dst, po);
}

FAST_TARGET_SSE4 size_t utfdfa__utf8_small_sse4_32(const uint8_t *src, size_t n,
    struct utfdfa__utf8_cursor *c, uint32_t *dst, size_t cap, size_t *written)
{
    size_t i = 0, o = 0;
    if (c->state == 0 && n == 64) { /* most chunks of most text: ASCII, no copy */
        __m128i v[4];
        lk_sse4_load(src, v);
        if (lk_sse4_ascii(v)) {
            c->pending = 0;
            *written = s4_widen(v, 64, dst, &o);
            return 64;
        }
    }
    const fast_tables *g = fast_utf8();
    uint64_t s = (uint64_t)c->state * g->shift_width; /* shift rows (variants.h) */
    uint32_t cp = c->partial;
    (void)cap; /* the caller leaves n + SMALL_SLACK units of room */
    /* Twice at most, as small_avx2.h's entry: the character in progress,
     * then the block and the character the end cuts. */
    for (bool block = fast_is_accept(g, s);; block = true) {
        if (block) {
            c->pending = 0;
            size_t k = s4_block(src, i, n, dst, &o);
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

#endif /* UTFDFA_FAST_UTF8_SMALL_SSE4_H */
