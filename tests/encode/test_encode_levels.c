/* SPDX-License-Identifier: MIT */
/* utfdfa_encode, forced to each kernel level in turn (utfdfa__fast_force;
 * a level this CPU lacks is skipped with a note), against a model of its
 * contract written here over the reference encoders (tests/ref, through
 * oracle_encode; WTF-8's surrogates by refw_encode): a character each the
 * target holds is written as the reference writes it; one it does not
 * (a surrogate, a value above U+10FFFF; in WTF-8 a low surrogate right
 * after a high one written) stops a strict call after it with its index and
 * kind, becomes U+FFFD's form when replacing, and is dropped when ignoring;
 * the BOM mode acts on the first code point.
 *
 * Inputs: texts of each mix (ASCII, 2-, 3-, 4-byte forms, mixed) with no
 * error, rare errors or dense ones, at lengths that cross the kernels'
 * blocks; every target, mode and BOM mode; one call, input in chunks of
 * several sizes (1 up to past a block of 256), and room given a little at a
 * time (growing only when a call could write nothing), each call's output
 * buffer allocated to its exact room so that a write past it traps under
 * ASan.
 *
 * Usage: test_encode_levels */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common.h"
#include "levels.h"
#include "oracle.h"
#include "ref_forms.h"
#include "rng.h"
#include "utfdfa.h"


static struct test_rng rng;
static const char *level_name = "";

/* ------------------------------------------------------------- the model */

struct expect {
    uint8_t *out;
    size_t len;
    size_t consumed;       /* code points a strict run reads: up to and with its error */
    utfdfa_error err;      /* strict: the first error; kind NONE when there is none */
};

static bool is_surrogate(uint32_t cp) { return cp >= 0xD800 && cp <= 0xDFFF; }

/* Bytes of cp in `to` by the reference encoders; 0 when `to` cannot hold it
 * (after_high: WTF-8 wrote a high surrogate last). */
static size_t model_put(enum utfdfa_encoding to, uint32_t cp, bool after_high, uint8_t *out)
{
    size_t len = 0;
    if (to == UTFDFA_WTF8 && is_surrogate(cp))
        return after_high && cp >= 0xDC00 ? 0 : refw_encode(cp, out);
    return oracle_encode(to, &cp, 1, out, &len) ? len : 0;
}

static void model_ordered(enum utfdfa_encoding to, enum utfdfa_error_mode mode,
                          enum utfdfa_bom bom, const uint32_t *cps, size_t n, struct expect *x)
{
    x->out = xmalloc(8 * n + 20);
    x->len = 0;
    x->consumed = n;
    x->err = (utfdfa_error){0, 0, UTFDFA_ERR_NONE};
    bool after_high = false;
    for (size_t i = 0; i < n; i++) {
        uint8_t form[8];
        size_t k = model_put(to, cps[i], after_high, form);
        if (i == 0 && bom == UTFDFA_BOM_ADD && (k == 0 || cps[0] != 0xFEFF))
            x->len += model_put(to, 0xFEFF, false, x->out + x->len);
        if (i == 0 && k && bom == UTFDFA_BOM_STRIP && cps[0] == 0xFEFF)
            continue;
        if (k == 0 && mode == UTFDFA_STRICT) {
            x->consumed = i + 1;
            x->err = (utfdfa_error){i, 1, is_surrogate(cps[i]) ? UTFDFA_ERR_UNENCODABLE
                                                                : UTFDFA_ERR_TOO_LARGE};
            return;
        }
        if (k == 0 && mode == UTFDFA_IGNORE)
            continue;
        if (k == 0)
            k = model_put(to, 0xFFFD, false, form);
        memcpy(x->out + x->len, form, k);
        x->len += k;
        after_high = to == UTFDFA_WTF8 && cps[i] >= 0xD800 && cps[i] <= 0xDBFF;
    }
    if (n == 0 && bom == UTFDFA_BOM_ADD)
        x->len += model_put(to, 0xFEFF, false, x->out);
}

/* UTF-16 and UTF-32 without a byte order are written little-endian, after
 * a BOM when anything is written (with UTFDFA_BOM_ADD, the one it adds). */
static void model(enum utfdfa_encoding to, enum utfdfa_error_mode mode, enum utfdfa_bom bom,
                  const uint32_t *cps, size_t n, struct expect *x)
{
    bool unordered = to == UTFDFA_UTF16 || to == UTFDFA_UTF32;
    enum utfdfa_encoding little = to == UTFDFA_UTF16 ? UTFDFA_UTF16LE : UTFDFA_UTF32LE;
    model_ordered(unordered ? little : to, mode, bom, cps, n, x);
    if (unordered && bom != UTFDFA_BOM_ADD && x->len) {
        uint8_t sig[4];
        size_t k = model_put(little, 0xFEFF, false, sig);
        memmove(x->out + k, x->out, x->len);
        memcpy(x->out, sig, k);
        x->len += k;
    }
}

