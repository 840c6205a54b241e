/* SPDX-License-Identifier: MIT */
/* The UTF-8 forms beyond RFC 3629 against the reference decoders of
 * tests/ref/ref_forms.c, written from their specs: the original 1-6 byte
 * UTF-8 (RFC 2279), Corrected UTF-8, CESU-8, Java's modified UTF-8 and
 * WTF-8 (the grammars in grammar/ and the runtime's rules). For each: every byte
 * string of length 1 to 3, the class space beyond (strings of 4 bytes over
 * one byte of every kind, 5- and 6-byte sequences over the bytes that
 * decide them), surrogate sequences side by side, random strings over the
 * bytes that matter (fixed seed) whole and in chunks; and the encoder:
 * every scalar value (WTF-8: every code point; the 31-bit forms: random
 * values over their whole range) written, checked by the reference (byte
 * for byte where it has an encoder) and read back.
 * Python's codecs check the same encodings through the CLI in
 * tests/cli/test_beyond.py.
 *
 * Inputs are copied into exact-size heap buffers (AddressSanitizer).
 * Last line: "test_forms: N passed, M failed".
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common.h"
#include "oracle.h"
#include "ref_forms.h"
#include "rng.h"
#include "utfdfa.h"

/* The reference decoder of an encoding. */
static size_t ref_decode(enum utfdfa_encoding enc, const uint8_t *s, size_t n,
                         struct refc_item *items)
{
    switch (enc) {
    case UTFDFA_WTF8:
        return refw_decode(s, n, items);
    case UTFDFA_UTF8_RFC2279:
        return ref2279_decode(s, n, items);
    case UTFDFA_CORRECTED_UTF8:
        return refcorr_decode(s, n, items);
    default:
        return refc_decode(s, n, enc == UTFDFA_MUTF8, items);
    }
}

/* Many cases under one check: each counts. */
static void tally(unsigned long cases, unsigned long bad, const char *what, const char *enc)
{
    passed += cases - bad;
    failed += bad;
    if (bad)
        fprintf(stderr, "FAIL: %s: %s: %lu of %lu cases differ\n", enc, what, bad, cases);
}

/* The library, strict, going on after each error, in chunks of `chunk`
 * bytes (0: one call): the same items as the reference? */
static bool agrees(enum utfdfa_encoding enc, const uint8_t *s, size_t n, size_t chunk)
{
    static struct refc_item items[64];
    static uint32_t cps[64];
    size_t nitems = ref_decode(enc, s, n, items);
    size_t k = 0;
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, enc, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    size_t pos = 0;
    do {
        size_t len = chunk && n - pos > chunk ? chunk : n - pos;
        bool last = pos + len == n;
        uint8_t *piece = malloc(len ? len : 1);
        memcpy(piece, s + pos, len);
        size_t used = 0;
        for (;;) {
            size_t src = len - used, m = 64;
            utfdfa_error e;
            utfdfa_result r = utfdfa_decode_utf32(&d, piece + used, &src, cps, &m, last, &e);
            used += src;
            for (size_t j = 0; j < m; j++, k++)
                if (k >= nitems || items[k].kind != REFC_OK || items[k].cp != cps[j]) {
                    free(piece);
                    return false;
                }
            if (r == UTFDFA_MALFORMED) {
                if (k >= nitems || items[k].kind == REFC_OK || e.offset != items[k].offset ||
                    e.length != items[k].len || e.kind != kind_of_refc(items[k].kind)) {
                    free(piece);
                    return false;
                }
                k++;
                continue;
            }
            if (r != UTFDFA_INPUT_EMPTY || used != len) {
                free(piece);
                return false;
            }
            break;
        }
        free(piece);
        pos += len;
    } while (pos < n);
    return k == nitems;
}

