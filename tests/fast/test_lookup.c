/* SPDX-License-Identifier: MIT */
/* The lookup validators (src/fast/utf8/lookup*.h) against the plain DFA.
 *
 * Each kernel (SSE4, AVX2, AVX-512 BW, AVX-512 VBMI; NEON) must keep
 * utfdfa__utf8_scan's contract and stop exactly where the plain loop over
 * the grammar's own generated table (PREFIX_trans, PREFIX_class, which the
 * kernels do not read) stops, in the same state: before the first
 * rejecting byte, else at the end. Kernels run:
 *   - as the library has them for UTF-8 (utfdfa__utf8_scan_lookup_*, shift
 *     rows, tables folded in), and utfdfa__utf8_scan forced to each level;
 *   - compiled here over tables given at run time (the plain table's step,
 *     FAST_STEP_TRANS) for every grammar whose PREFIX.simd.gen.h the
 *     generator derives (UTF-8 included), and three made for the kernels'
 *     edges (tests/fast/lookup/: max_len 6, 5 with cur_low, 2); a
 *     grammar the generator cannot derive is named with its reason.
 * A level this CPU lacks is skipped with a note. Inputs: every string of
 * length 1 and 2 and every 4-byte string of bytes at the edges of the
 * grammar's classes, across a 64-byte group boundary; edge bytes where a
 * long input's groups move onto a 64-byte boundary; random valid text
 * (a walk on the DFA) at every alignment 0..63 cut at every end; that text
 * with one byte corrupted at each position; every starting state; the
 * corpora of SHARED/corpus (each file at every alignment, in chunks, with
 * corrupted bytes) and Kuhn's UTF-8 test file (SHARED/conformance),
 * scanned on after each error. Every input sits at the end of an
 * exact-size heap buffer, so AddressSanitizer sees a read past it.
 *
 * Usage: test_lookup [SHARED_DIR]   (default ../shared)
 */
#define _POSIX_C_SOURCE 200809L
#define FAST_STEP_TRANS 1
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lookup_avx2.h"
#include "lookup_avx512.h"
#include "arm64/lookup_neon.h"
#include "lookup_sse4.h"
#include "utf8.gen.h"

#include "check.h"
#include "common.h"
#include "kernels.h"
#include "rng.h"

#if defined(__has_include)
#if __has_include("utf8-rfc2279.simd.gen.h")
#include "utf8-rfc2279.gen.h"
#include "utf8-rfc2279.simd.gen.h"
#define HAVE_RFC2279 1
#endif
#if __has_include("cesu-8.simd.gen.h")
#include "cesu-8.gen.h"
#include "cesu-8.simd.gen.h"
#define HAVE_CESU8 1
#endif
#if __has_include("mutf-8.simd.gen.h")
#include "mutf-8.gen.h"
#include "mutf-8.simd.gen.h"
#define HAVE_MUTF8 1
#endif
#if __has_include("wtf-8.simd.gen.h")
#include "wtf-8.gen.h"
#include "wtf-8.simd.gen.h"
#define HAVE_WTF8 1
#endif
#if __has_include("corrected-utf-8.simd.gen.h")
#include "corrected-utf-8.gen.h"
#include "corrected-utf-8.simd.gen.h"
#define HAVE_CORRECTED 1
#endif
/* Grammars for the kernels' edges alone (tests/fast/lookup/: max_len 6,
 * 5 with the cur_low table, 2), generated into the build by the Makefile. */
#if __has_include("six.simd.gen.h") && __has_include("five.simd.gen.h") && \
    __has_include("two.simd.gen.h")
#include "five.gen.h"
#include "five.simd.gen.h"
#include "six.gen.h"
#include "six.simd.gen.h"
#include "two.gen.h"
#include "two.simd.gen.h"
#define HAVE_TEST_GRAMMARS 1
#endif
#endif

#if !FAST_X86 && !FAST_ARM64
int main(void)
{
    printf("test_lookup: neither x86-64 nor AArch64: no lookup kernels to test\n");
    return 0;
}
#else

/* ------------------------------------------------------------ grammars */

