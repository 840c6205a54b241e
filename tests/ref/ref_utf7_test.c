/* SPDX-License-Identifier: MIT */
/*
 * ref_utf7_test.c - self-test of the reference UTF-7 decoder/encoder
 * (ref_utf7.c), and its command-line front end for ref_utf7_selftest.py.
 *
 * Usage:
 *   ref_utf7_test               the built-in checks: RFC 2152's examples,
 *                               hostile vectors with their exact errors and
 *                               replacement output, encoder rules, round
 *                               trips; one "NAME: N/M passed" line per part,
 *                               exit 1 on any failure.
 *   ref_utf7_test --decode      each stdin line is the hex of an input (may
 *                               be empty); prints two lines per input:
 *                                 "S OK cp..." or "S KIND OFF LEN cp..."
 *                                   (strict: the first error, and the code
 *                                   points decoded before it)
 *                                 "R cp... ; OFF,LEN,KIND ..." (replacing)
 *                               code points in hex.
 *   ref_utf7_test --encode 0|1  each stdin line is space-separated hex
 *                               scalar values; prints the hex of
 *                               ref7_encode(.., direct_o = 0|1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref_utf7.h"

/* ------------------------------------------------------------ helpers */

struct tally {
    const char *name;
    unsigned passed, total;
};

static unsigned failures_shown;

static bool check(struct tally *t, bool ok, const char *what, const char *input)
{
    t->total++;
    if (ok) {
        t->passed++;
    } else if (failures_shown++ < 60) {
        printf("FAIL [%s] %s: input \"%s\"\n", t->name, what, input);
    }
    return ok;
}

static bool report(const struct tally *t)
{
    printf("%s: %u/%u passed\n", t->name, t->passed, t->total);
    return t->passed == t->total;
}

static bool same_cps(const uint32_t *a, size_t na, const uint32_t *b, size_t nb)
{
    if (na != nb)
        return false;
    for (size_t i = 0; i < na; i++)
        if (a[i] != b[i])
            return false;
    return true;
}

/* A printable rendering of bytes, for failure messages (not NUL-terminated
   input: the input is (pointer, length); buf is for printf only). */
static const char *show(const uint8_t *s, size_t n, char *buf, size_t cap)
{
    size_t o = 0;
    for (size_t i = 0; i < n && o + 5 < cap; i++) {
        if (s[i] >= 0x20 && s[i] < 0x7F && s[i] != '\\')
            buf[o++] = (char)s[i];
        else
            o += (size_t)snprintf(buf + o, cap - o, "\\x%02X", s[i]);
    }
    buf[o] = '\0';
    return buf;
}

/* Decode-and-encode buffers large enough for every vector below. */
enum { MAXV = 64 };

/* ------------------------------------------------------------ RFC 2152 examples */

struct example {
    const char *utf7;
    size_t utf7_len;
    uint32_t cps[MAXV];
    size_t ncps;
    int encode;   /* -1: decode only; 0/1: ref7_encode with that direct_o gives utf7 */
};

#define S(lit) (lit), (sizeof(lit) - 1)

