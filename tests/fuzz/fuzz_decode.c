/* SPDX-License-Identifier: MIT */
/* libFuzzer target: one per input encoding (compiled with -DFUZZ_ENC=utf8,
 * utf16le, utf16be, utf32le or utf32be and -DFUZZ_FROM=its enum, the
 * registry's forms:NAME rows through build/gen/encodings.mk). Differential
 * and protocol checks:
 *
 *   1. the library against the reference decoder of tests/ref (written from
 *      the specs alone): characters, U+FFFD, dropped errors, every strict
 *      error's offset, length and kind, the BOM mode, for every output
 *      kind (decode_utf32, decode_utf16, transcode to each encoding, check);
 *   2. UTF-8 only: the re2c engine generated from the same ABNF
 *      (build/gen/utf8.lexer.c) and the shift-DFA rows against the plain
 *      DFA table, byte by byte;
 *   3. the whole buffer in one call against the same input in
 *      fuzzer-chosen chunks with fuzzer-chosen output room, checking the
 *      streaming protocol on every call;
 *   4. decode -> encode (each encoding) -> decode round trips, and a valid
 *      input re-encoded in its own encoding is byte-identical;
 *   5. validate()/valid_up_to() and the worst-case size helpers.
 *
 * Any disagreement aborts with a message (a libFuzzer crash). Input layout:
 * 4 header bytes choose the mode, output kind, chunking and room; the rest
 * is the text. tests/fuzz/make_seeds.py writes seeds in this layout.
 */
#include "ref_kinds.h"
#include "ref_utf16.h"
#include "ref_utf32.h"
#include "ref_utf8.h"
#include "utfdfa.h"

#define FUZZ_CAT2(a, b) a##b
#define FUZZ_CAT(a, b) FUZZ_CAT2(a, b)
#if !defined(FUZZ_ENC) || !defined(FUZZ_FROM)
#error "compile with -DFUZZ_ENC=utf8|utf16le|utf16be|utf32le|utf32be|utf16|utf32 -DFUZZ_FROM=its enum"
#endif
#define FROM FUZZ_FROM
#define FUZZ_IS_utf8 1
#define FUZZ_IS_utf16le 0
#define FUZZ_IS_utf16be 0
#define FUZZ_IS_utf32le 0
#define FUZZ_IS_utf32be 0
#define FUZZ_IS_utf16 0
#define FUZZ_IS_utf32 0
#define FROM_IS_UTF8 FUZZ_CAT(FUZZ_IS_, FUZZ_ENC)
#define FUZZ_NAME utfdfa_encoding_name(FROM)
#define FUZZ_HEADER_BYTES 4
#define FUZZ_DRIVER
#include "fuzz_common.h"

#if FROM_IS_UTF8
#include "utf8.gen.h"
#include "utf8.lexer.c"
#endif

static const enum utfdfa_encoding encodings[] = {UTFDFA_UTF8, UTFDFA_UTF16LE, UTFDFA_UTF16BE,
                                                 UTFDFA_UTF32LE, UTFDFA_UTF32BE};
#define NENC 5

/* ------------------------------------------------------------ reference */

struct item {
    bool ok;
    uint32_t cp;
    size_t offset, len;
    enum utfdfa_error_kind kind;
};

static size_t ref_next(enum utfdfa_encoding enc, const uint8_t *s, size_t n, uint32_t *cp,
                       enum ref_kind *k)
{
    switch (enc) {
    case UTFDFA_UTF8:
        return ref_utf8_next(s, n, cp, k);
    case UTFDFA_UTF16LE:
    case UTFDFA_UTF16BE:
        return ref_utf16_next(s, n, enc == UTFDFA_UTF16BE, cp, k);
    default:
        return ref_utf32_next(s, n, enc == UTFDFA_UTF32BE, cp, k);
    }
}

static size_t ref_encode(enum utfdfa_encoding enc, uint32_t cp, uint8_t out[4])
{
    switch (enc) {
    case UTFDFA_UTF8:
        return ref_utf8_encode(cp, out);
    case UTFDFA_UTF16LE:
    case UTFDFA_UTF16BE:
        return ref_utf16_encode(cp, enc == UTFDFA_UTF16BE, out);
    default:
        return ref_utf32_encode(cp, enc == UTFDFA_UTF32BE, out);
    }
}

