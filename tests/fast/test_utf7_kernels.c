/* SPDX-License-Identifier: MIT */
/* The UTF-7 kernels (src/fast/kernels.h: utfdfa__utf7_b64, utfdfa__utf7_text)
 * at every level this CPU runs, forced in turn, against an oracle written
 * here from RFC 2152 and RFC 3501 alone (its own alphabets and sets):
 * every length 0..200, every alignment 0..31, units that put surrogate
 * pairs across groups and inside them, lone surrogates, (IMAP) printing
 * ASCII units, a byte outside the alphabet at every position, every output
 * room, the three output widths; nothing past what is reported written
 * (utfdfa__utf7_text: nothing at or past the room). utfdfa__utf7_text by brute
 * force: every run length 0..40 at every offset in a 16-byte window, every
 * pattern of the bits left over, every terminator, every cut of the input. */
#include "check.h"
#include "levels.h"
#include "fast/kernels.h"
#include "rng.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char b64_utf7[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
static const char b64_imap[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+,";

static struct test_rng rng = {0x9E3779B97F4A7C15u};

static int digit_of(int imap, uint8_t b)
{
    const char *p = b ? strchr(imap ? b64_imap : b64_utf7, b) : NULL;
    return p ? (int)(p - (imap ? b64_imap : b64_utf7)) : -1;
}

/* RFC 2152 Set D, Set O, SP TAB CR LF; RFC 3501: 0x20-0x7E but "&". */
static int direct_of(int imap, uint8_t b)
{
    if (imap)
        return b >= 0x20 && b <= 0x7E && b != '&';
    return (b < 0x80 && strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
                               "'(),-./:?!\"#$%&*;<=>@[]^_`{|} \t\r\n", b) && b) != 0;
}

static int group(int imap, const uint8_t *p, uint32_t *u)
{
    uint64_t v = 0;
    for (int k = 0; k < 8; k++) {
        int d = digit_of(imap, p[k]);
        if (d < 0)
            return 0;
        v = v << 6 | (uint64_t)d;
    }
    u[0] = (uint32_t)(v >> 32) & 0xFFFF, u[1] = (uint32_t)(v >> 16) & 0xFFFF, u[2] = v & 0xFFFF;
    return 1;
}

/* The contract of utfdfa__utf7_b64, one group (or a pair of groups) at a time. */
static size_t oracle_b64(int imap, const uint8_t *s, size_t n, uint8_t *dst, unsigned width,
                         size_t cap, size_t *written)
{
    size_t i = 0, w = 0;
    while (n - i >= 8) {
        uint32_t u[6], cps[6];
        int nu = 3, m = 0, ok = group(imap, s + i, u);
        if (ok && u[2] >= 0xD800 && u[2] <= 0xDBFF) {
            ok = n - i >= 16 && group(imap, s + i + 8, u + 3) && !(u[5] >= 0xD800 && u[5] <= 0xDBFF);
            nu = 6;
        }
        for (int k = 0; ok && k < nu; k++) {
            int high = u[k] >= 0xD800 && u[k] <= 0xDBFF;
            if (high && k + 1 < nu && u[k + 1] >= 0xDC00 && u[k + 1] <= 0xDFFF) {
                cps[m++] = 0x10000 + ((u[k] - 0xD800) << 10) + (u[k + 1] - 0xDC00);
                k++;
            } else if ((u[k] >= 0xD800 && u[k] <= 0xDFFF) || (imap && u[k] >= 0x20 && u[k] <= 0x7E)) {
                ok = 0;
            } else {
                cps[m++] = u[k];
            }
        }
        size_t need = 0;
        for (int k = 0; k < m; k++)
            need += width == 2 && cps[k] > 0xFFFF ? 2 : width ? 1 : 0;
        if (!ok || (width && cap - w < need))
            break;
        for (int k = 0; k < m && width; k++) {
            if (width == 4) {
                memcpy(dst + 4 * w++, &cps[k], 4);
                continue;
            }
            uint16_t x[2] = {(uint16_t)cps[k], 0};
            if (cps[k] > 0xFFFF)
                x[0] = (uint16_t)(0xD800 + ((cps[k] - 0x10000) >> 10)),
                x[1] = (uint16_t)(0xDC00 + (cps[k] & 0x3FF));
            memcpy(dst + 2 * w, x, cps[k] > 0xFFFF ? 4 : 2);
            w += cps[k] > 0xFFFF ? 2 : 1;
        }
        i += nu == 6 ? 16 : 8;
    }
    *written = w;
    return i;
}

