/* SPDX-License-Identifier: MIT */
/* Decoder tests: the library against the reference decoder in tests/ref
 * (written from the spec alone), exhaustively where the space allows, and
 * streaming against whole-buffer results at every split point.
 *
 * Every input is copied into an exact-size heap buffer (and every output
 * buffer is exact-size) so AddressSanitizer catches any access past the end.
 *
 * Usage: test_decode [SHARED_DIR]   (default ../shared; skipped parts say so)
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common.h"
#include "drive.h"
#include "oracle.h"
#include "ref_utf8.h"
#include "rng.h"
#include "utfdfa.h"
#include "vectors.h"

/* ------------------------------------------------------------------ runs */

/* ------------------------------------------------------- reference events */

/* What the reference decoder makes of s, in the shape drive_run gives:
 * code points (U+FFFD for errors in replace mode), the strict errors, the
 * replaced flag and the offset. */
static void reference(const uint8_t *s, size_t n, enum utfdfa_error_mode errors, struct outcome *r)
{
    memset(r, 0, sizeof *r);
    uint32_t *cps = xmalloc((n + 1) * 4);
    size_t ncps;
    oracle_decode(UTFDFA_UTF8, s, n, cps, &ncps, r->err, &r->nerr);
    if (errors == UTFDFA_REPLACE)
        oracle_decode_replace(UTFDFA_UTF8, s, n, cps, &ncps);
    r->out = (uint8_t *)cps;
    r->len = r->cap = 4 * ncps;
    r->replaced = errors != UTFDFA_STRICT && r->nerr > 0;
    r->offset = n;
    if (errors != UTFDFA_STRICT)
        r->nerr = 0;
}

/* ---------------------------------------------------------- exhaustive */

/* One strict whole-buffer decode compared item by item with the reference,
 * without allocating: the hot loop of the exhaustive test. */
static int agrees_with_reference(const uint8_t *in, size_t n)
{
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    uint32_t cps[8];
    size_t pos = 0, ri = 0; /* library's input position; reference's */
    for (;;) {
        size_t s = n - pos, o = sizeof cps / sizeof cps[0];
        utfdfa_error e;
        utfdfa_result r = utfdfa_decode_utf32(&d, in + pos, &s, cps, &o, true, &e);
        pos += s;
        for (size_t k = 0; k < o; k++) {
            uint32_t cp;
            enum ref_kind kind;
            if (ri >= n)
                return 0;
            ri += ref_utf8_next(in + ri, n - ri, &cp, &kind);
            if (kind != REF_OK || cp != cps[k])
                return 0;
        }
        if (r == UTFDFA_INPUT_EMPTY)
            return ri == n && pos == n;
        if (r != UTFDFA_MALFORMED || ri >= n)
            return 0;
        uint32_t cp;
        enum ref_kind kind;
        size_t len = ref_utf8_next(in + ri, n - ri, &cp, &kind);
        if (kind == REF_OK || e.offset != ri || e.length != len || e.kind != kind_of_ref(kind))
            return 0;
        ri += len;
    }
}

static void exhaustive(void)
{
    unsigned long strings = 0, bad = 0;
    /* Lengths 1-3 completely, and every 4-byte string with lead F0-F4,
     * each in an exact-size heap buffer. */
    for (size_t len = 1; len <= 4; len++) {
        uint8_t *buf = malloc(len);
        unsigned long total = 1ul << (8 * len);
        unsigned long v = len == 4 ? 0xF0000000ul : 0, end = len == 4 ? 0xF5000000ul : total;
        for (; v < end; v++) {
            for (size_t k = 0; k < len; k++)
                buf[k] = (uint8_t)(v >> (8 * (len - 1 - k)));
            strings++;
            if (!agrees_with_reference(buf, len)) {
                bad++;
                fail("exhaustive: %s: library and reference disagree", hex(buf, len));
            }
        }
        free(buf);
    }
    CHECK(bad == 0, "exhaustive: %lu of %lu strings disagree", bad, strings);
    CHECK(strings == 256ul + 65536ul + 16777216ul + 5ul * 16777216ul, "exhaustive: count");
    printf("exhaustive: %lu byte strings (all of length 1-3, length 4 with lead F0-F4) "
           "agree with the reference decoder\n", strings);
}

/* ------------------------------------------------------------ vectors */

