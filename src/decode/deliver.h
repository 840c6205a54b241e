/* SPDX-License-Identifier: MIT */
/* How a decoder writes (internal): a call's context, the delivery of a
 * decoded character to its sink (src/output/sink.h) under the decoder's BOM
 * mode and the target's limit and writer rules, and the report of an
 * error. */
#ifndef UTFDFA_DECODE_DELIVER_H
#define UTFDFA_DECODE_DELIVER_H

#include "decode/decoder.h"
#include "output/sink.h"

/* What a step of a decoder loop says: go on with the next byte, go on to
 * the DFA step (magic_step), or stop with that utfdfa_result. */
enum { STEP_NEXT = -1, STEP_DFA = -2 };

/* Emit one decoded character, applying the BOM mode to the stream's first
 * one. false when there is no room; nothing is written then. */
ALWAYS_INLINE bool emit(struct decoder *d, struct out *o, enum sink sink, unsigned to,
                        uint32_t cp)
{
    if (!(d->flags & F_STARTED)) {
        enum bom_action act = bom_first(BOM_MODE(d->flags), cp, sig_is_magic(sink, to));
        size_t need = units_after(o, sink, to, act == BOM_PREPEND, &cp, 1);
        if (act != BOM_DROP && !room(o, sink, need))
            return false;
        d->flags |= F_STARTED;
        if (act == BOM_PREPEND)
            put_sig(o, sink, to);
        if (act == BOM_DROP)
            return true;
    } else if (!room(o, sink, units_for(o, sink, to, cp))) {
        return false;
    }
    put(o, sink, to, cp);
    return true;
}

/* Room for cps[0..n) and `raw` more units after a BOM still owed, and the
 * BOM written. */
ALWAYS_INLINE bool ensure_room(struct decoder *d, struct out *o, enum sink sink, unsigned to,
                               const uint32_t *cps, size_t n, size_t raw)
{
    bool owe_bom = !(d->flags & F_STARTED) && BOM_MODE(d->flags) == UTFDFA_BOM_ADD;
    if (!room(o, sink, units_after(o, sink, to, owe_bom, cps, n) + raw))
        return false;
    if (owe_bom)
        put_sig(o, sink, to);
    d->flags |= F_STARTED;
    return true;
}

/* The limit a decoded character must meet for this sink. */
ALWAYS_INLINE unsigned sink_limit(const struct decoder *d, enum sink sink, unsigned to)
{
    switch (sink) {
    case SINK_NONE:
        return LIMIT_NONE;
    case SINK_U32:
        return limit_field(d);
    case SINK_U16:
        return LIMIT_UNICODE;
    default:
        return limit_of(to);
    }
}

/* Before reporting an error: room for what the error path may write (a BOM
 * still owed, and a U+FFFD when replacing). */
ALWAYS_INLINE bool error_room(struct decoder *d, struct out *o, enum sink sink, unsigned to)
{
    const uint32_t replacement = replacement_for(sink_limit(d, sink, to));
    return ensure_room(d, o, sink, to, &replacement, ERRORS(d->config) == UTFDFA_REPLACE, 0);
}

ALWAYS_INLINE void set_pending(struct decoder *d, unsigned pending)
{
    d->flags = (uint8_t)((d->flags & ~7u) | (pending & 7u));
}

ALWAYS_INLINE void report(utfdfa_error *err, uint64_t offset, uint32_t length,
                          enum utfdfa_error_kind kind)
{
    err->offset = offset;
    err->length = length;
    err->kind = kind;
}

/* One call of a decoder: whom it decodes for and where the characters go.
 * Built once a call (a constant sink and source in each instance, so once
 * inlined its fields are known where they are constants) and passed by
 * pointer through the loops. */
struct call {
    struct decoder *d;
    struct out *o;
    enum sink sink;
    unsigned from;     /* the source: an instance's first row (convert_from.c) */
    unsigned to;       /* the target of SINK_BYTES and SINK_CODES */
    bool last;         /* the input ends with this call's */
    utfdfa_error *err; /* where an error is reported */
};

/* Report an error of `length` bytes at stream offset `at`, if the output
 * has room for what the error path writes; false (nothing done) if not. */
ALWAYS_INLINE bool fail(const struct call *c, uint64_t at, uint32_t length,
                        enum utfdfa_error_kind kind)
{
    if (!error_room(c->d, c->o, c->sink, c->to))
        return false;
    report(c->err, at, length, kind);
    return true;
}

/* What a core holds between calls: the automaton state (pre-multiplied by
 * the table's class count), the value so far and the bytes pending. */
struct held {
    uint32_t state;
    uint32_t partial;
    unsigned pending;
};

/* The end of a core that read `used` bytes: at the end of the input
 * whatever is pending is one error, a sequence cut short (reported only
 * when the call is the last); then what is held goes back to the decoder. */
ALWAYS_INLINE utfdfa_result finish(const struct call *c, utfdfa_result r, struct held h,
                                   uint32_t nclasses, size_t used, size_t *n)
{
    struct decoder *d = c->d;
    if (r == UTFDFA_INPUT_EMPTY && c->last && h.pending) {
        if (fail(c, d->offset + used - h.pending, h.pending, UTFDFA_ERR_TRUNCATED)) {
            h = (struct held){0, 0, 0};
            r = UTFDFA_MALFORMED;
        } else {
            r = UTFDFA_OUTPUT_FULL;
        }
    }
    set_state(d, h.state, nclasses);
    d->partial = h.partial;
    set_pending(d, h.pending);
    d->offset += used;
    *n = used;
    return r;
}

/* Deliver a decoded character of `length` bytes starting at stream offset
 * `at`: written, or (when the output cannot hold it) reported as an error. */
enum delivery { DELIVERED, NO_ROOM, UNFIT };

/* Under `limit` (sink_limit's, computed once a call): the target's, which
 * tells its writer (limits.h's writer_refuses), for its bytes or for code
 * points a caller writes there (utfdfa_decoder_set_target), which must get
 * exactly what that encoder accepts. */
ALWAYS_INLINE enum delivery deliver(const struct call *c, unsigned limit, uint32_t cp, uint64_t at,
                                    uint32_t length)
{
    struct decoder *d = c->d;
    enum sink sink = c->sink;
    unsigned to = c->to;
    uint32_t written = cp; /* as the writer sees it: code points stay as they are */
    enum utfdfa_error_kind kind = writer_refuses(limit, options_of(d), c->o->after_high, &written);
    if (kind == UTFDFA_ERR_NONE)
        return emit(d, c->o, sink, to, sink == SINK_BYTES || sink == SINK_CODES ? written : cp)
                   ? DELIVERED
                   : NO_ROOM;
    return fail(c, at, length, kind) ? UNFIT : NO_ROOM;
}

#endif /* UTFDFA_DECODE_DELIVER_H */
