/* SPDX-License-Identifier: MIT */
/* The SIMD UTF-7 kernels (kernels.h), written once over an ISA's steps:
 * x86/utf7_sse4.c and arm64/utf7_neon.c include this after their
 * primitives, which work on 16 bytes (digits, units) at a time. Base64
 * after Muła and Lemire ("Faster Base64 Encoding and Decoding Using AVX2
 * Instructions"): a digit is classified by a table lookup on its two
 * nibbles, its value is its byte plus an offset picked by its high nibble
 * (the grammar's alphabet gives both, gen/grammar_facts.py), four digits
 * pack into 24 bits and a shuffle orders them as UTF-16BE units
 * (utf7_layout.h). A step whose units include a surrogate or (IMAP) a
 * printing ASCII one, or whose bytes are not all digits, goes to the scalar
 * reference (utf7.c), which pairs surrogates and stops where the caller's
 * run logic must take over.
 *
 * The including file defines, before it includes this:
 *   U7_VEC, U7_UNITS        16 bytes; 8 16-bit units (the same type may do)
 *   struct u7_isa           its tables, with direct, b64 (U7_VEC) and imap
 *   U7_STEP, U7_RARE        the attributes of an inlined step, of an
 *                           out-of-line one (static, noinline), U7_KERN of
 *                           the kernels; U7_B64, U7_TEXT: their names
 * and these, the bit masks in x86's movemask order (bit k for byte k):
 *   u7_tables(imap), u7_load(p), u7_high(s, v): high nibbles,
 *   u7_outside(s, v, hi, set): 0xFF for each byte not in set,
 *   u7_bits(m): m's mask, u7_any(m), u7_or(a, b), u7_eq_bits(v, c): bytes
 *   equal to c,
 *   u7_values(s, v, hi): digits' values, u7_units(s, val): 16 values as six
 *   units (lanes 6 and 7 zero), u7_printing(u): 0xFF pairs for 0x20-0x7E,
 *   u7_top_bits(u, mask, top): units with u & mask == top (two bits each),
 *   u7_zero_bits(u), u7_from(v, at): v's bytes from at on (the last at
 *   bytes unspecified: x86 wraps, NEON zeroes), u7_first(v, len): its
 *   first len, zero after, u7_put_units(d, width, u): units 0-5 as code
 *   points (4) or units (2), u7_put_three_pairs(d, u), u7_put_bytes(d,
 *   width, v): 16 bytes widened (out of line), u7_store_units(a, u),
 *   u7_plus_unit(): '+' as unit 0. */
/* A template, like utf8/lookup_engine.h: no include guard (the
 * amalgamation inlines it for each ISA file that includes it). */
#include "utf7_layout.h"

/* 16 digits at p as six units in *units: 1, or 2 when they are three
 * surrogate pairs (high, low, high, low, high, low: whole characters); 0
 * when a byte is not a digit, a unit is another surrogate or (imap) a
 * printing ASCII character. */
U7_STEP int u7s_step(const struct u7_isa *s, int imap, const uint8_t *p, U7_UNITS *units)
{
    U7_VEC v = u7_load(p), hi = u7_high(s, v);
    U7_VEC bad = u7_outside(s, v, hi, s->b64);
    U7_UNITS u = u7_units(s, u7_values(s, v, hi));
    if (imap)
        bad = u7_or(bad, u7_printing(u));
    *units = u;
    if (u7_any(bad))
        return 0;
    unsigned high = u7_top_bits(u, 0xFC00, 0xD800), low = u7_top_bits(u, 0xFC00, 0xDC00);
    return (high | low) == 0 ? 1 : high == 0x333 && low == 0xCCC ? 2 : 0;
}