/* --------------------------------------------------------------- texts */

enum { MIX_ASCII, MIX_2, MIX_3, MIX_4, MIX_ANY, NMIXES };

static uint32_t draw_char(int mix)
{
    static const uint32_t lo[] = {0x00, 0x80, 0x800, 0x10000}, span[] = {0x80, 0x780, 0xF800, 0x100000};
    int b = mix == MIX_ANY ? (int)(test_rng_u32(&rng) % 4) : mix;
    uint32_t cp = lo[b] + test_rng_u32(&rng) % span[b];
    return is_surrogate(cp) ? 0xE000 + cp % 0x800 : cp;
}

/* What no target but WTF-8 (surrogates) holds; a pair now and then. */
static void draw_bad(uint32_t *cps, size_t *i, size_t n)
{
    uint32_t r = test_rng_u32(&rng);
    if (r % 4 == 0 && *i + 1 < n) {
        cps[(*i)++] = 0xD800 + r % 0x400;
        cps[*i] = 0xDC00 + (r >> 10) % 0x400;
    } else if (r % 4 == 1) {
        cps[*i] = 0x110000 + (r >> 2) % 0x1000;
    } else if (r % 4 == 2) {
        cps[*i] = 0xFFFFFFFFu - (r >> 2) % 3;
    } else {
        cps[*i] = 0xD800 + (r >> 2) % 0x800;
    }
}

/* n code points of `mix`, one in every `gap` (0: none) not a scalar value. */
static void draw_text(uint32_t *cps, size_t n, int mix, unsigned gap)
{
    for (size_t i = 0; i < n; i++) {
        if (gap && test_rng_u32(&rng) % gap == 0)
            draw_bad(cps, &i, n);
        else
            cps[i] = draw_char(mix);
    }
}

/* ---------------------------------------------------------------- runs */

struct got {
    uint8_t *out;
    size_t len, consumed;
    utfdfa_error err;
    bool broken; /* no progress, or a call claimed more than it had */
};

/* The whole text in chunks of `chunk` code points (0: one call), each call
 * given `room` bytes (0: all it can need), more only when it wrote nothing. */
static void run(enum utfdfa_encoding to, enum utfdfa_error_mode mode, enum utfdfa_bom bom,
                const uint32_t *cps, size_t n, size_t chunk, size_t room, struct got *g)
{
    utfdfa_encoder e;
    utfdfa_encoder_init(&e, to, mode, bom);
    size_t cap = 8 * n + 16;
    *g = (struct got){xmalloc(cap), 0, 0, {0, 0, UTFDFA_ERR_NONE}, false};
    size_t give = room ? room : cap, stuck = 0;
    for (;;) {
        size_t left = n - g->consumed, take = chunk && chunk < left ? chunk : left;
        bool last = take == left;
        size_t s = take, room = give < cap - g->len ? give : cap - g->len, m = room;
        uint8_t *dst = xmalloc(room ? room : 1);
        utfdfa_error err = {0, 0, UTFDFA_ERR_NONE};
        utfdfa_result r = utfdfa_encode(&e, cps + g->consumed, &s, dst, &m, last, &err);
        g->broken = s > take || m > room;
        if (!g->broken)
            memcpy(g->out + g->len, dst, m);
        free(dst);
        if (g->broken)
            return;
        g->len += m;
        g->consumed += s;
        if (r == UTFDFA_MALFORMED) {
            g->err = err;
            return;
        }
        if (r == UTFDFA_INPUT_EMPTY && last)
            return;
        stuck = s || m ? 0 : stuck + 1;
        if (stuck)
            give++;
        if (stuck > 16) {
            g->broken = true;
            return;
        }
    }
}

