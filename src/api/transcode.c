/* SPDX-License-Identifier: MIT */
/* utfdfa_transcode: a decoder and an encoder that meet at code points.
 *
 * The decoder (any source, src/decode/convert_from.c) writes a block of code
 * points on the stack, having decided everything about them that depends
 * on the input: errors at their byte offsets, replacement, the BOM mode,
 * and what the target cannot hold (SINK_CODES applies the target's limit
 * and its writer's rules). The encoder then writes the block in the target
 * encoding. Only whole characters are ever written, as the decoder would
 * write them directly: when the output fills in the middle of a block, the
 * decoder's 16 bytes of state go back to before the block and it decodes
 * again with room for just what the encoder took (the decoder is
 * deterministic, so that is a prefix of the same block). That is rare (the
 * output's last bytes) and keeps OUTPUT_FULL exact: the input a call
 * reports read is exactly what its output holds.
 */
#include "decode/byte_order.h"
#include "decode/convert.h"
#include "encode/codes.h"

enum { CODES_BLOCK = 2048 };

enum { BLOCK_DONE = 3 }; /* transcode_block: the block was full; go on */

/* One block: decode, encode, and if the encoder could not take it all,
 * decode again from the same state with room for what it took. */
static int transcode_block(struct decoder *d, unsigned to, const uint8_t *src, size_t *n,
                           struct out *bytes, bool last, utfdfa_error *err)
{
    uint32_t codes[CODES_BLOCK];
    const struct decoder before = *d;
    const struct out wbefore = *bytes;
    size_t cap = CODES_BLOCK;
    bool decode_last = last;
    for (;;) {
        size_t m = *n;
        /* The decoder's view of what the writer wrote last (writer_refuses). */
        struct out o = {codes, cap, 0, {0, 0, false, false}, bytes->after_high};
        const struct call c = {d, &o, SINK_CODES, UTFDFA_UTF8, to, decode_last, err};
        utfdfa_result r = utfdfa__convert_any(&c, src, &m);
        size_t wrote = utfdfa__encode_codes(bytes, to, codes, o.len);
        bool closed = wrote == o.len && !(r == UTFDFA_INPUT_EMPTY && decode_last &&
                                           !utfdfa__close_run(bytes, to));
        if (wrote == o.len && closed) {
            bytes->after_high = o.after_high; /* also where a kernel wrote the block */
            *n = m;
            if (r == UTFDFA_OUTPUT_FULL && cap == CODES_BLOCK)
                return BLOCK_DONE;
            return r == UTFDFA_INPUT_EMPTY && last && !decode_last ? UTFDFA_OUTPUT_FULL : r;
        }
        *d = before;
        *bytes = wbefore;
        if (wrote < o.len)
            cap = wrote; /* < CODES_BLOCK: an OUTPUT_FULL is then the output's */
        else
            decode_last = false; /* the end does not fit: everything but the end */
    }
}

/* ascii_source() and ascii_target() (output/forms.h, from the registry's
 * kernel column): the forms in which ASCII is one unit of its own value,
 * the pairs the ASCII kernel copies. (Not modified UTF-8 nor Corrected
 * UTF-8: U+0000 is no single 00 there; not CESU-8 as a source: a held high
 * surrogate.) */

/* A run of ASCII copied from unit to unit by the ASCII kernel, from a
 * character boundary once the BOM mode has nothing left to do. After it
 * nothing is held (a WTF-8 high surrogate before it is no longer last). */
static size_t copy_ascii(struct decoder *d, unsigned to, const uint8_t *src, size_t n,
                         struct out *o)
{
    int from_form = ascii_source(source_of(d)), to_form = ascii_target(to);
    if (from_form < 0 || to_form < 0 || !at_unit_boundary(d))
        return 0;
    size_t k = utfdfa__ascii_copy((enum fast_form)from_form, (enum fast_form)to_form, src, n,
                                  (uint8_t *)o->p + o->len, o->cap - o->len);
    if (k == 0)
        return 0;
    size_t read = k * utfdfa_unit_size(source_of(d));
    d->offset += read;
    d->partial = 0;
    d->flags |= F_STARTED;
    o->len += k * utfdfa_unit_size(to);
    o->after_high = false;
    return read;
}

/* The UTF-8 text at src that has its own bytes in both the source and the
 * target (UTF-8 into UTF-8, WTF-8 into UTF-8, CESU-8 into CESU-8, ...): what
 * the fast validator passes is copied as it is, up to the last character
 * it completes; the block path takes what follows (an error, a character
 * of the source's own or split at the end, the output's last bytes).
 * first: the first slab's length (utf8_fast.h). */
