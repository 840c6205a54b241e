/* SPDX-License-Identifier: MIT */
/* utfdfa_decode_utf32's direct UTF-8 entry (src/api/decoder.c: a UTF-8
 * decoder that keeps its BOM, whatever the error mode and with a target
 * limit of none or Unicode, goes straight to utfdfa__utf8_stream32: a
 * one-block path for chunks of at most 64 bytes at the VBMI level, and at
 * the SSE4, AVX2 and AVX-512 levels when the room exceeds the chunk by
 * SMALL_SLACK units, the scratch its windows may write; the level's decoder
 * for the other chunks): at every kernel level the CPU has, text with
 * characters of every length, errors and a character cut by the end is
 * decoded in chunks of every size 1..130 with every output room 1..70, the
 * chunk's size plus SMALL_SLACK - 1 and plus SMALL_SLACK (the least the short
 * path takes) and room to spare, strict, replacing, ignoring and strict
 * with a UTF-16 target, and must give what one call gives at the scalar
 * level: the same code points, result, error (offset, length, kind),
 * stream offset and replaced flag; and no call may write at or past the
 * room it was given. The direct entry must also take every chunk of valid
 * text of 1..200 bytes whole at every level (at the levels without the
 * one-block path, a chunk of at most 64 bytes goes to the level's decoder).
 * Short chunks (sweep_level): at every level, every length 0..300 of the
 * text split in two at every byte, and an error at every position in
 * chunks of 16..256 bytes, against one call at the scalar level.
 * UTFDFA_QUICK=1 (the sanitized build) takes fewer rooms. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "levels.h"
#include "utfdfa.h"

int utfdfa__fast_force(const char *level);

enum { MAX_IN = 400, MAX_OUT = 512 };
/* src/fast/utf8/variants.h's SMALL_SLACK. */
enum { SMALL_SLACK = 16 };
/* What the units past a call's room hold, and must still hold after it. */
#define CANARY 0xC0FFEEu

struct outcome {
    utfdfa_result r;
    utfdfa_error err;
    uint32_t out[MAX_OUT];
    size_t len;
    uint64_t offset;
    bool replaced;
};

/* Text whose characters have 1 to 4 bytes, with ASCII runs longer than a
 * block, so that chunk ends fall inside characters of every length; the
 * runs come after characters of 2, 3 and 4 bytes, so that a block can
 * begin with the last 1, 2 or 3 bytes of a character and be ASCII after. */
static size_t make_text(uint8_t *p)
{
    static const char *const parts[] = {
        "plain ASCII text, long enough to fill one block of sixty-four bytes or more. ",
        "\xC3\xA9", "\xE4\xB8\xAD", "\xF0\x9F\x98\x80", "a", "\xD0\x96\xD0\xB8",
        "\xE0\xA4\xB9\xE0\xA4\xBF", "bc", "\xF4\x8F\xBF\xBF", "\xEF\xBB\xBF", "\xC2\x80",
    };
    static const char *const before_run[] = {"", "\xE4\xB8\xAD", "\xF0\x9F\x98\x80"};
    size_t n = 0;
    for (int round = 0; round < 3; round++) {
        memcpy(p + n, before_run[round], strlen(before_run[round]));
        n += strlen(before_run[round]);
        for (size_t k = 0; k < sizeof parts / sizeof parts[0]; k++) {
            size_t m = strlen(parts[k]);
            if (n + m > 340)
                return n;
            memcpy(p + n, parts[k], m);
            n += m;
        }
    }
    return n;
}

/* The decoders the direct entry takes: each error mode, and a strict one
 * told its code points go to UTF-16 (a target limit of Unicode). */
enum { NCONFIGS = 4 };

static void configure(utfdfa_decoder *d, int config)
{
    utfdfa_decoder_init(d, UTFDFA_UTF8,
                        config == 3 ? UTFDFA_STRICT : (enum utfdfa_error_mode)config,
                        UTFDFA_BOM_KEEP);
    if (config == 3)
        utfdfa_decoder_set_target(d, UTFDFA_UTF16LE);
}

