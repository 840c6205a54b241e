/* SPDX-License-Identifier: MIT */
/* The fast kernels (src/fast/) of every level this machine runs, forced in
 * turn, and the scalar level's table called directly, all against an oracle
 * written here (one unit or code point at a time, no shared code): every
 * (from, to) pair, lengths 0..300, every source and destination alignment
 * mod 32, every destination size up to the needed one for the short
 * lengths, ASCII with a non-ASCII unit at every position, random valid text
 * of every form, lone surrogates, bad UTF-32 units and split pairs at every
 * position, partial units at the end. Buffers are allocated to their exact
 * size (ASan sees any read or write past them) and the destination past
 * what a kernel reports written must be untouched.
 *
 *   test_kernels            the tests (TEST_KERNELS_QUICK=1: fewer lengths, for sanitizers)
 *   test_kernels --speed    a rough ASCII throughput per level (noisy; not a benchmark) */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "fast/levels.h"
#include "check.h"
#include "common.h"
#include "levels.h"
#include "rng.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum kind { K_ASCII, K_UTF16, K_UTF32, K_CP };
static const char *const kind_names[] = {"ascii_copy", "utf16_to_cp", "utf32_to_cp",
                                         "cp_to_form"};
static const char *const form_names[] = {"utf-8", "utf-16le", "utf-16be", "utf-32le",
                                         "utf-32be"};

#define MAX_LEVELS 8
static const char *levels[MAX_LEVELS];
static int n_levels;
static int quick;

/* ------------------------------------------------------------ the oracle */
static size_t o_unit(enum fast_form f)
{
    static const size_t units[] = {1, 2, 2, 4, 4};
    return units[f];
}

static int o_big_endian(enum fast_form f)
{
    return f == FORM_UTF16BE || f == FORM_UTF32BE;
}

static uint32_t o_read(enum fast_form f, const uint8_t *p)
{
    size_t u = o_unit(f);
    uint32_t v = 0;
    for (size_t k = 0; k < u; k++)
        v |= (uint32_t)p[o_big_endian(f) ? u - 1 - k : k] << (8 * k);
    return v;
}

static void o_write(enum fast_form f, uint8_t *p, uint32_t v)
{
    size_t u = o_unit(f);
    for (size_t k = 0; k < u; k++)
        p[o_big_endian(f) ? u - 1 - k : k] = (uint8_t)(v >> (8 * k));
}

/* c's bytes in form f (UTF-8 of any value below 0x110000, surrogates too). */
static size_t o_encode(enum fast_form f, uint32_t c, uint8_t out[4])
{
    if (f == FORM_UTF8) {
        size_t len = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
        static const uint8_t lead[] = {0, 0, 0xC0, 0xE0, 0xF0};
        for (size_t k = len - 1; k > 0; k--, c >>= 6)
            out[k] = (uint8_t)(0x80 + c % 64);
        out[0] = (uint8_t)(lead[len] + c);
        return len;
    }
    if ((f == FORM_UTF16LE || f == FORM_UTF16BE) && c >= 0x10000) {
        o_write(f, out, 0xD800 + (c - 0x10000) / 0x400);
        o_write(f, out + 2, 0xDC00 + (c - 0x10000) % 0x400);
        return 4;
    }
    o_write(f, out, c);
    return o_unit(f);
}

static int o_is_high(uint32_t u) { return u >= 0xD800 && u < 0xDC00; }
static int o_is_low(uint32_t u) { return u >= 0xDC00 && u < 0xE000; }

/* Runs the oracle of job j: returns what the kernel returns, sets *wr to its
 * *written (ascii: what it writes, in bytes) and fills exp with the output. */
struct job {
    enum kind kind;
    enum fast_form from, to;
    const uint8_t *src; /* K_CP: code points, as bytes */
    size_t src_len;     /* bytes (K_CP: code points) */
    size_t dst_len;     /* bytes (K_UTF16, K_UTF32: code points) */
    unsigned sa, da;    /* alignments (code point arrays: in code points) */
};