/* UTF-16 and UTF-32 without a byte order (RFC 2781 section 3.3, and
 * little-endian without a BOM as iconv and WHATWG read them): the order the
 * first unit says, and the BOM's length (0: none, or a stream shorter than
 * a unit). */
static enum utfdfa_encoding byte_order(enum utfdfa_encoding enc, const uint8_t *s, size_t n,
                                       size_t *bom)
{
    static const uint8_t be16[] = {0xFE, 0xFF}, le16[] = {0xFF, 0xFE};
    static const uint8_t be32[] = {0, 0, 0xFE, 0xFF}, le32[] = {0xFF, 0xFE, 0, 0};
    bool wide = enc == UTFDFA_UTF32;
    size_t unit = wide ? 4 : 2;
    bool be = n >= unit && memcmp(s, wide ? be32 : be16, unit) == 0;
    bool le = n >= unit && memcmp(s, wide ? le32 : le16, unit) == 0;
    *bom = be || le ? unit : 0;
    return wide ? (be ? UTFDFA_UTF32BE : UTFDFA_UTF32LE) : (be ? UTFDFA_UTF16BE : UTFDFA_UTF16LE);
}

/* Items of s[0..n) in `enc`; n + 1 slots suffice. For UTF-16/UTF-32
 * without a byte order, a BOM read is the first item, *signature set. */
static size_t ref_items(enum utfdfa_encoding enc, const uint8_t *s, size_t n, struct item *items,
                        bool *signature)
{
    size_t k = 0, start = 0;
    *signature = false;
    if (enc == UTFDFA_UTF16 || enc == UTFDFA_UTF32) {
        enc = byte_order(enc, s, n, &start);
        if (start) {
            items[k++] = (struct item){true, 0xFEFF, 0, start, UTFDFA_ERR_NONE};
            *signature = true;
        }
    }
    for (size_t i = start; i < n;) {
        uint32_t cp;
        enum ref_kind rk;
        size_t len = ref_next(enc, s + i, n - i, &cp, &rk);
        REQUIRE(len >= 1 && len <= n - i, "reference decoder: impossible length");
        items[k++] = (struct item){rk == REF_OK, cp, i, len, kind_of_ref(rk)};
        i += len;
    }
    return k;
}

/* ------------------------------------------------------------ output kinds */

static const struct sinkspec sinks[] = {
    {SINK_U32, UTFDFA_UTF8},      {SINK_U16, UTFDFA_UTF8},      {SINK_BYTES, UTFDFA_UTF8},
    {SINK_BYTES, UTFDFA_UTF16LE}, {SINK_BYTES, UTFDFA_UTF16BE}, {SINK_BYTES, UTFDFA_UTF32LE},
    {SINK_BYTES, UTFDFA_UTF32BE}, {SINK_CHECK, UTFDFA_UTF8},
};
#define NSINKS 8

static size_t min_room(const struct sinkspec *s)
{
    return s->sink == SINK_U32 ? 2 : s->sink == SINK_U16 ? 3 : s->sink == SINK_CHECK ? 0 : 8;
}

/* cps in the sink's form (reference encoders); returns bytes. */
static size_t sink_encode(const struct sinkspec *s, const uint32_t *cps, size_t n, uint8_t *out)
{
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t cp = cps[i];
        if (s->sink == SINK_U32) {
            memcpy(out + len, &cp, 4);
            len += 4;
        } else if (s->sink == SINK_U16) {
            uint16_t u[2] = {(uint16_t)cp, 0};
            size_t k = 1;
            if (cp >= 0x10000) {
                u[0] = (uint16_t)(0xD800 + ((cp - 0x10000) >> 10));
                u[1] = (uint16_t)(0xDC00 + ((cp - 0x10000) & 0x3FF));
                k = 2;
            }
            memcpy(out + len, u, 2 * k);
            len += 2 * k;
        } else if (s->sink == SINK_BYTES) {
            uint8_t b[4];
            size_t k = ref_encode(s->to, cp, b);
            REQUIRE(k > 0, "expected output holds a non-scalar value U+%X", cp);
            memcpy(out + len, b, k);
            len += k;
        }
    }
    return len;
}

