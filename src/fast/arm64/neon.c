/* SPDX-License-Identifier: MIT */
/* The NEON kernels (AArch64's ASIMD, baseline there, so no target
 * attribute and no detection): 16 characters a step for ASCII, the
 * de-interleaving loads and interleaving stores (ld2/ld4, st2/st4) taking
 * the place of x86's packs and unpacks; a step that meets anything else
 * hands that step to the scalar kernels, as do the jobs without a NEON
 * kernel yet. The fused kernels (UTF-16 and UTF-32 into UTF-8 and into
 * each other): wide_neon.c; UTF-7's: utf7_neon.c. */
#include "../levels.h"

#if KERN_ARM64
#include <arm_neon.h>

#include "../utf8/ascii.h"

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
    { /* named, not a compound literal: clang's vst1q_u8_x4 is a macro */
        const uint8x16x4_t units = {{vqtbl1q_u8(b, vld1q_u8(s)), vqtbl1q_u8(b, vld1q_u8(s + 16)),
                                     vqtbl1q_u8(b, vld1q_u8(s + 32)), vqtbl1q_u8(b, vld1q_u8(s + 48))}};
        vst1q_u8_x4(p, units);
        break;
    }
    }
}

/* From UTF-8 into UTF-16LE or UTF-32LE, 64 units a step by st2/st4
 * (ascii.h's fast_ascii_widen64_neon); into the other forms 64 units a
 * step here (one test of the four vectors' OR: its steps are the
 * cheapest); then 32 units a step (two vectors), then the scalar kernel
 * for the rest. */
KERN_INLINE size_t neon_ascii_body(enum fast_form from, enum fast_form to, const uint8_t *src,
                                   size_t src_len, uint8_t *dst, size_t dst_len)
{
    size_t uf = kern_unit(from), ut = kern_unit(to);
    size_t n = kern_min(src_len / uf, dst_len / ut), i = 0;
    if (from == FORM_UTF8 && (to == FORM_UTF16LE || to == FORM_UTF32LE))
        i = fast_ascii_widen64_neon(src, n, dst, to == FORM_UTF16LE); /* st2/st4 */
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

static size_t neon_wide_transcode(enum fast_form from, enum fast_form to, const uint8_t *src,
                                  size_t src_len, uint8_t *dst, size_t dst_len, size_t *written)
{
    if (to == FORM_UTF8)
        return utfdfa__neon_utf8_transcode(from, src, src_len, dst, dst_len, written);
    if ((from <= FORM_UTF16BE) != (to <= FORM_UTF16BE))
        return utfdfa__neon_units_transcode(from, to, src, src_len, dst, dst_len, written);
    return utfdfa__scalar_wide_transcode(from, to, src, src_len, dst, dst_len, written);
}

/* The pairs neon_wide_transcode has a kernel of its own for: UTF-16 and
 * UTF-32 into UTF-8 and into each other. */
#define NEON_PAIR(f, t) (1u << KERN_PAIR(f, t))
#define NEON_ORDERS(f, t) (NEON_PAIR(f##LE, t##LE) | NEON_PAIR(f##LE, t##BE) | \
                           NEON_PAIR(f##BE, t##LE) | NEON_PAIR(f##BE, t##BE))
#define NEON_WIDE_PAIRS                                                                     \
    (NEON_PAIR(FORM_UTF16LE, FORM_UTF8) | NEON_PAIR(FORM_UTF16BE, FORM_UTF8) |             \
     NEON_PAIR(FORM_UTF32LE, FORM_UTF8) | NEON_PAIR(FORM_UTF32BE, FORM_UTF8) |             \
     NEON_ORDERS(FORM_UTF16, FORM_UTF32) | NEON_ORDERS(FORM_UTF32, FORM_UTF16))

const struct fast_kernels utfdfa__fast_neon = {
    "neon", neon_ascii_copy, utfdfa__scalar_utf16_to_cp, utfdfa__scalar_utf32_to_cp,
    utfdfa__scalar_cp_to_form, neon_wide_transcode, NEON_WIDE_PAIRS, utfdfa__neon_utf7_b64,
    utfdfa__neon_utf7_text, utfdfa__neon_count,
};
#else
typedef int utfdfa__fast_neon_none; /* not AArch64: nothing here (a unit must declare something) */
#endif