/* Units as base64, 3 a group (the last group padded with random units). */
static size_t encode_units(int imap, const uint16_t *u, size_t nu, uint8_t *out)
{
    size_t len = 0;
    for (size_t g = 0; g < nu; g += 3) {
        uint64_t v = 0;
        for (size_t k = 0; k < 3; k++)
            v = v << 16 | (g + k < nu ? u[g + k] : test_rng_below(&rng, 0x8000) | 0x100);
        for (int k = 7; k >= 0; k--)
            out[len++] = (uint8_t)(imap ? b64_imap : b64_utf7)[v >> (6 * k) & 63];
    }
    return len;
}

static uint16_t random_unit(int imap)
{
    switch (test_rng_below(&rng, 8)) {
    case 0: return (uint16_t)(0xD800 + test_rng_below(&rng, 0x400)); /* high */
    case 1: return (uint16_t)(0xDC00 + test_rng_below(&rng, 0x400)); /* low */
    case 2: return (uint16_t)(imap ? 0x20 + test_rng_below(&rng, 0x5F)
                                   : test_rng_below(&rng, 0x80));
    default: return (uint16_t)(0x80 + test_rng_below(&rng, 0xD700));
    }
}

enum { MAXN = 232, TEXT_MAXN = 1200, SENTINEL = 0xA5 };

static void compare_b64(const char *level, int imap, const uint8_t *s, size_t n)
{
    static uint8_t got[4 * MAXN + 64], want[4 * MAXN + 64];
    for (unsigned width = 0; width <= 4; width += 2) {
        size_t caps[] = {0, 1, 2, 3, 5, 6, 7, 11, 12, 13, MAXN};
        for (size_t c = 0; c < sizeof caps / sizeof caps[0]; c++) {
            size_t gw = 0, ww = 0, cap = width ? caps[c] : SIZE_MAX;
            memset(got, SENTINEL, sizeof got);
            memset(want, SENTINEL, sizeof want);
            size_t gk = utfdfa__utf7_b64(imap, s, n, width ? got : NULL, width, cap, &gw);
            size_t wk = oracle_b64(imap, s, n, want, width, cap, &ww);
            CHECK(gk == wk && gw == ww && !memcmp(got, want, sizeof got),
                  "%s imap=%d b64 n=%zu width=%u cap=%zu: read %zu/%zu, wrote %zu/%zu", level,
                  imap, n, width, caps[c], gk, wk, gw, ww);
            if (!width)
                break;
        }
    }
}

static void test_b64(const char *level, int imap)
{
    static uint8_t buf[MAXN + 64];
    uint16_t u[MAXN];
    for (int t = 0; t < 400; t++) {
        size_t nu = test_rng_below(&rng, 76), len;
        /* 0: clean BMP, 1: pairs everywhere, 2: anything, 3: clean + a bad byte, 4: pairs only
         * (three a 16-digit step), now and then a BMP unit between */
        int mode = t % 5;
        for (size_t k = 0; k < nu; k++) {
            u[k] = mode == 2 ? random_unit(imap) : (uint16_t)(0x100 + test_rng_below(&rng, 0xD000));
            if ((mode == 1 || mode == 4) && k + 1 < nu &&
                test_rng_below(&rng, mode == 4 ? 16 : 2)) {
                u[k] = (uint16_t)(0xD800 + test_rng_below(&rng, 0x400));
                u[++k] = (uint16_t)(0xDC00 + test_rng_below(&rng, 0x400));
            }
        }
        size_t align = (size_t)t % 32;
        len = encode_units(imap, u, nu, buf + align);
        buf[align + len] = '-';
        for (size_t n = len > 24 ? len - 24 : 0; n <= len + 1; n++)
            compare_b64(level, imap, buf + align, n);
        if (mode == 3 && len)
            for (size_t at = 0; at < len; at++) {
                uint8_t keep = buf[align + at];
                static const uint8_t bad[] = {'-', '.', '=', 0x80, 0xFF, 0, '/', ','};
                buf[align + at] = bad[test_rng_below(&rng, sizeof bad)];
                compare_b64(level, imap, buf + align, len);
                buf[align + at] = keep;
            }
    }
}

