/* SPDX-License-Identifier: MIT */
/* The conversion engine of the utfdfa runtime (internal; not installed).
 *
 * It steps the DFAs generated from grammar/ (RFC 3629 section 4 and the
 * other ABNF grammars) and small decoders for UTF-16/32, over whole buffers
 * or chunks. One strict conversion loop does everything (core_*): it stops
 * at the first ill-formed sequence with UTFDFA_MALFORMED. Replacement and
 * ignore modes are a loop around it (convert), and the whole-buffer
 * functions are the streaming call with last = true.
 *
 * Everything here is inlined into its callers with constant source and
 * sink, so each pair compiles to its own loop: src/decode/convert_from.c
 * instantiates it once per source encoding (its four sinks: nothing, code
 * points, UTF-16 units, and the code-point block of utfdfa_transcode, whose
 * target is known at run time), each in its own translation unit. The
 * public functions (src/api/decoder.c) dispatch on the source.
 */
#ifndef UTFDFA_DECODE_CONVERT_H
#define UTFDFA_DECODE_CONVERT_H

#include "decode/dfa.h"
#include "decode/units.h"
#include "decode/utf7.h"
#include "fast/kernels.h"
#include "fast/utf8/utf8_fast.h"

_Static_assert(UTFDFA_STATES_FIT(STATE_BITS), "every state number fits the decoder's 5 bits");

/* The rows an instance serves beyond its first (UTF-7's family) run its
 * engine over their own tables: the decoder's source picks them. */
#define FAMILY(row, tables, otherwise) (source_of(d) == (row) ? (tables) : (otherwise))

/* The strict core of source `from` (a constant: an instance's first row),
 * as the registry's decoder column says (encodings.gen.h). */
ALWAYS_INLINE utfdfa_result core(struct decoder *d, const uint8_t *src, size_t *n,
                                 struct out *o, enum sink sink, unsigned from, unsigned to,
                                 bool last, utfdfa_error *err)
{
    switch (from) {
#define CORE_CASE(enc, kind, ...)                                                          \
    case enc:                                                                              \
        return core_##kind(d, src, n, o, sink, to, last, __VA_ARGS__, err);
        UTFDFA_EACH_DECODER(CORE_CASE)
#undef CORE_CASE
    default: /* none: `from` is an instance's (convert_from.c) */
        *n = 0;
        return UTFDFA_INPUT_EMPTY;
    }
}
#undef FAMILY

/* The one conversion: the strict core, and for replace/ignore a loop over
 * it that writes U+FFFD (room is guaranteed by error_room) or nothing. */
ALWAYS_INLINE utfdfa_result convert(struct decoder *d, const uint8_t *src, size_t *src_len,
                                    struct out *o, enum sink sink, unsigned from, unsigned to,
                                    bool last, utfdfa_error *err)
{
    size_t done = 0;
    utfdfa_error e;
    unsigned errors = ERRORS(d->config);
    for (;;) {
        size_t n = *src_len - done;
        utfdfa_result r = core(d, src + done, &n, o, sink, from, to, last, &e);
        done += n;
        if (r != UTFDFA_MALFORMED) {
            if (r == UTFDFA_INPUT_EMPTY && last) {
                bool owe_bom = !(d->flags & F_STARTED) && BOM_MODE(d->flags) == UTFDFA_BOM_ADD;
                if (!end_output(o, sink, to, owe_bom))
                    r = UTFDFA_OUTPUT_FULL;
                else if (owe_bom)
                    d->flags |= F_STARTED;
            }
            *src_len = done;
            return r;
        }
        if (errors == UTFDFA_STRICT) {
            if (err)
                *err = e;
            *src_len = done;
            return r;
        }
        d->flags |= F_REPLACED;
        if (errors == UTFDFA_REPLACE)
            put(o, sink, to, replacement_for(sink_limit(d, sink, to)));
    }
}

/* ------------------------------------------------------- fast paths
 * For a UTF-8 source the fast paths of src/fast/utf8/ go first; for UTF-16
 * and UTF-32 (and UCS-4) into code points, the kernels of src/fast/. Each reads
 * a prefix and leaves exactly the state, partial value and output the plain
 * loop would (utf8_fast.h); they stop before an error, a character that
 * does not fit the output, or the end. The plain loop (convert) then takes
 * a short window past where they stopped, and the fast path goes on. For a
 * UTF-8 part (CESU-8, modified UTF-8, RFC 2279, WTF-8), while the fast path
 * reads less than the window before it (the source's own characters close
 * together: CESU-8's pairs), each window is twice as long, up to
 * FAST_WINDOW_MOST, so that its calls do not cost more than they read. The
 * fast paths are not used while a BOM mode still acts on the stream's first
 * character, nor for a target that cannot hold every scalar value
 * (Corrected UTF-8: C1 controls, U+0000; ISO-8859-1: U+0100 on). */
