/* SPDX-License-Identifier: MIT */
/*
 * ref_utf32.h - independent reference (oracle) UTF-32LE/BE decoder and encoder.
 *
 * Written from the Unicode Standard, section 3.9 (D90 UTF-32: each code
 * unit is a scalar value; D76: scalar values are 0..D7FF and E000..10FFFF)
 * and the behaviour of Python's utf-32 codecs, without looking at the
 * implementation under test:
 *   - a 4-byte unit that is a scalar value is a character;
 *   - a unit above 10FFFF is an error of 4 bytes (REF_TOO_LARGE);
 *   - a unit in D800-DFFF is an error of 4 bytes (REF_SURROGATE);
 *   - a partial unit at the end of input (1-3 bytes) is one error
 *     (REF_TRUNCATED).
 */
#ifndef REF_UTF32_H
#define REF_UTF32_H

#include <stddef.h>
#include <stdint.h>

#include "ref_utf8.h" /* enum ref_kind */

/* As ref_utf16_next: the item at s[0] of n bytes (never reads s[n]);
   returns its length (1..4), *kind and *cp. */
size_t ref_utf32_next(const unsigned char *s, size_t n, int big_endian, uint32_t *cp,
                      enum ref_kind *kind);

/* Encode scalar value cp as UTF-32 into out[0..3]; returns 4, or 0 if cp
   is a surrogate or above U+10FFFF. */
size_t ref_utf32_encode(uint32_t cp, int big_endian, unsigned char out[4]);

#endif /* REF_UTF32_H */