static void exhaustive(enum utfdfa_encoding enc)
{
    unsigned long bad = 0, total = 0;
    uint8_t s[3];
    for (uint32_t v = 0; v < 256 + 65536 + (1u << 24); v++) {
        size_t n = v < 256 ? 1 : v < 256 + 65536 ? 2 : 3;
        uint32_t x = v < 256 ? v : v < 256 + 65536 ? v - 256 : v - 256 - 65536;
        for (size_t i = 0; i < n; i++)
            s[i] = (uint8_t)(x >> (8 * (n - 1 - i)));
        total++;
        if (!agrees(enc, s, n, 0) && bad++ < 5)
            fail("%s: %s differs from the reference", utfdfa_encoding_name(enc), hex(s, n));
    }
    tally(total, bad, "strings of 1-3 bytes", utfdfa_encoding_name(enc));
    printf("test_forms: %s: all %lu byte strings of length 1-3 agree\n",
           utfdfa_encoding_name(enc), total);
}

/* Surrogate sequences next to each other and to other units. */
static void pairs(enum utfdfa_encoding enc)
{
    static const uint8_t seconds[] = {0x80, 0x9F, 0xA0, 0xAF, 0xB0, 0xBF};
    static const uint8_t thirds[] = {0x80, 0xBF};
    static const uint8_t after[][3] = {{0x41}, {0xED, 0x80, 0x80}, {0xC0, 0x80}, {0x80}};
    unsigned long bad = 0, cases = 0;
    for (size_t a = 0; a < 6; a++)
        for (size_t b = 0; b < 6; b++)
            for (size_t t = 0; t < 4; t++)
                for (size_t f = 0; f < 4; f++) {
                    uint8_t s[9] = {0xED, seconds[a], thirds[t & 1], 0xED, seconds[b],
                                    thirds[t >> 1]};
                    memcpy(s + 6, after[f], 3);
                    for (size_t n = 1; n <= 9; n++)
                        for (size_t c = 0; c <= 3; c++, cases++)
                            bad += !agrees(enc, s, n, c);
                }
    tally(cases, bad, "surrogate sequences side by side", utfdfa_encoding_name(enc));
}

/* Beyond 3 bytes: every 4-byte string over one byte of each kind, and 5-
 * and 6-byte strings from the longer leads over the bytes that decide them. */
static void class_space(enum utfdfa_encoding enc)
{
    static const uint8_t reps[] = {0x00, 0x41, 0x7F, 0x80, 0x83, 0x84, 0x87, 0x88, 0x8F, 0x90,
                                   0x9F, 0xA0, 0xAF, 0xB0, 0xBD, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF,
                                   0xE0, 0xEC, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xF7, 0xF8, 0xFB,
                                   0xFC, 0xFD, 0xFE, 0xFF};
    static const uint8_t leads[] = {0xF0, 0xF7, 0xF8, 0xFB, 0xFC, 0xFD, 0xFE};
    static const uint8_t rest[] = {0x80, 0x83, 0x84, 0x87, 0x88, 0xBF, 0x41, 0xC0, 0xFE};
    const size_t nr = sizeof reps, nl = sizeof leads, nx = sizeof rest;
    unsigned long bad = 0, cases = 0;
    uint8_t s[6];
    for (size_t v = 0; v < nr * nr * nr * nr; v++, cases++) {
        for (size_t i = 0, x = v; i < 4; i++, x /= nr)
            s[i] = reps[x % nr];
        if (!agrees(enc, s, 4, 0) && bad++ < 5)
            fail("%s: %s differs from the reference", utfdfa_encoding_name(enc), hex(s, 4));
    }
    for (size_t len = 5; len <= 6; len++) {
        size_t total = nl;
        for (size_t i = 1; i < len; i++)
            total *= nx;
        for (size_t v = 0; v < total; v++, cases++) {
            size_t x = v;
            s[0] = leads[x % nl];
            x /= nl;
            for (size_t i = 1; i < len; i++, x /= nx)
                s[i] = rest[x % nx];
            if (!agrees(enc, s, len, v % 3) && bad++ < 5)
                fail("%s: %s differs from the reference", utfdfa_encoding_name(enc),
                     hex(s, len));
        }
    }
    tally(cases, bad, "the class space of 4-6 bytes", utfdfa_encoding_name(enc));
}