struct grammar {
    const char *name;
    const uint8_t *cls;
    const void *trans;
    size_t tsize; /* bytes of a trans entry */
    uint32_t accept, reject, nstates, nclasses;
    int derived;
    const char *why;
    const lk_tables *simd;
    int cur_low;
};

#define GRAMMAR(label, p, P)                                                                \
    label, p##_class, p##_trans, sizeof p##_trans[0], P##_ACCEPT, P##_REJECT, P##_NSTATES,  \
        P##_NCLASSES
#define DERIVED(p, P) 1, NULL, &p##_simd_tables, P##_SIMD_CUR_LOW
#define NOT_DERIVED(P) 0, P##_SIMD_WHY, NULL, 0

static const struct grammar grammars[] = {
    {GRAMMAR("utf8", utf8, UTF8), DERIVED(utf8, UTF8)},
#ifdef HAVE_RFC2279
#if UTF8_RFC2279_SIMD_DERIVED
    {GRAMMAR("utf8-rfc2279", utf8_rfc2279, UTF8_RFC2279), DERIVED(utf8_rfc2279, UTF8_RFC2279)},
#else
    {GRAMMAR("utf8-rfc2279", utf8_rfc2279, UTF8_RFC2279), NOT_DERIVED(UTF8_RFC2279)},
#endif
#endif
#ifdef HAVE_CESU8
#if CESU_8_SIMD_DERIVED
    {GRAMMAR("cesu-8", cesu_8, CESU_8), DERIVED(cesu_8, CESU_8)},
#else
    {GRAMMAR("cesu-8", cesu_8, CESU_8), NOT_DERIVED(CESU_8)},
#endif
#endif
#ifdef HAVE_MUTF8
#if MUTF_8_SIMD_DERIVED
    {GRAMMAR("mutf-8", mutf_8, MUTF_8), DERIVED(mutf_8, MUTF_8)},
#else
    {GRAMMAR("mutf-8", mutf_8, MUTF_8), NOT_DERIVED(MUTF_8)},
#endif
#endif
#ifdef HAVE_WTF8
#if WTF_8_SIMD_DERIVED
    {GRAMMAR("wtf-8", wtf_8, WTF_8), DERIVED(wtf_8, WTF_8)},
#else
    {GRAMMAR("wtf-8", wtf_8, WTF_8), NOT_DERIVED(WTF_8)},
#endif
#endif
#ifdef HAVE_CORRECTED
#if CORRECTED_UTF_8_SIMD_DERIVED
    {GRAMMAR("corrected-utf-8", corrected_utf_8, CORRECTED_UTF_8),
     DERIVED(corrected_utf_8, CORRECTED_UTF_8)},
#else
    {GRAMMAR("corrected-utf-8", corrected_utf_8, CORRECTED_UTF_8),
     NOT_DERIVED(CORRECTED_UTF_8)},
#endif
#endif
#ifdef HAVE_TEST_GRAMMARS
    {GRAMMAR("six (test)", six, SIX), DERIVED(six, SIX)},
    {GRAMMAR("five (test)", five, FIVE), DERIVED(five, FIVE)},
    {GRAMMAR("two (test)", two, TWO), DERIVED(two, TWO)},
#endif
};
static const struct grammar *G; /* under test */

static uint32_t next_state(uint32_t st, uint8_t b)
{
    size_t k = st + G->cls[b];
    return G->tsize == 1 ? ((const uint8_t *)G->trans)[k] : ((const uint16_t *)G->trans)[k];
}

/* The plain loop: the oracle. */
static size_t plain_scan(const uint8_t *s, size_t n, uint32_t *state)
{
    uint32_t st = *state;
    size_t i = 0;
    for (; i < n; i++) {
        uint32_t next = next_state(st, s[i]);
        if (next == G->reject)
            break;
        st = next;
    }
    *state = st;
    return i;
}

/* G's fast tables as FAST_STEP_TRANS reads them, built from its plain table. */
static struct utfdfa_fast_tables ft;
static uint16_t ft_trans[4096];

