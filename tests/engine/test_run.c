/* SPDX-License-Identifier: MIT */
/* eng_run() at every level this CPU runs against the eng_step() loop, for one
 * grammar's header (generated with --prefix eng into engine.gen.h): exhaustive
 * short strings, random valid text (random walks of the DFA that never reject)
 * with mutations, chunkings, alignments, and buffers that end at a page
 * boundary followed by a PROT_NONE page (a read past len faults). Built with
 * -DTEST_WRONG_GUESS, the scalar engine's guesses start elsewhere, so that its
 * check of each guess is put to work on every grammar. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifdef TEST_WRONG_GUESS /* the scalar engine's segments start from other states than START */
#define ENG_RUN_GUESS_FROM(j) ((uint32_t)(((j) * 5u + 1u) % ENG_NSTATES) * ENG_NCLASSES)
#define ENG_RUN_LOOK 1
#endif
#include "engine.gen.h"

static unsigned long failures, checks;
static int level;
static const char *name = "?";

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}

/* The definition: the step loop. */
static uint32_t ref_run(uint32_t s, const uint8_t *b, size_t len, size_t *at)
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

static void fail(const char *what, uint32_t s0, size_t len, uint32_t want, size_t want_at,
                 uint32_t got, size_t got_at)
{
    if (++failures <= 5)
        fprintf(stderr, "test_run %s: level %s: %s: from state %u, %zu bytes: want %u at %zu, got %u at %zu\n",
                name, eng_run_level_name[level], what, s0, len, want, want_at, got, got_at);
}

/* One run of the level against the loop. */
static void check1(const char *what, uint32_t s0, const uint8_t *b, size_t len)
{
    size_t wa = 0, ga = 0;
    uint32_t w = ref_run(s0, b, len, &wa);
    uint32_t g = eng_run_at(level, s0, b, len, &ga);
    checks++;
    if (w != g || wa != ga)
        fail(what, s0, len, w, wa, g, ga);
}

/* The same bytes in chunks of the sizes sizes[] (cycled), state carried over. */
static void check_chunks(const char *what, const uint8_t *b, size_t len, const size_t *sizes, size_t nsizes)
{
    size_t wa = 0, off = 0, k = 0, ga = len;
    uint32_t w = ref_run(ENG_START, b, len, &wa), g = ENG_START;
    while (off < len) {
        size_t n = sizes[k++ % nsizes], a;
        if (n > len - off)
            n = len - off;
        g = eng_run_at(level, g, b + off, n, &a);
        if (g == ENG_REJECT) {
            ga = off + a;
            break;
        }
        if (a != n) {
            fail("chunk at != len", ENG_START, len, w, wa, g, off + a);
            return;
        }
        off += n;
    }
    if (len == 0)
        ga = 0;
    checks++;
    if (w != g || wa != ga)
        fail(what, ENG_START, len, w, wa, g, ga);
}

/* States from which a walk can go on for ever without rejecting (a cycle of live states
 * is within reach): a walk keeps to them while it can, so a string grammar's text is one
 * long string, not a short one and garbage. */
static unsigned char endless[ENG_NSTATES];

static void find_endless(void)
{
    unsigned s, c;
    int changed = 1;
    for (s = 0; s < ENG_NSTATES; s++)
        endless[s] = s * ENG_NCLASSES != ENG_REJECT;
    while (changed) {
        changed = 0;
        for (s = 0; s < ENG_NSTATES; s++) {
            int on = 0;
            if (!endless[s])
                continue;
            for (c = 0; c < 256 && !on; c++)
                on = endless[eng_step(s * ENG_NCLASSES, (uint8_t)c) / ENG_NCLASSES];
            if (!on) {
                endless[s] = 0;
                changed = 1;
            }
        }
    }
}

/* A random walk that avoids REJECT (a valid prefix): every byte a uniform choice among
 * the bytes that keep the DFA alive (and endless, when it is). */