static size_t oracle(const struct job *j, uint8_t *exp, size_t *wr)
{
    size_t i = 0, w = 0;
    uint8_t bytes[4];
    switch (j->kind) {
    case K_ASCII:
        while ((i + 1) * o_unit(j->from) <= j->src_len && (i + 1) * o_unit(j->to) <= j->dst_len &&
               o_read(j->from, j->src + i * o_unit(j->from)) < 0x80) {
            o_write(j->to, exp + i * o_unit(j->to), o_read(j->from, j->src + i * o_unit(j->from)));
            i++;
        }
        *wr = i * o_unit(j->to);
        return i;
    case K_UTF16:
        while (i + 2 <= j->src_len && w < j->dst_len) {
            uint32_t u = o_read(j->from, j->src + i), c = u;
            size_t used = 2;
            if (o_is_low(u))
                break;
            if (o_is_high(u)) {
                if (i + 4 > j->src_len || !o_is_low(o_read(j->from, j->src + i + 2)))
                    break;
                c = 0x10000 + (u - 0xD800) * 0x400 + (o_read(j->from, j->src + i + 2) - 0xDC00);
                used = 4;
            }
            memcpy(exp + 4 * w++, &c, 4);
            i += used;
        }
        *wr = w;
        return i;
    case K_UTF32:
        while (i + 4 <= j->src_len && w < j->dst_len) {
            uint32_t c = o_read(j->from, j->src + i);
            if (c >= 0x110000 || (c >= 0xD800 && c < 0xE000))
                break;
            memcpy(exp + 4 * w++, &c, 4);
            i += 4;
        }
        *wr = w;
        return i;
    case K_CP:
        for (; i < j->src_len; i++) {
            uint32_t c;
            memcpy(&c, j->src + 4 * i, 4);
            size_t len = o_encode(j->to, c, bytes);
            if (w + len > j->dst_len)
                break;
            memcpy(exp + w, bytes, len);
            w += len;
        }
        *wr = w;
        return i;
    }
    return 0;
}

/* ---------------------------------------------------------- the harness */
static size_t call(const struct job *j, int direct_scalar, const uint8_t *src, uint8_t *dst,
                   size_t *wr)
{
    const struct fast_kernels *s = &utfdfa__fast_scalar;
    uint32_t *cps = (uint32_t *)(void *)dst;
    const uint32_t *in = (const uint32_t *)(const void *)src;
    size_t n;
    switch (j->kind) {
    case K_ASCII:
        n = direct_scalar ? s->ascii_copy(j->from, j->to, src, j->src_len, dst, j->dst_len)
                          : utfdfa__ascii_copy(j->from, j->to, src, j->src_len, dst, j->dst_len);
        *wr = n * o_unit(j->to);
        return n;
    case K_UTF16:
        return direct_scalar ? s->utf16_to_cp(j->from, src, j->src_len, cps, j->dst_len, wr)
                             : utfdfa__utf16_to_cp(j->from, src, j->src_len, cps, j->dst_len, wr);
    case K_UTF32:
        return direct_scalar ? s->utf32_to_cp(j->from, src, j->src_len, cps, j->dst_len, wr)
                             : utfdfa__utf32_to_cp(j->from, src, j->src_len, cps, j->dst_len, wr);
    case K_CP:
        return direct_scalar ? s->cp_to_form(j->to, in, j->src_len, dst, j->dst_len, wr)
                             : utfdfa__cp_to_form(j->to, in, j->src_len, dst, j->dst_len, wr);
    }
    return 0;
}

