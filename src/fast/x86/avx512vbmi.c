/* SPDX-License-Identifier: MIT */
/* The AVX-512 VBMI/VBMI2 level: UTF-16 and UTF-32 straight into UTF-8, and
 * UTF-16 into UTF-32, 64 bytes of input a step, with no code points in
 * between (the other pairs of unit forms are units_avx512.c's; the level's
 * table here sends them there); its other kernels are the AVX2 level's.
 *
 * The technique is the one Lemire and Clausecker published for AVX-512
 * (written anew here): each code point becomes a 16- or 32-bit lane
 * holding its UTF-8 bytes, cut out of the lane by one vpmultishiftqb and
 * finished with its lead bits; a 64-bit mask marks the lanes' bytes that
 * belong to the output, vpcompressb packs them, a masked store writes
 * exactly them. Units below 0x800 (most alphabets) stay 16-bit lanes, 32 a
 * step; others widen to 32-bit lanes, surrogate pairs joined in the high
 * surrogate's lane. A step that meets a unit the kernel must stop before,
 * or output that does not fit, goes to the scalar kernel, which stops
 * exactly there. Target attributes per function, as in avx2.c. */
#include "x86.h"

#if KERN_X86

#define KERN_VBMI                                                                          \
    __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx2,bmi,bmi2," \
                           "popcnt")))
#define VBMI_INLINE KERN_INLINE KERN_VBMI

/* vpmultishiftqb controls: for each 16-bit lane k of a quadword, byte 0
 * the 8 bits from bit a of the lane up, byte 1 those from bit b; for each
 * 32-bit lane d, bytes 0-3 those from bits a, b, c, e. */
#define MS16(k, a, b) ((uint64_t)(16 * (k) + (a)) << (16 * (k)) | (uint64_t)(16 * (k) + (b)) << (16 * (k) + 8))
#define MS16X4(a, b) (MS16(0, a, b) | MS16(1, a, b) | MS16(2, a, b) | MS16(3, a, b))
#define MS32(d, a, b, c, e)                                                         \
    ((uint64_t)(32 * (d) + (a)) << (32 * (d)) | (uint64_t)(32 * (d) + (b)) << (32 * (d) + 8) | \
     (uint64_t)(32 * (d) + (c)) << (32 * (d) + 16) | (uint64_t)(32 * (d) + (e)) << (32 * (d) + 24))
#define CTRL_2BYTE MS16X4(6, 0)  /* u >> 6, u: a 2-byte form's payloads */
#define CTRL_3LEAD MS16X4(12, 6) /* u >> 12, u >> 6: a 3-byte form's first two */
#define CTRL_HIGH MS16X4(8, 2)   /* for hp = the code point >> 10: cp >> 18, cp >> 12 */
/* Bytes from bit 18, 12, 6, 0: the 4-byte form. */
#define CTRL_4BYTE (MS32(0, 18, 12, 6, 0) | MS32(1, 18, 12, 6, 0))
/* The 32 16-bit lanes, for index vectors given as a function of the lane. */
#define LANES32(F)                                                                         \
    F(31), F(30), F(29), F(28), F(27), F(26), F(25), F(24), F(23), F(22), F(21), F(20), F(19), \
        F(18), F(17), F(16), F(15), F(14), F(13), F(12), F(11), F(10), F(9), F(8), F(7), F(6), \
        F(5), F(4), F(3), F(2), F(1), F(0)
#define LANES64(F)                                                                        \
    LANES32(F32), F(31), F(30), F(29), F(28), F(27), F(26), F(25), F(24), F(23), F(22),      \
        F(21), F(20), F(19), F(18), F(17), F(16), F(15), F(14), F(13), F(12), F(11), F(10),  \
        F(9), F(8), F(7), F(6), F(5), F(4), F(3), F(2), F(1), F(0)