/* Whole characters only: the units of one call decode without error. */
static bool whole_characters(const struct sinkspec *s, const uint8_t *p, size_t len)
{
    if (s->sink == SINK_U32) {
        for (size_t i = 0; i + 4 <= len; i += 4) {
            uint32_t cp;
            memcpy(&cp, p + i, 4);
            if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
                return false;
        }
        return len % 4 == 0;
    }
    if (s->sink == SINK_U16)
        return paired_utf16(p, len);
    if (s->sink == SINK_CHECK)
        return len == 0;
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        enum ref_kind k;
        i += ref_next(s->to, p + i, len - i, &cp, &k);
        if (k != REF_OK)
            return false;
    }
    return true;
}

/* ------------------------------------------------------------ expectation */

struct expect {
    uint32_t *cps; /* the output as code points */
    size_t ncps;
    utfdfa_error *errs; /* strict mode, going on after each */
    size_t nerrs;
};

/* What the library must produce: the reference items with the error mode
 * and the BOM mode applied. The BOM mode acts on the stream's first item
 * (a character or an error); add writes U+FEFF before anything but a
 * U+FEFF, and alone for an empty input. */
static void expect_from(const struct item *items, size_t nitems, enum utfdfa_error_mode errors,
                        enum utfdfa_bom bom, struct expect *x)
{
    x->cps = xmalloc((nitems + 1) * sizeof *x->cps);
    x->errs = xmalloc((nitems + 1) * sizeof *x->errs);
    x->ncps = x->nerrs = 0;
    if (bom == UTFDFA_BOM_ADD && !(nitems > 0 && items[0].ok && items[0].cp == 0xFEFF))
        x->cps[x->ncps++] = 0xFEFF;
    for (size_t i = 0; i < nitems; i++) {
        if (items[i].ok) {
            if (!(i == 0 && bom == UTFDFA_BOM_STRIP && items[i].cp == 0xFEFF))
                x->cps[x->ncps++] = items[i].cp;
            continue;
        }
        x->errs[x->nerrs++] = (utfdfa_error){items[i].offset, (uint32_t)items[i].len,
                                             items[i].kind};
        if (errors == UTFDFA_REPLACE)
            x->cps[x->ncps++] = 0xFFFD;
    }
}

/* As expect_from, when the items may begin with a byte-order signature:
 * that BOM is never text, and for the BOM mode it is the stream's first
 * character (so add writes it, strip and keep leave what follows alone). */
static void expect_items(const struct item *items, size_t nitems, bool signature,
                         enum utfdfa_error_mode errors, enum utfdfa_bom bom, struct expect *x)
{
    if (!signature) {
        expect_from(items, nitems, errors, bom, x);
        return;
    }
    expect_from(items + 1, nitems - 1, errors, UTFDFA_BOM_KEEP, x);
    if (bom == UTFDFA_BOM_ADD) {
        memmove(x->cps + 1, x->cps, x->ncps * sizeof *x->cps);
        x->cps[0] = 0xFEFF;
        x->ncps++;
    }
}

static void expect_free(struct expect *x)
{
    free(x->cps);
    free(x->errs);
}

/* ------------------------------------------------------------ driving */

static void same_as_expected(const struct outcome *o, const struct expect *x,
                             const struct sinkspec *s, enum utfdfa_error_mode errors, const char *how)
{
    uint8_t *want = xmalloc(4 * x->ncps + 4);
    size_t len = sink_encode(s, x->cps, x->ncps, want);
    REQUIRE(o->len == len && (len == 0 || memcmp(o->out, want, len) == 0),
            "%s, sink %d/%s, mode %d: output differs from the reference (%zu vs %zu bytes)",
            how, (int)s->sink, utfdfa_encoding_name(s->to), (int)errors, o->len, len);
    free(want);
    if (errors != UTFDFA_STRICT) {
        REQUIRE(o->nerrs == 0, "%s: errors reported in mode %d", how, (int)errors);
        return;
    }
    REQUIRE(o->nerrs == x->nerrs, "%s, sink %d: %zu strict errors, the reference has %zu", how,
            (int)s->sink, o->nerrs, x->nerrs);
    for (size_t i = 0; i < x->nerrs; i++)
        REQUIRE(o->errs[i].offset == x->errs[i].offset &&
                    o->errs[i].length == x->errs[i].length && o->errs[i].kind == x->errs[i].kind,
                "%s: error %zu is %llu+%u %s, the reference says %llu+%u %s", how, i,
                (unsigned long long)o->errs[i].offset, o->errs[i].length,
                utfdfa_error_name(o->errs[i].kind), (unsigned long long)x->errs[i].offset,
                x->errs[i].length, utfdfa_error_name(x->errs[i].kind));
}

