/* SPDX-License-Identifier: MIT */
/*
 * ref_wide_dump.c - command-line front end of the reference UTF-16/UTF-32
 * decoders (ref_utf16.c, ref_utf32.c), for ref_wide_selftest.py.
 *
 * Usage:
 *   ref_wide_dump ENC --records   stdin is records: a 2-byte big-endian length
 *                                 L, then L bytes. Each record is decoded on
 *                                 its own from an exact-size heap buffer (its
 *                                 end is the end of input) and printed as
 *                                 lines "OFFSET LEN KIND CP" then "END".
 *   ref_wide_dump ENC --encode-all
 *                                 the encoding of every scalar value, in
 *                                 order, on stdout; exit 1 if the encoder
 *                                 accepts a surrogate or a value > 10FFFF.
 * ENC: utf-16le, utf-16be, utf-32le, utf-32be.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref_utf16.h"
#include "ref_utf32.h"

static int big_endian, wide32;

static _Noreturn void die(const char *msg)
{
    fprintf(stderr, "ref_wide_dump: %s\n", msg);
    exit(2);
}

static size_t next(const unsigned char *s, size_t n, uint32_t *cp, enum ref_kind *kind)
{
    return wide32 ? ref_utf32_next(s, n, big_endian, cp, kind)
                  : ref_utf16_next(s, n, big_endian, cp, kind);
}

static size_t encode(uint32_t cp, unsigned char out[4])
{
    return wide32 ? ref_utf32_encode(cp, big_endian, out) : ref_utf16_encode(cp, big_endian, out);
}

static int mode_records(void)
{
    int hi, lo;
    while ((hi = getchar()) != EOF) {
        if ((lo = getchar()) == EOF)
            die("truncated record length");
        size_t len = (size_t)hi << 8 | (size_t)lo, off = 0;
        unsigned char *rec = malloc(len ? len : 1);
        if (!rec)
            die("out of memory");
        if (fread(rec, 1, len, stdin) != len)
            die("truncated record");
        while (off < len) {
            uint32_t cp = 0;
            enum ref_kind kind = REF_OK;
            size_t step = next(rec + off, len - off, &cp, &kind);
            if (step == 0 || step > len - off)
                die("the decoder returned an impossible length");
            printf("%zu %zu %s %lX\n", off, step, ref_kind_name(kind), (unsigned long)cp);
            off += step;
        }
        puts("END");
        free(rec);
    }
    return 0;
}

static int mode_encode_all(void)
{
    int status = 0;
    unsigned char out[4];
    for (uint32_t cp = 0; cp <= 0x110010; cp++) {
        size_t k = encode(cp, out);
        int scalar = cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
        if (!scalar) {
            if (k != 0) {
                fprintf(stderr, "ref_wide_dump: encoder accepted %lX\n", (unsigned long)cp);
                status = 1;
            }
            continue;
        }
        if (k != (wide32 ? 4u : cp < 0x10000 ? 2u : 4u)) {
            fprintf(stderr, "ref_wide_dump: wrong length for %lX\n", (unsigned long)cp);
            status = 1;
            continue;
        }
        if (fwrite(out, 1, k, stdout) != k)
            die("write error");
    }
    return status;
}

int main(int argc, char **argv)
{
    if (argc != 3)
        die("usage: ref_wide_dump utf-16le|utf-16be|utf-32le|utf-32be --records|--encode-all");
    if (strcmp(argv[1], "utf-16le") == 0) {
        wide32 = 0, big_endian = 0;
    } else if (strcmp(argv[1], "utf-16be") == 0) {
        wide32 = 0, big_endian = 1;
    } else if (strcmp(argv[1], "utf-32le") == 0) {
        wide32 = 1, big_endian = 0;
    } else if (strcmp(argv[1], "utf-32be") == 0) {
        wide32 = 1, big_endian = 1;
    } else {
        die("unknown encoding");
    }
    if (setvbuf(stdout, NULL, _IOFBF, 1 << 16) != 0)
        die("setvbuf failed");
    int status;
    if (strcmp(argv[2], "--records") == 0)
        status = mode_records();
    else if (strcmp(argv[2], "--encode-all") == 0)
        status = mode_encode_all();
    else
        die("unknown mode");
    if (fflush(stdout) != 0 || ferror(stdout))
        die("write error on stdout");
    return status;
}
