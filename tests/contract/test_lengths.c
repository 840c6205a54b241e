/* SPDX-License-Identifier: MIT */
/* The exact sizes (utfdfa_code_points, utfdfa_utf8_len, utfdfa_utf16_len,
 * utfdfa_utf32_len) and utfdfa_kernel_name, at every kernel level the CPU
 * has. The expected sizes come from the references of tests/ref
 * (oracle_decode_replace: one U+FFFD per error; oracle_encode for each
 * character's bytes), for UCS-4 from its definition (a value a unit), for
 * UTF-16 and UTF-32 without a byte order from the BOM rule over the
 * references of the LE/BE forms; IMAP's UTF-7, which has no reference, is
 * held to the library's own replacing decoder. Every input is also held to
 * what the header defines the sizes as: what utfdfa_transcode into UTF-8,
 * utfdfa_decode_utf16 and utfdfa_decode_utf32 write, replacing.
 *
 * Inputs: every string of 0-2 bytes, 3 and 4 bytes over the bytes where
 * forms change (shorter than a vector: once, at the level chosen); at
 * every level, for every length 0-200 a text of one character repeated,
 * with a special (each side of every length boundary of every form, the
 * errors) written over it at every position, and long runs that cross the
 * kernels' counter rounds; random texts of those specials, errors close
 * together or far apart.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common.h"
#include "levels.h"
#include "oracle.h"
#include "rng.h"
#include "utfdfa.h"

int utfdfa__fast_force(const char *level); /* src/fast/kernels.h */
int utfdfa__fast_has(const char *level);

struct sizes {
    uint64_t cps, u8, u16;
};

static bool is_scalar(uint32_t c)
{
    return c <= 0x10FFFF && (c < 0xD800 || c > 0xDFFF);
}

/* The sizes of code points as the references write them: a value UTF-8
 * and UTF-16 cannot hold is a U+FFFD. */
static struct sizes sizes_of_cps(const uint32_t *cps, size_t n)
{
    struct sizes z = {n, 0, 0};
    for (size_t i = 0; i < n; i++) {
        uint32_t c = is_scalar(cps[i]) ? cps[i] : 0xFFFD;
        uint8_t b[8];
        size_t len;
        if (!oracle_encode(UTFDFA_UTF8, &c, 1, b, &len))
            abort();
        z.u8 += len;
        if (!oracle_encode(UTFDFA_UTF16LE, &c, 1, b, &len))
            abort();
        z.u16 += len / 2;
    }
    return z;
}

/* The sizes the library's own replacing decoders write (the definition). */
static struct sizes sizes_written(enum utfdfa_encoding from, const uint8_t *s, size_t n)
{
    struct sizes z;
    uint32_t *u32 = xmalloc((n + 1) * sizeof *u32);
    uint16_t *u16 = xmalloc((2 * n + 1) * sizeof *u16);
    uint8_t *u8 = xmalloc(3 * n + 1);
    utfdfa_decoder d;
    size_t in = n, m = n + 1;
    utfdfa_decoder_init(&d, from, UTFDFA_REPLACE, UTFDFA_BOM_KEEP);
    if (utfdfa_decode_utf32(&d, s, &in, u32, &m, true, NULL) != UTFDFA_INPUT_EMPTY)
        abort();
    z.cps = m;
    in = n, m = 2 * n + 1;
    utfdfa_decoder_init(&d, from, UTFDFA_REPLACE, UTFDFA_BOM_KEEP);
    if (utfdfa_decode_utf16(&d, s, &in, u16, &m, true, NULL) != UTFDFA_INPUT_EMPTY)
        abort();
    z.u16 = m;
    in = n, m = 3 * n + 1;
    utfdfa_decoder_init(&d, from, UTFDFA_REPLACE, UTFDFA_BOM_KEEP);
    if (utfdfa_transcode(&d, UTFDFA_UTF8, s, &in, u8, &m, true, NULL) != UTFDFA_INPUT_EMPTY)
        abort();
    z.u8 = m;
    free(u32);
    free(u16);
    free(u8);
    return z;
}

