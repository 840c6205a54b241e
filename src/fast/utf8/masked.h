/* SPDX-License-Identifier: MIT */
/* The 128-bit transcoder of valid UTF-8 (SSSE3 and SSE4.1; the AVX2 level
 * inlines the same steps, VEX-encoded), after the "end of character mask"
 * method of Keiser and Lemire (as in simdutf's SSE kernels), written here
 * from its description: a window of 12 bytes that starts at a character's
 * first byte; the mask of the bytes that end a character (the next byte is
 * not a continuation) fixes the first characters' lengths; the generated
 * tables (utf8.shuffle.gen.h, gen/emit_shuffle.py) give the shuffle that
 * gathers each character's bytes into a lane, last byte lowest, and the
 * bytes those characters span; the payload bits are then combined with
 * masks and shifts, the same for every lane:
 *   16-bit lanes (1-2 bytes): b0 & 7F | (b1 & 1F) << 6
 *   32-bit lanes (1-3 bytes): b0 & 7F | (b1 & 3F) << 6 | (b2 & 0F) << 12
 *   32-bit lanes (1-4 bytes): as above, byte 2 & 3F less its bit 5 when its
 *     bit 6 is set (a 3-byte first byte), | (b3 & 07) << 18.
 * UTF-8's form makes the masks exact: a continuation byte has bit 6 clear,
 * a 2-byte first byte bit 5, an ASCII byte bit 7. Whole 16-byte windows of
 * ASCII and of eight 2-byte characters skip the table, 12-byte windows of
 * whole 3-byte or 4-byte characters its index; the 32-bit forms share one
 * formula (no branch between them in mixed text). masked_engine.h drives
 * the windows (two cursors over a run's halves). */
#ifndef UTFDFA_FAST_UTF8_MASKED_H
#define UTFDFA_FAST_UTF8_MASKED_H

#include "lookup_sse4.h"

#include "utf8.shuffle.gen.h"
#include "valid_scalar.h"

#if FAST_X86
_Static_assert(UTF8_SHUF_DERIVED && UTF8_SIMD_MAX_LEN == 4 && UTF8_SHUF_WINDOW == 12,
               "the transcoder's forms are UTF-8's: 12-byte windows, characters of 1-4 bytes");
_Static_assert(UTF8_SHUF_CONT_MIN == 0x80, "continuations are the bytes 80 to CONT_MAX: one "
               "signed comparison");

#define MK_INLINE FAST_INLINE FAST_TARGET_SSE4
#define MK_LOAD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define MK_STORE(p, v) _mm_storeu_si128((__m128i *)(void *)(p), (v))
/* A byte >= MK_LONGER(j) starts a character of more than j bytes. */
#define MK_LONGER(j) utf8_simd_tables.longer_min[(j) - 1]

/* Runs of valid text from which masked_engine.h's transcoder works with
 * two cursors. */
enum { MK_SPLIT_MIN = 512 };

/* The continuation bytes of v, as a bit mask. */
MK_INLINE unsigned mk_cont(__m128i v)
{
    return (unsigned)_mm_movemask_epi8(
        _mm_cmplt_epi8(v, _mm_set1_epi8((char)(UTF8_SHUF_CONT_MAX + 1))));
}

/* Eight 16-bit code units (or values < 0x10000) to dst: as they are, or
 * widened to 32 bits. */
MK_INLINE void mk_store16(void *dst, __m128i w, bool u16)
{
    if (u16) {
        MK_STORE(dst, w);
    } else {
        MK_STORE(dst, _mm_cvtepu16_epi32(w));
        MK_STORE((uint32_t *)dst + 4, _mm_unpackhi_epi16(w, _mm_setzero_si128()));
    }
}

/* Each 32-bit lane's code point above U+FFFF as its surrogate pair, the
 * high surrogate low: (c >> 10) + D7C0 below DC00 | (c & 3FF) (no carry
 * between the halves). */
MK_INLINE __m128i mk_pairs(__m128i c)
{
    return _mm_add_epi32(
        _mm_add_epi32(_mm_srli_epi32(c, 10), _mm_set1_epi32((int)0xDC00D7C0)),
        _mm_and_si128(_mm_slli_epi32(c, 16), _mm_set1_epi32(0x03FF0000)));
}

/* The code points of entry e in c (its shuffle row sh: lanes of 32 bits)
 * to dst; the units written. UTF-16: a lane of a 4-byte character
 * becomes a pair (mk_pairs); a lane's shuffle index
 * for its byte 3 has bit 7 set (ZERO, 0x80, with the 32-bit forms' MARK)
 * unless the lane holds a 4-byte character, so the row chooses, not a
 * compare; the entry's pair lanes pick the packing (the generated
 * pairs[]), not the values. */
