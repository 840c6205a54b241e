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
#include "decode_chunks.h"
#include "utfdfa.h"

static struct bench_decoder base; /* its decoder's calls */

int base_lib_open(void)
{
    const char *path = getenv("BENCH_BASE_SO");
    void *h = path && *path ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
    if (!h)
        return 0;
    *(void **)&base.init = dlsym(h, "utfdfa_decoder_init");
    *(void **)&base.dec32 = dlsym(h, "utfdfa_decode_utf32");
    return base.init && base.dec32;
}

size_t base_utf7dec(const struct job *j) { return bench_decode_chunks(j, &base, UTFDFA_UTF7, UTFDFA_STRICT); }
size_t base_utf8dec(const struct job *j) { return bench_decode_chunks(j, &base, UTFDFA_UTF8, UTFDFA_STRICT); }
size_t base_utf8rep(const struct job *j) { return bench_decode_chunks(j, &base, UTFDFA_UTF8, UTFDFA_REPLACE); }
