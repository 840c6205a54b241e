/* SPDX-License-Identifier: MIT */
/* libFuzzer target for the encodings beyond the Unicode forms, one per
 * registry row whose fuzz column is variants:NAME (compiled with
 * -DFUZZ_ENC=NAME -DFUZZ_FROM=its enum, both from the registry through
 * build/gen/encodings.mk: a new row needs no edit here). Differential and
 * protocol checks:
 *
 *   1. the library against a second decoder, chosen by FUZZ_KIND_NAME below
 *      (a target without one has the checks 2 and 3 only): UTF-7 against
 *      the reference of tests/ref/ref_utf7.c (written from RFC 2152 alone:
 *      characters, every error's offset, length and kind, replacement);
 *      CESU-8, modified UTF-8 and WTF-8 against tests/ref/ref_forms.c (the
 *      same); IMAP's UTF-7 has no second decoder (its round trips are
 *      byte-identical); RFC 2279 and Corrected UTF-8 against the re2c lexer
 *      generated from the same grammar (token boundaries, values from the
 *      bit layout and the grammar's offsets, reserved units, the magic
 *      number); UCS-4 and ISO-8859-1 against fixed-width units, each its
 *      value;
 * Any disagreement aborts with a message (a libFuzzer crash). Input: 4
 * header bytes (mode, output kind, chunking, room), then the text.
 */
#define FUZZ_CAT2(a, b) a##b
#define FUZZ_CAT(a, b) FUZZ_CAT2(a, b)
#if !defined(FUZZ_ENC) || !defined(FUZZ_FROM)
#error "compile with -DFUZZ_ENC=NAME -DFUZZ_FROM=UTFDFA_... (build/gen/encodings.mk's FUZZ_FROM_NAME)"
#endif
#define FROM FUZZ_FROM
/* Which second decoder (preprocessor-visible); a target not listed has
 * none (0: an undefined name is 0 in #if). */
#define FUZZ_KIND_rfc2279 1
#define FUZZ_KIND_corrected 2
#define FUZZ_KIND_ucs4le 3
#define FUZZ_KIND_ucs4be 3
#define FUZZ_KIND_latin1 3
#define FUZZ_KIND_utf7 4
#define FUZZ_KIND_cesu8 5
#define FUZZ_KIND_mutf8 5
#define FUZZ_KIND_wtf8 5
#define KIND FUZZ_CAT(FUZZ_KIND_, FUZZ_ENC)
#define FUZZ_NAME utfdfa_encoding_name(FROM)
#define FUZZ_HEADER_BYTES 4
#define FUZZ_DRIVER
#include "fuzz_common.h"

#if KIND == 1
#include "utf8-rfc2279.lexer.c"
#define LEX utf8_rfc2279_lex
#define LEX_UNIT UTF8_RFC2279_LEX_UNIT
#define LEX_END UTF8_RFC2279_LEX_END
#elif KIND == 2
#include "corrected-utf-8.gen.h"
#include "corrected-utf-8.lexer.c"
#define LEX corrected_utf_8_lex
#define LEX_UNIT CORRECTED_UTF_8_LEX_UNIT
#define LEX_END CORRECTED_UTF_8_LEX_END
#elif KIND == 4
#include "ref_utf7_kinds.h"
#elif KIND == 5
#include "ref_forms.h"
#endif

/* ------------------------------------------------------------ driving */

#define NSINKS (3 + UTFDFA_NENCODINGS)

/* Code points, UTF-16, check, or bytes in any encoding. */
static struct sinkspec sink_of(unsigned k)
{
    static const enum sink first[3] = {SINK_U32, SINK_U16, SINK_CHECK};
    struct sinkspec s = {SINK_BYTES, UTFDFA_UTF8};
    if (k < 3)
        s.sink = first[k];
    else
        s.to = (enum utfdfa_encoding)(k - 3);
    return s;
}

