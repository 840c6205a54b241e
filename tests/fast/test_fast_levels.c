/* SPDX-License-Identifier: MIT */
/* The UTF-8 decoders the library calls (utfdfa__utf8_decode32, _decode16,
 * _decode32_replace of src/fast/utf8/; utfdfa__utf8_decode_in_mode of
 * src/decode/utf8_lossy.c replacing into UTF-16 and ignoring), forced to
 * each kernel level in turn
 * (utfdfa__fast_force; a level this CPU lacks is skipped with a note),
 * against the plain per-byte loop (tests/common/plain_dfa.c) over the
 * generated tables (utf8_trans, utf8_class, utf8_payload_mask), which the
 * fast paths do not read. Each call must stop exactly where the plain loop
 * over the whole input stops, with the same cap, and leave the same state,
 * partial value, units written, output and (replacing, ignoring) error
 * count (ignoring may stop early: see check_call);
 * nothing may be written at or past dst[cap] (guard units after it are
 * checked).
 *
 * Inputs: valid text of every script mix (ASCII, 2-, 3-, 4-byte, mixed 1-4,
 * 2-4, 1-3 and 1-2 bytes, ASCII with few 3-byte characters) cut at every
 * length 0..300 (so characters truncated at every end), each at an alignment that goes round 0..63 with the length,
 * every cap from 0 to one past what it needs, and entered in the middle of
 * its first character (the state of the plain loop after 1-3 bytes); every
 * alignment 0..63 with full room; an ill-formed byte at every position of a
 * text of each mix (several kinds of error), with a few caps; long texts
 * (several slabs) with errors and room edges; the corpus (SHARED/corpus/
 * lipsum, read at run time; skipped with a note when absent) whole at a few
 * alignments and fed in chunks as the runtime feeds them.
 *
 * Usage: test_fast_levels [SHARED_DIR]   (default ../shared)
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common.h"
#include "levels.h"
#include "plain_dfa.h"
#include "rng.h"
#include "utf8.gen.h"
#include "utf8_fast.h"
#include "utfdfa.h"

/* src/decode/fast_path.h */
struct utf8_units {
    void *dst;
    size_t cap;
    size_t written;
    size_t errors;
};
size_t utfdfa__utf8_decode_in_mode(enum utfdfa_error_mode mode, unsigned width,
                                   const uint8_t *src, size_t n, uint32_t *state,
                                   uint32_t *partial, struct utf8_units *u);

/* The runtime's UTF-8 paths by mode and width, the units' count and the
 * errors' in *written and *errors. */
static size_t in_mode(enum utfdfa_error_mode mode, unsigned width, const uint8_t *src, size_t n,
                      uint32_t *state, uint32_t *partial, void *dst, size_t cap, size_t *written,
                      size_t *errors)
{
    struct utf8_units u = {dst, cap, 0, 0};
    size_t k = utfdfa__utf8_decode_in_mode(mode, width, src, n, state, partial, &u);
    *written = u.written;
    *errors = u.errors;
    return k;
}

static const char *level_name = "";

/* ------------------------------------------------------- the plain loop */

static const struct plain_dfa utf8_plain = PLAIN_DFA(utf8, UTF8);

/* Strict (mode 0: UTF-32, 1: UTF-16), replacing (2: UTF-32, 3: UTF-16) or
 * ignoring (4: UTF-32, 5: UTF-16). */
enum { NMODES = 6 };
static const char *const mode_names[NMODES] = {"decode32", "decode16", "replace",
                                               "replace16", "ignore32", "ignore16"};

static size_t unit_of(int mode)
{
    return mode % 2 ? 2 : 4;
}

static size_t plain(int mode, const uint8_t *s, size_t n, uint32_t *state, uint32_t *partial,
                    void *dst, size_t cap, size_t *written, size_t *errors)
{
    *errors = 0;
    if (mode == 2)
        return plain_dfa_replace(&utf8_plain, s, n, state, partial, dst, cap, written, errors);
    if (mode == 3)
        return plain_dfa_replace16(&utf8_plain, s, n, state, partial, dst, cap, written, errors);
    if (mode >= 4)
        return plain_dfa_ignore(&utf8_plain, s, n, state, partial, dst, cap, written, errors,
                                mode == 5);
    return plain_dfa_decode(&utf8_plain, s, n, state, partial, dst, cap, written, mode == 1);
}

