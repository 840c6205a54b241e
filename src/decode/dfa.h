/* SPDX-License-Identifier: MIT */
/* The decoder of every byte-oriented grammar (internal): it steps a DFA
 * generated from grammar/ (RFC 3629 section 4 and the others). */
#ifndef UTFDFA_DECODE_DFA_H
#define UTFDFA_DECODE_DFA_H

#include "decode/sink.h"
#include "corrected-utf-8.gen.h"
#include "utf8-rfc2279.gen.h"
#include "utf8.gen.h"
#include "cesu-8.gen.h"
#include "mutf-8.gen.h"
#include "wtf-8.gen.h"

/* The public taxonomy is the grammar's @error-kinds order. */
_Static_assert((int)UTF8_ERROR_UNEXPECTED_CONTINUATION == (int)UTFDFA_ERR_UNEXPECTED_CONTINUATION, "kinds");
_Static_assert((int)UTF8_ERROR_INVALID_LEAD == (int)UTFDFA_ERR_INVALID_LEAD, "kinds");
_Static_assert((int)UTF8_ERROR_OVERLONG == (int)UTFDFA_ERR_OVERLONG, "kinds");
_Static_assert((int)UTF8_ERROR_SURROGATE == (int)UTFDFA_ERR_SURROGATE, "kinds");
_Static_assert((int)UTF8_ERROR_TOO_LARGE == (int)UTFDFA_ERR_TOO_LARGE, "kinds");
_Static_assert((int)UTF8_ERROR_TRUNCATED == (int)UTFDFA_ERR_TRUNCATED, "kinds");
_Static_assert((int)UTF8_RFC2279_ERROR_TRUNCATED == (int)UTFDFA_ERR_TRUNCATED, "kinds");
_Static_assert((int)UTF8_RFC2279_NERROR_KINDS <= (int)UTFDFA_NERROR_KINDS, "kinds");
_Static_assert((int)CORRECTED_UTF_8_ERROR_TRUNCATED == (int)UTFDFA_ERR_TRUNCATED, "kinds");
_Static_assert((int)CORRECTED_UTF_8_ERROR_NUL == (int)UTFDFA_ERR_NUL, "kinds");
_Static_assert((int)CORRECTED_UTF_8_NERROR_KINDS <= (int)UTFDFA_NERROR_KINDS, "kinds");
_Static_assert((int)UTF7_ERROR_BAD_SHIFT == (int)UTFDFA_ERR_BAD_SHIFT, "kinds");
_Static_assert((int)UTF7_ERROR_PARTIAL_UNIT == (int)UTFDFA_ERR_PARTIAL_UNIT, "kinds");
_Static_assert((int)UTF7_ERROR_NONZERO_PADDING == (int)UTFDFA_ERR_NONZERO_PADDING, "kinds");
_Static_assert((int)UTF7_NERROR_KINDS == (int)UTFDFA_NERROR_KINDS, "kinds");

/* ------------------------------------------------------------ strict cores
 * Each reads src[0..*n), writes to o, and returns at the first error. The
 * byte that reveals an error inside a sequence is not consumed: it starts
 * the next one (maximal subparts, Unicode 3.9). A character whose last byte
 * finds no room in the output leaves that byte unread. */

/* Surrogate units: none in the grammar; CESU-8's (UTF-16 code units,
 * paired by the runtime); WTF-8's (surrogate code points, never a high one
 * followed by a low one). */
enum pairing { PAIRS_NONE, PAIRS_JOIN, PAIRS_WTF8 };

/* A generated DFA as the core loop sees it. Each instance is a constant, so
 * once core_dfa() is inlined with it the compiler knows every table. */
struct dfa {
    unsigned self;           /* the encoding it decodes */
    const uint8_t *byte_class;
    const uint8_t *trans8;   /* one of trans8 / trans16, by state count */
    const uint16_t *trans16;
    const uint8_t *payload_mask;
    const uint8_t *tag;      /* tag of a completing transition, or NULL */
    const uint32_t *offset;  /* value offset of each tag, or NULL */
    const uint8_t *error_class;
    const uint8_t *error_kind; /* [state number][error class] */
    uint32_t nstates, nclasses, nerror_classes, reject;
    const uint8_t *final_tag;  /* longest match: [state number] -> tag complete there */
    unsigned reserved_tag;     /* the tag of a unit without a value, or 0 */
    const uint8_t *magic;      /* a signature the stream may begin with, or NULL */
    enum pairing pairing;      /* what the runtime does with surrogate units */
};