static void use_grammar(const struct grammar *g)
{
    G = g;
    memset(&ft, 0, sizeof ft);
    size_t cells = (size_t)g->nstates * g->nclasses;
    CHECK(cells <= sizeof ft_trans / sizeof *ft_trans, "%s: too many states", g->name);
    for (size_t k = 0; k < cells && k < sizeof ft_trans / sizeof *ft_trans; k++)
        ft_trans[k] = (uint16_t)(g->tsize == 1 ? ((const uint8_t *)g->trans)[k]
                                               : ((const uint16_t *)g->trans)[k]);
    memcpy(ft.byte_class, g->cls, 256);
    ft.trans = ft_trans;
    ft.nstates = g->nstates;
    ft.nclasses = g->nclasses;
    ft.reject = g->reject;
    ft.ascii_identity = 1;
    for (int b = 0; b < 0x80; b++)
        ft.ascii_identity &= next_state(g->accept, (uint8_t)b) == g->accept;
}

/* ------------------------------------------------------------- kernels */

#if FAST_X86
FAST_TARGET_SSE4 static size_t gen_sse4(const uint8_t *s, size_t n, uint32_t *st)
{
    return lk_sse4_scan(&ft, G->simd, G->cur_low, s, n, st);
}

FAST_TARGET_AVX2BMI static size_t gen_avx2(const uint8_t *s, size_t n, uint32_t *st)
{
    return lk_avx2_scan(&ft, G->simd, G->cur_low, s, n, st);
}

FAST_TARGET_AVX512BW static size_t gen_avx512(const uint8_t *s, size_t n, uint32_t *st)
{
    return lk_avx512_scan(&ft, G->simd, G->cur_low, s, n, st);
}

FAST_TARGET_AVX512VBMI static size_t gen_vbmi(const uint8_t *s, size_t n, uint32_t *st)
{
    return lk_vbmi_scan(&ft, G->simd, G->cur_low, s, n, st);
}
#elif FAST_ARM64
static size_t gen_neon(const uint8_t *s, size_t n, uint32_t *st)
{
    return lk_neon_scan(&ft, G->simd, G->cur_low, s, n, st);
}
#endif

size_t utfdfa__utf8_scan(const uint8_t *src, size_t n, uint32_t *state);

/* utfdfa__utf8_scan at the level forced for this kernel (the dispatch). */
static size_t lib_dispatch(const uint8_t *s, size_t n, uint32_t *st)
{
    return utfdfa__utf8_scan(s, n, st);
}

typedef size_t (*scan_fn)(const uint8_t *, size_t, uint32_t *);
struct kernel {
    const char *name, *level;
    scan_fn fn;
    bool utf8_only; /* the library's instance, for UTF-8 alone */
};
static const struct kernel all_kernels[] = {
#if FAST_X86
    {"sse4", "sse4", gen_sse4, false},
    {"avx2", "avx2", gen_avx2, false},
    {"avx512", "avx512", gen_avx512, false},
    {"avx512vbmi", "avx512vbmi", gen_vbmi, false},
    {"library sse4", "sse4", utfdfa__utf8_scan_lookup_sse4, true},
    {"library avx2", "avx2", utfdfa__utf8_scan_lookup_avx2, true},
    {"library avx512", "avx512", utfdfa__utf8_scan_lookup_avx512, true},
    {"library avx512vbmi", "avx512vbmi", utfdfa__utf8_scan_lookup_vbmi, true},
    {"utfdfa__utf8_scan at sse4", "sse4", lib_dispatch, true},
    {"utfdfa__utf8_scan at avx2", "avx2", lib_dispatch, true},
    {"utfdfa__utf8_scan at avx512", "avx512", lib_dispatch, true},
    {"utfdfa__utf8_scan at avx512vbmi", "avx512vbmi", lib_dispatch, true},
#elif FAST_ARM64
    {"neon", "neon", gen_neon, false},
    {"library neon", "neon", utfdfa__utf8_scan_lookup_neon, true},
    {"utfdfa__utf8_scan at neon", "neon", lib_dispatch, true},
#endif
    {"utfdfa__utf8_scan at scalar", "scalar", lib_dispatch, true},
};
enum { NKERNELS = sizeof all_kernels / sizeof *all_kernels };
static const struct kernel *kernels[NKERNELS]; /* those this CPU and grammar run */
static size_t nkernels;

