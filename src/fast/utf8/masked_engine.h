/* SPDX-License-Identifier: MIT */
/* The slab decoders (slab.h) over the 128-bit transcoder (masked.h), once
 * per level: a file defines MK_SUF (the level's name), MK_TARGET (its
 * target attribute), MK_WIDE (1: 32-byte stores for ASCII blocks, AVX2),
 * MK_SCAN (its validator, a utfdfa__scan_fn) and MK_REP (the replacing
 * engine for the windows around errors), then includes this file, which
 * defines utfdfa__utf8_dec_<SUF>_32, _16 and utfdfa__utf8_rep_<SUF>.
 * Nothing here outlives the include but the functions (the amalgamation
 * includes it once per level in one unit). */
#define MK_CAT2(a, b) a##b
#define MK_CAT(a, b) MK_CAT2(a, b)
#define MK_(name) MK_CAT(MK_CAT(mk_, MK_SUF), MK_CAT(_, name))
#define MK_API(pre, post) MK_CAT(MK_CAT(pre, MK_SUF), post)

/* 64 ASCII bytes v[0..4) widened at dst. */
FAST_INLINE MK_TARGET void MK_(widen64)(const __m128i *v, void *dst, bool u16)
{
    for (int k = 0; k < 4; k++) {
#if MK_WIDE
        if (u16) {
            _mm256_storeu_si256((__m256i *)dst + k, _mm256_cvtepu8_epi16(v[k]));
        } else {
            __m256i *d = (__m256i *)dst + 2 * k;
            _mm256_storeu_si256(d, _mm256_cvtepu8_epi32(v[k]));
            _mm256_storeu_si256(d + 1, _mm256_cvtepu8_epi32(_mm_unpackhi_epi64(v[k], v[k])));
        }
#else
        char *d = (char *)dst + k * (u16 ? 32 : 64);
        mk_store16(d, _mm_cvtepu8_epi16(v[k]), u16);
        mk_store16(d + (u16 ? 16 : 32), _mm_unpackhi_epi8(v[k], _mm_setzero_si128()), u16);
#endif
    }
}

/* A cursor of the transcoder over valid text [p, end): blocks of 64 bytes
 * at p (the byte after them read too, for the last end bit), windows at
 * p + pos while a window's 12 bytes lie in the block; o: its units so far
 * (at dst + o). live: a block is loaded (else [p, end) is left: fewer than
 * a block and a window, one character at a time). */
struct MK_(cur) {
    size_t at, end; /* offsets in the run: the block, the cursor's end */
    uint64_t ends;
    size_t pos, o;
    bool live;
};

/* The next block that is not all ASCII (those widened on the way). */
FAST_INLINE MK_TARGET void MK_(block)(const uint8_t *src, struct MK_(cur) *c, void *dst,
                                      bool u16)
{
    while (c->end - c->at >= 64 + 16) {
        const uint8_t *p = src + c->at;
        __m128i v[4] = {MK_LOAD(p), MK_LOAD(p + 16), MK_LOAD(p + 32), MK_LOAD(p + 48)};
        __m128i any = _mm_or_si128(_mm_or_si128(v[0], v[1]), _mm_or_si128(v[2], v[3]));
        if (_mm_movemask_epi8(any) == 0) {
            MK_(widen64)(v, u16 ? (void *)((uint16_t *)dst + c->o)
                                : (void *)((uint32_t *)dst + c->o), u16);
            c->at += 64;
            c->o += 64;
            continue;
        }
        uint64_t cont = (uint64_t)mk_cont(v[0]) | (uint64_t)mk_cont(v[1]) << 16 |
                        (uint64_t)mk_cont(v[2]) << 32 | (uint64_t)mk_cont(v[3]) << 48;
        uint64_t next = p[64] >= UTF8_SHUF_CONT_MIN && p[64] <= UTF8_SHUF_CONT_MAX;
        c->ends = ~(cont >> 1 | next << 63);
        c->pos = 0;
        c->live = true;
        return;
    }
    c->live = false;
}

/* One step of a live cursor: the next block when this one is done (a new
 * cursor starts so: pos past its block), then a window. */
FAST_INLINE MK_TARGET void MK_(step)(const uint8_t *src, struct MK_(cur) *c, void *dst,
                                     bool u16)
{
    if (c->pos > 64 - UTF8_SHUF_WINDOW) {
        c->at += c->pos;
        MK_(block)(src, c, dst, u16);
        if (!c->live)
            return;
    }
    c->pos += mk_window(src + c->at + c->pos, c->ends >> c->pos, dst, &c->o, u16);
}

