/* SPDX-License-Identifier: MIT */
/* The conversion engine of the utfdfa runtime (internal; not installed).
 *
 * It steps the DFAs generated from grammar/ (RFC 3629 section 4 and the
 * other ABNF grammars) and small decoders for UTF-16/32, over whole buffers
 * or chunks. One strict conversion loop does everything (core_*): it stops
 * at the first ill-formed sequence with UTFDFA_MALFORMED. Replacement and
 * ignore modes are a loop around it (convert), and the whole-buffer
 * functions are the streaming call with last = true.
 *
 * Everything here is inlined into its callers with constant source, sink
 * and target, so each combination compiles to its own loop. That is a lot
 * of code (14 sources x 17 targets), so src/convert_from.c instantiates it
 * once per source encoding, each in its own translation unit: the units
 * compile in parallel and each holds only its own source's tables. The
 * public functions (src/utfdfa.c) dispatch on the source.
 */
#ifndef UTFDFA_CONVERT_H
#define UTFDFA_CONVERT_H

#include "utfdfa.h"

#include <limits.h>
#include <string.h>

#include "corrected-utf-8.gen.h"
#include "utf8-rfc2279.gen.h"
#include "utf8.gen.h"
#include "utf7.gen.h"
#include "utf7-imap.gen.h"
#include "cesu-8.gen.h"
#include "mutf-8.gen.h"
#include "wtf-8.gen.h"
#include "encodings.gen.h"
#include "utf8_fast.h"

#if defined(__GNUC__)
#define ALWAYS_INLINE static inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE static inline
#endif

/* The public taxonomy is the grammars' @error-kinds order: encodings.gen.h
 * asserts each kind. */
_Static_assert(sizeof(utfdfa_decoder) <= 16, "the decoder state is at most 16 bytes");

enum { REPLACEMENT = 0xFFFD, BOM = 0xFEFF };

/* The decoder's fields (include/utfdfa.h) are read and written only here
 * and through the accessors below; all zero is a fresh decoder.
 * flags: pending:3 | started:1 | replaced:1 | bom:2 | nomagic:1 */
#define PENDING(f) ((unsigned)(f) & 7u)
#define F_STARTED 0x08u
#define F_REPLACED 0x10u
#define F_NOMAGIC 0x80u /* the stream is known not to begin with a magic number */
#define BOM_MODE(f) (((unsigned)(f) >> 5) & 3u)
/* config: from:4 | errors:2 | options:2 */
#define FROM(c) ((unsigned)(c) & 15u)
#define ERRORS(c) (((unsigned)(c) >> 4) & 3u)
_Static_assert(UTFDFA_NENCODINGS <= 16, "an encoding fits config's 4 bits");

ALWAYS_INLINE unsigned options_of(const utfdfa_decoder *d)
{
    return (unsigned)d->config >> 6;
}

static inline void set_options(utfdfa_decoder *d, unsigned options)
{
    d->config = (uint8_t)((d->config & 0x3Fu) | (options & 3u) << 6);
}

/* state_limit: state:5 | limit:3. The automaton state is kept as its
 * number: a core multiplies it by its table's class count on entry and
 * divides on return (by a constant once inlined), once per call, never
 * per byte. */
#define STATE_BITS 5
#define STATE_MASK ((1u << STATE_BITS) - 1u)
_Static_assert(UTF8_NSTATES <= 1u << STATE_BITS && UTF8_RFC2279_NSTATES <= 1u << STATE_BITS &&
                   CORRECTED_UTF_8_NSTATES <= 1u << STATE_BITS &&
                   CESU_8_NSTATES <= 1u << STATE_BITS && MUTF_8_NSTATES <= 1u << STATE_BITS &&
                   WTF_8_NSTATES <= 1u << STATE_BITS && UTF7_NSTATES <= 1u << STATE_BITS &&
                   UTF7_IMAP_NSTATES <= 1u << STATE_BITS,
               "every state number fits the decoder's 5 bits");

/* The pre-multiplied state of a table with nstates states of nclasses
 * classes. The field is the caller's memory: a number past the table (only
 * a corrupted decoder holds one) reads as the start state, never past it. */
ALWAYS_INLINE uint32_t state_of(const utfdfa_decoder *d, uint32_t nstates, uint32_t nclasses)
{
    uint32_t s = d->state_limit & STATE_MASK;
    return (s < nstates ? s : 0) * nclasses;
}

/* A byte decoder's state: inside a sequence only with bytes of it pending
 * (a corrupted decoder may claim otherwise, and its error would have no
 * bytes). */
ALWAYS_INLINE uint32_t sequence_state_of(const utfdfa_decoder *d, uint32_t nstates,
                                         uint32_t nclasses)
{
    return PENDING(d->flags) ? state_of(d, nstates, nclasses) : 0;
}

ALWAYS_INLINE void set_state(utfdfa_decoder *d, uint32_t state, uint32_t nclasses)
{
    d->state_limit = (uint8_t)((d->state_limit & ~STATE_MASK) | state / nclasses);
}

ALWAYS_INLINE unsigned limit_field(const utfdfa_decoder *d)
{
    return (unsigned)d->state_limit >> STATE_BITS;
}

static inline void set_limit_field(utfdfa_decoder *d, unsigned limit)
{
    d->state_limit = (uint8_t)((d->state_limit & STATE_MASK) | limit << STATE_BITS);
}

/* Where decoded characters go. */
enum sink { SINK_NONE, SINK_U32, SINK_U16, SINK_BYTES };

#define U7_OPEN 1u
#define U7_END UINT32_MAX /* "the next character" at the end of input */

struct u7w {
    unsigned shift; /* U7_OPEN | bits left over << 1 (0, 2 or 4) */
    unsigned bits;  /* the bits left over */
    bool set_o;     /* UTFDFA_UTF7_DIRECT_SET_O */
    bool imap;      /* IMAP's modified UTF-7 (RFC 3501 section 5.1.3) */
};

struct out {
    void *p;
    size_t cap; /* in units of the sink */
    size_t len;
    struct u7w w; /* the UTF-7 writer, when the sink is UTF-7 bytes */
    bool after_high; /* WTF-8 bytes: a high surrogate was written last */
};

/* ------------------------------------------------------------ UTF-7 writer
 * RFC 2152: Rule 1 (Set D directly, Set O optionally), Rule 3 (SP, TAB, CR,
 * LF directly), Rule 2 ("+-" for "+"; anything else as base64 of its UTF-16
 * units, zero bits padding the last character; "-" ends a run when the next
 * character is a base64 character or "-"; at the end of input always). The
 * base64 alphabet is the grammar's (utf7_digit_byte). Its state (an open
 * run and the bits left over) lives in the encoder or, for transcoding, in
 * the decoder; the writer works on a copy. */
static inline bool u7_direct(uint32_t cp, bool set_o, bool imap)
{
    unsigned direct = imap ? UTF7_CLASS_IMAP_DIRECT
                           : UTF7_CLASS_DIRECT | (set_o ? UTF7_CLASS_SET_O : 0u);
    return cp < 0x80 && (utf7_ascii_class[cp] & direct) != 0;
}

/* Close an open run before `next` (or at the end, next == U7_END). */
/* The shift character, and the digit of a value: "," for "/" in IMAP. */
static inline uint8_t u7_shift_char(const struct u7w *w)
{
    return w->imap ? '&' : '+';
}

static inline uint8_t u7_digit_byte(const struct u7w *w, unsigned v)
{
    return w->imap ? utf7_imap_digit_byte[v] : utf7_digit_byte[v];
}

static inline size_t u7_close_len(const struct u7w *w, uint32_t next)
{
    if (!(w->shift & U7_OPEN))
        return 0;
    /* IMAP: "There is no implicit shift from BASE64 to US-ASCII". */
    bool dash = w->imap || next == U7_END || next == '-' ||
                (next < 0x80 && utf7_digit[next] != 0xFF);
    return (w->shift >> 1 != 0) + dash;
}

