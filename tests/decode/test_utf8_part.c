/* SPDX-License-Identifier: MIT */
/* The UTF-8 text inside RFC 2279, CESU-8, modified UTF-8 and WTF-8 goes
 * through UTF-8's fast paths (encodings.gen.h's utf8_sublanguages). Here:
 *   - the generated fact itself, by brute force through the references of
 *     tests/ref (written from the specs): every scalar value's UTF-8 bytes
 *     are one character of the encoding, of the same value, exactly when
 *     their first byte is inside the part's bounds (UTF-8's own 4-byte
 *     characters are not CESU-8's; 00 is not modified UTF-8's);
 *   - the decoders on long random texts that mix that UTF-8 with what is the
 *     encoding's own (6-byte pairs, C0 80, lone surrogates, 5- and 6-byte
 *     sequences) and with stray bytes, at every kernel level this CPU has:
 *     decode_utf32 strict and replacing against the references; every sink
 *     (check, UTF-32, UTF-16, utfdfa_transcode into the UTF-8 family, UTF-16LE,
 *     UTF-32LE) against the references' encoders where every value can be
 *     written, and in chunks with little room against the one-call result,
 *     also with the BOM stripped or added (texts that begin with one too);
 *   - the same on texts dense in the encoding's own characters, and on long
 *     runs of its UTF-8 between them, also in chunks of the fast path's
 *     slab sizes and around them.
 * Last line: "test_utf8_part: N passed, M failed". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common.h"
#include "drive.h"
#include "encodings.gen.h"
#include "levels.h"
#include "oracle.h"
#include "rng.h"
#include "utfdfa.h"


static const enum utfdfa_encoding sources[] = {UTFDFA_UTF8_RFC2279, UTFDFA_CESU8, UTFDFA_MUTF8,
                                               UTFDFA_WTF8};

/* Any value up to 7FFFFFFF in the 1-6 byte UTF-8 bit layout, shortest form
 * (surrogates too). */
static size_t put_layout(uint32_t v, uint8_t *out)
{
    size_t len = v < 0x80 ? 1 : v < 0x800 ? 2 : v < 0x10000 ? 3 : v < 0x200000 ? 4
                 : v < 0x4000000 ? 5 : 6;
    if (len == 1) {
        out[0] = (uint8_t)v;
        return 1;
    }
    for (size_t k = len - 1; k > 0; k--, v >>= 6)
        out[k] = (uint8_t)(0x80 | (v & 0x3F));
    out[0] = (uint8_t)((0xFF00u >> len) | v);
    return len;
}

/* ------------------------------------------------------------ the fact */

/* Whether bytes b[0..len) decode (strict, the reference) to exactly one
 * character, v. */
static bool one_char(enum utfdfa_encoding enc, const uint8_t *b, size_t len, uint32_t v)
{
    uint32_t cps[8];
    utfdfa_error errs[8];
    size_t ncps = 0, nerrs = 0;
    return oracle_decode(enc, b, len, cps, &ncps, errs, &nerrs) && nerrs == 0 && ncps == 1 &&
           cps[0] == v;
}

static void the_fact(enum utfdfa_encoding enc)
{
    const struct utf8_sublanguage *part = &utf8_sublanguages[enc];
    bool lead_fails[256] = {false}, lead_seen[256] = {false};
    unsigned long bad = 0;
    CHECK(part->has, "%s: has a UTF-8 part", utfdfa_encoding_name(enc));
    for (uint32_t v = 0; v <= 0x10FFFF; v++) {
        if (v >= 0xD800 && v <= 0xDFFF)
            continue;
        uint8_t b[6];
        size_t len = put_layout(v, b);
        bool inside = b[0] >= part->below && b[0] < part->from, same = one_char(enc, b, len, v);
        lead_seen[b[0]] = true;
        lead_fails[b[0]] |= !same;
        if (inside && !same && bad++ < 5)
            fail("%s: U+%04X (%s) is inside the part but not one character of it",
                 utfdfa_encoding_name(enc), (unsigned)v, hex(b, len));
    }
    CHECK(bad == 0, "%s: every UTF-8 character inside the part is one of it",
          utfdfa_encoding_name(enc));
    for (unsigned b = 0; b < 256; b++)
        if (lead_seen[b] && !(b >= part->below && b < part->from))
            CHECK(lead_fails[b], "%s: first byte %02X is outside the part for a reason",
                  utfdfa_encoding_name(enc), b);
}