static void unicode_example(void)
{
    /* Unicode 3.9, U+FFFD substitution of maximal subparts. */
    uint8_t buf[16];
    size_t n = parse_hex("61 F1 80 80 E1 80 C2 62 80 63 80 BF 64", buf, sizeof buf);
    static const uint32_t want[] = {'a', 0xFFFD, 0xFFFD, 0xFFFD, 'b', 0xFFFD, 'c',
                                    0xFFFD, 0xFFFD, 'd'};
    struct config c = {UTFDFA_UTF8, UTFDFA_UTF8, SINK_U32, UTFDFA_REPLACE, UTFDFA_BOM_KEEP};
    struct outcome r;
    uint8_t *in = dup_exact(buf, n);
    run_config(&c, in, n, 0, 64, &r);
    CHECK(r.len == sizeof want && memcmp(r.out, want, sizeof want) == 0,
          "Unicode 3.9 example: wrong replacement output");
    outcome_free(&r);
    /* 2F C0 AE 2E 2F never becomes "/../" (RFC 3629 section 10). */
    n = parse_hex("2F C0 AE 2E 2F", buf, sizeof buf);
    memcpy(in, buf, n);
    run_config(&c, in, n, 0, 64, &r);
    static const uint32_t safe[] = {'/', 0xFFFD, 0xFFFD, '.', '/'};
    CHECK(r.len == sizeof safe && memcmp(r.out, safe, sizeof safe) == 0,
          "2F C0 AE 2E 2F decoded to something other than / FFFD FFFD . /");
    outcome_free(&r);
    free(in);
}

/* ------------------------------------------------------------ streaming */

static const struct config stream_configs[] = {
    {UTFDFA_UTF8, UTFDFA_UTF8, SINK_U32, UTFDFA_STRICT, UTFDFA_BOM_KEEP},
    {UTFDFA_UTF8, UTFDFA_UTF8, SINK_U32, UTFDFA_REPLACE, UTFDFA_BOM_STRIP},
    {UTFDFA_UTF8, UTFDFA_UTF8, SINK_U16, UTFDFA_REPLACE, UTFDFA_BOM_ADD},
    {UTFDFA_UTF8, UTFDFA_UTF8, SINK_BYTES, UTFDFA_REPLACE, UTFDFA_BOM_KEEP},
    {UTFDFA_UTF8, UTFDFA_UTF16BE, SINK_BYTES, UTFDFA_IGNORE, UTFDFA_BOM_ADD},
    {UTFDFA_UTF8, UTFDFA_UTF8, SINK_CHECK, UTFDFA_STRICT, UTFDFA_BOM_KEEP},
    {UTFDFA_UTF16LE, UTFDFA_UTF8, SINK_BYTES, UTFDFA_STRICT, UTFDFA_BOM_STRIP},
    {UTFDFA_UTF16BE, UTFDFA_UTF32LE, SINK_BYTES, UTFDFA_REPLACE, UTFDFA_BOM_KEEP},
    {UTFDFA_UTF16LE, UTFDFA_UTF8, SINK_U32, UTFDFA_REPLACE, UTFDFA_BOM_KEEP},
    {UTFDFA_UTF32LE, UTFDFA_UTF8, SINK_U16, UTFDFA_REPLACE, UTFDFA_BOM_KEEP},
    {UTFDFA_UTF32BE, UTFDFA_UTF16LE, SINK_BYTES, UTFDFA_STRICT, UTFDFA_BOM_ADD},
    {UTFDFA_UTF8_RFC2279, UTFDFA_CORRECTED_UTF8, SINK_BYTES, UTFDFA_REPLACE, UTFDFA_BOM_KEEP},
    {UTFDFA_CORRECTED_UTF8, UTFDFA_UCS4BE, SINK_BYTES, UTFDFA_STRICT, UTFDFA_BOM_STRIP},
    {UTFDFA_CORRECTED_UTF8, UTFDFA_UTF8, SINK_U32, UTFDFA_REPLACE, UTFDFA_BOM_KEEP},
    {UTFDFA_UCS4LE, UTFDFA_UTF8_RFC2279, SINK_BYTES, UTFDFA_REPLACE, UTFDFA_BOM_ADD},
    {UTFDFA_CORRECTED_UTF8, UTFDFA_CORRECTED_UTF8, SINK_BYTES, UTFDFA_REPLACE, UTFDFA_BOM_KEEP},
    {UTFDFA_CORRECTED_UTF8, UTFDFA_UTF8, SINK_CHECK, UTFDFA_STRICT, UTFDFA_BOM_KEEP},
    {UTFDFA_UTF8, UTFDFA_UTF7, SINK_BYTES, UTFDFA_REPLACE, UTFDFA_BOM_ADD},
    {UTFDFA_UTF16BE, UTFDFA_UTF7, SINK_BYTES, UTFDFA_STRICT, UTFDFA_BOM_KEEP},
    {UTFDFA_UTF7, UTFDFA_UTF7, SINK_BYTES, UTFDFA_REPLACE, UTFDFA_BOM_STRIP},
};

