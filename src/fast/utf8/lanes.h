/* SPDX-License-Identifier: MIT */
/* Decoding valid text by lanes (to UTF-32). Where the text is valid, a
 * byte starts a character exactly when it does not reject from ACCEPT (a
 * character's later bytes never start one: the property utfdfa__utf8_pending
 * relies on, which tests/fast/test_fast.c checks on every grammar). So per
 * byte the decoding needs no state, only two tables gen/emit_fast.py
 * derives: the shift of the value (decode_shift: 32 at a start, so the
 * value starts afresh in its low 32 bits; 6 else; shift >> 5 is "starts")
 * and the byte's payload:
 *     v = v << sh[b] | pay[b];  x += sh[b] >> 5;  dst[x] = (uint32_t)v;
 * with the index x pre-advanced, so a character's slot is written at each
 * of its bytes and last with its whole value. The DFA is stepped alongside
 * (row >> s), and a window counts only when every lane ends in ACCEPT. */
#ifndef UTFDFA_FAST_UTF8_LANES_H
#define UTFDFA_FAST_UTF8_LANES_H

#include "ascii.h"
#include "decode.h"
#include "model.h"

/* One byte of a lane: state s, value v, index x into d. */
#define FAST_LD1(s, v, x, b)                                                                \
    do {                                                                                    \
        uint8_t b_ = (b);                                                                   \
        unsigned e_ = g->decode_shift[b_];                                                  \
        s = fast_next(g, s, b_);                                                            \
        v = v << e_ | g->payload[b_];                                                       \
        x += e_ >> 5;                                                                       \
        d[x] = (uint32_t)v;                                                                 \
    } while (0)

/* Each lane's state, value and index at the end of the lanes' common run. */
struct fast_lane_ends {
    uint64_t st[4], vv[4];
    size_t xx[4];
};

/* The lanes' tails (under 16 + RESYNC_MAX bytes each): true when every lane
 * ends in ACCEPT; e->xx[k] is then the index of lane k's last unit. */
FAST_INLINE bool fast_dec_lane_tails(const fast_tables *g, const uint8_t *src, const size_t *at,
                                     size_t run, struct fast_lane_ends *e, uint32_t *d, int lanes)
{
    bool ok = true;
    for (int k = 0; k < lanes; k++) {
        uint64_t s = e->st[k], v = e->vv[k];
        size_t x = e->xx[k];
        for (size_t q = at[k] + run; q < at[k + 1]; q++)
            FAST_LD1(s, v, x, src[q]);
        ok &= fast_st(g, s) == 0;
        e->xx[k] = x;
    }
    return ok;
}

/* Lane k filled d[o + (at[k] - i) .. xx[k]]: move lanes after the first
 * down behind it; the end of the units. */
FAST_INLINE size_t fast_dec_lane_join(const size_t *at, const size_t *xx, uint32_t *d, size_t i,
                                      size_t o, int lanes)
{
    size_t end = xx[0] + 1;
    for (int k = 1; k < lanes; k++) {
        size_t from = o + (at[k] - i), cnt = xx[k] + 1 - from;
        memmove(d + end, d + from, cnt * sizeof *d);
        end += cnt;
    }
    return end;
}

/* `lanes` lanes over a window src[i..at[lanes]) that ends before a
 * start-only byte (found at or after i + lanes * w; the caller checked
 * that w * lanes + RESYNC_MAX bytes are there, and room for as many
 * units). Lane 0 starts in the caller's state *ps with its partial value
 * *pcp (its character, if one is in progress, is unit o); lane k > 0 at a
 * start-only byte, writing from d[o + (at[k] - i)] (at most one unit a
 * byte, so the lanes' ranges do not meet); lanes after the first are then
 * moved down behind it. True when the window was valid (consumed, *po
 * advanced, *ps ACCEPT, *pcp 0); false otherwise (nothing consumed;
 * d[o..) holds scratch, d[..o) is untouched).
 *
 * A lane's index starts one before its first unit and is advanced by the
 * byte that starts a character, so in ACCEPT lane 0 needs src[i] to start
 * one: a byte that does not (it rejects from ACCEPT: the window cannot be
 * valid) would store at d[o - 1], a unit already written, which a window
 * that fails does not give back (and before d when o is 0). So such a
 * window is refused before any store. The engine enters a window at any
 * block boundary, so its first byte can be an error; the windows after a
 * valid one begin at a start-only byte. */
