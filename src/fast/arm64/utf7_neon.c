/* SPDX-License-Identifier: MIT */
/* The NEON UTF-7 kernels (kernels.h): the SSE4 kernels' algorithm
 * (x86/utf7_sse4.c, whose comments say why each step is as it is), 16
 * characters a step, with tbl for pshufb (an index out of range gives
 * zero, as pshufb's -1 does), shifts for the multiply-adds that pack four
 * digits into 24 bits (the same layout, ../utf7_layout.h) and a movemask of
 * pairwise adds (NEON has none) in x86's bit order, so that the window
 * logic on the masks is the SSE4 kernel's. What a step cannot take goes to
 * the scalar reference (../utf7.c), as there. */
#include "../levels.h"

#if KERN_ARM64
#include <arm_neon.h>

#include "encodings.gen.h"
#include "../utf7_layout.h"

/* Off the common path: out of line, so that the window loop keeps its registers. */
#define NEON_U7_RARE __attribute__((noinline)) static

static const uint8_t neon_u7_iota[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};

struct neon_u7 {
    uint8x16_t direct, b64, roll, fix, high_bits, order;
    int imap; /* the tables' form: IMAP's UTF-7 */
};

KERN_INLINE struct neon_u7 neon_u7_tables(int imap)
{
    static const uint8_t high_bits[16] = {U7_HIGH_BITS}, order[16] = {U7_UNIT_ORDER};
    const uint8_t(*t)[16] = utfdfa__utf7_simd[imap != 0];
    struct neon_u7 s;
    s.direct = vld1q_u8(t[UTF7_SIMD_DIRECT]);
    s.b64 = vld1q_u8(t[UTF7_SIMD_B64]);
    s.roll = vld1q_u8(t[UTF7_SIMD_ROLL]);
    s.fix = vld1q_u8(t[UTF7_SIMD_FIX]);
    s.high_bits = vld1q_u8(high_bits);
    s.order = vld1q_u8(order);
    s.imap = imap;
    return s;
}

/* x86's movemask of a vector of 0 and 0xFF bytes: bit k for byte k. */
KERN_INLINE unsigned neon_u7_mask(uint8x16_t m)
{
    static const uint8_t weights[16] = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
    uint8x16_t b = vandq_u8(m, vld1q_u8(weights));
    b = vpaddq_u8(b, b);
    b = vpaddq_u8(b, b);
    b = vpaddq_u8(b, b);
    return vgetq_lane_u16(vreinterpretq_u16_u8(b), 0);
}

/* The same of 16-bit lanes: two bits a lane, as _mm_movemask_epi8 gives. */
KERN_INLINE unsigned neon_u7_mask16(uint16x8_t m)
{
    return neon_u7_mask(vreinterpretq_u8_u16(m));
}

/* The bytes of v (high nibbles hi) that are not in `set`: 0xFF each. */
KERN_INLINE uint8x16_t neon_u7_outside(const struct neon_u7 *s, uint8x16_t v, uint8x16_t hi,
                                       uint8x16_t set)
{
    uint8x16_t lo = vandq_u8(v, vdupq_n_u8(0x0F));
    return vceqzq_u8(vandq_u8(vqtbl1q_u8(set, lo), vqtbl1q_u8(s->high_bits, hi)));
}

/* The values of the digits of v (high nibbles hi; other bytes give any value). */
KERN_INLINE uint8x16_t neon_u7_values(const struct neon_u7 *s, uint8x16_t v, uint8x16_t hi)
{
    uint8x16_t idx = vaddq_u8(hi, vceqq_u8(v, s->fix));
    return vaddq_u8(v, vqtbl1q_u8(s->roll, idx));
}

/* 16 digit values as six 16-bit units (lanes 6 and 7 zero): two digits to
 * 12 bits (first << 6 | second), two of those to 24, then the layout's order. */
KERN_INLINE uint16x8_t neon_u7_units(const struct neon_u7 *s, uint8x16_t val)
{
    uint16x8_t p = vreinterpretq_u16_u8(val);
    uint32x4_t q = vreinterpretq_u32_u16(vsraq_n_u16(vshrq_n_u16(p, 8), vshlq_n_u16(p, 8), 2));
    uint32x4_t bits = vsraq_n_u32(vshrq_n_u32(q, 16), vshlq_n_u32(q, 16), 4);
    return vreinterpretq_u16_u8(vqtbl1q_u8(vreinterpretq_u8_u32(bits), s->order));
}

