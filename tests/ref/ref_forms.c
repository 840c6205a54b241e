/* SPDX-License-Identifier: MIT */
/* ref_forms.c - see ref_forms.h. */
#include "ref_forms.h"

static bool tail(uint8_t b)
{
    return b >= 0x80 && b <= 0xBF;
}

/* One code unit at s[0..n), n >= 1: its length; *u its value or *kind. */
static size_t unit(const uint8_t *s, size_t n, bool modified, uint32_t *u, enum refc_kind *kind)
{
    uint8_t b = s[0];
    *kind = REFC_OK;
    if (b == 0x00 && modified) {
        *kind = REFC_NUL;
        return 1;
    }
    if (b < 0x80) {
        *u = b;
        return 1;
    }
    if (b < 0xC0) {
        *kind = REFC_UNEXPECTED_CONTINUATION;
        return 1;
    }
    if (b >= 0xF0) {
        *kind = REFC_INVALID_LEAD;
        return 1;
    }
    if (b == 0xC0 && modified) { /* only C0 80, U+0000 */
        if (n >= 2 && s[1] == 0x80) {
            *u = 0;
            return 2;
        }
        *kind = n >= 2 && tail(s[1]) ? REFC_OVERLONG : REFC_TRUNCATED;
        return 1;
    }
    if (b < 0xC2) {
        *kind = REFC_OVERLONG;
        return 1;
    }
    if (b < 0xE0) {
        if (n >= 2 && tail(s[1])) {
            *u = (uint32_t)(b & 0x1F) << 6 | (s[1] & 0x3F);
            return 2;
        }
        *kind = REFC_TRUNCATED;
        return 1;
    }
    /* E0-EF: E0 needs A0-BF second (shortest form); the rest any tail. */
    if (n < 2 || !tail(s[1])) {
        *kind = REFC_TRUNCATED;
        return 1;
    }
    if (b == 0xE0 && s[1] < 0xA0) {
        *kind = REFC_OVERLONG;
        return 1;
    }
    if (n < 3 || !tail(s[2])) {
        *kind = REFC_TRUNCATED;
        return 2;
    }
    *u = (uint32_t)(b & 0x0F) << 12 | (uint32_t)(s[1] & 0x3F) << 6 | (s[2] & 0x3F);
    return 3;
}

/* Whether s[0..n) is all that is left and could still begin a low
 * surrogate's unit (ED B0-BF ..): a high surrogate before it is a pair cut
 * short by the end of input, not a lone one. */
static bool low_cut_at_end(const uint8_t *s, size_t n)
{
    return n == 0 || (n == 1 && s[0] == 0xED) ||
           (n == 2 && s[0] == 0xED && s[1] >= 0xB0 && s[1] <= 0xBF);
}

size_t refc_decode(const uint8_t *s, size_t n, bool modified, struct refc_item *items)
{
    size_t k = 0, i = 0;
    while (i < n) {
        uint32_t u = 0;
        enum refc_kind kind;
        size_t len = unit(s + i, n - i, modified, &u, &kind);
        struct refc_item it = {u, i, len, kind};
        if (kind == REFC_OK && u >= 0xD800 && u <= 0xDFFF) {
            it.kind = REFC_SURROGATE; /* unless a pair, or a pair cut short */
            it.cp = 0;
            if (u <= 0xDBFF && low_cut_at_end(s + i + len, n - i - len))
                it.kind = REFC_TRUNCATED;
            if (u <= 0xDBFF && i + len < n) {
                uint32_t v = 0;
                enum refc_kind kv;
                size_t lv = unit(s + i + len, n - i - len, modified, &v, &kv);
                if (kv == REFC_OK && v >= 0xDC00 && v <= 0xDFFF) {
                    it.cp = 0x10000 + ((u - 0xD800) << 10) + (v - 0xDC00);
                    it.kind = REFC_OK;
                    it.len = len + lv;
                }
            }
        }
        items[k++] = it;
        i += it.len;
    }
    return k;
}

static size_t put3(uint32_t u, uint8_t *out)
{
    out[0] = (uint8_t)(0xE0 | u >> 12);
    out[1] = (uint8_t)(0x80 | (u >> 6 & 0x3F));
    out[2] = (uint8_t)(0x80 | (u & 0x3F));
    return 3;
}

size_t refc_encode(uint32_t cp, bool modified, uint8_t out[6])
{
    if (cp == 0 && modified) {
        out[0] = 0xC0;
        out[1] = 0x80;
        return 2;
    }
    if (cp < 0x80) {
        out[0] = (uint8_t)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (uint8_t)(0xC0 | cp >> 6);
        out[1] = (uint8_t)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000)
        return put3(cp, out);
    put3(0xD800 + ((cp - 0x10000) >> 10), out);
    return 3 + put3(0xDC00 + ((cp - 0x10000) & 0x3FF), out + 3);
}

/* One generalized UTF-8 unit at s[0..n), n >= 1. */
static size_t wunit(const uint8_t *s, size_t n, uint32_t *u, enum refc_kind *kind)
{
    uint8_t b = s[0];
    size_t len;
    uint8_t lo = 0x80, hi = 0xBF; /* the second byte's range */
    *kind = REFC_OK;
    if (b < 0x80) {
        *u = b;
        return 1;
    }
    if (b < 0xC0) {
        *kind = REFC_UNEXPECTED_CONTINUATION;
        return 1;
    }
    if (b < 0xC2) {
        *kind = REFC_OVERLONG;
        return 1;
    }
    if (b >= 0xF8) {
        *kind = REFC_INVALID_LEAD;
        return 1;
    }
    if (b >= 0xF5) {
        *kind = REFC_TOO_LARGE;
        return 1;
    }
    len = b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
    if (b == 0xE0)
        lo = 0xA0;
    if (b == 0xF0)
        lo = 0x90;
    if (b == 0xF4)
        hi = 0x8F;
    if (n < 2 || !tail(s[1])) {
        *kind = REFC_TRUNCATED;
        return 1;
    }
    if (s[1] < lo || s[1] > hi) {
        *kind = b == 0xF4 ? REFC_TOO_LARGE : REFC_OVERLONG;
        return 1;
    }
    for (size_t i = 2; i < len; i++)
        if (n <= i || !tail(s[i])) {
            *kind = REFC_TRUNCATED;
            return i;
        }
    uint32_t v = b & (0x7Fu >> len);
    for (size_t i = 1; i < len; i++)
        v = v << 6 | (s[i] & 0x3F);
    *u = v;
    return len;
}

