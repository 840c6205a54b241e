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

#include "ref_utf8.h"
#include "utfdfa.h"
#include "vectors.h"

#include "check.h"

static uint8_t *dup_exact(const uint8_t *s, size_t n)
{
    uint8_t *p = malloc(n ? n : 1);
    if (!p) {
        perror("malloc");
        exit(2);
    }
    if (n)
        memcpy(p, s, n);
    return p;
}

static const char *hex(const uint8_t *s, size_t n)
{
    static char buf[3 * 64 + 8];
    size_t k = 0;
    for (size_t i = 0; i < n && i < 64; i++)
        k += (size_t)snprintf(buf + k, sizeof buf - k, "%02X ", s[i]);
    if (n > 64)
        snprintf(buf + k, sizeof buf - k, "...");
    else if (k)
        buf[k - 1] = 0;
    else
        buf[0] = 0;
    return buf;
}

/* ------------------------------------------------------------------ runs */

enum sink { SINK_U32, SINK_U16, SINK_BYTES, SINK_NONE };

struct result {
    uint8_t *out; /* output normalised to bytes (native units copied as they are) */
    size_t len, cap;
    utfdfa_error err[4096];
    size_t nerr;
    int stalled;
};

static void append(struct result *r, const void *p, size_t n)
{
    if (r->len + n > r->cap) {
        r->cap = (r->len + n) * 2 + 64;
        r->out = realloc(r->out, r->cap);
        if (!r->out) {
            perror("realloc");
            exit(2);
        }
    }
    memcpy(r->out + r->len, p, n);
    r->len += n;
}

/* An empty result whose buffer is never NULL (memcpy and memcmp want valid
 * pointers even for 0 bytes). */
static void result_init(struct result *r)
{
    memset(r, 0, sizeof *r);
    r->cap = 64;
    r->out = malloc(r->cap);
    if (!r->out) {
        perror("malloc");
        exit(2);
    }
}

static void result_free(struct result *r)
{
    free(r->out);
    memset(r, 0, sizeof *r);
}

struct config {
    enum utfdfa_encoding from, to;
    enum sink sink;
    enum utfdfa_error_mode errors;
    enum utfdfa_bom bom;
};

static size_t unit_size(enum sink s)
{
    return s == SINK_U32 ? 4 : s == SINK_U16 ? 2 : 1;
}

/* Feed in[0..n) in chunks of `chunk` bytes (0: all at once) with an output
 * buffer of `outcap` units, calling again after every MALFORMED and
 * OUTPUT_FULL, and record everything. */
static void run(const struct config *c, const uint8_t *in, size_t n, size_t chunk, size_t outcap,
                struct result *r)
{
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, c->from, c->errors, c->bom);
    size_t us = unit_size(c->sink);
    uint8_t *dst = malloc(outcap > 0 ? outcap * us : 1);
    size_t pos = 0;
    result_init(r);
    do {
        size_t len = chunk && n - pos > chunk ? chunk : n - pos;
        bool last = pos + len == n;
        uint8_t *piece = dup_exact(in + pos, len);
        size_t used = 0;
        for (;;) {
            size_t src = len - used, cap = outcap;
            utfdfa_error e = {0, 0, UTFDFA_ERR_NONE};
            utfdfa_result res;
            switch (c->sink) {
            case SINK_U32:
                res = utfdfa_decode_utf32(&d, piece + used, &src, (uint32_t *)(void *)dst, &cap,
                                          last, &e);
                break;
            case SINK_U16:
                res = utfdfa_decode_utf16(&d, piece + used, &src, (uint16_t *)(void *)dst, &cap,
                                          last, &e);
                break;
            case SINK_BYTES:
                res = utfdfa_transcode(&d, c->to, piece + used, &src, dst, &cap, last, &e);
                break;
            default:
                cap = 0;
                res = utfdfa_check(&d, piece + used, &src, last, &e);
                break;
            }
            used += src;
            append(r, dst, cap * us);
            if (res == UTFDFA_MALFORMED) {
                if (r->nerr < sizeof r->err / sizeof r->err[0])
                    r->err[r->nerr++] = e;
                continue;
            }
            if (res == UTFDFA_OUTPUT_FULL) {
                if (src == 0 && cap == 0) { /* no progress with room for a character */
                    r->stalled = 1;
                    break;
                }
                continue;
            }
            if (used != len)
                r->stalled = 1;
            break;
        }
        free(piece);
        pos += len;
        if (r->stalled)
            break;
    } while (pos < n);
    free(dst);
}

static int same(const struct result *a, const struct result *b)
{
    if (a->len != b->len || memcmp(a->out, b->out, a->len) || a->nerr != b->nerr ||
        a->stalled || b->stalled)
        return 0;
    for (size_t i = 0; i < a->nerr; i++)
        if (a->err[i].offset != b->err[i].offset || a->err[i].length != b->err[i].length ||
            a->err[i].kind != b->err[i].kind)
            return 0;
    return 1;
}

/* ------------------------------------------------------- reference events */

static enum utfdfa_error_kind kind_of(enum ref_kind k)
{
    switch (k) {
    case REF_UNEXPECTED_CONTINUATION:
        return UTFDFA_ERR_UNEXPECTED_CONTINUATION;
    case REF_INVALID_LEAD:
        return UTFDFA_ERR_INVALID_LEAD;
    case REF_OVERLONG:
        return UTFDFA_ERR_OVERLONG;
    case REF_SURROGATE:
        return UTFDFA_ERR_SURROGATE;
    case REF_TOO_LARGE:
        return UTFDFA_ERR_TOO_LARGE;
    case REF_TRUNCATED:
        return UTFDFA_ERR_TRUNCATED;
    default:
        return UTFDFA_ERR_NONE;
    }
}

/* What the reference decoder makes of s: code points (U+FFFD for errors in
 * replace mode) and the errors, in the same shape as run(). */
static void reference(const uint8_t *s, size_t n, enum utfdfa_error_mode errors, struct result *r)
{
    result_init(r);
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        enum ref_kind k;
        size_t len = ref_utf8_next(s + i, n - i, &cp, &k);
        if (k == REF_OK) {
            append(r, &cp, 4);
        } else {
            if (r->nerr < sizeof r->err / sizeof r->err[0])
                r->err[r->nerr++] = (utfdfa_error){i, (uint32_t)len, kind_of(k)};
            if (errors == UTFDFA_REPLACE) {
                uint32_t fffd = 0xFFFD;
                append(r, &fffd, 4);
            }
        }
        i += len;
    }
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
        if (kind == REF_OK || e.offset != ri || e.length != len || e.kind != kind_of(kind))
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

static void vectors_against_reference(void)
{
    uint8_t buf[64];
    for (size_t v = 0; v < sizeof vectors / sizeof vectors[0]; v++) {
        size_t n = parse_hex(vectors[v], buf);
        uint8_t *in = dup_exact(buf, n);
        for (int mode = UTFDFA_STRICT; mode <= UTFDFA_REPLACE; mode++) {
            struct config c = {UTFDFA_UTF8, UTFDFA_UTF8, SINK_U32, (enum utfdfa_error_mode)mode,
                               UTFDFA_BOM_KEEP};
            struct result a, b;
            run(&c, in, n, 0, 64, &a);
            reference(in, n, c.errors, &b);
            CHECK(same(&a, &b), "vector [%s] mode %d: library and reference disagree",
                  vectors[v], mode);
            result_free(&a);
            result_free(&b);
        }
        free(in);
    }
}

static void unicode_example(void)
{
    /* Unicode 3.9, U+FFFD substitution of maximal subparts. */
    uint8_t buf[16];
    size_t n = parse_hex("61 F1 80 80 E1 80 C2 62 80 63 80 BF 64", buf);
    static const uint32_t want[] = {'a', 0xFFFD, 0xFFFD, 0xFFFD, 'b', 0xFFFD, 'c',
                                    0xFFFD, 0xFFFD, 'd'};
    struct config c = {UTFDFA_UTF8, UTFDFA_UTF8, SINK_U32, UTFDFA_REPLACE, UTFDFA_BOM_KEEP};
    struct result r;
    uint8_t *in = dup_exact(buf, n);
    run(&c, in, n, 0, 64, &r);
    CHECK(r.len == sizeof want && memcmp(r.out, want, sizeof want) == 0,
          "Unicode 3.9 example: wrong replacement output");
    result_free(&r);
    /* 2F C0 AE 2E 2F never becomes "/../" (RFC 3629 section 10). */
    n = parse_hex("2F C0 AE 2E 2F", buf);
    memcpy(in, buf, n);
    run(&c, in, n, 0, 64, &r);
    static const uint32_t safe[] = {'/', 0xFFFD, 0xFFFD, '.', '/'};
    CHECK(r.len == sizeof safe && memcmp(r.out, safe, sizeof safe) == 0,
          "2F C0 AE 2E 2F decoded to something other than / FFFD FFFD . /");
    result_free(&r);
    free(in);
}

