/* SPDX-License-Identifier: MIT */
/* The UTF-7 writer (internal): RFC 2152 and IMAP's modified UTF-7. */
#ifndef UTFDFA_OUTPUT_UTF7_WRITER_H
#define UTFDFA_OUTPUT_UTF7_WRITER_H

#include "common.h"
#include "utf7.gen.h"
#include "utf7-imap.gen.h"
#include "encodings.gen.h"

#define U7_OPEN 1u
#define U7_END UINT32_MAX /* "the next character" at the end of input */

struct u7w {
    unsigned shift; /* U7_OPEN | bits left over << 1 (0, 2 or 4) */
    unsigned bits;  /* the bits left over */
    bool set_o;     /* UTFDFA_UTF7_DIRECT_SET_O */
    bool imap;      /* IMAP's modified UTF-7 (RFC 3501 section 5.1.3) */
};

/* ------------------------------------------------------------ UTF-7 writer
 * RFC 2152: Rule 1 (Set D directly, Set O optionally), Rule 3 (SP, TAB, CR,
 * LF directly), Rule 2 ("+-" for "+"; anything else as base64 of its UTF-16
 * units, zero bits padding the last character; "-" ends a run when the next
 * character is a base64 character or "-"; at the end of input always). The
 * base64 alphabet is the grammar's (utf7_digit_byte). Its state (an open
 * run and the bits left over) is kept between calls packed (output/writer.h);
 * the writer works on a copy. */
static inline bool u7_direct(uint32_t cp, bool set_o, bool imap)
{
    unsigned direct = imap ? UTF7_CLASS_IMAP_DIRECT
                           : UTF7_CLASS_DIRECT | (set_o ? UTF7_CLASS_SET_O : 0u);
    return cp < 0x80 && (utf7_ascii_class[cp] & direct) != 0;
}

/* The shift character. */
static inline uint8_t u7_shift_char(const struct u7w *w)
{
    return w->imap ? '&' : '+';
}

static inline size_t u7_close_len(const struct u7w *w, uint32_t next)
{
    if (!(w->shift & U7_OPEN))
        return 0;
    /* IMAP: "There is no implicit shift from BASE64 to US-ASCII". */
    bool dash = w->imap || next == U7_END || next == '-' ||
                (next < 0x80 && (utf7_ascii_class[next] & UTF7_CLASS_BASE64));
    return (w->shift >> 1 != 0) + dash;
}

/* Bytes cp takes given the writer's state; then write it (if it fits). */
static inline size_t u7_len(const struct u7w *w, uint32_t cp)
{
    if (u7_direct(cp, w->set_o, w->imap))
        return u7_close_len(w, cp) + 1;
    if (cp == u7_shift_char(w) && (w->imap || !(w->shift & U7_OPEN)))
        return u7_close_len(w, cp) + 2; /* IMAP: "&" is never base64 ("&-" can say it) */
    unsigned bits = (w->shift >> 1) + (cp < 0x10000 ? 16u : 32u);
    return !(w->shift & U7_OPEN) + bits / 6;
}

/* Writes cp's bytes at p (room for u7_len's count); returns it. One copy
 * in the library (utf7_writer.c): the encoder and the decoders' sinks call it. */
size_t utfdfa__u7_put(struct u7w *w, uint32_t cp, uint8_t *p);

/* Closes an open run before `next` (U7_END: at the end) at p (room for
 * u7_close_len's count); returns it. One copy, as utfdfa__u7_put, with the
 * alphabets. */
size_t utfdfa__u7_close(struct u7w *w, uint32_t next, uint8_t *p);

/* The UTF-7 forms, whose writer keeps state (an open base64 run): the
 * registry's rows of that writer. */
static inline bool is_utf7(unsigned enc)
{
    return utfdfa_row_utf7_writer(enc);
}

#endif /* UTFDFA_OUTPUT_UTF7_WRITER_H */
