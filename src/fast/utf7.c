/* SPDX-License-Identifier: MIT */
/* The UTF-7 kernels' scalar reference (kernels.h): one group of 8 base64
 * digits at a time, the direct characters and the digits by the SIMD
 * kernels' rows (utf7_simd, from the grammar's `direct` and `b64` rules: a
 * byte's set bit, a digit's value), and the text between
 * (utfdfa__utf7_text: whole short runs). The SIMD levels (utf7_loop.h over
 * x86/utf7_sse4.c and arm64/utf7_neon.c, x86/utf7_avx2.c) finish with these and hand them
 * whatever is unusual. The oracle they are all tested against is written
 * from the RFCs in tests/fast/test_utf7_kernels.c. */
#include "levels.h"
#include "encodings.gen.h"
#include "utf7.gen.h"
#include "utf7-imap.gen.h"

_Static_assert(UTF7_DIGIT_BITS == 6 && UTF7_IMAP_DIGIT_BITS == 6, "base64: 6 bits a digit");

const uint8_t (*const utfdfa__utf7_simd)[4][16] = utf7_simd;

/* Whether byte b is in the set of row (utf7_simd's nibble bits). */
KERN_INLINE int u7k_in(const uint8_t *row, uint8_t b)
{
    return b < 0x80 && (row[b & 15] >> (b >> 4) & 1);
}

/* The value of byte b as a base64 digit of the SIMD kernels' rows t, or
 * 0xFF: b + roll[(b >> 4) - (b == fix)] (one copy of the alphabet's facts
 * in the library, not two). */
KERN_INLINE uint8_t u7k_digit(const uint8_t (*t)[16], uint8_t b)
{
    if (!u7k_in(t[UTF7_SIMD_B64], b))
        return 0xFF;
    return (uint8_t)(b + t[UTF7_SIMD_ROLL][(b >> 4) - (b == t[UTF7_SIMD_FIX][0])]);
}

/* The 8 digits at p as three 16-bit units (RFC 2152: big-endian bits);
 * false when one is not a digit. */
KERN_INLINE int u7k_group(const uint8_t (*t)[16], const uint8_t *p, uint32_t *u)
{
    uint64_t bits = 0;
    for (int k = 0; k < 8; k++) {
        uint8_t v = u7k_digit(t, p[k]);
        if (v == 0xFF)
            return 0;
        bits = bits << 6 | v;
    }
    u[0] = (uint32_t)(bits >> 32) & 0xFFFF;
    u[1] = (uint32_t)(bits >> 16) & 0xFFFF;
    u[2] = (uint32_t)bits & 0xFFFF;
    return 1;
}

KERN_INLINE int u7k_high(uint32_t u)
{
    return u >= 0xD800 && u <= 0xDBFF;
}

KERN_INLINE int u7k_low(uint32_t u)
{
    return u >= 0xDC00 && u <= 0xDFFF;
}

/* Units u[0..nu) as code points at cp: their count, or 0 for a lone
 * surrogate or (imap) a printing US-ASCII unit. */
KERN_INLINE size_t u7k_pair_up(int imap, const uint32_t *u, int nu, uint32_t *cp)
{
    size_t m = 0;
    for (int k = 0; k < nu; k++) {
        if (u7k_high(u[k]) && k + 1 < nu && u7k_low(u[k + 1])) {
            cp[m++] = 0x10000 + ((u[k] - 0xD800) << 10) + (u[k + 1] - 0xDC00);
            k++;
        } else if (u7k_high(u[k]) || u7k_low(u[k]) || (imap && u[k] >= 0x20 && u[k] <= 0x7E)) {
            return 0;
        } else {
            cp[m++] = u[k];
        }
    }
    return m;
}

/* Writes the code points cp[0..m) at dst + w (units of `width`); the units written. */
KERN_INLINE size_t u7k_put(void *dst, unsigned width, size_t w, const uint32_t *cp, size_t m)
{
    size_t k = 0;
    for (size_t j = 0; j < m; j++) {
        if (width == 4) {
            kern_put_cp(dst, w + k++, cp[j]);
        } else if (width == 2) {
            uint16_t units[2] = {(uint16_t)cp[j], 0};
            size_t nu = 1;
            if (cp[j] >= 0x10000) {
                units[0] = (uint16_t)(0xD800 | (cp[j] - 0x10000) >> 10);
                units[1] = (uint16_t)(0xDC00 | (cp[j] & 0x3FF));
                nu = 2;
            }
            memcpy((uint8_t *)dst + (w + k) * 2, units, nu * 2);
            k += nu;
        }
    }
    return k;
}

