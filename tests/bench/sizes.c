/* SPDX-License-Identifier: MIT */
/* `make bench` (BENCH_OPS=sizes): the exact sizes (utfdfa_code_points,
 * utfdfa_utf8_len, utfdfa_utf16_len) on each corpus's UTF-8, UTF-16LE and
 * UTF-32LE forms, against utfdfa_validate on the same input in the same run:
 * a size is the validator up to each error plus a counting pass, so the
 * validator is its ceiling. No peer here counts (iconv and ICU convert);
 * simdutf, which does, is not a Debian package.
 *
 * Valid corpora: the forms are written here from the code points the
 * reference decoder (tests/ref) found, and every result is checked against
 * those code points before timing. Invalid corpora (random bytes): the UTF-8
 * code point count against utfdfa_decode_utf32 in replace mode, which is the
 * count's definition, and timed against it. Rounds interleaved as in
 * bench.c; GB/s of input, the median (BENCH_STAT=min: fastest) sample. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "ref_utf8.h"
#include "utfdfa.h"

enum { SZ_VALIDATE, SZ_CPS, SZ_UTF16, SZ_UTF8, SZ_REPLACE, SZ_NFN };
static const char *const fn_names[SZ_NFN] = {"utfdfa_validate", "utfdfa_code_points",
                                             "utfdfa_utf16_len", "utfdfa_utf8_len",
                                             "utfdfa_decode_utf32, replacing"};
static const enum utfdfa_encoding forms_enc[3] = {UTFDFA_UTF8, UTFDFA_UTF16LE, UTFDFA_UTF32LE};
static const char *const forms_name[3] = {"utf-8", "utf-16le", "utf-32le"};

struct sz_cell {
    int fn;
    enum utfdfa_encoding enc;
    const uint8_t *src;
    size_t n;
    uint32_t *scratch; /* SZ_REPLACE's output */
    size_t iters;
    double ns, samples[256];
};

static size_t sz_run(const struct sz_cell *c)
{
    size_t out = 0;
    switch (c->fn) {
    case SZ_VALIDATE: return utfdfa_validate(c->enc, c->src, c->n, NULL);
    case SZ_CPS: return utfdfa_code_points(c->enc, c->src, c->n);
    case SZ_UTF16: return utfdfa_utf16_len(c->enc, c->src, c->n, &out) ? out : RUN_FAILED;
    case SZ_UTF8: return utfdfa_utf8_len(c->enc, c->src, c->n, &out) ? out : RUN_FAILED;
    default: {
        utfdfa_decoder d;
        utfdfa_decoder_init(&d, c->enc, UTFDFA_REPLACE, UTFDFA_BOM_KEEP);
        size_t n = c->n, m = c->n + 1;
        utfdfa_decode_utf32(&d, c->src, &n, c->scratch, &m, true, NULL);
        return m;
    }
    }
}

static volatile size_t sz_sink;

static void sz_measure(struct sz_cell *cells, size_t n, const struct bench_timing *t)
{
    for (size_t k = 0; k < n; k++) {
        double t0 = bench_thread_ns();
        sz_sink = sz_run(&cells[k]);
        double dt = bench_thread_ns() - t0;
        cells[k].iters = dt <= 0 ? 1000 : (size_t)(t->sample_ns / dt) + 1;
    }
    for (int r = 0; r < t->reps; r++)
        for (size_t k = 0; k < n; k++) {
            double t0 = bench_thread_ns();
            for (size_t it = 0; it < cells[k].iters; it++)
                sz_sink = sz_run(&cells[k]);
            cells[k].samples[r] = (bench_thread_ns() - t0) / (double)cells[k].iters;
        }
    for (size_t k = 0; k < n; k++)
        cells[k].ns = bench_pick(cells[k].samples, t->reps, t->use_min);
}

/* The corpus's text in form f (0 UTF-8, 1 UTF-16LE, 2 UTF-32LE). */
static uint8_t *sz_form(int f, const uint32_t *cps, size_t ncps, size_t *len, size_t *u16)
{
    uint8_t *p = malloc(4 * ncps + 1);
    if (!p) {
        perror("malloc");
        exit(2);
    }
    size_t n = 0;
    *u16 = 0;
    for (size_t i = 0; i < ncps; i++) {
        uint32_t cp = cps[i], units[2] = {cp, 0};
        size_t k = 1;
        *u16 += 1 + (cp > 0xFFFF);
        if (f == 0) {
            n += ref_utf8_encode(cp, p + n);
            continue;
        }
        if (f == 1 && cp > 0xFFFF)
            units[0] = 0xD800 | (cp - 0x10000) >> 10, units[1] = 0xDC00 | (cp & 0x3FF), k = 2;
        for (size_t u = 0; u < k; u++)
            for (int b = 0; b < (f == 1 ? 2 : 4); b++)
                p[n++] = (uint8_t)(units[u] >> (8 * b));
    }
    *len = n;
    return p;
}

