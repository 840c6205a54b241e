/* SPDX-License-Identifier: MIT */
/* The VBMI level's transcoder of valid UTF-8 into UTF-16 (vbmi_valid16,
 * slab.h's fast_valid_fn): blocks of 64 bytes as avx512.c's vbmi_valid,
 * except that a block no 4-byte character begins in is decoded 32
 * characters a vector of 16-bit lanes, with no 32-bit lanes between
 * (vbmi_short16), and ends at a character boundary.
 *
 * Included once, by avx512.c, after the block helpers it uses (vbmi_block,
 * vbmi_widen, vbmi_load, vbmi_iota, VB_LONGER, FAST_TARGET_VBMI). */
#ifndef UTFDFA_FAST_UTF8_VBMI_UTF16_H
#define UTFDFA_FAST_UTF8_VBMI_UTF16_H

/* 32 units to d: all (full) or the first live. */
FAST_TARGET_VBMI FAST_INLINE void vbmi_put16(uint16_t *d, __m512i w, unsigned live, bool full)
{
    if (full)
        _mm512_storeu_si512(d, w);
    else
        _mm512_mask_storeu_epi16(d, (__mmask32)(((uint64_t)1 << live) - 1), w);
}

/* Byte 2j and 2j + 1: j, the position of character j (or byte j). */
FAST_TARGET_VBMI FAST_INLINE __m512i vbmi_spread(void)
{
    return _mm512_set_epi64(0x1F1F1E1E1D1D1C1C, 0x1B1B1A1A19191818, 0x1717161615151414,
                            0x1313121211111010, 0x0F0F0E0E0D0D0C0C, 0x0B0B0A0A09090808,
                            0x0707060605050404, 0x0303020201010000);
}

/* The 1- and 2-byte characters whose last bytes are at ends, to d: a lane
 * for each byte (the cleared byte c, and b1, the cleared byte before it
 * where c is not ASCII, joined by one multiply-add: b1 << 6 | c), the
 * lanes of last bytes compressed. full: as vbmi_short16's. */
FAST_TARGET_VBMI FAST_INLINE size_t vbmi_lanes16(__m512i b1, __m512i c, __mmask64 ends, uint16_t *d,
                                                 bool full)
{
    const __m512i hi64 = _mm512_set1_epi16(0x4000), join = _mm512_set1_epi16(0x0140);
    size_t o = 0;
    for (unsigned h = 0; h < 2; h++) {
        __m512i ix = _mm512_add_epi8(vbmi_spread(), _mm512_set1_epi8((char)(32 * h)));
        __m512i p = _mm512_permutex2var_epi8(b1, _mm512_add_epi8(ix, hi64), c);
        __mmask32 e = (__mmask32)(ends >> (32 * h));
        unsigned live = (unsigned)__builtin_popcount(e);
        vbmi_put16(d + o, _mm512_maskz_compress_epi16(e, _mm512_maddubs_epi16(p, join)), live, full);
        o += live;
    }
    return o;
}

/* The characters of at most three bytes that make up the first bytes of v
 * to UTF-16, 32 a vector of 16-bit lanes (after Clausecker and Lemire's
 * UTF-16 path): the positions of their last bytes (ends) compressed; per
 * lane one vpermt2b brings the last byte (hi) and the one before it (lo),
 * one multiply-add joins them (lo << 6 | hi), and a vpermb brings the first
 * byte of a 3-byte character, whose shift left by 12 in 16 bits drops its
 * marker bits. The bytes are cleared first (ASCII as it is, the others to
 * their low 6 bits; a 2-byte first byte's sixth bit is 0); the byte before
 * a last byte counts only when that last byte is not ASCII, a first byte
 * only when it is of 3 bytes (three: those in v). Without any (three == 0)
 * a lane for each byte instead, the lanes of last bytes compressed.
 * full: the room holds 64 units from d (at most 64 bytes in, so 32 units
 * stored whole at each of the two places are inside it; the units past
 * those kept are scratch, overwritten next or left past *written as
 * utf8_fast.h allows), so the stores need no mask (a masked store costs
 * more on some CPUs, AMD's Zen 4 among them). */
