/* SPDX-License-Identifier: MIT */
/* What the fuzz targets share (included once, by each target's .c).
 *
 * Always: the input being run (for the crash message), die() and REQUIRE()
 * that abort with it, xmalloc(). Before including, a target defines
 * FUZZ_NAME (an expression giving its name) and FUZZ_HEADER_BYTES.
 *
 * With FUZZ_DRIVER defined (the decoding targets, which also define FROM,
 * the input encoding): the output kinds, and drive(), which runs an input
 * through the streaming API in one call or in fuzzer-planned chunks and
 * output room, checking the protocol on every call. Such a target defines
 * min_room() (room that always holds what one step writes) and
 * whole_characters() (a call's output holds whole characters only).
 */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "utfdfa.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const uint8_t *g_data; /* the current input, for the crash message */
static size_t g_size;

#if defined(__GNUC__)
static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
#endif

static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "fuzz_%s: ", FUZZ_NAME);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\ninput (%zu bytes, %d header bytes first):", g_size, FUZZ_HEADER_BYTES);
    for (size_t i = 0; i < g_size && i < 256; i++)
        fprintf(stderr, " %02X", g_data[i]);
    fprintf(stderr, "%s\n", g_size > 256 ? " ..." : "");
    abort();
}

#define REQUIRE(cond, ...)                                                                  \
    do {                                                                                    \
        if (!(cond))                                                                        \
            die(__VA_ARGS__);                                                               \
    } while (0)

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        die("out of memory");
    return p;
}

#ifdef FUZZ_DRIVER

enum sink { SINK_U32, SINK_U16, SINK_BYTES, SINK_CHECK };
struct sinkspec {
    enum sink sink;
    enum utfdfa_encoding to;
};

static size_t min_room(const struct sinkspec *s);
static bool whole_characters(const struct sinkspec *s, const uint8_t *p, size_t len);

static size_t unit_size(const struct sinkspec *s)
{
    return s->sink == SINK_U32 ? 4 : s->sink == SINK_U16 ? 2 : 1;
}

/* Everything a run wrote, and its strict errors in order. */
struct outcome {
    uint8_t *out;
    size_t len, cap;
    utfdfa_error *errs;
    size_t nerrs;
};

static void append(struct outcome *o, const void *p, size_t n)
{
    if (o->len + n > o->cap) {
        o->cap = (o->len + n) * 2 + 16;
        o->out = realloc(o->out, o->cap);
        REQUIRE(o->out, "out of memory");
    }
    if (n)
        memcpy(o->out + o->len, p, n);
    o->len += n;
}

static void outcome_free(struct outcome *o)
{
    free(o->out);
    free(o->errs);
}

/* A small generator for the per-call choices, seeded by the header. */
struct plan {
    uint32_t state;
    size_t max_chunk;  /* 0: whole input */
    size_t room_extra; /* room per call: a random amount up to min_room + room_extra */
    bool empty_last;   /* give `last` on a separate call with no input */
};

static uint32_t plan_next(struct plan *p)
{
    p->state = p->state * 1103515245u + 12345u;
    return p->state >> 8;
}

/* The 4 header bytes: errors (h0 bits 0-1), BOM mode (2-3), output kind
 * (4-7); max chunk (h1 bits 0-3), room extra (4-6), `last` on a separate
 * empty call (7); h2-h3 seed the plan, and h3's bits 0-1 choose the output
 * options (UTF-7 Set O direct, Corrected UTF-8's private-use mapping).
 * Then the text, ending where libFuzzer's buffer ends. */
struct header {
    enum utfdfa_error_mode errors;
    enum utfdfa_bom bom;
    unsigned sink; /* 0-15: the target picks an output kind from it */
    unsigned options;
    struct plan plan;
    const uint8_t *in;
    size_t n;
};

static struct header parse_header(const uint8_t *data, size_t size)
{
    static const size_t chunk_sizes[16] = {0,  1,  2,  3,  4,   5,   7,    8,
                                           13, 16, 31, 64, 100, 255, 1000, 4096};
    g_data = data;
    g_size = size;
    uint8_t h[4] = {0, 0, 0, 0};
    memcpy(h, data, size < 4 ? size : 4);
    struct header x;
    x.errors = (enum utfdfa_error_mode)((h[0] & 3) == 3 ? 1 : h[0] & 3);
    x.bom = (enum utfdfa_bom)(((h[0] >> 2) & 3) == 3 ? 0 : (h[0] >> 2) & 3);
    x.sink = h[0] >> 4;
    x.options = ((h[3] & 1) ? UTFDFA_UTF7_DIRECT_SET_O : 0) |
                ((h[3] & 2) ? UTFDFA_CORRECTED_PUA : 0);
    x.plan = (struct plan){(uint32_t)h[2] << 8 | h[3], chunk_sizes[h[1] & 15], (h[1] >> 4) & 7,
                           (h[1] & 0x80) != 0};
    x.in = size > 4 ? data + 4 : data + size;
    x.n = size > 4 ? size - 4 : 0;
    return x;
}

