/* SPDX-License-Identifier: MIT */
/* The encoder of a block of code points (encode/codes.h). */
#include "encode/codes.h"

/* Write codes[0..n) in `to` at o; stop before the first that does not fit.
 * Returns how many were written. The markers come only for the targets the
 * registry says (Corrected UTF-8's magic number and reserved units). */
ALWAYS_INLINE size_t write_codes(struct out *o, unsigned to, const uint32_t *codes, size_t n)
{
    size_t i = 0;
    for (; i < n; i++) {
        uint32_t cp = codes[i];
        if (utfdfa_row_code_markers(to) && cp >= CODE_RAW_BYTE) {
            size_t need = cp == CODE_MAGIC ? sizeof corrected_magic : 1;
            if (o->cap - o->len < need)
                break;
            if (cp == CODE_MAGIC)
                put_sig(o, SINK_BYTES, to);
            else
                ((uint8_t *)o->p)[o->len++] = (uint8_t)cp;
            continue;
        }
        if (o->cap - o->len < units_for(o, SINK_BYTES, to, cp))
            break;
        put(o, SINK_BYTES, to, cp);
    }
    return i;
}

/* The encoder's kernels (src/fast/) for the targets that hold every value
 * the block can carry for them: scalar values (WTF-8: surrogates too). */
static size_t encode_fast(struct out *o, enum fast_form form, const uint32_t *codes, size_t n)
{
    size_t written = 0;
    size_t k = utfdfa__cp_to_form(form, codes, n, (uint8_t *)o->p + o->len, o->cap - o->len,
                                  &written);
    o->len += written;
    return k;
}

/* The encoder: a kernel, or the writer specialised per target. Each case
 * knows its choice when compiled, so no writer is copied for a target the
 * kernels write. Called once a block, from another unit: the writers are
 * never copied into utfdfa_transcode's loop. */
size_t utfdfa__encode_codes(struct out *o, unsigned to, const uint32_t *codes, size_t n)
{
    switch (to) {
#define ENCODE_CASE(name, enc)                                                             \
    case enc:                                                                              \
        if (kernel_form(enc) >= 0)                                                         \
            break;                                                                         \
        return write_codes(o, enc, codes, n);
        UTFDFA_EACH_ENCODING(ENCODE_CASE)
#undef ENCODE_CASE
    default: /* none: utfdfa_transcode reads an unknown target as UCS-4BE */
        return 0;
    }
    return encode_fast(o, (enum fast_form)kernel_form(to), codes, n);
}

/* At the end of the stream: the "-" (and last digit) that close an open
 * UTF-7 run. false when there is no room. */
bool utfdfa__close_run(struct out *o, unsigned to)
{
    if (!is_utf7(to))
        return true;
    if (o->cap - o->len < u7_close_len(&o->w, U7_END))
        return false;
    o->len += utfdfa__u7_close(&o->w, U7_END, (uint8_t *)o->p + o->len);
    return true;
}