#define PREV_LANE(k) (short)(((k) + 31) & 31)
/* Three byte slots a unit: its a lane's two bytes, its b lane's low byte.
 * Slot j of the first 64 comes from byte SLOTS_LO(j) of a (0-63) or b
 * (64-127); slot 64 + j from the units 16-31 of a (0-31) or b (32-63). */
#define SLOT_SRC(j, unit0, b_at) (char)(2 * ((j) / 3 - (unit0)) + ((j) % 3 == 1) + ((j) % 3 == 2) * (b_at))
#define SLOTS_LO(j) SLOT_SRC(j, 0, 64)
#define F32(j) SLOTS_LO(32 + (j))
#define SLOTS_HI(j) SLOT_SRC(64 + (j), 16, 32)
#define EVERY_3RD 0x9249249249249249u /* slot 0 of each unit, slots 0-63 */
#define EVERY_3RD_HI 0x24924924u      /* slot 0 of units 22-31, slots 64-95 */
#define SLOT1_HI 0x49249249u          /* slot 1 of units 21-31 */
#define SLOT2_HI 0x92492492u          /* slot 2 of units 21-31 */
#define TERN_AND_OR 0xEA /* (a & b) | c */
#define EVERY_4TH 0x1111111111111111u

VBMI_INLINE __m512i vbmi_bswap32(__m512i v)
{
    const __m128i order = _mm_set_epi32(0x0C0D0E0F, 0x08090A0B, 0x04050607, 0x00010203);
    return _mm512_shuffle_epi8(v, _mm512_broadcast_i32x4(order));
}

/* 64 bytes of UTF-16 of form `be` as units in memory order (native). */
VBMI_INLINE __m512i vbmi_load16(const uint8_t *p, int be)
{
    __m512i v = _mm512_loadu_si512((const void *)p);
    return be ? _mm512_shldi_epi16(v, v, 8) : v;
}

/* Writes the bytes `keep` marks in v at dst, packed; returns how many. */
VBMI_INLINE size_t vbmi_put(uint8_t *dst, __m512i v, __mmask64 keep)
{
    size_t n = (size_t)_mm_popcnt_u64(keep);
    _mm512_mask_storeu_epi8(dst, _bzhi_u64(~0ull, (unsigned)n), _mm512_maskz_compress_epi8(keep, v));
    return n;
}

/* 16 code points (scalar values) as 32-bit lanes of UTF-8 bytes; m2, m3,
 * m4: the lanes of 2 or more, 3 or more, 4 bytes. *keep marks the output's
 * bytes. */
VBMI_INLINE __m512i vbmi_utf8_lanes(__m512i c, __mmask16 m2, __mmask16 m3, __mmask16 m4,
                                    __mmask64 *keep)
{
    __m512i t = _mm512_multishift_epi64_epi8(_mm512_set1_epi64((long long)CTRL_4BYTE), c);
    t = _mm512_ternarylogic_epi32(t, _mm512_set1_epi32(0x3F3F3F3F), _mm512_set1_epi32((int)0x808080F0u),
                                  TERN_AND_OR); /* F0|x3 80|x2 80|x1 80|x0 */
    t = _mm512_mask_srli_epi32(t, (__mmask16)~m4, t, 8);  /* 3 bytes or fewer: 80|x2 80|x1 80|x0 */
    t = _mm512_mask_srli_epi32(t, (__mmask16)~m3, t, 8);  /* 2 or fewer: 80|x1 80|x0 */
    t = _mm512_mask_or_epi32(t, m2 & (__mmask16)~m4, t, _mm512_set1_epi32(0x40)); /* C0|x1 */
    t = _mm512_mask_or_epi32(t, m3 & (__mmask16)~m4, t, _mm512_set1_epi32(0x20)); /* E0|x2 */
    t = _mm512_mask_mov_epi32(t, (__mmask16)~m2, c);                             /* ASCII */
    *keep = _mm512_test_epi8_mask(t, t) | EVERY_4TH;
    return t;
}

