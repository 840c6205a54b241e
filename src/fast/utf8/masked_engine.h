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

#if MK_WIDE
/* The AVX2 transcoder: the same two halves, both windows in one step
 * (mk_pair), and no blocks: a first pass writes the bitmap of the bytes
 * that start a character (bit i: byte i; bit n set), from which a window
 * at q takes bits q+1..q+12, its mask of ends. The next window's mask is
 * the bits from this one's (a load whose address was known a step before)
 * shifted by the bytes taken: off the chain of table loads. Windows while
 * 16 bytes are readable, and for the first half while 32 are left in it
 * (mk_pair writes 8 units: 8 characters at least, so never over the
 * second half's units); each half's last bytes by MK_(tail). */
FAST_INLINE MK_TARGET uint64_t MK_(bits)(const uint8_t *map, size_t q)
{
    uint64_t w;
    memcpy(&w, map + (q >> 3), 8);
    return w >> (q & 7);
}

/* Per byte lane, what the bitmap pass gathers: continuations and 4-byte
 * first bytes (before the split), the largest byte (to UTF-16). */
struct MK_(lanes) {
    __m256i cont, four, top;
};

/* The starts of the 32 bytes v (bit i: byte i is no continuation), v
 * counted into l (when count) and its largest byte kept (to UTF-16). */
FAST_INLINE MK_TARGET uint32_t MK_(starts)(__m256i v, struct MK_(lanes) *l, bool count, bool u16)
{
    __m256i c = _mm256_cmpgt_epi8(_mm256_set1_epi8((char)(UTF8_SHUF_CONT_MAX + 1)), v);
    __m256i f0 = _mm256_set1_epi8((char)MK_LONGER(3));
    if (count) {
        l->cont = _mm256_sub_epi8(l->cont, c);
        if (u16)
            l->four = _mm256_sub_epi8(l->four, _mm256_cmpeq_epi8(_mm256_max_epu8(v, f0), v));
    }
    if (u16)
        l->top = _mm256_max_epu8(l->top, v);
    return ~(uint32_t)_mm256_movemask_epi8(c);
}

/* The bitmap of src[i..end) (end - i a multiple of 32) at map, 64 bytes a
 * step (one store); where it ended. */
FAST_INLINE MK_TARGET size_t MK_(mark)(const uint8_t *src, size_t i, size_t end, uint8_t *map,
                                       struct MK_(lanes) *l, bool count, bool u16)
{
    for (; end - i >= 64; i += 64) {
        uint64_t st = MK_(starts)(_mm256_loadu_si256((const __m256i *)(const void *)(src + i)), l,
                                  count, u16);
        st |= (uint64_t)MK_(starts)(
                  _mm256_loadu_si256((const __m256i *)(const void *)(src + i + 32)), l, count, u16)
              << 32;
        memcpy(map + i / 8, &st, 8);
    }
    if (end - i >= 32) {
        uint32_t st = MK_(starts)(_mm256_loadu_si256((const __m256i *)(const void *)(src + i)), l,
                                  count, u16);
        memcpy(map + i / 8, &st, 4);
        i += 32;
    }
    return i;
}

/* The bitmap of src[0..n) (n at most SLAB_MAX) at map (SLAB_MAX / 8 + 16
 * bytes, zero past its bits as far as the walk reads them); the split (n
 * when the run is not split), in *first the units of the text before it,
 * in *fours (to UTF-16) whether the run has 4-byte characters. */