static struct test_rng rng = {20261123};

static void random_strings(enum utfdfa_encoding enc)
{
    static const uint8_t alphabet[] = {0x00, 0x41, 0x80, 0x8F, 0x9F, 0xA0, 0xAF, 0xB0,
                                       0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xED, 0xEF,
                                       0xF0, 0xFF, 0xED, 0xED, 0xF4, 0x90, 0xF5, 0xF8,
                                       0xFC, 0xFD, 0xFE, 0x84, 0x88, 0xBD};
    uint8_t s[24];
    unsigned long bad = 0;
    for (int t = 0; t < 100000; t++) {
        size_t n = 1 + test_rng_below(&rng, sizeof s);
        for (size_t i = 0; i < n; i++)
            s[i] = alphabet[test_rng_below(&rng, sizeof alphabet)];
        size_t chunk = t % 4 ? 1 + test_rng_below(&rng, n) : 0;
        if (!agrees(enc, s, n, chunk) && bad++ < 5)
            fail("%s: %s (chunks of %zu) differs from the reference", utfdfa_encoding_name(enc),
                 hex(s, n), chunk);
    }
    tally(100000, bad, "random strings", utfdfa_encoding_name(enc));
}

/* Every scalar value: the encoder writes the reference's bytes, and the
 * decoder reads them back. */
