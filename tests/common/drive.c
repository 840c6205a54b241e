/* SPDX-License-Identifier: MIT */
#include "drive.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common.h"

size_t sink_unit(const struct sink *s)
{
    return s->kind == SINK_U32 ? 4 : s->kind == SINK_U16 ? 2 : 1;
}

/* A UTF-32 unit or a UTF-16 pair, each with a BOM owed before it; in bytes
 * the longest character (6 in the 1-6 byte forms, else 4) and its BOM (3
 * in the UTF-8 forms, else at most 4); in UTF-7 "+/v8" and a pair's 5
 * digits after it. */
size_t sink_min_room(const struct sink *s)
{
    if (s->kind != SINK_BYTES)
        return s->kind == SINK_U32 ? 2 : 3;
    /* Room for 9 where a character takes up to 6 bytes beside the BOM's 3
     * (CESU-8 and modified UTF-8: a pair of 3-byte units). */
    if (s->to == UTFDFA_UTF7 || s->to == UTFDFA_UTF8_RFC2279 || s->to == UTFDFA_CORRECTED_UTF8 ||
        s->to == UTFDFA_CESU8 || s->to == UTFDFA_MUTF8)
        return 9;
    return 8;
}

const char *sink_name(const struct sink *s)
{
    switch (s->kind) {
    case SINK_U32:
        return "decode_utf32";
    case SINK_U16:
        return "decode_utf16";
    case SINK_CHECK:
        return "check";
    default:
        return utfdfa_encoding_name(s->to);
    }
}

static void append(struct outcome *o, const void *p, size_t n)
{
    if (o->len + n > o->cap) {
        o->cap = (o->len + n) * 2 + 64;
        o->out = xrealloc(o->out, o->cap);
    }
    if (n)
        memcpy(o->out + o->len, p, n);
    o->len += n;
}

void outcome_free(struct outcome *o)
{
    free(o->out);
    o->out = NULL;
    o->len = o->cap = o->nerr = 0;
}

bool errors_equal(const utfdfa_error *a, size_t na, const utfdfa_error *b, size_t nb)
{
    if (na != nb)
        return false;
    for (size_t i = 0; i < na; i++)
        if (a[i].offset != b[i].offset || a[i].length != b[i].length || a[i].kind != b[i].kind)
            return false;
    return true;
}

bool outcome_same(const struct outcome *a, const struct outcome *b)
{
    return !a->problem && !b->problem && a->len == b->len &&
           (a->len == 0 || memcmp(a->out, b->out, a->len) == 0) &&
           errors_equal(a->err, a->nerr, b->err, b->nerr) && a->replaced == b->replaced &&
           a->offset == b->offset;
}

static utfdfa_result call_sink(utfdfa_decoder *d, const struct sink *s, const uint8_t *src,
                               size_t *src_len, uint8_t *dst, size_t *dst_len, bool last,
                               utfdfa_error *e)
{
    switch (s->kind) {
    case SINK_U32:
        return utfdfa_decode_utf32(d, src, src_len, (uint32_t *)(void *)dst, dst_len, last, e);
    case SINK_U16:
        return utfdfa_decode_utf16(d, src, src_len, (uint16_t *)(void *)dst, dst_len, last, e);
    case SINK_BYTES:
        return utfdfa_transcode(d, s->to, src, src_len, dst, dst_len, last, e);
    default:
        *dst_len = 0;
        return utfdfa_check(d, src, src_len, last, e);
    }
}

/* In the UTF-7s two errors may share the base64 digit that carries bits
 * of both; elsewhere errors never overlap. */
static uint64_t may_start_at(enum utfdfa_encoding from, uint64_t err_end)
{
    bool base64 = from == UTFDFA_UTF7 || from == UTFDFA_UTF7_IMAP;
    return base64 && err_end > 0 ? err_end - 1 : err_end;
}

/* The protocol rule a MALFORMED result breaks, or NULL: it is strict only,
 * consumed (before the decoder's offset), after the previous error, at
 * least one byte long, and has a kind. */
static const char *malformed_problem(const struct drive *dv, const utfdfa_decoder *d,
                                     const utfdfa_error *e, uint64_t err_end)
{
    if (dv->errors != UTFDFA_STRICT)
        return "MALFORMED in a replacing or ignoring mode";
    if (e->length < 1 || e->offset < may_start_at(dv->from, err_end) ||
        e->offset + e->length > utfdfa_decoder_offset(d))
        return "an error that is empty, overlaps, or is not consumed";
    if (e->kind <= UTFDFA_ERR_NONE || e->kind >= UTFDFA_NERROR_KINDS)
        return "an error without a kind";
    return NULL;
}


static void feed_calls(const struct drive *dv, utfdfa_decoder *d, const uint8_t *piece,
                       size_t len, bool last, size_t max_calls, struct outcome *o,
                       uint64_t *err_end, size_t *calls);