enum { FAST_WINDOW = 16, FAST_WINDOW_MOST = 1024 };

/* Whether UTF-8 text is part of source `from` (utf8_sublanguages, from
 * the grammars): its fast paths decode that part. */
ALWAYS_INLINE bool has_utf8_part(unsigned from)
{
    return from != UTFDFA_UTF8 && from < UTFDFA_NENCODINGS && utf8_sublanguages[from].has;
}

/* Whether source `from` into this sink has a fast path. */
ALWAYS_INLINE bool has_fast_path(unsigned from, enum sink sink)
{
    return from == UTFDFA_UTF8 || has_utf8_part(from) ||
           (unit_form(from) >= 0 && (sink == SINK_U32 || sink == SINK_CODES));
}

ALWAYS_INLINE bool fast_ok(const struct decoder *d, unsigned from, enum sink sink, unsigned to)
{
    return ((d->flags & F_STARTED) || BOM_MODE(d->flags) == UTFDFA_BOM_KEEP) &&
           !(sink == SINK_U32 && !holds_scalars(limit_field(d))) &&
           !(sink == SINK_CODES && !holds_scalars(limit_of(to))) &&
           (from == UTFDFA_UTF8 || PENDING(d->flags) == 0) && /* a unit kernel starts at a unit */
           !(has_utf8_part(from) && d->partial != 0); /* nor with a surrogate held */
}

/* A unit kernel over src[0..n) into code points at o: scalar values only
 * (it stops before a lone surrogate, a value above U+10FFFF, a pair or
 * unit cut by the end); what it read. */
ALWAYS_INLINE size_t unit_step(struct decoder *d, unsigned from, const uint8_t *src, size_t n,
                               struct out *o)
{
    size_t written = 0, k;
    enum fast_form form = (enum fast_form)unit_form(from);
    uint32_t *dst = (uint32_t *)o->p + o->len;
    if (form == FORM_UTF16LE || form == FORM_UTF16BE)
        k = utfdfa__utf16_to_cp(form, src, n, dst, o->cap - o->len, &written);
    else
        k = utfdfa__utf32_to_cp(form, src, n, dst, o->cap - o->len, &written);
    if (written) {
        d->offset += k;
        d->flags |= F_STARTED;
        o->len += written;
        o->after_high = false; /* read only for a WTF-8 target */
    }
    return k;
}

/* unit_fast.c, for the public calls (src/api/decoder.c): a UTF-16/32
 * source checked by the unit kernels; decoded into the host's UTF-16 by
 * the fused kernel where the level has one (else 0). What they read:
 * scalar values, up to where the kernels stop. */
size_t utfdfa__unit_check(enum fast_form form, const uint8_t *src, size_t n);
size_t utfdfa__unit_to_utf16(enum fast_form form, const uint8_t *src, size_t n, uint16_t *dst,
                             size_t cap, size_t *written);

/* utf8_lossy.c: UTF-8's fast paths (utf8_fast.h) by error mode and unit
 * width (2: UTF-16, 4: UTF-32), under their contract: strict, replacing,
 * and, into UTF-16, replacing by the strict and the replacing paths in
 * turn; ignoring (any other mode, as convert()) drops the errors (*errors
 * counts them) and may stop before an error whose U+FFFD the room would
 * not hold. dst: units of the width. */
size_t utfdfa__utf8_decode_in_mode(enum utfdfa_error_mode mode, unsigned width,
                                   const uint8_t *src, size_t n, uint32_t *state,
                                   uint32_t *partial, void *dst, size_t cap, size_t *written,
                                   size_t *errors);

/* The fast path over src[0..n), output at o; what it read. */
ALWAYS_INLINE size_t fast_step(struct decoder *d, const uint8_t *src, size_t n, struct out *o,
                               enum sink sink)
{
    uint32_t state = sequence_state_of(d, UTF8_NSTATES, UTF8_NCLASSES), partial = d->partial;
    size_t k, written = 0, errors = 0;
    switch (sink) {
    case SINK_NONE:
        k = utfdfa__utf8_scan(src, n, &state);
        partial = 0; /* unused: validation has no values */
        break;
    default: /* one call out of line for every mode and width: fast_step has many copies */
        k = utfdfa__utf8_decode_in_mode((enum utfdfa_error_mode)ERRORS(d->config),
                                        sink == SINK_U16 ? 2 : 4, src, n, &state, &partial,
                                        (uint8_t *)o->p + o->len * (sink == SINK_U16 ? 2 : 4),
                                        o->cap - o->len, &written, &errors);
        break;
    }
    if (k) {
        size_t p = utfdfa__utf8_pending(src, k, state);
        set_pending(d, p == SIZE_MAX ? PENDING(d->flags) + (unsigned)k : (unsigned)p);
        set_state(d, state, UTF8_NCLASSES);
        d->partial = partial;
        d->offset += k;
        o->len += written;
        if (errors)
            d->flags |= F_REPLACED;
    }
    return k;
}