FAST_TARGET_VBMI FAST_INLINE size_t vbmi_short16(__m512i v, __mmask64 high, __mmask64 three,
                                                 __mmask64 ends, uint16_t *d, bool full)
{
    const __m512i spread = vbmi_spread();
    const __m512i hi64 = _mm512_set1_epi16(0x4000), join = _mm512_set1_epi16(0x0140);
    __m512i iota = vbmi_iota();
    __m512i c = _mm512_and_si512(v, _mm512_mask_blend_epi8(high, _mm512_set1_epi8(-1),
                                                           _mm512_set1_epi8(0x3F)));
    /* Per byte: the cleared byte before it where it is not ASCII. */
    __m512i b1 = _mm512_maskz_permutexvar_epi8(high & ~(__mmask64)1,
                                               _mm512_sub_epi8(iota, _mm512_set1_epi8(1)), c);
    size_t o = 0;
    if (three == 0)
        return vbmi_lanes16(b1, c, ends, d, full);
    /* Per byte: the cleared 3-byte first byte two before it. */
    __m512i f2 = _mm512_maskz_permutexvar_epi8(three << 2, _mm512_sub_epi8(iota, _mm512_set1_epi8(2)), c);
    unsigned cnt = (unsigned)__builtin_popcountll(ends);
    __m512i pos = _mm512_maskz_compress_epi8(ends, iota);
    for (unsigned g = 0; g < 2; g++) {
        if (g && cnt <= 32)
            break;
        __m512i sp = _mm512_permutexvar_epi8(_mm512_add_epi8(spread, _mm512_set1_epi8((char)(32 * g))), pos);
        __m512i p = _mm512_permutex2var_epi8(b1, _mm512_add_epi8(sp, hi64), c);
        __m512i t = _mm512_maskz_permutexvar_epi8(0xAAAAAAAAAAAAAAAAu, sp, f2);
        __m512i w = _mm512_or_si512(_mm512_maddubs_epi16(p, join), _mm512_slli_epi16(t, 4));
        unsigned live = g ? cnt - 32 : cnt > 32 ? 32 : cnt;
        vbmi_put16(d + o, w, live, full);
        o += live;
    }
    return o;
}

/* Whether byte b continues a character (valid text: >= 0x80, no first byte). */
FAST_INLINE size_t vbmi_is_cont(uint8_t b)
{
    return b >= 0x80 && b < VB_LONGER(1);
}

/* Blocks that 4-byte characters begin in, in a row from src (the first is
 * one), at fixed steps as vbmi_valid's, each loaded a step ahead, to
 * d + *o (*o moved on); bytes done. */
FAST_TARGET_VBMI FAST_NOINLINE static size_t vbmi_run4(const uint8_t *src, size_t n, uint16_t *d,
                                                       size_t *o)
{
    const __m512i l3 = _mm512_set1_epi8((char)VB_LONGER(3));
    size_t i = 0, u = *o;
    __m512i v = vbmi_load(src, n);
    do {
        size_t rem = n - i, k = rem < 64 ? rem : 64;
        __m512i v1 = rem > 64 ? vbmi_load(src + i + 64, rem - 64) : _mm512_setzero_si512();
        u += vbmi_block(v, v1, k, d + u, true);
        i += k;
        v = v1;
    } while (i < n && _mm512_cmpge_epu8_mask(v, l3));
    *o = u;
    return i;
}

/* Blocks of 1- and 2-byte characters in a row from src (a character
 * boundary; the first is such a block), at fixed steps of 64 bytes, so
 * that no block's load waits on the one before (vbmi_short16's blocks end
 * at a boundary found by scalar loads, a chain from block to block): each
 * byte that is not a first byte of two ends a character, its value joined
 * with the byte before it (for byte 0, the last block's last, kept in a
 * register), so a character begun in a block's last byte is written with
 * the next block. Stops before a block with a longer character or of
 * fewer than 64 bytes, one byte back when the last block ended with a
 * first byte. Units to d + *o (*o moved on; *o <= bytes done, so the room
 * holds 64 units from d + *o); bytes done. */
