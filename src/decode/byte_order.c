/* SPDX-License-Identifier: MIT */
/* UTF-16 and UTF-32 without a byte order: the BOM read, the BOM written
 * (see byte_order.h). */
#include "decode/byte_order.h"

/* While undecided, the bytes seen so far (at most a unit's less one) are
 * kept as the decoders of the little-endian forms keep a partial unit:
 * byte k in bits 8k of partial, their number pending. So when no BOM
 * comes, they are already that decoder's state. */

bool utfdfa__byte_order_resolve(const struct call *c, const uint8_t *src, size_t *src_len,
                                utfdfa_result *r)
{
    struct decoder *d = c->d;
    unsigned from = source_of(d), unit = from == UTFDFA_UTF16 ? 2 : 4;
    unsigned held = PENDING(d->flags);
    held = held < unit ? held : unit - 1; /* a corrupted decoder may claim more */
    uint32_t seen = d->partial & ((UINT32_C(1) << 8 * held) - 1);
    size_t take = *src_len < unit - held ? *src_len : unit - held;
    uint32_t first = seen; /* the first unit, read little-endian */
    for (size_t k = 0; k < take; k++)
        first |= (uint32_t)src[k] << 8 * (held + (unsigned)k);
    bool whole = held + take == unit;
    if (!whole && !c->last) { /* the BOM may still come: keep what there is */
        d->partial = first;
        set_pending(d, held + (unsigned)take);
        d->offset += take;
        *src_len = take;
        *r = UTFDFA_INPUT_EMPTY;
        return false;
    }
    bool little = whole && first == BOM;                                      /* FF FE (00 00) */
    bool big = whole && first == (unit == 2 ? 0xFFFEu : UINT32_C(0xFFFE0000)); /* (00 00) FE FF */
    if (!little && !big) { /* no BOM: little-endian, from the first byte on */
        d->partial = seen;
        set_pending(d, held);
        set_source(d, little_endian_of(from));
        *src_len = 0;
        return true;
    }
    /* The BOM is the stream's first character as the BOM mode sees it:
     * never text, and under UTFDFA_BOM_ADD the output's signature. */
    if (!(d->flags & F_STARTED) && BOM_MODE(d->flags) == UTFDFA_BOM_ADD) {
        if (!room(c->o, c->sink, units_after(c->o, c->sink, c->to, true, NULL, 0))) {
            *src_len = 0;
            *r = UTFDFA_OUTPUT_FULL;
            return false;
        }
        put_sig(c->o, c->sink, c->to);
    }
    d->flags |= F_STARTED;
    d->partial = 0;
    set_pending(d, 0);
    d->offset += take;
    set_source(d, little ? little_endian_of(from) : utfdfa_big_endian_of(from));
    *src_len = take;
    return true;
}