/* Room that always holds what one step writes: a BOM or Corrected UTF-8's
 * 8-byte magic number, then the most one step writes (a 6-byte form; the
 * characters of a magic number that turned out to be text, and a U+FFFD). */
static size_t min_room(const struct sinkspec *s)
{
    return s->sink == SINK_U32 ? 4 : s->sink == SINK_U16 ? 6 : s->sink == SINK_CHECK ? 0 : 20;
}

/* UTF-16 output pairs its surrogates (decode_utf16 writes Unicode only);
 * code points may be any value the source holds; check writes nothing. */
static bool whole_characters(const struct sinkspec *s, const uint8_t *p, size_t len)
{
    if (s->sink == SINK_CHECK)
        return len == 0;
    if (s->sink != SINK_U16)
        return len % unit_size(s) == 0;
    return paired_utf16(p, len);
}

static bool same_outcome(const struct outcome *a, const struct outcome *b)
{
    if (a->len != b->len || (a->len && memcmp(a->out, b->out, a->len)) || a->nerrs != b->nerrs)
        return false;
    for (size_t i = 0; i < a->nerrs; i++)
        if (a->errs[i].offset != b->errs[i].offset || a->errs[i].length != b->errs[i].length ||
            a->errs[i].kind != b->errs[i].kind)
            return false;
    return true;
}

/* Decode the whole input to code points in one call per error. */
static size_t decode_all(enum utfdfa_error_mode errors, enum utfdfa_bom bom, unsigned options,
                         const uint8_t *in, size_t n, uint32_t *cps, utfdfa_error *errs,
                         size_t *nerrs)
{
    struct sinkspec s = {SINK_U32, UTFDFA_UTF8};
    struct outcome o;
    size_t room;
    REQUIRE(utfdfa_max_utf32_len(FROM, n, &room), "max_utf32_len overflows");
    drive(errors, bom, options, &s, in, n, NULL, room, &o);
    REQUIRE(o.len / 4 <= room, "max_utf32_len is not an upper bound");
    if (o.len)
        memcpy(cps, o.out, o.len);
    if (errs)
        memcpy(errs, o.errs, o.nerrs * sizeof *errs);
    if (nerrs)
        *nerrs = o.nerrs;
    size_t ncps = o.len / 4;
    outcome_free(&o);
    return ncps;
}

/* ------------------------------------------------------------ second decoders */

#if KIND != 0
/* What strict decoding (going on after each error, BOM kept) must give. */
struct expect {
    uint32_t *cps;
    size_t ncps;
    utfdfa_error *errs;
    size_t nerrs;
};

static void add_cp(struct expect *x, uint32_t cp)
{
    x->cps[x->ncps++] = cp;
}

static void add_err(struct expect *x, size_t offset, size_t len, enum utfdfa_error_kind kind)
{
    x->errs[x->nerrs++] = (utfdfa_error){offset, (uint32_t)len, kind};
}

#endif

#if KIND == 1 || KIND == 2
/* Value of a unit from its bits: the lead byte's payload below its first
 * zero bit, 6 bits per continuation byte (RFC 2279bis section 3; Corrected
 * UTF-8 adds its row's offset, the grammar's @value offset). */
static uint32_t bits_value(const uint8_t *p, size_t len)
{
    uint32_t v = len == 1 ? p[0] : p[0] & (0x7Fu >> len);
    for (size_t i = 1; i < len; i++)
        v = v << 6 | (p[i] & 0x3Fu);
    return v;
}

/* The lexer's tokens. Kinds are not the lexer's to say, except a reserved
 * unit's (Corrected UTF-8): errors are compared by offset and length. */