MK_INLINE size_t mk_store32(void *dst, __m128i c, __m128i sh, unsigned e, bool u16)
{
    if (!u16) {
        MK_STORE(dst, c);
        return utf8_shuffle_tables.units[e] & 15u;
    }
    __m128i w = _mm_blendv_epi8(mk_pairs(c), c, _mm_srai_epi32(sh, 31));
    MK_STORE(dst, _mm_shuffle_epi8(
                      w, MK_LOAD(utf8_shuffle_tables.pairs[utf8_shuffle_tables.pair_lanes[e]])));
    return utf8_shuffle_tables.units[e] >> 4;
}

/* A run of 3-byte characters (CJK text) goes 48 bytes a step without the
 * index: sixteen characters, four windows of the generated ALL3 row at
 * fixed offsets. Their masks are that window's, four times over: the ends
 * of bytes 0..47 (bit k: byte k ends a character), and the continuations
 * of bytes 0..48 (byte 48 starts the next character; in valid text this
 * makes byte 45 a 3-byte character's first byte, not a 4-byte one's). */
#define MK_THREE_BYTES (4 * UTF8_SHUF_WINDOW)
#define MK_THREE_READ (MK_THREE_BYTES + 4) /* the last window's 16-byte load */
#define MK_THREE_ENDS ((uint64_t)UTF8_SHUF_ALL3_MASK * 0x001001001001u)
#define MK_THREE_CONT_SPAN (((uint64_t)1 << (MK_THREE_BYTES + 1)) - 1)
#define MK_THREE_CONT (~(MK_THREE_ENDS << 1 | 1) & MK_THREE_CONT_SPAN)
_Static_assert(MK_THREE_ENDS == 0x924924924924u && MK_THREE_CONT == 0xDB6DB6DB6DB6u,
               "sixteen 3-byte characters: ends at bytes 2, 5, .. 47");

/* The code points of four 3-byte characters at p in 32-bit lanes: the ALL3
 * row's shuffle (last byte lowest), the payload bits kept (the first
 * byte's four, 1110xxxx), then b + 64 * b' in 16 bits and w + 4096 * w'. */
MK_INLINE __m128i mk_three4(const uint8_t *p)
{
    __m128i t = _mm_shuffle_epi8(MK_LOAD(p), MK_LOAD(utf8_shuffle_tables.shuffle[UTF8_SHUF_ALL3]));
    t = _mm_maddubs_epi16(_mm_and_si128(t, _mm_set1_epi32(0x000F3F3F)),
                          _mm_set1_epi32(0x00014001));
    return _mm_madd_epi16(t, _mm_set1_epi32(0x10000001));
}

/* Sixteen 3-byte characters p[0..48) (MK_THREE_READ bytes readable) to
 * dst: 16 units, below U+10000 (UTF-16 by one unsigned pack). */
MK_INLINE void mk_three48(const uint8_t *p, void *dst, bool u16)
{
    __m128i c0 = mk_three4(p), c1 = mk_three4(p + UTF8_SHUF_WINDOW);
    __m128i c2 = mk_three4(p + 2 * UTF8_SHUF_WINDOW), c3 = mk_three4(p + 3 * UTF8_SHUF_WINDOW);
    if (u16) {
        MK_STORE(dst, _mm_packus_epi32(c0, c1));
        MK_STORE((uint16_t *)dst + 8, _mm_packus_epi32(c2, c3));
    } else {
        MK_STORE(dst, c0);
        MK_STORE((uint32_t *)dst + 4, c1);
        MK_STORE((uint32_t *)dst + 8, c2);
        MK_STORE((uint32_t *)dst + 12, c3);
    }
}

/* One window at p (16 bytes readable; ends: bit k, byte k ends a
 * character, for k = 0..15 at least): its first characters to dst, *po
 * advanced by their units; the bytes they span. */
