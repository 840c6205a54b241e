/* SPDX-License-Identifier: MIT */
/* Hostile inputs beyond the table of tests/stream/test_vectors.c (which
 * has the overlongs, "2F C0 AE 2E 2F", the surrogates, the CESU-8 pair and
 * values above U+10FFFF through every sink, mode and chunking):
 *
 *   - lead bytes F5-FF, truncation at the end of input and at every chunk
 *     boundary; the same for UTF-16 and UTF-32;
 *   - forward progress: every error covers at least one byte and is
 *     consumed; errors never overlap or go backwards; characters and
 *     errors together cover the input exactly; a call with room for a
 *     character always makes progress;
 *   - the output buffer exactly full and one unit short, for 4-byte
 *     characters, surrogate pairs, BOMs and U+FFFD.
 *
 * Expected outputs are code points written here by hand and encoded for
 * each output kind by the reference encoders in tests/ref (not by the
 * library). Inputs and outputs live in exact-size heap buffers so any
 * access past their end is caught by AddressSanitizer or valgrind.
 * UTF-7 and Corrected UTF-8 items of the issue belong to the variants
 * issue and are not here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common.h"
#include "drive.h"
#include "oracle.h"
#include "rng.h"
#include "utfdfa.h"

/* The encodings this file knows (the enum may grow with the variants issue). */
static const enum utfdfa_encoding encodings[] = {UTFDFA_UTF8, UTFDFA_UTF16LE, UTFDFA_UTF16BE,
                                                 UTFDFA_UTF32LE, UTFDFA_UTF32BE};
#define NENC (sizeof encodings / sizeof encodings[0])

/* ------------------------------------------------------------ output kinds */

static const struct sink sinks[] = {
    {SINK_U32, UTFDFA_UTF8},      {SINK_U16, UTFDFA_UTF8},      {SINK_BYTES, UTFDFA_UTF8},
    {SINK_BYTES, UTFDFA_UTF16LE}, {SINK_BYTES, UTFDFA_UTF16BE}, {SINK_BYTES, UTFDFA_UTF32LE},
    {SINK_BYTES, UTFDFA_UTF32BE}, {SINK_CHECK, UTFDFA_UTF8},
};
#define NSINKS (sizeof sinks / sizeof sinks[0])

/* The output of a strict decode with the smallest room covers the input. */
static bool covers_exactly(enum utfdfa_encoding from, const uint8_t *in, size_t n)
{
    struct drive dv = {from, UTFDFA_STRICT, UTFDFA_BOM_KEEP, {SINK_U32, UTFDFA_UTF8}, 0, false, 0,
                       2, false, 0};
    struct outcome o;
    drive_run(&dv, in, n, &o);
    bool ok = !o.problem && oracle_covers(from, &o, n);
    outcome_free(&o);
    return ok;
}

/* Bytes of cps as sink s writes them (tests/common/oracle.c). */
static size_t sink_units(const struct sink *s, const uint32_t *cps, size_t n, uint8_t *out)
{
    size_t len = 0;
    if (!oracle_sink_form(s, cps, n, out, &len))
        fail("no reference form of these code points for %s", sink_name(s));
    return len;
}

static bool output_is(const struct outcome *o, const struct sink *s, const uint32_t *cps,
                      size_t n)
{
    uint8_t *want = xmalloc(8 * n);
    size_t len;
    bool ok = oracle_sink_form(s, cps, n, want, &len) && o->len == len &&
              (len == 0 || memcmp(o->out, want, len) == 0);
    free(want);
    return ok;
}