/* The decoded stream: chunks of `chunk` bytes, at most `room` units a call. */
static bool drive(const uint8_t *src, size_t n, int config, size_t chunk, size_t room,
                  struct outcome *o)
{
    utfdfa_decoder d;
    configure(&d, config);
    size_t pos = 0, calls = 0;
    o->len = 0;
    memset(&o->err, 0, sizeof o->err);
    for (;;) {
        if (++calls > 4 * n + 16)
            return false; /* no progress */
        size_t len = n - pos < chunk ? n - pos : chunk;
        size_t m = MAX_OUT - o->len < room ? MAX_OUT - o->len : room;
        bool last = pos + len == n;
        size_t room_end = o->len + m;
        for (size_t k = room_end; k < MAX_OUT; k++)
            o->out[k] = CANARY;
        o->r = utfdfa_decode_utf32(&d, src + pos, &len, o->out + o->len, &m, last, &o->err);
        for (size_t k = room_end; k < MAX_OUT; k++)
            if (o->out[k] != CANARY) {
                fail("chunks of %zu, room %zu: a call at byte %zu wrote %zu units past its room",
                     chunk, room, pos, k - room_end + 1);
                return false;
            }
        pos += len;
        o->len += m;
        if (o->r == UTFDFA_MALFORMED || (o->r == UTFDFA_INPUT_EMPTY && last && pos == n))
            break;
        if (o->r != UTFDFA_INPUT_EMPTY && o->r != UTFDFA_OUTPUT_FULL)
            return false;
    }
    o->offset = utfdfa_decoder_offset(&d);
    o->replaced = utfdfa_decoder_replaced(&d);
    return true;
}

static void compare(const struct outcome *want, const struct outcome *got, const char *what,
                    const char *level, int config, size_t chunk, size_t room)
{
    bool same = want->r == got->r && want->len == got->len &&
                memcmp(want->out, got->out, want->len * sizeof want->out[0]) == 0 &&
                want->offset == got->offset && want->replaced == got->replaced &&
                (want->r != UTFDFA_MALFORMED ||
                 (want->err.offset == got->err.offset && want->err.length == got->err.length &&
                  want->err.kind == got->err.kind));
    CHECK(same,
          "%s, level %s, decoder %d, chunks of %zu, room %zu: result %d/%d, %zu/%zu units, "
          "offset %llu/%llu, error at %llu/%llu",
          what, level, config, chunk, room, (int)want->r, (int)got->r, want->len, got->len,
          (unsigned long long)want->offset, (unsigned long long)got->offset,
          (unsigned long long)want->err.offset, (unsigned long long)got->err.offset);
}

/* Every chunk size and room at the level in use. */
static void run_level(const char *level, const uint8_t *src, size_t n, const char *what,
                      const struct outcome want[NCONFIGS], bool quick)
{
    static struct outcome got;
    static const size_t quick_rooms[] = {1, 2, 3, 5, 16, 31, 63, 64, 65, 70};
    size_t nrooms = quick ? sizeof quick_rooms / sizeof quick_rooms[0] : 70;
    for (int config = 0; config < NCONFIGS; config++)
        for (size_t chunk = 1; chunk <= 130; chunk++)
            for (size_t k = 0; k <= nrooms + 2; k++) {
                /* the rooms, the two at the AVX2 path's edge, room to spare */
                size_t room = k < nrooms ? (quick ? quick_rooms[k] : k + 1)
                              : k < nrooms + 2 ? chunk + SMALL_SLACK - 1 + (k - nrooms)
                                               : MAX_OUT;
                if (!drive(src, n, config, chunk, room, &got)) {
                    fail("%s, level %s, decoder %d, chunks of %zu, room %zu: no progress or "
                         "an unknown result", what, level, config, chunk, room);
                    continue;
                }
                compare(&want[config], &got, what, level, config, chunk, room);
            }
}

