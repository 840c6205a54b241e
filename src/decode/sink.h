/* SPDX-License-Identifier: MIT */
/* Where decoded characters go (internal): the sinks, the BOM mode, room,
 * and how a decoder delivers a character or reports an error. */
#ifndef UTFDFA_DECODE_SINK_H
#define UTFDFA_DECODE_SINK_H

#include "decode/decoder.h"
#include "encode/forms.h"
#include "encode/utf7_writer.h"

/* Where decoded characters go. */
/* SINK_CODES: code points for utfdfa_transcode's encoder (a block on its
 * stack), decided as for bytes of the target `to` (its limit, its writer's
 * rules); two things a code point cannot say travel as markers above any
 * value such a target accepts (Corrected UTF-8's limit is 0x8421109F): the
 * magic number, and a byte of a reserved unit passed through. */
enum sink { SINK_NONE, SINK_U32, SINK_U16, SINK_BYTES, SINK_CODES };
#define CODE_MAGIC 0xFFFFFFFFu
#define CODE_RAW_BYTE 0xFFFFFE00u

struct out {
    void *p;
    size_t cap; /* in units of the sink */
    size_t len;
    struct u7w w; /* the UTF-7 writer, when the sink is UTF-7 bytes */
    bool after_high; /* WTF-8 bytes: a high surrogate was written last */
};

/* Units cp takes in a sink (cp is a scalar value). */
ALWAYS_INLINE size_t units_for(const struct out *o, enum sink sink, unsigned to, uint32_t cp)
{
    switch (sink) {
    case SINK_NONE:
        return 0;
    case SINK_U32:
    case SINK_CODES:
        return 1;
    case SINK_U16:
        return cp < 0x10000 ? 1 : 2;
    default:
        return is_utf7(to) ? u7_len(&o->w, cp) : bytes_for(to, cp);
    }
}

ALWAYS_INLINE void put(struct out *o, enum sink sink, unsigned to, uint32_t cp)
{
    switch (sink) {
    case SINK_NONE:
        break;
    case SINK_U32:
    case SINK_CODES:
        ((uint32_t *)o->p)[o->len++] = cp;
        o->after_high = is_high(cp); /* read only for a WTF-8 target (writes_wtf8) */
        break;
    case SINK_U16:
        if (cp < 0x10000) {
            ((uint16_t *)o->p)[o->len++] = (uint16_t)cp;
        } else {
            ((uint16_t *)o->p)[o->len++] = (uint16_t)(0xD800 | (cp - 0x10000) >> 10);
            ((uint16_t *)o->p)[o->len++] = (uint16_t)(0xDC00 | (cp & 0x3FF));
        }
        break;
    default:
        if (is_utf7(to)) {
            o->len += utfdfa__u7_put(&o->w, cp, (uint8_t *)o->p + o->len);
            break;
        }
        put_bytes((uint8_t *)o->p + o->len, to, cp);
        o->len += bytes_for(to, cp);
        if (to == UTFDFA_WTF8)
            o->after_high = is_high(cp);
        break;
    }
}

/* What a step of a decoder loop says: go on with the next byte, go on to
 * the DFA step (magic_step), or stop with that utfdfa_result. */
enum { STEP_NEXT = -1, STEP_DFA = -2 };

/* A byte of a Corrected UTF-8 reserved unit, passed through as it came. */
ALWAYS_INLINE void put_raw_byte(struct out *o, enum sink sink, uint8_t b)
{
    if (sink == SINK_CODES)
        ((uint32_t *)o->p)[o->len++] = CODE_RAW_BYTE | b;
    else
        ((uint8_t *)o->p)[o->len++] = b;
}

ALWAYS_INLINE bool room(const struct out *o, enum sink sink, size_t units)
{
    return sink == SINK_NONE || o->cap - o->len >= units;
}

/* The signature an output starts with under UTFDFA_BOM_ADD: U+FEFF, or
 * the magic number for Corrected UTF-8 bytes. */
ALWAYS_INLINE bool sig_is_magic(enum sink sink, unsigned to)
{
    return (sink == SINK_BYTES || sink == SINK_CODES) && to == UTFDFA_CORRECTED_UTF8;
}

/* An output whose encoding cannot hold U+FEFF (ISO-8859-1) has no
 * signature: UTFDFA_BOM_ADD writes nothing there. */
ALWAYS_INLINE bool sig_none(enum sink sink, unsigned to)
{
    return (sink == SINK_BYTES || sink == SINK_CODES) && unfit(limit_of(to), BOM) != UTFDFA_ERR_NONE;
}

ALWAYS_INLINE size_t sig_units(const struct out *o, enum sink sink, unsigned to)
{
    if (sig_none(sink, to))
        return 0;
    if (sig_is_magic(sink, to))
        return sink == SINK_CODES ? 1 : sizeof corrected_magic;
    return units_for(o, sink, to, BOM);
}

/* Units that cps[0..n) take, after the signature when `sig`. In UTF-7 each
 * character's length depends on what came before: written to a scratch
 * buffer by a copy of the writer. */
ALWAYS_INLINE size_t units_after(const struct out *o, enum sink sink, unsigned to, bool sig,
                                 const uint32_t *cps, size_t n)
{
    size_t need = 0;
    if (sink == SINK_BYTES && is_utf7(to)) {
        struct u7w w = o->w;
        uint8_t scratch[8];
        if (sig)
            need += utfdfa__u7_put(&w, BOM, scratch);
        for (size_t k = 0; k < n; k++)
            need += utfdfa__u7_put(&w, cps[k], scratch);
        return need;
    }
    if (sig)
        need += sig_units(o, sink, to);
    for (size_t k = 0; k < n; k++)
        need += units_for(o, sink, to, cps[k]);
    return need;
}

