/* SPDX-License-Identifier: MIT */
/* Another build of libutfdfa.so (BENCH_BASE_SO=path, e.g. the library of a
 * worktree at an older commit) measured side by side with this one, so a
 * change's gain or loss comes from one interleaved run: opened with dlopen
 * (RTLD_LOCAL: its symbols stay its own; the library hides the others).
 * Its rows: utf7dec, and UTF-8 to UTF-32 (decode32, replace, stream4k,
 * stream64), the public calls as utfdfa's own rows make them. */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdlib.h>

#include "bench.h"
#include "utfdfa.h"

static void (*base_init)(utfdfa_decoder *, enum utfdfa_encoding, enum utfdfa_error_mode,
                         enum utfdfa_bom);
static utfdfa_result (*base_dec32)(utfdfa_decoder *, const uint8_t *, size_t *, uint32_t *,
                                   size_t *, bool, utfdfa_error *);

int base_lib_open(void)
{
    const char *path = getenv("BENCH_BASE_SO");
    void *h = path && *path ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
    if (!h)
        return 0;
    *(void **)&base_init = dlsym(h, "utfdfa_decoder_init");
    *(void **)&base_dec32 = dlsym(h, "utfdfa_decode_utf32");
    return base_init && base_dec32;
}

/* The input in chunks of j->chunk bytes into UTF-32: what it wrote. */
static size_t base_chunks(const struct job *j, enum utfdfa_encoding enc,
                          enum utfdfa_error_mode mode)
{
    utfdfa_decoder d;
    base_init(&d, enc, mode, UTFDFA_BOM_KEEP);
    uint32_t *dst = j->dst;
    size_t o = 0;
    for (size_t pos = 0; pos < j->n;) {
        size_t len = j->n - pos < j->chunk ? j->n - pos : j->chunk, m = j->cap - o;
        utfdfa_error e;
        bool last = pos + len == j->n;
        if (base_dec32(&d, j->src + pos, &len, dst + o, &m, last, &e) != UTFDFA_INPUT_EMPTY)
            return RUN_FAILED;
        pos += len;
        o += m;
    }
    return o;
}

size_t base_utf7dec(const struct job *j) { return base_chunks(j, UTFDFA_UTF7, UTFDFA_STRICT); }
size_t base_utf8dec(const struct job *j) { return base_chunks(j, UTFDFA_UTF8, UTFDFA_STRICT); }
size_t base_utf8rep(const struct job *j) { return base_chunks(j, UTFDFA_UTF8, UTFDFA_REPLACE); }