/* src/fast/utf8/utf8_fast.h's direct entry and its cursor (state 0: ACCEPT). */
struct utfdfa__utf8_cursor {
    uint32_t state, partial, pending;
};
size_t utfdfa__utf8_stream32(const uint8_t *src, size_t n, struct utfdfa__utf8_cursor *c,
                             uint32_t *dst, size_t cap, size_t *written);

/* Valid text in chunks of every size up to a block (their ends inside
 * characters of every length), each with room for the AVX2 path's scratch:
 * the one-block path must read every chunk whole, a character in progress
 * finished and the cut one kept in the cursor; falling back to the general
 * path (which the results above cannot tell apart) fails here. */
/* The direct entry takes every chunk of valid text in [min, max] whole
 * (after a first chunk of 1..chunk bytes), and the last chunk, however
 * short: the units must be the text's. */
static void check_whole_chunks(const char *level, const uint8_t *src, size_t n,
                               const struct outcome *want, size_t min, size_t max)
{
    static uint32_t out[MAX_IN + SMALL_SLACK];
    for (size_t chunk = min; chunk <= max; chunk++)
        for (size_t first = 1; first <= chunk; first++) {
            struct utfdfa__utf8_cursor c = {0, 0, 0};
            size_t o = 0, pos = 0;
            for (size_t len = first; pos < n; pos += len, len = chunk) {
                size_t w = 0;
                len = n - pos < len ? n - pos : len;
                if (utfdfa__utf8_stream32(src + pos, len, &c, out + o, len + SMALL_SLACK, &w) !=
                    len)
                    break;
                o += w;
            }
            bool whole = pos >= n && c.state == 0 && o == want->len;
            CHECK(whole && o <= want->len &&
                      memcmp(out, want->out, o * sizeof *out) == 0,
                  "level %s, chunks of %zu after one of %zu: the direct entry stopped at %zu of "
                  "%zu bytes or decoded otherwise", level, chunk, first, pos, n);
        }
}

/* Chunks as a parser feeding short packets makes them: a first chunk of
 * `first` bytes, then chunks of `chunk`; strict, room to spare. */
static bool drive_split(const uint8_t *src, size_t n, size_t first, size_t chunk,
                        struct outcome *o)
{
    utfdfa_decoder d;
    configure(&d, UTFDFA_STRICT);
    size_t pos = 0;
    o->len = 0;
    memset(&o->err, 0, sizeof o->err);
    for (size_t len = first;; len = chunk) {
        len = n - pos < len ? n - pos : len;
        size_t m = MAX_OUT - o->len;
        bool last = pos + len == n;
        o->r = utfdfa_decode_utf32(&d, src + pos, &len, o->out + o->len, &m, last, &o->err);
        pos += len;
        o->len += m;
        if (o->r == UTFDFA_MALFORMED || (o->r == UTFDFA_INPUT_EMPTY && last && pos == n))
            break;
        if (o->r != UTFDFA_INPUT_EMPTY)
            return false;
    }
    o->offset = utfdfa_decoder_offset(&d);
    o->replaced = utfdfa_decoder_replaced(&d);
    return true;
}

/* One input of the short-chunk sweep: at the scalar level in one call,
 * then at `level` split in two at every byte, and in chunks of the sizes
 * short packets have with a first chunk cut near `at` (the error). */
static void sweep_one(const char *level, const uint8_t *src, size_t n, size_t at,
                      const char *what)
{
    static struct outcome want, got;
    static const size_t sizes[] = {16, 17, 31, 32, 48, 63, 64, 65, 100, 128, 200, 255, 256};
    utfdfa__fast_force("scalar");
    bool ok = drive_split(src, n, n, n, &want);
    utfdfa__fast_force(level);
    CHECK(ok, "sweep: %s, %zu bytes: the one call", what, n);
    for (size_t s = 0; s <= n && ok; s++) {
        CHECK(drive_split(src, n, s, n, &got), "sweep: no progress");
        compare(&want, &got, what, level, UTFDFA_STRICT, s, n);
    }
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0] && ok; k++)
        for (size_t first = at > 4 ? at - 4 : 0; first <= at + 4; first++) {
            CHECK(drive_split(src, n, first ? first : sizes[k], sizes[k], &got),
                  "sweep: no progress");
            compare(&want, &got, what, level, UTFDFA_STRICT, sizes[k], first);
        }
}

