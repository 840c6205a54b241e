/* SPDX-License-Identifier: MIT */
/* Replacing at the AVX2 level by 64-byte blocks, not a DFA step per byte:
 * the windows around errors of utfdfa__utf8_rep_avx2 (slab.h). The
 * replacing decoder's output is one unit per token: a character, or a
 * maximal subpart (U+FFFD; Unicode section 3.9). Token starts are local:
 * a byte that is not a continuation starts one; a continuation byte does
 * unless the token of the nearest byte p before it that is not a
 * continuation covers it. That token's extent depends on bytes p..p+3
 * only (p starts a token, so in ACCEPT): the first byte of a longer
 * character (p >= longer_min[0]) covers p+1 when the pair (p, p+1) is
 * allowed (the lookup validator's pair test, lookup.h: for such a byte
 * exactly "p+1 is in its second-byte set"), p+2 when it also is >=
 * longer_min[1] and p+2 continues, p+3 likewise with longer_min[2]. The
 * token is a character when it covers as many bytes as its first byte
 * asks (a byte below longer_min[0] that does not continue is a character
 * by itself: SHORT_WHOLE), else a subpart. So per block, without a chain
 * from byte to byte: per byte, its token's length and whether it is a
 * subpart, were a token to start there; the bitmap of the bytes a token
 * covers (from the block before too: carry) and so of the token starts.
 * Then per 8 bytes: each byte's 4 bytes in a 32-bit lane, combined as
 * a character of its token's length (as the AVX-512 transcoder does,
 * avx512.c), U+FFFD for subparts, the token starts' lanes compressed
 * (vpermd, indices from a table of nibbles) and stored. Blocks end at a token's end;
 * the last bytes are a block over a padded copy, of which only the
 * tokens the input decides count; the last few bytes, and any lack of
 * room, go to the DFA engine (avx2.c). Included by masked.c, which has
 * the lookup tables. */
#ifndef UTFDFA_FAST_UTF8_REP_TOKENS_H
#define UTFDFA_FAST_UTF8_REP_TOKENS_H

#include "../../unicode.h"

#if FAST_X86
_Static_assert(UTF8_SIMD_DERIVED && UTF8_SIMD_MAX_LEN == 4 && UTF8_SIMD_SHORT_WHOLE &&
                   UTF8_SHUF_CONT_MIN == 0x80 && UTF8_SHUF_CONT_MAX == 0xBF,
               "tokens of 1-4 bytes; a byte below longer_min[0] continues (80-BF) or is whole");

#define TK_TARGET __attribute__((target("avx2,bmi,bmi2,popcnt")))
#define TK_INLINE FAST_INLINE TK_TARGET
/* Bytes readable from a block's start: its 64, the 3 a token may reach
 * past it, the 16-byte load of its last 8. */
enum { TK_READ = 64 + 8 };

struct tk_ctx {
    __m256i ph, pl, ch, lm[3], mask, shift;
};

TK_INLINE void tk_init(struct tk_ctx *c)
{
    const lk_tables *t = &utf8_simd_tables;
    uint8_t mask[16] = {0x3F}, shift[16] = {0};
    /* Indexed by a token's length (entry 0: the bytes after the first):
     * the first byte's payload bits (UTF-8's form: those below its
     * length's marker) and how far a value combined as of 4 bytes moves. */
    for (int len = 1; len <= 4; len++) {
        mask[len] = (uint8_t)(len == 1 ? 0x7F : 0x7F >> len);
        shift[len] = (uint8_t)(6 * (4 - len));
    }
#define TK_TABLE(a) _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(a)))
    c->ph = TK_TABLE(t->prev_high);
    c->pl = TK_TABLE(t->prev_low);
    c->ch = TK_TABLE(t->cur_high);
    c->mask = TK_TABLE(mask);
    c->shift = TK_TABLE(shift);
#undef TK_TABLE
    for (int j = 0; j < 3; j++)
        c->lm[j] = _mm256_set1_epi8((char)t->longer_min[j]);
}

TK_INLINE __m256i tk_load(const uint8_t *p)
{
    return _mm256_loadu_si256((const __m256i *)(const void *)p);
}

/* Bytes of x at least m (unsigned), as 0xFF. */
TK_INLINE __m256i tk_ge(__m256i x, __m256i m)
{
    return _mm256_cmpeq_epi8(_mm256_max_epu8(x, m), x);
}

/* The 32 bytes at p (35 readable), each as a token's first byte: returned,
 * its length (1-4), or 0xFF for a subpart; in m[j-1], bit k: byte k's
 * token covers byte k + j (j = 1..3). */