/* The library's function for `mode`. */
static size_t fast(int mode, const uint8_t *s, size_t n, uint32_t *state, uint32_t *partial,
                   void *dst, size_t cap, size_t *written, size_t *errors)
{
    *errors = 0;
    switch (mode) {
    case 0:
        return utfdfa__utf8_decode32(s, n, state, partial, dst, cap, written);
    case 1:
        return utfdfa__utf8_decode16(s, n, state, partial, dst, cap, written);
    case 2:
        return utfdfa__utf8_decode32_replace(s, n, state, partial, dst, cap, written, errors);
    case 3:
        return in_mode(UTFDFA_REPLACE, 2, s, n, state, partial, dst, cap, written, errors);
    default:
        return in_mode(UTFDFA_IGNORE, mode == 5 ? 2 : 4, s, n, state, partial, dst, cap, written,
                       errors);
    }
}

/* ------------------------------------------------------------- checks */

enum { GUARD = 16 };

/* One call of the library's function for `mode` from (st0, cp0) with cap
 * units, against the plain loop over the whole input. The ignoring ones
 * may stop early (utf8_fast.h) where the room would not hold their errors'
 * U+FFFDs: there, the plain loop goes on from where they stopped, and the
 * two together must be the whole. */
static void check_call(int mode, const uint8_t *src, size_t n, uint32_t st0, uint32_t cp0,
                       size_t cap, const char *what)
{
    size_t unit = unit_of(mode);
    uint8_t *out = xmalloc((cap + GUARD) * unit), *ref = xmalloc((cap + GUARD) * unit);
    memset(out, 0xA5, (cap + GUARD) * unit);
    uint32_t st = st0, cp = cp0, st_p = st0, cp_p = cp0;
    size_t w = (size_t)-1, e = 0, wp, ep;
    size_t k = fast(mode, src, n, &st, &cp, out, cap, &w, &e);
    size_t m = plain(mode, src, n, &st_p, &cp_p, ref, cap, &wp, &ep);
    bool guard = true;
    for (size_t g = cap * unit; g < (cap + GUARD) * unit; g++)
        guard &= out[g] == 0xA5;
    if (mode >= 4 && cap < 2 * n + 2 && k < n && w <= cap) {
        size_t w2, e2;
        k += plain(mode, src + k, n - k, &st, &cp, out + w * unit, cap - w, &w2, &e2);
        w += w2;
        e += e2;
    }
    size_t at = 0;
    if (w == wp)
        while (at < w && memcmp(out + at * unit, ref + at * unit, unit) == 0)
            at++;
    CHECK(k == m && st == st_p && cp == cp_p && w == wp && at == w && e == ep && guard,
          "level %s: %s (%s), %zu bytes from state %u partial %X, cap %zu: consumed %zu/%zu, "
          "state %u/%u, partial %X/%X, written %zu/%zu (first difference at %zu), errors "
          "%zu/%zu%s",
          level_name, mode_names[mode], what, n, st0, cp0, cap, k, m, st, st_p, cp, cp_p, w, wp,
          at, e, ep, guard ? "" : ", wrote at or past cap");
    free(out);
    free(ref);
}

/* Units the plain loop writes with unbounded room (replacing: at most n + 1). */
static size_t need_of(int mode, const uint8_t *src, size_t n, uint32_t st, uint32_t cp)
{
    void *tmp = xmalloc((n + 2) * 4);
    size_t w, e;
    plain(mode, src, n, &st, &cp, tmp, n + 2, &w, &e);
    free(tmp);
    return w;
}