/* Lead bytes F5-FF alone, before ASCII, and before continuation bytes. */
static void lead_bytes_f5_ff(void)
{
    for (unsigned b = 0xF5; b <= 0xFF; b++) {
        enum utfdfa_error_kind kind = b <= 0xF7 ? UTFDFA_ERR_TOO_LARGE : UTFDFA_ERR_INVALID_LEAD;
        uint8_t bytes[3] = {(uint8_t)b, 0x80, 0x41};
        for (size_t n = 1; n <= 3; n++) {
            uint8_t *in = dup_exact(bytes, n);
            struct drive dv = {UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP,
                               {SINK_U32, UTFDFA_UTF8}, 0, false, 0, 8, false, 0};
            struct outcome o;
            drive_run(&dv, in, n, &o);
            utfdfa_error want[2] = {{0, 1, kind}, {1, 1, UTFDFA_ERR_UNEXPECTED_CONTINUATION}};
            static const uint32_t a = 'A';
            CHECK(!o.problem && errors_equal(o.err, o.nerr, want, n == 1 ? 1 : 2) &&
                      output_is(&o, &dv.sink, &a, n == 3),
                  "lead byte %02X (%zu bytes): one error of 1 byte, kind %s", b, n,
                  utfdfa_error_name(kind));
            outcome_free(&o);
            dv.errors = UTFDFA_REPLACE;
            drive_run(&dv, in, n, &o);
            uint32_t rep[3] = {0xFFFD, n >= 2 ? 0xFFFD : 0, 'A'};
            CHECK(!o.problem && output_is(&o, &dv.sink, rep, n),
                  "lead byte %02X (%zu bytes): replace output", b, n);
            outcome_free(&o);
            free(in);
        }
    }
}

/* Every proper prefix of a character, cut at a chunk boundary: nothing
 * happens until the end; then exactly one error (one U+FFFD); given the
 * rest instead, the character. */
static void truncation_at_boundaries(void)
{
    static const struct {
        enum utfdfa_encoding from;
        const char *hex;
        uint32_t cp;
        enum utfdfa_error_kind end_kind[3]; /* the kind when cut after 1, 2, 3 bytes */
    } chars[] = {
        {UTFDFA_UTF8, "C3 A9", 0xE9, {UTFDFA_ERR_TRUNCATED}},
        {UTFDFA_UTF8, "E2 82 AC", 0x20AC, {UTFDFA_ERR_TRUNCATED, UTFDFA_ERR_TRUNCATED}},
        {UTFDFA_UTF8, "ED 9F BF", 0xD7FF, {UTFDFA_ERR_TRUNCATED, UTFDFA_ERR_TRUNCATED}},
        {UTFDFA_UTF8, "F0 9F 98 80", 0x1F600,
         {UTFDFA_ERR_TRUNCATED, UTFDFA_ERR_TRUNCATED, UTFDFA_ERR_TRUNCATED}},
        {UTFDFA_UTF8, "F4 8F BF BF", 0x10FFFF,
         {UTFDFA_ERR_TRUNCATED, UTFDFA_ERR_TRUNCATED, UTFDFA_ERR_TRUNCATED}},
        {UTFDFA_UTF16LE, "41 00", 'A', {UTFDFA_ERR_TRUNCATED}},
        {UTFDFA_UTF16LE, "3D D8 00 DE", 0x1F600,
         {UTFDFA_ERR_TRUNCATED, UTFDFA_ERR_TRUNCATED, UTFDFA_ERR_TRUNCATED}},
        {UTFDFA_UTF16BE, "DB FF DF FF", 0x10FFFF,
         {UTFDFA_ERR_TRUNCATED, UTFDFA_ERR_TRUNCATED, UTFDFA_ERR_TRUNCATED}},
        {UTFDFA_UTF32LE, "00 F6 01 00", 0x1F600,
         {UTFDFA_ERR_TRUNCATED, UTFDFA_ERR_TRUNCATED, UTFDFA_ERR_TRUNCATED}},
        {UTFDFA_UTF32BE, "00 10 FF FF", 0x10FFFF,
         {UTFDFA_ERR_TRUNCATED, UTFDFA_ERR_TRUNCATED, UTFDFA_ERR_TRUNCATED}},
    };
    for (size_t c = 0; c < sizeof chars / sizeof chars[0]; c++) {
        uint8_t buf[4];
        size_t n = parse_hex(chars[c].hex, buf, 4);
        const char *enc = utfdfa_encoding_name(chars[c].from);
        for (size_t cut = 1; cut < n; cut++) {
            for (int mode = UTFDFA_STRICT; mode <= UTFDFA_IGNORE; mode++) {
                utfdfa_decoder d;
                utfdfa_decoder_init(&d, chars[c].from, (enum utfdfa_error_mode)mode,
                                    UTFDFA_BOM_KEEP);
                uint8_t *head = dup_exact(buf, cut), *tail = dup_exact(buf + cut, n - cut);
                uint32_t *out = xmalloc(2 * 4);
                utfdfa_error e = {0, 0, UTFDFA_ERR_NONE};
                size_t s = cut, o = 2;
                utfdfa_result r = utfdfa_decode_utf32(&d, head, &s, out, &o, false, &e);
                CHECK(r == UTFDFA_INPUT_EMPTY && s == cut && o == 0,
                      "%s [%s] cut after %zu, mode %d: the head is read silently", enc,
                      chars[c].hex, cut, mode);
                /* The end comes: one error covering the head. */
                utfdfa_decoder d_end = d;
                s = 0;
                o = 2;
                r = utfdfa_decode_utf32(&d_end, NULL, &s, out, &o, true, &e);
                if (mode == UTFDFA_STRICT) {
                    CHECK(r == UTFDFA_MALFORMED && o == 0 && e.offset == 0 && e.length == cut &&
                              e.kind == chars[c].end_kind[cut - 1],
                          "%s [%s] cut after %zu then EOF: one error 0+%zu %s (got %llu+%u %s)",
                          enc, chars[c].hex, cut, cut,
                          utfdfa_error_name(chars[c].end_kind[cut - 1]),
                          (unsigned long long)e.offset, e.length, utfdfa_error_name(e.kind));
                    s = 0;
                    o = 2;
                    r = utfdfa_decode_utf32(&d_end, NULL, &s, out, &o, true, &e);
                    CHECK(r == UTFDFA_INPUT_EMPTY && o == 0,
                          "%s [%s] cut after %zu: the error is reported once", enc,
                          chars[c].hex, cut);
                } else {
                    size_t want = mode == UTFDFA_REPLACE;
                    CHECK(r == UTFDFA_INPUT_EMPTY && o == want && (!want || out[0] == 0xFFFD),
                          "%s [%s] cut after %zu then EOF, mode %d: %zu U+FFFD", enc,
                          chars[c].hex, cut, mode, want);
                }
                /* The rest comes instead: the character. */
                s = n - cut;
                o = 2;
                r = utfdfa_decode_utf32(&d, tail, &s, out, &o, true, &e);
                CHECK(r == UTFDFA_INPUT_EMPTY && s == n - cut && o == 1 && out[0] == chars[c].cp,
                      "%s [%s] split at %zu: the character", enc, chars[c].hex, cut);
                free(head);
                free(tail);
                free(out);
            }
        }
    }
}

