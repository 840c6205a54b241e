/* SPDX-License-Identifier: MIT */
/* The rule the error kinds follow (utfdfa.h, utfdfa(3)): `surrogate` and
 * the other input kinds say what is wrong with the input's bytes; a value
 * the input holds that the output cannot is the output's error,
 * `unencodable` (`too-large` above its range), its length the whole
 * character's bytes; a sequence the end of input cuts short, a UTF-16 or
 * CESU-8 high surrogate waiting for its low one included, is `truncated`,
 * its length every byte of it read. Each API, each target. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "utfdfa.h"

/* The first error of a strict decode of src[0..n) from `from` through each
 * API into `to` (decode_utf16 only when to is UTF-16LE, as its output). */
static utfdfa_error first_error(enum utfdfa_encoding from, enum utfdfa_encoding to, int api,
                                const uint8_t *src, size_t n)
{
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, from, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    utfdfa_error e = {0, 0, UTFDFA_ERR_NONE};
    uint8_t out[256];
    uint32_t cps[64];
    uint16_t units[64];
    size_t sl = n, ol = sizeof out, cl = 64;
    utfdfa_result r;
    if (api == 0) {
        r = utfdfa_transcode(&d, to, src, &sl, out, &ol, true, &e);
    } else if (api == 1) {
        utfdfa_decoder_set_target(&d, to);
        r = utfdfa_decode_utf32(&d, src, &sl, cps, &cl, true, &e);
    } else {
        r = utfdfa_decode_utf16(&d, src, &sl, units, &cl, true, &e);
    }
    if (r != UTFDFA_MALFORMED)
        e.kind = UTFDFA_ERR_NONE;
    return e;
}

static const char *api_name[] = {"transcode", "decode_utf32", "decode_utf16"};

static void expect(enum utfdfa_encoding from, enum utfdfa_encoding to, int api,
                   const uint8_t *src, size_t n, uint64_t at, uint32_t len,
                   enum utfdfa_error_kind kind, const char *what)
{
    utfdfa_error e = first_error(from, to, api, src, n);
    CHECK(e.kind == kind && e.offset == at && e.length == len,
          "%s %s -> %s: %s: %s at %llu+%u (got %s at %llu+%u)", api_name[api],
          utfdfa_encoding_name(from), utfdfa_encoding_name(to), what, utfdfa_error_name(kind),
          (unsigned long long)at, len, utfdfa_error_name(e.kind), (unsigned long long)e.offset,
          e.length);
}

/* Whether `to` holds the lone surrogate code points (for decode_utf32,
 * whose target only limits values). */
static bool holds_surrogates(enum utfdfa_encoding to)
{
    return to == UTFDFA_WTF8 || to == UTFDFA_UCS4LE || to == UTFDFA_UCS4BE;
}

/* "A" U+D800 "B" in the sources that hold a lone surrogate, written by the
 * encoder: into every target that cannot hold it, unencodable, of the
 * character's bytes. */
