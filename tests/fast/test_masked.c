/* SPDX-License-Identifier: MIT */
/* The 128-bit UTF-8 transcoder's parts (src/fast/utf8/masked.h) and its
 * generated tables (build/gen/utf8.shuffle.gen.h):
 *   - every index entry (all 4096 masks of a 12-byte window), every shuffle
 *     and every pair-packing row against an enumeration written here from
 *     the rules the generator documents (the forms: six of 1-2 bytes, four
 *     of 1-3, three of 1-4; lanes last byte lowest, 0x80 above);
 *   - the window step (mk_window), compiled for SSE4.1 and for AVX2, on
 *     every sequence of character lengths 1-4 that covers its 17 bytes (so
 *     every mask valid text gives, and the whole-ASCII, eight 2-byte,
 *     four 3-byte and three 4-byte windows), with code points at each
 *     length's edges (and surrogate neighbours) and random ones: the bytes
 *     it takes must be whole characters, its units those of a UTF-32 or
 *     UTF-16 encoder written here, and it writes no more than 16 units;
 *   - the AVX2 step of two windows (mk_pair) the same way, the window in
 *     either lane beside another of a different form (8 units at most).
 * A CPU without SSE4.1 (AVX2) skips that part with a note. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "masked.h"
#include "rng.h"

#if FAST_X86
static struct test_rng rng = {0x9E3779B97F4A7C15u};

/* ------------------------------------------------------------ the tables */

static const int FORM_COUNT[3] = {6, 4, 3}, FORM_LONGEST[3] = {2, 3, 4}, FORM_LANE[3] = {2, 4, 4};

/* The expected shuffle of the lengths len[0..count) in lanes of `lane` bytes. */
static void expect_shuffle(const int *len, int count, int lane, uint8_t *row)
{
    int pos = 0, k = 0;
    memset(row, 0x80, 16);
    for (int c = 0; c < count; c++) {
        for (int j = 0; j < lane; j++, k++)
            row[k] = j < len[c] ? (uint8_t)(pos + len[c] - 1 - j) : 0x80;
        pos += len[c];
    }
}

static void test_tables(void)
{
    const struct utfdfa_shuffle_tables *t = &utf8_shuffle_tables;
    const int first[3] = {0, UTF8_SHUF_TWO_END, UTF8_SHUF_THREE_END};
    const int end[3] = {UTF8_SHUF_TWO_END, UTF8_SHUF_THREE_END, UTF8_SHUF_ENTRIES};
    for (int f = 0; f < 3; f++) /* sizes: every length combination once */
        CHECK(end[f] - first[f] == (f == 0 ? 64 : f == 1 ? 81 : 64), "form %d: %d entries", f,
              end[f] - first[f]);
    for (unsigned m = 0; m < 4096; m++) {
        int len[12], n = 0, start = 0;
        for (int i = 0; i < 12; i++)
            if (m >> i & 1) {
                len[n++] = i + 1 - start;
                start = i + 1;
            }
        int form = -1;
        for (int f = 0; f < 3 && form < 0; f++) {
            if (n < FORM_COUNT[f])
                continue;
            int ok = 1;
            for (int c = 0; c < FORM_COUNT[f]; c++)
                ok &= len[c] <= FORM_LONGEST[f];
            if (ok)
                form = f;
        }
        unsigned e = t->index[m];
        if (form < 0) { /* not from valid text: entry 0 by the header's rule */
            CHECK(e == 0 && t->took[0] == 6, "mask %03X (no form): entry %u", m, e);
            continue;
        }
        uint8_t row[16];
        int sum = 0;
        for (int c = 0; c < FORM_COUNT[form]; c++)
            sum += len[c];
        expect_shuffle(len, FORM_COUNT[form], FORM_LANE[form], row);
        int fours = 0; /* the 32-bit forms' rows carry the mark in every byte */
        unsigned lanes4 = 0;
        for (int k = 0; k < 16; k++)
            row[k] |= FORM_LANE[form] == 4 ? UTF8_SHUF_MARK : 0;
        for (int c = 0; c < FORM_COUNT[form]; c++) {
            fours += len[c] == 4;
            lanes4 |= (len[c] == 4) << c;
        }
        CHECK(e < UTF8_SHUF_ENTRIES && t->pair_lanes[e] == lanes4,
              "mask %03X: entry %u's lanes of 4-byte characters", m, e);
        CHECK(e < UTF8_SHUF_ENTRIES &&
                  t->units[e] == (FORM_COUNT[form] | (FORM_COUNT[form] + fours) << 4),
              "mask %03X: entry %u's units", m, e);
        CHECK((int)e >= first[form] && (int)e < end[form], "mask %03X: entry %u not of form %d",
              m, e, form);
        CHECK(e < UTF8_SHUF_ENTRIES && t->took[e] == sum, "mask %03X: takes %u bytes, not %d", m,
              e < UTF8_SHUF_ENTRIES ? t->took[e] : 0, sum);
        CHECK(e < UTF8_SHUF_ENTRIES && memcmp(t->shuffle[e], row, 16) == 0,
              "mask %03X: entry %u's shuffle", m, e);
    }
    CHECK(t->index[UTF8_SHUF_ALL3_MASK] == UTF8_SHUF_ALL3 && UTF8_SHUF_ALL3_MASK == 0x924,
          "whole 3-byte window");
    CHECK(t->index[UTF8_SHUF_ALL4_MASK] == UTF8_SHUF_ALL4 && UTF8_SHUF_ALL4_MASK == 0x888,
          "whole 4-byte window");
    for (unsigned p = 0; p < 16; p++) {
        uint8_t row[16];
        int k = 0;
        memset(row, 0x80, 16);
        for (int lane = 0; lane < 4; lane++)
            for (int b = 0; b < (p >> lane & 1 ? 4 : 2); b++)
                row[k++] = (uint8_t)(4 * lane + b);
        CHECK(memcmp(t->pairs[p], row, 16) == 0, "pair row %u", p);
    }
}

