/* SPDX-License-Identifier: MIT */
/* Another build of libutfdfa.so (BENCH_BASE_SO=path, e.g. the library of a
 * worktree at an older commit) measured side by side with this one, so a
 * change's gain or loss comes from one interleaved run: opened with dlopen
 * (RTLD_LOCAL: its symbols stay its own; the library hides the others).
 * Its rows: utf7dec, UTF-8 to UTF-32 (decode32, replace, stream4k,
 * stream64) and encode, the public calls as utfdfa's own rows make them. */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdlib.h>

#include "bench.h"
#include "decode_chunks.h"
#include "utfdfa.h"

static struct bench_decoder base; /* its decoder's calls */
static void (*base_encoder_init)(utfdfa_encoder *, enum utfdfa_encoding, enum utfdfa_error_mode,
                                 enum utfdfa_bom);
static utfdfa_result (*base_encode_call)(utfdfa_encoder *, const uint32_t *, size_t *, uint8_t *,
                                         size_t *, bool, utfdfa_error *);

int base_lib_open(void)
{
    const char *path = getenv("BENCH_BASE_SO");
    void *h = path && *path ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
    if (!h)
        return 0;
    *(void **)&base.init = dlsym(h, "utfdfa_decoder_init");
    *(void **)&base.dec32 = dlsym(h, "utfdfa_decode_utf32");
    *(void **)&base_encoder_init = dlsym(h, "utfdfa_encoder_init");
    *(void **)&base_encode_call = dlsym(h, "utfdfa_encode");
    return base.init && base.dec32 && base_encoder_init && base_encode_call;
}

size_t base_utf7dec(const struct job *j) { return bench_decode_chunks(j, &base, UTFDFA_UTF7, UTFDFA_STRICT); }
size_t base_utf8dec(const struct job *j) { return bench_decode_chunks(j, &base, UTFDFA_UTF8, UTFDFA_STRICT); }
size_t base_utf8rep(const struct job *j) { return bench_decode_chunks(j, &base, UTFDFA_UTF8, UTFDFA_REPLACE); }

size_t base_encode(const struct job *j)
{
    utfdfa_encoder e;
    base_encoder_init(&e, UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    size_t n = j->ncps, m = j->cap;
    utfdfa_error err;
    if (base_encode_call(&e, j->cps, &n, j->dst, &m, true, &err) != UTFDFA_INPUT_EMPTY)
        return RUN_FAILED;
    return m;
}
