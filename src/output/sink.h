/* SPDX-License-Identifier: MIT */
/* The output layer (internal): where characters go (the sinks), the room
 * an output has, the signature a BOM mode writes, and the end of a stream.
 * Shared by the decoders (src/decode/) and the encoders (src/encode/,
 * src/api/encoder.c); it knows neither. */
#ifndef UTFDFA_OUTPUT_SINK_H
#define UTFDFA_OUTPUT_SINK_H

#include "output/forms.h"
#include "output/limits.h"
#include "output/utf7_writer.h"

/* Where decoded characters go. */
/* SINK_CODES: code points for utfdfa_transcode's encoder (a block on its
 * stack), decided as for bytes of the target `to` (its limit, its writer's
 * rules); two things a code point cannot say travel as markers above any
 * value such a target accepts (Corrected UTF-8's limit is 0x8421109F): the
 * magic number, and a byte of a reserved unit passed through. */
enum sink { SINK_NONE, SINK_U32, SINK_U16, SINK_BYTES, SINK_CODES };
#define CODE_MAGIC 0xFFFFFFFFu
#define CODE_RAW_BYTE 0xFFFFFE00u

struct out {
    void *p;
    size_t cap; /* in units of the sink */
    size_t len;
    /* The writer's state (output/writer.h packs it between calls): */
    struct u7w w;    /* the UTF-7 writer, when the sink is UTF-7 bytes */
    bool after_high; /* WTF-8: a high surrogate was written last */
};

/* Units cp takes in a sink (cp is a scalar value). */
ALWAYS_INLINE size_t units_for(const struct out *o, enum sink sink, unsigned to, uint32_t cp)
{
    switch (sink) {
    case SINK_NONE:
        return 0;
    case SINK_U32:
    case SINK_CODES:
        return 1;
    case SINK_U16:
        return cp < 0x10000 ? 1 : 2;
    default:
        return is_utf7(to) ? u7_len(&o->w, cp) : bytes_for(to, cp);
    }
}

ALWAYS_INLINE void put(struct out *o, enum sink sink, unsigned to, uint32_t cp)
{
    switch (sink) {
    case SINK_NONE:
        break;
    case SINK_U32:
    case SINK_CODES:
        ((uint32_t *)o->p)[o->len++] = cp;
        o->after_high = is_high(cp); /* read only for a wobbly target (writer_refuses) */
        break;
    case SINK_U16:
        if (cp < 0x10000) {
            ((uint16_t *)o->p)[o->len++] = (uint16_t)cp;
        } else {
            ((uint16_t *)o->p)[o->len++] = (uint16_t)(0xD800 | (cp - 0x10000) >> 10);
            ((uint16_t *)o->p)[o->len++] = (uint16_t)(0xDC00 | (cp & 0x3FF));
        }
        break;
    default:
        if (is_utf7(to)) {
            o->len += utfdfa__u7_put(&o->w, cp, (uint8_t *)o->p + o->len);
            break;
        }
        put_bytes((uint8_t *)o->p + o->len, to, cp);
        o->len += bytes_for(to, cp);
        if (utfdfa_row_wobbly(to))
            o->after_high = is_high(cp);
        break;
    }
}

/* A byte of a Corrected UTF-8 reserved unit, passed through as it came. */
ALWAYS_INLINE void put_raw_byte(struct out *o, enum sink sink, uint8_t b)
{
    if (sink == SINK_CODES)
        ((uint32_t *)o->p)[o->len++] = CODE_RAW_BYTE | b;
    else
        ((uint8_t *)o->p)[o->len++] = b;
}

ALWAYS_INLINE bool room(const struct out *o, enum sink sink, size_t units)
{
    return sink == SINK_NONE || o->cap - o->len >= units;
}

/* The signature an output starts with under UTFDFA_BOM_ADD: U+FEFF, or
 * the magic number for the bytes of a row that has one (Corrected UTF-8). */
