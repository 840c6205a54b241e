/* SPDX-License-Identifier: MIT */
/* UTF-7 (RFC 2152) tests: the RFC's examples both ways, the hostile inputs
 * of issue 6 with their exact errors, every split point and 1-byte chunks
 * against whole-buffer results, encode -> decode round trips over random
 * code points (fixed seed) with and without Set O sent directly, and what
 * the encoder may write. The independent reference (tests/ref/ref_utf7.c)
 * is compared in test_utf7_ref.c when it is built.
 *
 * Inputs are copied into exact-size heap buffers (AddressSanitizer).
 * Last line: "test_utf7: N passed, M failed".
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "rng.h"
#include "utfdfa.h"

/* UTF-7, or IMAP's modified UTF-7 for test_imap(). */
static enum utfdfa_encoding g_enc = UTFDFA_UTF7;

/* What decoding gave: code points (U+FFFD per error in replace mode) and
 * the errors, in order. */
struct result {
    uint32_t cp[4096];
    size_t ncp;
    utfdfa_error err[64];
    size_t nerr;
};

/* Decode s[0..n) in chunks of `chunk` bytes (0: whole), output buffers of
 * `room` code points (0: enough), strict mode resumed after each error. */
static void decode_cut(const uint8_t *s, size_t n, size_t first, size_t chunk, size_t room,
                       enum utfdfa_error_mode mode, struct result *res);

static void decode(const uint8_t *s, size_t n, size_t chunk, size_t room, enum utfdfa_error_mode mode,
                   struct result *res)
{
    decode_cut(s, n, chunk, chunk, room, mode, res);
}

/* The same, the first chunk `first` bytes long. */
static void decode_cut(const uint8_t *s, size_t n, size_t first, size_t chunk, size_t room,
                       enum utfdfa_error_mode mode, struct result *res)
{
    uint8_t *copy = malloc(n ? n : 1);
    if (n)
        memcpy(copy, s, n);
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, g_enc, mode, UTFDFA_BOM_KEEP);
    res->ncp = res->nerr = 0;
    size_t at = 0;
    for (;;) {
        size_t step = at ? chunk : first;
        size_t end = step && n - at > step ? at + step : n;
        bool last = end == n;
        size_t cap = room ? room : sizeof res->cp / sizeof res->cp[0] - res->ncp;
        if (cap > sizeof res->cp / sizeof res->cp[0] - res->ncp)
            cap = sizeof res->cp / sizeof res->cp[0] - res->ncp;
        size_t src = end - at, dst = cap;
        uint32_t *out = malloc(cap * sizeof *out + 1);
        utfdfa_error e;
        utfdfa_result r = utfdfa_decode_utf32(&d, copy + at, &src, out, &dst, last, &e);
        memcpy(res->cp + res->ncp, out, dst * sizeof *out);
        free(out);
        res->ncp += dst;
        at += src;
        if (r == UTFDFA_MALFORMED) {
            if (res->nerr < sizeof res->err / sizeof res->err[0])
                res->err[res->nerr++] = e;
            continue;
        }
        if (r == UTFDFA_INPUT_EMPTY && last)
            break;
        if (r == UTFDFA_OUTPUT_FULL && dst == 0 && room == 0) {
            fail("no progress");
            break;
        }
    }
    free(copy);
}

static bool same(const struct result *a, const struct result *b)
{
    if (a->ncp != b->ncp || a->nerr != b->nerr)
        return false;
    if (memcmp(a->cp, b->cp, a->ncp * sizeof a->cp[0]))
        return false;
    for (size_t k = 0; k < a->nerr; k++)
        if (a->err[k].offset != b->err[k].offset || a->err[k].length != b->err[k].length ||
            a->err[k].kind != b->err[k].kind)
            return false;
    return true;
}

/* UTF-8 text -> code points (the test's own inputs are valid). */
static size_t from_utf8(const char *s, uint32_t *cp)
{
    size_t n = strlen(s), src = n, dst = n;
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    utfdfa_decode_utf32(&d, (const uint8_t *)s, &src, cp, &dst, true, NULL);
    return dst;
}

