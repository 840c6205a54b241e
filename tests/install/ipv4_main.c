/* SPDX-License-Identifier: MIT */
/* A user's program with DFAs that the installed utfdfa-gen made:
 *
 *   utfdfa-gen ipv4.abnf --start IPv4address --prefix ipv4 --emit c -o ipv4.gen.h
 *   utfdfa-gen .../share/utfdfa/grammar/utf8.abnf --prefix u8 --emit c -o u8.gen.h
 *
 * Both headers, and the installed <utfdfa/utf8.gen.h> (prefix utf8), live in
 * one translation unit: the prefixes keep every symbol apart.
 *
 *   ipv4_main CANDIDATES   prints 1 or 0 per line of CANDIDATES (is it an RFC 3986
 *                          IPv4address?) for the test to compare with Python's
 *                          ipaddress module, then "ipv4_main: N passed, M failed"
 *                          for its own checks.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ipv4.gen.h"
#include "u8.gen.h"
#include <utfdfa.h>
#include <utfdfa/utf8.gen.h>

static unsigned passed, failed;
static unsigned rejects, unnamed_rejects; /* ipv4_error_of must name every reject */

static void check(int ok, const char *what)
{
    if (ok) {
        passed++;
    } else {
        failed++;
        fprintf(stderr, "FAIL: %s\n", what);
    }
}

/* Whole-string match of s[0..n); *reject_at is the offset of the byte that
 * took the DFA to IPV4_REJECT, or n when none did. */
static int ipv4_match(const uint8_t *s, size_t n, size_t *reject_at)
{
    uint32_t state = IPV4_START;
    for (size_t i = 0; i < n; i++) {
        uint32_t next = ipv4_step(state, s[i]);
        if (next == IPV4_REJECT) {
            *reject_at = i;
            rejects++;
            unnamed_rejects += ipv4_error_of(state, s[i]) != IPV4_ERROR_INVALID;
            return 0;
        }
        state = next;
    }
    *reject_at = n;
    return ipv4_is_accepting(state);
}

static void fixed_ipv4_cases(void)
{
    static const struct {
        const char *text;
        int match;
        size_t reject_at;
    } cases[] = {
        {"192.168.0.1", 1, 11}, {"255.255.255.255", 1, 15}, {"0.0.0.0", 1, 7},
        {"256.1.1.1", 0, 2},  /* "25" then 6: no dec-octet continues so */
        {"01.2.3.4", 0, 1},   /* no leading zeros */
        {"1.2.3", 0, 5},      /* ends inside the address: no reject, not accepting */
        {"1.2.3.4.", 0, 7},   {"", 0, 0},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        size_t at = 0;
        size_t n = strlen(cases[k].text);
        int m = ipv4_match((const uint8_t *)cases[k].text, n, &at);
        char what[80];
        snprintf(what, sizeof what, "ipv4 \"%s\"", cases[k].text);
        check(m == cases[k].match && at == cases[k].reject_at, what);
    }
}

/* Where valid UTF-8 ends, by the u8 DFA. */
static size_t u8_valid_up_to(const uint8_t *p, size_t n)
{
    uint32_t state = U8_ACCEPT;
    size_t char_start = 0;
    for (size_t i = 0; i < n; i++) {
        if (state == U8_ACCEPT)
            char_start = i;
        state = u8_step(state, p[i]);
        if (state == U8_REJECT)
            return char_start;
    }
    return state == U8_ACCEPT ? n : char_start;
}

static void utf8_cases(void)
{
    /* The user's generation from the installed grammar is the build's. */
    check(U8_NSTATES == UTF8_NSTATES && U8_NCLASSES == UTF8_NCLASSES &&
              memcmp(u8_class, utf8_class, sizeof utf8_class) == 0 &&
              memcmp(u8_trans, utf8_trans, sizeof utf8_trans) == 0 &&
              memcmp(u8_error_kind, utf8_error_kind, sizeof utf8_error_kind) == 0,
          "u8.gen.h has the tables of the installed utf8.gen.h");
    check(U8_NSTATES == 9 && U8_NCLASSES == 12, "RFC 3629: 9 states, 12 classes");

    uint64_t x = 0x9E3779B97F4A7C15ull; /* xorshift64, fixed seed */
    unsigned differ = 0;
    for (int t = 0; t < 50000; t++) {
        uint8_t buf[10];
        size_t n = (size_t)(t % 10) + 1;
        for (size_t i = 0; i < n; i++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            uint8_t b = (uint8_t)x;
            buf[i] = (x >> 8) % 3 ? (uint8_t)(0x80 | (b & 0x3F)) : b;
        }
        if (u8_valid_up_to(buf, n) != utfdfa_valid_up_to(buf, n))
            differ++;
    }
    check(differ == 0, "u8 DFA and libutfdfa agree on 50000 random strings");
}

static uint8_t text[1 << 20];

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: ipv4_main CANDIDATES\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    size_t len = fread(text, 1, sizeof text, f);
    fclose(f);
    size_t start = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '\n') {
            size_t at;
            printf("%d\n", ipv4_match(text + start, i - start, &at));
            start = i + 1;
        }
    }
    fixed_ipv4_cases();
    check(rejects > 0 && unnamed_rejects == 0, "ipv4_error_of is \"invalid\" for every reject");
    utf8_cases();
    printf("ipv4_main: %u passed, %u failed\n", passed, failed);
    return failed != 0;
}
