/* SPDX-License-Identifier: MIT */
/* The NEON kernels (AArch64's ASIMD, baseline there, so no target
 * attribute and no detection): 16 characters a step for ASCII, the
 * de-interleaving loads and interleaving stores (ld2/ld4, st2/st4) taking
 * the place of x86's packs and unpacks; a step that meets anything else
 * hands that step to the scalar kernels, as do the jobs without a NEON
 * kernel yet; UTF-16 into UTF-8 fused, 16 units a step. */
#include "../levels.h"

#if KERN_ARM64
#include <arm_neon.h>

#define WIDE_TABLES_HERE /* the one copy of the tables on AArch64 */
#include "wide.gen.h"
#undef WIDE_TABLES_HERE

/* Loads 16 units of form f at p; if all are ASCII, puts their values in
 * *bytes and returns 1. */
KERN_INLINE int neon_load_ascii16(enum fast_form f, const uint8_t *p, uint8x16_t *bytes)
{
    const uint8x16_t high = vdupq_n_u8(0x80);
    uint8x16_t v, bad;
    switch (f) {
    case FORM_UTF8:
        v = vld1q_u8(p);
        bad = v;
        break;
    case FORM_UTF16LE:
    case FORM_UTF16BE: {
        uint8x16x2_t u = vld2q_u8(p);
        int be = f == FORM_UTF16BE;
        v = u.val[be];
        bad = vorrq_u8(vandq_u8(v, high), u.val[!be]);
        break;
    }
    default: {
        uint8x16x4_t u = vld4q_u8(p);
        int be = f == FORM_UTF32BE;
        v = u.val[be ? 3 : 0];
        bad = vorrq_u8(vorrq_u8(vandq_u8(v, high), u.val[be ? 2 : 1]),
                       vorrq_u8(u.val[be ? 1 : 2], u.val[be ? 0 : 3]));
        break;
    }
    }
    *bytes = v;
    return f == FORM_UTF8 ? vmaxvq_u8(bad) < 0x80 : vmaxvq_u8(bad) == 0;
}

/* Writes the 16 ASCII bytes b as units of form f at p: zips with zero, or
 * tbl (an index out of range gives zero), into fresh registers that the
 * stores take as they are (st2/st4 of b and zeros: GCC copies the zeros
 * beside b at every store, 3-4 more instructions). */
KERN_INLINE void neon_store_ascii16(enum fast_form f, uint8_t *p, uint8x16_t b)
{
#define NEON_LE4(k) k, 255, 255, 255
#define NEON_BE4(k) 255, 255, 255, k
#define NEON_16(X, k) X(k), X(k + 1), X(k + 2), X(k + 3)
#define NEON_64(X) NEON_16(X, 0), NEON_16(X, 4), NEON_16(X, 8), NEON_16(X, 12)
    static const uint8_t spread[2][64] = {{NEON_64(NEON_LE4)}, {NEON_64(NEON_BE4)}};
#undef NEON_64
#undef NEON_16
#undef NEON_BE4
#undef NEON_LE4
    const uint8x16_t z = vdupq_n_u8(0);
    const uint8_t *s = spread[f == FORM_UTF32BE];
    switch (f) {
    case FORM_UTF8: vst1q_u8(p, b); break;
    case FORM_UTF16LE:
        vst1q_u8(p, vzip1q_u8(b, z));
        vst1q_u8(p + 16, vzip2q_u8(b, z));
        break;
    case FORM_UTF16BE:
        vst1q_u8(p, vzip1q_u8(z, b));
        vst1q_u8(p + 16, vzip2q_u8(z, b));
        break;
    case FORM_UTF32LE:
    case FORM_UTF32BE:
        vst1q_u8_x4(p, (uint8x16x4_t){{vqtbl1q_u8(b, vld1q_u8(s)), vqtbl1q_u8(b, vld1q_u8(s + 16)),
                                        vqtbl1q_u8(b, vld1q_u8(s + 32)),
                                        vqtbl1q_u8(b, vld1q_u8(s + 48))}});
        break;
    }
}

/* From UTF-8, 64 units a step (one test of the four vectors' OR: its
 * steps are the cheapest), then 32 units a step (two vectors), then the
 * scalar kernel for the rest. */