FAST_INLINE MK_TARGET size_t MK_(map)(const uint8_t *src, size_t n, uint8_t *map,
                                      size_t *first, bool *fours, bool u16)
{
    size_t half = n, i = 0, k = 0;
    if (n >= MK_SPLIT_MIN) { /* masked.h */
        half = n / 2;
        while (src[half] >= UTF8_SHUF_CONT_MIN && src[half] <= UTF8_SHUF_CONT_MAX)
            half++;
    }
    /* the lanes' counts over the whole 32-byte blocks before the split
     * (fewer than 256 each: no overflow) */
    _Static_assert(SLAB_MAX / 2 / 32 < 256, "the per-lane counts fit a byte");
    struct MK_(lanes) l = {_mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256()};
    const __m256i cmax = _mm256_set1_epi8((char)(UTF8_SHUF_CONT_MAX + 1));
    const __m256i f0 = _mm256_set1_epi8((char)MK_LONGER(3));
    size_t whole = (half < n ? half : n) / 32 * 32;
    i = MK_(mark)(src, 0, whole, map, &l, true, u16);
    i = MK_(mark)(src, i, i + (n - i) / 32 * 32, map, &l, false, u16);
    __m256i cont = l.cont, four = l.four, top = l.top;
    __m256i sc = _mm256_sad_epu8(cont, _mm256_setzero_si256());
    __m256i sf = _mm256_sad_epu8(four, _mm256_setzero_si256());
    __m256i t = _mm256_add_epi64(_mm256_sub_epi64(u16 ? sf : _mm256_setzero_si256(), sc),
                                 _mm256_set_epi64x(0, 0, 0, (long long)whole));
    __m128i h = _mm_add_epi64(_mm256_castsi256_si128(t), _mm256_extracti128_si256(t, 1));
    k = (size_t)_mm_cvtsi128_si64(_mm_add_epi64(h, _mm_unpackhi_epi64(h, h)));
    *fours = u16 && _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(top, f0), top)) != 0;
    /* Zero only as far as the walk reads (a window's bits at n + 1 at
     * most, 8 bytes): a short run (the general path's chunks) would
     * otherwise clear the whole map each call. */
    memset(map + i / 8, 0, n / 8 + 9 - i / 8);
    for (size_t j = whole; half < n && j < half; j++) /* (unused when not split) */
        k += !(src[j] >= UTF8_SHUF_CONT_MIN && src[j] <= UTF8_SHUF_CONT_MAX) +
             (u16 && src[j] >= MK_LONGER(3));
    if (i < n) { /* the last n - i < 32 bytes: one vector, not a byte at a time */
        uint8_t pad[32];
        const uint8_t *p = src + n - 32; /* in bounds when n >= 32 */
        if (n < 32) { /* (then i is 0) */
            _mm256_storeu_si256((__m256i *)(void *)pad, _mm256_setzero_si256());
            memcpy(pad + 32 - n, src, n);
            p = pad;
        }
        __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)p);
        unsigned off = (unsigned)(32 - (n - i)); /* the tail's first byte in v */
        uint32_t st = ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpgt_epi8(cmax, v)) >> off;
        memcpy(map + i / 8, &st, 4);
        if (u16)
            *fours |= (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(v, f0), v))
                          >> off != 0;
    }
    map[n / 8] |= (uint8_t)(1u << (n & 7));
    *first = k;
    return half;
}

/* One copy each: a flag tested in the loop costs the pass a tenth. */
FAST_NOINLINE MK_TARGET static size_t MK_(map32)(const uint8_t *src, size_t n, uint8_t *map,
                                                size_t *first, bool *fours)
{
    return MK_(map)(src, n, map, first, fours, false);
}

FAST_NOINLINE MK_TARGET static size_t MK_(map16)(const uint8_t *src, size_t n, uint8_t *map,
                                                size_t *first, bool *fours)
{
    return MK_(map)(src, n, map, first, fours, true);
}

/* The windows of both cursors while each is below its limit: both in one
 * step, then the one left in both lanes (the same units twice, at the same
 * place). */
FAST_INLINE MK_TARGET void MK_(walk)(const uint8_t *src, const uint8_t *map, char *d,
                                     struct mk_cursor *cx, struct mk_cursor *cy, bool u16,
                                     bool bmp)
{
    size_t us = u16 ? 2 : 4, x = cx->at, ox = cx->units, lx = cx->limit, y = cy->at,
           oy = cy->units, ly = cy->limit, tx, ty, sv = 0, sov = 0;
    int gone = -1; /* the cursor whose windows are done: its position and units saved */
    if (y >= ly) { /* none, or no split */
        sv = y, sov = oy, gone = 1;
        y = x, oy = ox, ly = lx;
    }
    uint64_t bx = MK_(bits)(map, x + 1), by = MK_(bits)(map, y + 1);
    for (;;) {
        while (x < lx && y < ly) {
            mk_pair((struct mk_win){src + x, (unsigned)bx, d + ox * us, &ox, &tx},
                    (struct mk_win){src + y, (unsigned)by, d + oy * us, &oy, &ty}, u16, bmp);
            /* this window's bits (a load whose address was known a step
             * ago) shifted: the next one's */
            bx = MK_(bits)(map, x + 1) >> tx;
            by = MK_(bits)(map, y + 1) >> ty;
            x += tx;
            y += ty;
        }
        if (gone >= 0 || (x >= lx && y >= ly))
            break;
        if (x >= lx) {
            gone = 0, sv = x, sov = ox;
            x = y, ox = oy, bx = by, lx = ly;
        } else {
            gone = 1, sv = y, sov = oy;
            y = x, oy = ox, by = bx, ly = lx;
        }
    }
    if (gone == 0)
        x = sv, ox = sov;
    else if (gone == 1)
        y = sv, oy = sov;
    cx->at = x, cx->units = ox, cy->at = y, cy->units = oy;
}

/* A half's last bytes p[0..t) (t < 32: the walk stops 31 bytes before the
 * first half's end and 15 before the second's) by windows over a copy
 * padded with zeros (characters of one byte), their units through a
 * buffer: a window writes 8 units, past the half's own. Short chunks make
 * many halves; one character at a time (fast_valid_scalar) mispredicts on
 * mixed lengths. Units out. */