/* The movemask bits of the units of u whose top six bits are `top` (0xD800, 0xDC00). */
KERN_INLINE unsigned neon_u7_kind(uint16x8_t u, uint16_t top)
{
    return neon_u7_mask16(vceqq_u16(vandq_u16(u, vdupq_n_u16(0xFC00)), vdupq_n_u16(top)));
}

/* 16 digits at p as six units in *units: 1, or 2 when they are three
 * surrogate pairs (high, low, high, low, high, low: whole characters); 0
 * when a byte is not a digit, a unit is another surrogate or (imap) a
 * printing ASCII character. */
KERN_INLINE int neon_u7_step(const struct neon_u7 *s, int imap, const uint8_t *p,
                             uint16x8_t *units)
{
    uint8x16_t v = vld1q_u8(p), hi = vshrq_n_u8(v, 4);
    uint8x16_t bad = neon_u7_outside(s, v, hi, s->b64);
    uint16x8_t u = neon_u7_units(s, neon_u7_values(s, v, hi));
    if (imap) /* 0x20-0x7E: u - 0x20 at most 0x5E */
        bad = vorrq_u8(bad, vreinterpretq_u8_u16(vcleq_u16(vsubq_u16(u, vdupq_n_u16(0x20)),
                                                           vdupq_n_u16(0x7E - 0x20))));
    *units = u;
    if (vmaxvq_u8(bad))
        return 0;
    unsigned high = neon_u7_kind(u, 0xD800), low = neon_u7_kind(u, 0xDC00);
    return (high | low) == 0 ? 1 : high == 0x333 && low == 0xCCC ? 2 : 0;
}

/* Units 0-5 of u at dst as code points (width 4) or units (2). */
KERN_INLINE void neon_u7_put_units(uint8_t *dst, unsigned width, uint16x8_t u)
{
    if (width == 4) {
        vst1q_u8(dst, vreinterpretq_u8_u32(vmovl_u16(vget_low_u16(u))));
        vst1_u8(dst + 16, vget_low_u8(vreinterpretq_u8_u32(vmovl_high_u16(u))));
    } else if (width == 2) {
        uint32_t last = vgetq_lane_u32(vreinterpretq_u32_u16(u), 2); /* units 4 and 5 */
        vst1_u8(dst, vreinterpret_u8_u16(vget_low_u16(u)));
        memcpy(dst + 8, &last, 4);
    }
}

/* Three surrogate pairs (u: high, low, ...) as three code points at dst. */
KERN_INLINE void neon_u7_put_three_pairs(uint8_t *dst, uint16x8_t u)
{
    uint16x8x2_t hl = vuzpq_u16(u, u); /* the high ones, the low ones */
    uint32x4_t cp = vshll_n_u16(vget_low_u16(vsubq_u16(hl.val[0], vdupq_n_u16(0xD800))), 10);
    cp = vaddq_u32(cp, vmovl_u16(vget_low_u16(vsubq_u16(hl.val[1], vdupq_n_u16(0xDC00)))));
    cp = vaddq_u32(cp, vdupq_n_u32(0x10000));
    uint32_t third = vgetq_lane_u32(cp, 2);
    vst1_u8(dst, vget_low_u8(vreinterpretq_u8_u32(cp)));
    memcpy(dst + 8, &third, 4);
}

