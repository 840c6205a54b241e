/* SPDX-License-Identifier: MIT */
/* What the library says about each encoding and error kind, one fact a
 * line, for tests/gen/test_registry.py to hold against the registry and
 * Python's codecs; each argument is a name to look up
 * (utfdfa_encoding_from_name: "lookup NAME VALUE", -1 when unknown). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "utfdfa.h"

static size_t encoded_len(enum utfdfa_encoding enc, size_t n)
{
    size_t len = 0;
    return utfdfa_max_encoded_len(enc, n, &len) ? len : 0;
}

/* Whether a strict encoder into enc takes the code point cp. */
static int takes(enum utfdfa_encoding enc, uint32_t cp)
{
    utfdfa_encoder e;
    utfdfa_encoder_init(&e, enc, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    uint8_t out[16];
    size_t n = 1, len = sizeof out;
    return utfdfa_encode(&e, &cp, &n, out, &len, true, NULL) == UTFDFA_INPUT_EMPTY;
}

/* The bytes a strict encoder into enc writes for cp, in hex ("-" when it
 * does not take it). */
static void print_written(enum utfdfa_encoding enc, uint32_t cp)
{
    utfdfa_encoder e;
    utfdfa_encoder_init(&e, enc, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    uint8_t out[16];
    size_t n = 1, len = sizeof out;
    printf("writes %d %u ", (int)enc, (unsigned)cp);
    if (utfdfa_encode(&e, &cp, &n, out, &len, true, NULL) != UTFDFA_INPUT_EMPTY)
        len = 0, printf("-");
    for (size_t k = 0; k < len; k++)
        printf("%02x", out[k]);
    printf("\n");
}

int main(int argc, char **argv)
{
    static const uint32_t probes[] = {0,      0x41,     0x80,       0x9F,       0xA0,
                                      0xD800, 0xDFFF,   0x10FFFF,   0x110000,   0x7FFFFFFF,
                                      0x80000000u, 0x8421109Fu, 0x842110A0u, 0xFFFFFFFFu};
    for (int e = 0; e < (int)UTFDFA_NENCODINGS; e++)
        for (size_t k = 0; k < sizeof probes / sizeof probes[0]; k++)
            printf("takes %d %u %d\n", e, (unsigned)probes[k],
                   takes((enum utfdfa_encoding)e, probes[k]));
    /* Every ASCII value, the ends of each UTF-8 and UTF-16 length, and a
     * stride through the rest of the scalar values. */
    static const uint32_t edges[] = {0x80,   0x7FF,  0x800,   0xD7FF,   0xE000,
                                     0xFFFF, 0x10000, 0xFFFFF, 0x100000, 0x10FFFF};
    for (int e = 0; e < (int)UTFDFA_NENCODINGS; e++) {
        for (uint32_t cp = 0; cp < 0x80; cp++)
            print_written((enum utfdfa_encoding)e, cp);
        for (size_t k = 0; k < sizeof edges / sizeof edges[0]; k++)
            print_written((enum utfdfa_encoding)e, edges[k]);
        for (uint32_t cp = 0x81; cp < 0x110000; cp += 4099)
            if (cp < 0xD800 || cp > 0xDFFF)
                print_written((enum utfdfa_encoding)e, cp);
    }
    printf("nencodings %d\n", (int)UTFDFA_NENCODINGS);
    for (int e = 0; e <= (int)UTFDFA_NENCODINGS; e++) {
        enum utfdfa_encoding enc = (enum utfdfa_encoding)e;
        printf("encoding %d name %s unit %zu bytes %zu aliases", e, utfdfa_encoding_name(enc),
               utfdfa_unit_size(enc), encoded_len(enc, 2) - encoded_len(enc, 1));
        const char *alias;
        for (size_t k = 0; (alias = utfdfa_encoding_alias(enc, k)) != NULL; k++)
            printf(" %s", alias);
        printf("\n");
    }
    for (int k = 0; k <= (int)UTFDFA_NERROR_KINDS; k++)
        printf("error %d %s\n", k, utfdfa_error_name((enum utfdfa_error_kind)k));
    for (int i = 1; i < argc; i++) {
        enum utfdfa_encoding enc;
        bool found = utfdfa_encoding_from_name(argv[i], strlen(argv[i]), &enc);
        printf("lookup %s %d\n", argv[i], found ? (int)enc : -1);
    }
    return 0;
}
