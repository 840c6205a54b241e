/* SPDX-License-Identifier: MIT */
/* The fused kernel (utfdfa__wide_transcode, src/fast/): UTF-16 and UTF-32
 * of either byte order into UTF-8 and into the other width, at every level
 * this machine runs (forced in turn) and the scalar level's table called
 * directly, against an oracle written here from the encoding forms'
 * definitions (one unit at a time, no shared code). Lengths 0..300 code
 * points of ten profiles (ASCII, up to U+07FF, the BMP, everything, ASCII
 * with a few others, supplementary only, 3-byte forms only, the BMP with a
 * few supplementary ones: the AVX2 kernel's hand-overs to the SSE4 one;
 * the length classes' edges, runs of one class), every source and destination
 * alignment mod 32 at every length, every destination size for the short
 * lengths and the sizes around the SIMD steps' needs for the long ones;
 * at every position a lone high or low surrogate, a high before a high, a
 * bad UTF-32 unit; input cut at every unit (pairs split by the end) and
 * partial units; 6000-code-point texts of long supplementary runs (the
 * SSE4 kernel's growing chunks). Buffers are allocated to their exact size (ASan sees any
 * access past them) and the destination past what the kernel reports
 * written must be untouched.
 *
 * Then utfdfa_transcode itself, where the fused pairs are wired in: long
 * text with errors, fed in chunks of random sizes into random output room,
 * strict and replacing, every source and target around the fused pairs;
 * each level's results, counts, error offsets and bytes must be the scalar
 * level's (which fuses nothing: the path every pair took before).
 *
 *   test_wide        (TEST_KERNELS_QUICK=1: fewer lengths and alignments, for sanitizers) */
#include "fast/levels.h"
#include "check.h"
#include "common.h"
#include "levels.h"
#include "rng.h"
#include "utfdfa.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const form_names[] = {"utf-8", "utf-16le", "utf-16be", "utf-32le", "utf-32be"};
#define MAX_LEVELS 8
static const char *levels[MAX_LEVELS];
static int n_levels, quick;

/* ------------------------------------------------------------ the oracle */
static size_t o_unit(enum fast_form f) { return f == FORM_UTF8 ? 1 : f <= FORM_UTF16BE ? 2 : 4; }
static int o_big(enum fast_form f) { return f == FORM_UTF16BE || f == FORM_UTF32BE; }

static uint32_t o_read(enum fast_form f, const uint8_t *p)
{
    uint32_t v = 0;
    for (size_t k = 0, u = o_unit(f); k < u; k++)
        v |= (uint32_t)p[o_big(f) ? u - 1 - k : k] << (8 * k);
    return v;
}

static void o_write(enum fast_form f, uint8_t *p, uint32_t v)
{
    for (size_t k = 0, u = o_unit(f); k < u; k++)
        p[o_big(f) ? u - 1 - k : k] = (uint8_t)(v >> (8 * k));
}

/* c's bytes in form f (UTF-8: RFC 3629's table; UTF-16: a pair above U+FFFF). */
static size_t o_encode(enum fast_form f, uint32_t c, uint8_t out[4])
{
    if (f == FORM_UTF8) {
        if (c < 0x80) {
            out[0] = (uint8_t)c;
            return 1;
        }
        size_t len = c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
        for (size_t k = len - 1; k > 0; k--, c /= 64)
            out[k] = (uint8_t)(0x80 + c % 64);
        out[0] = (uint8_t)((0xF00u >> len) + c);
        return len;
    }
    if (o_unit(f) == 2 && c >= 0x10000) {
        o_write(f, out, 0xD800 + (c - 0x10000) / 0x400);
        o_write(f, out + 2, 0xDC00 + (c - 0x10000) % 0x400);
        return 4;
    }
    o_write(f, out, c);
    return o_unit(f);
}

struct job {
    enum fast_form from, to;
    const uint8_t *src;
    size_t src_len, dst_len;
    unsigned sa, da;
};

