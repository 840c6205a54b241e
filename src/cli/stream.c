/* SPDX-License-Identifier: MIT */
/* One input through the library, chunk by chunk (see stream.h). Memory is
 * bounded: the input is read and converted in fixed-size chunks, and line
 * and column are worked out only for an error (position.h). */
#define _POSIX_C_SOURCE 200809L
#include "stream.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "encoding_rows.gen.h"
#include "position.h"

enum { CHUNK = 128 * 1024 };

/* The input: a chunk of whole units (a unit cut by a read waits for the
 * next one), the last one flagged. */
struct input {
    int fd;
    const char *name;
    uint8_t buf[CHUNK];
    size_t have;  /* bytes in buf */
    size_t ready; /* of which whole units: the chunk */
    bool eof;
};

static int read_more(struct input *in)
{
    for (;;) {
        ssize_t r = read(in->fd, in->buf + in->have, sizeof in->buf - in->have);
        if (r >= 0) {
            in->have += (size_t)r;
            in->eof = r == 0;
            return 0;
        }
        if (errno != EINTR) {
            fprintf(stderr, "%s: %s: read error: %s\n", progname, in->name, strerror(errno));
            return -1;
        }
    }
}

/* The next chunk of whole units of `unit` bytes (everything at the end). */
static int next_chunk(struct input *in, unsigned unit)
{
    memmove(in->buf, in->buf + in->ready, in->have - in->ready);
    in->have -= in->ready;
    if (!in->eof && read_more(in) < 0)
        return -1;
    in->ready = in->eof ? in->have : in->have - in->have % unit;
    return 0;
}

/* UTF-16 and UTF-32 without a byte order are written little-endian after
 * their BOM (and read so without one). Which encodings these are, and the
 * UTF-7 ones, is the registry's rows header (encoding_rows.gen.h: inline
 * tests only, as this tool links nothing but the public API). */
static enum utfdfa_encoding little_endian(enum utfdfa_encoding e)
{
    return utfdfa_row_unordered(e) ? utfdfa_little_endian_of(e) : e;
}

/* The encoding the library reads a stream of `from` in, for the messages
 * and the line count (whose line feed is one unit of it): for UTF-16 and
 * UTF-32 without a byte order, what the first unit decides. The input is
 * read until it holds that unit (a shorter stream has no BOM). */
static int source_order(struct input *in, enum utfdfa_encoding from, enum utfdfa_encoding *order)
{
    size_t unit = utfdfa_unit_size(from);
    while (utfdfa_row_unordered(from) && in->have < unit && !in->eof)
        if (read_more(in) < 0)
            return -1;
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, from, UTFDFA_REPLACE, UTFDFA_BOM_KEEP);
    size_t n = in->have < unit ? in->have : unit;
    utfdfa_check(&d, in->buf, &n, in->have < unit, NULL);
    *order = utfdfa_decoder_encoding(&d);
    return 0;
}

/* The position of a stream the library reads in `order`: a BOM it read
 * as the signature is no character. */
static enum utfdfa_bom position_bom(enum utfdfa_encoding from, enum utfdfa_bom bom)
{
    return utfdfa_row_unordered(from) && bom == UTFDFA_BOM_KEEP ? UTFDFA_BOM_STRIP : bom;
}

static void report(const struct options *opt, const char *name, enum utfdfa_encoding from,
                   struct position *pos, const struct input *in, const utfdfa_error *err,
                   bool check_mode)
{
    if (opt->silent)
        return;
    uint64_t line, column;
    position_of(pos, in->buf, in->ready, err->offset, &line, &column);
    if (check_mode)
        fprintf(stderr, "%s:%llu:%llu: invalid %s (%s) at byte offset %llu\n", name,
                (unsigned long long)line, (unsigned long long)column,
                utfdfa_encoding_name(from), utfdfa_error_name(err->kind),
                (unsigned long long)err->offset);
    else
        fprintf(stderr, "%s: %s: invalid %s (%s) at byte offset %llu, line %llu, column %llu\n",
                progname, name, utfdfa_encoding_name(from), utfdfa_error_name(err->kind),
                (unsigned long long)err->offset, (unsigned long long)line,
                (unsigned long long)column);
}