/* ------------------------------------------------------------ engines */

#if FROM_IS_UTF8
/* The re2c lexer generated from the same ABNF, and the shift-DFA rows,
 * against the reference items. */
static void engines(const uint8_t *in, size_t n, const struct item *items, size_t nitems)
{
    size_t pos = 0, k = 0, len;
    unsigned tag;
    int t;
    while ((t = utf8_lex(in + pos, n - pos, &len, &tag)) != UTF8_LEX_END) {
        REQUIRE(k < nitems, "re2c: more tokens than reference items");
        const struct item *it = &items[k++];
        REQUIRE(it->offset == pos && it->len == len && it->ok == (t == UTF8_LEX_UNIT),
                "re2c: token at %zu (%zu bytes, %s) differs from the reference (%zu bytes, %s)",
                pos, len, t == UTF8_LEX_UNIT ? "unit" : "error", it->len,
                it->ok ? "ok" : "error");
        if (it->ok) {
            uint32_t v = len == 1 ? in[pos] : in[pos] & (0x7Fu >> len);
            for (size_t i = 1; i < len; i++)
                v = v << 6 | (in[pos + i] & 0x3Fu);
            REQUIRE(v == it->cp, "re2c: value U+%X, reference U+%X", v, it->cp);
        }
        pos += len;
    }
    REQUIRE(k == nitems && pos == n, "re2c: fewer tokens than reference items");
    /* Shift DFA and table DFA step together over every item. */
    for (size_t i = 0; i < nitems; i++) {
        uint32_t st = UTF8_ACCEPT;
        uint64_t sh = UTF8_SHIFT_ACCEPT;
        size_t end = items[i].offset + items[i].len + (items[i].ok ? 0 : 1);
        for (size_t j = items[i].offset; j < end && j < n; j++) {
            st = utf8_step(st, in[j]);
            sh = utf8_shift_step(sh, in[j]);
            REQUIRE((sh & 63) / 6 == st / UTF8_NCLASSES, "shift DFA and table DFA disagree at %zu",
                    j);
            if (st == UTF8_REJECT)
                break;
        }
    }
}
#endif

/* ------------------------------------------------------------ round trips */

/* The decoded characters, encoded in each encoding (the library's encoder,
 * byte-identical to the reference encoders) and decoded back, are the same
 * characters; a valid input comes back byte-identical in its own encoding. */