MK_INLINE size_t mk_window(const uint8_t *p, uint64_t ends, void *dst, size_t *po, bool u16)
{
    __m128i in = MK_LOAD(p);
    void *d = u16 ? (void *)((uint16_t *)dst + *po) : (void *)((uint32_t *)dst + *po);
    unsigned m16 = (unsigned)ends & 0xFFFF, m12 = m16 & 0xFFF;
    if (m16 == 0xFFFF) { /* sixteen ASCII bytes */
        mk_store16(d, _mm_cvtepu8_epi16(in), u16);
        mk_store16((char *)d + (u16 ? 16 : 32), _mm_unpackhi_epi8(in, _mm_setzero_si128()), u16);
        *po += 16;
        return 16;
    }
    if (m16 == 0xAAAA) { /* eight 2-byte characters */
        __m128i t = _mm_shuffle_epi8(in, _mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13,
                                                       12, 15, 14));
        mk_store16(d, _mm_or_si128(_mm_and_si128(t, _mm_set1_epi16(0x7F)),
                                   _mm_srli_epi16(_mm_and_si128(t, _mm_set1_epi16(0x1F00)), 2)),
                   u16);
        *po += 8;
        return 16;
    }
    /* Four 3-byte or three 4-byte characters (whole scripts are so): the
     * bytes taken known without the table, off the chain of loads. */
    size_t took;
    unsigned e;
    if (m12 == UTF8_SHUF_ALL3_MASK) {
        e = UTF8_SHUF_ALL3;
        took = UTF8_SHUF_WINDOW;
    } else if (m12 == UTF8_SHUF_ALL4_MASK) {
        e = UTF8_SHUF_ALL4;
        took = UTF8_SHUF_WINDOW;
    } else {
        e = utf8_shuffle_tables.index[m12];
        took = utf8_shuffle_tables.took[e];
    }
    __m128i sh = MK_LOAD(utf8_shuffle_tables.shuffle[e]);
    __m128i t = _mm_shuffle_epi8(in, sh);
    if (e < UTF8_SHUF_TWO_END) { /* six of 1-2 bytes */
        mk_store16(d, _mm_or_si128(_mm_and_si128(t, _mm_set1_epi16(0x7F)),
                                   _mm_srli_epi16(_mm_and_si128(t, _mm_set1_epi16(0x1F00)), 2)),
                   u16);
        *po += 6;
        return took;
    }
    /* four of 1-3 bytes or three of 1-4 (the fourth lane 0): one formula */
    __m128i b2 = _mm_xor_si128(_mm_and_si128(t, _mm_set1_epi32(0x3F0000)),
                               _mm_srli_epi32(_mm_and_si128(t, _mm_set1_epi32(0x400000)), 1));
    __m128i c = _mm_or_si128(_mm_and_si128(t, _mm_set1_epi32(0x7F)),
                             _mm_srli_epi32(_mm_and_si128(t, _mm_set1_epi32(0x3F00)), 2));
    c = _mm_or_si128(c, _mm_srli_epi32(b2, 4));
    c = _mm_or_si128(c, _mm_srli_epi32(_mm_and_si128(t, _mm_set1_epi32(0x07000000)), 6));
    if (u16 && e == UTF8_SHUF_ALL4) { /* three pairs: in order as they are */
        MK_STORE(d, mk_pairs(c));
        *po += 6;
    } else if (u16 && e < UTF8_SHUF_THREE_END) { /* 1-3 bytes: below U+10000 */
        _mm_storel_epi64((__m128i *)d, _mm_packus_epi32(c, c));
        *po += 4;
    } else {
        *po += mk_store32(d, c, sh, e, u16);
    }
    return took;
}

/* Two windows at once (the AVX2 level; the two cursors of masked_engine.h
 * are independent): window x at px in the low 128-bit lane, y at py in the
 * high one, each at a character's first byte with 16 bytes readable and
 * ends as mk_window's. One shuffle and both formulas for both lanes, no
 * branch on the form: each lane takes the 32-bit result where its shuffle
 * row carries UTF8_SHUF_MARK, else the 16-bit one. Each writes 8 units
 * (32 bytes to UTF-32, 16 to UTF-16) at its dst, whatever it counts:
 * room for them, and no other window's units there yet, is the caller's.
 * x, y: the windows (struct mk_win): the bytes taken go to *t, the units
 * counted are added to *o. bmp: to UTF-16, the windows hold no 4-byte character (no pairs). */
struct mk_win {
    const uint8_t *p; /* the window's bytes */
    unsigned m;       /* its ends */
    void *d;          /* its units */
    size_t *o;        /* the units counted, added to */
    size_t *t;        /* the bytes taken */
};

/* A cursor of the two-cursor walk: its offset in the run, the units written
 * before it, and the offset its windows stay below. */
struct mk_cursor {
    size_t at, units, limit;
};

