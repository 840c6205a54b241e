/* SPDX-License-Identifier: MIT */
/* The NEON level's fused kernels (utfdfa__wide_transcode's contract):
 * UTF-16 and UTF-32, either byte order, into UTF-8 and into each other,
 * 16 units a step (the steps: wide_neon.h) while both sides have room for
 * one; a step the vector does not take goes to the scalar kernel over a
 * window, and so does what is left at the end. */
#define WIDE_TABLES_HERE /* the one copy of the tables on AArch64 */
#include "wide_neon.h"
#undef WIDE_TABLES_HERE

#if KERN_ARM64
/* Steps of 16 units from src + *i while *i < lim (room for each, both
 * sides; lim - *i a multiple of 32). Returns 0 when it stopped at a step
 * with a surrogate that is not in pairs the steps take, 1 when the next
 * step may be a step again. The bytes after the output are as they were. */
KERN_INLINE int neon_utf8_steps(enum fast_form from, const uint8_t *src, size_t lim, uint8_t *dst,
                                size_t *i, size_t *w)
{
    /* pointers, not offsets: GCC kept both an offset and its pointer and
     * copied them every step */
    const uint8_t *s = src + *i, *end = src + lim;
    uint8_t *d = dst + *w;
    uint8x16_t saved = vld1q_u8(d);
    int more = 1;
    while (s < end) {
        uint16x8_t a = neon_load_utf16(from, s), b = neon_load_utf16(from, s + 16);
        uint16_t top = vmaxvq_u16(vmaxq_u16(a, b));
        size_t n;
        /* the 1- and 2-byte steps before the surrogate test, which would
         * cost them a compare and a branch a step */
        if (top < 0x80) {
            n = neon_utf8_ascii(a, b, d, &saved);
        } else if (top < 0x800) {
            n = neon_utf8_twos(a, b, d, &saved);
        } else if (top < 0xD800 || !neon_any(neon_high_is(a, b, 0xF8, 0xD8))) {
            n = neon_utf8_bmp(a, b, d, &saved);
        } else {
            n = neon_utf8_pairs16(a, b, d, &saved);
            if (n < 32) { /* pairs units = bytes of UTF-8 */
                s += n, d += n, more = n != 0;
                break;
            }
        }
        s += 32, d += n;
    }
    vst1q_u8(d, saved);
    *i = (size_t)(s - src), *w = (size_t)(d - dst);
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

/* UTF-32 into UTF-8, 16 code points a step while both sides have room (a
 * step reads 64 bytes, writes at most 64 and touches at most 80); a step
 * the vector does not take goes to the scalar kernel, and so does what is
 * left at the end (it stops where a character does not fit or before a
 * unit that is not a scalar value). */
KERN_INLINE size_t neon_utf32_utf8_body(enum fast_form from, const uint8_t *src, size_t src_len,
                                        uint8_t *dst, size_t dst_len, size_t *written)
{
    size_t i = 0, w = 0, got, k;
    while (src_len - i >= 64 && dst_len - w >= 80) {
        uint8x16_t saved = vld1q_u8(dst + w);
        size_t n;
        while (src_len - i >= 64 && dst_len - w >= 80 &&
               (n = neon_utf32_utf8_step(from, src + i, dst + w, &saved)) != 0)
            i += 64, w += n;
        vst1q_u8(dst + w, saved);
        if (src_len - i < 64 || dst_len - w < 80)
            break;
        k = utfdfa__scalar_wide_transcode(from, FORM_UTF8, src + i, 64, dst + w, dst_len - w, &got);
        i += k, w += got;
        if (k < 64)
            break;
    }
    k = utfdfa__scalar_wide_transcode(from, FORM_UTF8, src + i, src_len - i, dst + w, dst_len - w,
                                      &got);
    *written = w + got;
    return i + k;
}

size_t utfdfa__neon_utf8_transcode(enum fast_form from, const uint8_t *src, size_t src_len,
                                   uint8_t *dst, size_t dst_len, size_t *written)
{
    switch (from) {
    case FORM_UTF16LE: return neon_utf16_utf8_body(FORM_UTF16LE, src, src_len, dst, dst_len, written);
    case FORM_UTF16BE: return neon_utf16_utf8_body(FORM_UTF16BE, src, src_len, dst, dst_len, written);
    case FORM_UTF32LE: return neon_utf32_utf8_body(FORM_UTF32LE, src, src_len, dst, dst_len, written);
    case FORM_UTF32BE: return neon_utf32_utf8_body(FORM_UTF32BE, src, src_len, dst, dst_len, written);
    default: break;
    }
    return utfdfa__scalar_wide_transcode(from, FORM_UTF8, src, src_len, dst, dst_len, written);
}

/* Steps while both sides have room (a step reads 32 or 64 bytes and
 * writes at most 64); a step the vector does not take, the scalar kernel
 * over the next 128 units (and one more: a pair across the window's end is
 * whole); what is left at the end, the scalar kernel (which stops where a
 * character does not fit, or before a unit that is not one). */
KERN_INLINE size_t nu_body(enum fast_form from, enum fast_form to, const uint8_t *src,
                           size_t src_len, uint8_t *dst, size_t dst_len, size_t *written)
{
    const size_t in = from <= FORM_UTF16BE ? 32 : 64, win = from <= FORM_UTF16BE ? 258 : 512;
    size_t i = 0, w = 0, got, k;
    while (src_len - i >= in && dst_len - w >= 64) {
        size_t r = from <= FORM_UTF16BE ? nu_step_16_32(from, to, src + i, dst + w, &got)
                                        : nu_step_32_16(from, to, src + i, dst + w, &got);
        if (r != 0) {
            i += r, w += got;
            continue;
        }
        k = utfdfa__scalar_wide_transcode(from, to, src + i, kern_min(src_len - i, win), dst + w,
                                          dst_len - w, &got);
        if (k == 0)
            break;
        i += k, w += got;
    }
    k = utfdfa__scalar_wide_transcode(from, to, src + i, src_len - i, dst + w, dst_len - w, &got);
    *written = w + got;
    return i + k;
}

size_t utfdfa__neon_units_transcode(enum fast_form from, enum fast_form to, const uint8_t *src,
                                    size_t src_len, uint8_t *dst, size_t dst_len, size_t *written)
{
    switch (KERN_PAIR(from, to)) {
#define NU_CASE(F, T) \
    case KERN_PAIR(F, T): return nu_body(F, T, src, src_len, dst, dst_len, written);
        NU_CASE(FORM_UTF16LE, FORM_UTF32LE)
        NU_CASE(FORM_UTF16LE, FORM_UTF32BE)
        NU_CASE(FORM_UTF16BE, FORM_UTF32LE)
        NU_CASE(FORM_UTF16BE, FORM_UTF32BE)
        NU_CASE(FORM_UTF32LE, FORM_UTF16LE)
        NU_CASE(FORM_UTF32LE, FORM_UTF16BE)
        NU_CASE(FORM_UTF32BE, FORM_UTF16LE)
        NU_CASE(FORM_UTF32BE, FORM_UTF16BE)
#undef NU_CASE
    default: break;
    }
    return utfdfa__scalar_wide_transcode(from, to, src, src_len, dst, dst_len, written);
}
#else
typedef int utfdfa__wide_neon_none; /* not AArch64: nothing here (a unit must declare something) */
#endif