/* -------------------------------------------------------- random texts */

static struct test_rng rng = {20261125};

/* A value of the UTF-8 part or one of the encoding's own forms, or a stray
 * byte, appended at s[*n]. */
static void put_token(enum utfdfa_encoding enc, uint8_t *s, size_t *n)
{
    static const uint8_t stray[] = {0x80, 0xBF, 0xC0, 0xC1, 0xE0, 0xED, 0xF0, 0xF4,
                                    0xF5, 0xF8, 0xFC, 0xFE, 0xFF, 0x00};
    uint32_t r = test_rng_below(&rng, 1000), v;
    if (r < 500) { /* ASCII, a few at a time */
        for (uint32_t k = 1 + test_rng_below(&rng, 12); k > 0; k--)
            s[(*n)++] = (uint8_t)(0x20 + test_rng_below(&rng, 0x5F));
        return;
    }
    if (r < 880) {
        v = r < 700 ? 0x80 + test_rng_below(&rng, 0x780) : 0x800 + test_rng_below(&rng, 0xF800);
        if (v >= 0xD800 && v <= 0xDFFF)
            v = 0x4E00;
    } else if (r < 930) {
        v = 0x10000 + test_rng_below(&rng, 0x100000); /* UTF-8's 4 bytes; CESU-8's pair below */
        if (enc == UTFDFA_CESU8 || enc == UTFDFA_MUTF8) {
            v -= 0x10000;
            *n += put_layout(0xD800 + (v >> 10), s + *n);
            *n += put_layout(0xDC00 + (v & 0x3FF), s + *n);
            return;
        }
    } else if (r < 970) { /* the encoding's own */
        switch (enc) {
        case UTFDFA_UTF8_RFC2279:
            v = 0x110000 + test_rng_below(&rng, 0x7FEF0000);
            break;
        case UTFDFA_MUTF8:
            s[(*n)++] = 0xC0;
            s[(*n)++] = 0x80;
            return;
        default:
            v = 0xD800 + test_rng_below(&rng, 0x800); /* a lone surrogate (an error in CESU-8) */
            break;
        }
    } else {
        s[(*n)++] = stray[test_rng_below(&rng, sizeof stray)];
        return;
    }
    *n += put_layout(v, s + *n);
}

static size_t random_text(enum utfdfa_encoding enc, uint8_t *s, size_t max)
{
    size_t n = 0, want = 1 + test_rng_below(&rng, (uint32_t)max - 8);
    if (test_rng_below(&rng, 4) == 0) /* a byte order mark first: the BOM modes act on it */
        n += put_layout(0xFEFF, s);
    while (n < want)
        put_token(enc, s, &n);
    return n;
}

/* ------------------------------------------------------------ the runs */

static const struct sink sinks[] = {
    {SINK_CHECK, UTFDFA_UTF8},     {SINK_U32, UTFDFA_UTF8},       {SINK_U16, UTFDFA_UTF8},
    {SINK_BYTES, UTFDFA_UTF8},     {SINK_BYTES, UTFDFA_WTF8},     {SINK_BYTES, UTFDFA_CESU8},
    {SINK_BYTES, UTFDFA_MUTF8},    {SINK_BYTES, UTFDFA_UTF8_RFC2279},
    {SINK_BYTES, UTFDFA_UTF16LE},  {SINK_BYTES, UTFDFA_UTF32LE},
};

static struct drive drive_for(enum utfdfa_encoding from, const struct sink *sk,
                              enum utfdfa_error_mode mode, enum utfdfa_bom bom)
{
    struct config c = {from, sk->to, sk->kind, mode, bom};
    return drive_of(&c);
}

/* The BOM modes the fast paths wait for (they start once the stream's
 * first character is decided): whole and in chunks, the same. */