/* The short-chunk path at one level: every length 0..300 of the text
 * (so that a chunk ends in characters of every length at every place) in
 * every two-way split; and a 300-byte text with, at every position, a
 * byte 0xFF or a lead byte whose character the next byte breaks, in
 * chunks of 16..256 bytes cut around it. */
static void sweep_level(const char *level, const uint8_t *text, size_t tn)
{
    uint8_t src[MAX_IN];
    size_t top = tn < 300 ? tn : 300;
    for (size_t n = 0; n <= top; n++)
        sweep_one(level, text, n, n, "sweep: a prefix");
    for (size_t p = 0; p < top; p++)
        for (int kind = 0; kind < 2; kind++) {
            memcpy(src, text, top);
            if (kind == 0) {
                src[p] = 0xFF;
            } else {
                src[p] = 0xE4;
                if (p + 1 < top)
                    src[p + 1] = 'x';
            }
            sweep_one(level, src, top, p, kind ? "sweep: a broken character" : "sweep: 0xFF");
        }
}

int main(void)
{
    const char *const *levels = fast_level_names;
    const char *q = getenv("UTFDFA_QUICK");
    bool quick = q && *q && strcmp(q, "0") != 0;
    uint8_t text[MAX_IN], src[MAX_IN];
    size_t tn = make_text(text);
    /* The text; with a continuation byte missing; with a surrogate; with a
     * byte that never starts one; cut inside its last character; with a
     * character of four or three bytes cut short by a letter. */
    for (int variant = 0; variant < 7; variant++) {
        static const char *const names[] = {"valid text", "a lead without its continuation",
                                            "a surrogate", "a byte 0xFF", "a cut last character",
                                            "three bytes of four, then a letter",
                                            "two bytes of three, then a letter"};
        size_t n = tn;
        memcpy(src, text, tn);
        if (variant == 1) {
            size_t k = n / 2;
            while ((src[k] & 0xC0) != 0x80)
                k++;
            src[k] = 'x';
        }
        if (variant == 2) {
            memmove(src + 100, src + 97, n - 97);
            memcpy(src + 97, "\xED\xA0\x80", 3);
            n += 3;
        }
        if (variant == 3)
            src[150] = 0xFF;
        if (variant == 4)
            src[n++] = 0xE4, src[n++] = 0xB8;
        /* A character cut short after 3 or 2 bytes: the error's length is
         * the bytes a chunk's end may have left pending. */
        for (size_t k = n / 3; variant >= 5 && k < n; k++)
            if (src[k] == (variant == 5 ? 0xF0 : 0xE4)) {
                src[k + (variant == 5 ? 3 : 2)] = 'x';
                break;
            }
        struct outcome want[NCONFIGS];
        if (!utfdfa__fast_force("scalar"))
            return fail("the scalar level cannot be forced"), check_summary("test_direct");
        for (int config = 0; config < NCONFIGS; config++)
            CHECK(drive(src, n, config, n, MAX_OUT, &want[config]), "%s: the one call",
                  names[variant]);
        for (size_t l = 0; l < fast_level_count; l++)
            if (utfdfa__fast_force(levels[l])) {
                run_level(levels[l], src, n, names[variant], want, quick);
                /* short chunks: the one-block path (SSE4 and up) or the level's
                 * decoder (the levels below), never the general path */
                if (variant == 0)
                    check_whole_chunks(levels[l], src, n, &want[UTFDFA_STRICT], 1, 64);
                if (variant == 0) /* longer chunks: the level's decoder, at every level */
                    check_whole_chunks(levels[l], src, n, &want[UTFDFA_STRICT], 65, 200);
            }
    }
    for (size_t l = 0; l < fast_level_count; l++)
        if (utfdfa__fast_force(levels[l]))
            sweep_level(levels[l], text, tn);
    utfdfa__fast_force("auto");
    return check_summary("test_direct");
}