static void compare(const char *what, enum utfdfa_encoding to, int mode, int bom,
                    const uint32_t *cps, size_t n, size_t chunk, size_t room)
{
    struct expect x;
    struct got g;
    model(to, (enum utfdfa_error_mode)mode, (enum utfdfa_bom)bom, cps, n, &x);
    run(to, (enum utfdfa_error_mode)mode, (enum utfdfa_bom)bom, cps, n, chunk, room, &g);
    bool same = !g.broken && g.len == x.len && memcmp(g.out, x.out, x.len) == 0 &&
                g.consumed == x.consumed && g.err.kind == x.err.kind &&
                g.err.offset == x.err.offset && g.err.length == x.err.length;
    size_t at = 0;
    while (at < x.len && at < g.len && g.out[at] == x.out[at])
        at++;
    CHECK(same,
          "level %s: %s, %zu code points to %s, mode %d, BOM mode %d, chunks %zu, room %zu: "
          "%zu bytes, %zu read, error %d at %llu; the model: %zu bytes, %zu read, error %d "
          "at %llu; first difference at byte %zu",
          level_name, what, n, utfdfa_encoding_name(to), mode, bom, chunk, room, g.len,
          g.consumed, (int)g.err.kind, (unsigned long long)g.err.offset, x.len, x.consumed,
          (int)x.err.kind, (unsigned long long)x.err.offset, at);
    free(x.out);
    free(g.out);
}

/* ------------------------------------------------------------------ tests */

static const enum utfdfa_encoding targets[] = {
    UTFDFA_UTF8,  UTFDFA_WTF8,  UTFDFA_UTF16LE, UTFDFA_UTF16BE, UTFDFA_UTF32LE,
    UTFDFA_UTF32BE, UTFDFA_UTF16, UTFDFA_UTF32, /* no byte order: the LE encoder's */
    UTFDFA_CESU8, UTFDFA_MUTF8,                 /* no kernel */
};
enum { NTARGETS = sizeof targets / sizeof *targets };

/* Every target and mode, one call and in pieces, for one text. */
static void every_way(const char *what, const uint32_t *cps, size_t n)
{
    static const size_t chunks[] = {0, 1, 7, 255, 257};
    static const size_t rooms[] = {0, 1, 5, 64, 1021};
    for (size_t t = 0; t < NTARGETS; t++)
        for (int mode = UTFDFA_STRICT; mode <= UTFDFA_IGNORE; mode++) {
            for (size_t c = 0; c < sizeof chunks / sizeof *chunks; c++)
                compare(what, targets[t], mode, UTFDFA_BOM_KEEP, cps, n, chunks[c], 0);
            for (size_t r = 1; r < sizeof rooms / sizeof *rooms; r++)
                compare(what, targets[t], mode, UTFDFA_BOM_KEEP, cps, n, 0, rooms[r]);
        }
}

static void test_texts(void)
{
    static const size_t lengths[] = {0, 1, 2, 15, 16, 17, 63, 255, 256, 257, 700, 3000};
    static const unsigned gaps[] = {0, 2, 9, 40, 600};
    static const char *const mixes[] = {"ASCII", "2-byte", "3-byte", "4-byte", "mixed"};
    uint32_t *cps = xmalloc(3000 * sizeof *cps);
    char what[64];
    for (int mix = 0; mix < NMIXES; mix++)
        for (size_t l = 0; l < sizeof lengths / sizeof *lengths; l++)
            for (size_t gp = 0; gp < sizeof gaps / sizeof *gaps; gp++) {
                if (lengths[l] > 700 && gp % 2) /* the long text: no errors, dense, rare */
                    continue;
                draw_text(cps, lengths[l], mix, gaps[gp]);
                snprintf(what, sizeof what, "%s text, error gap %u", mixes[mix], gaps[gp]);
                every_way(what, cps, lengths[l]);
            }
    free(cps);
}

/* The BOM modes: the first code point is the kernels' only when it is no
 * U+FEFF to drop and no BOM is owed before it. */
static void test_boms(void)
{
    uint32_t cps[300];
    for (int first = 0; first < 3; first++) {
        draw_text(cps, 300, MIX_ANY, 0);
        cps[0] = first == 0 ? 0xFEFF : first == 1 ? 0x110000 : cps[0];
        cps[1] = 0xFEFF;
        for (size_t t = 0; t < NTARGETS; t++)
            for (int mode = UTFDFA_STRICT; mode <= UTFDFA_IGNORE; mode++)
                for (int bom = UTFDFA_BOM_KEEP; bom <= UTFDFA_BOM_ADD; bom++)
                    for (size_t n = 0; n <= 300; n += n < 3 ? 1 : 297)
                        compare("BOM", targets[t], mode, bom, cps, n, n == 300 ? 2 : 0, 0);
    }
}

static void run_level(const char *level, void *unused)
{
    (void)unused;
    level_name = level;
    rng = (struct test_rng){0x13198A2E03707344u}; /* the same inputs at every level */
    test_texts();
    test_boms();
}

int main(void)
{
    each_fast_level("test_encode_levels", run_level, NULL);
    return check_summary("test_encode_levels");
}