size_t utfdfa__neon_utf7_b64(int imap, const uint8_t *src, size_t n, void *dst, unsigned width,
                             size_t cap, size_t *written)
{
    const struct neon_u7 s = neon_u7_tables(imap);
    uint8_t *out = dst;
    size_t i = 0, w = 0, got = 0, k;
    for (;;) {
        uint16x8_t u;
        int kind = n - i >= 16 && (!width || cap - w >= 6) ? neon_u7_step(&s, imap, src + i, &u) : 0;
        if (kind == 2 && width == 4) {
            neon_u7_put_three_pairs(out + w * 4, u);
            i += 16;
            w += 3;
        } else if (kind) {
            if (width) /* else dst is NULL: no arithmetic on it */
                neon_u7_put_units(out + w * width, width, u);
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

/* The 16 bytes of v as code points (width 4) or units (2) at d: zips with
 * zero (one copy: its call costs less than its size). */
NEON_U7_RARE void neon_u7_put_bytes(uint8_t *d, unsigned width, uint8x16_t v)
{
    const uint8x16_t z = vdupq_n_u8(0);
    if (width == 4) {
        uint16x8_t lo = vreinterpretq_u16_u8(vzip1q_u8(v, z));
        uint16x8_t hi = vreinterpretq_u16_u8(vzip2q_u8(v, z));
        const uint16x8_t z16 = vdupq_n_u16(0);
        vst1q_u8(d, vreinterpretq_u8_u16(vzip1q_u16(lo, z16)));
        vst1q_u8(d + 16, vreinterpretq_u8_u16(vzip2q_u16(lo, z16)));
        vst1q_u8(d + 32, vreinterpretq_u8_u16(vzip1q_u16(hi, z16)));
        vst1q_u8(d + 48, vreinterpretq_u8_u16(vzip2q_u16(hi, z16)));
    } else if (width == 2) {
        vst1q_u8(d, vzip1q_u8(v, z));
        vst1q_u8(d + 16, vzip2q_u8(v, z));
    }
}

/* One 16-byte window of UTF-7 text: its bytes, their digit values, and
 * bits of the bytes that are not direct (bit 16 set too) and not digits
 * (bits 16-31 set too). */
struct neon_u7_window {
    uint8x16_t v, val;
    uint32_t other, nondigit, dash; /* dash: bits of the "-"s */
};

/* A text kernel's place: where it reads and writes, and the run it is in. */
struct neon_u7_at {
    size_t i, w, run_at, run_w;
    uint32_t carry; /* a high surrogate whose low one begins the next window (whether) */
    int in_run, paired; /* paired: the run has pairs (its BMP ones go faster here) */
};

#define NEON_U7_GOES_ON 32
#define NEON_U7_REFUSED 33
#define NEON_U7_GOES_ON_8 34 /* having taken 8 digits only */
#define NEON_U7_SLICE 256 /* the longest run refused here that the scalar reference is given */

/* Units u[0..nu) whose surrogates are pairs as code points at d: how
 * many. *carry: a high surrogate whose low one is the next unit (from the
 * window before, and into the next). */
NEON_U7_RARE unsigned neon_u7_put_pairs(uint8_t *d, uint16x8_t u, unsigned nu, uint32_t *carry)
{
    uint16_t a[8];
    unsigned m = 0;
    vst1q_u8((uint8_t *)a, vreinterpretq_u8_u16(u));
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

/* The digits from the window's byte at as units, the first len (zero after). */
KERN_INLINE uint16x8_t neon_u7_run_units(const struct neon_u7 *s, const struct neon_u7_window *x,
                                         unsigned at, unsigned len)
{
    const uint8x16_t iota = vld1q_u8(neon_u7_iota);
    uint8x16_t val = vqtbl1q_u8(x->val, vaddq_u8(iota, vdupq_n_u8((uint8_t)at)));
    return neon_u7_units(s, vandq_u8(val, vcgtq_u8(vdupq_n_u8((uint8_t)len), iota)));
}

/* Writes the units of a run's digits (pairs: its surrogates' bits; nu:
 * how many) at out + t->w; where the run goes on (NEON_U7_GOES_ON, _8). */
KERN_INLINE unsigned neon_u7_put_run(uint8_t *out, unsigned width, struct neon_u7_at *t,
                                     uint16x8_t u, unsigned nu, unsigned pairs, unsigned lanes,
                                     unsigned end)
{
    size_t *w = &t->w;
    uint32_t *carry = &t->carry;
    unsigned goes_on = NEON_U7_GOES_ON;
    if (!pairs) { /* no surrogate */
        if (width)
            neon_u7_put_units(out + *w * width, width, u);
        *w += width ? nu : 0;
        return goes_on;
    }
    if (end == 16 && pairs > lanes && !(pairs >> 6 & 1)) {
        nu = 3; /* 8 digits, so that the next window begins with the pair */
        goes_on = NEON_U7_GOES_ON_8;
    }
    unsigned last_high = pairs >> 2 * nu & 1; /* its low one is in the next window */
    if (width == 4) {
        *w += neon_u7_put_pairs(out + *w * 4, u, nu, carry);
    } else {
        if (width)
            neon_u7_put_units(out + *w * width, width, u);
        *w += width ? nu : 0;
        *carry = last_high;
    }
    return goes_on;
}

/* The digits of a run from the window's byte at (`fresh`: the first of
 * the run): their units at out (t->w advanced) when the run ends inside the
 * window, a surrogate pair as one code point (width 4) or its two units.
 * Returns where the next byte is; NEON_U7_GOES_ON when the run goes on past
 * the window (having taken 16 digits, six units, when at is 0, the last high
 * surrogate of them in t->carry; else nothing); NEON_U7_REFUSED when the run is
 * not to be taken (a lone surrogate among the reasons). */
KERN_INLINE unsigned neon_u7_digits(const struct neon_u7 *s, const struct neon_u7_window *x,
                                    unsigned at, int fresh, uint8_t *out, unsigned width,
                                    struct neon_u7_at *t)
{
    unsigned len = (unsigned)__builtin_ctz(x->nondigit >> at), end = at + len;
    unsigned nu = 6 * len >> 4, lanes = (1u << 2 * nu) - 1; /* mask bits of whole units */
    if (end == 16 && at != 0)
        return NEON_U7_GOES_ON; /* the next window begins at this run's digit */
    uint16x8_t u = neon_u7_run_units(s, x, at, len);
    unsigned zero = neon_u7_mask16(vceqzq_u16(u));
    unsigned low = 0, pairs = t->carry ? 3u : 0u; /* where the low ones must be */
    uint16x8_t top = vandq_u16(u, vdupq_n_u16(0xF800));
    if ((neon_u7_mask16(vceqq_u16(top, vdupq_n_u16(0xD800))) & lanes) | pairs) {
        low = neon_u7_kind(u, 0xDC00);
        pairs |= (neon_u7_kind(u, 0xD800) & lanes) << 2;
    }
    /* Every high surrogate followed by a low one and every low one after a
     * high one; one last goes on into the next window only. Fewer than 8
     * bits over (len % 8 is 0, 1, 3 or 6), all zero: the unit after them is
     * 0; the run ends at its "-" or a direct character; "+" alone is "+-". */
    if ((low & lanes) != (pairs & lanes) || (end < 16 && pairs > lanes) ||
        (end < 16 && ((6 * len & 15) >= 8 || (~zero & ~lanes & 0xFFFF) ||
                      (x->other >> end & 1) || (fresh && len == 0 && !(x->dash >> end & 1)))))
        return NEON_U7_REFUSED;
    if (fresh && len == 0) { /* "+-" is "+" */
        u = vsetq_lane_u16('+', vdupq_n_u16(0), 0);
        nu = 1;
    }
    t->paired |= pairs != 0;
    unsigned goes_on = neon_u7_put_run(out, width, t, u, nu, pairs, lanes, end);
    return end < 16 ? end + (x->dash >> end & 1) : goes_on;
}

/* The first byte from e on that is not a digit, found 16 bytes at a time:
 * at most NEON_U7_SLICE bytes on, and n when fewer than 16 are left. */
KERN_INLINE size_t neon_u7_run_end(const struct neon_u7 *s, const uint8_t *src, size_t e, size_t n)
{
    for (size_t stop = e + NEON_U7_SLICE; n - e >= 16 && e < stop; e += 16) {
        uint8x16_t v = vld1q_u8(src + e);
        unsigned other = neon_u7_mask(neon_u7_outside(s, v, vshrq_n_u8(v, 4), s->b64));
        if (other)
            return e + (unsigned)__builtin_ctz(other);
    }
    return n - e >= 16 ? e : n;
}

/* The digit values of window x (high nibbles hi) and, when `marks`, the
 * bits of its "-"s (in x) and of its "+"s (returned); else none. */
KERN_INLINE uint32_t neon_u7_marks(const struct neon_u7 *s, struct neon_u7_window *x,
                                   uint8x16_t hi, int marks)
{
    x->val = neon_u7_values(s, x->v, hi);
    x->dash = 0;
    if (!marks)
        return 0;
    x->dash = neon_u7_mask(vceqq_u8(x->v, vdupq_n_u8('-')));
    return neon_u7_mask(vceqq_u8(x->v, vdupq_n_u8('+')));
}

/* The last bytes p[0..m) (m < 16) of a run, from a window's start, in a
 * copy after which come bytes that are neither direct nor digits (so that a
 * run cut by the end is refused, as in the scalar reference): where the
 * next byte is when it ends well there (under 16), else 16 or more. */
NEON_U7_RARE unsigned neon_u7_run_tail(const struct neon_u7 *s, const uint8_t *p, size_t m,
                                       int fresh, uint8_t *out, unsigned width,
                                       struct neon_u7_at *t)
{
    uint8_t last[16];
    memset(last, 0x80, sizeof last);
    memcpy(last, p, m);
    struct neon_u7_window x;
    x.v = vld1q_u8(last);
    uint8x16_t hi = vshrq_n_u8(x.v, 4);
    x.other = neon_u7_mask(neon_u7_outside(s, x.v, hi, s->direct)) | 0x10000;
    x.nondigit = neon_u7_mask(neon_u7_outside(s, x.v, hi, s->b64)) | ~0xFFFFu;
    neon_u7_marks(s, &x, hi, 1);
    return neon_u7_digits(s, &x, 0, fresh, out, width, t);
}

/* A run at src + run_at refused here, with its end, by the scalar
 * reference: what it read (*w: the units so far). */
NEON_U7_RARE size_t neon_u7_refused(const struct neon_u7 *s, const uint8_t *src, size_t n,
                                    size_t run_at, uint8_t *out, unsigned width, size_t cap,
                                    size_t *w)
{
    size_t e = neon_u7_run_end(s, src, run_at + 1, n), got = 0;
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
NEON_U7_RARE int neon_u7_long_run(const struct neon_u7 *s, const uint8_t *src, size_t n,
                                  size_t *i, uint8_t *out, unsigned width, size_t cap, size_t *w)
{
    const int imap = s->imap;
    uint16x8_t units;
    size_t at = *i, got = 0, k = 0;
    if (n - at < 32)
        return 0;
    uint8x16_t v = vld1q_u8(src + at + 16);
    if (neon_u7_mask(neon_u7_outside(s, v, vshrq_n_u8(v, 4), s->b64)))
        return 0;
    if (!neon_u7_step(s, imap, src + at, &units)) { /* the pairs 8 digits on, if aligned there */
        if (!neon_u7_step(s, imap, src + at + 8, &units) ||
            utfdfa__scalar_utf7_b64(imap, src + at, 8, width ? out + *w * width : NULL, width,
                                    width ? cap - *w : 0, &got) != 8)
            return 0;
        at += 8;
        *w += got;
    }
    k = utfdfa__neon_utf7_b64(imap, src + at, n - at, width ? out + *w * width : NULL, width,
                              width ? cap - *w : 0, &got);
    *w += got;
    at += k;
    k = at != *i;
    *i = at;
    return (int)k;
}

/* The direct characters and runs of window x from its byte `at` on (plus:
 * the bits of its "+"s): the bytes it took, 16 or less; NEON_U7_REFUSED
 * when a run is not to be taken (t->i at its "+", t->w as before it). At
 * most 16 units written (a window's room is 32). */
KERN_INLINE unsigned neon_u7_window_runs(const struct neon_u7 *s, const struct neon_u7_window *x,
                                         uint32_t plus, unsigned at, uint8_t *out,
                                         unsigned width, struct neon_u7_at *t)
{
    for (;;) {
        if (!t->in_run) {
            unsigned direct = (unsigned)__builtin_ctz(x->other >> at);
            if (width && direct)
                neon_u7_put_bytes(out + t->w * width, width,
                                  vqtbl1q_u8(x->v, vaddq_u8(vld1q_u8(neon_u7_iota),
                                                            vdupq_n_u8((uint8_t)at))));
            t->w += width ? direct : 0;
            at += direct;
            if (!(plus >> at & 1)) /* at 16: no bit */
                return at; /* the window's end, or a byte to stop at */
            t->run_at = t->i + at++;
            t->run_w = t->w;
            t->carry = 0;
            t->paired = 0;
        }
        unsigned next = neon_u7_digits(s, x, at, t->i + at == t->run_at + 1, out, width, t);
        if (next == NEON_U7_REFUSED) {
            t->w = t->run_w;
            t->i = t->run_at;
            return next;
        }
        t->in_run = next == NEON_U7_GOES_ON || next == NEON_U7_GOES_ON_8;
        if (t->in_run)
            return at ? at : next == NEON_U7_GOES_ON ? 16 : 8;
        at = next;
    }
}

/* 16 bytes a window: its direct characters and the runs that end in it
 * from one load; a run that goes on past it in windows that begin at its
 * digits, 16 digits (six units) each. A run not taken whole goes back to
 * its "+". */
size_t utfdfa__neon_utf7_text(int imap, const uint8_t *src, size_t n, void *dst, unsigned width,
                              size_t cap, size_t *written)
{
    const struct neon_u7 s = neon_u7_tables(imap);
    uint8_t *out = dst;
    struct neon_u7_at t = {0, 0, 0, 0, 0, 0, 0};
    size_t got = 0, k;
    unsigned full = 0, at_end = 0; /* windows of digits only in a row; (the run's tail) */
    while (n - t.i >= 16 && (!width || cap - t.w >= 32)) {
        struct neon_u7_window x;
        x.v = vld1q_u8(src + t.i);
        uint8x16_t hi = vshrq_n_u8(x.v, 4);
        x.other = neon_u7_mask(neon_u7_outside(&s, x.v, hi, s.direct)) | 0x10000;
        if (x.other == 0x10000 && !t.in_run) { /* direct characters only */
            neon_u7_put_bytes(width ? out + t.w * width : NULL, width, x.v);
            t.i += 16;
            t.w += width ? 16 : 0;
            continue;
        }
        x.nondigit = neon_u7_mask(neon_u7_outside(&s, x.v, hi, s.b64)) | ~0xFFFFu;
        full = t.in_run && x.nondigit == ~0xFFFFu ? full + 1 : 0;
        if (full >= 3 && t.paired && !t.carry &&
            neon_u7_long_run(&s, src, n, &t.i, out, width, cap, &t.w))
            continue; /* a run of pairs' third window of digits on: the base64 kernel's */
        /* a window of a run's digits needs neither "-" nor "+" */
        uint32_t plus = neon_u7_marks(&s, &x, hi, !imap && !(t.in_run && x.nondigit == ~0xFFFFu));
        unsigned at = neon_u7_window_runs(&s, &x, plus, 0, out, width, &t);
        if (at == NEON_U7_REFUSED) {
            k = neon_u7_refused(&s, src, n, t.run_at, out, width, cap, &t.w);
            if (k == 0) /* a run it refuses too, or longer than the slice: to the end */
                goto done;
            t.i += k;
            t.in_run = 0;
            t.carry = 0;
            continue; /* t.i is past what the scalar reference took */
        }
        t.i += at;
        if (!t.in_run && at < 16)
            break; /* a byte to stop at */
    }
    if (t.in_run && n - t.i < 16 && (!width || cap - t.w >= 32) &&
        (at_end = neon_u7_run_tail(&s, src + t.i, n - t.i, t.i == t.run_at + 1, out, width, &t)) < 16)
        t.i += at_end, t.in_run = 0; /* the run ended well in the last bytes */
    if (t.in_run) { /* back to the "+" of a run not taken whole */
        t.i = t.run_at;
        t.w = t.run_w;
    }
done:
    k = utfdfa__scalar_utf7_text(imap, src + t.i, n - t.i, width ? out + t.w * width : NULL, width,
                                 width ? cap - t.w : 0, &got);
    *written = t.w + got;
    return t.i + k;
}

#else
typedef int utfdfa__no_neon_utf7_here; /* ISO C wants a declaration in every unit */
#endif