KERN_INLINE size_t u7k_units(unsigned width, const uint32_t *cp, size_t m)
{
    size_t k = 0;
    for (size_t j = 0; j < m; j++)
        k += width == 2 && cp[j] >= 0x10000 ? 2 : width ? 1 : 0;
    return k;
}

size_t utfdfa__scalar_utf7_b64(int imap, const uint8_t *src, size_t n, void *dst,
                               unsigned width, size_t cap, size_t *written)
{
    const uint8_t(*digit)[16] = utf7_simd[imap != 0];
    size_t i = 0, w = 0;
    while (n - i >= 8) {
        uint32_t u[6], cp[6];
        size_t len = 8;
        int nu = 3;
        if (!u7k_group(digit, src + i, u))
            break;
        if (u7k_high(u[2])) { /* its low surrogate begins the next group */
            if (n - i < 16 || !u7k_group(digit, src + i + 8, u + 3) || u7k_high(u[5]))
                break;
            len = 16;
            nu = 6;
        }
        size_t m = u7k_pair_up(imap, u, nu, cp);
        if (m == 0 || (width && cap - w < u7k_units(width, cp, m)))
            break;
        w += u7k_put(dst, width, w, cp, m);
        i += len;
    }
    *written = w;
    return i;
}

/* Writes code point cp (to UTF-16: below 0x10000) as unit *w of dst (width 4 or 2;
 * 0: nothing) when there is room. */
KERN_INLINE int u7k_emit(void *dst, unsigned width, size_t cap, size_t *w, uint32_t cp)
{
    if (width && *w == cap)
        return 0;
    if (width == 4)
        kern_put_cp(dst, *w, cp);
    else if (width == 2)
        memcpy((uint8_t *)dst + *w * 2, &(uint16_t){(uint16_t)cp}, 2);
    *w += width != 0;
    return 1;
}

/* One byte at a time, one place that writes: a direct character, a unit of
 * a run or a code point of a surrogate pair in it (taken only when the run
 * ends well: RFC 2152, fewer than 8 bits over, all zero, then "-", which it
 * takes, or a direct character; a lone surrogate stops it) or the "+" of
 * "+-". */
size_t utfdfa__scalar_utf7_text(int imap, const uint8_t *src, size_t n, void *dst,
                                unsigned width, size_t cap, size_t *written)
{
    const uint8_t(*t)[16] = utf7_simd[0], *direct = utf7_simd[imap != 0][UTF7_SIMD_DIRECT];
    size_t taken = 0, w = 0, run_at = 0, run_w = 0, j;
    uint32_t acc = 0, cp, high = 0; /* high: a high surrogate waiting for its low one */
    unsigned bits = 0;
    int in_run = 0;
    for (j = 0; j < n; j++) {
        cp = src[j];
        if (in_run && u7k_digit(t, (uint8_t)cp) != 0xFF) {
            acc = acc << 6 | u7k_digit(t, (uint8_t)cp);
            if ((bits += 6) < 16)
                continue;
            cp = acc >> (bits -= 16);
            acc &= (1u << bits) - 1;
            if (u7k_low(cp) != (high != 0))
                break; /* a low one without its high one, or a high one without its low */
            if (u7k_high(cp)) {
                high = cp;
                continue;
            }
            if (high && width == 2) { /* the pair as its two units */
                if (!u7k_emit(dst, width, cap, &w, high))
                    break;
            } else if (high) {
                cp = 0x10000 + ((high - 0xD800) << 10) + (cp - 0xDC00);
            }
            high = 0;
        } else if (in_run) { /* the run ends here */
            if (high || bits >= 8 || acc != 0 || !u7k_in(direct, (uint8_t)cp) ||
                (j == run_at + 1 && cp != '-'))
                break;
            in_run = 0;
            if (j == run_at + 1) { /* "+-" is "+" */
                cp = '+';
            } else if (cp == '-') {
                taken = j + 1;
                continue;
            } else {
                taken = j; /* the run, then its direct character */
            }
        } else if (cp == '+' && !imap) {
            in_run = 1;
            run_at = j;
            run_w = w;
            acc = bits = 0;
            continue;
        } else if (!u7k_in(direct, (uint8_t)cp)) {
            break;
        }
        if (!u7k_emit(dst, width, cap, &w, cp))
            break;
        taken = in_run ? taken : j + 1;
    }
    if (in_run) /* a run not taken whole */
        w = run_w;
    *written = w;
    return in_run ? run_at : taken;
}
