/* SPDX-License-Identifier: MIT */
/*
 * ref_utf8.c - independent reference (oracle) UTF-8 decoder/encoder.
 * See ref_utf8.h.  Plain if/else over the byte ranges of Unicode Table 3-7;
 * no tables, no tricks.
 */
#include "ref_utf8.h"

/* 1 if lo <= b <= hi */
static int in_range(unsigned char b, unsigned lo, unsigned hi)
{
    return b >= lo && b <= hi;
}

/* 1 if b is a UTF-8 continuation byte (10xxxxxx, 80..BF) */
static int is_cont(unsigned char b)
{
    return in_range(b, 0x80, 0xBF);
}

/* Store the outcome and return the item length. */
static size_t result(size_t len, enum ref_kind k, uint32_t value,
                     uint32_t *cp, enum ref_kind *kind)
{
    if (kind != NULL)
        *kind = k;
    if (cp != NULL)
        *cp = (k == REF_OK) ? value : 0;
    return len;
}

size_t ref_utf8_next(const unsigned char *s, size_t n, uint32_t *cp, enum ref_kind *kind)
{
    unsigned char b0, b1, b2, b3;
    size_t need;          /* total length of the sequence announced by b0 */
    unsigned lo2, hi2;    /* Table 3-7 range allowed for the second byte */
    enum ref_kind bad2;   /* kind when the 2nd byte is a continuation byte outside lo2..hi2 */
    uint32_t value;

    if (n == 0)
        return result(0, REF_TRUNCATED, 0, cp, kind);

    b0 = s[0];

    /* ---- First byte ---------------------------------------------------- */
    if (in_range(b0, 0x00, 0x7F)) {
        /* U+0000..U+007F: 00..7F */
        return result(1, REF_OK, b0, cp, kind);
    } else if (in_range(b0, 0x80, 0xBF)) {
        return result(1, REF_UNEXPECTED_CONTINUATION, 0, cp, kind);
    } else if (in_range(b0, 0xC0, 0xC1)) {
        /* would only ever encode U+0000..U+007F: always overlong */
        return result(1, REF_OVERLONG, 0, cp, kind);
    } else if (in_range(b0, 0xC2, 0xDF)) {
        /* U+0080..U+07FF: C2..DF 80..BF */
        need = 2; lo2 = 0x80; hi2 = 0xBF; bad2 = REF_TRUNCATED; /* bad2 unreachable */
    } else if (b0 == 0xE0) {
        /* U+0800..U+0FFF: E0 A0..BF 80..BF */
        need = 3; lo2 = 0xA0; hi2 = 0xBF; bad2 = REF_OVERLONG;
    } else if (in_range(b0, 0xE1, 0xEC)) {
        /* U+1000..U+CFFF: E1..EC 80..BF 80..BF */
        need = 3; lo2 = 0x80; hi2 = 0xBF; bad2 = REF_TRUNCATED; /* bad2 unreachable */
    } else if (b0 == 0xED) {
        /* U+D000..U+D7FF: ED 80..9F 80..BF */
        need = 3; lo2 = 0x80; hi2 = 0x9F; bad2 = REF_SURROGATE;
    } else if (in_range(b0, 0xEE, 0xEF)) {
        /* U+E000..U+FFFF: EE..EF 80..BF 80..BF */
        need = 3; lo2 = 0x80; hi2 = 0xBF; bad2 = REF_TRUNCATED; /* bad2 unreachable */
    } else if (b0 == 0xF0) {
        /* U+10000..U+3FFFF: F0 90..BF 80..BF 80..BF */
        need = 4; lo2 = 0x90; hi2 = 0xBF; bad2 = REF_OVERLONG;
    } else if (in_range(b0, 0xF1, 0xF3)) {
        /* U+40000..U+FFFFF: F1..F3 80..BF 80..BF 80..BF */
        need = 4; lo2 = 0x80; hi2 = 0xBF; bad2 = REF_TRUNCATED; /* bad2 unreachable */
    } else if (b0 == 0xF4) {
        /* U+100000..U+10FFFF: F4 80..8F 80..BF 80..BF */
        need = 4; lo2 = 0x80; hi2 = 0x8F; bad2 = REF_TOO_LARGE;
    } else if (in_range(b0, 0xF5, 0xF7)) {
        /* 4-byte form, but every value would be above U+10FFFF */
        return result(1, REF_TOO_LARGE, 0, cp, kind);
    } else {
        /* F8..FF: 5-/6-byte forms of old ISO 10646 UTF-8, FE, FF */
        return result(1, REF_INVALID_LEAD, 0, cp, kind);
    }

    /* ---- Second byte --------------------------------------------------- */
    if (n < 2)
        return result(1, REF_TRUNCATED, 0, cp, kind);
    b1 = s[1];
    if (!is_cont(b1))
        return result(1, REF_TRUNCATED, 0, cp, kind);
    if (!in_range(b1, lo2, hi2))
        return result(1, bad2, 0, cp, kind);
    if (need == 2) {
        value = ((uint32_t)(b0 & 0x1F) << 6)
              |  (uint32_t)(b1 & 0x3F);
        return result(2, REF_OK, value, cp, kind);
    }

    /* ---- Third byte ---------------------------------------------------- */
    if (n < 3)
        return result(2, REF_TRUNCATED, 0, cp, kind);
    b2 = s[2];
    if (!is_cont(b2))
        return result(2, REF_TRUNCATED, 0, cp, kind);
    if (need == 3) {
        value = ((uint32_t)(b0 & 0x0F) << 12)
              | ((uint32_t)(b1 & 0x3F) << 6)
              |  (uint32_t)(b2 & 0x3F);
        return result(3, REF_OK, value, cp, kind);
    }

    /* ---- Fourth byte --------------------------------------------------- */
    if (n < 4)
        return result(3, REF_TRUNCATED, 0, cp, kind);
    b3 = s[3];
    if (!is_cont(b3))
        return result(3, REF_TRUNCATED, 0, cp, kind);
    value = ((uint32_t)(b0 & 0x07) << 18)
          | ((uint32_t)(b1 & 0x3F) << 12)
          | ((uint32_t)(b2 & 0x3F) << 6)
          |  (uint32_t)(b3 & 0x3F);
    return result(4, REF_OK, value, cp, kind);
}