/* IMAP's text (direct characters only); UTF-7's, mostly direct, through compare_text. */
static void compare_text(const char *level, const uint8_t *s, size_t n);
static void test_direct(const char *level, int imap)
{
    static uint8_t s[MAXN + 32], got[4 * MAXN], want[4 * MAXN];
    for (int t = 0; t < 2000; t++) {
        size_t n = test_rng_below(&rng, MAXN), align = (size_t)t % 32;
        for (size_t k = 0; k < n; k++) { /* mostly direct, now and then any byte */
            uint8_t b;
            do
                b = test_rng_byte(&rng);
            while (test_rng_below(&rng, 64) && !direct_of(imap, b));
            s[align + k] = b;
        }
        if (!imap) {
            compare_text(level, s + align, n);
            continue;
        }
        for (unsigned width = 0; width <= 4; width += 2) {
            size_t cap = width ? test_rng_below(&rng, n + 2) : SIZE_MAX, m = 0;
            memset(got, SENTINEL, sizeof got);
            memset(want, SENTINEL, sizeof want);
            while (m < n && m < cap && direct_of(imap, s[align + m])) {
                if (width == 4)
                    memcpy(want + 4 * m, &(uint32_t){s[align + m]}, 4);
                if (width == 2)
                    memcpy(want + 2 * m, &(uint16_t){s[align + m]}, 2);
                m++;
            }
            size_t gw = 0, k = utfdfa__utf7_text(imap, s + align, n, width ? got : NULL, width,
                                                 cap, &gw);
            int past = 0; /* nothing at or past the room */
            for (size_t b = width ? width * cap : 0; width && b < sizeof got; b++)
                past |= got[b] != SENTINEL;
            CHECK(k == m && gw == (width ? m : 0) && !memcmp(got, want, width * m) && !past,
                  "%s imap=%d direct n=%zu width=%u cap=%zu: %zu, want %zu", level, imap, n, width,
                  cap, k, m);
        }
    }
}

/* The contract of utfdfa__utf7_text (UTF-7 only), from RFC 2152 Rule 2. */
static size_t oracle_text(const uint8_t *s, size_t n, uint8_t *dst, unsigned width, size_t cap,
                          size_t *written)
{
    size_t i = 0, w = 0;
    while (i < n) {
        uint32_t units[TEXT_MAXN];
        size_t nu = 0, j = i + 1;
        if (direct_of(0, s[i]) || (s[i] == '+' && i + 1 < n && s[i + 1] == '-')) {
            units[nu++] = s[i] == '+' ? '+' : s[i];
            j = i + (s[i] == '+' ? 2 : 1);
        } else {
            uint64_t acc = 0;
            unsigned bits = 0, bad = 0;
            for (; j < n && digit_of(0, s[j]) >= 0; j++) {
                acc = acc << 6 | (uint64_t)digit_of(0, s[j]);
                if ((bits += 6) >= 16) {
                    bits -= 16;
                    units[nu++] = (uint32_t)(acc >> bits) & 0xFFFF;
                    acc &= (1u << bits) - 1;
                }
            }
            /* UTF-16: a high surrogate and a low one are a pair, one code point (to
             * UTF-16, its two units); any other surrogate is lone */
            size_t m = 0;
            for (size_t k = 0; k < nu; k++) {
                int high = units[k] >= 0xD800 && units[k] <= 0xDBFF;
                if (high && k + 1 < nu && units[k + 1] >= 0xDC00 && units[k + 1] <= 0xDFFF) {
                    uint32_t cp = 0x10000 + ((units[k] - 0xD800) << 10) + (units[k + 1] - 0xDC00);
                    if (width == 4)
                        units[m++] = cp;
                    else
                        units[m++] = units[k], units[m++] = units[k + 1];
                    k++;
                } else {
                    bad |= units[k] >= 0xD800 && units[k] <= 0xDFFF;
                    units[m++] = units[k];
                }
            }
            nu = m;
            /* "+" and digits; fewer than 8 bits over, zero; then "-" (taken) or a direct one */
            if (s[i] != '+' || j == i + 1 || j == n || bad || bits >= 8 || acc ||
                !direct_of(0, s[j]))
                break;
            j += s[j] == '-';
        }
        if (width && cap - w < nu)
            break;
        for (size_t k = 0; k < nu && width; k++, w++)
            memcpy(dst + width * w, width == 4 ? (const void *)&units[k] : &(uint16_t){(uint16_t)units[k]}, width);
        i = j;
    }
    *written = w;
    return i;
}

