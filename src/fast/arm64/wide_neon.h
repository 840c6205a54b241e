/* SPDX-License-Identifier: MIT */
/* The steps of the NEON level's fused kernels (wide_neon.c; also
 * tests/bench/mca_neon.c's loops for llvm-mca): into UTF-8, 16 UTF-16
 * units (the step's widest form picks the packing: wide.gen.h's rows and
 * tbl) or 16 code points of UTF-32 (the BMP narrowed into the UTF-16
 * steps, or 4-byte forms); between UTF-16 and UTF-32 (nu_), 16 units
 * widened (st2 with zeros into UTF-32LE, zips otherwise) or narrowed (ld2's
 * low halves), pairs joined or
 * split in the vector, exactly (no scratch). wide.gen.h's tables are
 * defined where WIDE_TABLES_HERE is. */
#ifndef UTFDFA_FAST_ARM64_WIDE_NEON_H
#define UTFDFA_FAST_ARM64_WIDE_NEON_H

#include "../levels.h"

#if KERN_ARM64
#include <arm_neon.h>

#include "wide.gen.h"

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
    const uint8x16x3_t planes = {{p.lead, p.mid, p.last}}; /* named: clang's vst3q_u8 is a macro */
    vst3q_u8(dst, planes);
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

/* The 4-byte forms of 4 code points above U+FFFF, in memory order. */
KERN_INLINE uint8x16_t neon_utf8_four(uint32x4_t c)
{
    uint32x4_t bytes =
        vorrq_u32(vorrq_u32(vshrq_n_u32(c, 18), vandq_u32(vshrq_n_u32(c, 4), vdupq_n_u32(0x3F00))),
                  vorrq_u32(vandq_u32(vshlq_n_u32(c, 10), vdupq_n_u32(0x3F0000)),
                            vandq_u32(vshlq_n_u32(c, 24), vdupq_n_u32(0x3F000000))));
    return vreinterpretq_u8_u32(vorrq_u32(bytes, vdupq_n_u32(0x808080F0)));
}

/* If the 8 units u are 4 surrogate pairs (each 32-bit lane a high then a
 * low one), their code points in *c, and 1. */
KERN_INLINE int neon_pair_points(uint16x8_t u, uint32x4_t *c)
{
    uint32x4_t p = vreinterpretq_u32_u16(u);
    uint32x4_t paired = vceqq_u32(vandq_u32(p, vdupq_n_u32(0xFC00FC00)), vdupq_n_u32(0xDC00D800));
    if (vminvq_u32(paired) == 0)
        return 0;
    *c = vaddq_u32(vorrq_u32(vshlq_n_u32(vandq_u32(p, vdupq_n_u32(0x3FF)), 10),
                             vandq_u32(vshrq_n_u32(p, 16), vdupq_n_u32(0x3FF))),
                   vdupq_n_u32(0x10000));
    return 1;
}

/* If the 8 units u are 4 surrogate pairs (each 32-bit lane a high then a
 * low one), writes their UTF-8, 16 bytes, at dst and returns 1. */
