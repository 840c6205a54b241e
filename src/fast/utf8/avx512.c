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
 * The blocks are 64 bytes at fixed steps; a character that begins in one
 * and ends in the next is decoded with the first (a two-source permute).
 * Each function carries its target attribute (select.c calls them only at
 * that level, which requires the CPU features). */
#include "utf8_fast.h"

#include "lookup_avx512.h"
#include "slab.h"
#include "variants.h"

#if FAST_X86
#define FAST_TARGET_VBMI                                                                    \
    __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,bmi,bmi2,"      \
                          "popcnt")))

/* What a first byte's high nibble says: its character's length (from the
 * grammar's lead thresholds below; a nibble that no first byte has, 8-B,
 * counts as 1), the payload mask of the first byte (UTF-8's form: the bits
 * below the length's marker), and how far right a value combined as of four
 * bytes must move. Lookup tables (vpshufb, 16 entries) computed from these
 * expressions. */
_Static_assert(UTF8_SIMD_MAX_LEN == 4, "the transcoder gathers at most four bytes a character");
/* A byte >= VB_LONGER(j) starts a character of more than j bytes (the
 * grammar's derived tables, utf8.simd.gen.h). */
#define VB_LONGER(j) utf8_simd_tables.longer_min[(j) - 1]
#define VB_LEN(h)                                                                           \
    (1 + ((h) << 4 >= VB_LONGER(1)) + ((h) << 4 >= VB_LONGER(2)) + ((h) << 4 >= VB_LONGER(3)))
#define VB_MASK(h) (VB_LEN(h) == 1 ? 0x7F : 0x7F >> VB_LEN(h))
#define VB_SHIFT(h) (6 * (4 - VB_LEN(h)))
#define VB_TABLE(F)                                                                         \
    _mm512_broadcast_i32x4(_mm_setr_epi8(F(0), F(1), F(2), F(3), F(4), F(5), F(6), F(7),    \
                                         F(8), F(9), F(10), F(11), F(12), F(13), F(14), F(15)))

/* Lanes (a character's first byte lowest, the next three above it) to code
 * points: the first byte to its payload by the table, the later ones to
 * their 6 bits; combined as of four bytes (two multiply-adds: b0 << 18 |
 * b1 << 12 | b2 << 6 | b3); shifted right by 6 for each byte missing. */
FAST_TARGET_VBMI FAST_INLINE __m512i vbmi_combine(__m512i b)
{
    /* The high nibble of byte 0; bytes 1-3 of the index have bit 7 set (0 out). */
    __m512i nib = _mm512_ternarylogic_epi32(_mm512_srli_epi32(b, 4), _mm512_set1_epi32(0x0F),
                                            _mm512_set1_epi32((int)0x80808000u), 0xEA);
    __m512i first = _mm512_shuffle_epi8(VB_TABLE(VB_MASK), nib);
    /* b & (first | 0x3F3F3F00) */
    __m512i t = _mm512_ternarylogic_epi32(b, first, _mm512_set1_epi32(0x3F3F3F00), 0xE0);
    t = _mm512_maddubs_epi16(t, _mm512_set1_epi16(0x0140));
    t = _mm512_madd_epi16(t, _mm512_set1_epi32(0x00011000));
    return _mm512_srlv_epi32(t, _mm512_shuffle_epi8(VB_TABLE(VB_SHIFT), nib));
}

/* Store the first cnt code points of c as UTF-16 at d; how many units.
 * four: the lanes of supplementary code points, known from the first bytes
 * (not from c): the count of units, and so where the next store goes, does
 * not wait for the lanes' values. */
