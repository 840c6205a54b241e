/* SPDX-License-Identifier: MIT */
/* One writer, two ways in (include/utfdfa.h promises both):
 *
 *   1. utfdfa_encode(cps) and utfdfa_transcode from UCS-4BE of the same
 *      values write the same bytes and stop at the same errors, in every
 *      target, error mode, BOM mode and option: the BOM rule is one rule
 *      (an error before any character spends the BOM mode too).
 *   2. What utfdfa_decode_utf32 returns after utfdfa_decoder_set_target(to)
 *      is exactly what an encoder for `to` accepts: encoding it strictly
 *      never fails (a WTF-8 target never gets a high surrogate followed by
 *      a low one; a Corrected UTF-8 target never gets U+0000, also not from
 *      a kept magic number), and where no signature is involved the bytes
 *      are those utfdfa_transcode writes.
 *
 * Every sequence of one to three values from a set that covers each
 * encoding's limits, surrogates, the BOM and the private-use images;
 * decoding also one unit per call.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "drive.h"
#include "utfdfa.h"

static const uint32_t values[] = {0x61, 0x2B, 0x2D, 0x26, 0x0, 0x80, 0xD800, 0xDC00, 0xFEFF,
                                  0xFFFD, 0x1F600, 0x10FFFF, 0x110000, 0xF0080, 0xFD800,
                                  0x7FFFFFFF, 0x80000000, 0x10E7D, 0xED4E, 0xA};
#define NVALUES (sizeof values / sizeof values[0])

enum { CAP = 256 };

struct written {
    uint8_t bytes[CAP];
    size_t len;
    utfdfa_error errors[8];
    size_t nerrors;
};

static void by_encoder(enum utfdfa_encoding to, int mode, int bom, unsigned options,
                       const uint32_t *cps, size_t n, struct written *w)
{
    utfdfa_encoder e;
    utfdfa_encoder_init(&e, to, (enum utfdfa_error_mode)mode, (enum utfdfa_bom)bom);
    utfdfa_encoder_set_options(&e, options);
    size_t done = 0;
    w->len = w->nerrors = 0;
    for (;;) {
        size_t k = n - done, m = CAP - w->len;
        utfdfa_error err;
        utfdfa_result r = utfdfa_encode(&e, cps + done, &k, w->bytes + w->len, &m, true, &err);
        done += k;
        w->len += m;
        if (r != UTFDFA_MALFORMED)
            return;
        err.offset *= 4; /* as a byte offset of the UCS-4 input */
        err.length *= 4;
        w->errors[w->nerrors++] = err;
    }
}

static void by_transcoder(enum utfdfa_encoding to, int mode, int bom, unsigned options,
                          const uint8_t *in, size_t n, struct written *w)
{
    struct drive dv = {UTFDFA_UCS4BE, (enum utfdfa_error_mode)mode, (enum utfdfa_bom)bom,
                       {SINK_BYTES, to}, 0, false, 0, CAP, false, options};
    struct outcome o;
    drive_run(&dv, in, n, &o);
    CHECK(!o.problem, "transcode from UCS-4 to %s: %s", utfdfa_encoding_name(to),
          o.problem ? o.problem : "");
    w->len = o.len < CAP ? o.len : CAP;
    memcpy(w->bytes, o.out, w->len);
    w->nerrors = o.nerr < 8 ? o.nerr : 8;
    memcpy(w->errors, o.err, w->nerrors * sizeof *w->errors);
    outcome_free(&o);
}

static size_t ucs4be(const uint32_t *cps, size_t n, uint8_t *out)
{
    for (size_t k = 0; k < n; k++) {
        out[4 * k] = (uint8_t)(cps[k] >> 24);
        out[4 * k + 1] = (uint8_t)(cps[k] >> 16);
        out[4 * k + 2] = (uint8_t)(cps[k] >> 8);
        out[4 * k + 3] = (uint8_t)cps[k];
    }
    return 4 * n;
}

static const char *describe(const uint32_t *cps, size_t n)
{
    static char s[64];
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += (size_t)snprintf(s + k, sizeof s - k, "%s%X", i ? " " : "", cps[i]);
    return s;
}

static bool same(const struct written *a, const struct written *b)
{
    if (a->len != b->len || memcmp(a->bytes, b->bytes, a->len) || a->nerrors != b->nerrors)
        return false;
    for (size_t k = 0; k < a->nerrors; k++)
        if (a->errors[k].offset != b->errors[k].offset ||
            a->errors[k].length != b->errors[k].length || a->errors[k].kind != b->errors[k].kind)
            return false;
    return true;
}

