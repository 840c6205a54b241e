/* SPDX-License-Identifier: MIT */
/* The writer's state between calls (internal): what an output side must
 * remember, kept in caller-owned memory as one packed byte. */
#ifndef UTFDFA_OUTPUT_WRITER_H
#define UTFDFA_OUTPUT_WRITER_H

#include "output/sink.h"

/* The state is struct out's writer fields (sink.h: UTF-7's run in w,
 * WTF-8's after_high) or, for UTF-16 and UTF-32 without a byte order,
 * "the BOM is written". Between calls it is one byte of 7 bits, tagged
 * with the target it is for so that a call to another target can close it
 * first (writer_target): the encoder's `writer` field, the decoder's low 7
 * bits of writer_src (decode/decoder.h), which utfdfa_transcode and
 * decode_utf32 to a WTF-8 target keep. 0: nothing to remember.
 *   bit 0 set: UTF-7's open run; WRITER_IMAP for IMAP's form; bits 2-6
 *     the bits left over (0, 2 or 4 of them) behind a marker bit above
 *     them: 1, 1bb or 1bbbb.
 *   bit 0 clear: WRITER_AFTER_HIGH (WTF-8's last code point was a high
 *     surrogate), WRITER_BOM16, WRITER_BOM32. */
#define WRITER_OPEN U7_OPEN
#define WRITER_IMAP 0x02u       /* with bit 0 */
#define WRITER_AFTER_HIGH 0x02u /* without bit 0 */
#define WRITER_BOM16 0x04u
#define WRITER_BOM32 0x08u
#define WRITER_MASK 0x7Fu
#define WRITER_LEFT_SHIFT 2 /* where UTF-7's marked bits left over begin */
_Static_assert((WRITER_OPEN | WRITER_IMAP | (1u << 4 | 15u) << WRITER_LEFT_SHIFT) <= WRITER_MASK,
               "UTF-7's writer state fits 7 bits");

/* The state for `to` from its packed byte (a corrupted one is read as a
 * state the writer can hold: 0, 2 or 4 bits left over in an open run, none
 * in a closed one, no stray bit in a digit). options: enum utfdfa_encoder_option. */
static inline void writer_unpack(struct out *o, unsigned to, unsigned options, unsigned packed)
{
    if (is_utf7(to)) {
        /* Bits are left over only in an open run: a closed one with bits
         * would write their digit at the end, where no room was asked. */
        unsigned marked = packed & WRITER_OPEN ? packed >> WRITER_LEFT_SHIFT : 1u;
        unsigned left = 2u * (marked >= 4u) + 2u * (marked >= 16u);
        struct u7w w = {(packed & WRITER_OPEN) | left << 1, marked & ((1u << left) - 1u),
                        options & UTFDFA_UTF7_DIRECT_SET_O, to == UTFDFA_UTF7_IMAP};
        o->w = w;
    } else {
        o->after_high = utfdfa_row_wobbly(to) && packed == WRITER_AFTER_HIGH;
    }
}

/* The packed byte of o's state for `to` (writer_unpack's inverse). */
static inline unsigned writer_pack(const struct out *o, unsigned to)
{
    if (is_utf7(to)) {
        if (!(o->w.shift & WRITER_OPEN))
            return 0;
        unsigned marked = 1u << (o->w.shift >> 1) | o->w.bits;
        return WRITER_OPEN | (to == UTFDFA_UTF7_IMAP ? WRITER_IMAP : 0u) |
               marked << WRITER_LEFT_SHIFT;
    }
    return utfdfa_row_wobbly(to) && o->after_high ? WRITER_AFTER_HIGH : 0u;
}

/* The packed "BOM written" of a target without a byte order. */
static inline unsigned writer_bom_written(unsigned to)
{
    return to == UTFDFA_UTF16 ? WRITER_BOM16 : WRITER_BOM32;
}

/* The target a packed state is for, or UTFDFA_NENCODINGS (none). */
static inline unsigned writer_target(unsigned packed)
{
    if (packed & WRITER_OPEN)
        return packed & WRITER_IMAP ? UTFDFA_UTF7_IMAP : UTFDFA_UTF7;
    switch (packed) {
    case WRITER_AFTER_HIGH:
        return UTFDFA_WTF8;
    case WRITER_BOM16:
        return UTFDFA_UTF16;
    case WRITER_BOM32:
        return UTFDFA_UTF32;
    default:
        return UTFDFA_NENCODINGS;
    }
}

#endif /* UTFDFA_OUTPUT_WRITER_H */
