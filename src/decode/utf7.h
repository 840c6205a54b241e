/* SPDX-License-Identifier: MIT */
/* The UTF-7 decoders (internal). */
#ifndef UTFDFA_DECODE_UTF7_H
#define UTFDFA_DECODE_UTF7_H

#include "decode/sink.h"
#include "utf7.gen.h"
#include "utf7-imap.gen.h"

/* UTF-7 (RFC 2152), from the tables of grammar/utf7.abnf, and IMAP's
 * modified UTF-7 (RFC 3501 section 5.1.3), from grammar/utf7-imap.abnf. The
 * table knows the direct characters, the shift syntax, the base64 bit phase
 * (its marks say where a 16-bit unit completes and how many bits stay
 * over) and which ends of a run are valid. The runtime adds what a table
 * cannot hold:
 *   - pairing the 16-bit units into characters (Rule 2: "Surrogate pairs
 *     ... as a separate 16 bit quantity"); a lone surrogate is an error
 *     covering the base64 characters that carried its bits;
 *   - an error at the end of a run covers its partial unit, not the whole
 *     run (pending counts the characters carrying the current unit's bits;
 *     with none, the run's last character), and a "-" after it still ends
 *     the shift ("that character is absorbed");
 *   - UTF-7: the end of input ends a run like a character outside Set B;
 *     IMAP: "There is no implicit shift", so it is truncated there;
 *   - IMAP: "Modified BASE64 MUST NOT be used to represent any printing
 *     US-ASCII character" (an overlong error of that unit's characters), and
 *     "null shifts ... are not permitted" (a run right after a run: a
 *     bad-shift error of its "&", then the run is decoded).
 * partial holds the leftover bits (0-14, bits 0-13) and a pending high
 * surrogate: its low 10 bits (14-23), present (24), 4 characters long
 * (25), and how many bytes back it began (26-29); IMAP: a run has just
 * ended (30). */
#define U7_ACC(p) ((p) & 0x3FFFu)
#define U7_HAS_HIGH 0x1000000u
#define U7_AFTER_RUN 0x40000000u
#define U7_HIGH(p) (0xD800u | ((p) >> 14 & 0x3FFu))
#define U7_HIGH_LEN(p) (3u + ((p) >> 25 & 1u))
#define U7_HIGH_BACK(p) ((p) >> 26 & 15u)
#define U7_WITH_HIGH(acc, unit, len, back)                                                 \
    ((acc) | ((unit) & 0x3FFu) << 14 | U7_HAS_HIGH | ((len) == 4u) << 25 | (uint32_t)(back) << 26)
_Static_assert(UTF7_TAG_BEFORE == 0x80, "the runtime's TAG_BEFORE");
_Static_assert((int)UTF7_VALUE_LITERAL == (int)UTF7_IMAP_VALUE_LITERAL &&
                   (int)UTF7_VALUE_EMPTY == (int)UTF7_IMAP_VALUE_EMPTY &&
                   (int)UTF7_VALUE_SPLIT == (int)UTF7_IMAP_VALUE_SPLIT &&
                   UTF7_ACCEPT == UTF7_IMAP_ACCEPT,
               "the generator numbers values alike");
_Static_assert(UTF7_DIGIT_BITS == UTF7_IMAP_DIGIT_BITS, "base64 both");