static void second_decoder(const uint8_t *in, size_t n, struct expect *x)
{
    size_t pos = 0, len;
    unsigned tag = 0;
    int t;
#if KIND == 2
    /* The magic number at the very start is a signature: kept, it is its
     * four characters, its U+0000 no error (corrected-utf-8.txt). */
    static const uint8_t magic[8] = {0xEF, 0xB7, 0x9D, 0xED, 0xB2, 0xAE, 0x00, 0x0A};
    if (n >= 8 && memcmp(in, magic, 8) == 0) {
        add_cp(x, 0x10E7D);
        add_cp(x, 0xED4E);
        add_cp(x, 0x0000);
        add_cp(x, 0x000A);
        pos = 8;
    }
#endif
    while ((t = LEX(in + pos, n - pos, &len, &tag)) != LEX_END) {
        REQUIRE(len >= 1 && len <= n - pos, "lexer: token of %zu bytes", len);
        if (t != LEX_UNIT) {
            add_err(x, pos, len, UTFDFA_ERR_NONE);
        } else {
#if KIND == 2
            if (tag == CORRECTED_UTF_8_RESERVED_TAG)
                add_err(x, pos, len, UTFDFA_ERR_RESERVED);
            else
                add_cp(x, bits_value(in + pos, len) + corrected_utf_8_tag_offset[tag]);
#else
            add_cp(x, bits_value(in + pos, len));
#endif
        }
        pos += len;
    }
    REQUIRE(pos == n, "lexer stopped at %zu of %zu", pos, n);
}
#elif KIND == 3
/* Fixed-width units, every one a value, whatever it is (UCS-4's 4 bytes in
 * either order; ISO-8859-1's byte, its code point); a cut unit is truncated. */
static void second_decoder(const uint8_t *in, size_t n, struct expect *x)
{
    size_t unit = utfdfa_unit_size(FROM), i = 0;
    bool big_endian = FROM == UTFDFA_UCS4BE;
    for (; i + unit <= n; i += unit) {
        uint32_t v = 0;
        for (size_t b = 0; b < unit; b++)
            v = v << 8 | in[big_endian ? i + b : i + unit - 1 - b];
        add_cp(x, v);
    }
    if (i < n)
        add_err(x, i, n - i, UTFDFA_ERR_TRUNCATED);
}
#elif KIND == 5
static void second_decoder(const uint8_t *in, size_t n, struct expect *x)
{
    static const enum utfdfa_error_kind kinds[] = {
        UTFDFA_ERR_NONE,     UTFDFA_ERR_UNEXPECTED_CONTINUATION, UTFDFA_ERR_INVALID_LEAD,
        UTFDFA_ERR_OVERLONG, UTFDFA_ERR_SURROGATE,               UTFDFA_ERR_TRUNCATED,
        UTFDFA_ERR_NUL,      UTFDFA_ERR_TOO_LARGE};
    struct refc_item *items = xmalloc((n + 1) * sizeof *items);
    size_t k = FROM == UTFDFA_WTF8 ? refw_decode(in, n, items)
                                   : refc_decode(in, n, FROM == UTFDFA_MUTF8, items);
    for (size_t i = 0; i < k; i++) {
        if (items[i].kind == REFC_OK)
            add_cp(x, items[i].cp);
        else
            add_err(x, items[i].offset, items[i].len, kinds[items[i].kind]);
    }
    free(items);
}
#elif KIND == 4
/* The reference's replacing decode, its U+FFFDs marked: the characters are
 * the unmarked outputs, the errors its records in order. */
static void second_decoder(const uint8_t *in, size_t n, struct expect *x)
{
    uint32_t *out = xmalloc((n + 1) * sizeof *out);
    bool *marked = xmalloc(n + 1);
    struct ref7_error *errs = xmalloc((n + 1) * sizeof *errs);
    size_t nerr = 0, nout = ref7_decode_marked(in, n, out, marked, &nerr, errs, n + 1);
    REQUIRE(nerr <= n + 1, "reference: %zu errors", nerr);
    for (size_t i = 0; i < nout; i++)
        if (!marked[i])
            add_cp(x, out[i]);
    for (size_t i = 0; i < nerr; i++)
        add_err(x, errs[i].offset, errs[i].length, ref7_library_kind(errs[i].kind));
    free(out);
    free(marked);
    free(errs);
}
#endif

