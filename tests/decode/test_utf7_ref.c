/* SPDX-License-Identifier: MIT */
/* The library's UTF-7 against the independent reference (tests/ref/ref_utf7.c,
 * written from RFC 2152 without seeing src/): replace-mode output and every
 * error (offset, length, kind), strict first errors, and the encoder's bytes.
 *   - every string of up to 2 bytes (all 256 byte values);
 *   - every string of up to 5 bytes over 20 bytes that reach every class
 *     and digit residue of the UTF-7 table;
 *   - 200,000 random strings of up to 40 bytes (fixed seed);
 *   - 30,000 texts of up to 64 bytes made like words of a script (direct
 *     text, short runs of every length with any bits left over, every kind
 *     of end), each also cut in two at every point (streaming);
 *   - the encoder on 20,000 random texts, with and without Set O direct.
 * Last line: "test_utf7_ref: N passed, M failed".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common.h"
#include "ref_utf7_kinds.h"
#include "rng.h"
#include "utfdfa.h"

static void report(const char *what, const uint8_t *s, size_t n)
{
    fail("%s on %s", what, hex(s, n));
}

enum { MAXLEN = 64, MAXERR = 64 };

/* The library in strict mode resumed after each error, writing U+FFFD at
 * each: the same as replace mode, with the errors seen. */
static size_t lib_decode(const uint8_t *s, size_t n, size_t cut, uint32_t *out,
                         utfdfa_error *errs, size_t *nerr)
{
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, UTFDFA_UTF7, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    size_t at = 0, o = 0;
    *nerr = 0;
    for (;;) { /* s[0..cut) first (not last), then the rest */
        size_t end = at < cut ? cut : n, src = end - at, dst = MAXLEN + 1 - o;
        utfdfa_error e;
        utfdfa_result r =
            utfdfa_decode_utf32(&d, s + at, &src, out + o, &dst, end == n, &e);
        at += src;
        o += dst;
        if (r == UTFDFA_INPUT_EMPTY && end != n && at == cut)
            continue;
        if (r != UTFDFA_MALFORMED)
            return o;
        if (*nerr < MAXERR)
            errs[(*nerr)++] = e;
        out[o++] = 0xFFFD;
    }
}

static void compare_cut(const uint8_t *s, size_t n, size_t cut)
{
    uint32_t want[MAXLEN + 1], got[2 * MAXLEN + 2];
    struct ref7_error rerr[MAXERR];
    utfdfa_error lerr[MAXERR];
    size_t rn_err = 0, ln_err = 0;
    size_t rn = ref7_decode_replace(s, n, want, &rn_err, rerr, MAXERR);
    size_t ln = lib_decode(s, n, cut, got, lerr, &ln_err);
    bool ok = rn == ln && rn_err == ln_err && !memcmp(want, got, rn * sizeof want[0]);
    for (size_t k = 0; ok && k < rn_err && k < MAXERR; k++)
        ok = rerr[k].offset == lerr[k].offset && rerr[k].length == lerr[k].length &&
             ref7_library_kind(rerr[k].kind) == lerr[k].kind;
    if (!ok) {
        report("replace output or errors differ", s, n);
        return;
    }
    /* The replacing decoder of the library itself: the same code points. */
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, UTFDFA_UTF7, UTFDFA_REPLACE, UTFDFA_BOM_KEEP);
    size_t src = n, dst = MAXLEN + 1;
    utfdfa_decode_utf32(&d, s, &src, got, &dst, true, NULL);
    if (dst != rn || memcmp(want, got, rn * sizeof want[0])) {
        report("UTFDFA_REPLACE differs", s, n);
        return;
    }
    passed++;
}

static void compare(const uint8_t *s, size_t n)
{
    compare_cut(s, n, n);
}

static struct test_rng rng = {0x2152};

