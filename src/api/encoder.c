/* SPDX-License-Identifier: MIT */
/* utfdfa_encode: code points to bytes, with the decoder's error and BOM
 * rules. */
#include "decode/byte_order.h"

/* The encoder's state: the caller's 16 bytes of utfdfa_encoder, copied in
 * and out as the decoder's are. All zero is strict UTF-8, BOM kept. */
struct encoder {
    uint64_t offset;  /* code points consumed so far */
    uint8_t to;       /* output encoding */
    uint8_t errors;   /* enum utfdfa_error_mode */
    uint8_t bom;      /* enum utfdfa_bom, applied to the first code point */
    uint8_t started;  /* a code point has been written (or dropped) */
    uint8_t replaced; /* an error was replaced or dropped */
    uint8_t writer;   /* the writer's state, packed (output/writer.h) */
    uint8_t reserved; /* zero; keeps the fields after it where they were */
    uint8_t options;  /* enum utfdfa_encoder_option */
};
_Static_assert(sizeof(struct encoder) == sizeof(utfdfa_encoder) &&
                   _Alignof(struct encoder) <= _Alignof(utfdfa_encoder),
               "the encoder's state fits the public type");

static struct encoder load_encoder(const utfdfa_encoder *enc)
{
    struct encoder e;
    memcpy(&e, enc, sizeof e);
    return e;
}

void utfdfa_encoder_init(utfdfa_encoder *enc, enum utfdfa_encoding to,
                         enum utfdfa_error_mode mode, enum utfdfa_bom bom)
{
    struct encoder e = {0};
    e.to = (uint8_t)to;
    e.errors = (uint8_t)mode;
    e.bom = (uint8_t)bom;
    memcpy(enc, &e, sizeof e);
}

void utfdfa_encoder_set_options(utfdfa_encoder *enc, unsigned options)
{
    struct encoder e = load_encoder(enc);
    e.options = (uint8_t)(options & OPTIONS);
    memcpy(enc, &e, sizeof e);
}

/* As in the decoder, an error is the stream's first item when nothing came
 * before it: the BOM mode is spent on it, and a BOM owed is written first
 * (with room for a U+FFFD too). false when there is no room. */
static bool start_with_error(struct encoder *e, struct out *o, unsigned to)
{
    const uint32_t replacement = replacement_for(limit_of(to));
    bool owe_bom = e->bom == UTFDFA_BOM_ADD;
    bool replacing = e->errors != UTFDFA_STRICT && e->errors != UTFDFA_IGNORE;
    if (!room(o, SINK_BYTES, units_after(o, SINK_BYTES, to, owe_bom, &replacement, replacing)))
        return false;
    if (owe_bom)
        put_sig(o, SINK_BYTES, to);
    e->started = 1;
    return true;
}

/* The longest run of src that is scalar values (no surrogate, none above
 * U+10FFFF: what every kernel form holds) and fits o, written by the
 * kernels: src is the host's UTF-32, so the UTF-32 decoder's kernel finds
 * the run and the encoder's writes it, or a fused kernel does both.
 * Returns the code points written. */
NOINLINE static size_t encode_scalars(enum fast_form form, const uint32_t *src, size_t n,
                                     struct out *o)
{
    const uint8_t *bytes = (const uint8_t *)src;
    uint8_t *dst = (uint8_t *)o->p + o->len;
    size_t room = o->cap - o->len, done = 0, written = 0;
    if (utfdfa__wide_fused(FORM_HOST_UTF32, form)) {
        done = utfdfa__wide_transcode(FORM_HOST_UTF32, form, bytes, 4 * n, dst, room, &written) / 4;
    } else {
        uint32_t scratch[256]; /* the decoder kernel's copy, unread: 1 KiB of stack */
        size_t valid, k, got;
        do { /* 256 code points at a time, while a whole block goes */
            utfdfa__utf32_to_cp(FORM_HOST_UTF32, bytes + 4 * done, 4 * (n - done), scratch, 256, &valid);
            k = utfdfa__cp_to_form(form, src + done, valid, dst + written, room - written, &got);
            done += k;
            written += got;
        } while (k == 256 && done < n);
    }
    o->len += written;
    return done;
}

/* The kernels' turn in utfdfa_encode's loop, at src[0..n): what they
 * wrote, and in *wait how far the loop goes before their next turn: to the
 * next code point after a run of KERNEL_WAIT or more, else longer each
 * short run in a row (fast/kernels.h: the decoders' rule too). Out of
 * line: inline, it slowed the loop's own path by 18%. */
