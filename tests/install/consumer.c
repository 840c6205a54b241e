/* SPDX-License-Identifier: MIT */
/* A program that uses an installed libutfdfa, built only with
 *     cc consumer.c $(pkg-config --cflags --libs utfdfa)
 * (statically and against the shared library, and with CMake), and against
 * the single-file build (make check-amalgamation): the install test's proof that
 * the headers, the library and the standalone DFA header are usable from the
 * installed location. Expected values are written out by hand from the
 * standards (RFC 3629, RFC 2781, Unicode 3.9 Table 3-8), not from the code.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <utfdfa.h>
/* The standalone DFA, installed beside the API; the single-file build
 * (make check-amalgamation) has no such header: -DCONSUMER_NO_DFA_HEADER. */
#ifndef CONSUMER_NO_DFA_HEADER
#include <utfdfa/utf8.gen.h>
#endif

static unsigned passed, failed;

static void check(int ok, const char *what)
{
    if (ok) {
        passed++;
    } else {
        failed++;
        fprintf(stderr, "FAIL: %s\n", what);
    }
}

#define S(lit) (const uint8_t *)(lit), sizeof(lit) - 1

static void test_names(void)
{
    enum utfdfa_encoding e = UTFDFA_UTF8;
    check(strcmp(utfdfa_encoding_name(UTFDFA_UTF16BE), "utf-16be") == 0, "encoding_name");
    check(utfdfa_encoding_from_name("UTF-32le", 8, &e) && e == UTFDFA_UTF32LE,
          "encoding_from_name ignores case");
    /* (pointer, length): a longer buffer is cut at len, not at a NUL. */
    check(utfdfa_encoding_from_name("utf-8XYZ", 5, &e) && e == UTFDFA_UTF8,
          "encoding_from_name reads name[0..len)");
    check(!utfdfa_encoding_from_name("latin-1", 7, &e), "encoding_from_name rejects latin-1");
    check(strcmp(utfdfa_error_name(UTFDFA_ERR_OVERLONG), "overlong") == 0, "error_name");
    check(strlen(UTFDFA_VERSION) > 0, "UTFDFA_VERSION");
    /* The version macros, usable in #if, spell UTFDFA_VERSION; the library
     * linked (static, shared or the amalgamation) says the same version. */
#if !defined(UTFDFA_VERSION_MAJOR) || UTFDFA_VERSION_MAJOR < 0 || UTFDFA_VERSION_MINOR < 0 || \
    UTFDFA_VERSION_PATCH < 0
#error "UTFDFA_VERSION_MAJOR, _MINOR and _PATCH are missing"
#endif
    char v[64];
    snprintf(v, sizeof v, "%d.%d.%d", UTFDFA_VERSION_MAJOR, UTFDFA_VERSION_MINOR, UTFDFA_VERSION_PATCH);
    check(strcmp(v, UTFDFA_VERSION) == 0, "UTFDFA_VERSION is MAJOR.MINOR.PATCH");
    check(strcmp(utfdfa_version(), UTFDFA_VERSION) == 0, "utfdfa_version() is UTFDFA_VERSION");
}

static void test_validation(void)
{
    /* é € U+1F600: 2, 3 and 4 byte forms (RFC 3629 section 3). */
    static const uint8_t good[] = "h\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80";
    check(utfdfa_valid_up_to(good, sizeof good - 1) == sizeof good - 1, "valid_up_to: valid");
    check(utfdfa_valid_up_to(S("ab\xC0\xAF" "cd")) == 2, "valid_up_to: C0 AF at 2");

    struct {
        const char *bytes;
        size_t len, offset;
        uint32_t length;
        enum utfdfa_error_kind kind;
    } cases[] = {
        {"a\xED\xA0\x80", 4, 1, 1, UTFDFA_ERR_SURROGATE},     /* U+D800 (section 3) */
        {"\xF4\x90\x80\x80", 4, 0, 1, UTFDFA_ERR_TOO_LARGE},  /* U+110000 */
        {"xy\xE2\x82", 4, 2, 2, UTFDFA_ERR_TRUNCATED},        /* cut short by the end */
        {"\x80", 1, 0, 1, UTFDFA_ERR_UNEXPECTED_CONTINUATION},
        {"\xE0\x80\x80", 3, 0, 1, UTFDFA_ERR_OVERLONG},       /* section 10 */
        {"\xFF", 1, 0, 1, UTFDFA_ERR_INVALID_LEAD},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        utfdfa_error e = {0, 0, UTFDFA_ERR_NONE};
        size_t n = utfdfa_validate(UTFDFA_UTF8, (const uint8_t *)cases[i].bytes, cases[i].len, &e);
        char what[64];
        snprintf(what, sizeof what, "validate case %zu", i);
        check(n == cases[i].offset && e.offset == cases[i].offset &&
                  e.length == cases[i].length && e.kind == cases[i].kind,
              what);
    }
    /* An odd trailing byte in UTF-16 is one error (WHATWG). */
    utfdfa_error e;
    check(utfdfa_validate(UTFDFA_UTF16LE, S("a\0b"), &e) == 2 && e.kind == UTFDFA_ERR_TRUNCATED,
          "validate utf-16le: truncated at 2");
}