int utfdfa__fast_force(const char *level); /* src/fast/kernels.h: a level for every run */

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--level") == 0 && !utfdfa__fast_force(argv[2])) {
        printf("%s: level %s: not on this CPU or in this build, skipped\n", "test_utf7_ref", argv[2]);
        return 0;
    }
    uint8_t s[MAXLEN] = {0};
    compare(s, 0);
    for (unsigned a = 0; a < 256; a++) {
        s[0] = (uint8_t)a;
        compare(s, 1);
        for (unsigned b = 0; b < 256; b++) {
            s[1] = (uint8_t)b;
            compare(s, 2);
        }
    }
    /* A, Q, g, w: digit 0 mod 16; E, I, 2: 0 mod 4 only; B, K, x, Y, /: others;
     * "+", "-", ".", "~", "\\", SP, 0x80 and NUL: syntax and errors. */
    static const uint8_t alpha[] = "AQgwEI2BKxY/+-.~\\ \x80";
    const size_t na = sizeof alpha; /* with the terminating NUL as a byte */
    for (size_t len = 3; len <= 5; len++) {
        size_t total = 1;
        for (size_t k = 0; k < len; k++)
            total *= na;
        for (size_t v = 0; v < total; v++) {
            size_t x = v;
            for (size_t k = 0; k < len; k++, x /= na)
                s[k] = alpha[x % na];
            compare(s, len);
        }
    }
    static const uint8_t runs[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
                                  "+++--..~\x80";
    for (int t = 0; t < 200000; t++) {
        size_t n = test_rng_below(&rng, 41);
        for (size_t k = 0; k < n; k++)
            s[k] = runs[test_rng_below(&rng, sizeof runs - 1)];
        compare(s, n);
    }
    /* Words: direct text and short runs ("+BDIENQQ-"), their digits random
     * (any bits over, now and then a surrogate), ended by anything. */
    static const uint8_t b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    static const uint8_t text[] = "  ab.,-?!\n";
    static const uint8_t ends[] = "-- .,!~\\+\x80\n";
    for (int t = 0; t < 30000; t++) {
        size_t n = 0, cap = 16 + test_rng_below(&rng, MAXLEN - 15);
        while (n < cap) {
            size_t len = test_rng_below(&rng, 20);
            for (size_t k = test_rng_below(&rng, 4); k && n < cap; k--)
                s[n++] = text[test_rng_below(&rng, sizeof text - 1)];
            if (n < cap)
                s[n++] = '+';
            for (size_t k = 0; k < len && n < cap; k++) /* "A"s and "Q"s leave zero bits */
                s[n++] = test_rng_below(&rng, 3) ? b64[test_rng_below(&rng, 64)]
                                                 : "AQgw"[test_rng_below(&rng, 4)];
            if (n < cap)
                s[n++] = ends[test_rng_below(&rng, sizeof ends - 1)];
        }
        for (size_t cut = 0; cut <= n; cut++)
            compare_cut(s, n, cut);
    }
    /* The encoder, byte for byte. */
    static uint32_t cp[100];
    static uint8_t want[800], got[800 + 16];
    for (int t = 0; t < 20000; t++) {
        size_t n = test_rng_below(&rng, 100);
        for (size_t k = 0; k < n; k++) {
            uint32_t r = test_rng_u32(&rng);
            cp[k] = r % 3 == 0 ? r / 3 % 128 + (r / 3 % 128 == 0)
                  : r % 3 == 1 ? r / 3 % 0xD800 : 0x10000 + r / 3 % 0x100000;
        }
        bool set_o = t & 1;
        size_t wn = ref7_encode(cp, n, set_o, want);
        utfdfa_encoder e;
        utfdfa_encoder_init(&e, UTFDFA_UTF7, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
        utfdfa_encoder_set_options(&e, set_o ? UTFDFA_UTF7_DIRECT_SET_O : 0);
        size_t src = n, dst = sizeof got;
        utfdfa_encode(&e, cp, &src, got, &dst, true, NULL);
        if (dst == wn && !memcmp(want, got, wn))
            passed++;
        else
            report("encoder bytes differ", want, wn);
    }
    return check_summary("test_utf7_ref");
}
