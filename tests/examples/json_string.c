/* SPDX-License-Identifier: MIT */
/* Embedding example: a JSON string scanner (RFC 8259 section 7) that
 * validates UTF-8 with the generated DFA alone. It includes only
 * build/gen/utf8.gen.h: no library, no allocation.
 *
 * The scanner walks bytes once; every byte of the string body goes through
 * utf8_step(), and the JSON rules (closing quote, escapes, no raw control
 * characters) apply only where the DFA is between characters (UTF8_ACCEPT),
 * because in UTF-8 no byte of a multibyte character is ASCII.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "utf8.gen.h"

enum scan_status { SCAN_OK, SCAN_BAD_UTF8, SCAN_BAD_ESCAPE, SCAN_CONTROL, SCAN_UNTERMINATED };

struct scan {
    enum scan_status status;
    size_t end;    /* SCAN_OK: offset just past the closing quote */
    size_t error;  /* otherwise: offset of the offending byte or sequence start */
    enum utf8_error utf8_kind;
};

static int is_hex(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* s[0] must be '"'. */
static struct scan scan_json_string(const unsigned char *s, size_t n)
{
    struct scan r = {SCAN_UNTERMINATED, 0, 0, UTF8_ERROR_NONE};
    uint32_t state = UTF8_ACCEPT;
    size_t seq_start = 1;
    for (size_t i = 1; i < n; i++) {
        unsigned char c = s[i];
        if (state == UTF8_ACCEPT) {
            seq_start = i;
            if (c == '"') {
                r.status = SCAN_OK;
                r.end = i + 1;
                return r;
            }
            if (c < 0x20) {
                r.status = SCAN_CONTROL;
                r.error = i;
                return r;
            }
            if (c == '\\') {
                if (i + 1 >= n)
                    break;
                unsigned char e = s[++i];
                if (e == 'u') {
                    if (i + 4 >= n || !is_hex(s[i + 1]) || !is_hex(s[i + 2]) ||
                        !is_hex(s[i + 3]) || !is_hex(s[i + 4])) {
                        r.status = SCAN_BAD_ESCAPE;
                        r.error = seq_start;
                        return r;
                    }
                    i += 4;
                } else if (!strchr("\"\\/bfnrt", e) || e == 0) {
                    r.status = SCAN_BAD_ESCAPE;
                    r.error = seq_start;
                    return r;
                }
                continue;
            }
        }
        uint32_t next = utf8_step(state, c);
        if (next == UTF8_REJECT) {
            r.status = SCAN_BAD_UTF8;
            r.utf8_kind = utf8_error_of(state, c);
            r.error = state == UTF8_ACCEPT ? i : seq_start;
            return r;
        }
        state = next;
    }
    r.error = state == UTF8_ACCEPT ? n : seq_start;
    if (state != UTF8_ACCEPT) {
        r.status = SCAN_BAD_UTF8;
        r.utf8_kind = UTF8_ERROR_TRUNCATED;
    }
    return r;
}

struct example {
    const char *text;
    size_t len;
    enum scan_status status;
    size_t where; /* end (OK) or error offset */
    enum utf8_error kind;
};

#define EX(lit, st, w, k) {lit, sizeof(lit) - 1, st, w, k}

static const struct example examples[] = {
    EX("\"plain\" rest", SCAN_OK, 7, UTF8_ERROR_NONE),
    EX("\"caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80\"", SCAN_OK, 16, UTF8_ERROR_NONE),
    EX("\"esc \\\" \\\\ \\u00e9 \\n\"", SCAN_OK, 21, UTF8_ERROR_NONE),
    EX("\"bad \xC0\xAF\"", SCAN_BAD_UTF8, 5, UTF8_ERROR_OVERLONG),
    EX("\"sur \xED\xA0\x80\"", SCAN_BAD_UTF8, 5, UTF8_ERROR_SURROGATE),
    EX("\"cut \xE2\x82\"", SCAN_BAD_UTF8, 5, UTF8_ERROR_TRUNCATED),
    EX("\"big \xF4\x90\x80\x80\"", SCAN_BAD_UTF8, 5, UTF8_ERROR_TOO_LARGE),
    EX("\"lone \x80\"", SCAN_BAD_UTF8, 6, UTF8_ERROR_UNEXPECTED_CONTINUATION),
    EX("\"ctl \x01\"", SCAN_CONTROL, 5, UTF8_ERROR_NONE),
    EX("\"esc \\x\"", SCAN_BAD_ESCAPE, 5, UTF8_ERROR_NONE),
    EX("\"esc \\u12G4\"", SCAN_BAD_ESCAPE, 5, UTF8_ERROR_NONE),
    EX("\"open", SCAN_UNTERMINATED, 5, UTF8_ERROR_NONE),
    EX("\"open \xE2\x82", SCAN_BAD_UTF8, 6, UTF8_ERROR_TRUNCATED),
    /* A quote byte inside a multibyte sequence cannot end the string early:
     * E2 22 is a truncated sequence, reported at E2. */
    EX("\"q \xE2\"\"", SCAN_BAD_UTF8, 3, UTF8_ERROR_TRUNCATED),
};

int main(void)
{
    unsigned passed = 0, failed = 0;
    for (size_t k = 0; k < sizeof examples / sizeof examples[0]; k++) {
        const struct example *e = &examples[k];
        struct scan r = scan_json_string((const unsigned char *)e->text, e->len);
        size_t where = r.status == SCAN_OK ? r.end : r.error;
        if (r.status == e->status && where == e->where && r.utf8_kind == e->kind) {
            passed++;
        } else {
            failed++;
            fprintf(stderr, "FAIL: example %zu: status %d at %zu (%s), want %d at %zu (%s)\n", k,
                    r.status, where, utf8_error_name[r.utf8_kind], e->status, e->where,
                    utf8_error_name[e->kind]);
        }
    }
    printf("json_string: %u passed, %u failed\n", passed, failed);
    return failed != 0;
}