KERN_INLINE size_t neon_ascii_body(enum fast_form from, enum fast_form to, const uint8_t *src,
                                   size_t src_len, uint8_t *dst, size_t dst_len)
{
    size_t uf = kern_unit(from), ut = kern_unit(to);
    size_t n = kern_min(src_len / uf, dst_len / ut), i = 0;
    for (; from == FORM_UTF8 && n - i >= 64; i += 64) {
        uint8x16_t v0 = vld1q_u8(src + i), v1 = vld1q_u8(src + i + 16);
        uint8x16_t v2 = vld1q_u8(src + i + 32), v3 = vld1q_u8(src + i + 48);
        if (vmaxvq_u8(vorrq_u8(vorrq_u8(v0, v1), vorrq_u8(v2, v3))) >= 0x80)
            break;
        neon_store_ascii16(to, dst + i * ut, v0);
        neon_store_ascii16(to, dst + (i + 16) * ut, v1);
        neon_store_ascii16(to, dst + (i + 32) * ut, v2);
        neon_store_ascii16(to, dst + (i + 48) * ut, v3);
    }
    for (; n - i >= 32; i += 32) {
        uint8x16_t a, b;
        if (from == FORM_UTF8) {
            a = vld1q_u8(src + i);
            b = vld1q_u8(src + i + 16);
            if (vmaxvq_u8(vorrq_u8(a, b)) >= 0x80)
                break;
        } else if (!neon_load_ascii16(from, src + i * uf, &a) ||
                   !neon_load_ascii16(from, src + (i + 16) * uf, &b)) {
            break;
        }
        neon_store_ascii16(to, dst + i * ut, a);
        neon_store_ascii16(to, dst + (i + 16) * ut, b);
    }
    return i + utfdfa__scalar_ascii_copy(from, to, src + i * uf, (n - i) * uf, dst + i * ut,
                                         (n - i) * ut);
}

static size_t neon_ascii_copy(enum fast_form from, enum fast_form to, const uint8_t *src,
                              size_t src_len, uint8_t *dst, size_t dst_len)
{
    switch (KERN_PAIR(from, to)) {
#define NEON_ASCII_CASE(F, T) \
    case KERN_PAIR(F, T): return neon_ascii_body(F, T, src, src_len, dst, dst_len);
        KERN_EACH_PAIR(NEON_ASCII_CASE)
#undef NEON_ASCII_CASE
    }
    return 0;
}

/* Eight UTF-16 units of `from` at p, in host (little-endian) order. */
KERN_INLINE uint16x8_t neon_load_utf16(enum fast_form from, const uint8_t *p)
{
    uint8x16_t b = vld1q_u8(p);
    return vreinterpretq_u16_u8(from == FORM_UTF16BE ? vrev16q_u8(b) : b);
}

/* A step of the UTF-8 writers below: 16 units (a: the first 8, b: the
 * rest) below 0xD800 or above 0xDFFF, their UTF-8 at dst. Those that pack
 * store up to 16 bytes of scratch past the end and first save the 16 bytes
 * there in *saved (the scratch rule of src/fast/x86/wide_sse4.h: a step
 * writes at least 16 bytes, so nothing has touched them); those whose
 * stores are exact save the 16 bytes after them. Each returns the bytes. */

/* The low bytes of 16 units. */
KERN_INLINE uint8x16_t neon_low_bytes(uint16x8_t a, uint16x8_t b)
{
    return vuzp1q_u8(vreinterpretq_u8_u16(a), vreinterpretq_u8_u16(b));
}

/* 0xFF for each of 16 units at or above `at`, else 0: a byte a unit. */
KERN_INLINE uint8x16_t neon_at_least(uint16x8_t a, uint16x8_t b, uint16_t at)
{
    return neon_low_bytes(vcgeq_u16(a, vdupq_n_u16(at)), vcgeq_u16(b, vdupq_n_u16(at)));
}

/* Whether a byte of m is not 0 (a test of 32-bit lanes, which needs no
 * zero extension). */
KERN_INLINE int neon_any(uint8x16_t m)
{
    return vmaxvq_u32(vreinterpretq_u32_u8(m)) != 0;
}