FAST_TARGET_VBMI FAST_INLINE size_t vbmi_store16(uint16_t *d, __m512i c, __mmask16 four,
                                                 unsigned cnt)
{
    if (FAST_LIKELY(four == 0)) { /* from the bytes: predicted as well as the text allows, resolved early */
        _mm256_mask_storeu_epi16(d, (__mmask16)((1u << cnt) - 1), _mm512_cvtepi32_epi16(c));
        return cnt;
    }
    /* Pairs: high surrogate in the lane's low half ((c >> 10) + 0xD7C0),
     * low one above it (0xDC00 | c & 0x3FF, added and or'ed there). */
    __m512i hi = _mm512_add_epi32(_mm512_srli_epi32(c, 10), _mm512_set1_epi32((int)0xDC00D7C0u));
    __m512i pair = _mm512_ternarylogic_epi32(hi, _mm512_slli_epi32(c, 16),
                                             _mm512_set1_epi32(0x03FF0000), 0xF8); /* A | B & C */
    unsigned units = cnt + (unsigned)__builtin_popcount(four);
    __mmask32 room = (__mmask32)(((uint64_t)1 << units) - 1);
    if (four == (1u << cnt) - 1) { /* all supplementary (emoji): the lanes as they are */
        _mm512_mask_storeu_epi16(d, room, pair);
        return units;
    }
    /* Each lane's low unit, and its high one where that is a low surrogate
     * (a BMP lane's high half is zero), compressed over the gaps. */
    __m512i w = _mm512_mask_mov_epi32(c, four, pair);
    __mmask32 keep = _mm512_test_epi16_mask(w, w) | (__mmask32)0x55555555u;
    __m512i packed = _mm512_maskz_compress_epi16(keep, w); /* in a register: fast everywhere */
    _mm512_mask_storeu_epi16(d, room, packed);
    return units;
}

/* ASCII widened: in a block, and over a run at a slab's start. */
#include "vbmi_ascii.h"

/* 16 characters (group gi of the compressed first-byte positions pos: the
 * first `live` of them count) of the 128 bytes v0:v1 to dst; units out.
 * Bit gi + j of flags: character j is supplementary (UTF-16), or a
 * subpart to replace by U+FFFD (UTF-32). */
FAST_TARGET_VBMI FAST_INLINE size_t vbmi_group(__m512i v0, __m512i v1, __m512i pos, unsigned gi,
                                               unsigned live, __mmask64 flags, void *dst, bool u16)
{
    /* Byte k of lane j: the position of character gi + j, plus k. */
    const __m512i spread = _mm512_set_epi32(
        0x0F0F0F0F, 0x0E0E0E0E, 0x0D0D0D0D, 0x0C0C0C0C, 0x0B0B0B0B, 0x0A0A0A0A, 0x09090909,
        0x08080808, 0x07070707, 0x06060606, 0x05050505, 0x04040404, 0x03030303, 0x02020202,
        0x01010101, 0x00000000);
    __m512i sel = _mm512_add_epi8(spread, _mm512_set1_epi8((char)gi));
    __m512i idx = _mm512_add_epi8(_mm512_permutexvar_epi8(sel, pos), _mm512_set1_epi32(0x03020100));
    __m512i c = vbmi_combine(_mm512_permutex2var_epi8(v0, idx, v1));
    if (u16)
        return vbmi_store16(dst, c, (__mmask16)(flags >> gi), live);
    c = _mm512_mask_mov_epi32(c, (__mmask16)(flags >> gi), _mm512_set1_epi32(0xFFFD));
    _mm512_mask_storeu_epi32(dst, (__mmask16)((1u << live) - 1), c);
    return live;
}

FAST_TARGET_VBMI FAST_INLINE __m512i vbmi_iota(void)
{
    return _mm512_set_epi64(0x3F3E3D3C3B3A3938, 0x3736353433323130, 0x2F2E2D2C2B2A2928,
                            0x2726252423222120, 0x1F1E1D1C1B1A1918, 0x1716151413121110,
                            0x0F0E0D0C0B0A0908, 0x0706050403020100);
}

/* The characters that begin at the set bits of `first` (in v0; their later
 * bytes may be in v1) to dst; units out; flags as vbmi_group's, bit k for
 * the k-th of them. Two groups always (no branch on
 * a count that varies from block to block), two more when needed. */
FAST_TARGET_VBMI FAST_INLINE size_t vbmi_chars(__m512i v0, __m512i v1, __mmask64 first,
                                               __mmask64 flags, void *dst, bool u16)
{
    unsigned cnt = (unsigned)__builtin_popcountll(first);
    __m512i pos = _mm512_maskz_compress_epi8(first, vbmi_iota());
    size_t o = 0;
    for (unsigned gi = 0; gi < 64; gi += 16) {
        if (gi >= 32 && gi >= cnt)
            break;
        unsigned live = cnt <= gi ? 0 : cnt - gi >= 16 ? 16 : cnt - gi;
        o += vbmi_group(v0, v1, pos, gi, live, flags,
                        u16 ? (void *)((uint16_t *)dst + o) : (void *)((uint32_t *)dst + o), u16);
    }
    return o;
}