/* UTF-16 units (native order) that pair every surrogate. */
static bool paired_utf16(const uint8_t *p, size_t len)
{
    for (size_t i = 0; i + 2 <= len; i += 2) {
        uint16_t u, v;
        memcpy(&u, p + i, 2);
        if (u >= 0xDC00 && u <= 0xDFFF)
            return false;
        if (u >= 0xD800 && u <= 0xDBFF) {
            if (i + 4 > len)
                return false;
            memcpy(&v, p + i + 2, 2);
            if (v < 0xDC00 || v > 0xDFFF)
                return false;
            i += 2;
        }
    }
    return len % 2 == 0;
}

static void call(utfdfa_decoder *d, const struct sinkspec *s, const uint8_t *src, size_t *n,
                 uint8_t *dst, size_t *m, bool last, utfdfa_error *e, utfdfa_result *r)
{
    switch (s->sink) {
    case SINK_U32:
        *r = utfdfa_decode_utf32(d, src, n, (uint32_t *)(void *)dst, m, last, e);
        break;
    case SINK_U16:
        *r = utfdfa_decode_utf16(d, src, n, (uint16_t *)(void *)dst, m, last, e);
        break;
    case SINK_BYTES:
        *r = utfdfa_transcode(d, s->to, src, n, dst, m, last, e);
        break;
    default:
        *m = 0;
        *r = utfdfa_check(d, src, n, last, e);
        break;
    }
}

/* Run the input through the streaming API as the plan says (a NULL plan:
 * one call with room `whole_room`), checking the protocol on every call. */
static void drive(enum utfdfa_error_mode errors, enum utfdfa_bom bom, unsigned options,
                  const struct sinkspec *s, const uint8_t *in, size_t n, struct plan *plan,
                  size_t whole_room, struct outcome *o)
{
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, FROM, errors, bom);
    utfdfa_decoder_set_options(&d, options);
    size_t us = unit_size(s), pos = 0, calls = 0;
    uint64_t err_end = 0;
    size_t max_room = plan ? min_room(s) + plan->room_extra : whole_room;
    uint8_t *dst = xmalloc(max_room * us);
    bool need_room = false, done = false;
    memset(o, 0, sizeof *o);
    o->errs = xmalloc((n + 1) * sizeof *o->errs);
    while (!done) {
        size_t len = n - pos;
        if (plan && plan->max_chunk && len > 0)
            len = 1 + plan_next(plan) % (len < plan->max_chunk ? len : plan->max_chunk);
        bool last = pos + len == n && !(plan && plan->empty_last && len > 0);
        uint8_t *piece = xmalloc(len); /* exact size: any over-read is caught */
        if (len)
            memcpy(piece, in + pos, len);
        size_t used = 0;
        for (;;) {
            size_t room = max_room;
            if (plan && !need_room)
                room = plan_next(plan) % (max_room + 1);
            size_t src = len - used, m = room;
            utfdfa_error e = {0, 0, UTFDFA_ERR_NONE};
            utfdfa_result r;
            uint64_t before = utfdfa_decoder_offset(&d);
            REQUIRE(++calls <= 8 * (n + 8), "no forward progress after %zu calls", calls);
            call(&d, s, piece + used, &src, dst, &m, last, &e, &r);
            REQUIRE(src <= len - used && m <= room, "a call reports more than it was given");
            REQUIRE(utfdfa_decoder_offset(&d) == before + src, "decoder offset != bytes read");
            REQUIRE(whole_characters(s, dst, m * us), "a call wrote part of a character");
            used += src;
            append(o, dst, m * us);
            need_room = false;
            if (r == UTFDFA_MALFORMED) {
                REQUIRE(errors == UTFDFA_STRICT, "MALFORMED in mode %d", (int)errors);
                /* In UTF-7 one base64 character can carry the bits of two
                 * units (or of a lone surrogate and the padding after it),
                 * so two errors may share that character. */
                uint64_t shared = (FROM == UTFDFA_UTF7 || FROM == UTFDFA_UTF7_IMAP) && err_end > 0;
                REQUIRE(e.length >= 1 && e.offset + shared >= err_end &&
                            e.offset + e.length <= utfdfa_decoder_offset(&d),
                        "error %llu+%u %s: empty, overlapping (previous ended at %llu) or "
                        "not consumed (read to %llu)",
                        (unsigned long long)e.offset, e.length, utfdfa_error_name(e.kind),
                        (unsigned long long)err_end,
                        (unsigned long long)utfdfa_decoder_offset(&d));
                REQUIRE(e.kind > UTFDFA_ERR_NONE && e.kind < UTFDFA_NERROR_KINDS,
                        "an error of kind %d", (int)e.kind);
                err_end = e.offset + e.length;
                o->errs[o->nerrs++] = e;
                REQUIRE(o->nerrs <= n + 1, "more errors than bytes");
                continue;
            }
            if (r == UTFDFA_OUTPUT_FULL) {
                REQUIRE(s->sink != SINK_CHECK, "OUTPUT_FULL from check");
                if (src == 0 && m == 0) {
                    REQUIRE(room < min_room(s),
                            "OUTPUT_FULL without progress with room %zu for a character", room);
                    need_room = true;
                }
                continue;
            }
            REQUIRE(r == UTFDFA_INPUT_EMPTY, "unknown result %d", (int)r);
            REQUIRE(used == len, "INPUT_EMPTY with %zu bytes left", len - used);
            break;
        }
        free(piece);
        pos += len;
        done = last;
    }
    free(dst);
}

#endif /* FUZZ_DRIVER */
#endif /* FUZZ_COMMON_H */