KERN_INLINE size_t neon_utf8_ascii(uint16x8_t a, uint16x8_t b, uint8_t *dst, uint8x16_t *saved)
{
    vst1q_u8(dst, neon_low_bytes(a, b));
    *saved = vld1q_u8(dst + 16);
    return 16;
}

/* 8 units u below 0x800 packed (wide_utf8_two8) from lanes that hold an
 * ASCII unit's byte or a 2-byte form's two; *len: the bytes (8-16). */
KERN_INLINE uint8x16_t neon_twos8(uint16x8_t u, size_t *len)
{
    static const uint16_t bit[8] = {1, 2, 4, 8, 16, 32, 64, 128};
    /* the lead byte's bits low, the last byte's high, then their marks */
    uint16x8_t bits = vsliq_n_u16(vshrq_n_u16(u, 6), u, 8);
    uint16x8_t two = vbslq_u16(vdupq_n_u16(0xC0C0), vdupq_n_u16(0x80C0), bits);
    uint16x8_t multi = vcgeq_u16(u, vdupq_n_u16(0x80));
    unsigned m = vaddvq_u16(vandq_u16(multi, vld1q_u16(bit)));
    *len = wide_utf8_two8_len[m];
    return vqtbl1q_u8(vreinterpretq_u8_u16(vbslq_u16(multi, two, u)), vld1q_u8(wide_utf8_two8[m]));
}

/* 16 units below 0x800, some not ASCII. */
KERN_INLINE size_t neon_utf8_twos(uint16x8_t a, uint16x8_t b, uint8_t *dst, uint8x16_t *saved)
{
    size_t na, nb;
    uint8x16_t pa = neon_twos8(a, &na), pb = neon_twos8(b, &nb);
    *saved = vld1q_u8(dst + na + nb);
    vst1q_u8(dst, pa);
    vst1q_u8(dst + na, pb);
    return na + nb;
}

/* Which units the planes hold: all 3-byte forms, 1- and 3-byte, any. */
enum neon_mix { MIX_THREES, MIX_THIRDS, MIX_ANY };

/* The planes of 16 units: each unit's lead byte (an ASCII unit's own), its
 * middle byte (a 3-byte form's) and its last one; multi, three: 0xFF where
 * a unit is at or above 0x80, 0x800. */
struct neon_planes {
    uint8x16_t lead, mid, last;
};

KERN_INLINE struct neon_planes neon_planes(uint16x8_t a, uint16x8_t b, uint8x16_t multi,
                                           uint8x16_t three, enum neon_mix mix)
{
    const uint8x16_t marks = vdupq_n_u8(0xC0), cont = vdupq_n_u8(0x80);
    uint8x16_t low = neon_low_bytes(a, b);
    uint8x16_t mid = vshrn_high_n_u16(vshrn_n_u16(a, 6), b, 6); /* bits 6-13 */
    uint8x16_t high = vuzp2q_u8(vreinterpretq_u8_u16(a), vreinterpretq_u8_u16(b));
    uint8x16_t lead = vorrq_u8(vshrq_n_u8(high, 4), vdupq_n_u8(0xE0));
    if (mix == MIX_ANY) /* a 2-byte form's lead: bits 6-10 */
        lead = vbslq_u8(three, lead, vorrq_u8(mid, marks));
    if (mix != MIX_THREES)
        lead = vbslq_u8(multi, lead, low);
    struct neon_planes p = {lead, vbslq_u8(marks, cont, mid), vbslq_u8(marks, cont, low)};
    return p;
}

KERN_INLINE uint8x16_t neon_zip64(uint8x16_t x, uint8x16_t y, int second)
{
    uint64x2_t p = vreinterpretq_u64_u8(x), q = vreinterpretq_u64_u8(y);
    return vreinterpretq_u8_u64(second ? vzip2q_u64(p, q) : vzip1q_u64(p, q));
}

KERN_INLINE uint8x16_t neon_zip32(uint8x16_t x, uint8x16_t y, int second)
{
    uint32x4_t p = vreinterpretq_u32_u8(x), q = vreinterpretq_u32_u8(y);
    return vreinterpretq_u8_u32(second ? vzip2q_u32(p, q) : vzip1q_u32(p, q));
}