#define DFA_TABLES(self, p, P, trans8, trans16, tag, offset, final_tag, reserved, magic,   \
                   pairs)                                                                   \
    {self, p##_class, trans8, trans16, p##_payload_mask, tag, offset, p##_error_class,     \
     &p##_error_kind[0][0], P##_NSTATES, P##_NCLASSES, P##_NERROR_CLASSES, P##_REJECT,       \
     final_tag,                                                                             \
     reserved, magic, pairs}

static const struct dfa dfa_utf8 =
    DFA_TABLES(UTFDFA_UTF8, utf8, UTF8, utf8_trans, NULL, NULL, NULL, NULL, 0, NULL,
               PAIRS_NONE);
static const struct dfa dfa_rfc2279 =
    DFA_TABLES(UTFDFA_UTF8_RFC2279, utf8_rfc2279, UTF8_RFC2279, utf8_rfc2279_trans, NULL, NULL,
               NULL, NULL, 0, NULL, PAIRS_NONE);
static const struct dfa dfa_corrected =
    DFA_TABLES(UTFDFA_CORRECTED_UTF8, corrected_utf_8, CORRECTED_UTF_8, NULL,
               corrected_utf_8_trans, corrected_utf_8_tag, corrected_utf_8_tag_offset,
               corrected_utf_8_final_tag, CORRECTED_UTF_8_RESERVED_TAG, corrected_magic, PAIRS_NONE);
static const struct dfa dfa_cesu8 =
    DFA_TABLES(UTFDFA_CESU8, cesu_8, CESU_8, cesu_8_trans, NULL, NULL, NULL, NULL, 0, NULL,
               PAIRS_JOIN);
static const struct dfa dfa_mutf8 =
    DFA_TABLES(UTFDFA_MUTF8, mutf_8, MUTF_8, mutf_8_trans, NULL, NULL, NULL, NULL, 0, NULL,
               PAIRS_JOIN);
static const struct dfa dfa_wtf8 =
    DFA_TABLES(UTFDFA_WTF8, wtf_8, WTF_8, wtf_8_trans, NULL, NULL, NULL, NULL, 0, NULL, PAIRS_WTF8);
_Static_assert((int)CESU_8_ERROR_TRUNCATED == (int)UTFDFA_ERR_TRUNCATED, "kinds");
_Static_assert((int)MUTF_8_ERROR_NUL == (int)UTFDFA_ERR_NUL, "kinds");
_Static_assert(CORRECTED_UTF_8_TAG_BEFORE == 0x80, "the runtime's TAG_BEFORE");
enum { TAG_BEFORE = 0x80 };

/* Every decoder grammar has the start state as its only accepting state. */
enum { DFA_ACCEPT = 0 };

ALWAYS_INLINE uint32_t dfa_next(const struct dfa *t, uint32_t state, uint32_t cls)
{
    return t->trans8 ? t->trans8[state + cls] : t->trans16[state + cls];
}

/* Whether a DFA state lies inside a reserved unit (whose length `partial`
 * counts, as it has no value). */
ALWAYS_INLINE bool in_reserved(const struct dfa *t, uint32_t state)
{
    return t->reserved_tag && t->final_tag[state / t->nclasses] == t->reserved_tag;
}

/* A unit is complete: deliver its value, or handle a reserved unit, which
 * only the same encoding carries (passed through byte by byte as it came),
 * only validation accepts silently, and anything else reports. */
