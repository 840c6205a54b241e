/* SPDX-License-Identifier: MIT */
/* The SSE4 UTF-7 kernels (kernels.h): 16 characters a step. Base64 after
 * Muła and Lemire ("Faster Base64 Encoding and Decoding Using AVX2
 * Instructions"): a digit is classified by pshufb on its two nibbles, its
 * value is its byte plus an offset picked by its high nibble (the grammar's
 * alphabet gives both, gen/grammar_facts.py), multiply-adds pack four digits
 * into 24 bits, a pshufb orders them as UTF-16BE units. A step whose units
 * include a surrogate or (IMAP) a printing ASCII one, or whose bytes are
 * not all digits, goes to the scalar reference (utf7.c), which pairs
 * surrogates and stops where the caller's run logic must take over. */
#include "utf7_x86.h"

#if KERN_X86
#include "encodings.gen.h"

#define KERN_SSE4 __attribute__((target("ssse3,sse4.1")))
#define SSE4_INLINE KERN_INLINE KERN_SSE4
/* Off the common path: out of line, so that the window loop keeps its registers. */
#define SSE4_RARE __attribute__((noinline)) static KERN_SSE4

struct sse4_u7 {
    __m128i direct, b64, roll, fix, high_bits, nibble;
    int imap; /* the tables' form: IMAP's UTF-7 */
};

SSE4_INLINE struct sse4_u7 sse4_u7_tables(int imap)
{
    const uint8_t(*t)[16] = utfdfa__utf7_simd[imap != 0];
    struct sse4_u7 s;
    s.direct = _mm_loadu_si128((const __m128i *)(const void *)t[UTF7_SIMD_DIRECT]);
    s.b64 = _mm_loadu_si128((const __m128i *)(const void *)t[UTF7_SIMD_B64]);
    s.roll = _mm_loadu_si128((const __m128i *)(const void *)t[UTF7_SIMD_ROLL]);
    s.fix = _mm_loadu_si128((const __m128i *)(const void *)t[UTF7_SIMD_FIX]);
    s.high_bits = _mm_setr_epi8(U7_HIGH_BITS);
    s.nibble = _mm_set1_epi8(0x0F);
    s.imap = imap;
    return s;
}

/* The bytes of v (high nibbles hi) that are not in `set`: 0xFF each. */
SSE4_INLINE __m128i sse4_outside(const struct sse4_u7 *s, __m128i v, __m128i hi, __m128i set)
{
    __m128i lo = _mm_and_si128(v, s->nibble);
    __m128i bits = _mm_and_si128(_mm_shuffle_epi8(set, lo), _mm_shuffle_epi8(s->high_bits, hi));
    return _mm_cmpeq_epi8(bits, _mm_setzero_si128());
}

/* The values of the digits of v (high nibbles hi; other bytes give any value). */
SSE4_INLINE __m128i sse4_b64_values(const struct sse4_u7 *s, __m128i v, __m128i hi)
{
    __m128i idx = _mm_add_epi8(hi, _mm_cmpeq_epi8(v, s->fix));
    return _mm_add_epi8(v, _mm_shuffle_epi8(s->roll, idx));
}

/* 16 digit values as six 16-bit units (lanes 6 and 7 zero). */
SSE4_INLINE __m128i sse4_b64_units(__m128i val)
{
    __m128i bits = _mm_madd_epi16(_mm_maddubs_epi16(val, _mm_set1_epi32(U7_MADDUBS)),
                                  _mm_set1_epi32(U7_MADDWD));
    return _mm_shuffle_epi8(bits, _mm_setr_epi8(U7_UNIT_ORDER));
}

/* 16 digits at p as six units in *units: 1, or 2 when they are three
 * surrogate pairs (high, low, high, low, high, low: whole characters); 0
 * when a byte is not a digit, a unit is another surrogate or (imap) a
 * printing ASCII character. */
SSE4_INLINE int sse4_b64_step(const struct sse4_u7 *s, int imap, const uint8_t *p, __m128i *units)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i hi = _mm_and_si128(_mm_srli_epi16(v, 4), s->nibble);
    __m128i bad = sse4_outside(s, v, hi, s->b64);
    __m128i u = sse4_b64_units(sse4_b64_values(s, v, hi));
    if (imap) {
        __m128i x = _mm_sub_epi16(u, _mm_set1_epi16(0x20));
        bad = _mm_or_si128(bad, _mm_cmpeq_epi16(_mm_min_epu16(x, _mm_set1_epi16(0x7E - 0x20)), x));
    }
    *units = u;
    __m128i top = _mm_and_si128(u, _mm_set1_epi16((short)0xFC00));
    unsigned high = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi16(top, _mm_set1_epi16((short)0xD800)));
    unsigned low = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi16(top, _mm_set1_epi16((short)0xDC00)));
    if (!_mm_testz_si128(bad, bad))
        return 0;
    return (high | low) == 0 ? 1 : high == 0x333 && low == 0xCCC ? 2 : 0;
}