size_t refw_decode(const uint8_t *s, size_t n, struct refc_item *items)
{
    size_t k = 0, i = 0;
    bool after_high = false;
    while (i < n) {
        uint32_t u = 0;
        enum refc_kind kind;
        size_t len = wunit(s + i, n - i, &u, &kind);
        struct refc_item it = {u, i, len, kind};
        if (kind == REFC_OK && after_high && u >= 0xDC00 && u <= 0xDFFF) {
            it.kind = REFC_SURROGATE;
            it.cp = 0;
        }
        after_high = it.kind == REFC_OK && u >= 0xD800 && u <= 0xDBFF;
        items[k++] = it;
        i += len;
    }
    return k;
}

size_t refw_encode(uint32_t cp, uint8_t out[4])
{
    if (cp >= 0xD800 && cp <= 0xDFFF)
        return put3(cp, out);
    if (cp < 0x10000) {
        uint8_t six[6];
        size_t n = refc_encode(cp, false, six);
        for (size_t i = 0; i < n; i++)
            out[i] = six[i];
        return n;
    }
    out[0] = (uint8_t)(0xF0 | cp >> 18);
    out[1] = (uint8_t)(0x80 | (cp >> 12 & 0x3F));
    out[2] = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
    out[3] = (uint8_t)(0x80 | (cp & 0x3F));
    return 4;
}

/* A lead byte's sequence length in the 1-6 byte forms, 0 for none. */
static size_t form_len(uint8_t b)
{
    return b < 0x80 ? 1 : b < 0xC0 ? 0 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : b < 0xF8 ? 4
           : b < 0xFC ? 5 : b < 0xFE ? 6 : 0;
}

/* The length of the valid prefix of a len-byte sequence at s[0..n) (its
 * lead and the tails after it), and its payload when whole. */
static size_t tails(const uint8_t *s, size_t n, size_t len, uint32_t *payload)
{
    size_t i = 1;
    while (i < len && i < n && tail(s[i]))
        i++;
    if (i == len) {
        uint32_t v = len == 1 ? s[0] : s[0] & (0x7Fu >> len);
        for (size_t k = 1; k < len; k++)
            v = v << 6 | (s[k] & 0x3F);
        *payload = v;
    }
    return i;
}

size_t ref2279_decode(const uint8_t *s, size_t n, struct refc_item *items)
{
    size_t k = 0, i = 0;
    while (i < n) {
        uint8_t b = s[i];
        size_t len = form_len(b);
        struct refc_item it = {0, i, 1, REFC_OK};
        if (len == 0) {
            it.kind = b < 0xC0 ? REFC_UNEXPECTED_CONTINUATION : REFC_INVALID_LEAD;
        } else if (len == 1) {
            it.cp = b;
        } else if (b == 0xC0 || b == 0xC1) {
            it.kind = REFC_OVERLONG;
        } else if (i + 1 < n && tail(s[i + 1]) &&
                   ((b == 0xE0 && s[i + 1] < 0xA0) || (b == 0xF0 && s[i + 1] < 0x90) ||
                    (b == 0xF8 && s[i + 1] < 0x88) || (b == 0xFC && s[i + 1] < 0x84))) {
            it.kind = REFC_OVERLONG; /* a shorter form exists */
        } else if (b == 0xED && i + 1 < n && s[i + 1] >= 0xA0 && s[i + 1] <= 0xBF) {
            it.kind = REFC_SURROGATE;
        } else {
            uint32_t v = 0;
            size_t got = tails(s + i, n - i, len, &v);
            it.len = got;
            if (got < len)
                it.kind = REFC_TRUNCATED;
            else
                it.cp = v;
        }
        items[k++] = it;
        i += it.len;
    }
    return k;
}

size_t refcorr_decode(const uint8_t *s, size_t n, struct refc_item *items)
{
    static const uint32_t offset[7] = {0, 0, 160, 2208, 69792, 2166944, 69275808};
    size_t k = 0, i = 0;
    while (i < n) {
        uint8_t b = s[i];
        size_t len = form_len(b);
        struct refc_item it = {0, i, 1, REFC_OK};
        if (b >= 0xFE) {
            /* up to the next recognized lead byte (00-7F, C0-FD) */
            while (i + it.len < n && (tail(s[i + it.len]) || s[i + it.len] >= 0xFE))
                it.len++;
            it.kind = REFC_RESERVED;
        } else if (len == 0) {
            it.kind = REFC_UNEXPECTED_CONTINUATION;
        } else if (b == 0x00) {
            it.kind = REFC_NUL;
        } else {
            uint32_t v = 0;
            size_t got = tails(s + i, n - i, len, &v);
            it.len = got;
            if (got < len)
                it.kind = REFC_TRUNCATED;
            else /* the 3-byte row is split: 0xCF60 and up is the second part */
                it.cp = v + (len == 3 && v >= 0xCF60 ? 4256 : offset[len]);
        }
        items[k++] = it;
        i += it.len;
    }
    return k;
}