/* Runs job j at every level and the scalar table directly, each against the oracle. */
static void run(const struct job *j)
{
    int cp_in = j->kind == K_CP, cp_out = j->kind == K_UTF16 || j->kind == K_UTF32;
    size_t src_bytes = cp_in ? 4 * j->src_len : j->src_len;
    size_t dst_bytes = cp_out ? 4 * j->dst_len : j->dst_len;
    size_t sa = cp_in ? 4 * (j->sa % 8) : j->sa % 32, da = cp_out ? 4 * (j->da % 8) : j->da % 32;
    /* Exact ends: ASan sees a read or write one byte past either buffer. */
    uint8_t *sbuf = xmalloc(sa + src_bytes), *dbuf = xmalloc(da + dst_bytes);
    uint8_t *exp = xmalloc(dst_bytes);
    memcpy(sbuf + sa, j->src, src_bytes);
    size_t exp_wr = 0, exp_ret = oracle(j, exp, &exp_wr);
    size_t exp_bytes = cp_out ? 4 * exp_wr : exp_wr;
    for (int l = -1; l < n_levels; l++) {
        const char *name = l < 0 ? "scalar table" : levels[l];
        if (l >= 0)
            utfdfa__fast_force(levels[l]);
        memset(dbuf, 0xA5, da + dst_bytes);
        size_t wr = (size_t)-1, ret = call(j, l < 0, sbuf + sa, dbuf + da, &wr);
        int ok = ret == exp_ret && wr == exp_wr && memcmp(dbuf + da, exp, exp_bytes) == 0;
        for (size_t k = exp_bytes; ok && k < dst_bytes; k++)
            ok = dbuf[da + k] == 0xA5;
        CHECK(ok, "%s %s: %s -> %s, src %zu (align %zu), dst %zu (align %zu): returned %zu "
                  "written %zu, want %zu and %zu%s",
              name, kind_names[j->kind], form_names[j->from], form_names[j->to], j->src_len, sa,
              j->dst_len, da, ret, wr, exp_ret, exp_wr,
              ret == exp_ret && wr == exp_wr ? " (output differs or written past)" : "");
    }
    free(sbuf);
    free(dbuf);
    free(exp);
}

/* ------------------------------------------------------------- inputs */
static struct test_rng rng = {0x9E3779B97F4A7C15u};

/* A random code point: profile 0 ASCII, 1 up to U+07FF, 2 BMP without
 * surrogates, 3 everything valid (a quarter supplementary), 4 like 3 with
 * surrogate values (UTF-8's WTF-8 form only), 5 supplementary only (emoji
 * text: whole SIMD steps of pairs). */
static uint32_t random_cp(int profile)
{
    switch (profile) {
    case 0: return test_rng_below(&rng, 0x80);
    case 5: return 0x10000 + test_rng_below(&rng, 0x100000);
    case 1: return test_rng_below(&rng, 4) ? test_rng_below(&rng, 0x80)
                                           : test_rng_below(&rng, 0x800);
    case 2: {
        uint32_t c = test_rng_below(&rng, 3) ? test_rng_below(&rng, 0x80)
                                             : test_rng_below(&rng, 0x10000);
        return c >= 0xD800 && c < 0xE000 ? c - 0x800 : c;
    }
    default: {
        uint32_t c = test_rng_below(&rng, 4) == 0 ? 0x10000 + test_rng_below(&rng, 0x100000)
                                                  : random_cp((int)test_rng_below(&rng, 3));
        return profile == 4 && test_rng_below(&rng, 10) == 0 ? 0xD800 + test_rng_below(&rng, 0x800)
                                                             : c;
    }
    }
}

/* Encodes cps[0..n) in form f into out; returns bytes. */
static size_t encode_all(enum fast_form f, const uint32_t *cps, size_t n, uint8_t *out)
{
    size_t w = 0;
    for (size_t i = 0; i < n; i++)
        w += o_encode(f, cps[i], out + w);
    return w;
}

/* The destination sizes tried for an output of `need` bytes (or code points)
 * in units of `unit`: every one for short inputs, else the boundaries. */