/* Each configuration every way: split at every offset, chunks of every
 * size, byte by byte, every output room, exactly full and one unit short. */
static void streaming(const uint8_t *in, size_t n, const char *what)
{
    for (size_t k = 0; k < sizeof stream_configs / sizeof stream_configs[0]; k++) {
        struct drive dv = drive_of(&stream_configs[k]);
        struct outcome whole;
        check_every_way(&dv, in, n, what, &whole);
        outcome_free(&whole);
    }
}

/* ------------------------------------------------------------ random */

static struct test_rng rng = {20261122};

static size_t random_input(uint8_t *buf, size_t max)
{
    static const uint8_t pick[] = {0x41, 0x0A, 0x80, 0x8F, 0x90, 0xBF, 0xA0, 0xC0, 0xC1, 0xC2,
                                   0xDF, 0xE0, 0xE1, 0xED, 0xEE, 0xEF, 0xBB, 0xF0, 0xF1, 0xF4,
                                   0xF5, 0xF8, 0xFE, 0xFF, 0xD8, 0xDC, 0x00};
    size_t n = test_rng_below(&rng, max + 1);
    for (size_t i = 0; i < n; i++) {
        uint32_t r = test_rng_u32(&rng);
        if (r % 4 == 0) { /* a valid character now and then */
            uint32_t cp = test_rng_below(&rng, 0x110000);
            uint8_t enc[4];
            size_t k = ref_utf8_encode(cp, enc);
            for (size_t j = 0; j < k && i < n; j++)
                buf[i++] = enc[j];
            i--;
        } else {
            buf[i] = r % 2 ? pick[test_rng_below(&rng, sizeof pick)] : test_rng_byte(&rng);
        }
    }
    return n;
}

static void random_tests(void)
{
    uint8_t buf[48];
    for (int t = 0; t < 300; t++) {
        size_t n = random_input(buf, sizeof buf);
        char what[32];
        snprintf(what, sizeof what, "random #%d", t);
        for (int mode = UTFDFA_STRICT; mode <= UTFDFA_REPLACE; mode++) {
            struct config c = {UTFDFA_UTF8, UTFDFA_UTF8, SINK_U32, (enum utfdfa_error_mode)mode,
                               UTFDFA_BOM_KEEP};
            struct outcome a, b;
            uint8_t *in = dup_exact(buf, n);
            run_config(&c, in, n, 0, 64, &a);
            reference(in, n, c.errors, &b);
            CHECK(outcome_same(&a, &b), "%s [%s]: library and reference disagree", what, hex(buf, n));
            free(in);
            outcome_free(&a);
            outcome_free(&b);
        }
        if (t < 120) {
            streaming(buf, n, what);
        }
    }
}

/* ------------------------------------------------------------ Kuhn */

static uint8_t *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    uint8_t *buf = malloc(cap);
    size_t r;
    while ((r = fread(buf + len, 1, cap - len, f)) > 0) {
        len += r;
        if (len == cap)
            buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    uint8_t *exact = dup_exact(buf, len);
    free(buf);
    *n = len;
    return exact;
}