ALWAYS_INLINE void put_sig(struct out *o, enum sink sink, unsigned to)
{
    if (sig_none(sink, to))
        return;
    if (sig_is_magic(sink, to) && sink == SINK_CODES) {
        ((uint32_t *)o->p)[o->len++] = CODE_MAGIC;
    } else if (sig_is_magic(sink, to)) {
        memcpy((uint8_t *)o->p + o->len, corrected_magic, sizeof corrected_magic);
        o->len += sizeof corrected_magic;
    } else {
        put(o, sink, to, BOM);
    }
}

/* What the BOM mode does with the first character of a stream (RFC 3629
 * section 6: a BOM is recognised only at the start): shared by the decoder
 * and the encoder. */
enum bom_action { BOM_PASS, BOM_DROP, BOM_PREPEND };

static inline enum bom_action bom_first(unsigned mode, uint32_t cp, bool magic_out)
{
    if (mode == UTFDFA_BOM_STRIP && cp == BOM)
        return BOM_DROP;
    if (mode == UTFDFA_BOM_ADD && (cp != BOM || magic_out))
        return BOM_PREPEND;
    return BOM_PASS;
}

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

/* Report an error of `length` bytes at stream offset `at`, if the output
 * has room for what the error path writes; false (nothing done) if not. */
ALWAYS_INLINE bool fail(struct decoder *d, struct out *o, enum sink sink, unsigned to,
                        uint64_t at, uint32_t length, enum utfdfa_error_kind kind,
                        utfdfa_error *err)
{
    if (!error_room(d, o, sink, to))
        return false;
    report(err, at, length, kind);
    return true;
}

/* The end of a core: at the end of the input whatever is pending is one
 * error (reported only when `last`); then the state (pre-multiplied by
 * nclasses) goes back to d. */
ALWAYS_INLINE utfdfa_result finish(struct decoder *d, struct out *o, enum sink sink, unsigned to,
                                   bool last, utfdfa_result r, uint32_t state, uint32_t nclasses,
                                   uint32_t partial, unsigned pending,
                                   enum utfdfa_error_kind kind, size_t used, size_t *n,
                                   utfdfa_error *err)
{
    if (r == UTFDFA_INPUT_EMPTY && last && pending) {
        if (fail(d, o, sink, to, d->offset + used - pending, pending, kind, err)) {
            state = partial = 0;
            pending = 0;
            r = UTFDFA_MALFORMED;
        } else {
            r = UTFDFA_OUTPUT_FULL;
        }
    }
    set_state(d, state, nclasses);
    d->partial = partial;
    set_pending(d, pending);
    d->offset += used;
    *n = used;
    return r;
}

/* Deliver a decoded character of `length` bytes starting at stream offset
 * `at`: written, or (when the output cannot hold it) reported as an error. */
enum delivery { DELIVERED, NO_ROOM, UNFIT };

/* Whether what is written goes to `enc` (WTF-8 or Corrected UTF-8, whose
 * writers have rules beyond a limit): its bytes, or code points for a
 * caller that writes them in `enc` (utfdfa_decoder_set_target), which must
 * get exactly what that encoder accepts. */
ALWAYS_INLINE bool writes_to(const struct decoder *d, enum sink sink, unsigned to, unsigned enc)
{
    return sink == SINK_BYTES || sink == SINK_CODES
               ? to == enc
               : sink == SINK_U32 && limit_field(d) == limit_of(enc);
}

ALWAYS_INLINE enum delivery deliver(struct decoder *d, struct out *o, enum sink sink, unsigned to,
                                    unsigned limit, uint32_t cp, uint64_t at, uint32_t length,
                                    utfdfa_error *err)
{
    enum utfdfa_error_kind kind = UTFDFA_ERR_NONE;
    uint32_t written = cp; /* as the writer sees it: code points stay as they are */
    if ((options_of(d) & UTFDFA_CORRECTED_PUA) && writes_to(d, sink, to, UTFDFA_CORRECTED_UTF8))
        kind = pua_write(&written);
    if (writes_to(d, sink, to, UTFDFA_WTF8))
        kind = wtf8_write(o->after_high, cp);
    if (kind == UTFDFA_ERR_NONE)
        kind = unfit(limit, written);
    if (kind == UTFDFA_ERR_NONE)
        return emit(d, o, sink, to, sink == SINK_BYTES || sink == SINK_CODES ? written : cp)
                   ? DELIVERED
                   : NO_ROOM;
    return fail(d, o, sink, to, at, length, kind, err) ? UNFIT : NO_ROOM;
}

/* The end of the stream: the signature still owed when nothing was decoded
 * at all, and an open UTF-7 run closed (always with "-" at the end). */
ALWAYS_INLINE bool end_output(struct out *o, enum sink sink, unsigned to, bool owe_bom)
{
    bool utf7 = sink == SINK_BYTES && is_utf7(to);
    size_t need = units_after(o, sink, to, owe_bom, NULL, 0);
    if (utf7) {
        struct u7w w = o->w;
        uint8_t scratch[8];
        if (owe_bom)
            utfdfa__u7_put(&w, BOM, scratch);
        need += u7_close_len(&w, U7_END);
    }
    if (!room(o, sink, need))
        return false;
    if (owe_bom)
        put_sig(o, sink, to);
    if (utf7)
        o->len += utfdfa__u7_close(&o->w, U7_END, (uint8_t *)o->p + o->len);
    return true;
}

#endif /* UTFDFA_DECODE_SINK_H */
