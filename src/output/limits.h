/* SPDX-License-Identifier: MIT */
/* What each output can hold (internal): shared by the encoders and by the
 * decoders, which report what the target cannot hold at its input offset. */
#ifndef UTFDFA_OUTPUT_LIMITS_H
#define UTFDFA_OUTPUT_LIMITS_H

#include "common.h"
#include "encodings.gen.h"

/* ------------------------------------------------------- what fits where */

/* What an output can hold: enum limit, generated from the registry's @limit
 * lines. A value that names no encoding has UTF-8's (forms.h's known_target). */

static inline unsigned limit_of(unsigned to)
{
    return to < UTFDFA_NENCODINGS ? utfdfa_encoding_limit[to] : LIMIT_UNICODE;
}

/* UTFDFA_ERR_NONE if cp can be written under `limit`, else why not. A
 * value the output cannot hold is the output's error (the header's rule):
 * too-large above its range and above every code point, unencodable for
 * anything else it lacks (a character above an 8-bit output's range, the
 * code points its @limit line excludes, surrogates among them: `surrogate`
 * is only ever the input's). WTF-8's high-low rule is its writer's. */
static inline enum utfdfa_error_kind unfit(unsigned limit, uint32_t cp)
{
    bool surrogate = cp >= 0xD800 && cp <= 0xDFFF;
    switch (limit) {
#define UNFIT_CASE(lim, max, surrogates, c1, nul)                                           \
    case lim:                                                                              \
        return cp > (max) ? (cp > 0x10FFFFu ? UTFDFA_ERR_TOO_LARGE : UTFDFA_ERR_UNENCODABLE) \
               : ((surrogates) && surrogate) || ((c1) && cp >= 0x80 && cp <= 0x9F) ||       \
                       ((nul) && cp == 0)                                                   \
                   ? UTFDFA_ERR_UNENCODABLE                                                 \
                   : UTFDFA_ERR_NONE;
        UTFDFA_EACH_LIMIT(UNFIT_CASE)
#undef UNFIT_CASE
    default:
        return UTFDFA_ERR_NONE;
    }
}

/* Whether an output under `limit` holds every scalar value (what the fast
 * paths write unchecked). */
ALWAYS_INLINE bool holds_scalars(unsigned limit)
{
    return limit < UTFDFA_NLIMITS && (UTFDFA_LIMITS_HOLDING_SCALARS >> limit & 1u);
}

/* What stands for an error when replacing: U+FFFD, or in an output that
 * cannot hold it (ISO-8859-1) "?", as Python's encoders and glibc's iconv
 * write there. */
ALWAYS_INLINE uint32_t replacement_for(unsigned limit)
{
    return unfit(limit, REPLACEMENT) == UTFDFA_ERR_NONE ? REPLACEMENT : '?';
}

/* WTF-8 ("Generalized UTF-8" less the concatenation of a high and a low
 * surrogate's sequences, which is the 4-byte sequence of the character they
 * would make): a low surrogate cannot be written after a high one. */
ALWAYS_INLINE enum utfdfa_error_kind wtf8_write(bool after_high, uint32_t cp)
{
    return after_high && is_low(cp) ? UTFDFA_ERR_UNENCODABLE : UTFDFA_ERR_NONE;
}

/* What a UTF-32 unit cannot be: a scalar value (the input's errors). */
static inline enum utfdfa_error_kind not_scalar(uint32_t u)
{
    return u > LIMIT_UNICODE_MAX ? UTFDFA_ERR_TOO_LARGE
           : u >= 0xD800 && u <= 0xDFFF ? UTFDFA_ERR_SURROGATE
                                        : UTFDFA_ERR_NONE;
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

/* The writer rule, one for the decoders' delivery and the encoder: why a
 * writer under `limit` cannot write cp (UTFDFA_ERR_NONE if it can). Its
 * own rule first, told by its limit (the registry's rows: each such limit
 * is its writer's alone), then the limit's: the private-use mapping under
 * `options` (*cp becomes what is written), the high-low rule when a high
 * surrogate was written last. */
ALWAYS_INLINE enum utfdfa_error_kind writer_refuses(unsigned limit, unsigned options,
                                                    bool after_high, uint32_t *cp)
{
    enum utfdfa_error_kind kind = UTFDFA_ERR_NONE;
    if (utfdfa_limit_pua(limit) && (options & UTFDFA_CORRECTED_PUA))
        kind = pua_write(cp);
    if (utfdfa_limit_wobbly(limit))
        kind = wtf8_write(after_high, *cp);
    return kind == UTFDFA_ERR_NONE ? unfit(limit, *cp) : kind;
}
#endif /* UTFDFA_OUTPUT_LIMITS_H */
