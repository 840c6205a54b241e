/* SPDX-License-Identifier: MIT */
/* Example 2: your own re2c lexer on the generated definitions.
 *
 * A toy language whose identifiers are made of ASCII letters and any
 * character beyond ASCII, then also digits and '_' ("größe", "π2", "日本語").
 * "Any character beyond ASCII" is UTF8_2 | UTF8_3 | UTF8_4 from
 * build/gen/utf8.defs.re, the RFC 3629 section 4 grammar compiled by
 * gen/abnfc.py (installed: $(pkg-config --variable=pkgdatadir utfdfa)), so an
 * ill-formed byte (overlong, surrogate, above U+10FFFF, truncated) is never
 * part of an identifier: it is a BAD token of one byte.
 *
 *   re2c -W -Werror --no-generation-date --no-version -i -I build/gen \
 *        tests/examples/re2c_ident.re -o re2c_ident.c
 *
 * The input is (pointer, length), never NUL-terminated: YYPEEK yields 0 at
 * the end and re2c's end-of-input rule ($) tells it from a real NUL.
 *
 * The test: hand-written token lists for sample inputs, then 200,000 random
 * inputs (fixed seed) against a second tokenizer that steps the table DFA of
 * build/gen/utf8.gen.h instead. Last line: "re2c_ident: N passed, M failed".
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "utf8.gen.h"

enum tok { T_END, T_IDENT, T_NUMBER, T_PUNCT, T_BAD };

/* The next token of in[0..n) at or after *pos: its kind, its start in *start;
 * *pos moves past it. Spaces separate tokens. */
static enum tok lex(const unsigned char *in, size_t n, size_t *pos, size_t *start)
{
    const unsigned char *cur = in + *pos, *lim = in + n, *mar = cur, *tok;
    (void)mar; /* used only if re2c has to back up */
    for (;;) {
        tok = cur;
        /*!re2c
            re2c:api = custom;
            re2c:api:style = free-form;
            re2c:define:YYCTYPE = "unsigned char";
            re2c:define:YYPEEK = "(cur < lim ? *cur : 0)";
            re2c:define:YYSKIP = "++cur;";
            re2c:define:YYBACKUP = "mar = cur;";
            re2c:define:YYRESTORE = "cur = mar;";
            re2c:define:YYLESSTHAN = "(size_t)(lim - cur) < @@{len}";
            re2c:define:YYFILL = "0";
            re2c:eof = 0;

            !include "utf8.defs.re";

            letter = [a-zA-Z];
            wide   = UTF8_2 | UTF8_3 | UTF8_4;   // one well-formed character beyond ASCII
            ident  = (letter | wide) (letter | wide | [0-9_])*;
            number = [0-9]+;
            space  = [ \t\r\n]+;
            punct  = [-+*/=(),;.:];

            ident  { *start = (size_t)(tok - in); *pos = (size_t)(cur - in); return T_IDENT; }
            number { *start = (size_t)(tok - in); *pos = (size_t)(cur - in); return T_NUMBER; }
            punct  { *start = (size_t)(tok - in); *pos = (size_t)(cur - in); return T_PUNCT; }
            space  { continue; }
            *      { *start = (size_t)(tok - in); *pos = (size_t)(cur - in); return T_BAD; }
            $      { *start = n; *pos = n; return T_END; }
        */
    }
}

/* ---------------------------------------------------------------- the oracle */

/* Length of the well-formed UTF-8 character at p[0..n), by the table DFA; 0 if none. */
static size_t dfa_char(const unsigned char *p, size_t n)
{
    uint32_t state = UTF8_ACCEPT;
    for (size_t i = 0; i < n && i < 4; i++) {
        state = utf8_step(state, p[i]);
        if (state == UTF8_REJECT)
            return 0;
        if (state == UTF8_ACCEPT)
            return i + 1;
    }
    return 0;
}

static int is_letter(unsigned char c) { return (c | 0x20) >= 'a' && (c | 0x20) <= 'z'; }
static int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

static enum tok ref_lex(const unsigned char *in, size_t n, size_t *pos, size_t *start)
{
    size_t i = *pos;
    while (i < n && strchr(" \t\r\n", in[i]) && in[i] != 0)
        i++;
    *start = i;
    if (i == n) {
        *pos = n;
        return T_END;
    }
    unsigned char c = in[i];
    size_t k;
    enum tok t;
    if (is_letter(c) || (c >= 0x80 && dfa_char(in + i, n - i) > 0)) {
        t = T_IDENT;
        while (i < n) {
            if (is_letter(in[i]) || is_digit(in[i]) || in[i] == '_')
                i++;
            else if (in[i] >= 0x80 && (k = dfa_char(in + i, n - i)) > 0)
                i += k;
            else
                break;
        }
    } else if (is_digit(c)) {
        t = T_NUMBER;
        while (i < n && is_digit(in[i]))
            i++;
    } else if (c != 0 && strchr("-+*/=(),;.:", c)) {
        t = T_PUNCT;
        i++;
    } else {
        t = T_BAD;
        i++;
    }
    *pos = i;
    return t;
}

