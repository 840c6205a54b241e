/* SPDX-License-Identifier: MIT */
/* The encoder (code points to bytes): every scalar value round-trips
 * through every encoding (UTF-8 byte for byte as the reference encoder of
 * tests/ref writes it); surrogates and values above U+10FFFF in each error
 * mode; the output exactly full; the BOM modes across calls; the
 * worst-case sizes never overflow. tests/stream/test_vectors.c encodes what
 * every vector decodes to, every way, against the reference encoders. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common.h"
#include "ref_utf8.h"
#include "utfdfa.h"

static void encoder(void)
{
    /* Every scalar value round-trips through encode -> decode in each encoding. */
    static uint32_t cps[0x110000];
    size_t n = 0;
    for (uint32_t cp = 0; cp < 0x110000; cp++)
        if (cp < 0xD800 || cp > 0xDFFF)
            cps[n++] = cp;
    CHECK(n == 1112064, "encoder: %zu scalar values", n);
    for (unsigned to = 0; to < UTFDFA_NENCODINGS; to++) {
        if (to == UTFDFA_CORRECTED_UTF8 || to == UTFDFA_LATIN1)
            continue; /* no U+0000 or C1 controls: see corrected(); U+0000-00FF: latin1() */
        size_t cap;
        CHECK(utfdfa_max_encoded_len((enum utfdfa_encoding)to, n, &cap), "max_encoded_len");
        uint8_t *buf = malloc(cap);
        utfdfa_encoder e;
        utfdfa_encoder_init(&e, (enum utfdfa_encoding)to, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
        size_t s = n, o = cap;
        utfdfa_result r = utfdfa_encode(&e, cps, &s, buf, &o, true, NULL);
        CHECK(r == UTFDFA_INPUT_EMPTY && s == n, "encode all scalar values to %s",
              utfdfa_encoding_name((enum utfdfa_encoding)to));
        if (to == UTFDFA_UTF8) { /* byte-identical to the reference encoder */
            uint8_t *ref = malloc(cap);
            size_t k = 0;
            for (size_t i = 0; i < n; i++)
                k += ref_utf8_encode(cps[i], ref + k);
            CHECK(k == o && memcmp(ref, buf, k) == 0, "encoder differs from the reference");
            free(ref);
        }
        utfdfa_decoder d;
        utfdfa_decoder_init(&d, (enum utfdfa_encoding)to, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
        uint32_t *back = malloc(n * 4);
        size_t bs = o, bo = n;
        r = utfdfa_decode_utf32(&d, buf, &bs, back, &bo, true, NULL);
        CHECK(r == UTFDFA_INPUT_EMPTY && bo == n && memcmp(back, cps, n * 4) == 0,
              "round trip through %s", utfdfa_encoding_name((enum utfdfa_encoding)to));
        free(back);
        free(buf);
    }
    /* Surrogates and values above U+10FFFF: strict error with its index,
     * replace -> U+FFFD (RFC 3629 section 3), ignore -> dropped. */
    static const uint32_t bad[] = {'a', 0xD800, 'b', 0x110000, 0xDFFF, 0xFFFFFFFF};
    uint8_t out[64];
    utfdfa_encoder e;
    utfdfa_encoder_init(&e, UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    size_t s = 6, o = sizeof out;
    utfdfa_error err;
    utfdfa_result r = utfdfa_encode(&e, bad, &s, out, &o, true, &err);
    CHECK(r == UTFDFA_MALFORMED && s == 2 && o == 1 && err.offset == 1 &&
              err.kind == UTFDFA_ERR_UNENCODABLE,
          "encoder strict: surrogate unencodable at index 1");
    size_t s2 = 4, o2 = sizeof out - o;
    r = utfdfa_encode(&e, bad + 2, &s2, out + o, &o2, true, &err);
    CHECK(r == UTFDFA_MALFORMED && s2 == 2 && err.offset == 3 && err.kind == UTFDFA_ERR_TOO_LARGE,
          "encoder strict: too large at index 3");
    utfdfa_encoder_init(&e, UTFDFA_UTF8, UTFDFA_REPLACE, UTFDFA_BOM_KEEP);
    s = 6;
    o = sizeof out;
    r = utfdfa_encode(&e, bad, &s, out, &o, true, NULL);
    CHECK(r == UTFDFA_INPUT_EMPTY && o == 14 &&
              memcmp(out, "a\xEF\xBF\xBD" "b\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD", 14) == 0,
          "encoder replace");
    utfdfa_encoder_init(&e, UTFDFA_UTF8, UTFDFA_IGNORE, UTFDFA_BOM_KEEP);
    s = 6;
    o = sizeof out;
    r = utfdfa_encode(&e, bad, &s, out, &o, true, NULL);
    CHECK(r == UTFDFA_INPUT_EMPTY && o == 2 && memcmp(out, "ab", 2) == 0, "encoder ignore");
    /* Exactly full / one short for a 4-byte character. */
    static const uint32_t emoji[] = {0x1F600};
    utfdfa_encoder_init(&e, UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    s = 1;
    o = 3;
    r = utfdfa_encode(&e, emoji, &s, out, &o, true, NULL);
    CHECK(r == UTFDFA_OUTPUT_FULL && s == 0 && o == 0, "encoder: 3 bytes of room for U+1F600");
    s = 1;
    o = 4;
    r = utfdfa_encode(&e, emoji, &s, out, &o, true, NULL);
    CHECK(r == UTFDFA_INPUT_EMPTY && s == 1 && o == 4 && memcmp(out, "\xF0\x9F\x98\x80", 4) == 0,
          "encoder: exactly 4 bytes of room for U+1F600");
    /* The encoder's BOM mode acts on the first code point of its stream only,
     * across calls; add with no text at all writes just the BOM. */
    static const uint32_t bom_text[] = {0xFEFF, 'x', 0xFEFF};
    utfdfa_encoder_init(&e, UTFDFA_UTF16LE, UTFDFA_STRICT, UTFDFA_BOM_STRIP);
    size_t o1 = sizeof out, one = 1;
    utfdfa_encode(&e, bom_text, &one, out, &o1, false, NULL);
    size_t o3 = sizeof out - o1, two = 2;
    r = utfdfa_encode(&e, bom_text + 1, &two, out + o1, &o3, true, NULL);
    CHECK(r == UTFDFA_INPUT_EMPTY && o1 + o3 == 4 && memcmp(out, "x\0\xFF\xFE", 4) == 0,
          "encoder BOM strip: only the first U+FEFF, across calls");
    utfdfa_encoder_init(&e, UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_ADD);
    s = 2;
    o = sizeof out;
    r = utfdfa_encode(&e, bom_text + 1, &s, out, &o, true, NULL);
    CHECK(r == UTFDFA_INPUT_EMPTY && o == 7 && memcmp(out, "\xEF\xBB\xBFx\xEF\xBB\xBF", 7) == 0,
          "encoder BOM add: one BOM before the text");
    utfdfa_encoder_init(&e, UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_ADD);
    s = 1;
    o = sizeof out;
    utfdfa_encode(&e, bom_text, &s, out, &o, true, NULL);
    CHECK(o == 3, "encoder BOM add: not doubled");
    utfdfa_encoder_init(&e, UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_ADD);
    s = 0;
    o = 2;
    r = utfdfa_encode(&e, bom_text, &s, out, &o, true, NULL);
    CHECK(r == UTFDFA_OUTPUT_FULL && o == 0, "encoder BOM add: no room for the BOM");
    o = 3;
    r = utfdfa_encode(&e, bom_text, &s, out, &o, true, NULL);
    CHECK(r == UTFDFA_INPUT_EMPTY && o == 3, "encoder BOM add: empty text gives the BOM");
    /* Worst-case size helpers never overflow. */
    size_t big;
    CHECK(!utfdfa_max_encoded_len(UTFDFA_UTF8, SIZE_MAX / 2, &big), "max_encoded_len overflow");
    CHECK(!utfdfa_max_transcoded_len(UTFDFA_UTF8, UTFDFA_UTF8, SIZE_MAX / 2, &big),
          "max_transcoded_len overflow");
    CHECK(utfdfa_max_transcoded_len(UTFDFA_UTF8, UTFDFA_UTF8, 10, &big) && big == 33,
          "max_transcoded_len utf-8 -> utf-8 of 10 bytes is 3 per byte + BOM");
}

/* ISO-8859-1 (each byte its code point): every byte decodes to its value
 * and U+0000-00FF encode to their byte; every other value is an error of
 * the output, unencodable (above U+10FFFF too-large), "?" when replacing
 * (as Python's latin-1 codec and iconv write), dropped when ignoring; no
 * signature (U+FEFF is no character of it). */
static void latin1(void)
{
    uint8_t bytes[256], out[256];
    uint32_t cps[256], back[256];
    for (unsigned b = 0; b < 256; b++) {
        bytes[b] = (uint8_t)b;
        cps[b] = b;
    }
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, UTFDFA_LATIN1, UTFDFA_STRICT, UTFDFA_BOM_STRIP);
    size_t n = 256, m = 256;
    utfdfa_result r = utfdfa_decode_utf32(&d, bytes, &n, back, &m, true, NULL);
    CHECK(r == UTFDFA_INPUT_EMPTY && n == 256 && m == 256 && memcmp(back, cps, sizeof cps) == 0,
          "latin1: every byte decodes to its value");
    utfdfa_encoder e;
    for (int bom = UTFDFA_BOM_KEEP; bom <= UTFDFA_BOM_ADD; bom++) {
        utfdfa_encoder_init(&e, UTFDFA_LATIN1, UTFDFA_STRICT, (enum utfdfa_bom)bom);
        n = 256;
        m = sizeof out;
        r = utfdfa_encode(&e, cps, &n, out, &m, true, NULL);
        CHECK(r == UTFDFA_INPUT_EMPTY && n == 256 && m == 256 && memcmp(out, bytes, 256) == 0,
              "latin1: U+0000-00FF encode to their byte (BOM mode %d: no signature)", bom);
    }
    size_t bad = 0;
    for (uint32_t cp = 0x100; cp <= 0x110000; cp++) {
        uint32_t in[3] = {'a', cp, 'b'};
        enum utfdfa_error_kind want = cp > 0x10FFFF ? UTFDFA_ERR_TOO_LARGE : UTFDFA_ERR_UNENCODABLE;
        utfdfa_error err = {0, 0, UTFDFA_ERR_NONE};
        utfdfa_encoder_init(&e, UTFDFA_LATIN1, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
        n = 3;
        m = sizeof out;
        r = utfdfa_encode(&e, in, &n, out, &m, true, &err);
        bad += !(r == UTFDFA_MALFORMED && n == 2 && m == 1 && out[0] == 'a' && err.offset == 1 &&
                 err.kind == want);
        utfdfa_encoder_init(&e, UTFDFA_LATIN1, UTFDFA_REPLACE, UTFDFA_BOM_KEEP);
        n = 3;
        m = sizeof out;
        r = utfdfa_encode(&e, in, &n, out, &m, true, NULL);
        bad += !(r == UTFDFA_INPUT_EMPTY && m == 3 && memcmp(out, "a?b", 3) == 0);
        utfdfa_encoder_init(&e, UTFDFA_LATIN1, UTFDFA_IGNORE, UTFDFA_BOM_KEEP);
        n = 3;
        m = sizeof out;
        r = utfdfa_encode(&e, in, &n, out, &m, true, NULL);
        bad += !(r == UTFDFA_INPUT_EMPTY && m == 2 && memcmp(out, "ab", 2) == 0);
    }
    CHECK(bad == 0, "latin1: %zu of the values above U+00FF not refused as they should be", bad);
    /* Transcoding: a character the output lacks at its input offset; "?" for
     * it and for an input error when replacing; U+FEFF added as nothing. */
    static const uint8_t text[] = "a\xC3\xA9\xE2\x82\xAC\x80z"; /* a é € (error) z */
    uint8_t got[16];
    utfdfa_error err;
    utfdfa_decoder_init(&d, UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_ADD);
    n = sizeof text - 1;
    m = sizeof got;
    r = utfdfa_transcode(&d, UTFDFA_LATIN1, text, &n, got, &m, true, &err);
    CHECK(r == UTFDFA_MALFORMED && m == 2 && memcmp(got, "a\xE9", 2) == 0 && err.offset == 3 &&
              err.length == 3 && err.kind == UTFDFA_ERR_UNENCODABLE,
          "latin1: U+20AC unencodable at its input offset");
    utfdfa_decoder_init(&d, UTFDFA_UTF8, UTFDFA_REPLACE, UTFDFA_BOM_ADD);
    n = sizeof text - 1;
    m = sizeof got;
    r = utfdfa_transcode(&d, UTFDFA_LATIN1, text, &n, got, &m, true, NULL);
    CHECK(r == UTFDFA_INPUT_EMPTY && m == 5 && memcmp(got, "a\xE9??z", 5) == 0,
          "latin1: \"?\" for what it lacks and for an input error");
}

int main(void)
{
    encoder();
    latin1();
    return check_summary("test_encode");
}
