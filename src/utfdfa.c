/* utfdfa runtime: steps the DFA generated from grammar/utf8.abnf (RFC 3629
 * section 4) and small decoders for UTF-16/32, over whole buffers or chunks.
 *
 * One strict conversion loop does everything (core_*): it stops at the
 * first ill-formed sequence with UTFDFA_MALFORMED. Replacement and ignore
 * modes are a loop around it (convert), and the whole-buffer functions are
 * the streaming call with last = true.
 */
#include "utfdfa.h"

#include <limits.h>
#include <string.h>

#include "utf8.gen.h"

#if defined(__GNUC__)
#define ALWAYS_INLINE static inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE static inline
#endif

/* The public taxonomy is the grammar's @error-kinds order. */
_Static_assert((int)UTF8_ERROR_UNEXPECTED_CONTINUATION == (int)UTFDFA_ERR_UNEXPECTED_CONTINUATION, "kinds");
_Static_assert((int)UTF8_ERROR_INVALID_LEAD == (int)UTFDFA_ERR_INVALID_LEAD, "kinds");
_Static_assert((int)UTF8_ERROR_OVERLONG == (int)UTFDFA_ERR_OVERLONG, "kinds");
_Static_assert((int)UTF8_ERROR_SURROGATE == (int)UTFDFA_ERR_SURROGATE, "kinds");
_Static_assert((int)UTF8_ERROR_TOO_LARGE == (int)UTFDFA_ERR_TOO_LARGE, "kinds");
_Static_assert((int)UTF8_ERROR_TRUNCATED == (int)UTFDFA_ERR_TRUNCATED, "kinds");
_Static_assert((int)UTF8_NERROR_KINDS == (int)UTFDFA_NERROR_KINDS, "kinds");
_Static_assert(sizeof(utfdfa_decoder) <= 16, "the decoder state is at most 16 bytes");

enum { REPLACEMENT = 0xFFFD, BOM = 0xFEFF };

/* flags: pending:3 | started:1 | replaced:1 | bom:2 */
#define PENDING(f) ((unsigned)(f) & 7u)
#define F_STARTED 0x08u
#define F_REPLACED 0x10u
#define BOM_MODE(f) (((unsigned)(f) >> 5) & 3u)
/* config: from:4 | errors:2 */
#define FROM(c) ((unsigned)(c) & 15u)
#define ERRORS(c) (((unsigned)(c) >> 4) & 3u)

/* Where decoded characters go. */
enum sink { SINK_NONE, SINK_U32, SINK_U16, SINK_BYTES };

struct out {
    void *p;
    size_t cap; /* in units of the sink */
    size_t len;
};

static const char *const encoding_names[UTFDFA_NENCODINGS] = {
    "utf-8", "utf-16le", "utf-16be", "utf-32le", "utf-32be",
};

const char *utfdfa_encoding_name(enum utfdfa_encoding enc)
{
    return (unsigned)enc < UTFDFA_NENCODINGS ? encoding_names[enc] : "unknown";
}

static int ascii_lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

bool utfdfa_encoding_from_name(const char *name, size_t len, enum utfdfa_encoding *enc)
{
    for (unsigned e = 0; e < UTFDFA_NENCODINGS; e++) {
        const char *want = encoding_names[e];
        size_t n = strlen(want);
        if (n != len)
            continue;
        size_t i = 0;
        while (i < n && ascii_lower((unsigned char)name[i]) == want[i])
            i++;
        if (i == n) {
            *enc = (enum utfdfa_encoding)e;
            return true;
        }
    }
    return false;
}

const char *utfdfa_error_name(enum utfdfa_error_kind kind)
{
    return (unsigned)kind < UTFDFA_NERROR_KINDS ? utf8_error_name[kind] : "unknown";
}

/* ------------------------------------------------------------ output side */

ALWAYS_INLINE size_t bytes_for(unsigned to, uint32_t cp)
{
    switch (to) {
    case UTFDFA_UTF8:
        return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    case UTFDFA_UTF16LE:
    case UTFDFA_UTF16BE:
        return cp < 0x10000 ? 2 : 4;
    default:
        return 4;
    }
}