/* One piece of input, in an exact-size copy, called until it is consumed
 * (or a problem). */
static void feed_piece(const struct drive *dv, utfdfa_decoder *d, const uint8_t *in, size_t len,
                       bool last, size_t max_calls, struct outcome *o, uint64_t *err_end,
                       size_t *calls)
{
    uint8_t *piece = dup_exact(in, len);
    feed_calls(dv, d, piece, len, last, max_calls, o, err_end, calls);
    free(piece);
}

static void feed_calls(const struct drive *dv, utfdfa_decoder *d, const uint8_t *piece,
                       size_t len, bool last, size_t max_calls, struct outcome *o,
                       uint64_t *err_end, size_t *calls)
{
    size_t us = sink_unit(&dv->sink), used = 0, room = dv->outcap;
    for (;;) {
        if (++*calls > max_calls) {
            o->problem = "too many calls: no forward progress";
            return;
        }
        uint8_t *dst = xmalloc(room * us); /* exact, so a write past room is caught */
        size_t src = len - used, cap = room;
        utfdfa_error e = {0, 0, UTFDFA_ERR_NONE};
        uint64_t before = utfdfa_decoder_offset(d);
        utfdfa_result r = call_sink(d, &dv->sink, piece + used, &src, dst, &cap, last, &e);
        if (src > len - used || cap > room)
            o->problem = "a call claims more than it was given";
        else if (utfdfa_decoder_offset(d) != before + src)
            o->problem = "the decoder offset does not advance by what was read";
        else
            append(o, dst, cap * us);
        free(dst);
        if (o->problem)
            return;
        used += src;
        if (r == UTFDFA_MALFORMED) {
            if ((o->problem = malformed_problem(dv, d, &e, *err_end)))
                return;
            *err_end = e.offset + e.length;
            if (o->nerr < OUTCOME_MAX_ERRORS)
                o->err[o->nerr++] = e;
            continue;
        }
        if (r == UTFDFA_OUTPUT_FULL) {
            o->full_results++;
            bool stuck = src == 0 && cap == 0;
            if (dv->sink.kind == SINK_CHECK)
                o->problem = "OUTPUT_FULL from check";
            else if (stuck && room >= sink_min_room(&dv->sink))
                o->problem = "OUTPUT_FULL without progress although a character fits";
            else if (stuck && !dv->grow)
                o->problem = "needs more room"; /* the caller chose too little */
            if (o->problem)
                return;
            room = stuck ? room + 1 : dv->outcap;
            continue;
        }
        if (r != UTFDFA_INPUT_EMPTY)
            o->problem = "an unknown result";
        else if (used != len)
            o->problem = "INPUT_EMPTY with input left";
        return;
    }
}

void drive_run(const struct drive *dv, const uint8_t *in, size_t n, struct outcome *o)
{
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, dv->from, dv->errors, dv->bom);
    if (dv->options)
        utfdfa_decoder_set_options(&d, dv->options);
    memset(o, 0, sizeof *o);
    o->cap = 64;
    o->out = xmalloc(o->cap);
    size_t pos = 0, calls = 0, max_calls = (n + 16) * 16 + 64;
    uint64_t err_end = 0;
    if (dv->two_calls) {
        feed_piece(dv, &d, in, dv->split, false, max_calls, o, &err_end, &calls);
        if (!o->problem)
            feed_piece(dv, &d, in + dv->split, n - dv->split, true, max_calls, o, &err_end,
                       &calls);
    }
    while (!dv->two_calls && !o->problem) {
        size_t len = dv->chunk && n - pos > dv->chunk ? dv->chunk : n - pos;
        feed_piece(dv, &d, in + pos, len, pos + len == n, max_calls, o, &err_end, &calls);
        pos += len;
        if (pos == n)
            break;
    }
    o->replaced = utfdfa_decoder_replaced(&d);
    o->offset = utfdfa_decoder_offset(&d);
}

struct drive drive_of(const struct config *c)
{
    return (struct drive){c->from, c->errors, c->bom, {c->sink, c->to}, 0, false, 0, 0, false, 0};
}

void run_config(const struct config *c, const uint8_t *in, size_t n, size_t chunk, size_t outcap,
                struct outcome *r)
{
    struct drive dv = drive_of(c);
    dv.chunk = chunk;
    dv.outcap = outcap;
    drive_run(&dv, in, n, r);
}

/* ---------------------------------------------------------- every way */

static void expect_same(const struct drive *dv, const uint8_t *in, size_t n,
                        const struct outcome *whole, const char *what, const char *how,
                        size_t arg)
{
    struct outcome o;
    drive_run(dv, in, n, &o);
    CHECK(outcome_same(&o, whole), "%s: %s %s mode %d bom %d: %s %zu differs from one call (%s)",
          what, utfdfa_encoding_name(dv->from), sink_name(&dv->sink), (int)dv->errors,
          (int)dv->bom, how, arg, o.problem ? o.problem : "output, errors, flag or offset");
    outcome_free(&o);
}

