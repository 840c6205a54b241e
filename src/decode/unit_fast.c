/* SPDX-License-Identifier: MIT */
/* The unit kernels (src/fast/) where a UTF-16 or UTF-32 source's output is
 * not code points: utfdfa_check, and decode_utf16 by the fused kernel into
 * the host's UTF-16. The public calls (src/api/decoder.c) run them before
 * the decoder instance, so that no instance carries a copy. */
#include "decode/convert.h"

size_t utfdfa__unit_check(enum fast_form form, const uint8_t *src, size_t n)
{
    uint32_t scratch[256]; /* the kernel's code points, unread: 1 KiB of stack */
    size_t done = 0, k, written;
    do {
        k = form <= FORM_UTF16BE
                ? utfdfa__utf16_to_cp(form, src + done, n - done, scratch, 256, &written)
                : utfdfa__utf32_to_cp(form, src + done, n - done, scratch, 256, &written);
        done += k;
    } while (k > 0 && done < n); /* it read nothing: before an error or a cut unit */
    return done;
}

size_t utfdfa__unit_to_utf16(enum fast_form form, const uint8_t *src, size_t n, uint16_t *dst,
                             size_t cap, size_t *written)
{
    const enum fast_form host = FORM_HOST_UTF16;
    size_t bytes = 0, k = 0;
    if (utfdfa__wide_fused(form, host))
        k = utfdfa__wide_transcode(form, host, src, n, (uint8_t *)dst, 2 * cap, &bytes);
    *written = bytes / 2;
    return k;
}