/* src copied to the end of an exact-size buffer at alignment `align`. */
static void check_at(int mode, const uint8_t *src, size_t n, size_t align, uint32_t st0,
                     uint32_t cp0, bool all_caps, const char *what)
{
    uint8_t *base;
    if (posix_memalign((void **)&base, 64, align + n + 1) != 0)
        exit(2);
    uint8_t *p = base + align + 1; /* one byte before it, so n = 0 has an address */
    memcpy(p, src, n);
    size_t need = need_of(mode, p, n, st0, cp0);
    if (all_caps) {
        for (size_t cap = 0; cap <= need + 1; cap++)
            check_call(mode, p, n, st0, cp0, cap, what);
    } else {
        size_t caps[] = {0, 1, need / 2, need ? need - 1 : 0, need, need + 1, need + 64};
        for (size_t c = 0; c < sizeof caps / sizeof *caps; c++)
            check_call(mode, p, n, st0, cp0, caps[c], what);
    }
    if (mode >= 4) /* room for every error's U+FFFD: the ignoring ones must not stop early */
        check_call(mode, p, n, st0, cp0, 2 * n + 2, what);
    free(base);
}

/* ------------------------------------------------------------- inputs */

static struct test_rng rng_state;

/* The next 64 bits of this suite's stream. */
static uint64_t draw(void)
{
    return test_rng_next(&rng_state);
}

/* The encoding form (Unicode 3.9, Table 3-6), written from the spec. */
static size_t put_utf8(uint8_t *p, uint32_t c)
{
    if (c < 0x80)
        return p[0] = (uint8_t)c, 1;
    if (c < 0x800)
        return p[0] = (uint8_t)(0xC0 | c >> 6), p[1] = (uint8_t)(0x80 | (c & 0x3F)), 2;
    if (c < 0x10000)
        return p[0] = (uint8_t)(0xE0 | c >> 12), p[1] = (uint8_t)(0x80 | (c >> 6 & 0x3F)),
               p[2] = (uint8_t)(0x80 | (c & 0x3F)), 3;
    p[0] = (uint8_t)(0xF0 | c >> 18);
    p[1] = (uint8_t)(0x80 | (c >> 12 & 0x3F));
    p[2] = (uint8_t)(0x80 | (c >> 6 & 0x3F));
    p[3] = (uint8_t)(0x80 | (c & 0x3F));
    return 4;
}

/* Mixes: 0 ASCII, 1-3 two-, three-, four-byte, 4 mixed 1-4, 5 mixed 2-4;
 * with no 4-byte characters (the VBMI level's 16-bit blocks into UTF-16,
 * which hold up to 64 characters, in vectors of 32): 6 mixed 1-3, 7 ASCII
 * with a 3-byte character in 8, 8 mixed 1-2. */
enum { MIXES = 9 };
static unsigned mix_length(int mix)
{
    switch (mix) {
    case 4: return (unsigned)(draw() % 4);
    case 5: return 1 + (unsigned)(draw() % 3);
    case 6: return (unsigned)(draw() % 3);
    case 7: return draw() % 8 ? 0 : 2;
    case 8: return (unsigned)(draw() % 2);
    default: return (unsigned)mix;
    }
}
static size_t valid_text(uint8_t *p, size_t len, int mix)
{
    static const uint32_t lo[4] = {0, 0x80, 0x800, 0x10000}, hi[4] = {0x7F, 0x7FF, 0xFFFF, 0x10FFFF};
    size_t n = 0;
    while (n < len) {
        unsigned l = mix_length(mix);
        uint32_t c;
        do
            c = lo[l] + (uint32_t)(draw() % (hi[l] - lo[l] + 1));
        while (c >= 0xD800 && c <= 0xDFFF);
        n += put_utf8(p + n, c);
    }
    return n; /* up to 3 bytes past len: the caller's buffer has room */
}

/* The plain loop's state and partial value after src[0..j) from ACCEPT
 * (false when it rejects). */
static bool state_after(const uint8_t *src, size_t j, uint32_t *st, uint32_t *cp)
{
    size_t w, e;
    uint32_t tmp[4];
    *st = UTF8_ACCEPT;
    *cp = 0;
    return plain(0, src, j, st, cp, tmp, 4, &w, &e) == j;
}

/* ------------------------------------------------------------- parts */

static uint8_t *read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *data = len > 0 ? xmalloc((size_t)len) : NULL;
    if (data && fread(data, 1, (size_t)len, f) != (size_t)len) {
        free(data);
        data = NULL;
    }
    fclose(f);
    *n = data ? (size_t)len : 0;
    return data;
}