static void surrogate_in_source(void)
{
    static const enum utfdfa_encoding sources[] = {UTFDFA_WTF8, UTFDFA_UCS4LE, UTFDFA_UCS4BE};
    static const uint32_t text[] = {'A', 0xD800, 'B'};
    for (size_t s = 0; s < sizeof sources / sizeof sources[0]; s++) {
        uint8_t src[32];
        size_t n = sizeof src, k = 3, unit = utfdfa_unit_size(sources[s]);
        utfdfa_encoder enc;
        utfdfa_encoder_init(&enc, sources[s], UTFDFA_STRICT, UTFDFA_BOM_KEEP);
        CHECK(utfdfa_encode(&enc, text, &k, src, &n, true, NULL) == UTFDFA_INPUT_EMPTY,
              "%s holds U+D800", utfdfa_encoding_name(sources[s]));
        uint32_t len = unit == 1 ? 3 : 4;
        for (int to = 0; to < UTFDFA_NENCODINGS; to++) {
            enum utfdfa_encoding t = (enum utfdfa_encoding)to;
            for (int api = 0; api < 2 && !holds_surrogates(t); api++)
                expect(sources[s], t, api, src, n, unit, len, UTFDFA_ERR_UNENCODABLE,
                       "a lone surrogate of the input");
        }
        expect(sources[s], UTFDFA_UTF16LE, 2, src, n, unit, len, UTFDFA_ERR_UNENCODABLE,
               "a lone surrogate of the input");
    }
    /* The bytes, as given. */
    static const uint8_t wtf[] = {0x41, 0xED, 0xA0, 0x80, 0x42};
    expect(UTFDFA_WTF8, UTFDFA_UTF8, 0, wtf, sizeof wtf, 1, 3, UTFDFA_ERR_UNENCODABLE,
           "41 ED A0 80 42");
    /* The encoder: a surrogate code point is a value UTF-8 cannot hold. */
    utfdfa_encoder enc;
    utfdfa_encoder_init(&enc, UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    uint8_t out[16];
    size_t k = 3, o = sizeof out;
    utfdfa_error e;
    CHECK(utfdfa_encode(&enc, text, &k, out, &o, true, &e) == UTFDFA_MALFORMED &&
              e.kind == UTFDFA_ERR_UNENCODABLE && e.offset == 1 && e.length == 1,
          "encode: U+D800 into UTF-8 is unencodable");
    /* Where the input itself may not hold one, it stays the input's error. */
    static const uint8_t u8[] = {0x41, 0xED, 0xA0, 0x80};
    static const uint8_t u32[] = {0x41, 0, 0, 0, 0x00, 0xD8, 0, 0};
    static const uint8_t u16[] = {0x41, 0, 0x00, 0xDC};
    for (int api = 0; api < 3; api++) {
        expect(UTFDFA_UTF8, UTFDFA_UTF16LE, api, u8, sizeof u8, 1, 1, UTFDFA_ERR_SURROGATE,
               "ED A0 in UTF-8");
        expect(UTFDFA_UTF32LE, UTFDFA_UTF16LE, api, u32, sizeof u32, 4, 4,
               UTFDFA_ERR_SURROGATE, "D800 in UTF-32");
        expect(UTFDFA_UTF16LE, UTFDFA_UTF16LE, api, u16, sizeof u16, 2, 2,
               UTFDFA_ERR_SURROGATE, "a lone low surrogate in UTF-16");
    }
}

/* A pair cut by the end of input after its high surrogate, with none, one
 * or more bytes of the low one's unit: one error, truncated, of every byte
 * read; a high one followed by a whole unit that is not low: surrogate. */
static void pair_cut_at_end(void)
{
    static const uint8_t le[] = {0x41, 0x00, 0x3D, 0xD8, 0x00, 0xDE};
    static const uint8_t be[] = {0x00, 0x41, 0xD8, 0x3D, 0xDE, 0x00};
    static const uint8_t cesu[] = {0x41, 0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80};
    for (int api = 0; api < 3; api++) {
        for (size_t cut = 4; cut <= 5; cut++) {
            expect(UTFDFA_UTF16LE, UTFDFA_UTF8, api, le, cut, 2, (uint32_t)cut - 2,
                   UTFDFA_ERR_TRUNCATED, "a UTF-16LE pair cut by the end");
            expect(UTFDFA_UTF16BE, UTFDFA_UTF8, api, be, cut, 2, (uint32_t)cut - 2,
                   UTFDFA_ERR_TRUNCATED, "a UTF-16BE pair cut by the end");
        }
        for (size_t cut = 4; cut <= 6; cut++) {
            expect(UTFDFA_CESU8, UTFDFA_UTF8, api, cesu, cut, 1, 3, UTFDFA_ERR_TRUNCATED,
                   "a CESU-8 pair cut by the end");
            expect(UTFDFA_MUTF8, UTFDFA_UTF8, api, cesu, cut, 1, 3, UTFDFA_ERR_TRUNCATED,
                   "a modified UTF-8 pair cut by the end");
        }
        static const uint8_t lone16[] = {0x41, 0x00, 0x3D, 0xD8, 0x42, 0x00};
        static const uint8_t lone8[] = {0x41, 0xED, 0xA0, 0xBD, 0x42};
        expect(UTFDFA_UTF16LE, UTFDFA_UTF8, api, lone16, sizeof lone16, 2, 2,
               UTFDFA_ERR_SURROGATE, "a high surrogate, then 'B'");
        expect(UTFDFA_CESU8, UTFDFA_UTF8, api, lone8, sizeof lone8, 1, 3, UTFDFA_ERR_SURROGATE,
               "a high surrogate, then 'B'");
    }
}

int main(void)
{
    surrogate_in_source();
    pair_cut_at_end();
    return check_summary("test_error_rule");
}