const char *ref_kind_name(enum ref_kind k)
{
    switch (k) {
    case REF_OK:                      return "ok";
    case REF_UNEXPECTED_CONTINUATION: return "unexpected-continuation";
    case REF_INVALID_LEAD:            return "invalid-lead";
    case REF_OVERLONG:                return "overlong";
    case REF_SURROGATE:               return "surrogate";
    case REF_TOO_LARGE:               return "too-large";
    case REF_TRUNCATED:               return "truncated";
    }
    return "invalid-kind";
}

size_t ref_utf8_encode(uint32_t cp, unsigned char out[4])
{
    if (cp <= 0x7F) {
        /* 0xxxxxxx */
        out[0] = (unsigned char)cp;
        return 1;
    } else if (cp <= 0x7FF) {
        /* 110xxxxx 10xxxxxx */
        out[0] = (unsigned char)(0xC0 | (cp >> 6));
        out[1] = (unsigned char)(0x80 | (cp & 0x3F));
        return 2;
    } else if (cp >= 0xD800 && cp <= 0xDFFF) {
        /* surrogate code points are not scalar values */
        return 0;
    } else if (cp <= 0xFFFF) {
        /* 1110xxxx 10xxxxxx 10xxxxxx */
        out[0] = (unsigned char)(0xE0 | (cp >> 12));
        out[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    } else if (cp <= 0x10FFFF) {
        /* 11110xxx 10xxxxxx 10xxxxxx 10xxxxxx */
        out[0] = (unsigned char)(0xF0 | (cp >> 18));
        out[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
        out[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        out[3] = (unsigned char)(0x80 | (cp & 0x3F));
        return 4;
    } else {
        /* above U+10FFFF */
        return 0;
    }
}
