/* SPDX-License-Identifier: MIT */
/* The scalar kernels: the reference every SIMD level is tested against, the
 * level of non-x86 builds, and the tails of the SIMD loops. Plain loops, one
 * unit or code point at a time. */
#include "levels.h"

/* Each body is inlined once per form (or pair of forms) by a switch, so
 * that the unit loads and stores are not switches themselves. */
KERN_INLINE size_t scalar_ascii_body(enum fast_form from, enum fast_form to, const uint8_t *src,
                                     size_t src_len, uint8_t *dst, size_t dst_len)
{
    size_t uf = kern_unit(from), ut = kern_unit(to);
    size_t n = kern_min(src_len / uf, dst_len / ut), i = 0;
    if (from == FORM_UTF8) {
        /* Eight bytes a step where they are all ASCII. */
        for (; n - i >= 8; i += 8) {
            uint64_t w;
            memcpy(&w, src + i, 8);
            if (w & 0x8080808080808080u)
                break;
            if (to == FORM_UTF8)
                memcpy(dst + i, &w, 8);
            else
                for (size_t k = 0; k < 8; k++)
                    kern_store_unit(to, dst + (i + k) * ut, src[i + k]);
        }
    }
    for (; i < n; i++) {
        uint32_t u = kern_load_unit(from, src + i * uf);
        if (u > 0x7F)
            break;
        kern_store_unit(to, dst + i * ut, u);
    }
    return i;
}

size_t utfdfa__scalar_ascii_copy(enum fast_form from, enum fast_form to, const uint8_t *src,
                                 size_t src_len, uint8_t *dst, size_t dst_len)
{
    switch (KERN_PAIR(from, to)) {
#define SCALAR_ASCII_CASE(F, T) \
    case KERN_PAIR(F, T): return scalar_ascii_body(F, T, src, src_len, dst, dst_len);
        KERN_EACH_PAIR(SCALAR_ASCII_CASE)
#undef SCALAR_ASCII_CASE
    }
    return 0;
}

KERN_INLINE size_t scalar_utf16_body(enum fast_form from, const uint8_t *src, size_t src_len,
                                     uint32_t *dst, size_t cap, size_t *written)
{
    size_t i = 0, w = 0;
    while (src_len - i >= 2 && w < cap) {
        uint32_t u = kern_load_unit(from, src + i);
        if (u < 0xD800 || u > 0xDFFF) {
            kern_put_cp(dst, w++, u);
            i += 2;
            continue;
        }
        if (u > 0xDBFF || src_len - i < 4)
            break; /* a lone low surrogate, or a high one at the end */
        uint32_t low = kern_load_unit(from, src + i + 2);
        if (low < 0xDC00 || low > 0xDFFF)
            break; /* a lone high surrogate */
        kern_put_cp(dst, w++, 0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00));
        i += 4;
    }
    *written = w;
    return i;
}

size_t utfdfa__scalar_utf16_to_cp(enum fast_form from, const uint8_t *src, size_t src_len,
                                  uint32_t *dst, size_t cap, size_t *written)
{
    if (from == FORM_UTF16BE)
        return scalar_utf16_body(FORM_UTF16BE, src, src_len, dst, cap, written);
    return scalar_utf16_body(FORM_UTF16LE, src, src_len, dst, cap, written);
}

KERN_INLINE size_t scalar_utf32_body(enum fast_form from, const uint8_t *src, size_t src_len,
                                     uint32_t *dst, size_t cap, size_t *written)
{
    size_t n = kern_min(src_len / 4, cap), i = 0;
    for (; i < n; i++) {
        uint32_t u = kern_load_unit(from, src + i * 4);
        if (u > 0x10FFFF || (u >= 0xD800 && u <= 0xDFFF))
            break;
        kern_put_cp(dst, i, u);
    }
    *written = i;
    return i * 4;
}

size_t utfdfa__scalar_utf32_to_cp(enum fast_form from, const uint8_t *src, size_t src_len,
                                  uint32_t *dst, size_t cap, size_t *written)
{
    if (from == FORM_UTF32BE)
        return scalar_utf32_body(FORM_UTF32BE, src, src_len, dst, cap, written);
    return scalar_utf32_body(FORM_UTF32LE, src, src_len, dst, cap, written);
}