/* ------------------------------------------------------ the window step */

static size_t enc8(uint32_t c, uint8_t *p)
{
    if (c < 0x80) {
        p[0] = (uint8_t)c;
        return 1;
    }
    if (c < 0x800) {
        p[0] = (uint8_t)(0xC0 | c >> 6);
        p[1] = (uint8_t)(0x80 | (c & 0x3F));
        return 2;
    }
    if (c < 0x10000) {
        p[0] = (uint8_t)(0xE0 | c >> 12);
        p[1] = (uint8_t)(0x80 | (c >> 6 & 0x3F));
        p[2] = (uint8_t)(0x80 | (c & 0x3F));
        return 3;
    }
    p[0] = (uint8_t)(0xF0 | c >> 18);
    p[1] = (uint8_t)(0x80 | (c >> 12 & 0x3F));
    p[2] = (uint8_t)(0x80 | (c >> 6 & 0x3F));
    p[3] = (uint8_t)(0x80 | (c & 0x3F));
    return 4;
}

static const uint32_t EDGES[4][6] = {
    {0x00, 0x01, 0x41, 0x7E, 0x7F, 0x20},
    {0x80, 0x81, 0x3FF, 0x400, 0x7FE, 0x7FF},
    {0x800, 0xFFF, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF},
    {0x10000, 0x103FF, 0x10400, 0x1F600, 0x10FFFE, 0x10FFFF},
};

static uint32_t pick(int len, int mode)
{
    static const uint32_t lo[4] = {0, 0x80, 0x800, 0x10000}, hi[4] = {0x7F, 0x7FF, 0xFFFF, 0x10FFFF};
    if (mode == 0)
        return EDGES[len - 1][test_rng_below(&rng, 6)];
    for (;;) {
        uint32_t c = lo[len - 1] + test_rng_below(&rng, hi[len - 1] - lo[len - 1] + 1);
        if (c < 0xD800 || c > 0xDFFF)
            return c;
    }
}

typedef size_t (*window_fn)(const uint8_t *p, uint64_t ends, void *dst, size_t *po, bool u16);

FAST_TARGET_SSE4 static size_t window_sse4(const uint8_t *p, uint64_t ends, void *dst,
                                           size_t *po, bool u16)
{
    return u16 ? mk_window(p, ends, dst, po, true) : mk_window(p, ends, dst, po, false);
}

