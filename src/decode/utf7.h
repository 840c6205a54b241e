/* SPDX-License-Identifier: MIT */
/* The UTF-7 decoders (internal). */
#ifndef UTFDFA_DECODE_UTF7_H
#define UTFDFA_DECODE_UTF7_H

#include "decode/deliver.h"
#include "decode/fast_path.h"
#include "fast/kernels.h"
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
    const uint8_t *cls, *trans, *tag, *tag_value, *digit, *digit_byte, *error_class, *error_kind;
    const uint32_t *tag_number;
    unsigned nstates, nclasses, nerror_classes, reject;
    bool imap;
};
#define U7G(p, P, imap)                                                                     \
    {p##_class, p##_trans, p##_tag, p##_tag_value, p##_digit, p##_digit_byte, p##_error_class, \
     &p##_error_kind[0][0], p##_tag_number, P##_NSTATES, P##_NCLASSES, P##_NERROR_CLASSES,  \
     P##_REJECT, imap}
static const struct u7g u7g_utf7 = U7G(utf7, UTF7, false);
static const struct u7g u7g_utf7_imap = U7G(utf7_imap, UTF7_IMAP, true);

/* A run reads one more byte while a high surrogate waits: one more back. */
ALWAYS_INLINE uint32_t u7_step_back(uint32_t partial)
{
    return partial & U7_HAS_HIGH ? partial + (1u << 26) : partial;
}

/* One call of a UTF-7 decoder: what does not change during it. */
struct u7_call {
    struct call k;        /* the call's decoder, sink, target and error report */
    struct decoder *d;    /* k's */
    enum sink sink;       /* k's */
    unsigned limit;       /* sink_limit's */
    const struct u7g *g;
};

/* The loop's state (in registers once inlined). */
struct u7_run {
    uint32_t state;   /* pre-multiplied */
    uint32_t partial; /* leftover bits and a pending high surrogate (U7_*) */
    unsigned pending; /* characters carrying the current unit's bits */
    size_t i;         /* bytes read */
};

ALWAYS_INLINE bool u7_fail(const struct u7_call *c, uint64_t at, uint32_t length,
                           enum utfdfa_error_kind kind)
{
    return fail(&c->k, at, length, kind);
}

/* A pending high surrogate without its low one is the error (the
 * characters that carried it); the byte at `here` is stepped again
 * without it. */
ALWAYS_INLINE utfdfa_result u7_lone_high(const struct u7_call *c, uint64_t here,
                                         uint32_t *partial)
{
    if (!u7_fail(c, here - U7_HIGH_BACK(*partial), U7_HIGH_LEN(*partial), UTFDFA_ERR_SURROGATE))
        return UTFDFA_OUTPUT_FULL;
    *partial = U7_ACC(*partial);
    return UTFDFA_MALFORMED;
}

/* IMAP: "-&" and a run, a null shift. Its "&" is the error; the run goes
 * on (this byte is stepped again). */
ALWAYS_INLINE int u7_null_shift(const struct u7_call *c, struct u7_run *run, uint64_t here)
{
    if (!u7_fail(c, here - 1, 1, UTFDFA_ERR_BAD_SHIFT))
        return UTFDFA_OUTPUT_FULL;
    run->partial &= ~U7_AFTER_RUN;
    return UTFDFA_MALFORMED;
}

/* The table rejects byte b (or the end of input): a byte that may not be
 * sent directly, a bad shift, or a run that ends badly (the error covers
 * its partial unit, else its last character). */
ALWAYS_INLINE int u7_rejected(const struct u7_call *c, struct u7_run *run, uint8_t b, bool end,
                              uint64_t here)
{
    const struct u7g *g = c->g;
    enum utfdfa_error_kind kind = (enum utfdfa_error_kind)
        g->error_kind[run->state / g->nclasses * g->nerror_classes + g->error_class[b]];
    bool alone = run->state == UTF7_ACCEPT;
    bool shift = kind == UTFDFA_ERR_BAD_SHIFT && run->pending == 0 &&
                 run->state == g->trans[UTF7_ACCEPT + g->cls[g->imap ? '&' : '+']];
    if (end && (shift || g->imap))
        kind = UTFDFA_ERR_TRUNCATED; /* the shift character, or a run, and then nothing */
    unsigned span = run->pending ? run->pending : 1;
    if (!u7_fail(c, alone ? here : here - span, alone ? 1 : span, kind))
        return UTFDFA_OUTPUT_FULL;
    /* After a run that ended in error, its "-" still ends the shift. */
    run->i += alone || (!end && b == '-' && !shift);
    run->state = UTF7_ACCEPT;
    run->partial = 0;
    run->pending = 0;
    return UTFDFA_MALFORMED;
}

/* Back at the start: a direct character or the constant of "+-" ("&-")
 * is delivered; a run that ended well absorbs its "-" (anything else is
 * read again). */
ALWAYS_INLINE int u7_accept(const struct u7_call *c, struct u7_run *run, uint8_t b,
                            unsigned tag, bool end, uint64_t here)
{
    const struct u7g *g = c->g;
    bool before = tag & TAG_BEFORE;
    unsigned value = g->tag_value[tag & 0x7F];
    if (value == UTF7_VALUE_EMPTY) {
        run->state = UTF7_ACCEPT;
        run->i += !before && !end;
        run->partial = g->imap ? U7_AFTER_RUN : 0;
        run->pending = 0;
        return STEP_NEXT;
    }
    bool literal = value == UTF7_VALUE_LITERAL;
    uint32_t cp = literal ? b : g->tag_number[tag & 0x7F];
    enum delivery dv = deliver(&c->k, c->limit, cp, here - !literal, literal ? 1 : 2);
    if (dv == NO_ROOM)
        return UTFDFA_OUTPUT_FULL;
    run->state = UTF7_ACCEPT;
    run->i++;
    run->partial &= ~U7_AFTER_RUN;
    return dv == UNFIT ? UTFDFA_MALFORMED : STEP_NEXT;
}

/* The base64 character at `here` is read: the table's next state, and
 * what the unit in progress keeps. */
ALWAYS_INLINE void u7_read(struct u7_run *run, uint32_t next, uint32_t partial, unsigned pending)
{
    run->partial = partial;
    run->pending = pending;
    run->state = next;
    run->i++;
}

/* A 16-bit unit is complete in the base64 character at `here` (`carried`
 * characters held its bits; `rest` are the next unit's first bits, held by
 * `after` characters). A high surrogate waits for its low one; a lone
 * surrogate, or in IMAP a printing US-ASCII character, is the error. */
ALWAYS_INLINE int u7_unit(const struct u7_call *c, struct u7_run *run, uint32_t next,
                          uint32_t unit, uint32_t rest, unsigned carried, unsigned after,
                          uint64_t here)
{
    bool high_waits = run->partial & U7_HAS_HIGH;
    uint64_t unit_at = here + 1 - carried;
    if (high_waits && !is_low(unit)) /* this byte is stepped again without it */
        return u7_lone_high(c, here, &run->partial);
    if (is_high(unit)) {
        u7_read(run, next, U7_WITH_HIGH(rest, unit, carried, carried), after);
        return STEP_NEXT;
    }
    bool printable = c->g->imap && unit >= 0x20 && unit <= 0x7E;
    if ((is_low(unit) && !high_waits) || printable) {
        if (!u7_fail(c, unit_at, carried, printable ? UTFDFA_ERR_OVERLONG : UTFDFA_ERR_SURROGATE))
            return UTFDFA_OUTPUT_FULL;
        u7_read(run, next, rest, after);
        return UTFDFA_MALFORMED;
    }
    uint32_t cp = unit;
    if (high_waits) {
        cp = 0x10000 + ((U7_HIGH(run->partial) - 0xD800) << 10) + (unit - 0xDC00);
        unit_at = here - U7_HIGH_BACK(run->partial);
    }
    enum delivery dv = deliver(&c->k, c->limit, cp, unit_at, (uint32_t)(here + 1 - unit_at));
    if (dv == NO_ROOM)
        return UTFDFA_OUTPUT_FULL;
    u7_read(run, next, rest, after);
    return dv == UNFIT ? UTFDFA_MALFORMED : STEP_NEXT;
}

/* A base64 character inside a run: 6 more bits, and where the table's
 * tag says a unit completes, the unit. */
ALWAYS_INLINE int u7_digit(const struct u7_call *c, struct u7_run *run, uint8_t b, unsigned tag,
                           uint32_t next, uint64_t here)
{
    const struct u7g *g = c->g;
    run->partial &= ~U7_AFTER_RUN;
    uint32_t acc = U7_ACC(run->partial) << UTF7_DIGIT_BITS | g->digit[b];
    unsigned carried = run->pending + 1;
    if (!tag || g->tag_value[tag] != UTF7_VALUE_SPLIT) {
        u7_read(run, next, u7_step_back((run->partial & ~0x3FFFu) | acc), carried);
        return STEP_NEXT;
    }
    unsigned keep = g->tag_number[tag]; /* bits that begin the next unit */
    return u7_unit(c, run, next, acc >> keep, acc & ((1u << keep) - 1), carried, keep ? 1 : 0,
                   here);
}

/* The kernels of src/fast/ (kernels.h) take the direct characters at the
 * start state and whole groups of 8 digits inside a run where no bits are
 * left over (the state after the shift character, or after 8k digits:
 * `cycle`, found on first use) and nothing else is held: they stop before
 * anything the steps above must decide, so what they deliver is what those
 * steps would. Not for UTF-7 bytes (the writer's state), nor while the BOM
 * mode still acts, nor for a limit short of the scalar values (Corrected
 * UTF-8's: C1 controls, U+0000; ISO-8859-1's). */
ALWAYS_INLINE bool u7_fast_on(const struct u7_call *c)
{
    return c->sink != SINK_BYTES && holds_scalars(c->limit) && bom_settled(c->d);
}

/* The kernels pay for their call only over long stretches. The group
 * kernel is offered `wait` digits into a run (a whole group; 8 more after
 * each refusal, up to 64, and 8 again after a call that read): short runs
 * rarely call. The text kernel goes on over runs and direct characters
 * alike, to the end of the input or of the room; it is offered where a call
 * begins and right after each run's end, so that a call that begins inside
 * a run (a chunk's or an output block's cut) reaches it there; after it
 * read nothing, U7_DIRECT_AFTER bytes on. u7_kernel calls one only when the
 * next U7_AHEAD bytes are of its kind. Not kernel_wait_after_short
 * (fast/kernels.h): measured beside it (utf7dec, Latin text with short
 * Cyrillic or Arabic words), its waits (16 on, doubling to 1,024) were
 * 4-10% slower there and faster nowhere beyond the noise. */
#define U7_DIRECT_AFTER 16
#define U7_AHEAD 16
#if defined(__GNUC__)
#define U7_RARELY(x) __builtin_expect(!!(x), 0)
#else
#define U7_RARELY(x) (x)
#endif

/* The states of a run where a group of 8 digits begins: after the shift
 * character, and after any 8k digits (`cycle`; every digit steps alike). */
ALWAYS_INLINE uint32_t u7_group(const struct u7g *g)
{
    return g->trans[UTF7_ACCEPT + g->cls[g->imap ? '&' : '+']];
}

ALWAYS_INLINE uint32_t u7_cycle(const struct u7g *g)
{
    uint32_t s = u7_group(g);
    for (int j = 0; j < 8; j++)
        s = g->trans[s + g->cls[g->digit_byte[0]]];
    return s;
}

/* Digits from `state`, inside a run, to where the next group begins (1-8). */
ALWAYS_INLINE unsigned u7_to_group(const struct u7g *g, uint32_t state)
{
    uint32_t cycle = u7_cycle(g);
    unsigned k = 1;
    for (state = g->trans[state + g->cls[g->digit_byte[0]]]; state != cycle && k < 8; k++)
        state = g->trans[state + g->cls[g->digit_byte[0]]];
    return k;
}

/* A kernel where it applies, at p[0..rem) (rem >= U7_AHEAD) in `state`:
 * what it read (0: nothing) and the state after. One copy for every sink:
 * the kernels' own loops are what is fast. */
struct u7_took {
    size_t k;
    uint32_t state;
    unsigned wait; /* when bits are held: the bytes to where one may be offered */
};

NOINLINE static struct u7_took u7_kernel(struct decoder *d, struct out *o, enum sink sink,
                                const struct u7g *g, uint32_t state, bool held, const uint8_t *p,
                                size_t rem)
{
    unsigned width = sink == SINK_U16 ? 2 : sink == SINK_NONE ? 0 : 4;
    size_t w = 0, cap = width ? o->cap - o->len : 0;
    void *dst = width ? (uint8_t *)o->p + o->len * width : NULL;
    struct u7_took t = {0, state, 0};
    if (held) { /* where the next group begins (a chunk's cut) */
        t.wait = state != UTF7_ACCEPT ? u7_to_group(g, state) : 8;
        return t;
    }
    /* The next bytes are of the kernel's kind (UTF-7 text: anything, its short runs too). */
    for (int j = 0; j < U7_AHEAD && (state != UTF7_ACCEPT || g->imap); j++)
        if (state == UTF7_ACCEPT ? g->trans[UTF7_ACCEPT + g->cls[p[j]]] != UTF7_ACCEPT
                                 : g->digit[p[j]] == 0xFF)
            return t;
    if (state == UTF7_ACCEPT) {
        t.k = utfdfa__utf7_text(g->imap, p, rem, dst, width, cap, &w);
    } else {
        uint32_t cycle = u7_cycle(g);
        if (state == u7_group(g) || state == cycle)
            t.k = utfdfa__utf7_b64(g->imap, p, rem, dst, width, cap, &w);
        t.state = t.k ? cycle : state;
    }
    if (t.k) {
        d->flags |= F_STARTED;
        o->len += width ? w : 0;
        o->after_high = false; /* read only for a WTF-8 target: no surrogate came */
    }
    return t;
}

/* At run->i, where a kernel may be offered: the kernel where nothing is
 * held but a run's end, the start state or a run's group boundary (pending
 * is 0 only there or after its shift character); where bits are held,
 * u7_kernel says how far on the next group begins. Returns where to offer
 * one next. */
ALWAYS_INLINE size_t u7_offer(const struct u7_call *c, struct u7_run *run, const uint8_t *src,
                              size_t n, unsigned *wait)
{
    if (n - run->i < U7_AHEAD)
        return run->i + 8;
    bool held = (run->pending | (run->partial & ~U7_AFTER_RUN)) != 0 ||
                (run->state != UTF7_ACCEPT && run->partial);
    struct u7_took t = u7_kernel(c->d, c->k.o, c->sink, c->g, run->state, held, src + run->i,
                                 n - run->i);
    if (t.wait)
        return run->i + t.wait;
    run->i += t.k;
    run->state = t.state;
    run->partial = t.k ? 0 : run->partial;
    if (run->state != UTF7_ACCEPT) /* short runs wait longer, up to 64 digits */
        *wait = t.k ? 8 : *wait < 64 ? *wait + 8 : 64;
    return run->i + (t.k ? 1 : run->state == UTF7_ACCEPT ? U7_DIRECT_AFTER : 8);
}

ALWAYS_INLINE utfdfa_result core_utf7(const struct call *k, const uint8_t *src, size_t *n,
                                      const struct u7g *g)
{
    struct decoder *d = k->d;
    const bool last = k->last;
    const struct u7_call c = {*k, d, k->sink, sink_limit(d, k->sink, k->to), g};
    struct u7_run run = {state_of(d, g->nstates, g->nclasses), d->partial, PENDING(d->flags), 0};
    /* Where a kernel may be offered next; never when they do not apply. */
    size_t retry = u7_fast_on(&c) ? 0 : SIZE_MAX;
    unsigned wait = 8; /* digits of a run before the group kernel is offered */
    int r = STEP_NEXT;
    while (r == STEP_NEXT) {
        if (U7_RARELY(run.i >= retry))
            retry = u7_offer(&c, &run, src, *n, &wait);
        /* The end of input steps like "." (outside Set B, not absorbed). */
        bool end = run.i == *n;
        if (end && !(last && run.state != UTF7_ACCEPT)) {
            r = UTFDFA_INPUT_EMPTY;
            break;
        }
        uint8_t b = end ? '.' : src[run.i];
        uint32_t cls = g->cls[b], next = g->trans[run.state + cls];
        unsigned tag = g->tag[run.state + cls];
        uint64_t here = d->offset + run.i;
        bool in_run = run.state != UTF7_ACCEPT;
        bool ends_run = next == g->reject ||
                        (next == UTF7_ACCEPT && g->tag_value[tag & 0x7F] == UTF7_VALUE_EMPTY);
        if (ends_run && in_run && (run.partial & U7_HAS_HIGH)) /* a high surrogate left alone */
            r = u7_lone_high(&c, here, &run.partial);
        else if (g->imap && (run.partial & U7_AFTER_RUN) && in_run && !end && g->digit[b] != 0xFF)
            r = u7_null_shift(&c, &run, here);
        else if (next == g->reject)
            r = u7_rejected(&c, &run, b, end, here);
        else if (next == UTF7_ACCEPT) {
            r = u7_accept(&c, &run, b, tag, end, here);
            if (in_run && retry != SIZE_MAX) /* a run's end */
                retry = run.i;
        } else if (!in_run) { /* the shift character: no bits; a group first */
            u7_read(&run, next, run.partial, run.pending);
            retry = retry != SIZE_MAX ? run.i + wait : retry;
        } else {
            r = u7_digit(&c, &run, b, tag, next, here);
        }
    }
    set_state(d, run.state, g->nclasses);
    d->partial = run.partial;
    set_pending(d, run.pending);
    d->offset += run.i;
    *n = run.i;
    return (utfdfa_result)r;
}

#endif /* UTFDFA_DECODE_UTF7_H */