/* ------------------------------------------------------------- checks */

static unsigned long scans;

/* Every kernel on s[0..n) from st0, at the end of an exact-size buffer
 * with the input `align` bytes after malloc's alignment. */
static void check_at(const uint8_t *s, size_t n, uint32_t st0, size_t align, const char *what)
{
    uint8_t *buf = malloc(n + align ? n + align : 1);
    if (!buf)
        abort();
    if (n)
        memcpy(buf + align, s, n);
    uint32_t want_st = st0;
    size_t want = plain_scan(buf + align, n, &want_st);
    for (size_t k = 0; k < nkernels; k++) {
        if (kernels[k]->fn == lib_dispatch)
            utfdfa__fast_force(kernels[k]->level);
        uint32_t st = st0;
        size_t got = kernels[k]->fn(buf + align, n, &st);
        scans++;
        CHECK(got == want && st == want_st,
              "%s %s: %s (n %zu, align %zu, from state %u): stopped at %zu in state %u, "
              "the DFA at %zu in state %u", G->name, kernels[k]->name, what, n, align,
              (unsigned)st0, got, (unsigned)st, want, (unsigned)want_st);
    }
    free(buf);
}

static void check(const uint8_t *s, size_t n, uint32_t st0, const char *what)
{
    check_at(s, n, st0, 0, what);
}


/* ------------------------------------------------------------- inputs */

static struct test_rng rng = {0x9E3779B97F4A7C15u};

/* The bytes at the edges of G's classes (the lowest and highest of each). */
static uint8_t edges[512];
static size_t nedges;

static void find_edges(void)
{
    nedges = 0;
    for (int b = 0; b < 256; b++) {
        bool edge = b == 0 || b == 255 || G->cls[b] != G->cls[b - 1] || G->cls[b] != G->cls[b + 1];
        if (edge)
            edges[nedges++] = (uint8_t)b;
    }
}

/* A random walk on G's DFA from ACCEPT: bytes that do not reject, runs of
 * ASCII and of non-ASCII (each lead and continuation at random), ended in
 * ACCEPT when it can be by max. Returns its length. */
static size_t walk(uint8_t *p, size_t min, size_t max)
{
    uint32_t st = G->accept;
    size_t n = 0;
    bool ascii_run = false;
    while (n < max && (n < min || st != G->accept)) {
        if (st == G->accept && test_rng_below(&rng, 16) == 0)
            ascii_run = !ascii_run;
        uint8_t b = 0;
        for (int tries = 0; tries < 64; tries++) {
            b = ascii_run && st == G->accept ? (uint8_t)(0x20 + test_rng_below(&rng, 0x5F))
                                             : test_rng_byte(&rng);
            if (next_state(st, b) != G->reject && (ascii_run || b >= 0x80 || st != G->accept))
                break;
        }
        if (next_state(st, b) == G->reject)
            for (int c = 0; c < 256; c++)
                if (next_state(st, (uint8_t)c) != G->reject) {
                    b = (uint8_t)c;
                    break;
                }
        st = next_state(st, b);
        p[n++] = b;
    }
    return n;
}

/* ------------------------------------------------------------- parts */

/* Every string of length 1 and 2 alone, and from every state; every
 * 2-byte string across a group boundary, ASCII around it. */
static void test_short(void)
{
    uint8_t s[130];
    for (int a = 0; a < 256; a++) {
        s[0] = (uint8_t)a;
        for (uint32_t st = 0; st < G->nstates * G->nclasses; st += G->nclasses)
            if (st != G->reject)
                check(s, 1, st, "one byte from a state");
        for (int b = 0; b < 256; b++) {
            s[0] = (uint8_t)a;
            s[1] = (uint8_t)b;
            check(s, 2, G->accept, "two bytes");
            memset(s, 'a', sizeof s);
            s[63] = (uint8_t)a;
            s[64] = (uint8_t)b;
            check(s, 130, G->accept, "two bytes at 63 of 130");
            check(s, 65, G->accept, "two bytes at the end of 65");
        }
    }
}