ALWAYS_INLINE enum delivery complete(struct decoder *d, struct out *o, enum sink sink,
                                     unsigned to, unsigned limit, const struct dfa *t,
                                     unsigned tag, uint32_t value, uint64_t at, uint32_t length,
                                     utfdfa_error *err)
{
    if (t->reserved_tag && tag == t->reserved_tag) {
        if (sink == SINK_NONE || ((sink == SINK_BYTES || sink == SINK_CODES) && to == t->self))
            return DELIVERED;
        return fail(d, o, sink, to, at, value, UTFDFA_ERR_RESERVED, err) ? UNFIT : NO_ROOM;
    }
    if (t->offset)
        value += t->offset[tag];
    if (t->self == UTFDFA_CORRECTED_UTF8 && (options_of(d) & UTFDFA_CORRECTED_PUA) &&
        pua_image(value))
        value -= PUA_SHIFT;
    if (t->magic && !(d->flags & F_NOMAGIC))
        return DELIVERED; /* a character of the magic number: held (see magic_byte) */
    return deliver(d, o, sink, to, limit, value, at, length, err);
}

/* The magic number is decided byte by byte at stream offsets 0-7. While the
 * stream matches it, the characters it completes are held back; they are
 * known from the offset alone, so nothing needs storing. release() writes
 * those completed before offset p once the stream turns out otherwise; its
 * U+0000 (offset 6) is then an error like any other. */
ALWAYS_INLINE enum delivery release(struct decoder *d, struct out *o, enum sink sink, unsigned to,
                                    uint64_t p, utfdfa_error *err)
{
    size_t held = (p > 2) + (p > 5);
    uint32_t out[3] = {corrected_magic_cp[0], corrected_magic_cp[1], REPLACEMENT};
    out[held] = REPLACEMENT;
    if (!ensure_room(d, o, sink, to, out,
                     held + (p > 6 && ERRORS(d->config) == UTFDFA_REPLACE), 0))
        return NO_ROOM;
    for (size_t k = 0; k < held; k++)
        put(o, sink, to, corrected_magic_cp[k]);
    d->flags |= F_NOMAGIC;
    if (p > 6) {
        report(err, 6, 1, UTFDFA_ERR_NUL);
        return UNFIT;
    }
    return DELIVERED;
}

/* A kept magic number is four characters, U+0000 among them: code points
 * for a Corrected UTF-8 writer (utfdfa_decoder_set_target) cannot carry
 * it, so there it is text after all (release: its U+0000 is the error). */
ALWAYS_INLINE bool magic_unwritable(const struct decoder *d, enum sink sink)
{
    return BOM_MODE(d->flags) == UTFDFA_BOM_KEEP && sink == SINK_U32 &&
           limit_field(d) == LIMIT_CORRECTED;
}

/* The stream's whole magic number has been read: a signature. Kept, it is
 * its four characters (the same bytes again in Corrected UTF-8). */
ALWAYS_INLINE enum delivery magic_read(struct decoder *d, struct out *o, enum sink sink,
                                       unsigned to)
{
    if (BOM_MODE(d->flags) == UTFDFA_BOM_KEEP && sink != SINK_NONE) {
        if (!room(o, sink, sig_is_magic(sink, to)
                               ? sig_units(o, sink, to)
                               : units_after(o, sink, to, false, corrected_magic_cp, 4)))
            return NO_ROOM;
        if (sig_is_magic(sink, to)) {
            put_sig(o, sink, to);
        } else {
            for (size_t k = 0; k < 4; k++)
                put(o, sink, to, corrected_magic_cp[k]);
        }
        d->flags |= F_STARTED;
    }
    d->flags |= F_NOMAGIC;
    return DELIVERED;
}

/* CESU-8 and modified UTF-8 (PAIRS_JOIN): the units are UTF-16 code units,
 * paired as a UTF-16 decoder pairs them (UTR #26: "each surrogate ... is
 * encoded as a 3-byte sequence"). A high surrogate is held (partial's upper
 * half) until the unit after it: a low surrogate makes one character of
 * the six bytes; anything else makes the high one an error of its three
 * bytes, and what follows is decoded anew. A lone low surrogate is an
 * error of its three bytes.
 * WTF-8 (PAIRS_WTF8): surrogates are code points of their own; partial's
 * upper half says the unit before was a high surrogate, and then a low one
 * is the error (its three bytes): the pair has a 4-byte sequence. */
