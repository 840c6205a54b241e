/* SPDX-License-Identifier: MIT */
/* The UTF-8 text inside other encodings (encodings.gen.h's
 * utf8_sublanguages: RFC 2279, CESU-8, modified UTF-8, WTF-8), decoded by
 * UTF-8's fast paths (src/fast/utf8/). One copy for every decoder instance
 * and sink: it runs a slab at a time, so the call costs nothing that
 * matters. */
#include "decode/convert.h"

/* From a character boundary (fast_ok): UTF-8's fast path over src up to
 * the first byte that leaves the source's part, and back to the start of a
 * character it left unfinished (the plain loop decodes that one by the
 * source's own grammar). A UTF-8 source has no bounds. first: the first
 * slab's length (utf8_fast.h). */
size_t utfdfa__utf8_part_step(struct decoder *d, const uint8_t *src, size_t n, struct out *o,
                              enum sink sink, size_t first)
{
    unsigned from = source_of(d), below = 0, limit = 256;
    if (from != UTFDFA_UTF8) {
        below = utf8_sublanguages[from].below;
        limit = utf8_sublanguages[from].from;
    }
    bool bounded = below > 0 || limit < 256;
    size_t done = 0, written = 0, most = bounded ? first : UTF8_PART_MOST;
    while (n - done > 0) {
        size_t slab = n - done < most ? n - done : most, m = slab, w = 0, k;
        uint32_t state = UTF8_ACCEPT, partial = 0;
        if (bounded)
            m = utfdfa__utf8_part_end(src + done, slab, below, limit);
        if (sink == SINK_NONE)
            k = utfdfa__utf8_scan(src + done, m, &state);
        else if (sink == SINK_U16)
            k = utfdfa__utf8_decode16(src + done, m, &state, &partial,
                                      (uint16_t *)o->p + o->len + written,
                                      o->cap - o->len - written, &w);
        else
            k = utfdfa__utf8_decode32(src + done, m, &state, &partial,
                                      (uint32_t *)o->p + o->len + written,
                                      o->cap - o->len - written, &w);
        size_t read = k;
        if (state != UTF8_ACCEPT) /* a character begun, never one began before src */
            k -= utfdfa__utf8_pending(src + done, k, state);
        done += k;
        written += w;
        if (read < m || m < most) /* stopped, or at the end: else only a slab's end cut */
            break;
        most = most < UTF8_PART_MOST ? 2 * most : most;
    }
    if (done) {
        d->offset += done;
        d->flags |= F_STARTED;
        o->len += written;
        o->after_high = false; /* read only for a WTF-8 target: no surrogate came */
    }
    return done;
}