SSE4_INLINE void sse4_put_units(uint8_t *dst, unsigned width, __m128i u)
{
    if (width == 4) {
        _mm_storeu_si128((__m128i *)(void *)dst, _mm_cvtepu16_epi32(u));
        _mm_storel_epi64((__m128i *)(void *)(dst + 16), _mm_cvtepu16_epi32(_mm_srli_si128(u, 8)));
    } else if (width == 2) {
        uint32_t last = (uint32_t)_mm_extract_epi32(u, 2);
        _mm_storel_epi64((__m128i *)(void *)dst, u);
        memcpy(dst + 8, &last, 4);
    }
}

KERN_SSE4 size_t utfdfa__sse4_utf7_b64(int imap, const uint8_t *src, size_t n, void *dst,
                                 unsigned width, size_t cap, size_t *written)
{
    const struct sse4_u7 s = sse4_u7_tables(imap);
    uint8_t *out = dst;
    size_t i = 0, w = 0, got = 0, k;
    for (;;) {
        __m128i u;
        int kind = n - i >= 16 && (!width || cap - w >= 6) ? sse4_b64_step(&s, imap, src + i, &u) : 0;
        if (kind == 2 && width == 4) {
            /* Three pairs: one multiply-add (x86.h) */
            __m128i cp = _mm_add_epi32(_mm_madd_epi16(u, _mm_set1_epi32(KERN_SURROGATE_FACTORS)),
                                       _mm_set1_epi32(KERN_SURROGATE_BIAS));
            uint32_t third = (uint32_t)_mm_extract_epi32(cp, 2);
            _mm_storel_epi64((__m128i *)(void *)(out + w * 4), cp);
            memcpy(out + w * 4 + 8, &third, 4);
            i += 16;
            w += 3;
        } else if (kind) {
            if (width) /* else dst is NULL: no arithmetic on it */
                sse4_put_units(out + w * width, width, u);
            i += 16;
            w += width ? 6 : 0;
        } else { /* pairs across steps, the input's end or what ends the kernel: group by group */
            k = utfdfa__scalar_utf7_b64(imap, src + i, kern_min(n - i, 64),
                                        width ? out + w * width : NULL, width, cap - w, &got);
            i += k;
            w += got;
            if (k == 0)
                break;
        }
    }
    *written = w;
    return i;
}

/* The 16 bytes of v as code points (width 4) or units (2) at d (one copy:
 * its call costs less than its size). */
__attribute__((noinline)) static KERN_SSE4 void sse4_put_bytes(uint8_t *d, unsigned width,
                                                               __m128i v)
{
    if (width == 4) {
        _mm_storeu_si128((__m128i *)(void *)d, _mm_cvtepu8_epi32(v));
        _mm_storeu_si128((__m128i *)(void *)(d + 16), _mm_cvtepu8_epi32(_mm_srli_si128(v, 4)));
        _mm_storeu_si128((__m128i *)(void *)(d + 32), _mm_cvtepu8_epi32(_mm_srli_si128(v, 8)));
        _mm_storeu_si128((__m128i *)(void *)(d + 48), _mm_cvtepu8_epi32(_mm_srli_si128(v, 12)));
    } else if (width == 2) {
        _mm_storeu_si128((__m128i *)(void *)d, _mm_cvtepu8_epi16(v));
        _mm_storeu_si128((__m128i *)(void *)(d + 16), _mm_cvtepu8_epi16(_mm_srli_si128(v, 8)));
    }
}

/* One 16-byte window of UTF-7 text: its bytes, their digit values, and
 * bits of the bytes that are not direct (bit 16 set too) and not digits
 * (bits 16-31 set too). */
struct sse4_window {
    __m128i v, val;
    uint32_t other, nondigit, dash; /* dash: bits of the "-"s */
};

#define U7_GOES_ON 32
#define U7_REFUSED 33
#define U7_GOES_ON_8 34 /* having taken 8 digits only */
#define U7_SLICE 256 /* the longest run refused here that the scalar reference is given */

/* Units u[0..nu) whose surrogates are pairs as code points at d: how
 * many. *carry: a high surrogate whose low one is the next unit (from the
 * window before, and into the next). At most three pairs: a loop costs less
 * than a table of compressions. */