/* The 32 units in v as code points, units 0-15 in *c0, 16-31 in *c1: a
 * high surrogate's lane holds the pair's code point, the low one's lane is
 * in *drop. A high surrogate in the last unit waits for the next step (it
 * is dropped; 62 bytes read). Returns the bytes read, 0 when a surrogate
 * is lone. */
VBMI_INLINE size_t vbmi_pairs(__m512i v, __mmask32 sur, __m512i *c0, __m512i *c1,
                              __mmask32 *drop)
{
    __mmask32 high = _mm512_cmpeq_epi16_mask(_mm512_and_si512(v, _mm512_set1_epi16((short)0xFC00)),
                                             _mm512_set1_epi16((short)0xD800));
    __mmask32 low = sur & ~high, last = high & 0x80000000u;
    high ^= last;
    if ((__mmask32)(high << 1) != low)
        return 0;
    __m512i a = _mm512_cvtepu16_epi32(_mm512_castsi512_si256(v));
    __m512i b = _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(v, 1));
    const __m512i offset = _mm512_set1_epi32(-0x35FDC00); /* (h << 10) + l - this: the pair */
    __m512i na = _mm512_add_epi32(_mm512_alignr_epi32(b, a, 1), offset);
    __m512i nb = _mm512_add_epi32(_mm512_alignr_epi32(_mm512_setzero_si512(), b, 1), offset);
    *c0 = _mm512_mask_add_epi32(a, (__mmask16)high, _mm512_slli_epi32(a, 10), na);
    *c1 = _mm512_mask_add_epi32(b, (__mmask16)(high >> 16), _mm512_slli_epi32(b, 10), nb);
    *drop = low | last;
    return last ? 62 : 64;
}

/* A pair's two 16-bit lanes of UTF-8 bytes: the high surrogate's (from hp,
 * the code point >> 10) F0|cp>>18 80|x(12), the low one's 80|x(6) 80|x(0);
 * set in a where high and low say. */
VBMI_INLINE __m512i vbmi_pair_bytes(__m512i a, __m512i v, __mmask32 high, __mmask32 low)
{
    const __m512i hp_of = _mm512_set1_epi16((short)0xD7C0); /* h - this = (h & 0x3FF) + 0x40 */
    __m512i hp = _mm512_sub_epi16(v, hp_of);
    __m512i ah = _mm512_ternarylogic_epi32(
        _mm512_multishift_epi64_epi8(_mm512_set1_epi64((long long)CTRL_HIGH), hp),
        _mm512_set1_epi16(0x3F07), _mm512_set1_epi16((short)0x80F0), TERN_AND_OR);
    __m512i prev = _mm512_permutexvar_epi16(_mm512_set_epi16(LANES32(PREV_LANE)), hp);
    __m512i al = _mm512_ternarylogic_epi32(
        _mm512_multishift_epi64_epi8(_mm512_set1_epi64((long long)CTRL_2BYTE), v),
        _mm512_set1_epi16(0x3F0F), _mm512_set1_epi16((short)0x8080), TERN_AND_OR);
    al = _mm512_ternarylogic_epi32(al, _mm512_slli_epi16(prev, 4), _mm512_set1_epi16(0x30),
                                   0xF8); /* a | (b & c): the high's last 2 bits */
    return _mm512_mask_mov_epi16(_mm512_mask_mov_epi16(a, high, ah), low, al);
}

/* 32 units that are 16 pairs in order (each 32-bit lane a high surrogate
 * then a low one), as 16 code points. */
VBMI_INLINE __m512i vbmi_pair_lanes(__m512i v)
{
    __m512i hi = _mm512_and_si512(_mm512_slli_epi32(v, 10), _mm512_set1_epi32(0xFFC00));
    __m512i cp = _mm512_ternarylogic_epi32(hi, _mm512_srli_epi32(v, 16), _mm512_set1_epi32(0x3FF),
                                           0xF8); /* a | (b & c) */
    return _mm512_add_epi32(cp, _mm512_set1_epi32(0x10000));
}

