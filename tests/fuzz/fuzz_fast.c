/* SPDX-License-Identifier: MIT */
/* libFuzzer target: every fast path of src/fast/utf8/ (each variant of
 * utfdfa__utf8_fast_variants, tests/fast/utf8_variants.c) against
 * the plain per-byte DFA loop, under the contract of
 * src/fast/utf8/utf8_fast.h: a call consumes a prefix src[0..k) and
 * leaves exactly the state, partial value and output that the plain loop gives over src[0..k) from the same
 * state; it never consumes a byte that rejects (the replacing decoder:
 * each maximal subpart is one U+FFFD and counted) and never writes at or
 * past cap; utfdfa__utf8_pending gives the bytes of the character in
 * progress.
 *
 * Input: 2 header bytes (where the fast call starts: the bytes before it
 * set the state through the plain loop; the output room), then the bytes.
 * Inputs and outputs are exact-size heap buffers.
 */
#include "utf8.gen.h"
#include "utf8_fast.h"
#include "utf8_variants.h"

#define FUZZ_NAME "fast"
#define FUZZ_HEADER_BYTES 2
#include "fuzz_common.h"

enum kind { K_SCAN, K_U32, K_U16, K_REP };

/* The plain loop over src[0..k) from (*state, *partial): false if it would
 * reject (strict kinds) or run out of room, which the contract forbids
 * inside a consumed prefix. Output in dst (units), count in *written. */
static bool plain(enum kind kind, const uint8_t *src, size_t k, uint32_t *state,
                  uint32_t *partial, void *dst, size_t cap, size_t *written, size_t *errors)
{
    uint32_t st = *state, cp = *partial;
    size_t w = 0, errs = 0;
    for (size_t i = 0; i < k;) {
        uint8_t b = src[i];
        uint32_t cls = utf8_class[b], next = utf8_trans[st + cls];
        if (next == UTF8_REJECT) {
            if (kind != K_REP)
                return false;
            if (w + 1 > cap) /* the U+FFFD needs room */
                return false;
            ((uint32_t *)dst)[w++] = 0xFFFD;
            errs++;
            if (st == UTF8_ACCEPT)
                i++; /* the byte alone is the error */
            st = UTF8_ACCEPT; /* else it starts anew */
            cp = 0;
            continue;
        }
        cp = cp << 6 | (b & utf8_payload_mask[cls]);
        if (next == UTF8_ACCEPT) {
            size_t need = kind == K_U16 && cp >= 0x10000 ? 2 : kind == K_SCAN ? 0 : 1;
            if (w + need > cap)
                return false;
            if (kind == K_U32 || kind == K_REP) {
                ((uint32_t *)dst)[w] = cp;
            } else if (kind == K_U16) {
                if (cp >= 0x10000) {
                    ((uint16_t *)dst)[w] = (uint16_t)(0xD800 + ((cp - 0x10000) >> 10));
                    ((uint16_t *)dst)[w + 1] = (uint16_t)(0xDC00 + ((cp - 0x10000) & 0x3FF));
                } else {
                    ((uint16_t *)dst)[w] = (uint16_t)cp;
                }
            }
            w += need;
            cp = 0;
        }
        st = next;
        i++;
    }
    *state = st;
    *partial = cp;
    *written = w;
    *errors = errs;
    return true;
}

/* The shortest suffix of src[0..k) (at most 16 bytes) that takes ACCEPT to
 * `state` without rejecting or passing through ACCEPT; SIZE_MAX if none. */
static size_t plain_pending(const uint8_t *src, size_t k, uint32_t state)
{
    if (state == UTF8_ACCEPT)
        return 0;
    for (size_t len = 1; len <= 16 && len <= k; len++) {
        uint32_t st = UTF8_ACCEPT;
        size_t i;
        for (i = k - len; i < k; i++) {
            st = utf8_trans[st + utf8_class[src[i]]];
            if (st == UTF8_REJECT || (st == UTF8_ACCEPT && i + 1 < k))
                break;
        }
        if (i == k && st == state)
            return len;
    }
    return SIZE_MAX;
}

