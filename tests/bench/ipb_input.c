/* SPDX-License-Identifier: MIT */
/* The input of make bench-arm64's drivers (ipb_input.h). */
#include "ipb_input.h"

#include <stdio.h>
#include <stdlib.h>

uint8_t *ipb_read_prefix(const char *path, size_t want, size_t *len)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = malloc(want ? want : 1);
    if (!f || !buf)
        return NULL;
    size_t n = fread(buf, 1, want, f);
    fclose(f);
    /* the last character, when the cut is inside it, is dropped */
    size_t k = n;
    while (k && (buf[k - 1] & 0xC0) == 0x80)
        k--;
    if (k) {
        uint8_t lead = buf[k - 1];
        size_t clen = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
        if (k - 1 + clen > n)
            n = k - 1;
    }
    *len = n;
    return buf;
}

size_t ipb_transcode(enum utfdfa_encoding from, enum utfdfa_encoding to, const uint8_t *src,
                     size_t n, uint8_t *dst, size_t cap)
{
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, from, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    size_t in = n, out = cap;
    if (utfdfa_transcode(&d, to, src, &in, dst, &out, true, NULL) != UTFDFA_INPUT_EMPTY ||
        in != n) {
        fprintf(stderr, "ipb: the input does not transcode whole\n");
        exit(1);
    }
    return out;
}