FAST_INLINE FAST_TARGET_AVX2 void mk_pair(const struct mk_win x, const struct mk_win y, bool u16,
                                          bool bmp)
{
    const uint8_t *px = x.p, *py = y.p;
    unsigned mx = x.m, my = y.m;
    void *dx = x.d, *dy = y.d;
    size_t *ox = x.o, *oy = y.o, *tx = x.t, *ty = y.t;
    unsigned ex = utf8_shuffle_tables.index[mx & 0xFFF];
    unsigned ey = utf8_shuffle_tables.index[my & 0xFFF];
    __m256i in = _mm256_inserti128_si256(_mm256_castsi128_si256(MK_LOAD(px)), MK_LOAD(py), 1);
    __m256i sh = _mm256_inserti128_si256(
        _mm256_castsi128_si256(MK_LOAD(utf8_shuffle_tables.shuffle[ex])),
        MK_LOAD(utf8_shuffle_tables.shuffle[ey]), 1);
    __m256i t = _mm256_shuffle_epi8(in, sh);
    __m256i wide = _mm256_slli_epi16(sh, 1); /* bit 7 of each byte: the 32-bit forms */
    /* The same formulas as mk_window's, the fields added by multiplies:
     * bytes masked (byte 2 less its bit 5 when its bit 6 is set), then
     * pairs of bytes b + 64 * b', and in 32-bit lanes pairs of those
     * w + 4096 * w' (no field overlaps another). */
    __m256i six = _mm256_set1_epi16(0x4001);
    __m256i r16 = _mm256_maddubs_epi16(_mm256_and_si256(t, _mm256_set1_epi16(0x1F7F)), six);
    __m256i m = _mm256_xor_si256(_mm256_and_si256(t, _mm256_set1_epi32(0x073F3F7F)),
                                 _mm256_srli_epi32(_mm256_and_si256(t, _mm256_set1_epi32(0x400000)),
                                                   1));
    __m256i c = _mm256_madd_epi16(_mm256_maddubs_epi16(m, six), _mm256_set1_epi32(0x10000001));
    if (!u16) {
        __m256i lo = _mm256_blendv_epi8(_mm256_unpacklo_epi16(r16, _mm256_setzero_si256()), c, wide);
        __m256i hi = _mm256_unpackhi_epi16(r16, _mm256_setzero_si256());
        MK_STORE(dx, _mm256_castsi256_si128(lo));
        MK_STORE((uint32_t *)dx + 4, _mm256_castsi256_si128(hi));
        MK_STORE(dy, _mm256_extracti128_si256(lo, 1));
        MK_STORE((uint32_t *)dy + 4, _mm256_extracti128_si256(hi, 1));
        *ox += utf8_shuffle_tables.units[ex] & 15u;
        *oy += utf8_shuffle_tables.units[ey] & 15u;
    } else if (bmp) {
        __m256i v = _mm256_blendv_epi8(r16, _mm256_packus_epi32(c, c), wide);
        MK_STORE(dx, _mm256_castsi256_si128(v));
        MK_STORE(dy, _mm256_extracti128_si256(v, 1));
        *ox += utf8_shuffle_tables.units[ex] >> 4;
        *oy += utf8_shuffle_tables.units[ey] >> 4;
    } else {
        /* pairs as mk_pairs and mk_store32 make them */
        __m256i w = _mm256_add_epi32(
            _mm256_add_epi32(_mm256_srli_epi32(c, 10), _mm256_set1_epi32((int)0xDC00D7C0)),
            _mm256_and_si256(_mm256_slli_epi32(c, 16), _mm256_set1_epi32(0x03FF0000)));
        w = _mm256_blendv_epi8(w, c, _mm256_srai_epi32(sh, 31));
        const struct utfdfa_shuffle_tables *st = &utf8_shuffle_tables;
        __m256i pk = _mm256_inserti128_si256(
            _mm256_castsi128_si256(MK_LOAD(st->pairs[st->pair_lanes[ex]])),
            MK_LOAD(st->pairs[st->pair_lanes[ey]]), 1);
        __m256i v = _mm256_blendv_epi8(r16, _mm256_shuffle_epi8(w, pk), wide);
        MK_STORE(dx, _mm256_castsi256_si128(v));
        MK_STORE(dy, _mm256_extracti128_si256(v, 1));
        *ox += utf8_shuffle_tables.units[ex] >> 4;
        *oy += utf8_shuffle_tables.units[ey] >> 4;
    }
    *tx = utf8_shuffle_tables.took[ex];
    *ty = utf8_shuffle_tables.took[ey];
}

/* The bytes a window with ends m takes: whole 3-byte or 4-byte characters
 * known without the table (mk_window's shortcut: off the chain of loads). */
