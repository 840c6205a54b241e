/* SPDX-License-Identifier: MIT */
/* `make bench`: utfdfa, its fast paths, in-project baselines and peers,
 * measured in one run. Never part of `make check` (timings are not tests).
 *
 * Corpora: every *.utf8.txt in SHARED/corpus/lipsum/ (skipped with a note
 * when absent) and three synthetic ones from a fixed seed: 1 MiB of ASCII,
 * 1 MiB of valid UTF-8 whose characters are 1, 2, 3 or 4 bytes long with
 * equal probability, 1 MiB of random bytes.
 *
 * Method: every engine's result is checked against the reference decoder
 * of tests/ref (written from the spec alone) before it is timed: the
 * verdict for validators, the count and a hash of the code points for
 * decoders, the bytes for encoders; a disagreement is reported and makes
 * the run fail. Engines are interleaved in rounds (one sample of each per
 * round), each sample timed with the thread's CPU clock and repeated so it
 * lasts about BENCH_SAMPLE_MS; the median of BENCH_REPS (>= 15) samples is
 * reported in GB/s of input (encode: of UTF-8 output, the corpus bytes).
 *
 * UTF-7 (utf7dec, utf7enc; valid corpora): each corpus's UTF-7 form is
 * written once by utfdfa's encoder (default options: Set O in base64) and
 * checked against tests/ref/ref_utf7.c (its decoder gives back the corpus's
 * code points; its encoder, with the same direct set, the same bytes).
 * utf7dec decodes that form to UTF-32 (GB/s of UTF-7 input); utf7enc encodes
 * the code points to UTF-7 (GB/s of UTF-7 output, counted as the length of
 * utfdfa's form for every engine). A peer's UTF-7 bytes may legitimately
 * differ from ours (RFC 2152 leaves the direct set and where a run ends
 * open): then they must decode, with utfdfa's decoder, to the same code
 * points.
 *
 * Transcoding (transcode; valid corpora): utfdfa_transcode on every pair
 * among UTF-8, UTF-16LE and UTF-32LE against utfdfa_decode_utf32 and the
 * peers, one table per corpus (tests/bench/transcode.c).
 *
 * Exact sizes (sizes): utfdfa_code_points, utfdfa_utf16_len and
 * utfdfa_utf8_len against utfdfa_validate on each corpus's forms
 * (tests/bench/sizes.c).
 *
 * simdutf (simdutf; only when built with SIMDUTF=DIR): utfdfa at each
 * kernel level against simdutf's kernel of the same class
 * (tests/bench/simdutf_cmp.c).
 *
 * Usage: bench [SHARED_DIR]     environment: BENCH_REPS (default 15),
 *   BENCH_SAMPLE_MS (default 2), BENCH_OPS (e.g. "validate,decode32,transcode,sizes"),
 *   BENCH_ENGINES (substring filter on engine names; utfdfa and memcpy stay),
 *   BENCH_STAT=min (report the fastest sample, not the median), BENCH_LEVEL (force a
 *   kernel level by the name of its row in src/fast/levels.h: scalar, sse2, ..., neon).
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "common.h"
#include "decode_chunks.h"
#include "ref_utf7.h"
#include "ref_utf8.h"
#include "utf8.gen.h"
#include "utf8_fast.h"
#include "utf8_variants.h"
#include "utfdfa.h"

int utfdfa__fast_force(const char *level);    /* src/fast/kernels.h */
const char *utfdfa__fast_level_name(void); /* likewise */

#ifndef BENCH_FLAGS
#define BENCH_FLAGS "(unknown)"
#endif

static const char *const op_names[NOPS] = {
    "validate", "decode32", "decode16", "replace", "stream4k", "stream64", "encode",
    "utf7dec",  "utf7enc",
};
static const char *const op_titles[NOPS] = {
    "Validate",
    "Decode UTF-8 to UTF-32",
    "UTF-8 to UTF-16",
    "Decode with replacement (U+FFFD per maximal subpart) to UTF-32",
    "Streaming decode to UTF-32, 4 KiB chunks",
    "Streaming decode to UTF-32, 64-byte chunks",
    "Encode UTF-32 to UTF-8",
    "Decode UTF-7 to UTF-32",
    "Encode UTF-32 to UTF-7",
};

/* ------------------------------------------------------------- corpora */

struct corpus {
    char name[64];
    uint8_t *data;
    size_t n;
    bool valid;        /* per the reference decoder */
    bool ascii;        /* every byte below 0x80 */
    bool synthetic;
    uint32_t *cps;     /* strict decoding (valid corpora) */
    size_t ncps;
    uint32_t *rcps;    /* decoding with replacement */
    size_t nrcps;
    uint8_t *u7;       /* UTF-7 form by utfdfa's encoder, checked against tests/ref
                          (valid corpora, when a UTF-7 op is wanted; else NULL) */
    size_t nu7;
};

#define MAX_CORPORA 32
static struct corpus corpora[MAX_CORPORA];
static size_t ncorpora;

/* xorshift64*: the synthetic corpora are the same on every run. */
static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static uint64_t rng(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Du;
}

/* The reference decoder's view: strict code points (when valid) and
 * replacement code points (always). */
static void analyse(struct corpus *c)
{
    c->cps = xmalloc((c->n + 1) * sizeof *c->cps);
    c->rcps = xmalloc((c->n + 1) * sizeof *c->rcps);
    c->valid = true;
    c->ascii = true;
    c->ncps = c->nrcps = 0;
    for (size_t i = 0; i < c->n;) {
        uint32_t cp;
        enum ref_kind kind;
        size_t k = ref_utf8_next(c->data + i, c->n - i, &cp, &kind);
        if (kind == REF_OK) {
            c->cps[c->ncps++] = cp;
            c->rcps[c->nrcps++] = cp;
        } else {
            c->valid = false;
            c->rcps[c->nrcps++] = 0xFFFD;
        }
        if (c->data[i] >= 0x80)
            c->ascii = false;
        i += k;
    }
}

static struct corpus *new_corpus(const char *name, size_t n)
{
    if (ncorpora == MAX_CORPORA) {
        fprintf(stderr, "too many corpora\n");
        exit(2);
    }
    struct corpus *c = &corpora[ncorpora++];
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "%s", name);
    c->data = xmalloc(n);
    c->n = n;
    return c;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void load_lipsum(const char *shared)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/corpus/lipsum", shared);
    DIR *d = opendir(dir);
    if (!d) {
        printf("> note: %s is absent: the lipsum corpora are skipped.\n\n", dir);
        return;
    }
    char *names[64];
    size_t nn = 0;
    struct dirent *e;
    while ((e = readdir(d)) && nn < 64) {
        size_t l = strlen(e->d_name);
        if (l > 9 && strcmp(e->d_name + l - 9, ".utf8.txt") == 0)
            names[nn++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, nn, sizeof *names, cmp_names);
    for (size_t k = 0; k < nn; k++) {
        char path[2048], label[64];
        snprintf(path, sizeof path, "%s/%s", dir, names[k]);
        FILE *f = fopen(path, "rb");
        if (!f) {
            perror(path);
            exit(2);
        }
        fseek(f, 0, SEEK_END);
        long len = ftell(f);
        fseek(f, 0, SEEK_SET);
        snprintf(label, sizeof label, "%.*s", (int)(strcspn(names[k], "-.")), names[k]);
        struct corpus *c = new_corpus(label, (size_t)len);
        if (fread(c->data, 1, c->n, f) != c->n) {
            perror(path);
            exit(2);
        }
        fclose(f);
        free(names[k]);
    }
}

