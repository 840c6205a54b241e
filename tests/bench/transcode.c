/* SPDX-License-Identifier: MIT */
/* `make bench` (BENCH_OPS=transcode): utfdfa_transcode on every pair among
 * UTF-8, UTF-16LE and UTF-32LE (same-encoding pairs included), against
 * utfdfa_decode_utf32 of the same text's UTF-8 form in the same run and
 * against glibc iconv and ICU's ucnv_convertEx on the same pairs.
 *
 * The text in each encoding is written here, once and outside timing, from
 * the code points the reference decoder (tests/ref) found in the corpus, by
 * encoders of a few lines each: not by utfdfa. Before timing, every
 * engine's output on every pair must be byte for byte the text in the
 * target encoding (so a peer's equals utfdfa's); otherwise its cell says
 * DIFFERS, the reason is printed and the run fails. All cells of a corpus
 * are interleaved in rounds, as in bench.c. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "ref_utf8.h"
#include "utfdfa.h"

static const char *const enc_names[TC_NENC] = {"utf-8", "utf-16le", "utf-32le"};
static const enum utfdfa_encoding enc_utfdfa[TC_NENC] = {UTFDFA_UTF8, UTFDFA_UTF16LE,
                                                          UTFDFA_UTF32LE};

/* A pair's target: >= this fraction of decode_utf32's GB/s; ASCII text
 * also >= TARGET_ASCII_GBPS of input. */
#define TARGET_RATIO 0.8
#define TARGET_ASCII_GBPS 10.0

/* ------------------------------------------------------------- the text */

struct form {
    uint8_t *p;
    size_t n;
};