/* A block of 1- and 2-byte characters only, none reaching into the next
 * block nor begun in the one before: per byte its value as the last byte
 * of a character (ASCII: itself; 10xxxxxx: with the byte before it, the
 * first), 16 bits a byte; the values at the characters' last bytes (keep)
 * compressed and stored. cont: the bytes 10xxxxxx. */
FAST_TARGET_VBMI FAST_INLINE size_t vbmi_two(__m512i v0, __mmask64 keep, __mmask64 cont,
                                             void *dst, bool u16)
{
    const __m512i before = _mm512_set_epi64(0x3E3D3C3B3A393837, 0x363534333231302F,
                                            0x2E2D2C2B2A292827, 0x262524232221201F,
                                            0x1E1D1C1B1A191817, 0x161514131211100F,
                                            0x0E0D0C0B0A090807, 0x060504030201003F);
    __m512i prev = _mm512_permutexvar_epi8(before, v0);
    size_t o = 0;
    for (int h = 0; h < 2; h++) {
        __m512i b = _mm512_cvtepu8_epi16(h ? _mm512_extracti64x4_epi64(v0, 1)
                                           : _mm512_castsi512_si256(v0));
        __m512i p = _mm512_cvtepu8_epi16(h ? _mm512_extracti64x4_epi64(prev, 1)
                                           : _mm512_castsi512_si256(prev));
        __m512i two = _mm512_or_si512(_mm512_slli_epi16(_mm512_and_si512(p, _mm512_set1_epi16(0x1F)), 6),
                                      _mm512_and_si512(b, _mm512_set1_epi16(0x3F)));
        __m512i w = _mm512_mask_mov_epi16(b, (__mmask32)(cont >> (32 * h)), two);
        __mmask32 kk = (__mmask32)(keep >> (32 * h));
        unsigned cnt = (unsigned)__builtin_popcount(kk);
        __m512i c = _mm512_maskz_compress_epi16(kk, w);
        __mmask32 m = (__mmask32)(((uint64_t)1 << cnt) - 1);
        if (u16) {
            _mm512_mask_storeu_epi16((uint16_t *)dst + o, m, c);
        } else {
            uint32_t *d = (uint32_t *)dst + o;
            _mm512_mask_storeu_epi32(d, (__mmask16)m, _mm512_cvtepu16_epi32(_mm512_castsi512_si256(c)));
            _mm512_mask_storeu_epi32(d + 16, (__mmask16)(m >> 16),
                                     _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(c, 1)));
        }
        o += cnt;
    }
    return o;
}

/* One block of the transcoder: the characters that begin in v0's first k
 * bytes (whole, their later bytes in v1 where they reach into it) to d;
 * units out. */
FAST_TARGET_VBMI FAST_INLINE size_t vbmi_block(__m512i v0, __m512i v1, size_t k, void *d, bool u16)
{
    __mmask64 high = _mm512_movepi8_mask(v0);
    if (high == 0 && k == 64) {
        vbmi_widen64(v0, d, u16);
        return k;
    }
    if (high == 0) {
        vbmi_widen(v0, k, d, u16);
        return k;
    }
    __mmask64 lm = k == 64 ? ~(__mmask64)0 : ((__mmask64)1 << k) - 1;
    __mmask64 lead = _mm512_cmpge_epu8_mask(v0, _mm512_set1_epi8((char)VB_LONGER(1)));
    __mmask64 cont = high & ~lead;
    if (!_mm512_cmpge_epu8_mask(v0, _mm512_set1_epi8((char)VB_LONGER(2))) && !(lead >> 63) &&
        !(cont & 1))
        return vbmi_two(v0, ~lead & lm, cont, d, u16);
    __mmask64 first = ~cont & lm;
    __mmask64 four = u16 ? _mm512_mask_cmpge_epu8_mask(first, v0, _mm512_set1_epi8((char)VB_LONGER(3))) : 0;
    four = four ? _pext_u64(four, first) : 0; /* per character */
    return vbmi_chars(v0, v1, first, four, d, u16);
}

