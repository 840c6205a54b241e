/* SPDX-License-Identifier: MIT */
/* A decoder or encoder whose bytes were overwritten with garbage never
 * makes the library read or write outside its tables and the caller's
 * buffers. The state is opaque and caller-owned, so it can hold anything:
 * every field is masked or clamped where it is read.
 *
 * For each source encoding and each of the decoder's 16 bytes, every value
 * of that byte, the others random or as utfdfa_decoder_init left them (so
 * that one field at a time is garbage in a decoder the fast paths take);
 * the same for the encoder's bytes in every target. Each state is driven
 * through every public call (check, decode to UTF-32 and UTF-16, transcode
 * to every target, encode) over random input (1-24 bytes, and 65-200;
 * random bytes or mostly ASCII) in exact-size heap buffers (a fixed room,
 * and the input's size plus 16: the short-chunk entries' scratch), whole and
 * byte by byte; an encoder also at the input's end with no room. Here the results are judged only on what they promise
 * whatever the state (counts within the buffers, a known result, an error
 * of at least one byte); the reads and writes themselves are judged by
 * AddressSanitizer and UBSan when check-sanitize (CI) runs this test
 * against the sanitized library: a quiet read past a table shows only
 * there (before the fixes, the plain build also crashed or reported an
 * error of 0 bytes).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common.h"
#include "rng.h"
#include "utfdfa.h"

static struct test_rng rng = {20261125};

static void random_bytes(void *p, size_t n)
{
    for (size_t k = 0; k < n; k++)
        ((uint8_t *)p)[k] = test_rng_byte(&rng);
}

/* Random bytes, or mostly ASCII (one byte in 16 random): whole blocks of
 * ASCII for the fast paths' ASCII steps. */
static void random_input(uint8_t *p, size_t n, bool mostly_ascii)
{
    random_bytes(p, n);
    for (size_t k = 0; mostly_ascii && k < n; k++)
        if (test_rng_below(&rng, 16))
            p[k] &= 0x7F;
}

/* The fixed room of the output buffers (the other: the input's size + 16). */
enum { ROOM = 37 };

static bool known(utfdfa_result r)
{
    return r == UTFDFA_INPUT_EMPTY || r == UTFDFA_OUTPUT_FULL || r == UTFDFA_MALFORMED;
}

/* One call of each kind from the state *d0, over in[0..n) (heap, exact). */
static void drive_decoder(const utfdfa_decoder *d0, const uint8_t *in, size_t n, bool last,
                          size_t cap, const char *what)
{
    uint32_t *u32 = xmalloc(cap * sizeof *u32);
    uint16_t *u16 = xmalloc(cap * sizeof *u16);
    uint8_t *bytes = xmalloc(cap);
    for (int call = 0; call < 3 + UTFDFA_NENCODINGS; call++) {
        utfdfa_decoder d = *d0;
        size_t k = n, m = cap;
        utfdfa_error err = {0, 0, UTFDFA_ERR_NONE};
        utfdfa_result r;
        if (call == 0)
            r = utfdfa_check(&d, in, &k, last, &err), m = 0;
        else if (call == 1)
            r = utfdfa_decode_utf32(&d, in, &k, u32, &m, last, &err);
        else if (call == 2)
            r = utfdfa_decode_utf16(&d, in, &k, u16, &m, last, &err);
        else
            r = utfdfa_transcode(&d, (enum utfdfa_encoding)(call - 3), in, &k, bytes, &m, last,
                                 &err);
        CHECK(known(r) && k <= n && m <= cap && (r != UTFDFA_MALFORMED || err.length >= 1),
              "%s, call %d, room %zu: result %d, read %zu of %zu, wrote %zu, error length %u",
              what, call, cap, (int)r, k, n, m, err.length);
    }
    free(u32);
    free(u16);
    free(bytes);
}

