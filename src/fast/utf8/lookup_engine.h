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
 * What passes from one vector to the next is the previous vector, unless the
 * header defines LK_CARRY (a type holding it and what its check computed for
 * the next one) and these:
 *   lk_<SUF>_carry_pad(c)           before the input: pad
 *   lk_<SUF>_carry_ascii(c, v)      after v, a vector below 0x80 not checked
 *   lk_<SUF>_carry_vec(k)           the vector k holds
 *   lk_<SUF>_step(c, t, cur_low, prev, cur, next)  the error vector of cur
 *                                   after *prev; *next: cur's carry
 * LK_BATCH (default 1): groups a step of the loop, their errors tested at
 * once (and again one group at a time only when they have one).
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

#ifdef LK_CARRY
typedef LK_CARRY LK_(carry);
#else
typedef LK_V LK_(carry);

LK_INLINE LK_V LK_(carry_pad)(const struct LK_(ctx) *c)
{
    return c->pad;
}

LK_INLINE LK_V LK_(carry_ascii)(const struct LK_(ctx) *c, LK_V v)
{
    (void)c;
    return v;
}

LK_INLINE LK_V LK_(carry_vec)(LK_V k)
{
    return k;
}

LK_INLINE LK_V LK_(step)(const struct LK_(ctx) *c, const lk_tables *t, const int cur_low,
                         const LK_V *prev, LK_V cur, LK_V *next)
{
    *next = cur;
    return LK_(check)(c, t, cur_low, *prev, cur);
}
#endif
#if !defined(LK_BATCH) /* (not #ifndef: an amalgamation takes that for a guard) */
#define LK_BATCH 1
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

/* The error vector of a group after *prev; *next: its last vector's carry. */
LK_INLINE LK_V LK_(group)(const struct LK_(ctx) *c, const lk_tables *t, const int cur_low,
                          const LK_(carry) *prev, const LK_V *v, LK_(carry) *next)
{
    LK_(carry) k[LK_NB];
    LK_V err = LK_(step)(c, t, cur_low, prev, v[0], &k[0]);
    LK_UNROLL
    for (int j = 1; j < LK_NB; j++)
        err = LK_(or)(err, LK_(step)(c, t, cur_low, &k[j - 1], v[j], &k[j]));
    *next = k[LK_NB - 1];
    return err;
}

/* The first error of the group at i (whose errors the caller saw): the
 * plain DFA takes over at the boundary the bytes before it commit, and
 * stops within a few bytes. */
LK_INLINE size_t LK_(stop)(const struct lk_scan *s, const struct LK_(ctx) *c, size_t i,
                           const LK_(carry) *prev, const LK_V *v, uint64_t *ps)
{
    LK_(carry) k[LK_NB];
    uint64_t m = 0;
    LK_UNROLL
    for (int j = 0; j < LK_NB; j++)
        m |= LK_(nonzero)(LK_(step)(c, s->t, s->cur_low, j ? &k[j - 1] : prev, v[j], &k[j]))
             << (j * (LK_GROUP / LK_NB));
    size_t e = i + (size_t)__builtin_ctzll(m); /* m != 0; at most n, where pad is */
    return lk_rescan(s->g, s->t, s->src, s->n, s->start, e < s->n ? e : s->n, ps);
}

/* The carry after the group v, whose last max_len-1 bytes are checked text
 * (past the run's start): what the next step reads of a carry is in them. */
LK_INLINE LK_(carry) LK_(carry_of)(const struct LK_(ctx) *c, const lk_tables *t,
                                   const int cur_low, const LK_V *v)
{
    LK_(carry) pad = LK_(carry_pad)(c), k;
    (void)LK_(step)(c, t, cur_low, &pad, v[LK_NB - 1], &k);
    return k;
}

/* From a character boundary at i: groups, then the padded last one. */
LK_INLINE size_t LK_(run)(const fast_tables *g, const lk_tables *t, const int cur_low,
                          const uint8_t *src, size_t n, size_t i, uint64_t *ps)
{
    const struct lk_scan run = {g, t, cur_low, src, n, i};
    struct LK_(ctx) c;
    LK_(init)(&c, t, cur_low);
    LK_(carry) prev = LK_(carry_pad)(&c), mid;
    LK_V v[LK_NB];
    if (n - i >= LK_ALIGN_MIN) {
        /* A load across two cache lines costs two: on ASCII, where the
         * loop is little but loads, unaligned groups ran at 0.6 the speed. */
        size_t j = lk_aligned_start(t, src, i);
        for (; i < j; i += LK_GROUP) {
            LK_(load)(src + i, v);
            if (FAST_UNLIKELY(LK_(any)(LK_(group)(&c, t, cur_low, &prev, v, &mid))))
                return LK_(stop)(&run, &c, i, &prev, v, ps);
            prev = mid;
        }
        if (i != j) {
            i = j;
            LK_(load)(src + i - LK_GROUP, v);
            prev = LK_(carry_of)(&c, t, cur_low, v);
        }
    }
    while (n - i >= LK_GROUP) {
        LK_(load)(src + i, v);
        /* Whether the bytes before are left open, asked only of an ASCII
         * group: not a step of every batch. */
        if (g->ascii_identity && LK_(ascii)(v) &&
            !LK_(any)(LK_(incomplete)(&c, LK_(carry_vec)(prev)))) {
            i += LK_GROUP;
            while (n - i >= 2 * LK_GROUP && LK_(ascii2)(src + i))
                i += 2 * LK_GROUP;
            LK_(load)(src + i - LK_GROUP, v);
            prev = LK_(carry_ascii)(&c, v[LK_NB - 1]);
            continue;
        }
        if (LK_BATCH > 1 && n - i >= LK_BATCH * LK_GROUP) {
            /* LK_BATCH groups, one test: each group's errors are looked
             * for again only when the batch has one. */
            LK_V w[LK_BATCH][LK_NB];
            LK_(carry) k[LK_BATCH + 1];
            k[0] = prev;
            LK_UNROLL
            for (int j = 0; j < LK_NB; j++)
                w[0][j] = v[j];
            LK_UNROLL
            for (int b = 1; b < LK_BATCH; b++)
                LK_(load)(src + i + (size_t)b * LK_GROUP, w[b]);
            LK_V err = LK_(group)(&c, t, cur_low, &k[0], w[0], &k[1]);
            LK_UNROLL
            for (int b = 1; b < LK_BATCH; b++)
                err = LK_(or)(err, LK_(group)(&c, t, cur_low, &k[b], w[b], &k[b + 1]));
            if (FAST_UNLIKELY(LK_(any)(err))) {
                int b = 0; /* the last group has it if no other does */
                while (b < LK_BATCH - 1 &&
                       !LK_(any)(LK_(group)(&c, t, cur_low, &k[b], w[b], &mid)))
                    b++;
                return LK_(stop)(&run, &c, i + (size_t)b * LK_GROUP, &k[b], w[b], ps);
            }
            prev = k[LK_BATCH];
            i += LK_BATCH * LK_GROUP;
            continue;
        }
        if (FAST_UNLIKELY(LK_(any)(LK_(group)(&c, t, cur_low, &prev, v, &mid))))
            return LK_(stop)(&run, &c, i, &prev, v, ps);
        prev = mid;
        i += LK_GROUP;
    }
    LK_(load_tail)(&c, t, src + i, n - i, v);
    if (LK_(any)(LK_(group)(&c, t, cur_low, &prev, v, &mid)))
        return LK_(stop)(&run, &c, i, &prev, v, ps);
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
#undef LK_BATCH
#undef LK_UNROLL
#undef LK_CAT
#undef LK_CAT2
