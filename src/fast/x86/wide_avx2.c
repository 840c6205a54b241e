/* SPDX-License-Identifier: MIT */
/* The AVX2 level's fused kernels into UTF-8 (utfdfa__wide_transcode): UTF-16
 * 16 units a step in one 256-bit vector, UTF-32 16 code points of the BMP
 * a step in two, narrowed to UTF-16; between UTF-16 and UTF-32, the SSE4
 * kernels (units_sse4.c). A UTF-16 step of 8 pairs from a pair's start
 * (emoji text) takes a path of its own; other steps with pairs, and code
 * points above U+FFFF, go to the SSE4 kernels (wide_sse4.c) a few hundred
 * bytes a call, which keeps this file small.
 *
 * The lanes are made 32 bytes at a time; a mixed step's packing stays 4
 * units a 16-byte pshufb (an 8-unit control of every length would need a
 * table 16 times as big), each control one load after its row's, from
 * wide_utf8_group and wide_utf8_shuffle as at the SSE4 level (wide_sse4.h:
 * the tables, the scratch rule). A step of all ASCII, all below 0x800 (8
 * units a wide_utf8_two8 row) or all 3-byte forms takes a path of its own. On Zen 3 (where Zen 4 had found 256-bit steps
 * no faster) this measured a quarter to a half faster than the SSE4
 * kernels on text of one script. */
#include "wide_sse4.h"

#if KERN_X86

#define AVX2_INLINE KERN_INLINE KERN_AVX2
#define AVX2_LOAD(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define AVX2_STORE(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))
#define Y_SET16(x) _mm256_set1_epi16((short)(x))
#define Y_SET32(x) _mm256_set1_epi32((int)(x))

/* Packs 16 lanes (a: each unit's first two bytes, b: its third) of the
 * lengths `groups` says (two bits a unit, wide_utf8_group's index) at dst,
 * scratch past the end; returns the bytes. */
AVX2_INLINE size_t wavx_pack(uint8_t *dst, __m256i a, __m256i b, unsigned groups, __m128i *saved)
{
    unsigned r0 = wide_utf8_group[groups & 0xFF], r1 = wide_utf8_group[groups >> 8 & 0xFF];
    unsigned r2 = wide_utf8_group[groups >> 16 & 0xFF], r3 = wide_utf8_group[groups >> 24];
    /* as 32-bit values: GCC would spill one as 16 bits and reload it as 64, which the
     * store cannot forward (a stall each step) */
    __asm__("" : "+r"(r0), "+r"(r1), "+r"(r2), "+r"(r3));
    size_t n0 = r0 >> 10, n1 = n0 + (r1 >> 10), n2 = n1 + (r2 >> 10), n = n2 + (r3 >> 10);
    __m256i c02 = _mm256_inserti128_si256(_mm256_castsi128_si256(X_LOAD(wide_utf8_shuffle + (r0 & 0x3FF))),
                                          X_LOAD(wide_utf8_shuffle + (r2 & 0x3FF)), 1);
    __m256i c13 = _mm256_inserti128_si256(_mm256_castsi128_si256(X_LOAD(wide_utf8_shuffle + (r1 & 0x3FF))),
                                          X_LOAD(wide_utf8_shuffle + (r3 & 0x3FF)), 1);
    __m256i p02 = _mm256_shuffle_epi8(_mm256_unpacklo_epi16(a, b), c02); /* units 0-3, 8-11 */
    __m256i p13 = _mm256_shuffle_epi8(_mm256_unpackhi_epi16(a, b), c13); /* 4-7, 12-15 */
    *saved = X_LOAD(dst + n);
    X_STORE(dst, _mm256_castsi256_si128(p02));
    X_STORE(dst + n0, _mm256_castsi256_si128(p13));
    X_STORE(dst + n1, _mm256_extracti128_si256(p02, 1));
    X_STORE(dst + n2, _mm256_extracti128_si256(p13, 1));
    return n;
}

/* The constants of the common paths, kept in registers (or on the stack)
 * across the loop: an empty asm hides their values, else GCC builds them
 * anew in each step from an integer register (three instructions each). */
struct wavx_k {
    __m256i ff80, f800, x3f, x80, x3f00, c080, e080, ff00;
};

