/* SPDX-License-Identifier: MIT */
/* UTF-8 decoded with its errors replaced into UTF-16, or dropped
 * (UTFDFA_IGNORE) into UTF-32 or UTF-16: the strict fast path up to an
 * error, then the replacing one into code points (utf8_fast.h) a block at a
 * time until a block has no error, then the strict one again. A block goes
 * to UTF-16 through the encoder's kernel (src/fast/kernels.h). Ignoring,
 * a block's U+FFFDs are its errors' and are dropped: its bytes end before
 * the text's own next U+FFFD (EF BF BD, which only ever is that
 * character; at one, after its first byte), which the strict path takes.
 * A block that still has more U+FFFDs than errors (one whose first bytes
 * came before it) is not taken. Without this, every error stopped the
 * fast path, and random bytes decoded at a twentieth of the speed of
 * replacing into UTF-32. */
#include "decode/convert.h"

/* Code points a block: 8 KiB of stack, as utfdfa_transcode's blocks. The
 * replacing path starts each call with short windows around errors, so a
 * short block would spend its time starting. */
enum { LOSSY_BLOCK = 2048 };

struct lossy {
    bool ignore; /* errors dropped, not replaced */
    bool u16;    /* UTF-16 units, not UTF-32 */
};

static void *unit_at(struct lossy how, void *dst, size_t i)
{
    return how.u16 ? (void *)((uint16_t *)dst + i) : (void *)((uint32_t *)dst + i);
}

/* The U+FFFDs of codes[0..n) dropped, when they are its `errors` (no U+FFFD
 * of the text's own among them): how many are left; else SIZE_MAX. */
static size_t drop_replacements(uint32_t *codes, size_t n, size_t errors)
{
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        codes[kept] = codes[i];
        kept += codes[i] != REPLACEMENT;
    }
    return n - kept == errors ? kept : SIZE_MAX;
}

/* Whether src[0..n) begins with U+FFFD (EF BF BD: only ever that
 * character, never an error's bytes). */
static bool starts_replacement(const uint8_t *src, size_t n)
{
    return n >= 3 && src[0] == 0xEF && src[1] == 0xBF && src[2] == 0xBD;
}

/* Where the text's own first U+FFFD starts in src[0..n), or n. */
static size_t own_replacement(const uint8_t *src, size_t n)
{
    const uint8_t *p = src, *end = src + n;
    while ((p = memchr(p, 0xEF, (size_t)(end - p))) != NULL && !starts_replacement(p, end - p))
        p++;
    return p ? (size_t)(p - src) : n;
}

/* The replacing path over src[0..n) for at most `cps` characters (u->cap),
 * written at u->dst (room for cps of them: 2 * cps UTF-16 units): what it
 * read, or 0 and nothing done where ignoring cannot tell errors from the
 * text. u->written: the units written; u->errors counts the errors too. */
static size_t lossy_block(struct lossy how, const uint8_t *src, size_t n, uint32_t *state,
                          uint32_t *partial, struct utf8_units *u)
{
    size_t cps = u->cap;
    void *dst = u->dst;
    uint32_t scratch[LOSSY_BLOCK], *codes = how.u16 ? scratch : dst;
    uint32_t st = *state, pa = *partial;
    size_t got = 0, e = 0;
    if (how.ignore && starts_replacement(src, n))
        n = 1; /* at the text's own U+FFFD (where the last block stopped): its first byte */
    size_t k = utfdfa__utf8_decode32_replace(src, n, &st, &pa, codes, cps, &got, &e);
    size_t kept = how.ignore && e ? drop_replacements(codes, got, e) : got;
    u->written = 0;
    if (kept == SIZE_MAX) { /* again, up to the text's own first U+FFFD */
        size_t own = own_replacement(src, k);
        if (own == k)
            return 0; /* it began before the block */
        st = *state, pa = *partial, got = 0, e = 0;
        k = utfdfa__utf8_decode32_replace(src, own ? own : 1, &st, &pa, codes, cps, &got, &e);
        if ((kept = e ? drop_replacements(codes, got, e) : got) == SIZE_MAX)
            return 0;
    }
    got = kept;
    if (how.u16) {
        size_t bytes = 0;
        utfdfa__cp_to_form(FORM_HOST_UTF16, scratch, got, dst, 4 * cps, &bytes);
        got = bytes / 2;
    }
    *state = st;
    *partial = pa;
    u->errors += e;
    u->written = got;
    return k;
}