/* What the kernel must return, write (*wr bytes) and put in exp. */
static size_t oracle(const struct job *j, uint8_t *exp, size_t *wr)
{
    size_t i = 0, w = 0, unit = o_unit(j->from);
    uint8_t bytes[4];
    while (i + unit <= j->src_len) {
        uint32_t c = o_read(j->from, j->src + i);
        size_t used = unit;
        if (unit == 2 && c >= 0xD800 && c < 0xE000) {
            if (c >= 0xDC00 || i + 4 > j->src_len)
                break;
            uint32_t low = o_read(j->from, j->src + i + 2);
            if (low < 0xDC00 || low >= 0xE000)
                break;
            c = 0x10000 + (c - 0xD800) * 0x400 + (low - 0xDC00);
            used = 4;
        } else if (c >= 0x110000 || (c >= 0xD800 && c < 0xE000)) {
            break;
        }
        size_t len = o_encode(j->to, c, bytes);
        if (w + len > j->dst_len)
            break;
        memcpy(exp + w, bytes, len);
        w += len;
        i += used;
    }
    *wr = w;
    return i;
}

/* ---------------------------------------------------------- the harness */
/* What dst holds before a call at offset k: no two near bytes alike. */
static uint8_t guard_byte(size_t k)
{
    return (uint8_t)(0xA5 ^ (k * 37) ^ (k >> 8));
}

static void run(const struct job *j)
{
    size_t sa = j->sa % 32, da = j->da % 32;
    uint8_t *sbuf = xmalloc(sa + j->src_len), *dbuf = xmalloc(da + j->dst_len);
    uint8_t *exp = xmalloc(j->dst_len);
    memcpy(sbuf + sa, j->src, j->src_len);
    size_t exp_wr, exp_ret = oracle(j, exp, &exp_wr);
    for (int l = -1; l < n_levels; l++) {
        const char *name = l < 0 ? "scalar table" : levels[l];
        if (l >= 0)
            utfdfa__fast_force(levels[l]);
        for (size_t k = 0; k < da + j->dst_len; k++) /* each byte its own: a kernel that puts */
            dbuf[k] = guard_byte(k);                      /* back bytes from elsewhere is seen */
        size_t wr = (size_t)-1, ret;
        if (l < 0)
            ret = utfdfa__fast_scalar.wide_transcode(j->from, j->to, sbuf + sa, j->src_len,
                                                      dbuf + da, j->dst_len, &wr);
        else
            ret = utfdfa__wide_transcode(j->from, j->to, sbuf + sa, j->src_len, dbuf + da,
                                         j->dst_len, &wr);
        int ok = ret == exp_ret && wr == exp_wr && memcmp(dbuf + da, exp, exp_wr) == 0;
        for (size_t k = exp_wr; ok && k < j->dst_len; k++)
            ok = dbuf[da + k] == guard_byte(da + k);
        CHECK(ok, "%s: %s -> %s, src %zu (align %zu), dst %zu (align %zu): returned %zu written "
                  "%zu, want %zu and %zu%s", name, form_names[j->from], form_names[j->to],
              j->src_len, sa, j->dst_len, da, ret, wr, exp_ret, exp_wr,
              ret == exp_ret && wr == exp_wr ? " (output differs or written past)" : "");
    }
    free(sbuf);
    free(dbuf);
    free(exp);
}

/* ------------------------------------------------------------- inputs */
static struct test_rng rng = {0x2545F4914F6CDD1Du};

/* A scalar value: profile 0 ASCII, 1 up to U+07FF, 2 the BMP, 3 anything,
 * 4 ASCII with an occasional other, 5 supplementary only, 6 3-byte forms
 * only (the SIMD steps' paths for one shape of character), 7 the BMP with
 * an occasional supplementary one, 8 the values at the edges of the
 * length classes and of the surrogate block, 9 runs of 8-40 code points of
 * one class (ASCII, 2-byte, 3-byte forms, supplementary), so that steps
 * change path, and the AVX2 kernel's runs hand over, at every offset. */
