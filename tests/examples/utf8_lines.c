/* SPDX-License-Identifier: MIT */
/* Embedding example: validate a file of lines as UTF-8 with the bulk engine of
 * the generated header alone (utf8_run, no library), reading it in chunks; on
 * an error, say which line and byte. With a file argument it checks that file;
 * without, it checks itself on built-in texts, each in every chunk size from 1
 * to 64 bytes, and prints "utf8_lines: N passed, M failed".
 *
 * The same loop serves any grammar: `utfdfa-gen lines.abnf --emit c --prefix p`
 * gives p_run(), P_START, P_REJECT and p_is_accepting() alike.
 */
#include <stdio.h>
#include <string.h>

#include "utf8.gen.h"

struct verdict {
    int ok;          /* 1: valid, and not inside a character at the end */
    size_t offset;   /* otherwise: the offset of the wrong byte (or the length) */
};

/* The loop a user writes: state in, state out, whatever the chunks. */
static struct verdict check_chunks(const unsigned char *text, size_t len, size_t chunk)
{
    struct verdict v = {0, len};
    uint32_t s = UTF8_START;
    size_t off = 0, at;
    while (off < len) {
        size_t n = len - off < chunk ? len - off : chunk;
        s = utf8_run(s, text + off, n, &at);
        if (s == UTF8_REJECT) {
            v.offset = off + at;
            return v;
        }
        off += n;
    }
    v.ok = utf8_is_accepting(s);
    return v;
}

static size_t line_of(const unsigned char *text, size_t offset)
{
    size_t line = 1, i;
    for (i = 0; i < offset; i++)
        line += text[i] == '\n';
    return line;
}

static int check_file(const char *path)
{
    static unsigned char buf[1 << 16];
    FILE *f = fopen(path, "rb");
    uint32_t s = UTF8_START;
    size_t n, at, off = 0, line = 1;
    if (!f) {
        perror(path);
        return 2;
    }
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        s = utf8_run(s, buf, n, &at);
        if (s == UTF8_REJECT) {
            printf("%s:%zu: byte %zu is not UTF-8\n", path, line + line_of(buf, at) - 1, off + at);
            fclose(f);
            return 1;
        }
        line += line_of(buf, n) - 1;
        off += n;
    }
    fclose(f);
    if (!utf8_is_accepting(s)) {
        printf("%s: ends inside a character\n", path);
        return 1;
    }
    printf("%s: %zu bytes of UTF-8 lines\n", path, off);
    return 0;
}

int main(int argc, char **argv)
{
    static const struct {
        const char *text;
        int ok;
        size_t offset;
    } cases[] = {
        {"plain ASCII\nlines\n", 1, 0},
        {"caf\xC3\xA9\n\xE2\x82\xAC 10\n\xF0\x9F\x98\x80 smile\n", 1, 0},
        {"fine\nbad \xC3\x28 here\n", 0, 10},          /* a lead byte without its tail */
        {"surrogate \xED\xA0\x80\n", 0, 11},          /* U+D800 */
        {"overlong \xC0\xAF\n", 0, 9},
        {"cut short \xE2\x82", 0, 12},                  /* ends inside a character */
    };
    size_t i, chunk;
    int passed = 0, failed = 0;
    if (argc > 1)
        return check_file(argv[1]);
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const unsigned char *t = (const unsigned char *)cases[i].text;
        size_t len = strlen(cases[i].text);
        for (chunk = 1; chunk <= 64; chunk++) {
            struct verdict v = check_chunks(t, len, chunk);
            int good = v.ok == cases[i].ok && (v.ok || v.offset == (cases[i].offset ? cases[i].offset : len));
            if (good) {
                passed++;
            } else {
                failed++;
                printf("utf8_lines: case %zu, chunks of %zu: got ok %d at %zu\n", i, chunk, v.ok, v.offset);
            }
        }
    }
    printf("utf8_lines: %d passed, %d failed\n", passed, failed);
    return failed != 0;
}