__attribute__((target("avx2,bmi2"))) static size_t window_avx2(const uint8_t *p, uint64_t ends,
                                                             void *dst, size_t *po, bool u16)
{
    return u16 ? mk_window(p, ends, dst, po, true) : mk_window(p, ends, dst, po, false);
}

/* mk_pair, both lanes: the window under test in each lane in turn, beside
 * OTHER (characters of 4, 1, 2, 3, 4, 3, 2, 1, 4 bytes: its own entry,
 * form and pairs), whose units are checked here; the window's lane's
 * results must agree between the two calls. */
static const uint32_t OTHER[9] = {0x1F600, 0x41, 0x3B1, 0x4E2D, 0x10FFFF, 0xFFFD, 0x7FF, 0x7F,
                                  0x10000};

__attribute__((target("avx2,bmi2"))) static size_t window_pair(const uint8_t *p, uint64_t ends,
                                                             void *dst, size_t *po, bool u16)
{
    uint8_t q[48];
    uint32_t want[16];
    size_t qn = 0, w = 0, wt = 0;
    memset(q, 0, sizeof q);
    for (int c = 0; c < 9; c++) {
        size_t l = enc8(OTHER[c], q + qn);
        qn += l;
        if (c < 3) { /* its first three: a 4-byte one in the first four, the three-form */
            wt += l;
            if (!u16 || OTHER[c] < 0x10000) {
                want[w++] = OTHER[c];
            } else {
                want[w++] = (OTHER[c] - 0x10000) >> 10 | 0xD800;
                want[w++] = ((OTHER[c] - 0x10000) & 0x3FF) | 0xDC00;
            }
        }
    }
    unsigned qm = 0;
    for (int k = 0; k < 16; k++)
        qm |= (unsigned)!(q[k + 1] >= 0x80 && q[k + 1] <= 0xBF) << k;
    uint32_t a[2][16], b[2][16];
    size_t oa[2] = {0, 0}, ob[2] = {0, 0}, ta[2], tb[2];
    memset(a, 0xA5, sizeof a);
    memset(b, 0xA5, sizeof b);
    if (u16) {
        mk_pair((struct mk_win){p, (unsigned)ends, a[0], &oa[0], &ta[0]},
                (struct mk_win){q, qm, b[0], &ob[0], &tb[0]}, true, false);
        mk_pair((struct mk_win){q, qm, b[1], &ob[1], &tb[1]},
                (struct mk_win){p, (unsigned)ends, a[1], &oa[1], &ta[1]}, true, false);
    } else {
        mk_pair((struct mk_win){p, (unsigned)ends, a[0], &oa[0], &ta[0]},
                (struct mk_win){q, qm, b[0], &ob[0], &tb[0]}, false, false);
        mk_pair((struct mk_win){q, qm, b[1], &ob[1], &tb[1]},
                (struct mk_win){p, (unsigned)ends, a[1], &oa[1], &ta[1]}, false, false);
    }
    size_t us = u16 ? 2 : 4, clean = 1;
    for (int k = 0; k < 2; k++) {
        int same = tb[k] == wt && ob[k] == w;
        for (size_t j = 0; same && j < w; j++)
            same = (u16 ? ((uint16_t *)b[k])[j] : b[k][j]) == want[j];
        CHECK(same,
              "avx2 pair: the other window in lane %d", 1 - k);
        for (size_t j = 8 * us; j < sizeof b[k]; j++)
            clean &= ((uint8_t *)a[k])[j] == 0xA5 && ((uint8_t *)b[k])[j] == 0xA5;
    }
    CHECK(clean, "avx2 pair: stored past 8 units");
    CHECK(ta[0] == ta[1] && oa[0] == oa[1] && memcmp(a[0], a[1], oa[0] * us) == 0,
          "avx2 pair: the lanes disagree");
    int bmp = 1; /* no 4-byte character taken: the same units without pairs */
    for (size_t k = 0; k < ta[0]; k++)
        bmp &= p[k] < 0xF0;
    if (u16 && bmp) {
        uint16_t c[2][16];
        size_t oc[2] = {0, 0}, tc[2];
        memset(c, 0xA5, sizeof c);
        mk_pair((struct mk_win){p, (unsigned)ends, c[0], &oc[0], &tc[0]},
                (struct mk_win){p, (unsigned)ends, c[1], &oc[1], &tc[1]}, true, true);
        CHECK(tc[0] == ta[0] && tc[1] == ta[0] && oc[0] == oa[0] && oc[1] == oa[0] &&
                  memcmp(c[0], a[0], oa[0] * 2) == 0 && memcmp(c[1], a[0], oa[0] * 2) == 0,
              "avx2 pair: without pairs");
    }
    memcpy((char *)dst + *po * us, a[0], oa[0] * us);
    *po += oa[0];
    return ta[0];
}

