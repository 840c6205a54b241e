/*
 * ref_cesu8.h - reference (oracle) decoder and encoder for CESU-8 (Unicode
 * Technical Report #26) and Java's modified UTF-8, plain and slow, written
 * from their definitions for tests/unit/test_cesu.c:
 *
 *   - a code unit is 1 to 3 bytes in the UTF-8 bit layout, shortest form,
 *     surrogates D800-DFFF included (Table 3-7 rows up to U+FFFF, with ED
 *     followed by any of 80-BF); no 4-byte sequences (F0-FF never lead);
 *   - a high surrogate's unit immediately followed by a low surrogate's
 *     unit is one supplementary character (6 bytes); a surrogate without
 *     its partner is an error of its 3 bytes, and what follows is decoded
 *     anew (as a UTF-16 decoder does);
 *   - modified UTF-8: U+0000 is C0 80 and the byte 00 is an error.
 *
 * Errors have maximal-subpart extents (Unicode 3.9): a byte that cannot
 * begin a unit is an error of 1 byte; a valid prefix cut short is an error
 * of the prefix ("truncated"), the byte that cut it is decoded anew. The
 * second byte decides OVERLONG for C0/C1 (any byte; for modified UTF-8, C0
 * followed by 81-BF, or C1) and E0 followed by 80-9F.
 */
#ifndef REF_CESU8_H
#define REF_CESU8_H

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
    REFC_TOO_LARGE
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

#endif /* REF_CESU8_H */
