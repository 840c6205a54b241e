/* SPDX-License-Identifier: MIT */
/* utfdfa runtime: the public functions. The conversions themselves are in
 * src/convert.h, instantiated per source encoding by src/convert_from.c;
 * here each call dispatches on the decoder's source. Names and sizes of
 * the encodings are in src/api/encodings.c.
 */
#include "convert.h"
#include "api/encodings.h"

#include <string.h>

/* ------------------------------------------------------------ public API */

void utfdfa_decoder_init(utfdfa_decoder *d, enum utfdfa_encoding from, enum utfdfa_errors errors,
                         enum utfdfa_bom bom)
{
    memset(d, 0, sizeof *d);
    d->config = (uint8_t)(((unsigned)from & 15u) | ((unsigned)errors & 3u) << 4);
    d->flags = (uint8_t)(((unsigned)bom & 3u) << 5);
}

void utfdfa_decoder_set_target(utfdfa_decoder *d, enum utfdfa_encoding to)
{
    set_limit_field(d, limit_of(to));
}

void utfdfa_decoder_set_options(utfdfa_decoder *d, unsigned options)
{
    set_options(d, options & OPTIONS);
}

bool utfdfa_decoder_replaced(const utfdfa_decoder *d)
{
    return (d->flags & F_REPLACED) != 0;
}

uint64_t utfdfa_decoder_offset(const utfdfa_decoder *d)
{
    return d->offset;
}

/* (NULL, 0) is an empty buffer, but C gives NULL + 0 no meaning (C11
 * 6.5.6p8; clang's UBSan reports it) and the loops compute src + i and
 * dst + len: an empty buffer gets a real address. Only an empty one: NULL
 * with a length still faults where it would have. Nothing is read from it
 * or written to it (it is const, aligned for every unit). */
static const uint32_t empty_buffer[1];
#define REAL_ADDRESS(p, len) ((p) || (len) ? (void *)(p) : (void *)empty_buffer)

/* The unit of the decoder's source; an out-of-range source (only a
 * corrupted decoder has one) is read as UCS-4BE, as any value is. */