NOINLINE static size_t kernel_turn(enum fast_form form, const uint32_t *src, size_t n,
                                   struct out *o, size_t *wait)
{
    size_t k = encode_scalars(form, src, n, o);
    if (k)
        o->after_high = false; /* WTF-8: what it wrote last is no surrogate */
    *wait = k >= KERNEL_WAIT ? 1 : kernel_wait_after_short(*wait);
    return k;
}

/* Into UTF-16 or UTF-32 without a byte order (decode/byte_order.h): the
 * little-endian encoder, a BOM before what it writes first. */
static utfdfa_result encode_unordered(utfdfa_encoder *enc, const uint32_t *src, size_t *src_len,
                                      uint8_t *dst, size_t *dst_len, bool last,
                                      utfdfa_error *err)
{
    struct encoder e = load_encoder(enc), inner = e;
    utfdfa_encoder little;
    inner.to = (uint8_t)little_endian_of(e.to);
    inner.writer = 0;
    memcpy(&little, &inner, sizeof inner);
    utfdfa_result r;
    bool written = e.writer == writer_bom_written(e.to);
    if (e.bom == UTFDFA_BOM_ADD || written) {
        r = utfdfa_encode(&little, src, src_len, dst, dst_len, last, err);
    } else {
        size_t bom = utfdfa_unit_size((enum utfdfa_encoding)e.to), len;
        uint8_t *text = after_bom(dst, *dst_len, bom, &len);
        r = utfdfa_encode(&little, src, src_len, text, &len, last, err);
        written = len != 0;
        *dst_len = with_bom(dst, bom, len);
    }
    inner = load_encoder(&little);
    inner.to = e.to;
    inner.writer = (uint8_t)(written ? writer_bom_written(e.to) : 0);
    memcpy(enc, &inner, sizeof inner);
    return r;
}

utfdfa_result utfdfa_encode(utfdfa_encoder *enc, const uint32_t *src, size_t *src_len,
                            uint8_t *dst, size_t *dst_len, bool last, utfdfa_error *err)
{
    struct encoder state = load_encoder(enc), *e = &state;
    if (is_unordered(e->to))
        return encode_unordered(enc, src, src_len, dst, dst_len, last, err);
    size_t i = 0, n = *src_len;
    utfdfa_result r = UTFDFA_INPUT_EMPTY;
    unsigned to = known_target(e->to);
    dst = REAL_ADDRESS(dst, *dst_len);
    unsigned limit = limit_of(to);
    struct out o = {dst, *dst_len, 0, {0, 0, false, false}, false};
    writer_unpack(&o, to, e->options, e->writer);
    int form = kernel_form(to);
    size_t fast_at = form >= 0 ? 0 : SIZE_MAX, wait = 1; /* the kernels' next turn */
    for (; i < n; i++) {
        if (i >= fast_at && e->started) {
            i += kernel_turn((enum fast_form)form, src + i, n - i, &o, &wait);
            fast_at = i + wait;
            if (i == n)
                break;
        }
        uint32_t cp = src[i];
        enum utfdfa_error_kind kind = writer_refuses(limit, e->options, o.after_high, &cp);
        if (kind != UTFDFA_ERR_NONE) {
            /* e.g. RFC 3629 section 3: never a surrogate ("CESU") or a 5-byte form. */
            if (!e->started && !start_with_error(e, &o, to)) {
                r = UTFDFA_OUTPUT_FULL;
                break;
            }
            if (e->errors == UTFDFA_STRICT) {
                if (err)
                    report(err, e->offset + i, 1, kind);
                i++;
                r = UTFDFA_MALFORMED;
                break;
            }
            e->replaced = 1;
            if (e->errors == UTFDFA_IGNORE)
                continue;
            cp = replacement_for(limit);
        }
        enum bom_action act =
            e->started ? BOM_PASS : bom_first(e->bom, cp, utfdfa_row_magic(to));
        if (act != BOM_DROP &&
            !room(&o, SINK_BYTES, units_after(&o, SINK_BYTES, to, act == BOM_PREPEND, &cp, 1))) {
            r = UTFDFA_OUTPUT_FULL;
            break;
        }
        e->started = 1;
        if (act == BOM_PREPEND)
            put_sig(&o, SINK_BYTES, to);
        if (act != BOM_DROP)
            put(&o, SINK_BYTES, to, cp);
    }
    if (r == UTFDFA_INPUT_EMPTY && last) {
        bool owe_bom = !e->started && e->bom == UTFDFA_BOM_ADD;
        if (!end_output(&o, SINK_BYTES, to, owe_bom))
            r = UTFDFA_OUTPUT_FULL;
        else if (owe_bom)
            e->started = 1;
    }
    e->writer = (uint8_t)writer_pack(&o, to);
    e->offset += i;
    memcpy(enc, e, sizeof *e);
    *src_len = i;
    *dst_len = o.len;
    return r;
}