static inline size_t u7_close(struct u7w *w, uint32_t next, uint8_t *p)
{
    size_t n = u7_close_len(w, next), k = 0;
    unsigned nb = w->shift >> 1;
    if (nb)
        p[k++] = u7_digit_byte(w, (w->bits << (6 - nb)) & 63);
    if (k < n)
        p[k++] = '-';
    w->shift = 0;
    w->bits = 0;
    return n;
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

static inline size_t u7_put(struct u7w *w, uint32_t cp, uint8_t *p)
{
    size_t k = 0;
    if (u7_direct(cp, w->set_o, w->imap)) {
        k = u7_close(w, cp, p);
        p[k++] = (uint8_t)cp;
        return k;
    }
    if (cp == u7_shift_char(w) && (w->imap || !(w->shift & U7_OPEN))) {
        k = u7_close(w, cp, p);
        p[k++] = u7_shift_char(w);
        p[k++] = '-';
        return k;
    }
    if (!(w->shift & U7_OPEN))
        p[k++] = u7_shift_char(w);
    uint32_t units[2] = {cp, 0};
    size_t nunits = 1;
    if (cp >= 0x10000) {
        units[0] = 0xD800 | (cp - 0x10000) >> 10;
        units[1] = 0xDC00 | (cp & 0x3FF);
        nunits = 2;
    }
    uint32_t acc = w->bits;
    unsigned nb = w->shift >> 1;
    for (size_t u = 0; u < nunits; u++) {
        acc = acc << 16 | units[u];
        nb += 16;
        while (nb >= 6) {
            nb -= 6;
            p[k++] = u7_digit_byte(w, acc >> nb & 63);
        }
        acc &= (1u << nb) - 1;
    }
    w->shift = U7_OPEN | nb << 1;
    w->bits = acc;
    return k;
}

/* A writer from the state kept in caller-owned memory (the encoder's
 * fields, the decoder's writer byte). Only 0, 2 or 4 bits are ever left
 * over; anything else (a corrupted state) is cut to that, so no shift
 * goes negative and no stray bit reaches a digit. */
static inline struct u7w u7_writer(unsigned shift, unsigned bits, bool set_o, bool imap)
{
    unsigned left = shift >> 1 & 7u;
    left = left > 4 ? 4 : left & 6u;
    struct u7w w = {(shift & U7_OPEN) | left << 1, bits & ((1u << left) - 1u), set_o, imap};
    return w;
}

/* The writer state packed into one byte (shift: 4 bits, bits: 4) for the
 * decoder, which keeps it between transcode calls. */
static inline struct u7w u7_unpack(uint8_t packed, bool set_o, bool imap)
{
    return u7_writer(packed & 15u, (unsigned)packed >> 4, set_o, imap);
}

static inline uint8_t u7_pack(const struct u7w *w)
{
    return (uint8_t)(w->shift | w->bits << 4);
}

/* The UTF-7 forms, whose writer keeps state (an open base64 run). */
static inline bool is_utf7(unsigned enc)
{
    return enc == UTFDFA_UTF7 || enc == UTFDFA_UTF7_IMAP;
}

/* ------------------------------------------------------- what fits where */

/* What an output can hold (enum limit, generated from the registry's @limit lines). */
_Static_assert(LIMIT_WTF8 < 1u << (8 - STATE_BITS), "a limit fits the decoder's 3 bits");

static inline unsigned limit_of(unsigned to)
{
    return to < UTFDFA_NENCODINGS ? utfdfa_encoding_limit[to] : LIMIT_UNICODE;
}

/* UTFDFA_ERR_NONE if cp can be written under `limit`, else why not. */
static inline enum utfdfa_error_kind unfit(unsigned limit, uint32_t cp)
{
    bool surrogate = cp >= 0xD800 && cp <= 0xDFFF;
    switch (limit) {
    case LIMIT_UNICODE: /* RFC 3629 section 3 */
        return cp > LIMIT_UNICODE_MAX ? UTFDFA_ERR_TOO_LARGE
                                      : surrogate ? UTFDFA_ERR_SURROGATE : UTFDFA_ERR_NONE;
    case LIMIT_RFC2279: /* RFC 2279bis section 3: 31 bits; surrogates as RFC 3629 */
        return cp > LIMIT_RFC2279_MAX ? UTFDFA_ERR_TOO_LARGE
                                      : surrogate ? UTFDFA_ERR_SURROGATE : UTFDFA_ERR_NONE;
    case LIMIT_WTF8: /* surrogate code points too (the high-low rule is the writer's) */
        return cp > LIMIT_WTF8_MAX ? UTFDFA_ERR_TOO_LARGE : UTFDFA_ERR_NONE;
    case LIMIT_CORRECTED: /* "Putting it all together": no C1, no surrogates, no U+0000 */
        return cp > LIMIT_CORRECTED_MAX ? UTFDFA_ERR_TOO_LARGE
               : (surrogate || cp == 0 || (cp >= 0x80 && cp <= 0x9F)) ? UTFDFA_ERR_UNENCODABLE
                                                                      : UTFDFA_ERR_NONE;
    default:
        return UTFDFA_ERR_NONE;
    }
}

ALWAYS_INLINE bool is_high(uint32_t u)
{
    return u >= 0xD800 && u <= 0xDBFF;
}

ALWAYS_INLINE bool is_low(uint32_t u)
{
    return u >= 0xDC00 && u <= 0xDFFF;
}

/* WTF-8 ("Generalized UTF-8" less the concatenation of a high and a low
 * surrogate's sequences, which is the 4-byte sequence of the character they
 * would make): a low surrogate cannot be written after a high one. */
ALWAYS_INLINE enum utfdfa_error_kind wtf8_write(bool after_high, uint32_t cp)
{
    return after_high && is_low(cp) ? UTFDFA_ERR_SURROGATE : UTFDFA_ERR_NONE;
}

/* Corrected UTF-8's private-use mapping (UTFDFA_CORRECTED_PUA; the spec:
 * C1 controls and surrogates "can be mapped to some convenient private-use
 * codepoints"): each moves by PUA_SHIFT into plane 15. */
enum { PUA_SHIFT = 0xF0000 };
#define OPTIONS (UTFDFA_UTF7_DIRECT_SET_O | UTFDFA_CORRECTED_PUA)
_Static_assert(OPTIONS <= 3, "the options fit the decoder's 2 bits");

static inline bool pua_source(uint32_t cp)
{
    return (cp >= 0x80 && cp <= 0x9F) || (cp >= 0xD800 && cp <= 0xDFFF);
}

static inline bool pua_image(uint32_t cp)
{
    return cp >= PUA_SHIFT && pua_source(cp - PUA_SHIFT);
}

/* Writing with the mapping: a C1 control or surrogate becomes its image; an
 * image itself cannot be written (it would read back as the other). */
static inline enum utfdfa_error_kind pua_write(uint32_t *cp)
{
    if (pua_image(*cp))
        return UTFDFA_ERR_UNENCODABLE;
    if (pua_source(*cp))
        *cp += PUA_SHIFT;
    return UTFDFA_ERR_NONE;
}

/* ------------------------------------------------------------ output side */

/* Corrected UTF-8's rows ("Putting it all together"): corrected_first,
 * corrected_row_tag and corrected_len are generated from the grammar
 * (encodings.gen.h). */
static inline unsigned corrected_row(uint32_t cp)
{
    unsigned r = CORRECTED_NROWS - 1;
    while (cp < corrected_first[r])
        r--;
    return r;
}

/* Bytes of the 1-6 byte form (RFC 2279bis section 3) for a payload. */
static inline size_t utf8_form_len(uint32_t v)
{
    return v < 0x80 ? 1 : v < 0x800 ? 2 : v < 0x10000 ? 3 : v < 0x200000 ? 4
           : v < 0x4000000 ? 5 : 6;
}

ALWAYS_INLINE size_t bytes_for(unsigned to, uint32_t cp)
{
    switch (to) {
    case UTFDFA_UTF8:
    case UTFDFA_WTF8:
    case UTFDFA_UTF8_RFC2279:
        return utf8_form_len(cp);
    case UTFDFA_CORRECTED_UTF8:
        return corrected_len[corrected_row(cp)];
    case UTFDFA_UTF16LE:
    case UTFDFA_UTF16BE:
        return cp < 0x10000 ? 2 : 4;
    case UTFDFA_UTF7: /* at most: "+", six base64 characters (a pair), "-" (sizes only) */
    case UTFDFA_UTF7_IMAP:
        return utfdfa_encoding_max_bytes[to];
    case UTFDFA_MUTF8:
        if (cp == 0)
            return 2;
        /* fall through */
    case UTFDFA_CESU8:
        return cp < 0x10000 ? utf8_form_len(cp) : 6;
    default:
        return 4;
    }
}

/* Units cp takes in a sink (cp is a scalar value). */
ALWAYS_INLINE size_t units_for(const struct out *o, enum sink sink, unsigned to, uint32_t cp)
{
    switch (sink) {
    case SINK_NONE:
        return 0;
    case SINK_U32:
        return 1;
    case SINK_U16:
        return cp < 0x10000 ? 1 : 2;
    default:
        return is_utf7(to) ? u7_len(&o->w, cp) : bytes_for(to, cp);
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

/* The n-byte form: n leading ones in the lead byte, then 6 bits a byte
 * (RFC 3629 section 3; RFC 2279bis section 3 for 5 and 6 bytes). */
static inline void put_utf8_form(uint8_t *p, uint32_t v, size_t n)
{
    if (n == 1) {
        p[0] = (uint8_t)v;
        return;
    }
    for (size_t k = n - 1; k > 0; k--) {
        p[k] = (uint8_t)(0x80 | (v & 0x3F));
        v >>= 6;
    }
    p[0] = (uint8_t)((0xFF00u >> n) | v);
}

/* Write cp at p in `to`; the caller checked that it fits and the room. */
ALWAYS_INLINE void put_bytes(uint8_t *p, unsigned to, uint32_t cp)
{
    switch (to) {
    case UTFDFA_UTF8:
    case UTFDFA_WTF8:
    case UTFDFA_UTF8_RFC2279:
        put_utf8_form(p, cp, utf8_form_len(cp));
        break;
    case UTFDFA_CORRECTED_UTF8: {
        unsigned row = corrected_row(cp);
        put_utf8_form(p, cp - corrected_utf_8_tag_offset[corrected_row_tag[row]], corrected_len[row]);
        break;
    }
    case UTFDFA_CESU8:
    case UTFDFA_MUTF8:
        /* UTR #26: the UTF-8 form of each UTF-16 code unit; modified UTF-8
         * writes U+0000 in the 2-byte form, C0 80. */
        if (cp == 0 && to == UTFDFA_MUTF8) {
            p[0] = 0xC0;
            p[1] = 0x80;
        } else if (cp < 0x10000) {
            put_utf8_form(p, cp, utf8_form_len(cp));
        } else {
            put_utf8_form(p, 0xD800 | (cp - 0x10000) >> 10, 3);
            put_utf8_form(p + 3, 0xDC00 | (cp & 0x3FF), 3);
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
    case UTFDFA_UCS4LE:
        p[0] = (uint8_t)cp;
        p[1] = (uint8_t)(cp >> 8);
        p[2] = (uint8_t)(cp >> 16);
        p[3] = (uint8_t)(cp >> 24);
        break;
    default: /* UTF32BE, UCS4BE */
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
        o->after_high = is_high(cp); /* read only for a WTF-8 target (writes_wtf8) */
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
            o->len += u7_put(&o->w, cp, (uint8_t *)o->p + o->len);
            break;
        }
        put_bytes((uint8_t *)o->p + o->len, to, cp);
        o->len += bytes_for(to, cp);
        if (to == UTFDFA_WTF8)
            o->after_high = is_high(cp);
        break;
    }
}

ALWAYS_INLINE bool room(const struct out *o, enum sink sink, size_t units)
{
    return sink == SINK_NONE || o->cap - o->len >= units;
}

/* Corrected UTF-8's magic number: "The eight-byte sequence EF B7 9D ED B2
 * AE 00 0A ... the Corrected encoding of the four-codepoint sequence
 * U+10E7D U+ED4E U+0000 U+000A"; like a BOM it is a signature, not text. */
static const uint8_t corrected_magic[8] = {0xEF, 0xB7, 0x9D, 0xED, 0xB2, 0xAE, 0x00, 0x0A};
static const uint32_t corrected_magic_cp[4] = {0x10E7D, 0xED4E, 0x0000, 0x000A};

/* The signature an output starts with under UTFDFA_BOM_ADD: U+FEFF, or
 * the magic number for Corrected UTF-8 bytes. */
ALWAYS_INLINE bool sig_is_magic(enum sink sink, unsigned to)
{
    return sink == SINK_BYTES && to == UTFDFA_CORRECTED_UTF8;
}

ALWAYS_INLINE size_t sig_units(const struct out *o, enum sink sink, unsigned to)
{
    return sig_is_magic(sink, to) ? sizeof corrected_magic : units_for(o, sink, to, BOM);
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
            need += u7_put(&w, BOM, scratch);
        for (size_t k = 0; k < n; k++)
            need += u7_put(&w, cps[k], scratch);
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
    if (sig_is_magic(sink, to)) {
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

/* Emit one decoded character, applying the BOM mode to the stream's first
 * one. false when there is no room; nothing is written then. */
ALWAYS_INLINE bool emit(utfdfa_decoder *d, struct out *o, enum sink sink, unsigned to,
                        uint32_t cp)
{
    if (!(d->flags & F_STARTED)) {
        enum bom_action act = bom_first(BOM_MODE(d->flags), cp, sig_is_magic(sink, to));
        size_t need = units_after(o, sink, to, act == BOM_PREPEND, &cp, 1);
        if (act != BOM_DROP && !room(o, sink, need))
            return false;
        d->flags |= F_STARTED;
        if (act == BOM_PREPEND)
            put_sig(o, sink, to);
        if (act == BOM_DROP)
            return true;
    } else if (!room(o, sink, units_for(o, sink, to, cp))) {
        return false;
    }
    put(o, sink, to, cp);
    return true;
}

/* Room for cps[0..n) and `raw` more units after a BOM still owed, and the
 * BOM written. */
ALWAYS_INLINE bool ensure_room(utfdfa_decoder *d, struct out *o, enum sink sink, unsigned to,
                               const uint32_t *cps, size_t n, size_t raw)
{
    bool owe_bom = !(d->flags & F_STARTED) && BOM_MODE(d->flags) == UTFDFA_BOM_ADD;
    if (!room(o, sink, units_after(o, sink, to, owe_bom, cps, n) + raw))
        return false;
    if (owe_bom)
        put_sig(o, sink, to);
    d->flags |= F_STARTED;
    return true;
}

/* Before reporting an error: room for what the error path may write (a BOM
 * still owed, and a U+FFFD when replacing). */
ALWAYS_INLINE bool error_room(utfdfa_decoder *d, struct out *o, enum sink sink, unsigned to)
{
    static const uint32_t replacement = REPLACEMENT;
    return ensure_room(d, o, sink, to, &replacement, ERRORS(d->config) == UTFDFA_REPLACE, 0);
}

ALWAYS_INLINE void set_pending(utfdfa_decoder *d, unsigned pending)
{
    d->flags = (uint8_t)((d->flags & ~7u) | (pending & 7u));
}

ALWAYS_INLINE void report(utfdfa_error *err, uint64_t offset, uint32_t length,
                          enum utfdfa_error_kind kind)
{
    err->offset = offset;
    err->length = length;
    err->kind = kind;
}

/* Report an error of `length` bytes at stream offset `at`, if the output
 * has room for what the error path writes; false (nothing done) if not. */
ALWAYS_INLINE bool fail(utfdfa_decoder *d, struct out *o, enum sink sink, unsigned to,
                        uint64_t at, uint32_t length, enum utfdfa_error_kind kind,
                        utfdfa_error *err)
{
    if (!error_room(d, o, sink, to))
        return false;
    report(err, at, length, kind);
    return true;
}

/* The end of a core: at the end of the input whatever is pending is one
 * error (reported only when `last`); then the state (pre-multiplied by
 * nclasses) goes back to d. */
ALWAYS_INLINE utfdfa_result finish(utfdfa_decoder *d, struct out *o, enum sink sink, unsigned to,
                                   bool last, utfdfa_result r, uint32_t state, uint32_t nclasses,
                                   uint32_t partial, unsigned pending,
                                   enum utfdfa_error_kind kind, size_t used, size_t *n,
                                   utfdfa_error *err)
{
    if (r == UTFDFA_INPUT_EMPTY && last && pending) {
        if (fail(d, o, sink, to, d->offset + used - pending, pending, kind, err)) {
            state = partial = 0;
            pending = 0;
            r = UTFDFA_MALFORMED;
        } else {
            r = UTFDFA_OUTPUT_FULL;
        }
    }
    set_state(d, state, nclasses);
    d->partial = partial;
    set_pending(d, pending);
    d->offset += used;
    *n = used;
    return r;
}

/* Deliver a decoded character of `length` bytes starting at stream offset
 * `at`: written, or (when the output cannot hold it) reported as an error. */
enum delivery { DELIVERED, NO_ROOM, UNFIT };

/* Whether what is written goes to `enc` (WTF-8 or Corrected UTF-8, whose
 * writers have rules beyond a limit): its bytes, or code points for a
 * caller that writes them in `enc` (utfdfa_decoder_set_target), which must
 * get exactly what that encoder accepts. */
ALWAYS_INLINE bool writes_to(const utfdfa_decoder *d, enum sink sink, unsigned to, unsigned enc)
{
    return sink == SINK_BYTES ? to == enc
                              : sink == SINK_U32 && limit_field(d) == limit_of(enc);
}

ALWAYS_INLINE enum delivery deliver(utfdfa_decoder *d, struct out *o, enum sink sink, unsigned to,
                                    unsigned limit, uint32_t cp, uint64_t at, uint32_t length,
                                    utfdfa_error *err)
{
    enum utfdfa_error_kind kind = UTFDFA_ERR_NONE;
    uint32_t written = cp; /* as the writer sees it: code points stay as they are */
    if ((options_of(d) & UTFDFA_CORRECTED_PUA) && writes_to(d, sink, to, UTFDFA_CORRECTED_UTF8))
        kind = pua_write(&written);
    if (writes_to(d, sink, to, UTFDFA_WTF8))
        kind = wtf8_write(o->after_high, cp);
    if (kind == UTFDFA_ERR_NONE)
        kind = unfit(limit, written);
    if (kind == UTFDFA_ERR_NONE)
        return emit(d, o, sink, to, sink == SINK_BYTES ? written : cp) ? DELIVERED : NO_ROOM;
    return fail(d, o, sink, to, at, length, kind, err) ? UNFIT : NO_ROOM;
}

/* ------------------------------------------------------------ strict cores
 * Each reads src[0..*n), writes to o, and returns at the first error. The
 * byte that reveals an error inside a sequence is not consumed: it starts
 * the next one (maximal subparts, Unicode 3.9). A character whose last byte
 * finds no room in the output leaves that byte unread. */

/* Surrogate units: none in the grammar; CESU-8's (UTF-16 code units,
 * paired by the runtime); WTF-8's (surrogate code points, never a high one
 * followed by a low one). */
enum pairing { PAIRS_NONE, PAIRS_JOIN, PAIRS_WTF8 };

/* A generated DFA as the core loop sees it. Each instance is a constant, so
 * once core_dfa() is inlined with it the compiler knows every table. */
struct dfa {
    unsigned self;           /* the encoding it decodes */
    const uint8_t *byte_class;
    const uint8_t *trans8;   /* one of trans8 / trans16, by state count */
    const uint16_t *trans16;
    const uint8_t *payload_mask;
    const uint8_t *tag;      /* tag of a completing transition, or NULL */
    const uint32_t *offset;  /* value offset of each tag, or NULL */
    const uint8_t *error_class;
    const uint8_t *error_kind; /* [state number][error class] */
    uint32_t nstates, nclasses, nerror_classes, reject;
    const uint8_t *final_tag;  /* longest match: [state number] -> tag complete there */
    unsigned reserved_tag;     /* the tag of a unit without a value, or 0 */
    const uint8_t *magic;      /* a signature the stream may begin with, or NULL */
    enum pairing pairing;      /* what the runtime does with surrogate units */
};

#define DFA_TABLES(self, p, P, trans8, trans16, tag, offset, final_tag, reserved, magic,   \
                   pairs)                                                                   \
    {self, p##_class, trans8, trans16, p##_payload_mask, tag, offset, p##_error_class,     \
     &p##_error_kind[0][0], P##_NSTATES, P##_NCLASSES, P##_NERROR_CLASSES, P##_REJECT,       \
     final_tag,                                                                             \
     reserved, magic, pairs}

static const struct dfa dfa_utf8 =
    DFA_TABLES(UTFDFA_UTF8, utf8, UTF8, utf8_trans, NULL, NULL, NULL, NULL, 0, NULL,
               PAIRS_NONE);
static const struct dfa dfa_rfc2279 =
    DFA_TABLES(UTFDFA_UTF8_RFC2279, utf8_rfc2279, UTF8_RFC2279, utf8_rfc2279_trans, NULL, NULL,
               NULL, NULL, 0, NULL, PAIRS_NONE);
static const struct dfa dfa_corrected =
    DFA_TABLES(UTFDFA_CORRECTED_UTF8, corrected_utf_8, CORRECTED_UTF_8, NULL,
               corrected_utf_8_trans, corrected_utf_8_tag, corrected_utf_8_tag_offset,
               corrected_utf_8_final_tag, CORRECTED_UTF_8_RESERVED_TAG, corrected_magic, PAIRS_NONE);
static const struct dfa dfa_cesu8 =
    DFA_TABLES(UTFDFA_CESU8, cesu_8, CESU_8, cesu_8_trans, NULL, NULL, NULL, NULL, 0, NULL,
               PAIRS_JOIN);
static const struct dfa dfa_mutf8 =
    DFA_TABLES(UTFDFA_MUTF8, mutf_8, MUTF_8, mutf_8_trans, NULL, NULL, NULL, NULL, 0, NULL,
               PAIRS_JOIN);
static const struct dfa dfa_wtf8 =
    DFA_TABLES(UTFDFA_WTF8, wtf_8, WTF_8, wtf_8_trans, NULL, NULL, NULL, NULL, 0, NULL, PAIRS_WTF8);
_Static_assert(CORRECTED_UTF_8_TAG_BEFORE == 0x80, "the runtime's TAG_BEFORE");
enum { TAG_BEFORE = 0x80 };

/* Every decoder grammar has the start state as its only accepting state. */
enum { DFA_ACCEPT = 0 };

ALWAYS_INLINE uint32_t dfa_next(const struct dfa *t, uint32_t state, uint32_t cls)
{
    return t->trans8 ? t->trans8[state + cls] : t->trans16[state + cls];
}

/* The limit a decoded character must meet for this sink. */
ALWAYS_INLINE unsigned sink_limit(const utfdfa_decoder *d, enum sink sink, unsigned to)
{
    switch (sink) {
    case SINK_NONE:
        return LIMIT_NONE;
    case SINK_U32:
        return limit_field(d);
    case SINK_U16:
        return LIMIT_UNICODE;
    default:
        return limit_of(to);
    }
}

/* Whether a DFA state lies inside a reserved unit (whose length `partial`
 * counts, as it has no value). */
ALWAYS_INLINE bool in_reserved(const struct dfa *t, uint32_t state)
{
    return t->reserved_tag && t->final_tag[state / t->nclasses] == t->reserved_tag;
}

/* A unit is complete: deliver its value, or handle a reserved unit, which
 * only the same encoding carries (passed through byte by byte as it came),
 * only validation accepts silently, and anything else reports. */
ALWAYS_INLINE enum delivery complete(utfdfa_decoder *d, struct out *o, enum sink sink,
                                     unsigned to, unsigned limit, const struct dfa *t,
                                     unsigned tag, uint32_t value, uint64_t at, uint32_t length,
                                     utfdfa_error *err)
{
    if (t->reserved_tag && tag == t->reserved_tag) {
        if (sink == SINK_NONE || (sink == SINK_BYTES && to == t->self))
            return DELIVERED;
        return fail(d, o, sink, to, at, value, UTFDFA_ERR_RESERVED, err) ? UNFIT : NO_ROOM;
    }
    if (t->offset)
        value += t->offset[tag];
    if (t->self == UTFDFA_CORRECTED_UTF8 && (options_of(d) & UTFDFA_CORRECTED_PUA) &&
        pua_image(value))
        value -= PUA_SHIFT;
    if (t->magic && !(d->flags & F_NOMAGIC))
        return DELIVERED; /* a character of the magic number: held (see magic_byte) */
    return deliver(d, o, sink, to, limit, value, at, length, err);
}

/* The magic number is decided byte by byte at stream offsets 0-7. While the
 * stream matches it, the characters it completes are held back; they are
 * known from the offset alone, so nothing needs storing. release() writes
 * those completed before offset p once the stream turns out otherwise; its
 * U+0000 (offset 6) is then an error like any other. */
ALWAYS_INLINE enum delivery release(utfdfa_decoder *d, struct out *o, enum sink sink, unsigned to,
                                    uint64_t p, utfdfa_error *err)
{
    size_t held = (p > 2) + (p > 5);
    uint32_t out[3] = {corrected_magic_cp[0], corrected_magic_cp[1], REPLACEMENT};
    out[held] = REPLACEMENT;
    if (!ensure_room(d, o, sink, to, out,
                     held + (p > 6 && ERRORS(d->config) == UTFDFA_REPLACE), 0))
        return NO_ROOM;
    for (size_t k = 0; k < held; k++)
        put(o, sink, to, corrected_magic_cp[k]);
    d->flags |= F_NOMAGIC;
    if (p > 6) {
        report(err, 6, 1, UTFDFA_ERR_NUL);
        return UNFIT;
    }
    return DELIVERED;
}

/* A kept magic number is four characters, U+0000 among them: code points
 * for a Corrected UTF-8 writer (utfdfa_decoder_set_target) cannot carry
 * it, so there it is text after all (release: its U+0000 is the error). */
ALWAYS_INLINE bool magic_unwritable(const utfdfa_decoder *d, enum sink sink)
{
    return BOM_MODE(d->flags) == UTFDFA_BOM_KEEP && sink == SINK_U32 &&
           limit_field(d) == LIMIT_CORRECTED;
}

/* The stream's whole magic number has been read: a signature. Kept, it is
 * its four characters (the same bytes again in Corrected UTF-8). */
ALWAYS_INLINE enum delivery magic_read(utfdfa_decoder *d, struct out *o, enum sink sink,
                                       unsigned to)
{
    if (BOM_MODE(d->flags) == UTFDFA_BOM_KEEP && sink != SINK_NONE) {
        if (!room(o, sink, sig_is_magic(sink, to)
                               ? sizeof corrected_magic
                               : units_after(o, sink, to, false, corrected_magic_cp, 4)))
            return NO_ROOM;
        if (sig_is_magic(sink, to)) {
            put_sig(o, sink, to);
        } else {
            for (size_t k = 0; k < 4; k++)
                put(o, sink, to, corrected_magic_cp[k]);
        }
        d->flags |= F_STARTED;
    }
    d->flags |= F_NOMAGIC;
    return DELIVERED;
}

/* CESU-8 and modified UTF-8 (PAIRS_JOIN): the units are UTF-16 code units,
 * paired as a UTF-16 decoder pairs them (UTR #26: "each surrogate ... is
 * encoded as a 3-byte sequence"). A high surrogate is held (partial's upper
 * half) until the unit after it: a low surrogate makes one character of
 * the six bytes; anything else makes the high one an error of its three
 * bytes, and what follows is decoded anew. A lone low surrogate is an
 * error of its three bytes.
 * WTF-8 (PAIRS_WTF8): surrogates are code points of their own; partial's
 * upper half says the unit before was a high surrogate, and then a low one
 * is the error (its three bytes): the pair has a 4-byte sequence. */
enum { PAIR_HALF = 3 };

/* With a high surrogate held, whether byte b (the unit's byte number
 * `pending`, stepping to `next`) can still be part of a low surrogate's
 * sequence (ED B0-BF 80-BF: the grammar's, in encodings.gen.h). */
ALWAYS_INLINE bool low_goes_on(unsigned pending, uint8_t b, bool rejects)
{
    return pending == 0   ? (b >= PAIRED_LOW_FIRST_MIN && b <= PAIRED_LOW_FIRST_MAX)
           : pending == 1 ? (b >= PAIRED_LOW_SECOND_MIN && b <= PAIRED_LOW_SECOND_MAX)
                          : !rejects;
}

ALWAYS_INLINE utfdfa_result core_dfa(utfdfa_decoder *d, const uint8_t *src, size_t *n,
                                     struct out *o, enum sink sink, unsigned to, bool last,
                                     const struct dfa *t, utfdfa_error *err)
{
    bool pairs = t->pairing != PAIRS_NONE, join = t->pairing == PAIRS_JOIN;
    uint32_t state = sequence_state_of(d, t->nstates, t->nclasses);
    uint32_t cp = pairs ? d->partial & 0xFFFF : d->partial;
    uint32_t hold = pairs ? d->partial >> 16 : 0; /* JOIN: a held high surrogate; WTF8: 1
                                                      after a high surrogate */
    unsigned pending = PENDING(d->flags);
    unsigned limit = sink_limit(d, sink, to);
    bool passthrough = t->reserved_tag && sink == SINK_BYTES && to == t->self;
    size_t i = 0, len = *n;
    utfdfa_result r = UTFDFA_INPUT_EMPTY;
    while (i < len) {
        uint8_t b = src[i];
        if (t->magic && !(d->flags & F_NOMAGIC)) {
            uint64_t p = d->offset + i;
            bool matches = p < 8 && b == t->magic[p] && !(p == 7 && magic_unwritable(d, sink));
            if (matches && p >= 6) {
                /* Its U+0000 is held, not an error; its U+000A ends it. */
                if (p == 7 && magic_read(d, o, sink, to) == NO_ROOM) {
                    r = UTFDFA_OUTPUT_FULL;
                    break;
                }
                i++;
                continue;
            }
            if (!matches) {
                enum delivery dv = release(d, o, sink, to, p, err);
                if (dv != DELIVERED) {
                    r = dv == NO_ROOM ? UTFDFA_OUTPUT_FULL : UTFDFA_MALFORMED;
                    break;
                }
            }
        }
        uint32_t cls = t->byte_class[b];
        uint32_t next = dfa_next(t, state, cls);
        if (join && hold && !low_goes_on(pending, b, next == t->reject)) {
            /* The held high surrogate has no low one: it is the error; this
             * byte is stepped again without it. */
            if (!fail(d, o, sink, to, d->offset + i - pending - PAIR_HALF, PAIR_HALF,
                      UTFDFA_ERR_SURROGATE, err)) {
                r = UTFDFA_OUTPUT_FULL;
                break;
            }
            hold = 0;
            r = UTFDFA_MALFORMED;
            break;
        }
        if (next == DFA_ACCEPT) {
            /* A unit is complete: with this byte, or (longest match) before
             * it, when this byte is then stepped again from the start. */
            unsigned tag = t->tag ? t->tag[state + cls] : 0;
            bool before = tag & TAG_BEFORE;
            uint32_t v = before ? cp : cp << 6 | (b & t->payload_mask[cls]);
            uint32_t length = before ? pending : pending + 1;
            uint32_t back = before ? (in_reserved(t, state) ? cp : pending) : pending;
            if (join && hold) { /* v is the low surrogate (low_goes_on) */
                v = 0x10000 + ((hold - 0xD800) << 10) + (v - 0xDC00);
                back += PAIR_HALF;
                length += PAIR_HALF;
            } else if (join && is_high(v)) {
                hold = v;
                state = DFA_ACCEPT;
                cp = 0;
                pending = 0;
                i++;
                continue;
            } else if ((join || hold) && is_low(v)) {
                if (!fail(d, o, sink, to, d->offset + i - back, length, UTFDFA_ERR_SURROGATE,
                          err)) {
                    r = UTFDFA_OUTPUT_FULL;
                    break;
                }
                hold = 0;
                state = DFA_ACCEPT;
                cp = 0;
                pending = 0;
                i++;
                r = UTFDFA_MALFORMED;
                break;
            }
            enum delivery dv = complete(d, o, sink, to, limit, t, tag & (TAG_BEFORE - 1), v,
                                        d->offset + i - back, length, err);
            if (dv == NO_ROOM) {
                r = UTFDFA_OUTPUT_FULL;
                break;
            }
            hold = t->pairing == PAIRS_WTF8 && is_high(v);
            state = DFA_ACCEPT;
            cp = 0;
            pending = 0;
            i += !before;
            if (dv == UNFIT) {
                r = UTFDFA_MALFORMED;
                break;
            }
        } else if (next != t->reject) {
            if (in_reserved(t, next)) { /* no value: count the bytes, pass them through */
                if (passthrough && !ensure_room(d, o, sink, to, NULL, 0, 1)) {
                    r = UTFDFA_OUTPUT_FULL;
                    break;
                }
                if (passthrough)
                    ((uint8_t *)o->p)[o->len++] = b;
                cp++;
                pending += pending < 7;
            } else {
                cp = cp << 6 | (b & t->payload_mask[cls]);
                pending++;
            }
            state = next;
            i++;
        } else {
            enum utfdfa_error_kind kind = (enum utfdfa_error_kind)
                t->error_kind[state / t->nclasses * t->nerror_classes + t->error_class[b]];
            /* At a start this byte alone is the error; inside a sequence the
             * sequence so far is, and this byte starts anew. */
            bool alone = state == DFA_ACCEPT;
            if (!fail(d, o, sink, to, d->offset + i - pending, alone ? 1 : pending, kind, err)) {
                r = UTFDFA_OUTPUT_FULL;
                break;
            }
            i += alone;
            state = DFA_ACCEPT;
            cp = 0;
            pending = 0;
            hold = join ? hold : 0; /* WTF-8: what follows an error follows no high surrogate */
            r = UTFDFA_MALFORMED;
            break;
        }
    }
    if (r == UTFDFA_INPUT_EMPTY && last && t->magic && !(d->flags & F_NOMAGIC)) {
        /* The input ends inside the magic number: it was text after all. */
        enum delivery dv = release(d, o, sink, to, d->offset + i, err);
        if (dv != DELIVERED)
            r = dv == NO_ROOM ? UTFDFA_OUTPUT_FULL : UTFDFA_MALFORMED;
    }
    if (r == UTFDFA_INPUT_EMPTY && last && pending && t->final_tag &&
        t->final_tag[state / t->nclasses]) {
        /* Longest match: the end of input ends the unit. */
        unsigned tag = t->final_tag[state / t->nclasses];
        uint32_t back = in_reserved(t, state) ? cp : pending;
        enum delivery dv = complete(d, o, sink, to, limit, t, tag, cp, d->offset + i - back,
                                    pending, err);
        if (dv == NO_ROOM)
            r = UTFDFA_OUTPUT_FULL;
        else {
            state = DFA_ACCEPT;
            cp = 0;
            pending = 0;
            r = dv == UNFIT ? UTFDFA_MALFORMED : r;
        }
    }
    if (r == UTFDFA_INPUT_EMPTY && last && join && hold) {
        /* The input ends after a high surrogate (and perhaps the start of
         * one more unit, reported next as truncated). */
        if (fail(d, o, sink, to, d->offset + i - pending - PAIR_HALF, PAIR_HALF,
                 UTFDFA_ERR_SURROGATE, err)) {
            hold = 0;
            r = UTFDFA_MALFORMED;
        } else {
            r = UTFDFA_OUTPUT_FULL;
        }
    }
    return finish(d, o, sink, to, last, r, state, t->nclasses, cp | hold << 16, pending,
                  UTFDFA_ERR_TRUNCATED, i, n, err);
}

/* UTF-16: partial holds the pending byte (bits 0-7) and a pending high
 * surrogate (bits 16-31); pending counts the bytes of both (0-3). */
ALWAYS_INLINE utfdfa_result core_utf16(utfdfa_decoder *d, const uint8_t *src, size_t *n,
                                       struct out *o, enum sink sink, unsigned to, bool last,
                                       bool big_endian, utfdfa_error *err)
{
    uint32_t partial = d->partial;
    unsigned pending = PENDING(d->flags);
    unsigned limit = sink_limit(d, sink, to);
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
                if (!fail(d, o, sink, to, d->offset + i - 1, 2, UTFDFA_ERR_SURROGATE, err)) {
                    r = UTFDFA_OUTPUT_FULL;
                    break;
                }
                partial = 0;
                pending = 0;
                i++;
                r = UTFDFA_MALFORMED;
                break;
            } else {
                enum delivery dv = deliver(d, o, sink, to, limit, u, d->offset + i - 1, 2, err);
                if (dv == NO_ROOM) {
                    r = UTFDFA_OUTPUT_FULL;
                    break;
                }
                partial = 0;
                pending = 0;
                i++;
                if (dv == UNFIT) {
                    r = UTFDFA_MALFORMED;
                    break;
                }
            }
        } else { /* pending == 3: a high surrogate, then one byte */
            uint32_t high = partial >> 16;
            if (u >= 0xDC00 && u <= 0xDFFF) {
                uint32_t cp = 0x10000 + ((high - 0xD800) << 10) + (u - 0xDC00);
                enum delivery dv = deliver(d, o, sink, to, limit, cp, d->offset + i - 3, 4, err);
                if (dv == NO_ROOM) {
                    r = UTFDFA_OUTPUT_FULL;
                    break;
                }
                partial = 0;
                pending = 0;
                i++;
                if (dv == UNFIT) {
                    r = UTFDFA_MALFORMED;
                    break;
                }
            } else {
                /* A lone high surrogate: it is the error; the unit after it
                 * is decoded anew (WHATWG), its first byte kept pending. */
                if (!fail(d, o, sink, to, d->offset + i - 3, 2, UTFDFA_ERR_SURROGATE, err)) {
                    r = UTFDFA_OUTPUT_FULL;
                    break;
                }
                partial = first;
                pending = 1;
                r = UTFDFA_MALFORMED;
                break;
            }
        }
    }
    /* WHATWG: whatever is pending at the end is one error. */
    return finish(d, o, sink, to, last, r, 0, 1, partial, pending,
                  pending == 2 ? UTFDFA_ERR_SURROGATE : UTFDFA_ERR_TRUNCATED, i, n, err);
}

/* UTF-32 (raw: UCS-4, any 32-bit value): partial gathers the bytes of one unit. */
ALWAYS_INLINE utfdfa_result core_utf32(utfdfa_decoder *d, const uint8_t *src, size_t *n,
                                       struct out *o, enum sink sink, unsigned to, bool last,
                                       bool big_endian, bool raw, utfdfa_error *err)
{
    uint32_t partial = d->partial;
    unsigned pending = PENDING(d->flags);
    pending = pending > 3 ? 3 : pending; /* a unit has 4 bytes (a corrupted decoder: more) */
    unsigned limit = sink_limit(d, sink, to);
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
        /* UTF-32 holds scalar values only (errors of the input); raw UCS-4
         * holds anything, and only the output decides. */
        enum utfdfa_error_kind kind = raw ? UTFDFA_ERR_NONE : unfit(LIMIT_UNICODE, u);
        enum delivery dv = kind != UTFDFA_ERR_NONE
            ? (fail(d, o, sink, to, d->offset + i - 3, 4, kind, err) ? UNFIT : NO_ROOM)
            : deliver(d, o, sink, to, limit, u, d->offset + i - 3, 4, err);
        if (dv == NO_ROOM) {
            r = UTFDFA_OUTPUT_FULL;
            break;
        }
        partial = 0;
        pending = 0;
        i++;
        if (dv != DELIVERED) {
            r = UTFDFA_MALFORMED;
            break;
        }
    }
    return finish(d, o, sink, to, last, r, 0, 1, partial, pending, UTFDFA_ERR_TRUNCATED, i, n,
                  err);
}