#define PROFILES 10
static uint32_t run_class, run_left;
static uint32_t random_cp(int profile)
{
    static const uint32_t edges[] = {0x00, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFF,
                                     0x10000, 0x10FFFF, 0xFFFD, 0xFEFF};
    uint32_t c;
    switch (profile) {
    case 8:
        return test_rng_below(&rng, 4) ? edges[test_rng_below(&rng, sizeof edges / sizeof edges[0])]
                                       : random_cp(3);
    case 9:
        if (run_left == 0) {
            run_class = test_rng_below(&rng, 4);
            run_left = 8 + test_rng_below(&rng, 33);
        }
        run_left--;
        return run_class == 3 ? random_cp(5) : random_cp(run_class == 2 ? 6 : (int)run_class);
    case 0: return test_rng_below(&rng, 0x80);
    case 1:
        return test_rng_below(&rng, 3) ? 0x80 + test_rng_below(&rng, 0x780) : test_rng_below(&rng, 0x80);
    case 2:
        c = test_rng_below(&rng, 4) ? 0x800 + test_rng_below(&rng, 0xF800) : test_rng_below(&rng, 0x800);
        break;
    case 3:
        c = test_rng_below(&rng, 3) == 0 ? 0x10000 + test_rng_below(&rng, 0x100000)
                                         : random_cp((int)test_rng_below(&rng, 3));
        break;
    case 4: return test_rng_below(&rng, 8) ? test_rng_below(&rng, 0x80) : random_cp(3);
    case 5: return 0x10000 + test_rng_below(&rng, 0x100000);
    case 7:
        return test_rng_below(&rng, 24) ? random_cp(2) : 0x10000 + test_rng_below(&rng, 0x100000);
    default: c = 0x800 + test_rng_below(&rng, 0xF800); break;
    }
    return c >= 0xD800 && c < 0xE000 ? c - 0x1000 : c;
}

#define MAX_LEN 300
static uint32_t cps[MAX_LEN];
static uint8_t text[MAX_LEN * 4 + 8];
static unsigned turn;

static size_t encode_all(enum fast_form f, size_t n, uint8_t *out)
{
    size_t w = 0;
    for (size_t i = 0; i < n; i++)
        w += o_encode(f, cps[i], out + w);
    return w;
}

static void job(enum fast_form from, enum fast_form to, size_t src_len, size_t dst_len,
                unsigned sa, unsigned da)
{
    struct job j = {from, to, text, src_len, dst_len, sa, da};
    run(&j);
}

/* The destination sizes around `need`: all of them up to need + 1 for
 * short text, else the edges and the SIMD steps' thresholds below need. */
static void sizes(enum fast_form from, enum fast_form to, size_t bytes, size_t need, size_t len)
{
    if (len <= (quick ? 20u : 48u)) {
        for (size_t d = 0; d <= need + 1; d++, turn++)
            job(from, to, bytes, d, turn, turn * 7 + 3);
        return;
    }
    for (size_t back = 0; back <= 130 && back <= need; back += quick ? 7 : 1, turn++)
        job(from, to, bytes, need - back, turn, turn * 5 + 1);
    for (size_t d = 0; d < 8; d++, turn++)
        job(from, to, bytes, d * need / 8, turn, turn * 3);
}

static void valid_text(enum fast_form from, enum fast_form to)
{
    for (int profile = 0; profile < PROFILES; profile++)
        for (size_t len = 0; len <= MAX_LEN; len += quick && len > 40 ? 7 : 1) {
            for (size_t i = 0; i < len; i++)
                cps[i] = random_cp(profile);
            size_t bytes = encode_all(from, len, text);
            uint8_t scratch[MAX_LEN * 4 + 8];
            size_t need = encode_all(to, len, scratch);
            for (unsigned sa = 0; sa < 32; sa += quick ? 5 : 1)
                job(from, to, bytes, need + test_rng_below(&rng, 70), sa, sa * 11 + (unsigned)len);
            sizes(from, to, bytes, need, len);
            text[bytes] = test_rng_byte(&rng); /* a partial unit */
            job(from, to, bytes + 1 + test_rng_below(&rng, (uint32_t)o_unit(from) - 1), 4 * need + 4,
                turn++, 0);
            /* cut at every unit: pairs split by the end */
            if (len <= (quick ? 24u : 80u) || len == MAX_LEN)
                for (size_t cut = 0; cut < bytes; cut += o_unit(from), turn++)
                    job(from, to, cut, 4 * need, turn, turn * 3 + 1);
        }
}

