/* SPDX-License-Identifier: MIT */
/*
 * ref_utf8.h - independent reference (oracle) UTF-8 decoder/encoder.
 *
 * Written from RFC 3629 (sections 3, 4, 10) and the Unicode Standard,
 * section 3.9 (Table 3-7 "Well-Formed UTF-8 Byte Sequences" and the
 * "U+FFFD substitution of maximal subparts" practice), without looking at
 * the implementation under test.  It is deliberately plain and slow.
 *
 * Table 3-7 (well-formed byte sequences):
 *
 *   Code points         1st     2nd     3rd     4th
 *   U+0000..U+007F      00..7F
 *   U+0080..U+07FF      C2..DF  80..BF
 *   U+0800..U+0FFF      E0      A0..BF  80..BF
 *   U+1000..U+CFFF      E1..EC  80..BF  80..BF
 *   U+D000..U+D7FF      ED      80..9F  80..BF
 *   U+E000..U+FFFF      EE..EF  80..BF  80..BF
 *   U+10000..U+3FFFF    F0      90..BF  80..BF  80..BF
 *   U+40000..U+FFFFF    F1..F3  80..BF  80..BF  80..BF
 *   U+100000..U+10FFFF  F4      80..8F  80..BF  80..BF
 */
#ifndef REF_UTF8_H
#define REF_UTF8_H

#include <stddef.h>
#include <stdint.h>

enum ref_kind {
    REF_OK = 0,
    REF_UNEXPECTED_CONTINUATION, /* 80-BF where a character must start */
    REF_INVALID_LEAD,            /* F8-FF (never valid in any UTF-8 form of RFC 3629) */
    REF_OVERLONG,                /* C0, C1 lead; E0 followed by 80-9F; F0 followed by 80-8F */
    REF_SURROGATE,               /* ED followed by A0-BF */
    REF_TOO_LARGE,               /* F5-F7 lead; F4 followed by 90-BF */
    REF_TRUNCATED                /* a valid lead (+ valid continuations) cut short by a byte
                                    that cannot continue it, or by the end of input */
};

/*
 * Decode the item starting at s[0].  n is the number of bytes available
 * (precondition n >= 1); s[n] and beyond are never read.
 *
 * Returns the number of bytes the item covers (>= 1 when n >= 1).
 *  - Well-formed character: *kind = REF_OK, *cp = its scalar value,
 *    return value = its length (1..4).
 *  - Ill-formed: *kind = the error kind, *cp = 0, return value = length of
 *    the maximal subpart (1 for every kind except REF_TRUNCATED; for
 *    REF_TRUNCATED the number of bytes of the valid prefix, 1..3).
 *
 * Error at the second byte position: the specific kind (OVERLONG for E0/F0,
 * SURROGATE for ED, TOO_LARGE for F4) is used only when the second byte is a
 * continuation byte in the forbidden range; if the second byte is not a
 * continuation byte at all (00-7F, C0-FF) or the input ends, the kind is
 * REF_TRUNCATED.  Errors at the third/fourth byte are always REF_TRUNCATED.
 *
 * Out-of-contract call n == 0: returns 0, *kind = REF_TRUNCATED, *cp = 0.
 * cp and kind may be NULL (the corresponding result is then not stored).
 */
size_t ref_utf8_next(const unsigned char *s, size_t n, uint32_t *cp, enum ref_kind *kind);

/* "ok", "unexpected-continuation", "invalid-lead", "overlong", "surrogate",
   "too-large", "truncated"; "invalid-kind" for a value outside the enum. */
const char *ref_kind_name(enum ref_kind k);

/* Encode scalar value cp (0..0x10FFFF, not D800-DFFF) as UTF-8 into
   out[0..3]; returns the length 1..4, or 0 (out untouched) if cp is not a
   Unicode scalar value. */
size_t ref_utf8_encode(uint32_t cp, unsigned char out[4]);

#endif /* REF_UTF8_H */