SSE4_RARE unsigned sse4_put_pairs(uint8_t *d, __m128i u, unsigned nu, uint32_t *carry)
{
    uint16_t a[8];
    unsigned m = 0;
    _mm_storeu_si128((__m128i *)(void *)a, u);
    for (unsigned k = 0; k < nu; k++) {
        uint32_t cp = a[k];
        if (*carry)
            cp = 0x10000 + ((*carry - 0xD800) << 10) + (cp - 0xDC00u);
        *carry = cp >= 0xD800 && cp <= 0xDBFF ? cp : 0;
        if (*carry)
            continue;
        memcpy(d + 4 * m++, &cp, 4);
    }
    return m;
}

/* The digits of a run from the window's byte at (`fresh`: the first of
 * the run): their units at out (*w advanced) when the run ends inside the
 * window, a surrogate pair as one code point (width 4) or its two units.
 * Returns where the next byte is; U7_GOES_ON when the run goes on past the
 * window (having taken 16 digits, six units, when at is 0, the last high
 * surrogate of them in *carry; else nothing); U7_REFUSED when the run is
 * not to be taken (a lone surrogate among the reasons). */
SSE4_INLINE unsigned sse4_digits(const struct sse4_window *x, unsigned at, int fresh,
                                 uint8_t *out, unsigned width, size_t *w, uint32_t *carry,
                                 int *paired)
{
    const __m128i iota = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    unsigned len = (unsigned)__builtin_ctz(x->nondigit >> at), end = at + len;
    unsigned nu = 6 * len >> 4, lanes = (1u << 2 * nu) - 1; /* movemask bits of whole units */
    if (end == 16 && at != 0)
        return U7_GOES_ON; /* the next window begins at this run's digit */
    __m128i val = _mm_shuffle_epi8(x->val, _mm_add_epi8(iota, _mm_set1_epi8((char)at)));
    __m128i u = sse4_b64_units(_mm_and_si128(val, _mm_cmpgt_epi8(_mm_set1_epi8((char)len), iota)));
    unsigned zero = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi16(u, _mm_setzero_si128()));
    unsigned low = 0, pairs = *carry ? 3u : 0u; /* where the low ones must be */
    __m128i top = _mm_and_si128(u, _mm_set1_epi16((short)0xFC00));
    if ((_mm_movemask_epi8(_mm_cmpeq_epi16(_mm_and_si128(top, _mm_set1_epi16((short)0xF800)),
                                           _mm_set1_epi16((short)0xD800))) & lanes) | pairs) {
        unsigned high = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi16(top, _mm_set1_epi16((short)0xD800)));
        low = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi16(top, _mm_set1_epi16((short)0xDC00)));
        pairs |= (high & lanes) << 2;
    }
    /* Every high surrogate followed by a low one and every low one after a
     * high one; one last goes on into the next window only. Fewer than 8
     * bits over (len % 8 is 0, 1, 3 or 6), all zero: the unit after them is
     * 0; the run ends at its "-" or a direct character; "+" alone is "+-". */
    if ((low & lanes) != (pairs & lanes) || (end < 16 && pairs > lanes) ||
        (end < 16 && ((6 * len & 15) >= 8 || (~zero & ~lanes & 0xFFFF) ||
                      (x->other >> end & 1) || (fresh && len == 0 && !(x->dash >> end & 1)))))
        return U7_REFUSED;
    if (fresh && len == 0) { /* "+-" is "+" */
        u = _mm_cvtsi32_si128('+');
        nu = 1;
    }
    unsigned goes_on = U7_GOES_ON;
    if (!pairs) { /* no surrogate */
        if (width)
            sse4_put_units(out + *w * width, width, u);
        *w += width ? nu : 0;
    } else {
        *paired = 1;
        if (end == 16 && pairs > lanes && !(pairs >> 6 & 1)) {
            nu = 3; /* 8 digits, so that the next window begins with the pair */
            goes_on = U7_GOES_ON_8;
        }
        unsigned last_high = pairs >> 2 * nu & 1; /* its low one is in the next window */
        if (width == 4) {
            *w += sse4_put_pairs(out + *w * 4, u, nu, carry);
        } else {
            if (width)
                sse4_put_units(out + *w * width, width, u);
            *w += width ? nu : 0;
            *carry = last_high;
        }
    }
    return end < 16 ? end + (x->dash >> end & 1) : goes_on;
}

/* The first byte from e on that is not a digit, found 16 bytes at a time:
 * at most U7_SLICE bytes on, and n when fewer than 16 are left. */
