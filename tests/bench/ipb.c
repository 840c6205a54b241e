/* SPDX-License-Identifier: MIT */
/* One operation of make bench-arm64 (tests/bench/arm64_ipb.sh), run REPS
 * times over the first BYTES bytes of FILE (cut back to a character
 * boundary) at the kernel level LEVEL: the script counts the instructions
 * qemu executes for REPS = 1 and 2, whose difference is one operation's.
 * The output buffers are made before the first operation, so both runs
 * differ by the operation alone.
 *
 * Usage: ipb OP LEVEL FILE BYTES REPS
 *   OP: validate, utf8-utf16le, utf8-utf32, utf16le-utf8, utf32le-utf8,
 *   utf16le-utf32le, utf32le-utf16le (the UTF-16LE or UTF-32LE input made
 *   from the file first), utf7-utf32le, utf7-utf16le (the UTF-7 input made
 *   from the file first), ascii-utf8 (a validated copy); the input made by
 *   tests/bench/ipb_input.c, as for the peers' driver
 *   (tests/bench/ipb_peers.cpp) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipb_input.h"

int utfdfa__fast_force(const char *level); /* src/fast/kernels.h */

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: ipb OP LEVEL FILE BYTES REPS\n");
        return 2;
    }
    const char *op = argv[1];
    size_t n, reps = (size_t)atoi(argv[5]);
    uint8_t *src = ipb_read_prefix(argv[3], (size_t)atol(argv[4]), &n);
    if (!src || !utfdfa__fast_force(argv[2])) {
        fprintf(stderr, "ipb: no input %s or no level %s\n", argv[3], argv[2]);
        return 1;
    }
    size_t cap = 4 * n + 64;
    uint8_t *out = malloc(cap), *in16 = malloc(cap);
    uint32_t *cps = malloc(4 * n + 64);
    if (!out || !in16 || !cps)
        return 1;
    /* the unit forms' input: the operation's source form, made from the file */
    int from16 = strncmp(op, "utf16le-", 8) == 0, from32 = strncmp(op, "utf32le-", 8) == 0;
    int from7 = strncmp(op, "utf7-", 5) == 0;
    enum utfdfa_encoding form = from16 ? UTFDFA_UTF16LE : from32 ? UTFDFA_UTF32LE : UTFDFA_UTF7;
    size_t n16 = from16 || from32 || from7 ? ipb_transcode(UTFDFA_UTF8, form, src, n, in16, cap) : 0;
    size_t sink = 0;
    for (size_t r = 0; r < reps; r++) {
        if (strcmp(op, "validate") == 0) {
            sink += utfdfa_valid_up_to(src, n);
        } else if (strcmp(op, "utf8-utf16le") == 0) {
            sink += ipb_transcode(UTFDFA_UTF8, UTFDFA_UTF16LE, src, n, out, cap);
        } else if (strcmp(op, "ascii-utf8") == 0) {
            sink += ipb_transcode(UTFDFA_UTF8, UTFDFA_UTF8, src, n, out, cap);
        } else if (strcmp(op, "utf16le-utf8") == 0) {
            sink += ipb_transcode(UTFDFA_UTF16LE, UTFDFA_UTF8, in16, n16, out, cap);
        } else if (strcmp(op, "utf32le-utf8") == 0) {
            sink += ipb_transcode(UTFDFA_UTF32LE, UTFDFA_UTF8, in16, n16, out, cap);
        } else if (strcmp(op, "utf16le-utf32le") == 0) {
            sink += ipb_transcode(UTFDFA_UTF16LE, UTFDFA_UTF32LE, in16, n16, out, cap);
        } else if (strcmp(op, "utf32le-utf16le") == 0) {
            sink += ipb_transcode(UTFDFA_UTF32LE, UTFDFA_UTF16LE, in16, n16, out, cap);
        } else if (strcmp(op, "utf7-utf32le") == 0) {
            sink += ipb_transcode(UTFDFA_UTF7, UTFDFA_UTF32LE, in16, n16, out, cap);
        } else if (strcmp(op, "utf7-utf16le") == 0) {
            sink += ipb_transcode(UTFDFA_UTF7, UTFDFA_UTF16LE, in16, n16, out, cap);
        } else if (strcmp(op, "utf8-utf32") == 0) {
            utfdfa_decoder d;
            utfdfa_decoder_init(&d, UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
            /* a chunk, then the end (as a stream is decoded) */
            size_t in = n, w = n + 16, in2 = 0, w2 = 16;
            utfdfa_decode_utf32(&d, src, &in, cps, &w, false, NULL);
            utfdfa_decode_utf32(&d, src + in, &in2, cps + w, &w2, true, NULL);
            sink += w + w2;
        } else {
            fprintf(stderr, "ipb: no operation %s\n", op);
            return 2;
        }
    }
    /* the bytes of one operation's input (the unit form's for those from one) */
    printf("%zu %zu\n", n16 ? n16 : n, sink);
    return 0;
}
