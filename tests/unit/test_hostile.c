/* SPDX-License-Identifier: MIT */
/* Hostile inputs (issue 6), each with its exact expected result, checked
 * through every output kind, in every error mode, whole and in chunks:
 *
 *   - overlongs, RFC 3629 section 10's "2F C0 AE 2E 2F" (never "/../"),
 *     surrogates and the CESU-8 pair (never U+233B4), values above
 *     U+10FFFF, lead bytes F5-FF, truncation at the end of input and at
 *     every chunk boundary; the same for UTF-16 and UTF-32;
 *   - forward progress: every error covers at least one byte and is
 *     consumed; errors never overlap or go backwards; characters and
 *     errors together cover the input exactly; a call with room for a
 *     character always makes progress;
 *   - the output buffer exactly full and one unit short, for 4-byte
 *     characters, surrogate pairs, BOMs and U+FFFD.
 *
 * Expected outputs are code points written here by hand and encoded for
 * each output kind by the reference encoders in tests/ref (not by the
 * library). Inputs and outputs live in exact-size heap buffers so any
 * access past their end is caught by AddressSanitizer or valgrind.
 * UTF-7 and Corrected UTF-8 items of the issue belong to the variants
 * issue and are not here.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref_utf16.h"
#include "ref_utf32.h"
#include "ref_utf8.h"
#include "utfdfa.h"

#include "check.h"

/* The encodings this file knows (the enum may grow with the variants issue). */
static const enum utfdfa_encoding encodings[] = {UTFDFA_UTF8, UTFDFA_UTF16LE, UTFDFA_UTF16BE,
                                                 UTFDFA_UTF32LE, UTFDFA_UTF32BE};
#define NENC (sizeof encodings / sizeof encodings[0])

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        perror("malloc");
        exit(2);
    }
    return p;
}

/* A heap copy of exactly n bytes: reading s[n] is caught. */
static uint8_t *dup_exact(const uint8_t *s, size_t n)
{
    uint8_t *p = malloc(n);
    if (!p && !(p = malloc(1))) { /* malloc(0) may be NULL; never pass NULL + 0 */
        perror("malloc");
        exit(2);
    }
    if (n)
        memcpy(p, s, n);
    return p;
}

static size_t parse_hex(const char *h, uint8_t *out, size_t max)
{
    size_t n = 0;
    while (*h && n < max) {
        while (*h == ' ')
            h++;
        if (!*h)
            break;
        out[n++] = (uint8_t)strtoul(h, (char **)&h, 16);
    }
    return n;
}

/* "41 FFFD 1F600": code points in hex. */
static size_t parse_cps(const char *h, uint32_t *out, size_t max)
{
    size_t n = 0;
    while (*h && n < max) {
        while (*h == ' ')
            h++;
        if (!*h)
            break;
        out[n++] = (uint32_t)strtoul(h, (char **)&h, 16);
    }
    return n;
}

static enum utfdfa_error_kind kind_from_name(const char *s, size_t n)
{
    for (int k = 1; k <= UTFDFA_ERR_TRUNCATED; k++) {
        const char *name = utfdfa_error_name((enum utfdfa_error_kind)k);
        if (strlen(name) == n && memcmp(name, s, n) == 0)
            return (enum utfdfa_error_kind)k;
    }
    fprintf(stderr, "test_hostile: unknown error kind '%.*s'\n", (int)n, s);
    exit(2);
}

/* "0+1 overlong, 1+1 unexpected-continuation": offset+length kind. */
static size_t parse_errors(const char *s, utfdfa_error *out, size_t max)
{
    size_t n = 0;
    while (*s && n < max) {
        while (*s == ' ' || *s == ',')
            s++;
        if (!*s)
            break;
        char *end;
        out[n].offset = strtoull(s, &end, 10);
        out[n].length = (uint32_t)strtoul(end + 1, &end, 10);
        while (*end == ' ')
            end++;
        size_t k = strcspn(end, ",");
        while (k && end[k - 1] == ' ')
            k--;
        out[n].kind = kind_from_name(end, k);
        s = end + k;
        n++;
    }
    return n;
}

static const char *hex(const uint8_t *s, size_t n)
{
    static char buf[3 * 40 + 8];
    size_t k = 0;
    buf[0] = 0;
    for (size_t i = 0; i < n && i < 40; i++)
        k += (size_t)snprintf(buf + k, sizeof buf - k, i ? " %02X" : "%02X", s[i]);
    if (n > 40)
        snprintf(buf + k, sizeof buf - k, " ...");
    return buf;
}

/* ------------------------------------------------------------ output kinds */

enum sink { SINK_U32, SINK_U16, SINK_BYTES, SINK_CHECK };

struct sinkspec {
    enum sink sink;
    enum utfdfa_encoding to; /* SINK_BYTES */
};

static const struct sinkspec sinks[] = {
    {SINK_U32, UTFDFA_UTF8},      {SINK_U16, UTFDFA_UTF8},      {SINK_BYTES, UTFDFA_UTF8},
    {SINK_BYTES, UTFDFA_UTF16LE}, {SINK_BYTES, UTFDFA_UTF16BE}, {SINK_BYTES, UTFDFA_UTF32LE},
    {SINK_BYTES, UTFDFA_UTF32BE}, {SINK_CHECK, UTFDFA_UTF8},
};
#define NSINKS (sizeof sinks / sizeof sinks[0])

static const char *sink_name(const struct sinkspec *s)
{
    switch (s->sink) {
    case SINK_U32:
        return "decode_utf32";
    case SINK_U16:
        return "decode_utf16";
    case SINK_CHECK:
        return "check";
    default:
        return utfdfa_encoding_name(s->to);
    }
}

static size_t unit_size(const struct sinkspec *s)
{
    return s->sink == SINK_U32 ? 4 : s->sink == SINK_U16 ? 2 : 1;
}

/* Room that always holds the next character and a BOM owed before it. */
static size_t min_room(const struct sinkspec *s)
{
    return s->sink == SINK_U32 ? 2 : s->sink == SINK_U16 ? 3 : 8;
}

/* Code points in the form a sink writes, by the reference encoders. */
static size_t encode_ref(const struct sinkspec *s, const uint32_t *cps, size_t n, uint8_t *out)
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
            unsigned char b[4];
            size_t k;
            switch (s->to) {
            case UTFDFA_UTF8:
                k = ref_utf8_encode(cp, b);
                break;
            case UTFDFA_UTF16LE:
            case UTFDFA_UTF16BE:
                k = ref_utf16_encode(cp, s->to == UTFDFA_UTF16BE, b);
                break;
            default:
                k = ref_utf32_encode(cp, s->to == UTFDFA_UTF32BE, b);
                break;
            }
            memcpy(out + len, b, k);
            len += k;
        }
    }
    return len;
}