/* The expected sizes by a reference; false when `from` has none. */
static bool sizes_expected(enum utfdfa_encoding from, const uint8_t *s, size_t n, struct sizes *z)
{
    uint32_t *cps = xmalloc((n + 1) * sizeof *cps);
    size_t k = 0;
    bool known = true;
    if (from == UTFDFA_UCS4LE || from == UTFDFA_UCS4BE) {
        for (size_t i = 0; i < n; i += 4) {
            const uint8_t *p = s + i;
            bool be = from == UTFDFA_UCS4BE;
            cps[k++] = n - i < 4 ? 0xFFFD
                       : be ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]
                            : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
        }
    } else if (from == UTFDFA_UTF16 || from == UTFDFA_UTF32) {
        size_t bom = from == UTFDFA_UTF16 ? 2 : 4;
        static const uint8_t le[4] = {0xFF, 0xFE, 0, 0}, be[4] = {0, 0, 0xFE, 0xFF};
        bool is_be = n >= bom && memcmp(s, bom == 2 ? be + 2 : be, bom) == 0;
        bool is_le = n >= bom && memcmp(s, le, bom) == 0;
        enum utfdfa_encoding f = bom == 2 ? (is_be ? UTFDFA_UTF16BE : UTFDFA_UTF16LE)
                                          : (is_be ? UTFDFA_UTF32BE : UTFDFA_UTF32LE);
        size_t skip = is_be || is_le ? bom : 0;
        known = oracle_decode_replace(f, s + skip, n - skip, cps, &k);
    } else {
        known = oracle_decode_replace(from, s, n, cps, &k);
    }
    if (known)
        *z = sizes_of_cps(cps, k);
    free(cps);
    return known;
}

/* Whether check_one runs at every level or only at the one chosen. */
static bool every_level;

/* The four functions on an exact heap copy of s[0..n), at each level,
 * against the reference and the library's decoders. */
static void check_one(enum utfdfa_encoding from, const uint8_t *s, size_t n)
{
    uint8_t *copy = dup_exact(s, n);
    struct sizes want, wrote = sizes_written(from, copy, n);
    if (!sizes_expected(from, copy, n, &want))
        want = wrote; /* IMAP's UTF-7: no reference */
    for (size_t l = 0; l < fast_level_count; l++) {
        const char *level = every_level ? fast_level_names[l] : "auto";
        if (!utfdfa__fast_force(level))
            continue;
        size_t cps = utfdfa_code_points(from, copy, n), u8 = 0, u16 = 0, u32 = 0;
        bool ok8 = utfdfa_utf8_len(from, copy, n, &u8), ok16 = utfdfa_utf16_len(from, copy, n, &u16),
             ok32 = utfdfa_utf32_len(from, copy, n, &u32);
        CHECK(ok8 && ok16 && ok32 && cps == want.cps && u32 == want.cps && u8 == want.u8 &&
                  u16 == want.u16,
              "%s %s [%s] (%zu bytes): code points %zu, utf-8 %zu, utf-16 %zu, utf-32 %zu; the "
              "reference %llu, %llu, %llu",
              utfdfa_kernel_name(), utfdfa_encoding_name(from), hex(copy, n), n, cps, u8, u16, u32,
              (unsigned long long)want.cps, (unsigned long long)want.u8,
              (unsigned long long)want.u16);
        CHECK(cps == wrote.cps && u8 == wrote.u8 && u16 == wrote.u16,
              "%s %s [%s]: code points %zu, utf-8 %zu, utf-16 %zu; the decoders wrote %llu, "
              "%llu, %llu",
              utfdfa_kernel_name(), utfdfa_encoding_name(from), hex(copy, n), cps, u8, u16,
              (unsigned long long)wrote.cps, (unsigned long long)wrote.u8,
              (unsigned long long)wrote.u16);
        if (!every_level)
            break;
    }
    utfdfa__fast_force("auto");
    free(copy);
}

/* The bytes where the forms change: ASCII, continuation, leads, the
 * surrogate bytes of UTF-16 (D8 DB DC DF), BOM bytes, UTF-7's + - &. */
static const uint8_t edges[] = {0x00, 0x2B, 0x2D, 0x26, 0x41, 0x7F, 0x80, 0xBF, 0xC0, 0xC2,
                                0xD8, 0xDC, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF8, 0xFE,
                                0xFF, 0x10};
enum { NEDGES = sizeof edges };

static void short_strings(enum utfdfa_encoding from)
{
    uint8_t s[4] = {0};
    check_one(from, s, 0);
    for (unsigned a = 0; a < 65536; a++) {
        s[0] = (uint8_t)a, s[1] = (uint8_t)(a >> 8);
        if (a < 256)
            check_one(from, s, 1);
        check_one(from, s, 2);
    }
    for (unsigned a = 0; a < NEDGES * NEDGES * NEDGES; a++) {
        s[0] = edges[a % NEDGES], s[1] = edges[a / NEDGES % NEDGES], s[2] = edges[a / NEDGES / NEDGES];
        check_one(from, s, 3);
        for (unsigned b = 0; b < NEDGES; b += 3) {
            s[3] = edges[b];
            check_one(from, s, 4);
        }
    }
}