/* Whether the 32 units are 16 pairs in order: every lane a surrogate, the
 * even ones high. */
VBMI_INLINE int vbmi_all_pairs(__m512i v, __mmask32 sur)
{
    return sur == 0xFFFFFFFFu &&
           _mm512_cmpeq_epi32_mask(_mm512_and_si512(v, _mm512_set1_epi32((int)0xFC00FC00u)),
                                   _mm512_set1_epi32((int)0xDC00D800u)) == 0xFFFF;
}

/* a and b (vbmi_step16_utf8) as three byte slots a unit, 96 bytes, packed
 * at dst, but nothing of the last unit when `last`; false when they do not
 * fit `room`. */
VBMI_INLINE int vbmi_slots_put(__m512i a, __m512i b, __mmask32 last, uint8_t *dst, size_t room,
                               size_t *wrote)
{
    __m512i s0 = _mm512_permutex2var_epi8(a, _mm512_set_epi8(LANES64(SLOTS_LO)), b);
    __m256i s1 = _mm256_permutex2var_epi8(_mm512_extracti64x4_epi64(a, 1),
                                          _mm256_set_epi8(LANES32(SLOTS_HI)),
                                          _mm512_extracti64x4_epi64(b, 1));
    __mmask64 k0 = _mm512_test_epi8_mask(s0, s0) | EVERY_3RD;
    __mmask32 k1 = (_mm256_test_epi8_mask(s1, s1) | EVERY_3RD_HI) & ~((last >> 31) * 0xE0000000u);
    size_t n0 = (size_t)_mm_popcnt_u64(k0), n1 = (size_t)_mm_popcnt_u32(k1);
    if (n0 + n1 > room)
        return 0;
    _mm512_mask_storeu_epi8(dst, _bzhi_u64(~0ull, (unsigned)n0), _mm512_maskz_compress_epi8(k0, s0));
    _mm256_mask_storeu_epi8(dst + n0, _bzhi_u32(~0u, (unsigned)n1), _mm256_maskz_compress_epi8(k1, s1));
    *wrote = n0 + n1;
    return 1;
}

/* 32 units without surrogates as three byte slots each, 96 bytes: u>>12,
 * u>>6, u with their marker bits; a 3-byte form keeps all three, a 2-byte
 * one the last two (the middle one then its lead), ASCII the last (the
 * unit). The slots kept are known from the masks (pdep); all three kept in
 * every unit (CJK), they are stored as they are. False when they do not
 * fit `room`. */
VBMI_INLINE int vbmi_bmp_put(__m512i v, __mmask32 m2, __mmask32 m3, uint8_t *dst, size_t room,
                             size_t *wrote)
{
    __m512i lead = _mm512_mask_blend_epi16(m2 & ~m3, _mm512_set1_epi16((short)0x80E0),
                                           _mm512_set1_epi16((short)0xC0E0));
    __m512i a = _mm512_ternarylogic_epi32(
        _mm512_multishift_epi64_epi8(_mm512_set1_epi64((long long)CTRL_3LEAD), v),
        _mm512_set1_epi16(0x3F0F), lead, TERN_AND_OR);
    __m512i b = _mm512_mask_mov_epi16(
        _mm512_ternarylogic_epi32(v, _mm512_set1_epi16(0x3F), _mm512_set1_epi16(0x80), TERN_AND_OR),
        ~m2, v);
    __m512i s0 = _mm512_permutex2var_epi8(a, _mm512_set_epi8(LANES64(SLOTS_LO)), b);
    __m256i s1 = _mm256_permutex2var_epi8(_mm512_extracti64x4_epi64(a, 1),
                                          _mm256_set_epi8(LANES32(SLOTS_HI)),
                                          _mm512_extracti64x4_epi64(b, 1));
    if (m3 == 0xFFFFFFFFu) {
        if (room < 96)
            return 0;
        _mm512_storeu_si512((void *)dst, s0);
        _mm256_storeu_si256((__m256i *)(void *)(dst + 64), s1);
        *wrote = 96;
        return 1;
    }
    uint64_t k0 = (EVERY_3RD << 2) | _pdep_u64(m3, EVERY_3RD) | _pdep_u64(m2, EVERY_3RD << 1);
    uint32_t k1 = SLOT2_HI | _pdep_u32(m3 >> 22, EVERY_3RD_HI) | _pdep_u32(m2 >> 21, SLOT1_HI);
    size_t n0 = (size_t)_mm_popcnt_u64(k0), n1 = (size_t)_mm_popcnt_u32(k1);
    if (n0 + n1 > room)
        return 0;
    _mm512_mask_storeu_epi8(dst, _bzhi_u64(~0ull, (unsigned)n0), _mm512_maskz_compress_epi8(k0, s0));
    _mm256_mask_storeu_epi8(dst + n0, _bzhi_u32(~0u, (unsigned)n1), _mm256_maskz_compress_epi8(k1, s1));
    *wrote = n0 + n1;
    return 1;
}