/* UTF-7 (RFC 2152), from the tables of grammar/utf7.abnf, and IMAP's
 * modified UTF-7 (RFC 3501 section 5.1.3), from grammar/utf7-imap.abnf. The
 * table knows the direct characters, the shift syntax, the base64 bit phase
 * (its marks say where a 16-bit unit completes and how many bits stay
 * over) and which ends of a run are valid. The runtime adds what a table
 * cannot hold:
 *   - pairing the 16-bit units into characters (Rule 2: "Surrogate pairs
 *     ... as a separate 16 bit quantity"); a lone surrogate is an error
 *     covering the base64 characters that carried its bits;
 *   - an error at the end of a run covers its partial unit, not the whole
 *     run (pending counts the characters carrying the current unit's bits;
 *     with none, the run's last character), and a "-" after it still ends
 *     the shift ("that character is absorbed");
 *   - UTF-7: the end of input ends a run like a character outside Set B;
 *     IMAP: "There is no implicit shift", so it is truncated there;
 *   - IMAP: "Modified BASE64 MUST NOT be used to represent any printing
 *     US-ASCII character" (an overlong error of that unit's characters), and
 *     "null shifts ... are not permitted" (a run right after a run: a
 *     bad-shift error of its "&", then the run is decoded).
 * partial holds the leftover bits (0-14, bits 0-13) and a pending high
 * surrogate: its low 10 bits (14-23), present (24), 4 characters long
 * (25), and how many bytes back it began (26-29); IMAP: a run has just
 * ended (30). */