/* ------------------------------------------------------------ exact room */

struct room_case {
    enum utfdfa_encoding from;
    enum utfdfa_error_mode errors;
    enum utfdfa_bom bom;
    const char *input;
    const char *groups; /* expected output in groups written together, '|' between */
    const char *why;
};

static const struct room_case room_cases[] = {
    {UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP, "F0 9F 98 80", "1F600", "a 4-byte character"},
    {UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP, "41 F0 9F 98 80", "41 | 1F600",
     "a character, then a 4-byte one"},
    {UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP, "F4 8F BF BF F0 90 80 80",
     "10FFFF | 10000", "two 4-byte characters"},
    {UTFDFA_UTF16LE, UTFDFA_STRICT, UTFDFA_BOM_KEEP, "3D D8 00 DE", "1F600", "a surrogate pair"},
    {UTFDFA_UTF16BE, UTFDFA_STRICT, UTFDFA_BOM_KEEP, "00 41 DB FF DF FF", "41 | 10FFFF",
     "a character, then a pair"},
    {UTFDFA_UTF32LE, UTFDFA_STRICT, UTFDFA_BOM_KEEP, "00 F6 01 00", "1F600",
     "UTF-32 of a pair"},
    {UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP, "EF BB BF 41", "FEFF | 41", "a BOM kept"},
    {UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_STRIP, "EF BB BF F0 9F 98 80", "1F600",
     "a BOM stripped before a 4-byte character"},
    {UTFDFA_UTF16BE, UTFDFA_STRICT, UTFDFA_BOM_STRIP, "FE FF D8 3D DE 00", "1F600",
     "a UTF-16 BOM stripped before a pair"},
    {UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_ADD, "F0 9F 98 80", "FEFF 1F600",
     "a BOM added before a 4-byte character"},
    {UTFDFA_UTF16LE, UTFDFA_STRICT, UTFDFA_BOM_ADD, "3D D8 00 DE 41 00", "FEFF 1F600 | 41",
     "a BOM added before a pair"},
    {UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_ADD, "EF BB BF 41", "FEFF | 41",
     "a BOM added is not doubled"},
    {UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_ADD, "", "FEFF", "a BOM added to nothing"},
    {UTFDFA_UTF8, UTFDFA_REPLACE, UTFDFA_BOM_KEEP, "41 80", "41 | FFFD", "a U+FFFD"},
    {UTFDFA_UTF8, UTFDFA_REPLACE, UTFDFA_BOM_ADD, "80 41", "FEFF FFFD | 41",
     "a BOM added before a U+FFFD"},
    {UTFDFA_UTF16LE, UTFDFA_REPLACE, UTFDFA_BOM_KEEP, "3D D8 3D D8 00 DE", "FFFD | 1F600",
     "a lone surrogate, then a pair"},
    {UTFDFA_UTF8, UTFDFA_REPLACE, UTFDFA_BOM_KEEP, "F0 9F 98", "FFFD",
     "a U+FFFD for a truncated end"},
};

