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
#ifndef UTFDFA_BYTE_ORDER_H
#define UTFDFA_BYTE_ORDER_H

#include "convert.h"

static inline bool is_unordered(unsigned enc)
{
    return enc == UTFDFA_UTF16 || enc == UTFDFA_UTF32;
}

/* The little-endian form of UTF-16 or UTF-32 without a byte order. */
static inline enum utfdfa_encoding little_endian_of(unsigned enc)
{
    return enc == UTFDFA_UTF16 ? UTFDFA_UTF16LE : UTFDFA_UTF32LE;
}

/* The decoder d, whose source has no byte order yet, reads src[0..*src_len)
 * until the first unit decides it. true: decided (*src_len bytes read, a
 * BOM's, perhaps none), the caller decodes the rest as the source d now
 * has; false: the call ends here with *src_len bytes read and result *r. */
bool utfdfa__byte_order_resolve(utfdfa_decoder *d, const uint8_t *src, size_t *src_len,
                                struct out *o, enum sink sink, unsigned to, bool last,
                                utfdfa_result *r);

/* utfdfa_transcode and utfdfa_encode into UTF-16 or UTF-32 without a byte
 * order (`to`): a BOM before the first character written, then
 * little-endian text. The BOM mode acts on the text: with
 * UTFDFA_BOM_ADD the output starts with one U+FEFF (as into UTF-16LE, not
 * doubled, also when empty); otherwise the BOM is written only when a
 * character is (none for empty output), before a U+FEFF of the text too. */
utfdfa_result utfdfa__transcode_unordered(utfdfa_decoder *d, enum utfdfa_encoding to,
                                          const uint8_t *src, size_t *src_len, uint8_t *dst,
                                          size_t *dst_len, bool last, utfdfa_error *err);
utfdfa_result utfdfa__encode_unordered(utfdfa_encoder *e, const uint32_t *src, size_t *src_len,
                                       uint8_t *dst, size_t *dst_len, bool last,
                                       utfdfa_error *err);

#endif /* UTFDFA_BYTE_ORDER_H */
