/* SPDX-License-Identifier: MIT */
/* The one loop that feeds a decoder: input whole, split in two, or in
 * chunks; output room per call, growing only when a call could not write
 * its next character; every MALFORMED and OUTPUT_FULL answered by calling
 * again. It records what a caller sees (the output in the sink's units,
 * every strict error, the replaced flag, the final offset) and checks the
 * protocol on every call: progress, errors of at least one byte that are
 * consumed and in order, nothing claimed beyond what was given.
 * check_every_way() runs one configuration every way and asserts that all
 * give exactly the one-call result. Public API only (include/utfdfa.h). */
#ifndef UTFDFA_TESTS_DRIVE_H
#define UTFDFA_TESTS_DRIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "utfdfa.h"

enum sink_kind { SINK_CHECK, SINK_U32, SINK_U16, SINK_BYTES };

struct sink {
    enum sink_kind kind;
    enum utfdfa_encoding to; /* SINK_BYTES: utfdfa_transcode's target */
};

size_t sink_unit(const struct sink *s);     /* bytes per output unit */
size_t sink_min_room(const struct sink *s); /* units that always hold a character and its BOM */
const char *sink_name(const struct sink *s);

struct drive {
    enum utfdfa_encoding from;
    enum utfdfa_error_mode errors;
    enum utfdfa_bom bom;
    struct sink sink;
    size_t chunk;  /* bytes per call; 0: the whole input in one call */
    bool two_calls; /* instead: in[0..split) without `last`, then the rest with it */
    size_t split;
    size_t outcap; /* output room per call, in units */
    bool grow;     /* a call that could write nothing for want of room is
                      repeated with one unit more (else that is a problem) */
    unsigned options; /* utfdfa_decoder_set_options */
};

enum { OUTCOME_MAX_ERRORS = 4096 };

struct outcome {
    uint8_t *out; /* everything written, in the sink's units, never NULL */
    size_t len, cap;
    utfdfa_error err[OUTCOME_MAX_ERRORS];
    size_t nerr;
    bool replaced;       /* utfdfa_decoder_replaced at the end */
    uint64_t offset;     /* utfdfa_decoder_offset at the end */
    size_t full_results; /* how many calls returned OUTPUT_FULL */
    const char *problem; /* a broken protocol rule, or NULL */
};

void drive_run(const struct drive *dv, const uint8_t *in, size_t n, struct outcome *o);
void outcome_free(struct outcome *o);
/* The same output, errors, replaced flag and offset, and no problem in either. */
bool outcome_same(const struct outcome *a, const struct outcome *b);
bool errors_equal(const utfdfa_error *a, size_t na, const utfdfa_error *b, size_t nb);

/* The short form most tests use: a source, a sink (`to` for SINK_BYTES),
 * the modes; fed in chunks of `chunk` bytes (0: at once) with `outcap`
 * units of room per call. */
struct config {
    enum utfdfa_encoding from, to;
    enum sink_kind sink;
    enum utfdfa_error_mode errors;
    enum utfdfa_bom bom;
};

struct drive drive_of(const struct config *c);
void run_config(const struct config *c, const uint8_t *in, size_t n, size_t chunk, size_t outcap,
                struct outcome *r);

/* Runs dv (its chunk, split, outcap and grow ignored) on in[0..n): one call
 * with ample room, then split in two at every offset, in chunks of every
 * size, one byte per call with one unit of room, and whole with every room
 * from one unit to the one-call output's size; each must give exactly the
 * one-call result, which is left in *whole (the caller frees it). In
 * replacing and ignoring modes the exact room takes one call, one unit less
 * stops OUTPUT_FULL with a prefix of it. `what` names the case in failures. */
void check_every_way(const struct drive *dv, const uint8_t *in, size_t n, const char *what,
                     struct outcome *whole);

/* "0+1 overlong, 1+1 unexpected-continuation": OFFSET+LENGTH kind, at most max. */
size_t parse_errors(const char *s, utfdfa_error *out, size_t max);
/* The kind utfdfa_error_name calls name[0..n); exits (status 2) if none. */
enum utfdfa_error_kind kind_from_name(const char *name, size_t n);

#endif /* UTFDFA_TESTS_DRIVE_H */
