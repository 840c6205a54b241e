/* SPDX-License-Identifier: MIT */
/* The baseline the CLI is measured against (tests/bench/cli_bench.py): the
 * public library call in a plain 64 KiB-chunk loop over a file, output to
 * standard output, no line counting, no error report beyond the status.
 *
 *   lib_loop check FILE
 *   lib_loop transcode FROM TO FILE
 */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "utfdfa.h"

enum { CHUNK = 64 * 1024 };

static int encoding(const char *name, enum utfdfa_encoding *e)
{
    if (utfdfa_encoding_from_name(name, strlen(name), e))
        return 0;
    fprintf(stderr, "lib_loop: unknown encoding %s\n", name);
    return -1;
}

static int write_all(const uint8_t *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(STDOUT_FILENO, p, n);
        if (w < 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

int main(int argc, char **argv)
{
    static uint8_t in[CHUNK], out[4 * CHUNK + 16];
    int transcode = argc == 5 && strcmp(argv[1], "transcode") == 0;
    if (!transcode && !(argc == 3 && strcmp(argv[1], "check") == 0)) {
        fprintf(stderr, "usage: lib_loop check FILE | lib_loop transcode FROM TO FILE\n");
        return 2;
    }
    enum utfdfa_encoding from = UTFDFA_UTF8, to = UTFDFA_UTF8;
    if (transcode && (encoding(argv[2], &from) < 0 || encoding(argv[3], &to) < 0))
        return 2;
    int fd = open(argv[argc - 1], O_RDONLY);
    if (fd < 0) {
        perror(argv[argc - 1]);
        return 2;
    }
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, from, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    for (;;) {
        ssize_t got = read(fd, in, sizeof in);
        if (got < 0)
            return 3;
        bool last = got == 0;
        size_t done = 0;
        for (;;) {
            size_t n = (size_t)got - done, m = sizeof out;
            utfdfa_error err;
            utfdfa_result r = transcode
                ? utfdfa_transcode(&d, to, in + done, &n, out, &m, last, &err)
                : utfdfa_check(&d, in + done, &n, last, &err);
            done += n;
            if (transcode && write_all(out, m) < 0)
                return 3;
            if (r == UTFDFA_MALFORMED)
                return 1;
            if (r == UTFDFA_INPUT_EMPTY)
                break;
        }
        if (last)
            return 0;
    }
}
