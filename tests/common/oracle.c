/* SPDX-License-Identifier: MIT */
#include "oracle.h"

#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "ref_kinds.h"
#include "ref_utf16.h"
#include "ref_utf32.h"
#include "ref_utf7.h"
#include "ref_utf7_kinds.h"

/* One item of a unit-by-unit reference: its length, *cp and *kind. */
static size_t wide_next(enum utfdfa_encoding from, const uint8_t *s, size_t n, uint32_t *cp,
                        enum ref_kind *kind)
{
    switch (from) {
    case UTFDFA_UTF8:
        return ref_utf8_next(s, n, cp, kind);
    case UTFDFA_UTF16LE:
    case UTFDFA_UTF16BE:
        return ref_utf16_next(s, n, from == UTFDFA_UTF16BE, cp, kind);
    default:
        return ref_utf32_next(s, n, from == UTFDFA_UTF32BE, cp, kind);
    }
}

/* The reference's items, in the library's terms (room for n + 1). */
struct item {
    uint32_t cp;
    utfdfa_error err; /* kind NONE: a character */
};

static size_t items_of_forms(enum utfdfa_encoding from, const uint8_t *s, size_t n,
                             struct item *items)
{
    struct refc_item *ri = xmalloc((n + 1) * sizeof *ri);
    size_t k;
    if (from == UTFDFA_WTF8)
        k = refw_decode(s, n, ri);
    else if (from == UTFDFA_UTF8_RFC2279)
        k = ref2279_decode(s, n, ri);
    else if (from == UTFDFA_CORRECTED_UTF8)
        k = refcorr_decode(s, n, ri);
    else
        k = refc_decode(s, n, from == UTFDFA_MUTF8, ri);
    for (size_t i = 0; i < k; i++)
        items[i] = (struct item){ri[i].cp, {ri[i].offset, (uint32_t)ri[i].len,
                                            kind_of_refc(ri[i].kind)}};
    free(ri);
    return k;
}

/* UTF-7: the reference marks the U+FFFD that stand for errors. */
static size_t items_of_utf7(const uint8_t *s, size_t n, struct item *items)
{
    uint32_t *out = xmalloc((n + 1) * sizeof *out);
    bool *marked = xmalloc((n + 1) * sizeof *marked);
    struct ref7_error *errs = xmalloc((n + 1) * sizeof *errs);
    size_t nerr = 0, e = 0, k = ref7_decode_marked(s, n, out, marked, &nerr, errs, n + 1);
    for (size_t i = 0; i < k; i++) {
        items[i] = (struct item){out[i], {0, 0, UTFDFA_ERR_NONE}};
        if (marked[i] && e < nerr) {
            items[i].err = (utfdfa_error){errs[e].offset, (uint32_t)errs[e].length,
                                          ref7_library_kind(errs[e].kind)};
            e++;
        }
    }
    free(out);
    free(marked);
    free(errs);
    return k;
}

static bool items_of(enum utfdfa_encoding from, const uint8_t *s, size_t n, struct item *items,
                     size_t *k)
{
    switch (from) {
    case UTFDFA_UTF8:
    case UTFDFA_UTF16LE:
    case UTFDFA_UTF16BE:
    case UTFDFA_UTF32LE:
    case UTFDFA_UTF32BE:
        *k = 0;
        for (size_t i = 0; i < n;) {
            uint32_t cp = 0;
            enum ref_kind kind;
            size_t len = wide_next(from, s + i, n - i, &cp, &kind);
            items[(*k)++] = (struct item){cp, {i, (uint32_t)len, kind_of_ref(kind)}};
            i += len;
        }
        return true;
    case UTFDFA_UTF8_RFC2279:
    case UTFDFA_CORRECTED_UTF8:
    case UTFDFA_CESU8:
    case UTFDFA_MUTF8:
    case UTFDFA_WTF8:
        *k = items_of_forms(from, s, n, items);
        return true;
    case UTFDFA_UTF7:
        *k = items_of_utf7(s, n, items);
        return true;
    case UTFDFA_LATIN1: /* ISO-8859-1: each byte the character of its value */
        for (*k = 0; *k < n; ++*k)
            items[*k] = (struct item){s[*k], {*k, 1, UTFDFA_ERR_NONE}};
        return true;
    default:
        return false;
    }
}

bool oracle_decode(enum utfdfa_encoding from, const uint8_t *s, size_t n, uint32_t *cps,
                   size_t *ncps, utfdfa_error *errs, size_t *nerrs)
{
    struct item *items = xmalloc((n + 1) * sizeof *items);
    size_t k;
    bool known = items_of(from, s, n, items, &k);
    *ncps = *nerrs = 0;
    for (size_t i = 0; known && i < k; i++) {
        if (items[i].err.kind == UTFDFA_ERR_NONE)
            cps[(*ncps)++] = items[i].cp;
        else
            errs[(*nerrs)++] = items[i].err;
    }
    free(items);
    return known;
}