static int ok_byte(uint32_t s, uint8_t c)
{
    uint32_t t = eng_step(s, c);
    return t != ENG_REJECT && (endless[t / ENG_NCLASSES] || !endless[s / ENG_NCLASSES]);
}

static void walk(uint8_t *b, size_t len)
{
    uint32_t s = ENG_START;
    size_t i;
    for (i = 0; i < len; i++) {
        int tries;
        uint8_t c = (uint8_t)rnd();
        for (tries = 0; tries < 64 && !ok_byte(s, c); tries++)
            c = (uint8_t)rnd();
        if (!ok_byte(s, c)) { /* a state with few live bytes: search them */
            unsigned start = rnd() & 255, d;
            for (d = 0; d < 256; d++)
                if (ok_byte(s, (uint8_t)(start + d)))
                    break;
            c = (uint8_t)(start + d);
            if (d == 256) { /* a dead end (a grammar whose language ends): start over */
                s = ENG_START;
                c = (uint8_t)rnd();
            }
        }
        b[i] = c;
        s = eng_step(s, c);
        if (s == ENG_REJECT)
            s = ENG_START;
    }
}

/* One representative byte of each class. */
static uint8_t rep[256];
static int nreps;

static void exhaustive(void)
{
    uint8_t b[8];
    unsigned s, x, y;
    int L;
    for (s = 0; s < ENG_NSTATES; s++)
        for (x = 0; x < 256; x++) {
            b[0] = (uint8_t)x;
            check1("one byte", s * ENG_NCLASSES, b, 1);
            check1("no bytes", s * ENG_NCLASSES, b, 0);
        }
    for (x = 0; x < 256; x++)
        for (y = 0; y < 256; y++) {
            b[0] = (uint8_t)x;
            b[1] = (uint8_t)y;
            check1("two bytes", ENG_START, b, 2);
        }
    /* Every string of class representatives up to the length where they number 300k. */
    for (L = 3; L <= 8; L++) {
        unsigned long total = 1, k;
        int i;
        for (i = 0; i < L; i++)
            total *= (unsigned long)nreps;
        if (total > 300000)
            break;
        for (k = 0; k < total; k++) {
            unsigned long v = k;
            for (i = 0; i < L; i++) {
                b[i] = rep[v % (unsigned long)nreps];
                v /= (unsigned long)nreps;
            }
            check1("class string", ENG_START, b, (size_t)L);
        }
    }
}

#define TEXT (3 * ENG_RUN_WAYS * ENG_RUN_SEG + 777)

static void texts(uint8_t *text)
{
    static const size_t odd[] = {1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 31, 63, 64, 65, 255, 1023, 1024, 1025,
                                 4095, 4096, 4097};
    size_t sizes[8];
    int r;
    size_t i, n;
    for (r = 0; r < 120; r++) {
        size_t len = r < 40 ? (size_t)r * (TEXT / 40) + rnd() % 97 : rnd() % TEXT;
        if (len > TEXT)
            len = TEXT;
        walk(text, len);
        check1("valid text", ENG_START, text, len);
        /* from every state, the first bytes of the text */
        if (r % 8 == 0)
            for (i = 0; i < ENG_NSTATES; i++)
                check1("valid text from a state", (uint32_t)i * ENG_NCLASSES, text, len);
        for (i = 0; i < 6 && len; i++) { /* mutations: each adds one wrong byte */
            size_t pos = r % 3 == 0 ? rnd() % len : len - 1 - rnd() % (len < 64 ? len : 64);
            text[pos] = (uint8_t)rnd();
            check1("mutated text", ENG_START, text, len);
        }
        for (i = 0; i < 8; i++)
            sizes[i] = 1 + rnd() % (r % 2 ? 50 : 5000);
        check_chunks("random chunks", text, len, sizes, 8);
        n = odd[rnd() % (sizeof odd / sizeof odd[0])];
        check_chunks("fixed chunks", text, len, &n, 1);
    }
    /* A reject at every position of each neighbourhood of a multiple of 512 (the
     * segments' boundaries), every 61st byte between them. */
    walk(text, TEXT);
    for (i = 0; i < TEXT; i += (i % 512 < 8 || i % 512 >= 504) ? 1 : i % 512 + 61 < 504 ? 61 : 504 - i % 512) {
        uint8_t keep = text[i];
        unsigned c;
        uint32_t s = ENG_START;
        size_t a, j;
        s = ref_run(s, text, i, &a);
        if (s == ENG_REJECT)
            break;
        for (c = 0; c < 256 && eng_step(s, (uint8_t)c) != ENG_REJECT; c++)
            ;
        if (c == 256)
            continue;
        text[i] = (uint8_t)c;
        check1("reject at a position", ENG_START, text, TEXT);
        for (j = 0; j < 2; j++) { /* every split near it */
            size_t cut = i > 3 ? i - 3 + j * 4 : j;
            if (cut <= TEXT) {
                size_t two[2] = {cut ? cut : 1, TEXT};
                check_chunks("split near a reject", text, TEXT, two, 2);
            }
        }
        text[i] = keep;
    }
    /* Every split point of one text of 300 bytes. */
    walk(text, 300);
    for (i = 1; i < 300; i++) {
        size_t two[2] = {i, 300};
        check_chunks("every split", text, 300, two, 2);
    }
}