static size_t dst_sizes(size_t need, size_t unit, size_t len, size_t out[])
{
    size_t n = 0;
    out[n++] = 4 * need + 64; /* roomy, as a caller sizing for the worst case */
    if (len <= (quick ? 40u : 80u)) {
        for (size_t d = 0; d <= need + 1; d++)
            out[n++] = d;
        return n;
    }
    size_t pick[] = {0, 1, unit, need / 2, need - unit, need - 1, need, need + unit};
    for (size_t k = 0; k < sizeof pick / sizeof pick[0]; k++)
        if (pick[k] <= need + unit)
            out[n++] = pick[k];
    return n;
}

#define MAX_LEN 300
static uint8_t text[MAX_LEN * 4 + 8];
static uint32_t cps[MAX_LEN + 2];
static size_t dsts[MAX_LEN * 4 + 17];
static unsigned turn; /* varies alignments from one job to the next */

/* Runs kind over text[0..bytes) (or cps[0..bytes) for K_CP) with every
 * destination size `dst_sizes` gives, alignments varying. */
static void run_sizes(enum kind kind, enum fast_form from, enum fast_form to, size_t bytes,
                      size_t len, size_t need, size_t unit)
{
    size_t nd = dst_sizes(need, unit, len, dsts);
    for (size_t k = 0; k < nd; k++) {
        turn++;
        struct job j = {kind, from, to, kind == K_CP ? (const uint8_t *)cps : text, bytes,
                        dsts[k], turn % 32, (turn * 7 + 3) % 32};
        run(&j);
    }
}

/* Every source alignment, each with another destination alignment. */
static void run_alignments(enum kind kind, enum fast_form from, enum fast_form to, size_t bytes,
                           size_t dst_len)
{
    for (unsigned sa = 0; sa < 32; sa += quick ? 5 : 1) {
        struct job j = {kind, from, to, kind == K_CP ? (const uint8_t *)cps : text, bytes,
                        dst_len, sa, (sa * 5 + (unsigned)bytes) % 32};
        run(&j);
    }
}

static void test_ascii(void)
{
    static const uint32_t bad[5][6] = {
        {0x80, 0xC3, 0xFF, 0x80, 0xE2, 0xF4},
        {0x80, 0xFF, 0x100, 0x8000, 0xD800, 0x7F41},
        {0x80, 0xFF, 0x100, 0x8000, 0xD800, 0x7F41},
        {0x80, 0x100, 0x10000, 0x1000041, 0x80000000, 0xFFFFFFFF},
        {0x80, 0x100, 0x10000, 0x1000041, 0x80000000, 0xFFFFFFFF},
    };
    for (int from = 0; from < 5; from++)
        for (int to = 0; to < 5; to++) {
            size_t uf = o_unit((enum fast_form)from), ut = o_unit((enum fast_form)to);
            for (size_t len = 0; len <= MAX_LEN; len++) {
                for (size_t i = 0; i < len; i++)
                    o_write((enum fast_form)from, text + i * uf, test_rng_below(&rng, 0x80));
                for (size_t r = 0; r < uf; r++) /* a partial unit at the end */
                    text[len * uf + r] = (uint8_t)test_rng_below(&rng, 0x80);
                size_t partial = len % uf;
                run_alignments(K_ASCII, from, to, len * uf + partial, len * ut);
                run_sizes(K_ASCII, from, to, len * uf + partial, len, len * ut, ut);
                if (len > (quick ? 40u : 100u) && len != MAX_LEN)
                    continue;
                for (size_t p = 0; p < len; p++) { /* one non-ASCII unit at every position */
                    uint8_t keep[4];
                    memcpy(keep, text + p * uf, uf);
                    o_write((enum fast_form)from, text + p * uf, bad[from][(p + len) % 6]);
                    turn++;
                    struct job j = {K_ASCII, from, to, text, len * uf, len * ut - (turn % 2) * ut,
                                    turn % 32, (turn * 11) % 32};
                    run(&j);
                    memcpy(text + p * uf, keep, uf);
                }
            }
        }
}

/* UTF-16 and UTF-32 sources: random valid text, then at every position a
 * unit the kernel must stop before (and, for UTF-16, a whole pair). */