ALWAYS_INLINE bool sig_is_magic(enum sink sink, unsigned to)
{
    return (sink == SINK_BYTES || sink == SINK_CODES) && utfdfa_row_magic(to);
}

/* An output whose encoding cannot hold U+FEFF (ISO-8859-1) has no
 * signature: UTFDFA_BOM_ADD writes nothing there. */
ALWAYS_INLINE bool sig_none(enum sink sink, unsigned to)
{
    return (sink == SINK_BYTES || sink == SINK_CODES) && unfit(limit_of(to), BOM) != UTFDFA_ERR_NONE;
}

ALWAYS_INLINE size_t sig_units(const struct out *o, enum sink sink, unsigned to)
{
    if (sig_none(sink, to))
        return 0;
    if (sig_is_magic(sink, to))
        return sink == SINK_CODES ? 1 : sizeof corrected_magic;
    return units_for(o, sink, to, BOM);
}

/* Units that cps[0..n) take, after the signature when `sig`. In UTF-7 each
 * character's length depends on what came before: written to a scratch
 * buffer by a copy of the writer. */
ALWAYS_INLINE size_t units_after(const struct out *o, enum sink sink, unsigned to, bool sig,
                                 const uint32_t *cps, size_t n)
{
    size_t need = 0;
    if (sink == SINK_BYTES && is_utf7(to)) {
        struct u7w w = o->w;
        uint8_t scratch[8];
        if (sig)
            need += utfdfa__u7_put(&w, BOM, scratch);
        for (size_t k = 0; k < n; k++)
            need += utfdfa__u7_put(&w, cps[k], scratch);
        return need;
    }
    if (sig)
        need += sig_units(o, sink, to);
    for (size_t k = 0; k < n; k++)
        need += units_for(o, sink, to, cps[k]);
    return need;
}

ALWAYS_INLINE void put_sig(struct out *o, enum sink sink, unsigned to)
{
    if (sig_none(sink, to))
        return;
    if (sig_is_magic(sink, to) && sink == SINK_CODES) {
        ((uint32_t *)o->p)[o->len++] = CODE_MAGIC;
    } else if (sig_is_magic(sink, to)) {
        memcpy((uint8_t *)o->p + o->len, corrected_magic, sizeof corrected_magic);
        o->len += sizeof corrected_magic;
    } else {
        put(o, sink, to, BOM);
    }
}

/* What the BOM mode does with the first character of a stream (RFC 3629
 * section 6: a BOM is recognised only at the start): shared by the decoder
 * and the encoder. */
enum bom_action { BOM_PASS, BOM_DROP, BOM_PREPEND };

static inline enum bom_action bom_first(unsigned mode, uint32_t cp, bool magic_out)
{
    if (mode == UTFDFA_BOM_STRIP && cp == BOM)
        return BOM_DROP;
    if (mode == UTFDFA_BOM_ADD && (cp != BOM || magic_out))
        return BOM_PREPEND;
    return BOM_PASS;
}

/* The end of the stream: the signature still owed when nothing was decoded
 * at all, and an open UTF-7 run closed (always with "-" at the end). */
ALWAYS_INLINE bool end_output(struct out *o, enum sink sink, unsigned to, bool owe_bom)
{
    bool utf7 = sink == SINK_BYTES && is_utf7(to);
    size_t need = units_after(o, sink, to, owe_bom, NULL, 0);
    if (utf7) {
        struct u7w w = o->w;
        uint8_t scratch[8];
        if (owe_bom)
            utfdfa__u7_put(&w, BOM, scratch);
        need += u7_close_len(&w, U7_END);
    }
    if (!room(o, sink, need))
        return false;
    if (owe_bom)
        put_sig(o, sink, to);
    if (utf7)
        o->len += utfdfa__u7_close(&o->w, U7_END, (uint8_t *)o->p + o->len);
    return true;
}

#endif /* UTFDFA_OUTPUT_SINK_H */