/* ---------------------------------------------------------------- the test */

typedef enum tok (*lexer)(const unsigned char *, size_t, size_t *, size_t *);

/* The token list as text: kind letter and byte length, e.g. "I7 P1 N2". */
static void tokens(lexer lx, const unsigned char *in, size_t n, char *out, size_t cap)
{
    static const char letter[] = "EINPB";
    size_t pos = 0, start, used = 0;
    out[0] = 0;
    for (;;) {
        size_t before = pos;
        enum tok t = lx(in, n, &pos, &start);
        if (t == T_END)
            break;
        if (pos <= before || used + 24 >= cap) {
            snprintf(out + used, cap - used, "STUCK");
            return;
        }
        used += (size_t)snprintf(out + used, cap - used, "%s%c%zu", used ? " " : "", letter[t],
                                 pos - start);
    }
}

static unsigned passed, failed;

static void expect(const char *name, const char *bytes, size_t n, const char *want)
{
    unsigned char *in = malloc(n ? n : 1); /* exact size: a read past the end is caught */
    char got[512];
    memcpy(in, bytes, n);
    tokens(lex, in, n, got, sizeof got);
    if (strcmp(got, want) == 0) {
        passed++;
    } else {
        failed++;
        fprintf(stderr, "FAIL: %s: got \"%s\", want \"%s\"\n", name, got, want);
    }
    free(in);
}

#define EXPECT(name, lit, want) expect(name, lit, sizeof(lit) - 1, want)

int main(void)
{
    /* Kinds: I identifier, N number, P punctuation, B bad byte; then the length in bytes. */
    EXPECT("letters and UTF-8", "gr\xC3\xB6\xC3\x9F" "e = 42;", "I7 P1 N2 P1");
    EXPECT("Greek, CJK", "\xCF\x80" "2 := x_1 + \xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E",
           "I3 P1 P1 I3 P1 I9");
    EXPECT("4-byte character", "\xF0\x9F\x98\x80ok", "I6");
    EXPECT("U+10FFFF and U+0800", "\xF4\x8F\xBF\xBF\xE0\xA0\x80", "I7");
    EXPECT("overlong '/' is not part of a name", "a\xC0\xAF" "b", "I1 B1 B1 I1");
    EXPECT("surrogate U+D800", "x\xED\xA0\x80y", "I1 B1 B1 B1 I1");
    EXPECT("above U+10FFFF", "\xF4\x90\x80\x80", "B1 B1 B1 B1");
    EXPECT("truncated at the end", "end\xE2\x82", "I3 B1 B1");
    EXPECT("truncated by ASCII", "\xE2\x82x", "B1 B1 I1");
    EXPECT("number then name", "1abc", "N1 I3");
    EXPECT("a NUL is a byte, not the end", "a\0b", "I1 B1 I1");
    EXPECT("no leading underscore", "_x", "B1 I1");
    EXPECT("empty", "", "");
    EXPECT("spaces only", " \t\r\n ", "");

    /* Random inputs against the table-DFA tokenizer. */
    static const char *const pieces[] = {
        "a", "Z", "q", "0", "7", "_", " ", "\n", "=", ";", "(", "\0", "~", "\xC3\xA9",
        "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "\xEF\xBF\xBF", "\xF4\x8F\xBF\xBF", "\xC2\x80",
        "\xE0\xA0\x80", "\xED\x9F\xBF", "\xEE\x80\x80", "\xF0\x90\x80\x80",
    };
    static const size_t piece_len[] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2,
                                       3, 4, 3, 4, 2, 3, 3, 3, 4};
    uint64_t x = 0x0123456789ABCDEFull; /* xorshift64, fixed seed */
    unsigned mismatches = 0;
    for (int t = 0; t < 200000; t++) {
        unsigned char buf[32];
        size_t n = 0, want_len;
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        want_len = (size_t)(x % 13);
        while (n < want_len) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            if (x % 4 == 0) { /* any byte, mostly 80-FF: ill-formed fragments */
                buf[n++] = (uint8_t)((x >> 8) % 5 ? 0x80 | (x >> 16) : x >> 16);
            } else {
                size_t k = (size_t)((x >> 8) % (sizeof pieces / sizeof pieces[0]));
                memcpy(buf + n, pieces[k], piece_len[k]);
                n += piece_len[k];
            }
        }
        unsigned char *in = malloc(n ? n : 1);
        memcpy(in, buf, n);
        char a[512], b[512];
        tokens(lex, in, n, a, sizeof a);
        tokens(ref_lex, in, n, b, sizeof b);
        if (strcmp(a, b) != 0 && mismatches++ < 5) {
            fprintf(stderr, "FAIL: random input");
            for (size_t i = 0; i < n; i++)
                fprintf(stderr, " %02X", in[i]);
            fprintf(stderr, ": re2c \"%s\", table DFA \"%s\"\n", a, b);
        }
        free(in);
    }
    if (mismatches == 0)
        passed++;
    else
        failed++;

    printf("re2c_ident: %u passed, %u failed\n", passed, failed);
    return failed != 0;
}
