/* SPDX-License-Identifier: MIT */
/* utfdfa_transcode with `to` changed between calls: what the earlier
 * target's writer held is closed before the new target writes (a UTF-7
 * run's last digit and "-"), and the new target starts afresh, as if a new
 * output began (a BOM again for UTF-16 and UTF-32 without a byte order).
 * For every source, every pair of targets and every split point, the two
 * calls' output is the encoder's whole output in the first target of the
 * characters the first call completed, then the encoder's whole output in
 * the second target of the rest; with the same target twice, the unsplit
 * output. Nothing is lost, nothing is written twice. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "utfdfa.h"

enum { CAP = 512 };

/* cps[0..n) as the encoder writes a whole stream of them in `to`. */
static size_t encode_whole(enum utfdfa_encoding to, const uint32_t *cps, size_t n, uint8_t *out)
{
    utfdfa_encoder e;
    utfdfa_encoder_init(&e, to, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    size_t s = n, o = CAP;
    if (n == 0)
        return 0;
    utfdfa_encode(&e, cps, &s, out, &o, true, NULL);
    return o;
}

/* The code points a strict decoder of `from` completes from src[0..n)
 * when more may follow. */
static size_t completed(enum utfdfa_encoding from, const uint8_t *src, size_t n, uint32_t *cps)
{
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, from, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    size_t s = n, m = CAP;
    utfdfa_decode_utf32(&d, src, &s, cps, &m, false, NULL);
    return m;
}

static void one_split(enum utfdfa_encoding from, enum utfdfa_encoding a, enum utfdfa_encoding b,
                      const uint8_t *src, size_t n, size_t k, const uint32_t *text, size_t ntext)
{
    uint8_t got[2 * CAP], want[2 * CAP];
    uint32_t first[CAP];
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, from, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    size_t s1 = k, o1 = CAP, s2 = n - k, o2 = CAP;
    utfdfa_result r1 = utfdfa_transcode(&d, a, src, &s1, got, &o1, false, NULL);
    utfdfa_result r2 = utfdfa_transcode(&d, b, src + k, &s2, got + o1, &o2, true, NULL);
    size_t m = completed(from, src, k, first), w;
    if (a == b) {
        w = encode_whole(a, text, ntext, want);
    } else {
        w = encode_whole(a, first, m, want);
        w += encode_whole(b, text + m, ntext - m, want + w);
    }
    CHECK(r1 == UTFDFA_INPUT_EMPTY && r2 == UTFDFA_INPUT_EMPTY && s1 == k && s2 == n - k &&
              o1 + o2 == w && memcmp(got, want, w) == 0,
          "%s source, %s then %s, split at %zu of %zu: %zu bytes written, %zu expected",
          utfdfa_encoding_name(from), utfdfa_encoding_name(a), utfdfa_encoding_name(b), k, n,
          o1 + o2, w);
}

/* A call to another target with no room for what closes the earlier one:
 * OUTPUT_FULL, nothing read or written; with room, the close comes first. */
static void no_room_for_the_close(void)
{
    static const uint8_t text[] = {0xC3, 0xA9, 0xC3, 0xA9, 'o', 'k'};
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    uint8_t out[32];
    size_t s = 4, o = sizeof out;
    utfdfa_transcode(&d, UTFDFA_UTF7, text, &s, out, &o, false, NULL);
    CHECK(o == 6 && memcmp(out, "+AOkA6", 6) == 0, "UTF-7 run left open: +AOkA6");
    size_t s2 = 2, o2 = 1;
    utfdfa_result r = utfdfa_transcode(&d, UTFDFA_UTF8, text + 4, &s2, out + o, &o2, true, NULL);
    CHECK(r == UTFDFA_OUTPUT_FULL && s2 == 0 && o2 == 0,
          "to UTF-8 with 1 byte of room: output full, nothing read");
    s2 = 2, o2 = sizeof out - o;
    r = utfdfa_transcode(&d, UTFDFA_UTF8, text + 4, &s2, out + o, &o2, true, NULL);
    CHECK(r == UTFDFA_INPUT_EMPTY && s2 == 2 && o + o2 == 10 && memcmp(out, "+AOkA6Q-ok", 10) == 0,
          "then to UTF-8: +AOkA6Q-ok (got %.*s)", (int)(o + o2), (const char *)out);
}

/* Whether `enc` holds cp (its encoder takes it). */
static bool holds(enum utfdfa_encoding enc, uint32_t cp)
{
    uint8_t out[16];
    utfdfa_encoder e;
    utfdfa_encoder_init(&e, enc, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    size_t s = 1, o = sizeof out;
    return utfdfa_encode(&e, &cp, &s, out, &o, true, NULL) == UTFDFA_INPUT_EMPTY;
}

int main(void)
{
    static const uint32_t text[] = {0xE9, 0xE9, 'a', 0x1F600, '+', 'o', 0xE9, '-', 'k', 0x20AC};
    size_t ntext = sizeof text / sizeof text[0];
    for (int from = 0; from < UTFDFA_NENCODINGS; from++)
        for (int a = 0; a < UTFDFA_NENCODINGS; a++)
            for (int b = 0; b < UTFDFA_NENCODINGS; b++) {
                /* The characters all three hold (ISO-8859-1: not U+1F600, U+20AC). */
                uint32_t own[sizeof text / sizeof text[0]];
                size_t nown = 0;
                for (size_t i = 0; i < ntext; i++)
                    if (holds((enum utfdfa_encoding)from, text[i]) &&
                        holds((enum utfdfa_encoding)a, text[i]) &&
                        holds((enum utfdfa_encoding)b, text[i]))
                        own[nown++] = text[i];
                CHECK(nown >= 8, "%s, %s, %s: they hold the text's Latin-1 characters",
                      utfdfa_encoding_name((enum utfdfa_encoding)from),
                      utfdfa_encoding_name((enum utfdfa_encoding)a),
                      utfdfa_encoding_name((enum utfdfa_encoding)b));
                uint8_t src[CAP];
                size_t n = encode_whole((enum utfdfa_encoding)from, own, nown, src);
                for (size_t k = 0; k <= n; k++)
                    one_split((enum utfdfa_encoding)from, (enum utfdfa_encoding)a,
                              (enum utfdfa_encoding)b, src, n, k, own, nown);
            }
    no_room_for_the_close();
    return check_summary("test_target_change");
}
