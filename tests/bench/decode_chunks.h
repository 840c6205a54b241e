/* SPDX-License-Identifier: MIT */
/* Streaming decoding in chunks, for utfdfa's own rows (bench.c) and those
 * of another build of the library opened by dlopen (base_lib.c): one loop
 * over either's calls. */
#ifndef BENCH_DECODE_CHUNKS_H
#define BENCH_DECODE_CHUNKS_H

#include "bench.h"
#include "utfdfa.h"

/* A library's decoder calls. */
struct bench_decoder {
    void (*init)(utfdfa_decoder *, enum utfdfa_encoding, enum utfdfa_error_mode, enum utfdfa_bom);
    utfdfa_result (*dec32)(utfdfa_decoder *, const uint8_t *, size_t *, uint32_t *, size_t *,
                           bool, utfdfa_error *);
};

/* j's input in chunks of j->chunk bytes decoded to UTF-32 by lib (source
 * enc, mode): what it wrote, RUN_FAILED at an error (bench.c). */
size_t bench_decode_chunks(const struct job *j, const struct bench_decoder *lib,
                           enum utfdfa_encoding enc, enum utfdfa_error_mode mode);

#endif /* BENCH_DECODE_CHUNKS_H */