static const struct example examples[] = {
    /* RFC 2152, "UTF-7 Definition", the three examples after Rule 3. */
    {S("A+ImIDkQ."), {0x41, 0x2262, 0x391, 0x2E}, 4, 0},
    {S("A+ImIDkQ."), {0x41, 0x2262, 0x391, 0x2E}, 4, 1},
    {S("Hi Mom -+Jjo--!"),
     {0x48, 0x69, 0x20, 0x4D, 0x6F, 0x6D, 0x20, 0x2D, 0x263A, 0x2D, 0x21}, 11, 1},
    {S("+ZeVnLIqe-"), {0x65E5, 0x672C, 0x8A9E}, 3, 0},
    {S("+ZeVnLIqe-"), {0x65E5, 0x672C, 0x8A9E}, 3, 1},
    /* "Use of Character Set UTF-7 Within MIME" examples. "Hi Mom +Jjo-!"
       writes an optional "-" ("!" would end the run anyway): our encoder
       omits it, so this one is decode-only; the encoding without it is
       checked below. */
    {S("Hi Mom +Jjo-!"), {0x48, 0x69, 0x20, 0x4D, 0x6F, 0x6D, 0x20, 0x263A, 0x21}, 9, -1},
    {S("Hi Mom +Jjo!"), {0x48, 0x69, 0x20, 0x4D, 0x6F, 0x6D, 0x20, 0x263A, 0x21}, 9, 1},
    {S("Item 3 is +AKM-1."),
     {0x49, 0x74, 0x65, 0x6D, 0x20, 0x33, 0x20, 0x69, 0x73, 0x20, 0xA3, 0x31, 0x2E}, 13, 0},
    {S("Item 3 is +AKM-1."),
     {0x49, 0x74, 0x65, 0x6D, 0x20, 0x33, 0x20, 0x69, 0x73, 0x20, 0xA3, 0x31, 0x2E}, 13, 1},
    /* Not from the RFC. */
    {S("+ADw-script+AD4-"), {'<', 's', 'c', 'r', 'i', 'p', 't', '>'}, 8, 0},
    {S("<script>"), {'<', 's', 'c', 'r', 'i', 'p', 't', '>'}, 8, 1},
    {S("+/v8-"), {0xFEFF}, 1, 0},
    {S("+/v8-"), {0xFEFF}, 1, 1},
    {S("+2D3eAA-"), {0x1F600}, 1, 0},             /* D83D DE00 */
    {S("+2//f/w-"), {0x10FFFF}, 1, 0},             /* DBFF DFFF */
    {S("+2ADcAA-"), {0x10000}, 1, 0},              /* D800 DC00 */
    {S("+-"), {'+'}, 1, 0},
    {S("1 +- 1 = 2"), {'1', ' ', '+', ' ', '1', ' ', '=', ' ', '2'}, 9, 1},
    {S("1 +- 1 +AD0- 2"), {'1', ' ', '+', ' ', '1', ' ', '=', ' ', '2'}, 9, -1},
    {S("1 +- 1 +AD0 2"), {'1', ' ', '+', ' ', '1', ' ', '=', ' ', '2'}, 9, 0},
    {S(""), {0}, 0, 0},
    {S(""), {0}, 0, 1},
};

static bool test_examples(void)
{
    struct tally t = {"rfc2152-examples", 0, 0};
    char buf[256];

    for (size_t k = 0; k < sizeof examples / sizeof examples[0]; k++) {
        const struct example *e = &examples[k];
        const uint8_t *in = (const uint8_t *)e->utf7;
        uint32_t out[MAXV + 1];
        size_t nout = 0;
        struct ref7_error err = {0, 0, REF7_OK};
        const char *s = show(in, e->utf7_len, buf, sizeof buf);

        bool ok = ref7_decode(in, e->utf7_len, out, &nout, &err);
        check(&t, ok && err.kind == REF7_OK, "strict decode reports valid", s);
        check(&t, same_cps(out, nout, e->cps, e->ncps), "strict decode output", s);
        size_t nerr = 99;
        size_t n = ref7_decode_replace(in, e->utf7_len, out, &nerr, NULL, 0);
        check(&t, nerr == 0 && same_cps(out, n, e->cps, e->ncps), "replacing decode output", s);
        if (e->encode >= 0) {
            uint8_t enc[8 * MAXV];
            size_t m = ref7_encode(e->cps, e->ncps, e->encode == 1, enc);
            check(&t, m == e->utf7_len && memcmp(enc, in, m) == 0,
                  e->encode ? "encode (direct_o) gives the example" : "encode gives the example", s);
        }
    }
    return report(&t);
}

/* ------------------------------------------------------------ hostile vectors */

struct hostile {
    const char *in;
    size_t len;
    uint32_t want[MAXV];        /* replacing decode; FFFD marks each error */
    size_t nwant;
    struct ref7_error errs[8];  /* every error, in order */
    size_t nerrs;
};

