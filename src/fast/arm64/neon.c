/* SPDX-License-Identifier: MIT */
/* The NEON kernels (AArch64's ASIMD, baseline there, so no target
 * attribute and no detection): 16 characters a step for ASCII, the
 * de-interleaving loads and interleaving stores (ld2/ld4, st2/st4) taking
 * the place of x86's packs and unpacks; a step that meets anything else
 * hands that step to the scalar kernels, as do the jobs without a NEON
 * kernel yet; UTF-16 into UTF-8 fused, 8 units a step. */
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

/* Writes the 16 ASCII bytes b as units of form f at p. */
KERN_INLINE void neon_store_ascii16(enum fast_form f, uint8_t *p, uint8x16_t b)
{
    const uint8x16_t z = vdupq_n_u8(0);
    switch (f) {
    case FORM_UTF8: vst1q_u8(p, b); break;
    case FORM_UTF16LE: vst2q_u8(p, (uint8x16x2_t){{b, z}}); break;
    case FORM_UTF16BE: vst2q_u8(p, (uint8x16x2_t){{z, b}}); break;
    case FORM_UTF32LE: vst4q_u8(p, (uint8x16x4_t){{b, z, z, z}}); break;
    case FORM_UTF32BE: vst4q_u8(p, (uint8x16x4_t){{z, z, z, b}}); break;
    }
}

/* 32 units a step (two vectors: one test of the pair per step for UTF-8,
 * whose steps are the cheapest), then the scalar kernel for the rest. */