/* The transcoder: src[0..n) is valid UTF-8, whole characters; units out.
 * Runs from MK_SPLIT_MIN bytes split in two halves (at a character's first
 * byte), each with a cursor of its own, stepped in turns: a window's bytes
 * come from a table load that the next window waits for, so one cursor is
 * bound by that latency; two overlap. The second half's units start where
 * the first's end (counted ahead). */
FAST_INLINE MK_TARGET size_t MK_(valid)(const uint8_t *src, size_t n, void *dst, bool u16)
{
    size_t half = n;
    if (n >= MK_SPLIT_MIN) { /* masked.h */
        half = n / 2;
        while (src[half] >= UTF8_SHUF_CONT_MIN && src[half] <= UTF8_SHUF_CONT_MAX)
            half++;
    }
    /* Each starts with pos past a block 64 bytes before it (unsigned
     * offsets: 0 - 64 wraps and comes back). */
    struct MK_(cur) x = {(size_t)0 - 64, half, 0, 64, 0, true};
    struct MK_(cur) y = {half - 64, n, 0, 64, 0, half < n};
    if (half < n)
        y.o = (u16 ? mk_units16 : mk_units32)(src, half);
    /* In turns (a cursor that is done leaves the other alone). */
    while (x.live || y.live) {
        if (x.live)
            MK_(step)(src, &x, dst, u16);
        if (y.live)
            MK_(step)(src, &y, dst, u16);
    }
    char *d = u16 ? (char *)((uint16_t *)dst + x.o) : (char *)((uint32_t *)dst + x.o);
    size_t o = x.o + (u16 ? mk_scalar16 : mk_scalar32)(src + x.at, x.end - x.at, d);
    if (half == n)
        return o;
    d = u16 ? (char *)((uint16_t *)dst + y.o) : (char *)((uint32_t *)dst + y.o);
    return y.o + (u16 ? mk_scalar16 : mk_scalar32)(src + y.at, y.end - y.at, d);
}

/* The slabs' ASCII run: ascii.h's widening (stores before the test, to
 * the first byte that is not ASCII), 32 or 16 bytes a step. */
FAST_INLINE MK_TARGET size_t MK_(ascii)(const uint8_t *src, size_t n, void *dst, bool u16)
{
#if MK_WIDE
    return fast_ascii_widen_avx2(src, n, dst, n, u16);
#else
    return fast_ascii_widen_sse2(src, n, dst, n, u16);
#endif
}

FAST_NOINLINE MK_TARGET static size_t MK_(ascii32)(const uint8_t *src, size_t n, void *dst)
{
    return MK_(ascii)(src, n, dst, false);
}

FAST_NOINLINE MK_TARGET static size_t MK_(ascii16)(const uint8_t *src, size_t n, void *dst)
{
    return MK_(ascii)(src, n, dst, true);
}

FAST_NOINLINE MK_TARGET static size_t MK_(valid32)(const uint8_t *src, size_t n, void *dst)
{
    return MK_(valid)(src, n, dst, false);
}

FAST_NOINLINE MK_TARGET static size_t MK_(valid16)(const uint8_t *src, size_t n, void *dst)
{
    return MK_(valid)(src, n, dst, true);
}

MK_TARGET size_t MK_API(utfdfa__utf8_dec_, _32)(const uint8_t *src, size_t n, uint32_t *state,
    uint32_t *partial, uint32_t *dst, size_t cap, size_t *written)
{
    return fast_slab_engine(fast_utf8(), src, n, state, partial, dst, cap, written, false,
                            MK_(valid32), MK_SCAN, MK_(ascii32));
}

MK_TARGET size_t MK_API(utfdfa__utf8_dec_, _16)(const uint8_t *src, size_t n, uint32_t *state,
    uint32_t *partial, uint16_t *dst, size_t cap, size_t *written)
{
    return fast_slab_engine(fast_utf8(), src, n, state, partial, dst, cap, written, true,
                            MK_(valid16), MK_SCAN, MK_(ascii16));
}

MK_TARGET size_t MK_API(utfdfa__utf8_rep_, )(const uint8_t *src, size_t n, uint32_t *state,
    uint32_t *partial, uint32_t *dst, size_t cap, size_t *written, size_t *errors)
{
    return fast_slab_rep(src, n, state, partial, dst, cap, written, errors,
                         MK_API(utfdfa__utf8_dec_, _32), MK_REP);
}

#undef MK_CAT2
#undef MK_CAT
#undef MK_
#undef MK_API