U7_KERN size_t U7_B64(int imap, const uint8_t *src, size_t n, void *dst, unsigned width,
                      size_t cap, size_t *written)
{
    const struct u7_isa s = u7_tables(imap);
    uint8_t *out = dst;
    size_t i = 0, w = 0, got = 0, k;
    for (;;) {
        U7_UNITS u;
        int kind = n - i >= 16 && (!width || cap - w >= 6) ? u7s_step(&s, imap, src + i, &u) : 0;
        if (kind == 2 && width == 4) {
            u7_put_three_pairs(out + w * 4, u);
            i += 16;
            w += 3;
        } else if (kind) {
            if (width) /* else dst is NULL: no arithmetic on it */
                u7_put_units(out + w * width, width, u);
            i += 16;
            w += width ? 6 : 0;
        } else { /* pairs across steps, the input's end or what ends the kernel: group by group */
            k = utfdfa__scalar_utf7_b64(imap, src + i, kern_min(n - i, 64),
                                        width ? out + w * width : NULL, width, cap - w, &got);
            i += k;
            w += got;
            if (k == 0)
                break;
        }
    }
    *written = w;
    return i;
}

/* One 16-byte window of UTF-7 text: its bytes, their digit values, and
 * bits of the bytes that are not direct (bit 16 set too) and not digits
 * (bits 16-31 set too). */
struct u7s_window {
    U7_VEC v, val;
    uint32_t other, nondigit, dash; /* dash: bits of the "-"s */
};

/* A text kernel's place: where it reads and writes, and the run it is in. */
struct u7s_at {
    size_t i, w, run_at, run_w;
    uint32_t carry; /* a high surrogate whose low one begins the next window (whether) */
    int in_run, paired; /* paired: the run has pairs (its BMP ones go faster here) */
};

#define U7S_GOES_ON 32
#define U7S_REFUSED 33
#define U7S_GOES_ON_8 34 /* having taken 8 digits only */
#define U7S_SLICE 256 /* the longest run refused here that the scalar reference is given */

/* Units u[0..nu) whose surrogates are pairs as code points at d: how
 * many. *carry: a high surrogate whose low one is the next unit (from the
 * window before, and into the next). At most three pairs: a loop costs less
 * than a table of compressions. */
U7_RARE unsigned u7s_put_pairs(uint8_t *d, U7_UNITS u, unsigned nu, uint32_t *carry)
{
    uint16_t a[8];
    unsigned m = 0;
    u7_store_units(a, u);
    for (unsigned k = 0; k < nu; k++) {
        uint32_t cp = a[k];
        if (*carry)
            cp = 0x10000 + ((*carry - 0xD800) << 10) + (cp - 0xDC00u);
        *carry = cp >= 0xD800 && cp <= 0xDBFF ? cp : 0;
        if (*carry)
            continue;
        memcpy(d + 4 * m++, &cp, 4);
    }
    return m;
}

/* Writes the units of a run's digits (pairs: its surrogates' bits; nu:
 * how many) at out + t->w; where the run goes on (U7S_GOES_ON, _8). */
U7_STEP unsigned u7s_put_run(uint8_t *out, unsigned width, struct u7s_at *t, U7_UNITS u,
                             unsigned nu, unsigned pairs, unsigned lanes, unsigned end)
{
    if (!pairs) { /* no surrogate */
        if (width)
            u7_put_units(out + t->w * width, width, u);
        t->w += width ? nu : 0;
        return U7S_GOES_ON;
    }
    unsigned goes_on = U7S_GOES_ON;
    if (end == 16 && pairs > lanes && !(pairs >> 6 & 1)) {
        nu = 3; /* 8 digits, so that the next window begins with the pair */
        goes_on = U7S_GOES_ON_8;
    }
    unsigned last_high = pairs >> 2 * nu & 1; /* its low one is in the next window */
    if (width == 4) {
        t->w += u7s_put_pairs(out + t->w * 4, u, nu, &t->carry);
    } else {
        if (width)
            u7_put_units(out + t->w * width, width, u);
        t->w += width ? nu : 0;
        t->carry = last_high;
    }
    return goes_on;
}