/* One step of UTF-16 into UTF-8: 32 units (62 bytes when a pair is cut).
 * In 16-bit lanes: a holds each unit's first two bytes (one for ASCII, the
 * two of a 2-byte form, the first two of a 3-byte form, two of its pair's
 * four for a surrogate), b the third byte of a 3-byte form. Below 0x800,
 * a alone; else a and b interleaved into 32-bit lanes. Returns the bytes
 * read (0: the scalar kernel goes on from here). */
VBMI_INLINE size_t vbmi_step16_utf8(__m512i v, uint8_t *dst, size_t room, size_t *wrote)
{
    __mmask32 m2 = _mm512_test_epi16_mask(v, _mm512_set1_epi16((short)0xFF80));
    __mmask32 m3 = _mm512_test_epi16_mask(v, _mm512_set1_epi16((short)0xF800));
    __m512i a = _mm512_ternarylogic_epi32(
        _mm512_multishift_epi64_epi8(_mm512_set1_epi64((long long)CTRL_2BYTE), v),
        _mm512_set1_epi16(0x3F1F), _mm512_set1_epi16((short)0x80C0), TERN_AND_OR);
    if (m3 == 0) {
        /* ASCII: the unit; the bytes kept are every lane's low one and the
         * high one of a 2-byte form (80-BF, never below 08), known from the
         * lanes by one compare, their number from m2 alone */
        a = _mm512_mask_mov_epi16(a, ~m2, v);
        __mmask64 keep = _mm512_cmpge_epu8_mask(a, _mm512_set1_epi16(0x0800));
        size_t n = 32 + (size_t)_mm_popcnt_u32(m2);
        if (n > room)
            return 0;
        _mm512_mask_storeu_epi8(dst, _bzhi_u64(~0ull, (unsigned)n), _mm512_maskz_compress_epi8(keep, a));
        *wrote = n;
        return 64;
    }
    __mmask32 sur = _mm512_cmpeq_epi16_mask(_mm512_and_si512(v, _mm512_set1_epi16((short)0xF800)),
                                            _mm512_set1_epi16((short)0xD800));
    if (!sur)
        return vbmi_bmp_put(v, m2, m3, dst, room, wrote) ? 64 : 0;
    if (vbmi_all_pairs(v, sur)) { /* emoji: 4 bytes a pair, no packing */
        if (room < 64)
            return 0;
        __m512i t = _mm512_multishift_epi64_epi8(_mm512_set1_epi64((long long)CTRL_4BYTE),
                                                 vbmi_pair_lanes(v));
        _mm512_storeu_si512((void *)dst, _mm512_ternarylogic_epi32(t, _mm512_set1_epi32(0x3F3F3F3F),
                                                                   _mm512_set1_epi32((int)0x808080F0u),
                                                                   TERN_AND_OR));
        *wrote = 64;
        return 64;
    }
    __mmask32 three = m3 & ~sur, last = 0;
    a = _mm512_mask_mov_epi16(a, ~m2, v);
    __m512i a3 = _mm512_ternarylogic_epi32(
        _mm512_multishift_epi64_epi8(_mm512_set1_epi64((long long)CTRL_3LEAD), v),
        _mm512_set1_epi16(0x3F0F), _mm512_set1_epi16((short)0x80E0), TERN_AND_OR);
    a = _mm512_mask_mov_epi16(a, three, a3);
    __m512i b = _mm512_maskz_mov_epi16(three, _mm512_ternarylogic_epi32(v, _mm512_set1_epi16(0x3F),
                                                                        _mm512_set1_epi16(0x80),
                                                                        TERN_AND_OR));
    __mmask32 high = _mm512_cmpeq_epi16_mask(_mm512_and_si512(v, _mm512_set1_epi16((short)0xFC00)),
                                             _mm512_set1_epi16((short)0xD800));
    __mmask32 low = sur & ~high;
    last = high & 0x80000000u; /* its pair is in the next step */
    high ^= last;
    if ((__mmask32)(high << 1) != low)
        return 0; /* a lone surrogate in the step */
    a = vbmi_pair_bytes(a, v, high, low);
    if (!vbmi_slots_put(a, b, last, dst, room, wrote))
        return 0;
    /* a branch, not a select: the next step's load must not wait for this
     * step's masks (the pair-free path returns its constant above) */
    if (__builtin_expect(last != 0, 0))
        return 62;
    return 64;
}