/* Writes c in UTF-8 at dst if its bytes fit `room`; returns how many (0: no room). */
static size_t scalar_put_utf8(uint8_t *dst, size_t room, uint32_t c)
{
    size_t len = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
    if (len > room)
        return 0;
    switch (len) {
    case 1: dst[0] = (uint8_t)c; break;
    case 2: dst[0] = (uint8_t)(0xC0 | c >> 6); dst[1] = (uint8_t)(0x80 | (c & 0x3F)); break;
    case 3:
        dst[0] = (uint8_t)(0xE0 | c >> 12);
        dst[1] = (uint8_t)(0x80 | (c >> 6 & 0x3F));
        dst[2] = (uint8_t)(0x80 | (c & 0x3F));
        break;
    default:
        dst[0] = (uint8_t)(0xF0 | c >> 18);
        dst[1] = (uint8_t)(0x80 | (c >> 12 & 0x3F));
        dst[2] = (uint8_t)(0x80 | (c >> 6 & 0x3F));
        dst[3] = (uint8_t)(0x80 | (c & 0x3F));
        break;
    }
    return len;
}

/* Writes c in UTF-16 (one unit or a pair) if it fits `room`; returns bytes (0: no room). */
static size_t scalar_put_utf16(enum fast_form to, uint8_t *dst, size_t room, uint32_t c)
{
    if (c < 0x10000) {
        if (room < 2)
            return 0;
        kern_store_unit(to, dst, c);
        return 2;
    }
    if (room < 4)
        return 0;
    kern_store_unit(to, dst, 0xD800 + ((c - 0x10000) >> 10));
    kern_store_unit(to, dst + 2, 0xDC00 + (c & 0x3FF));
    return 4;
}

KERN_INLINE size_t scalar_cp_body(enum fast_form to, const uint32_t *src, size_t n, uint8_t *dst,
                                  size_t dst_len, size_t *written)
{
    size_t i = 0, w = 0;
    for (; i < n; i++) {
        uint32_t c = kern_get_cp(src, i);
        size_t len;
        if (to == FORM_UTF8)
            len = scalar_put_utf8(dst + w, dst_len - w, c);
        else if (to == FORM_UTF16LE || to == FORM_UTF16BE)
            len = scalar_put_utf16(to, dst + w, dst_len - w, c);
        else {
            len = dst_len - w >= 4 ? 4 : 0;
            if (len)
                kern_store_unit(to, dst + w, c);
        }
        if (len == 0)
            break;
        w += len;
    }
    *written = w;
    return i;
}

size_t utfdfa__scalar_cp_to_form(enum fast_form to, const uint32_t *src, size_t n, uint8_t *dst,
                                 size_t dst_len, size_t *written)
{
    switch (to) {
    case FORM_UTF8: return scalar_cp_body(FORM_UTF8, src, n, dst, dst_len, written);
    case FORM_UTF16LE: return scalar_cp_body(FORM_UTF16LE, src, n, dst, dst_len, written);
    case FORM_UTF16BE: return scalar_cp_body(FORM_UTF16BE, src, n, dst, dst_len, written);
    case FORM_UTF32LE: return scalar_cp_body(FORM_UTF32LE, src, n, dst, dst_len, written);
    case FORM_UTF32BE: return scalar_cp_body(FORM_UTF32BE, src, n, dst, dst_len, written);
    }
    *written = 0;
    return 0;
}

/* One character of `to` at dst if it fits `room`; returns bytes (0: no room). */
static size_t scalar_put(enum fast_form to, uint8_t *dst, size_t room, uint32_t c)
{
    if (to == FORM_UTF8)
        return scalar_put_utf8(dst, room, c);
    if (to == FORM_UTF16LE || to == FORM_UTF16BE)
        return scalar_put_utf16(to, dst, room, c);
    if (room < 4)
        return 0;
    kern_store_unit(to, dst, c);
    return 4;
}

