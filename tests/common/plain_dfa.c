/* SPDX-License-Identifier: MIT */
#include "plain_dfa.h"

uint32_t plain_dfa_step(const struct plain_dfa *d, uint32_t state, uint8_t byte)
{
    size_t k = state + d->cls[byte];
    return d->trans_size == 1 ? ((const uint8_t *)d->trans)[k] : ((const uint16_t *)d->trans)[k];
}

enum form { STRICT32, STRICT16, REPLACE32, REPLACE16, IGNORE32, IGNORE16 };

/* Writes the character v as form's units if they fit in cap - *o, a
 * surrogate pair whole or not at all; false when they do not fit. */
static bool put(enum form form, uint32_t v, void *dst, size_t cap, size_t *o)
{
    bool utf16 = form == STRICT16 || form == REPLACE16 || form == IGNORE16;
    size_t units = utf16 && v >= 0x10000 ? 2 : 1;
    if (cap - *o < units)
        return false;
    if (!utf16) {
        ((uint32_t *)dst)[(*o)++] = v;
    } else if (units == 1) {
        ((uint16_t *)dst)[(*o)++] = (uint16_t)v;
    } else {
        ((uint16_t *)dst)[(*o)++] = (uint16_t)(0xD800 | (v - 0x10000) >> 10);
        ((uint16_t *)dst)[(*o)++] = (uint16_t)(0xDC00 | (v & 0x3FF));
    }
    return true;
}

/* The loops in one, so that strict, replacing and ignoring differ only
 * where the runtime's do: at a rejecting byte. */
static size_t run(const struct plain_dfa *d, enum form form, const uint8_t *s, size_t n,
                  uint32_t *state, uint32_t *partial, void *dst, size_t cap, size_t *written,
                  size_t *errors)
{
    uint32_t st = *state, cp = *partial;
    size_t i = 0, o = 0, e = 0;
    while (i < n) {
        uint32_t next = plain_dfa_step(d, st, s[i]);
        if (next == d->reject) {
            bool ignore = form == IGNORE32 || form == IGNORE16;
            if (!ignore && ((form != REPLACE32 && form != REPLACE16) ||
                            !put(form, 0xFFFD, dst, cap, &o)))
                break;
            e++;
            /* A byte that cannot start a character is one error; one that
             * cuts a character short starts the next one. */
            i += st == d->accept;
            st = d->accept;
            cp = 0;
            continue;
        }
        uint32_t v = cp << 6 | (s[i] & d->payload_mask[d->cls[s[i]]]);
        if (next == d->accept) {
            /* No room: stop before the byte, as if the character had not come. */
            if (!put(form, v, dst, cap, &o))
                break;
            cp = 0;
        } else {
            cp = v;
        }
        st = next;
        i++;
    }
    *state = st;
    *partial = cp;
    *written = o;
    *errors = e;
    return i;
}

size_t plain_dfa_decode(const struct plain_dfa *d, const uint8_t *s, size_t n, uint32_t *state,
                        uint32_t *partial, void *dst, size_t cap, size_t *written, bool utf16)
{
    size_t errors;
    return run(d, utf16 ? STRICT16 : STRICT32, s, n, state, partial, dst, cap, written,
               &errors);
}

size_t plain_dfa_replace(const struct plain_dfa *d, const uint8_t *s, size_t n, uint32_t *state,
                         uint32_t *partial, uint32_t *dst, size_t cap, size_t *written,
                         size_t *errors)
{
    return run(d, REPLACE32, s, n, state, partial, dst, cap, written, errors);
}

size_t plain_dfa_replace16(const struct plain_dfa *d, const uint8_t *s, size_t n,
                           uint32_t *state, uint32_t *partial, uint16_t *dst, size_t cap,
                           size_t *written, size_t *errors)
{
    return run(d, REPLACE16, s, n, state, partial, dst, cap, written, errors);
}

size_t plain_dfa_ignore(const struct plain_dfa *d, const uint8_t *s, size_t n, uint32_t *state,
                        uint32_t *partial, void *dst, size_t cap, size_t *written,
                        size_t *errors, bool utf16)
{
    return run(d, utf16 ? IGNORE16 : IGNORE32, s, n, state, partial, dst, cap, written, errors);
}
