/* SPDX-License-Identifier: MIT */
/*
 * ref_dump.c - command-line front end of the reference UTF-8 oracle.
 *
 * Usage:
 *   ref_dump                 read stdin fully; print one line per item:
 *                              OFFSET LEN KIND CP
 *                            OFFSET and LEN in decimal, KIND = ref_kind_name(),
 *                            CP in upper-case hex without prefix (0 for errors).
 *   ref_dump --records       stdin is a sequence of records, each one length
 *                            byte L (0..255) followed by L bytes.  Every record
 *                            is decoded on its own (end of record = end of
 *                            input) and its items are printed as above, with
 *                            OFFSET relative to the record start, followed by
 *                            a line "END".
 *   ref_dump --encode-all    write ref_utf8_encode(cp) for every scalar value
 *                            0..0x10FFFF (surrogates skipped), concatenated,
 *                            to stdout.  Exits 1 if the encoder accepts a
 *                            surrogate or rejects a scalar value.
 *   ref_dump --encode HEX... for each argument, print "HEX BYTES" where BYTES
 *                            is the encoding as upper-case hex pairs without
 *                            separators, or "none" if ref_utf8_encode returns 0.
 *
 * Every buffer handed to ref_utf8_next is a heap block of exactly the
 * decoded length, so an over-read past n is caught by AddressSanitizer.
 *
 * Exit status: 0 on success, 1 on an encoder self-check failure,
 * 2 on usage / input / I/O errors.
 */
#include "ref_utf8.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Noreturn void die(const char *msg)
{
    fprintf(stderr, "ref_dump: %s\n", msg);
    exit(2);
}

/* Read all of stdin into a heap buffer of exactly *len bytes (NULL if 0). */
static unsigned char *read_all(size_t *len)
{
    size_t cap = 1 << 16, used = 0, got;
    unsigned char *buf = malloc(cap), *exact;

    if (buf == NULL)
        die("out of memory");
    for (;;) {
        if (used == cap) {
            unsigned char *bigger;
            if (cap > ((size_t)-1) / 2)
                die("input too large");
            cap *= 2;
            bigger = realloc(buf, cap);
            if (bigger == NULL)
                die("out of memory");
            buf = bigger;
        }
        got = fread(buf + used, 1, cap - used, stdin);
        used += got;
        if (got == 0) {
            if (ferror(stdin))
                die("read error on stdin");
            break;
        }
    }
    *len = used;
    if (used == 0) {
        free(buf);
        return NULL;
    }
    exact = malloc(used);
    if (exact == NULL)
        die("out of memory");
    memcpy(exact, buf, used);
    free(buf);
    return exact;
}

/* Decode buf[0..len) item by item and print one line per item. */
static void dump_items(const unsigned char *buf, size_t len)
{
    size_t off = 0;

    while (off < len) {
        uint32_t cp = 0;
        enum ref_kind kind = REF_OK;
        size_t step = ref_utf8_next(buf + off, len - off, &cp, &kind);

        if (step == 0 || step > len - off)
            die("ref_utf8_next returned an impossible length");
        printf("%zu %zu %s %lX\n", off, step, ref_kind_name(kind), (unsigned long)cp);
        off += step;
    }
}

static int mode_plain(void)
{
    size_t len = 0;
    unsigned char *buf = read_all(&len);

    dump_items(buf, len);
    free(buf);
    return 0;
}

static int mode_records(void)
{
    size_t len = 0, pos = 0;
    unsigned char *buf = read_all(&len);

    while (pos < len) {
        size_t rlen = buf[pos];
        unsigned char *rec = NULL;

        pos += 1;
        if (rlen > len - pos)
            die("truncated record in --records input");
        if (rlen > 0) {
            rec = malloc(rlen);
            if (rec == NULL)
                die("out of memory");
            memcpy(rec, buf + pos, rlen);
        }
        dump_items(rec, rlen);
        fputs("END\n", stdout);
        free(rec);
        pos += rlen;
    }
    free(buf);
    return 0;
}

static int mode_encode_all(void)
{
    uint32_t cp;
    int status = 0;

    for (cp = 0; cp <= 0x10FFFF; cp++) {
        unsigned char out[4];
        size_t k = ref_utf8_encode(cp, out);
        int surrogate = (cp >= 0xD800 && cp <= 0xDFFF);

        if (surrogate) {
            if (k != 0) {
                fprintf(stderr, "ref_dump: encoder accepted surrogate %lX\n", (unsigned long)cp);
                status = 1;
            }
            continue;
        }
        if (k < 1 || k > 4) {
            fprintf(stderr, "ref_dump: encoder rejected scalar value %lX\n", (unsigned long)cp);
            status = 1;
            continue;
        }
        if (fwrite(out, 1, k, stdout) != k)
            die("write error on stdout");
    }
    return status;
}

static int mode_encode(int argc, char **argv)
{
    int i;

    for (i = 2; i < argc; i++) {
        char *end = NULL;
        unsigned long v = strtoul(argv[i], &end, 16);
        unsigned char out[4];
        size_t k, j;

        if (argv[i][0] == '\0' || end == NULL || *end != '\0' || v > 0xFFFFFFFFUL)
            die("--encode: arguments must be hex numbers <= FFFFFFFF");
        k = ref_utf8_encode((uint32_t)v, out);
        printf("%s ", argv[i]);
        if (k == 0) {
            fputs("none", stdout);
        } else {
            for (j = 0; j < k; j++)
                printf("%02X", (unsigned)out[j]);
        }
        putchar('\n');
    }
    return 0;
}

int main(int argc, char **argv)
{
    int status = 2;

    if (setvbuf(stdout, NULL, _IOFBF, 1 << 16) != 0)
        die("setvbuf failed");

    if (argc == 1)
        status = mode_plain();
    else if (argc == 2 && strcmp(argv[1], "--records") == 0)
        status = mode_records();
    else if (argc == 2 && strcmp(argv[1], "--encode-all") == 0)
        status = mode_encode_all();
    else if (argc >= 2 && strcmp(argv[1], "--encode") == 0)
        status = mode_encode(argc, argv);
    else
        die("usage: ref_dump [--records | --encode-all | --encode HEX...] < input");

    if (fflush(stdout) != 0 || ferror(stdout))
        die("write error on stdout");
    return status;
}