static void test_wide(enum kind kind, enum fast_form from)
{
    size_t unit = o_unit(from);
    static const uint32_t bad32[] = {0x110000, 0xD800, 0xDFFF, 0xFFFFFFFF, 0x80000000, 0x7FFFFFFF};
    for (int profile = 0; profile < 6; profile += profile == 3 ? 2 : 1) /* not 4 */
        for (size_t len = 0; len <= MAX_LEN; len++) {
            for (size_t i = 0; i < len; i++)
                cps[i] = random_cp(profile);
            size_t bytes = encode_all(from, cps, len, text);
            run_alignments(kind, from, from, bytes, len);
            run_sizes(kind, from, from, bytes, len, len, 1);
            text[bytes] = test_rng_byte(&rng); /* a partial unit */
            run_alignments(kind, from, from, bytes + 1 + test_rng_below(&rng, (uint32_t)unit - 1),
                           len);
        }
    for (size_t len = 1; len <= MAX_LEN; len++) {
        if (len > (quick ? 40u : 100u) && len != MAX_LEN)
            continue;
        for (size_t p = 0; p < len; p++) {
            for (size_t i = 0; i < len; i++)
                cps[i] = random_cp(2);
            encode_all(from, cps, len, text);
            uint8_t *at = text + p * unit;
            if (kind == K_UTF32) {
                o_write(from, at, bad32[(p + len) % 6]);
            } else {
                /* a lone high, a lone low, a high before a high, a whole pair
                 * (split by the end when p is last) */
                switch ((p + len) % 4) {
                case 0: o_write(from, at, 0xD800 + test_rng_below(&rng, 0x400)); break;
                case 1: o_write(from, at, 0xDC00 + test_rng_below(&rng, 0x400)); break;
                case 2:
                    o_write(from, at, 0xDBFF);
                    if (p + 1 < len)
                        o_write(from, at + 2, 0xD800);
                    break;
                default:
                    o_write(from, at, 0xD83D);
                    if (p + 1 < len)
                        o_write(from, at + 2, 0xDE00 + test_rng_below(&rng, 0x100));
                    break;
                }
            }
            turn++;
            size_t short_by = turn % 3, cap = len > short_by ? len - short_by : len;
            struct job j = {kind, from, from, text, len * unit, cap, turn % 32, (turn * 3) % 32};
            run(&j);
        }
    }
}

static void test_cp(enum fast_form to)
{
    size_t unit = o_unit(to);
    uint8_t scratch[MAX_LEN * 4 + 8];
    for (int profile = 0; profile < 6; profile++) {
        if (profile == 4 && to != FORM_UTF8 && to != FORM_UTF32LE && to != FORM_UTF32BE)
            continue; /* surrogate values only where the precondition allows them */
        for (size_t len = 0; len <= MAX_LEN; len++) {
            for (size_t i = 0; i < len; i++)
                cps[i] = random_cp(profile);
            size_t need = encode_all(to, cps, len, scratch);
            run_alignments(K_CP, FORM_UTF32LE, to, len, need);
            run_sizes(K_CP, FORM_UTF32LE, to, len, len, need, unit);
        }
    }
    for (size_t len = 1; len <= MAX_LEN; len++) { /* one non-ASCII code point at every position */
        if (len > (quick ? 40u : 100u) && len != MAX_LEN)
            continue;
        for (size_t p = 0; p < len; p++) {
            for (size_t i = 0; i < len; i++)
                cps[i] = random_cp(0);
            static const uint32_t odd[] = {0x80, 0x7FF, 0x800, 0xFFFF, 0x10000, 0x10FFFF};
            cps[p] = odd[(p + len) % 6];
            size_t need = encode_all(to, cps, len, scratch);
            turn++;
            struct job j = {K_CP, FORM_UTF32LE, to, (const uint8_t *)cps, len,
                            need - (turn % 2) * (1 + test_rng_below(&rng, 4)) % (need + 1), turn % 32,
                            turn % 32};
            run(&j);
        }
    }
}