TK_INLINE __m256i tk_half(const struct tk_ctx *c, const uint8_t *p, uint32_t *m)
{
    const __m256i nib = _mm256_set1_epi8(0x0F), c0 = _mm256_set1_epi8((char)0xC0);
    __m256i x = tk_load(p), y = tk_load(p + 1);
    __m256i pr = _mm256_and_si256(
        _mm256_shuffle_epi8(c->ph, _mm256_and_si256(_mm256_srli_epi16(x, 4), nib)),
        _mm256_shuffle_epi8(c->pl, _mm256_and_si256(x, nib)));
    pr = _mm256_and_si256(
        pr, _mm256_shuffle_epi8(c->ch, _mm256_and_si256(_mm256_srli_epi16(y, 4), nib)));
    if (UTF8_SIMD_CUR_LOW)
        pr = _mm256_and_si256(pr, _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(_mm_loadu_si128(
                                      (const __m128i *)(const void *)utf8_simd_tables.cur_low)),
                                  _mm256_and_si256(y, nib)));
    __m256i lead = tk_ge(x, c->lm[0]), ge1 = tk_ge(x, c->lm[1]), ge2 = tk_ge(x, c->lm[2]);
    __m256i cont = _mm256_cmpgt_epi8(c0, x); /* 80-BF: the signed bytes below C0 */
    __m256i cov1 = _mm256_and_si256(lead, _mm256_cmpeq_epi8(pr, _mm256_setzero_si256()));
    __m256i cov2 = _mm256_and_si256(_mm256_and_si256(cov1, ge1),
                                    _mm256_cmpgt_epi8(c0, tk_load(p + 2)));
    __m256i cov3 = _mm256_and_si256(_mm256_and_si256(cov2, ge2),
                                    _mm256_cmpgt_epi8(c0, tk_load(p + 3)));
    /* as long as its first byte asks: covering 1 below longer_min[1], ... */
    __m256i full = _mm256_or_si256(
        _mm256_or_si256(_mm256_andnot_si256(ge1, cov1), _mm256_andnot_si256(ge2, cov2)), cov3);
    __m256i bad = _mm256_andnot_si256(full, _mm256_or_si256(cont, lead));
    __m256i len = _mm256_sub_epi8(_mm256_sub_epi8(_mm256_sub_epi8(_mm256_set1_epi8(1), cov1),
                                                  cov2), cov3);
    m[0] = (uint32_t)_mm256_movemask_epi8(cov1);
    m[1] = (uint32_t)_mm256_movemask_epi8(cov2);
    m[2] = (uint32_t)_mm256_movemask_epi8(cov3);
    return _mm256_or_si256(len, bad);
}

/* The set bits of a nibble, lowest first, a byte each (the rest 0). */
static const uint32_t tk_nibble_lanes[16] = {
    0x00000000, 0x00000000, 0x00000001, 0x00000100, 0x00000002, 0x00000200,
    0x00000201, 0x00020100, 0x00000003, 0x00000300, 0x00000301, 0x00030100,
    0x00000302, 0x00030200, 0x00030201, 0x03020100,
};

/* 8 bytes at p (16 readable) with their 8 bytes of tk_half in info's low
 * half: the units of those that start tokens (bit k of starts) to d (8
 * written); how many. */
TK_INLINE size_t tk_group(const struct tk_ctx *c, const uint8_t *p, __m128i info,
                          unsigned starts, uint32_t *d)
{
    /* lane k: bytes k..k+3, the first lowest */
    const __m256i slide = _mm256_setr_epi8(0, 1, 2, 3, 1, 2, 3, 4, 2, 3, 4, 5, 3, 4, 5, 6, 4, 5, 6,
                                           7, 5, 6, 7, 8, 6, 7, 8, 9, 7, 8, 9, 10);
    __m256i w = _mm256_shuffle_epi8(
        _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)p)), slide);
    /* the length in each lane's low byte (others 0: mask entry 0); 0xFF
     * in all four for a subpart (pshufb gives 0, the blend U+FFFD) */
    __m256i k = _mm256_cvtepi8_epi32(info);
    __m256i t = _mm256_and_si256(w, _mm256_shuffle_epi8(c->mask, k));
    t = _mm256_maddubs_epi16(t, _mm256_set1_epi16(0x0140));  /* b0 << 6 | b1, b2 << 6 | b3 */
    t = _mm256_madd_epi16(t, _mm256_set1_epi32(0x00011000)); /* as of 4 bytes */
    t = _mm256_srlv_epi32(t, _mm256_shuffle_epi8(c->shift, k));
    t = _mm256_blendv_epi8(t, _mm256_set1_epi32(REPLACEMENT), k);
    /* the lanes of token starts to the front: their indices, a nibble's at a
     * time (not pdep/pext, which AMD's CPUs before Zen 3 run in microcode) */
    uint64_t lo = tk_nibble_lanes[starts & 15], hi = tk_nibble_lanes[starts >> 4 & 15];
    uint64_t idx = lo | (hi + 0x04040404u) << (8 * __builtin_popcount(starts & 15));
    t = _mm256_permutevar8x32_epi32(t, _mm256_cvtepu8_epi32(_mm_cvtsi64_si128((long long)idx)));
    _mm256_storeu_si256((__m256i *)(void *)d, t);
    return (size_t)__builtin_popcount(starts);
}