/* The digits of a run from the window's byte at (`fresh`: the first of
 * the run): their units at out (t->w advanced) when the run ends inside the
 * window, a surrogate pair as one code point (width 4) or its two units.
 * Returns where the next byte is; U7S_GOES_ON when the run goes on past the
 * window (having taken 16 digits, six units, when at is 0, the last high
 * surrogate of them in t->carry; else nothing); U7S_REFUSED when the run is
 * not to be taken (a lone surrogate among the reasons). */
U7_STEP unsigned u7s_digits(const struct u7_isa *s, const struct u7s_window *x, unsigned at,
                            int fresh, uint8_t *out, unsigned width, struct u7s_at *t)
{
    unsigned len = (unsigned)__builtin_ctz(x->nondigit >> at), end = at + len;
    unsigned nu = 6 * len >> 4, lanes = (1u << 2 * nu) - 1; /* mask bits of whole units */
    if (end == 16 && at != 0)
        return U7S_GOES_ON; /* the next window begins at this run's digit */
    U7_UNITS u = u7_units(s, u7_first(u7_from(x->val, at), len));
    unsigned zero = u7_zero_bits(u);
    unsigned low = 0, pairs = t->carry ? 3u : 0u; /* where the low ones must be */
    if ((u7_top_bits(u, 0xF800, 0xD800) & lanes) | pairs) {
        low = u7_top_bits(u, 0xFC00, 0xDC00);
        pairs |= (u7_top_bits(u, 0xFC00, 0xD800) & lanes) << 2;
    }
    /* Every high surrogate followed by a low one and every low one after a
     * high one; one last goes on into the next window only. Fewer than 8
     * bits over (len % 8 is 0, 1, 3 or 6), all zero: the unit after them is
     * 0; the run ends at its "-" or a direct character; "+" alone is "+-". */
    if ((low & lanes) != (pairs & lanes) || (end < 16 && pairs > lanes) ||
        (end < 16 && ((6 * len & 15) >= 8 || (~zero & ~lanes & 0xFFFF) ||
                      (x->other >> end & 1) || (fresh && len == 0 && !(x->dash >> end & 1)))))
        return U7S_REFUSED;
    if (fresh && len == 0) { /* "+-" is "+" */
        u = u7_plus_unit();
        nu = 1;
    }
    t->paired |= pairs != 0;
    unsigned goes_on = u7s_put_run(out, width, t, u, nu, pairs, lanes, end);
    return end < 16 ? end + (x->dash >> end & 1) : goes_on;
}

/* The first byte from e on that is not a digit, found 16 bytes at a time:
 * at most U7S_SLICE bytes on, and n when fewer than 16 are left. */
U7_STEP size_t u7s_run_end(const struct u7_isa *s, const uint8_t *src, size_t e, size_t n)
{
    for (size_t stop = e + U7S_SLICE; n - e >= 16 && e < stop; e += 16) {
        U7_VEC v = u7_load(src + e);
        unsigned other = u7_bits(u7_outside(s, v, u7_high(s, v), s->b64));
        if (other)
            return e + (unsigned)__builtin_ctz(other);
    }
    return n - e >= 16 ? e : n;
}

/* Window x's bytes classified: not direct, not digits (x->other, nondigit). */
U7_STEP void u7s_classify(const struct u7_isa *s, struct u7s_window *x, U7_VEC hi)
{
    x->other = u7_bits(u7_outside(s, x->v, hi, s->direct)) | 0x10000;
    x->nondigit = u7_bits(u7_outside(s, x->v, hi, s->b64)) | ~0xFFFFu;
}

/* The digit values of window x (high nibbles hi) and, when `marks`, the
 * bits of its "-"s (in x) and of its "+"s (returned); else none. */
U7_STEP uint32_t u7s_marks(const struct u7_isa *s, struct u7s_window *x, U7_VEC hi, int marks)
{
    x->val = u7_values(s, x->v, hi);
    x->dash = 0;
    if (!marks)
        return 0;
    x->dash = u7_eq_bits(x->v, '-');
    return u7_eq_bits(x->v, '+');
}