static void alignments(uint8_t *text)
{
    static uint8_t buf[TEXT + 128];
    size_t off, len = 5000;
    walk(text, len);
    for (off = 0; off < 64; off++) {
        memcpy(buf + off, text, len);
        check1("alignment", ENG_START, buf + off, len - off % 7);
    }
}

static void page_end(uint8_t *text)
{
    long page = sysconf(_SC_PAGESIZE);
    size_t map = (size_t)page * 4, len;
    uint8_t *m = mmap(NULL, map + (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED || mprotect(m + map, (size_t)page, PROT_NONE) != 0) {
        perror("test_run: mmap");
        exit(2);
    }
    walk(text, map);
    for (len = 0; len <= map; len += len < 300 ? 1 : 997) {
        memcpy(m + map - len, text, len);
        check1("ends at a page", ENG_START, m + map - len, len);
    }
    munmap(m, map + (size_t)page);
}

int main(int argc, char **argv)
{
    static uint8_t text[4 * 65536];
    int c, ran = 0;
    if (argc > 1)
        name = argv[1];
    find_endless();
    for (c = 0; c < 256; c++) {
        int r;
        for (r = 0; r < nreps && eng_class[rep[r]] != eng_class[c]; r++)
            ;
        if (r == nreps)
            rep[nreps++] = (uint8_t)c;
    }
    for (level = 0; level < ENG_RUN_NLEVELS; level++) {
        unsigned long before = failures;
        if (!eng_run_has(level))
            continue;
#ifdef TEST_WRONG_GUESS
        if (level != ENG_RUN_SCALAR) /* the guesses are the scalar engine's */
            continue;
#endif
        ran++;
        exhaustive();
        texts(text);
        alignments(text);
        page_end(text);
        if (failures > before)
            fprintf(stderr, "test_run %s: level %s failed\n", name, eng_run_level_name[level]);
        printf("%s%s", ran > 1 ? " " : "", eng_run_level_name[level]);
    }
    /* eng_run itself, on one long text */
    {
        size_t wa, ga;
        uint32_t w, g;
        walk(text, sizeof text);
        w = ref_run(ENG_START, text, sizeof text, &wa);
        g = eng_run(ENG_START, text, sizeof text, &ga);
        checks++;
        if (w != g || wa != ga) {
            level = 0;
            fail("eng_run", ENG_START, sizeof text, w, wa, g, ga);
        }
    }
    printf("\ntest_run %s: %lu checks at %d levels (%s), %lu failed\n", name, checks, ran, ENG_RUN_ENGINE,
           failures);
    return failures != 0;
}
