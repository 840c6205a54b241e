/* SPDX-License-Identifier: MIT */
/* The NEON UTF-7 kernels (kernels.h): the steps of 16 characters that
 * ../utf7_loop.h's kernels are written over, with tbl for pshufb (an index
 * out of range gives zero, as pshufb's -1 does), shifts for the
 * multiply-adds that pack four digits into 24 bits (the same layout,
 * ../utf7_layout.h) and a movemask of pairwise adds (NEON has none) in
 * x86's bit order, so that the window logic on the masks is one. */
#include "../levels.h"

#if KERN_ARM64
#include <arm_neon.h>

#include "encodings.gen.h"
#include "../utf7_layout.h"

#define U7_VEC uint8x16_t
#define U7_UNITS uint16x8_t
#define U7_STEP KERN_INLINE
/* Off the common path: out of line, so that the window loop keeps its registers. */
#define U7_RARE __attribute__((noinline)) static
#define U7_KERN
#define U7_B64 utfdfa__neon_utf7_b64
#define U7_TEXT utfdfa__neon_utf7_text

static const uint8_t neon_u7_iota[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};

struct u7_isa {
    uint8x16_t direct, b64, roll, fix, high_bits, order;
    int imap; /* the tables' form: IMAP's UTF-7 */
};

U7_STEP struct u7_isa u7_tables(int imap)
{
    static const uint8_t high_bits[16] = {U7_HIGH_BITS}, order[16] = {U7_UNIT_ORDER};
    const uint8_t(*t)[16] = utfdfa__utf7_simd[imap != 0];
    struct u7_isa s;
    s.direct = vld1q_u8(t[UTF7_SIMD_DIRECT]);
    s.b64 = vld1q_u8(t[UTF7_SIMD_B64]);
    s.roll = vld1q_u8(t[UTF7_SIMD_ROLL]);
    s.fix = vld1q_u8(t[UTF7_SIMD_FIX]);
    s.high_bits = vld1q_u8(high_bits);
    s.order = vld1q_u8(order);
    s.imap = imap;
    return s;
}

U7_STEP uint8x16_t u7_load(const uint8_t *p)
{
    return vld1q_u8(p);
}

U7_STEP uint8x16_t u7_high(const struct u7_isa *s, uint8x16_t v)
{
    (void)s;
    return vshrq_n_u8(v, 4);
}

/* x86's movemask of a vector of 0 and 0xFF bytes: bit k for byte k. */
U7_STEP unsigned u7_bits(uint8x16_t m)
{
    static const uint8_t weights[16] = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
    uint8x16_t b = vandq_u8(m, vld1q_u8(weights));
    b = vpaddq_u8(b, b);
    b = vpaddq_u8(b, b);
    b = vpaddq_u8(b, b);
    return vgetq_lane_u16(vreinterpretq_u16_u8(b), 0);
}

U7_STEP int u7_any(uint8x16_t m)
{
    return vmaxvq_u8(m) != 0;
}

U7_STEP uint8x16_t u7_or(uint8x16_t a, uint8x16_t b)
{
    return vorrq_u8(a, b);
}

U7_STEP unsigned u7_eq_bits(uint8x16_t v, uint8_t c)
{
    return u7_bits(vceqq_u8(v, vdupq_n_u8(c)));
}

U7_STEP uint8x16_t u7_outside(const struct u7_isa *s, uint8x16_t v, uint8x16_t hi, uint8x16_t set)
{
    uint8x16_t lo = vandq_u8(v, vdupq_n_u8(0x0F));
    return vceqzq_u8(vandq_u8(vqtbl1q_u8(set, lo), vqtbl1q_u8(s->high_bits, hi)));
}

U7_STEP uint8x16_t u7_values(const struct u7_isa *s, uint8x16_t v, uint8x16_t hi)
{
    uint8x16_t idx = vaddq_u8(hi, vceqq_u8(v, s->fix));
    return vaddq_u8(v, vqtbl1q_u8(s->roll, idx));
}

/* Two digits to 12 bits (first << 6 | second), two of those to 24, then
 * the layout's order. */
U7_STEP uint16x8_t u7_units(const struct u7_isa *s, uint8x16_t val)
{
    uint16x8_t p = vreinterpretq_u16_u8(val);
    uint32x4_t q = vreinterpretq_u32_u16(vsraq_n_u16(vshrq_n_u16(p, 8), vshlq_n_u16(p, 8), 2));
    uint32x4_t bits = vsraq_n_u32(vshrq_n_u32(q, 16), vshlq_n_u32(q, 16), 4);
    return vreinterpretq_u16_u8(vqtbl1q_u8(vreinterpretq_u8_u32(bits), s->order));
}

