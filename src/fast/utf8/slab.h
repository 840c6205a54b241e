/* SPDX-License-Identifier: MIT */
/* Decoding by slabs: the engine of the SIMD decoders (utf8_fast.h's
 * contract). Two jobs, kept apart: which prefix is valid (utfdfa__utf8_scan,
 * the validator of the level in use) and decoding a run known to be valid
 * (a transcoder of an ISA file, which needs no DFA). Per slab (at most
 * SLAB_MAX bytes, so that the second pass reads from L1, and never more
 * bytes than units of room: a byte gives at most one unit, UTF-16 included):
 * scan it from ACCEPT, trim the valid prefix to a character boundary
 * (the last byte that starts a character), transcode that. When the scan stops short (an
 * error) or nothing is left to trim to, the plain per-byte step
 * (fast_dec_exact) finishes: at most one character's bytes to the error,
 * the room's last character, or the end of input. */
#ifndef UTFDFA_FAST_UTF8_SLAB_H
#define UTFDFA_FAST_UTF8_SLAB_H

#include "decode.h"
#include "replace.h"

enum { SLAB_MAX = 8192 };
/* The replacing decoder's windows around errors: REP_WIN_MIN bytes after a
 * lone error, doubled up to REP_WIN_MAX while they keep finding several. */
enum { REP_WIN_MIN = 64, REP_WIN_MAX = 4096 };

/* A transcoder of valid UTF-8: src[0..n) is whole characters; it writes
 * their units at dst (u16: UTF-16, else UTF-32) and returns how many. */
typedef size_t (*fast_valid_fn)(const uint8_t *src, size_t n, void *dst);

/* A slab decoder's parts. */
struct fast_slab_ops {
    const fast_tables *g;
    bool u16;
    fast_valid_fn valid;
    /* utfdfa__utf8_scan, or the validator it would call at the caller's
     * level (no dispatch at each slab) */
    utfdfa__scan_fn scan;
    /* a fast_ascii_fn (ascii.h) of the engine's output form, or NULL;
     * called at each slab's start, so that ASCII text is read once */
    fast_ascii_fn ascii;
};

FAST_INLINE size_t fast_min3(size_t a, size_t b, size_t c)
{
    size_t m = a < b ? a : b;
    return m < c ? m : c;
}

/* Where a slab src[0..len) had best end: before its last character when
 * that one starts in the last three bytes and is not complete at len (cut
 * by the slab or the input, or bad), else len. The scan then ends at a
 * boundary instead of taking its error path for the cut character, and the
 * plain step (or the next slab) takes that character. */
FAST_INLINE size_t fast_slab_cut(const fast_tables *g, const uint8_t *src, size_t len)
{
    for (size_t j = 1; j <= 3 && j <= len; j++) {
        if (g->decode_shift[src[len - j]] >> 5) { /* starts a character */
            uint64_t s = fast_to_state(g, 0);
            for (size_t q = len - j; q < len && !fast_is_reject(g, s); q++)
                s = fast_next(g, s, src[q]);
            return fast_is_accept(g, s) ? len : len - j;
        }
    }
    return len;
}

FAST_INLINE size_t fast_slab_engine(const struct fast_slab_ops ops, const struct fast_call c)
{
    const fast_tables *g = ops.g;
    const uint8_t *src = c.src;
    const size_t n = c.n, cap = c.cap;
    void *dst = c.dst;
    const bool u16 = ops.u16;
    uint64_t s = fast_to_state(g, *c.state);
    uint32_t cp = *c.partial;
    size_t i = 0, o = 0;
    /* A character in progress: its bytes one by one. */
    while (i < n && !fast_is_accept(g, s)) {
        size_t j = fast_dec_exact(g, src, i, i + 1, &s, &cp, (struct fast_out){dst, &o, cap}, u16);
        if (j == i)
            goto done;
        i = j;
    }
    for (;;) {
        if (ops.ascii) {
            size_t a = ops.ascii(src + i, n - i < cap - o ? n - i : cap - o,
                             u16 ? (void *)((uint16_t *)dst + o) : (void *)((uint32_t *)dst + o));
            i += a;
            o += a;
        }
        size_t len = fast_min3(n - i, cap - o, SLAB_MAX);
        bool end = len == n - i; /* then the plain step finishes, not another slab */
        len = fast_slab_cut(g, src + i, len);
        if (len == 0)
            break;
        uint32_t st = 0; /* ACCEPT */
        size_t raw = ops.scan(src + i, len, &st), k = raw;
        if (st != 0) {
            /* Back to the character's first byte (in the slab: the scan
             * began in ACCEPT), the last byte that starts one (a valid run,
             * so one is there; a later byte never starts one). */
            while (k && !(g->decode_shift[src[i + k - 1]] >> 5))
                k--;
            k -= k > 0;
        }
        if (k == 0)
            break;
        o += ops.valid(src + i, k,
                       u16 ? (void *)((uint16_t *)dst + o) : (void *)((uint32_t *)dst + o));
        i += k;
        if (raw < len || end)
            break; /* an error, or the input's end */
    }
    i = fast_dec_exact(g, src, i, n, &s, &cp, (struct fast_out){dst, &o, cap}, u16);
done:
    *c.state = fast_from_state(g, s);
    *c.partial = cp;
    *c.written = o;
    return i;
}

/* Replacing: valid runs by the strict slab decoder (dec), each error and
 * the bytes around it by the replacing engine of the level below (rep,
 * results as before: one U+FFFD per maximal subpart), over windows that
 * grow while errors are dense (random bytes) and start small again after a
 * window with at most one. Stops only for room or at the end. */
FAST_INLINE size_t fast_slab_rep(const struct fast_call c, utfdfa__dec32_fn dec,
                                 utfdfa__rep_fn rep)
{
    const uint8_t *src = c.src;
    const size_t n = c.n, cap = c.cap;
    uint32_t *state = c.state, *partial = c.partial, *dst = c.dst;
    size_t i = 0, o = 0, nerr = 0, win = REP_WIN_MIN;
    for (;;) {
        size_t w = 0, e = 0;
        i += dec(src + i, n - i, state, partial, dst + o, cap - o, &w);
        o += w;
        if (i == n)
            break;
        size_t m = n - i < win ? n - i : win;
        size_t k = rep(src + i, m, state, partial, dst + o, cap - o, &w, &e);
        i += k;
        o += w;
        nerr += e;
        if (k < m)
            break; /* no room */
        win = e > 1 ? (win < REP_WIN_MAX ? 2 * win : win) : REP_WIN_MIN;
    }
    *c.written = o;
    *c.errors = nerr;
    return i;
}

#endif /* UTFDFA_FAST_UTF8_SLAB_H */