/* Replacing into UTF-16 with room for one unit, after the strict path
 * stopped (at an error, or before the byte that completes a pair that
 * does not fit): the next character if it is one unit (a U+FFFD is), read
 * as the plain loop reads it, to before the byte that would complete the
 * one after. */
static size_t last_unit(const uint8_t *src, size_t n, uint32_t *state, uint32_t *partial,
                        uint16_t *dst, size_t *written, size_t *errors)
{
    uint32_t st = *state, pa = *partial, cp = 0;
    size_t got = 0, e = 0;
    size_t k = utfdfa__utf8_decode32_replace(src, n, &st, &pa, &cp, 1, &got, &e);
    *written = 0;
    if (got && cp >= 0x10000)
        return 0;
    *state = st;
    *partial = pa;
    *errors += e;
    if (got)
        dst[(*written)++] = (uint16_t)cp;
    return k;
}

static size_t lossy(struct lossy how, const uint8_t *src, size_t n, uint32_t *state,
                    uint32_t *partial, struct utf8_units *u)
{
    void *dst = u->dst;
    size_t cap = u->cap, *errors = &u->errors;
    size_t done = 0, w = 0, got, k, unit_max = how.u16 ? 2 : 1;
    bool moved = true;
    *errors = 0;
    while (moved) { /* the strict path or a block read or wrote something */
        k = how.u16 ? utfdfa__utf8_decode16(src + done, n - done, state, partial,
                                            unit_at(how, dst, w), cap - w, &got)
                    : utfdfa__utf8_decode32(src + done, n - done, state, partial,
                                            unit_at(how, dst, w), cap - w, &got);
        done += k;
        w += got;
        moved = k != 0;
        size_t before = *errors + 1; /* the strict path stopped at an error, or for room */
        while (done < n && cap - w >= unit_max && *errors != before) {
            size_t cps = (cap - w) / unit_max;
            before = *errors;
            struct utf8_units block = {unit_at(how, dst, w), cps < LOSSY_BLOCK ? cps : LOSSY_BLOCK,
                                       0, *errors};
            k = lossy_block(how, src + done, n - done, state, partial, &block);
            got = block.written;
            *errors = block.errors;
            if (!k && !got)
                break;
            done += k;
            w += got;
            moved = true;
        }
    }
    if (!how.ignore && how.u16 && done < n && cap - w == 1) {
        done += last_unit(src + done, n - done, state, partial, unit_at(how, dst, w), &got, errors);
        w += got;
    }
    u->written = w;
    return done;
}

size_t utfdfa__utf8_decode_in_mode(enum utfdfa_error_mode mode, unsigned width,
                                   const uint8_t *src, size_t n, uint32_t *state,
                                   uint32_t *partial, struct utf8_units *u)
{
    u->errors = 0;
    if (mode == UTFDFA_STRICT && width == 2)
        return utfdfa__utf8_decode16(src, n, state, partial, u->dst, u->cap, &u->written);
    if (mode == UTFDFA_STRICT)
        return utfdfa__utf8_decode32(src, n, state, partial, u->dst, u->cap, &u->written);
    if (mode == UTFDFA_REPLACE && width == 4)
        return utfdfa__utf8_decode32_replace(src, n, state, partial, u->dst, u->cap, &u->written,
                                             &u->errors);
    /* As the plain loop (convert()): every mode but REPLACE drops errors. */
    struct lossy how = {mode != UTFDFA_REPLACE, width == 2};
    return lossy(how, src, n, state, partial, u);
}