#define FFFD 0xFFFD
#define E(o, l, k) {(o), (l), REF7_##k}

static const struct hostile hostile[] = {
    /* Direct mode: bytes outside D, O, SP/TAB/CR/LF and "+". */
    {S("\\"), {FFFD}, 1, {E(0, 1, INVALID_DIRECT)}, 1},
    {S("a~b"), {'a', FFFD, 'b'}, 3, {E(1, 1, INVALID_DIRECT)}, 1},
    {S("\0"), {FFFD}, 1, {E(0, 1, INVALID_DIRECT)}, 1},
    {S("\x01\x7F"), {FFFD, FFFD}, 2, {E(0, 1, INVALID_DIRECT), E(1, 1, INVALID_DIRECT)}, 2},
    {S("x\x80y\xFF"), {'x', FFFD, 'y', FFFD}, 4,
     {E(1, 1, INVALID_DIRECT), E(3, 1, INVALID_DIRECT)}, 2},
    {S("\x0B\x0C"), {FFFD, FFFD}, 2, {E(0, 1, INVALID_DIRECT), E(1, 1, INVALID_DIRECT)}, 2},
    {S("\xE2\x82\xAC"), {FFFD, FFFD, FFFD}, 3,
     {E(0, 1, INVALID_DIRECT), E(1, 1, INVALID_DIRECT), E(2, 1, INVALID_DIRECT)}, 3},
    /* "}" is in RFC 2152's Set O: direct. */
    {S("{}|"), {'{', '}', '|'}, 3, {E(0, 0, OK)}, 0},
    /* "+" followed by neither Set B nor "-": the "+" is the error, the byte
       after it is decoded again. */
    {S("a+@b"), {'a', FFFD, '@', 'b'}, 4, {E(1, 1, BAD_SHIFT)}, 1},
    {S("+ x"), {FFFD, ' ', 'x'}, 3, {E(0, 1, BAD_SHIFT)}, 1},
    {S("+\n"), {FFFD, '\n'}, 2, {E(0, 1, BAD_SHIFT)}, 1},
    {S("+="), {FFFD, '='}, 2, {E(0, 1, BAD_SHIFT)}, 1},
    {S("+."), {FFFD, '.'}, 2, {E(0, 1, BAD_SHIFT)}, 1},
    {S("+~"), {FFFD, FFFD}, 2, {E(0, 1, BAD_SHIFT), E(1, 1, INVALID_DIRECT)}, 2},
    {S("+\x80"), {FFFD, FFFD}, 2, {E(0, 1, BAD_SHIFT), E(1, 1, INVALID_DIRECT)}, 2},
    /* "+" at the end of input. */
    {S("+"), {FFFD}, 1, {E(0, 1, TRUNCATED)}, 1},
    {S("a+"), {'a', FFFD}, 2, {E(1, 1, TRUNCATED)}, 1},
    {S("+-+"), {'+', FFFD}, 2, {E(2, 1, TRUNCATED)}, 1},
    /* Leftover bits. Runs of 1..8 chars leave 6,12,2,8,14,4,10,0 bits. */
    {S("+A-"), {0}, 0, {{0, 0, REF7_OK}}, 0},        /* 6 zero bits: padding */
    {S("+A"), {0}, 0, {{0, 0, REF7_OK}}, 0},
    {S("+AGE--"), {'a', '-'}, 2, {{0, 0, REF7_OK}}, 0},
    {S("+AGE"), {'a'}, 1, {{0, 0, REF7_OK}}, 0},
    {S("+AGE."), {'a', '.'}, 2, {{0, 0, REF7_OK}}, 0},
    {S("+AGEAYgBjA-"), {'a', 'b', 'c'}, 3, {{0, 0, REF7_OK}}, 0}, /* 9 chars: 6 zero bits */
    {S("+AGEAYgBjAA-"), {'a', 'b', 'c', FFFD}, 4, {E(9, 2, PARTIAL_UNIT)}, 1}, /* 10: 12 bits */
    {S("+B-"), {FFFD}, 1, {E(1, 1, NONZERO_PADDING)}, 1},           /* 6 bits 000001 */
    {S("++"), {FFFD}, 1, {E(1, 1, NONZERO_PADDING)}, 1},            /* "+" is Set B: 111110 */
    {S("a+IKx-b"), {'a', 0x20AC, FFFD, 'b'}, 4, {E(4, 1, NONZERO_PADDING)}, 1}, /* 2 bits 01 */
    {S("+AGEAYh-"), {'a', 'b', FFFD}, 3, {E(6, 1, NONZERO_PADDING)}, 1},          /* 4 bits 0001 */
    {S("a+IK-b"), {'a', FFFD, 'b'}, 3, {E(2, 2, PARTIAL_UNIT)}, 1},  /* 12 bits */
    {S("+AGEA-"), {'a', FFFD}, 2, {E(3, 2, PARTIAL_UNIT)}, 1},       /* 8 bits from chars 2-3 */
    {S("+AGEAY-"), {'a', FFFD}, 2, {E(3, 3, PARTIAL_UNIT)}, 1},      /* 14 bits from chars 2-4 */
    {S("+AGEAYgA-"), {'a', 'b', FFFD}, 3, {E(6, 2, PARTIAL_UNIT)}, 1}, /* 10 bits from 5-6 */
    {S("+AGEAYgA"), {'a', 'b', FFFD}, 3, {E(6, 2, PARTIAL_UNIT)}, 1},  /* ... at the end */
    {S("+AA~"), {FFFD, FFFD}, 2, {E(1, 2, PARTIAL_UNIT), E(3, 1, INVALID_DIRECT)}, 2},
    /* Surrogates. */
    {S("a+2AE-b"), {'a', FFFD, 'b'}, 3, {E(2, 3, SURROGATE)}, 1},    /* lone high D801 */
    {S("+3AA-"), {FFFD}, 1, {E(1, 3, SURROGATE)}, 1},                /* lone low DC00 */
    {S("+2AAAYQ-"), {FFFD, 'a'}, 2, {E(1, 3, SURROGATE)}, 1},        /* D800 0061 */
    {S("+3AAAYQ-"), {FFFD, 'a'}, 2, {E(1, 3, SURROGATE)}, 1},        /* DC00 0061 */
    {S("+AGHYAA-"), {'a', FFFD}, 2, {E(3, 4, SURROGATE)}, 1},        /* 0061 D800: 4 chars */
    {S("+2ADYAdwA-"), {FFFD, 0x10400}, 2, {E(1, 3, SURROGATE)}, 1},  /* D800 D801 DC00 */
    {S("+2ADYAQ-"), {FFFD, FFFD}, 2, {E(1, 3, SURROGATE), E(3, 4, SURROGATE)}, 2}, /* D800 D801 */
    {S("+2AA-+3AA-"), {FFFD, FFFD}, 2, {E(1, 3, SURROGATE), E(6, 3, SURROGATE)}, 2},
    {S("+2AA"), {FFFD}, 1, {E(1, 3, SURROGATE)}, 1},                 /* at the end of input */
    {S("+2AAA-"), {FFFD, FFFD}, 2, {E(1, 3, SURROGATE), E(3, 2, PARTIAL_UNIT)}, 2},
    {S("+2AB-"), {FFFD, FFFD}, 2, {E(1, 3, SURROGATE), E(3, 1, NONZERO_PADDING)}, 2},
    {S("+2ADcAA-"), {0x10000}, 1, {{0, 0, REF7_OK}}, 0},
    /* A literal U+FFFD is no error. */
    {S("+//0-"), {0xFFFD}, 1, {{0, 0, REF7_OK}}, 0},
};

