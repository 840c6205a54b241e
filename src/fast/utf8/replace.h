/* SPDX-License-Identifier: MIT */
/* Decoding with replacement: the engine of utfdfa__utf8_decode32_replace.
 * The replacing decoder (UTFDFA_REPLACE: core_dfa in a loop, convert() in
 * src/decode/convert.h) with the error path as table data: a byte that rejects
 * emits U+FFFD; it is consumed when it came in ACCEPT (it is the whole
 * maximal subpart), otherwise it ends the subpart before it and is stepped
 * again from ACCEPT (Unicode 3.9, section 3.9, U+FFFD substitution of
 * maximal subparts). Per byte: at most two units out, no branch. */
#ifndef UTFDFA_FAST_UTF8_REPLACE_H
#define UTFDFA_FAST_UTF8_REPLACE_H

#include "../../unicode.h"
#include "decode.h"

/* Exact, with room checks: stops before a byte whose U+FFFD or character
 * has no room, as the plain loop does. *errors counts the U+FFFD written. */
FAST_INLINE size_t fast_rep_exact(const fast_tables *g, const uint8_t *src, size_t i, size_t end,
                                  uint64_t *ps, uint32_t *pcp, const struct fast_out out,
                                  size_t *errors)
{
    uint32_t *dst = out.dst;
    size_t *po = out.po, cap = out.cap;
    uint64_t s = *ps;
    uint32_t cp = *pcp;
    size_t o = *po;
    while (i < end) {
        uint8_t b = src[i];
        uint64_t next = fast_next(g, s, b);
        if (fast_is_reject(g, next)) {
            if (o == cap)
                break;
            dst[o++] = REPLACEMENT;
            ++*errors;
            i += fast_is_accept(g, s); /* else the byte starts anew */
            s = 0;
            cp = 0;
            continue;
        }
        uint32_t v = cp << 6 | fast_payload(g, b);
        if (fast_st(g, next) == 0) {
            if (o == cap)
                break;
            dst[o++] = v;
            cp = 0;
        } else {
            cp = v;
        }
        s = next;
        i++;
    }
    *ps = s;
    *pcp = cp;
    *po = o;
    return i;
}

/* Branch-free, over the plain DFA: the byte's step from the state; if that
 * rejects, a U+FFFD for the cut-short subpart when the state was not
 * ACCEPT, and the byte's step again from ACCEPT; if that rejects too, a
 * U+FFFD for the byte. Two unconditional stores, the index advanced by the
 * counts. */
#define FAST_RSTEP(k)                                                                       \
    do {                                                                                    \
        uint8_t b_ = p[k];                                                                  \
        uint64_t rej_ = fast_is_reject(g, fast_next(g, s, b_));                             \
        size_t cut_ = (size_t)rej_ & (size_t)!fast_is_accept(g, s);                         \
        uint64_t from_ = s & (rej_ - 1); /* ACCEPT is 0: masks, as GCC branches on ?: */    \
        s = fast_next(g, from_, b_);                                                        \
        v = v << (fast_shift_count(g, from_) & 63) | fast_payload(g, b_);                   \
        uint32_t bad_ = fast_is_reject(g, s);                                               \
        s &= (uint64_t)bad_ - 1;                                                            \
        d32[o] = REPLACEMENT;                                                               \
        o += cut_;                                                                          \
        d32[o] = ((uint32_t)v & (bad_ - 1)) | ((uint32_t)REPLACEMENT & -bad_);              \
        o += fast_accept01(g, s);                                                           \
        nerr += cut_ + bad_;                                                                \
    } while (0)

/* With the replacing DFA's rows (gen/emit_fast.py: a DFA without REJECT,
 * 7-bit fields, a flag above each field's 6-bit value, which a shift count
 * & 63 ignores), per byte three shifts of rows, the value, two stores, the
 * index advanced twice. s7: the state as 7 times its number (and flags above). */
#define FAST_RSTEP_T(k)                                                                     \
    do {                                                                                    \
        uint8_t b_ = p[k];                                                                  \
        uint64_t f_ = g->replace_shift[b_] >> (s7 & 63);                                    \
        s7 = g->replace_next[b_] >> (s7 & 63);                                              \
        v = v << (f_ & 63) | g->payload[b_];                                                \
        size_t cut_ = (f_ >> 6) & 1, bad_ = (s7 >> 6) & 1;                                  \
        d32[o] = REPLACEMENT;                                                               \
        o += cut_;                                                                          \
        d32[o] = bad_ ? (uint32_t)REPLACEMENT : (uint32_t)v;                                \
        o += (size_t)((uint64_t)1 >> (s7 & 63));                                            \
        nerr += cut_ + bad_;                                                                \
    } while (0)