static void one(const struct utfdfa__fast_variant *v, enum kind kind, const uint8_t *src,
                size_t n, uint32_t st0, uint32_t cp0, size_t cap)
{
    const char *name = v->name;
    size_t us = kind == K_U16 ? 2 : 4;
    void *dst = xmalloc(cap * us), *want = xmalloc(cap * us);
    uint32_t st = st0, cp = cp0;
    size_t written = 0, errors = 0, k;
    switch (kind) {
    case K_SCAN:
        k = v->scan(src, n, &st);
        cp = 0; /* the scan keeps no value */
        break;
    case K_U32:
        k = v->dec32(src, n, &st, &cp, (uint32_t *)dst, cap, &written);
        break;
    case K_U16:
        k = v->dec16(src, n, &st, &cp, (uint16_t *)dst, cap, &written);
        break;
    default:
        k = v->rep(src, n, &st, &cp, (uint32_t *)dst, cap, &written, &errors);
        break;
    }
    REQUIRE(k <= n && written <= cap, "%s (kind %d): consumed %zu of %zu, wrote %zu of %zu", name,
            (int)kind, k, n, written, cap);
    uint32_t pst = st0, pcp = kind == K_SCAN ? 0 : cp0;
    size_t pw = 0, perr = 0;
    REQUIRE(plain(kind, src, k, &pst, &pcp, want, cap, &pw, &perr),
            "%s (kind %d): consumed %zu bytes the plain loop cannot (reject or no room)", name,
            (int)kind, k);
    /* Replacing: the plain loop may also have written the U+FFFD of a
     * sequence that src[k] cuts short (that byte is not consumed: it starts
     * anew) and then stopped for room. */
    if (kind == K_REP && k < n && pst != UTF8_ACCEPT && pst != st &&
        utf8_trans[pst + utf8_class[src[k]]] == UTF8_REJECT && pw < cap) {
        ((uint32_t *)want)[pw++] = 0xFFFD;
        perr++;
        pst = UTF8_ACCEPT;
        pcp = 0;
    }
    REQUIRE(pst == st && (kind == K_SCAN || pcp == cp),
            "%s (kind %d): after %zu bytes state %u partial %X, plain loop %u %X", name,
            (int)kind, k, st, cp, pst, pcp);
    if (kind != K_SCAN)
        REQUIRE(pw == written && (pw == 0 || memcmp(want, dst, pw * us) == 0),
                "%s (kind %d): output differs from the plain loop after %zu bytes", name,
                (int)kind, k);
    if (kind == K_REP)
        REQUIRE(perr == errors, "%s: %zu errors counted, plain loop %zu", name, errors, perr);
    /* The pending count after a call that began in ACCEPT. */
    if (st0 == UTF8_ACCEPT) {
        size_t got = utfdfa__utf8_pending(src, k, st), wantp = plain_pending(src, k, st);
        REQUIRE(got == wantp,
                "pending after %s (kind %d) over %zu bytes: %zu, plain %zu", name, (int)kind, k,
                got, wantp);
    }
    free(dst);
    free(want);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    g_data = data;
    g_size = size;
    if (size < 2)
        return 0;
    size_t n = size - 2;
    size_t split = n ? data[0] % (n + 1) : 0;
    /* The state at the split: the plain loop over the bytes before it,
     * starting afresh after an error (as the runtime does). */
    uint32_t st = UTF8_ACCEPT, cp = 0;
    for (size_t i = 0; i < split; i++) {
        uint8_t b = data[2 + i];
        uint32_t cls = utf8_class[b], next = utf8_trans[st + cls];
        if (next == UTF8_REJECT) {
            st = UTF8_ACCEPT;
            cp = 0;
            continue;
        }
        cp = next == UTF8_ACCEPT ? 0 : cp << 6 | (b & utf8_payload_mask[cls]);
        st = next;
    }
    size_t len = n - split;
    uint8_t *src = xmalloc(len); /* the rest, in an exact-size buffer */
    if (len)
        memcpy(src, data + 2 + split, len);
    size_t cap = data[1] < 0xF0 ? (size_t)data[1] * (len + 1) / 0xEF : len + (data[1] & 15);
    for (const struct utfdfa__fast_variant *v = utfdfa__utf8_fast_variants; v->name; v++) {
        if (!utfdfa__fast_variant_runs(v->name))
            continue;
        if (v->scan)
            one(v, K_SCAN, src, len, st, cp, 0);
        if (v->dec32)
            one(v, K_U32, src, len, st, cp, cap);
        if (v->dec16)
            one(v, K_U16, src, len, st, cp, cap);
        if (v->rep)
            one(v, K_REP, src, len, st, cp, cap);
    }
    free(src);
    return 0;
}
