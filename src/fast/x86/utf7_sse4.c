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

struct sse4_u7 {
    __m128i direct, b64, roll, fix, high_bits, nibble;
};

SSE4_INLINE struct sse4_u7 sse4_u7_tables(int imap)
{
    const uint8_t(*t)[16] = utf7_simd[imap != 0];
    struct sse4_u7 s;
    s.direct = _mm_loadu_si128((const __m128i *)(const void *)t[UTF7_SIMD_DIRECT]);
    s.b64 = _mm_loadu_si128((const __m128i *)(const void *)t[UTF7_SIMD_B64]);
    s.roll = _mm_loadu_si128((const __m128i *)(const void *)t[UTF7_SIMD_ROLL]);
    s.fix = _mm_loadu_si128((const __m128i *)(const void *)t[UTF7_SIMD_FIX]);
    s.high_bits = _mm_setr_epi8(U7_HIGH_BITS);
    s.nibble = _mm_set1_epi8(0x0F);
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

/* The 16-bit lanes of u that are surrogates: 0xFFFF each. */
SSE4_INLINE __m128i sse4_surrogates(__m128i u)
{
    return _mm_cmpeq_epi16(_mm_and_si128(u, _mm_set1_epi16((short)0xF800)),
                           _mm_set1_epi16((short)0xD800));
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
            /* Three pairs: (high - 0xD800) << 10 + low - 0xDC00 + 0x10000, from the signed
             * products (high - 0x10000) * 0x400 + (low - 0x10000) of one multiply-add. */
            __m128i cp = _mm_add_epi32(_mm_madd_epi16(u, _mm_set1_epi32(0x00010400)),
                                       _mm_set1_epi32(0xA12400));
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

/* The digits of a run from the window's byte at (`fresh`: the first of
 * the run): their units at out (*w advanced) when the run ends inside the
 * window. Returns where the next byte is; U7_GOES_ON when the run goes on
 * past the window (having taken 16 digits, six units, when at is 0, else
 * nothing); U7_REFUSED when the run is not to be taken. */
#define U7_GOES_ON 32
#define U7_REFUSED 33
SSE4_INLINE unsigned sse4_digits(const struct sse4_window *x, unsigned at, int fresh,
                                 uint8_t *out, unsigned width, size_t *w)
{
    const __m128i iota = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    unsigned len = (unsigned)__builtin_ctz(x->nondigit >> at), end = at + len;
    unsigned nu = 6 * len >> 4, lanes = (1u << 2 * nu) - 1; /* movemask bits of whole units */
    if (end == 16 && at != 0)
        return U7_GOES_ON; /* the next window begins at this run's digit */
    __m128i val = _mm_shuffle_epi8(x->val, _mm_add_epi8(iota, _mm_set1_epi8((char)at)));
    __m128i u = sse4_b64_units(_mm_and_si128(val, _mm_cmpgt_epi8(_mm_set1_epi8((char)len), iota)));
    unsigned zero = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi16(u, _mm_setzero_si128()));
    /* Fewer than 8 bits over (len % 8 is 0, 1, 3 or 6), all zero: the unit after them is 0;
     * the run ends at its "-" or a direct character; "+" alone is "+-". */
    if (((unsigned)_mm_movemask_epi8(sse4_surrogates(u)) & lanes) ||
        (end < 16 && ((6 * len & 15) >= 8 || (~zero & ~lanes & 0xFFFF) ||
                      (x->other >> end & 1) || (fresh && len == 0 && !(x->dash >> end & 1)))))
        return U7_REFUSED;
    if (fresh && len == 0) { /* "+-" is "+" */
        u = _mm_cvtsi32_si128('+');
        nu = 1;
    }
    if (width)
        sse4_put_units(out + *w * width, width, u);
    *w += width ? nu : 0;
    return end < 16 ? end + (x->dash >> end & 1) : U7_GOES_ON;
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
    int in_run = 0;
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
        x.val = sse4_b64_values(&s, x.v, hi);
        x.dash = 0;
        uint32_t plus = 0; /* a window of a run's digits needs neither */
        if (!imap && !(in_run && x.nondigit == ~0xFFFFu)) {
            x.dash = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x.v, _mm_set1_epi8('-')));
            plus = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x.v, _mm_set1_epi8('+')));
        }
        unsigned at = 0, next;
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
            }
            next = sse4_digits(&x, at, i + at == run_at + 1, out, width, &w);
            if (next == U7_REFUSED) { /* the scalar reference stops at its "+" too */
                i = n = run_at;
                w = run_w;
                goto done;
            }
            in_run = next == U7_GOES_ON;
            if (in_run) {
                at = at ? at : 16;
                break;
            }
            at = next;
        }
        i += at;
        if (!in_run && at < 16)
            break; /* a byte to stop at */
    }
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