static size_t copy_utf8_part(struct decoder *d, unsigned to, const uint8_t *src, size_t n,
                             struct out *o, size_t first)
{
    unsigned below = 0, limit = 256;
    if (!utf8_part_bounds(source_of(d), &below, &limit) || !utf8_part_bounds(to, &below, &limit) ||
        !at_utf8_boundary(d))
        return 0;
    bool bounded = below > 0 || limit < 256;
    size_t done = 0, room = o->cap - o->len, end = n < room ? n : room;
    size_t most = bounded ? first : UTF8_PART_MOST;
    for (;;) {
        size_t slab = end - done < most ? end - done : most, m = slab;
        if (bounded)
            m = utfdfa__utf8_part_end(src + done, slab, below, limit);
        uint32_t state = UTF8_ACCEPT;
        size_t read = utfdfa__utf8_scan(src + done, m, &state), k = read;
        if (state != UTF8_ACCEPT)
            k -= utfdfa__utf8_pending(src + done, k, state); /* began at a boundary: at most k */
        memcpy((uint8_t *)o->p + o->len + done, src + done, k);
        done += k;
        if (read < m || m < most) /* stopped, or at the end: else only a slab's end cut */
            break;
        most = most < UTF8_PART_MOST ? 2 * most : most;
    }
    if (done) {
        o->len += done;
        d->offset += done;
        d->flags |= F_STARTED;
        o->after_high = false;
    }
    return done;
}

/* wide_target() (output/forms.h): the form the fused kernel writes for `to`
 * when its bytes for every scalar value are that form's (UTF-8's supersets
 * RFC 2279 and WTF-8, UCS-4; not CESU-8, modified or Corrected UTF-8), or -1. */

/* UTF-16 or UTF-32 (or UCS-4) into UTF-8, or into the other width, by the
 * fused kernel (src/fast/): what it reads is scalar values, which every
 * such target writes as the kernel does; the block path takes what it
 * leaves (an error, a pair cut by the end, the output's last bytes). Only
 * from a character boundary, once the BOM mode has nothing left to do.
 * After it nothing is held (a WTF-8 high surrogate is no longer last). */
static size_t copy_wide(struct decoder *d, unsigned to, const uint8_t *src, size_t n,
                        struct out *o)
{
    int from_form = unit_form(source_of(d)), to_form = wide_target(to);
    if (from_form < 0 || to_form < 0 || !at_unit_boundary(d) ||
        !utfdfa__wide_fused((enum fast_form)from_form, (enum fast_form)to_form))
        return 0;
    size_t wrote = 0;
    size_t read = utfdfa__wide_transcode((enum fast_form)from_form, (enum fast_form)to_form, src,
                                         n, (uint8_t *)o->p + o->len, o->cap - o->len, &wrote);
    if (read == 0)
        return 0;
    d->offset += read;
    d->partial = 0;
    d->flags |= F_STARTED;
    o->len += wrote;
    o->after_high = false;
    return read;
}

/* The in-place UTF-16/UTF-32 fast path is for little-endian hosts (the
 * decoder's units are native): a big-endian host has neither it nor the
 * byte swap it needs. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* units 16- or 32-bit units at p turned from one byte order to the other,
 * 8 bytes at a time. */
static void swap_units(uint8_t *p, size_t units, size_t unit)
{
    size_t i = 0, len = units * unit;
    for (; i + 8 <= len; i += 8) {
        uint64_t x;
        memcpy(&x, p + i, 8);
        x = (x & 0x00FF00FF00FF00FFu) << 8 | (x >> 8 & 0x00FF00FF00FF00FFu);
        if (unit == 4)
            x = (x & 0x0000FFFF0000FFFFu) << 16 | (x >> 16 & 0x0000FFFF0000FFFFu);
        memcpy(p + i, &x, 8);
    }
    for (; i < len; i += unit)
        for (size_t a = i, b = i + unit - 1; a < b; a++, b--) {
            uint8_t t = p[a];
            p[a] = p[b];
            p[b] = t;
        }
}

/* UTF-8 (or a source's UTF-8 part) into UTF-32 or UTF-16 on a
 * little-endian host, with the output aligned to its unit: the decoder's
 * fast path writes the units in place (the big-endian forms turned after),
 * the same values the block path would write, without a block between. It
 * stops before an error, a character of the source's own, one that does not
 * fit or one cut by the end; what it read of such a character is given
 * back to the block path. first: as copy_utf8_part's. */
static size_t copy_utf8_native(struct decoder *d, unsigned to, const uint8_t *src, size_t n,
                               struct out *o, size_t first)
{
    uint8_t *at = (uint8_t *)o->p + o->len;
    int form = kernel_form(to);
    size_t unit = form == FORM_UTF32LE || form == FORM_UTF32BE ? 4 : 2;
    unsigned below = 0, limit = 256;
    if (form < FORM_UTF16LE || (uintptr_t)at % unit ||
        !utf8_part_bounds(source_of(d), &below, &limit) || !at_utf8_boundary(d))
        return 0;
    struct out units = {at, (o->cap - o->len) / unit, 0, {0, 0, false, false}, false};
    size_t k = utfdfa__utf8_part_step(d, src, n, &units, unit == 4 ? SINK_U32 : SINK_U16, first);
    if (form == FORM_UTF16BE || form == FORM_UTF32BE)
        swap_units(at, units.len, unit);
    if (k) {
        o->len += units.len * unit;
        o->after_high = false;
    }
    return k;
}
#else
static size_t copy_utf8_native(struct decoder *d, unsigned to, const uint8_t *src, size_t n,
                               struct out *o, size_t first)
{
    (void)d, (void)to, (void)src, (void)n, (void)o, (void)first;
    return 0;
}
#endif