FAST_INLINE FAST_TARGET_AVX2 size_t mk_took(unsigned m)
{
    m &= 0xFFF;
    if (m == UTF8_SHUF_ALL3_MASK || m == UTF8_SHUF_ALL4_MASK)
        return UTF8_SHUF_WINDOW;
    return utf8_shuffle_tables.took[utf8_shuffle_tables.index[m]];
}

/* The characters of a block buf[0..whole) to dst, *po advanced by their
 * units: windows (16 bytes readable at each; ends: ones past whole, where
 * every byte counts as a character of one byte, scratch units up to 8 and
 * a window's bytes past the block's), an ASCII block's by mk_window, others
 * two at a time in one mk_pair, the second's place from the first's bytes
 * (mk_took), so that their shuffles, formulas and stores are done once for
 * both: the first's 8 units go out before the second's, which start where
 * the first's counted ones end. */
FAST_INLINE FAST_TARGET_AVX2 void mk_block(const uint8_t *buf, uint64_t ends, size_t whole,
                                           void *dst, size_t *po, bool u16)
{
    const struct utfdfa_shuffle_tables *st = &utf8_shuffle_tables;
    size_t pos = 0, o = *po, q, t, us = u16 ? 2 : 4;
    char *d = (char *)dst;
    while (ends == ~(uint64_t)0 && pos < whole)
        pos += mk_window(buf + pos, ends, dst, &o, u16);
    while (pos < whole) {
        unsigned m = (unsigned)(ends >> pos | ~(~(uint64_t)0 >> pos));
        unsigned units = st->units[st->index[m & 0xFFF]];
        size_t o2 = o + (u16 ? units >> 4 : units & 15u);
        q = pos + mk_took(m);
        if (q >= whole) /* one window left: in both lanes, the same units twice */
            q = pos, o2 = o;
        unsigned m2 = (unsigned)(ends >> q | ~(~(uint64_t)0 >> q));
        mk_pair((struct mk_win){buf + pos, m, d + o * us, &o, &t},
                (struct mk_win){buf + q, m2, d + o2 * us, &o2, &t}, u16, false);
        if (q == pos) {
            pos += mk_took(m);
            break;
        }
        pos = q + mk_took(m2);
        o = o2;
    }
    *po = o - (pos - whole); /* the bytes past the block: one unit each */
}

/* The units of valid text src[0..n): its first bytes (not 10xxxxxx), and
 * to UTF-16 its 4-byte ones again (a pair). */
MK_INLINE size_t mk_units(const uint8_t *src, size_t n, bool u16)
{
    __m128i sum = _mm_setzero_si128(), one = _mm_set1_epi8(1);
    size_t i = 0, k;
    for (; n - i >= 16; i += 16) {
        __m128i v = MK_LOAD(src + i);
        __m128i x = _mm_andnot_si128(
            _mm_cmplt_epi8(v, _mm_set1_epi8((char)(UTF8_SHUF_CONT_MAX + 1))), one);
        if (u16) {
            __m128i four = _mm_set1_epi8((char)MK_LONGER(3));
            x = _mm_add_epi8(x, _mm_and_si128(_mm_cmpeq_epi8(_mm_max_epu8(v, four), v), one));
        }
        sum = _mm_add_epi64(sum, _mm_sad_epu8(x, _mm_setzero_si128()));
    }
    k = (size_t)_mm_cvtsi128_si64(sum) + (size_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(sum, sum));
    for (; i < n; i++)
        k += !(src[i] >= UTF8_SHUF_CONT_MIN && src[i] <= UTF8_SHUF_CONT_MAX) +
             (u16 && src[i] >= MK_LONGER(3));
    return k;
}

FAST_UNUSED FAST_NOINLINE FAST_TARGET_SSE4 static size_t mk_units32(const uint8_t *src, size_t n)
{
    return mk_units(src, n, false);
}

FAST_UNUSED FAST_NOINLINE FAST_TARGET_SSE4 static size_t mk_units16(const uint8_t *src, size_t n)
{
    return mk_units(src, n, true);
}

/* Out of line, one copy for both levels (the tails are short). */
FAST_UNUSED FAST_NOINLINE FAST_TARGET_SSE4 static size_t mk_scalar32(const uint8_t *p, size_t n,
                                                                    void *dst)
{
    return fast_valid_scalar(p, n, dst, false);
}

FAST_UNUSED FAST_NOINLINE FAST_TARGET_SSE4 static size_t mk_scalar16(const uint8_t *p, size_t n,
                                                                    void *dst)
{
    return fast_valid_scalar(p, n, dst, true);
}
#endif /* FAST_X86 */

#endif /* UTFDFA_FAST_UTF8_MASKED_H */