static void encoder(enum utfdfa_encoding enc)
{
    unsigned long bad = 0, cases = 0;
    bool wtf = enc == UTFDFA_WTF8;
    for (uint32_t cp = 0; cp < 0x110000; cp++, cases++) {
        if (cp >= 0xD800 && cp <= 0xDFFF && !wtf)
            continue;
        uint8_t want[6], got[8];
        size_t w = wtf ? refw_encode(cp, want) : refc_encode(cp, enc == UTFDFA_MUTF8, want);
        utfdfa_encoder e;
        utfdfa_encoder_init(&e, enc, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
        size_t s = 1, o = w; /* exactly the room it needs */
        utfdfa_result r = utfdfa_encode(&e, &cp, &s, got, &o, true, NULL);
        uint32_t back = 0;
        utfdfa_decoder d;
        utfdfa_decoder_init(&d, enc, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
        size_t bs = o, bo = 1;
        utfdfa_result r2 = utfdfa_decode_utf32(&d, got, &bs, &back, &bo, true, NULL);
        if (!(r == UTFDFA_INPUT_EMPTY && o == w && memcmp(got, want, w) == 0 &&
              r2 == UTFDFA_INPUT_EMPTY && bo == 1 && back == cp) &&
            bad++ < 5)
            fail("%s: U+%04X", utfdfa_encoding_name(enc), cp);
    }
    tally(wtf ? cases : cases - 2048, bad, "code points encoded and back",
          utfdfa_encoding_name(enc));
    /* Surrogates are not characters: CESU-8 refuses them; WTF-8 writes
     * them, except a low one right after a high one (even across calls),
     * which would read back as the character they make. */
    uint32_t pair[2] = {0xD800, 0xDC00};
    uint8_t out[8];
    utfdfa_encoder e;
    utfdfa_encoder_init(&e, enc, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    size_t s = 1, o = sizeof out;
    utfdfa_error err;
    utfdfa_result r = utfdfa_encode(&e, pair, &s, out, &o, false, &err);
    if (!wtf) {
        CHECK(r == UTFDFA_MALFORMED && err.kind == UTFDFA_ERR_UNENCODABLE && o == 0,
              "%s: U+D800 refused", utfdfa_encoding_name(enc));
        return;
    }
    size_t s2 = 1, o2 = sizeof out - o;
    utfdfa_result r2 = utfdfa_encode(&e, pair + 1, &s2, out + o, &o2, true, &err);
    CHECK(r == UTFDFA_INPUT_EMPTY && o == 3 && r2 == UTFDFA_MALFORMED && o2 == 0 &&
              err.kind == UTFDFA_ERR_UNENCODABLE && err.offset == 1,
          "wtf-8: U+DC00 after U+D800 refused, across calls");
    /* The same rule for utfdfa_transcode (from raw UCS-4). */
    static const uint8_t ucs4[8] = {0, 0, 0xD8, 0x00, 0, 0, 0xDC, 0x00};
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, UTFDFA_UCS4BE, UTFDFA_REPLACE, UTFDFA_BOM_KEEP);
    s = 4;
    o = sizeof out;
    utfdfa_transcode(&d, UTFDFA_WTF8, ucs4, &s, out, &o, false, NULL);
    s2 = 4;
    o2 = sizeof out - o;
    r2 = utfdfa_transcode(&d, UTFDFA_WTF8, ucs4 + 4, &s2, out + o, &o2, true, NULL);
    CHECK(r2 == UTFDFA_INPUT_EMPTY && o + o2 == 6 &&
              memcmp(out, "\xED\xA0\x80\xEF\xBF\xBD", 6) == 0,
          "wtf-8: transcoding U+D800 U+DC00 (two calls) writes U+D800 U+FFFD");
}

/* The 31-bit forms: random values over the whole range (fixed seed), and
 * every boundary of a sequence length, written by the library and read
 * back by the reference and by the library. */
static void wide_encoder(enum utfdfa_encoding enc)
{
    bool corr = enc == UTFDFA_CORRECTED_UTF8;
    uint32_t top = corr ? 0x8421109Fu : 0x7FFFFFFFu;
    static const uint32_t edges[] = {0x7F, 0x80, 0x9F, 0xA0, 0x7FF, 0x800, 0x89F, 0x8A0, 0xD7FF,
                                     0xE000, 0xFFFF, 0x10000, 0x1109F, 0x110A0, 0x10FFFF,
                                     0x110000, 0x1FFFFF, 0x200000, 0x21109F, 0x2110A0,
                                     0x3FFFFFF, 0x4000000, 0x421109F, 0x42110A0, 0x7FFFFFFF,
                                     0x8421109F};
    unsigned long bad = 0, cases = 0;
    for (unsigned t = 0; t < 300000 + sizeof edges / sizeof edges[0]; t++) {
        uint32_t cp = t < sizeof edges / sizeof edges[0] ? edges[t] : test_rng_u32(&rng);
        cp = cp % (top + 1ull);
        if (cp == 0 || (cp >= 0x80 && cp <= 0x9F && corr) || (cp >= 0xD800 && cp <= 0xDFFF))
            continue;
        cases++;
        uint8_t out[8];
        utfdfa_encoder e;
        utfdfa_encoder_init(&e, enc, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
        size_t s = 1, o = sizeof out;
        utfdfa_result r = utfdfa_encode(&e, &cp, &s, out, &o, true, NULL);
        struct refc_item items[8];
        size_t k = ref_decode(enc, out, o, items);
        bool ok = r == UTFDFA_INPUT_EMPTY && k == 1 && items[0].kind == REFC_OK &&
                  items[0].cp == cp && agrees(enc, out, o, 0);
        if (!ok && bad++ < 5)
            fail("%s: U+%X written as %s", utfdfa_encoding_name(enc), cp, hex(out, o));
    }
    tally(cases, bad, "values written and read back by the reference", utfdfa_encoding_name(enc));
}

int main(void)
{
    static const enum utfdfa_encoding encs[] = {UTFDFA_CESU8, UTFDFA_MUTF8, UTFDFA_WTF8};
    for (size_t k = 0; k < 3; k++) {
        exhaustive(encs[k]);
        class_space(encs[k]);
        pairs(encs[k]);
        random_strings(encs[k]);
        encoder(encs[k]);
    }
    static const enum utfdfa_encoding wide[] = {UTFDFA_UTF8_RFC2279, UTFDFA_CORRECTED_UTF8};
    for (size_t k = 0; k < 2; k++) {
        exhaustive(wide[k]);
        class_space(wide[k]);
        random_strings(wide[k]);
        wide_encoder(wide[k]);
    }
    return check_summary("test_forms");
}