/* The text is copied to a buffer of exactly n bytes, so that under ASan a read past
 * the end traps. */
static void compare_text(const char *level, const uint8_t *text, size_t n)
{
    static uint8_t got[4 * TEXT_MAXN + 64], want[4 * TEXT_MAXN + 64];
    uint8_t *s = malloc(n ? n : 1);
    if (!s)
        abort();
    memcpy(s, text, n);
    for (unsigned width = 0; width <= 4; width += 2) {
        size_t caps[] = {0, 1, 5, 16, 31, 33, 40, MAXN, TEXT_MAXN}, need = 0;
        oracle_text(s, n, NULL, 0, 0, &need);
        for (size_t c = 0; c < sizeof caps / sizeof caps[0] + 2; c++) {
            size_t gw = 0, ww = 0, cap = !width ? SIZE_MAX
                                       : c < sizeof caps / sizeof caps[0] ? caps[c]
                                                                          : n - (c % 2) - need % 3;
            cap = width && cap > TEXT_MAXN ? TEXT_MAXN : cap;
            memset(got, SENTINEL, sizeof got);
            size_t gk = utfdfa__utf7_text(0, s, n, width ? got : NULL, width, cap, &gw);
            size_t wk = oracle_text(s, n, want, width, cap, &ww);
            int past = 0; /* nothing at or past the room */
            for (size_t b = width ? width * cap : 0; width && b < sizeof got; b++)
                past |= got[b] != SENTINEL;
            CHECK(gk == wk && gw == ww && !memcmp(got, want, width * ww) && !past,
                  "%s text n=%zu width=%u cap=%zu: read %zu/%zu, wrote %zu/%zu%s", level, n, width,
                  cap, gk, wk, gw, ww, past ? ", past the room" : "");
            if (!width)
                break;
        }
    }
    free(s);
}

/* A run of len digits whose units are random: BMP, and when `sur` is 1 now and
 * then any surrogate (mostly lone), when 2 now and then a pair (a high one, its
 * low one; lone only where the run ends after the high one), 3 pairs only
 * after one BMP unit, 4 pairs only; its leftover bits `over` (masked to what
 * is left over). */
static size_t make_run(uint8_t *p, size_t len, int sur, uint32_t over)
{
    uint64_t acc = 0;
    unsigned bits = 0;
    size_t k = 0;
    uint32_t low = 0; /* the low surrogate due next */
    for (size_t done = 0; done < 6 * len;) {
        uint32_t u = 0x100 + test_rng_below(&rng, 0xD000);
        if (low)
            u = low, low = 0;
        else if (sur == 1 && test_rng_below(&rng, 4) == 0)
            u = 0xD800 + test_rng_below(&rng, 0x800);
        else if ((sur == 2 && test_rng_below(&rng, 3) == 0) || (sur == 3 && done) || sur == 4)
            u = 0xD800 + test_rng_below(&rng, 0x400), low = 0xDC00 + test_rng_below(&rng, 0x400);
        size_t take = 6 * len - done < 16 ? 6 * len - done : 16;
        if (take < 16) /* the bits over: the top `take` bits of `over` */
            u = (over & ((1u << take) - 1)) << (16 - take);
        acc = acc << take | (u >> (16 - take));
        bits += (unsigned)take;
        done += take;
        for (; bits >= 6; bits -= 6)
            p[k++] = (uint8_t)b64_utf7[acc >> (bits - 6) & 63];
    }
    return k;
}

/* Bytes that end a run: well, badly, or not at all. */
static const uint8_t ends[] = {'-', ' ', '.', '!', '\n', '~', '\\', '+', 0x80, 0, '&', '?'};

static void test_text(const char *level)
{
    static uint8_t buf[MAXN + 64];
    for (size_t len = 0; len <= 40; len++) {
        unsigned over_bits = 6 * len % 16;
        for (uint32_t over = 0; over < (1u << over_bits) && over < 64; over++) {
            size_t at = (len * 7 + over) % 17, k = 0, e = over % sizeof ends;
            for (; k < at; k++) /* direct text before, so the run starts anywhere in a window */
                buf[k] = (uint8_t)"Ab, 1-x.?(!"[test_rng_below(&rng, 11)];
            buf[k++] = '+';
            k += make_run(buf + k, len, (int)((len + over) % 3), over);
            buf[k++] = ends[e];
            k += (size_t)snprintf((char *)buf + k, 40, " +BD4EOw- xy +AGEAYgBj. z+-") ;
            for (size_t n = 0; n <= k; n++) /* every cut */
                compare_text(level, buf, n);
            if (len % 8 == 0 || len % 8 == 3 || len % 8 == 6 || (len % 8 == 1 && over == 0))
                for (size_t t = 0; t < 256; t += 1 + 12 * (t % 5 != 0)) { /* terminators */
                    buf[at + 1 + len] = (uint8_t)t;
                    compare_text(level, buf, k);
                }
        }
    }
}