#define U7_ACC(p) ((p) & 0x3FFFu)
#define U7_HAS_HIGH 0x1000000u
#define U7_AFTER_RUN 0x40000000u
#define U7_HIGH(p) (0xD800u | ((p) >> 14 & 0x3FFu))
#define U7_HIGH_LEN(p) (3u + ((p) >> 25 & 1u))
#define U7_HIGH_BACK(p) ((p) >> 26 & 15u)
#define U7_WITH_HIGH(acc, unit, len, back)                                                 \
    ((acc) | ((unit) & 0x3FFu) << 14 | U7_HAS_HIGH | ((len) == 4u) << 25 | (uint32_t)(back) << 26)
_Static_assert(UTF7_TAG_BEFORE == 0x80, "the runtime's TAG_BEFORE");
_Static_assert((int)UTF7_VALUE_LITERAL == (int)UTF7_IMAP_VALUE_LITERAL &&
                   (int)UTF7_VALUE_EMPTY == (int)UTF7_IMAP_VALUE_EMPTY &&
                   (int)UTF7_VALUE_SPLIT == (int)UTF7_IMAP_VALUE_SPLIT &&
                   UTF7_ACCEPT == UTF7_IMAP_ACCEPT,
               "the generator numbers values alike");
_Static_assert(UTF7_DIGIT_BITS == UTF7_IMAP_DIGIT_BITS, "base64 both");