static utfdfa_result convert_any(utfdfa_decoder *d, const uint8_t *src, size_t *src_len,
                                 struct out *o, enum sink sink, unsigned to, bool last,
                                 utfdfa_error *err)
{
    src = REAL_ADDRESS(src, *src_len);
    o->p = REAL_ADDRESS(o->p, o->cap);
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

utfdfa_result utfdfa_check(utfdfa_decoder *d, const uint8_t *src, size_t *src_len, bool last,
                           utfdfa_error *err)
{
    struct out o = {NULL, 0, 0, {0, 0, false, false}, false};
    return convert_any(d, src, src_len, &o, SINK_NONE, UTFDFA_UTF8, last, err);
}

utfdfa_result utfdfa_decode_utf32(utfdfa_decoder *d, const uint8_t *src, size_t *src_len,
                                  uint32_t *dst, size_t *dst_len, bool last, utfdfa_error *err)
{
    /* For a WTF-8 target, whether the last code point was a high surrogate
     * is kept in the writer byte, as utfdfa_transcode keeps it. */
    bool wtf8 = limit_field(d) == LIMIT_WTF8;
    struct out o = {dst, *dst_len, 0, {0, 0, false, false}, wtf8 && (d->writer & 1)};
    utfdfa_result r = convert_any(d, src, src_len, &o, SINK_U32, UTFDFA_UTF8, last, err);
    if (wtf8)
        d->writer = o.after_high;
    *dst_len = o.len;
    return r;
}

utfdfa_result utfdfa_decode_utf16(utfdfa_decoder *d, const uint8_t *src, size_t *src_len,
                                  uint16_t *dst, size_t *dst_len, bool last, utfdfa_error *err)
{
    struct out o = {dst, *dst_len, 0, {0, 0, false, false}, false};
    utfdfa_result r = convert_any(d, src, src_len, &o, SINK_U16, UTFDFA_UTF8, last, err);
    *dst_len = o.len;
    return r;
}

utfdfa_result utfdfa_transcode(utfdfa_decoder *d, enum utfdfa_encoding to, const uint8_t *src,
                               size_t *src_len, uint8_t *dst, size_t *dst_len, bool last,
                               utfdfa_error *err)
{
    struct out o = {dst, *dst_len, 0, {0, 0, false, false}, false};
    unsigned target = (unsigned)to < UTFDFA_NENCODINGS ? (unsigned)to : UTFDFA_UCS4BE;
    /* The writer's state (an open UTF-7 run, a WTF-8 high surrogate) is
     * kept in the decoder between calls. */
    if (target == UTFDFA_UTF7)
        o.w = u7_unpack(d->writer, options_of(d) & UTFDFA_UTF7_DIRECT_SET_O, false);
    else if (target == UTFDFA_UTF7_IMAP)
        o.w = u7_unpack(d->writer, false, true);
    else if (target == UTFDFA_WTF8)
        o.after_high = d->writer & 1;
    utfdfa_result r = convert_any(d, src, src_len, &o, SINK_BYTES, target, last, err);
    if (is_utf7(target))
        d->writer = u7_pack(&o.w);
    else if (target == UTFDFA_WTF8)
        d->writer = o.after_high;
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

/* ------------------------------------------------------------ encoder */

void utfdfa_encoder_init(utfdfa_encoder *e, enum utfdfa_encoding to, enum utfdfa_errors errors,
                         enum utfdfa_bom bom)
{
    memset(e, 0, sizeof *e);
    e->to = (uint8_t)to;
    e->errors = (uint8_t)errors;
    e->bom = (uint8_t)bom;
}

void utfdfa_encoder_set_options(utfdfa_encoder *e, unsigned options)
{
    e->options = (uint8_t)(options & OPTIONS);
}

utfdfa_result utfdfa_encode(utfdfa_encoder *e, const uint32_t *src, size_t *src_len,
                            uint8_t *dst, size_t *dst_len, bool last, utfdfa_error *err)
{
    size_t i = 0, n = *src_len;
    utfdfa_result r = UTFDFA_INPUT_EMPTY;
    unsigned to = e->to < UTFDFA_NENCODINGS ? e->to : UTFDFA_UTF8;
    dst = REAL_ADDRESS(dst, *dst_len);
    unsigned limit = limit_of(to);
    struct out o = {dst, *dst_len, 0, {0, 0, e->options & UTFDFA_UTF7_DIRECT_SET_O, false}, false};
    if (is_utf7(to)) {
        o.w = u7_writer(e->shift, e->bits, e->options & UTFDFA_UTF7_DIRECT_SET_O,
                        to == UTFDFA_UTF7_IMAP);
    } else if (to == UTFDFA_WTF8) {
        o.after_high = e->shift & 1;
    }
    for (; i < n; i++) {
        uint32_t cp = src[i];
        enum utfdfa_error_kind kind = UTFDFA_ERR_NONE;
        if (to == UTFDFA_CORRECTED_UTF8 && (e->options & UTFDFA_CORRECTED_PUA))
            kind = pua_write(&cp);
        if (to == UTFDFA_WTF8)
            kind = wtf8_write(o.after_high, cp);
        if (kind == UTFDFA_ERR_NONE)
            kind = unfit(limit, cp);
        if (kind != UTFDFA_ERR_NONE) {
            /* e.g. RFC 3629 section 3: never a surrogate ("CESU") or a 5-byte form.
             * As in the decoder, an error is the stream's first item when
             * nothing came before it: the BOM mode is spent on it, and a
             * BOM owed is written first (with room for a U+FFFD too). */
            if (!e->started) {
                static const uint32_t replacement = REPLACEMENT;
                bool owe_bom = e->bom == UTFDFA_BOM_ADD;
                bool replacing = e->errors != UTFDFA_STRICT && e->errors != UTFDFA_IGNORE;
                if (!room(&o, SINK_BYTES,
                          units_after(&o, SINK_BYTES, to, owe_bom, &replacement, replacing))) {
                    r = UTFDFA_OUTPUT_FULL;
                    break;
                }
                if (owe_bom)
                    put_sig(&o, SINK_BYTES, to);
                e->started = 1;
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
            cp = REPLACEMENT;
        }
        enum bom_action act =
            e->started ? BOM_PASS : bom_first(e->bom, cp, to == UTFDFA_CORRECTED_UTF8);
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
    e->shift = (uint8_t)(to == UTFDFA_WTF8 ? o.after_high : o.w.shift);
    e->bits = (uint8_t)o.w.bits;
    e->offset += i;
    *src_len = i;
    *dst_len = o.len;
    return r;
}

/* ------------------------------------------------------------ sizes */

static bool mul_add(size_t a, size_t b, size_t c, size_t *out)
{
    if (b && a > (SIZE_MAX - c) / b)
        return false;
    *out = a * b + c;
    return true;
}

/* Each unit of `from` (and a trailing partial one) yields at most one
 * character or one U+FFFD. */
static size_t max_units_in(enum utfdfa_encoding from, size_t src_len)
{
    size_t u = utfdfa_unit_size(from);
    return src_len / u + (src_len % u != 0);
}

/* The most bytes a signature takes: a BOM, the magic number, or in UTF-7
 * "+/v8" and the digit and "-" that may end its run. */
static size_t sig_bytes(enum utfdfa_encoding to)
{
    struct out o = {NULL, 0, 0, {0, 0, false, false}, false};
    return is_utf7(to) ? 6 : sig_units(&o, SINK_BYTES, to);
}

bool utfdfa_max_encoded_len(enum utfdfa_encoding to, size_t n, size_t *out)
{
    return mul_add(n, utfdfa__max_char_bytes(to), sig_bytes(to), out);
}

bool utfdfa_max_transcoded_len(enum utfdfa_encoding from, enum utfdfa_encoding to,
                               size_t src_len, size_t *out)
{
    /* Per unit of input. A byte of a UTF-8 form yields at most 3 bytes of a
     * UTF-8 form (U+FFFD for a lone byte; a k-byte character is at most
     * k+1 bytes elsewhere, and k+1 <= 3k), 2 of UTF-16 (a supplementary
     * character takes at least 3 bytes in), 4 of UTF-32. A UTF-16 unit: at
     * most 3, 2 or 4 (a pair is 4 bytes in any form). A 32-bit unit: one
     * character, at most max_char_bytes. UTF-7 out: a character of 1 or 2
     * units in takes at most 4 bytes ("+" and 3 digits; a direct one after
     * a run: a digit, "-", itself), a pair 7 (two units in); what ends the
     * last run is counted with the signature (sig_bytes). Corrected UTF-8
     * with UTFDFA_CORRECTED_PUA writes a C1 control (one UTF-16 unit, two
     * bytes of a UTF-8 form) as a 4-byte plane-15 character. */
    size_t in = utfdfa_unit_size(from), outu = utfdfa_unit_size(to), per;
    if (in == 4)
        per = utfdfa__max_char_bytes(to);
    else if (is_utf7(to) || (in == 2 && to == UTFDFA_CORRECTED_UTF8))
        per = 4;
    else
        per = outu == 1 ? 3 : outu == 2 ? 2 : 4;
    return mul_add(max_units_in(from, src_len), per, sig_bytes(to), out);
}

bool utfdfa_max_utf32_len(enum utfdfa_encoding from, size_t src_len, size_t *out)
{
    return mul_add(max_units_in(from, src_len), 1, 1, out);
}

bool utfdfa_max_utf16_len(enum utfdfa_encoding from, size_t src_len, size_t *out)
{
    /* A 32-bit unit can be a pair; a UTF-8 form needs at least 3 bytes for one. */
    return mul_add(max_units_in(from, src_len), utfdfa_unit_size(from) == 4 ? 2 : 1, 1, out);
}