VBMI_INLINE size_t vbmi_utf16_to_utf8(int be, const uint8_t *src, size_t src_len, uint8_t *dst,
                                      size_t dst_len, size_t *written)
{
    size_t i = 0, w = 0, wrote, r;
    while (src_len - i >= 64) {
        __m512i v = vbmi_load16(src + i, be);
        if (!_mm512_test_epi16_mask(v, _mm512_set1_epi16((short)0xFF80))) { /* ASCII */
            if (dst_len - w < 32)
                break;
            _mm256_storeu_si256((__m256i *)(void *)(dst + w), _mm512_cvtepi16_epi8(v));
            i += 64;
            w += 32;
            continue;
        }
        if ((r = vbmi_step16_utf8(v, dst + w, dst_len - w, &wrote)) == 0)
            break;
        i += r;
        w += wrote;
    }
    *written = w;
    return i;
}

/* UTF-32 into UTF-8, 16 units a step. */
VBMI_INLINE size_t vbmi_utf32_to_utf8(int be, const uint8_t *src, size_t src_len, uint8_t *dst,
                                      size_t dst_len, size_t *written)
{
    size_t i = 0, w = 0;
    for (; src_len - i >= 64; i += 64) {
        __m512i c = _mm512_loadu_si512((const void *)(src + i));
        if (be)
            c = vbmi_bswap32(c);
        __mmask16 bad = _mm512_cmpgt_epu32_mask(c, _mm512_set1_epi32(0x10FFFF)) |
                        _mm512_cmpeq_epi32_mask(_mm512_and_si512(c, _mm512_set1_epi32(-2048)),
                                                _mm512_set1_epi32(0xD800));
        __mmask16 m2 = _mm512_cmpgt_epu32_mask(c, _mm512_set1_epi32(0x7F));
        if (bad)
            break;
        if (m2 == 0) {
            if (dst_len - w < 16)
                break;
            _mm_storeu_si128((__m128i *)(void *)(dst + w), _mm512_cvtepi32_epi8(c));
            w += 16;
            continue;
        }
        __mmask64 keep;
        __m512i t = vbmi_utf8_lanes(c, m2, _mm512_cmpgt_epu32_mask(c, _mm512_set1_epi32(0x7FF)),
                                    _mm512_cmpgt_epu32_mask(c, _mm512_set1_epi32(0xFFFF)), &keep);
        if ((size_t)_mm_popcnt_u64(keep) > dst_len - w)
            break;
        w += vbmi_put(dst + w, t, keep);
    }
    *written = w;
    return i;
}