/* Runs longer than the SIMD kernel's slice for the scalar reference, with
 * surrogate pairs that cross its windows: the run goes whole, or (a lone
 * surrogate put in) it stops at its "+". */
static void test_long_runs(const char *level)
{
    static uint8_t buf[TEXT_MAXN];
    static const size_t lens[] = {41, 64, 200, 333, 400, 560, 1000};
    for (size_t t = 0; t < 9 * sizeof lens / sizeof lens[0]; t++) {
        size_t len = lens[t / 9], k = t % 17;
        memcpy(buf, "Ab, 1-x.?(!Ab, 1-x.?(!", k);
        buf[k++] = '+';
        size_t run = k;
        k += make_run(buf + k, len, 2 + (int)(t / 3 % 3), 0);
        if (t % 3 == 2) { /* a lone high surrogate: three digits of 0xD800 in place */
            size_t at = run + (len * 16 / 6 / 2) / 8 * 8 % (len - len % 8 + 1);
            memcpy(buf + at, "2AA", 3);
        }
        buf[k++] = t % 2 ? '-' : ' ';
        k += (size_t)snprintf((char *)buf + k, 16, "z +AGE- ab");
        for (size_t n = k - 12; n <= k; n++)
            compare_text(level, buf, n);
    }
}

/* Prose: words (runs of 0-100 digits: BMP units; in some texts now and
 * then a pair or a lone surrogate, or bits over that are not zero) between
 * 1-3 direct characters, the first at every offset of a 64-byte window (the
 * AVX2 kernel's), runs of 32 digits and more among them, every kind of
 * terminator now and then; each text cut at 24 points near its end. */
static void test_words(const char *level)
{
    static uint8_t buf[TEXT_MAXN];
    for (int t = 0; t < 192; t++) {
        size_t k = (size_t)t % 64;
        for (size_t j = 0; j < k; j++)
            buf[j] = (uint8_t)"Ab, 1-x.?(!"[test_rng_below(&rng, 11)];
        while (k < TEXT_MAXN - 130) {
            /* mostly lengths that may end well: 8k + 0, 1, 3 or 6 */
            size_t len = 8 * test_rng_below(&rng, 13) + (size_t)"\0\1\3\6"[test_rng_below(&rng, 4)];
            len = test_rng_below(&rng, 8) ? len : test_rng_below(&rng, 101);
            uint32_t over = t % 9 == 0 && test_rng_below(&rng, 4) == 0 ? test_rng_u32(&rng) : 0;
            buf[k++] = '+';
            k += make_run(buf + k, len, t % 4 == 0 ? 2 : t % 8 == 1 ? 1 : 0, over);
            buf[k++] = test_rng_below(&rng, 16) ? (uint8_t)" -"[test_rng_below(&rng, 2)]
                                                : ends[test_rng_below(&rng, sizeof ends)];
            for (size_t j = test_rng_below(&rng, 3); j; j--)
                buf[k++] = (uint8_t)"Ab, 1-x.?(!"[test_rng_below(&rng, 11)];
        }
        for (size_t c = 0; c < 24; c++)
            compare_text(level, buf, k - test_rng_below(&rng, 130));
    }
}

int main(void)
{
    for (size_t l = 0; l < fast_level_count; l++) {
        const char *const *levels = fast_level_names;
        if (!utfdfa__fast_force(levels[l])) {
            printf("test_utf7_kernels: level %s not on this CPU or build: skipped\n", levels[l]);
            continue;
        }
        for (int imap = 0; imap < 2; imap++) {
            test_b64(levels[l], imap);
            test_direct(levels[l], imap);
        }
        test_text(levels[l]);
        test_long_runs(levels[l]);
        test_words(levels[l]);
    }
    utfdfa__fast_force("auto");
    return check_summary("test_utf7_kernels");
}
