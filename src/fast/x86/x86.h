/* SPDX-License-Identifier: MIT */
/* What the x86-64 levels' files (sse2.c, avx2.c, avx512vbmi.c,
 * units_avx512.c) share: the masks that find a non-ASCII unit of each form,
 * a branch-free UTF-8 writer, and units_avx512.c's kernels. */
#ifndef UTFDFA_FAST_X86_H
#define UTFDFA_FAST_X86_H

#include "../levels.h"

#if KERN_X86
#include <immintrin.h>

/* The AVX2 level's kernels, in every file: the level requires POPCNT too
 * (x86_has_avx2), and one string keeps the amalgamation's files agreeing. */
#define KERN_AVX2 __attribute__((target("avx2,popcnt")))

/* 16 bytes, repeated by unit: the bits that must be clear in a unit of each
 * form (as it lies in memory) for its value to be ASCII. */
static const uint8_t kern_ascii_masks[5][16] = {
    [FORM_UTF8] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
                   0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80},
    [FORM_UTF16LE] = {0x80, 0xFF, 0x80, 0xFF, 0x80, 0xFF, 0x80, 0xFF,
                      0x80, 0xFF, 0x80, 0xFF, 0x80, 0xFF, 0x80, 0xFF},
    [FORM_UTF16BE] = {0xFF, 0x80, 0xFF, 0x80, 0xFF, 0x80, 0xFF, 0x80,
                      0xFF, 0x80, 0xFF, 0x80, 0xFF, 0x80, 0xFF, 0x80},
    [FORM_UTF32LE] = {0x80, 0xFF, 0xFF, 0xFF, 0x80, 0xFF, 0xFF, 0xFF,
                      0x80, 0xFF, 0xFF, 0xFF, 0x80, 0xFF, 0xFF, 0xFF},
    [FORM_UTF32BE] = {0xFF, 0xFF, 0xFF, 0x80, 0xFF, 0xFF, 0xFF, 0x80,
                      0xFF, 0xFF, 0xFF, 0x80, 0xFF, 0xFF, 0xFF, 0x80},
};

/* Surrogate pairs as 32-bit lanes, a high then a low one (x86 is
 * little-endian): a lane's top 6 bits of each unit, and what they are in a
 * pair; pmaddwd's factors, high * 0x400 + low, the units taken as signed
 * (so 1025 * 0x10000 less), and what makes that sum the code point
 * (0x10000 - 0xD800 * 0x400 - 0xDC00 + 1025 * 0x10000). */
#define KERN_SURROGATE_TOPS 0xFC00FC00u
#define KERN_SURROGATE_KINDS 0xDC00D800u
#define KERN_SURROGATE_FACTORS 0x00010400
#define KERN_SURROGATE_BIAS 0x00A12400

/* units_avx512.c: between the unit forms at the AVX-512 VBMI2 level (the
 * contract of utfdfa__wide_transcode; be_in, be_out: the orders). */
size_t utfdfa__vbmi_utf16_to_utf16(int be_in, int be_out, const uint8_t *src, size_t src_len,
                                   uint8_t *dst, size_t dst_len, size_t *written);
size_t utfdfa__vbmi_utf32_to_utf16(int be_in, int be_out, const uint8_t *src, size_t src_len,
                                   uint8_t *dst, size_t dst_len, size_t *written);
size_t utfdfa__vbmi_utf32_to_utf32(int be_in, int be_out, const uint8_t *src, size_t src_len,
                                   uint8_t *dst, size_t dst_len, size_t *written);

/* wide_sse4.c: the fused kernels of the SSE4 and AVX2 levels (the contract
 * of utfdfa__wide_transcode), for the pairs in WIDE_PAIRS. */
size_t utfdfa__sse4_wide_transcode(enum fast_form from, enum fast_form to, const uint8_t *src,
                                   size_t src_len, uint8_t *dst, size_t dst_len,
                                   size_t *written);

