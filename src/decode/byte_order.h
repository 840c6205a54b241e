/* SPDX-License-Identifier: MIT */
/* UTF-16 and UTF-32 without a byte order (UTFDFA_UTF16, UTFDFA_UTF32),
 * as glibc's iconv and WHATWG have them (internal; not installed).
 *
 * Read: the stream's first unit decides. FE FF (00 00 FE FF) is
 * big-endian, FF FE (FF FE 00 00) little-endian, and that BOM is a
 * signature, not text; without one the stream is little-endian (RFC 2781
 * section 4.3 says big-endian, but iconv and WHATWG read little-endian,
 * and so did the utfdfa command). Once decided, the decoder is a
 * UTF-16LE/BE (UTF-32LE/BE) decoder: its source field says which.
 *
 * Written: a BOM, then little-endian, as iconv writes them.
 */
#ifndef UTFDFA_DECODE_BYTE_ORDER_H
#define UTFDFA_DECODE_BYTE_ORDER_H

#include "decode/deliver.h"

/* Which rows these are, and their byte orders, are the registry's
 * (encoding_rows.gen.h). */
static inline bool is_unordered(unsigned enc)
{
    return utfdfa_row_unordered(enc);
}

/* The little-endian form of UTF-16 or UTF-32 without a byte order. */
static inline enum utfdfa_encoding little_endian_of(unsigned enc)
{
    return utfdfa_little_endian_of(enc);
}

/* The call's decoder, whose source has no byte order yet, reads
 * src[0..*src_len) until the first unit decides it. true: decided
 * (*src_len bytes read, a BOM's, perhaps none), the caller decodes the rest
 * as the source the decoder now has; false: the call ends here with
 * *src_len bytes read and result *r. */
bool utfdfa__byte_order_resolve(const struct call *c, const uint8_t *src, size_t *src_len,
                                utfdfa_result *r);

/* Written into UTF-16 or UTF-32 without a byte order: a BOM before the
 * first character written, then little-endian text. The BOM mode acts on
 * the text: with UTFDFA_BOM_ADD the output starts with one U+FEFF (as into
 * UTF-16LE, not doubled, also when empty); otherwise the BOM is written
 * only when a character is (none for empty output), before a U+FEFF of the
 * text too. The writer's "BOM written" flag is its packed state
 * WRITER_BOM16 or WRITER_BOM32 (output/writer.h: the decoder's writer
 * byte, the encoder's): no other writer state exists for these targets. */
static const uint8_t unordered_bom[4] = {0xFF, 0xFE, 0, 0};

/* Room for the BOM in dst[0..cap) ahead of the text: the text's part. */
static inline uint8_t *after_bom(uint8_t *dst, size_t cap, size_t bom, size_t *text_cap)
{
    *text_cap = cap >= bom ? cap - bom : 0;
    return cap >= bom ? dst + bom : dst;
}

/* The text written at dst + bom (len bytes): the BOM goes before it. */
static inline size_t with_bom(uint8_t *dst, size_t bom, size_t len)
{
    if (len == 0)
        return 0;
    memcpy(dst, unordered_bom, bom);
    return bom + len;
}

#endif /* UTFDFA_DECODE_BYTE_ORDER_H */