/* Characters and errors to write over a text, per unit width. */
static const char *const specials8[] = {
    "7F", "C2 80", "DF BF", "E0 A0 80", "ED 9F BF", "EE 80 80", "EF BF BF", "F0 90 80 80",
    "F4 8F BF BF", "80", "C3", "F0 9F", "ED A0 80", "F4 90 80 80", "C0 80", "FF", NULL};
static const char *const specials16[] = {"7F 00", "80 00", "FF 07", "00 08", "FF D7", "00 E0",
                                         "FF FF", "00 D8 00 DC", "FF DB FF DF", "3D D8",
                                         "00 DE", "FF", NULL};
static const char *const specials32[] = {"7F 00 00 00", "80 00 00 00", "FF 07 00 00",
                                         "00 08 00 00", "FF FF 00 00", "00 00 01 00",
                                         "FF FF 10 00", "00 D8 00 00", "00 00 11 00",
                                         "FF FF FF FF", "FF FF", NULL};

/* For every length 0-max (at most 200), a text of `fill` (a character of
 * the source) repeated, with each special written at each position. */
static void boundaries(enum utfdfa_encoding from, const char *fill_hex, size_t max)
{
    size_t unit = utfdfa_unit_size(from);
    const char *const *specials = unit == 1 ? specials8 : unit == 2 ? specials16 : specials32;
    bool be = from == UTFDFA_UTF16BE || from == UTFDFA_UTF32BE;
    uint8_t fill[8], sp[8], buf[216];
    size_t nf = parse_hex(fill_hex, fill, sizeof fill);
    for (size_t k = 0; specials[k]; k++) {
        size_t ns = parse_hex(specials[k], sp, sizeof sp);
        if (be) /* the specials are written little-endian */
            for (size_t i = 0; i + unit <= ns; i += unit)
                for (size_t j = 0; j < unit / 2; j++) {
                    uint8_t t = sp[i + j];
                    sp[i + j] = sp[i + unit - 1 - j], sp[i + unit - 1 - j] = t;
                }
        for (size_t len = 0; len <= max; len++)
            for (size_t at = 0; at <= len; at += unit) {
                for (size_t i = 0; i < len; i++)
                    buf[i] = fill[i % nf];
                memcpy(buf + at, sp, ns); /* room: buf has 16 bytes past 200 */
                check_one(from, buf, len);
            }
    }
}

/* Runs long enough to cross every counter round of the kernels (UTF-8's
 * every 127 vectors, UTF-16's every 16384). */
static void long_runs(enum utfdfa_encoding from, const char *char_hex, size_t n)
{
    uint8_t c[8];
    size_t nc = parse_hex(char_hex, c, sizeof c);
    uint8_t *buf = xmalloc(n);
    for (size_t i = 0; i < n; i++)
        buf[i] = c[i % nc];
    check_one(from, buf, n - n % nc);
    free(buf);
}

/* Random texts of the specials, up to 400 bytes: errors close together,
 * characters of every length, a pair across any point, so that the
 * windows after errors end everywhere. */
static void mixes(enum utfdfa_encoding from, unsigned count)
{
    static struct test_rng rng = {0x5EED};
    size_t unit = utfdfa_unit_size(from);
    const char *const *specials = unit == 1 ? specials8 : unit == 2 ? specials16 : specials32;
    size_t nspecials = 0;
    while (specials[nspecials])
        nspecials++;
    bool be = from == UTFDFA_UTF16BE || from == UTFDFA_UTF32BE;
    uint8_t buf[416], sp[8];
    for (unsigned t = 0; t < count; t++) {
        size_t len = test_rng_next(&rng) % 400, n = 0;
        bool dense = t % 2; /* half of them mostly errors */
        while (n < len) {
            size_t k = test_rng_next(&rng) % nspecials;
            if (!dense && test_rng_next(&rng) % 8)
                k = test_rng_next(&rng) % 4; /* a character */
            size_t ns = parse_hex(specials[k], sp, sizeof sp);
            if (be && ns % unit == 0)
                for (size_t i = 0; i < ns; i += unit)
                    for (size_t j = 0; j < unit / 2; j++) {
                        uint8_t x = sp[i + j];
                        sp[i + j] = sp[i + unit - 1 - j], sp[i + unit - 1 - j] = x;
                    }
            if (ns % unit && t % 3) /* a partial unit only at the end, mostly */
                continue;
            memcpy(buf + n, sp, ns);
            n += ns;
        }
        check_one(from, buf, n);
    }
}