FAST_NOINLINE MK_TARGET static size_t MK_(tail)(const uint8_t *p, size_t t, void *dst, bool u16)
{
    if (t >= 32) /* (the walk's limits say it never is) */
        return (u16 ? mk_scalar16 : mk_scalar32)(p, t, dst);
    uint8_t buf[64];
    uint32_t out[32 + 8 + 12]; /* t units, a window's 8 and its bytes past t */
    _mm256_storeu_si256((__m256i *)(void *)buf, _mm256_setzero_si256());
    _mm256_storeu_si256((__m256i *)(void *)(buf + 32), _mm256_setzero_si256());
    memcpy(buf, p, t);
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)buf);
    uint32_t cont = (uint32_t)_mm256_movemask_epi8(
        _mm256_cmpgt_epi8(_mm256_set1_epi8((char)(UTF8_SHUF_CONT_MAX + 1)), v));
    uint64_t ends = ~(uint64_t)(cont >> 1);
    size_t o = 0;
    mk_block(buf, ends, t, out, &o, u16);
    memcpy(dst, out, o * (u16 ? 2 : 4));
    return o;
}

FAST_INLINE MK_TARGET size_t MK_(run)(const uint8_t *src, size_t n, void *dst, bool u16)
{
    uint8_t map[SLAB_MAX / 8 + 16];
    size_t oy;
    bool fours;
    size_t half = (u16 ? MK_(map16) : MK_(map32))(src, n, map, &oy, &fours);
    size_t us = u16 ? 2 : 4;
    char *d = (char *)dst;
    /* windows while at < limit */
    struct mk_cursor x = {0, 0, half == n ? (n >= 16 ? n - 15 : 0) : (half >= 32 ? half - 31 : 0)};
    struct mk_cursor y = {half, oy, half == n ? 0 : n - 15};
    if (u16 && !fours)
        MK_(walk)(src, map, d, &x, &y, true, true);
    else
        MK_(walk)(src, map, d, &x, &y, u16, false);
    size_t o = x.units + MK_(tail)(src + x.at, half - x.at, d + x.units * us, u16);
    if (half == n)
        return o;
    return y.units + MK_(tail)(src + y.at, n - y.at, d + y.units * us, u16);
}

/* Runs of at most a slab (the slab engine's) at once; longer ones cut at a
 * character's first byte. */
FAST_INLINE MK_TARGET size_t MK_(valid)(const uint8_t *src, size_t n, void *dst, bool u16)
{
    size_t o = 0;
    while (n > SLAB_MAX) {
        size_t k = SLAB_MAX;
        while (src[k] >= UTF8_SHUF_CONT_MIN && src[k] <= UTF8_SHUF_CONT_MAX)
            k--;
        o += MK_(run)(src, k, u16 ? (void *)((uint16_t *)dst + o) : (void *)((uint32_t *)dst + o),
                      u16);
        src += k;
        n -= k;
    }
    return o + MK_(run)(src, n, u16 ? (void *)((uint16_t *)dst + o)
                                    : (void *)((uint32_t *)dst + o), u16);
}

#else
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
        if ((cont & MK_THREE_CONT_SPAN) == MK_THREE_CONT) { /* 48 bytes of CJK text */
            mk_three48(p, u16 ? (void *)((uint16_t *)dst + c->o) : (void *)((uint32_t *)dst + c->o),
                       u16);
            c->at += MK_THREE_BYTES;
            c->o += MK_THREE_BYTES / 3;
            continue;
        }
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

#endif /* MK_WIDE */

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
    return fast_slab_engine(
        (struct fast_slab_ops){fast_utf8(), false, MK_(valid32), MK_SCAN, MK_(ascii32)},
        (struct fast_call){src, n, state, partial, dst, cap, written, NULL});
}

MK_TARGET size_t MK_API(utfdfa__utf8_dec_, _16)(const uint8_t *src, size_t n, uint32_t *state,
    uint32_t *partial, uint16_t *dst, size_t cap, size_t *written)
{
    return fast_slab_engine(
        (struct fast_slab_ops){fast_utf8(), true, MK_(valid16), MK_SCAN, MK_(ascii16)},
        (struct fast_call){src, n, state, partial, dst, cap, written, NULL});
}

MK_TARGET size_t MK_API(utfdfa__utf8_rep_, )(const uint8_t *src, size_t n, uint32_t *state,
    uint32_t *partial, uint32_t *dst, size_t cap, size_t *written, size_t *errors)
{
    return fast_slab_rep((struct fast_call){src, n, state, partial, dst, cap, written, errors},
                         MK_API(utfdfa__utf8_dec_, _32), MK_REP);
}

#undef MK_CAT2
#undef MK_CAT
#undef MK_
#undef MK_API
