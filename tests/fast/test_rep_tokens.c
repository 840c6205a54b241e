/* SPDX-License-Identifier: MIT */
/* The AVX2 level's replacing windows by blocks of tokens
 * (src/fast/utf8/rep_tokens.h, utfdfa__utf8_rep_tok_avx2) and the slab
 * decoder that calls them (utfdfa__utf8_rep_avx2), brute-forced against
 * the replacing loop of tests/common/plain_dfa.c over the generated tables
 * (utf8_trans, utf8_class, utf8_payload_mask; one U+FFFD per maximal
 * subpart), which the fast paths do not read. Each call must stop where
 * the loop over the whole input stops with the same cap, and leave the
 * same state, partial value, units, output and error count; inputs sit at
 * the end of exact-size heap buffers and outputs have exactly cap units,
 * so AddressSanitizer and valgrind see any access past either.
 *
 * Inputs (the blocks need 72 bytes, so most are 72-300 bytes):
 *   - random bytes, every start offset 0..63 of a 64-aligned buffer and
 *     every end, full room; a few caps around what they need;
 *   - probes: each of a set of first bytes (every range: ASCII, 80-8F,
 *     90-9F, A0-BF, C0-C1, C2-DF, E0, E1-EC, ED, EE-EF, F0, F1-F3, F4,
 *     F5-FF) followed by each of the same set and a third and fourth byte
 *     of a few, in a background of valid text of mixed lengths, at every
 *     position of the first two blocks (tokens across block ends);
 *   - valid text of mixed lengths with one byte flipped to every value of
 *     the set, or one byte dropped (truncated characters), at every position;
 *   - entered inside a character (the state after its first 1-3 bytes);
 *   - every cap from 0 to one past what they need, for some of each.
 * A CPU without AVX2 skips it with a note. */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common.h"
#include "isa.h"
#include "plain_dfa.h"
#include "rng.h"
#include "utf8.gen.h"
#include "utf8_fast.h"

int utfdfa__fast_has(const char *level);
typedef size_t rep_fn(const uint8_t *, size_t, uint32_t *, uint32_t *, uint32_t *, size_t,
                      size_t *, size_t *);
/* The AVX2 functions exist where the SIMD levels do (isa.h); elsewhere
 * main skips before any call. */
#if KERN_X86
rep_fn utfdfa__utf8_rep_tok_avx2, utfdfa__utf8_rep_avx2;
#define REP_TOKENS utfdfa__utf8_rep_tok_avx2
#define REP_SLABS utfdfa__utf8_rep_avx2
#else
#define REP_TOKENS NULL
#define REP_SLABS NULL
#endif

static const struct {
    const char *name;
    rep_fn *f;
} engines[] = {{"tokens", REP_TOKENS}, {"slabs", REP_SLABS}};

/* One of every byte range the grammar tells apart, and its edges. */
static const uint8_t probe[] = {0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0,
                                0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0,
                                0xF1, 0xF3, 0xF4, 0xF5, 0xF8, 0xFF};
enum { NPROBE = sizeof probe };

static struct test_rng rng = {0x2545F4914F6CDD1Du};

/* The replacing loop's tables (tests/common/plain_dfa.h). */
static const struct plain_dfa utf8_plain = PLAIN_DFA(utf8, UTF8);

