/* SPDX-License-Identifier: MIT */
/* IMAP's modified UTF-7 against glibc's own (iconv(3), "UTF-7-IMAP"), an
 * independent implementation: every string of up to 5 bytes over the bytes
 * that matter and random longer ones, and random texts encoded both ways.
 *
 * glibc is laxer than RFC 3501 section 5.1.3 (it takes a run left open at
 * the end, base64 for printable ASCII and a run right after a run), so the
 * comparison goes one way: whatever the library accepts, glibc accepts and
 * decodes to the same characters; whatever glibc rejects, the library
 * rejects. Encoding must agree byte for byte. Without glibc's converter
 * the test prints a note and passes. Last line: "test_imap_iconv: N passed,
 * M failed". */
#include <errno.h>
#include <iconv.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "rng.h"
#include "utfdfa.h"

static iconv_t from_imap, to_imap;

/* glibc: s[0..n) as UTF-7-IMAP to code points; -1 if it rejects it. */
static long glibc_decode(const uint8_t *s, size_t n, uint32_t *cps, size_t cap)
{
    char *ip = (char *)(uintptr_t)s, *op = (char *)cps;
    size_t il = n, ol = cap * 4;
    iconv(from_imap, NULL, NULL, NULL, NULL);
    if (iconv(from_imap, &ip, &il, &op, &ol) == (size_t)-1 ||
        iconv(from_imap, NULL, NULL, &op, &ol) == (size_t)-1)
        return -1;
    return (long)((size_t)(op - (char *)cps) / 4);
}

/* The library: -1 if it rejects it (strict). */
static long ours_decode(const uint8_t *s, size_t n, uint32_t *cps, size_t cap)
{
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, UTFDFA_UTF7_IMAP, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    uint8_t *copy = malloc(n ? n : 1);
    memcpy(copy, s, n);
    size_t src = n, dst = cap;
    utfdfa_result r = utfdfa_decode_utf32(&d, copy, &src, cps, &dst, true, NULL);
    free(copy);
    return r == UTFDFA_INPUT_EMPTY ? (long)dst : -1;
}

static unsigned long laxer; /* strings glibc takes and the RFC's rules refuse */

static void compare(const uint8_t *s, size_t n)
{
    uint32_t a[64], b[64];
    long na = ours_decode(s, n, a, 64), nb = glibc_decode(s, n, b, 64);
    if (na >= 0)
        CHECK(nb == na && memcmp(a, b, (size_t)na * 4) == 0,
              "'%.*s': the library decodes %ld characters, glibc %ld (or others)", (int)n, s,
              na, nb);
    else if (nb < 0)
        passed++;
    else
        laxer++;
}

static struct test_rng rng = {20261124};

int utfdfa__fast_force(const char *level); /* src/fast/kernels.h: a level for every run */

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--level") == 0 && !utfdfa__fast_force(argv[2])) {
        printf("%s: level %s: not on this CPU or in this build, skipped\n", "test_imap_iconv", argv[2]);
        return 0;
    }
    from_imap = iconv_open("UTF-32LE", "UTF-7-IMAP");
    to_imap = iconv_open("UTF-7-IMAP", "UTF-32LE");
    if (from_imap == (iconv_t)-1 || to_imap == (iconv_t)-1) {
        printf("test_imap_iconv: glibc's UTF-7-IMAP converter is absent: skipped\n");
        printf("test_imap_iconv: 0 passed, 0 failed\n");
        return 0;
    }
    static const uint8_t alphabet[] = "&-AOkQg,+/.a 2DE~\x7F";
    const size_t na = sizeof alphabet - 1;
    uint8_t s[24];
    for (size_t len = 1; len <= 5; len++) {
        size_t total = 1;
        for (size_t i = 0; i < len; i++)
            total *= na;
        for (size_t v = 0; v < total; v++) {
            for (size_t i = 0, x = v; i < len; i++, x /= na)
                s[i] = alphabet[x % na];
            compare(s, len);
        }
    }
    for (int t = 0; t < 200000; t++) {
        size_t n = 6 + test_rng_below(&rng, 18);
        for (size_t i = 0; i < n; i++)
            s[i] = alphabet[test_rng_below(&rng, na)];
        compare(s, n);
    }
    /* Encoding: random texts, byte for byte. */
    for (int t = 0; t < 20000; t++) {
        uint32_t cps[24];
        size_t n = test_rng_below(&rng, 24);
        for (size_t i = 0; i < n; i++) {
            uint32_t r = test_rng_u32(&rng);
            cps[i] = r % 3 == 0 ? 0x20 + r / 3 % 0x5F : r % 3 == 1 ? '&'
                                                      : 0x80 + r / 3 % 0x10FF80;
            if (cps[i] >= 0xD800 && cps[i] <= 0xDFFF)
                cps[i] = 0xFFFD;
        }
        uint8_t ours[24 * 8 + 8], theirs[24 * 8 + 8];
        utfdfa_encoder e;
        utfdfa_encoder_init(&e, UTFDFA_UTF7_IMAP, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
        size_t src = n, no = sizeof ours;
        utfdfa_encode(&e, cps, &src, ours, &no, true, NULL);
        char *ip = (char *)cps, *op = (char *)theirs;
        size_t il = n * 4, ol = sizeof theirs;
        iconv(to_imap, NULL, NULL, NULL, NULL);
        size_t r = iconv(to_imap, &ip, &il, &op, &ol);
        iconv(to_imap, NULL, NULL, &op, &ol);
        size_t nt = (size_t)(op - (char *)theirs);
        CHECK(r != (size_t)-1 && nt == no && memcmp(ours, theirs, no) == 0,
              "encoding %zu code points: %zu bytes, glibc %zu", n, no, nt);
    }
    printf("test_imap_iconv: %lu strings glibc takes and RFC 3501 section 5.1.3 refuses\n",
           laxer);
    iconv_close(from_imap);
    iconv_close(to_imap);
    return check_summary("test_imap_iconv");
}