/* 16 3-byte forms. */
KERN_INLINE size_t neon_utf8_threes(uint16x8_t a, uint16x8_t b, uint8_t *dst, uint8x16_t *saved)
{
    struct neon_planes p = neon_planes(a, b, vdupq_n_u8(0), vdupq_n_u8(0), MIX_THREES);
    vst3q_u8(dst, (uint8x16x3_t){{p.lead, p.mid, p.last}});
    *saved = vld1q_u8(dst + 48);
    return 48;
}

/* 8 units of 1 or 3 bytes at dst, by the row r of wide_utf8_thirds, from
 * their lead and middle bytes (lm) and last ones (last, bytes 0-7). */
KERN_INLINE void neon_thirds8(const uint8_t *r, uint8x16_t lm, uint8x16_t last, uint8_t *dst)
{
    vst1q_u8(dst, vqtbx1q_u8(vqtbl1q_u8(lm, vld1q_u8(r)), last, vld1q_u8(r + 16)));
    vst1_u8(dst + 16, vqtbx1_u8(vqtbl1_u8(lm, vld1_u8(r + 32)), last, vld1_u8(r + 40)));
}

/* 16 units of 1- and 3-byte forms (multi: the 3-byte ones), 8 a table
 * row (24 bytes at most). */
KERN_INLINE size_t neon_utf8_thirds(uint16x8_t a, uint16x8_t b, uint8x16_t multi, uint8_t *dst,
                                    uint8x16_t *saved)
{
    static const uint8_t bit[16] = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
    struct neon_planes p = neon_planes(a, b, multi, multi, MIX_THIRDS);
    uint8x16_t bits = vandq_u8(multi, vld1q_u8(bit));
    unsigned m0 = vaddv_u8(vget_low_u8(bits)), m1 = vaddv_u8(vget_high_u8(bits));
    size_t n0 = wide_utf8_thirds_len[m0], n = n0 + wide_utf8_thirds_len[m1];
    *saved = vld1q_u8(dst + n);
    neon_thirds8(wide_utf8_thirds[m0], neon_zip64(p.lead, p.mid, 0), p.last, dst);
    neon_thirds8(wide_utf8_thirds[m1], neon_zip64(p.lead, p.mid, 1),
                 neon_zip64(p.last, p.last, 1), dst + n0);
    return n;
}

/* 16 units of 1-3 bytes, 4 a table row (wide_utf8_quads, by the units'
 * lengths: sum (len_k - 1) * 3^k), each from a register of theirs: the
 * planes' 32-bit groups, transposed. */
KERN_INLINE size_t neon_utf8_any(uint16x8_t a, uint16x8_t b, uint8x16_t multi, uint8x16_t three,
                                 uint8_t *dst, uint8x16_t *saved)
{
    /* -3^k (mod 256): multi + three is 1 - len (mod 256) */
    static const uint8_t minus3k[16] = {255, 253, 247, 229, 255, 253, 247, 229,
                                        255, 253, 247, 229, 255, 253, 247, 229};
    struct neon_planes p = neon_planes(a, b, multi, three, MIX_ANY);
    uint8x16_t lm0 = neon_zip32(p.lead, p.mid, 0), lm1 = neon_zip32(p.lead, p.mid, 1);
    uint8x16_t ll0 = neon_zip32(p.last, p.last, 0), ll1 = neon_zip32(p.last, p.last, 1);
    uint8x16_t quad[4] = {neon_zip64(lm0, ll0, 0), neon_zip64(lm0, ll0, 1),
                          neon_zip64(lm1, ll1, 0), neon_zip64(lm1, ll1, 1)};
    uint8x16_t digits = vmulq_u8(vaddq_u8(multi, three), vld1q_u8(minus3k));
    uint8x16_t sums = vpaddq_u8(digits, digits);
    uint32_t rows = vgetq_lane_u32(vreinterpretq_u32_u8(vpaddq_u8(sums, sums)), 0);
    size_t at[5] = {0};
    for (unsigned q = 0; q < 4; q++)
        at[q + 1] = at[q] + wide_utf8_quads_len[rows >> (8 * q) & 0xFF];
    *saved = vld1q_u8(dst + at[4]);
    for (unsigned q = 0; q < 4; q++)
        vst1q_u8(dst + at[q], vqtbl1q_u8(quad[q], vld1q_u8(wide_utf8_quads[rows >> (8 * q) & 0xFF])));
    return at[4];
}