/* Units cp takes in a sink (cp is a scalar value). */
ALWAYS_INLINE size_t units_for(enum sink sink, unsigned to, uint32_t cp)
{
    switch (sink) {
    case SINK_NONE:
        return 0;
    case SINK_U32:
        return 1;
    case SINK_U16:
        return cp < 0x10000 ? 1 : 2;
    default:
        return bytes_for(to, cp);
    }
}

ALWAYS_INLINE void put16(uint8_t *p, unsigned to, uint32_t u)
{
    if (to == UTFDFA_UTF16LE) {
        p[0] = (uint8_t)u;
        p[1] = (uint8_t)(u >> 8);
    } else {
        p[0] = (uint8_t)(u >> 8);
        p[1] = (uint8_t)u;
    }
}

/* Write cp (a scalar value) at p in `to`; the caller checked the room. */
ALWAYS_INLINE void put_bytes(uint8_t *p, unsigned to, uint32_t cp)
{
    switch (to) {
    case UTFDFA_UTF8: /* RFC 3629 section 3 */
        if (cp < 0x80) {
            p[0] = (uint8_t)cp;
        } else if (cp < 0x800) {
            p[0] = (uint8_t)(0xC0 | cp >> 6);
            p[1] = (uint8_t)(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            p[0] = (uint8_t)(0xE0 | cp >> 12);
            p[1] = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
            p[2] = (uint8_t)(0x80 | (cp & 0x3F));
        } else {
            p[0] = (uint8_t)(0xF0 | cp >> 18);
            p[1] = (uint8_t)(0x80 | (cp >> 12 & 0x3F));
            p[2] = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
            p[3] = (uint8_t)(0x80 | (cp & 0x3F));
        }
        break;
    case UTFDFA_UTF16LE:
    case UTFDFA_UTF16BE:
        if (cp < 0x10000) {
            put16(p, to, cp);
        } else {
            put16(p, to, 0xD800 | (cp - 0x10000) >> 10);
            put16(p + 2, to, 0xDC00 | (cp & 0x3FF));
        }
        break;
    case UTFDFA_UTF32LE:
        p[0] = (uint8_t)cp;
        p[1] = (uint8_t)(cp >> 8);
        p[2] = (uint8_t)(cp >> 16);
        p[3] = (uint8_t)(cp >> 24);
        break;
    default: /* UTF32BE */
        p[0] = (uint8_t)(cp >> 24);
        p[1] = (uint8_t)(cp >> 16);
        p[2] = (uint8_t)(cp >> 8);
        p[3] = (uint8_t)cp;
        break;
    }
}

ALWAYS_INLINE void put(struct out *o, enum sink sink, unsigned to, uint32_t cp)
{
    switch (sink) {
    case SINK_NONE:
        break;
    case SINK_U32:
        ((uint32_t *)o->p)[o->len++] = cp;
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
        put_bytes((uint8_t *)o->p + o->len, to, cp);
        o->len += bytes_for(to, cp);
        break;
    }
}

ALWAYS_INLINE bool room(const struct out *o, enum sink sink, size_t units)
{
    return sink == SINK_NONE || o->cap - o->len >= units;
}

/* What the BOM mode does with the first character of a stream (RFC 3629
 * section 6: a BOM is recognised only at the start): shared by the decoder
 * and the encoder. */
enum bom_action { BOM_PASS, BOM_DROP, BOM_PREPEND };

static inline enum bom_action bom_first(unsigned mode, uint32_t cp)
{
    if (mode == UTFDFA_BOM_STRIP && cp == BOM)
        return BOM_DROP;
    if (mode == UTFDFA_BOM_ADD && cp != BOM)
        return BOM_PREPEND;
    return BOM_PASS;
}

/* Emit one decoded character, applying the BOM mode to the stream's first
 * one. false when there is no room; nothing is written then. */
ALWAYS_INLINE bool emit(utfdfa_decoder *d, struct out *o, enum sink sink, unsigned to,
                        uint32_t cp)
{
    size_t need = units_for(sink, to, cp);
    if (!(d->flags & F_STARTED)) {
        enum bom_action act = bom_first(BOM_MODE(d->flags), cp);
        if (act == BOM_PREPEND)
            need += units_for(sink, to, BOM);
        if (act != BOM_DROP && !room(o, sink, need))
            return false;
        d->flags |= F_STARTED;
        if (act == BOM_PREPEND)
            put(o, sink, to, BOM);
        if (act == BOM_DROP)
            return true;
    } else if (!room(o, sink, need)) {
        return false;
    }
    put(o, sink, to, cp);
    return true;
}

/* Before reporting an error: room for what the error path may write (a BOM
 * still owed, and a U+FFFD when replacing), and the BOM written. */
ALWAYS_INLINE bool error_room(utfdfa_decoder *d, struct out *o, enum sink sink, unsigned to)
{
    size_t need = ERRORS(d->config) == UTFDFA_REPLACE ? units_for(sink, to, REPLACEMENT) : 0;
    bool owe_bom = !(d->flags & F_STARTED) && BOM_MODE(d->flags) == UTFDFA_BOM_ADD;
    if (owe_bom)
        need += units_for(sink, to, BOM);
    if (!room(o, sink, need))
        return false;
    if (owe_bom)
        put(o, sink, to, BOM);
    d->flags |= F_STARTED;
    return true;
}

ALWAYS_INLINE void set_pending(utfdfa_decoder *d, unsigned pending)
{
    d->flags = (uint8_t)((d->flags & ~7u) | pending);
}

ALWAYS_INLINE void report(utfdfa_error *err, uint64_t offset, uint32_t length,
                          enum utfdfa_error_kind kind)
{
    err->offset = offset;
    err->length = length;
    err->kind = kind;
}

/* ------------------------------------------------------------ strict cores
 * Each reads src[0..*n), writes to o, and returns at the first error. The
 * byte that reveals an error inside a sequence is not consumed: it starts
 * the next one (maximal subparts, Unicode 3.9). A character whose last byte
 * finds no room in the output leaves that byte unread. */

ALWAYS_INLINE utfdfa_result core_utf8(utfdfa_decoder *d, const uint8_t *src, size_t *n,
                                      struct out *o, enum sink sink, unsigned to, bool last,
                                      utfdfa_error *err)
{
    uint32_t state = d->state, cp = d->partial;
    unsigned pending = PENDING(d->flags);
    size_t i = 0, len = *n;
    utfdfa_result r = UTFDFA_INPUT_EMPTY;
    while (i < len) {
        uint8_t b = src[i];
        uint32_t cls = utf8_class[b];
        uint32_t next = utf8_trans[state + cls];
        if (next == UTF8_ACCEPT) {
            if (!emit(d, o, sink, to, cp << 6 | (b & utf8_payload_mask[cls]))) {
                r = UTFDFA_OUTPUT_FULL;
                break;
            }
            state = UTF8_ACCEPT;
            cp = 0;
            pending = 0;
            i++;
        } else if (next != UTF8_REJECT) {
            cp = cp << 6 | (b & utf8_payload_mask[cls]);
            state = next;
            pending++;
            i++;
        } else {
            if (!error_room(d, o, sink, to)) {
                r = UTFDFA_OUTPUT_FULL;
                break;
            }
            enum utfdfa_error_kind kind = (enum utfdfa_error_kind)utf8_error_of(state, b);
            if (state == UTF8_ACCEPT) { /* this byte alone is the error */
                report(err, d->offset + i, 1, kind);
                i++;
            } else { /* the sequence so far is; this byte starts anew */
                report(err, d->offset + i - pending, pending, kind);
            }
            state = UTF8_ACCEPT;
            cp = 0;
            pending = 0;
            r = UTFDFA_MALFORMED;
            break;
        }
    }
    if (r == UTFDFA_INPUT_EMPTY && last && pending) {
        if (error_room(d, o, sink, to)) {
            report(err, d->offset + len - pending, pending, UTFDFA_ERR_TRUNCATED);
            state = UTF8_ACCEPT;
            cp = 0;
            pending = 0;
            r = UTFDFA_MALFORMED;
        } else {
            r = UTFDFA_OUTPUT_FULL;
        }
    }
    d->state = (uint16_t)state;
    d->partial = cp;
    set_pending(d, pending);
    d->offset += i;
    *n = i;
    return r;
}

/* UTF-16: partial holds the pending byte (bits 0-7) and a pending high
 * surrogate (bits 16-31); pending counts the bytes of both (0-3). */
ALWAYS_INLINE utfdfa_result core_utf16(utfdfa_decoder *d, const uint8_t *src, size_t *n,
                                       struct out *o, enum sink sink, unsigned to, bool last,
                                       bool big_endian, utfdfa_error *err)
{
    uint32_t partial = d->partial;
    unsigned pending = PENDING(d->flags);
    size_t i = 0, len = *n;
    utfdfa_result r = UTFDFA_INPUT_EMPTY;
    while (i < len) {
        uint8_t b = src[i];
        if (pending == 0 || pending == 2) {
            partial = (partial & 0xFFFF0000u) | b;
            pending++;
            i++;
            continue;
        }
        uint32_t first = partial & 0xFF;
        uint32_t u = big_endian ? first << 8 | b : b << 8 | first;
        if (pending == 1) {
            if (u >= 0xD800 && u <= 0xDBFF) {
                partial = u << 16;
                pending = 2;
                i++;
            } else if (u >= 0xDC00 && u <= 0xDFFF) {
                if (!error_room(d, o, sink, to)) {
                    r = UTFDFA_OUTPUT_FULL;
                    break;
                }
                report(err, d->offset + i - 1, 2, UTFDFA_ERR_SURROGATE);
                partial = 0;
                pending = 0;
                i++;
                r = UTFDFA_MALFORMED;
                break;
            } else {
                if (!emit(d, o, sink, to, u)) {
                    r = UTFDFA_OUTPUT_FULL;
                    break;
                }
                partial = 0;
                pending = 0;
                i++;
            }
        } else { /* pending == 3: a high surrogate, then one byte */
            uint32_t high = partial >> 16;
            if (u >= 0xDC00 && u <= 0xDFFF) {
                if (!emit(d, o, sink, to, 0x10000 + ((high - 0xD800) << 10) + (u - 0xDC00))) {
                    r = UTFDFA_OUTPUT_FULL;
                    break;
                }
                partial = 0;
                pending = 0;
                i++;
            } else {
                /* A lone high surrogate: it is the error; the unit after it
                 * is decoded anew (WHATWG), its first byte kept pending. */
                if (!error_room(d, o, sink, to)) {
                    r = UTFDFA_OUTPUT_FULL;
                    break;
                }
                report(err, d->offset + i - 3, 2, UTFDFA_ERR_SURROGATE);
                partial = first;
                pending = 1;
                r = UTFDFA_MALFORMED;
                break;
            }
        }
    }
    if (r == UTFDFA_INPUT_EMPTY && last && pending) {
        /* WHATWG: whatever is pending at the end is one error. */
        if (error_room(d, o, sink, to)) {
            report(err, d->offset + len - pending, pending,
                   pending == 2 ? UTFDFA_ERR_SURROGATE : UTFDFA_ERR_TRUNCATED);
            partial = 0;
            pending = 0;
            r = UTFDFA_MALFORMED;
        } else {
            r = UTFDFA_OUTPUT_FULL;
        }
    }
    d->partial = partial;
    set_pending(d, pending);
    d->offset += i;
    *n = i;
    return r;
}

/* UTF-32: partial gathers the bytes of one unit. */
ALWAYS_INLINE utfdfa_result core_utf32(utfdfa_decoder *d, const uint8_t *src, size_t *n,
                                       struct out *o, enum sink sink, unsigned to, bool last,
                                       bool big_endian, utfdfa_error *err)
{
    uint32_t partial = d->partial;
    unsigned pending = PENDING(d->flags);
    size_t i = 0, len = *n;
    utfdfa_result r = UTFDFA_INPUT_EMPTY;
    while (i < len) {
        uint32_t b = src[i];
        uint32_t u = big_endian ? partial << 8 | b : partial | b << (8 * pending);
        if (pending < 3) {
            partial = u;
            pending++;
            i++;
            continue;
        }
        if (u > 0x10FFFF || (u >= 0xD800 && u <= 0xDFFF)) {
            if (!error_room(d, o, sink, to)) {
                r = UTFDFA_OUTPUT_FULL;
                break;
            }
            report(err, d->offset + i - 3, 4,
                   u > 0x10FFFF ? UTFDFA_ERR_TOO_LARGE : UTFDFA_ERR_SURROGATE);
            partial = 0;
            pending = 0;
            i++;
            r = UTFDFA_MALFORMED;
            break;
        }
        if (!emit(d, o, sink, to, u)) {
            r = UTFDFA_OUTPUT_FULL;
            break;
        }
        partial = 0;
        pending = 0;
        i++;
    }
    if (r == UTFDFA_INPUT_EMPTY && last && pending) {
        if (error_room(d, o, sink, to)) {
            report(err, d->offset + len - pending, pending, UTFDFA_ERR_TRUNCATED);
            partial = 0;
            pending = 0;
            r = UTFDFA_MALFORMED;
        } else {
            r = UTFDFA_OUTPUT_FULL;
        }
    }
    d->partial = partial;
    set_pending(d, pending);
    d->offset += i;
    *n = i;
    return r;
}

ALWAYS_INLINE utfdfa_result core(utfdfa_decoder *d, const uint8_t *src, size_t *n,
                                 struct out *o, enum sink sink, unsigned from, unsigned to,
                                 bool last, utfdfa_error *err)
{
    switch (from) {
    case UTFDFA_UTF8:
        return core_utf8(d, src, n, o, sink, to, last, err);
    case UTFDFA_UTF16LE:
        return core_utf16(d, src, n, o, sink, to, last, false, err);
    case UTFDFA_UTF16BE:
        return core_utf16(d, src, n, o, sink, to, last, true, err);
    case UTFDFA_UTF32LE:
        return core_utf32(d, src, n, o, sink, to, last, false, err);
    default:
        return core_utf32(d, src, n, o, sink, to, last, true, err);
    }
}

/* The one conversion: the strict core, and for replace/ignore a loop over
 * it that writes U+FFFD (room is guaranteed by error_room) or nothing. */
ALWAYS_INLINE utfdfa_result convert(utfdfa_decoder *d, const uint8_t *src, size_t *src_len,
                                    struct out *o, enum sink sink, unsigned from, unsigned to,
                                    bool last, utfdfa_error *err)
{
    size_t done = 0;
    utfdfa_error e;
    unsigned errors = ERRORS(d->config);
    for (;;) {
        size_t n = *src_len - done;
        utfdfa_result r = core(d, src + done, &n, o, sink, from, to, last, &e);
        done += n;
        if (r != UTFDFA_MALFORMED) {
            if (r == UTFDFA_INPUT_EMPTY && last && !(d->flags & F_STARTED) &&
                BOM_MODE(d->flags) == UTFDFA_BOM_ADD) {
                /* Nothing decoded at all: the output is just the BOM. */
                if (!room(o, sink, units_for(sink, to, BOM))) {
                    r = UTFDFA_OUTPUT_FULL;
                } else {
                    put(o, sink, to, BOM);
                    d->flags |= F_STARTED;
                }
            }
            *src_len = done;
            return r;
        }
        if (errors == UTFDFA_STRICT) {
            if (err)
                *err = e;
            *src_len = done;
            return r;
        }
        d->flags |= F_REPLACED;
        if (errors == UTFDFA_REPLACE)
            put(o, sink, to, REPLACEMENT);
    }
}

/* ------------------------------------------------------------ public API */

void utfdfa_decoder_init(utfdfa_decoder *d, enum utfdfa_encoding from, enum utfdfa_errors errors,
                         enum utfdfa_bom bom)
{
    memset(d, 0, sizeof *d);
    d->config = (uint8_t)(((unsigned)from & 15u) | ((unsigned)errors & 3u) << 4);
    d->flags = (uint8_t)(((unsigned)bom & 3u) << 5);
}

bool utfdfa_decoder_replaced(const utfdfa_decoder *d)
{
    return (d->flags & F_REPLACED) != 0;
}

uint64_t utfdfa_decoder_offset(const utfdfa_decoder *d)
{
    return d->offset;
}

/* Instantiate convert() for every source encoding with constant arguments,
 * so each combination compiles to its own specialised loop. */
#define CONVERT_FROM(SINK, TO)                                                             \
    switch (FROM(d->config)) {                                                             \
    case UTFDFA_UTF8:                                                                      \
        r = convert(d, src, src_len, &o, SINK, UTFDFA_UTF8, TO, last, err);               \
        break;                                                                             \
    case UTFDFA_UTF16LE:                                                                   \
        r = convert(d, src, src_len, &o, SINK, UTFDFA_UTF16LE, TO, last, err);            \
        break;                                                                             \
    case UTFDFA_UTF16BE:                                                                   \
        r = convert(d, src, src_len, &o, SINK, UTFDFA_UTF16BE, TO, last, err);            \
        break;                                                                             \
    case UTFDFA_UTF32LE:                                                                   \
        r = convert(d, src, src_len, &o, SINK, UTFDFA_UTF32LE, TO, last, err);            \
        break;                                                                             \
    default:                                                                               \
        r = convert(d, src, src_len, &o, SINK, UTFDFA_UTF32BE, TO, last, err);            \
        break;                                                                             \
    }

utfdfa_result utfdfa_check(utfdfa_decoder *d, const uint8_t *src, size_t *src_len, bool last,
                           utfdfa_error *err)
{
    struct out o = {NULL, 0, 0};
    utfdfa_result r;
    CONVERT_FROM(SINK_NONE, UTFDFA_UTF8)
    return r;
}

utfdfa_result utfdfa_decode_utf32(utfdfa_decoder *d, const uint8_t *src, size_t *src_len,
                                  uint32_t *dst, size_t *dst_len, bool last, utfdfa_error *err)
{
    struct out o = {dst, *dst_len, 0};
    utfdfa_result r;
    CONVERT_FROM(SINK_U32, UTFDFA_UTF8)
    *dst_len = o.len;
    return r;
}

utfdfa_result utfdfa_decode_utf16(utfdfa_decoder *d, const uint8_t *src, size_t *src_len,
                                  uint16_t *dst, size_t *dst_len, bool last, utfdfa_error *err)
{
    struct out o = {dst, *dst_len, 0};
    utfdfa_result r;
    CONVERT_FROM(SINK_U16, UTFDFA_UTF8)
    *dst_len = o.len;
    return r;
}

utfdfa_result utfdfa_transcode(utfdfa_decoder *d, enum utfdfa_encoding to, const uint8_t *src,
                               size_t *src_len, uint8_t *dst, size_t *dst_len, bool last,
                               utfdfa_error *err)
{
    struct out o = {dst, *dst_len, 0};
    utfdfa_result r;
    switch (to) {
    case UTFDFA_UTF8:
        CONVERT_FROM(SINK_BYTES, UTFDFA_UTF8)
        break;
    case UTFDFA_UTF16LE:
        CONVERT_FROM(SINK_BYTES, UTFDFA_UTF16LE)
        break;
    case UTFDFA_UTF16BE:
        CONVERT_FROM(SINK_BYTES, UTFDFA_UTF16BE)
        break;
    case UTFDFA_UTF32LE:
        CONVERT_FROM(SINK_BYTES, UTFDFA_UTF32LE)
        break;
    default:
        CONVERT_FROM(SINK_BYTES, UTFDFA_UTF32BE)
        break;
    }
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

utfdfa_result utfdfa_encode(utfdfa_encoder *e, const uint32_t *src, size_t *src_len,
                            uint8_t *dst, size_t *dst_len, bool last, utfdfa_error *err)
{
    size_t i = 0, o = 0, n = *src_len, cap = *dst_len;
    utfdfa_result r = UTFDFA_INPUT_EMPTY;
    unsigned to = e->to < UTFDFA_NENCODINGS ? e->to : UTFDFA_UTF8;
    for (; i < n; i++) {
        uint32_t cp = src[i];
        if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
            /* RFC 3629 section 3: not encodable; never a "CESU" or 5-byte form. */
            if (e->errors == UTFDFA_STRICT) {
                if (err)
                    report(err, e->offset + i, 1,
                           cp > 0x10FFFF ? UTFDFA_ERR_TOO_LARGE : UTFDFA_ERR_SURROGATE);
                i++;
                r = UTFDFA_MALFORMED;
                break;
            }
            e->replaced = 1;
            if (e->errors == UTFDFA_IGNORE)
                continue;
            cp = REPLACEMENT;
        }
        size_t need = bytes_for(to, cp);
        enum bom_action act = e->started ? BOM_PASS : bom_first(e->bom, cp);
        if (act == BOM_PREPEND)
            need += bytes_for(to, BOM);
        if (act != BOM_DROP && cap - o < need) {
            r = UTFDFA_OUTPUT_FULL;
            break;
        }
        e->started = 1;
        if (act == BOM_PREPEND) {
            put_bytes(dst + o, to, BOM);
            o += bytes_for(to, BOM);
        }
        if (act != BOM_DROP) {
            put_bytes(dst + o, to, cp);
            o += bytes_for(to, cp);
        }
    }
    if (r == UTFDFA_INPUT_EMPTY && last && !e->started && e->bom == UTFDFA_BOM_ADD) {
        /* Nothing encoded at all: the output is just the BOM. */
        if (cap - o < bytes_for(to, BOM)) {
            r = UTFDFA_OUTPUT_FULL;
        } else {
            put_bytes(dst + o, to, BOM);
            o += bytes_for(to, BOM);
            e->started = 1;
        }
    }
    e->offset += i;
    *src_len = i;
    *dst_len = o;
    return r;
}

/* ------------------------------------------------------------ sizes */

/* Bytes of one unit of an encoding: a character never takes fewer. */
static size_t unit_bytes(enum utfdfa_encoding enc)
{
    return enc == UTFDFA_UTF8 ? 1 : enc <= UTFDFA_UTF16BE ? 2 : 4;
}

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
    size_t u = unit_bytes(from);
    return src_len / u + (src_len % u != 0);
}

