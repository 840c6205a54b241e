/* SPDX-License-Identifier: MIT */
/* The byte forms of a code point in each encoding (internal): lengths and
 * writers, given a value the encoding can hold. */
#ifndef UTFDFA_ENCODE_FORMS_H
#define UTFDFA_ENCODE_FORMS_H

#include "common.h"
#include "corrected-utf-8.gen.h"
#include "encodings.gen.h"
#include "fast/kernels.h"

/* ------------------------------------------------------------ output side */

/* Corrected UTF-8's rows ("Putting it all together"): corrected_first,
 * corrected_row_tag and corrected_len are generated from the grammar
 * (encodings.gen.h). */

static inline unsigned corrected_row(uint32_t cp)
{
    unsigned r = CORRECTED_NROWS - 1;
    while (cp < corrected_first[r])
        r--;
    return r;
}

/* Bytes of the 1-6 byte form (RFC 2279bis section 3) for a payload. */
static inline size_t utf8_form_len(uint32_t v)
{
    return v < 0x80 ? 1 : v < 0x800 ? 2 : v < 0x10000 ? 3 : v < 0x200000 ? 4
           : v < 0x4000000 ? 5 : 6;
}

ALWAYS_INLINE size_t bytes_for(unsigned to, uint32_t cp)
{
    switch (to) {
    case UTFDFA_UTF8:
    case UTFDFA_WTF8:
    case UTFDFA_UTF8_RFC2279:
        return utf8_form_len(cp);
    case UTFDFA_CORRECTED_UTF8:
        return corrected_len[corrected_row(cp)];
    case UTFDFA_UTF16LE:
    case UTFDFA_UTF16BE:
        return cp < 0x10000 ? 2 : 4;
    case UTFDFA_UTF7: /* at most: "+", six base64 characters (a pair), "-" (sizes only) */
    case UTFDFA_UTF7_IMAP:
        return utfdfa_encoding_max_bytes[to];
    case UTFDFA_MUTF8:
        if (cp == 0)
            return 2;
        /* fall through */
    case UTFDFA_CESU8:
        return cp < 0x10000 ? utf8_form_len(cp) : 6;
    default:
        return 4;
    }
}

ALWAYS_INLINE void put16(uint8_t *p, unsigned to, uint32_t u)
{
    if (to == UTFDFA_UTF16LE) {
        p[0] = (uint8_t)u;
        p[1] = (uint8_t)(u >> 8);
    } else {
        p[0] = (uint8_t)(u >> 8);
        p[1] = (uint8_t)u;
    }
}

/* The n-byte form: n leading ones in the lead byte, then 6 bits a byte
 * (RFC 3629 section 3; RFC 2279bis section 3 for 5 and 6 bytes). */
static inline void put_utf8_form(uint8_t *p, uint32_t v, size_t n)
{
    if (n == 1) {
        p[0] = (uint8_t)v;
        return;
    }
    for (size_t k = n - 1; k > 0; k--) {
        p[k] = (uint8_t)(0x80 | (v & 0x3F));
        v >>= 6;
    }
    p[0] = (uint8_t)((0xFF00u >> n) | v);
}

/* Write cp at p in `to`; the caller checked that it fits and the room. */
ALWAYS_INLINE void put_bytes(uint8_t *p, unsigned to, uint32_t cp)
{
    switch (to) {
    case UTFDFA_UTF8:
    case UTFDFA_WTF8:
    case UTFDFA_UTF8_RFC2279:
        put_utf8_form(p, cp, utf8_form_len(cp));
        break;
    case UTFDFA_CORRECTED_UTF8: {
        unsigned row = corrected_row(cp);
        put_utf8_form(p, cp - corrected_utf_8_tag_offset[corrected_row_tag[row]], corrected_len[row]);
        break;
    }
    case UTFDFA_CESU8:
    case UTFDFA_MUTF8:
        /* UTR #26: the UTF-8 form of each UTF-16 code unit; modified UTF-8
         * writes U+0000 in the 2-byte form, C0 80. */
        if (cp == 0 && to == UTFDFA_MUTF8) {
            p[0] = 0xC0;
            p[1] = 0x80;
        } else if (cp < 0x10000) {
            put_utf8_form(p, cp, utf8_form_len(cp));
        } else {
            put_utf8_form(p, 0xD800 | (cp - 0x10000) >> 10, 3);
            put_utf8_form(p + 3, 0xDC00 | (cp & 0x3FF), 3);
        }
        break;
    case UTFDFA_UTF16LE:
    case UTFDFA_UTF16BE:
        if (cp < 0x10000) {
            put16(p, to, cp);
        } else {
            put16(p, to, 0xD800 | (cp - 0x10000) >> 10);
            put16(p + 2, to, 0xDC00 | (cp & 0x3FF));
        }
        break;
    case UTFDFA_UTF32LE:
    case UTFDFA_UCS4LE:
        p[0] = (uint8_t)cp;
        p[1] = (uint8_t)(cp >> 8);
        p[2] = (uint8_t)(cp >> 16);
        p[3] = (uint8_t)(cp >> 24);
        break;
    default: /* UTF32BE, UCS4BE */
        p[0] = (uint8_t)(cp >> 24);
        p[1] = (uint8_t)(cp >> 16);
        p[2] = (uint8_t)(cp >> 8);
        p[3] = (uint8_t)cp;
        break;
    }
}

/* The form the kernels (src/fast/kernels.h) write for `to`, or -1. For
 * WTF-8 it is UTF-8's: the kernels write a surrogate value in its 3-byte
 * form. */
static inline int kernel_form(unsigned to)
{
    switch (to) {
    case UTFDFA_UTF8:
    case UTFDFA_WTF8:
        return FORM_UTF8;
    case UTFDFA_UTF16LE:
        return FORM_UTF16LE;
    case UTFDFA_UTF16BE:
        return FORM_UTF16BE;
    case UTFDFA_UTF32LE:
        return FORM_UTF32LE;
    case UTFDFA_UTF32BE:
        return FORM_UTF32BE;
    default:
        return -1;
    }
}

/* Corrected UTF-8's magic number: "The eight-byte sequence EF B7 9D ED B2
 * AE 00 0A ... the Corrected encoding of the four-codepoint sequence
 * U+10E7D U+ED4E U+0000 U+000A"; like a BOM it is a signature, not text. */
static const uint8_t corrected_magic[8] = {0xEF, 0xB7, 0x9D, 0xED, 0xB2, 0xAE, 0x00, 0x0A};
static const uint32_t corrected_magic_cp[4] = {0x10E7D, 0xED4E, 0x0000, 0x000A};

#endif /* UTFDFA_ENCODE_FORMS_H */