/* Bytes a character takes in its source encoding. */
static size_t source_len(enum utfdfa_encoding from, uint32_t cp)
{
    switch (from) {
    case UTFDFA_UTF8:
        return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    case UTFDFA_UTF16LE:
    case UTFDFA_UTF16BE:
        return cp < 0x10000 ? 2 : 4;
    default:
        return 4;
    }
}

/* ------------------------------------------------------------ the driver */

struct outcome {
    uint8_t *out; /* everything written, in the sink's units */
    size_t len, cap;
    utfdfa_error err[64];
    size_t nerr;
    const char *problem; /* a broken protocol rule, or NULL */
};

static void append(struct outcome *o, const void *p, size_t n)
{
    if (o->len + n > o->cap) {
        o->cap = (o->len + n) * 2 + 16;
        o->out = realloc(o->out, o->cap);
        if (!o->out) {
            perror("realloc");
            exit(2);
        }
    }
    if (n)
        memcpy(o->out + o->len, p, n);
    o->len += n;
}

static void outcome_free(struct outcome *o)
{
    free(o->out);
    memset(o, 0, sizeof *o);
}

struct drive {
    enum utfdfa_encoding from;
    enum utfdfa_error_mode errors;
    enum utfdfa_bom bom;
    struct sinkspec sink;
    size_t chunk;  /* 0: the whole input in one call */
    size_t split;  /* when chunk == 0 and split > 0: two calls, at this offset */
    size_t outcap; /* output room per call, in units */
};

/* Feed in[0..n) as the drive says, calling again after MALFORMED and
 * OUTPUT_FULL, and check the protocol's rules on every call: progress,
 * errors that cover >= 1 byte, are consumed, and never overlap. */
static void run(const struct drive *dv, const uint8_t *in, size_t n, struct outcome *o)
{
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, dv->from, dv->errors, dv->bom);
    size_t us = unit_size(&dv->sink);
    uint8_t *dst = xmalloc(dv->outcap * us);
    size_t pos = 0, calls = 0;
    uint64_t err_end = 0; /* where the last error ended */
    memset(o, 0, sizeof *o);
    do {
        size_t len = n - pos;
        if (dv->chunk && len > dv->chunk)
            len = dv->chunk;
        else if (!dv->chunk && dv->split && pos < dv->split)
            len = dv->split - pos;
        bool last = pos + len == n;
        uint8_t *piece = dup_exact(in + pos, len);
        size_t used = 0;
        for (;;) {
            size_t src = len - used, cap = dv->outcap;
            utfdfa_error e = {0, 0, UTFDFA_ERR_NONE};
            utfdfa_result r;
            uint64_t before = utfdfa_decoder_offset(&d);
            if (++calls > 4 * n + 64) {
                o->problem = "too many calls: no forward progress";
                break;
            }
            switch (dv->sink.sink) {
            case SINK_U32:
                r = utfdfa_decode_utf32(&d, piece + used, &src, (uint32_t *)(void *)dst, &cap,
                                        last, &e);
                break;
            case SINK_U16:
                r = utfdfa_decode_utf16(&d, piece + used, &src, (uint16_t *)(void *)dst, &cap,
                                        last, &e);
                break;
            case SINK_BYTES:
                r = utfdfa_transcode(&d, dv->sink.to, piece + used, &src, dst, &cap, last, &e);
                break;
            default:
                cap = 0;
                r = utfdfa_check(&d, piece + used, &src, last, &e);
                break;
            }
            if (src > len - used || cap > dv->outcap) {
                o->problem = "a call claims more than it was given";
                break;
            }
            if (utfdfa_decoder_offset(&d) != before + src) {
                o->problem = "the decoder offset does not advance by what was read";
                break;
            }
            used += src;
            append(o, dst, cap * us);
            if (r == UTFDFA_MALFORMED) {
                /* The error is consumed: it lies before the decoder's offset,
                 * after the previous one, and covers at least one byte. */
                if (dv->errors != UTFDFA_STRICT)
                    o->problem = "MALFORMED in a replacing or ignoring mode";
                else if (e.length < 1 || e.offset < err_end ||
                         e.offset + e.length > utfdfa_decoder_offset(&d))
                    o->problem = "an error that is empty, overlaps, or is not consumed";
                else if (e.kind <= UTFDFA_ERR_NONE || e.kind > UTFDFA_ERR_TRUNCATED)
                    o->problem = "an error without a kind";
                if (o->problem)
                    break;
                err_end = e.offset + e.length;
                if (o->nerr < sizeof o->err / sizeof o->err[0])
                    o->err[o->nerr++] = e;
                continue;
            }
            if (r == UTFDFA_OUTPUT_FULL) {
                if (src == 0 && cap == 0 && dv->outcap >= min_room(&dv->sink)) {
                    o->problem = "OUTPUT_FULL without progress although a character fits";
                    break;
                }
                if (dv->sink.sink == SINK_CHECK) {
                    o->problem = "OUTPUT_FULL from check";
                    break;
                }
                if (src == 0 && cap == 0) {
                    o->problem = "needs more room"; /* the caller chose too little */
                    break;
                }
                continue;
            }
            if (r != UTFDFA_INPUT_EMPTY)
                o->problem = "an unknown result";
            else if (used != len)
                o->problem = "INPUT_EMPTY with input left";
            break;
        }
        free(piece);
        pos += len;
        if (o->problem)
            break;
    } while (pos < n);
    free(dst);
}

/* Strict errors and characters together cover the input exactly. */
static int covers_exactly(enum utfdfa_encoding from, const uint8_t *in, size_t n)
{
    struct drive dv = {from, UTFDFA_STRICT, UTFDFA_BOM_KEEP, {SINK_U32, UTFDFA_UTF8}, 0, 0, 2};
    struct outcome o;
    run(&dv, in, n, &o);
    size_t total = 0;
    for (size_t i = 0; i + 4 <= o.len; i += 4) {
        uint32_t cp;
        memcpy(&cp, o.out + i, 4);
        total += source_len(from, cp);
    }
    for (size_t i = 0; i < o.nerr; i++)
        total += o.err[i].length;
    int ok = !o.problem && total == n;
    outcome_free(&o);
    return ok;
}

/* ------------------------------------------------------------ the cases */

