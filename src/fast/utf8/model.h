/* SPDX-License-Identifier: MIT */
/* How the fast paths step a DFA, over its generated tables (struct
 * utfdfa_fast_tables, emitted by gen/emit_fast.py into PREFIX.fast.gen.h).
 *
 * Every function takes the tables as `g`. The library passes the address of
 * a static const struct (utf8_fast_tables), so once inlined every field that
 * is not an array folds to a constant; the tests also run the same code over
 * other grammars' tables given at run time (tests/fast/fast_generic.c).
 *
 * A state `s` is a uint64_t either way. Shift DFA (FAST_SHIFT: at most 10
 * states): s holds the state's bit offset in its low 6 bits (higher bits
 * are left over from the row and ignored); next = row[byte] >> s: a load
 * that does not depend on s, then one shift. Otherwise s is the
 * pre-multiplied state and next = trans[s + class[byte]], two dependent
 * loads per byte, whose latency the lanes hide. */
#ifndef UTFDFA_FAST_UTF8_MODEL_H
#define UTFDFA_FAST_UTF8_MODEL_H

#include "common.h"
#include "utf8.fast.gen.h"

typedef struct utfdfa_fast_tables fast_tables;

/* How a state is stepped is fixed when the engines are compiled, not read
 * from the tables: shift rows (FAST_SHIFT 1, what the library compiles,
 * for UTF-8), or trans and byte_class (FAST_STEP_TRANS defined before the
 * first include: what tests/fast/fast_generic.c compiles for grammars of
 * more than 10 states). The step is a macro and its mode a constant of the
 * preprocessor because GCC (12) lays out the unrolled blocks worse (all of
 * a block's loads first, the state spilled: validation 20-30% slower) when
 * the step is an inline function, or when the mode is a value it folds
 * only once the engines are inlined (a field of the tables, a parameter). */
#ifdef FAST_STEP_TRANS
#define FAST_SHIFT 0
#define fast_next(g, s, b) ((uint64_t)(g)->trans[(s) + (g)->byte_class[(b)]])
#else
#define FAST_SHIFT 1
#define fast_next(g, s, b) ((g)->row[(b)] >> ((s) & 63))
#endif

/* The state without the row's left-over bits. */
FAST_INLINE uint64_t fast_st(const fast_tables *g, uint64_t s)
{
    (void)g;
    return FAST_SHIFT ? s & 63 : s;
}

FAST_INLINE uint64_t fast_reject(const fast_tables *g)
{
    return FAST_SHIFT ? g->shift_reject : g->reject;
}

FAST_INLINE bool fast_is_reject(const fast_tables *g, uint64_t s)
{
    return fast_st(g, s) == fast_reject(g);
}

/* ACCEPT is 0 in both numberings. With shift rows, spelt so that GCC tests
 * a copy instead of masking the state register, which would put an `and`
 * on the critical path. */
FAST_INLINE bool fast_is_accept(const fast_tables *g, uint64_t s)
{
    (void)g;
    return FAST_SHIFT ? (uint8_t)(s << 2) == 0 : s == 0;
}

/* 1 for ACCEPT, else 0; and decoding's shift of the value (32 for ACCEPT,
 * 6 else): with shift rows each is one shift of a constant. */
FAST_INLINE size_t fast_accept01(const fast_tables *g, uint64_t s)
{
    (void)g;
    return FAST_SHIFT ? (size_t)((uint64_t)1 >> (s & 63)) : (size_t)(s == 0);
}

FAST_INLINE uint64_t fast_shift_count(const fast_tables *g, uint64_t s)
{
    return FAST_SHIFT ? g->decode_shifts >> (s & 63) : (s == 0 ? 32u : 6u);
}

/* The caller's state (pre-multiplied, as in PREFIX_trans) and back. */
FAST_INLINE uint64_t fast_to_state(const fast_tables *g, uint32_t state)
{
    return FAST_SHIFT ? (uint64_t)(state / g->nclasses) * g->shift_width : state;
}

FAST_INLINE uint32_t fast_from_state(const fast_tables *g, uint64_t s)
{
    return FAST_SHIFT ? (uint32_t)((s & 63) / g->shift_width) * g->nclasses : (uint32_t)s;
}

FAST_INLINE uint32_t fast_payload(const fast_tables *g, uint8_t b)
{
    return (uint32_t)g->payload[b];
}

/* Whether the ASCII fast path is exact for this grammar. */
FAST_INLINE bool fast_ascii_ok(const fast_tables *g, int amode)
{
    return amode != FAST_ASCII_NONE && g->ascii_identity;
}

/* Where lanes start: at[0] = i and, for k = 1..n, at[k] = the first byte
 * at or after i + k * w that only starts a character (it does not reject
 * from ACCEPT and rejects from every other state: where one is, a valid
 * input is in ACCEPT just before it), at most RESYNC_MAX bytes on; false
 * when one has none. */
FAST_INLINE bool fast_lane_starts(const fast_tables *g, const uint8_t *src, size_t i, size_t w,
                                  int n, size_t *at)
{
    at[0] = i;
    for (int k = 1; k <= n; k++) {
        size_t q = i + (size_t)k * w, lim = q + RESYNC_MAX;
        while (q < lim && !g->start_only[src[q]])
            q++;
        if (q == lim)
            return false;
        at[k] = q;
    }
    return true;
}

/* The bytes of the character in progress (utf8_fast.h), over the plain table. */
FAST_INLINE size_t fast_pending(const fast_tables *g, const uint8_t *src, size_t k, uint32_t state)
{
    if (state == 0)
        return 0;
    for (size_t j = 1; j <= k && j <= 16; j++) {
        uint32_t st = 0;
        size_t q = k - j;
        for (; q < k; q++) {
            st = g->trans[st + g->byte_class[src[q]]];
            if (st == g->reject || st == 0)
                break;
        }
        if (q == k && st == state)
            return j;
    }
    return SIZE_MAX;
}

#endif /* UTFDFA_FAST_UTF8_MODEL_H */