/* At every position p of valid text, a unit the kernel must stop before. */
static void bad_units(enum fast_form from, enum fast_form to)
{
    static const uint32_t bad32[] = {0x110000, 0xD800, 0xDFFF, 0xFFFFFFFF, 0x80000000, 0xDBFF};
    size_t unit = o_unit(from);
    for (size_t len = 1; len <= MAX_LEN; len++) {
        if (len > (quick ? 40u : 140u) && len != MAX_LEN && len % 64 != 0)
            continue;
        for (size_t p = 0; p < len; p++) {
            int profile = (int)((p + len) % PROFILES);
            for (size_t i = 0; i < len; i++)
                cps[i] = random_cp(profile == 5 ? 3 : profile);
            cps[p] = 'x'; /* one unit wide in either form */
            size_t bytes = encode_all(from, p, text), at = bytes;
            bytes += encode_all(from, 1, text + bytes); /* placeholder, overwritten */
            uint8_t *q = text + at;
            if (unit == 4) {
                o_write(from, q, bad32[(p + len) % 6]);
            } else {
                switch ((p + len) % 4) {
                case 0: o_write(from, q, 0xD800 + test_rng_below(&rng, 0x400)); break; /* lone high */
                case 1: o_write(from, q, 0xDC00 + test_rng_below(&rng, 0x400)); break; /* lone low */
                case 2: /* a high before a high */
                    o_write(from, q, 0xDBFF);
                    o_write(from, q + 2, 0xD800);
                    bytes += 2;
                    break;
                default: /* a high before a BMP unit */
                    o_write(from, q, 0xD83D);
                    o_write(from, q + 2, 0x41 + test_rng_below(&rng, 0x7000));
                    bytes += 2;
                    break;
                }
            }
            /* the rest of the text after it */
            for (size_t i = p + 1; i < len; i++)
                bytes += o_encode(from, cps[i], text + bytes);
            turn++;
            job(from, to, bytes, 4 * bytes + (turn % 3 == 0 ? 0 : 64), turn, turn * 13);
        }
    }
}

/* Long text for the AVX2 kernel's runs and its hand-overs to the SSE4
 * kernel, whose chunks grow to 4 KiB over supplementary text: runs of BMP
 * text and of supplementary characters, short or up to 2000 long, a bad
 * unit somewhere in every third text, the output room ample or cut
 * anywhere. */
#define LONG_CPS 6000
static void long_text(enum fast_form from, enum fast_form to)
{
    static uint8_t big[LONG_CPS * 4 + 8];
    size_t unit = o_unit(from);
    for (int round = 0; round < (quick ? 6 : 30); round++) {
        size_t n = 0, bytes = 0;
        while (n < LONG_CPS) {
            int sup = (int)test_rng_below(&rng, 2);
            size_t len = 1 + test_rng_below(&rng, round % 2 ? 2000 : 60);
            for (size_t k = 0; k < len && n < LONG_CPS; k++, n++)
                bytes += o_encode(from, random_cp(sup ? 5 : (int)test_rng_below(&rng, 3)), big + bytes);
        }
        if (round % 3 == 1)
            o_write(from, big + test_rng_below(&rng, (uint32_t)(bytes / unit)) * unit,
                    unit == 2 ? 0xDC00 + test_rng_below(&rng, 0x400)
                              : 0x110000 + test_rng_below(&rng, 99));
        struct job j = {from, to, big, bytes, 4 * bytes, (unsigned)round, (unsigned)round * 7};
        run(&j);
        j.dst_len = test_rng_below(&rng, (uint32_t)(4 * bytes));
        run(&j);
    }
}

