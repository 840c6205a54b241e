/* SPDX-License-Identifier: MIT */
/*
 * ref_utf32.c - reference UTF-32 decoder/encoder; see ref_utf32.h.
 */
#include "ref_utf32.h"

static size_t result(size_t len, enum ref_kind k, uint32_t value, uint32_t *cp,
                     enum ref_kind *kind)
{
    if (kind != NULL)
        *kind = k;
    if (cp != NULL)
        *cp = (k == REF_OK) ? value : 0;
    return len;
}

size_t ref_utf32_next(const unsigned char *s, size_t n, int big_endian, uint32_t *cp,
                      enum ref_kind *kind)
{
    uint32_t u;

    if (n == 0)
        return result(0, REF_TRUNCATED, 0, cp, kind);
    if (n < 4) /* a partial unit at the end: one error */
        return result(n, REF_TRUNCATED, 0, cp, kind);
    if (big_endian)
        u = (uint32_t)s[0] << 24 | (uint32_t)s[1] << 16 | (uint32_t)s[2] << 8 | s[3];
    else
        u = (uint32_t)s[3] << 24 | (uint32_t)s[2] << 16 | (uint32_t)s[1] << 8 | s[0];
    if (u > 0x10FFFF)
        return result(4, REF_TOO_LARGE, 0, cp, kind);
    if (u >= 0xD800 && u <= 0xDFFF)
        return result(4, REF_SURROGATE, 0, cp, kind);
    return result(4, REF_OK, u, cp, kind);
}

size_t ref_utf32_encode(uint32_t cp, int big_endian, unsigned char out[4])
{
    if ((cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
        return 0;
    for (int i = 0; i < 4; i++)
        out[big_endian ? i : 3 - i] = (unsigned char)(cp >> (8 * (3 - i)));
    return 4;
}