KERN_INLINE size_t neon_ascii_body(enum fast_form from, enum fast_form to, const uint8_t *src,
                                   size_t src_len, uint8_t *dst, size_t dst_len)
{
    size_t uf = kern_unit(from), ut = kern_unit(to);
    size_t n = kern_min(src_len / uf, dst_len / ut), i = 0;
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

/* The UTF-8 of four BMP scalar values x (below 0xD800 or above 0xDFFF) as
 * little-endian words, their bytes first (the rest scratch), and their
 * lengths. */
KERN_INLINE uint32x4_t neon_utf8_words(uint32x4_t x, uint32x4_t *len)
{
    const uint32x4_t m6 = vdupq_n_u32(0x3F), c80 = vdupq_n_u32(0x80);
    uint32x4_t low = vorrq_u32(vandq_u32(x, m6), c80);
    uint32x4_t mid = vorrq_u32(vandq_u32(vshrq_n_u32(x, 6), m6), c80);
    uint32x4_t two = vorrq_u32(vorrq_u32(vshrq_n_u32(x, 6), vdupq_n_u32(0xC0)), vshlq_n_u32(low, 8));
    uint32x4_t three = vorrq_u32(vorrq_u32(vshrq_n_u32(x, 12), vdupq_n_u32(0xE0)),
                                 vorrq_u32(vshlq_n_u32(mid, 8), vshlq_n_u32(low, 16)));
    uint32x4_t is1 = vcltq_u32(x, c80), is2 = vcltq_u32(x, vdupq_n_u32(0x800));
    /* 3 less one for each test passed (a true test is all ones: -1) */
    *len = vaddq_u32(vaddq_u32(vdupq_n_u32(3), is1), is2);
    return vbslq_u32(is1, x, vbslq_u32(is2, two, three));
}

/* The four words' bytes packed, by the row of their lengths in
 * wide_utf8_shuffle (gen/emit_wide.py: at ROW * sum (len_k - 1) * 3^k),
 * scratch after them. */
KERN_INLINE uint8x16_t neon_pack_words(uint32x4_t words, uint32x4_t len)
{
    static const uint32_t weight[4] = {WIDE_UTF8_ROW, 3 * WIDE_UTF8_ROW, 9 * WIDE_UTF8_ROW,
                                       27 * WIDE_UTF8_ROW};
    uint32_t row = vaddvq_u32(vmulq_u32(vsubq_u32(len, vdupq_n_u32(1)), vld1q_u32(weight)));
    return vqtbl1q_u8(vreinterpretq_u8_u32(words), vld1q_u8(wide_utf8_shuffle + row));
}

/* The UTF-8 of 8 BMP scalar values u, some below 0x80 and the others below
 * 0x800, at dst: each unit's 2-byte form in its lane, an ASCII unit's one
 * byte, packed four lanes at a time (wide_utf8_two) and the halves joined
 * (wide_merge). Returns the bytes; the 16 after them are as they were. */
KERN_INLINE size_t neon_utf8_short(uint16x8_t u, uint8_t *dst)
{
    static const uint16_t bit[8] = {1, 2, 4, 8, 1, 2, 4, 8};
    uint16x8_t two = vorrq_u16(vandq_u16(vsliq_n_u16(vshrq_n_u16(u, 6), u, 8), vdupq_n_u16(0x3FFF)),
                               vdupq_n_u16(0x80C0));
    uint16x8_t is2 = vcgeq_u16(u, vdupq_n_u16(0x80));
    uint8x16_t bytes = vreinterpretq_u8_u16(vbslq_u16(is2, two, u));
    uint16x8_t m = vandq_u16(is2, vld1q_u16(bit));
    unsigned m0 = vaddv_u16(vget_low_u16(m)), m1 = vaddv_u16(vget_high_u16(m));
    size_t n0 = 4u + wide_ones[m0], n = n0 + 4u + wide_ones[m1];
    uint8x16_t halves = vcombine_u8(vtbl1_u8(vget_low_u8(bytes), vld1_u8(wide_utf8_two[m0])),
                                    vtbl1_u8(vget_high_u8(bytes), vld1_u8(wide_utf8_two[m1])));
    uint8x16_t past = vld1q_u8(dst + n);
    vst1q_u8(dst, vqtbl1q_u8(halves, vld1q_u8(wide_merge[n0])));
    vst1q_u8(dst + n, past);
    return n;
}

/* The UTF-8 of 8 BMP scalar values u of 1-3 bytes at dst, four a store
 * (neon_pack_words). Returns the bytes; the 16 after them are as they
 * were. */
KERN_INLINE size_t neon_utf8_mixed(uint16x8_t u, uint8_t *dst)
{
    uint32x4_t l0, l1;
    uint32x4_t w0 = neon_utf8_words(vmovl_u16(vget_low_u16(u)), &l0);
    uint32x4_t w1 = neon_utf8_words(vmovl_high_u16(u), &l1);
    size_t n0 = vaddvq_u32(l0), n = n0 + vaddvq_u32(l1);
    uint8x16_t past = vld1q_u8(dst + n);
    vst1q_u8(dst, neon_pack_words(w0, l0));
    vst1q_u8(dst + n0, neon_pack_words(w1, l1));
    vst1q_u8(dst + n, past);
    return n;
}

KERN_INLINE int neon_has_surrogate(uint16x8_t u)
{
    return vmaxvq_u16(vceqq_u16(vandq_u16(u, vdupq_n_u16(0xF800)), vdupq_n_u16(0xD800))) != 0;
}

/* The units before the first high surrogate of u (8 if none). */
KERN_INLINE size_t neon_before_high(uint16x8_t u)
{
    uint16x8_t high = vceqq_u16(vandq_u16(u, vdupq_n_u16(0xFC00)), vdupq_n_u16(0xD800));
    uint64_t bits = vget_lane_u64(vreinterpret_u64_u8(vshrn_n_u16(high, 4)), 0);
    return bits ? (size_t)__builtin_ctzll(bits) / 8 : 8;
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

/* UTF-16 into UTF-8, 8 units a step while 40 bytes of room are left (the
 * most a step touches, its scratch included): all ASCII, all two-byte or
 * all three-byte steps in one store each; a mix packed by tables
 * (neon_utf8_short, neon_utf8_mixed), the bytes after it put back; a step
 * with a surrogate, and what is left when the room is short, by the
 * scalar kernel (which stops where a character does not fit, or before a
 * lone surrogate). */
KERN_INLINE size_t neon_utf16_utf8_body(enum fast_form from, const uint8_t *src, size_t src_len,
                                        uint8_t *dst, size_t dst_len, size_t *written)
{
    size_t i = 0, w = 0;
    while (src_len - i >= 16) {
        if (dst_len - w < 40)
            break;
        uint16x8_t u = neon_load_utf16(from, src + i);
        uint16_t top = vmaxvq_u16(u), bottom = vminvq_u16(u);
        if (top < 0x80) {
            vst1_u8(dst + w, vmovn_u16(u));
            i += 16, w += 8;
            continue;
        }
        if (top >= 0xD800 && neon_has_surrogate(u)) {
            if (neon_utf8_pairs(u, dst + w)) {
                i += 16, w += 16;
                continue;
            }
            /* the scalar kernel up to the step's first high surrogate (a
             * character before a run of pairs), or over the next 128 units
             * and one more (a pair across the window's end is whole):
             * supplementary characters come in runs */
            size_t lead = neon_before_high(u),
                   win = kern_min(src_len - i, lead ? 2 * lead : 258), got,
                   k = utfdfa__scalar_wide_transcode(from, FORM_UTF8, src + i, win, dst + w,
                                                     dst_len - w, &got);
            if (k == 0)
                break;
            i += k, w += got;
            continue;
        }
        const uint16x8_t m6 = vdupq_n_u16(0x3F), c80 = vdupq_n_u16(0x80);
        if (bottom >= 0x80 && top < 0x800) {
            uint8x8x2_t b = {{vmovn_u16(vorrq_u16(vshrq_n_u16(u, 6), vdupq_n_u16(0xC0))),
                              vmovn_u16(vorrq_u16(vandq_u16(u, m6), c80))}};
            vst2_u8(dst + w, b);
            i += 16, w += 16;
        } else if (bottom >= 0x800) {
            uint8x8x3_t b = {{vmovn_u16(vorrq_u16(vshrq_n_u16(u, 12), vdupq_n_u16(0xE0))),
                              vmovn_u16(vorrq_u16(vandq_u16(vshrq_n_u16(u, 6), m6), c80)),
                              vmovn_u16(vorrq_u16(vandq_u16(u, m6), c80))}};
            vst3_u8(dst + w, b);
            i += 16, w += 24;
        } else {
            w += top < 0x800 ? neon_utf8_short(u, dst + w) : neon_utf8_mixed(u, dst + w);
            i += 16;
        }
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
