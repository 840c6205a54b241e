/* SPDX-License-Identifier: MIT */
/* The byte forms of a code point in each encoding (internal): lengths and
 * writers, given a value the encoding can hold. */
#ifndef UTFDFA_OUTPUT_FORMS_H
#define UTFDFA_OUTPUT_FORMS_H

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

/* ------------------------------------------------------------ the writers
 * One per word of the registry's writer column: len_WRITER, the bytes cp
 * takes, and write_WRITER, which writes them (cp is a value the target
 * holds; the caller checked the room). */

static inline size_t len_utf8(uint32_t cp)
{
    return utf8_form_len(cp);
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

static inline void write_utf8(uint8_t *p, uint32_t cp)
{
    put_utf8_form(p, cp, utf8_form_len(cp));
}

static inline size_t len_corrected(uint32_t cp)
{
    return corrected_len[corrected_row(cp)];
}

static inline void write_corrected(uint8_t *p, uint32_t cp)
{
    unsigned row = corrected_row(cp);
    put_utf8_form(p, cp - corrected_utf_8_tag_offset[corrected_row_tag[row]], corrected_len[row]);
}

/* CESU-8 and modified UTF-8 (UTR #26): the UTF-8 form of each UTF-16 code
 * unit; modified UTF-8 writes U+0000 in the 2-byte form, C0 80. */
static inline size_t len_cesu8(uint32_t cp)
{
    return cp < 0x10000 ? utf8_form_len(cp) : 6;
}

static inline void write_cesu8(uint8_t *p, uint32_t cp)
{
    if (cp < 0x10000) {
        put_utf8_form(p, cp, utf8_form_len(cp));
    } else {
        put_utf8_form(p, 0xD800 | (cp - 0x10000) >> 10, 3);
        put_utf8_form(p + 3, 0xDC00 | (cp & 0x3FF), 3);
    }
}

static inline size_t len_mutf8(uint32_t cp)
{
    return cp == 0 ? 2 : len_cesu8(cp);
}

static inline void write_mutf8(uint8_t *p, uint32_t cp)
{
    if (cp == 0) {
        p[0] = 0xC0;
        p[1] = 0x80;
    } else {
        write_cesu8(p, cp);
    }
}

static inline size_t len_utf16(uint32_t cp)
{
    return cp < 0x10000 ? 2 : 4;
}
#define len_utf16le len_utf16
#define len_utf16be len_utf16

static inline void put16(uint8_t *p, bool big_endian, uint32_t u)
{
    p[!big_endian] = (uint8_t)(u >> 8);
    p[big_endian] = (uint8_t)u;
}

static inline void write_utf16(uint8_t *p, bool big_endian, uint32_t cp)
{
    if (cp < 0x10000) {
        put16(p, big_endian, cp);
    } else {
        put16(p, big_endian, 0xD800 | (cp - 0x10000) >> 10);
        put16(p + 2, big_endian, 0xDC00 | (cp & 0x3FF));
    }
}

static inline void write_utf16le(uint8_t *p, uint32_t cp)
{
    write_utf16(p, false, cp);
}

static inline void write_utf16be(uint8_t *p, uint32_t cp)
{
    write_utf16(p, true, cp);
}

static inline size_t len_utf32(uint32_t cp)
{
    (void)cp;
    return 4;
}
#define len_utf32le len_utf32
#define len_utf32be len_utf32

static inline void write_utf32le(uint8_t *p, uint32_t cp)
{
    p[0] = (uint8_t)cp;
    p[1] = (uint8_t)(cp >> 8);
    p[2] = (uint8_t)(cp >> 16);
    p[3] = (uint8_t)(cp >> 24);
}

static inline void write_utf32be(uint8_t *p, uint32_t cp)
{
    p[0] = (uint8_t)(cp >> 24);
    p[1] = (uint8_t)(cp >> 16);
    p[2] = (uint8_t)(cp >> 8);
    p[3] = (uint8_t)cp;
}

/* One byte, the value's (ISO-8859-1: the target's limit holds it to 0xFF). */
static inline size_t len_octet(uint32_t cp)
{
    (void)cp;
    return 1;
}

static inline void write_octet(uint8_t *p, uint32_t cp)
{
    p[0] = (uint8_t)cp;
}

/* UTF-7's writer keeps state (output/utf7_writer.h, which put() calls for
 * it); here only the most a character takes: "+", six base64 characters (a
 * pair), "-" (for sizes). */
static inline size_t len_utf7(uint32_t cp)
{
    (void)cp;
    return 1 + 6 + 1;
}

static inline void write_utf7(uint8_t *p, uint32_t cp)
{
    (void)p, (void)cp; /* never called: put() writes UTF-7 with its own writer */
}

/* The target a value that names no encoding (a corrupted state, a bad
 * argument) is written in: UTF-8, row 0, as an all-zero encoder writes,
 * whose limit limit_of gives it and whose unit utfdfa_unit_size counts for
 * it. The encoder and utfdfa_transcode both take it, never an index past
 * the rows. */
static inline unsigned known_target(unsigned to)
{
    return to < UTFDFA_NENCODINGS ? to : UTFDFA_UTF8;
}

/* The bytes cp takes in `to` (encodings.gen.h's writer case groups, whose
 * default is known_target's: UTF-8's writer). */
ALWAYS_INLINE size_t bytes_for(unsigned to, uint32_t cp)
{
    switch (to) {
#define LEN_CASE(writer, targets) targets return len_##writer(cp);
        UTFDFA_EACH_WRITER(LEN_CASE)
#undef LEN_CASE
    }
}

/* Write cp at p in `to`; the caller checked that it fits and the room. */
ALWAYS_INLINE void put_bytes(uint8_t *p, unsigned to, uint32_t cp)
{
    switch (to) {
#define WRITE_CASE(writer, targets)                                                        \
    targets write_##writer(p, cp);                                                         \
    break;
        UTFDFA_EACH_WRITER(WRITE_CASE)
#undef WRITE_CASE
    }
}

/* ------------------------------------------------------------ kernel forms
 * Which fast kernels (src/fast/kernels.h) read or write an encoding: its
 * form, or -1 (encodings.gen.h's lists, from the registry's kernel column). */
#define FORM_CASE(form, encodings) encodings return FORM_##form;
#define FORM_OF(name, list)                                                                \
    static inline int name(unsigned enc)                                                   \
    {                                                                                      \
        switch (enc) {                                                                     \
            list(FORM_CASE) default : return -1;                                           \
        }                                                                                  \
    }
/* A source of 16- or 32-bit units the unit kernels decode. */
FORM_OF(unit_form, UTFDFA_UNIT_FORMS)
/* A target the encoder's kernels write: for WTF-8 UTF-8's form, as they
 * write a surrogate value in its 3-byte form. */
FORM_OF(kernel_form, UTFDFA_KERNEL_FORMS)
/* A target that writes every scalar value in the form (the fused kernels). */
FORM_OF(wide_target, UTFDFA_WIDE_FORMS)
/* ASCII as one unit of its own value, the pairs the ASCII kernel copies. */
FORM_OF(ascii_source, UTFDFA_ASCII_SOURCE_FORMS)
FORM_OF(ascii_target, UTFDFA_ASCII_TARGET_FORMS)
#undef FORM_OF
#undef FORM_CASE

/* Corrected UTF-8's magic number: "The eight-byte sequence EF B7 9D ED B2
 * AE 00 0A ... the Corrected encoding of the four-codepoint sequence
 * U+10E7D U+ED4E U+0000 U+000A"; like a BOM it is a signature, not text. */
static const uint8_t corrected_magic[8] = {0xEF, 0xB7, 0x9D, 0xED, 0xB2, 0xAE, 0x00, 0x0A};
static const uint32_t corrected_magic_cp[4] = {0x10E7D, 0xED4E, 0x0000, 0x000A};

#endif /* UTFDFA_OUTPUT_FORMS_H */