AVX2_INLINE void wavx_consts(struct wavx_k *k)
{
    k->ff80 = Y_SET16(0xFF80);
    k->f800 = Y_SET16(0xF800);
    k->x3f = Y_SET16(0x3F);
    k->x80 = Y_SET16(0x80);
    k->x3f00 = Y_SET16(0x3F00);
    k->c080 = Y_SET16(0x80C0);
    k->e080 = Y_SET16(0x80E0);
    k->ff00 = Y_SET16(0xFF00);
    __asm__("" : "+x"(k->ff80), "+x"(k->f800), "+x"(k->x3f), "+x"(k->x80));
    __asm__("" : "+x"(k->x3f00), "+x"(k->c080), "+x"(k->e080), "+x"(k->ff00));
}

/* The first two bytes of units' 3-byte forms, of 2-byte forms. */
AVX2_INLINE __m256i wavx_three(__m256i v, const struct wavx_k *k)
{
    return _mm256_or_si256(_mm256_or_si256(_mm256_srli_epi16(v, 12),
                                           _mm256_and_si256(_mm256_slli_epi16(v, 2), k->x3f00)),
                           k->e080);
}

AVX2_INLINE __m256i wavx_two(__m256i v, const struct wavx_k *k)
{
    return _mm256_or_si256(_mm256_or_si256(_mm256_srli_epi16(v, 6),
                                           _mm256_and_si256(_mm256_slli_epi16(v, 8), k->x3f00)),
                           k->c080);
}

/* 16 units below 0x800 (one: the ASCII ones) at dst: two 16-byte halves,
 * each eight units packed by one wide_utf8_two8 row; returns the bytes. */
AVX2_INLINE size_t wavx_short(__m256i v, __m256i one, uint8_t *dst, __m128i *saved,
                              const struct wavx_k *k)
{
    /* bits 0-7: whether units 0-7 are of 2 bytes, bits 16-23: units 8-15 */
    unsigned m = ~(unsigned)_mm256_movemask_epi8(_mm256_packs_epi16(one, one));
    unsigned k0 = m & 0xFF, k1 = m >> 16 & 0xFF;
    size_t n0 = 8 + (size_t)_mm_popcnt_u32(k0), n = n0 + 8 + (size_t)_mm_popcnt_u32(k1);
    __m256i ctrl = _mm256_inserti128_si256(_mm256_castsi128_si256(X_LOAD(wide_utf8_two8[k0])),
                                           X_LOAD(wide_utf8_two8[k1]), 1);
    __m256i p = _mm256_shuffle_epi8(_mm256_blendv_epi8(wavx_two(v, k), v, one), ctrl);
    *saved = X_LOAD(dst + n);
    X_STORE(dst, _mm256_castsi256_si128(p));
    X_STORE(dst + n0, _mm256_extracti128_si256(p, 1));
    return n;
}

/* 16 units of 3-byte forms (CJK) at dst: the same row four times. */
AVX2_INLINE void wavx_threes(__m256i v, __m256i b, uint8_t *dst, __m128i *saved,
                             const struct wavx_k *k)
{
    __m256i ctrl = _mm256_broadcastsi128_si256(X_LOAD(wide_utf8_shuffle + WIDE_UTF8_THREES));
    __m256i a = wavx_three(v, k);
    __m256i p02 = _mm256_shuffle_epi8(_mm256_unpacklo_epi16(a, b), ctrl);
    __m256i p13 = _mm256_shuffle_epi8(_mm256_unpackhi_epi16(a, b), ctrl);
    *saved = X_LOAD(dst + 48);
    X_STORE(dst, _mm256_castsi256_si128(p02));
    X_STORE(dst + 12, _mm256_castsi256_si128(p13));
    X_STORE(dst + 24, _mm256_extracti128_si256(p02, 1));
    X_STORE(dst + 36, _mm256_extracti128_si256(p13, 1));
}

/* The pairs' constants, each loaded by a broadcast (GCC would build each
 * anew every step from an integer register): x86.h's four, then the 6-bit
 * fields of bytes 1-3 and the bytes' fixed bits. */
static const uint32_t wavx_pair_k[] = {KERN_SURROGATE_TOPS,    KERN_SURROGATE_KINDS,
                                       KERN_SURROGATE_FACTORS, KERN_SURROGATE_BIAS,
                                       0x3F00,                 0x3F0000,
                                       0x3F000000,             0x808080F0};
