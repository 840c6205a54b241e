/* SPDX-License-Identifier: MIT */
/* Validation by lookup tables (Keiser and Lemire, "Validating UTF-8 in less
 * than one instruction per byte", 2021), over tables derived from the
 * grammar's DFA (gen/derive_simd.py, struct utfdfa_simd_tables in
 * PREFIX.simd.gen.h). What the vector kernels compute, for bytes b[0..n)
 * with virtual bytes b[-1], b[-2], ... = pad:
 *   pair(i) = prev_high[b[i-1] >> 4] & prev_low[b[i-1] & 15]
 *           & cur_high[b[i] >> 4] & cur_low[b[i] & 15]
 *   must(i) = some j in 2..max_len-1 has b[i-j] >= longer_min[j-1]
 *   error at i <=> pair(i) ^ (must(i) ? two_conts : 0) != 0
 * Input valid <=> no error at i = 0..n, with b[n] = pad. And when no
 * position before e has an error, the DFA from ACCEPT over b[0..e-t) ends
 * in ACCEPT, t being the largest j in 1..max_len-1 with
 * b[e-j] >= longer_min[j-1] (0 if none): lk_tail_len. gen/derive_simd.py
 * derives the tables; tests/gen/test_simd_derive.py proves this model, with
 * the emitted tables, equal to the DFA.
 *
 * A kernel (lookup_sse4.h, lookup_avx2.h, lookup_avx512.h, each through
 * lookup_engine.h) keeps utfdfa__utf8_scan's contract (utf8_fast.h): from
 * a state inside a character, the plain DFA finishes that character; then
 * 64-byte groups of vectors from that boundary (on a long input, after the
 * first group or two, from a 64-byte boundary on: lk_aligned_start), an
 * all-ASCII group skipped when nothing before it is left open; the error
 * vector is tested after each batch of groups (LK_BATCH in
 * lookup_engine.h, each group tested alone again when the batch has an
 * error); the last bytes (fewer than 64) are one more group padded with
 * pad, which checks position n too. On an error, or when the input
 * ends inside a character, the plain DFA goes on from the last boundary
 * the clean groups commit, and finds the exact stop and state. */
#ifndef UTFDFA_FAST_UTF8_LOOKUP_H
#define UTFDFA_FAST_UTF8_LOOKUP_H

#include "model.h"
#include "scan.h"

#ifndef UTFDFA_SIMD_TABLES_DEFINED
#include "utf8.simd.gen.h"
#endif

typedef struct utfdfa_simd_tables lk_tables;

/* What a run over src[0..n) from `start` holds fixed: the grammar's
 * tables, the lookup tables, and whether their cur_low table is used. */
struct lk_scan {
    const fast_tables *g;
    const lk_tables *t;
    int cur_low;
    const uint8_t *src;
    size_t n, start;
};

/* Bytes per group: every kernel tests its error vectors once a batch of
 * LK_BATCH groups (lookup_engine.h).
 * From LK_ALIGN_MIN bytes on, the groups are moved onto 64-byte boundaries
 * (the group or two before cost about 1/16 of that much text). */
enum { LK_GROUP = 64, LK_ALIGN_MIN = 1024 };

/* The plain DFA's parts are out of line: one copy for every kernel of a
 * unit, off the vector loop's path. */
#define LK_SCALAR FAST_UNUSED FAST_NOINLINE static

/* From a state inside a character: the plain DFA to its end. True when it
 * ended there in ACCEPT (*pi after it), false when the input rejects or
 * ends first (*pi, *ps: the exact stop and state). */
LK_SCALAR bool lk_finish_char(const fast_tables *g, const uint8_t *src, size_t n, size_t *pi,
                                uint64_t *ps)
{
    uint64_t s = *ps;
    size_t i = *pi;
    bool done = false;
    while (i < n) {
        uint64_t next = fast_next(g, s, src[i]);
        if (fast_is_reject(g, next))
            break;
        s = next;
        i++;
        if (fast_is_accept(g, s)) {
            done = true;
            break;
        }
    }
    *pi = i;
    *ps = s;
    return done;
}

/* The commit rule: how many of the bytes before e (checked without error,
 * the first at `start`, pad before it) belong to a character not yet
 * complete. */
FAST_INLINE size_t lk_tail_len(const lk_tables *t, const uint8_t *src, size_t start, size_t e)
{
    for (size_t j = (size_t)t->max_len - 1; j >= 1; j--) {
        uint8_t b = e - start >= j ? src[e - j] : t->pad;
        if (b >= t->longer_min[j - 1])
            return j;
    }
    return 0;
}

/* After an error in the group at e, or at the end: the plain DFA from the
 * boundary the checked bytes before e commit, to the exact stop. */
LK_SCALAR size_t lk_rescan(const fast_tables *g, const lk_tables *t, const uint8_t *src,
                             size_t n, size_t start, size_t e, uint64_t *ps)
{
    *ps = fast_to_state(g, 0);
    return fast_scan_exact(g, src, e - lk_tail_len(t, src, start, e), n, ps);
}

/* Where the groups start on 64-byte boundaries, past the first group or
 * two at i: far enough that the carry's bytes (max_len-1 before it) are
 * checked text and its load, 64 bytes back, stays in src. i itself when
 * src + i is aligned. */
FAST_INLINE size_t lk_aligned_start(const lk_tables *t, const uint8_t *src, size_t i)
{
    size_t j = i + ((size_t)-(uintptr_t)(src + i) & (LK_GROUP - 1));
    if (j != i && j - i < (size_t)t->max_len - 1)
        j += LK_GROUP;
    if (j != i && j < LK_GROUP)
        j += LK_GROUP;
    return j;
}

/* The vector kernels' constants from the tables: the bytes of the
 * "incomplete" vector (the last max_len-1 bytes of a vector at or above
 * the threshold of their distance from the end; 0xFF elsewhere, a
 * saturating subtraction of which is 0 for every byte). */
FAST_INLINE void lk_incomplete_bytes(const lk_tables *t, uint8_t *out, size_t w)
{
    memset(out, 0xFF, w);
    for (size_t j = 1; j < t->max_len; j++)
        out[w - j] = (uint8_t)(t->longer_min[j - 1] - 1);
}

/* The library's kernels over UTF-8's tables (lookup_sse4.h, lookup_avx2.h,
 * lookup_avx512.h, instantiated in lookup.c), for utfdfa__utf8_scan at
 * each level from SSE4 on. Call one only on a CPU with its features. */
size_t utfdfa__utf8_scan_lookup_sse4(const uint8_t *src, size_t n, uint32_t *state);
size_t utfdfa__utf8_scan_lookup_avx2(const uint8_t *src, size_t n, uint32_t *state);
size_t utfdfa__utf8_scan_lookup_avx512(const uint8_t *src, size_t n, uint32_t *state);
size_t utfdfa__utf8_scan_lookup_vbmi(const uint8_t *src, size_t n, uint32_t *state);
size_t utfdfa__utf8_scan_lookup_neon(const uint8_t *src, size_t n, uint32_t *state);

#endif /* UTFDFA_FAST_UTF8_LOOKUP_H */