static void put_le(uint8_t *p, uint32_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static struct form make_form(enum tc_enc enc, const uint32_t *cps, size_t ncps)
{
    struct form f = {malloc(4 * ncps + 1), 0};
    if (!f.p) {
        perror("malloc");
        exit(2);
    }
    for (size_t i = 0; i < ncps; i++) {
        uint32_t cp = cps[i];
        if (enc == TC_UTF8) {
            f.n += ref_utf8_encode(cp, f.p + f.n);
        } else if (enc == TC_UTF32LE) {
            put_le(f.p + f.n, cp, 4);
            f.n += 4;
        } else if (cp < 0x10000) {
            put_le(f.p + f.n, cp, 2);
            f.n += 2;
        } else {
            put_le(f.p + f.n, 0xD800 | (cp - 0x10000) >> 10, 2);
            put_le(f.p + f.n + 2, 0xDC00 | (cp & 0x3FF), 2);
            f.n += 4;
        }
    }
    return f;
}

/* ------------------------------------------------------------ utfdfa */

static size_t utfdfa_pair(const struct tc_call *c)
{
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, enc_utfdfa[c->from], UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    size_t n = c->n, m = c->cap;
    utfdfa_error e;
    if (utfdfa_transcode(&d, enc_utfdfa[c->to], c->src, &n, c->dst, &m, true, &e) !=
            UTFDFA_INPUT_EMPTY || n != c->n)
        return RUN_FAILED;
    return m;
}

/* The reference row: UTF-8 to native code points (dst is malloc'ed, so
 * aligned for them); the result in bytes like every other cell. */
static size_t utfdfa_decode32(const struct tc_call *c)
{
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    size_t n = c->n, m = c->cap / 4;
    utfdfa_error e;
    if (utfdfa_decode_utf32(&d, c->src, &n, (uint32_t *)(void *)c->dst, &m, true, &e) !=
            UTFDFA_INPUT_EMPTY || n != c->n)
        return RUN_FAILED;
    return 4 * m;
}

/* ------------------------------------------------------------- cells */

enum cell_state { CELL_OK, CELL_ABSENT, CELL_FILTERED, CELL_DIFFERS };

struct cell {
    tc_run_fn run;
    struct tc_call call;
    const uint8_t *want; /* the bytes it must write */
    size_t nwant;
    enum cell_state state;
    const char *why; /* CELL_ABSENT */
    size_t iters;
    double gbps;
    double ns;   /* per call: the time the text takes (same text in every cell of a corpus) */
};

/* Cell 0 is the reference; then per pair utfdfa and each peer. */
#define NENGINES (1 + TC_NPEERS)
#define NCELLS (1 + TC_NENC * TC_NENC * NENGINES)
static struct cell cells[NCELLS];
static double samples[NCELLS][256];

static struct cell *pair_cell(int from, int to, int engine)
{
    return &cells[1 + (from * TC_NENC + to) * NENGINES + engine];
}

static const char *engine_name(int engine)
{
    return engine == 0 ? "utfdfa_transcode" : tc_peer_name((enum tc_peer)(engine - 1));
}

/* The output against the wanted bytes, before timing; a disagreement is
 * printed (with the first differing byte) and counted. */
static int check(struct cell *c, const char *corpus, const char *what)
{
    size_t r = c->run(&c->call);
    char why[160] = "";
    if (r == RUN_FAILED) {
        snprintf(why, sizeof why, "the engine reported failure");
    } else if (r != c->nwant || memcmp(c->call.dst, c->want, r) != 0) {
        size_t i = 0;
        while (i < r && i < c->nwant && c->call.dst[i] == c->want[i])
            i++;
        snprintf(why, sizeof why, "%zu bytes, want %zu; first difference at byte %zu", r,
                 c->nwant, i);
    }
    if (!why[0])
        return 0;
    fprintf(stderr, "CHECK FAILED: transcode %s, corpus %s: %s\n", what, corpus, why);
    printf("> CHECK FAILED: transcode %s, corpus %s: %s\n\n", what, corpus, why);
    c->state = CELL_DIFFERS;
    return 1;
}

/* Fill the cells for one corpus; returns the check failures. */
static int setup(const char *corpus, const struct form *forms, const uint32_t *cps, size_t ncps,
                 uint8_t *dst, size_t cap, const struct bench_timing *t)
{
    int failures = 0;
    char what[96];
    memset(cells, 0, sizeof cells);
    cells[0] = (struct cell){utfdfa_decode32, {TC_UTF8, TC_UTF32LE, forms[TC_UTF8].p,
                                               forms[TC_UTF8].n, dst, cap},
                             (const uint8_t *)cps, 4 * ncps, CELL_OK, NULL, 0, 0, 0};
    failures += check(&cells[0], corpus, "reference utfdfa_decode_utf32");
    for (int f = 0; f < TC_NENC; f++)
        for (int to = 0; to < TC_NENC; to++)
            for (int k = 0; k < NENGINES; k++) {
                struct cell *c = pair_cell(f, to, k);
                c->call = (struct tc_call){(enum tc_enc)f, (enum tc_enc)to, forms[f].p,
                                           forms[f].n, dst, cap};
                c->want = forms[to].p;
                c->nwant = forms[to].n;
                c->run = k == 0 ? utfdfa_pair
                                : tc_peer_fn((enum tc_peer)(k - 1), (enum tc_enc)f,
                                             (enum tc_enc)to, &c->why);
                if (!c->run) {
                    c->state = CELL_ABSENT;
                    continue;
                }
                if (k && t->filter && *t->filter && !strstr(engine_name(k), t->filter)) {
                    c->state = CELL_FILTERED;
                    continue;
                }
                snprintf(what, sizeof what, "%s -> %s, %s", enc_names[f], enc_names[to],
                         engine_name(k));
                failures += check(c, corpus, what);
            }
    return failures;
}

static volatile size_t sink;

static void measure(const struct bench_timing *t)
{
    for (size_t k = 0; k < NCELLS; k++) {
        struct cell *c = &cells[k];
        if (c->state != CELL_OK)
            continue;
        double t0 = bench_thread_ns();
        sink = c->run(&c->call);
        double dt = bench_thread_ns() - t0;
        c->iters = dt <= 0 ? 1000 : (size_t)(t->sample_ns / dt) + 1;
    }
    for (int r = 0; r < t->reps; r++)
        for (size_t k = 0; k < NCELLS; k++) {
            struct cell *c = &cells[k];
            if (c->state != CELL_OK)
                continue;
            double t0 = bench_thread_ns();
            for (size_t it = 0; it < c->iters; it++)
                sink = c->run(&c->call);
            samples[k][r] = (bench_thread_ns() - t0) / (double)c->iters;
        }
    for (size_t k = 0; k < NCELLS; k++)
        if (cells[k].state == CELL_OK) { /* bytes of input per ns = GB/s */
            cells[k].ns = bench_pick(samples[k], t->reps, t->use_min);
            cells[k].gbps = (double)cells[k].call.n / cells[k].ns;
        }
}

/* ------------------------------------------------------------- output */

static void print_gbps(const struct cell *c)
{
    static const char *const text[] = {"", "absent", "—", "DIFFERS"};
    if (c->state != CELL_OK)
        printf(" %s |", text[c->state]);
    else
        printf(c->gbps >= 10 ? " %.1f |" : " %.2f |", c->gbps);
}

/* Speed of a over speed of b on the same text: b's time over a's (for two
 * engines on one pair this is also the ratio of their GB/s; against
 * decode_utf32 of the UTF-8 form, the speed of the text, whatever the
 * encodings' sizes). */
static void print_ratio(const struct cell *a, const struct cell *b)
{
    if (a->state == CELL_OK && b->state == CELL_OK)
        printf(" %.2f |", b->ns / a->ns);
    else
        printf(" — |");
}

/* Why a peer has no cells, or was left out (BENCH_ENGINES). */
static void print_absent(void)
{
    for (int k = 1; k < NENGINES; k++) {
        const char *why = NULL;
        int absent = 0, filtered = 0;
        for (int p = 0; p < TC_NENC * TC_NENC; p++) {
            const struct cell *c = pair_cell(p / TC_NENC, p % TC_NENC, k);
            absent += c->state == CELL_ABSENT;
            filtered += c->state == CELL_FILTERED;
            if (c->state == CELL_ABSENT)
                why = c->why;
        }
        if (absent)
            printf("%s: %s (\"absent\") on %d of %d pairs.\n\n", engine_name(k), why, absent,
                   TC_NENC * TC_NENC);
        if (filtered)
            printf("%s: left out by BENCH_ENGINES (\"—\").\n\n", engine_name(k));
    }
}

static void print_targets(bool ascii)
{
    const struct cell *ref = &cells[0];
    int met = 0, measured = 0;
    char missed[512] = "";
    size_t used = 0;
    for (int p = 0; p < TC_NENC * TC_NENC && ref->state == CELL_OK; p++) {
        const struct cell *c = pair_cell(p / TC_NENC, p % TC_NENC, 0);
        if (c->state != CELL_OK)
            continue;
        measured++;
        if (ref->ns >= TARGET_RATIO * c->ns && (!ascii || c->gbps >= TARGET_ASCII_GBPS))
            met++;
        else if (used < sizeof missed)
            used += (size_t)snprintf(missed + used, sizeof missed - used, "%s%s -> %s",
                                     used ? ", " : "", enc_names[p / TC_NENC],
                                     enc_names[p % TC_NENC]);
    }
    printf("Target (every pair >= %.1fx decode_utf32", TARGET_RATIO);
    if (ascii)
        printf(" and >= %.0f GB/s of input: pure ASCII", TARGET_ASCII_GBPS);
    printf("): met on %d of %d pairs%s%s.\n\n", met, measured, met < measured ? "; missed: " : "",
           missed);
}

static void print_table(const char *corpus, bool ascii)
{
    printf("#### %s\n\n", corpus);
    printf("| pair | utfdfa GB/s | / decode_utf32 | iconv GB/s | ICU GB/s | utfdfa / iconv | "
           "utfdfa / ICU |\n|---|---:|---:|---:|---:|---:|---:|\n");
    printf("| utf-8 -> code points: utfdfa_decode_utf32 (reference) |");
    print_gbps(&cells[0]);
    printf(" 1.00 | | | | |\n");
    for (int f = 0; f < TC_NENC; f++)
        for (int to = 0; to < TC_NENC; to++) {
            const struct cell *me = pair_cell(f, to, 0);
            printf("| %s -> %s |", enc_names[f], enc_names[to]);
            print_gbps(me);
            print_ratio(me, &cells[0]);
            print_gbps(pair_cell(f, to, 1 + TC_ICONV));
            print_gbps(pair_cell(f, to, 1 + TC_ICU));
            print_ratio(me, pair_cell(f, to, 1 + TC_ICONV));
            print_ratio(me, pair_cell(f, to, 1 + TC_ICU));
            printf("\n");
        }
    printf("\n");
    print_absent();
    print_targets(ascii);
}

void transcode_intro(const struct bench_timing *t)
{
    tc_peers_open();
    printf("### Transcoding matrix: utfdfa_transcode, iconv and ICU\n\n"
           "One table per valid corpus. Each source is the corpus's text written (outside "
           "timing, by the bench's own encoders from the reference decoder's code points) in "
           "the source encoding; GB/s are of that input, %s of %d samples. \"/ decode_utf32\" "
           "is the pair's GB/s over that of utfdfa_decode_utf32 on the UTF-8 form in the same "
           "run (the first row). iconv: iconv_open per pair, opened once, iconv() over the "
           "whole buffer; ICU: ucnv_convertEx with converters opened once and a 1024-unit "
           "pivot on the stack; all strict. Every output was checked byte for byte against "
           "the text in the target encoding before timing (DIFFERS: it was not).\n\n",
           t->use_min ? "fastest" : "median", t->reps);
}

int transcode_corpus(const char *name, const uint32_t *cps, size_t ncps, bool ascii,
                     const struct bench_timing *t)
{
    struct form forms[TC_NENC];
    size_t maxn = 0;
    for (int f = 0; f < TC_NENC; f++) {
        forms[f] = make_form((enum tc_enc)f, cps, ncps);
        if (forms[f].n > maxn)
            maxn = forms[f].n;
    }
    /* Room for the worst case of any input (4 bytes out per byte in), as a
     * caller sizing by utfdfa_max_transcoded_len would give. */
    size_t cap = 4 * maxn + 64;
    uint8_t *dst = malloc(cap);
    if (!dst) {
        perror("malloc");
        exit(2);
    }
    int failures = setup(name, forms, cps, ncps, dst, cap, t);
    measure(t);
    print_table(name, ascii);
    fflush(stdout);
    free(dst);
    for (int f = 0; f < TC_NENC; f++)
        free(forms[f].p);
    return failures;
}