/* Replacing and ignoring modes: the exact room takes one call; one unit
 * less stops with OUTPUT_FULL after a prefix of the output. */
static void exact_room(const struct drive *dv, const uint8_t *in, size_t n,
                       const struct outcome *whole, const char *what)
{
    size_t us = sink_unit(&dv->sink), units = whole->len / us;
    for (size_t short_by = 0; short_by <= (units > 0); short_by++) {
        size_t room = units - short_by, s = n, o = room;
        utfdfa_decoder d;
        utfdfa_decoder_init(&d, dv->from, dv->errors, dv->bom);
        if (dv->options)
            utfdfa_decoder_set_options(&d, dv->options);
        uint8_t *src = dup_exact(in, n), *dst = xmalloc(room * us);
        utfdfa_result r = call_sink(&d, &dv->sink, src, &s, dst, &o, true, NULL);
        if (short_by == 0)
            CHECK(r == UTFDFA_INPUT_EMPTY && s == n && o == units &&
                      (units == 0 || memcmp(dst, whole->out, whole->len) == 0),
                  "%s: %s %s mode %d bom %d: output buffer exactly full fails", what,
                  utfdfa_encoding_name(dv->from), sink_name(&dv->sink), (int)dv->errors,
                  (int)dv->bom);
        else
            CHECK(r == UTFDFA_OUTPUT_FULL && o <= room &&
                      (o == 0 || memcmp(dst, whole->out, o * us) == 0),
                  "%s: %s %s mode %d bom %d: one unit short is not OUTPUT_FULL with a prefix",
                  what, utfdfa_encoding_name(dv->from), sink_name(&dv->sink), (int)dv->errors,
                  (int)dv->bom);
        free(src);
        free(dst);
    }
}

void check_every_way(const struct drive *dv, const uint8_t *in, size_t n, const char *what,
                     struct outcome *whole)
{
    struct drive w = *dv;
    w.chunk = w.split = 0;
    w.two_calls = false;
    w.grow = false;
    w.outcap = 4 * n + 16; /* ample: no sink writes more than 4 units a byte and a BOM */
    drive_run(&w, in, n, whole);
    CHECK(!whole->problem && whole->full_results == 0,
          "%s: %s %s mode %d bom %d: one call with ample room: %s", what,
          utfdfa_encoding_name(dv->from), sink_name(&dv->sink), (int)dv->errors, (int)dv->bom,
          whole->problem ? whole->problem : "OUTPUT_FULL");
    struct drive v = w;
    v.two_calls = true;
    for (v.split = 0; v.split <= n; v.split++)
        expect_same(&v, in, n, whole, what, "split at", v.split);
    v.two_calls = false;
    for (v.chunk = 1; v.chunk < n; v.chunk++)
        expect_same(&v, in, n, whole, what, "chunks of", v.chunk);
    v.chunk = 1;
    v.outcap = 1;
    v.grow = true;
    expect_same(&v, in, n, whole, what, "one byte and one unit per call, chunk", 1);
    v.chunk = 0;
    size_t units = whole->len / sink_unit(&dv->sink);
    for (v.outcap = 1; v.outcap <= units; v.outcap++)
        expect_same(&v, in, n, whole, what, "whole input, room", v.outcap);
    v.outcap = sink_min_room(&dv->sink);
    v.chunk = 1;
    v.grow = false;
    expect_same(&v, in, n, whole, what, "byte by byte with the smallest sure room", v.outcap);
    if (dv->errors != UTFDFA_STRICT && dv->sink.kind != SINK_CHECK)
        exact_room(dv, in, n, whole, what);
}
enum utfdfa_error_kind kind_from_name(const char *name, size_t n)
{
    for (int k = 1; k < UTFDFA_NERROR_KINDS; k++) {
        const char *known = utfdfa_error_name((enum utfdfa_error_kind)k);
        if (strlen(known) == n && memcmp(known, name, n) == 0)
            return (enum utfdfa_error_kind)k;
    }
    fprintf(stderr, "unknown error kind '%.*s'\n", (int)n, name);
    exit(2);
}


size_t parse_errors(const char *s, utfdfa_error *out, size_t max)
{
    size_t n = 0;
    while (*s && n < max) {
        while (*s == ' ' || *s == ',')
            s++;
        if (!*s)
            break;
        char *end;
        out[n].offset = strtoull(s, &end, 10);
        out[n].length = (uint32_t)strtoul(end + 1, &end, 10);
        while (*end == ' ')
            end++;
        size_t k = strcspn(end, ",");
        while (k && end[k - 1] == ' ')
            k--;
        out[n].kind = kind_from_name(end, k);
        s = end + k;
        n++;
    }
    return n;
}