static bool test_hostile(void)
{
    struct tally t = {"hostile", 0, 0};
    char buf[256];

    for (size_t k = 0; k < sizeof hostile / sizeof hostile[0]; k++) {
        const struct hostile *h = &hostile[k];
        const uint8_t *in = (const uint8_t *)h->in;
        const char *s = show(in, h->len, buf, sizeof buf);
        uint32_t out[MAXV + 1];
        struct ref7_error errs[8];
        size_t nerr = 99;

        /* Replacing decode: output and every error. */
        size_t n = ref7_decode_replace(in, h->len, out, &nerr, errs, 8);
        check(&t, same_cps(out, n, h->want, h->nwant), "replacing decode output", s);
        bool errs_ok = nerr == h->nerrs;
        for (size_t i = 0; errs_ok && i < nerr; i++)
            errs_ok = errs[i].offset == h->errs[i].offset &&
                      errs[i].length == h->errs[i].length && errs[i].kind == h->errs[i].kind;
        if (!check(&t, errs_ok, "replacing decode errors", s)) {
            for (size_t i = 0; i < nerr && i < 8; i++)
                printf("  got error %zu: %zu %zu %s\n", i, errs[i].offset, errs[i].length,
                       ref7_kind_name(errs[i].kind));
        }
        /* maxerrs limits the records, not the count. */
        size_t nerr0 = 99;
        size_t n0 = ref7_decode_replace(in, h->len, out, &nerr0, errs, 0);
        check(&t, n0 == n && nerr0 == h->nerrs, "maxerrs 0 still counts", s);

        /* Strict decode: the first error, and the output before it (the
           replacing output up to its first U+FFFD; none of these vectors
           has a literal U+FFFD together with an error). */
        struct ref7_error err = {0, 0, REF7_OK};
        size_t nout = 99;
        bool ok = ref7_decode(in, h->len, out, &nout, &err);
        size_t before = 0;
        if (h->nerrs > 0)
            while (before < h->nwant && h->want[before] != FFFD)
                before++;
        else
            before = h->nwant;
        check(&t, ok == (h->nerrs == 0), "strict decode validity", s);
        if (h->nerrs > 0)
            check(&t, err.offset == h->errs[0].offset && err.length == h->errs[0].length &&
                      err.kind == h->errs[0].kind, "strict decode first error", s);
        else
            check(&t, err.kind == REF7_OK, "strict decode error kind OK", s);
        check(&t, same_cps(out, nout, h->want, before), "strict decode output before the error", s);
    }
    return report(&t);
}