static size_t parse_groups(const char *s, uint32_t *cps, size_t *ends, size_t *ngroups)
{
    size_t n = 0;
    *ngroups = 0;
    while (*s) {
        size_t k = strcspn(s, "|");
        char part[128];
        snprintf(part, sizeof part, "%.*s", (int)k, s);
        n += parse_cps(part, cps + n, 16);
        ends[(*ngroups)++] = n;
        s += k;
        if (*s == '|')
            s++;
    }
    return n;
}

/* With room for exactly the whole output: all of it in one call. With one
 * unit less: OUTPUT_FULL after the whole groups that fit, nothing of the
 * next one; called again with the rest, the same output in the end. */
static void exact_room(void)
{
    for (size_t c = 0; c < sizeof room_cases / sizeof room_cases[0]; c++) {
        const struct room_case *rc = &room_cases[c];
        uint8_t buf[32];
        size_t n = parse_hex(rc->input, buf, sizeof buf);
        uint32_t cps[16];
        size_t ends[8], ngroups;
        size_t ncps = parse_groups(rc->groups, cps, ends, &ngroups);
        for (size_t s = 0; s + 1 < NSINKS; s++) { /* every sink but check */
            const struct sink *sk = &sinks[s];
            size_t us = sink_unit(sk);
            uint8_t want[128];
            size_t want_len = sink_units(sk, cps, ncps, want), units = want_len / us;
            for (size_t short_by = 0; short_by <= 1; short_by++) {
                size_t room = units - short_by;
                /* What fits: the whole groups within `room` units. */
                size_t fit = 0;
                for (size_t g = 0; g < ngroups; g++) {
                    uint8_t tmp[128];
                    if (sink_units(sk, cps, ends[g], tmp) / us <= room)
                        fit = sink_units(sk, cps, ends[g], tmp);
                }
                utfdfa_decoder d;
                utfdfa_decoder_init(&d, rc->from, rc->errors, rc->bom);
                uint8_t *in = dup_exact(buf, n), *dst = xmalloc(room * us);
                size_t src = n, o = room;
                utfdfa_result r;
                utfdfa_error e;
                if (sk->kind == SINK_U32)
                    r = utfdfa_decode_utf32(&d, in, &src, (uint32_t *)(void *)dst, &o, true, &e);
                else if (sk->kind == SINK_U16)
                    r = utfdfa_decode_utf16(&d, in, &src, (uint16_t *)(void *)dst, &o, true, &e);
                else
                    r = utfdfa_transcode(&d, sk->to, in, &src, dst, &o, true, &e);
                if (short_by == 0) {
                    CHECK(r == UTFDFA_INPUT_EMPTY && src == n && o * us == want_len &&
                              memcmp(dst, want, want_len) == 0,
                          "%s (%s) to %s: output exactly full (%zu units) fails", rc->why,
                          rc->input, sink_name(sk), room);
                } else {
                    CHECK(r == UTFDFA_OUTPUT_FULL && o * us == fit && memcmp(dst, want, fit) == 0,
                          "%s (%s) to %s: one unit short: want OUTPUT_FULL after %zu bytes, "
                          "got result %d after %zu",
                          rc->why, rc->input, sink_name(sk), fit, (int)r, o * us);
                    /* Go on with enough room: the rest of the same output. */
                    uint8_t *rest = xmalloc(want_len);
                    size_t src2 = n - src, o2 = units;
                    if (sk->kind == SINK_U32)
                        r = utfdfa_decode_utf32(&d, in + src, &src2, (uint32_t *)(void *)rest,
                                                &o2, true, &e);
                    else if (sk->kind == SINK_U16)
                        r = utfdfa_decode_utf16(&d, in + src, &src2, (uint16_t *)(void *)rest,
                                                &o2, true, &e);
                    else
                        r = utfdfa_transcode(&d, sk->to, in + src, &src2, rest, &o2, true, &e);
                    CHECK(r == UTFDFA_INPUT_EMPTY && src + src2 == n &&
                              fit + o2 * us == want_len &&
                              memcmp(rest, want + fit, want_len - fit) == 0,
                          "%s (%s) to %s: after OUTPUT_FULL the rest follows", rc->why,
                          rc->input, sink_name(sk));
                    free(rest);
                }
                free(in);
                free(dst);
            }
        }
    }
}

