/* SPDX-License-Identifier: MIT */
/* When the kernels run (internal): the one place that decides where a
 * call hands its input to a fast path of src/fast/ and where the plain
 * loops (the cores of dfa.h, units.h, utf7.h) take it back. The decoders'
 * loop (convert.h's convert_fast), the public calls (src/api/decoder.c)
 * and utfdfa_transcode's fused paths (src/api/transcode.c) ask here.
 *
 * For a UTF-8 source the fast paths of src/fast/utf8/ go first; for UTF-16
 * and UTF-32 (and UCS-4) into code points, the kernels of src/fast/. Each
 * reads a prefix and leaves exactly the state, partial value and output the
 * plain loop would (utf8_fast.h); they stop before an error, a character
 * that does not fit the output, or the end. The plain loop (convert) then
 * takes a short window past where they stopped, and the fast path goes on.
 * For a UTF-8 part (CESU-8, modified UTF-8, RFC 2279, WTF-8), while the
 * fast path reads less than the window before it (the source's own
 * characters close together: CESU-8's pairs), each window is longer
 * (kernel_wait_after_short in fast/kernels.h, the encoder's rule too). The fast paths are not used while a BOM mode still acts on the
 * stream's first character, nor for a target that cannot hold every scalar
 * value (Corrected UTF-8: C1 controls, U+0000; ISO-8859-1: U+0100 on). */
#ifndef UTFDFA_DECODE_FAST_PATH_H
#define UTFDFA_DECODE_FAST_PATH_H

#include "decode/deliver.h"
#include "fast/kernels.h"
#include "fast/utf8/utf8_fast.h"

/* ------------------------------------------------------- when */

/* The BOM mode has nothing left to do: the stream's first character is
 * past (or the mode keeps it as it is). No kernel runs before. */
ALWAYS_INLINE bool bom_settled(const struct decoder *d)
{
    return (d->flags & F_STARTED) || BOM_MODE(d->flags) == UTFDFA_BOM_KEEP;
}

/* A unit kernel starts at a unit boundary, the BOM mode done. */
ALWAYS_INLINE bool at_unit_boundary(const struct decoder *d)
{
    return !PENDING(d->flags) && bom_settled(d);
}

/* UTF-8's fast paths start at a character boundary with no surrogate held
 * (a UTF-8 part's), the BOM mode done. */
ALWAYS_INLINE bool at_utf8_boundary(const struct decoder *d)
{
    return !PENDING(d->flags) && (source_of(d) == UTFDFA_UTF8 || d->partial == 0) &&
           bom_settled(d);
}

/* Whether UTF-8 text is part of source `from` (utf8_sublanguages, from
 * the grammars): its fast paths decode that part. */
ALWAYS_INLINE bool has_utf8_part(unsigned from)
{
    return from != UTFDFA_UTF8 && from < UTFDFA_NENCODINGS && utf8_sublanguages[from].has;
}

/* Narrows [*below, *limit) to the bytes that begin the characters of
 * enc's UTF-8 part (all of UTF-8's; encodings.gen.h's utf8_sublanguages
 * for encodings with UTF-8 text in them); false when enc has none. */
ALWAYS_INLINE bool utf8_part_bounds(unsigned enc, unsigned *below, unsigned *limit)
{
    if (enc == UTFDFA_UTF8)
        return true;
    if (!has_utf8_part(enc))
        return false;
    if (*below < utf8_sublanguages[enc].below)
        *below = utf8_sublanguages[enc].below;
    if (*limit > utf8_sublanguages[enc].from)
        *limit = utf8_sublanguages[enc].from;
    return true;
}

/* Whether source `from` into this sink has a fast path. */
ALWAYS_INLINE bool has_fast_path(unsigned from, enum sink sink)
{
    return from == UTFDFA_UTF8 || has_utf8_part(from) ||
           (unit_form(from) >= 0 && (sink == SINK_U32 || sink == SINK_CODES));
}

/* Whether the call's fast path may run now. */
ALWAYS_INLINE bool fast_ok(const struct call *c)
{
    const struct decoder *d = c->d;
    return bom_settled(d) && !(c->sink == SINK_U32 && !holds_scalars(limit_field(d))) &&
           !(c->sink == SINK_CODES && !holds_scalars(limit_of(c->to))) &&
           (c->from == UTFDFA_UTF8 || PENDING(d->flags) == 0) && /* a unit kernel starts at a unit */
           !(has_utf8_part(c->from) && d->partial != 0); /* nor with a surrogate held */
}

