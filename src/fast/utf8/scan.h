/* SPDX-License-Identifier: MIT */
/* Validation: the engine of utfdfa__utf8_scan and its variants. A
 * variant is this engine with its ASCII mode and lane count fixed, in a
 * function of an ISA file (portable.c, src/fast/arm64/utf8_neon.c; the tests' variants:
 * tests/fast/utf8_variants.c). */
#ifndef UTFDFA_FAST_UTF8_SCAN_H
#define UTFDFA_FAST_UTF8_SCAN_H

#include "ascii.h"
#include "model.h"

/* Exact: step until end or before the byte that would reject. */
FAST_INLINE size_t fast_scan_exact(const fast_tables *g, const uint8_t *src, size_t i, size_t end,
                                   uint64_t *ps)
{
    uint64_t s = *ps;
    while (i < end) {
        uint64_t next = fast_next(g, s, src[i]);
        if (fast_is_reject(g, next))
            break;
        s = next;
        i++;
    }
    *ps = s;
    return i;
}

#define SSTEP(s, p, k) s = fast_next(g, s, (p)[k])
#define SSTEP4(s, p, k) SSTEP(s, p, k); SSTEP(s, p, (k) + 1); SSTEP(s, p, (k) + 2); SSTEP(s, p, (k) + 3)
#define SSTEP16(s, p) SSTEP4(s, p, 0); SSTEP4(s, p, 4); SSTEP4(s, p, 8); SSTEP4(s, p, 12)

/* One unchecked 16-byte block (REJECT is a sink); false (and *ps, *pi at
 * the exact stop) when it rejects. */
FAST_INLINE bool fast_scan_block(const fast_tables *g, const uint8_t *src, size_t *pi, uint64_t *ps)
{
    uint64_t s = *ps;
    const uint8_t *p = src + *pi;
    SSTEP16(s, p);
    if (FAST_UNLIKELY(fast_is_reject(g, s))) {
        *pi = fast_scan_exact(g, src, *pi, *pi + 16, ps);
        return false;
    }
    *ps = s;
    *pi += 16;
    return true;
}

/* The lanes' tails (under 16 + RESYNC_MAX bytes each), unchecked (REJECT
 * is a sink); true when each lane ends where the next begins in ACCEPT and
 * the last does not reject (then *ps is the last lane's state). */
FAST_INLINE bool fast_scan_lane_tails(const fast_tables *g, const uint8_t *src, const size_t *at,
                                      size_t run, uint64_t *st, int lanes, uint64_t *ps)
{
    for (int k = 0; k < lanes; k++) {
        uint64_t s = st[k];
        for (size_t q = at[k] + run; q < at[k + 1]; q++)
            s = fast_next(g, s, src[q]);
        st[k] = s;
    }
    bool ok = !fast_is_reject(g, st[lanes - 1]);
    for (int k = 0; k + 1 < lanes; k++)
        ok &= fast_st(g, st[k]) == 0;
    if (ok)
        *ps = st[lanes - 1];
    return ok;
}

/* `lanes` DFAs over a window of lanes * w bytes at src[i..) (the caller
 * checked that w + RESYNC_MAX more bytes are there): lane 0 from the true
 * state, lane k from ACCEPT at the first start-only byte at or after
 * i + k * w. Each lane must end where the next begins in ACCEPT: then every
 * lane saw what the single DFA would have (a start-only byte rejects from
 * every other state). On success the window is consumed (true); otherwise
 * nothing is, and the caller steps the window alone (which finds the error). */
FAST_INLINE bool fast_scan_lanes(const fast_tables *g, const uint8_t *src, size_t *pi,
                                 uint64_t *ps, size_t w, const int lanes)
{
    size_t i = *pi, at[5];
    if (!fast_lane_starts(g, src, i, w, lanes - 1, at))
        return false;
    at[lanes] = i + (size_t)lanes * w;
    size_t run = at[1] - at[0];
    for (int k = 1; k < lanes; k++)
        if (at[k + 1] - at[k] < run)
            run = at[k + 1] - at[k];
    run &= ~(size_t)15;
    uint64_t s0 = *ps, s1 = 0, s2 = 0, s3 = 0;
    const uint8_t *p0 = src + at[0], *p1 = src + at[1];
    const uint8_t *p2 = src + at[lanes > 2 ? 2 : 1], *p3 = src + at[lanes > 3 ? 3 : 1];
    /* Fully unrolled by hand (GCC keeps an inner loop otherwise): per byte
     * one load of the byte, one of its row, one shift. */
#define LSTEP(k)                                                                            \
    do {                                                                                    \
        SSTEP(s0, p0 + j, k);                                                               \
        SSTEP(s1, p1 + j, k);                                                               \
        if (lanes > 2)                                                                      \
            SSTEP(s2, p2 + j, k);                                                           \
        if (lanes > 3)                                                                      \
            SSTEP(s3, p3 + j, k);                                                           \
    } while (0)
    for (size_t j = 0; j < run; j += 16) {
        LSTEP(0); LSTEP(1); LSTEP(2); LSTEP(3); LSTEP(4); LSTEP(5); LSTEP(6); LSTEP(7);
        LSTEP(8); LSTEP(9); LSTEP(10); LSTEP(11); LSTEP(12); LSTEP(13); LSTEP(14); LSTEP(15);
    }
#undef LSTEP
    uint64_t st[4] = {s0, s1, s2, s3};
    if (!fast_scan_lane_tails(g, src, at, run, st, lanes, ps))
        return false;
    *pi = at[lanes];
    return true;
}

FAST_INLINE size_t fast_scan_engine(const fast_tables *g, const uint8_t *src, size_t n,
                                    uint32_t *state, const int amode, const int lanes)
{
    const bool ascii = fast_ascii_ok(g, amode);
    uint64_t s = fast_to_state(g, *state);
    size_t i = 0;
    /* Blocks of 16 bytes; a block of ASCII from ACCEPT starts the ASCII
     * path. Lanes only after DENSE blocks in a row with a byte >= 0x80, so
     * text with sparse non-ASCII stays on the ASCII path between them. */
    unsigned dense = 0;
    while (n - i >= 16) {
        /* The peek first: on non-ASCII text it fails predictably, while
         * the state at a block boundary is as good as random. */
        if (ascii && fast_ascii16(amode, src + i) && fast_is_accept(g, s)) {
            i += 16 + fast_ascii_prefix(amode, src + i + 16, n - i - 16);
            dense = 0;
            continue;
        }
        if (lanes > 1 && (!ascii || dense >= DENSE) &&
            n - i >= (size_t)lanes * LANE_MIN + RESYNC_MAX) {
            size_t w = (n - i - RESYNC_MAX) / (size_t)lanes;
            w = w < LANE_MAX ? w : LANE_MAX;
            if (fast_scan_lanes(g, src, &i, &s, w, lanes))
                continue;
            size_t end = i + (size_t)lanes * w;
            while (end - i >= 16)
                if (!fast_scan_block(g, src, &i, &s))
                    goto done;
            continue;
        }
        if (!fast_scan_block(g, src, &i, &s))
            goto done;
        dense++;
    }
    i = fast_scan_exact(g, src, i, n, &s);
done:
    *state = fast_from_state(g, s);
    return i;
}

#endif /* UTFDFA_FAST_UTF8_SCAN_H */