/* The transcoder: src[0..n) is valid UTF-8, whole characters. Blocks of 64
 * bytes at fixed steps (the next load does not wait for this block's
 * characters): a block decodes the characters that begin in it, their
 * later bytes taken from the next block (v1) where they reach into it. */
FAST_TARGET_VBMI FAST_INLINE size_t vbmi_valid(const uint8_t *src, size_t n, void *dst, bool u16)
{
    size_t i = 0, o = 0;
    __m512i v0 = vbmi_load(src, n);
    while (i < n) {
        size_t rem = n - i, k = rem < 64 ? rem : 64;
        __m512i v1 = rem > 64 ? vbmi_load(src + i + 64, rem - 64) : _mm512_setzero_si512();
        o += vbmi_block(v0, v1, k, u16 ? (void *)((uint16_t *)dst + o) : (void *)((uint32_t *)dst + o), u16);
        i += k;
        v0 = v1;
    }
    return o;
}

FAST_TARGET_VBMI FAST_NOINLINE static size_t vbmi_valid32(const uint8_t *src, size_t n, void *dst)
{
    return vbmi_valid(src, n, dst, false);
}

/* To UTF-16: vbmi_valid16, with its own block for characters of at most
 * three bytes. */
#include "vbmi_utf16.h"

/* The slabs' validator: a slab of at most 64 bytes, all ASCII, from
 * ACCEPT is valid without the lookup validator's set-up (short chunks of
 * a stream are often such slabs); others go to it. */
FAST_TARGET_VBMI static size_t vbmi_scan(const uint8_t *src, size_t n, uint32_t *state)
{
    if (n <= 64 && *state == 0 && fast_utf8()->ascii_identity &&
        _mm512_movepi8_mask(vbmi_load(src, n)) == 0)
        return n;
    return utfdfa__utf8_scan_lookup_vbmi(src, n, state);
}

/* The direct entry's short chunk (select.c calls it for n <= 64 with room
 * for n units): a character in progress finished by the plain step, then
 * the rest as one block: checked by the lookup validator from ACCEPT
 * (lookup.h), the character the end cuts left out by the commit rule, the
 * others transcoded, the cut one's bytes stepped into the state. At an
 * error in the block it stops before the block (the caller's general path
 * finds the error). */
FAST_TARGET_VBMI FAST_NOINLINE static size_t vbmi_small(const uint8_t *src, size_t n,
    struct utfdfa__utf8_cursor *c, uint32_t *dst, size_t cap, size_t *written)
{
    const fast_tables *g = fast_utf8();
    const lk_tables *t = &utf8_simd_tables;
    uint64_t s = (uint64_t)c->state * g->shift_width; /* shift rows (variants.h) */
    uint32_t cp = c->partial;
    size_t i = 0, o = 0;
    while (i < n && !fast_is_accept(g, s)) {
        size_t j = fast_dec_exact(g, src, i, i + 1, &s, &cp, (struct fast_out){dst, &o, cap},
                                  false);
        if (j == i)
            break;
        i = j;
    }
    if (!fast_is_accept(g, s)) {
        c->pending += (uint32_t)i;
        goto done;
    }
    size_t rem = n - i;
    c->pending = 0;
    struct lk_avx512_ctx lc;
    lk_avx512_init(&lc, t, UTF8_SIMD_CUR_LOW);
    __mmask64 live = rem >= 64 ? ~(__mmask64)0 : ((__mmask64)1 << rem) - 1;
    __m512i err = lk_avx512_check(&lc, t, UTF8_SIMD_CUR_LOW, lc.pad,
                                  _mm512_mask_loadu_epi8(lc.pad, live, src + i));
    if (_mm512_mask_test_epi8_mask(live, err, err))
        goto done;
    size_t whole = rem - lk_tail_len(t, src + i, 0, rem);
    o += vbmi_valid32(src + i, whole, dst + o);
    i += whole;
    /* The cut character: its bytes into the state (none completes it; a
     * first byte no character has is left to the general path). */
    for (size_t j = i; j < n; j++) {
        uint64_t next = fast_next(g, s, src[j]);
        if (fast_is_reject(g, next)) {
            s = fast_to_state(g, 0);
            cp = 0;
            goto done;
        }
        s = next;
        cp = cp << 6 | fast_payload(g, src[j]);
    }
    c->pending = (uint32_t)(n - i);
    i = n;
done:
    c->state = (uint32_t)((s & 63) / g->shift_width);
    c->partial = cp;
    *written = o;
    return i;
}

