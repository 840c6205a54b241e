/* SPDX-License-Identifier: MIT */
/* The lookup validator's engine (lookup.h), written once for every vector
 * width: an ISA header (lookup_sse4.h, lookup_avx2.h, lookup_avx512.h)
 * defines LK_SUF (its name), LK_INLINE (inline with its target), LK_V (its
 * vector), LK_NB (vectors a 64-byte group) and these, then includes this
 * file, which defines lk_<SUF>_scan:
 *   struct lk_<SUF>_ctx             the tables as vectors (pad, zero among them)
 *   lk_<SUF>_init(c, t, cur_low)    fill it
 *   lk_<SUF>_load(p, v)             LK_NB vectors from p[0..64)
 *   lk_<SUF>_load_tail(c, t, p, len, v)  p[0..len), len < 64, then pad
 *   lk_<SUF>_ascii(v)               the group is all below 0x80
 *   lk_<SUF>_check(c, t, cur_low, prev, cur)  the error vector of cur
 *   lk_<SUF>_incomplete(c, v)       nonzero when v's last bytes leave a character open
 *   lk_<SUF>_or(a, b), lk_<SUF>_any(v)
 *   lk_<SUF>_nonzero(v)             a bit for each nonzero byte of v (uint64_t)
 * The engine may be included once per ISA header in one unit (the
 * amalgamation): nothing here outlives the include but the functions. */
#define LK_CAT2(a, b) a##b
#define LK_CAT(a, b) LK_CAT2(a, b)
#define LK_(name) LK_CAT(LK_CAT(lk_, LK_SUF), LK_CAT(_, name))
#if defined(__GNUC__) && !defined(__clang__)
#define LK_UNROLL _Pragma("GCC unroll 8") /* v[] stays in registers */
#else
#define LK_UNROLL
#endif

/* Whether p[0..128) is all below 0x80 (the ASCII run's step). */
LK_INLINE bool LK_(ascii2)(const uint8_t *p)
{
    LK_V a[LK_NB], b[LK_NB];
    LK_(load)(p, a);
    LK_(load)(p + LK_GROUP, b);
    LK_UNROLL
    for (int k = 0; k < LK_NB; k++)
        a[k] = LK_(or)(a[k], b[k]);
    return LK_(ascii)(a);
}

/* The error vector of a group whose previous vector is prev. */
LK_INLINE LK_V LK_(group)(const struct LK_(ctx) *c, const lk_tables *t, const int cur_low,
                          LK_V prev, const LK_V *v)
{
    LK_V err = LK_(check)(c, t, cur_low, prev, v[0]);
    LK_UNROLL
    for (int k = 1; k < LK_NB; k++)
        err = LK_(or)(err, LK_(check)(c, t, cur_low, v[k - 1], v[k]));
    return err;
}

/* The first error of the group at i (whose errors the caller saw): the
 * plain DFA takes over at the boundary the bytes before it commit, and
 * stops within a few bytes. */
LK_INLINE size_t LK_(stop)(const fast_tables *g, const struct LK_(ctx) *c, const lk_tables *t,
                           const int cur_low, const uint8_t *src, size_t n, size_t start,
                           size_t i, LK_V prev, const LK_V *v, uint64_t *ps)
{
    uint64_t m = 0;
    LK_UNROLL
    for (int k = 0; k < LK_NB; k++)
        m |= LK_(nonzero)(LK_(check)(c, t, cur_low, k ? v[k - 1] : prev, v[k]))
             << (k * (LK_GROUP / LK_NB));
    size_t e = i + (size_t)__builtin_ctzll(m); /* m != 0; at most n, where pad is */
    return lk_rescan(g, t, src, n, start, e < n ? e : n, ps);
}

/* From a character boundary at i: groups, then the padded last one. */
LK_INLINE size_t LK_(run)(const fast_tables *g, const lk_tables *t, const int cur_low,
                          const uint8_t *src, size_t n, size_t i, uint64_t *ps)
{
    const size_t start = i;
    struct LK_(ctx) c;
    LK_(init)(&c, t, cur_low);
    LK_V prev = c.pad, inc = c.zero, v[LK_NB];
    while (n - i >= LK_GROUP) {
        LK_(load)(src + i, v);
        if (g->ascii_identity && LK_(ascii)(v) && !LK_(any)(inc)) {
            i += LK_GROUP;
            while (n - i >= 2 * LK_GROUP && LK_(ascii2)(src + i))
                i += 2 * LK_GROUP;
            LK_(load)(src + i - LK_GROUP, v);
            prev = v[LK_NB - 1];
            continue;
        }
        if (FAST_UNLIKELY(LK_(any)(LK_(group)(&c, t, cur_low, prev, v))))
            return LK_(stop)(g, &c, t, cur_low, src, n, start, i, prev, v, ps);
        prev = v[LK_NB - 1];
        inc = LK_(incomplete)(&c, prev);
        i += LK_GROUP;
    }
    LK_(load_tail)(&c, t, src + i, n - i, v);
    if (LK_(any)(LK_(group)(&c, t, cur_low, prev, v)))
        return LK_(stop)(g, &c, t, cur_low, src, n, start, i, prev, v, ps);
    *ps = fast_to_state(g, 0);
    return n;
}

/* utfdfa__utf8_scan's contract (utf8_fast.h) over the grammar of g and t;
 * cur_low: whether t's cur_low table is used (the derived header's
 * PREFIX_SIMD_CUR_LOW). */
LK_INLINE size_t LK_(scan)(const fast_tables *g, const lk_tables *t, const int cur_low,
                           const uint8_t *src, size_t n, uint32_t *state)
{
    uint64_t s = fast_to_state(g, *state);
    size_t i = 0;
    if (fast_is_accept(g, s) || lk_finish_char(g, src, n, &i, &s))
        i = LK_(run)(g, t, cur_low, src, n, i, &s);
    *state = fast_from_state(g, s);
    return i;
}

#undef LK_
#undef LK_UNROLL
#undef LK_CAT
#undef LK_CAT2