struct hostile {
    enum utfdfa_encoding from;
    const char *input;   /* hex bytes */
    const char *replace; /* the output in replace mode, hex code points */
    const char *ignore;  /* ... in ignore mode (= strict, going on after each error) */
    const char *errors;  /* strict errors in order: "OFFSET+LENGTH kind, ..." */
    const char *why;
};

static const struct hostile cases[] = {
    /* Overlongs (RFC 3629 section 3; Unicode 3.9 Table 3-7): each byte that
     * cannot start or continue a character is one U+FFFD. */
    {UTFDFA_UTF8, "C0 AF", "FFFD FFFD", "", "0+1 overlong, 1+1 unexpected-continuation",
     "overlong '/' (2 bytes)"},
    {UTFDFA_UTF8, "E0 80 AF", "FFFD FFFD FFFD", "",
     "0+1 overlong, 1+1 unexpected-continuation, 2+1 unexpected-continuation",
     "overlong '/' (3 bytes)"},
    {UTFDFA_UTF8, "F0 80 80 AF", "FFFD FFFD FFFD FFFD", "",
     "0+1 overlong, 1+1 unexpected-continuation, 2+1 unexpected-continuation, "
     "3+1 unexpected-continuation",
     "overlong '/' (4 bytes)"},
    {UTFDFA_UTF8, "C0 AE", "FFFD FFFD", "", "0+1 overlong, 1+1 unexpected-continuation",
     "overlong '.'"},
    {UTFDFA_UTF8, "C0 80", "FFFD FFFD", "", "0+1 overlong, 1+1 unexpected-continuation",
     "overlong NUL (Java's modified UTF-8)"},
    {UTFDFA_UTF8, "C1 BF", "FFFD FFFD", "", "0+1 overlong, 1+1 unexpected-continuation",
     "overlong U+007F"},
    {UTFDFA_UTF8, "E0 9F BF", "FFFD FFFD FFFD", "",
     "0+1 overlong, 1+1 unexpected-continuation, 2+1 unexpected-continuation",
     "overlong U+07FF"},
    {UTFDFA_UTF8, "F0 8F BF BF", "FFFD FFFD FFFD FFFD", "",
     "0+1 overlong, 1+1 unexpected-continuation, 2+1 unexpected-continuation, "
     "3+1 unexpected-continuation",
     "overlong U+FFFF"},
    /* RFC 3629 section 10: "/../" smuggled past a check. */
    {UTFDFA_UTF8, "2F C0 AE 2E 2F", "2F FFFD FFFD 2E 2F", "2F 2E 2F",
     "1+1 overlong, 2+1 unexpected-continuation", "RFC 3629 section 10: never /../"},
    {UTFDFA_UTF8, "2F E0 80 AE 2E 2F", "2F FFFD FFFD FFFD 2E 2F", "2F 2E 2F",
     "1+1 overlong, 2+1 unexpected-continuation, 3+1 unexpected-continuation",
     "3-byte overlong '.': never /../"},
    {UTFDFA_UTF8, "2E 2E C0 AF", "2E 2E FFFD FFFD", "2E 2E",
     "2+1 overlong, 3+1 unexpected-continuation", "overlong '/' after '..'"},
    /* Surrogates (RFC 3629 section 3: never encoded in UTF-8). */
    {UTFDFA_UTF8, "ED A0 80", "FFFD FFFD FFFD", "",
     "0+1 surrogate, 1+1 unexpected-continuation, 2+1 unexpected-continuation", "U+D800"},
    {UTFDFA_UTF8, "ED BF BF", "FFFD FFFD FFFD", "",
     "0+1 surrogate, 1+1 unexpected-continuation, 2+1 unexpected-continuation", "U+DFFF"},
    {UTFDFA_UTF8, "ED A1 8C ED BE B4", "FFFD FFFD FFFD FFFD FFFD FFFD", "",
     "0+1 surrogate, 1+1 unexpected-continuation, 2+1 unexpected-continuation, "
     "3+1 surrogate, 4+1 unexpected-continuation, 5+1 unexpected-continuation",
     "CESU-8 pair: never U+233B4"},
    {UTFDFA_UTF8, "ED 9F BF EE 80 80", "D7FF E000", "D7FF E000", "",
     "the neighbours of the surrogates are valid"},
    /* Above U+10FFFF and lead bytes F5-FF. */
    {UTFDFA_UTF8, "F4 90 80 80", "FFFD FFFD FFFD FFFD", "",
     "0+1 too-large, 1+1 unexpected-continuation, 2+1 unexpected-continuation, "
     "3+1 unexpected-continuation",
     "U+110000"},
    {UTFDFA_UTF8, "F4 8F BF BF", "10FFFF", "10FFFF", "", "U+10FFFF is valid"},
    {UTFDFA_UTF8, "F7 BF BF BF", "FFFD FFFD FFFD FFFD", "",
     "0+1 too-large, 1+1 unexpected-continuation, 2+1 unexpected-continuation, "
     "3+1 unexpected-continuation",
     "U+1FFFFF (F5-F7 lead)"},
    {UTFDFA_UTF8, "F8 88 80 80 80", "FFFD FFFD FFFD FFFD FFFD", "",
     "0+1 invalid-lead, 1+1 unexpected-continuation, 2+1 unexpected-continuation, "
     "3+1 unexpected-continuation, 4+1 unexpected-continuation",
     "5-byte form of ISO 10646 UTF-8"},
    {UTFDFA_UTF8, "FC 84 80 80 80 80", "FFFD FFFD FFFD FFFD FFFD FFFD", "",
     "0+1 invalid-lead, 1+1 unexpected-continuation, 2+1 unexpected-continuation, "
     "3+1 unexpected-continuation, 4+1 unexpected-continuation, 5+1 unexpected-continuation",
     "6-byte form of ISO 10646 UTF-8"},
    {UTFDFA_UTF8, "FE FF 41", "FFFD FFFD 41", "41", "0+1 invalid-lead, 1+1 invalid-lead",
     "FE FF (a UTF-16 BOM read as UTF-8)"},
    /* Truncation at the end of input: whatever is pending is one error. */
    {UTFDFA_UTF8, "E2 82", "FFFD", "", "0+2 truncated", "E2 82 at EOF: one U+FFFD"},
    {UTFDFA_UTF8, "F0 9F 98", "FFFD", "", "0+3 truncated", "3 of 4 bytes at EOF"},
    {UTFDFA_UTF8, "41 C3", "41 FFFD", "41", "1+1 truncated", "a lead byte at EOF"},
    {UTFDFA_UTF8, "E2 82 41", "FFFD 41", "41", "0+2 truncated", "cut short by 'A'"},
    {UTFDFA_UTF8, "F0 9F 98 F0 9F 98 80", "FFFD 1F600", "1F600", "0+3 truncated",
     "cut short by a new lead"},
    {UTFDFA_UTF8, "61 F1 80 80 E1 80 C2 62 80 63 80 BF 64",
     "61 FFFD FFFD FFFD 62 FFFD 63 FFFD FFFD 64", "61 62 63 64",
     "1+3 truncated, 4+2 truncated, 6+1 truncated, 8+1 unexpected-continuation, "
     "10+1 unexpected-continuation, 11+1 unexpected-continuation",
     "Unicode 3.9 maximal-subpart example"},
    {UTFDFA_UTF8, "00 41 00", "0 41 0", "0 41 0", "", "NUL is a character, not an end"},
    {UTFDFA_UTF8, "EF BB BF EF BF BE EF BF BF", "FEFF FFFE FFFF", "FEFF FFFE FFFF", "",
     "BOM and noncharacters are valid"},
    /* UTF-16 (WHATWG shared UTF-16 decoder): a lone surrogate is one error
     * of 2 bytes; the unit after a lone high surrogate is decoded anew;
     * whatever is pending at the end is one error. */
    {UTFDFA_UTF16LE, "00 D8 41 00", "FFFD 41", "41", "0+2 surrogate", "lone high surrogate"},
    {UTFDFA_UTF16LE, "00 DC 41 00", "FFFD 41", "41", "0+2 surrogate", "lone low surrogate"},
    {UTFDFA_UTF16LE, "00 DC 00 D8", "FFFD FFFD", "", "0+2 surrogate, 2+2 surrogate",
     "swapped pair"},
    {UTFDFA_UTF16LE, "3D D8 3D D8 00 DE", "FFFD 1F600", "1F600", "0+2 surrogate",
     "high, then a whole pair"},
    {UTFDFA_UTF16LE, "3D D8", "FFFD", "", "0+2 surrogate", "high surrogate at EOF"},
    {UTFDFA_UTF16LE, "3D D8 00", "FFFD", "", "0+3 truncated",
     "high surrogate and a byte at EOF: one error"},
    {UTFDFA_UTF16LE, "41 00 42", "41 FFFD", "41", "2+1 truncated", "odd byte at EOF"},
    {UTFDFA_UTF16LE, "FF DB FF DF 00 00", "10FFFF 0", "10FFFF 0", "", "U+10FFFF, NUL"},
    {UTFDFA_UTF16BE, "D8 3D DE 00 00 41", "1F600 41", "1F600 41", "", "a pair"},
    {UTFDFA_UTF16BE, "D8 3D 00 41 DE 00", "FFFD 41 FFFD", "41", "0+2 surrogate, 4+2 surrogate",
     "a pair split by a character"},
    {UTFDFA_UTF16BE, "D8 4C DF B4", "233B4", "233B4", "", "U+233B4 in UTF-16 is fine"},
    {UTFDFA_UTF16BE, "FE FF 00 41", "FEFF 41", "FEFF 41", "", "a BOM is a character (keep)"},
    /* UTF-32: values above 10FFFF and surrogates are errors of 4 bytes; a
     * partial unit at the end is one error. */
    {UTFDFA_UTF32LE, "00 00 11 00", "FFFD", "", "0+4 too-large", "U+110000"},
    {UTFDFA_UTF32LE, "FF FF FF FF 41 00 00 00", "FFFD 41", "41", "0+4 too-large",
     "0xFFFFFFFF"},
    {UTFDFA_UTF32LE, "00 D8 00 00 00 DC 00 00", "FFFD FFFD", "",
     "0+4 surrogate, 4+4 surrogate", "a surrogate pair is not UTF-32"},
    {UTFDFA_UTF32LE, "41 00 00", "FFFD", "", "0+3 truncated", "a partial unit at EOF"},
    {UTFDFA_UTF32BE, "00 10 FF FF 00 00 00", "10FFFF FFFD", "10FFFF", "4+3 truncated",
     "U+10FFFF then a partial unit"},
    {UTFDFA_UTF32BE, "80 00 00 41", "FFFD", "", "0+4 too-large", "sign bit set"},
    {UTFDFA_UTF32BE, "00 00 DF FF 00 00 E0 00", "FFFD E000", "E000", "0+4 surrogate",
     "U+DFFF, U+E000"},
};
#define NCASES (sizeof cases / sizeof cases[0])