/* Writes the `keep` lanes of c as UTF-32 of form `be` at dst; returns bytes. */
VBMI_INLINE size_t vbmi_put32(uint8_t *dst, __m512i c, __mmask16 keep, int be)
{
    size_t n = (size_t)_mm_popcnt_u32(keep);
    c = _mm512_maskz_compress_epi32(keep, c);
    _mm512_mask_storeu_epi32(dst, (__mmask16)_bzhi_u32(0xFFFF, (unsigned)n), be ? vbmi_bswap32(c) : c);
    return 4 * n;
}

/* UTF-16 into UTF-32, 32 units a step. */
VBMI_INLINE size_t vbmi_utf16_to_utf32(int be16, int be32, const uint8_t *src, size_t src_len,
                                       uint8_t *dst, size_t dst_len, size_t *written)
{
    size_t i = 0, w = 0, r;
    while (src_len - i >= 64 && dst_len - w >= 128) {
        r = 64;
        __m512i v = vbmi_load16(src + i, be16), c0, c1;
        __mmask32 sur = _mm512_cmpeq_epi16_mask(
            _mm512_and_si512(v, _mm512_set1_epi16((short)0xF800)), _mm512_set1_epi16((short)0xD800));
        __mmask32 drop = 0;
        if (sur == 0) {
            c0 = _mm512_cvtepu16_epi32(_mm512_castsi512_si256(v));
            c1 = _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(v, 1));
        } else if (vbmi_all_pairs(v, sur)) {
            c0 = vbmi_pair_lanes(v);
            _mm512_storeu_si512((void *)(dst + w), be32 ? vbmi_bswap32(c0) : c0);
            i += 64;
            w += 64;
            continue;
        } else if ((r = vbmi_pairs(v, sur, &c0, &c1, &drop)) == 0) {
            break;
        }
        size_t n = vbmi_put32(dst + w, c0, (__mmask16)~drop, be32);
        w += n + vbmi_put32(dst + w + n, c1, (__mmask16)(~drop >> 16), be32);
        i += r;
    }
    *written = w;
    return i;
}

KERN_VBMI static size_t vbmi_wide_transcode(enum fast_form from, enum fast_form to,
                                            const uint8_t *src, size_t src_len, uint8_t *dst,
                                            size_t dst_len, size_t *written)
{
    size_t i, w, got;
    int be = from == FORM_UTF16BE || from == FORM_UTF32BE;
    if (from <= FORM_UTF16BE && to == FORM_UTF8)
        i = vbmi_utf16_to_utf8(be, src, src_len, dst, dst_len, &w);
    else if (from >= FORM_UTF32LE && to == FORM_UTF8)
        i = vbmi_utf32_to_utf8(be, src, src_len, dst, dst_len, &w);
    else if (from <= FORM_UTF16BE && to >= FORM_UTF32LE)
        i = vbmi_utf16_to_utf32(be, to == FORM_UTF32BE, src, src_len, dst, dst_len, &w);
    else if (from <= FORM_UTF16BE && to <= FORM_UTF16BE)
        i = utfdfa__vbmi_utf16_to_utf16(be, to == FORM_UTF16BE, src, src_len, dst, dst_len, &w);
    else if (from >= FORM_UTF32LE && to <= FORM_UTF16BE && to != FORM_UTF8)
        i = utfdfa__vbmi_utf32_to_utf16(be, to == FORM_UTF16BE, src, src_len, dst, dst_len, &w);
    else if (from >= FORM_UTF32LE && to >= FORM_UTF32LE)
        i = utfdfa__vbmi_utf32_to_utf32(be, to == FORM_UTF32BE, src, src_len, dst, dst_len, &w);
    else
        i = w = 0; /* not a pair of this level (wide_pairs): the scalar kernel */
    i += utfdfa__scalar_wide_transcode(from, to, src + i, src_len - i, dst + w, dst_len - w, &got);
    *written = w + got;
    return i;
}

