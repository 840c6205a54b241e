/* SPDX-License-Identifier: MIT */
/* The worst-case sizes hold (utfdfa_max_transcoded_len, utfdfa_max_utf32_len,
 * utfdfa_max_utf16_len, utfdfa_max_encoded_len): a call given exactly that
 * much room never returns OUTPUT_FULL, for every source x target x option x
 * error mode x BOM mode.
 *
 * The inputs are the candidates for the most output per input unit: every
 * code point 0-0x3FF, both sides of every length boundary of every form,
 * the PUA images and their sources, surrogates, values past each limit,
 * each written in the source encoding and repeated (1, 2, 3, 9, 10 times),
 * alone and between direct characters (which cost UTF-7 a "-"); and every
 * byte value repeated (one error per unit). The largest output per input
 * unit seen is printed per pair, so the bound can be compared with it.
 * Inputs are made with the reference encoders where they exist and with
 * the library's encoder otherwise: any input is as good as another here, as
 * only the size of the output is judged.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "utfdfa.h"

enum { MAX_IN = 1024, MAX_OUT = 16384 };

static const uint32_t candidates_extra[] = {
    0x7FF,     0x800,     0x89F,      0x8A0,      0xD7FF,     0xD800,      0xDBFF,
    0xDC00,    0xDFFF,    0xE000,     0xFEFF,     0xFFFD,     0xFFFE,      0xFFFF,
    0x10000,   0x1109F,   0x110A0,    0x1F600,    0x10FFFF,   0x110000,    0x1FFFFF,
    0x200000,  0x21109F,  0x2110A0,   0x3FFFFFF,  0x4000000,  0x421109F,   0x42110A0,
    0x7FFFFFFF, 0x80000000, 0x8421109F, 0x842110A0, 0xFFFFFFFF, 0xF0080,   0xF009F,
    0xFD800,   0xFDFFF,   0xF007F,    0xF00A0,    0xFD7FF,    0xFE000,     0x10E7D,
    0xED4E};

static size_t ncand;
static uint32_t cand[0x400 + sizeof candidates_extra / sizeof candidates_extra[0]];

/* cp written in `from` (no BOM); 0 when it cannot be. */
static size_t encode_in(enum utfdfa_encoding from, uint32_t cp, uint8_t *out, size_t cap)
{
    utfdfa_encoder e;
    utfdfa_encoder_init(&e, from, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    size_t n = 1, m = cap;
    if (utfdfa_encode(&e, &cp, &n, out, &m, true, NULL) != UTFDFA_INPUT_EMPTY)
        return 0;
    return m;
}

/* The largest output per input unit seen, per pair, in 1/1000 bytes. */
static unsigned long worst[UTFDFA_NENCODINGS][UTFDFA_NENCODINGS];

/* Transcode in[0..n) with exactly the promised room, going on after each
 * strict error: never OUTPUT_FULL. */
static void transcode_fits(enum utfdfa_encoding from, enum utfdfa_encoding to, unsigned options,
                           enum utfdfa_error_mode mode, enum utfdfa_bom bom, const uint8_t *in,
                           size_t n)
{
    static uint8_t out[MAX_OUT];
    size_t cap;
    if (!utfdfa_max_transcoded_len(from, to, n, &cap) || cap > sizeof out) {
        fail("max_transcoded_len(%s, %s, %zu) is %zu", utfdfa_encoding_name(from),
             utfdfa_encoding_name(to), n, cap);
        return;
    }
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, from, mode, bom);
    utfdfa_decoder_set_options(&d, options);
    size_t done = 0, used = 0;
    utfdfa_result r;
    do {
        size_t k = n - done, m = cap - used;
        utfdfa_error err;
        r = utfdfa_transcode(&d, to, in + done, &k, out + used, &m, true, &err);
        done += k;
        used += m;
    } while (r == UTFDFA_MALFORMED);
    CHECK(r == UTFDFA_INPUT_EMPTY,
          "%s -> %s options %u mode %d bom %d, %zu bytes in (first %02X): OUTPUT_FULL with the "
          "promised %zu bytes", utfdfa_encoding_name(from), utfdfa_encoding_name(to), options,
          (int)mode, (int)bom, n, in[0], cap);
    unsigned long per = (unsigned long)(used * 1000 / (n / utfdfa_unit_size(from) + (n % utfdfa_unit_size(from) != 0)));
    if (bom == UTFDFA_BOM_KEEP && per > worst[from][to])
        worst[from][to] = per;
}

static void decode_fits(enum utfdfa_encoding from, enum utfdfa_error_mode mode, enum utfdfa_bom bom,
                        unsigned options, const uint8_t *in, size_t n)
{
    static uint32_t out32[MAX_IN + 2];
    static uint16_t out16[2 * MAX_IN + 2];
    size_t cap32, cap16;
    CHECK(utfdfa_max_utf32_len(from, n, &cap32) && cap32 <= MAX_IN + 2, "max_utf32_len");
    CHECK(utfdfa_max_utf16_len(from, n, &cap16) && cap16 <= 2 * MAX_IN + 2, "max_utf16_len");
    for (int sink = 0; sink < 2; sink++) {
        utfdfa_decoder d;
        utfdfa_decoder_init(&d, from, mode, bom);
        utfdfa_decoder_set_options(&d, options);
        size_t done = 0, used = 0, cap = sink ? cap16 : cap32;
        utfdfa_result r;
        do {
            size_t k = n - done, m = cap - used;
            utfdfa_error err;
            r = sink ? utfdfa_decode_utf16(&d, in + done, &k, out16 + used, &m, true, &err)
                     : utfdfa_decode_utf32(&d, in + done, &k, out32 + used, &m, true, &err);
            done += k;
            used += m;
        } while (r == UTFDFA_MALFORMED);
        CHECK(r == UTFDFA_INPUT_EMPTY, "%s -> utf-%d native, mode %d bom %d, %zu bytes: "
              "OUTPUT_FULL with the promised %zu units", utfdfa_encoding_name(from),
              sink ? 16 : 32, (int)mode, (int)bom, n, cap);
    }
}

