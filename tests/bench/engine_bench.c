/* SPDX-License-Identifier: MIT */
/* One row of `make bench`'s table of generated bulk engines: eng_run() against
 * the eng_step() loop (and the shift DFA's loop, when the header has one) on
 * 1 MiB of valid lines of one grammar (header engine.gen.h, --prefix eng), and
 * on the same bytes with an error in the last line. Interleaved rounds, thread
 * CPU time, medians; results checked against the step loop. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine.gen.h"

#define MIB (1u << 20)

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}

/* Valid lines: a random walk of the DFA that never rejects, cut after its last
 * return to an accepting state by a line feed. */
static size_t valid_lines(uint8_t *b, size_t cap)
{
    uint32_t s = ENG_START;
    size_t i, end = 0;
    for (i = 0; i < cap; i++) {
        uint8_t c;
        int tries = 0;
        do
            c = (uint8_t)rnd();
        while (eng_step(s, c) == ENG_REJECT && ++tries < 64);
        while (eng_step(s, c) == ENG_REJECT && ++tries < 64 + 256) /* few live bytes: look at each */
            c = (uint8_t)(c + 1);
        b[i] = c;
        s = eng_step(s, c);
        if (s == ENG_REJECT)
            break;
        if (c == '\n' && eng_is_accepting(s))
            end = i + 1;
    }
    return end;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static uint32_t loop_run(uint32_t s, const uint8_t *b, size_t len, size_t *at)
{
    size_t i;
    for (i = 0; i < len; i++) {
        s = eng_step(s, b[i]);
        if (s == ENG_REJECT) {
            *at = i;
            return s;
        }
    }
    *at = len;
    return s;
}

#if ENG_HAS_SHIFT_DFA
/* The shift DFA's loop: one test at the end (its reject state is a sink too). */
static uint32_t shift_run(uint32_t s, const uint8_t *b, size_t len, size_t *at)
{
    uint64_t t = ENG_SHIFT_START;
    size_t i;
    (void)s;
    for (i = 0; i < len; i++)
        t = eng_shift_step(t, b[i]);
    *at = len;
    return (t & 63) == ENG_SHIFT_REJECT ? ENG_REJECT : 0;
}
#endif

#ifdef ENGINE_BENCH_RE2C
/* re2c's code for the same grammar (engine_bench.sh writes re2c_peer.c from the
 * --emit re2c definitions): a whole-buffer match, the text NUL-terminated, a
 * verdict without the reject's index. */
#include "re2c_peer.c"
static uint32_t re2c_run(uint32_t s, const uint8_t *b, size_t len, size_t *at)
{
    (void)s;
    *at = len;
    return re2c_valid(b) ? 0 : ENG_REJECT;
}
#endif

#ifdef ENGINE_BENCH_RAGEL
/* ragel -G2's code for the same grammar (engine_bench.sh: ragel_peer.c, from
 * the --emit ragel machine): a verdict and the index of the byte that failed. */
#pragma GCC diagnostic push /* ragel's code, not ours: its cases fall through */
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#include "ragel_peer.c"
#pragma GCC diagnostic pop
#endif

#ifdef ENGINE_BENCH_HS
/* Hyperscan, block mode, the --emit regex expression anchored at both ends
 * (engine_bench.sh writes hs_pattern.h): a verdict. */
#include <hs/hs.h>
#include "hs_pattern.h"
static hs_database_t *hs_db;
static hs_scratch_t *hs_scratch;
static int hs_matched(unsigned id, unsigned long long from, unsigned long long to, unsigned flags, void *ctx)
{
    (void)id, (void)from, (void)to, (void)flags;
    *(int *)ctx = 1;
    return 1;
}
static uint32_t hs_run(uint32_t s, const uint8_t *b, size_t len, size_t *at)
{
    int found = 0;
    (void)s;
    hs_scan(hs_db, (const char *)b, (unsigned)len, 0, hs_scratch, hs_matched, &found);
    *at = len;
    return found ? 0 : ENG_REJECT;
}
/* Whether Hyperscan takes the expression (a big one may pass its limits). */
static int hs_ready(const char *name)
{
    hs_compile_error_t *err;
    if (hs_compile(HS_PATTERN, HS_FLAG_SINGLEMATCH, HS_MODE_BLOCK, NULL, &hs_db, &err) != HS_SUCCESS) {
        fprintf(stderr, "engine_bench %s: Hyperscan does not compile it: %s\n", name, err->message);
        hs_free_compile_error(err);
        return 0;
    }
    return hs_alloc_scratch(hs_db, &hs_scratch) == HS_SUCCESS;
}
#endif

/* BENCH_ENGINE_LEVEL=NAME measures eng_run_at(that level) instead of eng_run. */
static int forced = -1;
static uint32_t level_run(uint32_t s, const uint8_t *b, size_t len, size_t *at)
{
    return eng_run_at(forced, s, b, len, at);
}

typedef uint32_t (*runner)(uint32_t, const uint8_t *, size_t, size_t *);

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#define MAXR 101
#define NRUN 6

int main(int argc, char **argv)
{
    static uint8_t text[MIB + 4096], bad[MIB + 4096];
    const char *name = argc > 1 ? argv[1] : "?";
    int rounds = argc > 2 ? atoi(argv[2]) : 15, r, k, e;
    runner run[NRUN] = {loop_run, eng_run, 0, 0, 0, 0};
    double t[2][NRUN][MAXR];
    size_t len = valid_lines(text, MIB), a0, a1, i;
    uint32_t s0, s1;
    int best = 0;
#if ENG_HAS_SHIFT_DFA
    run[2] = shift_run;
#endif
#ifdef ENGINE_BENCH_RE2C
    run[3] = re2c_run;
#endif
#ifdef ENGINE_BENCH_RAGEL
    run[4] = ragel_run;
#endif
#ifdef ENGINE_BENCH_HS
    if (hs_ready(name))
        run[5] = hs_run;
#endif
    if (getenv("BENCH_ENGINE_LEVEL")) {
        for (k = 0; k < ENG_RUN_NLEVELS && strcmp(eng_run_level_name[k], getenv("BENCH_ENGINE_LEVEL")); k++)
            ;
        if (k == ENG_RUN_NLEVELS || !eng_run_has(k)) {
            printf("| %s | %d | %s: not here | | | | | | | | | | | | |\n", name, ENG_NSTATES, getenv("BENCH_ENGINE_LEVEL"));
            return 0;
        }
        forced = k;
        run[1] = level_run;
    }
    if (rounds > MAXR)
        rounds = MAXR;
    memset(text + len, 0, sizeof text - len); /* re2c's sentinel */
    memcpy(bad, text, len);
    for (i = len - 2; i > 0 && bad[i] != '\n'; i--) /* the last line gets a byte no state takes there */
        ;
    {
        uint32_t s = ENG_START;
        size_t a, j;
        unsigned c;
        s = loop_run(s, bad, len - 2, &a);
        for (c = 0; c < 256 && eng_step(s, (uint8_t)c) != ENG_REJECT; c++)
            ;
        bad[len - 2] = (uint8_t)c;
        for (j = ENG_RUN_NLEVELS - 1; j > 0 && !eng_run_has((int)j); j--)
            ;
        best = forced >= 0 ? forced : (int)j;
    }
    /* The results must agree. */
    for (e = 0; e < 2; e++) {
        const uint8_t *b = e ? bad : text;
        s0 = loop_run(ENG_START, b, len, &a0);
        s1 = eng_run(ENG_START, b, len, &a1);
        size_t a2;
        for (k = 3; k < NRUN; k++)
            if (run[k] && (run[k](ENG_START, b, len, &a2) == ENG_REJECT) != (s0 == ENG_REJECT)) {
                fprintf(stderr, "engine_bench %s: peer %d's verdict differs\n", name, k);
                return 1;
            }
        if (run[4] && s0 == ENG_REJECT && (run[4](ENG_START, b, len, &a2), a2 != a0)) {
            fprintf(stderr, "engine_bench %s: ragel's reject index differs\n", name);
            return 1;
        }
        if (s0 != s1 || a0 != a1 || (e == 0) != (s0 != ENG_REJECT)) {
            fprintf(stderr, "engine_bench %s: eng_run disagrees with the step loop\n", name);
            return 1;
        }
    }
    for (r = 0; r < rounds; r++)
        for (k = 0; k < NRUN; k++)
            for (e = 0; e < 2; e++) {
                const uint8_t *b = e ? bad : text;
                double t0;
                volatile uint32_t sink;
                int rep;
                if (!run[k]) {
                    t[e][k][r] = 1;
                    continue;
                }
                t0 = now();
                for (rep = 0; rep < 4; rep++) {
                    size_t a;
                    sink = run[k](ENG_START, b, len, &a);
                    (void)sink;
                }
                t[e][k][r] = (now() - t0) / 4;
            }
    for (e = 0; e < 2; e++)
        for (k = 0; k < NRUN; k++)
            qsort(t[e][k], (size_t)rounds, sizeof(double), cmp);
#define GBS(e, k) ((double)len / t[e][k][rounds / 2] / 1e9)
    printf("| %s | %d | %s | %.2f | %.2f | %.1fx | %.2f | %.1fx |", name, ENG_NSTATES, eng_run_level_name[best],
           GBS(0, 0), GBS(0, 1), GBS(0, 1) / GBS(0, 0), GBS(1, 1), GBS(1, 1) / GBS(1, 0));
    if (run[2])
        printf(" %.2f |", GBS(0, 2));
    else
        printf(" - |");
    for (k = 3; k < NRUN; k++)
        if (run[k])
            printf(" %.2f | %.1fx |", GBS(0, k), GBS(0, 1) / GBS(0, k));
        else
            printf(" - | - |");
    printf("\n");
    return 0;
}