/* ------------------------------------------------------------ checks */

struct expect {
    uint8_t in[64];
    size_t n;
    uint32_t rep[64], ign[64];
    size_t nrep, nign;
    utfdfa_error err[64];
    size_t nerr;
};

static void parse_case(const struct hostile *h, struct expect *x)
{
    x->n = parse_hex(h->input, x->in, sizeof x->in);
    x->nrep = parse_cps(h->replace, x->rep, 64);
    x->nign = parse_cps(h->ignore, x->ign, 64);
    x->nerr = parse_errors(h->errors, x->err, 64);
}

static int same_errors(const struct outcome *o, const utfdfa_error *want, size_t n)
{
    if (o->nerr != n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (o->err[i].offset != want[i].offset || o->err[i].length != want[i].length ||
            o->err[i].kind != want[i].kind)
            return 0;
    return 1;
}

static int output_is(const struct outcome *o, const struct sinkspec *s, const uint32_t *cps,
                     size_t n)
{
    if (s->sink == SINK_CHECK)
        return o->len == 0;
    uint8_t *want = xmalloc(4 * n);
    size_t len = encode_ref(s, cps, n, want);
    int ok = o->len == len && (len == 0 || memcmp(o->out, want, len) == 0);
    free(want);
    return ok;
}

/* "/../" must never appear in any output of the traversal cases. */
static int has_dotdot(const struct outcome *o, const struct sinkspec *s)
{
    static const uint32_t dotdot[] = {'/', '.', '.', '/'};
    uint8_t pat[16];
    size_t k = encode_ref(s, dotdot, 4, pat);
    for (size_t i = 0; k && i + k <= o->len; i++)
        if (memcmp(o->out + i, pat, k) == 0)
            return 1;
    return 0;
}

static void one_case(const struct hostile *h)
{
    struct expect x;
    parse_case(h, &x);
    const char *enc = utfdfa_encoding_name(h->from);
    uint8_t *in = dup_exact(x.in, x.n);
    /* Whole buffer, every output kind, every mode. */
    for (size_t s = 0; s < NSINKS; s++) {
        const struct sinkspec *sk = &sinks[s];
        for (int mode = UTFDFA_STRICT; mode <= UTFDFA_IGNORE; mode++) {
            /* Output room: exactly the expected output. */
            uint8_t tmp[4 * 64];
            size_t room = encode_ref(sk, mode == UTFDFA_REPLACE ? x.rep : x.ign,
                                     mode == UTFDFA_REPLACE ? x.nrep : x.nign, tmp) /
                          unit_size(sk);
            struct drive dv = {h->from, (enum utfdfa_error_mode)mode, UTFDFA_BOM_KEEP, *sk, 0, 0,
                               room};
            struct outcome o;
            run(&dv, in, x.n, &o);
            const uint32_t *want = mode == UTFDFA_REPLACE ? x.rep : x.ign;
            size_t nwant = mode == UTFDFA_REPLACE ? x.nrep : x.nign;
            CHECK(!o.problem, "%s [%s] (%s) %s mode %d: %s", enc, h->input, h->why,
                  sink_name(sk), mode, o.problem ? o.problem : "");
            CHECK(output_is(&o, sk, want, nwant), "%s [%s] (%s) %s mode %d: wrong output", enc,
                  h->input, h->why, sink_name(sk), mode);
            if (mode == UTFDFA_STRICT)
                CHECK(same_errors(&o, x.err, x.nerr),
                      "%s [%s] (%s) %s: wrong strict errors (got %zu, first at %llu+%u %s)", enc,
                      h->input, h->why, sink_name(sk), o.nerr,
                      o.nerr ? (unsigned long long)o.err[0].offset : 0ull,
                      o.nerr ? o.err[0].length : 0u,
                      o.nerr ? utfdfa_error_name(o.err[0].kind) : "-");
            if (strstr(h->why, "/../"))
                CHECK(!has_dotdot(&o, sk), "%s [%s]: %s mode %d yields /../", enc, h->input,
                      sink_name(sk), mode);
            outcome_free(&o);
        }
    }
    /* Chunks of every size, and two calls split at every offset (a
     * sequence cut at a chunk boundary is not an error unless it is the
     * end), with the smallest output room, for two output kinds. */
    for (size_t s = 0; s < 3; s += 2) {
        const struct sinkspec *sk = &sinks[s];
        for (int mode = UTFDFA_STRICT; mode <= UTFDFA_REPLACE; mode++) {
            int ok = 1;
            const char *problem = NULL;
            for (size_t way = 0; way < 2 * x.n + 1 && ok; way++) {
                struct drive dv = {h->from, (enum utfdfa_error_mode)mode, UTFDFA_BOM_KEEP, *sk, 0, 0,
                                   min_room(sk)};
                if (way < x.n)
                    dv.chunk = way + 1;
                else
                    dv.split = way - x.n;
                struct outcome o;
                run(&dv, in, x.n, &o);
                ok = !o.problem &&
                     output_is(&o, sk, mode == UTFDFA_REPLACE ? x.rep : x.ign,
                               mode == UTFDFA_REPLACE ? x.nrep : x.nign) &&
                     (mode != UTFDFA_STRICT || same_errors(&o, x.err, x.nerr));
                if (!ok)
                    problem = o.problem;
                outcome_free(&o);
            }
            CHECK(ok, "%s [%s] (%s) %s mode %d: chunked differs from whole (%s)", enc, h->input,
                  h->why, sink_name(sk), mode, problem ? problem : "output or errors");
        }
    }
    /* Validation agrees with the first strict error. */
    utfdfa_error e;
    size_t v = utfdfa_validate(h->from, in, x.n, &e);
    if (x.nerr)
        CHECK(v == x.err[0].offset && e.offset == x.err[0].offset &&
                  e.length == x.err[0].length && e.kind == x.err[0].kind,
              "%s [%s]: validate says %zu", enc, h->input, v);
    else
        CHECK(v == x.n, "%s [%s]: validate says %zu, want %zu", enc, h->input, v, x.n);
    CHECK(covers_exactly(h->from, in, x.n),
          "%s [%s]: characters and errors do not cover the input exactly", enc, h->input);
    free(in);
}

/* Lead bytes F5-FF alone, before ASCII, and before continuation bytes. */
static void lead_bytes_f5_ff(void)
{
    for (unsigned b = 0xF5; b <= 0xFF; b++) {
        enum utfdfa_error_kind kind = b <= 0xF7 ? UTFDFA_ERR_TOO_LARGE : UTFDFA_ERR_INVALID_LEAD;
        uint8_t bytes[3] = {(uint8_t)b, 0x80, 0x41};
        for (size_t n = 1; n <= 3; n++) {
            uint8_t *in = dup_exact(bytes, n);
            struct drive dv = {UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP,
                               {SINK_U32, UTFDFA_UTF8}, 0, 0, 8};
            struct outcome o;
            run(&dv, in, n, &o);
            utfdfa_error want[2] = {{0, 1, kind}, {1, 1, UTFDFA_ERR_UNEXPECTED_CONTINUATION}};
            static const uint32_t a = 'A';
            CHECK(!o.problem && same_errors(&o, want, n == 1 ? 1 : 2) &&
                      output_is(&o, &dv.sink, &a, n == 3),
                  "lead byte %02X (%zu bytes): one error of 1 byte, kind %s", b, n,
                  utfdfa_error_name(kind));
            outcome_free(&o);
            dv.errors = UTFDFA_REPLACE;
            run(&dv, in, n, &o);
            uint32_t rep[3] = {0xFFFD, n >= 2 ? 0xFFFD : 0, 'A'};
            CHECK(!o.problem && output_is(&o, &dv.sink, rep, n),
                  "lead byte %02X (%zu bytes): replace output", b, n);
            outcome_free(&o);
            free(in);
        }
    }
}

/* Every proper prefix of a character, cut at a chunk boundary: nothing
 * happens until the end; then exactly one error (one U+FFFD); given the
 * rest instead, the character. */
static void truncation_at_boundaries(void)
{
    static const struct {
        enum utfdfa_encoding from;
        const char *hex;
        uint32_t cp;
        enum utfdfa_error_kind end_kind[3]; /* the kind when cut after 1, 2, 3 bytes */
    } chars[] = {
        {UTFDFA_UTF8, "C3 A9", 0xE9, {UTFDFA_ERR_TRUNCATED}},
        {UTFDFA_UTF8, "E2 82 AC", 0x20AC, {UTFDFA_ERR_TRUNCATED, UTFDFA_ERR_TRUNCATED}},
        {UTFDFA_UTF8, "ED 9F BF", 0xD7FF, {UTFDFA_ERR_TRUNCATED, UTFDFA_ERR_TRUNCATED}},
        {UTFDFA_UTF8, "F0 9F 98 80", 0x1F600,
         {UTFDFA_ERR_TRUNCATED, UTFDFA_ERR_TRUNCATED, UTFDFA_ERR_TRUNCATED}},
        {UTFDFA_UTF8, "F4 8F BF BF", 0x10FFFF,
         {UTFDFA_ERR_TRUNCATED, UTFDFA_ERR_TRUNCATED, UTFDFA_ERR_TRUNCATED}},
        {UTFDFA_UTF16LE, "41 00", 'A', {UTFDFA_ERR_TRUNCATED}},
        {UTFDFA_UTF16LE, "3D D8 00 DE", 0x1F600,
         {UTFDFA_ERR_TRUNCATED, UTFDFA_ERR_SURROGATE, UTFDFA_ERR_TRUNCATED}},
        {UTFDFA_UTF16BE, "DB FF DF FF", 0x10FFFF,
         {UTFDFA_ERR_TRUNCATED, UTFDFA_ERR_SURROGATE, UTFDFA_ERR_TRUNCATED}},
        {UTFDFA_UTF32LE, "00 F6 01 00", 0x1F600,
         {UTFDFA_ERR_TRUNCATED, UTFDFA_ERR_TRUNCATED, UTFDFA_ERR_TRUNCATED}},
        {UTFDFA_UTF32BE, "00 10 FF FF", 0x10FFFF,
         {UTFDFA_ERR_TRUNCATED, UTFDFA_ERR_TRUNCATED, UTFDFA_ERR_TRUNCATED}},
    };
    for (size_t c = 0; c < sizeof chars / sizeof chars[0]; c++) {
        uint8_t buf[4];
        size_t n = parse_hex(chars[c].hex, buf, 4);
        const char *enc = utfdfa_encoding_name(chars[c].from);
        for (size_t cut = 1; cut < n; cut++) {
            for (int mode = UTFDFA_STRICT; mode <= UTFDFA_IGNORE; mode++) {
                utfdfa_decoder d;
                utfdfa_decoder_init(&d, chars[c].from, (enum utfdfa_error_mode)mode,
                                    UTFDFA_BOM_KEEP);
                uint8_t *head = dup_exact(buf, cut), *tail = dup_exact(buf + cut, n - cut);
                uint32_t *out = xmalloc(2 * 4);
                utfdfa_error e = {0, 0, UTFDFA_ERR_NONE};
                size_t s = cut, o = 2;
                utfdfa_result r = utfdfa_decode_utf32(&d, head, &s, out, &o, false, &e);
                CHECK(r == UTFDFA_INPUT_EMPTY && s == cut && o == 0,
                      "%s [%s] cut after %zu, mode %d: the head is read silently", enc,
                      chars[c].hex, cut, mode);
                /* The end comes: one error covering the head. */
                utfdfa_decoder d_end = d;
                s = 0;
                o = 2;
                r = utfdfa_decode_utf32(&d_end, NULL, &s, out, &o, true, &e);
                if (mode == UTFDFA_STRICT) {
                    CHECK(r == UTFDFA_MALFORMED && o == 0 && e.offset == 0 && e.length == cut &&
                              e.kind == chars[c].end_kind[cut - 1],
                          "%s [%s] cut after %zu then EOF: one error 0+%zu %s (got %llu+%u %s)",
                          enc, chars[c].hex, cut, cut,
                          utfdfa_error_name(chars[c].end_kind[cut - 1]),
                          (unsigned long long)e.offset, e.length, utfdfa_error_name(e.kind));
                    s = 0;
                    o = 2;
                    r = utfdfa_decode_utf32(&d_end, NULL, &s, out, &o, true, &e);
                    CHECK(r == UTFDFA_INPUT_EMPTY && o == 0,
                          "%s [%s] cut after %zu: the error is reported once", enc,
                          chars[c].hex, cut);
                } else {
                    size_t want = mode == UTFDFA_REPLACE;
                    CHECK(r == UTFDFA_INPUT_EMPTY && o == want && (!want || out[0] == 0xFFFD),
                          "%s [%s] cut after %zu then EOF, mode %d: %zu U+FFFD", enc,
                          chars[c].hex, cut, mode, want);
                }
                /* The rest comes instead: the character. */
                s = n - cut;
                o = 2;
                r = utfdfa_decode_utf32(&d, tail, &s, out, &o, true, &e);
                CHECK(r == UTFDFA_INPUT_EMPTY && s == n - cut && o == 1 && out[0] == chars[c].cp,
                      "%s [%s] split at %zu: the character", enc, chars[c].hex, cut);
                free(head);
                free(tail);
                free(out);
            }
        }
    }
}

/* ------------------------------------------------------------ exact room */

struct room_case {
    enum utfdfa_encoding from;
    enum utfdfa_error_mode errors;
    enum utfdfa_bom bom;
    const char *input;
    const char *groups; /* expected output in groups written together, '|' between */
    const char *why;
};

static const struct room_case room_cases[] = {
    {UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP, "F0 9F 98 80", "1F600", "a 4-byte character"},
    {UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP, "41 F0 9F 98 80", "41 | 1F600",
     "a character, then a 4-byte one"},
    {UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP, "F4 8F BF BF F0 90 80 80",
     "10FFFF | 10000", "two 4-byte characters"},
    {UTFDFA_UTF16LE, UTFDFA_STRICT, UTFDFA_BOM_KEEP, "3D D8 00 DE", "1F600", "a surrogate pair"},
    {UTFDFA_UTF16BE, UTFDFA_STRICT, UTFDFA_BOM_KEEP, "00 41 DB FF DF FF", "41 | 10FFFF",
     "a character, then a pair"},
    {UTFDFA_UTF32LE, UTFDFA_STRICT, UTFDFA_BOM_KEEP, "00 F6 01 00", "1F600",
     "UTF-32 of a pair"},
    {UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP, "EF BB BF 41", "FEFF | 41", "a BOM kept"},
    {UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_STRIP, "EF BB BF F0 9F 98 80", "1F600",
     "a BOM stripped before a 4-byte character"},
    {UTFDFA_UTF16BE, UTFDFA_STRICT, UTFDFA_BOM_STRIP, "FE FF D8 3D DE 00", "1F600",
     "a UTF-16 BOM stripped before a pair"},
    {UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_ADD, "F0 9F 98 80", "FEFF 1F600",
     "a BOM added before a 4-byte character"},
    {UTFDFA_UTF16LE, UTFDFA_STRICT, UTFDFA_BOM_ADD, "3D D8 00 DE 41 00", "FEFF 1F600 | 41",
     "a BOM added before a pair"},
    {UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_ADD, "EF BB BF 41", "FEFF | 41",
     "a BOM added is not doubled"},
    {UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_ADD, "", "FEFF", "a BOM added to nothing"},
    {UTFDFA_UTF8, UTFDFA_REPLACE, UTFDFA_BOM_KEEP, "41 80", "41 | FFFD", "a U+FFFD"},
    {UTFDFA_UTF8, UTFDFA_REPLACE, UTFDFA_BOM_ADD, "80 41", "FEFF FFFD | 41",
     "a BOM added before a U+FFFD"},
    {UTFDFA_UTF16LE, UTFDFA_REPLACE, UTFDFA_BOM_KEEP, "3D D8 3D D8 00 DE", "FFFD | 1F600",
     "a lone surrogate, then a pair"},
    {UTFDFA_UTF8, UTFDFA_REPLACE, UTFDFA_BOM_KEEP, "F0 9F 98", "FFFD",
     "a U+FFFD for a truncated end"},
};

static size_t parse_groups(const char *s, uint32_t *cps, size_t *ends, size_t *ngroups)
{
    size_t n = 0;
    *ngroups = 0;
    while (*s) {
        size_t k = strcspn(s, "|");
        char part[128];
        snprintf(part, sizeof part, "%.*s", (int)k, s);
        n += parse_cps(part, cps + n, 16);
        ends[(*ngroups)++] = n;
        s += k;
        if (*s == '|')
            s++;
    }
    return n;
}

/* With room for exactly the whole output: all of it in one call. With one
 * unit less: OUTPUT_FULL after the whole groups that fit, nothing of the
 * next one; called again with the rest, the same output in the end. */
static void exact_room(void)
{
    for (size_t c = 0; c < sizeof room_cases / sizeof room_cases[0]; c++) {
        const struct room_case *rc = &room_cases[c];
        uint8_t buf[32];
        size_t n = parse_hex(rc->input, buf, sizeof buf);
        uint32_t cps[16];
        size_t ends[8], ngroups;
        size_t ncps = parse_groups(rc->groups, cps, ends, &ngroups);
        for (size_t s = 0; s + 1 < NSINKS; s++) { /* every sink but check */
            const struct sinkspec *sk = &sinks[s];
            size_t us = unit_size(sk);
            uint8_t want[128];
            size_t want_len = encode_ref(sk, cps, ncps, want), units = want_len / us;
            for (size_t short_by = 0; short_by <= 1; short_by++) {
                size_t room = units - short_by;
                /* What fits: the whole groups within `room` units. */
                size_t fit = 0;
                for (size_t g = 0; g < ngroups; g++) {
                    uint8_t tmp[128];
                    if (encode_ref(sk, cps, ends[g], tmp) / us <= room)
                        fit = encode_ref(sk, cps, ends[g], tmp);
                }
                utfdfa_decoder d;
                utfdfa_decoder_init(&d, rc->from, rc->errors, rc->bom);
                uint8_t *in = dup_exact(buf, n), *dst = xmalloc(room * us);
                size_t src = n, o = room;
                utfdfa_result r;
                utfdfa_error e;
                if (sk->sink == SINK_U32)
                    r = utfdfa_decode_utf32(&d, in, &src, (uint32_t *)(void *)dst, &o, true, &e);
                else if (sk->sink == SINK_U16)
                    r = utfdfa_decode_utf16(&d, in, &src, (uint16_t *)(void *)dst, &o, true, &e);
                else
                    r = utfdfa_transcode(&d, sk->to, in, &src, dst, &o, true, &e);
                if (short_by == 0) {
                    CHECK(r == UTFDFA_INPUT_EMPTY && src == n && o * us == want_len &&
                              memcmp(dst, want, want_len) == 0,
                          "%s (%s) to %s: output exactly full (%zu units) fails", rc->why,
                          rc->input, sink_name(sk), room);
                } else {
                    CHECK(r == UTFDFA_OUTPUT_FULL && o * us == fit && memcmp(dst, want, fit) == 0,
                          "%s (%s) to %s: one unit short: want OUTPUT_FULL after %zu bytes, "
                          "got result %d after %zu",
                          rc->why, rc->input, sink_name(sk), fit, (int)r, o * us);
                    /* Go on with enough room: the rest of the same output. */
                    uint8_t *rest = xmalloc(want_len);
                    size_t src2 = n - src, o2 = units;
                    if (sk->sink == SINK_U32)
                        r = utfdfa_decode_utf32(&d, in + src, &src2, (uint32_t *)(void *)rest,
                                                &o2, true, &e);
                    else if (sk->sink == SINK_U16)
                        r = utfdfa_decode_utf16(&d, in + src, &src2, (uint16_t *)(void *)rest,
                                                &o2, true, &e);
                    else
                        r = utfdfa_transcode(&d, sk->to, in + src, &src2, rest, &o2, true, &e);
                    CHECK(r == UTFDFA_INPUT_EMPTY && src + src2 == n &&
                              fit + o2 * us == want_len &&
                              memcmp(rest, want + fit, want_len - fit) == 0,
                          "%s (%s) to %s: after OUTPUT_FULL the rest follows", rc->why,
                          rc->input, sink_name(sk));
                    free(rest);
                }
                free(in);
                free(dst);
            }
        }
    }
}

/* ------------------------------------------------------------ random */

static uint64_t rng_state = 20261122;

static uint32_t rnd(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}

/* Forward progress and exact cover on hostile random inputs in every
 * encoding, with small and odd output rooms and chunk sizes. */
static void random_progress(void)
{
    static const uint8_t pick[] = {0x00, 0x41, 0x80, 0xBF, 0xC0, 0xC2, 0xE0, 0xED, 0xEF, 0xF0,
                                   0xF4, 0xF5, 0xFF, 0xD8, 0xDB, 0xDC, 0xDF, 0x11, 0x10, 0xFE};
    unsigned long bad = 0, runs = 0;
    for (int t = 0; t < 1500; t++) {
        uint8_t buf[40];
        size_t n = rnd() % sizeof buf;
        for (size_t i = 0; i < n; i++)
            buf[i] = rnd() % 3 ? pick[rnd() % sizeof pick] : (uint8_t)rnd();
        uint8_t *in = dup_exact(buf, n);
        enum utfdfa_encoding from = encodings[rnd() % NENC];
        const struct sinkspec *sk = &sinks[rnd() % NSINKS];
        struct drive dv = {from, (enum utfdfa_error_mode)(rnd() % 3), (enum utfdfa_bom)(rnd() % 3),
                           *sk, rnd() % 6, 0, min_room(sk) + rnd() % 5};
        struct outcome o;
        run(&dv, in, n, &o);
        runs++;
        if (o.problem) {
            bad++;
            fail("random %d (%s, %s, mode %d, chunk %zu, room %zu) [%s]: %s", t,
                 utfdfa_encoding_name(from), sink_name(sk), (int)dv.errors, dv.chunk, dv.outcap,
                 hex(buf, n), o.problem);
        }
        outcome_free(&o);
        if (!covers_exactly(from, in, n)) {
            bad++;
            fail("random %d (%s) [%s]: characters and errors do not cover the input", t,
                 utfdfa_encoding_name(from), hex(buf, n));
        }
        free(in);
    }
    CHECK(bad == 0, "random forward progress: %lu of %lu runs broke a rule", bad, runs);
}

/* (NULL, 0) is a valid empty buffer for every function that takes a
 * buffer, source or destination: each call must behave exactly as with an
 * empty buffer at a real address (same result, lengths and state after),
 * and compute no NULL + 0 (clang's UBSan in make check-sanitize would stop
 * here). Covers every source, every target, the end-of-stream output still
 * owed (a BOM, an open UTF-7 run) that does not fit, and the encoder. */
static void empty_buffers(void)
{
    uint8_t *real = xmalloc(4); /* an empty buffer at a real address */
    static const uint32_t open_run[] = {0xE9};
    for (unsigned from = 0; from < UTFDFA_NENCODINGS; from++) {
        const char *fname = utfdfa_encoding_name((enum utfdfa_encoding)from);
        utfdfa_error e;
        CHECK(utfdfa_validate((enum utfdfa_encoding)from, NULL, 0, &e) == 0,
              "validate(%s, NULL, 0) is not 0", fname);
        for (int kind = 0; kind < 3 + UTFDFA_NENCODINGS; kind++) {
            for (int bom = 0; bom < 2; bom++) {
                utfdfa_result r[2];
                size_t n[2], m[2];
                uint64_t off[2];
                for (int t = 0; t < 2; t++) {
                    void *src = t ? (void *)real : NULL, *dst = t ? (void *)real : NULL;
                    utfdfa_decoder d;
                    utfdfa_decoder_init(&d, (enum utfdfa_encoding)from, UTFDFA_REPLACE,
                                        bom ? UTFDFA_BOM_ADD : UTFDFA_BOM_KEEP);
                    n[t] = 0;
                    m[t] = 0;
                    if (kind == 0)
                        r[t] = utfdfa_check(&d, src, &n[t], true, &e);
                    else if (kind == 1)
                        r[t] = utfdfa_decode_utf32(&d, src, &n[t], dst, &m[t], true, &e);
                    else if (kind == 2)
                        r[t] = utfdfa_decode_utf16(&d, src, &n[t], dst, &m[t], true, &e);
                    else
                        r[t] = utfdfa_transcode(&d, (enum utfdfa_encoding)(kind - 3), src, &n[t],
                                                dst, &m[t], true, &e);
                    off[t] = utfdfa_decoder_offset(&d);
                }
                CHECK(r[0] == r[1] && n[0] == n[1] && m[0] == m[1] && off[0] == off[1] &&
                          n[0] == 0 && m[0] == 0,
                      "empty buffers from %s, output kind %d, bom %d: NULL gives %d (%zu, %zu), "
                      "a real empty buffer %d (%zu, %zu)",
                      fname, kind, bom, r[0], n[0], m[0], r[1], n[1], m[1]);
            }
        }
    }
    /* A decoder's UTF-7 run left open (U+00E9 from UTF-8), closed by the
     * last call whose output buffer is empty. */
    static const uint8_t e_acute[] = {0xC3, 0xA9};
    const enum utfdfa_encoding sevens[] = {UTFDFA_UTF7, UTFDFA_UTF7_IMAP};
    for (int k = 0; k < 2; k++) {
        utfdfa_result r[2];
        size_t n[2], m[2];
        for (int t = 0; t < 2; t++) {
            utfdfa_decoder d;
            uint8_t out[16];
            size_t two = 2, room = sizeof out;
            utfdfa_decoder_init(&d, UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
            utfdfa_transcode(&d, sevens[k], e_acute, &two, out, &room, false, NULL);
            n[t] = 0;
            m[t] = 0;
            r[t] = utfdfa_transcode(&d, sevens[k], t ? real : NULL, &n[t], t ? real : NULL, &m[t],
                                    true, NULL);
        }
        CHECK(r[0] == r[1] && r[0] == UTFDFA_OUTPUT_FULL && m[0] == 0 && m[1] == 0,
              "an open %s run closed into empty buffers: NULL gives %d, a real empty buffer %d",
              utfdfa_encoding_name(sevens[k]), r[0], r[1]);
    }
    /* The encoder, into every target; into UTF-7 also with a run left open
     * (its closing "-" is owed and does not fit). */
    for (unsigned to = 0; to < UTFDFA_NENCODINGS; to++) {
        for (int open = 0; open < 2; open++) {
            utfdfa_result r[2];
            size_t n[2], m[2];
            for (int t = 0; t < 2; t++) {
                utfdfa_encoder enc;
                utfdfa_encoder_init(&enc, (enum utfdfa_encoding)to, UTFDFA_REPLACE, UTFDFA_BOM_KEEP);
                if (open) {
                    uint8_t out[16];
                    size_t one = 1, room = sizeof out;
                    utfdfa_encode(&enc, open_run, &one, out, &room, false, NULL);
                }
                n[t] = 0;
                m[t] = 0;
                r[t] = utfdfa_encode(&enc, t ? (const uint32_t *)(void *)real : NULL, &n[t],
                                     t ? real : NULL, &m[t], true, NULL);
            }
            CHECK(r[0] == r[1] && n[0] == n[1] && m[0] == m[1] && m[0] == 0,
                  "encode to %s (open run %d) from and into empty buffers: NULL gives %d, "
                  "a real empty buffer %d",
                  utfdfa_encoding_name((enum utfdfa_encoding)to), open, r[0], r[1]);
        }
    }
    CHECK(utfdfa_valid_up_to(NULL, 0) == 0, "valid_up_to(NULL, 0) is not 0");
    free(real);
}

int main(void)
{
    for (size_t c = 0; c < NCASES; c++)
        one_case(&cases[c]);
    lead_bytes_f5_ff();
    truncation_at_boundaries();
    exact_room();
    random_progress();
    empty_buffers();
    printf("test_hostile: %zu hostile inputs through %zu output kinds, whole and in chunks\n",
           NCASES, NSINKS);
    printf("test_hostile: %lu passed, %lu failed\n", passed, failed);
    return failed != 0;
}