static size_t put_utf8(uint8_t *p, uint32_t cp)
{
    return ref_utf8_encode(cp, p);
}

static void make_synthetic(void)
{
    const size_t MiB = 1u << 20;
    struct corpus *a = new_corpus("ascii", MiB);
    for (size_t i = 0; i < MiB; i++)
        a->data[i] = (i % 64 == 63) ? '\n' : (uint8_t)(0x20 + rng() % 95);
    a->synthetic = true;

    /* Characters of 1-4 bytes with equal probability, each uniform over the
     * scalar values of its length (surrogates excluded, and U+0000, which
     * GLib's validator rejects); ASCII pads the end. */
    struct corpus *m = new_corpus("mixed", MiB);
    static const uint32_t lo[4] = {1, 0x80, 0x800, 0x10000}, hi[4] = {0x7F, 0x7FF, 0xFFFF, 0x10FFFF};
    size_t i = 0;
    for (;;) {
        unsigned len = (unsigned)(rng() % 4);
        uint32_t cp;
        do
            cp = lo[len] + (uint32_t)(rng() % (hi[len] - lo[len] + 1));
        while (cp >= 0xD800 && cp <= 0xDFFF);
        if (i + len + 1 > MiB)
            break;
        i += put_utf8(m->data + i, cp);
    }
    while (i < MiB)
        m->data[i++] = 'x';
    m->synthetic = true;

    struct corpus *r = new_corpus("random", MiB);
    for (size_t k = 0; k < MiB; k++)
        r->data[k] = (uint8_t)(rng() >> 56);
    r->synthetic = true;
}

/* ------------------------------------------------------------- checking */

static uint64_t hash_cps(const uint32_t *p, size_t n)
{
    uint64_t h = 0xCBF29CE484222325u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001B3u;
    return h;
}

/* UTF-16 to code points for the check (pairs combined; a lone surrogate
 * is kept as it is and so fails the comparison). */
static size_t u16_to_cps(const uint16_t *p, size_t n, uint32_t *out)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t u = p[i];
        if (u >= 0xD800 && u <= 0xDBFF && i + 1 < n && p[i + 1] >= 0xDC00 && p[i + 1] <= 0xDFFF) {
            u = 0x10000 + ((u - 0xD800) << 10) + (p[i + 1] - 0xDC00u);
            i++;
        }
        out[o++] = u;
    }
    return o;
}

static int check_failures;

/* The corpus's UTF-7 form: utfdfa_encode (UTF-7, default options), then
 * checked against the reference: ref7_decode must give back the corpus's
 * code points and ref7_encode (Set O not direct, as utfdfa's default) the
 * same bytes. On a disagreement c->u7 stays NULL (the UTF-7 ops skip the
 * corpus) and the run fails. */
static void make_utf7(struct corpus *c)
{
    if (!c->valid)
        return;
    size_t cap = 0, n = c->ncps, m;
    if (!utfdfa_max_encoded_len(UTFDFA_UTF7, c->ncps, &cap)) {
        fprintf(stderr, "utf7: no bound for %s\n", c->name);
        exit(2);
    }
    uint8_t *u7 = xmalloc(cap), *ref = xmalloc(ref7_encode_bound(c->ncps));
    uint32_t *back = xmalloc((cap + 1) * sizeof *back);
    utfdfa_encoder e;
    utfdfa_encoder_init(&e, UTFDFA_UTF7, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    utfdfa_error err;
    m = cap;
    char why[256] = "";
    size_t nback = 0, nref;
    struct ref7_error rerr;
    if (utfdfa_encode(&e, c->cps, &n, u7, &m, true, &err) != UTFDFA_INPUT_EMPTY || n != c->ncps)
        snprintf(why, sizeof why, "utfdfa_encode stopped at code point %zu", n);
    else if (!ref7_decode(u7, m, back, &nback, &rerr))
        snprintf(why, sizeof why, "ref7_decode: %s at byte %zu of %zu", ref7_kind_name(rerr.kind),
                 rerr.offset, m);
    else if (nback != c->ncps || memcmp(back, c->cps, nback * sizeof *back) != 0)
        snprintf(why, sizeof why, "ref7_decode gives %zu code points (hash %016llx), want %zu (hash %016llx)",
                 nback, (unsigned long long)hash_cps(back, nback), c->ncps,
                 (unsigned long long)hash_cps(c->cps, c->ncps));
    else if ((nref = ref7_encode(c->cps, c->ncps, false, ref)) != m || memcmp(ref, u7, m) != 0)
        snprintf(why, sizeof why, "ref7_encode writes %zu bytes, utfdfa_encode %zu, not the same", nref, m);
    free(back);
    free(ref);
    if (why[0]) {
        fprintf(stderr, "CHECK FAILED: utfdfa UTF-7 form of corpus %s: %s\n", c->name, why);
        printf("> CHECK FAILED: utfdfa UTF-7 form of corpus %s: %s\n\n", c->name, why);
        check_failures++;
        free(u7);
        return;
    }
    c->u7 = u7;
    c->nu7 = m;
}

/* ------------------------------------------------- utfdfa's public API */

static size_t api_validate(const struct job *j)
{
    return utfdfa_valid_up_to(j->src, j->n) == j->n;
}

static size_t api_decode32(const struct job *j, enum utfdfa_error_mode errors)
{
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, UTFDFA_UTF8, errors, UTFDFA_BOM_KEEP);
    size_t n = j->n, m = j->cap;
    utfdfa_error e;
    if (utfdfa_decode_utf32(&d, j->src, &n, j->dst, &m, true, &e) != UTFDFA_INPUT_EMPTY || n != j->n)
        return RUN_FAILED;
    return m;
}

static size_t api_dec32(const struct job *j)
{
    return api_decode32(j, UTFDFA_STRICT);
}

static size_t api_replace(const struct job *j)
{
    return api_decode32(j, UTFDFA_REPLACE);
}

static size_t api_dec16(const struct job *j)
{
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    size_t n = j->n, m = j->cap;
    utfdfa_error e;
    if (utfdfa_decode_utf16(&d, j->src, &n, j->dst, &m, true, &e) != UTFDFA_INPUT_EMPTY || n != j->n)
        return RUN_FAILED;
    return m;
}

/* The UTF-8 corpora read as WTF-8 and as RFC 2279 UTF-8, whose UTF-8 part
 * goes through UTF-8's fast paths (the same verdicts and code points). */
static const enum utfdfa_encoding as_wtf8 = UTFDFA_WTF8, as_rfc2279 = UTFDFA_UTF8_RFC2279;

static size_t api_validate_as(const struct job *j)
{
    return utfdfa_validate(*(const enum utfdfa_encoding *)j->ctx, j->src, j->n, NULL) == j->n;
}

static size_t api_dec32_as(const struct job *j)
{
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, *(const enum utfdfa_encoding *)j->ctx, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    size_t n = j->n, m = j->cap;
    utfdfa_error e;
    if (utfdfa_decode_utf32(&d, j->src, &n, j->dst, &m, true, &e) != UTFDFA_INPUT_EMPTY || n != j->n)
        return RUN_FAILED;
    return m;
}