static size_t encode(const uint32_t *cp, size_t n, unsigned options, size_t chunk, uint8_t *out,
                     size_t cap)
{
    utfdfa_encoder e;
    utfdfa_encoder_init(&e, g_enc, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    utfdfa_encoder_set_options(&e, options);
    size_t at = 0, o = 0;
    for (;;) {
        size_t end = chunk && n - at > chunk ? at + chunk : n;
        size_t src = end - at, dst = cap - o;
        utfdfa_result r = utfdfa_encode(&e, cp + at, &src, out + o, &dst, end == n, NULL);
        at += src;
        o += dst;
        if (r != UTFDFA_INPUT_EMPTY) {
            fail("encode: result %d", (int)r);
            return o;
        }
        if (end == n)
            return o;
    }
}

/* RFC 2152, "Examples" (the third with Set O sent directly, as there). */
static void test_rfc_examples(void)
{
    static const struct {
        const char *text, *utf7;
        unsigned options;
    } ex[] = {
        {"A\xE2\x89\xA2\xCE\x91.", "A+ImIDkQ.", 0},
        {"Hi Mom -\xE2\x98\xBA-!", "Hi Mom -+Jjo--!", UTFDFA_UTF7_DIRECT_SET_O},
        {"\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E", "+ZeVnLIqe-", 0},
        {"Item 3 is \xC2\xA3" "1.", "Item 3 is +AKM-1.", 0},
        {"<script>", "+ADw-script+AD4-", 0},
        {"\xEF\xBB\xBF", "+/v8-", 0},
        {"+", "+-", 0},
        {"\xF0\x9F\x98\x80", "+2D3eAA-", 0},
    };
    for (size_t k = 0; k < sizeof ex / sizeof ex[0]; k++) {
        uint32_t cp[64];
        size_t n = from_utf8(ex[k].text, cp);
        static struct result res;
        decode((const uint8_t *)ex[k].utf7, strlen(ex[k].utf7), 0, 0, UTFDFA_STRICT, &res);
        CHECK(res.nerr == 0 && res.ncp == n && !memcmp(res.cp, cp, n * sizeof cp[0]),
              "decode %s", ex[k].utf7);
        uint8_t out[256];
        size_t m = encode(cp, n, ex[k].options, 0, out, sizeof out);
        CHECK(m == strlen(ex[k].utf7) && !memcmp(out, ex[k].utf7, m), "encode to %s: %.*s",
              ex[k].utf7, (int)m, out);
    }
    /* The BOM: stripped at the start of a stream when asked, kept elsewhere. */
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, UTFDFA_UTF7, UTFDFA_STRICT, UTFDFA_BOM_STRIP);
    uint32_t out[8];
    size_t src = 10, dst = 8;
    utfdfa_decode_utf32(&d, (const uint8_t *)"+/v8-a+/v8", &src, out, &dst, true, NULL);
    CHECK(dst == 2 && out[0] == 'a' && out[1] == 0xFEFF, "+/v8- stripped at the start only");
}

static struct test_rng rng = {0x9E3779B97F4A7C15u};

static size_t min_size(size_t a, size_t b)
{
    return a < b ? a : b;
}

/* Random text: ASCII (direct, Set O, specials), BMP and supplementary. */
static size_t random_text(uint32_t *cp, size_t max)
{
    size_t n = test_rng_below(&rng, max);
    for (size_t i = 0; i < n; i++) {
        uint32_t r = test_rng_u32(&rng);
        switch (r % 4) {
        case 0:
            cp[i] = 1 + r / 4 % 127;
            break;
        case 1:
            cp[i] = "+-A/~\\!a. "[r / 4 % 10];
            break;
        case 2:
            cp[i] = r / 4 % 0xD800;
            break;
        default:
            cp[i] = 0x10000 + r / 4 % 0x100000;
            break;
        }
    }
    return n;
}