FAST_TARGET_VBMI FAST_NOINLINE static size_t vbmi_run2(const uint8_t *src, size_t n, uint16_t *d,
                                                       size_t *o)
{
    const __m512i l1 = _mm512_set1_epi8((char)VB_LONGER(1)), l2 = _mm512_set1_epi8((char)VB_LONGER(2));
    /* Byte j: byte j - 1 of the second source, byte 0 the first's last. */
    const __m512i back = _mm512_add_epi8(vbmi_iota(), _mm512_set1_epi8(63));
    __m512i prev = _mm512_setzero_si512();
    __mmask64 lead = 0;
    size_t i = 0, u = *o;
    for (; n - i >= 64; i += 64) {
        __m512i v = _mm512_loadu_si512(src + i);
        if (_mm512_cmpge_epu8_mask(v, l2))
            break;
        __mmask64 high = _mm512_movepi8_mask(v);
        lead = _mm512_cmpge_epu8_mask(v, l1);
        __m512i c = _mm512_and_si512(v, _mm512_mask_blend_epi8(high, _mm512_set1_epi8(-1),
                                                               _mm512_set1_epi8(0x3F)));
        __m512i b1 = _mm512_maskz_permutex2var_epi8(high, prev, back, c);
        u += vbmi_lanes16(b1, c, ~lead, d + u, true);
        prev = c;
    }
    *o = u;
    return i - (size_t)(lead >> 63);
}

/* To UTF-16: a block that no 4-byte character begins in goes by
 * vbmi_short16 and ends at a character boundary (the last one at most 64
 * bytes in: found from the bytes at 63-64 by scalar loads, so that the next
 * block's address waits on little); any other is 64 bytes, as vbmi_valid's
 * blocks (the characters that begin in it), and the next block then begins
 * with the bytes of one that this one took. */
FAST_TARGET_VBMI FAST_NOINLINE static size_t vbmi_valid16(const uint8_t *src, size_t n, void *dst)
{
    const __m512i l1 = _mm512_set1_epi8((char)VB_LONGER(1)), l2 = _mm512_set1_epi8((char)VB_LONGER(2)),
                  l3 = _mm512_set1_epi8((char)VB_LONGER(3));
    uint16_t *d = dst;
    size_t i = 0, o = 0;
    while (i < n) {
        size_t rem = n - i, k = rem < 64 ? rem : 64;
        __mmask64 lm = k == 64 ? ~(__mmask64)0 : ((__mmask64)1 << k) - 1;
        /* (An unmasked load where it can be: a masked one costs more on Zen 4.) */
        __m512i v = k == 64 ? _mm512_loadu_si512(src + i) : _mm512_maskz_loadu_epi8(lm, src + i);
        __mmask64 high = _mm512_movepi8_mask(v);
        if (high == 0) {
            vbmi_widen(v, k, d + o, true);
            o += k;
            i += k;
            continue;
        }
        if (_mm512_cmpge_epu8_mask(v, l3)) {
            i += vbmi_run4(src + i, n - i, d, &o);
            continue;
        }
        if (k == 64 && !_mm512_cmpge_epu8_mask(v, l2) && !vbmi_is_cont(src[i])) {
            i += vbmi_run2(src + i, n - i, d, &o);
            continue;
        }
        bool full = rem > 64; /* o <= i: the room from d + o holds 64 units */
        if (full) {
            /* (Bytes 62-64 all continuing one would be a 4-byte one begun here.) */
            size_t c64 = vbmi_is_cont(src[i + 64]);
            k = 64 - c64 - (c64 & vbmi_is_cont(src[i + 63]));
            lm = k == 64 ? ~(__mmask64)0 : ((__mmask64)1 << k) - 1;
        }
        __mmask64 lead = _mm512_cmpge_epu8_mask(v, l1), cont = high & ~lead & lm, first = ~cont & lm;
        /* Last bytes: not first bytes, before a byte that does not continue
         * a character (byte k: the next block's first), from the first
         * character that begins here (the bytes before are the last
         * block's). */
        __mmask64 ends = ~lead & ~(cont >> 1) & lm & (0 - (first & (0 - first)));
        o += vbmi_short16(v, high, _mm512_cmpge_epu8_mask(v, l2) & lm, ends, d + o, full);
        i += k;
    }
    return o;
}

#endif /* UTFDFA_FAST_UTF8_VBMI_UTF16_H */