/* ------------------------------------------------------------ streaming */

static const struct config stream_configs[] = {
    {UTFDFA_UTF8, UTFDFA_UTF8, SINK_U32, UTFDFA_STRICT, UTFDFA_BOM_KEEP},
    {UTFDFA_UTF8, UTFDFA_UTF8, SINK_U32, UTFDFA_REPLACE, UTFDFA_BOM_STRIP},
    {UTFDFA_UTF8, UTFDFA_UTF8, SINK_U16, UTFDFA_REPLACE, UTFDFA_BOM_ADD},
    {UTFDFA_UTF8, UTFDFA_UTF8, SINK_BYTES, UTFDFA_REPLACE, UTFDFA_BOM_KEEP},
    {UTFDFA_UTF8, UTFDFA_UTF16BE, SINK_BYTES, UTFDFA_IGNORE, UTFDFA_BOM_ADD},
    {UTFDFA_UTF8, UTFDFA_UTF8, SINK_NONE, UTFDFA_STRICT, UTFDFA_BOM_KEEP},
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
    {UTFDFA_CORRECTED_UTF8, UTFDFA_UTF8, SINK_NONE, UTFDFA_STRICT, UTFDFA_BOM_KEEP},
    {UTFDFA_UTF8, UTFDFA_UTF7, SINK_BYTES, UTFDFA_REPLACE, UTFDFA_BOM_ADD},
    {UTFDFA_UTF16BE, UTFDFA_UTF7, SINK_BYTES, UTFDFA_STRICT, UTFDFA_BOM_KEEP},
    {UTFDFA_UTF7, UTFDFA_UTF7, SINK_BYTES, UTFDFA_REPLACE, UTFDFA_BOM_STRIP},
};

/* The smallest output buffer that always has room for one character (and
 * a BOM owed before it): a UTF-32 unit, a UTF-16 pair, or the longest
 * character of the byte encoding (6 bytes in the 1-6 byte forms, else 4)
 * plus its BOM (3 bytes in the UTF-8 forms, else at most 4); in UTF-7
 * "+/v8" and a pair's 5 digits after it. */
static size_t min_room(const struct config *c)
{
    if (c->sink != SINK_BYTES)
        return c->sink == SINK_U32 ? 2 : 3;
    if (c->to == UTFDFA_UTF7)
        return 9;
    return c->to == UTFDFA_UTF8_RFC2279 || c->to == UTFDFA_CORRECTED_UTF8 ? 9 : 8;
}

static void streaming(const uint8_t *in, size_t n, const char *what)
{
    for (size_t k = 0; k < sizeof stream_configs / sizeof stream_configs[0]; k++) {
        const struct config *c = &stream_configs[k];
        struct result whole, part;
        run(c, in, n, 0, 4 * n + 16, &whole);
        CHECK(!whole.stalled, "%s config %zu: whole-buffer run stalled", what, k);
        int ok = 1;
        /* Chunks of every size (two_calls() covers one split at every offset). */
        for (size_t at = 1; at < n && ok; at++) {
            struct result a;
            run(c, in, n, at, 4 * n + 16, &a);
            if (!same(&a, &whole)) {
                fail("%s config %zu: chunks of %zu bytes differ from one call", what, k, at);
                ok = 0;
            }
            result_free(&a);
        }
        /* Byte by byte with the smallest output buffer. */
        run(c, in, n, 1, min_room(c), &part);
        CHECK(same(&part, &whole), "%s config %zu: byte-by-byte, small output differs", what, k);
        result_free(&part);
        /* One call, smallest output buffer. */
        run(c, in, n, 0, min_room(c), &part);
        CHECK(same(&part, &whole), "%s config %zu: small output buffer differs", what, k);
        result_free(&part);
        CHECK(ok, "%s config %zu: every chunk size agrees", what, k);
        result_free(&whole);
    }
}

/* Exactly two calls, split at every offset. */
static void two_calls(const uint8_t *in, size_t n, const char *what)
{
    struct config c = {UTFDFA_UTF8, UTFDFA_UTF8, SINK_U32, UTFDFA_REPLACE, UTFDFA_BOM_STRIP};
    struct result whole;
    run(&c, in, n, 0, n + 2, &whole);
    uint32_t *dst = malloc((n + 2) * 4);
    for (size_t at = 0; at <= n; at++) {
        utfdfa_decoder d;
        utfdfa_decoder_init(&d, c.from, c.errors, c.bom);
        uint8_t *a = dup_exact(in, at), *b = dup_exact(in + at, n - at);
        size_t s1 = at, o1 = n + 2;
        utfdfa_result r1 = utfdfa_decode_utf32(&d, a, &s1, dst, &o1, false, NULL);
        size_t s2 = n - at, o2 = n + 2 - o1;
        utfdfa_result r2 = utfdfa_decode_utf32(&d, b, &s2, dst + o1, &o2, true, NULL);
        int ok = r1 == UTFDFA_INPUT_EMPTY && r2 == UTFDFA_INPUT_EMPTY && s1 == at &&
                 s2 == n - at && (o1 + o2) * 4 == whole.len &&
                 memcmp(dst, whole.out, whole.len) == 0;
        CHECK(ok, "%s: split into two calls at %zu differs", what, at);
        free(a);
        free(b);
    }
    free(dst);
    result_free(&whole);
}

/* Output exactly full, and one unit short. */
static void exact_room(const uint8_t *in, size_t n, const char *what)
{
    for (size_t k = 0; k < sizeof stream_configs / sizeof stream_configs[0]; k++) {
        const struct config *c = &stream_configs[k];
        if (c->sink == SINK_NONE || c->errors == UTFDFA_STRICT)
            continue;
        struct result whole;
        run(c, in, n, 0, 4 * n + 16, &whole);
        size_t us = unit_size(c->sink), units = whole.len / us;
        uint8_t *dst = malloc(units * us + 1);
        for (size_t short_by = 0; short_by <= (units > 0); short_by++) {
            size_t room = units - short_by;
            utfdfa_decoder d;
            utfdfa_decoder_init(&d, c->from, c->errors, c->bom);
            uint8_t *src = dup_exact(in, n);
            size_t s = n, o = room;
            utfdfa_result r;
            if (c->sink == SINK_U32)
                r = utfdfa_decode_utf32(&d, src, &s, (uint32_t *)(void *)dst, &o, true, NULL);
            else if (c->sink == SINK_U16)
                r = utfdfa_decode_utf16(&d, src, &s, (uint16_t *)(void *)dst, &o, true, NULL);
            else
                r = utfdfa_transcode(&d, c->to, src, &s, dst, &o, true, NULL);
            if (room == units)
                CHECK(r == UTFDFA_INPUT_EMPTY && s == n && o == units &&
                          memcmp(dst, whole.out, whole.len) == 0,
                      "%s config %zu: output buffer exactly full fails", what, k);
            else
                CHECK(r == UTFDFA_OUTPUT_FULL && o <= room && memcmp(dst, whole.out, o * us) == 0,
                      "%s config %zu: output one unit short is not OUTPUT_FULL with a prefix",
                      what, k);
            free(src);
        }
        free(dst);
        result_free(&whole);
    }
}

/* ------------------------------------------------------------ random */

static uint64_t rng_state = 20261122;

static uint32_t rnd(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}

static size_t random_input(uint8_t *buf, size_t max)
{
    static const uint8_t pick[] = {0x41, 0x0A, 0x80, 0x8F, 0x90, 0xBF, 0xA0, 0xC0, 0xC1, 0xC2,
                                   0xDF, 0xE0, 0xE1, 0xED, 0xEE, 0xEF, 0xBB, 0xF0, 0xF1, 0xF4,
                                   0xF5, 0xF8, 0xFE, 0xFF, 0xD8, 0xDC, 0x00};
    size_t n = rnd() % (max + 1);
    for (size_t i = 0; i < n; i++) {
        uint32_t r = rnd();
        if (r % 4 == 0) { /* a valid character now and then */
            uint32_t cp = rnd() % 0x110000;
            uint8_t enc[4];
            size_t k = ref_utf8_encode(cp, enc);
            for (size_t j = 0; j < k && i < n; j++)
                buf[i++] = enc[j];
            i--;
        } else {
            buf[i] = r % 2 ? pick[rnd() % sizeof pick] : (uint8_t)rnd();
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
            struct result a, b;
            uint8_t *in = dup_exact(buf, n);
            run(&c, in, n, 0, 64, &a);
            reference(in, n, c.errors, &b);
            CHECK(same(&a, &b), "%s [%s]: library and reference disagree", what, hex(buf, n));
            free(in);
            result_free(&a);
            result_free(&b);
        }
        if (t < 120) {
            streaming(buf, n, what);
            two_calls(buf, n, what);
            exact_room(buf, n, what);
        }
    }
}

