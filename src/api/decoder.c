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
    d.config = (uint8_t)(((unsigned)mode & 3u) << 4);
    set_source(&d, (unsigned)from);
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
    struct decoder d = load_decoder(dec);
    return (enum utfdfa_encoding)source_of(&d);
}

uint64_t utfdfa_decoder_offset(const utfdfa_decoder *dec)
{
    return load_decoder(dec).offset;
}

/* The unit of the decoder's source; an out-of-range source (only a
 * corrupted decoder has one) is read as UCS-4BE, as any value is. */
utfdfa_result utfdfa__convert_any(const struct call *c, const uint8_t *src, size_t *src_len)
{
    struct decoder *d = c->d;
    src = REAL_ADDRESS(src, *src_len);
    c->o->p = REAL_ADDRESS(c->o->p, c->o->cap);
    if (is_unordered(source_of(d))) { /* the BOM decides the source first */
        size_t used = *src_len, rest;
        utfdfa_result r;
        if (!utfdfa__byte_order_resolve(c, src, &used, &r)) {
            *src_len = used;
            return r;
        }
        rest = *src_len - used;
        r = utfdfa__convert_any(c, src + used, &rest);
        *src_len = used + rest;
        return r;
    }
    switch (source_of(d)) {
#define CONVERT_FROM_CASE(name, enc)                                                       \
    case enc:                                                                              \
        return utfdfa__convert_from_##name(c, src, src_len);
        UTFDFA_EACH_ENCODING(CONVERT_FROM_CASE)
#undef CONVERT_FROM_CASE
    default:
        return utfdfa__convert_from_ucs4be(c, src, src_len);
    }
}

/* A call of utfdfa_check (SINK_NONE) or decode_utf16 (SINK_U16): for a
 * UTF-16/32 (or UCS-4) source the unit kernels read what they can first,
 * once the general call has finished a unit or pair the last call left
 * (from the few bytes it needs); the general call decodes the rest, from
 * an error, a cut unit or pair, or the end of the room, as its core would. */
static utfdfa_result unit_call(const struct call *c, const uint8_t *src, size_t *src_len)
{
    struct decoder *d = c->d;
    struct out *o = c->o;
    int form = unit_form(source_of(d));
    size_t n = *src_len, done = 0, m, k = 0;
    utfdfa_result r = UTFDFA_INPUT_EMPTY;
    while (form >= 0 && PENDING(d->flags) && done < n && r == UTFDFA_INPUT_EMPTY) {
        m = 4 - PENDING(d->flags) % 4; /* at most the rest of a unit or a pair (1-3 bytes) */
        m = m < n - done ? m : n - done;
        struct call unit = *c;
        unit.last = c->last && m == n - done;
        r = utfdfa__convert_any(&unit, src + done, &m);
        done += m;
    }
    if (r != UTFDFA_INPUT_EMPTY || (done == n && done)) {
        *src_len = done;
        return r;
    }
    /* the kernels start at a unit boundary, the BOM mode done */
    bool ready = form >= 0 && src && at_unit_boundary(d);
    if (ready && c->sink == SINK_NONE) {
        k = utfdfa__unit_check((enum fast_form)form, src + done, n - done);
    } else if (ready && o->p) {
        k = utfdfa__unit_to_utf16((enum fast_form)form, src + done, n - done,
                                  (uint16_t *)o->p + o->len, o->cap - o->len, &m);
        o->len += m;
    }
    if (k) {
        d->offset += k;
        d->partial = 0;
        d->flags |= F_STARTED;
        done += k;
    }
    m = n - done;
    r = utfdfa__convert_any(c, src ? src + done : src, &m);
    *src_len = done + m;
    return r;
}

utfdfa_result utfdfa_check(utfdfa_decoder *dec, const uint8_t *src, size_t *src_len, bool last,
                           utfdfa_error *err)
{
    struct decoder d = load_decoder(dec);
    struct out o = {NULL, 0, 0, {0, 0, false, false}, false};
    const struct call c = {&d, &o, SINK_NONE, UTFDFA_UTF8, UTFDFA_UTF8, last, err};
    utfdfa_result r = unit_call(&c, src, src_len);
    store_decoder(dec, &d);
    return r;
}

/* What a direct step (below) did before the general call: read `read`
 * bytes, wrote `wrote` units and left the cursor c. */
struct direct_step {
    size_t read, wrote;
    struct utfdfa__utf8_cursor c;
};