enum { PAIR_HALF = 3 };

/* With a high surrogate held, whether byte b (the unit's byte number
 * `pending`, stepping to `next`) can still be part of a low surrogate's
 * sequence, ED B0-BF 80-BF. */
ALWAYS_INLINE bool low_goes_on(unsigned pending, uint8_t b, bool rejects)
{
    return pending == 0 ? b == 0xED : pending == 1 ? (b >= 0xB0 && b <= 0xBF) : !rejects;
}

ALWAYS_INLINE utfdfa_result core_dfa(struct decoder *d, const uint8_t *src, size_t *n,
                                     struct out *o, enum sink sink, unsigned to, bool last,
                                     const struct dfa *t, utfdfa_error *err)
{
    bool pairs = t->pairing != PAIRS_NONE, join = t->pairing == PAIRS_JOIN;
    uint32_t state = sequence_state_of(d, t->nstates, t->nclasses);
    uint32_t cp = pairs ? d->partial & 0xFFFF : d->partial;
    uint32_t hold = pairs ? d->partial >> 16 : 0; /* JOIN: a held high surrogate; WTF8: 1
                                                      after a high surrogate */
    unsigned pending = PENDING(d->flags);
    unsigned limit = sink_limit(d, sink, to);
    bool passthrough =
        t->reserved_tag && (sink == SINK_BYTES || sink == SINK_CODES) && to == t->self;
    size_t i = 0, len = *n;
    utfdfa_result r = UTFDFA_INPUT_EMPTY;
    while (i < len) {
        uint8_t b = src[i];
        if (t->magic && !(d->flags & F_NOMAGIC)) {
            uint64_t p = d->offset + i;
            bool matches = p < 8 && b == t->magic[p] && !(p == 7 && magic_unwritable(d, sink));
            if (matches && p >= 6) {
                /* Its U+0000 is held, not an error; its U+000A ends it. */
                if (p == 7 && magic_read(d, o, sink, to) == NO_ROOM) {
                    r = UTFDFA_OUTPUT_FULL;
                    break;
                }
                i++;
                continue;
            }
            if (!matches) {
                enum delivery dv = release(d, o, sink, to, p, err);
                if (dv != DELIVERED) {
                    r = dv == NO_ROOM ? UTFDFA_OUTPUT_FULL : UTFDFA_MALFORMED;
                    break;
                }
            }
        }
        uint32_t cls = t->byte_class[b];
        uint32_t next = dfa_next(t, state, cls);
        if (join && hold && !low_goes_on(pending, b, next == t->reject)) {
            /* The held high surrogate has no low one: it is the error; this
             * byte is stepped again without it. */
            if (!fail(d, o, sink, to, d->offset + i - pending - PAIR_HALF, PAIR_HALF,
                      UTFDFA_ERR_SURROGATE, err)) {
                r = UTFDFA_OUTPUT_FULL;
                break;
            }
            hold = 0;
            r = UTFDFA_MALFORMED;
            break;
        }
        if (next == DFA_ACCEPT) {
            /* A unit is complete: with this byte, or (longest match) before
             * it, when this byte is then stepped again from the start. */
            unsigned tag = t->tag ? t->tag[state + cls] : 0;
            bool before = tag & TAG_BEFORE;
            uint32_t v = before ? cp : cp << 6 | (b & t->payload_mask[cls]);
            uint32_t length = before ? pending : pending + 1;
            uint32_t back = before ? (in_reserved(t, state) ? cp : pending) : pending;
            if (join && hold) { /* v is the low surrogate (low_goes_on) */
                v = 0x10000 + ((hold - 0xD800) << 10) + (v - 0xDC00);
                back += PAIR_HALF;
                length += PAIR_HALF;
            } else if (join && is_high(v)) {
                hold = v;
                state = DFA_ACCEPT;
                cp = 0;
                pending = 0;
                i++;
                continue;
            } else if ((join || hold) && is_low(v)) {
                if (!fail(d, o, sink, to, d->offset + i - back, length, UTFDFA_ERR_SURROGATE,
                          err)) {
                    r = UTFDFA_OUTPUT_FULL;
                    break;
                }
                hold = 0;
                state = DFA_ACCEPT;
                cp = 0;
                pending = 0;
                i++;
                r = UTFDFA_MALFORMED;
                break;
            }
            enum delivery dv = complete(d, o, sink, to, limit, t, tag & (TAG_BEFORE - 1), v,
                                        d->offset + i - back, length, err);
            if (dv == NO_ROOM) {
                r = UTFDFA_OUTPUT_FULL;
                break;
            }
            hold = t->pairing == PAIRS_WTF8 && is_high(v);
            state = DFA_ACCEPT;
            cp = 0;
            pending = 0;
            i += !before;
            if (dv == UNFIT) {
                r = UTFDFA_MALFORMED;
                break;
            }
        } else if (next != t->reject) {
            if (in_reserved(t, next)) { /* no value: count the bytes, pass them through */
                if (passthrough && !ensure_room(d, o, sink, to, NULL, 0, 1)) {
                    r = UTFDFA_OUTPUT_FULL;
                    break;
                }
                if (passthrough && sink == SINK_CODES)
                    ((uint32_t *)o->p)[o->len++] = CODE_RAW_BYTE | b;
                else if (passthrough)
                    ((uint8_t *)o->p)[o->len++] = b;
                cp++;
                pending += pending < 7;
            } else {
                cp = cp << 6 | (b & t->payload_mask[cls]);
                pending++;
            }
            state = next;
            i++;
        } else {
            enum utfdfa_error_kind kind = (enum utfdfa_error_kind)
                t->error_kind[state / t->nclasses * t->nerror_classes + t->error_class[b]];
            /* At a start this byte alone is the error; inside a sequence the
             * sequence so far is, and this byte starts anew. */
            bool alone = state == DFA_ACCEPT;
            if (!fail(d, o, sink, to, d->offset + i - pending, alone ? 1 : pending, kind, err)) {
                r = UTFDFA_OUTPUT_FULL;
                break;
            }
            i += alone;
            state = DFA_ACCEPT;
            cp = 0;
            pending = 0;
            hold = join ? hold : 0; /* WTF-8: what follows an error follows no high surrogate */
            r = UTFDFA_MALFORMED;
            break;
        }
    }
    if (r == UTFDFA_INPUT_EMPTY && last && t->magic && !(d->flags & F_NOMAGIC)) {
        /* The input ends inside the magic number: it was text after all. */
        enum delivery dv = release(d, o, sink, to, d->offset + i, err);
        if (dv != DELIVERED)
            r = dv == NO_ROOM ? UTFDFA_OUTPUT_FULL : UTFDFA_MALFORMED;
    }
    if (r == UTFDFA_INPUT_EMPTY && last && pending && t->final_tag &&
        t->final_tag[state / t->nclasses]) {
        /* Longest match: the end of input ends the unit. */
        unsigned tag = t->final_tag[state / t->nclasses];
        uint32_t back = in_reserved(t, state) ? cp : pending;
        enum delivery dv = complete(d, o, sink, to, limit, t, tag, cp, d->offset + i - back,
                                    pending, err);
        if (dv == NO_ROOM)
            r = UTFDFA_OUTPUT_FULL;
        else {
            state = DFA_ACCEPT;
            cp = 0;
            pending = 0;
            r = dv == UNFIT ? UTFDFA_MALFORMED : r;
        }
    }
    if (r == UTFDFA_INPUT_EMPTY && last && join && hold) {
        /* The input ends after a high surrogate (and perhaps the start of
         * one more unit, reported next as truncated). */
        if (fail(d, o, sink, to, d->offset + i - pending - PAIR_HALF, PAIR_HALF,
                 UTFDFA_ERR_SURROGATE, err)) {
            hold = 0;
            r = UTFDFA_MALFORMED;
        } else {
            r = UTFDFA_OUTPUT_FULL;
        }
    }
    return finish(d, o, sink, to, last, r, state, t->nclasses, cp | hold << 16, pending,
                  UTFDFA_ERR_TRUNCATED, i, n, err);
}

#endif /* UTFDFA_DECODE_DFA_H */