#define WAVX_PAIR_K(n) _mm256_broadcastd_epi32(_mm_loadu_si32(wavx_pair_k + (n)))

/* 16 units that are 8 pairs, each 32-bit lane a high then a low surrogate
 * (emoji text from a pair's start): their 4-byte forms at dst, 32 bytes,
 * no packing. 0 for any other step with a surrogate, nothing written. */
AVX2_INLINE int wavx_pairs(__m256i v, uint8_t *dst, size_t *wrote, __m128i *saved)
{
    __m256i kinds = _mm256_xor_si256(_mm256_and_si256(v, WAVX_PAIR_K(0)), WAVX_PAIR_K(1));
    if (!_mm256_testz_si256(kinds, kinds))
        return 0;
    __m256i c = _mm256_add_epi32(_mm256_madd_epi16(v, WAVX_PAIR_K(2)), WAVX_PAIR_K(3));
    /* bytes 0-3 of each lane: c >> 18, then c >> 12, c >> 6 and c, 6 bits each */
    __m256i b01 = _mm256_or_si256(_mm256_srli_epi32(c, 18),
                                  _mm256_and_si256(_mm256_srli_epi32(c, 4), WAVX_PAIR_K(4)));
    __m256i b23 = _mm256_or_si256(_mm256_and_si256(_mm256_slli_epi32(c, 10), WAVX_PAIR_K(5)),
                                  _mm256_and_si256(_mm256_slli_epi32(c, 24), WAVX_PAIR_K(6)));
    *saved = X_LOAD(dst + 32);
    AVX2_STORE(dst, _mm256_or_si256(_mm256_or_si256(b01, b23), WAVX_PAIR_K(7)));
    *wrote = 32;
    return 1;
}

/* One step of UTF-16 into UTF-8: 16 units without a surrogate or 8 pairs,
 * room for 64 bytes at dst. Returns 1 (*wrote, *saved: the scratch rule),
 * or 0 for another step with a surrogate, nothing written. */
AVX2_INLINE int wavx_step(__m256i v, uint8_t *dst, size_t *wrote, __m128i *saved,
                             const struct wavx_k *k)
{
    if (_mm256_testz_si256(v, k->ff80)) { /* ASCII */
        *saved = X_LOAD(dst + 16);
        X_STORE(dst, _mm_packus_epi16(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1)));
        *wrote = 16;
        return 1;
    }
    __m256i one = _mm256_cmpeq_epi16(_mm256_and_si256(v, k->ff80), _mm256_setzero_si256());
    if (_mm256_testz_si256(v, k->f800)) { /* all below 0x800 */
        *wrote = wavx_short(v, one, dst, saved, k);
        return 1;
    }
    __m256i top5 = _mm256_and_si256(v, k->f800);
    __m256i le2 = _mm256_cmpeq_epi16(top5, _mm256_setzero_si256());
    __m256i sur = _mm256_cmpeq_epi16(top5, Y_SET16(0xD800));
    __m256i b = _mm256_or_si256(_mm256_and_si256(v, k->x3f), k->x80);
    __m256i le2s = _mm256_or_si256(le2, sur);
    if (_mm256_testz_si256(le2s, le2s)) {
        wavx_threes(v, b, dst, saved, k);
        *wrote = 48;
        return 1;
    }
    if (!_mm256_testz_si256(sur, sur)) /* pairs; else the SSE4 kernel */
        return wavx_pairs(v, dst, wrote, saved);
    __m256i a = _mm256_blendv_epi8(_mm256_blendv_epi8(wavx_three(v, k), wavx_two(v, k), le2), v, one);
    /* low bytes: one; high bytes: le2 (one implies le2) */
    unsigned groups = (unsigned)_mm256_movemask_epi8(_mm256_and_si256(le2, _mm256_or_si256(one, k->ff00)));
    *wrote = wavx_pack(dst, a, b, groups, saved);
    return 1;
}

/* 16 code points c0, c1 (in order) as 16 UTF-16 units *v; 0 when one is
 * above U+FFFF or a surrogate. */
AVX2_INLINE int wavx_bmp(__m256i c0, __m256i c1, __m256i *v)
{
    if (!_mm256_testz_si256(_mm256_or_si256(c0, c1), Y_SET32(-65536)))
        return 0;
    *v = _mm256_permute4x64_epi64(_mm256_packus_epi32(c0, c1), 0xD8);
    __m256i sur = _mm256_cmpeq_epi16(_mm256_and_si256(*v, Y_SET16(0xF800)), Y_SET16(0xD800));
    return _mm256_testz_si256(sur, sur);
}

