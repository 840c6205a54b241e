/* SPDX-License-Identifier: MIT */
/* Shared by tests/bench/bench.c (harness, utfdfa and in-project baselines)
 * and tests/bench/peers.c (other libraries, each compiled in when found). */
#ifndef BENCH_H
#define BENCH_H

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

#endif
