/* SPDX-License-Identifier: MIT */
/* Shared by tests/bench/bench.c (harness, utfdfa and in-project baselines),
 * tests/bench/peers.c (other libraries, each compiled in when found) and the
 * transcoding matrix (tests/bench/transcode.c, its peers in
 * tests/bench/transcode_peers.c). */
#ifndef BENCH_H
#define BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum op {
    OP_VALIDATE, OP_DEC32, OP_DEC16, OP_REPLACE, OP_STREAM4K, OP_STREAM64, OP_ENCODE,
    OP_UTF7DEC, /* UTF-7 (the corpus as utfdfa's encoder writes it) to UTF-32 */
    OP_UTF7ENC, /* UTF-32 to UTF-7 */
    NOPS
};

/* What an engine's result is, for the check before timing. */
enum out {
    OUT_VERDICT, /* run returns 1 valid / 0 invalid */
    OUT_U32,     /* run returns code points written to dst */
    OUT_U16,     /* run returns UTF-16 units written to dst */
    OUT_BYTES    /* run returns bytes written to dst (encode: must equal the corpus;
                    utf7enc: utfdfa's UTF-7 form, or decode back to the code points) */
};

enum role {
    ROLE_CEILING,  /* memcpy */
    ROLE_UTFDFA,   /* the public API */
    ROLE_FAST,     /* src/fast/utf8/, finished by the plain loop as the runtime would */
    ROLE_BASELINE, /* in-project loops over the generated tables */
    ROLE_PEER,     /* scalar peer */
    ROLE_PEER_SIMD /* SIMD peer (simdjson) */
};

struct job {
    const uint8_t *src; /* the corpus (utf7dec, utf7enc: its UTF-7 form) */
    size_t n;
    const uint32_t *cps; /* its code points (encode input) */
    size_t ncps;
    void *dst; /* output, room for cap units */
    size_t cap;
    size_t chunk;    /* streaming chunk size */
    const void *ctx; /* the engine's */
};

#define RUN_FAILED ((size_t)-1)

typedef size_t (*run_fn)(const struct job *j);

/* engine.flags */
enum { ENGINE_VALID_ONLY = 1 }; /* other semantics on ill-formed input: valid corpora only */

struct engine {
    const char *name;
    enum op op;
    enum out out;
    enum role role;
    run_fn run;
    const void *ctx; /* passed in job.ctx */
    unsigned flags;
};

/* peers.c: append the available peers' engines; returns how many. */
size_t peers_register(struct engine *e, size_t max);
/* One line per peer: its version, or why it is absent. */
void peers_describe(void);

/* ------------------------------------------------ timing, shared */

struct bench_timing {
    int reps;           /* samples per engine (BENCH_REPS) */
    double sample_ns;   /* about how long one sample lasts (BENCH_SAMPLE_MS) */
    bool use_min;       /* BENCH_STAT=min: the fastest sample, not the median */
    const char *filter; /* BENCH_ENGINES: substring of the peers' names to keep */
};

/* The calling thread's CPU time, in ns. */
double bench_thread_ns(void);
/* The median of samples[0..n) (the fastest with use_min); sorts them. */
double bench_pick(double *samples, int n, bool use_min);

/* ------------------------------------------ the transcoding matrix */

enum tc_enc { TC_UTF8, TC_UTF16LE, TC_UTF32LE, TC_NENC };

/* One whole-buffer conversion: the result is the bytes written to dst, or
 * RUN_FAILED. */
struct tc_call {
    enum tc_enc from, to;
    const uint8_t *src;
    size_t n;
    uint8_t *dst;
    size_t cap; /* bytes */
};
typedef size_t (*tc_run_fn)(const struct tc_call *c);

enum tc_peer { TC_ICONV, TC_ICU, TC_NPEERS };

/* transcode_peers.c: opens every pair's converters (outside timing). */
void tc_peers_open(void);
const char *tc_peer_name(enum tc_peer p);
/* The peer's conversion for the pair, or NULL with *why (not built in,
 * no converter). */
tc_run_fn tc_peer_fn(enum tc_peer p, enum tc_enc from, enum tc_enc to, const char **why);

/* transcode.c: the matrix's introduction, then one table per corpus (its
 * code points, from the reference decoder); returns how many results
 * disagreed (each also printed). */
void transcode_intro(const struct bench_timing *t);
int transcode_corpus(const char *name, const uint32_t *cps, size_t ncps, bool ascii,
                     const struct bench_timing *t);

/* sizes.c: the exact sizes' introduction, then one table per corpus: a
 * valid one's code points (cps), or an invalid one's bytes (cps NULL);
 * returns how many results disagreed (each also printed). */
void sizes_intro(const struct bench_timing *t);
int sizes_corpus(const char *name, const uint32_t *cps, size_t ncps, const uint8_t *raw,
                 size_t nraw, const struct bench_timing *t);

/* ------------------------------------------ against simdutf */

/* A valid corpus: its name and code points (the reference decoder's). */
struct bench_text {
    const char *name;
    const uint32_t *cps;
    size_t ncps;
};

/* simdutf_cmp.c (make bench SIMDUTF=DIR): utfdfa level by level against
 * simdutf's kernel of the same class on each text, one table per job;
 * returns how many results disagreed (each also printed). */
int simdutf_compare(const struct bench_text *texts, size_t n, const struct bench_timing *t);

#endif