bool utfdfa_max_encoded_len(enum utfdfa_encoding to, size_t n, size_t *out)
{
    (void)to; /* 4 bytes bound a character in every encoding here */
    return mul_add(n, 4, 0, out);
}

bool utfdfa_max_transcoded_len(enum utfdfa_encoding from, enum utfdfa_encoding to,
                               size_t src_len, size_t *out)
{
    /* Per unit of input: UTF-8 bytes give at most 3 bytes of UTF-8 (U+FFFD
     * for a lone byte; a k-byte character gives k), 2 of UTF-16, 4 of UTF-32;
     * a UTF-16 unit at most 3, 2 or 4; a UTF-32 unit at most 4. */
    static const unsigned char per_unit[3][3] = {{3, 2, 4}, {3, 2, 4}, {4, 4, 4}};
    size_t fi = unit_bytes(from) == 1 ? 0 : unit_bytes(from) == 2 ? 1 : 2;
    size_t ti = unit_bytes(to) == 1 ? 0 : unit_bytes(to) == 2 ? 1 : 2;
    return mul_add(max_units_in(from, src_len), per_unit[fi][ti], bytes_for(to, BOM), out);
}

bool utfdfa_max_utf32_len(enum utfdfa_encoding from, size_t src_len, size_t *out)
{
    return mul_add(max_units_in(from, src_len), 1, 1, out);
}

bool utfdfa_max_utf16_len(enum utfdfa_encoding from, size_t src_len, size_t *out)
{
    /* A UTF-32 unit can be a pair; UTF-8 needs 4 bytes for one. */
    return mul_add(max_units_in(from, src_len), unit_bytes(from) == 4 ? 2 : 1, 1, out);
}
