/* SPDX-License-Identifier: MIT */
/* What the x86-64 levels (sse2.c, avx2.c) share: the masks that find a
 * non-ASCII unit of each form, and a branch-free UTF-8 writer. */
#ifndef UTFDFA_FAST_X86_H
#define UTFDFA_FAST_X86_H

#include "../levels.h"

#if KERN_X86
#include <immintrin.h>

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
 * each; nothing is written past the last one: the last three are written
 * exactly, and cover the up to 3 scratch bytes of the one before them. */
KERN_INLINE size_t kern_put_utf8_run(uint8_t *dst, const uint32_t *src, size_t n)
{
    size_t w = 0, k = 0;
    for (; k + 3 < n; k++)
        w += kern_put_utf8_word(dst + w, kern_get_cp(src, k));
    for (; k < n; k++) {
        uint8_t bytes[4];
        size_t len = kern_put_utf8_word(bytes, kern_get_cp(src, k));
        memcpy(dst + w, bytes, len);
        w += len;
    }
    return w;
}
#endif

#endif