size_t bench_decode_chunks(const struct job *j, const struct bench_decoder *lib,
                           enum utfdfa_encoding enc, enum utfdfa_error_mode mode)
{
    utfdfa_decoder d;
    lib->init(&d, enc, mode, UTFDFA_BOM_KEEP);
    uint32_t *dst = j->dst;
    size_t o = 0;
    for (size_t pos = 0; pos < j->n;) {
        size_t len = j->n - pos < j->chunk ? j->n - pos : j->chunk, m = j->cap - o;
        utfdfa_error e;
        bool last = pos + len == j->n;
        if (lib->dec32(&d, j->src + pos, &len, dst + o, &m, last, &e) != UTFDFA_INPUT_EMPTY)
            return RUN_FAILED;
        pos += len;
        o += m;
    }
    return o;
}

static size_t api_stream(const struct job *j)
{
    static const struct bench_decoder this_build = {utfdfa_decoder_init, utfdfa_decode_utf32};
    return bench_decode_chunks(j, &this_build, UTFDFA_UTF8, UTFDFA_STRICT);
}

static size_t api_encode(const struct job *j)
{
    utfdfa_encoder e;
    utfdfa_encoder_init(&e, UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    size_t n = j->ncps, m = j->cap;
    utfdfa_error err;
    if (utfdfa_encode(&e, j->cps, &n, j->dst, &m, true, &err) != UTFDFA_INPUT_EMPTY)
        return RUN_FAILED;
    return m;
}

static size_t api_utf7dec(const struct job *j)
{
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, UTFDFA_UTF7, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    size_t n = j->n, m = j->cap;
    utfdfa_error e;
    if (utfdfa_decode_utf32(&d, j->src, &n, j->dst, &m, true, &e) != UTFDFA_INPUT_EMPTY || n != j->n)
        return RUN_FAILED;
    return m;
}

static size_t api_utf7enc(const struct job *j)
{
    utfdfa_encoder e;
    utfdfa_encoder_init(&e, UTFDFA_UTF7, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    size_t n = j->ncps, m = j->cap;
    utfdfa_error err;
    if (utfdfa_encode(&e, j->cps, &n, j->dst, &m, true, &err) != UTFDFA_INPUT_EMPTY)
        return RUN_FAILED;
    return m;
}

static size_t ceiling_memcpy(const struct job *j)
{
    memcpy(j->dst, j->src, j->n);
    return 0;
}

/* --------------------------------------------- in-project baselines
 * (a) Hoehrmann's loop: state = utf8_trans[state + utf8_class[b]], two
 *     dependent loads per byte; (b) the shift DFA, one load and a shift,
 *     as the compiler makes of the plain loop (no unrolling by hand). */

static size_t hoehrmann_validate(const struct job *j)
{
    uint32_t st = UTF8_ACCEPT;
    for (size_t i = 0; i < j->n; i++)
        st = utf8_trans[st + utf8_class[j->src[i]]]; /* REJECT is a sink */
    return st == UTF8_ACCEPT;
}

static size_t shift_validate(const struct job *j)
{
    uint64_t s = UTF8_SHIFT_ACCEPT;
    for (size_t i = 0; i < j->n; i++)
        s = utf8_shift_row[j->src[i]] >> (s & 63);
    return (s & 63) == UTF8_SHIFT_ACCEPT;
}

/* Emit one code point as UTF-32 or UTF-16. */
static inline size_t emit(void *dst, size_t o, uint32_t cp, bool u16)
{
    if (!u16) {
        ((uint32_t *)dst)[o] = cp;
        return o + 1;
    }
    uint16_t *d = dst;
    if (cp < 0x10000) {
        d[o] = (uint16_t)cp;
        return o + 1;
    }
    d[o] = (uint16_t)(0xD800 | (cp - 0x10000) >> 10);
    d[o + 1] = (uint16_t)(0xDC00 | (cp & 0x3FF));
    return o + 2;
}

static inline size_t hoehrmann_decode(const struct job *j, bool u16)
{
    uint32_t st = UTF8_ACCEPT, cp = 0;
    size_t o = 0;
    for (size_t i = 0; i < j->n; i++) {
        uint8_t b = j->src[i];
        uint32_t cls = utf8_class[b];
        st = utf8_trans[st + cls];
        cp = cp << 6 | (b & utf8_payload_mask[cls]);
        if (st == UTF8_ACCEPT) {
            o = emit(j->dst, o, cp, u16);
            cp = 0;
        } else if (st == UTF8_REJECT) {
            return RUN_FAILED;
        }
    }
    return st == UTF8_ACCEPT ? o : RUN_FAILED;
}

static inline size_t shift_decode(const struct job *j, bool u16)
{
    uint64_t s = UTF8_SHIFT_ACCEPT;
    uint32_t cp = 0;
    size_t o = 0;
    for (size_t i = 0; i < j->n; i++) {
        uint8_t b = j->src[i];
        s = utf8_shift_row[b] >> (s & 63);
        cp = cp << 6 | (b & utf8_payload_mask[utf8_class[b]]);
        if ((s & 63) == UTF8_SHIFT_ACCEPT) {
            o = emit(j->dst, o, cp, u16);
            cp = 0;
        } else if ((s & 63) == UTF8_SHIFT_REJECT) {
            return RUN_FAILED;
        }
    }
    return (s & 63) == UTF8_SHIFT_ACCEPT ? o : RUN_FAILED;
}

static size_t hoehrmann_dec32(const struct job *j) { return hoehrmann_decode(j, false); }
static size_t hoehrmann_dec16(const struct job *j) { return hoehrmann_decode(j, true); }
static size_t shift_dec32(const struct job *j) { return shift_decode(j, false); }
static size_t shift_dec16(const struct job *j) { return shift_decode(j, true); }

/* Replacement as table data, no slow path: a rejecting byte emits U+FFFD;
 * it is consumed when it was the first byte of the subpart (the state was
 * ACCEPT), otherwise it starts anew (Unicode 3.9 maximal subparts). */
static size_t hoehrmann_replace(const struct job *j)
{
    uint32_t st = UTF8_ACCEPT, cp = 0, *d = j->dst;
    size_t o = 0;
    for (size_t i = 0; i < j->n;) {
        uint8_t b = j->src[i];
        uint32_t cls = utf8_class[b], next = utf8_trans[st + cls];
        if (next == UTF8_REJECT) {
            d[o++] = 0xFFFD;
            i += st == UTF8_ACCEPT;
            st = UTF8_ACCEPT;
            cp = 0;
            continue;
        }
        cp = cp << 6 | (b & utf8_payload_mask[cls]);
        st = next;
        if (st == UTF8_ACCEPT) {
            d[o++] = cp;
            cp = 0;
        }
        i++;
    }
    if (st != UTF8_ACCEPT)
        d[o++] = 0xFFFD; /* truncated at the end */
    return o;
}

static size_t shift_replace(const struct job *j)
{
    uint64_t s = UTF8_SHIFT_ACCEPT;
    uint32_t cp = 0, *d = j->dst;
    size_t o = 0;
    for (size_t i = 0; i < j->n;) {
        uint8_t b = j->src[i];
        uint64_t next = utf8_shift_row[b] >> (s & 63);
        if ((next & 63) == UTF8_SHIFT_REJECT) {
            d[o++] = 0xFFFD;
            i += (s & 63) == UTF8_SHIFT_ACCEPT;
            s = UTF8_SHIFT_ACCEPT;
            cp = 0;
            continue;
        }
        cp = cp << 6 | (b & utf8_payload_mask[utf8_class[b]]);
        s = next;
        if ((s & 63) == UTF8_SHIFT_ACCEPT) {
            d[o++] = cp;
            cp = 0;
        }
        i++;
    }
    if ((s & 63) != UTF8_SHIFT_ACCEPT)
        d[o++] = 0xFFFD;
    return o;
}

/* ------------------------------------------- fast paths, wired as the
 * runtime wires them: the fast function takes a prefix, the plain loop
 * (core_dfa's, over utf8_trans) goes on from where it stopped. */

/* The plain loop; stops at a rejecting byte (returns its index). */
static size_t plain_dec(const uint8_t *src, size_t i, size_t n, uint32_t *pst, uint32_t *pcp,
                        void *dst, size_t *po, bool u16)
{
    uint32_t st = *pst, cp = *pcp;
    size_t o = *po;
    for (; i < n; i++) {
        uint8_t b = src[i];
        uint32_t cls = utf8_class[b], next = utf8_trans[st + cls];
        if (next == UTF8_REJECT)
            break;
        cp = cp << 6 | (b & utf8_payload_mask[cls]);
        st = next;
        if (st == UTF8_ACCEPT) {
            o = emit(dst, o, cp, u16);
            cp = 0;
        }
    }
    *pst = st;
    *pcp = cp;
    *po = o;
    return i;
}

static size_t fast_validate(const struct job *j)
{
    const struct utfdfa__fast_variant *v = j->ctx;
    uint32_t st = UTF8_ACCEPT;
    size_t i = v->scan(j->src, j->n, &st);
    for (; i < j->n; i++) {
        st = utf8_trans[st + utf8_class[j->src[i]]];
        if (st == UTF8_REJECT)
            return 0;
    }
    return st == UTF8_ACCEPT;
}

static size_t fast_prefix(const struct utfdfa__fast_variant *v, const uint8_t *src, size_t n,
                          uint32_t *st, uint32_t *cp, void *dst, size_t cap, size_t *o, bool u16)
{
    size_t w = 0, k;
    if (u16)
        k = v->dec16(src, n, st, cp, (uint16_t *)dst + *o, cap - *o, &w);
    else
        k = v->dec32(src, n, st, cp, (uint32_t *)dst + *o, cap - *o, &w);
    *o += w;
    return k;
}

static size_t fast_decode(const struct job *j, bool u16)
{
    uint32_t st = UTF8_ACCEPT, cp = 0;
    size_t o = 0;
    size_t i = fast_prefix(j->ctx, j->src, j->n, &st, &cp, j->dst, j->cap, &o, u16);
    i = plain_dec(j->src, i, j->n, &st, &cp, j->dst, &o, u16);
    return i == j->n && st == UTF8_ACCEPT ? o : RUN_FAILED;
}

static size_t fast_dec32(const struct job *j) { return fast_decode(j, false); }
static size_t fast_dec16(const struct job *j) { return fast_decode(j, true); }

/* The replacing fast path: errors are table data, no restart. */
static size_t fast_rep(const struct job *j)
{
    const struct utfdfa__fast_variant *v = j->ctx;
    uint32_t st = UTF8_ACCEPT, cp = 0, *d = j->dst;
    size_t w, errors;
    size_t i = v->rep(j->src, j->n, &st, &cp, d, j->cap, &w, &errors);
    if (i != j->n)
        return RUN_FAILED;
    if (st != UTF8_ACCEPT)
        d[w++] = 0xFFFD; /* cut short by the end of input */
    return w;
}

/* Replacement by restarts: fast decode32 prefix, plain loop to the error,
 * U+FFFD, again (how the runtime's convert() loop would use decode32). */
static size_t fast_replace(const struct job *j)
{
    uint32_t st = UTF8_ACCEPT, cp = 0, *d = j->dst;
    size_t o = 0, i = 0;
    while (i < j->n) {
        i += fast_prefix(j->ctx, j->src + i, j->n - i, &st, &cp, j->dst, j->cap, &o, false);
        i = plain_dec(j->src, i, j->n, &st, &cp, j->dst, &o, false);
        if (i < j->n) { /* j->src[i] rejects */
            d[o++] = 0xFFFD;
            i += st == UTF8_ACCEPT;
            st = UTF8_ACCEPT;
            cp = 0;
        }
    }
    if (st != UTF8_ACCEPT)
        d[o++] = 0xFFFD;
    return o;
}

static size_t fast_stream(const struct job *j)
{
    uint32_t st = UTF8_ACCEPT, cp = 0;
    size_t o = 0;
    for (size_t pos = 0; pos < j->n;) {
        size_t end = j->n - pos < j->chunk ? j->n : pos + j->chunk;
        size_t i = pos + fast_prefix(j->ctx, j->src + pos, end - pos, &st, &cp, j->dst, j->cap, &o, false);
        if (plain_dec(j->src, i, end, &st, &cp, j->dst, &o, false) != end)
            return RUN_FAILED;
        pos = end;
    }
    return st == UTF8_ACCEPT ? o : RUN_FAILED;
}

/* ------------------------------------------------------------- engines */

#define MAX_ENGINES 256
static struct engine engines[MAX_ENGINES];
static size_t nengines;
static char name_pool[MAX_ENGINES][80];

static void add(const char *name, enum op op, enum out out, enum role role, run_fn run,
                const void *ctx)
{
    if (nengines < MAX_ENGINES)
        engines[nengines++] = (struct engine){name, op, out, role, run, ctx, 0};
}

static void register_engines(void)
{
    for (int op = 0; op < NOPS; op++)
        add("memcpy (ceiling)", (enum op)op, OUT_VERDICT, ROLE_CEILING, ceiling_memcpy, NULL);
    add("utfdfa", OP_VALIDATE, OUT_VERDICT, ROLE_UTFDFA, api_validate, NULL);
    add("utfdfa", OP_DEC32, OUT_U32, ROLE_UTFDFA, api_dec32, NULL);
    add("utfdfa", OP_DEC16, OUT_U16, ROLE_UTFDFA, api_dec16, NULL);
    add("utfdfa", OP_REPLACE, OUT_U32, ROLE_UTFDFA, api_replace, NULL);
    add("utfdfa", OP_STREAM4K, OUT_U32, ROLE_UTFDFA, api_stream, NULL);
    add("utfdfa", OP_STREAM64, OUT_U32, ROLE_UTFDFA, api_stream, NULL);
    /* The streaming targets' reference, in the same rounds: the machine's
     * speed drifts between ops, and a ratio across ops took the drift. */
    add("utfdfa, whole buffer", OP_STREAM4K, OUT_U32, ROLE_UTFDFA, api_dec32, NULL);
    add("utfdfa, whole buffer", OP_STREAM64, OUT_U32, ROLE_UTFDFA, api_dec32, NULL);
    add("utfdfa", OP_ENCODE, OUT_BYTES, ROLE_UTFDFA, api_encode, NULL);
    add("utfdfa", OP_UTF7DEC, OUT_U32, ROLE_UTFDFA, api_utf7dec, NULL);
    add("utfdfa", OP_UTF7ENC, OUT_BYTES, ROLE_UTFDFA, api_utf7enc, NULL);
    add("utfdfa, read as wtf-8", OP_VALIDATE, OUT_VERDICT, ROLE_UTFDFA, api_validate_as, &as_wtf8);
    add("utfdfa, read as utf-8-rfc2279", OP_VALIDATE, OUT_VERDICT, ROLE_UTFDFA, api_validate_as,
        &as_rfc2279);
    add("utfdfa, read as wtf-8", OP_DEC32, OUT_U32, ROLE_UTFDFA, api_dec32_as, &as_wtf8);
    add("utfdfa, read as utf-8-rfc2279", OP_DEC32, OUT_U32, ROLE_UTFDFA, api_dec32_as, &as_rfc2279);

    const struct utfdfa__fast_variant *def = &utfdfa__utf8_fast_variants[0];
    for (const struct utfdfa__fast_variant *v = utfdfa__utf8_fast_variants; v->name; v++) {
        size_t k = (size_t)(v - utfdfa__utf8_fast_variants);
        if (!utfdfa__fast_variant_runs(v->name))
            continue; /* this CPU lacks its ISA */
        snprintf(name_pool[k], sizeof name_pool[k], "utfdfa-fast-%s", v->name);
        if (v->scan)
            add(name_pool[k], OP_VALIDATE, OUT_VERDICT, ROLE_FAST, fast_validate, v);
        if (v->dec32)
            add(name_pool[k], OP_DEC32, OUT_U32, ROLE_FAST, fast_dec32, v);
        if (v->dec16)
            add(name_pool[k], OP_DEC16, OUT_U16, ROLE_FAST, fast_dec16, v);
        if (v->rep)
            add(name_pool[k], OP_REPLACE, OUT_U32, ROLE_FAST, fast_rep, v);
    }
    add("utfdfa-fast-decode32+restart", OP_REPLACE, OUT_U32, ROLE_FAST, fast_replace, def);
    add("utfdfa-fast-default", OP_STREAM4K, OUT_U32, ROLE_FAST, fast_stream, def);
    add("utfdfa-fast-default", OP_STREAM64, OUT_U32, ROLE_FAST, fast_stream, def);
    add("utfdfa-fast-default, whole buffer", OP_STREAM4K, OUT_U32, ROLE_FAST, fast_dec32, def);
    add("utfdfa-fast-default, whole buffer", OP_STREAM64, OUT_U32, ROLE_FAST, fast_dec32, def);

    add("baseline Hoehrmann trans[state+class]", OP_VALIDATE, OUT_VERDICT, ROLE_BASELINE, hoehrmann_validate, NULL);
    add("baseline shift-DFA row>>state", OP_VALIDATE, OUT_VERDICT, ROLE_BASELINE, shift_validate, NULL);
    add("baseline Hoehrmann trans[state+class]", OP_DEC32, OUT_U32, ROLE_BASELINE, hoehrmann_dec32, NULL);
    add("baseline shift-DFA row>>state", OP_DEC32, OUT_U32, ROLE_BASELINE, shift_dec32, NULL);
    add("baseline Hoehrmann trans[state+class]", OP_DEC16, OUT_U16, ROLE_BASELINE, hoehrmann_dec16, NULL);
    add("baseline shift-DFA row>>state", OP_DEC16, OUT_U16, ROLE_BASELINE, shift_dec16, NULL);
    add("baseline Hoehrmann trans[state+class]", OP_REPLACE, OUT_U32, ROLE_BASELINE, hoehrmann_replace, NULL);
    add("baseline shift-DFA row>>state", OP_REPLACE, OUT_U32, ROLE_BASELINE, shift_replace, NULL);

    nengines += peers_register(engines + nengines, MAX_ENGINES - nengines);
}

/* ------------------------------------------------------------- timing */

double bench_thread_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static volatile size_t sink;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double bench_pick(double *samples, int n, bool use_min)
{
    qsort(samples, (size_t)n, sizeof(double), cmp_double);
    return use_min ? samples[0] : n % 2 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
}

static bool is_utf7(enum op op)
{
    return op == OP_UTF7DEC || op == OP_UTF7ENC;
}

static bool applies(enum op op, const struct corpus *c)
{
    if (is_utf7(op))
        return c->valid && c->u7;
    return op == OP_REPLACE || c->valid;
}

/* The bytes a GB/s figure counts: the input, or for encode the UTF-8
 * output (the corpus); for both UTF-7 ops utfdfa's UTF-7 form. */
static size_t op_bytes(enum op op, const struct corpus *c)
{
    return is_utf7(op) ? c->nu7 : c->n;
}

static size_t out_cap_units(enum out out, size_t n)
{
    return out == OUT_U16 ? 2 * n + 16 : out == OUT_BYTES ? 4 * n + 16 : n + 16;
}

static void job_for(struct job *j, const struct engine *e, const struct corpus *c, void *buf)
{
    memset(j, 0, sizeof *j);
    j->src = is_utf7(e->op) ? c->u7 : c->data;
    j->n = is_utf7(e->op) ? c->nu7 : c->n;
    j->cps = c->cps;
    j->ncps = c->ncps;
    j->dst = buf;
    j->cap = out_cap_units(e->out, j->n);
    j->chunk = e->op == OP_STREAM4K ? 4096 : e->op == OP_STREAM64 ? 64 : j->n; /* UTF-7: its length */
    j->ctx = e->ctx;
}

/* utf7enc: the length of an engine's UTF-7 when it is not utfdfa's bytes
 * but decodes to the same code points (0: the same bytes, or not run). */
static size_t utf7_differs[MAX_ENGINES][MAX_CORPORA];
static size_t scratch_cap; /* uint32_t units of main's scratch */

/* The engine's result against the reference; prints and counts a failure. */
static bool check(const struct engine *e, const struct corpus *c, void *buf, uint32_t *scratch)
{
    struct job j;
    job_for(&j, e, c, buf);
    size_t r = e->run(&j);
    char why[256] = "";
    if (e->role == ROLE_CEILING)
        return true;
    const uint32_t *want = e->op == OP_REPLACE ? c->rcps : c->cps;
    size_t nwant = e->op == OP_REPLACE ? c->nrcps : c->ncps;
    if (r == RUN_FAILED) {
        snprintf(why, sizeof why, "the engine reported failure");
    } else if (e->out == OUT_VERDICT) {
        if ((r != 0) != c->valid)
            snprintf(why, sizeof why, "verdict %s, want %s", r ? "valid" : "invalid",
                     c->valid ? "valid" : "invalid");
    } else if (e->out == OUT_BYTES && e->op == OP_UTF7ENC) {
        if (r != c->nu7 || memcmp(buf, c->u7, c->nu7) != 0) {
            /* Other UTF-7 bytes: they must decode (utfdfa) to the code points. */
            utfdfa_decoder d;
            utfdfa_decoder_init(&d, UTFDFA_UTF7, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
            size_t n = r, m = scratch_cap;
            utfdfa_error err;
            memset(&err, 0, sizeof err);
            if (utfdfa_decode_utf32(&d, buf, &n, scratch, &m, true, &err) != UTFDFA_INPUT_EMPTY ||
                n != r)
                snprintf(why, sizeof why, "%zu UTF-7 bytes (not utfdfa's %zu) that utfdfa cannot "
                         "decode: %s at byte %llu", r, c->nu7, utfdfa_error_name(err.kind),
                         (unsigned long long)err.offset);
            else if (m != c->ncps || hash_cps(scratch, m) != hash_cps(c->cps, c->ncps))
                snprintf(why, sizeof why, "%zu UTF-7 bytes decoding to %zu code points (hash "
                         "%016llx), want %zu (hash %016llx)", r, m,
                         (unsigned long long)hash_cps(scratch, m), c->ncps,
                         (unsigned long long)hash_cps(c->cps, c->ncps));
            else
                utf7_differs[e - engines][c - corpora] = r;
        }
    } else if (e->out == OUT_BYTES) {
        if (r != c->n || memcmp(buf, c->data, c->n) != 0)
            snprintf(why, sizeof why, "%zu bytes, not the corpus's %zu", r, c->n);
    } else {
        const uint32_t *got = buf;
        size_t ngot = r;
        if (e->out == OUT_U16) {
            ngot = u16_to_cps(buf, r, scratch);
            got = scratch;
        }
        if (ngot != nwant || hash_cps(got, ngot) != hash_cps(want, nwant))
            snprintf(why, sizeof why, "%zu code points (hash %016llx), want %zu (hash %016llx)",
                     ngot, (unsigned long long)hash_cps(got, ngot), nwant,
                     (unsigned long long)hash_cps(want, nwant));
    }
    if (why[0]) {
        fprintf(stderr, "CHECK FAILED: %s, %s, corpus %s: %s\n", e->name, op_names[e->op],
                c->name, why);
        printf("> CHECK FAILED: %s, %s, corpus %s: %s\n\n", e->name, op_names[e->op], c->name, why);
        check_failures++;
        return false;
    }
    return true;
}

static int reps = 15;
static double sample_ns = 2e6;
/* BENCH_STAT=min: the fastest sample instead of the median (on a shared
 * machine, the speed without interference). */
static bool use_min;

/* Medians in GB/s, [engine][corpus]; 0: not run; -1: check failed. */
static double gbps[MAX_ENGINES][MAX_CORPORA];

static void measure(enum op op, const size_t *eidx, size_t ne, void *buf, uint32_t *scratch)
{
    for (size_t ci = 0; ci < ncorpora; ci++) {
        const struct corpus *c = &corpora[ci];
        if (!applies(op, c))
            continue;
        size_t iters[MAX_ENGINES];
        bool ok[MAX_ENGINES];
        static double samples[MAX_ENGINES][256];
        for (size_t k = 0; k < ne; k++) {
            const struct engine *e = &engines[eidx[k]];
            if ((e->flags & ENGINE_VALID_ONLY) && !c->valid) {
                ok[k] = false; /* its table cell stays "—" */
                continue;
            }
            ok[k] = check(e, c, buf, scratch);
            if (!ok[k]) {
                gbps[eidx[k]][ci] = -1;
                continue;
            }
            struct job j;
            job_for(&j, e, c, buf);
            double t0 = bench_thread_ns();
            sink = e->run(&j);
            double t = bench_thread_ns() - t0;
            iters[k] = t <= 0 ? 1000 : (size_t)(sample_ns / t) + 1;
        }
        for (int r = 0; r < reps; r++) {
            /* each round starts one engine later: the one after a peer
             * that churned the caches is a different one each time (the
             * first was up to 1.6x slower on the 1 MiB corpora) */
            for (size_t step = 0; step < ne; step++) {
                size_t k = (step + (size_t)r) % ne;
                if (!ok[k])
                    continue;
                const struct engine *e = &engines[eidx[k]];
                struct job j;
                job_for(&j, e, c, buf);
                double t0 = bench_thread_ns();
                for (size_t it = 0; it < iters[k]; it++)
                    sink = e->run(&j);
                samples[k][r] = (bench_thread_ns() - t0) / (double)iters[k];
            }
        }
        for (size_t k = 0; k < ne; k++) {
            if (!ok[k])
                continue;
            double med = bench_pick(samples[k], reps, use_min);
            gbps[eidx[k]][ci] = (double)op_bytes(op, c) / med; /* bytes per ns = GB/s */
        }
    }
}

/* ------------------------------------------------------------- output */

static void print_cell(double v)
{
    if (v < 0)
        printf(" FAIL |");
    else if (v == 0)
        printf(" — |");
    else if (v >= 10)
        printf(" %.1f |", v);
    else
        printf(" %.2f |", v);
}

static void table_header(enum op op, const char *first)
{
    printf("| %s |", first);
    for (size_t ci = 0; ci < ncorpora; ci++)
        if (applies(op, &corpora[ci]))
            printf(" %s |", corpora[ci].name);
    printf("\n|---|");
    for (size_t ci = 0; ci < ncorpora; ci++)
        if (applies(op, &corpora[ci]))
            printf("---:|");
    printf("\n");
}

static const char *role_tag(enum role r)
{
    return r == ROLE_PEER_SIMD ? " (SIMD)" : "";
}

static size_t find_engine(enum op op, const char *name)
{
    for (size_t k = 0; k < nengines; k++)
        if (engines[k].op == op && strcmp(engines[k].name, name) == 0)
            return k;
    return SIZE_MAX;
}

static void print_op(enum op op, const size_t *eidx, size_t ne)
{
    printf("### %s\n\nGB/s of %s, %s of %d samples.\n\n", op_titles[op],
           op == OP_ENCODE    ? "UTF-8 output (the corpus bytes)"
           : op == OP_UTF7DEC ? "UTF-7 input (the corpus as utfdfa's UTF-7 encoder writes it)"
           : op == OP_UTF7ENC ? "UTF-7 output (counted as the length of utfdfa's UTF-7 for "
                                "every engine)"
                              : "input",
           use_min ? "fastest" : "median", reps);
    table_header(op, "engine");
    for (size_t k = 0; k < ne; k++) {
        printf("| %s |", engines[eidx[k]].name);
        for (size_t ci = 0; ci < ncorpora; ci++)
            if (applies(op, &corpora[ci]))
                print_cell(gbps[eidx[k]][ci]);
        printf("\n");
    }
    printf("\n");
    for (size_t k = 0; k < ne; k++)
        if (engines[eidx[k]].flags & ENGINE_VALID_ONLY)
            printf("%s: valid corpora only (it does not replace per maximal subpart).\n\n",
                   engines[eidx[k]].name);
    for (size_t k = 0; k < ne && op == OP_UTF7ENC; k++) {
        bool any = false;
        for (size_t ci = 0; ci < ncorpora; ci++) {
            size_t r = utf7_differs[eidx[k]][ci];
            if (!r)
                continue;
            if (!any)
                printf("%s: its UTF-7 is not utfdfa's bytes but decodes (with utfdfa) to the "
                       "same code points; bytes, its / utfdfa's:", engines[eidx[k]].name);
            printf("%s %s %zu / %zu", any ? "," : "", corpora[ci].name, r, corpora[ci].nu7);
            any = true;
        }
        if (any)
            printf(".\n\n");
    }
    /* Ratios of utfdfa and utfdfa-fast-default to each peer. */
    const char *ours[2] = {"utfdfa", "utfdfa-fast-default"};
    bool any_peer = false;
    for (size_t k = 0; k < ne; k++)
        any_peer |= engines[eidx[k]].role == ROLE_PEER || engines[eidx[k]].role == ROLE_PEER_SIMD ||
                    engines[eidx[k]].role == ROLE_BASELINE;
    if (!any_peer)
        return;
    printf("Ratios (ours / theirs, > 1: ours faster):\n\n");
    table_header(op, "ratio");
    for (int w = 0; w < 2; w++) {
        size_t me = find_engine(op, ours[w]);
        if (me == SIZE_MAX)
            continue;
        for (size_t k = 0; k < ne; k++) {
            const struct engine *e = &engines[eidx[k]];
            if (e->role != ROLE_PEER && e->role != ROLE_PEER_SIMD && e->role != ROLE_BASELINE &&
                e->role != ROLE_CEILING)
                continue;
            printf("| %s / %s%s |", ours[w], e->name, role_tag(e->role));
            for (size_t ci = 0; ci < ncorpora; ci++) {
                if (!applies(op, &corpora[ci]))
                    continue;
                double a = gbps[me][ci], b = gbps[eidx[k]][ci];
                if (a > 0 && b > 0)
                    printf(" %.2f |", a / b);
                else
                    printf(" — |");
            }
            printf("\n");
        }
    }
    printf("\n");
}

/* ------------------------------------------------------------- targets */

static double cell(enum op op, const char *engine, size_t ci)
{
    size_t k = find_engine(op, engine);
    return k == SIZE_MAX ? 0 : gbps[k][ci];
}

/* Best of a role on a corpus (0: none measured). */
static double best_of(enum op op, enum role role, size_t ci, const char **who)
{
    double best = 0;
    for (size_t k = 0; k < nengines; k++)
        if (engines[k].op == op && engines[k].role == role && gbps[k][ci] > best) {
            best = gbps[k][ci];
            if (who)
                *who = engines[k].name;
        }
    return best;
}

static int targets_met, targets_missed;

static void verdict(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void verdict(bool ok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("- %s ", ok ? "**met**" : "**missed**");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    ok ? targets_met++ : targets_missed++;
}

/* The first round's targets: against the scalar peers and the table loops. */
static void print_targets(const char *me)
{
    printf("#### Targets against scalar peers, for `%s`\n\n", me);
    for (size_t ci = 0; ci < ncorpora; ci++) {
        const struct corpus *c = &corpora[ci];
        double v = cell(OP_VALIDATE, me, ci);
        if (!c->valid || v <= 0)
            continue;
        if (c->ascii) {
            double mc = cell(OP_VALIDATE, "memcpy (ceiling)", ci);
            if (c->synthetic) {
                verdict(v >= 30, "validate %s: %.2f GB/s (>= 30)", c->name, v);
                verdict(v >= 0.6 * mc, "validate %s: %.0f%% of memcpy's %.2f GB/s (>= 60%%)",
                        c->name, 100 * v / mc, mc);
            }
            continue;
        }
        const char *who = "none";
        double peer = best_of(OP_VALIDATE, ROLE_PEER, ci, &who);
        double hoe = cell(OP_VALIDATE, "baseline Hoehrmann trans[state+class]", ci);
        verdict(v >= 4, "validate %s: %.2f GB/s (>= 4)", c->name, v);
        if (peer > 0)
            verdict(v >= 3 * peer, "validate %s: %.2fx the best scalar peer, %s at %.2f (>= 3x)",
                    c->name, v / peer, who, peer);
        verdict(v >= 6 * hoe, "validate %s: %.2fx the Hoehrmann loop's %.2f (>= 6x)", c->name,
                v / hoe, hoe);
    }
    for (size_t ci = 0; ci < ncorpora; ci++) {
        const struct corpus *c = &corpora[ci];
        double v = cell(OP_DEC32, me, ci);
        if (!c->valid || v <= 0)
            continue;
        if (c->ascii) {
            if (c->synthetic)
                verdict(v >= 10, "decode32 %s: %.2f GB/s (>= 10)", c->name, v);
            continue;
        }
        double ic = cell(OP_DEC32, "iconv (glibc)", ci), cnv = cell(OP_DEC32, "ICU ucnv_toAlgorithmic", ci);
        verdict(v >= 1.5, "decode32 %s: %.2f GB/s (>= 1.5)", c->name, v);
        if (ic > 0)
            verdict(v >= 2 * ic, "decode32 %s: %.2fx iconv's %.2f (>= 2x)", c->name, v / ic, ic);
        if (cnv > 0)
            verdict(v >= 2 * cnv, "decode32 %s: %.2fx ICU ucnv's %.2f (>= 2x)", c->name, v / cnv,
                    cnv);
    }
    for (size_t ci = 0; ci < ncorpora; ci++) {
        const struct corpus *c = &corpora[ci];
        double v = cell(OP_REPLACE, me, ci);
        if (c->valid || v <= 0)
            continue;
        verdict(v >= 0.8, "replace %s: %.2f GB/s (>= 0.8)", c->name, v);
        for (size_t k = 0; k < nengines; k++) {
            const struct engine *e = &engines[k];
            if (e->op == OP_REPLACE && e->role == ROLE_PEER && gbps[k][ci] > 0)
                verdict(v >= 5 * gbps[k][ci], "replace %s: %.2fx %s's %.2f (>= 5x)", c->name,
                        v / gbps[k][ci], e->name, gbps[k][ci]);
        }
    }
    for (size_t ci = 0; ci < ncorpora; ci++) {
        const struct corpus *c = &corpora[ci];
        char ref[96];
        snprintf(ref, sizeof ref, "%s, whole buffer", me);
        double w4 = cell(OP_STREAM4K, ref, ci), w64 = cell(OP_STREAM64, ref, ci);
        double s4 = cell(OP_STREAM4K, me, ci), s64 = cell(OP_STREAM64, me, ci);
        if (!c->valid || w4 <= 0 || w64 <= 0 || s4 <= 0 || s64 <= 0)
            continue;
        verdict(s4 >= 0.95 * w4, "stream %s: 4 KiB chunks %.2f GB/s, %.2fx the whole buffer's %.2f "
                "in the same rounds (>= 0.95x)", c->name, s4, s4 / w4, w4);
        verdict(s64 >= 0.7 * w64, "stream %s: 64-byte chunks %.2f GB/s, %.2fx the whole buffer's %.2f "
                "in the same rounds (>= 0.7x)", c->name, s64, s64 / w64, w64);
    }
    printf("\n");
}

/* The SIMD round's targets: against simdjson, in GB/s, against CPython's
 * UTF-7 codec (the streaming ones are print_targets's). Ratios across two
 * ops (replacement against strict decoding) take the host's drift between
 * their rounds. */
static void print_simd_targets(const char *me)
{
    printf("#### Targets of the SIMD engines, for `%s`\n\n", me);
    const char *hoe = "baseline Hoehrmann trans[state+class]";
    const char *sj_name = "simdjson validate_utf8 (SIMD)";
    for (size_t ci = 0; ci < ncorpora; ci++) {
        const struct corpus *c = &corpora[ci];
        double v = cell(OP_VALIDATE, me, ci), sj = cell(OP_VALIDATE, sj_name, ci);
        double d32 = cell(OP_DEC32, me, ci), d16 = cell(OP_DEC16, me, ci);
        double rep = cell(OP_REPLACE, me, ci);
        if (c->ascii)
            continue;
        if (!c->valid) {
            if (rep > 0)
                verdict(rep >= 1, "replace %s: %.2f GB/s (>= 1)", c->name, rep);
            continue;
        }
        if (v > 0 && sj > 0)
            verdict(v >= sj, "validate %s: %.2fx simdjson's %.2f (>= 1x)", c->name, v / sj, sj);
        for (int op = OP_DEC32; op <= OP_DEC16; op++) {
            double d = op == OP_DEC32 ? d32 : d16, h = cell((enum op)op, hoe, ci);
            if (d <= 0)
                continue;
            verdict(d >= 3, "%s %s: %.2f GB/s (>= 3)", op_names[op], c->name, d);
            if (h > 0)
                verdict(d >= 5 * h, "%s %s: %.2fx the Hoehrmann loop's %.2f (>= 5x)",
                        op_names[op], c->name, d / h, h);
        }
        if (rep > 0 && d32 > 0)
            verdict(rep >= 0.9 * d32, "replace %s (valid): %.2fx strict decoding's %.2f (>= 0.9x)",
                    c->name, rep / d32, d32);
        double u7 = cell(OP_UTF7DEC, me, ci), py = cell(OP_UTF7DEC, "CPython utf_7", ci);
        if (u7 > 0 && !c->synthetic)
            verdict(u7 >= 1, "utf7dec %s: %.2f GB/s of UTF-7 (>= 1)", c->name, u7);
        if (u7 > 0 && py > 0 && !c->synthetic)
            verdict(u7 >= 3 * py, "utf7dec %s: %.2fx CPython's %.2f (>= 3x)", c->name, u7 / py, py);
    }
    printf("\n");
}

/* ------------------------------------------------------------- main */

static void print_machine(void)
{
    char model[256] = "unknown";
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        char line[1024];
        while (fgets(line, sizeof line, f))
            if (strncmp(line, "model name", 10) == 0) {
                char *p = strchr(line, ':');
                if (p) {
                    p += 1 + strspn(p + 1, " \t");
                    p[strcspn(p, "\n")] = 0;
                    snprintf(model, sizeof model, "%s", p);
                }
                break;
            }
        fclose(f);
    }
    time_t now = time(NULL);
    char date[64];
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    printf("## utfdfa benchmark\n\n");
    printf("- date: %s\n- CPU: %s (%ld online CPUs)\n", date, model, sysconf(_SC_NPROCESSORS_ONLN));
    printf("- kernel level: %s%s\n", utfdfa__fast_level_name(),
           getenv("BENCH_LEVEL") && *getenv("BENCH_LEVEL") ? " (BENCH_LEVEL)" : " (the best this CPU has)");
    printf("- compiler: gcc %s\n- flags: %s\n", __VERSION__, BENCH_FLAGS);
    printf("- method: thread CPU time, engines interleaved in rounds, %s of %d samples of "
           "about %.0f ms each; every result checked against tests/ref first\n",
           use_min ? "fastest" : "median", reps, sample_ns / 1e6);
}

static bool wanted(const char *ops, const char *name)
{
    if (!ops || !*ops)
        return true;
    size_t l = strlen(name);
    for (const char *p = ops; (p = strstr(p, name)); p += l)
        if ((p == ops || p[-1] == ',') && (p[l] == 0 || p[l] == ','))
            return true;
    return false;
}

static bool wanted_op(const char *ops, enum op op)
{
    return wanted(ops, op_names[op]);
}

/* The transcoding matrix, one table per valid corpus. */
static void bench_transcode(const char *filter)
{
    struct bench_timing t = {reps, sample_ns, use_min, filter};
    transcode_intro(&t);
    for (size_t ci = 0; ci < ncorpora; ci++) {
        const struct corpus *c = &corpora[ci];
        if (c->valid)
            check_failures += transcode_corpus(c->name, c->cps, c->ncps, c->ascii, &t);
    }
}

static void bench_sizes(void)
{
    struct bench_timing t = {reps, sample_ns, use_min, NULL};
    sizes_intro(&t);
    for (size_t ci = 0; ci < ncorpora; ci++) {
        const struct corpus *c = &corpora[ci];
        check_failures += c->valid ? sizes_corpus(c->name, c->cps, c->ncps, NULL, 0, &t)
                                   : sizes_corpus(c->name, NULL, 0, c->data, c->n, &t);
    }
}

#ifdef HAVE_SIMDUTF
/* utfdfa level by level against simdutf (make bench SIMDUTF=DIR). */
static void bench_simdutf(const char *filter)
{
    struct bench_timing t = {reps, sample_ns, use_min, filter};
    struct bench_text texts[MAX_CORPORA];
    size_t n = 0;
    for (size_t ci = 0; ci < ncorpora; ci++)
        if (corpora[ci].valid)
            texts[n++] = (struct bench_text){corpora[ci].name, corpora[ci].cps, corpora[ci].ncps};
    check_failures += simdutf_compare(texts, n, &t);
}
#endif

int main(int argc, char **argv)
{
    const char *shared = argc > 1 ? argv[1] : "../shared";
    const char *env = getenv("BENCH_REPS");
    if (env && atoi(env) > 0)
        reps = atoi(env) < 256 ? atoi(env) : 255;
    env = getenv("BENCH_SAMPLE_MS");
    if (env && atof(env) > 0)
        sample_ns = atof(env) * 1e6;
    const char *ops = getenv("BENCH_OPS"), *filter = getenv("BENCH_ENGINES");
    env = getenv("BENCH_STAT");
    use_min = env && strcmp(env, "min") == 0;
    env = getenv("BENCH_LEVEL"); /* a kernel level (src/fast/levels.h) instead of the best */
    if (env && *env && !utfdfa__fast_force(env)) {
        fprintf(stderr, "bench: BENCH_LEVEL=%s: no such level on this CPU\n", env);
        return 2;
    }

    print_machine();
    printf("- peers:\n");
    register_engines();
    peers_describe();
    printf("\n");
    load_lipsum(shared);
    make_synthetic();
    size_t maxn = 0;
    printf("Corpora (bytes, code points, valid):");
    for (size_t ci = 0; ci < ncorpora; ci++) {
        analyse(&corpora[ci]);
        if (corpora[ci].n > maxn)
            maxn = corpora[ci].n;
        printf("%s %s %zu/%zu%s", ci ? "," : "", corpora[ci].name, corpora[ci].n,
               corpora[ci].valid ? corpora[ci].ncps : corpora[ci].nrcps,
               corpora[ci].valid ? "" : " (invalid)");
    }
    printf(".\n\n");
    if (wanted_op(ops, OP_UTF7DEC) || wanted_op(ops, OP_UTF7ENC)) {
        printf("UTF-7 forms (utfdfa_encode, default options; checked against tests/ref/ref_utf7.c), "
               "bytes:");
        for (size_t ci = 0, first = 1; ci < ncorpora; ci++) {
            make_utf7(&corpora[ci]);
            if (!corpora[ci].u7)
                continue;
            if (corpora[ci].nu7 > maxn)
                maxn = corpora[ci].nu7;
            printf("%s %s %zu", first ? "" : ",", corpora[ci].name, corpora[ci].nu7);
            first = 0;
        }
        printf(".\n\n");
    }
    void *buf = xmalloc(4 * maxn + 64);
    scratch_cap = 2 * maxn + 16;
    uint32_t *scratch = xmalloc(scratch_cap * sizeof *scratch);

    for (int op = 0; op < NOPS; op++) {
        if (!wanted_op(ops, (enum op)op))
            continue;
        size_t eidx[MAX_ENGINES], ne = 0;
        for (size_t k = 0; k < nengines; k++) {
            const struct engine *e = &engines[k];
            if (e->op != (enum op)op)
                continue;
            if (filter && *filter && e->role != ROLE_CEILING && e->role != ROLE_UTFDFA &&
                !strstr(e->name, filter))
                continue;
            eidx[ne++] = k;
        }
        measure((enum op)op, eidx, ne, buf, scratch);
        print_op((enum op)op, eidx, ne);
        fflush(stdout);
    }
    if (wanted(ops, "transcode"))
        bench_transcode(filter);
    if (wanted(ops, "sizes"))
        bench_sizes();
#ifdef HAVE_SIMDUTF
    if (wanted(ops, "simdutf"))
        bench_simdutf(filter);
#endif
    printf("### Targets\n\n");
    /* utfdfa is the public API as built; utfdfa-fast-default is what it
     * becomes once the fast paths are wired in (the same calls and loops). */
    print_targets("utfdfa");
    print_simd_targets("utfdfa");
    int met = targets_met, missed = targets_missed;
    print_targets("utfdfa-fast-default");
    printf("Target checks met / missed: utfdfa %d / %d; utfdfa-fast-default %d / %d.\n", met,
           missed, targets_met - met, targets_missed - missed);
    if (check_failures) {
        printf("\nbench: %d engine results disagreed with the reference: FAILED\n", check_failures);
        return 1;
    }
    printf("\nbench: every engine's output agreed with the reference decoder before timing.\n");
    return 0;
}