/* The tables of one UTF-7 grammar. */
struct u7g {
    const uint8_t *cls, *trans, *tag, *tag_value, *digit, *error_class, *error_kind;
    const uint32_t *tag_number;
    unsigned nstates, nclasses, nerror_classes, reject;
    bool imap;
};
#define U7G(p, P, imap)                                                                     \
    {p##_class, p##_trans, p##_tag, p##_tag_value, p##_digit, p##_error_class,             \
     &p##_error_kind[0][0], p##_tag_number, P##_NSTATES, P##_NCLASSES, P##_NERROR_CLASSES,  \
     P##_REJECT, imap}
static const struct u7g u7g_utf7 = U7G(utf7, UTF7, false);
static const struct u7g u7g_imap = U7G(utf7_imap, UTF7_IMAP, true);

/* A run reads one more byte while a high surrogate waits: one more back. */
ALWAYS_INLINE uint32_t u7_step_back(uint32_t partial)
{
    return partial & U7_HAS_HIGH ? partial + (1u << 26) : partial;
}

/* A pending high surrogate without its low one is the error (the
 * characters that carried it); the byte at `here` is stepped again
 * without it. */
ALWAYS_INLINE utfdfa_result u7_lone_high(struct decoder *d, struct out *o, enum sink sink,
                                         unsigned to, uint64_t here, uint32_t *partial,
                                         utfdfa_error *err)
{
    if (!fail(d, o, sink, to, here - U7_HIGH_BACK(*partial), U7_HIGH_LEN(*partial),
              UTFDFA_ERR_SURROGATE, err))
        return UTFDFA_OUTPUT_FULL;
    *partial = U7_ACC(*partial);
    return UTFDFA_MALFORMED;
}

ALWAYS_INLINE utfdfa_result core_utf7(struct decoder *d, const uint8_t *src, size_t *n,
                                      struct out *o, enum sink sink, unsigned to, bool last,
                                      const struct u7g *g, utfdfa_error *err)
{
    uint32_t state = state_of(d, g->nstates, g->nclasses), partial = d->partial;
    unsigned pending = PENDING(d->flags);
    unsigned limit = sink_limit(d, sink, to);
    size_t i = 0, len = *n;
    utfdfa_result r = UTFDFA_INPUT_EMPTY;
    for (;;) {
        /* The end of input steps like "." (outside Set B, not absorbed). */
        bool end = i == len;
        if (end && !(last && state != UTF7_ACCEPT))
            break;
        uint8_t b = end ? '.' : src[i];
        uint32_t cls = g->cls[b];
        uint32_t next = g->trans[state + cls];
        unsigned tag = g->tag[state + cls];
        uint64_t here = d->offset + i;
        bool ends_run = next == g->reject || (next == UTF7_ACCEPT &&
                                              g->tag_value[tag & 0x7F] == UTF7_VALUE_EMPTY);
        if (ends_run && state != UTF7_ACCEPT && (partial & U7_HAS_HIGH)) {
            /* A high surrogate left alone at the end of its run. */
            r = u7_lone_high(d, o, sink, to, here, &partial, err);
            break;
        }
        if (g->imap && (partial & U7_AFTER_RUN) && state != UTF7_ACCEPT && !end &&
            g->digit[b] != 0xFF) {
            /* "-&" and a run: a null shift. Its "&" is the error; the run
             * goes on (this byte is stepped again). */
            if (!fail(d, o, sink, to, here - 1, 1, UTFDFA_ERR_BAD_SHIFT, err)) {
                r = UTFDFA_OUTPUT_FULL;
                break;
            }
            partial &= ~U7_AFTER_RUN;
            r = UTFDFA_MALFORMED;
            break;
        }
        if (next == g->reject) {
            enum utfdfa_error_kind kind = (enum utfdfa_error_kind)
                g->error_kind[state / g->nclasses * g->nerror_classes + g->error_class[b]];
            bool alone = state == UTF7_ACCEPT; /* a byte that may not be sent directly */
            bool shift = kind == UTFDFA_ERR_BAD_SHIFT && pending == 0 &&
                         state == g->trans[UTF7_ACCEPT + g->cls[g->imap ? '&' : '+']];
            if (end && (shift || g->imap))
                kind = UTFDFA_ERR_TRUNCATED; /* the shift character, or a run, and then nothing */
            unsigned span = pending ? pending : 1; /* the partial unit, else the last character */
            uint64_t at = alone ? here : here - span;
            if (!fail(d, o, sink, to, at, alone ? 1 : span, kind, err)) {
                r = UTFDFA_OUTPUT_FULL;
                break;
            }
            /* After a run that ended in error, its "-" still ends the shift. */
            i += alone || (!end && b == '-' && !shift);
            state = UTF7_ACCEPT;
            partial = 0;
            pending = 0;
            r = UTFDFA_MALFORMED;
            break;
        }
        if (next == UTF7_ACCEPT) {
            bool before = tag & TAG_BEFORE;
            tag &= 0x7F;
            unsigned value = g->tag_value[tag];
            if (value != UTF7_VALUE_EMPTY) {
                /* A direct character, or the constant of "+-" ("&-"). */
                bool literal = value == UTF7_VALUE_LITERAL;
                uint32_t cp = literal ? b : g->tag_number[tag];
                enum delivery dv = deliver(d, o, sink, to, limit, cp, here - !literal,
                                           literal ? 1 : 2, err);
                if (dv == NO_ROOM) {
                    r = UTFDFA_OUTPUT_FULL;
                    break;
                }
                i++;
                state = UTF7_ACCEPT;
                partial &= ~U7_AFTER_RUN;
                if (dv == UNFIT) {
                    r = UTFDFA_MALFORMED;
                    break;
                }
                continue;
            }
            /* A run ended well: "-" is absorbed, anything else read again. */
            i += !before && !end;
            state = UTF7_ACCEPT;
            partial = g->imap ? U7_AFTER_RUN : 0;
            pending = 0;
            continue;
        }
        /* Inside a unit: the shift character adds no bits, base64
         * characters 6 each; pending counts the characters carrying the
         * current unit's bits. */
        if (state == UTF7_ACCEPT) {
            state = next;
            i++;
            continue;
        }
        partial &= ~U7_AFTER_RUN;
        uint32_t acc = U7_ACC(partial) << UTF7_DIGIT_BITS | g->digit[b];
        unsigned carried = pending + 1;
        if (!tag || g->tag_value[tag] != UTF7_VALUE_SPLIT) {
            partial = u7_step_back((partial & ~0x3FFFu) | acc);
            pending = carried;
            state = next;
            i++;
            continue;
        }
        unsigned keep = g->tag_number[tag];
        uint32_t unit = acc >> keep, rest = acc & ((1u << keep) - 1);
        unsigned after = keep ? 1 : 0; /* this character also begins the next unit */
        bool high_waits = partial & U7_HAS_HIGH;
        uint64_t unit_at = here + 1 - carried;
        if (high_waits && !is_low(unit)) {
            /* A high surrogate not followed by a low one. */
            r = u7_lone_high(d, o, sink, to, here, &partial, err);
            break;
        }
        if (is_high(unit)) {
            partial = U7_WITH_HIGH(rest, unit, carried, carried);
            pending = after;
            state = next;
            i++;
            continue;
        }
        bool printable = g->imap && unit >= 0x20 && unit <= 0x7E;
        if ((is_low(unit) && !high_waits) || printable) {
            if (!fail(d, o, sink, to, unit_at, carried,
                      printable ? UTFDFA_ERR_OVERLONG : UTFDFA_ERR_SURROGATE, err)) {
                r = UTFDFA_OUTPUT_FULL;
                break;
            }
            partial = rest;
            pending = after;
            state = next;
            i++;
            r = UTFDFA_MALFORMED;
            break;
        }
        uint32_t cp = unit;
        if (high_waits) {
            cp = 0x10000 + ((U7_HIGH(partial) - 0xD800) << 10) + (unit - 0xDC00);
            unit_at = here - U7_HIGH_BACK(partial);
        }
        enum delivery dv = deliver(d, o, sink, to, limit, cp, unit_at,
                                   (uint32_t)(here + 1 - unit_at), err);
        if (dv == NO_ROOM) {
            r = UTFDFA_OUTPUT_FULL;
            break;
        }
        partial = rest;
        pending = after;
        state = next;
        i++;
        if (dv == UNFIT) {
            r = UTFDFA_MALFORMED;
            break;
        }
    }
    set_state(d, state, g->nclasses);
    d->partial = partial;
    set_pending(d, pending);
    d->offset += i;
    *n = i;
    return r;
}

#endif /* UTFDFA_DECODE_UTF7_H */