FAST_INLINE bool fast_dec_lanes(const fast_tables *g, const uint8_t *src, size_t *pi,
                                uint64_t *ps, uint32_t *pcp, const struct fast_out out, size_t w,
                                const int lanes)
{
    uint32_t *d = out.dst;
    size_t *po = out.po;
    size_t i = *pi, o = *po, at[5];
    if (fast_is_accept(g, *ps) && !(g->decode_shift[src[i]] >> 5))
        return false;
    if (!fast_lane_starts(g, src, i, w, lanes, at))
        return false;
    size_t run = at[1] - at[0];
    for (int k = 1; k < lanes; k++)
        if (at[k + 1] - at[k] < run)
            run = at[k + 1] - at[k];
    run &= ~(size_t)15;
    /* x: the index of the unit being built, one before the lane's first. */
    size_t x0 = o - (size_t)fast_is_accept(g, *ps), x1 = o + (at[1] - i) - 1;
    size_t x2 = o + (at[lanes > 2 ? 2 : 1] - i) - 1, x3 = o + (at[lanes > 3 ? 3 : 1] - i) - 1;
    uint64_t s0 = *ps, s1 = 0, s2 = 0, s3 = 0;
    uint64_t v0 = *pcp, v1 = 0, v2 = 0, v3 = 0;
    /* One pointer for all lanes (GCC spills a pointer per lane otherwise). */
    const size_t o1 = at[1] - at[0], o2 = at[lanes > 2 ? 2 : 1] - at[0];
    const size_t o3 = at[lanes > 3 ? 3 : 1] - at[0];
#define LDSTEP(k)                                                                           \
    do {                                                                                    \
        FAST_LD1(s0, v0, x0, q[(k)]);                                                       \
        FAST_LD1(s1, v1, x1, q[o1 + (k)]);                                                  \
        if (lanes > 2)                                                                      \
            FAST_LD1(s2, v2, x2, q[o2 + (k)]);                                              \
        if (lanes > 3)                                                                      \
            FAST_LD1(s3, v3, x3, q[o3 + (k)]);                                              \
    } while (0)
    for (const uint8_t *q = src + at[0], *qend = q + run; q != qend; q += 16) {
        LDSTEP(0); LDSTEP(1); LDSTEP(2); LDSTEP(3); LDSTEP(4); LDSTEP(5); LDSTEP(6); LDSTEP(7);
        LDSTEP(8); LDSTEP(9); LDSTEP(10); LDSTEP(11); LDSTEP(12); LDSTEP(13); LDSTEP(14); LDSTEP(15);
    }
#undef LDSTEP
    struct fast_lane_ends e = {{s0, s1, s2, s3}, {v0, v1, v2, v3}, {x0, x1, x2, x3}};
    if (!fast_dec_lane_tails(g, src, at, run, &e, d, lanes))
        return false;
    *po = fast_dec_lane_join(at, e.xx, d, i, o, lanes);
    *pi = at[lanes];
    *ps = 0;
    *pcp = 0;
    return true;
}

/* A variant's lanes: their number (2 to 4) and the ASCII path they stop for. */
struct fast_lane_ops {
    const fast_tables *g;
    int amode;
    int lanes;
};

/* Windows of lanes from src[*pi] on, while there is input and room for
 * them and until the text turns to ASCII at ACCEPT (the ASCII path is
 * faster): false when a window was not valid (*pw its lane width; nothing
 * of it consumed), true otherwise. A variant calls it from a function of
 * its own, so that its registers are all its own (inlined, GCC spills a
 * lane's pointer, and the engine's small calls pay for the lanes' frame). */
FAST_INLINE bool fast_dec_lanes_run(const struct fast_lane_ops ops, const uint8_t *src, size_t n,
                                    size_t *pi, uint64_t *ps, uint32_t *pcp,
                                    const struct fast_out out, size_t *pw)
{
    const fast_tables *g = ops.g;
    const int amode = ops.amode, lanes = ops.lanes;
    size_t *po = out.po, cap = out.cap;
    const bool ascii = fast_ascii_ok(g, amode);
    for (;;) {
        size_t i = *pi, o = *po;
        if (n - i < (size_t)lanes * DEC_LANE_MIN + RESYNC_MAX ||
            cap - o < (size_t)lanes * DEC_LANE_MIN + RESYNC_MAX)
            return true;
        size_t w = (n - i - RESYNC_MAX) / (size_t)lanes, wo = (cap - o - RESYNC_MAX) / (size_t)lanes;
        w = w < wo ? w : wo;
        w = w < DEC_LANE_MAX ? w : DEC_LANE_MAX;
        *pw = w;
        if (!fast_dec_lanes(g, src, pi, ps, pcp, out, w, lanes))
            return false;
        if (ascii && n - *pi >= 16 && fast_ascii16(amode, src + *pi))
            return true;
    }
}

#endif /* UTFDFA_FAST_UTF8_LANES_H */