/* ------------------------------------------------------------ random */

static struct test_rng rng = {20261122};

/* Forward progress and exact cover on hostile random inputs in every
 * encoding, with small and odd output rooms and chunk sizes. */
static void random_progress(void)
{
    static const uint8_t pick[] = {0x00, 0x41, 0x80, 0xBF, 0xC0, 0xC2, 0xE0, 0xED, 0xEF, 0xF0,
                                   0xF4, 0xF5, 0xFF, 0xD8, 0xDB, 0xDC, 0xDF, 0x11, 0x10, 0xFE};
    unsigned long bad = 0, runs = 0;
    for (int t = 0; t < 1500; t++) {
        uint8_t buf[40];
        size_t n = test_rng_below(&rng, sizeof buf);
        for (size_t i = 0; i < n; i++)
            buf[i] = test_rng_below(&rng, 3) ? pick[test_rng_below(&rng, sizeof pick)]
                                             : test_rng_byte(&rng);
        uint8_t *in = dup_exact(buf, n);
        enum utfdfa_encoding from = encodings[test_rng_below(&rng, NENC)];
        const struct sink *sk = &sinks[test_rng_below(&rng, NSINKS)];
        enum utfdfa_error_mode errors = (enum utfdfa_error_mode)test_rng_below(&rng, 3);
        enum utfdfa_bom bom = (enum utfdfa_bom)test_rng_below(&rng, 3);
        size_t chunk = test_rng_below(&rng, 6);
        struct drive dv = {from, errors, bom, *sk, chunk, false, 0,
                           sink_min_room(sk) + test_rng_below(&rng, 5), false, 0};
        struct outcome o;
        drive_run(&dv, in, n, &o);
        runs++;
        if (o.problem) {
            bad++;
            fail("random %d (%s, %s, mode %d, chunk %zu, room %zu) [%s]: %s", t,
                 utfdfa_encoding_name(from), sink_name(sk), (int)dv.errors, dv.chunk, dv.outcap,
                 hex(buf, n), o.problem);
        }
        outcome_free(&o);
        if (!covers_exactly(from, in, n)) {
            bad++;
            fail("random %d (%s) [%s]: characters and errors do not cover the input", t,
                 utfdfa_encoding_name(from), hex(buf, n));
        }
        free(in);
    }
    CHECK(bad == 0, "random forward progress: %lu of %lu runs broke a rule", bad, runs);
}

/* (NULL, 0) is a valid empty buffer for every function that takes a
 * buffer, source or destination: each call must behave exactly as with an
 * empty buffer at a real address (same result, lengths and state after),
 * and compute no NULL + 0 (clang's UBSan in make check-sanitize would stop
 * here). Covers every source, every target, the end-of-stream output still
 * owed (a BOM, an open UTF-7 run) that does not fit, and the encoder. */
