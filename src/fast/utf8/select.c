/* SPDX-License-Identifier: MIT */
/* The UTF-8 fast paths' entry points (utf8_fast.h): the set of variants
 * for the kernel level in use (src/fast/levels.h).
 * (utfdfa__utf8_pending is in portable.c, with a copy of the tables.) */
#include "utf8_fast.h"

#include "lookup.h"
#include "variants.h"

#include "../levels.h"

/* Each level's set and validator (the rows of levels.h; a validator of 0:
 * the set's). */
#define UTF8_ROW_SET(id, name, detect, kernels, utf8_set, utf8_scan) [LEVEL_##id] = &utf8_set,
static const struct utfdfa__utf8_fast_impl *const fast_sets[FAST_LEVELS] = {
    KERN_LEVELS(UTF8_ROW_SET)};
#undef UTF8_ROW_SET
#define UTF8_ROW_SCAN(id, name, detect, kernels, utf8_set, utf8_scan) [LEVEL_##id] = utf8_scan,
static utfdfa__scan_fn const fast_scans[FAST_LEVELS] = {KERN_LEVELS(UTF8_ROW_SCAN)};
#undef UTF8_ROW_SCAN

/* The set for the level in use (utfdfa__fast_level: chosen once, or forced
 * by the tests). */
static const struct utfdfa__utf8_fast_impl *fast_impl(void)
{
    return fast_sets[utfdfa__fast_level()];
}

/* Validation by the level's validator: the lookup validator (lookup.h)
 * from SSE4 on, and with NEON. */
size_t utfdfa__utf8_scan(const uint8_t *src, size_t n, uint32_t *state)
{
    enum fast_level level = utfdfa__fast_level();
    if (fast_scans[level])
        return fast_scans[level](src, n, state);
    return fast_sets[level]->scan(src, n, state);
}

size_t utfdfa__utf8_decode32(const uint8_t *src, size_t n, uint32_t *state, uint32_t *partial,
                             uint32_t *dst, size_t cap, size_t *written)
{
    return fast_impl()->dec32(src, n, state, partial, dst, cap, written);
}

/* The public calls' direct entry (utf8_fast.h): the VBMI level's path for
 * a short chunk, or the AVX2 one's (small_avx2.h: the AVX-512 level without
 * VBMI too, which decodes with the AVX2 set) when the room leaves it its
 * scratch (the level read without a call; before it is chosen, the
 * decoder's call below chooses it), or the SSE4 one's (small_sse4.h) with
 * the same room; any other chunk by the level's strict
 * decoder, the state converted as the general path's fast step converts
 * it (the layers between cost a 4 KiB chunk of ASCII a tenth of its
 * time, and a 64-byte chunk at SSE4 close to a third; in any error mode the
 * general path takes over at an error, as the strict output up to it is
 * the same). */
size_t utfdfa__utf8_stream32(const uint8_t *src, size_t n, struct utfdfa__utf8_cursor *c,
                             uint32_t *dst, size_t cap, size_t *written)
{
#if FAST_X86
    if (n <= 64 && cap >= n) {
        enum fast_level level = fast_level_chosen();
        if (level == LEVEL_AVX512VBMI)
            return utfdfa__utf8_small_vbmi_32(src, n, c, dst, cap, written);
        if ((level == LEVEL_AVX2 || level == LEVEL_AVX512) && cap - n >= SMALL_SLACK)
            return utfdfa__utf8_small_avx2_32(src, n, c, dst, cap, written);
        if (level == LEVEL_SSE4 && cap - n >= SMALL_SLACK)
            return utfdfa__utf8_small_sse4_32(src, n, c, dst, cap, written);
    }
#endif
    /* From ACCEPT, the leading ASCII bytes first: then a chunk of ASCII
     * text costs no slab set-up and no count of pending bytes. */
    const struct utfdfa__utf8_fast_impl *impl = fast_impl();
    size_t a = !c->pending && impl->ascii32 && cap >= n ? impl->ascii32(src, n, dst) : 0;
    /* ACCEPT, as a call of dec32 leaves it (only a corrupted decoder has
     * another state with nothing pending) */
    if (a)
        c->state = 0;
    uint32_t nclasses = fast_utf8()->nclasses;
    /* ACCEPT when nothing is pending, as the general path reads the state */
    uint32_t state = c->pending ? c->state * nclasses : 0, partial = c->partial;
    size_t w = 0, k = 0;
    if (a < n)
        k = impl->dec32(src + a, n - a, &state, &partial, dst + a, cap - a, &w);
    if (k) {
        size_t p = utfdfa__utf8_pending(src + a, k, state);
        c->pending = p == SIZE_MAX ? c->pending + (uint32_t)k : (uint32_t)p;
        c->state = state / nclasses;
        c->partial = partial;
    }
    *written = a + w;
    return a + k;
}

size_t utfdfa__utf8_decode16(const uint8_t *src, size_t n, uint32_t *state, uint32_t *partial,
                             uint16_t *dst, size_t cap, size_t *written)
{
    return fast_impl()->dec16(src, n, state, partial, dst, cap, written);
}

size_t utfdfa__utf8_decode32_replace(const uint8_t *src, size_t n, uint32_t *state,
                                     uint32_t *partial, uint32_t *dst, size_t cap,
                                     size_t *written, size_t *errors)
{
    return fast_impl()->rep(src, n, state, partial, dst, cap, written, errors);
}
