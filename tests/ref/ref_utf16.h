/* SPDX-License-Identifier: MIT */
/*
 * ref_utf16.h - independent reference (oracle) UTF-16LE/BE decoder and encoder.
 *
 * Written from the WHATWG Encoding Standard, section 14.2.1 "shared UTF-16
 * decoder", and the Unicode Standard, section 3.9 (D91 UTF-16), without
 * looking at the implementation under test. Deliberately plain and slow.
 *
 * The WHATWG rules, restated item by item:
 *   - a code unit outside D800-DFFF is a character (2 bytes);
 *   - a high surrogate D800-DBFF followed by a low surrogate DC00-DFFF is
 *     one character (4 bytes);
 *   - a lone surrogate (a low one, or a high one followed by anything but
 *     a low one) is one error of 2 bytes; the unit after a lone high
 *     surrogate is decoded anew (WHATWG step 5 "restore to the queue");
 *   - whatever is pending at the end of input (an odd byte, a high
 *     surrogate, or a high surrogate and an odd byte) is ONE error.
 *
 * Error kinds (the shared taxonomy of ref_utf8.h): a lone surrogate (a
 * low one, or a high one followed by a unit that is not low) is
 * REF_SURROGATE; anything pending at the end (a high surrogate, an odd
 * byte, or both) is a sequence cut short, REF_TRUNCATED, as Python's
 * codecs have it ("unexpected end of data").
 */
#ifndef REF_UTF16_H
#define REF_UTF16_H

#include <stddef.h>
#include <stdint.h>

#include "ref_utf8.h" /* enum ref_kind */

/*
 * Decode the item starting at s[0]; n bytes are available (n >= 1) and
 * s[n] and beyond are never read. big_endian selects UTF-16BE.
 * Returns the item's length in bytes (1..4); *kind is REF_OK with *cp the
 * scalar value, or the error kind with *cp = 0. n == 0 returns 0
 * (REF_TRUNCATED). cp and kind may be NULL.
 */
size_t ref_utf16_next(const unsigned char *s, size_t n, int big_endian, uint32_t *cp,
                      enum ref_kind *kind);

/* Encode scalar value cp as UTF-16 into out[0..3]; returns 2 or 4, or 0
   (out untouched) if cp is a surrogate or above U+10FFFF. */
size_t ref_utf16_encode(uint32_t cp, int big_endian, unsigned char out[4]);

#endif /* REF_UTF16_H */