/* The general call, after a direct step (NULL: none). */
NOINLINE static utfdfa_result decode32_rest(utfdfa_decoder *dec, const uint8_t *src,
                                            size_t *src_len, uint32_t *dst, size_t *dst_len,
                                            bool last, utfdfa_error *err,
                                            const struct direct_step *step)
{
    struct decoder d = load_decoder(dec);
    size_t done = step ? step->read : 0;
    if (done) {
        set_pending(&d, step->c.pending);
        set_state(&d, step->c.state * UTF8_NCLASSES, UTF8_NCLASSES);
        d.partial = step->c.partial;
        d.offset += done;
    }
    /* For a wobbly target (WTF-8), whether the last code point was a high
     * surrogate is kept in the writer byte, as utfdfa_transcode keeps it. */
    bool wtf8 = utfdfa_limit_wobbly(limit_field(&d));
    struct out o = {dst, *dst_len, done ? step->wrote : 0, {0, 0, false, false}, false};
    writer_unpack(&o, wtf8 ? UTFDFA_WTF8 : UTFDFA_UTF8, 0, writer_of(&d));
    const struct call c = {&d, &o, SINK_U32, UTFDFA_UTF8, UTFDFA_UTF8, last, err};
    size_t rest = *src_len - done;
    src = (const uint8_t *)((uintptr_t)src + done); /* src may be NULL (done is 0 then) */
    utfdfa_result r = utfdfa__convert_any(&c, src, &rest);
    *src_len = done + rest;
    if (wtf8)
        set_writer(&d, writer_pack(&o, UTFDFA_WTF8));
    store_decoder(dec, &d);
    *dst_len = o.len;
    return r;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* The direct state, the one a stream of UTF-8 is in between chunks: the
 * BOM kept, a UTF-8 source (its five bits 0), a target limit of none or
 * Unicode (the decoder's second 8 bytes, store_decoder's layout, are 0
 * under this mask), whatever the character in progress; and the fields of
 * that. */
#define DIRECT_MASK ((uint64_t)0x60u << 32 | (uint64_t)0x0Fu << 40 | (uint64_t)SOURCE_HIGH << 48 | \
                     (uint64_t)(6u << STATE_BITS) << 56)
#define CURSOR_MASK (0xFFFFFFFFull | (uint64_t)7u << 32 | (uint64_t)STATE_MASK << 56)
_Static_assert(UTFDFA_UTF8 == 0 && UTFDFA_BOM_KEEP == 0 && LIMIT_NONE == 0 && LIMIT_UNICODE == 1,
               "the values DIRECT_MASK leaves 0");
#endif

utfdfa_result utfdfa_decode_utf32(utfdfa_decoder *dec, const uint8_t *src, size_t *src_len,
                                  uint32_t *dst, size_t *dst_len, bool last, utfdfa_error *err)
{
#ifdef DIRECT_MASK
    /* A chunk, not the last, in the direct state: the decoder's two halves
     * as integers, no struct between. */
    uint64_t hi;
    memcpy(&hi, (const unsigned char *)dec + 8, 8);
    if ((hi & DIRECT_MASK) == 0 && !last && src && dst) {
        uint32_t pending = (uint32_t)(hi >> 32) & 7u, number = (uint32_t)(hi >> 56) & STATE_MASK;
        /* (The state is ACCEPT whenever nothing is pending; only a corrupted
         * decoder says otherwise, and the shift rows read no memory by it.) */
        struct utfdfa__utf8_cursor c = {number < UTF8_NSTATES ? number : 0, (uint32_t)hi, pending};
        size_t wrote = 0, n = *src_len, k = utfdfa__utf8_stream32(src, n, &c, dst, *dst_len, &wrote);
        if (k == n) { /* (n == 0 too: nothing changes) */
            uint64_t offset;
            memcpy(&offset, dec, 8);
            offset += k;
            memcpy(dec, &offset, 8);
            hi = (hi & ~CURSOR_MASK) | c.partial | (uint64_t)(c.pending & 7u) << 32 |
                 (uint64_t)c.state << 56;
            memcpy((unsigned char *)dec + 8, &hi, 8);
            *dst_len = wrote;
            return UTFDFA_INPUT_EMPTY;
        }
        /* An error, no room, or nothing read: the general call goes on. */
        const struct direct_step step = {k, wrote, c};
        return decode32_rest(dec, src, src_len, dst, dst_len, last, err, &step);
    }
#endif
    return decode32_rest(dec, src, src_len, dst, dst_len, last, err, NULL);
}

utfdfa_result utfdfa_decode_utf16(utfdfa_decoder *dec, const uint8_t *src, size_t *src_len,
                                  uint16_t *dst, size_t *dst_len, bool last, utfdfa_error *err)
{
    struct decoder d = load_decoder(dec);
    struct out o = {dst, *dst_len, 0, {0, 0, false, false}, false};
    const struct call c = {&d, &o, SINK_U16, UTFDFA_UTF8, UTFDFA_UTF8, last, err};
    utfdfa_result r = unit_call(&c, src, src_len);
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