/* ------------------------------------------------------------ sets, byte by byte */

/* Every single byte in direct mode; the sets written out once more here. */
static bool test_set_membership(void)
{
    struct tally t = {"single-bytes", 0, 0};
    static const char direct[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'(),-./:?" /* D */
        "!\"#$%&*;<=>@[]^_`{|}"                                                    /* O */
        " \t\r\n";                                                                 /* Rule 3 */
    char buf[16];

    for (unsigned b = 0; b < 256; b++) {
        uint8_t in[1] = {(uint8_t)b};
        uint32_t out[2];
        size_t nout = 99;
        struct ref7_error err;
        bool ok = ref7_decode(in, 1, out, &nout, &err);
        bool is_direct = b != 0 && memchr(direct, (int)b, sizeof direct - 1) != NULL;
        const char *s = show(in, 1, buf, sizeof buf);
        if (b == '+')
            check(&t, !ok && err.kind == REF7_TRUNCATED && err.offset == 0 && err.length == 1 &&
                      nout == 0, "lone + truncated", s);
        else if (is_direct)
            check(&t, ok && nout == 1 && out[0] == b, "direct byte decodes to itself", s);
        else
            check(&t, !ok && err.kind == REF7_INVALID_DIRECT && err.offset == 0 &&
                      err.length == 1 && nout == 0, "byte invalid in direct mode", s);

        /* "+" then the byte: "-" is "+", Set B starts a run, else BAD_SHIFT
           with the byte decoded again. */
        uint8_t in2[2] = {'+', (uint8_t)b};
        uint32_t out2[3];
        size_t nerr = 99;
        struct ref7_error e2[3];
        size_t n2 = ref7_decode_replace(in2, 2, out2, &nerr, e2, 3);
        s = show(in2, 2, buf, sizeof buf);
        bool set_b = (b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z') ||
                     (b >= '0' && b <= '9') || b == '+' || b == '/';
        if (b == '-')
            check(&t, nerr == 0 && n2 == 1 && out2[0] == '+', "+- is +", s);
        else if (set_b)
            /* one char: 6 bits, padding; zero only for "A" */
            check(&t, b == 'A' ? nerr == 0 && n2 == 0
                               : nerr == 1 && e2[0].kind == REF7_NONZERO_PADDING &&
                                     e2[0].offset == 1 && e2[0].length == 1 && n2 == 1,
                  "+ and one base64 char", s);
        else
            check(&t, nerr >= 1 && e2[0].kind == REF7_BAD_SHIFT && e2[0].offset == 0 &&
                      e2[0].length == 1 && n2 == 1 + nerr - 1 + (is_direct ? 1 : 0) &&
                      out2[0] == FFFD && (is_direct ? out2[1] == b : nerr == 2),
                  "+ then a byte outside Set B", s);
    }
    return report(&t);
}

/* ------------------------------------------------------------ encoder rules */

struct enc_case {
    uint32_t cps[8];
    size_t n;
    bool direct_o;
    const char *want;
    size_t want_len;
};

static const struct enc_case enc_cases[] = {
    {{0x263A}, 1, false, S("+Jjo-")},               /* input ends: "-" */
    {{0x263A, 'a'}, 2, false, S("+Jjo-a")},         /* next is Set B: "-" */
    {{0x263A, '-'}, 2, false, S("+Jjo--")},         /* next is "-": "-" */
    {{0x263A, '.'}, 2, false, S("+Jjo.")},          /* next is direct, not B: nothing */
    {{0x263A, ' '}, 2, false, S("+Jjo ")},
    {{0x263A, '\n'}, 2, false, S("+Jjo\n")},
    {{0x263A, '!'}, 2, false, S("+JjoAIQ-")},       /* "!" in the run without direct_o */
    {{0x263A, '!'}, 2, true, S("+Jjo!")},
    {{'+'}, 1, false, S("+-")},
    {{'a', '+', 'b'}, 3, false, S("a+-b")},
    {{0x263A, '+'}, 2, false, S("+JjoAKw-")},       /* "+" inside a run: base64 */
    {{'+', 0x263A}, 2, false, S("+-+Jjo-")},
    {{'\\', '~', '}'}, 3, true, S("+AFwAfg}")},     /* "\\", "~" never direct */
    {{0}, 1, false, S("+AAA-")},                    /* NUL */
    {{0x1F600}, 1, false, S("+2D3eAA-")},
    {{0x1F600, 0x1F600}, 2, false, S("+2D3eANg93gA-")},
    {{0x10FFFF, '.'}, 2, true, S("+2//f/w.")},
    {{0xA3, 0xA3, 0xA3}, 3, false, S("+AKMAowCj-")},
    {{'<', '>', '='}, 3, false, S("+ADwAPgA9-")},
    {{'<', '>', '='}, 3, true, S("<>=")},
};

static bool test_encoder(void)
{
    struct tally t = {"encoder", 0, 0};
    char buf[256];

    for (size_t k = 0; k < sizeof enc_cases / sizeof enc_cases[0]; k++) {
        const struct enc_case *c = &enc_cases[k];
        uint8_t out[8 * 8];
        size_t m = ref7_encode(c->cps, c->n, c->direct_o, out);
        check(&t, m == c->want_len && memcmp(out, c->want, m) == 0 && m <= ref7_encode_bound(c->n),
              "encoding", show((const uint8_t *)c->want, c->want_len, buf, sizeof buf));
        if (m != c->want_len || memcmp(out, c->want, m) != 0)
            printf("  got \"%s\"\n", show(out, m, buf, sizeof buf));
    }
    check(&t, ref7_encode_bound(0) == 0, "bound 0", "");
    check(&t, ref7_encode_bound(SIZE_MAX / 8 + 1) == SIZE_MAX, "bound saturates", "");
    return report(&t);
}

/* ------------------------------------------------------------ round trips */

/* xorshift64*, state on the caller's stack (fixed seed: reproducible). */
static uint64_t next_random(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545F4914F6CDD1DULL;
}

static uint32_t random_scalar(uint64_t *state)
{
    uint64_t r = next_random(state);
    uint32_t cp;
    switch (r % 8) {
    case 0: /* the interesting ASCII: + - \ ~ } and Set B/D/O boundaries */
        cp = (uint32_t)"+-\\~}A/9z.!=\n\0"[(r >> 8) % 14];
        break;
    case 1:
    case 2:
        cp = (uint32_t)((r >> 8) % 0x80); /* any ASCII */
        break;
    case 3:
        cp = (uint32_t)((r >> 8) % 0x800);
        break;
    case 4:
    case 5:
        cp = (uint32_t)((r >> 8) % 0x10000);
        break;
    default:
        cp = (uint32_t)((r >> 8) % 0x110000);
        break;
    }
    if (cp >= 0xD800 && cp <= 0xDFFF)
        cp -= 0x800; /* a scalar value */
    return cp;
}

/* What the encoder may write: Set D, Rule 3 spaces, "+" (Set B and the
   shift; "-" and "/" are in Set D), and Set O only with direct_o. */
static bool allowed_out(uint8_t b, bool direct_o)
{
    static const char d_sp[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'(),-./:? \t\r\n+";
    static const char o[] = "!\"#$%&*;<=>@[]^_`{|}";
    if (b == 0)
        return false;
    return memchr(d_sp, b, sizeof d_sp - 1) != NULL ||
           (direct_o && memchr(o, b, sizeof o - 1) != NULL);
}

static bool round_trip(struct tally *t, const uint32_t *cps, size_t n, bool direct_o,
                       uint8_t *enc, uint32_t *dec)
{
    char buf[64];
    size_t m = ref7_encode(cps, n, direct_o, enc);
    bool bytes_ok = m <= ref7_encode_bound(n);
    for (size_t i = 0; i < m; i++)
        bytes_ok = bytes_ok && allowed_out(enc[i], direct_o);
    size_t nout = 0;
    struct ref7_error err;
    bool ok = ref7_decode(enc, m, dec, &nout, &err) && same_cps(dec, nout, cps, n);
    snprintf(buf, sizeof buf, "U+%04lX.. n=%zu direct_o=%d", n ? (unsigned long)cps[0] : 0UL, n,
             (int)direct_o);
    check(t, bytes_ok, "encoder output bytes allowed, within bound", buf);
    return check(t, ok, "decode(encode(x)) == x", buf);
}

static bool test_round_trips(void)
{
    struct tally t = {"round-trips", 0, 0};
    uint64_t state = 20260515;
    enum { MAXN = 200 };
    uint32_t cps[MAXN], dec[8 * MAXN];
    uint8_t enc[8 * MAXN];

    /* Every scalar value alone, after "a" and before ".": all one-character
       runs and their ends. */
    for (uint32_t cp = 0; cp <= 0x10FFFF; cp++) {
        if (cp >= 0xD800 && cp <= 0xDFFF)
            continue;
        for (int o = 0; o < 2; o++) {
            cps[0] = cp;
            round_trip(&t, cps, 1, o, enc, dec);
            cps[0] = 'a', cps[1] = cp, cps[2] = '.';
            round_trip(&t, cps, 3, o, enc, dec);
        }
    }
    /* Random texts of 0..MAXN scalar values, fixed seed. */
    for (int k = 0; k < 20000; k++) {
        size_t n = (size_t)(next_random(&state) % (MAXN + 1));
        for (size_t i = 0; i < n; i++)
            cps[i] = random_scalar(&state);
        round_trip(&t, cps, n, k % 2 == 1, enc, dec);
    }
    return report(&t);
}

/* ------------------------------------------------------------ front end */

static _Noreturn void die(const char *msg)
{
    fprintf(stderr, "ref_utf7_test: %s\n", msg);
    exit(2);
}

/* Reads one line (without the newline) into a growing buffer; false at EOF. */
static bool read_line(char **buf, size_t *cap, size_t *len)
{
    int c;
    *len = 0;
    while ((c = getchar()) != EOF && c != '\n') {
        if (*len + 1 >= *cap) {
            *cap = *cap ? *cap * 2 : 256;
            *buf = realloc(*buf, *cap);
            if (*buf == NULL)
                die("out of memory");
        }
        (*buf)[(*len)++] = (char)c;
    }
    return c != EOF || *len > 0;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    die("bad hex digit");
}

static int mode_decode(void)
{
    char *line = NULL;
    size_t cap = 0, len;
    while (read_line(&line, &cap, &len)) {
        if (len % 2 != 0)
            die("odd hex line");
        size_t n = len / 2;
        /* exact-size buffers: the end of the input is the end of the buffer */
        uint8_t *in = malloc(n ? n : 1);
        uint32_t *out = malloc((n + 1) * sizeof *out);
        struct ref7_error *errs = malloc((n + 1) * sizeof *errs);
        if (!in || !out || !errs)
            die("out of memory");
        for (size_t i = 0; i < n; i++)
            in[i] = (uint8_t)(hexval(line[2 * i]) << 4 | hexval(line[2 * i + 1]));

        size_t nout = 0;
        struct ref7_error err = {0, 0, REF7_OK};
        if (ref7_decode(in, n, out, &nout, &err))
            printf("S OK");
        else
            printf("S %s %zu %zu", ref7_kind_name(err.kind), err.offset, err.length);
        for (size_t i = 0; i < nout; i++)
            printf(" %lX", (unsigned long)out[i]);
        putchar('\n');

        size_t nerr = 0;
        nout = ref7_decode_replace(in, n, out, &nerr, errs, n + 1);
        if (nout > n + 1 || nerr > n + 1)
            die("replacing decode wrote more than len+1");
        printf("R");
        for (size_t i = 0; i < nout; i++)
            printf(" %lX", (unsigned long)out[i]);
        printf(" ;");
        for (size_t i = 0; i < nerr; i++)
            printf(" %zu,%zu,%s", errs[i].offset, errs[i].length, ref7_kind_name(errs[i].kind));
        putchar('\n');
        free(in);
        free(out);
        free(errs);
    }
    free(line);
    return 0;
}

static int mode_encode(bool direct_o)
{
    char *line = NULL;
    size_t cap = 0, len;
    while (read_line(&line, &cap, &len)) {
        size_t n = 0, room = len / 2 + 1;
        uint32_t *cps = malloc(room * sizeof *cps);
        if (!cps)
            die("out of memory");
        for (size_t i = 0; i < len;) {
            while (i < len && line[i] == ' ')
                i++;
            if (i == len)
                break;
            uint32_t v = 0;
            while (i < len && line[i] != ' ')
                v = v << 4 | (uint32_t)hexval(line[i++]);
            if (v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
                die("not a scalar value");
            cps[n++] = v;
        }
        uint8_t *out = malloc(ref7_encode_bound(n) + 1);
        if (!out)
            die("out of memory");
        size_t m = ref7_encode(cps, n, direct_o, out);
        if (m > ref7_encode_bound(n))
            die("encoder exceeded its bound");
        for (size_t i = 0; i < m; i++)
            printf("%02X", out[i]);
        putchar('\n');
        free(cps);
        free(out);
    }
    free(line);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--decode") == 0)
        return mode_decode();
    if (argc == 3 && strcmp(argv[1], "--encode") == 0 &&
        (strcmp(argv[2], "0") == 0 || strcmp(argv[2], "1") == 0))
        return mode_encode(argv[2][0] == '1');
    if (argc != 1)
        die("usage: ref_utf7_test [--decode | --encode 0|1]");

    bool ok = true;
    ok &= test_examples();
    ok &= test_hostile();
    ok &= test_set_membership();
    ok &= test_encoder();
    ok &= test_round_trips();
    printf("ref_utf7_test: %s\n", ok ? "all passed" : "FAILED");
    return ok ? 0 : 1;
}