/* Every engine on src[0..n) from (st0, cp0) with cap units, against the loop. */
static void check(const uint8_t *src, size_t n, uint32_t st0, uint32_t cp0, size_t cap,
                  const char *what, size_t at)
{
    uint32_t *want = xmalloc(cap * 4 + 4);
    uint32_t sw = st0, pw = cp0;
    size_t ww, ew, kw = plain_dfa_replace(&utf8_plain, src, n, &sw, &pw, want, cap, &ww, &ew);
    for (size_t k = 0; k < sizeof engines / sizeof *engines; k++) {
        uint32_t st = st0, cp = cp0;
        uint32_t *exact = xmalloc(cap * 4 + 1); /* exactly cap units: ASan sees one past */
        size_t w = (size_t)-1, e = (size_t)-1;
        size_t kk = engines[k].f(src, n, &st, &cp, exact, cap, &w, &e);
        bool same = kk == kw && st == sw && cp == pw && w == ww && e == ew &&
                    (w == 0 || memcmp(exact, want, w * 4) == 0);
        CHECK(same, "%s: %s at %zu (%zu bytes from state %u, cap %zu): consumed %zu/%zu, "
              "state %u/%u, partial %X/%X, units %zu/%zu, errors %zu/%zu",
              engines[k].name, what, at, n, st0, cap, kk, kw, st, sw, cp, pw, w, ww, e, ew);
        free(exact);
    }
    free(want);
}

/* Units the loop writes with room for all. */
static size_t need(const uint8_t *src, size_t n, uint32_t st, uint32_t cp)
{
    uint32_t *tmp = xmalloc(2 * n * 4 + 8);
    size_t w, e;
    plain_dfa_replace(&utf8_plain, src, n, &st, &cp, tmp, 2 * n + 2, &w, &e);
    free(tmp);
    return w;
}

/* src[0..n) at the end of a buffer of its own size, checked with full
 * room and (caps) a few caps near what it needs, or all (caps > 1). */
static void check_exact(const uint8_t *src, size_t n, int caps, const char *what, size_t at)
{
    uint8_t *copy = dup_exact(src, n);
    size_t u = need(copy, n, UTF8_ACCEPT, 0);
    check(copy, n, UTF8_ACCEPT, 0, u + 1, what, at);
    if (caps == 1) {
        size_t list[] = {0, 1, u / 2, u > 64 ? u - 64 : 0, u > 63 ? u - 63 : 0, u ? u - 1 : 0, u};
        for (size_t c = 0; c < sizeof list / sizeof *list; c++)
            check(copy, n, UTF8_ACCEPT, 0, list[c], what, at);
    } else if (caps > 1) {
        for (size_t c = 0; c <= u; c++)
            check(copy, n, UTF8_ACCEPT, 0, c, what, at);
    }
    free(copy);
}

/* A scalar value as UTF-8 (written here: the encoder under no test). */
static size_t put_utf8(uint8_t *p, uint32_t cp)
{
    int len = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    static const uint8_t mark[5] = {0, 0x00, 0xC0, 0xE0, 0xF0};
    for (int k = len - 1; k > 0; k--, cp >>= 6)
        p[k] = (uint8_t)(0x80 | (cp & 0x3F));
    p[0] = (uint8_t)(mark[len] | cp);
    return (size_t)len;
}

/* Valid text of characters of 1-4 bytes (mixed) into buf; its length. */
static size_t valid_text(uint8_t *buf, size_t len)
{
    size_t n = 0;
    while (n + 4 <= len) {
        uint32_t r = test_rng_u32(&rng), cp;
        switch (r % 4) {
        case 0: cp = r >> 8 & 0x7F; break;
        case 1: cp = 0x80 + (r >> 8) % 0x780; break;
        case 2: cp = 0x800 + (r >> 8) % 0xF800; break;
        default: cp = 0x10000 + (r >> 8) % 0x100000; break;
        }
        if (cp >= 0xD800 && cp <= 0xDFFF)
            cp = 0xFFFD;
        n += put_utf8(buf + n, cp);
    }
    while (n < len)
        buf[n++] = 'a';
    return n;
}

/* Random bytes at every start offset of a 64-aligned buffer and every end. */
static void test_random(int rounds)
{
    enum { LEN = 240 };
    uint8_t *buf;
    if (posix_memalign((void **)&buf, 64, LEN) != 0)
        exit(2);
    for (int r = 0; r < rounds; r++) {
        for (size_t k = 0; k < LEN; k++)
            buf[k] = (uint8_t)test_rng_u32(&rng);
        for (size_t a = 0; a < 64; a++)
            for (size_t b = a + 1; b <= LEN; b += 1 + (b < a + 60 ? 7 : 0))
                check_exact(buf + a, b - a, a % 8 == 0 && b % 16 == 0, "random", a);
    }
    free(buf);
}