static void decoders(void)
{
    /* short inputs, and longer than 64 bytes: UTF-8's direct entry hands
     * those to the level's decoder */
    for (unsigned from = 0; from < 2 * UTFDFA_NENCODINGS; from++) {
        size_t n = from < UTFDFA_NENCODINGS ? 1 + test_rng_below(&rng, 24)
                                            : 65 + test_rng_below(&rng, 136);
        uint8_t *in = xmalloc(n);
        char what[96];
        for (int others_random = 0; others_random < 2; others_random++)
            for (size_t byte = 0; byte < sizeof(utfdfa_decoder); byte++)
                for (unsigned v = 0; v < 256; v++) {
                    utfdfa_decoder d;
                    enum utfdfa_encoding enc = (enum utfdfa_encoding)(from % UTFDFA_NENCODINGS);
                    utfdfa_decoder_init(&d, enc, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
                    if (others_random)
                        random_bytes(&d, sizeof d);
                    ((uint8_t *)&d)[byte] = (uint8_t)v;
                    random_input(in, n, v & 2);
                    snprintf(what, sizeof what, "%s decoder, byte %zu = %02X (others %s), %zu "
                             "bytes", utfdfa_encoding_name(enc), byte, v,
                             others_random ? "random" : "as init", n);
                    drive_decoder(&d, in, n, v & 1, ROOM, what);
                    drive_decoder(&d, in, n, v & 1, n + 16, what);
                    drive_decoder(&d, in, 1, true, ROOM, what); /* a call of one byte */
                }
        free(in);
    }
}

static void encoders(void)
{
    enum { CAP = 29, N = 9 };
    uint32_t *cps = xmalloc(N * sizeof *cps);
    uint8_t *out = xmalloc(CAP);
    for (unsigned to = 0; to < UTFDFA_NENCODINGS; to++)
        for (size_t byte = 0; byte < sizeof(utfdfa_encoder); byte++)
            for (unsigned v = 0; v < 256; v++) {
                utfdfa_encoder e;
                utfdfa_encoder_init(&e, (enum utfdfa_encoding)to, UTFDFA_STRICT,
                                    UTFDFA_BOM_KEEP);
                random_bytes(&e, sizeof e);
                ((uint8_t *)&e)[byte] = (uint8_t)v;
                utfdfa_encoder at_end = e;
                for (size_t k = 0; k < N; k++) /* ASCII, BMP, supplementary, any 31 bits */
                    cps[k] = test_rng_below(&rng, 4) == 0   ? test_rng_below(&rng, 0x80)
                             : test_rng_below(&rng, 4) == 0 ? test_rng_below(&rng, 1u << 31)
                                                            : test_rng_below(&rng, 0x11000);
                size_t n = N, m = CAP;
                utfdfa_error err = {0, 0, UTFDFA_ERR_NONE};
                utfdfa_result r = utfdfa_encode(&e, cps, &n, out, &m, v & 1, &err);
                CHECK(known(r) && n <= N && m <= CAP && (r != UTFDFA_MALFORMED || err.length >= 1),
                      "%s encoder, byte %zu = %02X: result %d, read %zu, wrote %zu",
                      utfdfa_encoding_name((enum utfdfa_encoding)to), byte, v, (int)r, n, m);
                /* The end of the input with no room left: a state that
                 * says a run is closed writes nothing (a garbage one that
                 * held leftover bits once wrote their digit past the room;
                 * the guard byte shows it without a sanitizer). */
                uint8_t guard = 0xA5;
                n = 0, m = 0;
                r = utfdfa_encode(&at_end, cps, &n, &guard, &m, true, &err);
                CHECK(known(r) && m == 0 && guard == 0xA5,
                      "%s encoder, byte %zu = %02X, at the end with no room: result %d, wrote "
                      "%zu, guard %02X", utfdfa_encoding_name((enum utfdfa_encoding)to), byte, v,
                      (int)r, m, guard);
            }
    free(cps);
    free(out);
}

int main(void)
{
    decoders();
    encoders();
    return check_summary("test_garbage_state");
}