/* 16 units of the BMP, some at or above 0x800. */
KERN_INLINE size_t neon_utf8_bmp(uint16x8_t a, uint16x8_t b, uint8_t *dst, uint8x16_t *saved)
{
    uint8x16_t multi = neon_at_least(a, b, 0x80), three = neon_at_least(a, b, 0x800);
    if (neon_any(vbicq_u8(multi, three)))
        return neon_utf8_any(a, b, multi, three, dst, saved);
    if (vminvq_u8(three))
        return neon_utf8_threes(a, b, dst, saved);
    return neon_utf8_thirds(a, b, multi, dst, saved);
}

/* 0xFF for each of 16 units whose high byte masked by `mask` is `is`. */
KERN_INLINE uint8x16_t neon_high_is(uint16x8_t a, uint16x8_t b, uint8_t mask, uint8_t is)
{
    uint8x16_t high = vuzp2q_u8(vreinterpretq_u8_u16(a), vreinterpretq_u8_u16(b));
    return vceqq_u8(vandq_u8(high, vdupq_n_u8(mask)), vdupq_n_u8(is));
}

/* The units before the first high surrogate of 16 (16 if none). */
KERN_INLINE size_t neon_before_high(uint16x8_t a, uint16x8_t b)
{
    uint8x16_t high = neon_high_is(a, b, 0xFC, 0xD8);
    uint64_t bits = vget_lane_u64(vreinterpret_u64_u8(vshrn_n_u16(vreinterpretq_u16_u8(high), 4)), 0);
    return bits ? (size_t)__builtin_ctzll(bits) / 4 : 16;
}

/* If the 8 units u are 4 surrogate pairs (each 32-bit lane a high then a
 * low one), writes their UTF-8, 16 bytes, at dst and returns 1. */
KERN_INLINE int neon_utf8_pairs(uint16x8_t u, uint8_t *dst)
{
    uint32x4_t p = vreinterpretq_u32_u16(u);
    uint32x4_t paired = vceqq_u32(vandq_u32(p, vdupq_n_u32(0xFC00FC00)), vdupq_n_u32(0xDC00D800));
    if (vminvq_u32(paired) == 0)
        return 0;
    uint32x4_t c = vaddq_u32(vorrq_u32(vshlq_n_u32(vandq_u32(p, vdupq_n_u32(0x3FF)), 10),
                                       vandq_u32(vshrq_n_u32(p, 16), vdupq_n_u32(0x3FF))),
                             vdupq_n_u32(0x10000));
    uint32x4_t bytes =
        vorrq_u32(vorrq_u32(vshrq_n_u32(c, 18), vandq_u32(vshrq_n_u32(c, 4), vdupq_n_u32(0x3F00))),
                  vorrq_u32(vandq_u32(vshlq_n_u32(c, 10), vdupq_n_u32(0x3F0000)),
                            vandq_u32(vshlq_n_u32(c, 24), vdupq_n_u32(0x3F000000))));
    vst1q_u8(dst, vreinterpretq_u8_u32(vorrq_u32(bytes, vdupq_n_u32(0x808080F0))));
    return 1;
}

/* 16 units with a surrogate: the pairs of a (8 units), then of b, or 0. */
KERN_INLINE size_t neon_utf8_pairs16(uint16x8_t a, uint16x8_t b, uint8_t *dst, uint8x16_t *saved)
{
    if (!neon_utf8_pairs(a, dst))
        return 0;
    size_t n = neon_utf8_pairs(b, dst + 16) ? 32 : 16;
    *saved = vld1q_u8(dst + n);
    return n;
}

/* Steps of 16 units from src + *i while *i < lim (room for each, both
 * sides; lim - *i a multiple of 32). Returns 0 when it stopped at a step
 * with a surrogate that is not in pairs the steps take, 1 when the next
 * step may be a step again. The bytes after the output are as they were. */