static const enum utfdfa_encoding forms[] = {UTFDFA_UTF8,    UTFDFA_UTF16LE, UTFDFA_UTF16BE,
                                             UTFDFA_UTF32LE, UTFDFA_UTF32BE, UTFDFA_UTF16,
                                             UTFDFA_UTF32};

static void kernel_name_at(const char *level, void *arg)
{
    (void)arg;
    CHECK(strcmp(utfdfa_kernel_name(), level) == 0, "forced to %s, utfdfa_kernel_name() says %s",
          level, utfdfa_kernel_name());
}

int main(void)
{
    each_fast_level("test_lengths", kernel_name_at, NULL);
    /* The level the library chooses: the best this CPU has. */
    const char *best = "scalar";
    for (size_t l = 0; l < fast_level_count; l++)
        if (utfdfa__fast_has(fast_level_names[l]))
            best = fast_level_names[l];
    CHECK(strcmp(utfdfa_kernel_name(), best) == 0, "utfdfa_kernel_name() is %s, the best level %s",
          utfdfa_kernel_name(), best);
    printf("test_lengths: the level chosen: %s\n", utfdfa_kernel_name());

    /* UTF-8, UTF-16 and UTF-32, counted by the kernels, at every level. */
    every_level = true;
    for (size_t f = 0; f < sizeof forms / sizeof *forms; f++) {
        size_t unit = utfdfa_unit_size(forms[f]);
        boundaries(forms[f], unit == 1 ? "41" : unit == 2 ? "41 00" : "41 00 00 00", 200);
        boundaries(forms[f], unit == 1 ? "E4 B8 AD C3 A9" : unit == 2 ? "2D 4E" : "2D 4E 00 00", 200);
    }
    for (size_t f = 0; f < sizeof forms / sizeof *forms; f++)
        mixes(forms[f], 3000);
    long_runs(UTFDFA_UTF8, "F0 9F 98 80", 3 << 20); /* each F0 lane counts 2 a step */
    long_runs(UTFDFA_UTF8, "F0 9F 98 80 E4 B8 AD", 3 << 20);
    long_runs(UTFDFA_UTF16LE, "2D 4E", 3 << 20); /* each lane counts 2 a step */
    long_runs(UTFDFA_UTF16LE, "2D 4E 3D D8 00 DE", 3 << 20);
    long_runs(UTFDFA_UTF16BE, "4E 2D", 3 << 20);
    long_runs(UTFDFA_UTF32LE, "00 F6 01 00 2D 4E 00 00", 1 << 20);
    /* Strings shorter than any vector (the kernels' scalar tails) in every
     * encoding, at the level chosen; the boundaries of the encodings whose
     * counting is their decoder's, up to a few of its windows. */
    every_level = false;
    for (int e = 0; e < UTFDFA_NENCODINGS; e++) {
        enum utfdfa_encoding from = (enum utfdfa_encoding)e;
        short_strings(from);
        if (utfdfa_unit_size(from) == 1 && from != UTFDFA_UTF8)
            boundaries(from, "E4 B8 AD C3 A9", 72);
        else if (from == UTFDFA_UCS4LE || from == UTFDFA_UCS4BE)
            boundaries(from, "00 F6 01 00", 72);
    }
    /* (NULL, 0) is an empty input, as everywhere in the API (run under
     * UBSan, which rejects arithmetic on a null pointer). */
    for (int e = 0; e < UTFDFA_NENCODINGS; e++) {
        enum utfdfa_encoding from = (enum utfdfa_encoding)e;
        size_t n8 = 1, n16 = 1, n32 = 1;
        CHECK(utfdfa_code_points(from, NULL, 0) == 0 && utfdfa_utf8_len(from, NULL, 0, &n8) &&
                  utfdfa_utf16_len(from, NULL, 0, &n16) && utfdfa_utf32_len(from, NULL, 0, &n32) &&
                  n8 == 0 && n16 == 0 && n32 == 0,
              "%s: (NULL, 0) counts %zu, %zu, %zu", utfdfa_encoding_name(from), n8, n16, n32);
    }
    return check_summary("test_lengths");
}
