/* SPDX-License-Identifier: MIT */
/* The decoder of every byte-oriented grammar (internal): it steps a DFA
 * generated from grammar/ (RFC 3629 section 4 and the others). */
#ifndef UTFDFA_DECODE_DFA_H
#define UTFDFA_DECODE_DFA_H

#include "decode/deliver.h"
/* encodings.gen.h includes the tables of every grammar a row decodes with. */
#include "encodings.gen.h"

/* The public taxonomy is the grammars' @error-kinds order: encodings.gen.h
 * asserts each kind. */

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

/* A grammar's tables: those every grammar has, by its prefix, then the
 * generator's designated initializers for the others it has (a table it
 * lacks is NULL, a number 0). */
#define DFA_TABLES(enc, p, P, ...)                                                            \
    {.self = enc, .byte_class = p##_class, .payload_mask = p##_payload_mask,                \
     .error_class = p##_error_class, .error_kind = &p##_error_kind[0][0],                   \
     .nstates = P##_NSTATES, .nclasses = P##_NCLASSES, .nerror_classes = P##_NERROR_CLASSES, \
     .reject = P##_REJECT, __VA_ARGS__}

/* One instance per grammar a row decodes with (the registry's decoder column). */
#define DFA_INSTANCE(name, tables) static const struct dfa name = tables;
UTFDFA_EACH_DFA(DFA_INSTANCE)
#undef DFA_INSTANCE
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

/* One call of a DFA decoder: what does not change during it. */
struct dfa_call {
    struct call k;        /* the call's decoder, sink, target and error report */
    unsigned limit;       /* sink_limit's */
    const struct dfa *t;
};

/* A unit is complete: deliver its value, or handle a reserved unit, which
 * only the same encoding carries (passed through byte by byte as it came),
 * only validation accepts silently, and anything else reports. */
ALWAYS_INLINE enum delivery complete(const struct dfa_call *c, unsigned tag, uint32_t value,
                                     uint64_t at, uint32_t length)
{
    const struct dfa *t = c->t;
    const struct call *k = &c->k;
    if (t->reserved_tag && tag == t->reserved_tag) {
        if (k->sink == SINK_NONE ||
            ((k->sink == SINK_BYTES || k->sink == SINK_CODES) && k->to == t->self))
            return DELIVERED;
        return fail(k, at, value, UTFDFA_ERR_RESERVED) ? UNFIT : NO_ROOM;
    }
    if (t->offset)
        value += t->offset[tag];
    if (utfdfa_row_pua(t->self) && (options_of(k->d) & UTFDFA_CORRECTED_PUA) &&
        pua_image(value))
        value -= PUA_SHIFT;
    /* A character of the magic number: held (magic_step; release() writes it
     * once the stream proves otherwise). */
    if (t->magic && !(k->d->flags & F_NOMAGIC))
        return DELIVERED;
    return deliver(k, c->limit, value, at, length);
}

/* Whether an output under `limit` holds the characters of the magic number
 * that are held back (ISO-8859-1 does not): where it does not, the magic
 * number is text from its first byte, each character decided as any other. */
ALWAYS_INLINE bool magic_fits(unsigned limit)
{
    return unfit(limit, corrected_magic_cp[0]) == UTFDFA_ERR_NONE &&
           unfit(limit, corrected_magic_cp[1]) == UTFDFA_ERR_NONE;
}

/* The magic number is decided byte by byte at stream offsets 0-7. While the
 * stream matches it, the characters it completes are held back; they are
 * known from the offset alone, so nothing needs storing. release() writes
 * those completed before offset p once the stream turns out otherwise; its
 * U+0000 (offset 6) is then an error like any other. Held under a target
 * that holds them and released under one that does not (the target changed
 * in the middle of the magic number), the held bytes are one unencodable
 * error: there is no room in the state to report them one at a time. */
ALWAYS_INLINE enum delivery release(struct decoder *d, struct out *o, enum sink sink, unsigned to,
                                    unsigned limit, uint64_t p, utfdfa_error *err)
{
    size_t held = (p > 2) + (p > 5);
    if (held && !magic_fits(limit)) {
        if (!error_room(d, o, sink, to))
            return NO_ROOM;
        report(err, 0, p > 6 ? 7 : 3 * (uint32_t)held, UTFDFA_ERR_UNENCODABLE);
        d->flags |= F_NOMAGIC;
        return UNFIT;
    }
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
 * sequence (ED B0-BF 80-BF: the grammar's, in encodings.gen.h). */
ALWAYS_INLINE bool low_goes_on(unsigned pending, uint8_t b, bool rejects)
{
    return pending == 0   ? (b >= PAIRED_LOW_FIRST_MIN && b <= PAIRED_LOW_FIRST_MAX)
           : pending == 1 ? (b >= PAIRED_LOW_SECOND_MIN && b <= PAIRED_LOW_SECOND_MAX)
                          : !rejects;
}

/* The loop's state (in registers once inlined). */
struct dfa_run {
    uint32_t state;   /* pre-multiplied */
    uint32_t cp;      /* the unit's value so far; a reserved unit: its length */
    uint32_t hold;    /* PAIRS_JOIN: a held high surrogate; PAIRS_WTF8: 1 after a high one */
    unsigned pending; /* bytes of the unit so far */
    size_t i;         /* bytes read */
};

ALWAYS_INLINE void run_restart(struct dfa_run *run)
{
    run->state = DFA_ACCEPT;
    run->cp = 0;
    run->pending = 0;
}

ALWAYS_INLINE bool call_fail(const struct dfa_call *c, uint64_t at, uint32_t length,
                             enum utfdfa_error_kind kind)
{
    return fail(&c->k, at, length, kind);
}

/* The stream's first 8 bytes, while they may be the magic number. */
ALWAYS_INLINE int magic_step(const struct dfa_call *c, struct dfa_run *run, uint8_t b)
{
    const struct call *k = &c->k;
    uint64_t p = k->d->offset + run->i;
    bool matches = p < 8 && b == c->t->magic[p] && magic_fits(c->limit) &&
                   !(p == 7 && magic_unwritable(k->d, k->sink));
    if (matches && p >= 6) {
        /* Its U+0000 is held, not an error; its U+000A ends it. */
        if (p == 7 && magic_read(k->d, k->o, k->sink, k->to) == NO_ROOM)
            return UTFDFA_OUTPUT_FULL;
        run->i++;
        return STEP_NEXT;
    }
    if (!matches) {
        enum delivery dv = release(k->d, k->o, k->sink, k->to, c->limit, p, k->err);
        if (dv != DELIVERED)
            return dv == NO_ROOM ? UTFDFA_OUTPUT_FULL : UTFDFA_MALFORMED;
    }
    return STEP_DFA;
}

/* PAIRS_JOIN: the held high surrogate has no low one. It is the error;
 * this byte is stepped again without it. */
ALWAYS_INLINE int lone_held_high(const struct dfa_call *c, struct dfa_run *run)
{
    if (!call_fail(c, c->k.d->offset + run->i - run->pending - PAIR_HALF, PAIR_HALF,
                   UTFDFA_ERR_SURROGATE))
        return UTFDFA_OUTPUT_FULL;
    run->hold = 0;
    return UTFDFA_MALFORMED;
}

/* A unit of value *v ends, in an encoding of surrogate units: a low one
 * after a held high one makes the character (*v becomes it); a high one is
 * held (PAIRS_JOIN); a low one with no high one before it is the error
 * (PAIRS_JOIN), or after a high one (PAIRS_WTF8). STEP_DFA: deliver *v. */
ALWAYS_INLINE int pair_units(const struct dfa_call *c, struct dfa_run *run, uint32_t *v,
                             uint32_t *back, uint32_t *length)
{
    bool join = c->t->pairing == PAIRS_JOIN;
    if (join && run->hold) { /* *v is the low surrogate (low_goes_on) */
        *v = 0x10000 + ((run->hold - 0xD800) << 10) + (*v - 0xDC00);
        *back += PAIR_HALF;
        *length += PAIR_HALF;
        return STEP_DFA;
    }
    if (join && is_high(*v)) {
        run->hold = *v;
        run_restart(run);
        run->i++;
        return STEP_NEXT;
    }
    if ((join || run->hold) && is_low(*v)) {
        if (!call_fail(c, c->k.d->offset + run->i - *back, *length, UTFDFA_ERR_SURROGATE))
            return UTFDFA_OUTPUT_FULL;
        run->hold = 0;
        run_restart(run);
        run->i++;
        return UTFDFA_MALFORMED;
    }
    return STEP_DFA;
}

/* A unit is complete: with this byte, or (longest match) before it, when
 * this byte is then stepped again from the start. */
ALWAYS_INLINE int unit_complete(const struct dfa_call *c, struct dfa_run *run, uint8_t b,
                                uint32_t cls)
{
    const struct dfa *t = c->t;
    unsigned tag = t->tag ? t->tag[run->state + cls] : 0;
    bool before = tag & TAG_BEFORE;
    uint32_t v = before ? run->cp : run->cp << 6 | (b & t->payload_mask[cls]);
    uint32_t length = before ? run->pending : run->pending + 1;
    uint32_t back = before && in_reserved(t, run->state) ? run->cp : run->pending;
    if (t->pairing != PAIRS_NONE) {
        int s = pair_units(c, run, &v, &back, &length);
        if (s != STEP_DFA)
            return s;
    }
    enum delivery dv =
        complete(c, tag & (TAG_BEFORE - 1), v, c->k.d->offset + run->i - back, length);
    if (dv == NO_ROOM)
        return UTFDFA_OUTPUT_FULL;
    run->hold = t->pairing == PAIRS_WTF8 && is_high(v);
    run_restart(run);
    run->i += !before;
    return dv == UNFIT ? UTFDFA_MALFORMED : STEP_NEXT;
}

/* A byte inside a unit: its payload; in a reserved unit (no value) its
 * count, and the byte itself when the output is the same encoding. */
ALWAYS_INLINE int unit_goes_on(const struct dfa_call *c, struct dfa_run *run, uint8_t b,
                               uint32_t cls, uint32_t next)
{
    const struct dfa *t = c->t;
    const struct call *k = &c->k;
    if (in_reserved(t, next)) {
        bool passthrough = (k->sink == SINK_BYTES || k->sink == SINK_CODES) && k->to == t->self;
        if (passthrough && !ensure_room(k->d, k->o, k->sink, k->to, NULL, 0, 1))
            return UTFDFA_OUTPUT_FULL;
        if (passthrough)
            put_raw_byte(k->o, k->sink, b);
        run->cp++;
        run->pending += run->pending < 7;
    } else {
        run->cp = run->cp << 6 | (b & t->payload_mask[cls]);
        run->pending++;
    }
    run->state = next;
    run->i++;
    return STEP_NEXT;
}

/* The DFA rejects this byte. At a start this byte alone is the error;
 * inside a sequence the sequence so far is, and this byte starts anew. */
ALWAYS_INLINE int unit_rejected(const struct dfa_call *c, struct dfa_run *run, uint8_t b)
{
    const struct dfa *t = c->t;
    enum utfdfa_error_kind kind = (enum utfdfa_error_kind)
        t->error_kind[run->state / t->nclasses * t->nerror_classes + t->error_class[b]];
    bool alone = run->state == DFA_ACCEPT;
    if (!call_fail(c, c->k.d->offset + run->i - run->pending, alone ? 1 : run->pending, kind))
        return UTFDFA_OUTPUT_FULL;
    run->i += alone;
    run_restart(run);
    if (t->pairing != PAIRS_JOIN)
        run->hold = 0; /* WTF-8: what follows an error follows no high surrogate */
    return UTFDFA_MALFORMED;
}

/* The end of the input (`last`): inside the magic number (it was text
 * after all); inside a unit that longest match ends here; after a held
 * high surrogate (and perhaps the start of one more unit, reported next
 * as truncated). */
ALWAYS_INLINE int dfa_at_end(const struct dfa_call *c, struct dfa_run *run)
{
    const struct dfa *t = c->t;
    const struct call *k = &c->k;
    struct decoder *d = k->d;
    if (t->magic && !(d->flags & F_NOMAGIC)) {
        enum delivery dv = release(d, k->o, k->sink, k->to, c->limit, d->offset + run->i, k->err);
        if (dv != DELIVERED)
            return dv == NO_ROOM ? UTFDFA_OUTPUT_FULL : UTFDFA_MALFORMED;
    }
    unsigned tag = run->pending && t->final_tag ? t->final_tag[run->state / t->nclasses] : 0;
    if (tag) {
        uint32_t back = in_reserved(t, run->state) ? run->cp : run->pending;
        enum delivery dv = complete(c, tag, run->cp, d->offset + run->i - back, run->pending);
        if (dv == NO_ROOM)
            return UTFDFA_OUTPUT_FULL;
        run_restart(run);
        if (dv == UNFIT)
            return UTFDFA_MALFORMED;
    }
    if (t->pairing == PAIRS_JOIN && run->hold) { /* a pair cut short, as in UTF-16 */
        if (!call_fail(c, d->offset + run->i - run->pending - PAIR_HALF, PAIR_HALF,
                       UTFDFA_ERR_TRUNCATED))
            return UTFDFA_OUTPUT_FULL;
        run->hold = 0;
        return UTFDFA_MALFORMED;
    }
    return UTFDFA_INPUT_EMPTY;
}

ALWAYS_INLINE utfdfa_result core_dfa(const struct call *k, const uint8_t *src, size_t *n,
                                     const struct dfa *t)
{
    struct decoder *d = k->d;
    const struct dfa_call c = {*k, sink_limit(d, k->sink, k->to), t};
    bool pairs = t->pairing != PAIRS_NONE;
    struct dfa_run run = {sequence_state_of(d, t->nstates, t->nclasses),
                          pairs ? d->partial & 0xFFFF : d->partial,
                          pairs ? d->partial >> 16 : 0, PENDING(d->flags), 0};
    int r = STEP_NEXT;
    while (r == STEP_NEXT && run.i < *n) {
        uint8_t b = src[run.i];
        if (t->magic && !(d->flags & F_NOMAGIC)) {
            r = magic_step(&c, &run, b);
            if (r != STEP_DFA)
                continue;
        }
        uint32_t cls = t->byte_class[b], next = dfa_next(t, run.state, cls);
        if (t->pairing == PAIRS_JOIN && run.hold &&
            !low_goes_on(run.pending, b, next == t->reject))
            r = lone_held_high(&c, &run);
        else if (next == DFA_ACCEPT)
            r = unit_complete(&c, &run, b, cls);
        else if (next != t->reject)
            r = unit_goes_on(&c, &run, b, cls, next);
        else
            r = unit_rejected(&c, &run, b);
    }
    if (r == STEP_NEXT)
        r = k->last ? dfa_at_end(&c, &run) : UTFDFA_INPUT_EMPTY;
    struct held h = {run.state, run.cp | run.hold << 16, run.pending};
    return finish(k, (utfdfa_result)r, h, t->nclasses, run.i, n);
}

#endif /* UTFDFA_DECODE_DFA_H */
