/* SPDX-License-Identifier: MIT */
/* Valid UTF-8 one character at a time: the tail the SIMD transcoders'
 * windows leave, on every ISA. A lead byte's length comes from the
 * grammar's tables (longer_min), not from constants typed here. */
#ifndef UTFDFA_FAST_UTF8_VALID_SCALAR_H
#define UTFDFA_FAST_UTF8_VALID_SCALAR_H

#include "common.h"
#include "utf8.shuffle.gen.h"

/* p[0..n) is valid UTF-8 of whole characters. Writes its code points to
 * dst, unaligned, as UTF-32 or (u16) UTF-16 units in native order, and
 * returns the units written. */
FAST_INLINE size_t fast_valid_scalar(const uint8_t *p, size_t n, uint8_t *dst, bool u16)
{
    const uint8_t *longer = utf8_simd_tables.longer_min; /* byte >= [j-1]: over j bytes */
    size_t i = 0, o = 0;
    while (i < n) {
        uint32_t b = p[i], c;
        if (b < longer[0]) {
            c = b;
            i += 1;
        } else if (b < longer[1]) {
            c = (b & 0x1F) << 6 | (p[i + 1] & 0x3Fu);
            i += 2;
        } else if (b < longer[2]) {
            c = (b & 0x0F) << 12 | (p[i + 1] & 0x3Fu) << 6 | (p[i + 2] & 0x3Fu);
            i += 3;
        } else {
            c = (b & 0x07) << 18 | (p[i + 1] & 0x3Fu) << 12 | (p[i + 2] & 0x3Fu) << 6 |
                (p[i + 3] & 0x3Fu);
            i += 4;
        }
        if (!u16) {
            memcpy(dst + 4 * o++, &c, 4);
            continue;
        }
        uint16_t u[2] = {(uint16_t)c, 0};
        if (c >= 0x10000)
            u[0] = (uint16_t)((c >> 10) + 0xD7C0), u[1] = (uint16_t)(0xDC00 | (c & 0x3FF));
        memcpy(dst + 2 * o, u, c >= 0x10000 ? 4 : 2);
        o += 1 + (c >= 0x10000);
    }
    return o;
}

#endif /* UTFDFA_FAST_UTF8_VALID_SCALAR_H */