int check_file(int fd, const char *name, const struct options *opt, struct check_totals *totals)
{
    static struct input in;
    in.fd = fd, in.name = name, in.have = in.ready = 0, in.eof = false;
    enum utfdfa_encoding from;
    if (source_order(&in, opt->from, &from) < 0)
        return EXIT_IO;
    utfdfa_decoder dec;
    utfdfa_decoder_init(&dec, opt->from, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    utfdfa_decoder_set_options(&dec, opt->encoder_options);
    static struct position pos;
    position_init(&pos, from, position_bom(opt->from, UTFDFA_BOM_KEEP), UTFDFA_NENCODINGS,
                  opt->encoder_options);
    uint64_t errors = 0;
    do {
        if (next_chunk(&in, pos.unit) < 0)
            return EXIT_IO;
        size_t done = 0;
        for (;;) {
            size_t n = in.ready - done;
            utfdfa_error err;
            utfdfa_result r = utfdfa_check(&dec, in.buf + done, &n, in.eof, &err);
            done += n;
            if (r == UTFDFA_INPUT_EMPTY)
                break;
            report(opt, name, from, &pos, &in, &err, true);
            errors++;
            if (!opt->all)
                break;
        }
        if (errors && !opt->all)
            break;
        position_advance(&pos, in.buf, in.ready);
    } while (!in.eof);
    totals->errors += errors;
    totals->invalid_files += errors != 0;
    return errors ? EXIT_INVALID : 0;
}

/* ------------------------------------------------------------ transcoding
 * UTF-7 output goes through code points and the encoder, so that at an
 * error (where the output stops) the open base64 run is closed and what
 * was written decodes to every character; the batch is kept, so that after
 * a failed write the file can be cut back to where no run was open. */
enum { BATCH = 1024 };

struct transcoder {
    utfdfa_decoder dec;
    enum utfdfa_encoding to;
    bool via_code_points; /* UTF-7 output */
    utfdfa_encoder enc;
    uint32_t cps[BATCH];  /* the batch last encoded */
    size_t ncps;
    utfdfa_encoder enc_before; /* the encoder before it */
    bool closed;               /* the batch ended with its run closed */
};

static utfdfa_result step(struct transcoder *t, const uint8_t *src, size_t *src_len,
                          uint8_t *dst, size_t *dst_len, bool last, utfdfa_error *err)
{
    if (!t->via_code_points)
        return utfdfa_transcode(&t->dec, t->to, src, src_len, dst, dst_len, last, err);
    size_t per;
    utfdfa_max_encoded_len(t->to, 1, &per); /* a character, a signature, a "-" */
    size_t ncp = *dst_len / per - 1;
    ncp = ncp < BATCH ? ncp : BATCH;
    utfdfa_result r = utfdfa_decode_utf32(&t->dec, src, src_len, t->cps, &ncp, last, err);
    t->ncps = ncp;
    t->enc_before = t->enc;
    t->closed = (last && r == UTFDFA_INPUT_EMPTY) || r == UTFDFA_MALFORMED;
    utfdfa_encode(&t->enc, t->cps, &ncp, dst, dst_len, t->closed, NULL);
    return r;
}

/* The bytes that close e's open run, if any (none: no run is open). */
static size_t run_end(utfdfa_encoder e, uint8_t *out, size_t cap)
{
    static const uint32_t nothing[1];
    size_t none = 0;
    utfdfa_encode(&e, nothing, &none, out, &cap, true, NULL);
    return cap;
}

/* UTF-7: replay the batch a character at a time within its first `done`
 * bytes. *last_end: where the last whole character ends whose run's end
 * still fits before `done` (what was written can be again), with the
 * encoder there in *at_end; returns the end of the last one after which no
 * run was open, or SIZE_MAX if there is none. */
static size_t utf7_replay(const struct transcoder *t, size_t done, size_t *last_end,
                          utfdfa_encoder *at_end)
{
    uint8_t scratch[16];
    utfdfa_encoder e = t->enc_before;
    size_t at = 0, clean = run_end(e, scratch, sizeof scratch) == 0 ? 0 : SIZE_MAX;
    *last_end = 0;
    *at_end = e;
    for (size_t k = 0; k < t->ncps; k++) {
        size_t one = 1, m = sizeof scratch;
        utfdfa_encode(&e, t->cps + k, &one, scratch, &m, false, NULL);
        if (at + m > done)
            break;
        at += m;
        size_t closing = run_end(e, scratch, sizeof scratch);
        if (at + closing <= done) {
            *last_end = at;
            *at_end = e;
        }
        if (closing == 0)
            clean = at;
    }
    return clean;
}

/* UTF-7 after a failed write: cut back to the last whole character and
 * close its run there (the cut freed room); failing that, cut back to
 * where no run was open. */
static void utf7_cut(struct sink *sink, const struct transcoder *t, uint64_t before, size_t done)
{
    size_t end;
    utfdfa_encoder e;
    size_t clean = utf7_replay(t, done, &end, &e);
    uint8_t close[16];
    size_t n = run_end(e, close, sizeof close);
    if (output_cut(sink->out, before + end) == 0 &&
        output_append_after_cut(sink->out, close, n) == 0)
        return;
    output_cut(sink->out, clean == SIZE_MAX ? sink->clean : before + clean);
}

/* Write p[0..n), a batch of the transcoder's output. After a failed
 * write, cut the output back to whole characters. */
static int write_whole(struct sink *sink, const struct transcoder *t, const uint8_t *p,
                       size_t n)
{
    size_t done;
    if (output_write(sink->out, p, n, &done) == 0) {
        uint8_t scratch[16];
        if (!t->via_code_points || run_end(t->enc, scratch, sizeof scratch) == 0)
            sink->clean = sink->out->written;
        return 0;
    }
    uint64_t before = sink->out->written - done;
    if (t->via_code_points)
        utf7_cut(sink, t, before, done);
    else /* a BOM written before the text reads as U+FEFF little-endian */
        output_cut(sink->out, before + utfdfa_validate(little_endian(sink->enc), p, done, NULL));
    return -1;
}

static int flush(struct sink *sink, const struct transcoder *t, const uint8_t *p, size_t n)
{
    if (n == 0)
        return 0;
    return write_whole(sink, t, p, n);
}

int transcode_file(int fd, const char *name, const struct options *opt, enum utfdfa_bom bom,
                   struct sink *sink)
{
    static struct input in;
    static struct transcoder t;
    static uint8_t buf[4 * CHUNK + 64];
    in.fd = fd, in.name = name, in.have = in.ready = 0, in.eof = false;
    enum utfdfa_encoding from;
    if (source_order(&in, opt->from, &from) < 0)
        return EXIT_IO;
    utfdfa_decoder_init(&t.dec, opt->from, opt->errors, bom);
    utfdfa_decoder_set_target(&t.dec, opt->to);
    utfdfa_decoder_set_options(&t.dec, opt->encoder_options); /* also how corrected-utf-8 reads */
    /* UTF-16 or UTF-32 without a byte order: the library writes the BOM
     * before the output's first character; after it the output goes on
     * little-endian (one stream, one BOM). */
    t.to = sink->out->written ? little_endian(opt->to) : opt->to;
    t.via_code_points = utfdfa_row_utf7_writer(opt->to);
    utfdfa_encoder_init(&t.enc, opt->to, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    utfdfa_encoder_set_options(&t.enc, opt->encoder_options);
    static struct position pos;
    position_init(&pos, from, position_bom(opt->from, bom), opt->to, opt->encoder_options);
    do {
        if (next_chunk(&in, pos.unit) < 0)
            return EXIT_IO;
        size_t done = 0;
        for (;;) {
            size_t n = in.ready - done, m = sizeof buf;
            utfdfa_error err;
            utfdfa_result r = step(&t, in.buf + done, &n, buf, &m, in.eof, &err);
            done += n;
            if (flush(sink, &t, buf, m) < 0)
                return EXIT_IO;
            if (r == UTFDFA_MALFORMED) {
                report(opt, name, from, &pos, &in, &err, false);
                return EXIT_INVALID;
            }
            if (r == UTFDFA_INPUT_EMPTY)
                break;
        }
        position_advance(&pos, in.buf, in.ready);
    } while (!in.eof);
    return 0;
}