/* The entry of the short chunk: one all-ASCII from ACCEPT (the common
 * case, so first and with the fewest instructions), else the above. */
FAST_TARGET_VBMI size_t utfdfa__utf8_small_vbmi_32(const uint8_t *src, size_t n,
    struct utfdfa__utf8_cursor *c, uint32_t *dst, size_t cap, size_t *written)
{
    if (c->state == 0) { /* ACCEPT */
        __m512i v = vbmi_load(src, n);
        if (_mm512_movepi8_mask(v) == 0) {
            vbmi_widen(v, n, dst, false);
            c->pending = 0;
            *written = n;
            return n;
        }
    }
    return vbmi_small(src, n, c, dst, cap, written);
}

FAST_TARGET_VBMI size_t utfdfa__utf8_dec_vbmi_32(const uint8_t *src, size_t n, uint32_t *state,
    uint32_t *partial, uint32_t *dst, size_t cap, size_t *written)
{
    return fast_slab_engine(
        (struct fast_slab_ops){fast_utf8(), false, vbmi_valid32, vbmi_scan, vbmi_ascii32},
        (struct fast_call){src, n, state, partial, dst, cap, written, NULL});
}

FAST_TARGET_VBMI size_t utfdfa__utf8_dec_vbmi_16(const uint8_t *src, size_t n, uint32_t *state,
    uint32_t *partial, uint16_t *dst, size_t cap, size_t *written)
{
    return fast_slab_engine(
        (struct fast_slab_ops){fast_utf8(), true, vbmi_valid16, vbmi_scan, vbmi_ascii16},
        (struct fast_call){src, n, state, partial, dst, cap, written, NULL});
}

/* Replacing, 64 bytes a block, from a character boundary: the plain DFA
 * (byte_class and trans, as byte tables in registers: vpermi2b) is run from
 * ACCEPT at every position at once, max_len steps, which gives each
 * position's token as if a character started there: its length and
 * whether it is a character or a maximal subpart (one U+FFFD; a byte that
 * rejects from ACCEPT is one by itself). The bytes a token covers past its
 * first are not tokens; when no covered byte would start a token longer
 * than one byte (so in UTF-8: a continuation byte never starts one), the
 * tokens are exactly the positions nothing covers, and each gives one
 * unit: vbmi_chars, with U+FFFD for the subparts. */
struct vbmi_dfa {
    __m512i cls[4], t[2];
};

FAST_TARGET_VBMI FAST_INLINE void vbmi_dfa_load(const fast_tables *g, struct vbmi_dfa *d)
{
    for (int k = 0; k < 4; k++)
        d->cls[k] = _mm512_loadu_si512(g->byte_class + 64 * k);
    __m256i t[4];
    for (int k = 0; k < 4; k++) {
        size_t all = g->nstates * g->nclasses, left = all > 32u * k ? all - 32u * k : 0;
        __mmask32 m = left >= 32 ? ~(__mmask32)0 : ((__mmask32)1 << left) - 1;
        t[k] = _mm512_cvtepi16_epi8(_mm512_maskz_loadu_epi16(m, g->trans + 32 * k));
    }
    d->t[0] = _mm512_inserti64x4(_mm512_castsi256_si512(t[0]), t[1], 1);
    d->t[1] = _mm512_inserti64x4(_mm512_castsi256_si512(t[2]), t[3], 1);
}

FAST_TARGET_VBMI FAST_INLINE __m512i vbmi_class(const struct vbmi_dfa *d, __m512i v)
{
    __m512i lo = _mm512_permutex2var_epi8(d->cls[0], v, d->cls[1]);
    __m512i hi = _mm512_permutex2var_epi8(d->cls[2], v, d->cls[3]);
    return _mm512_mask_blend_epi8(_mm512_movepi8_mask(v), lo, hi);
}

/* One block at p (rem >= 64 + 3 bytes there): units to dst, false (nothing
 * done) when the tokens do not resolve as above. *padv: the bytes done,
 * 64 and those of a token that reaches into the next block. */