/* One block at p (TK_READ readable), begun at a token start or inside a
 * token of the block before (carry: bit k, byte k is in it; updated for
 * the next): the units of its tokens that start at the bits of *live to
 * d (room for 64); how many. *live becomes the bitmap of all its token
 * starts. Out of line: one copy for the blocks and the last bytes. */
FAST_NOINLINE TK_TARGET static size_t tk_block(const struct tk_ctx *c, const uint8_t *p,
                                               uint64_t *carry, uint64_t *live, uint32_t *d,
                                               size_t *nerr)
{
    uint32_t lo[3], hi[3];
    __m256i info[2] = {tk_half(c, p, lo), tk_half(c, p + 32, hi)};
    uint64_t cov1 = lo[0] | (uint64_t)hi[0] << 32, cov2 = lo[1] | (uint64_t)hi[1] << 32;
    uint64_t cov3 = lo[2] | (uint64_t)hi[2] << 32;
    uint64_t all = ~(cov1 << 1 | cov2 << 2 | cov3 << 3 | *carry), starts = all & *live;
    uint64_t bad = (uint32_t)_mm256_movemask_epi8(info[0]) |
                   (uint64_t)(uint32_t)_mm256_movemask_epi8(info[1]) << 32;
    *carry = cov1 >> 63 | cov2 >> 62 | cov3 >> 61;
    *live = all;
    *nerr += (size_t)__builtin_popcountll(starts & bad);
    /* tk_half's bytes, 8 a group, reloaded: a loop over the groups is as
     * fast as 8 copies of tk_group, and smaller */
    uint8_t lens[64];
    _mm256_storeu_si256((__m256i *)(void *)lens, info[0]);
    _mm256_storeu_si256((__m256i *)(void *)(lens + 32), info[1]);
    size_t o = 0;
    for (int k = 0; k < 64; k += 8)
        o += tk_group(c, p + k, _mm_loadl_epi64((const __m128i *)(const void *)(lens + k)),
                      (unsigned)(starts >> k) & 0xFF, d + o);
    return o;
}

/* The last bytes src[0..r) (fewer than TK_READ, from a token start): a
 * block over a copy padded with zeros, of which only the tokens that
 * start at least 3 bytes before the end count (their bytes and the one
 * that ends a subpart are in the input; the padding decides nothing
 * about them), at most 60 (so that the first token start after them is
 * in the block). The bytes they take; their units at dst + *po. */
FAST_NOINLINE TK_TARGET static size_t tk_last(const struct tk_ctx *c, const uint8_t *src,
                                              size_t r, uint32_t *dst, size_t cap, size_t *po,
                                              size_t *pnerr)
{
    if (r < 4 || cap - *po < 64)
        return 0;
    uint8_t buf[TK_READ] = {0};
    memcpy(buf, src, r < TK_READ ? r : TK_READ);
    size_t lim = r - 3 < 60 ? r - 3 : 60;
    uint64_t carry = 0, live = ((uint64_t)1 << lim) - 1;
    *po += tk_block(c, buf, &carry, &live, dst + *po, pnerr);
    return lim + (size_t)_tzcnt_u64(live >> lim); /* the first token start from lim on */
}

/* The replacing windows of the AVX2 slab decoder (utfdfa__rep_fn): to the
 * next token start by the plain replacing step, blocks while input and
 * room allow, the last bytes (tk_last), the rest by the DFA engine. */
TK_TARGET size_t utfdfa__utf8_rep_tok_avx2(const uint8_t *src, size_t n, uint32_t *state,
    uint32_t *partial, uint32_t *dst, size_t cap, size_t *written, size_t *errors)
{
    const fast_tables *g = fast_utf8();
    uint64_t s = fast_to_state(g, *state);
    uint32_t cp = *partial;
    size_t i = 0, o = 0, nerr = 0, w = 0, e = 0;
    while (i < n && !fast_is_accept(g, s)) {
        size_t j = fast_rep_exact(g, src, i, i + 1, &s, &cp, (struct fast_out){dst, &o, cap},
                                  &nerr);
        if (j == i && !fast_is_accept(g, s))
            break; /* no room */
        i = j;
    }
    if (fast_is_accept(g, s) && n - i >= 4 && cap - o >= 64) {
        struct tk_ctx c;
        tk_init(&c);
        uint64_t carry = 0, live = ~(uint64_t)0;
        while (n - i >= TK_READ && cap - o >= 64) {
            o += tk_block(&c, src + i, &carry, &live, dst + o, &nerr);
            live = ~(uint64_t)0;
            i += 64;
        }
        i += (size_t)__builtin_popcountll(carry); /* the last token's bytes past the block */
        i += tk_last(&c, src + i, n - i, dst, cap, &o, &nerr);
    }
    *state = fast_from_state(g, s);
    *partial = cp;
    i += utfdfa__utf8_rep_b_avx2(src + i, n - i, state, partial, dst + o, cap - o, &w, &e);
    *written = o + w;
    *errors = nerr + e;
    return i;
}
#endif /* FAST_X86 */

#endif /* UTFDFA_FAST_UTF8_REP_TOKENS_H */