static void sz_print(const char *corpus, const struct sz_cell *cells, size_t n)
{
    printf("#### %s\n\n| input | function | GB/s | / utfdfa_validate |\n|---|---|---:|---:|\n",
           corpus);
    const struct sz_cell *ref = NULL;
    for (size_t k = 0; k < n; k++) {
        const struct sz_cell *c = &cells[k];
        if (c->fn == SZ_VALIDATE || c->fn == SZ_REPLACE)
            ref = c;
        double gbps = (double)c->n / c->ns;
        printf("| %s | %s | %.*f | %.2f |\n", utfdfa_encoding_name(c->enc), fn_names[c->fn],
               gbps >= 10 ? 1 : 2, gbps, ref->ns / c->ns);
    }
    printf("\n");
}

void sizes_intro(const struct bench_timing *t)
{
    printf("### Exact sizes: utfdfa_code_points, utfdfa_utf16_len, utfdfa_utf8_len\n\n"
           "On each valid corpus's UTF-8, UTF-16LE and UTF-32LE forms (written from the "
           "reference decoder's code points; every result checked against them first), in "
           "GB/s of input, %s of %d samples, level %s; \"/ utfdfa_validate\" is its speed over "
           "utfdfa_validate's on the same input (the ceiling: a size is that validation and "
           "a counting pass). On random bytes: the UTF-8 code point count over "
           "utfdfa_decode_utf32 in replace mode (the count's definition).\n\n",
           t->use_min ? "fastest" : "median", t->reps, utfdfa_kernel_name());
}

int sizes_corpus(const char *name, const uint32_t *cps, size_t ncps, const uint8_t *raw,
                 size_t nraw, const struct bench_timing *t)
{
    struct sz_cell cells[12];
    uint8_t *forms[3] = {NULL, NULL, NULL};
    size_t n = 0, lens[3] = {0, 0, 0}, u16 = 0;
    int failures = 0;
    uint32_t *scratch = NULL;
    if (cps) {
        for (int f = 0; f < 3; f++) {
            forms[f] = sz_form(f, cps, ncps, &lens[f], &u16);
            int fns[4] = {SZ_VALIDATE, SZ_CPS, f == 1 ? SZ_UTF8 : SZ_UTF16, f == 2 ? SZ_UTF8 : -1};
            for (int k = 0; k < 4 && fns[k] >= 0; k++)
                cells[n++] = (struct sz_cell){fns[k], forms_enc[f], forms[f], lens[f], NULL, 0, 0, {0}};
        }
    } else {
        scratch = malloc((nraw + 1) * sizeof *scratch);
        if (!scratch) {
            perror("malloc");
            exit(2);
        }
        cells[n++] = (struct sz_cell){SZ_REPLACE, UTFDFA_UTF8, raw, nraw, scratch, 0, 0, {0}};
        cells[n++] = (struct sz_cell){SZ_CPS, UTFDFA_UTF8, raw, nraw, NULL, 0, 0, {0}};
    }
    size_t want_replace = scratch ? sz_run(&cells[0]) : 0;
    for (size_t k = 0; k < n; k++) {
        const struct sz_cell *c = &cells[k];
        size_t want = c->fn == SZ_VALIDATE ? c->n
                      : c->fn == SZ_REPLACE ? want_replace
                      : !cps                ? want_replace
                      : c->fn == SZ_CPS     ? ncps
                      : c->fn == SZ_UTF16   ? u16
                                            : lens[0];
        size_t got = sz_run(c);
        if (got != want) {
            printf("bench: %s, %s of %s: %zu, the reference %zu: DIFFERS\n", name,
                   fn_names[c->fn], forms_name[c->enc == UTFDFA_UTF8 ? 0 : c->enc == UTFDFA_UTF16LE ? 1 : 2],
                   got, want);
            failures++;
        }
    }
    if (!failures) {
        sz_measure(cells, n, t);
        sz_print(name, cells, n);
    }
    for (int f = 0; f < 3; f++)
        free(forms[f]);
    free(scratch);
    return failures;
}