/* ------------------------------------------- utfdfa_transcode, chunked */
struct trace {
    uint8_t out[MAX_LEN * 64];
    size_t n;
    uint64_t events[4096];
    size_t ne;
};

/* Feeds src[0..n) to utfdfa_transcode in chunks and output room drawn
 * from `seed`, until the end or an error in strict mode; records every
 * call's result, counts and error, and the output. */
static void drive(enum utfdfa_encoding from, enum utfdfa_encoding to, enum utfdfa_error_mode mode,
                  enum utfdfa_bom bom, const uint8_t *src, size_t n, uint64_t seed, struct trace *t)
{
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, from, mode, bom);
    uint8_t buf[512];
    size_t pos = 0;
    struct test_rng cuts = {seed};
    t->n = t->ne = 0;
    for (int calls = 0; calls < 20000 && t->ne + 4 < sizeof t->events / 8; calls++) {
        uint64_t bits = test_rng_next(&cuts);
        size_t chunk = (bits >> 33) % 4 == 0 ? n - pos : kern_min(n - pos, (bits >> 40) % 700);
        size_t room = (bits >> 20) % 3 == 0 ? (bits >> 24) % 9 : 40 + (bits >> 24) % 470;
        size_t m = chunk, o = room;
        utfdfa_error e = {0, 0, UTFDFA_ERR_NONE};
        bool last = pos + chunk == n;
        utfdfa_result r = utfdfa_transcode(&d, to, src + pos, &m, buf, &o, last, &e);
        memcpy(t->out + t->n, buf, o);
        t->n += o;
        pos += m;
        t->events[t->ne++] = (uint64_t)r << 48 | (uint64_t)m << 24 | o;
        if (r == UTFDFA_MALFORMED)
            t->events[t->ne++] = e.offset << 16 | (uint64_t)e.length << 8 | (uint64_t)e.kind;
        if (r == UTFDFA_MALFORMED || (r == UTFDFA_INPUT_EMPTY && last))
            return;
    }
}

static void test_transcode(void)
{
    static const enum utfdfa_encoding froms[] = {UTFDFA_UTF16LE, UTFDFA_UTF16BE, UTFDFA_UTF32LE,
                                                 UTFDFA_UTF32BE, UTFDFA_UCS4LE};
    static const enum fast_form forms[] = {FORM_UTF16LE, FORM_UTF16BE, FORM_UTF32LE, FORM_UTF32BE,
                                           FORM_UTF32LE};
    static const enum utfdfa_encoding tos[] = {UTFDFA_UTF8, UTFDFA_WTF8, UTFDFA_UTF8_RFC2279,
                                               UTFDFA_CESU8, UTFDFA_UTF32LE, UTFDFA_UTF32BE,
                                               UTFDFA_UCS4BE, UTFDFA_UTF16LE, UTFDFA_UTF16};
    static struct trace ref, got;
    int runs = quick ? 12 : 60;
    for (size_t f = 0; f < sizeof froms / sizeof froms[0]; f++)
        for (int run = 0; run < runs; run++) {
            size_t len = test_rng_below(&rng, MAX_LEN), bytes = 0, unit = o_unit(forms[f]);
            for (size_t i = 0; i < len; i++) {
                uint32_t c = random_cp(run % PROFILES);
                if (test_rng_below(&rng, run % 3 == 0 ? 40 : 400) == 0) {
                    /* an error, or a value only UCS-4 holds */
                    if (unit == 2 || test_rng_below(&rng, 2))
                        c = 0xD800 + test_rng_below(&rng, 0x800);
                    else
                        c = 0x110000 + test_rng_below(&rng, 99);
                }
                bytes += unit == 2 && c >= 0xD800 && c < 0xE000
                             ? (o_write(forms[f], text + bytes, c), 2)
                             : o_encode(forms[f], c, text + bytes);
            }
            if (run % 7 == 0)
                text[bytes++] = 0x41; /* a partial unit at the end */
            for (size_t k = 0; k < sizeof tos / sizeof tos[0]; k++) {
                enum utfdfa_error_mode mode = run % 2 ? UTFDFA_REPLACE : UTFDFA_STRICT;
                enum utfdfa_bom bom = run % 4 == 1 ? UTFDFA_BOM_STRIP : UTFDFA_BOM_KEEP;
                uint64_t seed = 0x5EEDu + (uint64_t)run * 977 + k * 31 + f;
                utfdfa__fast_force("scalar");
                drive(froms[f], tos[k], mode, bom, text, bytes, seed, &ref);
                for (int l = 1; l < n_levels; l++) {
                    utfdfa__fast_force(levels[l]);
                    drive(froms[f], tos[k], mode, bom, text, bytes, seed, &got);
                    CHECK(got.n == ref.n && got.ne == ref.ne && memcmp(got.out, ref.out, ref.n) == 0 &&
                              memcmp(got.events, ref.events, 8 * ref.ne) == 0,
                          "%s: utfdfa_transcode %d -> %d, %zu bytes, run %d: differs from scalar "
                          "(%zu/%zu bytes, %zu/%zu calls)", levels[l], (int)froms[f], (int)tos[k],
                          bytes, run, got.n, ref.n, got.ne, ref.ne);
                }
            }
        }
}

