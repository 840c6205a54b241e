/* SPDX-License-Identifier: MIT */
/*
 * ref_utf16.c - reference UTF-16 decoder/encoder; see ref_utf16.h.
 * WHATWG Encoding Standard 14.2.1, one item at a time, no state kept.
 */
#include "ref_utf16.h"

static size_t result(size_t len, enum ref_kind k, uint32_t value, uint32_t *cp,
                     enum ref_kind *kind)
{
    if (kind != NULL)
        *kind = k;
    if (cp != NULL)
        *cp = (k == REF_OK) ? value : 0;
    return len;
}

/* The code unit of two bytes in the given byte order. */
static uint32_t unit(const unsigned char *p, int big_endian)
{
    return big_endian ? (uint32_t)p[0] << 8 | p[1] : (uint32_t)p[1] << 8 | p[0];
}

static int is_high(uint32_t u)
{
    return u >= 0xD800 && u <= 0xDBFF;
}

static int is_low(uint32_t u)
{
    return u >= 0xDC00 && u <= 0xDFFF;
}

size_t ref_utf16_next(const unsigned char *s, size_t n, int big_endian, uint32_t *cp,
                      enum ref_kind *kind)
{
    uint32_t u, u2;

    if (n == 0)
        return result(0, REF_TRUNCATED, 0, cp, kind);
    /* End of queue with a leading byte: one error (step 1). */
    if (n == 1)
        return result(1, REF_TRUNCATED, 0, cp, kind);
    u = unit(s, big_endian);
    if (is_low(u)) /* step 7 */
        return result(2, REF_SURROGATE, 0, cp, kind);
    if (!is_high(u)) /* step 8 */
        return result(2, REF_OK, u, cp, kind);
    /* A leading surrogate (step 6); what follows decides. */
    if (n == 2) /* end of queue with a leading surrogate: one error, a pair cut short */
        return result(2, REF_TRUNCATED, 0, cp, kind);
    if (n == 3) /* ... with a leading surrogate and a leading byte: still one error */
        return result(3, REF_TRUNCATED, 0, cp, kind);
    u2 = unit(s + 2, big_endian);
    if (is_low(u2)) /* step 5: a pair */
        return result(4, REF_OK, 0x10000 + ((u - 0xD800) << 10) + (u2 - 0xDC00), cp, kind);
    /* step 5: the lone high surrogate is the error; u2 is restored and decoded anew */
    return result(2, REF_SURROGATE, 0, cp, kind);
}

static void put_unit(unsigned char *p, uint32_t u, int big_endian)
{
    if (big_endian) {
        p[0] = (unsigned char)(u >> 8);
        p[1] = (unsigned char)(u & 0xFF);
    } else {
        p[0] = (unsigned char)(u & 0xFF);
        p[1] = (unsigned char)(u >> 8);
    }
}

size_t ref_utf16_encode(uint32_t cp, int big_endian, unsigned char out[4])
{
    if ((cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
        return 0;
    if (cp < 0x10000) {
        put_unit(out, cp, big_endian);
        return 2;
    }
    /* Unicode D91: U+10000..U+10FFFF as a high and a low surrogate */
    put_unit(out, 0xD800 + ((cp - 0x10000) >> 10), big_endian);
    put_unit(out + 2, 0xDC00 + ((cp - 0x10000) & 0x3FF), big_endian);
    return 4;
}