static void test_lengths(void)
{
    uint8_t text[400];
    for (int mix = 0; mix < MIXES; mix++) {
        valid_text(text, 320, mix);
        for (size_t len = 0; len <= 300; len++) {
            for (int mode = 0; mode < NMODES; mode++) {
                check_at(mode, text, len, len % 64, UTF8_ACCEPT, 0, true, "prefix of valid text");
                /* Entered inside the first character. */
                for (size_t j = 1; j <= 3 && j <= len; j++) {
                    uint32_t st, cp;
                    if (state_after(text, j, &st, &cp) && st != UTF8_ACCEPT)
                        check_at(mode, text + j, len - j, (len + j) % 64, st, cp, len < 80,
                                 "entered inside a character");
                }
            }
        }
        for (size_t align = 0; align < 64; align++)
            for (int mode = 0; mode < NMODES; mode++)
                check_at(mode, text, 300, align, UTF8_ACCEPT, 0, false, "every alignment");
    }
}

/* An ill-formed byte at every position, of each kind in turn. */
static void test_errors(void)
{
    static const uint8_t bad[] = {0x80, 0xBF, 0xC0, 0xC1, 0xF5, 0xFF, 0xE0, 0xED, 0xF4, 0xC3};
    uint8_t text[300];
    for (int mix = 0; mix < MIXES; mix++) {
        size_t n = valid_text(text, 200, mix);
        for (size_t p = 0; p < n; p++) {
            uint8_t c[300];
            memcpy(c, text, n);
            c[p] = bad[(p + (size_t)mix) % sizeof bad];
            for (int mode = 0; mode < NMODES; mode++)
                check_at(mode, c, n, p % 64, UTF8_ACCEPT, 0, false, "an error at each position");
        }
    }
}

/* Long texts: several slabs, an error or two somewhere, room edges. */
static void test_long(void)
{
    enum { MAX = 20000 };
    uint8_t *text = xmalloc(MAX + 8);
    for (int t = 0; t < 60; t++) {
        size_t n = valid_text(text, 4000 + draw() % (MAX - 4000), (int)(draw() % MIXES));
        int errors = (int)(draw() % 3);
        for (int e = 0; e < errors; e++)
            text[draw() % n] = (uint8_t)(0x80 + draw() % 0x80);
        for (int mode = 0; mode < NMODES; mode++)
            check_at(mode, text, n, (size_t)t % 64, UTF8_ACCEPT, 0, false, "long text");
    }
    /* Text with an error every few bytes (the replacing windows' blocks:
     * subparts of every length, characters across their edges); in every
     * other one, U+FFFDs of its own among them, which the ignoring
     * decoders must keep. */
    for (int t = 0; t < 40; t++) {
        size_t n = valid_text(text, 300 + draw() % 8000, (int)(draw() % MIXES));
        for (size_t e = draw() % 8; e < n; e += 1 + draw() % 24)
            text[e] = (uint8_t)(0x80 + draw() % 0x80);
        for (size_t r = draw() % 64; t % 2 && r + 3 <= n; r += 1 + draw() % 700)
            memcpy(text + r, "\xEF\xBF\xBD", 3);
        for (int mode = 2; mode < NMODES; mode++)
            check_at(mode, text, n, (size_t)t % 64, UTF8_ACCEPT, 0, false,
                     t % 2 ? "dense errors and U+FFFDs" : "dense errors");
    }
    /* Random bytes (the replacing decoder's dense errors). */
    for (int t = 0; t < 20; t++) {
        size_t n = 1 + draw() % MAX;
        for (size_t i = 0; i < n; i++)
            text[i] = (uint8_t)(draw() >> 56);
        for (int mode = 0; mode < NMODES; mode++)
            check_at(mode, text, n, (size_t)t % 64, UTF8_ACCEPT, 0, false, "random bytes");
    }
    free(text);
}

/* The corpus file whole at a few alignments, and in chunks: the library's
 * function, then the plain loop to the chunk's end, state carried over;
 * the output must be the whole input's. */
/* Error mode 3 (only a corrupted decoder has it) drops errors, as the plain
 * loop does (convert() replaces for UTFDFA_REPLACE only): as UTFDFA_IGNORE. */