/* Every 4-byte string of edge bytes across the first group boundary (at
 * 61 of 128) and across the boundary of the padded last group (at 62 of 66). */
static void test_edges(void)
{
    uint8_t a[128], b[66];
    memset(a, 'a', sizeof a);
    memset(b, 'a', sizeof b);
    for (size_t i = 0; i < nedges * nedges * nedges * nedges; i++) {
        size_t k = i;
        for (int j = 0; j < 4; j++, k /= nedges)
            a[61 + j] = b[62 + j] = edges[k % nedges];
        check(a, sizeof a, G->accept, "edge bytes at 61 of 128");
        check(b, sizeof b, G->accept, "edge bytes at 62 of 66");
    }
}

/* A long ASCII run with one edge byte at each position (the ASCII run's
 * step of 128 bytes, its end, the groups after it), then continuations. */
static void test_ascii_runs(void)
{
    uint8_t s[520];
    for (size_t p = 0; p < 460; p++)
        for (size_t e = 0; e < nedges; e++) {
            memset(s, 'a', sizeof s);
            s[p] = edges[e];
            check(s, sizeof s, G->accept, "ASCII run with an edge byte");
            memset(s + p + 1, 0x80 | (int)(p & 0x3F), 5);
            check_at(s, sizeof s - p % 7, G->accept, p % 64, "ASCII run, a byte, continuations");
        }
}

/* Past LK_ALIGN_MIN bytes the groups move onto a 64-byte boundary, the
 * carry rebuilt from the bytes before it: at every alignment, an edge byte
 * and 0-3 continuations then ASCII at each position the move can fall on. */
static void test_aligned_start(void)
{
    uint8_t s[LK_ALIGN_MIN + 8];
    for (size_t align = 0; align < 64; align++)
        for (size_t p = 0; p < 2 * LK_GROUP + 8; p++)
            for (size_t e = 0; e < nedges; e++)
                for (size_t k = 0; k < 4; k++) {
                    memset(s, 'a', sizeof s);
                    s[p] = edges[e];
                    memset(s + p + 1, 0x80 | (int)((p + k) & 0x3F), k);
                    check_at(s, sizeof s, G->accept, align, "a byte, continuations, ASCII");
                }
}

/* Random text at every alignment 0..63 cut at every end; from every split
 * point in the DFA's state there; each byte corrupted in turn. */
static void test_text(int texts)
{
    uint8_t s[400], t[400];
    char what[80];
    for (int x = 0; x < texts; x++) {
        size_t n = walk(s, 300, sizeof s);
        for (size_t align = 0; align < 64; align++)
            for (size_t end = 0; end <= n; end++)
                check_at(s, end, G->accept, align, "walk cut at an end");
        for (size_t k = 0; k <= n; k++) {
            uint32_t st = G->accept;
            if (plain_scan(s, k, &st) == k)
                check(s + k, n - k, st, "walk from its state at a split");
        }
        for (size_t p = 0; p < n; p++)
            for (size_t e = 0; e < nedges; e += 1 + (size_t)(x % 3)) {
                memcpy(t, s, n);
                t[p] = edges[e];
                snprintf(what, sizeof what, "walk with byte %zu set to %02X", p, edges[e]);
                check(t, n, G->accept, what);
            }
    }
}

static uint8_t *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap)
            buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    *len = n;
    return buf;
}

/* A file: at alignments 0..63 (every align_step-th), in chunks with the
 * state carried, with bytes corrupted. */
