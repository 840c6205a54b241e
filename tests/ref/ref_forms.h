/* SPDX-License-Identifier: MIT */
/*
 * ref_forms.h - reference (oracle) decoders and encoders for the UTF-8 forms
 * beyond RFC 3629: the original 1-6 byte UTF-8, Corrected UTF-8, WTF-8 (at
 * the end), CESU-8 (Unicode Technical Report #26) and Java's modified
 * UTF-8, plain and slow, written
 * from their definitions for tests/decode/test_forms.c:
 *
 *   - a code unit is 1 to 3 bytes in the UTF-8 bit layout, shortest form,
 *     surrogates D800-DFFF included (Table 3-7 rows up to U+FFFF, with ED
 *     followed by any of 80-BF); no 4-byte sequences (F0-FF never lead);
 *   - a high surrogate's unit immediately followed by a low surrogate's
 *     unit is one supplementary character (6 bytes); a surrogate without
 *     its partner is an error of its 3 bytes, and what follows is decoded
 *     anew (as a UTF-16 decoder does): SURROGATE, or TRUNCATED for a high
 *     one the end of input cut from its low one (nothing after it, or only
 *     the start of a low one's unit, ED or ED B0-BF), as in UTF-16;
 *   - modified UTF-8: U+0000 is C0 80 and the byte 00 is an error.
 *
 * Errors have maximal-subpart extents (Unicode 3.9): a byte that cannot
 * begin a unit is an error of 1 byte; a valid prefix cut short is an error
 * of the prefix ("truncated"), the byte that cut it is decoded anew. The
 * second byte decides OVERLONG for C0/C1 (any byte; for modified UTF-8, C0
 * followed by 81-BF, or C1) and E0 followed by 80-9F.
 */
#ifndef REF_FORMS_H
#define REF_FORMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum refc_kind {
    REFC_OK = 0,
    REFC_UNEXPECTED_CONTINUATION,
    REFC_INVALID_LEAD,
    REFC_OVERLONG,
    REFC_SURROGATE,
    REFC_TRUNCATED,
    REFC_NUL,
    REFC_TOO_LARGE,
    REFC_RESERVED
};

struct refc_item {
    uint32_t cp; /* REFC_OK: the character */
    size_t offset, len;
    enum refc_kind kind;
};

/* Every item of s[0..n) in order (items has room for n + 1). */
size_t refc_decode(const uint8_t *s, size_t n, bool modified, struct refc_item *items);

/* The encoding of a scalar value (not a surrogate, <= 10FFFF): 1-6 bytes. */
size_t refc_encode(uint32_t cp, bool modified, uint8_t out[6]);

/* WTF-8 (Simon Sapin's spec): "generalized UTF-8" (Table 3-7 with ED
 * followed by any of 80-BF, so surrogate code points are 3-byte units),
 * less a high surrogate's sequence followed by a low one's: that low one is
 * an error of its 3 bytes (the high one stands). Same error extents and
 * kinds as above, plus for 4-byte leads OVERLONG (F0 80-8F) and TOO_LARGE
 * (F4 90-BF, F5-F7); F8-FF are INVALID_LEAD. */
size_t refw_decode(const uint8_t *s, size_t n, struct refc_item *items);

/* Generalized UTF-8 of a code point <= 10FFFF (surrogates included). */
size_t refw_encode(uint32_t cp, uint8_t out[4]);

/* The original UTF-8 (RFC 2279bis section 3): 1 to 6 bytes (lead C0-DF 2,
 * E0-EF 3, F0-F7 4, F8-FB 5, FC-FD 6), values 0 to 7FFFFFFF, shortest form
 * only (C0-C1; E0 80-9F; F0 80-8F; F8 80-87; FC 80-83 are OVERLONG at the
 * lead), surrogates excluded as in RFC 3629 (ED A0-BF: SURROGATE at the
 * lead), FE and FF never (INVALID_LEAD). */
size_t ref2279_decode(const uint8_t *s, size_t n, struct refc_item *items);

/* Corrected UTF-8 (corrected-utf-8.txt, "Putting it all together"): each
 * row is a lead-byte range whose payload (the UTF-8 bit layout) is stored
 * with an offset: 1 byte +0 (00 is a NUL error), 2 bytes +160, 3 bytes
 * +2208 up to EC BD 9F and +4256 from EC BD A0, 4 bytes +69792, 5 bytes
 * +2166944, 6 bytes +69275808; every payload of a length is valid, so
 * there are no overlongs. FE and FF begin a reserved unit "extending until
 * the next recognized lead byte" (it takes every following 80-BF): a
 * RESERVED item of that length. (The magic number, recognised only at the
 * very start, is not modelled: callers keep it out of their inputs.) */
size_t refcorr_decode(const uint8_t *s, size_t n, struct refc_item *items);

#endif /* REF_FORMS_H */
