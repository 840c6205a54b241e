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
#include "decode/fast_path.h"
#include "decode/units.h"
#include "decode/utf7.h"

_Static_assert(UTFDFA_STATES_FIT(STATE_BITS), "every state number fits the decoder's 5 bits");

/* The rows an instance serves beyond its first (UTF-7's family) run its
 * engine over their own tables: the decoder's source picks them. */
#define FAMILY(row, tables, otherwise) (source_of(c->d) == (row) ? (tables) : (otherwise))

/* The strict core of the call's source (a constant: an instance's first
 * row), as the registry's decoder column says (encodings.gen.h). */
ALWAYS_INLINE utfdfa_result core(const struct call *c, const uint8_t *src, size_t *n)
{
    switch (c->from) {
#define CORE_CASE(enc, kind, ...)                                                          \
    case enc:                                                                              \
        return core_##kind(c, src, n, __VA_ARGS__);
        UTFDFA_EACH_DECODER(CORE_CASE)
#undef CORE_CASE
    default: /* none: `from` is an instance's (convert_from.c) */
        *n = 0;
        return UTFDFA_INPUT_EMPTY;
    }
}
#undef FAMILY

/* The one conversion: the strict core, and for replace/ignore a loop over
 * it that writes U+FFFD (room is guaranteed by error_room) or nothing. The
 * core reports into s->err; the error is the caller's (*report) when
 * strict. */
ALWAYS_INLINE utfdfa_result convert_strict(const struct call *s, utfdfa_error *report,
                                           const uint8_t *src, size_t *src_len)
{
    struct decoder *d = s->d;
    struct out *o = s->o;
    size_t done = 0;
    unsigned errors = ERRORS(d->config);
    for (;;) {
        size_t n = *src_len - done;
        utfdfa_result r = core(s, src + done, &n);
        done += n;
        if (r != UTFDFA_MALFORMED) {
            if (r == UTFDFA_INPUT_EMPTY && s->last) {
                bool owe_bom = !(d->flags & F_STARTED) && BOM_MODE(d->flags) == UTFDFA_BOM_ADD;
                if (!end_output(o, s->sink, s->to, owe_bom))
                    r = UTFDFA_OUTPUT_FULL;
                else if (owe_bom)
                    d->flags |= F_STARTED;
            }
            *src_len = done;
            return r;
        }
        if (errors == UTFDFA_STRICT) {
            if (report)
                *report = *s->err;
            *src_len = done;
            return r;
        }
        d->flags |= F_REPLACED;
        if (errors == UTFDFA_REPLACE)
            put(o, s->sink, s->to, replacement_for(sink_limit(d, s->sink, s->to)));
    }
}

ALWAYS_INLINE utfdfa_result convert(const struct call *c, const uint8_t *src, size_t *src_len)
{
    utfdfa_error e;
    struct call strict = *c; /* the core reports into e */
    strict.err = &e;
    return convert_strict(&strict, c->err, src, src_len);
}

/* A public call for a source with a fast path: fast path, plain window,
 * again (when and how long: fast_path.h). */
ALWAYS_INLINE utfdfa_result convert_fast(const struct call *c, const uint8_t *src, size_t *src_len)
{
    struct decoder *d = c->d;
    unsigned from = c->from;
    size_t done = 0, n = *src_len, plain = KERNEL_WAIT / 2; /* the first window: KERNEL_WAIT */
    size_t slab = UTF8_PART_MOST; /* a UTF-8 part's first slab (utf8_fast.h) */
    utfdfa_error e;
    struct call window_call = *c; /* a window's: the core reports into e */
    window_call.err = &e;
    for (;;) {
        size_t k = 0;
        if (fast_ok(c)) {
            done += k = from == UTFDFA_UTF8   ? fast_step(c, src + done, n - done)
                        : has_utf8_part(from) ? utfdfa__utf8_part_step(d, src + done, n - done,
                                                                       c->o, c->sink, slab)
                                              : unit_step(c, src + done, n - done);
            slab = UTF8_PART_FIRST;
        }
        /* UTF-8 read to the end of a chunk that is not the last: the plain
         * loop over no bytes would change nothing (the state just stored
         * is a valid one). */
        if (from == UTFDFA_UTF8 && k && done == n && !c->last) {
            *src_len = done;
            return UTFDFA_INPUT_EMPTY;
        }
        size_t window = plain_window(c, k, &plain);
        size_t rest = n - done, w = rest < window ? rest : window;
        window_call.last = c->last && w == rest;
        size_t m = w;
        utfdfa_result r = convert_strict(&window_call, c->err, src + done, &m);
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

/* One call c of the decoder c->d (whose source is the unit's; c->from is
 * not read) into c->sink; c->to is the target encoding for SINK_CODES and
 * ignored otherwise. */
#define UTFDFA_DECLARE_CONVERT_FROM(name, enc, rows)                                           \
    utfdfa_result utfdfa__convert_from_##name(const struct call *c, const uint8_t *src,        \
                                              size_t *src_len);
UTFDFA_EACH_SOURCE(UTFDFA_DECLARE_CONVERT_FROM)

/* One call c of c->d into c->sink, whatever its source (src/api/decoder.c). */
utfdfa_result utfdfa__convert_any(const struct call *c, const uint8_t *src, size_t *src_len);

#endif /* UTFDFA_DECODE_CONVERT_H */