KERN_INLINE int neon_utf8_pairs(uint16x8_t u, uint8_t *dst)
{
    uint32x4_t c;
    if (!neon_pair_points(u, &c))
        return 0;
    vst1q_u8(dst, neon_utf8_four(c));
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

/* 16 units of the BMP, no surrogate (top: the largest), by their widest
 * form. */
KERN_INLINE size_t neon_utf8_step(uint16x8_t a, uint16x8_t b, uint16_t top, uint8_t *dst,
                                  uint8x16_t *saved)
{
    if (top < 0x80)
        return neon_utf8_ascii(a, b, dst, saved);
    if (top < 0x800)
        return neon_utf8_twos(a, b, dst, saved);
    return neon_utf8_bmp(a, b, dst, saved);
}

/* 16 code points of `from` at p: their low halves (lo: the first 8, then
 * the rest) and high ones (ld2 of 16-bit lanes parts them). */
KERN_INLINE void neon_load_utf32(enum fast_form from, const uint8_t *p, uint16x8_t lo[2],
                                 uint16x8_t hi[2])
{
    for (int k = 0; k < 2; k++) {
        uint16x8x2_t u = vld2q_u16((const uint16_t *)(const void *)(p + 32 * k));
        if (from == FORM_UTF32BE) {
            lo[k] = vreinterpretq_u16_u8(vrev16q_u8(vreinterpretq_u8_u16(u.val[1])));
            hi[k] = vreinterpretq_u16_u8(vrev16q_u8(vreinterpretq_u8_u16(u.val[0])));
        } else {
            lo[k] = u.val[0], hi[k] = u.val[1];
        }
    }
}

/* One step of UTF-32 into UTF-8: 16 code points at p, all of the BMP (the
 * UTF-16 steps') or all above it (4 bytes each); 0, nothing written, for
 * a surrogate, a value above 0x10FFFF or a mix of the two (the scalar
 * kernel's). The scratch rule of neon_utf8_steps. */
KERN_INLINE size_t neon_utf32_utf8_step(enum fast_form from, const uint8_t *p, uint8_t *dst,
                                        uint8x16_t *saved)
{
    uint16x8_t lo[2], hi[2];
    neon_load_utf32(from, p, lo, hi);
    uint16x8_t hmax = vmaxq_u16(hi[0], hi[1]);
    if (vmaxvq_u16(hmax) == 0) {
        uint16_t top = vmaxvq_u16(vmaxq_u16(lo[0], lo[1]));
        if (top >= 0xD800 && neon_any(neon_high_is(lo[0], lo[1], 0xF8, 0xD8)))
            return 0;
        return neon_utf8_step(lo[0], lo[1], top, dst, saved);
    }
    if (vminvq_u16(vminq_u16(hi[0], hi[1])) == 0 || vmaxvq_u16(hmax) > 0x10)
        return 0;
    *saved = vld1q_u8(dst + 64);
    for (int k = 0; k < 4; k++) {
        uint8x16_t c = vld1q_u8(p + 16 * k);
        if (from == FORM_UTF32BE)
            c = vrev32q_u8(c);
        vst1q_u8(dst + 16 * k, neon_utf8_four(vreinterpretq_u32_u8(c)));
    }
    return 64;
}

/* Eight host-order UTF-16 units as `to` at p. */
KERN_INLINE void nu_store16(enum fast_form to, uint8_t *p, uint16x8_t u)
{
    uint8x16_t b = vreinterpretq_u8_u16(u);
    vst1q_u8(p, to == FORM_UTF16BE ? vrev16q_u8(b) : b);
}

/* Four host-order code points as `to` at p. */
KERN_INLINE void nu_store32(enum fast_form to, uint8_t *p, uint32x4_t c)
{
    uint8x16_t b = vreinterpretq_u8_u32(c);
    vst1q_u8(p, to == FORM_UTF32BE ? vrev32q_u8(b) : b);
}

/* Four code points of `from` at p, in host order. */
KERN_INLINE uint32x4_t nu_load32(enum fast_form from, const uint8_t *p)
{
    uint8x16_t b = vld1q_u8(p);
    return vreinterpretq_u32_u8(from == FORM_UTF32BE ? vrev32q_u8(b) : b);
}

/* Whether any of the 16 units a, b is a surrogate. */
KERN_INLINE int nu_any_surrogate(uint16x8_t a, uint16x8_t b)
{
    uint16x8_t f8 = vdupq_n_u16(0xF800), d8 = vdupq_n_u16(0xD800);
    uint16x8_t s = vorrq_u16(vceqq_u16(vandq_u16(a, f8), d8), vceqq_u16(vandq_u16(b, f8), d8));
    return vmaxvq_u16(s) != 0;
}

/* 16 units (a, b) of the BMP as code points of `to` at dst (zips with
 * zero). */
KERN_INLINE void nu_widen16(enum fast_form to, uint8_t *dst, uint16x8_t a, uint16x8_t b)
{
    if (to == FORM_UTF32LE) {
        /* st2 of 16-bit lanes, each unit and a zero: one store for 8
         * units instead of two zips and two stores; in asm with bound
         * registers, as ascii.h's widening (the intrinsic makes GCC copy
         * the zeros at every store) */
        register uint16x8_t ua __asm__("v16") = a, za __asm__("v17") = vdupq_n_u16(0);
        register uint16x8_t ub __asm__("v18") = b, zb __asm__("v19") = za;
        __asm__("st2 {%2.8h, %3.8h}, [%0], #32\n\t"
                "st2 {%4.8h, %5.8h}, [%0], #32"
                : "+r"(dst), "=m"(*(uint8_t(*)[64])(void *)dst)
                : "w"(ua), "w"(za), "w"(ub), "w"(zb));
        return;
    }
    const uint16x8_t z = vdupq_n_u16(0);
    nu_store32(to, dst, vreinterpretq_u32_u16(vzip1q_u16(a, z)));
    nu_store32(to, dst + 16, vreinterpretq_u32_u16(vzip2q_u16(a, z)));
    nu_store32(to, dst + 32, vreinterpretq_u32_u16(vzip1q_u16(b, z)));
    nu_store32(to, dst + 48, vreinterpretq_u32_u16(vzip2q_u16(b, z)));
}

/* One step of UTF-16 into UTF-32: 16 units at src (32 bytes), 64 bytes
 * of room at dst. Returns the bytes read (0: the scalar kernel's); *w the
 * bytes written. */
KERN_INLINE size_t nu_step_16_32(enum fast_form from, enum fast_form to, const uint8_t *src,
                                 uint8_t *dst, size_t *w)
{
    uint16x8_t a = neon_load_utf16(from, src), b = neon_load_utf16(from, src + 16);
    if (!nu_any_surrogate(a, b)) {
        nu_widen16(to, dst, a, b);
        *w = 64;
        return 32;
    }
    uint32x4_t ca, cb;
    if (!neon_pair_points(a, &ca) || !neon_pair_points(b, &cb))
        return 0;
    nu_store32(to, dst, ca);
    nu_store32(to, dst + 16, cb);
    *w = 32;
    return 32;
}

/* One step of UTF-32 into UTF-16: 16 code points at src (64 bytes), 64
 * bytes of room at dst, all of the BMP and no surrogate (narrowed) or all
 * above it and at most 0x10FFFF (pairs). Returns the bytes read (0: the
 * scalar kernel's); *w the bytes written. */
KERN_INLINE size_t nu_step_32_16(enum fast_form from, enum fast_form to, const uint8_t *src,
                                 uint8_t *dst, size_t *w)
{
    uint16x8_t lo[2], hi[2];
    neon_load_utf32(from, src, lo, hi);
    uint16x8_t hmax = vmaxq_u16(hi[0], hi[1]);
    if (vmaxvq_u16(hmax) == 0) {
        if (nu_any_surrogate(lo[0], lo[1]))
            return 0;
        nu_store16(to, dst, lo[0]);
        nu_store16(to, dst + 16, lo[1]);
        *w = 32;
        return 64;
    }
    if (vminvq_u16(vminq_u16(hi[0], hi[1])) == 0 || vmaxvq_u16(hmax) > 0x10)
        return 0;
    for (int k = 0; k < 4; k++) {
        /* c - 0x10000: the high unit D800 + bits 10-19, the low DC00 + bits 0-9 */
        uint32x4_t c = vsubq_u32(nu_load32(from, src + 16 * k), vdupq_n_u32(0x10000));
        uint32x4_t units = vorrq_u32(vorrq_u32(vshrq_n_u32(c, 10), vdupq_n_u32(0xDC00D800)),
                                     vshlq_n_u32(vandq_u32(c, vdupq_n_u32(0x3FF)), 16));
        nu_store16(to, dst + 16 * k, vreinterpretq_u16_u32(units));
    }
    *w = 64;
    return 64;
}

#endif /* KERN_ARM64 */
#endif /* UTFDFA_FAST_ARM64_WIDE_NEON_H */