/* ------------------------------------------------------------ variants */

/* Decode in one call with replacement off and return the code points and
 * the first error (kind NONE if none). */
static size_t decode_all(enum utfdfa_encoding from, const char *hexbytes, uint32_t *cps,
                         size_t cap, utfdfa_error *first)
{
    uint8_t buf[64];
    size_t n = parse_hex(hexbytes, buf);
    struct config c = {from, UTFDFA_UTF8, SINK_U32, UTFDFA_STRICT, UTFDFA_BOM_KEEP};
    struct result r;
    uint8_t *in = dup_exact(buf, n);
    run(&c, in, n, 0, cap, &r);
    size_t k = r.len / 4;
    memcpy(cps, r.out, r.len);
    *first = r.nerr ? r.err[0] : (utfdfa_error){0, 0, UTFDFA_ERR_NONE};
    result_free(&r);
    free(in);
    return k;
}

static size_t encode_one(enum utfdfa_encoding to, uint32_t cp, uint8_t *out, size_t cap,
                         utfdfa_error *err)
{
    utfdfa_encoder e;
    utfdfa_encoder_init(&e, to, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    size_t s = 1, o = cap;
    err->kind = UTFDFA_ERR_NONE;
    utfdfa_encode(&e, &cp, &s, out, &o, true, err);
    return o;
}

/* A spec table row: bytes <-> code point, both ways. */
static void row(enum utfdfa_encoding enc, const char *hexbytes, uint32_t cp)
{
    uint32_t got[8];
    utfdfa_error e;
    size_t k = decode_all(enc, hexbytes, got, 8, &e);
    CHECK(k == 1 && got[0] == cp && e.kind == UTFDFA_ERR_NONE, "%s: [%s] should decode to %X",
          utfdfa_encoding_name(enc), hexbytes, cp);
    uint8_t want[16], out[16];
    size_t n = parse_hex(hexbytes, want);
    size_t o = encode_one(enc, cp, out, sizeof out, &e);
    CHECK(o == n && memcmp(out, want, n) == 0, "%s: U+%X should encode to [%s]",
          utfdfa_encoding_name(enc), cp, hexbytes);
}

static void rfc2279(void)
{
    /* RFC 2279bis section 3, one row per length at both ends. */
    row(UTFDFA_UTF8_RFC2279, "7F", 0x7F);
    row(UTFDFA_UTF8_RFC2279, "C2 80", 0x80);
    row(UTFDFA_UTF8_RFC2279, "EF BF BF", 0xFFFF);
    row(UTFDFA_UTF8_RFC2279, "F0 90 80 80", 0x10000);
    row(UTFDFA_UTF8_RFC2279, "F4 90 80 80", 0x110000);   /* above RFC 3629's limit */
    row(UTFDFA_UTF8_RFC2279, "F7 BF BF BF", 0x1FFFFF);
    row(UTFDFA_UTF8_RFC2279, "F8 88 80 80 80", 0x200000);
    row(UTFDFA_UTF8_RFC2279, "FB BF BF BF BF", 0x3FFFFFF);
    row(UTFDFA_UTF8_RFC2279, "FC 84 80 80 80 80", 0x4000000);
    row(UTFDFA_UTF8_RFC2279, "FD BF BF BF BF BF", 0x7FFFFFFF);
    row(UTFDFA_UTF8_RFC2279, "C2 A9", 0xA9);             /* utf-8(7) examples */
    row(UTFDFA_UTF8_RFC2279, "E2 89 A0", 0x2260);
    /* Overlong F8 80 80 80 80: five errors, at the same boundaries as the
     * RFC 3629 decoder gives for the same bytes. */
    static const char *const both_bad[] = {"F8 80 80 80 80", "FC 80 80 80 80 80",
                                           "C0 AF", "E0 80 AF", "F0 80 80 AF", "ED A0 80",
                                           "FE", "FF 80", "F8 87 BF BF BF"};
    for (size_t k = 0; k < sizeof both_bad / sizeof both_bad[0]; k++) {
        uint8_t buf[16];
        size_t n = parse_hex(both_bad[k], buf);
        struct config a = {UTFDFA_UTF8_RFC2279, UTFDFA_UTF8, SINK_U32, UTFDFA_STRICT,
                           UTFDFA_BOM_KEEP};
        struct config b = a;
        b.from = UTFDFA_UTF8;
        struct result ra, rb;
        run(&a, buf, n, 0, 16, &ra);
        run(&b, buf, n, 0, 16, &rb);
        int ok = ra.len == 0 && rb.len == 0 && ra.nerr == rb.nerr;
        for (size_t i = 0; ok && i < ra.nerr; i++)
            ok = ra.err[i].offset == rb.err[i].offset && ra.err[i].length == rb.err[i].length;
        CHECK(ok, "rfc2279 [%s]: not rejected with RFC 3629's maximal subparts", both_bad[k]);
        result_free(&ra);
        result_free(&rb);
    }
    uint32_t got[8];
    utfdfa_error e;
    decode_all(UTFDFA_UTF8_RFC2279, "F8 80 80 80 80", got, 8, &e);
    CHECK(e.kind == UTFDFA_ERR_OVERLONG && e.offset == 0 && e.length == 1,
          "rfc2279: F8 80 80 80 80 is overlong");
    /* Where both grammars admit the same bytes (leads below F4, up to 3
     * bytes), both decoders agree exactly. */
    unsigned long bad = 0;
    for (unsigned long v = 0; v < 1ul << 24; v += 1 + (v >> 20)) {
        uint8_t b3[3] = {(uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
        if (b3[0] >= 0xF4 || b3[1] >= 0xF4 || b3[2] >= 0xF4)
            continue;
        struct config a = {UTFDFA_UTF8_RFC2279, UTFDFA_UTF8, SINK_U32, UTFDFA_STRICT,
                           UTFDFA_BOM_KEEP};
        struct config b = a;
        b.from = UTFDFA_UTF8;
        struct result ra, rb;
        run(&a, b3, 3, 0, 8, &ra);
        run(&b, b3, 3, 0, 8, &rb);
        bad += !same(&ra, &rb);
        result_free(&ra);
        result_free(&rb);
    }
    CHECK(bad == 0, "rfc2279 and RFC 3629 decoders disagree on %lu 3-byte strings", bad);
    /* Round trips at every power-of-two boundary of the 31-bit space. */
    for (uint32_t bit = 0; bit < 31; bit++) {
        uint32_t vals[3] = {(1u << bit) - 1, 1u << bit, (1u << bit) + 1};
        for (int j = 0; j < 3; j++) {
            uint32_t cp = vals[j];
            if (cp > 0x7FFFFFFF || (cp >= 0xD800 && cp <= 0xDFFF))
                continue;
            uint8_t out[8];
            size_t o = encode_one(UTFDFA_UTF8_RFC2279, cp, out, sizeof out, &e);
            char hexbuf[32];
            size_t k = 0;
            for (size_t i = 0; i < o; i++)
                k += (size_t)snprintf(hexbuf + k, sizeof hexbuf - k, "%02X ", out[i]);
            size_t nd = decode_all(UTFDFA_UTF8_RFC2279, hexbuf, got, 8, &e);
            CHECK(o > 0 && nd == 1 && got[0] == cp, "rfc2279 round trip of %X", cp);
        }
    }
    /* Above U+10FFFF: only where the output can hold it, else an error at
     * the character's input offset (too-large), U+FFFD when replacing. */
    static const uint8_t big[] = {0x41, 0xF8, 0x88, 0x80, 0x80, 0x80, 0x42};
    struct config to8 = {UTFDFA_UTF8_RFC2279, UTFDFA_UTF8, SINK_BYTES, UTFDFA_STRICT,
                         UTFDFA_BOM_KEEP};
    struct result r;
    run(&to8, big, sizeof big, 0, 32, &r);
    CHECK(r.nerr == 1 && r.err[0].offset == 1 && r.err[0].length == 5 &&
              r.err[0].kind == UTFDFA_ERR_TOO_LARGE && r.len == 2 && memcmp(r.out, "AB", 2) == 0,
          "rfc2279 -> utf-8: U+200000 is too large, at offset 1, 5 bytes");
    result_free(&r);
    to8.errors = UTFDFA_REPLACE;
    run(&to8, big, sizeof big, 0, 32, &r);
    CHECK(r.len == 5 && memcmp(r.out, "A\xEF\xBF\xBD" "B", 5) == 0, "rfc2279 -> utf-8 replace");
    result_free(&r);
    struct config u16 = {UTFDFA_UTF8_RFC2279, UTFDFA_UTF8, SINK_U16, UTFDFA_STRICT,
                         UTFDFA_BOM_KEEP};
    run(&u16, big, sizeof big, 0, 32, &r);
    CHECK(r.nerr == 1 && r.err[0].kind == UTFDFA_ERR_TOO_LARGE, "rfc2279 -> UTF-16 units");
    result_free(&r);
    static const uint8_t ucs4_want[] = {0x41, 0, 0, 0, 0, 0, 0x20, 0, 0x42, 0, 0, 0};
    struct config ucs = {UTFDFA_UTF8_RFC2279, UTFDFA_UCS4LE, SINK_BYTES, UTFDFA_STRICT,
                         UTFDFA_BOM_KEEP};
    run(&ucs, big, sizeof big, 0, 32, &r);
    CHECK(r.nerr == 0 && r.len == sizeof ucs4_want && memcmp(r.out, ucs4_want, r.len) == 0,
          "rfc2279 -> ucs-4le holds U+200000");
    result_free(&r);
    struct config back = {UTFDFA_UCS4LE, UTFDFA_UTF8_RFC2279, SINK_BYTES, UTFDFA_STRICT,
                          UTFDFA_BOM_KEEP};
    run(&back, ucs4_want, sizeof ucs4_want, 0, 32, &r);
    CHECK(r.nerr == 0 && r.len == sizeof big && memcmp(r.out, big, r.len) == 0,
          "ucs-4le -> rfc2279 round trip");
    result_free(&r);
    /* decode_utf32 with a target set reports what the target cannot hold. */
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, UTFDFA_UTF8_RFC2279, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    utfdfa_decoder_set_target(&d, UTFDFA_UTF16LE);
    uint32_t cps[8];
    size_t sl = sizeof big, ol = 8;
    utfdfa_result res = utfdfa_decode_utf32(&d, big, &sl, cps, &ol, true, &e);
    CHECK(res == UTFDFA_MALFORMED && ol == 1 && e.offset == 1 && e.kind == UTFDFA_ERR_TOO_LARGE,
          "decoder_set_target(utf-16le): U+200000 reported");
}

/* Decode `hexbytes` from Corrected UTF-8 in chunks of every size (0: one
 * call) with the given modes; the result must not depend on the chunking. */
static int magic_case(const char *hexbytes, enum sink sink, enum utfdfa_encoding to,
                      enum utfdfa_error_mode errors, enum utfdfa_bom bom, const void *want,
                      size_t want_len, size_t nerr, const utfdfa_error *errs)
{
    uint8_t buf[32];
    size_t n = parse_hex(hexbytes, buf);
    struct config c = {UTFDFA_CORRECTED_UTF8, to, sink, errors, bom};
    int ok = 1;
    for (size_t chunk = 0; chunk <= n; chunk++) {
        struct result r;
        run(&c, buf, n, chunk, 16, &r);
        int good = r.len == want_len && memcmp(r.out, want, want_len) == 0 && r.nerr == nerr;
        for (size_t k = 0; good && k < nerr; k++)
            good = r.err[k].offset == errs[k].offset && r.err[k].length == errs[k].length &&
                   r.err[k].kind == errs[k].kind;
        if (!good)
            fail("corrected magic [%s] sink %d bom %d (chunks of %zu): got %zu bytes, %zu errors",
                 hexbytes, sink, bom, chunk, r.len, r.nerr);
        ok &= good;
        result_free(&r);
    }
    return ok;
}

static void magic(void)
{
    const char *m = "EF B7 9D ED B2 AE 00 0A";
    static const uint32_t a[] = {'A'};
    static const uint32_t kept[] = {0x10E7D, 0xED4E, 0, 0x0A, 'A'};
    static const uint8_t magic_a[] = {0xEF, 0xB7, 0x9D, 0xED, 0xB2, 0xAE, 0x00, 0x0A, 'A'};
    char text[64];
    snprintf(text, sizeof text, "%s 41", m);
    /* At the start it is a signature: stripped, or kept as its characters. */
    CHECK(magic_case(text, SINK_U32, UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_STRIP, a, 4, 0, NULL),
          "magic stripped");
    CHECK(magic_case(text, SINK_U32, UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP, kept,
                     sizeof kept, 0, NULL),
          "magic kept as U+10E7D U+ED4E U+0000 U+000A");
    CHECK(magic_case(text, SINK_BYTES, UTFDFA_CORRECTED_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP,
                     magic_a, sizeof magic_a, 0, NULL),
          "magic kept: corrected -> corrected is byte-identical");
    CHECK(magic_case(text, SINK_BYTES, UTFDFA_CORRECTED_UTF8, UTFDFA_STRICT, UTFDFA_BOM_ADD,
                     magic_a, sizeof magic_a, 0, NULL),
          "--bom=add with a magic number: one magic number");
    CHECK(magic_case("41", SINK_BYTES, UTFDFA_CORRECTED_UTF8, UTFDFA_STRICT, UTFDFA_BOM_ADD,
                     magic_a, sizeof magic_a, 0, NULL),
          "--bom=add writes the magic number");
    CHECK(utfdfa_validate(UTFDFA_CORRECTED_UTF8, magic_a, sizeof magic_a, NULL) == 9,
          "check accepts the magic number at the start");
    /* Not the magic after all, at every offset: what it held comes out, and
     * its U+0000 is an error like any other. */
    static const uint32_t z[] = {'Z'}, c0z[] = {0x10E7D, 'Z'}, c01z[] = {0x10E7D, 0xED4E, 'Z'};
    static const struct {
        size_t p;
        const uint32_t *want;
        size_t nwant;
        utfdfa_error err;
    } turns[] = {
        {1, z, 1, {0, 1, UTFDFA_ERR_TRUNCATED}},   {2, z, 1, {0, 2, UTFDFA_ERR_TRUNCATED}},
        {3, c0z, 2, {0, 0, UTFDFA_ERR_NONE}},       {4, c0z, 2, {3, 1, UTFDFA_ERR_TRUNCATED}},
        {5, c0z, 2, {3, 2, UTFDFA_ERR_TRUNCATED}},  {6, c01z, 3, {0, 0, UTFDFA_ERR_NONE}},
        {7, c01z, 3, {6, 1, UTFDFA_ERR_NUL}},
    };
    for (size_t k = 0; k < sizeof turns / sizeof turns[0]; k++) {
        char h[64];
        snprintf(h, sizeof h, "%.*s 5A", (int)(3 * turns[k].p - 1), m);
        int nerr = turns[k].err.kind != UTFDFA_ERR_NONE;
        CHECK(magic_case(h, SINK_U32, UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_STRIP, turns[k].want,
                         4 * turns[k].nwant, (size_t)nerr, &turns[k].err),
              "not the magic number at offset %zu", turns[k].p);
    }
    /* The input ends inside it: the same. */
    static const uint32_t c01[] = {0x10E7D, 0xED4E};
    utfdfa_error nul = {6, 1, UTFDFA_ERR_NUL};
    CHECK(magic_case("EF B7 9D ED B2 AE 00", SINK_U32, UTFDFA_UTF8, UTFDFA_STRICT,
                     UTFDFA_BOM_STRIP, c01, sizeof c01, 1, &nul),
          "input ending inside the magic number");
    CHECK(magic_case("EF B7 9D ED B2 AE", SINK_U32, UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_STRIP,
                     c01, sizeof c01, 0, NULL),
          "input ending before the magic number's U+0000");
    /* Anywhere else its U+0000 is an error. */
    static const uint32_t later[] = {'A', 0x10E7D, 0xED4E, 0x0A};
    utfdfa_error nul7 = {7, 1, UTFDFA_ERR_NUL};
    snprintf(text, sizeof text, "41 %s", m);
    CHECK(magic_case(text, SINK_U32, UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_STRIP, later,
                     sizeof later, 1, &nul7),
          "a magic number after the start is text, and its 00 an error");
}

/* Encode cps to Corrected UTF-8 with `options`; 0 and *e on an error. */
static size_t corrected_encode(const uint32_t *cps, size_t n, unsigned options, uint8_t *out,
                               size_t cap, utfdfa_error *e)
{
    utfdfa_encoder enc;
    utfdfa_encoder_init(&enc, UTFDFA_CORRECTED_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    utfdfa_encoder_set_options(&enc, options);
    size_t s = n, o = cap;
    utfdfa_result r = utfdfa_encode(&enc, cps, &s, out, &o, true, e);
    return r == UTFDFA_INPUT_EMPTY && s == n ? o : 0;
}

/* The private-use mapping (UTFDFA_CORRECTED_PUA): every C1 control and
 * surrogate is written as the character 0xF0000 above it would be without
 * the option, and read back as itself; without the option those bytes are
 * the private-use characters; with it the images are unencodable. */
static void corrected_pua(void)
{
    static uint32_t cps[32 + 2048 + 1], images[32 + 2048 + 1], back[32 + 2048 + 1];
    static uint8_t with[8 * 2100], without[8 * 2100];
    size_t n = 0;
    for (uint32_t cp = 0x80; cp <= 0x9F; cp++)
        cps[n++] = cp;
    for (uint32_t cp = 0xD800; cp <= 0xDFFF; cp++)
        cps[n++] = cp;
    for (size_t i = 0; i < n; i++)
        images[i] = cps[i] + 0xF0000;
    cps[n] = images[n] = 'A';
    n++;
    utfdfa_error e;
    size_t a = corrected_encode(cps, n, UTFDFA_CORRECTED_PUA, with, sizeof with, &e);
    size_t b = corrected_encode(images, n, 0, without, sizeof without, &e);
    CHECK(a > 0 && a == b && memcmp(with, without, a) == 0,
          "corrected PUA: C1 controls and surrogates written as U+F0080.. U+FD800..");
    CHECK(corrected_encode(cps, 1, 0, with, sizeof with, &e) == 0 &&
              e.kind == UTFDFA_ERR_UNENCODABLE,
          "corrected: U+0080 unencodable without the option");
    CHECK(corrected_encode(images + 40, 1, UTFDFA_CORRECTED_PUA, with, sizeof with, &e) == 0 &&
              e.kind == UTFDFA_ERR_UNENCODABLE && e.offset == 0,
          "corrected PUA: U+%X itself is unencodable with the option", images[40]);
    for (unsigned opt = 0; opt <= UTFDFA_CORRECTED_PUA; opt += UTFDFA_CORRECTED_PUA) {
        utfdfa_decoder d;
        utfdfa_decoder_init(&d, UTFDFA_CORRECTED_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
        utfdfa_decoder_set_options(&d, opt);
        size_t sl = b, ol = n;
        utfdfa_result r = utfdfa_decode_utf32(&d, without, &sl, back, &ol, true, NULL);
        CHECK(r == UTFDFA_INPUT_EMPTY && ol == n &&
                  memcmp(back, opt ? cps : images, n * sizeof back[0]) == 0,
              "corrected PUA: decoding %s the option", opt ? "with" : "without");
    }
    /* Transcoding: UCS-4 in, Corrected out, the same bytes as the encoder;
     * Corrected in, UTF-16 out: a C1 control is a character, a surrogate an
     * error at its input offset. */
    uint8_t ucs4[4] = {0, 0, 0xD8, 0x01}, out[16];
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, UTFDFA_UCS4BE, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    utfdfa_decoder_set_options(&d, UTFDFA_CORRECTED_PUA);
    size_t sl = 4, ol = sizeof out;
    utfdfa_result r = utfdfa_transcode(&d, UTFDFA_CORRECTED_UTF8, ucs4, &sl, out, &ol, true, NULL);
    uint32_t lone = 0xD801;
    size_t want = corrected_encode(&lone, 1, UTFDFA_CORRECTED_PUA, with, sizeof with, &e);
    CHECK(r == UTFDFA_INPUT_EMPTY && ol == want && memcmp(out, with, want) == 0,
          "corrected PUA: transcode UCS-4 U+D801 -> corrected");
    size_t c1 = corrected_encode(cps + 5, 1, UTFDFA_CORRECTED_PUA, with, sizeof with, &e);
    memcpy(with + c1, out, ol);
    utfdfa_decoder_init(&d, UTFDFA_CORRECTED_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    utfdfa_decoder_set_options(&d, UTFDFA_CORRECTED_PUA);
    sl = c1 + ol;
    size_t o16 = sizeof out;
    r = utfdfa_transcode(&d, UTFDFA_UTF16LE, with, &sl, out, &o16, true, &e);
    CHECK(r == UTFDFA_MALFORMED && o16 == 2 && out[0] == 0x85 && out[1] == 0 &&
              e.kind == UTFDFA_ERR_SURROGATE && e.offset == c1 && e.length == ol,
          "corrected PUA -> UTF-16: U+0085, then the surrogate is an error");
}

static void corrected(void)
{
    /* "Putting it all together": every boundary of every row, both ways. */
    row(UTFDFA_CORRECTED_UTF8, "01", 0x01);
    row(UTFDFA_CORRECTED_UTF8, "7F", 0x7F);
    row(UTFDFA_CORRECTED_UTF8, "C0 80", 0xA0);
    row(UTFDFA_CORRECTED_UTF8, "C0 AF", 0xCF);            /* the spec's example */
    row(UTFDFA_CORRECTED_UTF8, "DF BF", 0x89F);
    row(UTFDFA_CORRECTED_UTF8, "E0 80 80", 0x8A0);
    row(UTFDFA_CORRECTED_UTF8, "EC BD 9F", 0xD7FF);
    row(UTFDFA_CORRECTED_UTF8, "EC BD A0", 0xE000);
    row(UTFDFA_CORRECTED_UTF8, "EF BF BF", 0x1109F);
    row(UTFDFA_CORRECTED_UTF8, "F0 80 80 80", 0x110A0);
    row(UTFDFA_CORRECTED_UTF8, "F7 BF BF BF", 0x21109F);
    row(UTFDFA_CORRECTED_UTF8, "F8 80 80 80 80", 0x2110A0);
    row(UTFDFA_CORRECTED_UTF8, "FB BF BF BF BF", 0x421109F);
    row(UTFDFA_CORRECTED_UTF8, "FC 80 80 80 80 80", 0x42110A0);
    row(UTFDFA_CORRECTED_UTF8, "FD BF BF BF BF BF", 0x8421109F);
    /* The magic number's characters: U+10E7D U+ED4E. */
    uint32_t got[8];
    utfdfa_error e;
    size_t k = decode_all(UTFDFA_CORRECTED_UTF8, "EF B7 9D ED B2 AE", got, 8, &e);
    CHECK(k == 2 && got[0] == 0x10E7D && got[1] == 0xED4E, "corrected: magic number characters");
    /* U+0000 is an error; C1 controls, surrogates and U+0000 cannot be encoded. */
    decode_all(UTFDFA_CORRECTED_UTF8, "41 00 42", got, 8, &e);
    CHECK(e.kind == UTFDFA_ERR_NUL && e.offset == 1 && e.length == 1, "corrected: 00 is an error");
    static const uint32_t unencodable[] = {0, 0x80, 0x85, 0x9F, 0xD800, 0xDFFF, 0x842110A0u};
    for (size_t i = 0; i < sizeof unencodable / sizeof unencodable[0]; i++) {
        uint8_t out[8];
        size_t o = encode_one(UTFDFA_CORRECTED_UTF8, unencodable[i], out, sizeof out, &e);
        CHECK(o == 0 && e.kind == (unencodable[i] > 0x8421109Fu ? UTFDFA_ERR_TOO_LARGE
                                                                 : UTFDFA_ERR_UNENCODABLE),
              "corrected: U+%X is not encodable", unencodable[i]);
    }
    corrected_pua();
    /* Every code point up to U+1109F (3 bytes) round trips, and the encoding
     * of each is unique: decoding every 1-3 byte string gives each value once. */
    static uint8_t seen[0x110A0];
    memset(seen, 0, sizeof seen);
    unsigned long bad = 0, values = 0;
    for (uint32_t cp = 1; cp < 0x110A0; cp++) {
        if ((cp >= 0x80 && cp <= 0x9F) || (cp >= 0xD800 && cp <= 0xDFFF))
            continue;
        uint8_t out[8];
        size_t o = encode_one(UTFDFA_CORRECTED_UTF8, cp, out, sizeof out, &e);
        utfdfa_decoder d;
        utfdfa_decoder_init(&d, UTFDFA_CORRECTED_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
        uint32_t back = 0;
        size_t sl = o, ol = 1;
        utfdfa_result r = utfdfa_decode_utf32(&d, out, &sl, &back, &ol, true, NULL);
        bad += !(o >= 1 && o <= 3 && r == UTFDFA_INPUT_EMPTY && ol == 1 && back == cp);
    }
    for (uint32_t v = 0; v < 1u << 24; v++) {
        uint8_t b3[3] = {(uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
        utfdfa_decoder d;
        utfdfa_decoder_init(&d, UTFDFA_CORRECTED_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
        uint32_t cp = 0;
        size_t sl = 3, ol = 1;
        if (utfdfa_decode_utf32(&d, b3, &sl, &cp, &ol, true, NULL) == UTFDFA_INPUT_EMPTY &&
            ol == 1 && sl == 3 && b3[0] >= 0xE0) {
            values++;
            if (cp >= sizeof seen || seen[cp]++)
                bad++;
        }
    }
    CHECK(bad == 0, "corrected: %lu round-trip or uniqueness failures", bad);
    CHECK(values == 0x1109F - 0x8A0 + 1 - 0x800, "corrected: %lu 3-byte values (want %u)", values,
          0x1109F - 0x8A0 + 1 - 0x800);
    /* Reserved units: FE or FF and every 80-BF, FE and FF after them, up to
     * the next lead byte ("extending until the next recognized lead byte":
     * 00-7F or C0-FD; FE and FF are reserved, not recognized). Valid for
     * check, passed through to corrected-utf-8 unchanged, an error (one
     * U+FFFD when replacing) into anything else. At the start, the end, one
     * after another, and longer than any character. */
    static const char *const reserved_ok[] = {"FE", "FF BF", "41 FE 80 80 42", "FE FF 80 FE",
                                              "FE C0 80", "C0 80 FF", "FF 80 80 80 80 80 80 80 80"};
    for (size_t v = 0; v < sizeof reserved_ok / sizeof reserved_ok[0]; v++) {
        uint8_t buf[16];
        size_t n = parse_hex(reserved_ok[v], buf);
        CHECK(utfdfa_validate(UTFDFA_CORRECTED_UTF8, buf, n, NULL) == n,
              "corrected: [%s] is valid", reserved_ok[v]);
        for (size_t chunk = 0; chunk <= 2; chunk++) {
            struct config same_enc = {UTFDFA_CORRECTED_UTF8, UTFDFA_CORRECTED_UTF8, SINK_BYTES,
                                      UTFDFA_STRICT, UTFDFA_BOM_KEEP};
            struct result r;
            run(&same_enc, buf, n, chunk, 16, &r);
            CHECK(r.nerr == 0 && r.len == n && memcmp(r.out, buf, n) == 0,
                  "corrected -> corrected passes [%s] through (chunks of %zu)", reserved_ok[v],
                  chunk);
            result_free(&r);
        }
    }
    static const uint8_t res_mid[] = {0x41, 0xFE, 0x80, 0x80, 0x42, 0xFF};
    struct config to32 = {UTFDFA_CORRECTED_UTF8, UTFDFA_UTF8, SINK_U32, UTFDFA_STRICT,
                          UTFDFA_BOM_KEEP};
    for (size_t chunk = 0; chunk <= 3; chunk++) {
        struct result r;
        to32.errors = UTFDFA_STRICT;
        run(&to32, res_mid, sizeof res_mid, chunk, 8, &r);
        static const uint32_t ab[] = {'A', 'B'};
        CHECK(r.nerr == 2 && r.err[0].offset == 1 && r.err[0].length == 3 &&
                  r.err[0].kind == UTFDFA_ERR_RESERVED && r.err[1].offset == 5 &&
                  r.err[1].length == 1 && r.len == 8 && memcmp(r.out, ab, 8) == 0,
              "corrected -> UTF-32: reserved units are errors at their offsets (chunks of %zu)",
              chunk);
        result_free(&r);
        to32.errors = UTFDFA_REPLACE;
        run(&to32, res_mid, sizeof res_mid, chunk, 8, &r);
        static const uint32_t afbf[] = {'A', 0xFFFD, 'B', 0xFFFD};
        CHECK(r.len == sizeof afbf && memcmp(r.out, afbf, sizeof afbf) == 0,
              "corrected -> UTF-32 replace: one U+FFFD per reserved unit");
        result_free(&r);
    }
    /* FE and FF go on a reserved unit: FE FF 80 FE is one unit, ended by C0. */
    static const uint8_t res_run[] = {0xFE, 0xFF, 0x80, 0xFE, 0xC0, 0xAF, 0xFF, 0xFF};
    for (size_t chunk = 0; chunk <= 3; chunk++) {
        struct result r;
        to32.errors = UTFDFA_STRICT;
        run(&to32, res_run, sizeof res_run, chunk, 8, &r);
        static const uint32_t cf[] = {0xCF};
        CHECK(r.nerr == 2 && r.err[0].offset == 0 && r.err[0].length == 4 &&
                  r.err[0].kind == UTFDFA_ERR_RESERVED && r.err[1].offset == 6 &&
                  r.err[1].length == 2 && r.len == 4 && memcmp(r.out, cf, 4) == 0,
              "corrected -> UTF-32: FE FF 80 FE is one reserved unit (chunks of %zu)", chunk);
        result_free(&r);
        to32.errors = UTFDFA_REPLACE;
        run(&to32, res_run, sizeof res_run, chunk, 8, &r);
        static const uint32_t fcf[] = {0xFFFD, 0xCF, 0xFFFD};
        CHECK(r.len == sizeof fcf && memcmp(r.out, fcf, sizeof fcf) == 0,
              "corrected -> UTF-32 replace: FE FF 80 FE | C0 AF | FF FF (chunks of %zu)", chunk);
        result_free(&r);
    }
    /* A reserved unit of 100 001 bytes: its exact length, fed in pieces. */
    size_t big_n = 100003;
    uint8_t *big_res = malloc(big_n);
    big_res[0] = 'x';
    big_res[1] = 0xFE;
    memset(big_res + 2, 0x80, big_n - 3);
    big_res[big_n - 1] = 'y';
    to32.errors = UTFDFA_STRICT;
    struct result rb;
    run(&to32, big_res, big_n, 4096, 8, &rb);
    CHECK(rb.nerr == 1 && rb.err[0].offset == 1 && rb.err[0].length == big_n - 2 && rb.len == 8,
          "corrected: a 100001-byte reserved unit is one error of its exact length");
    result_free(&rb);
    free(big_res);
    magic();
    /* Into other encodings: only what they can hold. */
    static const uint8_t wide_cp[] = {0x41, 0xFD, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF};
    struct config c = {UTFDFA_CORRECTED_UTF8, UTFDFA_UTF8_RFC2279, SINK_BYTES, UTFDFA_STRICT,
                       UTFDFA_BOM_KEEP};
    struct result r;
    run(&c, wide_cp, sizeof wide_cp, 0, 32, &r);
    CHECK(r.nerr == 1 && r.err[0].offset == 1 && r.err[0].length == 6 &&
              r.err[0].kind == UTFDFA_ERR_TOO_LARGE,
          "corrected -> rfc2279: U+8421109F is too large");
    result_free(&r);
    static const uint8_t c1[] = {0x41, 0xC2, 0x85, 0x42};
    struct config to_c = {UTFDFA_UTF8, UTFDFA_CORRECTED_UTF8, SINK_BYTES, UTFDFA_STRICT,
                          UTFDFA_BOM_KEEP};
    run(&to_c, c1, sizeof c1, 0, 32, &r);
    CHECK(r.nerr == 1 && r.err[0].offset == 1 && r.err[0].length == 2 &&
              r.err[0].kind == UTFDFA_ERR_UNENCODABLE,
          "utf-8 -> corrected: U+0085 is unencodable, at offset 1");
    result_free(&r);
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
    struct result a, b;
    run(&rep, in, n, 0, n + 1, &a);
    reference(in, n, UTFDFA_REPLACE, &b);
    size_t fffd = 0;
    for (size_t i = 0; i + 4 <= a.len; i += 4) {
        uint32_t v;
        memcpy(&v, a.out + i, 4);
        fffd += v == 0xFFFD;
    }
    CHECK(fffd == 379, "Kuhn: %zu U+FFFD in replace mode (want 379)", fffd);
    CHECK(same(&a, &b), "Kuhn: library and reference disagree");
    result_free(&a);
    result_free(&b);
    /* Streamed in chunks of every size up to 64 and a few larger ones. */
    struct result whole, part;
    run(&rep, in, n, 0, n + 1, &whole);
    int ok = 1;
    for (size_t chunk = 1; chunk <= 4099 && ok; chunk = chunk < 64 ? chunk + 1 : chunk * 2 + 3) {
        run(&rep, in, n, chunk, 7, &part);
        ok = same(&part, &whole);
        result_free(&part);
    }
    CHECK(ok, "Kuhn: chunked decoding differs from one call");
    result_free(&whole);
    free(cps);
    free(in);
}

/* ------------------------------------------------------------ encoder */

static void encoder(void)
{
    /* Every scalar value round-trips through encode -> decode in each encoding. */
    static uint32_t cps[0x110000];
    size_t n = 0;
    for (uint32_t cp = 0; cp < 0x110000; cp++)
        if (cp < 0xD800 || cp > 0xDFFF)
            cps[n++] = cp;
    CHECK(n == 1112064, "encoder: %zu scalar values", n);
    for (unsigned to = 0; to < UTFDFA_NENCODINGS; to++) {
        if (to == UTFDFA_CORRECTED_UTF8)
            continue; /* no U+0000 or C1 controls: see corrected() */
        size_t cap;
        CHECK(utfdfa_max_encoded_len((enum utfdfa_encoding)to, n, &cap), "max_encoded_len");
        uint8_t *buf = malloc(cap);
        utfdfa_encoder e;
        utfdfa_encoder_init(&e, (enum utfdfa_encoding)to, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
        size_t s = n, o = cap;
        utfdfa_result r = utfdfa_encode(&e, cps, &s, buf, &o, true, NULL);
        CHECK(r == UTFDFA_INPUT_EMPTY && s == n, "encode all scalar values to %s",
              utfdfa_encoding_name((enum utfdfa_encoding)to));
        if (to == UTFDFA_UTF8) { /* byte-identical to the reference encoder */
            uint8_t *ref = malloc(cap);
            size_t k = 0;
            for (size_t i = 0; i < n; i++)
                k += ref_utf8_encode(cps[i], ref + k);
            CHECK(k == o && memcmp(ref, buf, k) == 0, "encoder differs from the reference");
            free(ref);
        }
        utfdfa_decoder d;
        utfdfa_decoder_init(&d, (enum utfdfa_encoding)to, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
        uint32_t *back = malloc(n * 4);
        size_t bs = o, bo = n;
        r = utfdfa_decode_utf32(&d, buf, &bs, back, &bo, true, NULL);
        CHECK(r == UTFDFA_INPUT_EMPTY && bo == n && memcmp(back, cps, n * 4) == 0,
              "round trip through %s", utfdfa_encoding_name((enum utfdfa_encoding)to));
        free(back);
        free(buf);
    }
    /* Surrogates and values above U+10FFFF: strict error with its index,
     * replace -> U+FFFD (RFC 3629 section 3), ignore -> dropped. */
    static const uint32_t bad[] = {'a', 0xD800, 'b', 0x110000, 0xDFFF, 0xFFFFFFFF};
    uint8_t out[64];
    utfdfa_encoder e;
    utfdfa_encoder_init(&e, UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    size_t s = 6, o = sizeof out;
    utfdfa_error err;
    utfdfa_result r = utfdfa_encode(&e, bad, &s, out, &o, true, &err);
    CHECK(r == UTFDFA_MALFORMED && s == 2 && o == 1 && err.offset == 1 &&
              err.kind == UTFDFA_ERR_SURROGATE,
          "encoder strict: surrogate at index 1");
    size_t s2 = 4, o2 = sizeof out - o;
    r = utfdfa_encode(&e, bad + 2, &s2, out + o, &o2, true, &err);
    CHECK(r == UTFDFA_MALFORMED && s2 == 2 && err.offset == 3 && err.kind == UTFDFA_ERR_TOO_LARGE,
          "encoder strict: too large at index 3");
    utfdfa_encoder_init(&e, UTFDFA_UTF8, UTFDFA_REPLACE, UTFDFA_BOM_KEEP);
    s = 6;
    o = sizeof out;
    r = utfdfa_encode(&e, bad, &s, out, &o, true, NULL);
    CHECK(r == UTFDFA_INPUT_EMPTY && o == 14 &&
              memcmp(out, "a\xEF\xBF\xBD" "b\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD", 14) == 0,
          "encoder replace");
    utfdfa_encoder_init(&e, UTFDFA_UTF8, UTFDFA_IGNORE, UTFDFA_BOM_KEEP);
    s = 6;
    o = sizeof out;
    r = utfdfa_encode(&e, bad, &s, out, &o, true, NULL);
    CHECK(r == UTFDFA_INPUT_EMPTY && o == 2 && memcmp(out, "ab", 2) == 0, "encoder ignore");
    /* Exactly full / one short for a 4-byte character. */
    static const uint32_t emoji[] = {0x1F600};
    utfdfa_encoder_init(&e, UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    s = 1;
    o = 3;
    r = utfdfa_encode(&e, emoji, &s, out, &o, true, NULL);
    CHECK(r == UTFDFA_OUTPUT_FULL && s == 0 && o == 0, "encoder: 3 bytes of room for U+1F600");
    s = 1;
    o = 4;
    r = utfdfa_encode(&e, emoji, &s, out, &o, true, NULL);
    CHECK(r == UTFDFA_INPUT_EMPTY && s == 1 && o == 4 && memcmp(out, "\xF0\x9F\x98\x80", 4) == 0,
          "encoder: exactly 4 bytes of room for U+1F600");
    /* The encoder's BOM mode acts on the first code point of its stream only,
     * across calls; add with no text at all writes just the BOM. */
    static const uint32_t bom_text[] = {0xFEFF, 'x', 0xFEFF};
    utfdfa_encoder_init(&e, UTFDFA_UTF16LE, UTFDFA_STRICT, UTFDFA_BOM_STRIP);
    size_t o1 = sizeof out, one = 1;
    utfdfa_encode(&e, bom_text, &one, out, &o1, false, NULL);
    size_t o3 = sizeof out - o1, two = 2;
    r = utfdfa_encode(&e, bom_text + 1, &two, out + o1, &o3, true, NULL);
    CHECK(r == UTFDFA_INPUT_EMPTY && o1 + o3 == 4 && memcmp(out, "x\0\xFF\xFE", 4) == 0,
          "encoder BOM strip: only the first U+FEFF, across calls");
    utfdfa_encoder_init(&e, UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_ADD);
    s = 2;
    o = sizeof out;
    r = utfdfa_encode(&e, bom_text + 1, &s, out, &o, true, NULL);
    CHECK(r == UTFDFA_INPUT_EMPTY && o == 7 && memcmp(out, "\xEF\xBB\xBFx\xEF\xBB\xBF", 7) == 0,
          "encoder BOM add: one BOM before the text");
    utfdfa_encoder_init(&e, UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_ADD);
    s = 1;
    o = sizeof out;
    utfdfa_encode(&e, bom_text, &s, out, &o, true, NULL);
    CHECK(o == 3, "encoder BOM add: not doubled");
    utfdfa_encoder_init(&e, UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_ADD);
    s = 0;
    o = 2;
    r = utfdfa_encode(&e, bom_text, &s, out, &o, true, NULL);
    CHECK(r == UTFDFA_OUTPUT_FULL && o == 0, "encoder BOM add: no room for the BOM");
    o = 3;
    r = utfdfa_encode(&e, bom_text, &s, out, &o, true, NULL);
    CHECK(r == UTFDFA_INPUT_EMPTY && o == 3, "encoder BOM add: empty text gives the BOM");
    /* Worst-case size helpers never overflow. */
    size_t big;
    CHECK(!utfdfa_max_encoded_len(UTFDFA_UTF8, SIZE_MAX / 2, &big), "max_encoded_len overflow");
    CHECK(!utfdfa_max_transcoded_len(UTFDFA_UTF8, UTFDFA_UTF8, SIZE_MAX / 2, &big),
          "max_transcoded_len overflow");
    CHECK(utfdfa_max_transcoded_len(UTFDFA_UTF8, UTFDFA_UTF8, 10, &big) && big == 33,
          "max_transcoded_len utf-8 -> utf-8 of 10 bytes is 3 per byte + BOM");
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
                struct result r;
                run(&c, buf, n, 0, 4 * n + 16, &r);
                size_t bound;
                utfdfa_max_transcoded_len(c.from, c.to, n, &bound);
                CHECK(r.len <= bound, "max_transcoded_len %u->%u: %zu > %zu", from, to, r.len,
                      bound);
                result_free(&r);
            }
            struct config c32 = {(enum utfdfa_encoding)from, UTFDFA_UTF8, SINK_U32,
                                 UTFDFA_REPLACE, UTFDFA_BOM_ADD};
            struct config c16 = {(enum utfdfa_encoding)from, UTFDFA_UTF8, SINK_U16,
                                 UTFDFA_REPLACE, UTFDFA_BOM_ADD};
            struct result r;
            size_t bound;
            run(&c32, buf, n, 0, 4 * n + 16, &r);
            utfdfa_max_utf32_len(c32.from, n, &bound);
            CHECK(r.len / 4 <= bound, "max_utf32_len");
            result_free(&r);
            run(&c16, buf, n, 0, 4 * n + 16, &r);
            utfdfa_max_utf16_len(c16.from, n, &bound);
            CHECK(r.len / 2 <= bound, "max_utf16_len");
            result_free(&r);
        }
    }
}

static void bom_rules(void)
{
    /* A BOM split across calls is still the BOM at the start. */
    static const uint8_t bom_a[] = {0xEF, 0xBB, 0xBF, 'A', 0xEF, 0xBB, 0xBF};
    struct config strip = {UTFDFA_UTF8, UTFDFA_UTF8, SINK_U32, UTFDFA_STRICT, UTFDFA_BOM_STRIP};
    struct config add = {UTFDFA_UTF8, UTFDFA_UTF8, SINK_U32, UTFDFA_STRICT, UTFDFA_BOM_ADD};
    struct result r;
    for (size_t chunk = 0; chunk <= 3; chunk++) {
        run(&strip, bom_a, sizeof bom_a, chunk, 8, &r);
        static const uint32_t want[] = {'A', 0xFEFF};
        CHECK(r.len == sizeof want && memcmp(r.out, want, sizeof want) == 0,
              "BOM strip (chunks of %zu): only the first U+FEFF goes", chunk);
        result_free(&r);
        run(&add, bom_a, sizeof bom_a, chunk, 8, &r);
        static const uint32_t kept[] = {0xFEFF, 'A', 0xFEFF};
        CHECK(r.len == sizeof kept && memcmp(r.out, kept, sizeof kept) == 0,
              "BOM add (chunks of %zu): not doubled", chunk);
        result_free(&r);
    }
    run(&add, bom_a + 3, 1, 0, 8, &r);
    static const uint32_t added[] = {0xFEFF, 'A'};
    CHECK(r.len == sizeof added && memcmp(r.out, added, sizeof added) == 0, "BOM add to 'A'");
    result_free(&r);
    run(&add, bom_a, 0, 0, 8, &r);
    CHECK(r.len == 4, "BOM add to empty input writes just the BOM");
    result_free(&r);
}

/* UTF-16 and UTF-32 decoding per WHATWG (also Python's codecs): expected
 * replacement output and strict errors written out by hand. */
struct wide_case {
    enum utfdfa_encoding from;
    const char *bytes;
    uint32_t want[4];       /* replace mode output, 0-terminated */
    uint32_t err_offset, err_length;
    enum utfdfa_error_kind err_kind; /* first strict error */
};

static const struct wide_case wide_cases[] = {
    {UTFDFA_UTF16LE, "3D D8 41 00", {0xFFFD, 'A'}, 0, 2, UTFDFA_ERR_SURROGATE},   /* lone high */
    {UTFDFA_UTF16LE, "41 00 42", {'A', 0xFFFD}, 2, 1, UTFDFA_ERR_TRUNCATED},       /* odd byte */
    {UTFDFA_UTF16LE, "3D D8 41", {0xFFFD}, 0, 3, UTFDFA_ERR_TRUNCATED},            /* one error */
    {UTFDFA_UTF16LE, "3D D8", {0xFFFD}, 0, 2, UTFDFA_ERR_SURROGATE},
    {UTFDFA_UTF16LE, "00 DC 41 00", {0xFFFD, 'A'}, 0, 2, UTFDFA_ERR_SURROGATE},   /* lone low */
    {UTFDFA_UTF16LE, "3D D8 3D D8 00 DE", {0xFFFD, 0x1F600}, 0, 2, UTFDFA_ERR_SURROGATE},
    {UTFDFA_UTF16BE, "D8 3D DE 00 00 41", {0x1F600, 'A'}, 0, 0, UTFDFA_ERR_NONE},
    {UTFDFA_UTF16BE, "FE FF 00 41", {0xFEFF, 'A'}, 0, 0, UTFDFA_ERR_NONE},
    {UTFDFA_UTF32LE, "00 00 11 00", {0xFFFD}, 0, 4, UTFDFA_ERR_TOO_LARGE},
    {UTFDFA_UTF32LE, "00 D8 00 00 41 00 00 00", {0xFFFD, 'A'}, 0, 4, UTFDFA_ERR_SURROGATE},
    {UTFDFA_UTF32LE, "41 00 00 00 42", {'A', 0xFFFD}, 4, 1, UTFDFA_ERR_TRUNCATED},
    {UTFDFA_UTF32BE, "00 01 F6 00 00 00", {0x1F600, 0xFFFD}, 4, 2, UTFDFA_ERR_TRUNCATED},
    {UTFDFA_UTF8, "EF BB BF EF BB BF 41", {0xFEFF, 0xFEFF, 'A'}, 0, 0, UTFDFA_ERR_NONE},
};

static void wide(void)
{
    uint8_t buf[32];
    for (size_t k = 0; k < sizeof wide_cases / sizeof wide_cases[0]; k++) {
        const struct wide_case *w = &wide_cases[k];
        size_t n = parse_hex(w->bytes, buf), nwant = 0;
        while (nwant < 4 && w->want[nwant])
            nwant++;
        for (size_t chunk = 0; chunk <= 2; chunk++) {
            struct config rep = {w->from, UTFDFA_UTF8, SINK_U32, UTFDFA_REPLACE, UTFDFA_BOM_KEEP};
            struct config strict = rep;
            strict.errors = UTFDFA_STRICT;
            struct result r;
            run(&rep, buf, n, chunk, 4, &r);
            CHECK(r.len == nwant * 4 && memcmp(r.out, w->want, nwant * 4) == 0,
                  "%s [%s] (chunks of %zu): wrong replacement output",
                  utfdfa_encoding_name(w->from), w->bytes, chunk);
            result_free(&r);
            run(&strict, buf, n, chunk, 4, &r);
            if (w->err_kind == UTFDFA_ERR_NONE)
                CHECK(r.nerr == 0, "%s [%s]: unexpected error", utfdfa_encoding_name(w->from),
                      w->bytes);
            else
                CHECK(r.nerr > 0 && r.err[0].offset == w->err_offset &&
                          r.err[0].length == w->err_length && r.err[0].kind == w->err_kind,
                      "%s [%s] (chunks of %zu): wrong first strict error",
                      utfdfa_encoding_name(w->from), w->bytes, chunk);
            result_free(&r);
        }
    }
    /* BOM strip: only the very first U+FEFF of the stream goes. */
    static const uint8_t two_boms[] = {0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF, 'A'};
    struct config strip = {UTFDFA_UTF8, UTFDFA_UTF8, SINK_U32, UTFDFA_STRICT, UTFDFA_BOM_STRIP};
    struct result r;
    run(&strip, two_boms, sizeof two_boms, 0, 8, &r);
    static const uint32_t want[] = {0xFEFF, 'A'};
    CHECK(r.len == sizeof want && memcmp(r.out, want, sizeof want) == 0,
          "BOM strip: a second U+FEFF is text, not a BOM");
    result_free(&r);
    /* An error first: a later U+FEFF is mid-stream. */
    static const uint8_t err_bom[] = {0x80, 0xEF, 0xBB, 0xBF};
    strip.errors = UTFDFA_REPLACE;
    run(&strip, err_bom, sizeof err_bom, 0, 8, &r);
    static const uint32_t want2[] = {0xFFFD, 0xFEFF};
    CHECK(r.len == sizeof want2 && memcmp(r.out, want2, sizeof want2) == 0,
          "BOM strip: U+FEFF after an error is not at the start");
    result_free(&r);
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
    vectors_against_reference();
    unicode_example();
    bom_rules();
    wide();
    uint8_t buf[64];
    for (size_t v = 0; v < sizeof vectors / sizeof vectors[0]; v++) {
        size_t n = parse_hex(vectors[v], buf);
        streaming(buf, n, vectors[v]);
        two_calls(buf, n, vectors[v]);
        exact_room(buf, n, vectors[v]);
    }
    random_tests();
    size_bounds();
    encoder();
    rfc2279();
    corrected();
    kuhn(shared);
    if (!getenv("UTFDFA_QUICK"))
        exhaustive();
    else
        printf("exhaustive: skipped (UTFDFA_QUICK is set)\n");
    printf("test_decode: %lu passed, %lu failed\n", passed, failed);
    return failed != 0;
}