static void empty_buffers(void)
{
    uint8_t *real = xmalloc(4); /* an empty buffer at a real address */
    static const uint32_t open_run[] = {0xE9};
    for (unsigned from = 0; from < UTFDFA_NENCODINGS; from++) {
        const char *fname = utfdfa_encoding_name((enum utfdfa_encoding)from);
        utfdfa_error e;
        CHECK(utfdfa_validate((enum utfdfa_encoding)from, NULL, 0, &e) == 0,
              "validate(%s, NULL, 0) is not 0", fname);
        for (int kind = 0; kind < 3 + UTFDFA_NENCODINGS; kind++) {
            for (int bom = 0; bom < 2; bom++) {
                utfdfa_result r[2];
                size_t n[2], m[2];
                uint64_t off[2];
                for (int t = 0; t < 2; t++) {
                    void *src = t ? (void *)real : NULL, *dst = t ? (void *)real : NULL;
                    utfdfa_decoder d;
                    utfdfa_decoder_init(&d, (enum utfdfa_encoding)from, UTFDFA_REPLACE,
                                        bom ? UTFDFA_BOM_ADD : UTFDFA_BOM_KEEP);
                    n[t] = 0;
                    m[t] = 0;
                    if (kind == 0)
                        r[t] = utfdfa_check(&d, src, &n[t], true, &e);
                    else if (kind == 1)
                        r[t] = utfdfa_decode_utf32(&d, src, &n[t], dst, &m[t], true, &e);
                    else if (kind == 2)
                        r[t] = utfdfa_decode_utf16(&d, src, &n[t], dst, &m[t], true, &e);
                    else
                        r[t] = utfdfa_transcode(&d, (enum utfdfa_encoding)(kind - 3), src, &n[t],
                                                dst, &m[t], true, &e);
                    off[t] = utfdfa_decoder_offset(&d);
                }
                CHECK(r[0] == r[1] && n[0] == n[1] && m[0] == m[1] && off[0] == off[1] &&
                          n[0] == 0 && m[0] == 0,
                      "empty buffers from %s, output kind %d, bom %d: NULL gives %d (%zu, %zu), "
                      "a real empty buffer %d (%zu, %zu)",
                      fname, kind, bom, r[0], n[0], m[0], r[1], n[1], m[1]);
            }
        }
    }
    /* A decoder's UTF-7 run left open (U+00E9 from UTF-8), closed by the
     * last call whose output buffer is empty. */
    static const uint8_t e_acute[] = {0xC3, 0xA9};
    const enum utfdfa_encoding sevens[] = {UTFDFA_UTF7, UTFDFA_UTF7_IMAP};
    for (int k = 0; k < 2; k++) {
        utfdfa_result r[2];
        size_t n[2], m[2];
        for (int t = 0; t < 2; t++) {
            utfdfa_decoder d;
            uint8_t out[16];
            size_t two = 2, room = sizeof out;
            utfdfa_decoder_init(&d, UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
            utfdfa_transcode(&d, sevens[k], e_acute, &two, out, &room, false, NULL);
            n[t] = 0;
            m[t] = 0;
            r[t] = utfdfa_transcode(&d, sevens[k], t ? real : NULL, &n[t], t ? real : NULL, &m[t],
                                    true, NULL);
        }
        CHECK(r[0] == r[1] && r[0] == UTFDFA_OUTPUT_FULL && m[0] == 0 && m[1] == 0,
              "an open %s run closed into empty buffers: NULL gives %d, a real empty buffer %d",
              utfdfa_encoding_name(sevens[k]), r[0], r[1]);
    }
    /* The encoder, into every target; into UTF-7 also with a run left open
     * (its closing "-" is owed and does not fit). */
    for (unsigned to = 0; to < UTFDFA_NENCODINGS; to++) {
        for (int open = 0; open < 2; open++) {
            utfdfa_result r[2];
            size_t n[2], m[2];
            for (int t = 0; t < 2; t++) {
                utfdfa_encoder enc;
                utfdfa_encoder_init(&enc, (enum utfdfa_encoding)to, UTFDFA_REPLACE, UTFDFA_BOM_KEEP);
                if (open) {
                    uint8_t out[16];
                    size_t one = 1, room = sizeof out;
                    utfdfa_encode(&enc, open_run, &one, out, &room, false, NULL);
                }
                n[t] = 0;
                m[t] = 0;
                r[t] = utfdfa_encode(&enc, t ? (const uint32_t *)(void *)real : NULL, &n[t],
                                     t ? real : NULL, &m[t], true, NULL);
            }
            CHECK(r[0] == r[1] && n[0] == n[1] && m[0] == m[1] && m[0] == 0,
                  "encode to %s (open run %d) from and into empty buffers: NULL gives %d, "
                  "a real empty buffer %d",
                  utfdfa_encoding_name((enum utfdfa_encoding)to), open, r[0], r[1]);
        }
    }
    CHECK(utfdfa_valid_up_to(NULL, 0) == 0, "valid_up_to(NULL, 0) is not 0");
    free(real);
}

int main(void)
{
    lead_bytes_f5_ff();
    truncation_at_boundaries();
    exact_room();
    random_progress();
    empty_buffers();
    return check_summary("test_hostile");
}