/* One window: the lengths len[0..n) (at least 17 bytes), code points by mode. */
static void check_window(window_fn fn, const char *isa, const int *len, int n, int mode)
{
    uint8_t buf[32];
    uint32_t cps[32];
    size_t at[33], pos = 0;
    for (int c = 0; c < n; c++) {
        cps[c] = pick(len[c], mode);
        at[c] = pos;
        pos += enc8(cps[c], buf + pos);
    }
    at[n] = pos;
    uint64_t ends = 0;
    for (int k = 0; k < 16; k++)
        ends |= (uint64_t)!(buf[k + 1] >= 0x80 && buf[k + 1] <= 0xBF) << k;
    for (int u16 = 0; u16 < 2; u16++) {
        uint32_t out[40];
        uint32_t want[40];
        memset(out, 0xA5, sizeof out);
        size_t o = 0, took = fn(buf, ends, out, &o, u16);
        int chars = 0;
        while (chars < n && at[chars] < took)
            chars++;
        CHECK(took > 0 && took <= 16 && at[chars] == took, "%s: took %zu bytes, not whole "
              "characters (lengths %d %d %d...)", isa, took, len[0], len[1], len[2]);
        size_t w = 0;
        for (int c = 0; c < chars; c++) {
            if (!u16 || cps[c] < 0x10000) {
                want[w++] = cps[c];
            } else {
                want[w++] = (cps[c] - 0x10000) >> 10 | 0xD800;
                want[w++] = ((cps[c] - 0x10000) & 0x3FF) | 0xDC00;
            }
        }
        int same = o == w;
        for (size_t k = 0; same && k < w; k++)
            same = (u16 ? ((uint16_t *)out)[k] : out[k]) == want[k];
        CHECK(same, "%s %s: %zu units, want %zu (lengths %d %d %d %d)", isa,
              u16 ? "UTF-16" : "UTF-32", o, w, len[0], len[1], len[2], len[3]);
        /* no store past 16 units */
        size_t bytes = u16 ? 32 : 64;
        int clean = 1;
        for (size_t k = bytes; k < sizeof out; k++)
            clean &= ((uint8_t *)out)[k] == 0xA5;
        CHECK(clean, "%s: stored past 16 units", isa);
    }
}

/* Every sequence of lengths 1-4 that covers 17 bytes. */
static void walk(window_fn fn, const char *isa, int *len, int n, int bytes, long *count)
{
    if (bytes >= 17) {
        for (int mode = 0; mode < 2; mode++)
            check_window(fn, isa, len, n, mode);
        ++*count;
        return;
    }
    for (int l = 1; l <= 4; l++) {
        len[n] = l;
        walk(fn, isa, len, n + 1, bytes + l, count);
    }
}

static void test_windows(window_fn fn, const char *isa)
{
    int len[32];
    long count = 0;
    walk(fn, isa, len, 0, 0, &count);
    printf("test_masked: %s: %ld length sequences\n", isa, count);
}

int main(void)
{
    test_tables();
    if (__builtin_cpu_supports("sse4.1") && __builtin_cpu_supports("ssse3"))
        test_windows(window_sse4, "sse4");
    else
        printf("test_masked: note: no SSE4.1 here, window step not run\n");
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2")) {
        test_windows(window_avx2, "avx2");
        test_windows(window_pair, "avx2 pair");
    }
    else
        printf("test_masked: note: no AVX2 here, window step (VEX) not run\n");
    return check_summary("test_masked");
}
#else
int main(void)
{
    printf("test_masked: not x86-64: nothing to test\n");
    return 0;
}
#endif