SSE4_INLINE size_t sse4_run_end(const struct sse4_u7 *s, const uint8_t *src, size_t e, size_t n)
{
    for (size_t stop = e + U7_SLICE; n - e >= 16 && e < stop; e += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(src + e));
        __m128i hi = _mm_and_si128(_mm_srli_epi16(v, 4), s->nibble);
        unsigned other = (unsigned)_mm_movemask_epi8(sse4_outside(s, v, hi, s->b64));
        if (other)
            return e + (unsigned)__builtin_ctz(other);
    }
    return n - e >= 16 ? e : n;
}

/* The digit values of window x (high nibbles hi) and, when `marks`, the
 * bits of its "-"s (in x) and of its "+"s (returned); else none. */
SSE4_INLINE uint32_t sse4_marks(const struct sse4_u7 *s, struct sse4_window *x, __m128i hi,
                                int marks)
{
    x->val = sse4_b64_values(s, x->v, hi);
    x->dash = 0;
    if (!marks)
        return 0;
    x->dash = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x->v, _mm_set1_epi8('-')));
    return (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x->v, _mm_set1_epi8('+')));
}

/* The last bytes p[0..m) (m < 16) of a run, from a window's start, in a
 * copy after which come bytes that are neither direct nor digits (so that a
 * run cut by the end is refused, as in the scalar reference): where the
 * next byte is when it ends well there (under 16), else 16 or more. */
SSE4_RARE unsigned sse4_run_tail(const struct sse4_u7 *s, const uint8_t *p, size_t m, int fresh,
                                 uint8_t *out, unsigned width, size_t *w, uint32_t *carry)
{
    uint8_t last[16];
    int paired = 0;
    memset(last, 0x80, sizeof last);
    memcpy(last, p, m);
    struct sse4_window x;
    x.v = _mm_loadu_si128((const __m128i *)(const void *)last);
    __m128i hi = _mm_and_si128(_mm_srli_epi16(x.v, 4), s->nibble);
    x.other = (uint32_t)_mm_movemask_epi8(sse4_outside(s, x.v, hi, s->direct)) | 0x10000;
    x.nondigit = (uint32_t)_mm_movemask_epi8(sse4_outside(s, x.v, hi, s->b64)) | ~0xFFFFu;
    sse4_marks(s, &x, hi, 1);
    return sse4_digits(&x, 0, fresh, out, width, w, carry, &paired);
}

/* A run at src + run_at refused here, with its end, by the scalar
 * reference: what it read (*w: the units so far). */
SSE4_RARE size_t sse4_refused(const struct sse4_u7 *s, const uint8_t *src, size_t n,
                              size_t run_at, uint8_t *out, unsigned width, size_t cap, size_t *w)
{
    size_t e = sse4_run_end(s, src, run_at + 1, n), got = 0;
    size_t k = utfdfa__scalar_utf7_text(s->imap, src + run_at, kern_min(n, e + 1) - run_at,
                                        width ? out + *w * width : NULL, width,
                                        width ? cap - *w : 0, &got);
    *w += got;
    return k;
}

/* Inside a run at src + *i, 16 digits there, no bits over: when 16 more
 * follow (a call pays only over a long run) and the first are BMP
 * characters or pairs three groups apart (or are 8 digits on), the base64
 * kernel's steps from there (one group by its scalar form first); whether
 * it read. *w: the units so far. */
SSE4_RARE int sse4_long_run(const struct sse4_u7 *s, const uint8_t *src, size_t n, size_t *i,
                            uint8_t *out, unsigned width, size_t cap, size_t *w)
{
    const int imap = s->imap;
    __m128i units;
    size_t at = *i, got = 0, k = 0;
    if (n - at < 32)
        return 0;
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(src + at + 16));
    __m128i hi = _mm_and_si128(_mm_srli_epi16(v, 4), s->nibble);
    if (_mm_movemask_epi8(sse4_outside(s, v, hi, s->b64)))
        return 0;
    if (!sse4_b64_step(s, imap, src + at, &units)) { /* the pairs 8 digits on, if aligned there */
        if (!sse4_b64_step(s, imap, src + at + 8, &units) ||
            utfdfa__scalar_utf7_b64(imap, src + at, 8, width ? out + *w * width : NULL, width,
                                    width ? cap - *w : 0, &got) != 8)
            return 0;
        at += 8;
        *w += got;
    }
    k = utfdfa__sse4_utf7_b64(imap, src + at, n - at, width ? out + *w * width : NULL, width,
                              width ? cap - *w : 0, &got);
    *w += got;
    at += k;
    k = at != *i;
    *i = at;
    return (int)k;
}