#if KIND != 0
static void against_second_decoder(const uint8_t *in, size_t n)
{
    struct expect x = {xmalloc((n + 8) * 4), 0, xmalloc((n + 1) * sizeof(utfdfa_error)), 0};
    second_decoder(in, n, &x);
    uint32_t *cps = xmalloc((n + 8) * 4);
    utfdfa_error *errs = xmalloc((n + 1) * sizeof *errs);
    size_t nerrs, ncps = decode_all(UTFDFA_STRICT, UTFDFA_BOM_KEEP, 0, in, n, cps, errs, &nerrs);
    REQUIRE(ncps == x.ncps && (ncps == 0 || memcmp(cps, x.cps, ncps * 4) == 0),
            "%zu characters, the second decoder has %zu (or they differ)", ncps, x.ncps);
    REQUIRE(nerrs == x.nerrs, "%zu errors, the second decoder has %zu", nerrs, x.nerrs);
    for (size_t i = 0; i < nerrs; i++)
        REQUIRE(errs[i].offset == x.errs[i].offset && errs[i].length == x.errs[i].length &&
                    (x.errs[i].kind == UTFDFA_ERR_NONE || errs[i].kind == x.errs[i].kind),
                "error %zu is %llu+%u %s, the second decoder says %llu+%u %s", i,
                (unsigned long long)errs[i].offset, errs[i].length,
                utfdfa_error_name(errs[i].kind), (unsigned long long)x.errs[i].offset,
                x.errs[i].length, utfdfa_error_name(x.errs[i].kind));
#if KIND == 4
    /* Replacing: exactly the reference's output, U+FFFDs in place. */
    uint32_t *ref = xmalloc((n + 1) * 4);
    size_t nref = ref7_decode_replace(in, n, ref, NULL, NULL, 0);
    ncps = decode_all(UTFDFA_REPLACE, UTFDFA_BOM_KEEP, 0, in, n, cps, NULL, NULL);
    REQUIRE(ncps == nref && (ncps == 0 || memcmp(cps, ref, ncps * 4) == 0),
            "replace: %zu characters, the reference %zu (or they differ)", ncps, nref);
    free(ref);
#endif
    free(cps);
    free(errs);
    free(x.cps);
    free(x.errs);
}
#endif

/* ------------------------------------------------------------ round trips */

static size_t encode_all(enum utfdfa_encoding to, unsigned options, enum utfdfa_bom bom,
                         const uint32_t *cps, size_t n, uint8_t **out)
{
    size_t cap;
    REQUIRE(utfdfa_max_encoded_len(to, n, &cap), "max_encoded_len overflows");
    *out = xmalloc(cap);
    utfdfa_encoder e;
    utfdfa_encoder_init(&e, to, UTFDFA_REPLACE, bom);
    utfdfa_encoder_set_options(&e, options);
    size_t s = n, o = cap;
    utfdfa_result r = utfdfa_encode(&e, cps, &s, *out, &o, true, NULL);
    REQUIRE(r == UTFDFA_INPUT_EMPTY && s == n, "encode to %s: result %d, %zu of %zu",
            utfdfa_encoding_name(to), (int)r, s, n);
    return o;
}