/* The last bytes p[0..m) (m < 16) of a run, from a window's start, in a
 * copy after which come bytes that are neither direct nor digits (so that a
 * run cut by the end is refused, as in the scalar reference): where the
 * next byte is when it ends well there (under 16), else 16 or more. */
U7_RARE unsigned u7s_run_tail(const struct u7_isa *s, const uint8_t *p, size_t m, int fresh,
                              uint8_t *out, unsigned width, struct u7s_at *t)
{
    uint8_t last[16];
    memset(last, 0x80, sizeof last);
    memcpy(last, p, m);
    struct u7s_window x;
    x.v = u7_load(last);
    U7_VEC hi = u7_high(s, x.v);
    u7s_classify(s, &x, hi);
    u7s_marks(s, &x, hi, 1);
    return u7s_digits(s, &x, 0, fresh, out, width, t);
}

/* A run at src + run_at refused here, with its end, by the scalar
 * reference: what it read (*w: the units so far). */
U7_RARE size_t u7s_refused(const struct u7_isa *s, const uint8_t *src, size_t n, size_t run_at,
                           uint8_t *out, unsigned width, size_t cap, size_t *w)
{
    size_t e = u7s_run_end(s, src, run_at + 1, n), got = 0;
    size_t k = utfdfa__scalar_utf7_text(s->imap, src + run_at, kern_min(n, e + 1) - run_at,
                                        width ? out + *w * width : NULL, width,
                                        width ? cap - *w : 0, &got);
    *w += got;
    return k;
}

/* Inside a run at src + *i, 16 digits there, no bits over: when 16 more
 * follow (a call pays only over a long run) and the first are BMP
 * characters or pairs three groups apart (or are 8 digits on), the base64
 * kernel's steps from there (one group by its scalar form first); whether
 * it read. *w: the units so far. */
U7_RARE int u7s_long_run(const struct u7_isa *s, const uint8_t *src, size_t n, size_t *i,
                         uint8_t *out, unsigned width, size_t cap, size_t *w)
{
    const int imap = s->imap;
    U7_UNITS units;
    size_t at = *i, got = 0, k = 0;
    if (n - at < 32)
        return 0;
    U7_VEC v = u7_load(src + at + 16);
    if (u7_bits(u7_outside(s, v, u7_high(s, v), s->b64)))
        return 0;
    if (!u7s_step(s, imap, src + at, &units)) { /* the pairs 8 digits on, if aligned there */
        if (!u7s_step(s, imap, src + at + 8, &units) ||
            utfdfa__scalar_utf7_b64(imap, src + at, 8, width ? out + *w * width : NULL, width,
                                    width ? cap - *w : 0, &got) != 8)
            return 0;
        at += 8;
        *w += got;
    }
    k = U7_B64(imap, src + at, n - at, width ? out + *w * width : NULL, width,
               width ? cap - *w : 0, &got);
    *w += got;
    at += k;
    k = at != *i;
    *i = at;
    return (int)k;
}

/* The direct characters and runs of window x from its byte `at` on (plus:
 * the bits of its "+"s): the bytes it took, 16 or less; U7S_REFUSED when a
 * run is not to be taken (t->i at its "+", t->w as before it). At most 16
 * units written (a window's room is 32). */
U7_STEP unsigned u7s_window_runs(const struct u7_isa *s, const struct u7s_window *x,
                                 uint32_t plus, unsigned at, uint8_t *out, unsigned width,
                                 struct u7s_at *t)
{
    for (;;) {
        if (!t->in_run) {
            unsigned direct = (unsigned)__builtin_ctz(x->other >> at);
            if (width && direct)
                u7_put_bytes(out + t->w * width, width, u7_from(x->v, at));
            t->w += width ? direct : 0;
            at += direct;
            if (!(plus >> at & 1)) /* at 16: no bit */
                return at; /* the window's end, or a byte to stop at */
            t->run_at = t->i + at++;
            t->run_w = t->w;
            t->carry = 0;
            t->paired = 0;
        }
        unsigned next = u7s_digits(s, x, at, t->i + at == t->run_at + 1, out, width, t);
        if (next == U7S_REFUSED) {
            t->w = t->run_w;
            t->i = t->run_at;
            return next;
        }
        t->in_run = next == U7S_GOES_ON || next == U7S_GOES_ON_8;
        if (t->in_run)
            return at ? at : next == U7S_GOES_ON ? 16 : 8;
        at = next;
    }
}