static void round_trips(const uint8_t *in, size_t n, const uint32_t *cps, size_t ncps, bool valid)
{
    size_t cap;
    REQUIRE(utfdfa_max_encoded_len(UTFDFA_UTF8, ncps, &cap), "max_encoded_len overflows");
    uint8_t *buf = xmalloc(cap), *ref = xmalloc(4 * ncps);
    uint32_t *back = xmalloc((ncps + 1) * 4);
    for (size_t t = 0; t < NENC; t++) {
        enum utfdfa_encoding to = encodings[t];
        utfdfa_encoder enc;
        utfdfa_encoder_init(&enc, to, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
        size_t s = ncps, o = cap;
        utfdfa_error e;
        utfdfa_result r = utfdfa_encode(&enc, cps, &s, buf, &o, true, &e);
        REQUIRE(r == UTFDFA_INPUT_EMPTY && s == ncps, "encode to %s: result %d",
                utfdfa_encoding_name(to), (int)r);
        size_t rl = 0;
        for (size_t i = 0; i < ncps; i++)
            rl += ref_encode(to, cps[i], ref + rl);
        REQUIRE(rl == o && (o == 0 || memcmp(ref, buf, o) == 0),
                "encode to %s differs from the reference encoder", utfdfa_encoding_name(to));
        if (valid && to == FROM)
            REQUIRE(o == n && (n == 0 || memcmp(buf, in, n) == 0),
                    "valid input does not come back byte-identical");
        utfdfa_decoder d;
        utfdfa_decoder_init(&d, to, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
        size_t bs = o, bo = ncps + 1;
        r = utfdfa_decode_utf32(&d, buf, &bs, back, &bo, true, &e);
        REQUIRE(r == UTFDFA_INPUT_EMPTY && bs == o && bo == ncps &&
                    (ncps == 0 || memcmp(back, cps, ncps * 4) == 0),
                "decode -> encode (%s) -> decode is not the identity", utfdfa_encoding_name(to));
    }
    free(buf);
    free(ref);
    free(back);
}

/* ------------------------------------------------------------ entry */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct header hd = parse_header(data, size);
    const uint8_t *in = hd.in;
    size_t n = hd.n;
    enum utfdfa_error_mode errors = hd.errors;
    enum utfdfa_bom bom = hd.bom;
    const struct sinkspec *chosen = &sinks[hd.sink % NSINKS];
    struct plan plan = hd.plan;

    struct item *items = xmalloc((n + 1) * sizeof *items);
    bool signature;
    size_t nitems = ref_items(FROM, in, n, items, &signature);
    struct expect x;
    expect_items(items, nitems, signature, errors, bom, &x);

    /* 1. Whole buffer, every output kind, against the reference: once with
     * the worst-case room (checks the size helpers), once with exactly the
     * expected room. */
    for (size_t k = 0; k < NSINKS; k++) {
        const struct sinkspec *s = &sinks[k];
        size_t bound = 0;
        bool fits = s->sink == SINK_U32   ? utfdfa_max_utf32_len(FROM, n, &bound)
                    : s->sink == SINK_U16 ? utfdfa_max_utf16_len(FROM, n, &bound)
                    : s->sink == SINK_BYTES
                        ? utfdfa_max_transcoded_len(FROM, s->to, n, &bound)
                        : true;
        REQUIRE(fits, "size helper overflows for %zu bytes", n);
        struct outcome o;
        drive(errors, bom, 0, s, in, n, NULL, bound, &o);
        same_as_expected(&o, &x, s, errors, "whole buffer, worst-case room");
        outcome_free(&o);
        uint8_t *tmp = xmalloc(4 * x.ncps + 4);
        size_t exact = sink_encode(s, x.cps, x.ncps, tmp) / unit_size(s);
        free(tmp);
        drive(errors, bom, 0, s, in, n, NULL, exact, &o);
        same_as_expected(&o, &x, s, errors, "whole buffer, exact room");
        outcome_free(&o);
    }

    /* 3. Fuzzer-chosen chunks and rooms, for the chosen output kind. */
    {
        struct outcome o;
        drive(errors, bom, 0, chosen, in, n, &plan, 0, &o);
        same_as_expected(&o, &x, chosen, errors, "chunked");
        outcome_free(&o);
    }

    /* 5. Validation agrees with the first error. */
    {
        utfdfa_error e;
        size_t v = utfdfa_validate(FROM, in, n, &e);
        struct expect strict;
        expect_items(items, nitems, signature, UTFDFA_STRICT, UTFDFA_BOM_KEEP, &strict);
        if (strict.nerrs == 0)
            REQUIRE(v == n, "validate: %zu of %zu valid, the reference says all", v, n);
        else
            REQUIRE(v == strict.errs[0].offset && e.offset == strict.errs[0].offset &&
                        e.length == strict.errs[0].length && e.kind == strict.errs[0].kind,
                    "validate: first error differs from the reference");
        if (FROM == UTFDFA_UTF8)
            REQUIRE(utfdfa_valid_up_to(in, n) == v, "valid_up_to != validate");
        /* 4. Round trips of what was decoded (replace mode, BOM kept). */
        struct expect rep;
        expect_items(items, nitems, signature, UTFDFA_REPLACE, UTFDFA_BOM_KEEP, &rep);
        round_trips(in, n, rep.cps, rep.ncps, strict.nerrs == 0);
        expect_free(&rep);
        expect_free(&strict);
    }

#if FROM_IS_UTF8
    /* 2. The other engines. */
    engines(in, n, items, nitems);
#endif
    expect_free(&x);
    free(items);
    return 0;
}