static bool bom_modes_agree(enum utfdfa_encoding from, const struct sink *sk, const uint8_t *s,
                            size_t n)
{
    bool same = true;
    for (int bom = UTFDFA_BOM_STRIP; bom <= UTFDFA_BOM_ADD; bom++) {
        if (bom == UTFDFA_BOM_KEEP)
            continue;
        struct drive dv = drive_for(from, sk, UTFDFA_STRICT, (enum utfdfa_bom)bom);
        struct outcome whole, pieces;
        dv.outcap = n * 8 + 16;
        drive_run(&dv, s, n, &whole);
        dv.chunk = 1 + test_rng_below(&rng, 100);
        dv.outcap = sink_min_room(sk) + test_rng_below(&rng, 40);
        dv.grow = true;
        drive_run(&dv, s, n, &pieces);
        same = same && outcome_same(&whole, &pieces);
        outcome_free(&whole);
        outcome_free(&pieces);
    }
    return same;
}

/* One text: strict decode_utf32 against the reference; every sink and
 * mode whole, and in chunks with little room, the same; the reference's
 * output where it can write every value. */
static bool one_text(enum utfdfa_encoding from, const uint8_t *s, size_t n, const char *level)
{
    static uint32_t cps[8192], rcps[8192];
    static utfdfa_error errs[8192];
    static uint8_t want[65536];
    size_t ncps, nerrs, nr, wlen;
    bool ok = true;
    if (!oracle_decode(from, s, n, cps, &ncps, errs, &nerrs) ||
        !oracle_decode_replace(from, s, n, rcps, &nr))
        return false;
    for (size_t k = 0; k < sizeof sinks / sizeof sinks[0]; k++) {
        for (int mode = UTFDFA_STRICT; mode <= UTFDFA_REPLACE; mode++) {
            struct drive dv = drive_for(from, &sinks[k], (enum utfdfa_error_mode)mode,
                                        UTFDFA_BOM_KEEP);
            struct outcome whole, pieces;
            dv.outcap = n * 8 + 16;
            drive_run(&dv, s, n, &whole);
            dv.chunk = 1 + test_rng_below(&rng, 200);
            dv.outcap = sink_min_room(&sinks[k]) + test_rng_below(&rng, 40);
            dv.grow = true;
            drive_run(&dv, s, n, &pieces);
            bool same = outcome_same(&whole, &pieces);
            const uint32_t *expect = mode == UTFDFA_STRICT ? cps : rcps;
            size_t nexpect = mode == UTFDFA_STRICT ? ncps : nr;
            bool right = !whole.problem;
            if (oracle_sink_form(&sinks[k], expect, nexpect, want, &wlen)) {
                right = right && whole.len == wlen && memcmp(whole.out, want, wlen) == 0;
                if (mode == UTFDFA_STRICT)
                    right = right && errors_equal(whole.err, whole.nerr, errs, nerrs);
            }
            if ((!same || !right) && ok) {
                fail("%s at level %s into %s (%s): %s; input %s", utfdfa_encoding_name(from),
                     level, sink_name(&sinks[k]), mode ? "replace" : "strict",
                     !same ? "chunks differ from one call" : "differs from the reference",
                     n <= 64 ? hex(s, n) : "(long)");
                ok = false;
            }
            outcome_free(&whole);
            outcome_free(&pieces);
        }
        if (!bom_modes_agree(from, &sinks[k], s, n) && ok) {
            fail("%s at level %s into %s: a BOM mode's chunks differ from one call",
                 utfdfa_encoding_name(from), level, sink_name(&sinks[k]));
            ok = false;
        }
    }
    return ok;
}

static void random_texts(enum utfdfa_encoding from, const char *level, int count)
{
    static uint8_t s[4096];
    unsigned long bad = 0;
    for (int t = 0; t < count; t++) {
        size_t n = random_text(from, s, t % 8 ? 600 : sizeof s - 16);
        uint8_t *exact = dup_exact(s, n);
        bad += !one_text(from, exact, n, level);
        free(exact);
    }
    CHECK(bad == 0, "%s at level %s: %d random texts, every sink and mode",
          utfdfa_encoding_name(from), level, count);
}

/* ------------------------------------------------------ shaped texts */

/* One of the encoding's own characters, which UTF-8's fast path stops at:
 * a surrogate pair (CESU-8, modified UTF-8), a value above U+10FFFF (RFC
 * 2279), a lone surrogate (WTF-8). */
static void put_own(enum utfdfa_encoding enc, uint8_t *s, size_t *n)
{
    uint32_t v = test_rng_below(&rng, 0x100000);
    if (enc == UTFDFA_CESU8 || enc == UTFDFA_MUTF8) {
        *n += put_layout(0xD800 + (v >> 10), s + *n);
        *n += put_layout(0xDC00 + (v & 0x3FF), s + *n);
    } else {
        *n += put_layout(enc == UTFDFA_UTF8_RFC2279 ? 0x110000 + v * 16 : 0xD800 + v % 0x800,
                         s + *n);
    }
}

