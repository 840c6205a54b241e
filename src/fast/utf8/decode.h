/* SPDX-License-Identifier: MIT */
/* Decoding to UTF-32 and UTF-16: the engine of utfdfa__utf8_decode32 and
 * _decode16 and their variants (one engine for both outputs; u16: UTF-16
 * units, pairs whole). Lanes are in lanes.h. */
#ifndef UTFDFA_FAST_UTF8_DECODE_H
#define UTFDFA_FAST_UTF8_DECODE_H

#include "ascii.h"
#include "model.h"

/* A decoder's call (utf8_fast.h's function types): src[0..n), the state
 * and the partial value in and out, units at dst (at most cap), their
 * count and (replacing) the U+FFFD written out. */
struct fast_call {
    const uint8_t *src;
    size_t n;
    uint32_t *state, *partial;
    void *dst;
    size_t cap;
    size_t *written, *errors;
};

/* Where a step writes: units at dst from *po on, below cap. */
struct fast_out {
    void *dst;
    size_t *po;
    size_t cap;
};

/* Store code point v (complete) at dst[*po] if it fits below cap: false
 * (nothing stored) when it does not. */
FAST_INLINE bool fast_put(void *dst, size_t *po, size_t cap, uint32_t v, bool u16)
{
    size_t o = *po;
    if (!u16) {
        if (o == cap)
            return false;
        ((uint32_t *)dst)[o++] = v;
    } else if (v < 0x10000) {
        if (o == cap)
            return false;
        ((uint16_t *)dst)[o++] = (uint16_t)v;
    } else {
        if (cap - o < 2)
            return false;
        ((uint16_t *)dst)[o++] = (uint16_t)(0xD800 | (v - 0x10000) >> 10);
        ((uint16_t *)dst)[o++] = (uint16_t)(0xDC00 | (v & 0x3FF));
    }
    *po = o;
    return true;
}

/* Exact: the runtime's loop with a sink, stopping before a rejecting byte and
 * before a completing byte whose character has no room. */
FAST_INLINE size_t fast_dec_exact(const fast_tables *g, const uint8_t *src, size_t i, size_t end,
                                  uint64_t *ps, uint32_t *pcp, const struct fast_out out, bool u16)
{
    void *dst = out.dst;
    size_t *po = out.po, cap = out.cap;
    uint64_t s = *ps;
    uint32_t cp = *pcp;
    while (i < end) {
        uint8_t b = src[i];
        uint64_t next = fast_next(g, s, b);
        if (fast_is_reject(g, next))
            break;
        uint32_t v = cp << 6 | fast_payload(g, b);
        if (fast_st(g, next) == 0) {
            if (!fast_put(dst, po, cap, v, u16))
                break;
            cp = 0;
        } else {
            cp = v;
        }
        s = next;
        i++;
    }
    *ps = s;
    *pcp = cp;
    return i;
}

/* Branch-free block step (to UTF-32 at t32): store at every byte, advance
 * by "accepted" (0/1). v is 64 bits wide and shifted by 32 (not 6) at a
 * character's first byte instead of being reset after its last: its low
 * 32 bits are then exactly the plain loop's cp, and no reset sits on v's
 * critical path (shift, or). With the shift DFA, "accepted" and the shift
 * count each come from the state by one shift of a constant whose 6-bit
 * fields are indexed like the rows' (ACCEPT's field is the lowest). */
#define FAST_DSTEP_FREE(k)                                                                  \
    do {                                                                                    \
        uint8_t b_ = p[k];                                                                  \
        s = fast_next(g, s, b_);                                                            \
        v = v << (sh & 63) | fast_payload(g, b_);                                           \
        t32[o] = (uint32_t)v;                                                               \
        o += fast_accept01(g, s);                                                           \
        sh = fast_shift_count(g, s);                                                        \
    } while (0)

#define FAST_DSTEP4(STEP, k) STEP(k); STEP((k) + 1); STEP((k) + 2); STEP((k) + 3)
#define FAST_DSTEP16(STEP) FAST_DSTEP4(STEP, 0); FAST_DSTEP4(STEP, 4); FAST_DSTEP4(STEP, 8); FAST_DSTEP4(STEP, 12)

/* One block of 16 bytes at p, branch-free, to UTF-32 at d32[*po]; the
 * state and the partial value go on (checked for REJECT by the caller). */
FAST_INLINE void fast_dec_block32(const fast_tables *g, const uint8_t *p, uint64_t *ps,
                                  uint32_t *pcp, uint32_t *t32, size_t *po)
{
    uint64_t s = *ps, v = *pcp, sh = fast_shift_count(g, s);
    size_t o = *po;
    FAST_DSTEP16(FAST_DSTEP_FREE);
    *pcp = fast_is_accept(g, s) ? 0 : (uint32_t)v;
    *ps = s;
    *po = o;
}

/* The same to UTF-16: decode the block to UTF-32 on the stack, then narrow
 * (pairs only when some code point needs one). */
FAST_INLINE void fast_dec_block16(const fast_tables *g, const uint8_t *p, uint64_t *ps,
                                  uint32_t *pcp, uint16_t *d16, size_t *po)
{
    uint32_t t32[16] = {0};
    size_t cnt = 0, o = *po;
    fast_dec_block32(g, p, ps, pcp, t32, &cnt);
    if (cnt < 16)
        t32[cnt] = 0; /* the partial value of an unfinished character */
    if (FAST_LIKELY(fast_narrow16(t32, d16 + o))) {
        o += cnt;
    } else {
        for (size_t k = 0; k < cnt; k++) {
            uint32_t c = t32[k];
            size_t pair = c > 0xFFFF;
            d16[o] = (uint16_t)(pair ? 0xD800 | (c - 0x10000) >> 10 : c);
            d16[o + 1] = (uint16_t)(0xDC00 | (c & 0x3FF));
            o += 1 + pair;
        }
    }
    *po = o;
}