/* ---------------------------------------------------------- throughput */
static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void speed(void)
{
    enum { MIB = 1 << 20 };
    uint8_t *in = xmalloc(2 * MIB), *out = xmalloc(2 * MIB);
    static const enum fast_form pairs[][2] = {{FORM_UTF8, FORM_UTF16LE}, {FORM_UTF16LE, FORM_UTF8}};
    for (int l = 0; l < n_levels; l++) {
        utfdfa__fast_force(levels[l]);
        for (int k = 0; k < 2; k++) {
            enum fast_form from = pairs[k][0], to = pairs[k][1];
            size_t n = MIB / o_unit(from);
            for (size_t i = 0; i < n; i++)
                o_write(from, in + i * o_unit(from), 0x20 + i % 90);
            size_t reps = 0, copied = 0;
            double t0 = seconds(), t;
            do {
                for (int r = 0; r < 50; r++, reps++)
                    copied += utfdfa__ascii_copy(from, to, in, MIB, out, 2 * MIB);
            } while ((t = seconds() - t0) < 0.5);
            CHECK(copied == reps * n, "speed: %s copied %zu of %zu", levels[l], copied, reps * n);
            printf("  %-6s ascii_copy %-8s -> %-8s %6.1f GB/s of input (1 MiB, %.1f s, noisy)\n",
                   levels[l], form_names[from], form_names[to], (double)reps * MIB / t / 1e9, t);
        }
    }
    free(in);
    free(out);
}

/* The levels the library finds with cpuid and xgetbv (dispatch.c) are the
 * ones GCC's own CPU checks (libgcc, which also asks the OS) give. */
static void test_detection(const char *const *all, size_t n)
{
#if KERN_X86
    bool want[] = {
        true,
        true,
        __builtin_cpu_supports("ssse3") && __builtin_cpu_supports("sse4.1"),
        __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
            __builtin_cpu_supports("bmi2"),
        __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
            __builtin_cpu_supports("avx512vl"),
        __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512vbmi2") &&
            __builtin_cpu_supports("popcnt"),
    };
    _Static_assert(sizeof want / sizeof want[0] == FAST_LEVELS, "a row for every level");
    bool below = true; /* each level includes the ones below it */
    for (size_t k = 0; k < n; k++) {
        below = below && want[k];
        CHECK(utfdfa__fast_has(all[k]) == below, "level %s: cpuid says %d, GCC's checks %d",
              all[k], utfdfa__fast_has(all[k]), below);
    }
#else
    (void)all, (void)n;
#endif
}

int main(int argc, char **argv)
{
    const char *const *all = fast_level_names;
    test_detection(all, fast_level_count);
    quick = getenv("TEST_KERNELS_QUICK") != NULL;
    _Static_assert(FAST_LEVELS <= MAX_LEVELS, "room for every level");
    for (size_t k = 0; k < fast_level_count; k++)
        if (utfdfa__fast_force(all[k]))
            levels[n_levels++] = all[k];
    CHECK(n_levels >= 1 && strcmp(levels[0], "scalar") == 0, "the scalar level is always there");
    CHECK(!utfdfa__fast_force("no-such-level"), "an unknown level is refused");
    printf("test_kernels: levels:");
    for (int l = 0; l < n_levels; l++)
        printf(" %s", levels[l]);
    printf("%s\n", quick ? " (quick)" : "");
    if (argc > 1 && strcmp(argv[1], "--speed") == 0) {
        speed();
    } else {
        test_ascii();
        for (enum fast_form f = FORM_UTF16LE; f <= FORM_UTF16BE; f++)
            test_wide(K_UTF16, f);
        for (enum fast_form f = FORM_UTF32LE; f <= FORM_UTF32BE; f++)
            test_wide(K_UTF32, f);
        for (enum fast_form f = FORM_UTF8; f <= FORM_UTF32BE; f++)
            test_cp(f);
    }
    utfdfa__fast_force("auto");
    printf("test_kernels: %lu passed, %lu failed\n", passed, failed);
    return failed != 0;
}