/* Blocks of replacing steps from block i on, in the 7-bit numbering, until
 * a block without errors (then the caller's clean path goes on) or the end
 * or the room runs short; at least one block. Only with replace rows. */
FAST_INLINE void fast_rep_run(const fast_tables *g, const uint8_t *src, size_t n, size_t *pi,
                              uint64_t *ps, uint32_t *pcp, const struct fast_out out, size_t *perr)
{
    uint32_t *d32 = out.dst;
    size_t *po = out.po, cap = out.cap;
    size_t i = *pi, o = *po, nerr = *perr;
    uint64_t s7 = fast_st(g, *ps) / g->shift_width * 7, v = *pcp;
    while (n - i >= 16 && cap - o > 32) {
        const uint8_t *p = src + i;
        size_t nerr0 = nerr;
        FAST_DSTEP16(FAST_RSTEP_T);
        i += 16;
        if (nerr == nerr0)
            break;
    }
    *ps = (s7 & 63) / 7 * g->shift_width;
    *pcp = (s7 & 63) == 0 ? 0 : (uint32_t)v;
    *pi = i;
    *po = o;
    *perr = nerr;
}

/* A variant's fast_rep_run, in a function of its own: its registers are all its own. */
typedef void (*fast_rep_run_fn)(const uint8_t *src, size_t n, size_t *pi, uint64_t *ps,
                                uint32_t *pcp, struct fast_out out, size_t *perr);

/* A replacing decoder's techniques: the ASCII path, the tabled run. */
struct fast_rep_ops {
    const fast_tables *g;
    int amode;
    fast_rep_run_fn runfn; /* NULL without replace rows */
};

/* One block of 16 bytes at p: decoded branch-free when it has no error
 * (true), else nothing of it is (false). */
FAST_INLINE bool fast_rep_clean_block(const fast_tables *g, const uint8_t *p, uint64_t *ps,
                                      uint32_t *pcp, uint32_t *d32, size_t *po)
{
    uint64_t s = *ps;
    uint32_t cp = *pcp;
    size_t o = *po;
    fast_dec_block32(g, p, &s, &cp, d32, &o);
    if (FAST_UNLIKELY(fast_is_reject(g, s)))
        return false;
    *ps = s;
    *pcp = cp;
    *po = o;
    return true;
}

/* One block of 16 bytes at p with the inline replacing step; whether it had errors. */
FAST_INLINE bool fast_rep_block(const fast_tables *g, const uint8_t *p, uint64_t *ps,
                                uint32_t *pcp, uint32_t *d32, size_t *po, size_t *perr)
{
    uint64_t s = *ps, v = *pcp;
    size_t o = *po, nerr = *perr, nerr0 = nerr;
    FAST_DSTEP16(FAST_RSTEP);
    *pcp = fast_is_accept(g, s) ? 0 : (uint32_t)v;
    *ps = s;
    *po = o;
    *perr = nerr;
    return nerr != nerr0;
}

FAST_INLINE size_t fast_rep_engine(const struct fast_rep_ops ops, const struct fast_call c)
{
    const fast_tables *g = ops.g;
    const uint8_t *src = c.src;
    const size_t n = c.n, cap = c.cap;
    uint32_t *d32 = c.dst;
    const int amode = ops.amode;
    const bool ascii = fast_ascii_ok(g, amode);
    const bool tabled = FAST_SHIFT && g->has_replace_rows && ops.runfn && n >= REP_TABLES_MIN;
    uint64_t s = fast_to_state(g, *c.state);
    uint32_t cp = *c.partial;
    size_t o = 0, nerr = 0, i = 0;
    bool dirty = false;
    /* A block of 16 bytes writes at most 32 units, and a scratch one. */
    while (n - i >= 16 && cap - o > 32) {
        if (ascii && fast_ascii16(amode, src + i) && fast_is_accept(g, s)) {
            fast_dec_ascii(src, n, &i, d32, cap, &o, false, amode);
            continue;
        }
        /* A block without errors is a plain branch-free decoding block;
         * after a block with errors, the next goes straight to replacing. */
        if (!dirty && fast_rep_clean_block(g, src + i, &s, &cp, d32, &o)) {
            i += 16;
            continue;
        }
        if (tabled) {
            ops.runfn(src, n, &i, &s, &cp, (struct fast_out){d32, &o, cap}, &nerr);
            dirty = false; /* it stopped after a block without errors, or at the end */
            continue;
        }
        dirty = fast_rep_block(g, src + i, &s, &cp, d32, &o, &nerr);
        i += 16;
    }
    i = fast_rep_exact(g, src, i, n, &s, &cp, (struct fast_out){d32, &o, cap}, &nerr);
    *c.state = fast_from_state(g, s);
    *c.partial = cp;
    *c.written = o;
    *c.errors = nerr;
    return i;
}

#endif /* UTFDFA_FAST_UTF8_REPLACE_H */
