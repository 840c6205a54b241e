/* SPDX-License-Identifier: MIT */
/* The public decoding functions: each loads the caller's state, runs the
 * decoder of its source (src/decode/convert_from.c, one unit per source)
 * into its sink, and stores the state back. */
#include "decode/byte_order.h"
#include "decode/convert.h"

void utfdfa_decoder_init(utfdfa_decoder *dec, enum utfdfa_encoding from,
                         enum utfdfa_error_mode mode, enum utfdfa_bom bom)
{
    struct decoder d = {0};
    d.config = (uint8_t)(((unsigned)from & 15u) | ((unsigned)mode & 3u) << 4);
    d.flags = (uint8_t)(((unsigned)bom & 3u) << 5);
    store_decoder(dec, &d);
}

void utfdfa_decoder_set_target(utfdfa_decoder *dec, enum utfdfa_encoding to)
{
    struct decoder d = load_decoder(dec);
    set_limit_field(&d, limit_of(to));
    store_decoder(dec, &d);
}

void utfdfa_decoder_set_options(utfdfa_decoder *dec, unsigned options)
{
    struct decoder d = load_decoder(dec);
    set_options(&d, options & OPTIONS);
    store_decoder(dec, &d);
}

bool utfdfa_decoder_replaced(const utfdfa_decoder *dec)
{
    return (load_decoder(dec).flags & F_REPLACED) != 0;
}

enum utfdfa_encoding utfdfa_decoder_encoding(const utfdfa_decoder *dec)
{
    return (enum utfdfa_encoding)FROM(load_decoder(dec).config);
}

uint64_t utfdfa_decoder_offset(const utfdfa_decoder *dec)
{
    return load_decoder(dec).offset;
}

/* The unit of the decoder's source; an out-of-range source (only a
 * corrupted decoder has one) is read as UCS-4BE, as any value is. */
utfdfa_result utfdfa__convert_any(struct decoder *d, const uint8_t *src, size_t *src_len,
                                  struct out *o, enum sink sink, unsigned to, bool last,
                                  utfdfa_error *err)
{
    src = REAL_ADDRESS(src, *src_len);
    o->p = REAL_ADDRESS(o->p, o->cap);
    if (is_unordered(FROM(d->config))) { /* the BOM decides the source first */
        size_t used = *src_len, rest;
        utfdfa_result r;
        if (!utfdfa__byte_order_resolve(d, src, &used, o, sink, to, last, &r)) {
            *src_len = used;
            return r;
        }
        rest = *src_len - used;
        r = utfdfa__convert_any(d, src + used, &rest, o, sink, to, last, err);
        *src_len = used + rest;
        return r;
    }
    switch (FROM(d->config)) {
#define CONVERT_FROM_CASE(name, enc)                                                       \
    case enc:                                                                              \
        return utfdfa__convert_from_##name(d, src, src_len, o, sink, to, last, err);
        UTFDFA_EACH_ENCODING(CONVERT_FROM_CASE)
#undef CONVERT_FROM_CASE
    default:
        return utfdfa__convert_from_ucs4be(d, src, src_len, o, sink, to, last, err);
    }
}

utfdfa_result utfdfa_check(utfdfa_decoder *dec, const uint8_t *src, size_t *src_len, bool last,
                           utfdfa_error *err)
{
    struct decoder d = load_decoder(dec);
    struct out o = {NULL, 0, 0, {0, 0, false, false}, false};
    utfdfa_result r = utfdfa__convert_any(&d, src, src_len, &o, SINK_NONE, UTFDFA_UTF8, last, err);
    store_decoder(dec, &d);
    return r;
}

/* The direct entry of utfdfa_decode_utf32: a UTF-8 decoder past any BOM
 * decision, into code points that hold every scalar value (WTF-8's writer
 * flag is left to the general path), takes the fast path's first step
 * (convert.h's fast_step) without the layers between; what it leaves, the
 * last chunk's end included, goes the general way. */
ALWAYS_INLINE bool direct_utf8(const struct decoder *d)
{
    return FROM(d->config) == UTFDFA_UTF8 && fast_ok(d, UTFDFA_UTF8, SINK_U32, UTFDFA_UTF8) &&
           limit_field(d) != LIMIT_WTF8;
}

/* The direct step over src[0..n) into dst[0..cap): what it read; the
 * units in *wrote. */
ALWAYS_INLINE size_t direct_step(struct decoder *d, const uint8_t *src, size_t n, uint32_t *dst,
                                 size_t cap, size_t *wrote)
{
    struct utfdfa__utf8_cursor c = {sequence_state_of(d, UTF8_NSTATES, UTF8_NCLASSES),
                                    d->partial, PENDING(d->flags)};
    size_t k = utfdfa__utf8_stream32(src, n, &c, dst, cap, wrote);
    if (k) {
        set_pending(d, c.pending);
        set_state(d, c.state, UTF8_NCLASSES);
        d->partial = c.partial;
        d->offset += k;
    }
    return k;
}

utfdfa_result utfdfa_decode_utf32(utfdfa_decoder *dec, const uint8_t *src, size_t *src_len,
                                  uint32_t *dst, size_t *dst_len, bool last, utfdfa_error *err)
{
    struct decoder d = load_decoder(dec);
    size_t done = 0, wrote = 0;
    if (direct_utf8(&d) && src && dst) {
        done = direct_step(&d, src, *src_len, dst, *dst_len, &wrote);
        if (done && done == *src_len && !last) {
            store_decoder(dec, &d);
            *dst_len = wrote;
            return UTFDFA_INPUT_EMPTY;
        }
    }
    /* For a WTF-8 target, whether the last code point was a high surrogate
     * is kept in the writer byte, as utfdfa_transcode keeps it. */
    bool wtf8 = limit_field(&d) == LIMIT_WTF8;
    struct out o = {dst, *dst_len, wrote, {0, 0, false, false}, wtf8 && (d.writer & 1)};
    size_t rest = *src_len - done;
    utfdfa_result r = utfdfa__convert_any(&d, src + done, &rest, &o, SINK_U32, UTFDFA_UTF8, last, err);
    *src_len = done + rest;
    if (wtf8)
        d.writer = o.after_high;
    store_decoder(dec, &d);
    *dst_len = o.len;
    return r;
}

utfdfa_result utfdfa_decode_utf16(utfdfa_decoder *dec, const uint8_t *src, size_t *src_len,
                                  uint16_t *dst, size_t *dst_len, bool last, utfdfa_error *err)
{
    struct decoder d = load_decoder(dec);
    struct out o = {dst, *dst_len, 0, {0, 0, false, false}, false};
    utfdfa_result r = utfdfa__convert_any(&d, src, src_len, &o, SINK_U16, UTFDFA_UTF8, last, err);
    store_decoder(dec, &d);
    *dst_len = o.len;
    return r;
}

size_t utfdfa_validate(enum utfdfa_encoding enc, const uint8_t *buf, size_t len,
                       utfdfa_error *err)
{
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, enc, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    size_t n = len;
    utfdfa_error e;
    if (utfdfa_check(&d, buf, &n, true, &e) == UTFDFA_MALFORMED) {
        if (err)
            *err = e;
        return (size_t)e.offset;
    }
    return len;
}

size_t utfdfa_valid_up_to(const uint8_t *buf, size_t len)
{
    return utfdfa_validate(UTFDFA_UTF8, buf, len, NULL);
}