static void test_file(const uint8_t *s, size_t n, const char *name, size_t align_step)
{
    char what[160];
    snprintf(what, sizeof what, "%s", name);
    for (size_t align = 0; align < 64; align += align_step)
        check_at(s, n, G->accept, align, what);
    static const size_t chunks[] = {1, 3, 17, 63, 64, 65, 1000};
    for (size_t c = 0; c < sizeof chunks / sizeof *chunks; c++) {
        uint32_t st = G->accept;
        snprintf(what, sizeof what, "%s in chunks of %zu", name, chunks[c]);
        size_t step = chunks[c] == 1 ? 7 : 1; /* single bytes: one chunk in 7 checked */
        for (size_t i = 0, k = 0; i < n; k++) {
            size_t len = n - i < chunks[c] ? n - i : chunks[c];
            if (k % step == 0)
                check(s + i, len, st, what);
            size_t got = plain_scan(s + i, len, &st);
            if (got < len)
                break;
            i += len;
        }
    }
    uint8_t *t = malloc(n ? n : 1);
    for (int x = 0; t && x < 64 && n; x++) {
        memcpy(t, s, n);
        size_t p = (size_t)(test_rng_next(&rng) % n);
        t[p] = edges[test_rng_below(&rng, nedges)];
        snprintf(what, sizeof what, "%s with byte %zu set to %02X", name, p, t[p]);
        size_t from = p > 3000 ? p - 3000 : 0, to = n - p > 3000 ? p + 3000 : n;
        check_at(t + from, to - from, G->accept, (size_t)x, what);
    }
    free(t);
}

/* Every *.utf8.txt of SHARED/corpus/<dir>/. */
static void test_corpus(const char *shared, size_t align_step)
{
    char dir[1024], path[2048];
    snprintf(dir, sizeof dir, "%s/corpus/lipsum", shared);
    DIR *d = opendir(dir);
    if (!d) {
        printf("test_lookup: no corpus at %s: skipped\n", dir);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name);
        if (l < 9 || strcmp(e->d_name + l - 9, ".utf8.txt") != 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t n;
        uint8_t *s = read_file(path, &n);
        CHECK(s != NULL, "cannot read %s", path);
        if (s)
            test_file(s, n, e->d_name, align_step);
        free(s);
    }
    closedir(d);
}

/* Kuhn's UTF-8 decoder capability and stress test: scanned on from the
 * byte after each stop, as a replacing decoder would go on. */
static void test_kuhn(const char *shared)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/conformance/UTF-8-test.txt", shared);
    size_t n;
    uint8_t *s = read_file(path, &n);
    if (!s) {
        printf("test_lookup: no %s: skipped\n", path);
        return;
    }
    size_t stops = 0;
    for (size_t i = 0; i < n; stops++) {
        check(s + i, n - i, G->accept, "UTF-8-test.txt from a stop");
        uint32_t st = G->accept;
        i += plain_scan(s + i, n - i, &st) + 1;
    }
    if (G == &grammars[0])
        CHECK(stops > 100, "UTF-8-test.txt: only %zu stops", stops);
    test_file(s, n, "UTF-8-test.txt", 1);
    free(s);
}

int main(int argc, char **argv)
{
    const char *shared = argc > 1 ? argv[1] : "../shared";
    for (size_t gi = 0; gi < sizeof grammars / sizeof *grammars; gi++) {
        const struct grammar *g = &grammars[gi];
        if (!g->derived) {
            printf("test_lookup: %s: no lookup tables (%s)\n", g->name, g->why);
            continue;
        }
        use_grammar(g);
        find_edges();
        nkernels = 0;
        for (size_t k = 0; k < NKERNELS; k++) {
            if (all_kernels[k].utf8_only && gi != 0)
                continue;
            if (!utfdfa__fast_force(all_kernels[k].level)) {
                if (gi == 0)
                    printf("test_lookup: this CPU lacks %s: %s not tested\n",
                           all_kernels[k].level, all_kernels[k].name);
                continue;
            }
            kernels[nkernels++] = &all_kernels[k];
        }
        unsigned long before = scans;
        test_short();
        test_edges();
        test_ascii_runs();
        test_aligned_start();
        test_text(gi == 0 ? 6 : 3);
        test_corpus(shared, gi == 0 ? 1 : 7);
        test_kuhn(shared);
        printf("test_lookup: %s: %zu kernels, %lu scans (max_len %u, %zu edge bytes)\n", g->name,
               nkernels, scans - before, (unsigned)g->simd->max_len, nedges);
    }
    utfdfa__fast_force("auto");
    return check_summary("test_lookup");
}
#endif /* FAST_X86 || FAST_ARM64 */