/* A decoder's step over one block of 16 bytes at p to dst[*po]: the state
 * and the partial value go on (checked for REJECT by the caller). */
typedef void (*fast_block_fn)(const fast_tables *g, const uint8_t *p, uint64_t *ps, uint32_t *pcp,
                              void *dst, size_t *po, bool u16);

/* The library's block step: branch-free. */
FAST_INLINE void fast_dec_block(const fast_tables *g, const uint8_t *p, uint64_t *ps,
                                uint32_t *pcp, void *dst, size_t *po, bool u16)
{
    if (u16)
        fast_dec_block16(g, p, ps, pcp, dst, po);
    else
        fast_dec_block32(g, p, ps, pcp, dst, po);
}

/* Decode a run of ASCII at src[*pi] to dst[*po]. */
FAST_INLINE void fast_dec_ascii(const uint8_t *src, size_t n, size_t *pi, void *dst, size_t cap,
                                size_t *po, bool u16, int amode)
{
    size_t i = *pi, o = *po;
    size_t k = fast_ascii_widen(amode, src + i, n - i,
                                u16 ? (void *)((uint16_t *)dst + o) : (void *)((uint32_t *)dst + o),
                                cap - o, u16);
    *pi = i + k;
    *po = o + k;
}

/* A variant's lanes (lanes.h), in a function of its own: false when a
 * window was not valid (*pw its lane width). */
typedef bool (*fast_lanes_fn)(const uint8_t *src, size_t n, size_t *pi, uint64_t *ps,
                              uint32_t *pcp, struct fast_out out, size_t *pw);

/* A decoder's techniques, fixed by each variant: UTF-16 or UTF-32 out, the
 * ASCII path, the block step (the library's fast_dec_block; the tests
 * measure others), the lanes (lanefn: with `lanes` > 1). */
struct fast_dec_ops {
    const fast_tables *g;
    bool u16;
    int amode;
    fast_block_fn block;
    int lanes;
    fast_lanes_fn lanefn;
};

FAST_INLINE size_t fast_dec_engine(const struct fast_dec_ops ops, const struct fast_call c)
{
    const fast_tables *g = ops.g;
    const uint8_t *src = c.src;
    const size_t n = c.n, cap = c.cap;
    void *dst = c.dst;
    const bool u16 = ops.u16;
    const int amode = ops.amode, lanes = ops.lanes;
    const bool ascii = fast_ascii_ok(g, amode);
    uint64_t s = fast_to_state(g, *c.state);
    uint32_t cp = *c.partial;
    size_t o = 0, i = 0;
    /* Lanes (UTF-32 only) after DENSE blocks in a row with a byte >= 0x80;
     * not again before `calm` after a window that was not valid. */
    const bool use_lanes = lanes > 1 && !u16 && n >= DEC_LANES_MIN;
    unsigned dense = 0;
    size_t calm = 0;
    /* A block of 16 bytes writes at most 16 UTF-32 units; in UTF-16 at
     * most 17 (its first byte may complete a pair carried in from the
     * block before, and the rest take at least one byte a unit) and,
     * branch-free, one scratch unit past them. */
    while (n - i >= 16 && cap - o > (u16 ? 17u : 16u)) {
        if (ascii && fast_ascii16(amode, src + i) && fast_is_accept(g, s)) {
            fast_dec_ascii(src, n, &i, dst, cap, &o, u16, amode);
            dense = 0;
            continue;
        }
        if (use_lanes && (!ascii || dense >= DENSE) && i >= calm &&
            n - i >= (size_t)lanes * DEC_LANE_MIN + RESYNC_MAX &&
            cap - o >= (size_t)lanes * DEC_LANE_MIN + RESYNC_MAX) {
            size_t i0 = i, w = 0;
            if (!ops.lanefn(src, n, &i, &s, &cp, (struct fast_out){dst, &o, cap}, &w))
                calm = i + (size_t)lanes * w;
            if (i != i0)
                continue;
        }
        dense++;
        uint64_t s0 = s;
        uint32_t cp0 = cp;
        size_t o0 = o;
        ops.block(g, src + i, &s, &cp, dst, &o, u16);
        if (FAST_UNLIKELY(fast_is_reject(g, s))) {
            s = s0;
            cp = cp0;
            o = o0;
            i = fast_dec_exact(g, src, i, i + 16, &s, &cp, (struct fast_out){dst, &o, cap}, u16);
            goto done;
        }
        i += 16;
    }
    /* The tail (under 16 bytes, or the output nearly full): ASCII first. */
    if (ascii && fast_is_accept(g, s))
        fast_dec_ascii(src, n, &i, dst, cap, &o, u16, amode);
    i = fast_dec_exact(g, src, i, n, &s, &cp, (struct fast_out){dst, &o, cap}, u16);
done:
    *c.state = fast_from_state(g, s);
    *c.partial = cp;
    *c.written = o;
    return i;
}

#endif /* UTFDFA_FAST_UTF8_DECODE_H */