/* A probe of 2-4 bytes at every position of the first two blocks of a
 * valid text, and flips and drops in valid text. */
static void test_probes(void)
{
    enum { LEN = 200 };
    uint8_t base[LEN], buf[LEN];
    static const uint8_t third[] = {0x41, 0x80, 0xBF, 0xC2, 0xE0, 0xF0};
    valid_text(base, LEN);
    for (size_t x = 0; x < NPROBE; x++)
        for (size_t y = 0; y < NPROBE; y++)
            for (size_t z = 0; z < sizeof third; z++)
                for (size_t pos = 0; pos < 132; pos += 1 + (x + y + z) % 3) {
                    memcpy(buf, base, LEN);
                    buf[pos] = probe[x];
                    buf[pos + 1] = probe[y];
                    buf[pos + 2] = third[z];
                    buf[pos + 3] = third[(z + pos) % sizeof third];
                    check_exact(buf, LEN, pos % 61 == 0 ? 1 : 0, "probe", pos);
                }
    for (int r = 0; r < 8; r++) {
        valid_text(base, LEN);
        for (size_t pos = 0; pos < LEN; pos++) {
            for (size_t x = 0; x < NPROBE; x++) {
                memcpy(buf, base, LEN);
                buf[pos] = probe[x];
                check_exact(buf, LEN, 0, "flipped", pos);
            }
            memcpy(buf, base, pos);
            memcpy(buf + pos, base + pos + 1, LEN - pos - 1);
            check_exact(buf, LEN - 1, pos % 37 == 0 ? 2 : 0, "dropped", pos);
        }
    }
}

/* Entered inside a character: the loop's state after 1-3 of its bytes. */
static void test_inside(void)
{
    enum { LEN = 160 };
    uint8_t buf[LEN];
    for (int r = 0; r < 200; r++) {
        valid_text(buf, LEN);
        static const uint8_t leads[] = {0xC2, 0xE0, 0xED, 0xE1, 0xF0, 0xF4, 0xF1};
        size_t k = 1 + (size_t)r % 3, at = (size_t)r % 40;
        buf[at] = leads[(size_t)r % sizeof leads];
        for (size_t j = 1; j < k; j++)
            buf[at + j] = (uint8_t)(0x80 + test_rng_u32(&rng) % 0x40);
        if (r % 4 == 0)
            buf[at + k] = (uint8_t)test_rng_u32(&rng);
        uint32_t st = UTF8_ACCEPT, cp = 0, tmp[8];
        size_t w, e, used = plain_dfa_replace(&utf8_plain, buf + at, k, &st, &cp, tmp, 8, &w, &e);
        if (used != k || st == UTF8_ACCEPT || w != 0)
            continue;
        uint8_t *rest = dup_exact(buf + at + k, LEN - at - k);
        size_t u = need(rest, LEN - at - k, st, cp);
        for (size_t c = 0; c <= u + 1; c += r % 5 == 0 ? 1 : 9)
            check(rest, LEN - at - k, st, cp, c, "inside", at);
        free(rest);
    }
}

int main(void)
{
    if (!KERN_X86) {
        printf("test_rep_tokens: no AVX2 level on this ISA: skipped\n");
        return 0;
    }
    if (!utfdfa__fast_has("avx2")) {
        printf("test_rep_tokens: this CPU lacks AVX2: skipped\n");
        return 0;
    }
    bool quick = getenv("TEST_FAST_QUICK") != NULL;
    test_random(quick ? 2 : 12);
    test_probes();
    test_inside();
    return check_summary("test_rep_tokens");
}