static void test_streaming(void)
{
    /* Unicode 3.9, Table 3-8: 61 F1 80 80 E1 80 C2 62 80 63 80 BF 64 decodes to
     * a FFFD FFFD FFFD b FFFD c FFFD FFFD d with one U+FFFD per maximal subpart. */
    static const uint8_t in[] = "\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64";
    static const uint32_t want[] = {0x61,   0xFFFD, 0xFFFD, 0xFFFD, 0x62, 0xFFFD,
                                    0x63,   0xFFFD, 0xFFFD, 0x64};
    uint32_t out[16];
    size_t got = 0;
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, UTFDFA_UTF8, UTFDFA_REPLACE, UTFDFA_BOM_KEEP);
    /* One byte at a time: chunking must not change the result. */
    for (size_t i = 0; i < sizeof in - 1; i++) {
        size_t n = 1, m = sizeof out / sizeof out[0] - got;
        utfdfa_result r = utfdfa_decode_utf32(&d, in + i, &n, out + got, &m, false, NULL);
        check(r == UTFDFA_INPUT_EMPTY && n == 1, "decode_utf32 byte by byte");
        got += m;
    }
    size_t n = 0, m = sizeof out / sizeof out[0] - got;
    check(utfdfa_decode_utf32(&d, in, &n, out + got, &m, true, NULL) == UTFDFA_INPUT_EMPTY,
          "decode_utf32 last");
    got += m;
    check(got == sizeof want / sizeof want[0] && memcmp(out, want, sizeof want) == 0,
          "Table 3-8 replacement");
    check(utfdfa_decoder_replaced(&d), "decoder_replaced");
    check(utfdfa_decoder_offset(&d) == sizeof in - 1, "decoder_offset");

    /* UTF-8 to UTF-16LE bytes (RFC 2781 section 2.1): U+1F600 is D83D DE00. */
    uint8_t bytes[32];
    size_t sn = sizeof "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80" - 1, bn = sizeof bytes;
    utfdfa_decoder_init(&d, UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    utfdfa_result r = utfdfa_transcode(&d, UTFDFA_UTF16LE,
                                       (const uint8_t *)"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80",
                                       &sn, bytes, &bn, true, NULL);
    check(r == UTFDFA_INPUT_EMPTY && bn == 8 &&
              memcmp(bytes, "\xE9\x00\xAC\x20\x3D\xD8\x00\xDE", 8) == 0,
          "transcode to utf-16le");

    /* Room for one unit, not the surrogate pair: nothing is written; the
     * next call gets more room and the rest of the input. */
    static const uint8_t grin[] = "\xF0\x9F\x98\x80";
    uint16_t u16[2];
    sn = 4;
    size_t un = 1;
    utfdfa_decoder_init(&d, UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    r = utfdfa_decode_utf16(&d, grin, &sn, u16, &un, true, NULL);
    check(r == UTFDFA_OUTPUT_FULL && un == 0 && sn < 4, "decode_utf16: pair whole or not at all");
    size_t rest = 4 - sn;
    un = 2;
    r = utfdfa_decode_utf16(&d, grin + sn, &rest, u16, &un, true, NULL);
    check(r == UTFDFA_INPUT_EMPTY && un == 2 && u16[0] == 0xD83D && u16[1] == 0xDE00,
          "decode_utf16: D83D DE00");

    /* Strict check reports, then goes on. */
    utfdfa_error e;
    utfdfa_decoder_init(&d, UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    sn = 5;
    r = utfdfa_check(&d, (const uint8_t *)"ab\xC1\x81z", &sn, true, &e);
    check(r == UTFDFA_MALFORMED && e.offset == 2 && e.kind == UTFDFA_ERR_OVERLONG,
          "check: overlong C1 at 2");

    /* A decoder aimed at UTF-8 output refuses what UTF-8 cannot hold. */
    utfdfa_decoder_init(&d, UTFDFA_UCS4LE, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    utfdfa_decoder_set_target(&d, UTFDFA_UTF8);
    sn = 4;
    m = 4;
    r = utfdfa_decode_utf32(&d, (const uint8_t *)"\x00\x00\x11\x00", &sn, out, &m, true, &e);
    check(r == UTFDFA_MALFORMED && e.offset == 0 && e.kind == UTFDFA_ERR_TOO_LARGE,
          "decoder_set_target: 0x110000 is too large for utf-8");
}

static void test_encoder(void)
{
    utfdfa_encoder enc;
    utfdfa_encoder_init(&enc, UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    static const uint32_t cps[] = {0x41, 0xD800, 0x10FFFF};
    uint8_t out[16];
    size_t n = 3, m = sizeof out;
    utfdfa_error e;
    utfdfa_result r = utfdfa_encode(&enc, cps, &n, out, &m, true, &e);
    check(r == UTFDFA_MALFORMED && m == 1 && out[0] == 'A' && e.offset == 1 &&
              e.kind == UTFDFA_ERR_UNENCODABLE,
          "encode: surrogate is unencodable at index 1");
    utfdfa_encoder_init(&enc, UTFDFA_UTF16BE, UTFDFA_REPLACE, UTFDFA_BOM_ADD);
    n = 3;
    m = sizeof out;
    r = utfdfa_encode(&enc, cps, &n, out, &m, true, &e);
    check(r == UTFDFA_INPUT_EMPTY && m == 10 &&
              memcmp(out, "\xFE\xFF\x00\x41\xFF\xFD\xDB\xFF\xDF\xFF", 10) == 0,
          "encode utf-16be with BOM and replacement");
}

static void test_sizes(void)
{
    size_t out = 0;
    check(!utfdfa_max_transcoded_len(UTFDFA_UTF8, UTFDFA_UTF32LE, SIZE_MAX, &out),
          "max_transcoded_len overflow is false");
    check(utfdfa_max_transcoded_len(UTFDFA_UTF8, UTFDFA_UTF16LE, 10, &out) && out >= 20,
          "max_transcoded_len");
    check(utfdfa_max_encoded_len(UTFDFA_UTF8, 3, &out) && out >= 12, "max_encoded_len");
    check(utfdfa_max_utf32_len(UTFDFA_UTF8, 10, &out) && out >= 10, "max_utf32_len");
    check(utfdfa_max_utf16_len(UTFDFA_UTF8, 10, &out) && out >= 10, "max_utf16_len");
}

#ifndef CONSUMER_NO_DFA_HEADER
/* The standalone header agrees with the library on where valid UTF-8 ends. */
static size_t dfa_valid_up_to(const uint8_t *p, size_t n)
{
    uint32_t state = UTF8_ACCEPT;
    size_t char_start = 0;
    for (size_t i = 0; i < n; i++) {
        if (state == UTF8_ACCEPT)
            char_start = i;
        state = utf8_step(state, p[i]);
        if (state == UTF8_REJECT)
            return char_start;
    }
    return state == UTF8_ACCEPT ? n : char_start;
}

static void test_standalone_header(void)
{
    uint64_t x = 0x2545F4914F6CDD1Dull; /* xorshift64, fixed seed */
    unsigned bad = 0;
    for (int t = 0; t < 20000; t++) {
        uint8_t buf[8];
        size_t n = (size_t)(t % 8) + 1;
        for (size_t i = 0; i < n; i++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            uint8_t b = (uint8_t)x;
            /* Mostly plausible UTF-8 bytes, so valid strings are common. */
            buf[i] = (x >> 8) % 3 ? (uint8_t)(0x80 | (b & 0x3F)) : b;
            if (i == 0 && (x >> 16) % 2)
                buf[i] = (uint8_t)(0xC2 + b % 0x33);
        }
        if (dfa_valid_up_to(buf, n) != utfdfa_valid_up_to(buf, n))
            bad++;
    }
    check(bad == 0, "utf8.gen.h and libutfdfa agree on 20000 random strings");
}
#endif

int main(void)
{
    test_names();
    test_validation();
    test_streaming();
    test_encoder();
    test_sizes();
#ifndef CONSUMER_NO_DFA_HEADER
    test_standalone_header();
#endif
    printf("consumer: %u passed, %u failed\n", passed, failed);
    return failed != 0;
}