U7_STEP uint8x16_t u7_printing(uint16x8_t u) /* 0x20-0x7E: u - 0x20 at most 0x5E */
{
    return vreinterpretq_u8_u16(vcleq_u16(vsubq_u16(u, vdupq_n_u16(0x20)), vdupq_n_u16(0x7E - 0x20)));
}

U7_STEP unsigned u7_top_bits(uint16x8_t u, uint16_t mask, uint16_t top)
{
    return u7_bits(vreinterpretq_u8_u16(vceqq_u16(vandq_u16(u, vdupq_n_u16(mask)), vdupq_n_u16(top))));
}

U7_STEP unsigned u7_zero_bits(uint16x8_t u)
{
    return u7_bits(vreinterpretq_u8_u16(vceqzq_u16(u)));
}

U7_STEP uint8x16_t u7_from(uint8x16_t v, unsigned at)
{
    return vqtbl1q_u8(v, vaddq_u8(vld1q_u8(neon_u7_iota), vdupq_n_u8((uint8_t)at)));
}

U7_STEP uint8x16_t u7_first(uint8x16_t v, unsigned len)
{
    return vandq_u8(v, vcgtq_u8(vdupq_n_u8((uint8_t)len), vld1q_u8(neon_u7_iota)));
}

U7_STEP void u7_put_units(uint8_t *dst, unsigned width, uint16x8_t u)
{
    if (width == 4) {
        vst1q_u8(dst, vreinterpretq_u8_u32(vmovl_u16(vget_low_u16(u))));
        vst1_u8(dst + 16, vget_low_u8(vreinterpretq_u8_u32(vmovl_high_u16(u))));
    } else if (width == 2) {
        uint32_t last = vgetq_lane_u32(vreinterpretq_u32_u16(u), 2); /* units 4 and 5 */
        vst1_u8(dst, vreinterpret_u8_u16(vget_low_u16(u)));
        memcpy(dst + 8, &last, 4);
    }
}

/* Three surrogate pairs (u: high, low, ...) as three code points at dst. */
U7_STEP void u7_put_three_pairs(uint8_t *dst, uint16x8_t u)
{
    uint16x8x2_t hl = vuzpq_u16(u, u); /* the high ones, the low ones */
    uint32x4_t cp = vshll_n_u16(vget_low_u16(vsubq_u16(hl.val[0], vdupq_n_u16(0xD800))), 10);
    cp = vaddq_u32(cp, vmovl_u16(vget_low_u16(vsubq_u16(hl.val[1], vdupq_n_u16(0xDC00)))));
    cp = vaddq_u32(cp, vdupq_n_u32(0x10000));
    uint32_t third = vgetq_lane_u32(cp, 2);
    vst1_u8(dst, vget_low_u8(vreinterpretq_u8_u32(cp)));
    memcpy(dst + 8, &third, 4);
}

/* Zips with zero (one copy: its call costs less than its size). */
U7_RARE void u7_put_bytes(uint8_t *d, unsigned width, uint8x16_t v)
{
    const uint8x16_t z = vdupq_n_u8(0);
    if (width == 4) {
        uint16x8_t lo = vreinterpretq_u16_u8(vzip1q_u8(v, z));
        uint16x8_t hi = vreinterpretq_u16_u8(vzip2q_u8(v, z));
        const uint16x8_t z16 = vdupq_n_u16(0);
        vst1q_u8(d, vreinterpretq_u8_u16(vzip1q_u16(lo, z16)));
        vst1q_u8(d + 16, vreinterpretq_u8_u16(vzip2q_u16(lo, z16)));
        vst1q_u8(d + 32, vreinterpretq_u8_u16(vzip1q_u16(hi, z16)));
        vst1q_u8(d + 48, vreinterpretq_u8_u16(vzip2q_u16(hi, z16)));
    } else if (width == 2) {
        vst1q_u8(d, vzip1q_u8(v, z));
        vst1q_u8(d + 16, vzip2q_u8(v, z));
    }
}

U7_STEP void u7_store_units(uint16_t *a, uint16x8_t u)
{
    vst1q_u16(a, u);
}

U7_STEP uint16x8_t u7_plus_unit(void)
{
    return vsetq_lane_u16('+', vdupq_n_u16(0), 0);
}

#include "../utf7_loop.h"

#else
typedef int utfdfa__no_neon_utf7_here; /* ISO C wants a declaration in every unit */
#endif