static void encoder_equals_transcoder(const uint32_t *cps, size_t n)
{
    uint8_t in[16];
    size_t len = ucs4be(cps, n, in);
    for (unsigned to = 0; to < UTFDFA_NENCODINGS; to++)
        for (int mode = 0; mode < 3; mode++)
            for (int bom = 0; bom < 3; bom++)
                for (unsigned options = 0; options < 4; options++) {
                    struct written a, b;
                    by_encoder((enum utfdfa_encoding)to, mode, bom, options, cps, n, &a);
                    by_transcoder((enum utfdfa_encoding)to, mode, bom, options, in, len, &b);
                    CHECK(same(&a, &b), "encode and transcode from ucs-4be differ: %s -> %s, "
                          "mode %d, bom %d, options %u (%zu and %zu bytes, %zu and %zu errors)",
                          describe(cps, n), utfdfa_encoding_name((enum utfdfa_encoding)to), mode,
                          bom, options, a.len, b.len, a.nerrors, b.nerrors);
                }
}

/* decode_utf32 with the target set, `step` bytes a call (0: all at once). */
static size_t decode_for(enum utfdfa_encoding from, enum utfdfa_encoding to, int mode, int bom,
                         unsigned options, const uint8_t *in, size_t n, size_t step,
                         uint32_t *out)
{
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, from, (enum utfdfa_error_mode)mode, (enum utfdfa_bom)bom);
    utfdfa_decoder_set_target(&d, to);
    utfdfa_decoder_set_options(&d, options);
    size_t done = 0, len = 0;
    for (;;) {
        size_t end = step && n - done > step ? done + step : n;
        size_t k = end - done, m = CAP - len;
        utfdfa_error err;
        utfdfa_result r = utfdfa_decode_utf32(&d, in + done, &k, out + len, &m, end == n, &err);
        done += k;
        len += m;
        if (r == UTFDFA_INPUT_EMPTY && end == n)
            return len;
    }
}

static void decoded_is_encodable(enum utfdfa_encoding from, const uint8_t *in, size_t n,
                                 const char *what)
{
    for (unsigned to = 0; to < UTFDFA_NENCODINGS; to++)
        for (int mode = 0; mode < 3; mode++)
            for (int bom = 0; bom < 2; bom++) /* keep, strip: no signature of our own */
                for (unsigned options = 0; options < 4; options += 2) /* PUA or not */
                    for (size_t step = 0; step <= 4; step += 4) {
                        uint32_t cps[CAP];
                        size_t ncp = decode_for(from, (enum utfdfa_encoding)to, mode, bom,
                                                options, in, n, step, cps);
                        struct written a, b;
                        by_encoder((enum utfdfa_encoding)to, UTFDFA_STRICT, UTFDFA_BOM_KEEP,
                                   options, cps, ncp, &a);
                        CHECK(a.nerrors == 0, "%s %s with target %s (mode %d, bom %d, options "
                              "%u, step %zu): decode_utf32 returned %s, which the encoder "
                              "refuses", utfdfa_encoding_name(from), what,
                              utfdfa_encoding_name((enum utfdfa_encoding)to), mode, bom,
                              options, step, describe(cps, ncp < 6 ? ncp : 6));
                        if (from != UTFDFA_CORRECTED_UTF8 || mode == UTFDFA_STRICT)
                            continue;
                        /* Without a signature in play, the same bytes as transcode. */
                        if (bom == UTFDFA_BOM_KEEP && n >= 8 && in[0] == 0xEF)
                            continue;
                        utfdfa_decoder d;
                        utfdfa_decoder_init(&d, from, (enum utfdfa_error_mode)mode,
                                            (enum utfdfa_bom)bom);
                        utfdfa_decoder_set_options(&d, options);
                        size_t k = n, m = CAP;
                        utfdfa_transcode(&d, (enum utfdfa_encoding)to, in, &k, b.bytes, &m, true,
                                         NULL);
                        CHECK(m == a.len && memcmp(a.bytes, b.bytes, m) == 0,
                              "corrected-utf-8 %s to %s: decode_utf32 + encode differs from "
                              "transcode", what, utfdfa_encoding_name((enum utfdfa_encoding)to));
                    }
}

int main(void)
{
    uint32_t cps[3];
    for (size_t a = 0; a < NVALUES; a++) {
        cps[0] = values[a];
        encoder_equals_transcoder(cps, 1);
        for (size_t b = 0; b < NVALUES; b++) {
            cps[1] = values[b];
            encoder_equals_transcoder(cps, 2);
            for (size_t c = 0; c < NVALUES; c += 3) {
                cps[2] = values[c];
                encoder_equals_transcoder(cps, 3);
            }
            uint8_t in[8];
            decoded_is_encodable(UTFDFA_UCS4BE, in, ucs4be(cps, 2, in), describe(cps, 2));
        }
    }
    /* Corrected UTF-8's magic number (EF B7 9D ED B2 AE 00 0A), then text. */
    static const uint8_t magic[] = {0xEF, 0xB7, 0x9D, 0xED, 0xB2, 0xAE, 0x00, 0x0A, 0x61};
    for (size_t n = 1; n <= sizeof magic; n++)
        decoded_is_encodable(UTFDFA_CORRECTED_UTF8, magic, n, "magic number prefix");
    return check_summary("test_writer_agrees");
}