/* The tables of one UTF-7 grammar. */
struct u7g {
    const uint8_t *cls, *trans, *tag, *tag_value, *digit, *error_class, *error_kind;
    const uint32_t *tag_number;
    unsigned nstates, nclasses, nerror_classes, reject;
    bool imap;
};
#define U7G(p, P, imap)                                                                     \
    {p##_class, p##_trans, p##_tag, p##_tag_value, p##_digit, p##_error_class,             \
     &p##_error_kind[0][0], p##_tag_number, P##_NSTATES, P##_NCLASSES, P##_NERROR_CLASSES,  \
     P##_REJECT, imap}
static const struct u7g u7g_utf7 = U7G(utf7, UTF7, false);
static const struct u7g u7g_imap = U7G(utf7_imap, UTF7_IMAP, true);

/* A run reads one more byte while a high surrogate waits: one more back. */
ALWAYS_INLINE uint32_t u7_step_back(uint32_t partial)
{
    return partial & U7_HAS_HIGH ? partial + (1u << 26) : partial;
}

/* A pending high surrogate without its low one is the error (the
 * characters that carried it); the byte at `here` is stepped again
 * without it. */
ALWAYS_INLINE utfdfa_result u7_lone_high(utfdfa_decoder *d, struct out *o, enum sink sink,
                                         unsigned to, uint64_t here, uint32_t *partial,
                                         utfdfa_error *err)
{
    if (!fail(d, o, sink, to, here - U7_HIGH_BACK(*partial), U7_HIGH_LEN(*partial),
              UTFDFA_ERR_SURROGATE, err))
        return UTFDFA_OUTPUT_FULL;
    *partial = U7_ACC(*partial);
    return UTFDFA_MALFORMED;
}

ALWAYS_INLINE utfdfa_result core_utf7(utfdfa_decoder *d, const uint8_t *src, size_t *n,
                                      struct out *o, enum sink sink, unsigned to, bool last,
                                      const struct u7g *g, utfdfa_error *err)
{
    uint32_t state = state_of(d, g->nstates, g->nclasses), partial = d->partial;
    unsigned pending = PENDING(d->flags);
    unsigned limit = sink_limit(d, sink, to);
    size_t i = 0, len = *n;
    utfdfa_result r = UTFDFA_INPUT_EMPTY;
    for (;;) {
        /* The end of input steps like "." (outside Set B, not absorbed). */
        bool end = i == len;
        if (end && !(last && state != UTF7_ACCEPT))
            break;
        uint8_t b = end ? '.' : src[i];
        uint32_t cls = g->cls[b];
        uint32_t next = g->trans[state + cls];
        unsigned tag = g->tag[state + cls];
        uint64_t here = d->offset + i;
        bool ends_run = next == g->reject || (next == UTF7_ACCEPT &&
                                              g->tag_value[tag & 0x7F] == UTF7_VALUE_EMPTY);
        if (ends_run && state != UTF7_ACCEPT && (partial & U7_HAS_HIGH)) {
            /* A high surrogate left alone at the end of its run. */
            r = u7_lone_high(d, o, sink, to, here, &partial, err);
            break;
        }
        if (g->imap && (partial & U7_AFTER_RUN) && state != UTF7_ACCEPT && !end &&
            g->digit[b] != 0xFF) {
            /* "-&" and a run: a null shift. Its "&" is the error; the run
             * goes on (this byte is stepped again). */
            if (!fail(d, o, sink, to, here - 1, 1, UTFDFA_ERR_BAD_SHIFT, err)) {
                r = UTFDFA_OUTPUT_FULL;
                break;
            }
            partial &= ~U7_AFTER_RUN;
            r = UTFDFA_MALFORMED;
            break;
        }
        if (next == g->reject) {
            enum utfdfa_error_kind kind = (enum utfdfa_error_kind)
                g->error_kind[state / g->nclasses * g->nerror_classes + g->error_class[b]];
            bool alone = state == UTF7_ACCEPT; /* a byte that may not be sent directly */
            bool shift = kind == UTFDFA_ERR_BAD_SHIFT && pending == 0 &&
                         state == g->trans[UTF7_ACCEPT + g->cls[g->imap ? '&' : '+']];
            if (end && (shift || g->imap))
                kind = UTFDFA_ERR_TRUNCATED; /* the shift character, or a run, and then nothing */
            unsigned span = pending ? pending : 1; /* the partial unit, else the last character */
            uint64_t at = alone ? here : here - span;
            if (!fail(d, o, sink, to, at, alone ? 1 : span, kind, err)) {
                r = UTFDFA_OUTPUT_FULL;
                break;
            }
            /* After a run that ended in error, its "-" still ends the shift. */
            i += alone || (!end && b == '-' && !shift);
            state = UTF7_ACCEPT;
            partial = 0;
            pending = 0;
            r = UTFDFA_MALFORMED;
            break;
        }
        if (next == UTF7_ACCEPT) {
            bool before = tag & TAG_BEFORE;
            tag &= 0x7F;
            unsigned value = g->tag_value[tag];
            if (value != UTF7_VALUE_EMPTY) {
                /* A direct character, or the constant of "+-" ("&-"). */
                bool literal = value == UTF7_VALUE_LITERAL;
                uint32_t cp = literal ? b : g->tag_number[tag];
                enum delivery dv = deliver(d, o, sink, to, limit, cp, here - !literal,
                                           literal ? 1 : 2, err);
                if (dv == NO_ROOM) {
                    r = UTFDFA_OUTPUT_FULL;
                    break;
                }
                i++;
                state = UTF7_ACCEPT;
                partial &= ~U7_AFTER_RUN;
                if (dv == UNFIT) {
                    r = UTFDFA_MALFORMED;
                    break;
                }
                continue;
            }
            /* A run ended well: "-" is absorbed, anything else read again. */
            i += !before && !end;
            state = UTF7_ACCEPT;
            partial = g->imap ? U7_AFTER_RUN : 0;
            pending = 0;
            continue;
        }
        /* Inside a unit: the shift character adds no bits, base64
         * characters 6 each; pending counts the characters carrying the
         * current unit's bits. */
        if (state == UTF7_ACCEPT) {
            state = next;
            i++;
            continue;
        }
        partial &= ~U7_AFTER_RUN;
        uint32_t acc = U7_ACC(partial) << UTF7_DIGIT_BITS | g->digit[b];
        unsigned carried = pending + 1;
        if (!tag || g->tag_value[tag] != UTF7_VALUE_SPLIT) {
            partial = u7_step_back((partial & ~0x3FFFu) | acc);
            pending = carried;
            state = next;
            i++;
            continue;
        }
        unsigned keep = g->tag_number[tag];
        uint32_t unit = acc >> keep, rest = acc & ((1u << keep) - 1);
        unsigned after = keep ? 1 : 0; /* this character also begins the next unit */
        bool high_waits = partial & U7_HAS_HIGH;
        uint64_t unit_at = here + 1 - carried;
        if (high_waits && !is_low(unit)) {
            /* A high surrogate not followed by a low one. */
            r = u7_lone_high(d, o, sink, to, here, &partial, err);
            break;
        }
        if (is_high(unit)) {
            partial = U7_WITH_HIGH(rest, unit, carried, carried);
            pending = after;
            state = next;
            i++;
            continue;
        }
        bool printable = g->imap && unit >= 0x20 && unit <= 0x7E;
        if ((is_low(unit) && !high_waits) || printable) {
            if (!fail(d, o, sink, to, unit_at, carried,
                      printable ? UTFDFA_ERR_OVERLONG : UTFDFA_ERR_SURROGATE, err)) {
                r = UTFDFA_OUTPUT_FULL;
                break;
            }
            partial = rest;
            pending = after;
            state = next;
            i++;
            r = UTFDFA_MALFORMED;
            break;
        }
        uint32_t cp = unit;
        if (high_waits) {
            cp = 0x10000 + ((U7_HIGH(partial) - 0xD800) << 10) + (unit - 0xDC00);
            unit_at = here - U7_HIGH_BACK(partial);
        }
        enum delivery dv = deliver(d, o, sink, to, limit, cp, unit_at,
                                   (uint32_t)(here + 1 - unit_at), err);
        if (dv == NO_ROOM) {
            r = UTFDFA_OUTPUT_FULL;
            break;
        }
        partial = rest;
        pending = after;
        state = next;
        i++;
        if (dv == UNFIT) {
            r = UTFDFA_MALFORMED;
            break;
        }
    }
    set_state(d, state, g->nclasses);
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
        return core_dfa(d, src, n, o, sink, to, last, &dfa_utf8, err);
    case UTFDFA_UTF8_RFC2279:
        return core_dfa(d, src, n, o, sink, to, last, &dfa_rfc2279, err);
    case UTFDFA_CORRECTED_UTF8:
        return core_dfa(d, src, n, o, sink, to, last, &dfa_corrected, err);
    case UTFDFA_UTF16LE:
        return core_utf16(d, src, n, o, sink, to, last, false, err);
    case UTFDFA_UTF16BE:
        return core_utf16(d, src, n, o, sink, to, last, true, err);
    case UTFDFA_UTF32LE:
        return core_utf32(d, src, n, o, sink, to, last, false, false, err);
    case UTFDFA_UTF32BE:
        return core_utf32(d, src, n, o, sink, to, last, true, false, err);
    case UTFDFA_UCS4LE:
        return core_utf32(d, src, n, o, sink, to, last, false, true, err);
    case UTFDFA_UTF7:
        return core_utf7(d, src, n, o, sink, to, last, &u7g_utf7, err);
    case UTFDFA_UTF7_IMAP:
        return core_utf7(d, src, n, o, sink, to, last, &u7g_imap, err);
    case UTFDFA_CESU8:
        return core_dfa(d, src, n, o, sink, to, last, &dfa_cesu8, err);
    case UTFDFA_MUTF8:
        return core_dfa(d, src, n, o, sink, to, last, &dfa_mutf8, err);
    case UTFDFA_WTF8:
        return core_dfa(d, src, n, o, sink, to, last, &dfa_wtf8, err);
    default:
        return core_utf32(d, src, n, o, sink, to, last, true, true, err);
    }
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
            u7_put(&w, BOM, scratch);
        need += u7_close_len(&w, U7_END);
    }
    if (!room(o, sink, need))
        return false;
    if (owe_bom)
        put_sig(o, sink, to);
    if (utf7)
        o->len += u7_close(&o->w, U7_END, (uint8_t *)o->p + o->len);
    return true;
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
            if (r == UTFDFA_INPUT_EMPTY && last) {
                bool owe_bom = !(d->flags & F_STARTED) && BOM_MODE(d->flags) == UTFDFA_BOM_ADD;
                if (!end_output(o, sink, to, owe_bom))
                    r = UTFDFA_OUTPUT_FULL;
                else if (owe_bom)
                    d->flags |= F_STARTED;
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

/* ------------------------------------------------------- UTF-8 fast paths
 * For a UTF-8 source the fast paths of src/utf8_fast.c go first. Each reads
 * a prefix and leaves exactly the state, partial value and output the plain
 * loop would (utf8_fast.h); they stop before an error, a character that
 * does not fit the output, or the end. The plain loop (convert) then takes
 * a short window past where they stopped, and the fast path goes on. They
 * are not used while a BOM mode still acts on the stream's first
 * character, nor for a target that cannot hold every scalar value
 * (Corrected UTF-8: C1 controls, U+0000). */
enum { FAST_WINDOW = 16 };

ALWAYS_INLINE bool fast_ok(const utfdfa_decoder *d, enum sink sink)
{
    return FROM(d->config) == UTFDFA_UTF8 &&
           ((d->flags & F_STARTED) || BOM_MODE(d->flags) == UTFDFA_BOM_KEEP) &&
           !(sink == SINK_U32 && limit_field(d) == LIMIT_CORRECTED);
}

/* The fast path over src[0..n), output at o; what it read. */
ALWAYS_INLINE size_t fast_step(utfdfa_decoder *d, const uint8_t *src, size_t n, struct out *o,
                               enum sink sink)
{
    uint32_t state = sequence_state_of(d, UTF8_NSTATES, UTF8_NCLASSES), partial = d->partial;
    size_t k, written = 0, errors = 0;
    switch (sink) {
    case SINK_NONE:
        k = utfdfa__utf8_scan(src, n, &state);
        partial = 0; /* unused: validation has no values */
        break;
    case SINK_U32:
        if (ERRORS(d->config) == UTFDFA_REPLACE)
            k = utfdfa__utf8_decode32_replace(src, n, &state, &partial,
                                              (uint32_t *)o->p + o->len, o->cap - o->len,
                                              &written, &errors);
        else
            k = utfdfa__utf8_decode32(src, n, &state, &partial, (uint32_t *)o->p + o->len,
                                      o->cap - o->len, &written);
        break;
    default:
        k = utfdfa__utf8_decode16(src, n, &state, &partial, (uint16_t *)o->p + o->len,
                                  o->cap - o->len, &written);
        break;
    }
    if (k) {
        size_t p = utfdfa__utf8_pending(src, k, state);
        set_pending(d, p == SIZE_MAX ? PENDING(d->flags) + (unsigned)k : (unsigned)p);
        set_state(d, state, UTF8_NCLASSES);
        d->partial = partial;
        d->offset += k;
        o->len += written;
        if (errors)
            d->flags |= F_REPLACED;
    }
    return k;
}

/* A public call for a UTF-8 source: fast path, plain window, again. */
ALWAYS_INLINE utfdfa_result convert_fast(utfdfa_decoder *d, const uint8_t *src, size_t *src_len,
                                         struct out *o, enum sink sink, bool last,
                                         utfdfa_error *err)
{
    size_t done = 0, n = *src_len;
    for (;;) {
        if (fast_ok(d, sink))
            done += fast_step(d, src + done, n - done, o, sink);
        size_t rest = n - done, w = rest < FAST_WINDOW ? rest : FAST_WINDOW;
        bool wlast = last && w == rest;
        size_t m = w;
        utfdfa_result r = convert(d, src + done, &m, o, sink, UTFDFA_UTF8, UTFDFA_UTF8, wlast, err);
        done += m;
        if (r != UTFDFA_INPUT_EMPTY || w == rest) {
            *src_len = done;
            return r;
        }
    }
}

/* ------------------------------------------------------- the instances
 * UTFDFA_EACH_ENCODING (encodings.gen.h, from the registry's source column)
 * lists every encoding with the name of its unit as a source:
 * src/convert_from.c is compiled once per name, with -DSOURCE_NAME=name (the
 * Makefile's CONVERT_SOURCES, generated from the same rows). */

/* One call of the decoder d (whose source is the unit's) into sink; `to` is
 * the target encoding for SINK_BYTES and ignored otherwise. */
#define UTFDFA_DECLARE_CONVERT_FROM(name, enc)                                                 \
    utfdfa_result utfdfa__convert_from_##name(utfdfa_decoder *d, const uint8_t *src,           \
                                              size_t *src_len, struct out *o, enum sink sink,  \
                                              unsigned to, bool last, utfdfa_error *err);
UTFDFA_EACH_ENCODING(UTFDFA_DECLARE_CONVERT_FROM)

#endif /* UTFDFA_CONVERT_H */