KERN_INLINE int neon_utf8_steps(enum fast_form from, const uint8_t *src, size_t lim, uint8_t *dst,
                                size_t *i, size_t *w)
{
    size_t r = *i, o = *w;
    uint8x16_t saved = vld1q_u8(dst + o);
    int more = 1;
    while (r < lim) {
        uint16x8_t a = neon_load_utf16(from, src + r), b = neon_load_utf16(from, src + r + 16);
        uint16_t top = vmaxvq_u16(vmaxq_u16(a, b));
        size_t n;
        if (top < 0x80) {
            n = neon_utf8_ascii(a, b, dst + o, &saved);
        } else if (top < 0x800) {
            n = neon_utf8_twos(a, b, dst + o, &saved);
        } else if (top < 0xD800 || !neon_any(neon_high_is(a, b, 0xF8, 0xD8))) {
            n = neon_utf8_bmp(a, b, dst + o, &saved);
        } else {
            n = neon_utf8_pairs16(a, b, dst + o, &saved);
            if (n < 32) { /* pairs units = bytes of UTF-8 */
                r += n, o += n, more = n != 0;
                break;
            }
        }
        r += 32, o += n;
    }
    vst1q_u8(dst + o, saved);
    *i = r, *w = o;
    return more;
}

/* UTF-16 into UTF-8, 16 units a step (neon_utf8_steps) in runs that the
 * room left on both sides lets go unchecked (a step reads 32 bytes,
 * writes at most 48 and touches at most 64); a step with a surrogate
 * that is not in pairs, and what is left at the end, by the scalar kernel
 * (which stops where a character does not fit, or before a lone
 * surrogate). */
KERN_INLINE size_t neon_utf16_utf8_body(enum fast_form from, const uint8_t *src, size_t src_len,
                                        uint8_t *dst, size_t dst_len, size_t *written)
{
    size_t i = 0, w = 0;
    while (src_len - i >= 32 && dst_len - w >= 64) {
        size_t lim = i + 32 * kern_min((src_len - i) / 32, (dst_len - w - 64) / 48 + 1);
        if (neon_utf8_steps(from, src, lim, dst, &i, &w))
            continue;
        /* the scalar kernel up to the step's first high surrogate (a
         * character before a run of pairs), or over the next 128 units
         * and one more (a pair across the window's end is whole):
         * supplementary characters come in runs */
        size_t lead = neon_before_high(neon_load_utf16(from, src + i),
                                       neon_load_utf16(from, src + i + 16)),
               win = kern_min(src_len - i, lead ? 2 * lead : 258), got,
               k = utfdfa__scalar_wide_transcode(from, FORM_UTF8, src + i, win, dst + w,
                                                 dst_len - w, &got);
        if (k == 0)
            break;
        i += k, w += got;
    }
    size_t got, k = utfdfa__scalar_wide_transcode(from, FORM_UTF8, src + i, src_len - i, dst + w,
                                                  dst_len - w, &got);
    *written = w + got;
    return i + k;
}

static size_t neon_wide_transcode(enum fast_form from, enum fast_form to, const uint8_t *src,
                                  size_t src_len, uint8_t *dst, size_t dst_len, size_t *written)
{
    if (to == FORM_UTF8 && from == FORM_UTF16LE)
        return neon_utf16_utf8_body(FORM_UTF16LE, src, src_len, dst, dst_len, written);
    if (to == FORM_UTF8 && from == FORM_UTF16BE)
        return neon_utf16_utf8_body(FORM_UTF16BE, src, src_len, dst, dst_len, written);
    return utfdfa__scalar_wide_transcode(from, to, src, src_len, dst, dst_len, written);
}

/* The pairs neon_wide_transcode has a kernel of its own for. */
#define NEON_WIDE_PAIRS ((1u << KERN_PAIR(FORM_UTF16LE, FORM_UTF8)) | \
                         (1u << KERN_PAIR(FORM_UTF16BE, FORM_UTF8)))

const struct fast_kernels utfdfa__fast_neon = {
    "neon", neon_ascii_copy, utfdfa__scalar_utf16_to_cp, utfdfa__scalar_utf32_to_cp,
    utfdfa__scalar_cp_to_form, neon_wide_transcode, NEON_WIDE_PAIRS, utfdfa__scalar_utf7_b64,
    utfdfa__scalar_utf7_text, utfdfa__neon_count,
};
#else
typedef int utfdfa__fast_neon_none; /* not AArch64: nothing here (a unit must declare something) */
#endif