/* A unit at a time, inlined once per source form; the target is a call. */
KERN_INLINE size_t scalar_wide_body(enum fast_form from, enum fast_form to, const uint8_t *src,
                                    size_t src_len, uint8_t *dst, size_t dst_len,
                                    size_t *written)
{
    size_t unit = kern_unit(from), i = 0, w = 0;
    while (src_len - i >= unit) {
        uint32_t c = kern_load_unit(from, src + i);
        size_t used = unit;
        if (c >= 0xD800 && c <= 0xDFFF) {
            if (unit == 4 || c > 0xDBFF || src_len - i < 4)
                break; /* a UTF-32 surrogate, a lone low one, a high one at the end */
            uint32_t low = kern_load_unit(from, src + i + 2);
            if (low < 0xDC00 || low > 0xDFFF)
                break; /* a lone high surrogate */
            c = 0x10000 + ((c - 0xD800) << 10) + (low - 0xDC00);
            used = 4;
        } else if (c > 0x10FFFF) {
            break;
        }
        size_t len = scalar_put(to, dst + w, dst_len - w, c);
        if (len == 0)
            break;
        i += used;
        w += len;
    }
    *written = w;
    return i;
}

size_t utfdfa__scalar_wide_transcode(enum fast_form from, enum fast_form to, const uint8_t *src,
                                     size_t src_len, uint8_t *dst, size_t dst_len,
                                     size_t *written)
{
    switch (from) {
    case FORM_UTF16LE: return scalar_wide_body(FORM_UTF16LE, to, src, src_len, dst, dst_len, written);
    case FORM_UTF16BE: return scalar_wide_body(FORM_UTF16BE, to, src, src_len, dst, dst_len, written);
    case FORM_UTF32LE: return scalar_wide_body(FORM_UTF32LE, to, src, src_len, dst, dst_len, written);
    case FORM_UTF32BE: return scalar_wide_body(FORM_UTF32BE, to, src, src_len, dst, dst_len, written);
    default: break;
    }
    *written = 0;
    return 0;
}

/* One unit's share of utfdfa__count (kernels.h). */
KERN_INLINE uint64_t scalar_count_unit(enum fast_form f, enum fast_count what, uint32_t u)
{
    if (f == FORM_UTF8)
        return what == COUNT_UTF8 ? 1 : ((u & 0xC0) != 0x80) + (what == COUNT_UTF16 && u >= 0xF0);
    if (f <= FORM_UTF16BE)
        return what == COUNT_CPS ? (u & 0xFC00) != 0xDC00
               : what == COUNT_UTF16 ? 1
                                     : 1u + (u >= 0x80) + (u >= 0x800 && (u & 0xF800) != 0xD800);
    return what == COUNT_CPS ? 1
           : what == COUNT_UTF16 ? 1u + (u >= 0x10000)
                                 : 1u + (u >= 0x80) + (u >= 0x800) + (u >= 0x10000);
}

KERN_INLINE uint64_t scalar_count_body(enum fast_form f, enum fast_count what, const uint8_t *src,
                                       size_t len)
{
    size_t unit = kern_unit(f);
    uint64_t n = 0;
    for (size_t i = 0; i + unit <= len; i += unit)
        n += scalar_count_unit(f, what, kern_load_unit(f, src + i));
    return n;
}

uint64_t utfdfa__scalar_count(enum fast_form from, enum fast_count what, const uint8_t *src,
                              size_t len)
{
    switch (from) {
    case FORM_UTF8: return scalar_count_body(FORM_UTF8, what, src, len);
    case FORM_UTF16LE: return scalar_count_body(FORM_UTF16LE, what, src, len);
    case FORM_UTF16BE: return scalar_count_body(FORM_UTF16BE, what, src, len);
    case FORM_UTF32LE: return scalar_count_body(FORM_UTF32LE, what, src, len);
    case FORM_UTF32BE: return scalar_count_body(FORM_UTF32BE, what, src, len);
    }
    return 0;
}

const struct fast_kernels utfdfa__fast_scalar = {
    "scalar", utfdfa__scalar_ascii_copy, utfdfa__scalar_utf16_to_cp, utfdfa__scalar_utf32_to_cp,
    utfdfa__scalar_cp_to_form, utfdfa__scalar_wide_transcode, 0, utfdfa__scalar_utf7_b64,
    utfdfa__scalar_utf7_text, utfdfa__scalar_count,
};
