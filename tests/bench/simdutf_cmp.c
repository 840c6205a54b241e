/* SPDX-License-Identifier: MIT */
/* `make bench SIMDUTF=DIR` (BENCH_OPS=simdutf): utfdfa at each of its x86
 * kernel levels against simdutf's kernel of the same class, called
 * directly (tests/bench/simdutf_shim.cpp): sse4 against westmere, avx2
 * against haswell, avx512vbmi against icelake. Four jobs: validating
 * UTF-8 (utfdfa_valid_up_to), UTF-8 to UTF-16LE (utfdfa_decode_utf16),
 * UTF-16LE to UTF-8 (utfdfa_transcode) and UTF-8 to UTF-32
 * (utfdfa_decode_utf32), whole buffers, strict.
 *
 * Each valid corpus is written (outside timing, from the reference
 * decoder's code points) as UTF-8, UTF-16LE and UTF-32; every cell's output
 * is checked against those before timing (a disagreement is printed and
 * makes the run fail). utfdfa's cells force their level
 * (utfdfa__fast_force) on each call. All cells of a corpus (both
 * libraries, every level, every job) are interleaved in rounds, each
 * round starting one cell later, as in bench.c. GB/s are of input; the
 * ratio is simdutf's time over utfdfa's. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "common.h"
#include "ref_utf8.h"
#include "utfdfa.h"

int utfdfa__fast_force(const char *level); /* src/fast/kernels.h */
int utfdfa__fast_has(const char *level);
const char *utfdfa__fast_level_name(void);

/* tests/bench/simdutf_shim.cpp */
const void *simdutf_shim_kernel(const char *name);
const char *simdutf_shim_version(void);
size_t simdutf_shim_validate(const void *k, const uint8_t *src, size_t n);
size_t simdutf_shim_utf8_to_utf16le(const void *k, const uint8_t *src, size_t n, uint16_t *dst);
size_t simdutf_shim_utf16le_to_utf8(const void *k, const uint16_t *src, size_t n, uint8_t *dst);
size_t simdutf_shim_utf8_to_utf32(const void *k, const uint8_t *src, size_t n, uint32_t *dst);

enum sd_job { J_VALIDATE, J_U8_U16, J_U16_U8, J_U8_U32, NJOBS };
static const char *const job_titles[NJOBS] = {"validate UTF-8", "UTF-8 to UTF-16LE",
                                              "UTF-16LE to UTF-8", "UTF-8 to UTF-32"};

/* utfdfa's level and simdutf's kernel of the same class. */
static const char *const levels[][2] = {
    {"sse4", "westmere"}, {"avx2", "haswell"}, {"avx512vbmi", "icelake"}};
#define NLEVELS (sizeof levels / sizeof levels[0])

#define MAX_TEXTS 32
#define NCELLS (NJOBS * NLEVELS * 2)

/* The text in each form; UTF-16LE and UTF-32 as this (little-endian)
 * machine's units. */
struct forms {
    uint8_t *u8;
    size_t n8;
    uint16_t *u16;
    size_t n16;
    uint32_t *u32;
    size_t n32;
};

struct cell {
    enum sd_job job;
    size_t level;
    int simdutf;       /* 0: utfdfa */
    const void *kernel; /* simdutf's; NULL: absent */
    int state;          /* 0 ok, 1 absent, 2 differs */
    size_t iters;
    double ns[MAX_TEXTS];
};

static struct cell cells[NCELLS];
static double samples[NCELLS][256];
static volatile size_t sink;

static struct forms make_forms(const uint32_t *cps, size_t ncps)
{
    struct forms f = {xmalloc(4 * ncps), 0, xmalloc(4 * ncps), 0, xmalloc(4 * ncps), ncps};
    memcpy(f.u32, cps, 4 * ncps);
    for (size_t i = 0; i < ncps; i++) {
        f.n8 += ref_utf8_encode(cps[i], f.u8 + f.n8);
        if (cps[i] < 0x10000) {
            f.u16[f.n16++] = (uint16_t)cps[i];
        } else {
            f.u16[f.n16++] = (uint16_t)(0xD800 | (cps[i] - 0x10000) >> 10);
            f.u16[f.n16++] = (uint16_t)(0xDC00 | (cps[i] & 0x3FF));
        }
    }
    return f;
}

