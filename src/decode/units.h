/* SPDX-License-Identifier: MIT */
/* The decoders of UTF-16 and UTF-32 / UCS-4 (internal). */
#ifndef UTFDFA_DECODE_UNITS_H
#define UTFDFA_DECODE_UNITS_H

#include "decode/deliver.h"

/* The unit decoders' arguments, as the registry's decoder column gives them
 * (encodings.gen.h's UTFDFA_EACH_DECODER): the byte order of a unit, and
 * whether a 32-bit unit may hold any value (UCS-4) or only scalar values. */
enum { UNITS_LE = false, UNITS_BE = true };
enum { SCALAR_VALUES = false, ANY_VALUE = true };

/* UTF-16: partial holds the pending byte (bits 0-7) and a pending high
 * surrogate (bits 16-31); pending counts the bytes of both (0-3). */
ALWAYS_INLINE utfdfa_result core_utf16(const struct call *c, const uint8_t *src, size_t *n,
                                       bool big_endian)
{
    struct decoder *d = c->d;
    uint32_t partial = d->partial;
    unsigned pending = PENDING(d->flags);
    unsigned limit = sink_limit(d, c->sink, c->to);
    size_t i = 0, len = *n;
    utfdfa_result r = UTFDFA_INPUT_EMPTY;
    while (i < len) {
        uint8_t b = src[i];
        if (pending == 0 || pending == 2) {
            partial = (partial & 0xFFFF0000u) | b;
            pending++;
            i++;
            continue;
        }
        uint32_t first = partial & 0xFF;
        uint32_t u = big_endian ? first << 8 | b : b << 8 | first;
        if (pending == 1) {
            if (u >= 0xD800 && u <= 0xDBFF) {
                partial = u << 16;
                pending = 2;
                i++;
            } else if (u >= 0xDC00 && u <= 0xDFFF) {
                if (!fail(c, d->offset + i - 1, 2, UTFDFA_ERR_SURROGATE)) {
                    r = UTFDFA_OUTPUT_FULL;
                    break;
                }
                partial = 0;
                pending = 0;
                i++;
                r = UTFDFA_MALFORMED;
                break;
            } else {
                enum delivery dv = deliver(c, limit, u, d->offset + i - 1, 2);
                if (dv == NO_ROOM) {
                    r = UTFDFA_OUTPUT_FULL;
                    break;
                }
                partial = 0;
                pending = 0;
                i++;
                if (dv == UNFIT) {
                    r = UTFDFA_MALFORMED;
                    break;
                }
            }
        } else { /* pending == 3: a high surrogate, then one byte */
            uint32_t high = partial >> 16;
            if (u >= 0xDC00 && u <= 0xDFFF) {
                uint32_t cp = 0x10000 + ((high - 0xD800) << 10) + (u - 0xDC00);
                enum delivery dv = deliver(c, limit, cp, d->offset + i - 3, 4);
                if (dv == NO_ROOM) {
                    r = UTFDFA_OUTPUT_FULL;
                    break;
                }
                partial = 0;
                pending = 0;
                i++;
                if (dv == UNFIT) {
                    r = UTFDFA_MALFORMED;
                    break;
                }
            } else {
                /* A lone high surrogate: it is the error; the unit after it
                 * is decoded anew (WHATWG), its first byte kept pending. */
                if (!fail(c, d->offset + i - 3, 2, UTFDFA_ERR_SURROGATE)) {
                    r = UTFDFA_OUTPUT_FULL;
                    break;
                }
                partial = first;
                pending = 1;
                r = UTFDFA_MALFORMED;
                break;
            }
        }
    }
    /* WHATWG: whatever is pending at the end is one error, a sequence cut
     * short (a high surrogate waiting for its low one too): truncated. */
    return finish(c, r, (struct held){0, partial, pending}, 1, i, n);
}

/* UTF-32 (raw: UCS-4, any 32-bit value): partial gathers the bytes of one unit. */
ALWAYS_INLINE utfdfa_result core_utf32(const struct call *c, const uint8_t *src, size_t *n,
                                       bool big_endian, bool raw)
{
    struct decoder *d = c->d;
    uint32_t partial = d->partial;
    unsigned pending = PENDING(d->flags);
    pending = pending > 3 ? 3 : pending; /* a unit has 4 bytes (a corrupted decoder: more) */
    unsigned limit = sink_limit(d, c->sink, c->to);
    size_t i = 0, len = *n;
    utfdfa_result r = UTFDFA_INPUT_EMPTY;
    while (i < len) {
        uint32_t b = src[i];
        uint32_t u = big_endian ? partial << 8 | b : partial | b << (8 * pending);
        if (pending < 3) {
            partial = u;
            pending++;
            i++;
            continue;
        }
        /* UTF-32 holds scalar values only (errors of the input); raw UCS-4
         * holds anything, and only the output decides. */
        enum utfdfa_error_kind kind = raw ? UTFDFA_ERR_NONE : not_scalar(u);
        enum delivery dv = kind != UTFDFA_ERR_NONE
            ? (fail(c, d->offset + i - 3, 4, kind) ? UNFIT : NO_ROOM)
            : deliver(c, limit, u, d->offset + i - 3, 4);
        if (dv == NO_ROOM) {
            r = UTFDFA_OUTPUT_FULL;
            break;
        }
        partial = 0;
        pending = 0;
        i++;
        if (dv != DELIVERED) {
            r = UTFDFA_MALFORMED;
            break;
        }
    }
    return finish(c, r, (struct held){0, partial, pending}, 1, i, n);
}

#endif /* UTFDFA_DECODE_UNITS_H */
