/* SPDX-License-Identifier: MIT */
/* The variants with tables of their own: every row of the RFC 2279 and
 * Corrected UTF-8 tables both ways, RFC 2279 against RFC 3629 where both
 * grammars admit the same bytes, every Corrected UTF-8 value up to
 * U+1109F, reserved units, the private-use mapping and the magic number
 * at every split point. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common.h"
#include "drive.h"
#include "utfdfa.h"

/* Decode in one call with replacement off and return the code points and
 * the first error (kind NONE if none). */
static size_t decode_all(enum utfdfa_encoding from, const char *hexbytes, uint32_t *cps,
                         size_t cap, utfdfa_error *first)
{
    uint8_t buf[64];
    size_t n = parse_hex(hexbytes, buf, sizeof buf);
    struct config c = {from, UTFDFA_UTF8, SINK_U32, UTFDFA_STRICT, UTFDFA_BOM_KEEP};
    struct outcome r;
    uint8_t *in = dup_exact(buf, n);
    run_config(&c, in, n, 0, cap, &r);
    size_t k = r.len / 4;
    memcpy(cps, r.out, r.len);
    *first = r.nerr ? r.err[0] : (utfdfa_error){0, 0, UTFDFA_ERR_NONE};
    outcome_free(&r);
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
    size_t n = parse_hex(hexbytes, want, sizeof want);
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
        size_t n = parse_hex(both_bad[k], buf, sizeof buf);
        struct config a = {UTFDFA_UTF8_RFC2279, UTFDFA_UTF8, SINK_U32, UTFDFA_STRICT,
                           UTFDFA_BOM_KEEP};
        struct config b = a;
        b.from = UTFDFA_UTF8;
        struct outcome ra, rb;
        run_config(&a, buf, n, 0, 16, &ra);
        run_config(&b, buf, n, 0, 16, &rb);
        int ok = ra.len == 0 && rb.len == 0 && ra.nerr == rb.nerr;
        for (size_t i = 0; ok && i < ra.nerr; i++)
            ok = ra.err[i].offset == rb.err[i].offset && ra.err[i].length == rb.err[i].length;
        CHECK(ok, "rfc2279 [%s]: not rejected with RFC 3629's maximal subparts", both_bad[k]);
        outcome_free(&ra);
        outcome_free(&rb);
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
        struct outcome ra, rb;
        run_config(&a, b3, 3, 0, 8, &ra);
        run_config(&b, b3, 3, 0, 8, &rb);
        bad += !outcome_same(&ra, &rb);
        outcome_free(&ra);
        outcome_free(&rb);
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
    struct outcome r;
    run_config(&to8, big, sizeof big, 0, 32, &r);
    CHECK(r.nerr == 1 && r.err[0].offset == 1 && r.err[0].length == 5 &&
              r.err[0].kind == UTFDFA_ERR_TOO_LARGE && r.len == 2 && memcmp(r.out, "AB", 2) == 0,
          "rfc2279 -> utf-8: U+200000 is too large, at offset 1, 5 bytes");
    outcome_free(&r);
    to8.errors = UTFDFA_REPLACE;
    run_config(&to8, big, sizeof big, 0, 32, &r);
    CHECK(r.len == 5 && memcmp(r.out, "A\xEF\xBF\xBD" "B", 5) == 0, "rfc2279 -> utf-8 replace");
    outcome_free(&r);
    struct config u16 = {UTFDFA_UTF8_RFC2279, UTFDFA_UTF8, SINK_U16, UTFDFA_STRICT,
                         UTFDFA_BOM_KEEP};
    run_config(&u16, big, sizeof big, 0, 32, &r);
    CHECK(r.nerr == 1 && r.err[0].kind == UTFDFA_ERR_TOO_LARGE, "rfc2279 -> UTF-16 units");
    outcome_free(&r);
    static const uint8_t ucs4_want[] = {0x41, 0, 0, 0, 0, 0, 0x20, 0, 0x42, 0, 0, 0};
    struct config ucs = {UTFDFA_UTF8_RFC2279, UTFDFA_UCS4LE, SINK_BYTES, UTFDFA_STRICT,
                         UTFDFA_BOM_KEEP};
    run_config(&ucs, big, sizeof big, 0, 32, &r);
    CHECK(r.nerr == 0 && r.len == sizeof ucs4_want && memcmp(r.out, ucs4_want, r.len) == 0,
          "rfc2279 -> ucs-4le holds U+200000");
    outcome_free(&r);
    struct config back = {UTFDFA_UCS4LE, UTFDFA_UTF8_RFC2279, SINK_BYTES, UTFDFA_STRICT,
                          UTFDFA_BOM_KEEP};
    run_config(&back, ucs4_want, sizeof ucs4_want, 0, 32, &r);
    CHECK(r.nerr == 0 && r.len == sizeof big && memcmp(r.out, big, r.len) == 0,
          "ucs-4le -> rfc2279 round trip");
    outcome_free(&r);
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
static int magic_case(const char *hexbytes, enum sink_kind sink, enum utfdfa_encoding to,
                      enum utfdfa_error_mode errors, enum utfdfa_bom bom, const void *want,
                      size_t want_len, size_t nerr, const utfdfa_error *errs)
{
    uint8_t buf[32];
    size_t n = parse_hex(hexbytes, buf, sizeof buf);
    struct config c = {UTFDFA_CORRECTED_UTF8, to, sink, errors, bom};
    int ok = 1;
    for (size_t chunk = 0; chunk <= n; chunk++) {
        struct outcome r;
        run_config(&c, buf, n, chunk, 16, &r);
        int good = r.len == want_len && memcmp(r.out, want, want_len) == 0 && r.nerr == nerr;
        for (size_t k = 0; good && k < nerr; k++)
            good = r.err[k].offset == errs[k].offset && r.err[k].length == errs[k].length &&
                   r.err[k].kind == errs[k].kind;
        if (!good)
            fail("corrected magic [%s] sink %d bom %d (chunks of %zu): got %zu bytes, %zu errors",
                 hexbytes, sink, bom, chunk, r.len, r.nerr);
        ok &= good;
        outcome_free(&r);
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

/* The first `p` bytes of the magic number read (held) into UTF-8, then the
 * target changed to ISO-8859-1, which cannot hold the held characters, and
 * "Z" read: the output and the errors after the change. */
static size_t magic_then_latin1(size_t p, enum utfdfa_error_mode mode, uint8_t *out,
                                size_t cap, utfdfa_error *errs, size_t *nerr)
{
    static const uint8_t magic_number[] = {0xEF, 0xB7, 0x9D, 0xED, 0xB2, 0xAE, 0x00, 0x0A};
    uint8_t m[sizeof magic_number + 1];
    memcpy(m, magic_number, p);
    m[p] = 'Z';
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, UTFDFA_CORRECTED_UTF8, mode, UTFDFA_BOM_STRIP);
    uint8_t first[16];
    size_t sl = p, ol = sizeof first;
    utfdfa_error e;
    utfdfa_result r = utfdfa_transcode(&d, UTFDFA_UTF8, m, &sl, first, &ol, false, &e);
    CHECK(r == UTFDFA_INPUT_EMPTY && sl == p && ol == 0, "magic prefix %zu into UTF-8: held", p);
    size_t len = 0, at = p;
    *nerr = 0;
    for (;;) {
        sl = p + 1 - at;
        ol = cap - len;
        r = utfdfa_transcode(&d, UTFDFA_LATIN1, m + at, &sl, out + len, &ol, true, &e);
        at += sl;
        len += ol;
        if (r != UTFDFA_MALFORMED)
            break;
        errs[(*nerr)++] = e;
    }
    CHECK(r == UTFDFA_INPUT_EMPTY && at == p + 1, "magic prefix %zu, then latin-1: ends", p);
    return len;
}

/* The magic number held under one target and released under one that cannot
 * hold its characters: they are an error, never written truncated. */
static void magic_retargeted(void)
{
    static const struct {
        size_t p;
        const char *replaced;
        size_t nerr;
        utfdfa_error err[2];
    } cases[] = {
        {3, "?Z", 1, {{0, 3, UTFDFA_ERR_UNENCODABLE}}},
        {4, "??Z", 2, {{0, 3, UTFDFA_ERR_UNENCODABLE}, {3, 1, UTFDFA_ERR_TRUNCATED}}},
        {6, "?Z", 1, {{0, 6, UTFDFA_ERR_UNENCODABLE}}},
        {7, "?Z", 1, {{0, 7, UTFDFA_ERR_UNENCODABLE}}},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        uint8_t out[32];
        utfdfa_error errs[8];
        size_t nerr, n = magic_then_latin1(cases[k].p, UTFDFA_STRICT, out, sizeof out, errs, &nerr);
        bool same = n == 1 && out[0] == 'Z' && nerr == cases[k].nerr;
        for (size_t i = 0; same && i < nerr; i++)
            same = errs[i].offset == cases[k].err[i].offset &&
                   errs[i].length == cases[k].err[i].length && errs[i].kind == cases[k].err[i].kind;
        CHECK(same, "magic prefix %zu, then latin-1, strict: %zu bytes (%02X), %zu errors",
              cases[k].p, n, n ? out[0] : 0, nerr);
        n = magic_then_latin1(cases[k].p, UTFDFA_REPLACE, out, sizeof out, errs, &nerr);
        CHECK(n == strlen(cases[k].replaced) && memcmp(out, cases[k].replaced, n) == 0,
              "magic prefix %zu, then latin-1, replacing: %.*s", cases[k].p, (int)n, out);
    }
    /* The same through decode_utf32 with the target set after the prefix. */
    static const uint8_t m[] = {0xEF, 0xB7, 0x9D, 'Z'};
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, UTFDFA_CORRECTED_UTF8, UTFDFA_STRICT, UTFDFA_BOM_STRIP);
    uint32_t cps[8];
    size_t sl = 3, ol = 8;
    utfdfa_error e;
    utfdfa_result r = utfdfa_decode_utf32(&d, m, &sl, cps, &ol, false, &e);
    CHECK(r == UTFDFA_INPUT_EMPTY && ol == 0, "magic prefix held by decode_utf32");
    utfdfa_decoder_set_target(&d, UTFDFA_LATIN1);
    sl = 1, ol = 8;
    r = utfdfa_decode_utf32(&d, m + 3, &sl, cps, &ol, true, &e);
    CHECK(r == UTFDFA_MALFORMED && ol == 0 && e.offset == 0 && e.length == 3 &&
              e.kind == UTFDFA_ERR_UNENCODABLE,
          "set_target(latin-1) after a held magic prefix: %d, %zu code points (U+%04X)", (int)r,
          ol, ol ? cps[0] : 0);
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
              e.kind == UTFDFA_ERR_UNENCODABLE && e.offset == c1 && e.length == ol,
          "corrected PUA -> UTF-16: U+0085, then the surrogate is unencodable");
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
        size_t n = parse_hex(reserved_ok[v], buf, sizeof buf);
        CHECK(utfdfa_validate(UTFDFA_CORRECTED_UTF8, buf, n, NULL) == n,
              "corrected: [%s] is valid", reserved_ok[v]);
        for (size_t chunk = 0; chunk <= 2; chunk++) {
            struct config same_enc = {UTFDFA_CORRECTED_UTF8, UTFDFA_CORRECTED_UTF8, SINK_BYTES,
                                      UTFDFA_STRICT, UTFDFA_BOM_KEEP};
            struct outcome r;
            run_config(&same_enc, buf, n, chunk, 16, &r);
            CHECK(r.nerr == 0 && r.len == n && memcmp(r.out, buf, n) == 0,
                  "corrected -> corrected passes [%s] through (chunks of %zu)", reserved_ok[v],
                  chunk);
            outcome_free(&r);
        }
    }
    static const uint8_t res_mid[] = {0x41, 0xFE, 0x80, 0x80, 0x42, 0xFF};
    struct config to32 = {UTFDFA_CORRECTED_UTF8, UTFDFA_UTF8, SINK_U32, UTFDFA_STRICT,
                          UTFDFA_BOM_KEEP};
    for (size_t chunk = 0; chunk <= 3; chunk++) {
        struct outcome r;
        to32.errors = UTFDFA_STRICT;
        run_config(&to32, res_mid, sizeof res_mid, chunk, 8, &r);
        static const uint32_t ab[] = {'A', 'B'};
        CHECK(r.nerr == 2 && r.err[0].offset == 1 && r.err[0].length == 3 &&
                  r.err[0].kind == UTFDFA_ERR_RESERVED && r.err[1].offset == 5 &&
                  r.err[1].length == 1 && r.len == 8 && memcmp(r.out, ab, 8) == 0,
              "corrected -> UTF-32: reserved units are errors at their offsets (chunks of %zu)",
              chunk);
        outcome_free(&r);
        to32.errors = UTFDFA_REPLACE;
        run_config(&to32, res_mid, sizeof res_mid, chunk, 8, &r);
        static const uint32_t afbf[] = {'A', 0xFFFD, 'B', 0xFFFD};
        CHECK(r.len == sizeof afbf && memcmp(r.out, afbf, sizeof afbf) == 0,
              "corrected -> UTF-32 replace: one U+FFFD per reserved unit");
        outcome_free(&r);
    }
    /* FE and FF go on a reserved unit: FE FF 80 FE is one unit, ended by C0. */
    static const uint8_t res_run[] = {0xFE, 0xFF, 0x80, 0xFE, 0xC0, 0xAF, 0xFF, 0xFF};
    for (size_t chunk = 0; chunk <= 3; chunk++) {
        struct outcome r;
        to32.errors = UTFDFA_STRICT;
        run_config(&to32, res_run, sizeof res_run, chunk, 8, &r);
        static const uint32_t cf[] = {0xCF};
        CHECK(r.nerr == 2 && r.err[0].offset == 0 && r.err[0].length == 4 &&
                  r.err[0].kind == UTFDFA_ERR_RESERVED && r.err[1].offset == 6 &&
                  r.err[1].length == 2 && r.len == 4 && memcmp(r.out, cf, 4) == 0,
              "corrected -> UTF-32: FE FF 80 FE is one reserved unit (chunks of %zu)", chunk);
        outcome_free(&r);
        to32.errors = UTFDFA_REPLACE;
        run_config(&to32, res_run, sizeof res_run, chunk, 8, &r);
        static const uint32_t fcf[] = {0xFFFD, 0xCF, 0xFFFD};
        CHECK(r.len == sizeof fcf && memcmp(r.out, fcf, sizeof fcf) == 0,
              "corrected -> UTF-32 replace: FE FF 80 FE | C0 AF | FF FF (chunks of %zu)", chunk);
        outcome_free(&r);
    }
    /* A reserved unit of 100 001 bytes: its exact length, fed in pieces. */
    size_t big_n = 100003;
    uint8_t *big_res = malloc(big_n);
    big_res[0] = 'x';
    big_res[1] = 0xFE;
    memset(big_res + 2, 0x80, big_n - 3);
    big_res[big_n - 1] = 'y';
    to32.errors = UTFDFA_STRICT;
    struct outcome rb;
    run_config(&to32, big_res, big_n, 4096, 8, &rb);
    CHECK(rb.nerr == 1 && rb.err[0].offset == 1 && rb.err[0].length == big_n - 2 && rb.len == 8,
          "corrected: a 100001-byte reserved unit is one error of its exact length");
    outcome_free(&rb);
    free(big_res);
    magic();
    magic_retargeted();
    /* Into other encodings: only what they can hold. */
    static const uint8_t wide_cp[] = {0x41, 0xFD, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF};
    struct config c = {UTFDFA_CORRECTED_UTF8, UTFDFA_UTF8_RFC2279, SINK_BYTES, UTFDFA_STRICT,
                       UTFDFA_BOM_KEEP};
    struct outcome r;
    run_config(&c, wide_cp, sizeof wide_cp, 0, 32, &r);
    CHECK(r.nerr == 1 && r.err[0].offset == 1 && r.err[0].length == 6 &&
              r.err[0].kind == UTFDFA_ERR_TOO_LARGE,
          "corrected -> rfc2279: U+8421109F is too large");
    outcome_free(&r);
    static const uint8_t c1[] = {0x41, 0xC2, 0x85, 0x42};
    struct config to_c = {UTFDFA_UTF8, UTFDFA_CORRECTED_UTF8, SINK_BYTES, UTFDFA_STRICT,
                          UTFDFA_BOM_KEEP};
    run_config(&to_c, c1, sizeof c1, 0, 32, &r);
    CHECK(r.nerr == 1 && r.err[0].offset == 1 && r.err[0].length == 2 &&
              r.err[0].kind == UTFDFA_ERR_UNENCODABLE,
          "utf-8 -> corrected: U+0085 is unencodable, at offset 1");
    outcome_free(&r);
}

int main(void)
{
    rfc2279();
    corrected();
    return check_summary("test_variants");
}