/* Of a source's UTF-8 part (utf8_part.c): what UTF-8's fast path read of
 * src[0..n), from a character boundary, up to a byte that leaves the part;
 * into sink SINK_NONE, SINK_U16 or code points (SINK_U32, SINK_CODES). */
size_t utfdfa__utf8_part_step(struct decoder *d, const uint8_t *src, size_t n, struct out *o,
                              enum sink sink, size_t first);

/* A public call for a source with a fast path: fast path, plain window, again. */
ALWAYS_INLINE utfdfa_result convert_fast(struct decoder *d, unsigned from, const uint8_t *src,
                                         size_t *src_len, struct out *o, enum sink sink,
                                         unsigned to, bool last, utfdfa_error *err)
{
    size_t done = 0, n = *src_len, plain = FAST_WINDOW / 2; /* the first window: FAST_WINDOW */
    size_t slab = UTF8_PART_MOST; /* a UTF-8 part's first slab (utf8_fast.h) */
    for (;;) {
        size_t k = 0;
        if (fast_ok(d, from, sink, to)) {
            done += k = from == UTFDFA_UTF8   ? fast_step(d, src + done, n - done, o, sink)
                        : has_utf8_part(from) ? utfdfa__utf8_part_step(d, src + done, n - done,
                                                                       o, sink, slab)
                                              : unit_step(d, from, src + done, n - done, o);
            slab = UTF8_PART_FIRST;
        }
        /* UTF-8 read to the end of a chunk that is not the last: the plain
         * loop over no bytes would change nothing (the state just stored
         * is a valid one). */
        if (from == UTFDFA_UTF8 && k && done == n && !last) {
            *src_len = done;
            return UTFDFA_INPUT_EMPTY;
        }
        /* A unit source's kernel starts only with nothing pending: while a
         * unit or a pair is unfinished (one begun when the output filled),
         * the window reaches just the next unit boundary. A UTF-8 part's
         * fast path starts only at a character's start: byte by byte to it. */
        unsigned pending = PENDING(d->flags);
        bool grow = has_utf8_part(from) && k < plain && plain < FAST_WINDOW_MOST;
        plain = grow ? 2 * plain : FAST_WINDOW;
        size_t window = plain;
        if (pending && has_utf8_part(from))
            window = 1;
        else if (pending && unit_form(from) >= 0)
            window = unit_form(from) <= FORM_UTF16BE ? 2 - pending % 2 : 4 - pending % 4;
        size_t rest = n - done, w = rest < window ? rest : window;
        bool wlast = last && w == rest;
        size_t m = w;
        utfdfa_result r = convert(d, src + done, &m, o, sink, from, to, wlast, err);
        done += m;
        if (r != UTFDFA_INPUT_EMPTY || w == rest) {
            *src_len = done;
            return r;
        }
    }
}

/* ------------------------------------------------------- the instances
 * UTFDFA_EACH_SOURCE (encodings.gen.h, from the registry's source column)
 * lists every instance once: src/decode/convert_from.c is compiled once per
 * name, with -DSOURCE_NAME=name (the Makefile's CONVERT_SOURCES, generated
 * from the same rows); UTFDFA_EACH_ENCODING maps every encoding to its
 * instance. */

/* One call of the decoder d (whose source is the unit's) into sink; `to` is
 * the target encoding for SINK_BYTES and ignored otherwise. */
#define UTFDFA_DECLARE_CONVERT_FROM(name, enc, rows)                                           \
    utfdfa_result utfdfa__convert_from_##name(struct decoder *d, const uint8_t *src,           \
                                              size_t *src_len, struct out *o, enum sink sink,  \
                                              unsigned to, bool last, utfdfa_error *err);
UTFDFA_EACH_SOURCE(UTFDFA_DECLARE_CONVERT_FROM)

/* One call of d into sink, whatever its source (src/api/decoder.c). */
utfdfa_result utfdfa__convert_any(struct decoder *d, const uint8_t *src, size_t *src_len,
                                  struct out *o, enum sink sink, unsigned to, bool last,
                                  utfdfa_error *err);

#endif /* UTFDFA_DECODE_CONVERT_H */