/* 16 bytes a window: its direct characters and the runs that end in it
 * from one load; a run that goes on past it in windows that begin at its
 * digits, 16 digits (six units) each. A run not taken whole goes back to
 * its "+". */
KERN_SSE4 size_t utfdfa__sse4_utf7_text(int imap, const uint8_t *src, size_t n, void *dst,
                                        unsigned width, size_t cap, size_t *written)
{
    const struct sse4_u7 s = sse4_u7_tables(imap);
    const __m128i iota = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    uint8_t *out = dst;
    size_t i = 0, w = 0, got = 0, k, run_at = 0, run_w = 0;
    uint32_t carry = 0; /* a high surrogate whose low one begins the next window (whether) */
    unsigned full = 0, at_end = 0; /* windows of digits only in a row; (the run's tail) */
    int in_run = 0, paired = 0; /* paired: the run has pairs (its BMP ones go faster here) */
    while (n - i >= 16 && (!width || cap - w >= 32)) {
        struct sse4_window x;
        x.v = _mm_loadu_si128((const __m128i *)(const void *)(src + i));
        __m128i hi = _mm_and_si128(_mm_srli_epi16(x.v, 4), s.nibble);
        x.other = (uint32_t)_mm_movemask_epi8(sse4_outside(&s, x.v, hi, s.direct)) | 0x10000;
        if (x.other == 0x10000 && !in_run) { /* direct characters only */
            sse4_put_bytes(width ? out + w * width : NULL, width, x.v);
            i += 16;
            w += width ? 16 : 0;
            continue;
        }
        x.nondigit = (uint32_t)_mm_movemask_epi8(sse4_outside(&s, x.v, hi, s.b64)) | ~0xFFFFu;
        full = in_run && x.nondigit == ~0xFFFFu ? full + 1 : 0;
        if (full >= 3 && paired && !carry &&
            sse4_long_run(&s, src, n, &i, out, width, cap, &w))
            continue; /* a run of pairs' third window of digits on: the base64 kernel's */
        /* a window of a run's digits needs neither "-" nor "+" */
        uint32_t plus = sse4_marks(&s, &x, hi, !imap && !(in_run && x.nondigit == ~0xFFFFu));
        unsigned at = 0, next = 0;
        for (;;) { /* at most 16 units written from here (a window's room is 32) */
            if (!in_run) {
                unsigned direct = (unsigned)__builtin_ctz(x.other >> at);
                if (width && direct)
                    sse4_put_bytes(out + w * width, width,
                                   _mm_shuffle_epi8(x.v, _mm_add_epi8(iota, _mm_set1_epi8((char)at))));
                w += width ? direct : 0;
                at += direct;
                if (!(plus >> at & 1)) /* at 16: no bit */
                    break; /* the window's end, or a byte to stop at */
                run_at = i + at++;
                run_w = w;
                carry = 0;
                paired = 0;
            }
            next = sse4_digits(&x, at, i + at == run_at + 1, out, width, &w, &carry, &paired);
            if (next == U7_REFUSED) {
                w = run_w;
                i = run_at;
                k = sse4_refused(&s, src, n, run_at, out, width, cap, &w);
                if (k == 0) /* a run it refuses too, or longer than the slice: to the end */
                    goto done;
                i += k;
                in_run = 0;
                carry = 0;
                break;
            }
            in_run = next == U7_GOES_ON || next == U7_GOES_ON_8;
            if (in_run) {
                at = at ? at : next == U7_GOES_ON ? 16 : 8;
                break;
            }
            at = next;
        }
        if (next == U7_REFUSED)
            continue; /* i is past what the scalar reference took */
        i += at;
        if (!in_run && at < 16)
            break; /* a byte to stop at */
    }
    if (in_run && n - i < 16 && (!width || cap - w >= 32) &&
        (at_end = sse4_run_tail(&s, src + i, n - i, i == run_at + 1, out, width, &w, &carry)) < 16)
        i += at_end, in_run = 0; /* the run ended well in the last bytes */
    if (in_run) { /* back to the "+" of a run not taken whole */
        i = run_at;
        w = run_w;
    }
done:
    k = utfdfa__scalar_utf7_text(imap, src + i, n - i, width ? out + w * width : NULL, width,
                                 width ? cap - w : 0, &got);
    *written = w + got;
    return i + k;
}

#else
typedef int utfdfa__no_sse4_utf7_here; /* ISO C wants a declaration in every unit */
#endif