static utfdfa_result transcode_to(utfdfa_decoder *dec, enum utfdfa_encoding to,
                                  const uint8_t *src, size_t *src_len, uint8_t *dst,
                                  size_t *dst_len, bool last, utfdfa_error *err);

/* Into UTF-16 or UTF-32 without a byte order (decode/byte_order.h): the
 * little-endian form, a BOM before what it writes first. */
static utfdfa_result transcode_unordered(utfdfa_decoder *dec, enum utfdfa_encoding to,
                                         const uint8_t *src, size_t *src_len, uint8_t *dst,
                                         size_t *dst_len, bool last, utfdfa_error *err)
{
    struct decoder d = load_decoder(dec);
    enum utfdfa_encoding little = little_endian_of(to);
    unsigned written = writer_bom_written(to);
    if (BOM_MODE(d.flags) == UTFDFA_BOM_ADD || writer_of(&d) == written)
        return transcode_to(dec, little, src, src_len, dst, dst_len, last, err);
    size_t bom = utfdfa_unit_size(to), len;
    uint8_t *text = after_bom(dst, *dst_len, bom, &len);
    utfdfa_result r = transcode_to(dec, little, src, src_len, text, &len, last, err);
    d = load_decoder(dec);
    set_writer(&d, len != 0 ? written : 0);
    store_decoder(dec, &d);
    *dst_len = with_bom(dst, bom, len);
    return r;
}

static utfdfa_result transcode_to(utfdfa_decoder *dec, enum utfdfa_encoding to,
                                  const uint8_t *src, size_t *src_len, uint8_t *dst,
                                  size_t *dst_len, bool last, utfdfa_error *err)
{
    struct decoder state = load_decoder(dec), *d = &state;
    unsigned target = known_target((unsigned)to);
    if (is_unordered(target))
        return transcode_unordered(dec, to, src, src_len, dst, dst_len, last, err);
    struct out w = {REAL_ADDRESS(dst, *dst_len), *dst_len, 0, {0, 0, false, false}, false};
    writer_unpack(&w, target, options_of(d), writer_of(d));
    size_t done = 0, n = *src_len;
    src = REAL_ADDRESS(src, n); /* src + done below: no arithmetic on NULL */
    utfdfa_error e;
    int r;
    size_t slab = UTF8_PART_MOST; /* a UTF-8 part's first slab (utf8_fast.h) */
    do {
        done += copy_ascii(d, target, src + done, n - done, &w);
        size_t k = copy_utf8_part(d, target, src + done, n - done, &w, slab);
        if (k == 0)
            k = copy_utf8_native(d, target, src + done, n - done, &w, slab);
        slab = UTF8_PART_FIRST;
        if (k == 0)
            k = copy_wide(d, target, src + done, n - done, &w);
        done += k;
        size_t m = n - done;
        r = transcode_block(d, target, src + done, &m, &w, last, &e);
        done += m;
    } while (r == BLOCK_DONE);
    if (is_utf7(target) || utfdfa_row_wobbly(target))
        set_writer(d, writer_pack(&w, target));
    if (r == UTFDFA_MALFORMED && err)
        *err = e;
    store_decoder(dec, d);
    *src_len = done;
    *dst_len = w.len;
    return (utfdfa_result)r;
}

/* A call to another target than the one the writer's state is for: that
 * state is closed (a UTF-7 run's last digit and "-" written at dst) and the
 * new target starts afresh. Returns the bytes written, or SIZE_MAX when
 * they do not fit in cap. */
static size_t close_other_target(struct decoder *d, unsigned target, uint8_t *dst, size_t cap)
{
    unsigned owner = writer_target(writer_of(d));
    struct out o = {dst, cap, 0, {0, 0, false, false}, false};
    if (owner == target)
        return 0;
    writer_unpack(&o, owner, 0, writer_of(d));
    if (!utfdfa__close_run(&o, owner))
        return SIZE_MAX;
    set_writer(d, 0);
    return o.len;
}

utfdfa_result utfdfa_transcode(utfdfa_decoder *dec, enum utfdfa_encoding to, const uint8_t *src,
                               size_t *src_len, uint8_t *dst, size_t *dst_len, bool last,
                               utfdfa_error *err)
{
    struct decoder d = load_decoder(dec);
    if (writer_of(&d) == 0)
        return transcode_to(dec, to, src, src_len, dst, dst_len, last, err);
    unsigned target = known_target((unsigned)to);
    uint8_t *out = REAL_ADDRESS(dst, *dst_len);
    size_t closed = close_other_target(&d, target, out, *dst_len);
    if (closed == SIZE_MAX) {
        *src_len = 0;
        *dst_len = 0;
        return UTFDFA_OUTPUT_FULL;
    }
    store_decoder(dec, &d);
    size_t rest = *dst_len - closed;
    utfdfa_result r = transcode_to(dec, to, src, src_len, out + closed, &rest, last, err);
    *dst_len = closed + rest;
    return r;
}