/* The plain loop's next window after a fast path read k bytes, the last
 * window having been *plain bytes. A unit source's kernel starts only with
 * nothing pending: while a unit or a pair is unfinished (one begun when
 * the output filled), the window reaches just the next unit boundary. A
 * UTF-8 part's fast path starts only at a character's start: byte by byte
 * to it. */
ALWAYS_INLINE size_t plain_window(const struct call *c, size_t k, size_t *plain)
{
    unsigned from = c->from, pending = PENDING(c->d->flags);
    bool short_read = has_utf8_part(from) && k < *plain;
    *plain = short_read ? kernel_wait_after_short(*plain) : KERNEL_WAIT;
    if (pending && has_utf8_part(from))
        return 1;
    if (pending && unit_form(from) >= 0)
        return unit_form(from) <= FORM_UTF16BE ? 2 - pending % 2 : 4 - pending % 4;
    return *plain;
}

/* ------------------------------------------------------- the kernels' calls */

/* A unit kernel over src[0..n) into code points at the call's output:
 * scalar values only (it stops before a lone surrogate, a value above
 * U+10FFFF, a pair or unit cut by the end); what it read. */
ALWAYS_INLINE size_t unit_step(const struct call *c, const uint8_t *src, size_t n)
{
    struct decoder *d = c->d;
    struct out *o = c->o;
    size_t written = 0, k;
    enum fast_form form = (enum fast_form)unit_form(c->from);
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

/* Units of UTF-8's fast paths: where they go (dst, room for cap units of
 * the width), how many they wrote and how many errors they replaced or
 * dropped. */
struct utf8_units {
    void *dst;
    size_t cap;
    size_t written;
    size_t errors;
};

/* utf8_lossy.c: UTF-8's fast paths (utf8_fast.h) by error mode and unit
 * width (2: UTF-16, 4: UTF-32), under their contract: strict, replacing,
 * and, into UTF-16, replacing by the strict and the replacing paths in
 * turn; ignoring (any other mode, as convert()) drops the errors (u->errors
 * counts them) and may stop before an error whose U+FFFD the room would
 * not hold. */
size_t utfdfa__utf8_decode_in_mode(enum utfdfa_error_mode mode, unsigned width,
                                   const uint8_t *src, size_t n, uint32_t *state,
                                   uint32_t *partial, struct utf8_units *u);

/* The UTF-8 fast path over src[0..n), output at the call's; what it read. */
ALWAYS_INLINE size_t fast_step(const struct call *c, const uint8_t *src, size_t n)
{
    struct decoder *d = c->d;
    struct out *o = c->o;
    uint32_t state = sequence_state_of(d, UTF8_NSTATES, UTF8_NCLASSES), partial = d->partial;
    size_t k;
    struct utf8_units u = {NULL, 0, 0, 0};
    switch (c->sink) {
    case SINK_NONE:
        k = utfdfa__utf8_scan(src, n, &state);
        partial = 0; /* unused: validation has no values */
        break;
    default: /* one call out of line for every mode and width: fast_step has many copies */
        u.dst = (uint8_t *)o->p + o->len * (c->sink == SINK_U16 ? 2 : 4);
        u.cap = o->cap - o->len;
        k = utfdfa__utf8_decode_in_mode((enum utfdfa_error_mode)ERRORS(d->config),
                                        c->sink == SINK_U16 ? 2 : 4, src, n, &state, &partial, &u);
        break;
    }
    if (k) {
        size_t p = utfdfa__utf8_pending(src, k, state);
        set_pending(d, p == SIZE_MAX ? PENDING(d->flags) + (unsigned)k : (unsigned)p);
        set_state(d, state, UTF8_NCLASSES);
        d->partial = partial;
        d->offset += k;
        o->len += u.written;
        if (u.errors)
            d->flags |= F_REPLACED;
    }
    return k;
}

/* Of a source's UTF-8 part (utf8_part.c): what UTF-8's fast path read of
 * src[0..n), from a character boundary, up to a byte that leaves the part;
 * into sink SINK_NONE, SINK_U16 or code points (SINK_U32, SINK_CODES). */
size_t utfdfa__utf8_part_step(struct decoder *d, const uint8_t *src, size_t n, struct out *o,
                              enum sink sink, size_t first);

#endif /* UTFDFA_DECODE_FAST_PATH_H */
