/* CESU-8, Java's modified UTF-8 and WTF-8 (grammar/cesu-8.abnf, mutf-8.abnf,
 * wtf-8.abnf and the runtime's surrogate rules) against the reference
 * decoders of tests/ref/ref_cesu8.c: every byte string of length 1 to 3,
 * surrogate sequences side by side, random strings over the bytes that
 * matter (fixed seed) whole and in chunks, and every scalar value (WTF-8:
 * every code point) through the encoder, byte for byte against the
 * reference encoder, and back.
 * Python's codecs check the same encodings through the CLI in
 * tests/cli/test_beyond.py.
 *
 * Inputs are copied into exact-size heap buffers (AddressSanitizer).
 * Last line: "test_cesu: N passed, M failed".
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref_cesu8.h"
#include "utfdfa.h"

static unsigned long passed, failed;

static void fail(const char *fmt, ...)
{
    va_list ap;
    failed++;
    if (failed > 20)
        return;
    va_start(ap, fmt);
    fprintf(stderr, "FAIL: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
}

#define CHECK(cond, ...) ((cond) ? (void)passed++ : fail(__VA_ARGS__))

static enum utfdfa_error_kind kind_of(enum refc_kind k)
{
    static const enum utfdfa_error_kind map[] = {
        UTFDFA_ERR_NONE,      UTFDFA_ERR_UNEXPECTED_CONTINUATION, UTFDFA_ERR_INVALID_LEAD,
        UTFDFA_ERR_OVERLONG,  UTFDFA_ERR_SURROGATE,               UTFDFA_ERR_TRUNCATED,
        UTFDFA_ERR_NUL,       UTFDFA_ERR_TOO_LARGE};
    return map[k];
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
    size_t nitems = enc == UTFDFA_WTF8 ? refw_decode(s, n, items)
                                       : refc_decode(s, n, enc == UTFDFA_MUTF8, items);
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
                    e.length != items[k].len || e.kind != kind_of(items[k].kind)) {
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

static const char *hex(const uint8_t *s, size_t n)
{
    static char buf[64 * 3 + 1];
    size_t o = 0;
    for (size_t i = 0; i < n && i < 64; i++)
        o += (size_t)snprintf(buf + o, sizeof buf - o, "%02X ", s[i]);
    buf[o ? o - 1 : 0] = 0;
    return buf;
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
    printf("test_cesu: %s: all %lu byte strings of length 1-3 agree\n",
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

static uint64_t rng = 20261123;

static uint32_t next_random(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

static void random_strings(enum utfdfa_encoding enc)
{
    static const uint8_t alphabet[] = {0x00, 0x41, 0x80, 0x8F, 0x9F, 0xA0, 0xAF, 0xB0,
                                       0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xED, 0xEF,
                                       0xF0, 0xFF, 0xED, 0xED, 0xF4, 0x90, 0xF5, 0xF8};
    uint8_t s[24];
    unsigned long bad = 0;
    for (int t = 0; t < 100000; t++) {
        size_t n = 1 + next_random() % sizeof s;
        for (size_t i = 0; i < n; i++)
            s[i] = alphabet[next_random() % sizeof alphabet];
        size_t chunk = t % 4 ? 1 + next_random() % n : 0;
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
        CHECK(r == UTFDFA_MALFORMED && err.kind == UTFDFA_ERR_SURROGATE && o == 0,
              "%s: U+D800 refused", utfdfa_encoding_name(enc));
        return;
    }
    size_t s2 = 1, o2 = sizeof out - o;
    utfdfa_result r2 = utfdfa_encode(&e, pair + 1, &s2, out + o, &o2, true, &err);
    CHECK(r == UTFDFA_INPUT_EMPTY && o == 3 && r2 == UTFDFA_MALFORMED && o2 == 0 &&
              err.kind == UTFDFA_ERR_SURROGATE && err.offset == 1,
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

int main(void)
{
    static const enum utfdfa_encoding encs[] = {UTFDFA_CESU8, UTFDFA_MUTF8, UTFDFA_WTF8};
    for (size_t k = 0; k < 3; k++) {
        exhaustive(encs[k]);
        pairs(encs[k]);
        random_strings(encs[k]);
        encoder(encs[k]);
    }
    printf("test_cesu: %lu passed, %lu failed\n", passed, failed);
    return failed != 0;
}