/* UTF-8 text of the part (1-3 byte characters), about len bytes. */
static void put_run(uint8_t *s, size_t *n, size_t len)
{
    for (size_t end = *n + len; *n < end;) {
        uint32_t r = test_rng_below(&rng, 3);
        uint32_t v = r == 0 ? 0x20 + test_rng_below(&rng, 0x5F)
                     : r == 1 ? 0x80 + test_rng_below(&rng, 0x780)
                              : 0x4E00 + test_rng_below(&rng, 0x5000);
        *n += put_layout(v, s + *n);
    }
}

/* Texts for the fast path's restarts: the encoding's own characters close
 * together (a few ASCII between), or runs of its UTF-8 part long enough to
 * cross the search's growing slabs (utf8_fast.h) between them. */
static size_t shaped_text(enum utfdfa_encoding enc, uint8_t *s, size_t max, bool dense)
{
    static const size_t runs[] = {200, 255, 256, 257, 700, 1800, 5000};
    size_t n = 0;
    while (n + 5100 < max || (dense && n + 16 < max)) {
        put_own(enc, s, &n);
        if (dense)
            for (uint32_t k = test_rng_below(&rng, 4); k > 0; k--)
                s[n++] = (uint8_t)(0x20 + test_rng_below(&rng, 0x5F));
        else
            put_run(s, &n, runs[test_rng_below(&rng, sizeof runs / sizeof runs[0])]);
    }
    return n;
}

/* Chunks of the slabs' sizes and around them, little room or ample: the
 * same as one call, in the sinks that search (and copy_utf8_part's and
 * copy_utf8_native's transcoding). */
static bool chunks_agree(enum utfdfa_encoding from, const uint8_t *s, size_t n)
{
    static const size_t chunks[] = {1, 2, 3, 5, 7, 16, 31, 64, 255, 256, 257, 767, 769, 4096};
    const struct sink sk[] = {{SINK_CHECK, UTFDFA_UTF8}, {SINK_U32, UTFDFA_UTF8},
                              {SINK_U16, UTFDFA_UTF8}, {SINK_BYTES, from},
                              {SINK_BYTES, UTFDFA_UTF16LE}};
    bool same = true;
    for (size_t k = 0; k < sizeof sk / sizeof sk[0]; k++) {
        struct drive dv = drive_for(from, &sk[k], UTFDFA_STRICT, UTFDFA_BOM_KEEP);
        struct outcome whole, pieces;
        dv.outcap = n * 8 + 16;
        drive_run(&dv, s, n, &whole);
        for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
            dv.chunk = chunks[c];
            dv.outcap = c % 2 ? n * 8 + 16 : sink_min_room(&sk[k]) + test_rng_below(&rng, 40);
            dv.grow = true;
            drive_run(&dv, s, n, &pieces);
            same = same && outcome_same(&whole, &pieces);
            outcome_free(&pieces);
        }
        outcome_free(&whole);
    }
    return same;
}

static void shaped_texts(enum utfdfa_encoding from, const char *level)
{
    static uint8_t s[8000];
    unsigned long bad = 0;
    for (int t = 0; t < 6; t++) {
        size_t n = shaped_text(from, s, t % 2 ? sizeof s : 3000, t % 2 == 0);
        uint8_t *exact = dup_exact(s, n);
        bad += !one_text(from, exact, n, level) || !chunks_agree(from, exact, n);
        free(exact);
    }
    CHECK(bad == 0, "%s at level %s: texts dense in its own characters and long runs between them",
          utfdfa_encoding_name(from), level);
}

static void run_level(const char *level, void *unused)
{
    (void)unused;
    for (size_t k = 0; k < sizeof sources / sizeof sources[0]; k++) {
        random_texts(sources[k], level, 60);
        shaped_texts(sources[k], level);
    }
}

int main(void)
{
    for (size_t k = 0; k < sizeof sources / sizeof sources[0]; k++)
        the_fact(sources[k]);
    each_fast_level("test_utf8_part", run_level, NULL);
    return check_summary("test_utf8_part");
}