int main(void)
{
    const char *const *all = fast_level_names;
    _Static_assert(FAST_LEVELS <= MAX_LEVELS, "room for every level");
    quick = getenv("TEST_KERNELS_QUICK") != NULL;
    for (size_t k = 0; k < fast_level_count; k++)
        if (utfdfa__fast_force(all[k]))
            levels[n_levels++] = all[k];
    printf("test_wide: levels:");
    for (int l = 0; l < n_levels; l++)
        printf(" %s", levels[l]);
    printf("%s\n", quick ? " (quick)" : "");
    static const enum fast_form pairs[][2] = {
        {FORM_UTF16LE, FORM_UTF8},    {FORM_UTF16BE, FORM_UTF8},    {FORM_UTF32LE, FORM_UTF8},
        {FORM_UTF32BE, FORM_UTF8},    {FORM_UTF16LE, FORM_UTF32LE}, {FORM_UTF16LE, FORM_UTF32BE},
        {FORM_UTF16BE, FORM_UTF32LE}, {FORM_UTF16BE, FORM_UTF32BE}, {FORM_UTF32LE, FORM_UTF16LE},
        {FORM_UTF32LE, FORM_UTF16BE}, {FORM_UTF32BE, FORM_UTF16LE}, {FORM_UTF32BE, FORM_UTF16BE},
        {FORM_UTF16LE, FORM_UTF16LE}, {FORM_UTF16LE, FORM_UTF16BE}, {FORM_UTF16BE, FORM_UTF16LE},
        {FORM_UTF16BE, FORM_UTF16BE}, {FORM_UTF32LE, FORM_UTF32LE}, {FORM_UTF32LE, FORM_UTF32BE},
        {FORM_UTF32BE, FORM_UTF32LE}, {FORM_UTF32BE, FORM_UTF32BE},
    };
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++) {
        valid_text(pairs[k][0], pairs[k][1]);
        bad_units(pairs[k][0], pairs[k][1]);
        long_text(pairs[k][0], pairs[k][1]);
        printf("test_wide: %s -> %s: %lu passed, %lu failed so far\n", form_names[pairs[k][0]],
               form_names[pairs[k][1]], passed, failed);
    }
    test_transcode();
    printf("test_wide: utfdfa_transcode, chunked: %lu passed, %lu failed so far\n", passed, failed);
    utfdfa__fast_force("auto");
    printf("test_wide: %lu passed, %lu failed\n", passed, failed);
    return failed != 0;
}
