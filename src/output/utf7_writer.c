/* SPDX-License-Identifier: MIT */
/* The UTF-7 writer's step (utf7_writer.h): one character's bytes. */
#include "output/utf7_writer.h"

/* The digit of a value: "," for "/" in IMAP. */
static uint8_t u7_digit_byte(const struct u7w *w, unsigned v)
{
    return w->imap ? utf7_imap_digit_byte[v] : utf7_digit_byte[v];
}

/* Inline in utfdfa__u7_put, where a run ends at every direct character
 * after it: a call there cost UTF-7 encoding 11%. */
static inline size_t u7_close(struct u7w *w, uint32_t next, uint8_t *p)
{
    size_t n = u7_close_len(w, next), k = 0;
    unsigned nb = w->shift >> 1;
    if (nb)
        p[k++] = u7_digit_byte(w, (w->bits << (6 - nb)) & 63);
    if (k < n)
        p[k++] = '-';
    w->shift = 0;
    w->bits = 0;
    return n;
}

size_t utfdfa__u7_close(struct u7w *w, uint32_t next, uint8_t *p)
{
    return u7_close(w, next, p);
}

size_t utfdfa__u7_put(struct u7w *w, uint32_t cp, uint8_t *p)
{
    size_t k = 0;
    if (u7_direct(cp, w->set_o, w->imap)) {
        k = u7_close(w, cp, p);
        p[k++] = (uint8_t)cp;
        return k;
    }
    if (cp == u7_shift_char(w) && (w->imap || !(w->shift & U7_OPEN))) {
        k = u7_close(w, cp, p);
        p[k++] = u7_shift_char(w);
        p[k++] = '-';
        return k;
    }
    if (!(w->shift & U7_OPEN))
        p[k++] = u7_shift_char(w);
    uint32_t units[2] = {cp, 0};
    size_t nunits = 1;
    if (cp >= 0x10000) {
        units[0] = 0xD800 | (cp - 0x10000) >> 10;
        units[1] = 0xDC00 | (cp & 0x3FF);
        nunits = 2;
    }
    uint32_t acc = w->bits;
    unsigned nb = w->shift >> 1;
    for (size_t u = 0; u < nunits; u++) {
        acc = acc << 16 | units[u];
        nb += 16;
        while (nb >= 6) {
            nb -= 6;
            p[k++] = u7_digit_byte(w, acc >> nb & 63);
        }
        acc &= (1u << nb) - 1;
    }
    w->shift = U7_OPEN | nb << 1;
    w->bits = acc;
    return k;
}
