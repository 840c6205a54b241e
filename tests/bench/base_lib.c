/* SPDX-License-Identifier: MIT */
/* Another build of libutfdfa.so (BENCH_BASE_SO=path, e.g. the library of a
 * worktree at an older commit) measured side by side with this one, so a
 * change's gain or loss comes from one interleaved run: opened with dlopen
 * (RTLD_LOCAL: its symbols stay its own; the library hides the others),
 * utf7dec only. */
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

size_t base_utf7dec(const struct job *j)
{
    utfdfa_decoder d;
    base_init(&d, UTFDFA_UTF7, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    size_t n = j->n, m = j->cap;
    utfdfa_error e;
    if (base_dec32(&d, j->src, &n, j->dst, &m, true, &e) != UTFDFA_INPUT_EMPTY || n != j->n)
        return RUN_FAILED;
    return m;
}