static void test_mode_three(void)
{
    enum { N = 3000 };
    uint8_t *text = xmalloc(N);
    uint32_t *a = xmalloc(N * 4), *b = xmalloc(N * 4);
    for (size_t i = 0; i < N; i++)
        text[i] = (uint8_t)(draw() >> 56);
    for (unsigned width = 2; width <= 4; width += 2) {
        uint32_t sa = UTF8_ACCEPT, pa = 0, sb = UTF8_ACCEPT, pb = 0;
        size_t wa, ea, wb, eb;
        size_t ka = in_mode((enum utfdfa_error_mode)3, width, text, N, &sa, &pa, a, N, &wa, &ea);
        size_t kb = in_mode(UTFDFA_IGNORE, width, text, N, &sb, &pb, b, N, &wb, &eb);
        CHECK(ka == kb && sa == sb && pa == pb && wa == wb && ea == eb &&
                  memcmp(a, b, wa * width) == 0,
              "level %s: error mode 3, width %u: not as UTFDFA_IGNORE", level_name, width);
    }
    free(text);
    free(a);
    free(b);
}

static void test_corpus_file(const char *path, const char *name)
{
    size_t n;
    uint8_t *data = read_file(path, &n);
    if (!data) {
        fail("cannot read %s", path);
        return;
    }
    static const size_t aligns[] = {0, 1, 7, 33, 63};
    for (size_t a = 0; a < sizeof aligns / sizeof *aligns; a++)
        for (int mode = 0; mode < NMODES; mode++)
            check_at(mode, data, n, aligns[a], UTF8_ACCEPT, 0, false, name);
    static const size_t chunks[] = {1, 3, 61, 64, 100, 4096, 5000};
    uint32_t *whole = xmalloc((n + 1) * 4), *got = xmalloc((n + 1) * 4);
    for (int mode = 0; mode < NMODES; mode++) {
        uint32_t st = UTF8_ACCEPT, cp = 0;
        size_t wn, e;
        plain(mode, data, n, &st, &cp, whole, n + 1, &wn, &e);
        for (size_t c = 0; c < sizeof chunks / sizeof *chunks; c++) {
            uint32_t s2 = UTF8_ACCEPT, p2 = 0;
            size_t o = 0, pos = 0, unit = unit_of(mode);
            bool ok = true;
            while (pos < n && ok) {
                size_t len = n - pos < chunks[c] ? n - pos : chunks[c], w = 0, w2 = 0, e2 = 0;
                uint8_t *chunk = dup_exact(data + pos, len);
                void *d = (uint8_t *)got + o * unit;
                size_t k = fast(mode, chunk, len, &s2, &p2, d, n + 1 - o, &w, &e2);
                ok = k <= len && w <= n + 1 - o;
                if (ok) {
                    o += w;
                    k += plain(mode, chunk + k, len - k, &s2, &p2, (uint8_t *)got + o * unit,
                               n + 1 - o, &w2, &e2);
                    o += w2;
                    ok = k == len;
                }
                free(chunk);
                pos += len;
            }
            CHECK(ok && o == wn && memcmp(got, whole, wn * unit) == 0 && s2 == st,
                  "level %s: %s of %s in chunks of %zu: %zu units, want %zu", level_name,
                  mode_names[mode], name, chunks[c], o, wn);
        }
    }
    free(whole);
    free(got);
    free(data);
}

static void test_corpus(const char *shared)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/corpus/lipsum", shared);
    DIR *d = opendir(dir);
    if (!d) {
        printf("test_fast_levels: %s is absent: corpus part skipped\n", dir);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l < 9 || strcmp(e->d_name + l - 9, ".utf8.txt") != 0)
            continue;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        test_corpus_file(path, e->d_name);
    }
    closedir(d);
}

static void run_level(const char *level, void *shared)
{
    level_name = level;
    rng_state = (struct test_rng){0x243F6A8885A308D3u}; /* the same inputs at every level */
    test_lengths();
    test_errors();
    test_long();
    test_mode_three();
    test_corpus(shared);
}

int main(int argc, char **argv)
{
    each_fast_level("test_fast_levels", run_level, argc > 1 ? argv[1] : "../shared");
    return check_summary("test_fast_levels");
}