/* The last bytes of a run that goes on past the windows: taken when it
 * ends well there, else back to its "+" (a run not taken whole). */
U7_STEP void u7s_finish_run(const struct u7_isa *s, const uint8_t *src, size_t n, uint8_t *out,
                            unsigned width, size_t cap, struct u7s_at *t)
{
    unsigned at_end = 0;
    if (t->in_run && n - t->i < 16 && (!width || cap - t->w >= 32) &&
        (at_end = u7s_run_tail(s, src + t->i, n - t->i, t->i == t->run_at + 1, out, width, t)) < 16)
        t->i += at_end, t->in_run = 0; /* the run ended well in the last bytes */
    if (t->in_run) {
        t->i = t->run_at;
        t->w = t->run_w;
    }
}

/* 16 bytes a window: its direct characters and the runs that end in it
 * from one load; a run that goes on past it in windows that begin at its
 * digits, 16 digits (six units) each. A run not taken whole goes back to
 * its "+". */
U7_KERN size_t U7_TEXT(int imap, const uint8_t *src, size_t n, void *dst, unsigned width,
                       size_t cap, size_t *written)
{
    const struct u7_isa s = u7_tables(imap);
    uint8_t *out = dst;
    struct u7s_at t = {0, 0, 0, 0, 0, 0, 0};
    size_t got = 0, k;
    unsigned full = 0; /* windows of digits only in a row */
    while (n - t.i >= 16 && (!width || cap - t.w >= 32)) {
        struct u7s_window x;
        x.v = u7_load(src + t.i);
        U7_VEC hi = u7_high(&s, x.v);
        x.other = u7_bits(u7_outside(&s, x.v, hi, s.direct)) | 0x10000;
        if (x.other == 0x10000 && !t.in_run) { /* direct characters only */
            u7_put_bytes(width ? out + t.w * width : NULL, width, x.v);
            t.i += 16;
            t.w += width ? 16 : 0;
            continue;
        }
        x.nondigit = u7_bits(u7_outside(&s, x.v, hi, s.b64)) | ~0xFFFFu;
        full = t.in_run && x.nondigit == ~0xFFFFu ? full + 1 : 0;
        if (full >= 3 && t.paired && !t.carry && u7s_long_run(&s, src, n, &t.i, out, width, cap, &t.w))
            continue; /* a run of pairs' third window of digits on: the base64 kernel's */
        /* a window of a run's digits needs neither "-" nor "+" */
        uint32_t plus = u7s_marks(&s, &x, hi, !imap && !(t.in_run && x.nondigit == ~0xFFFFu));
        unsigned at = u7s_window_runs(&s, &x, plus, 0, out, width, &t);
        if (at == U7S_REFUSED) {
            k = u7s_refused(&s, src, n, t.run_at, out, width, cap, &t.w);
            if (k == 0) /* a run it refuses too, or longer than the slice: to the end */
                goto done;
            t.i += k;
            t.in_run = 0;
            t.carry = 0;
            continue; /* t.i is past what the scalar reference took */
        }
        t.i += at;
        if (!t.in_run && at < 16)
            break; /* a byte to stop at */
    }
    u7s_finish_run(&s, src, n, out, width, cap, &t);
done:
    k = utfdfa__scalar_utf7_text(imap, src + t.i, n - t.i, width ? out + t.w * width : NULL, width,
                                 width ? cap - t.w : 0, &got);
    *written = t.w + got;
    return t.i + k;
}