static void kuhn(const char *shared)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/conformance/UTF-8-test.txt", shared);
    size_t n;
    uint8_t *in = slurp(path, &n);
    if (!in) {
        printf("kuhn: %s not found: skipped (it lives in ../shared, not in the repo)\n", path);
        return;
    }
    utfdfa_error e;
    size_t valid = utfdfa_validate(UTFDFA_UTF8, in, n, &e);
    CHECK(valid == 4461 && e.offset == 4461 && e.kind == UTFDFA_ERR_INVALID_LEAD && e.length == 1,
          "Kuhn: first error at %zu (want 4461, invalid-lead F8)", valid);
    CHECK(utfdfa_valid_up_to(in, n) == 4461, "Kuhn: valid_up_to");
    /* Line and column of the first error, from the decoded characters. */
    struct config strict = {UTFDFA_UTF8, UTFDFA_UTF8, SINK_U32, UTFDFA_STRICT, UTFDFA_BOM_KEEP};
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, strict.from, strict.errors, strict.bom);
    uint32_t *cps = malloc(n * 4);
    size_t s = n, o = n;
    utfdfa_result r = utfdfa_decode_utf32(&d, in, &s, cps, &o, true, &e);
    unsigned long line = 1, col = 1;
    for (size_t i = 0; i < o; i++) {
        if (cps[i] == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    CHECK(r == UTFDFA_MALFORMED && line == 75 && col == 38,
          "Kuhn: first error at line %lu column %lu (want 75, 38)", line, col);
    /* Replacement: exactly 379 U+FFFD, the same as the reference. */
    struct config rep = {UTFDFA_UTF8, UTFDFA_UTF8, SINK_U32, UTFDFA_REPLACE, UTFDFA_BOM_KEEP};
    struct outcome a, b;
    run_config(&rep, in, n, 0, n + 1, &a);
    reference(in, n, UTFDFA_REPLACE, &b);
    size_t fffd = 0;
    for (size_t i = 0; i + 4 <= a.len; i += 4) {
        uint32_t v;
        memcpy(&v, a.out + i, 4);
        fffd += v == 0xFFFD;
    }
    CHECK(fffd == 379, "Kuhn: %zu U+FFFD in replace mode (want 379)", fffd);
    CHECK(outcome_same(&a, &b), "Kuhn: library and reference disagree");
    outcome_free(&a);
    outcome_free(&b);
    /* Streamed in chunks of every size up to 64 and a few larger ones. */
    struct outcome whole, part;
    run_config(&rep, in, n, 0, n + 1, &whole);
    int ok = 1;
    for (size_t chunk = 1; chunk <= 4099 && ok; chunk = chunk < 64 ? chunk + 1 : chunk * 2 + 3) {
        run_config(&rep, in, n, chunk, 7, &part);
        ok = outcome_same(&part, &whole);
        outcome_free(&part);
    }
    CHECK(ok, "Kuhn: chunked decoding differs from one call");
    outcome_free(&whole);
    free(cps);
    free(in);
}

/* The size helpers are upper bounds: check them on random inputs. */
static void size_bounds(void)
{
    uint8_t buf[48];
    for (int t = 0; t < 400; t++) {
        size_t n = random_input(buf, sizeof buf);
        for (unsigned from = 0; from < UTFDFA_NENCODINGS; from++) {
            for (unsigned to = 0; to < UTFDFA_NENCODINGS; to++) {
                struct config c = {(enum utfdfa_encoding)from, (enum utfdfa_encoding)to,
                                   SINK_BYTES, UTFDFA_REPLACE, UTFDFA_BOM_ADD};
                struct outcome r;
                run_config(&c, buf, n, 0, 4 * n + 16, &r);
                size_t bound;
                utfdfa_max_transcoded_len(c.from, c.to, n, &bound);
                CHECK(r.len <= bound, "max_transcoded_len %u->%u: %zu > %zu", from, to, r.len,
                      bound);
                outcome_free(&r);
            }
            struct config c32 = {(enum utfdfa_encoding)from, UTFDFA_UTF8, SINK_U32,
                                 UTFDFA_REPLACE, UTFDFA_BOM_ADD};
            struct config c16 = {(enum utfdfa_encoding)from, UTFDFA_UTF8, SINK_U16,
                                 UTFDFA_REPLACE, UTFDFA_BOM_ADD};
            struct outcome r;
            size_t bound;
            run_config(&c32, buf, n, 0, 4 * n + 16, &r);
            utfdfa_max_utf32_len(c32.from, n, &bound);
            CHECK(r.len / 4 <= bound, "max_utf32_len");
            outcome_free(&r);
            run_config(&c16, buf, n, 0, 4 * n + 16, &r);
            utfdfa_max_utf16_len(c16.from, n, &bound);
            CHECK(r.len / 2 <= bound, "max_utf16_len");
            outcome_free(&r);
        }
    }
}

static void bom_rules(void)
{
    /* A BOM split across calls is still the BOM at the start. */
    static const uint8_t bom_a[] = {0xEF, 0xBB, 0xBF, 'A', 0xEF, 0xBB, 0xBF};
    struct config strip = {UTFDFA_UTF8, UTFDFA_UTF8, SINK_U32, UTFDFA_STRICT, UTFDFA_BOM_STRIP};
    struct config add = {UTFDFA_UTF8, UTFDFA_UTF8, SINK_U32, UTFDFA_STRICT, UTFDFA_BOM_ADD};
    struct outcome r;
    for (size_t chunk = 0; chunk <= 3; chunk++) {
        run_config(&strip, bom_a, sizeof bom_a, chunk, 8, &r);
        static const uint32_t want[] = {'A', 0xFEFF};
        CHECK(r.len == sizeof want && memcmp(r.out, want, sizeof want) == 0,
              "BOM strip (chunks of %zu): only the first U+FEFF goes", chunk);
        outcome_free(&r);
        run_config(&add, bom_a, sizeof bom_a, chunk, 8, &r);
        static const uint32_t kept[] = {0xFEFF, 'A', 0xFEFF};
        CHECK(r.len == sizeof kept && memcmp(r.out, kept, sizeof kept) == 0,
              "BOM add (chunks of %zu): not doubled", chunk);
        outcome_free(&r);
    }
    run_config(&add, bom_a + 3, 1, 0, 8, &r);
    static const uint32_t added[] = {0xFEFF, 'A'};
    CHECK(r.len == sizeof added && memcmp(r.out, added, sizeof added) == 0, "BOM add to 'A'");
    outcome_free(&r);
    run_config(&add, bom_a, 0, 0, 8, &r);
    CHECK(r.len == 4, "BOM add to empty input writes just the BOM");
    outcome_free(&r);
}

/* UTF-16 and UTF-32 per WHATWG are rows of tests/stream/test_vectors.c;
 * here what the BOM mode does to a U+FEFF that is not first. */
static void bom_not_first(void)
{
    /* BOM strip: only the very first U+FEFF of the stream goes. */
    static const uint8_t two_boms[] = {0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF, 'A'};
    struct config strip = {UTFDFA_UTF8, UTFDFA_UTF8, SINK_U32, UTFDFA_STRICT, UTFDFA_BOM_STRIP};
    struct outcome r;
    run_config(&strip, two_boms, sizeof two_boms, 0, 8, &r);
    static const uint32_t want[] = {0xFEFF, 'A'};
    CHECK(r.len == sizeof want && memcmp(r.out, want, sizeof want) == 0,
          "BOM strip: a second U+FEFF is text, not a BOM");
    outcome_free(&r);
    /* An error first: a later U+FEFF is mid-stream. */
    static const uint8_t err_bom[] = {0x80, 0xEF, 0xBB, 0xBF};
    strip.errors = UTFDFA_REPLACE;
    run_config(&strip, err_bom, sizeof err_bom, 0, 8, &r);
    static const uint32_t want2[] = {0xFFFD, 0xFEFF};
    CHECK(r.len == sizeof want2 && memcmp(r.out, want2, sizeof want2) == 0,
          "BOM strip: U+FEFF after an error is not at the start");
    outcome_free(&r);
}

static void names(void)
{
    enum utfdfa_encoding e;
    CHECK(utfdfa_encoding_from_name("UTF-16LE", 8, &e) && e == UTFDFA_UTF16LE, "name lookup");
    CHECK(!utfdfa_encoding_from_name("utf-16lex", 8 + 1, &e), "name lookup: unknown");
    CHECK(utfdfa_encoding_from_name("utf-8xyz", 5, &e) && e == UTFDFA_UTF8,
          "name lookup uses (ptr, len), not NUL");
    CHECK(strcmp(utfdfa_error_name(UTFDFA_ERR_TOO_LARGE), "too-large") == 0, "error names");
    CHECK(sizeof(utfdfa_decoder) <= 16, "decoder state is at most 16 bytes");
    utfdfa_decoder zero;
    memset(&zero, 0, sizeof zero);
    static const uint8_t x[] = {0xC3, 0xA9};
    uint32_t cp = 0;
    size_t s = 2, o = 1;
    CHECK(utfdfa_decode_utf32(&zero, x, &s, &cp, &o, true, NULL) == UTFDFA_INPUT_EMPTY &&
              cp == 0xE9,
          "a zeroed decoder is a fresh UTF-8 decoder");
}

/* The decoder packs its state number, limit, options and flags into shared
 * bytes: setting the target and the options between the bytes of a
 * sequence leaves the sequence alone (the deepest state of the largest
 * table, Corrected UTF-8's after FC 80 80 80 80, included), and stepping
 * the automaton leaves the target alone. */
static void packed_state(void)
{
    static const struct {
        enum utfdfa_encoding from;
        uint8_t in[8];
        size_t n;
    } cases[] = {
        {UTFDFA_CORRECTED_UTF8, {0xFC, 0x80, 0x80, 0x80, 0x80, 0x80}, 6},
        {UTFDFA_UTF8_RFC2279, {0xFD, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF}, 6},
        {UTFDFA_UTF8, {0xF4, 0x8F, 0xBF, 0xBF}, 4},
        {UTFDFA_UTF7, {'+', '2', 'D', '3', 'e', 'A', 'A', '-'}, 8}, /* U+1F600 */
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        utfdfa_decoder d;
        utfdfa_decoder_init(&d, cases[c].from, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
        uint32_t whole[4], split[4];
        size_t sl = cases[c].n, wl = 4, got = 0;
        utfdfa_result r = utfdfa_decode_utf32(&d, cases[c].in, &sl, whole, &wl, true, NULL);
        CHECK(r == UTFDFA_INPUT_EMPTY && wl == 1, "packed state %zu: one character", c);
        utfdfa_decoder_init(&d, cases[c].from, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
        for (size_t i = 0; i < cases[c].n; i++) {
            bool last = i + 1 == cases[c].n;
            /* The widest limit and options in between; none at the end, as above. */
            utfdfa_decoder_set_target(&d, last ? UTFDFA_UCS4LE : UTFDFA_WTF8);
            utfdfa_decoder_set_options(&d, last ? 0 : UTFDFA_UTF7_DIRECT_SET_O |
                                                          UTFDFA_CORRECTED_PUA);
            size_t one = 1, ol = 4 - got;
            r = utfdfa_decode_utf32(&d, cases[c].in + i, &one, split + got, &ol, last, NULL);
            CHECK(r == UTFDFA_INPUT_EMPTY && one == 1, "packed state %zu: byte %zu", c, i);
            got += ol;
        }
        CHECK(got == 1 && split[0] == whole[0] && utfdfa_decoder_offset(&d) == cases[c].n &&
                  !utfdfa_decoder_replaced(&d),
              "packed state %zu: split as whole", c);
    }
    /* U+200000 in RFC 2279 UTF-8 byte by byte, the target set first: still
     * too large for UTF-16 when it completes. */
    static const uint8_t big[] = {0xF8, 0x88, 0x80, 0x80, 0x80};
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, UTFDFA_UTF8_RFC2279, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    utfdfa_decoder_set_target(&d, UTFDFA_UTF16LE);
    utfdfa_result r = UTFDFA_INPUT_EMPTY;
    utfdfa_error e = {0, 0, UTFDFA_ERR_NONE};
    for (size_t i = 0; i < sizeof big && r == UTFDFA_INPUT_EMPTY; i++) {
        uint32_t cp;
        size_t one = 1, ol = 1;
        r = utfdfa_decode_utf32(&d, big + i, &one, &cp, &ol, i + 1 == sizeof big, &e);
    }
    CHECK(r == UTFDFA_MALFORMED && e.offset == 0 && e.kind == UTFDFA_ERR_TOO_LARGE,
          "packed state: the target survives the steps");
}

int main(int argc, char **argv)
{
    const char *shared = argc > 1 ? argv[1] : "../shared";
    names();
    packed_state();
    unicode_example();
    bom_rules();
    bom_not_first();
    uint8_t buf[64];
    for (size_t v = 0; v < sizeof vectors / sizeof vectors[0]; v++) {
        size_t n = parse_hex(vectors[v], buf, sizeof buf);
        streaming(buf, n, vectors[v]);
    }
    random_tests();
    size_bounds();
    kuhn(shared);
    if (!getenv("UTFDFA_QUICK"))
        exhaustive();
    else
        printf("exhaustive: skipped (UTFDFA_QUICK is set)\n");
    return check_summary("test_decode");
}