/* wide_avx2.c: the AVX2 level's (into UTF-8 its own, between the unit
 * forms wide_sse4.c's). */
size_t utfdfa__avx2_wide_transcode(enum fast_form from, enum fast_form to, const uint8_t *src,
                                   size_t src_len, uint8_t *dst, size_t dst_len,
                                   size_t *written);

#define WIDE_PAIR(f, t) (1u << KERN_PAIR(f, t))
#define WIDE_TO_ORDERS(f, t) (WIDE_PAIR(f, t##LE) | WIDE_PAIR(f, t##BE))
#define WIDE_FROM_ORDERS(f, t) (WIDE_PAIR(f##LE, t) | WIDE_PAIR(f##BE, t))
/* UTF-16 into UTF-8, UTF-16 and UTF-32; UTF-32 into UTF-8 and UTF-16 (not
 * UTF-32 into UTF-32: the decoder and encoder kernels copy it as fast). */
#define WIDE_PAIRS                                                                       \
    (WIDE_FROM_ORDERS(FORM_UTF16, FORM_UTF8) | WIDE_FROM_ORDERS(FORM_UTF32, FORM_UTF8) |  \
     WIDE_TO_ORDERS(FORM_UTF16LE, FORM_UTF16) | WIDE_TO_ORDERS(FORM_UTF16BE, FORM_UTF16) | \
     WIDE_TO_ORDERS(FORM_UTF16LE, FORM_UTF32) | WIDE_TO_ORDERS(FORM_UTF16BE, FORM_UTF32) | \
     WIDE_TO_ORDERS(FORM_UTF32LE, FORM_UTF16) | WIDE_TO_ORDERS(FORM_UTF32BE, FORM_UTF16))

/* Writes the UTF-8 form of c (<= 0x10FFFF) as four bytes at dst without a
 * branch on its length, which it returns: the bytes past that length are
 * scratch, for the next code point to overwrite (x86 is little-endian). */
KERN_INLINE size_t kern_put_utf8_word(uint8_t *dst, uint32_t c)
{
    static const uint8_t lead[5] = {0, 0x00, 0xC0, 0xE0, 0xF0};
    size_t len = 1 + (size_t)(c >= 0x80) + (size_t)(c >= 0x800) + (size_t)(c >= 0x10000);
    uint32_t conts = (0x80 | (c & 0x3F)) << 24 | (0x80 | (c >> 6 & 0x3F)) << 16 |
                     (0x80 | (c >> 12 & 0x3F)) << 8;
    uint32_t word = (conts >> (8 * (4 - len)) & ~0xFFu) | lead[len] | c >> (6 * (len - 1));
    memcpy(dst, &word, 4);
    return len;
}

/* The code points src[0..n) in UTF-8 at dst, which has room for 4 bytes
 * each. A branch per length: text runs in one script, so the branches are
 * predicted (measured faster than the branch-free word above, whose
 * variable shifts and scratch bytes cost about 40 instructions a code
 * point). */
KERN_INLINE size_t kern_put_utf8_run(uint8_t *dst, const uint32_t *src, size_t n)
{
    size_t w = 0;
    for (size_t k = 0; k < n; k++) {
        uint32_t c = kern_get_cp(src, k);
        if (c < 0x80) {
            dst[w++] = (uint8_t)c;
        } else if (c < 0x800) {
            dst[w] = (uint8_t)(0xC0 | c >> 6);
            dst[w + 1] = (uint8_t)(0x80 | (c & 0x3F));
            w += 2;
        } else if (c < 0x10000) {
            dst[w] = (uint8_t)(0xE0 | c >> 12);
            dst[w + 1] = (uint8_t)(0x80 | (c >> 6 & 0x3F));
            dst[w + 2] = (uint8_t)(0x80 | (c & 0x3F));
            w += 3;
        } else {
            w += kern_put_utf8_word(dst + w, c); /* 4 bytes: no scratch */
        }
    }
    return w;
}
#endif

#endif