static void all_ways(enum utfdfa_encoding from, const uint8_t *in, size_t n)
{
    for (int mode = 0; mode < 3; mode++)
        for (int bom = 0; bom < 3; bom++)
            for (unsigned options = 0; options < 4; options++) {
                decode_fits(from, (enum utfdfa_error_mode)mode, (enum utfdfa_bom)bom, options, in, n);
                for (unsigned to = 0; to < UTFDFA_NENCODINGS; to++)
                    transcode_fits(from, (enum utfdfa_encoding)to, options,
                                   (enum utfdfa_error_mode)mode, (enum utfdfa_bom)bom, in, n);
            }
}

/* unit repeated k times, with `between` (may be empty) before each. */
static size_t repeat(uint8_t *out, const uint8_t *unit, size_t ulen, const uint8_t *between,
                     size_t blen, size_t k)
{
    size_t n = 0;
    for (size_t j = 0; j < k && n + ulen + blen <= MAX_IN; j++) {
        if (blen) /* between may be NULL: memcpy takes no NULL, even for 0 bytes */
            memcpy(out + n, between, blen);
        n += blen;
        memcpy(out + n, unit, ulen);
        n += ulen;
    }
    return n;
}

static void characters(enum utfdfa_encoding from)
{
    static const size_t reps[] = {1, 2, 3, 9, 10};
    uint8_t a[16], unit[64], in[MAX_IN];
    size_t alen = encode_in(from, 'a', a, sizeof a);
    for (size_t c = 0; c < ncand; c++) {
        size_t ulen = encode_in(from, cand[c], unit, sizeof unit);
        if (!ulen)
            continue;
        for (size_t r = 0; r < sizeof reps / sizeof reps[0]; r++) {
            all_ways(from, in, repeat(in, unit, ulen, NULL, 0, reps[r]));
            all_ways(from, in, repeat(in, unit, ulen, a, alen, reps[r]));
        }
    }
}

static void error_bytes(enum utfdfa_encoding from)
{
    uint8_t in[MAX_IN];
    for (unsigned b = 0; b < 256; b++) {
        uint8_t byte = (uint8_t)b;
        for (size_t k = 1; k <= 9; k += 4)
            all_ways(from, in, repeat(in, &byte, 1, NULL, 0, k));
    }
}

/* The encoder: n code points in at most max_encoded_len bytes. */
static void encode_fits(void)
{
    static uint8_t out[MAX_OUT];
    for (unsigned to = 0; to < UTFDFA_NENCODINGS; to++)
        for (size_t c = 0; c < ncand; c++)
            for (size_t k = 1; k <= 10; k += 3)
                for (int mode = 0; mode < 3; mode++)
                    for (int bom = 0; bom < 3; bom++)
                        for (unsigned options = 0; options < 4; options++) {
                            uint32_t cps[20];
                            size_t n = 0;
                            for (size_t j = 0; j < k; j++) {
                                cps[n++] = 'a';
                                cps[n++] = cand[c];
                            }
                            size_t cap;
                            CHECK(utfdfa_max_encoded_len((enum utfdfa_encoding)to, n, &cap) &&
                                      cap <= sizeof out, "max_encoded_len");
                            utfdfa_encoder e;
                            utfdfa_encoder_init(&e, (enum utfdfa_encoding)to,
                                                (enum utfdfa_error_mode)mode, (enum utfdfa_bom)bom);
                            utfdfa_encoder_set_options(&e, options);
                            size_t done = 0, used = 0;
                            utfdfa_result r;
                            do {
                                size_t i = n - done, m = cap - used;
                                r = utfdfa_encode(&e, cps + done, &i, out + used, &m, true, NULL);
                                done += i;
                                used += m;
                            } while (r == UTFDFA_MALFORMED);
                            CHECK(r == UTFDFA_INPUT_EMPTY, "encode to %s of %zu x (a, %X), "
                                  "options %u: OUTPUT_FULL in the promised %zu bytes",
                                  utfdfa_encoding_name((enum utfdfa_encoding)to), k, cand[c],
                                  options, cap);
                        }
}

int main(void)
{
    for (uint32_t c = 0; c < 0x400; c++)
        cand[ncand++] = c;
    for (size_t k = 0; k < sizeof candidates_extra / sizeof candidates_extra[0]; k++)
        cand[ncand++] = candidates_extra[k];
    for (unsigned from = 0; from < UTFDFA_NENCODINGS; from++) {
        characters((enum utfdfa_encoding)from);
        error_bytes((enum utfdfa_encoding)from);
    }
    encode_fits();
    printf("most output bytes per input unit seen (source row, target column):\n");
    for (unsigned from = 0; from < UTFDFA_NENCODINGS; from++) {
        printf("  %-16s", utfdfa_encoding_name((enum utfdfa_encoding)from));
        for (unsigned to = 0; to < UTFDFA_NENCODINGS; to++)
            printf(" %5.2f", worst[from][to] / 1000.0);
        printf("\n");
    }
    return check_summary("test_bounds");
}
