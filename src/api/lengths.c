/* SPDX-License-Identifier: MIT */
/* Exact sizes: the code points, UTF-8 bytes and UTF-16/UTF-32 units that a
 * whole input decodes to in replace mode. UTF-8, UTF-16 and UTF-32 (either
 * byte order, or decided by a BOM) are validated by the kernels and the
 * valid stretches counted by the counting kernel (src/fast/kernels.h), each
 * error one U+FFFD; the other encodings are decoded, replacing, into code
 * points on the stack and those counted. */
#include "common.h"
#include "decode/byte_order.h"
#include "fast/kernels.h"
#include "utfdfa.h"

#include <string.h>

/* One code point's share: replace mode writes U+FFFD (3 bytes, 1 unit)
 * where the target cannot hold the value (a surrogate, above U+10FFFF). */
static uint64_t cp_share(enum fast_count what, uint32_t c)
{
    bool scalar = c <= 0x10FFFF && (c < 0xD800 || c > 0xDFFF);
    if (what == COUNT_CPS)
        return 1;
    if (what == COUNT_UTF16)
        return 1u + (scalar && c > 0xFFFF);
    return !scalar ? 3 : c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
}

/* src[0..len) by the replacing decoder (for a window, src[0..len) ends at a
 * character boundary): the sum of its code points' shares. */
static uint64_t count_decoded(enum utfdfa_encoding from, enum fast_count what, const uint8_t *src,
                              size_t len)
{
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, from, UTFDFA_REPLACE, UTFDFA_BOM_KEEP);
    uint32_t cps[2048]; /* as utfdfa_transcode's block: the decoder's call costs a slab */
    uint64_t total = 0;
    for (;;) {
        size_t n = len, m = sizeof cps / sizeof *cps;
        utfdfa_error e;
        utfdfa_result r = utfdfa_decode_utf32(&d, src, &n, cps, &m, true, &e);
        for (size_t i = 0; i < m; i++)
            total += cp_share(what, cps[i]);
        src += n;
        len -= n;
        if (r == UTFDFA_INPUT_EMPTY)
            return total;
    }
}

/* Where a window of about `win` bytes from src (an error's start, so a
 * character boundary) may end: at a boundary too, where decoding afresh
 * is decoding on. In UTF-8 any byte that is not 80-BF (a maximal subpart
 * never takes one); in UTF-16 any unit but a low surrogate (errors keep
 * the units aligned); in UTF-32 any unit. */
static size_t window_end(enum fast_form form, const uint8_t *src, size_t len, size_t win)
{
    size_t end = win;
    if (end >= len)
        return len;
    if (form == FORM_UTF8) {
        while (end < len && (src[end] & 0xC0) == 0x80)
            end++;
    } else if (form == FORM_UTF16LE || form == FORM_UTF16BE) {
        if (len - end < 2)
            return len;
        uint8_t hi = form == FORM_UTF16LE ? src[end + 1] : src[end];
        if ((hi & 0xFC) == 0xDC)
            end = len - end < 4 ? len : end + 2;
    }
    return end;
}

/* src[0..len) of `from`, a UTF-8, UTF-16 or UTF-32 form: the valid stretch
 * up to each error counted by the kernel, then a window from the error by
 * the replacing decoder: 64 bytes, twice as many after each window that
 * the next error follows within as many bytes (up to 64 KiB), so that
 * dense errors (random bytes) go at the decoder's speed, not a validation
 * (which reads a block ahead) each. */
static uint64_t count_form(enum utfdfa_encoding from, enum fast_form form, enum fast_count what,
                           const uint8_t *src, size_t len)
{
    uint64_t total = 0;
    size_t win = 64;
    for (;;) {
        size_t ok = utfdfa_validate(from, src, len, NULL);
        total += utfdfa__count(form, what, src, ok);
        if (ok == len)
            return total;
        win = ok >= win ? 64 : win < ((size_t)1 << 16) ? 2 * win : win;
        src += ok;
        len -= ok;
        size_t end = window_end(form, src, len, win);
        total += count_decoded(from, what, src, end);
        src += end;
        len -= end;
        if (len == 0)
            return total;
    }
}

/* The form of a source whose valid text is exactly the scalar values in
 * it (the validating and counting kernels read it), or -1. */
static int scalar_form(enum utfdfa_encoding from)
{
#define FORM_CASE(form, encodings) encodings return FORM_##form;
    switch (from) {
        UTFDFA_SCALAR_SOURCE_FORMS(FORM_CASE)
    default:
        return -1;
    }
#undef FORM_CASE
}

static uint64_t count(enum utfdfa_encoding from, enum fast_count what, const uint8_t *src,
                      size_t len);

/* UTF-16 or UTF-32 without a byte order: its first unit decides, a BOM
 * being a signature, as the decoder's own sniff decides it
 * (src/decode/byte_order.h), the whole input being there. */
static uint64_t count_unordered(enum utfdfa_encoding from, enum fast_count what,
                                const uint8_t *src, size_t len)
{
    struct decoder d = {0}; /* fresh, the BOM kept: the sniff reads only the source */
    set_source(&d, from);
    struct out none = {NULL, 0, 0, {0, 0, false, false}, false};
    const struct call c = {&d, &none, SINK_NONE, from, UTFDFA_UTF8, true, NULL};
    size_t bom = len;
    utfdfa_result unused;
    utfdfa__byte_order_resolve(&c, src, &bom, &unused); /* decides, `last` being set */
    src = (const uint8_t *)((uintptr_t)src + bom); /* src may be NULL (bom is 0 then) */
    return count((enum utfdfa_encoding)source_of(&d), what, src, len - bom);
}

static uint64_t count(enum utfdfa_encoding from, enum fast_count what, const uint8_t *src,
                      size_t len)
{
    src = REAL_ADDRESS(src, len); /* (NULL, 0) is an empty input: no arithmetic on NULL */
    int form = scalar_form(from);
    if (form >= 0)
        return count_form(from, (enum fast_form)form, what, src, len);
    if (is_unordered(from))
        return count_unordered(from, what, src, len);
    return count_decoded(from, what, src, len);
}

static bool fits(uint64_t n, size_t *out)
{
    if (n > SIZE_MAX)
        return false;
    *out = (size_t)n;
    return true;
}

size_t utfdfa_code_points(enum utfdfa_encoding from, const uint8_t *src, size_t src_len)
{
    return (size_t)count(from, COUNT_CPS, src, src_len); /* at most one a byte */
}

bool utfdfa_utf8_len(enum utfdfa_encoding from, const uint8_t *src, size_t src_len, size_t *out)
{
    return fits(count(from, COUNT_UTF8, src, src_len), out);
}

bool utfdfa_utf16_len(enum utfdfa_encoding from, const uint8_t *src, size_t src_len, size_t *out)
{
    return fits(count(from, COUNT_UTF16, src, src_len), out);
}

bool utfdfa_utf32_len(enum utfdfa_encoding from, const uint8_t *src, size_t src_len, size_t *out)
{
    return fits(count(from, COUNT_CPS, src, src_len), out);
}

const char *utfdfa_kernel_name(void)
{
    return utfdfa__fast_level_name();
}