/* UTF-16 (wide = 0) or UTF-32 (wide = 1) of order be into UTF-8, 16 units
 * or code points of the BMP a step, up to the first step that is not all
 * BMP (or to the end, or where 64 bytes of room are not left): returns the
 * bytes read, *written the bytes written, dst past them as it found it. A
 * function of its own, with no call inside, so that its constants stay in
 * registers (a call would clobber them all). */
KERN_AVX2 __attribute__((noinline)) static size_t wavx_run(int wide, int be, const uint8_t *src,
                                                           size_t src_len, uint8_t *dst,
                                                           size_t dst_len, size_t *written)
{
    const __m256i swap = wide ? _mm256_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12,
                                                 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12)
                              : _mm256_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14,
                                                 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14);
    size_t i = 0, w = 0, wrote = 0, step = (size_t)32 << wide;
    __m128i saved = _mm_setzero_si128();
    int dirty = 0;
    struct wavx_k k;
    wavx_consts(&k);
    while (src_len - i >= step && dst_len - w >= 64) {
        __m256i v = AVX2_LOAD(src + i), c1 = v;
        if (be)
            v = _mm256_shuffle_epi8(v, swap);
        if (wide) {
            c1 = AVX2_LOAD(src + i + 32);
            if (be)
                c1 = _mm256_shuffle_epi8(c1, swap);
        }
        if ((wide && !wavx_bmp(v, c1, &v)) || !wavx_step(v, dst + w, &wrote, &saved, &k))
            break;
        i += step;
        w += wrote;
        dirty = 1;
    }
    if (dirty)
        X_STORE(dst + w, saved);
    *written = w;
    return i;
}

/* UTF-16 or UTF-32 into UTF-8: runs of wavx_run; the rest (pairs, code
 * points above U+FFFF, a bad unit) goes to the SSE4 kernel, which stops at
 * a bad unit and keeps its own scratch: 64 bytes a call, twice as many each
 * call after a call up to WIDE_CHUNK_MAX (emoji text runs there, a call's
 * cost spread thin), 64 again after a run here. */
#define WIDE_CHUNK_MAX 4096
KERN_AVX2 static size_t wavx_to_utf8(int wide, int be, const uint8_t *src, size_t src_len,
                                     uint8_t *dst, size_t dst_len, size_t *written)
{
    size_t i = 0, w = 0, wrote = 0, step = (size_t)32 << wide, chunk = 64;
    while (src_len - i >= step && dst_len - w >= 64) {
        size_t r = wavx_run(wide, be, src + i, src_len - i, dst + w, dst_len - w, &wrote);
        i += r;
        w += wrote;
        if (r)
            chunk = 64;
        if (src_len - i < step || dst_len - w < 64)
            break;
        r = (wide ? utfdfa__sse4_utf32_to_utf8 : utfdfa__sse4_utf16_to_utf8)(
            be, src + i, kern_min(src_len - i, chunk), dst + w, dst_len - w, &wrote);
        if (r == 0)
            break;
        i += r;
        w += wrote;
        chunk = kern_min(2 * chunk, WIDE_CHUNK_MAX);
    }
    *written = w;
    return i;
}

size_t utfdfa__avx2_wide_transcode(enum fast_form from, enum fast_form to, const uint8_t *src,
                                   size_t src_len, uint8_t *dst, size_t dst_len,
                                   size_t *written)
{
    if (to != FORM_UTF8 || from == FORM_UTF8) /* between the unit forms: the SSE4 kernels */
        return utfdfa__sse4_wide_transcode(from, to, src, src_len, dst, dst_len, written);
    size_t w, got;
    size_t i = wavx_to_utf8(from >= FORM_UTF32LE, from == FORM_UTF16BE || from == FORM_UTF32BE, src,
                            src_len, dst, dst_len, &w);
    i += utfdfa__scalar_wide_transcode(from, to, src + i, src_len - i, dst + w, dst_len - w, &got);
    *written = w + got;
    return i;
}

#else
typedef int utfdfa__no_wide_avx2_here; /* ISO C wants a declaration in every unit */
#endif