static void round_trips(const uint8_t *in, size_t n, unsigned options, struct plan *plan)
{
    /* Corrected UTF-8 strips its magic number by default; kept, its U+0000
     * could not be encoded again. */
    enum utfdfa_bom bom = FROM == UTFDFA_CORRECTED_UTF8 ? UTFDFA_BOM_STRIP : UTFDFA_BOM_KEEP;
    uint32_t *cps = xmalloc((n + 8) * 4), *back = xmalloc((n + 8) * 4);
    size_t ncps = decode_all(UTFDFA_REPLACE, bom, options, in, n, cps, NULL, NULL);
    size_t strict_errs = 0;
    uint32_t *tmp = xmalloc((n + 8) * 4);
    decode_all(UTFDFA_STRICT, bom, options, in, n, tmp, NULL, &strict_errs);
    free(tmp);
    uint8_t *buf;
    size_t len = encode_all(FROM, options, UTFDFA_BOM_KEEP, cps, ncps, &buf);
    /* Strict on the way back: what the decoder gave, the encoder can write. */
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, FROM, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    utfdfa_decoder_set_options(&d, options);
    size_t s = len, o = ncps + 8;
    utfdfa_result r = utfdfa_decode_utf32(&d, buf, &s, back, &o, true, NULL);
    REQUIRE(r == UTFDFA_INPUT_EMPTY && s == len && o == ncps &&
                (ncps == 0 || memcmp(back, cps, ncps * 4) == 0),
            "decode -> encode -> decode is not the identity (%zu -> %zu code points)", ncps, o);
    bool magic = FROM == UTFDFA_CORRECTED_UTF8 && n >= 8 && in[0] == 0xEF;
    if (FROM != UTFDFA_UTF7 && strict_errs == 0 && !magic)
        REQUIRE(len == n && (n == 0 || memcmp(buf, in, n) == 0),
                "valid input does not come back byte-identical");
    free(buf);
    /* Transcoding to UTF-7, in the plan's chunks, is decode + encode. */
    uint8_t *want;
    size_t wlen = encode_all(UTFDFA_UTF7, options, UTFDFA_BOM_KEEP, cps, ncps, &want);
    struct sinkspec s7 = {SINK_BYTES, UTFDFA_UTF7};
    struct outcome got;
    drive(UTFDFA_REPLACE, bom, options, &s7, in, n, plan, 0, &got);
    REQUIRE(got.len == wlen && (wlen == 0 || memcmp(got.out, want, wlen) == 0),
            "transcode to UTF-7: %zu bytes, decode + encode gives %zu", got.len, wlen);
    outcome_free(&got);
    free(want);
    free(cps);
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
    struct sinkspec chosen = sink_of(hd.sink % NSINKS);
    unsigned options = hd.options;
    struct plan plan = hd.plan;

    /* 1. A second decoder. */
#if KIND != 0
    against_second_decoder(in, n);
#endif

    /* 2. Whole buffer (worst-case room, then exactly the room it needs)
     * against chunks and random room, for the chosen output and modes. */
    {
        size_t bound = 0;
        bool fits = chosen.sink == SINK_U32   ? utfdfa_max_utf32_len(FROM, n, &bound)
                    : chosen.sink == SINK_U16 ? utfdfa_max_utf16_len(FROM, n, &bound)
                    : chosen.sink == SINK_BYTES
                        ? utfdfa_max_transcoded_len(FROM, chosen.to, n, &bound)
                        : true;
        REQUIRE(fits, "size helper overflows for %zu bytes", n);
        struct outcome whole, exact, part;
        drive(errors, bom, options, &chosen, in, n, NULL, bound, &whole);
        REQUIRE(whole.len / unit_size(&chosen) <= bound || chosen.sink == SINK_CHECK,
                "the size helper is not an upper bound");
        drive(errors, bom, options, &chosen, in, n, NULL, whole.len / unit_size(&chosen),
              &exact);
        REQUIRE(same_outcome(&whole, &exact), "output exactly full differs from worst-case room");
        drive(errors, bom, options, &chosen, in, n, &plan, 0, &part);
        REQUIRE(same_outcome(&whole, &part),
                "chunks (max %zu) and room (+%zu) differ from one call, output %d/%s",
                plan.max_chunk, plan.room_extra, (int)chosen.sink,
                utfdfa_encoding_name(chosen.to));
        outcome_free(&whole);
        outcome_free(&exact);
        outcome_free(&part);
    }

    /* 3. Round trips; transcoding to UTF-7. */
    round_trips(in, n, options, &plan);
    return 0;
}
