/* SPDX-License-Identifier: MIT */
/* The decoder's state and its packed fields (internal). */
#ifndef UTFDFA_DECODE_DECODER_H
#define UTFDFA_DECODE_DECODER_H

#include "common.h"
#include "output/writer.h"

/* The decoder's state: the caller's 16 bytes of utfdfa_decoder, copied in
 * at the start of a public call and back at its end (load_decoder,
 * store_decoder), so the public type says nothing of its fields. All zero
 * is a fresh strict UTF-8 decoder that keeps a BOM. */
struct decoder {
    uint64_t offset;     /* stream offset of the next byte */
    uint32_t partial;    /* value of the sequence in progress */
    uint8_t flags;       /* bytes pending (3 bits), started, replaced, BOM mode (2 bits),
                            no magic number */
    uint8_t config;      /* source encoding's low 4 bits, error mode (2 bits), options (2
                            bits: enum utfdfa_encoder_option, for utfdfa_transcode's output) */
    uint8_t writer_src;  /* utfdfa_transcode's writer, packed (7 bits, output/writer.h);
                            bit 7: the source encoding's fifth bit */
    uint8_t state_limit; /* automaton state number, not pre-multiplied (5 bits);
                            utfdfa_decoder_set_target: what decode_utf32 may return (3 bits) */
};
_Static_assert(sizeof(struct decoder) == sizeof(utfdfa_decoder) &&
                   _Alignof(struct decoder) <= _Alignof(utfdfa_decoder),
               "the decoder's state fits the public type");

static inline struct decoder load_decoder(const utfdfa_decoder *d)
{
    struct decoder s;
    memcpy(&s, d, sizeof s);
    return s;
}

/* The caller's copy is written as two 8-byte halves, the second put
 * together from the fields as they were written (each read whole): the
 * calls write the fields one by one, and a load of 16 bytes over those
 * stores would wait for them to reach the cache (a store-forwarding stall,
 * at every call). */
static inline void store_decoder(utfdfa_decoder *d, const struct decoder *s)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    _Static_assert(offsetof(struct decoder, partial) == 8 && offsetof(struct decoder, flags) == 12 &&
                       offsetof(struct decoder, config) == 13 &&
                       offsetof(struct decoder, writer_src) == 14 &&
                       offsetof(struct decoder, state_limit) == 15,
                   "the layout the halves are put together in");
    volatile uint8_t flags = s->flags; /* not merged back into one wide load */
    uint64_t hi = (uint64_t)s->partial | (uint64_t)flags << 32 | (uint64_t)s->config << 40 |
                  (uint64_t)s->writer_src << 48 | (uint64_t)s->state_limit << 56;
    memcpy(d, &s->offset, 8);
    memcpy((unsigned char *)d + 8, &hi, 8);
#else
    memcpy(d, s, sizeof *s);
#endif
}

/* writer: the writer's packed state (output/writer.h), which
 * utfdfa_transcode keeps (and decode_utf32 to a WTF-8 target): the low 7
 * bits of writer_src (writer_of, set_writer). */
#define SOURCE_HIGH 0x80u /* writer_src: the source's bit 4 */
_Static_assert((WRITER_MASK & SOURCE_HIGH) == 0, "the writer and the source's bit 4 share a byte");

ALWAYS_INLINE unsigned writer_of(const struct decoder *d)
{
    return d->writer_src & WRITER_MASK;
}

ALWAYS_INLINE void set_writer(struct decoder *d, unsigned writer)
{
    d->writer_src = (uint8_t)((d->writer_src & SOURCE_HIGH) | (writer & WRITER_MASK));
}

/* The decoder's fields are read and written only here
 * and through the accessors below; all zero is a fresh decoder.
 * flags: pending:3 | started:1 | replaced:1 | bom:2 | nomagic:1 */
#define PENDING(f) ((unsigned)(f) & 7u)
#define F_STARTED 0x08u
#define F_REPLACED 0x10u
#define F_NOMAGIC 0x80u /* the stream is known not to begin with a magic number */
#define BOM_MODE(f) (((unsigned)(f) >> 5) & 3u)
/* config: from:4 | errors:2 | options:2; the source's fifth bit is
 * writer_src's bit 7 (source_of, set_source). */
#define ERRORS(c) (((unsigned)(c) >> 4) & 3u)
_Static_assert(UTFDFA_NENCODINGS <= 32, "an encoding fits the decoder's 5 bits");

ALWAYS_INLINE unsigned source_of(const struct decoder *d)
{
    return ((unsigned)d->config & 15u) | ((unsigned)d->writer_src >> 7) << 4;
}

ALWAYS_INLINE void set_source(struct decoder *d, unsigned from)
{
    d->config = (uint8_t)((d->config & ~15u) | (from & 15u));
    d->writer_src = (uint8_t)((d->writer_src & WRITER_MASK) | ((from >> 4) & 1u) << 7);
}

ALWAYS_INLINE unsigned options_of(const struct decoder *d)
{
    return (unsigned)d->config >> 6;
}

static inline void set_options(struct decoder *d, unsigned options)
{
    d->config = (uint8_t)((d->config & 0x3Fu) | (options & 3u) << 6);
}

/* state_limit: state:5 | limit:3. The automaton state is kept as its
 * number: a core multiplies it by its table's class count on entry and
 * divides on return (by a constant once inlined), once per call, never
 * per byte. */
#define STATE_BITS 5
#define STATE_MASK ((1u << STATE_BITS) - 1u)
_Static_assert(UTFDFA_NLIMITS <= 1u << (8 - STATE_BITS), "a limit fits the decoder's 3 bits");

/* The pre-multiplied state of a table with nstates states of nclasses
 * classes. The field is the caller's memory: a number past the table (only
 * a corrupted decoder holds one) reads as the start state, never past it. */
ALWAYS_INLINE uint32_t state_of(const struct decoder *d, uint32_t nstates, uint32_t nclasses)
{
    uint32_t s = d->state_limit & STATE_MASK;
    return (s < nstates ? s : 0) * nclasses;
}

/* A byte decoder's state: inside a sequence only with bytes of it pending
 * (a corrupted decoder may claim otherwise, and its error would have no
 * bytes). */
ALWAYS_INLINE uint32_t sequence_state_of(const struct decoder *d, uint32_t nstates,
                                         uint32_t nclasses)
{
    return PENDING(d->flags) ? state_of(d, nstates, nclasses) : 0;
}

ALWAYS_INLINE void set_state(struct decoder *d, uint32_t state, uint32_t nclasses)
{
    d->state_limit = (uint8_t)((d->state_limit & ~STATE_MASK) | state / nclasses);
}

ALWAYS_INLINE unsigned limit_field(const struct decoder *d)
{
    return (unsigned)d->state_limit >> STATE_BITS;
}

static inline void set_limit_field(struct decoder *d, unsigned limit)
{
    d->state_limit = (uint8_t)((d->state_limit & STATE_MASK) | limit << STATE_BITS);
}

#endif /* UTFDFA_DECODE_DECODER_H */