static size_t run_utfdfa(enum sd_job job, const struct forms *f, void *dst, size_t cap)
{
    utfdfa_decoder d;
    utfdfa_error e;
    size_t n = f->n8, m = cap / 4;
    utfdfa_result r = UTFDFA_INPUT_EMPTY;
    switch (job) {
    case J_VALIDATE:
        return utfdfa_valid_up_to(f->u8, f->n8) == f->n8;
    case J_U8_U16:
        utfdfa_decoder_init(&d, UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
        m = cap / 2;
        r = utfdfa_decode_utf16(&d, f->u8, &n, dst, &m, true, &e);
        break;
    case J_U16_U8:
        utfdfa_decoder_init(&d, UTFDFA_UTF16LE, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
        n = 2 * f->n16;
        m = cap;
        r = utfdfa_transcode(&d, UTFDFA_UTF8, (const uint8_t *)f->u16, &n, dst, &m, true, &e);
        n /= 2;
        break;
    case J_U8_U32:
        utfdfa_decoder_init(&d, UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
        r = utfdfa_decode_utf32(&d, f->u8, &n, dst, &m, true, &e);
        break;
    default:
        return 0;
    }
    return r == UTFDFA_INPUT_EMPTY && n == (job == J_U16_U8 ? f->n16 : f->n8) ? m : 0;
}

/* What the cell wrote (units; validate: 1 valid, 0 not), 0 at an error. */
static size_t run(const struct cell *c, const struct forms *f, void *dst, size_t cap)
{
    if (!c->simdutf) {
        utfdfa__fast_force(levels[c->level][0]);
        return run_utfdfa(c->job, f, dst, cap);
    }
    switch (c->job) {
    case J_VALIDATE:
        return simdutf_shim_validate(c->kernel, f->u8, f->n8);
    case J_U8_U16:
        return simdutf_shim_utf8_to_utf16le(c->kernel, f->u8, f->n8, dst);
    case J_U16_U8:
        return simdutf_shim_utf16le_to_utf8(c->kernel, f->u16, f->n16, dst);
    default:
        return simdutf_shim_utf8_to_utf32(c->kernel, f->u8, f->n8, dst);
    }
}

static size_t input_bytes(enum sd_job job, const struct forms *f)
{
    return job == J_U16_U8 ? 2 * f->n16 : f->n8;
}

static const char *cell_name(const struct cell *c)
{
    return levels[c->level][c->simdutf];
}

static int check(struct cell *c, const struct forms *f, void *dst, size_t cap, const char *text)
{
    memset(dst, 0, cap);
    size_t r = run(c, f, dst, cap);
    const void *want = c->job == J_U8_U16 ? (const void *)f->u16
                       : c->job == J_U16_U8 ? (const void *)f->u8 : (const void *)f->u32;
    size_t nwant = c->job == J_U8_U16 ? f->n16 : c->job == J_U16_U8 ? f->n8 : f->n32;
    size_t unit = c->job == J_U8_U16 ? 2 : c->job == J_U16_U8 ? 1 : 4;
    bool ok = c->job == J_VALIDATE ? r == 1 : r == nwant && memcmp(dst, want, r * unit) == 0;
    if (ok)
        return 0;
    fprintf(stderr, "CHECK FAILED: %s %s, %s, corpus %s: %zu units, want %zu\n",
            c->simdutf ? "simdutf" : "utfdfa", cell_name(c), job_titles[c->job], text, r, nwant);
    printf("> CHECK FAILED: %s %s, %s, corpus %s: %zu units, want %zu\n\n",
           c->simdutf ? "simdutf" : "utfdfa", cell_name(c), job_titles[c->job], text, r, nwant);
    c->state = 2;
    return 1;
}

static void measure(size_t ti, const struct forms *f, void *dst, size_t cap,
                    const struct bench_timing *t)
{
    for (size_t k = 0; k < NCELLS; k++) {
        struct cell *c = &cells[k];
        if (c->state)
            continue;
        double t0 = bench_thread_ns();
        sink = run(c, f, dst, cap);
        double dt = bench_thread_ns() - t0;
        c->iters = dt <= 0 ? 1000 : (size_t)(t->sample_ns / dt) + 1;
    }
    for (int r = 0; r < t->reps; r++)
        for (size_t step = 0; step < NCELLS; step++) {
            size_t k = (step + (size_t)r) % NCELLS;
            struct cell *c = &cells[k];
            if (c->state)
                continue;
            double t0 = bench_thread_ns();
            for (size_t it = 0; it < c->iters; it++)
                sink = run(c, f, dst, cap);
            samples[k][r] = (bench_thread_ns() - t0) / (double)c->iters;
        }
    for (size_t k = 0; k < NCELLS; k++)
        cells[k].ns[ti] = cells[k].state ? 0 : bench_pick(samples[k], t->reps, t->use_min);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void print_job(enum sd_job job, const struct bench_text *texts, size_t n,
                      const size_t *bytes)
{
    printf("#### %s\n\n| row |", job_titles[job]);
    for (size_t ti = 0; ti < n; ti++)
        printf(" %s |", texts[ti].name);
    printf(" median ratio |\n|---|");
    for (size_t ti = 0; ti <= n; ti++)
        printf("---:|");
    printf("\n");
    for (size_t l = 0; l < NLEVELS; l++) {
        const struct cell *c[2] = {&cells[(job * NLEVELS + l) * 2],
                                   &cells[(job * NLEVELS + l) * 2 + 1]};
        for (int s = 0; s < 2; s++) {
            printf("| %s %s GB/s |", s ? "simdutf" : "utfdfa", levels[l][s]);
            for (size_t ti = 0; ti < n; ti++)
                if (c[s]->ns[ti] > 0)
                    printf(" %.2f |", (double)bytes[ti * NJOBS + job] / c[s]->ns[ti]);
                else
                    printf(" %s |", c[s]->state == 2 ? "DIFFERS" : "absent");
            printf(" |\n");
        }
        double ratios[MAX_TEXTS];
        size_t nr = 0;
        printf("| utfdfa %s / simdutf %s |", levels[l][0], levels[l][1]);
        for (size_t ti = 0; ti < n; ti++)
            if (c[0]->ns[ti] > 0 && c[1]->ns[ti] > 0) {
                ratios[nr] = c[1]->ns[ti] / c[0]->ns[ti];
                printf(" **%.2f** |", ratios[nr++]);
            } else {
                printf(" — |");
            }
        qsort(ratios, nr, sizeof ratios[0], cmp_double);
        if (nr)
            printf(" %.2f |\n", nr % 2 ? ratios[nr / 2] : (ratios[nr / 2 - 1] + ratios[nr / 2]) / 2);
        else
            printf(" — |\n");
    }
    printf("\n");
}

int simdutf_compare(const struct bench_text *texts, size_t n, const struct bench_timing *t)
{
    char before[32];
    snprintf(before, sizeof before, "%s", utfdfa__fast_level_name());
    int failures = 0;
    if (n > MAX_TEXTS)
        n = MAX_TEXTS;
    printf("### utfdfa against simdutf %s, level by level\n\n"
           "Each utfdfa level against simdutf's kernel of the same class, called directly "
           "(no dispatch), in the same interleaved rounds, %s of %d samples; GB/s of input; "
           "ratio: utfdfa's speed over simdutf's (> 1: utfdfa is faster). absent: this CPU or "
           "build lacks the level (tests/bench/simdutf_cmp.c).\n\n",
           simdutf_shim_version(), t->use_min ? "fastest" : "median", t->reps);
    for (size_t k = 0; k < NCELLS; k++) {
        struct cell *c = &cells[k];
        memset(c, 0, sizeof *c);
        c->job = (enum sd_job)(k / (NLEVELS * 2));
        c->level = k / 2 % NLEVELS;
        c->simdutf = (int)(k % 2);
        c->kernel = c->simdutf ? simdutf_shim_kernel(levels[c->level][1]) : NULL;
        c->state = c->simdutf ? !c->kernel : !utfdfa__fast_has(levels[c->level][0]);
    }
    size_t bytes[MAX_TEXTS * NJOBS];
    int absent[NCELLS];
    for (size_t k = 0; k < NCELLS; k++)
        absent[k] = cells[k].state;
    for (size_t ti = 0; ti < n; ti++) {
        struct forms f = make_forms(texts[ti].cps, texts[ti].ncps);
        size_t cap = 4 * f.n8 + 64;
        void *dst = xmalloc(cap);
        for (size_t k = 0; k < NCELLS; k++) {
            if (cells[k].state != 2)
                cells[k].state = absent[k];
            if (!cells[k].state)
                failures += check(&cells[k], &f, dst, cap, texts[ti].name);
        }
        for (int j = 0; j < NJOBS; j++)
            bytes[ti * NJOBS + (size_t)j] = input_bytes((enum sd_job)j, &f);
        measure(ti, &f, dst, cap, t);
        free(dst);
        free(f.u8);
        free(f.u16);
        free(f.u32);
    }
    for (int j = 0; j < NJOBS; j++)
        print_job((enum sd_job)j, texts, n, bytes);
    utfdfa__fast_force(before);
    return failures;
}