/* The pairs fused here: every pair of the unit forms (units_avx512.c has
 * those between UTF-16 and UTF-16, UTF-32 and UTF-16 or UTF-32). */
#define VBMI_PAIR(f, t) (1u << KERN_PAIR(f, t))
#define VBMI_PAIRS                                                                       \
    (VBMI_PAIR(FORM_UTF16LE, FORM_UTF8) | VBMI_PAIR(FORM_UTF16BE, FORM_UTF8) |            \
     VBMI_PAIR(FORM_UTF32LE, FORM_UTF8) | VBMI_PAIR(FORM_UTF32BE, FORM_UTF8) |            \
     VBMI_PAIR(FORM_UTF16LE, FORM_UTF32LE) | VBMI_PAIR(FORM_UTF16LE, FORM_UTF32BE) |      \
     VBMI_PAIR(FORM_UTF16BE, FORM_UTF32LE) | VBMI_PAIR(FORM_UTF16BE, FORM_UTF32BE) |      \
     VBMI_PAIR(FORM_UTF16LE, FORM_UTF16LE) | VBMI_PAIR(FORM_UTF16LE, FORM_UTF16BE) |      \
     VBMI_PAIR(FORM_UTF16BE, FORM_UTF16LE) | VBMI_PAIR(FORM_UTF16BE, FORM_UTF16BE) |      \
     VBMI_PAIR(FORM_UTF32LE, FORM_UTF16LE) | VBMI_PAIR(FORM_UTF32LE, FORM_UTF16BE) |      \
     VBMI_PAIR(FORM_UTF32BE, FORM_UTF16LE) | VBMI_PAIR(FORM_UTF32BE, FORM_UTF16BE) |      \
     VBMI_PAIR(FORM_UTF32LE, FORM_UTF32LE) | VBMI_PAIR(FORM_UTF32LE, FORM_UTF32BE) |      \
     VBMI_PAIR(FORM_UTF32BE, FORM_UTF32LE) | VBMI_PAIR(FORM_UTF32BE, FORM_UTF32BE))

/* The level's other kernels are the AVX2 level's. */
static size_t vbmi_ascii_copy(enum fast_form from, enum fast_form to, const uint8_t *src,
                              size_t src_len, uint8_t *dst, size_t dst_len)
{
    return utfdfa__fast_avx2.ascii_copy(from, to, src, src_len, dst, dst_len);
}

static size_t vbmi_utf16_to_cp(enum fast_form from, const uint8_t *src, size_t src_len,
                               uint32_t *dst, size_t cap, size_t *written)
{
    return utfdfa__fast_avx2.utf16_to_cp(from, src, src_len, dst, cap, written);
}

static size_t vbmi_utf32_to_cp(enum fast_form from, const uint8_t *src, size_t src_len,
                               uint32_t *dst, size_t cap, size_t *written)
{
    return utfdfa__fast_avx2.utf32_to_cp(from, src, src_len, dst, cap, written);
}

static size_t vbmi_cp_to_form(enum fast_form to, const uint32_t *src, size_t n, uint8_t *dst,
                              size_t dst_len, size_t *written)
{
    return utfdfa__fast_avx2.cp_to_form(to, src, n, dst, dst_len, written);
}

const struct fast_kernels utfdfa__fast_avx512vbmi = {
    "avx512vbmi", vbmi_ascii_copy, vbmi_utf16_to_cp, vbmi_utf32_to_cp, vbmi_cp_to_form,
    vbmi_wide_transcode, VBMI_PAIRS, utfdfa__sse4_utf7_b64, utfdfa__avx2_utf7_text,
    utfdfa__avx512_count,
};

#else
typedef int utfdfa__no_avx512vbmi_here; /* ISO C wants a declaration in every unit */
#endif