static bool allowed_byte(uint8_t b, bool set_o)
{
    if (g_enc == UTFDFA_UTF7_IMAP) /* printable US-ASCII only */
        return b >= 0x20 && b <= 0x7E;
    if ((b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z') || (b >= '0' && b <= '9'))
        return true;
    if (b && strchr("'(),-./:? \t\r\n+", b))
        return true;
    return set_o && b && strchr("!\"#$%&*;<=>@[]^_`{|}", b);
}

static void test_round_trips(void)
{
    static uint32_t cp[300];
    static uint8_t out[300 * 8 + 16];
    static struct result whole, split;
    for (int t = 0; t < 3000; t++) {
        size_t n = random_text(cp, 300);
        unsigned options = t % 2 ? UTFDFA_UTF7_DIRECT_SET_O : 0;
        size_t m = encode(cp, n, options, 0, out, sizeof out);
        size_t m2 = encode(cp, n, options, 1 + t % 7, out + 0, sizeof out);
        CHECK(m == m2, "encoding in chunks: same length");
        bool ok = true;
        for (size_t i = 0; i < m; i++)
            ok = ok && allowed_byte(out[i], options);
        CHECK(ok, "encoder writes only Set D, SP/TAB/CR/LF, + and base64 (and Set O if asked)");
        decode(out, m, 0, 0, UTFDFA_STRICT, &whole);
        CHECK(whole.nerr == 0 && whole.ncp == n && !memcmp(whole.cp, cp, n * sizeof cp[0]),
              "round trip %d (%zu code points, %zu bytes)", t, n, m);
        decode(out, m, 1 + test_rng_below(&rng, 9), 1 + test_rng_below(&rng, 3), UTFDFA_STRICT,
               &split);
        CHECK(same(&split, &whole), "round trip %d in chunks, small output buffers", t);
    }
    /* Values the encoder must refuse: surrogates, above U+10FFFF. */
    static const uint32_t bad[] = {0xD800, 0xDFFF, 0x110000};
    for (size_t k = 0; k < 3; k++) {
        utfdfa_encoder e;
        utfdfa_encoder_init(&e, UTFDFA_UTF7, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
        size_t src = 1, dst = sizeof out;
        utfdfa_error err;
        utfdfa_result r = utfdfa_encode(&e, &bad[k], &src, out, &dst, true, &err);
        CHECK(r == UTFDFA_MALFORMED && src == 1 && dst == 0, "U+%04X refused", bad[k]);
    }
}

/* Transcode from `from` to UTF-7 in chunks of `chunk` bytes (0: one call)
 * with `room` bytes of output per call; false if it stalls or fails. */
static bool transcode_to_utf7(enum utfdfa_encoding from, enum utfdfa_error_mode mode,
                              unsigned options, const uint8_t *in, size_t n, size_t chunk,
                              size_t room, uint8_t *out, size_t cap, size_t *len)
{
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, from, mode, UTFDFA_BOM_KEEP);
    utfdfa_decoder_set_options(&d, options);
    size_t at = 0, o = 0;
    for (;;) {
        size_t end = chunk && n - at > chunk ? at + chunk : n;
        size_t src = end - at, dst = cap - o < room ? cap - o : room;
        utfdfa_result r = utfdfa_transcode(&d, g_enc, in + at, &src, out + o, &dst,
                                           end == n, NULL);
        at += src;
        o += dst;
        if (r == UTFDFA_MALFORMED || (r == UTFDFA_OUTPUT_FULL && src == 0 && dst == 0))
            return false;
        if (r == UTFDFA_INPUT_EMPTY && end == n) {
            *len = o;
            return true;
        }
    }
}

/* utfdfa_transcode to UTF-7 writes what utfdfa_encode writes for the
 * decoded text, in any chunking and with output buffers just big enough
 * for one character; replacing, it is the encoding of the replaced text. */
static void test_transcode(void)
{
    static uint32_t cp[300], back[300 * 4];
    static uint8_t in[300 * 4], want[300 * 8 + 16], got[300 * 8 + 16];
    for (int t = 0; t < 2000; t++) {
        size_t n = random_text(cp, 300);
        unsigned options = t % 2 ? UTFDFA_UTF7_DIRECT_SET_O : 0;
        enum utfdfa_encoding from = t % 3 ? UTFDFA_UTF8 : UTFDFA_UTF16LE;
        utfdfa_encoder e;
        utfdfa_encoder_init(&e, from, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
        size_t src = n, m = sizeof in;
        utfdfa_encode(&e, cp, &src, in, &m, true, NULL);
        if (t % 5 == 0) /* damage it: replacement characters in the text */
            for (size_t k = 0; k < m / 8; k++)
                in[test_rng_below(&rng, m)] = test_rng_byte(&rng);
        utfdfa_decoder d;
        utfdfa_decoder_init(&d, from, UTFDFA_REPLACE, UTFDFA_BOM_KEEP);
        size_t s = m, nb = sizeof back / sizeof back[0];
        utfdfa_decode_utf32(&d, in, &s, back, &nb, true, NULL);
        size_t w = encode(back, nb, options, 0, want, sizeof want), g = 0;
        size_t chunk = t % 4 ? 1 + test_rng_below(&rng, 13) : 0, room = t % 3 ? 9 : sizeof got;
        bool ok = transcode_to_utf7(from, UTFDFA_REPLACE, options, in, m, chunk, room, got,
                                    sizeof got, &g);
        CHECK(ok && g == w && !memcmp(got, want, w), "transcode %d to UTF-7 (%zu bytes in, "
              "chunks of %zu, room %zu): %zu bytes, want %zu", t, m, chunk, room, g, w);
    }
}

/* Random byte strings over the bytes that matter: whole vs every split. */
static void test_random_bytes(void)
{
    static const char alphabet[] = "+-AQgwBIKxY2/.~\\aE\x80 ";
    static uint8_t in[40];
    static struct result whole, split, rep;
    for (int t = 0; t < 4000; t++) {
        size_t n = test_rng_below(&rng, sizeof in);
        for (size_t i = 0; i < n; i++)
            in[i] = (uint8_t)alphabet[test_rng_below(&rng, sizeof alphabet - 1)];
        decode(in, n, 0, 0, UTFDFA_STRICT, &whole);
        decode(in, n, 0, 0, UTFDFA_REPLACE, &rep);
        CHECK(rep.ncp >= whole.nerr, "replace writes a U+FFFD per error");
        for (size_t c = 1; c < n; c += 1 + (c > 4) * 3) {
            decode(in, n, c, 0, UTFDFA_STRICT, &split);
            CHECK(same(&split, &whole), "random %d: chunks of %zu", t, c);
        }
    }
}

/* Words of 1-40 characters that UTF-7 puts in base64 (one in 8 outside
 * the BMP) between 1-3 direct characters: runs long enough for the kernels
 * (src/fast/), which a call offers only 16 bytes ahead. */
static size_t worded_text(uint32_t *cp, size_t max)
{
    size_t n = 0;
    while (n + 44 <= max) {
        for (size_t k = 1 + test_rng_below(&rng, 40); k; k--) {
            uint32_t r = test_rng_u32(&rng);
            cp[n++] = r % 8 ? 0x100 + r / 8 % 0xD700 : 0x10000 + r / 8 % 0x100000;
        }
        for (size_t k = 1 + test_rng_below(&rng, 3); k; k--)
            cp[n++] = " ,a"[test_rng_below(&rng, 3)];
    }
    return n;
}

/* Calls that begin inside a run, at every bit phase and with a high
 * surrogate held, and end in one: the text cut in two at every byte and in
 * chunks of 16-99 bytes, decoded and transcoded to UTF-8, gives what one
 * call gives (the kernels take over a run where its next group begins, and
 * the text after the run's end). */
static void test_kernel_cuts(void)
{
    static uint32_t cp[2000];
    static uint8_t in[2000 * 8], want[2000 * 4], got[2000 * 4 + 64];
    static struct result whole, cut;
    for (int t = 0; t < 12; t++) {
        size_t n = worded_text(cp, t < 10 ? 300 : 2000);
        size_t m = encode(cp, n, 0, 0, in, sizeof in);
        decode(in, m, 0, 0, UTFDFA_STRICT, &whole);
        CHECK(whole.nerr == 0 && whole.ncp == n && !memcmp(whole.cp, cp, n * sizeof cp[0]),
              "worded text %d: one call (%zu bytes)", t, m);
        utfdfa_encoder e;
        utfdfa_encoder_init(&e, UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
        size_t src = n, w = sizeof want;
        utfdfa_encode(&e, cp, &src, want, &w, true, NULL);
        for (size_t first = 1; first < m; first += t < 10 ? 1 : 7) {
            size_t chunk = first % 8 ? m : 16 + first % 84;
            decode_cut(in, m, first, chunk, 0, UTFDFA_STRICT, &cut);
            CHECK(same(&cut, &whole), "worded text %d: cut at %zu, then chunks of %zu", t,
                  first, chunk);
            utfdfa_decoder d;
            utfdfa_decoder_init(&d, g_enc, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
            size_t at = 0, o = 0;
            for (size_t end = first; at < m; end = min_size(m, at + chunk)) {
                size_t s2 = end - at, d2 = sizeof got - o;
                utfdfa_transcode(&d, UTFDFA_UTF8, in + at, &s2, got + o, &d2, end == m, NULL);
                at += s2;
                o += d2;
                if (s2 == 0 && d2 == 0)
                    break;
            }
            CHECK(at == m && o == w && !memcmp(got, want, w),
                  "worded text %d to UTF-8: cut at %zu, then chunks of %zu", t, first, chunk);
        }
    }
}

/* An unterminated run of n bytes fed one byte at a time, each call given
 * only that byte in a 1-byte heap buffer (so under ASan no call can look
 * back at earlier input: the decoder's fixed-size state is all it keeps).
 * Returns the CPU seconds taken. */
static double long_run(size_t n, bool report)
{
    uint8_t *one = malloc(1);
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, UTFDFA_UTF7, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    size_t total = 0;
    bool each_one = true;
    clock_t t0 = clock();
    for (size_t i = 0; i < n; i++) {
        *one = i == 0 ? '+' : (uint8_t)"AGE"[(i - 1) % 3]; /* "AGE" repeated: U+0061 every 16 bits */
        uint32_t out[2];
        size_t src = 1, dst = 2;
        utfdfa_result r = utfdfa_decode_utf32(&d, one, &src, out, &dst, false, NULL);
        each_one = each_one && src == 1 && r == UTFDFA_INPUT_EMPTY;
        total += dst;
    }
    size_t src = 0, dst = 0;
    utfdfa_error err;
    utfdfa_result r = utfdfa_decode_utf32(&d, one, &src, NULL, &dst, true, &err);
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    free(one);
    if (report) {
        CHECK(each_one, "every 1-byte call reads its byte");
        /* 6 * (n - 1) bits make that many 16-bit units; the rest ends the run. */
        CHECK(total == 6 * (n - 1) / 16, "%zu-byte run: %zu characters", n, total);
        bool clean_end = (6 * (n - 1)) % 16 < 8;
        CHECK(clean_end ? r == UTFDFA_INPUT_EMPTY : r == UTFDFA_MALFORMED, "the run's end");
    }
    return secs;
}

/* Linear time: a run 4 times longer takes about 4 times as long (rescanning
 * would make it 16). The best of three runs of each length, so a busy
 * machine does not decide; the bound leaves a factor of 2.5 for noise. */
static void test_long_run(void)
{
    double quarter = 1e9, whole = 1e9;
    for (int rep = 0; rep < 3; rep++) {
        double q = long_run((size_t)1 << 18, rep == 0), w = long_run((size_t)1 << 20, rep == 0);
        quarter = q < quarter ? q : quarter;
        whole = w < whole ? w : whole;
    }
    double ratio = whole / (quarter > 1e-4 ? quarter : 1e-4);
    CHECK(ratio < 10.0, "1 MiB run in 1-byte calls takes %.1fx a 256 KiB one (linear: ~4)", ratio);
    printf("test_utf7: unterminated run in 1-byte calls: 256 KiB %.3f s, 1 MiB %.3f s (%.1fx)\n",
           quarter, whole, ratio);
}

/* IMAP's modified UTF-7 (RFC 3501 section 5.1.3): its example both ways,
 * its own rules as errors with exact extents, and the UTF-7 tests again
 * (round trips, chunks, transcoding) with its alphabet. */
static void test_imap(void)
{
    g_enc = UTFDFA_UTF7_IMAP;
    static const char example[] = "~peter/mail/&U,BTFw-/&ZeVnLIqe-";
    uint32_t want[64];
    size_t nw = from_utf8("~peter/mail/\xE5\x8F\xB0\xE5\x8C\x97/\xE6\x97\xA5\xE6\x9C\xAC"
                          "\xE8\xAA\x9E", want);
    static struct result res, chunked;
    decode((const uint8_t *)example, strlen(example), 0, 0, UTFDFA_STRICT, &res);
    CHECK(res.nerr == 0 && res.ncp == nw && !memcmp(res.cp, want, nw * sizeof want[0]),
          "imap: RFC 3501's example decodes");
    uint8_t out[128];
    size_t m = encode(want, nw, 0, 0, out, sizeof out);
    CHECK(m == strlen(example) && !memcmp(out, example, m), "imap: and encodes: %.*s", (int)m,
          out);
    static const struct {
        const char *in;
        struct {
            unsigned offset, length;
            enum utfdfa_error_kind kind;
        } err[2];
    } v[] = {
        {"&AOk-", {{0, 0, 0}}},                            /* U+00E9 */
        {"&-&AOk-", {{0, 0, 0}}},                          /* "&" then U+00E9 */
        {"&AOk", {{3, 1, UTFDFA_ERR_TRUNCATED}}},          /* "MUST end in US-ASCII" */
        {"&AOk.", {{3, 1, UTFDFA_ERR_BAD_SHIFT}}},         /* "no implicit shift" */
        {"&AOkA6Q.", {{6, 1, UTFDFA_ERR_BAD_SHIFT}}},      /* its partial unit */
        {"&AOkA6QDp.", {{8, 1, UTFDFA_ERR_BAD_SHIFT}}},    /* at a clean phase: the last digit */
        {"&AOk-&AOk-", {{5, 1, UTFDFA_ERR_BAD_SHIFT}}},    /* a null shift, "-&" */
        {"&AGE-", {{1, 3, UTFDFA_ERR_OVERLONG}}},          /* "a" must be direct */
        {"&ACY-", {{1, 3, UTFDFA_ERR_OVERLONG}}},          /* "&" must be "&-" */
        {"&AB-x", {{1, 2, UTFDFA_ERR_PARTIAL_UNIT}}},
        {"&A-", {{1, 1, UTFDFA_ERR_PARTIAL_UNIT}}},        /* no unit: "A" ends nothing */
        {"&AOkA6QDpA-", {{9, 1, UTFDFA_ERR_PARTIAL_UNIT}}},
        {"&AAB-", {{3, 1, UTFDFA_ERR_NONZERO_PADDING}}},
        {"&2AE-", {{1, 3, UTFDFA_ERR_SURROGATE}}},
        {"&.", {{0, 1, UTFDFA_ERR_BAD_SHIFT}}},
        {"&", {{0, 1, UTFDFA_ERR_TRUNCATED}}},
        {"a\tb\x7F", {{1, 1, UTFDFA_ERR_INVALID_LEAD}, {3, 1, UTFDFA_ERR_INVALID_LEAD}}},
        {"&AOk/-", {{3, 1, UTFDFA_ERR_BAD_SHIFT}, {4, 1, UTFDFA_ERR_NONE}}},  /* "/" is no digit */
    };
    for (size_t k = 0; k < sizeof v / sizeof v[0]; k++) {
        const uint8_t *in = (const uint8_t *)v[k].in;
        size_t n = strlen(v[k].in);
        decode(in, n, 0, 0, UTFDFA_STRICT, &res);
        size_t nerr = 0;
        while (nerr < 2 && v[k].err[nerr].length && v[k].err[nerr].kind)
            nerr++;
        bool ok = res.nerr == nerr;
        for (size_t e = 0; ok && e < nerr; e++)
            ok = res.err[e].offset == v[k].err[e].offset &&
                 res.err[e].length == v[k].err[e].length && res.err[e].kind == v[k].err[e].kind;
        CHECK(ok, "imap %s: %zu errors, first %s at %llu+%u", v[k].in, res.nerr,
              res.nerr ? utfdfa_error_name(res.err[0].kind) : "-",
              res.nerr ? (unsigned long long)res.err[0].offset : 0ull,
              res.nerr ? res.err[0].length : 0u);
        for (size_t c = 1; c <= n; c++) {
            decode(in, n, c, 0, UTFDFA_STRICT, &chunked);
            CHECK(same(&chunked, &res), "imap %s in chunks of %zu", v[k].in, c);
        }
    }
    test_round_trips();
    test_random_bytes();
    test_transcode();
    test_kernel_cuts();
    g_enc = UTFDFA_UTF7;
}

int utfdfa__fast_force(const char *level); /* src/fast/kernels.h: a level for every run */

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--level") == 0 && !utfdfa__fast_force(argv[2])) {
        printf("%s: level %s: not on this CPU or in this build, skipped\n", "test_utf7", argv[2]);
        return 0;
    }
    test_rfc_examples();
    test_round_trips();
    test_random_bytes();
    test_transcode();
    test_kernel_cuts();
    test_long_run();
    test_imap();
    return check_summary("test_utf7");
}