FAST_TARGET_VBMI FAST_INLINE bool vbmi_rep_block(const struct vbmi_dfa *d, uint64_t rej,
                                                 const uint8_t *p, size_t rem, uint32_t *dst,
                                                 size_t *po, size_t *pnerr, size_t *padv)
{
    __m512i v0 = _mm512_loadu_si512(p), v1 = vbmi_load(p + 64, rem - 64);
    __m512i c0 = vbmi_class(d, v0), c1 = vbmi_class(d, v1);
    __m512i s = _mm512_permutex2var_epi8(d->t[0], c0, d->t[1]); /* from ACCEPT */
    __mmask64 done = 0, bad = 0, cov[4] = {0, 0, 0, 0};
    for (int k = 0;; k++) {
        __mmask64 r = _mm512_cmpeq_epi8_mask(s, _mm512_set1_epi8((char)rej));
        cov[k] = ~done & ~r; /* tokens longer than k bytes */
        bad |= ~done & r;
        done |= r | _mm512_testn_epi8_mask(s, s);
        if (k == 3)
            break;
        __m512i idx = _mm512_add_epi8(_mm512_set1_epi8((char)(k + 1)), vbmi_iota());
        s = _mm512_permutex2var_epi8(d->t[0],
                                     _mm512_add_epi8(s, _mm512_permutex2var_epi8(c0, idx, c1)),
                                     d->t[1]);
    }
    __mmask64 covered = cov[1] << 1 | cov[2] << 2 | cov[3] << 3;
    if (~done || (covered & cov[1]))
        return false;
    __mmask64 tok = ~covered, err = bad & tok;
    *po += vbmi_chars(v0, v1, tok, _pext_u64(err, tok), dst + *po, false);
    *pnerr += (size_t)__builtin_popcountll(err);
    *padv = 64 + (size_t)__builtin_popcountll(cov[1] >> 63 | cov[2] >> 62 | cov[3] >> 61);
    return true;
}

/* The replacing windows of the slab decoder (utfdfa__rep_fn): to the next
 * character boundary by the plain replacing step, blocks while they
 * resolve, the rest by the AVX2 level's engine. */
FAST_TARGET_VBMI FAST_NOINLINE static size_t vbmi_rep(const uint8_t *src, size_t n,
    uint32_t *state, uint32_t *partial, uint32_t *dst, size_t cap, size_t *written,
    size_t *errors)
{
    const fast_tables *g = fast_utf8();
    uint64_t s = fast_to_state(g, *state);
    uint32_t cp = *partial;
    size_t i = 0, o = 0, nerr = 0, w = 0, e = 0, adv = 0;
    while (i < n && !fast_is_accept(g, s)) {
        size_t j = fast_rep_exact(g, src, i, i + 1, &s, &cp, (struct fast_out){dst, &o, cap},
                                  &nerr);
        if (j == i && !fast_is_accept(g, s))
            break; /* no room */
        i = j;
    }
    if (fast_is_accept(g, s) && g->nstates * g->nclasses <= 128 && g->nstates <= 255) {
        struct vbmi_dfa d;
        vbmi_dfa_load(g, &d);
        while (n - i >= 64 + 3 && cap - o >= 64 &&
               vbmi_rep_block(&d, g->reject, src + i, n - i, dst, &o, &nerr, &adv))
            i += adv;
    }
    *state = fast_from_state(g, s);
    *partial = cp;
    i += utfdfa__utf8_rep_b_avx2(src + i, n - i, state, partial, dst + o, cap - o, &w, &e);
    *written = o + w;
    *errors = nerr + e;
    return i;
}

FAST_TARGET_VBMI size_t utfdfa__utf8_rep_vbmi(const uint8_t *src, size_t n, uint32_t *state,
    uint32_t *partial, uint32_t *dst, size_t cap, size_t *written, size_t *errors)
{
    return fast_slab_rep((struct fast_call){src, n, state, partial, dst, cap, written, errors},
                         utfdfa__utf8_dec_vbmi_32, vbmi_rep);
}

/* The scan is the level's lookup validator (lookup.c). */
const struct utfdfa__utf8_fast_impl utfdfa__utf8_fast_vbmi = {
    utfdfa__utf8_scan_lookup_vbmi, utfdfa__utf8_dec_vbmi_32, utfdfa__utf8_dec_vbmi_16,
    utfdfa__utf8_rep_vbmi, NULL,
};
#else
typedef int utfdfa__utf8_fast_avx512_none; /* not x86-64: nothing here (a unit must declare something) */
#endif