bool oracle_decode_replace(enum utfdfa_encoding from, const uint8_t *s, size_t n,
                           uint32_t *cps, size_t *ncps)
{
    struct item *items = xmalloc((n + 1) * sizeof *items);
    size_t k;
    bool known = items_of(from, s, n, items, &k);
    *ncps = 0;
    for (size_t i = 0; known && i < k; i++)
        cps[(*ncps)++] = items[i].err.kind == UTFDFA_ERR_NONE ? items[i].cp : 0xFFFD;
    free(items);
    return known;
}

static bool scalar(uint32_t cp)
{
    return cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF);
}

/* One code point in a unit-by-unit encoding with a reference encoder. */
static size_t encode_one(enum utfdfa_encoding to, uint32_t cp, uint8_t *out)
{
    switch (to) {
    case UTFDFA_UTF8:
        return ref_utf8_encode(cp, out);
    case UTFDFA_UTF16LE:
    case UTFDFA_UTF16BE:
        return ref_utf16_encode(cp, to == UTFDFA_UTF16BE, out);
    case UTFDFA_UTF32LE:
    case UTFDFA_UTF32BE:
        return ref_utf32_encode(cp, to == UTFDFA_UTF32BE, out);
    case UTFDFA_CESU8:
    case UTFDFA_MUTF8:
        return refc_encode(cp, to == UTFDFA_MUTF8, out);
    case UTFDFA_WTF8:
        return refw_encode(cp, out);
    case UTFDFA_LATIN1: /* U+0000-00FF as their byte; nothing else */
        if (cp > 0xFF)
            return 0;
        out[0] = (uint8_t)cp;
        return 1;
    case UTFDFA_UCS4LE:
        for (int b = 0; b < 4; b++)
            out[b] = (uint8_t)(cp >> (8 * b));
        return 4;
    case UTFDFA_UCS4BE:
        for (int b = 0; b < 4; b++)
            out[b] = (uint8_t)(cp >> (8 * (3 - b)));
        return 4;
    default:
        return 0;
    }
}

bool oracle_encode(enum utfdfa_encoding to, const uint32_t *cps, size_t n, uint8_t *out,
                   size_t *len)
{
    for (size_t i = 0; i < n; i++)
        if (!scalar(cps[i]))
            return false; /* only what every form holds; the rest is each form's own test */
    if (to == UTFDFA_UTF7) {
        *len = ref7_encode(cps, n, false, out);
        return true;
    }
    *len = 0;
    for (size_t i = 0; i < n; i++) {
        size_t k = encode_one(to, cps[i], out + *len);
        if (k == 0)
            return false;
        *len += k;
    }
    return true;
}

bool oracle_sink_form(const struct sink *s, const uint32_t *cps, size_t n, uint8_t *out,
                      size_t *len)
{
    *len = 0;
    if (s->kind == SINK_CHECK)
        return true;
    if (s->kind == SINK_BYTES)
        return oracle_encode(s->to, cps, n, out, len);
    for (size_t i = 0; i < n; i++) {
        uint32_t cp = cps[i];
        if (s->kind == SINK_U32) {
            memcpy(out + *len, &cp, 4);
            *len += 4;
            continue;
        }
        if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        uint16_t u[2] = {(uint16_t)cp, 0};
        size_t k = 1;
        if (cp >= 0x10000) {
            u[0] = (uint16_t)(0xD800 + ((cp - 0x10000) >> 10));
            u[1] = (uint16_t)(0xDC00 + ((cp - 0x10000) & 0x3FF));
            k = 2;
        }
        memcpy(out + *len, u, 2 * k);
        *len += 2 * k;
    }
    return true;
}

bool oracle_covers(enum utfdfa_encoding from, const struct outcome *strict_u32, size_t n)
{
    if (from == UTFDFA_UTF7 || from == UTFDFA_UTF7_IMAP)
        return true; /* a character's length depends on its neighbours */
    size_t total = 0;
    uint8_t buf[8];
    for (size_t i = 0; i + 4 <= strict_u32->len; i += 4) {
        uint32_t cp;
        size_t k;
        memcpy(&cp, strict_u32->out + i, 4);
        if (!oracle_encode(from, &cp, 1, buf, &k))
            return true;
        total += k;
    }
    for (size_t i = 0; i < strict_u32->nerr; i++)
        total += strict_u32->err[i].length;
    return total == n;
}
