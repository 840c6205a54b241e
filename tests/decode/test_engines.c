/* SPDX-License-Identifier: MIT */
/* Second engine: the re2c lexer generated from the same ABNF
 * (build/gen/utf8.lexer.c) must decode exactly like the table engine:
 * the same characters and the same maximal subparts, on every vector, on
 * every byte string of length 1-3, and on random inputs (fixed seed).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common.h"
#include "rng.h"
#include "utfdfa.h"
#include "vectors.h"
#include "utf8.lexer.c"

/* The lexer's decoder: tokens from re2c, values by RFC 3629 section 3's
 * bit layout (the lead byte's payload is below its first zero bit). */
struct item {
    int ok;
    uint32_t value;    /* ok */
    size_t offset, len;
};

static size_t lexer_decode(const uint8_t *in, size_t n, struct item *items, size_t max)
{
    size_t pos = 0, k = 0, len;
    unsigned tag;
    int t;
    while (k < max && (t = utf8_lex(in + pos, n - pos, &len, &tag)) != UTF8_LEX_END) {
        struct item it = {t == UTF8_LEX_UNIT, 0, pos, len};
        if (it.ok) {
            uint32_t v = len == 1 ? in[pos] : in[pos] & (0x7Fu >> len);
            for (size_t i = 1; i < len; i++)
                v = v << 6 | (in[pos + i] & 0x3Fu);
            it.value = v;
        }
        items[k++] = it;
        pos += len;
    }
    return k;
}

/* The table engine, strict: characters in order, each as long as its
 * (unique, shortest) encoding, and the errors at the offsets it reports. */
static size_t table_decode(const uint8_t *in, size_t n, struct item *items, size_t max)
{
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    uint32_t cps[80];
    size_t pos = 0, k = 0, cursor = 0;
    for (;;) {
        size_t s = n - pos, o = 80;
        utfdfa_error e;
        utfdfa_result r = utfdfa_decode_utf32(&d, in + pos, &s, cps, &o, true, &e);
        pos += s;
        for (size_t i = 0; i < o && k < max; i++) {
            size_t len = cps[i] < 0x80 ? 1 : cps[i] < 0x800 ? 2 : cps[i] < 0x10000 ? 3 : 4;
            items[k++] = (struct item){1, cps[i], cursor, len};
            cursor += len;
        }
        if (r != UTFDFA_MALFORMED || k >= max)
            return k;
        items[k++] = (struct item){0, 0, (size_t)e.offset, e.length};
        cursor = (size_t)e.offset + e.length;
    }
}

static int compare(const uint8_t *in, size_t n)
{
    struct item a[80], b[80];
    size_t na = lexer_decode(in, n, a, 80), nb = table_decode(in, n, b, 80);
    if (na != nb)
        return 0;
    for (size_t i = 0; i < na; i++)
        if (a[i].ok != b[i].ok || a[i].offset != b[i].offset || a[i].len != b[i].len ||
            a[i].value != b[i].value)
            return 0;
    return 1;
}

static void check(int ok, const char *what, const uint8_t *in, size_t n)
{
    CHECK(ok, "engines disagree on %s: %s", what, hex(in, n));
}

int main(void)
{
    uint8_t buf[64];
    for (size_t v = 0; v < sizeof vectors / sizeof vectors[0]; v++) {
        size_t n = parse_hex(vectors[v], buf, sizeof buf);
        uint8_t *in = dup_exact(buf, n);
        check(compare(in, n), "a vector", in, n);
        free(in);
    }
    /* Every byte string of length 1-3, in exact-size buffers. */
    unsigned long bad = 0, total = 0;
    for (size_t len = 1; len <= 3; len++) {
        uint8_t *in = xmalloc(len);
        for (unsigned long x = 0; x < 1ul << (8 * len); x++) {
            for (size_t k = 0; k < len; k++)
                in[k] = (uint8_t)(x >> (8 * k));
            total++;
            if (!compare(in, len)) {
                bad++;
                check(0, "an exhaustive string", in, len);
            }
        }
        free(in);
    }
    check(bad == 0, "exhaustive strings of length 1-3", NULL, 0);
    /* Random inputs: runs of bytes drawn towards the interesting ones. */
    static const uint8_t pick[] = {0x41, 0x80, 0x9F, 0xA0, 0xBF, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1,
                                   0xED, 0xEF, 0xF0, 0xF1, 0xF4, 0xF5, 0xFF};
    struct test_rng rng = {20261122};
    for (int t = 0; t < 200000; t++) {
        size_t n = 0;
        size_t len = test_rng_below(&rng, 24);
        uint8_t *in = xmalloc(len);
        for (; n < len; n++) {
            uint32_t r = test_rng_u32(&rng);
            in[n] = r & 1 ? pick[(r >> 1) % sizeof pick] : (uint8_t)(r >> 8);
        }
        check(compare(in, len), "a random string", in, len);
        free(in);
    }
    printf("test_engines: re2c lexer and table engine agree on %zu vectors, %lu exhaustive "
           "and 200000 random strings\n", sizeof vectors / sizeof vectors[0], total);
    return check_summary("test_engines");
}
