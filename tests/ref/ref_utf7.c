/* SPDX-License-Identifier: MIT */
/*
 * ref_utf7.c - reference UTF-7 decoder/encoder; see ref_utf7.h.
 *
 * RFC 2152, "UTF-7 Definition", Rules 1-3, one byte at a time. The state
 * of a decode lives in a struct on the caller's stack; nothing is global.
 */
#include "ref_utf7.h"

#include <stdint.h>

/* ------------------------------------------------------------ the sets */

/* RFC 2152, "Definitions": Set D (directly encoded characters): A-Z, a-z,
   0-9 and the nine specials ' ( ) , - . / : ?  ("+" and "=" are omitted). */
static bool is_set_d(uint32_t c)
{
    if (c >= 'A' && c <= 'Z')
        return true;
    if (c >= 'a' && c <= 'z')
        return true;
    if (c >= '0' && c <= '9')
        return true;
    switch (c) {
    case '\'': case '(': case ')': case ',': case '-': case '.': case '/': case ':': case '?':
        return true;
    default:
        return false;
    }
}

/* RFC 2152, "Definitions": Set O (optional direct characters). "\" and "~"
   are omitted by the RFC; "}" (decimal 125) is in it. */
static bool is_set_o(uint32_t c)
{
    switch (c) {
    case '!': case '"': case '#': case '$': case '%': case '&': case '*': case ';':
    case '<': case '=': case '>': case '@': case '[': case ']': case '^': case '_':
    case '`': case '{': case '|': case '}':
        return true;
    default:
        return false;
    }
}

/* RFC 2152, Rule 3: space, tab, carriage return and line feed. */
static bool is_rule3_space(uint32_t c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Set B (Modified Base64): the RFC 2045 base64 alphabet without "=".
   Returns the 6-bit value 0..63 (RFC 2045 Table 1: A-Z 0-25, a-z 26-51,
   0-9 52-61, "+" 62, "/" 63), or -1 for a byte outside Set B. */
static int base64_value(uint8_t b)
{
    if (b >= 'A' && b <= 'Z')
        return b - 'A';
    if (b >= 'a' && b <= 'z')
        return b - 'a' + 26;
    if (b >= '0' && b <= '9')
        return b - '0' + 52;
    if (b == '+')
        return 62;
    if (b == '/')
        return 63;
    return -1;
}

static bool is_set_b(uint32_t c)
{
    return c < 0x80 && base64_value((uint8_t)c) >= 0;
}

/* The inverse of base64_value for v in 0..63. */
static uint8_t base64_char(unsigned v)
{
    if (v < 26)
        return (uint8_t)('A' + v);
    if (v < 52)
        return (uint8_t)('a' + (v - 26));
    if (v < 62)
        return (uint8_t)('0' + (v - 52));
    return v == 62 ? '+' : '/';
}

const char *ref7_kind_name(enum ref7_kind k)
{
    switch (k) {
    case REF7_OK: return "ok";
    case REF7_INVALID_DIRECT: return "invalid-direct";
    case REF7_BAD_SHIFT: return "bad-shift";
    case REF7_TRUNCATED: return "truncated";
    case REF7_SURROGATE: return "surrogate";
    case REF7_PARTIAL_UNIT: return "partial-unit";
    case REF7_NONZERO_PADDING: return "nonzero-padding";
    }
    return "invalid-kind";
}

/* ------------------------------------------------------------ decoding */

/* One decode in progress. In strict mode the first error stops it (and no
   U+FFFD is written); in replace mode each error writes U+FFFD. */
struct dec {
    uint32_t *out;
    size_t nout;
    bool strict;
    bool stopped;             /* strict mode: an error was seen */
    size_t nerrors;
    struct ref7_error *errs;  /* may be NULL */
    size_t maxerrs;
    bool *marked;             /* may be NULL: which outputs are errors' U+FFFD */
};

static void emit(struct dec *d, uint32_t cp)
{
    if (d->marked != NULL)
        d->marked[d->nout] = false;
    d->out[d->nout++] = cp;
}

static void error(struct dec *d, size_t offset, size_t length, enum ref7_kind kind)
{
    if (d->errs != NULL && d->nerrors < d->maxerrs) {
        d->errs[d->nerrors].offset = offset;
        d->errs[d->nerrors].length = length;
        d->errs[d->nerrors].kind = kind;
    }
    d->nerrors++;
    if (d->strict)
        d->stopped = true;
    else {
        emit(d, 0xFFFD);
        if (d->marked != NULL)
            d->marked[d->nout - 1] = true;
    }
}

/*
 * A shifted run (RFC 2152 Rule 2) starting at src[start], which is a Set B
 * byte. Returns the offset of the first byte after the run, with the
 * terminating "-" (if any) already consumed; a terminator other than "-" is
 * left for direct mode.
 */
static size_t shifted_run(struct dec *d, const uint8_t *src, size_t len, size_t start)
{
    uint32_t bits = 0;       /* the held bits, right-aligned */
    unsigned nbits = 0;      /* how many: 0..14 between chars */
    size_t unit_start = start; /* first char contributing to the unit being assembled */
    bool high_held = false;  /* a high surrogate waits for its low one */
    uint32_t high = 0;
    size_t high_off = 0, high_len = 0; /* the held high's bytes */
    size_t i = start;

    while (i < len && base64_value(src[i]) >= 0) {
        /* Each base64 char appends 6 bits (RFC 2045 base64, most
           significant bits first). A char that finds no bits held starts
           a new unit. */
        if (nbits == 0)
            unit_start = i;
        bits = (bits << 6) | (uint32_t)base64_value(src[i]);
        nbits += 6;
        if (nbits >= 16) {
            /* The top 16 held bits are a UTF-16 code unit, most significant
               octet first (RFC 2152 Rule 2). Its bytes: unit_start..i. */
            uint32_t u = (bits >> (nbits - 16)) & 0xFFFF;
            size_t u_off = unit_start, u_len = i - unit_start + 1;
            nbits -= 16;
            bits &= ((uint32_t)1 << nbits) - 1;
            /* Leftover bits came from this char: it also starts the next unit. */
            if (nbits > 0)
                unit_start = i;

            /* RFC 2152 Rule 2: "Surrogate pairs (UTF-16) are converted by
               treating each half of the pair as a separate 16 bit quantity";
               decoding pairs them again (Unicode D91). */
            if (u >= 0xD800 && u <= 0xDBFF) {
                /* A high surrogate: held. An earlier held one is lone. */
                if (high_held) {
                    error(d, high_off, high_len, REF7_SURROGATE);
                    if (d->stopped)
                        return i;
                }
                high_held = true;
                high = u;
                high_off = u_off;
                high_len = u_len;
            } else if (u >= 0xDC00 && u <= 0xDFFF) {
                if (high_held) {
                    /* A pair: one supplementary code point. */
                    emit(d, 0x10000 + ((high - 0xD800) << 10) + (u - 0xDC00));
                    high_held = false;
                } else {
                    /* A lone low surrogate. */
                    error(d, u_off, u_len, REF7_SURROGATE);
                    if (d->stopped)
                        return i;
                }
            } else {
                /* Any other unit; a held high before it is lone. */
                if (high_held) {
                    error(d, high_off, high_len, REF7_SURROGATE);
                    high_held = false;
                    if (d->stopped)
                        return i;
                }
                emit(d, u);
            }
        }
        i++;
    }

    /* The run ends at a byte outside Set B or at the end of input (RFC 2152
       Rule 2: "until a character not in that alphabet is encountered").
       The checks, in the project's order: */

    /* (a) a high surrogate still held is lone. */
    if (high_held) {
        error(d, high_off, high_len, REF7_SURROGATE);
        if (d->stopped)
            return i;
    }
    if (nbits >= 8) {
        /* (b) At least one whole octet is left over: RFC 2152 Rule 2 "Text
           with an odd number of octets is ill-formed". The error covers the
           partial unit's chars through the run's last base64 char (i-1). */
        error(d, unit_start, i - unit_start, REF7_PARTIAL_UNIT);
        if (d->stopped)
            return i;
    } else if (bits != 0) {
        /* (c) RFC 2152 Rule 2: "If such discarded bits are non-zero the
           sequence is ill-formed." With fewer than 8 leftover bits they all
           come from the run's last base64 char. */
        error(d, i - 1, 1, REF7_NONZERO_PADDING);
        if (d->stopped)
            return i;
    }
    /* With nbits < 8 and all zero, the bits are padding: discarded (Rule 2:
       "zero bits are added to pad to a Base64 character boundary"). */

    /* RFC 2152 Rule 2: "if the sequence terminates with the character "-"
       ... then that character is absorbed; other terminating characters
       are not absorbed and are processed normally." */
    if (i < len && src[i] == '-')
        i++;
    return i;
}

static void decode(struct dec *d, const uint8_t *src, size_t len)
{
    size_t i = 0;

    while (i < len && !d->stopped) {
        uint8_t b = src[i];

        if (b == '+') {
            /* RFC 2152 Rule 2: the shift character. */
            if (i + 1 >= len) {
                /* End of input right after "+": the shift is cut short. */
                error(d, i, 1, REF7_TRUNCATED);
                i++;
            } else if (src[i + 1] == '-') {
                /* "the sequence "+-" may be used to encode the character "+"" */
                emit(d, '+');
                i += 2;
            } else if (base64_value(src[i + 1]) >= 0) {
                i = shifted_run(d, src, len, i + 1);
            } else {
                /* "A "+" character followed immediately by any character
                   other than members of set B or "-" is an ill-formed
                   sequence." The error is the "+" alone; the byte after it
                   is decoded again in direct mode. */
                error(d, i, 1, REF7_BAD_SHIFT);
                i++;
            }
        } else if (is_set_d(b) || is_set_o(b) || is_rule3_space(b)) {
            /* Rules 1 and 3: a direct character is its ASCII value ("all
               characters in US-ASCII have the same value in Unicode"). */
            emit(d, b);
            i++;
        } else {
            /* Any other byte: controls other than TAB/CR/LF, NUL, "\", "~",
               DEL and 80-FF (UTF-7 is 7-bit). */
            error(d, i, 1, REF7_INVALID_DIRECT);
            i++;
        }
    }
}

bool ref7_decode(const uint8_t *src, size_t len, uint32_t *out, size_t *nout,
                 struct ref7_error *err)
{
    struct ref7_error first = {0, 0, REF7_OK};
    struct dec d = {out, 0, true, false, 0, &first, 1, NULL};

    decode(&d, src, len);
    *nout = d.nout;
    if (err != NULL)
        *err = first;
    return d.nerrors == 0;
}

size_t ref7_decode_replace(const uint8_t *src, size_t len, uint32_t *out, size_t *nerrors,
                           struct ref7_error *errs, size_t maxerrs)
{
    return ref7_decode_marked(src, len, out, NULL, nerrors, errs, maxerrs);
}

size_t ref7_decode_marked(const uint8_t *src, size_t len, uint32_t *out, bool *marked,
                          size_t *nerrors, struct ref7_error *errs, size_t maxerrs)
{
    struct dec d = {out, 0, false, false, 0, errs, errs != NULL ? maxerrs : 0, marked};

    decode(&d, src, len);
    if (nerrors != NULL)
        *nerrors = d.nerrors;
    return d.nout;
}

/* ------------------------------------------------------------ encoding */

/* Sent as itself (Rules 1 and 3). "+" is not: it is "+-" or base64. */
static bool is_direct(uint32_t c, bool direct_o)
{
    return is_set_d(c) || is_rule3_space(c) || (direct_o && is_set_o(c));
}

size_t ref7_encode_bound(size_t n)
{
    /* Worst case per code point: a supplementary character alone between
       direct ones, "+" + ceil(32/6) = 6 base64 chars + "-" = 8 bytes. In a
       longer run a code point costs at most 32/6 chars, the run's "+",
       padding and "-" at most 3 more: 3 + 32k/6 + 1 <= 8k for k >= 1. */
    return n > SIZE_MAX / 8 ? SIZE_MAX : n * 8;
}

size_t ref7_encode(const uint32_t *cps, size_t n, bool direct_o, uint8_t *out)
{
    size_t o = 0, i = 0;

    while (i < n) {
        uint32_t c = cps[i];

        if (is_direct(c, direct_o)) {
            out[o++] = (uint8_t)c; /* Rules 1 and 3 */
            i++;
            continue;
        }
        if (c == '+') {
            /* Rule 2: "the sequence "+-" may be used to encode "+"". */
            out[o++] = '+';
            out[o++] = '-';
            i++;
            continue;
        }

        /* A shifted run (Rule 2): "+", then the UTF-16 units of every
           following character that is not direct ("+" included), most
           significant octet first, in Modified Base64. */
        uint32_t bits = 0;
        unsigned nbits = 0;
        out[o++] = '+';
        while (i < n && !is_direct(cps[i], direct_o)) {
            uint32_t units[2];
            size_t nunits = 0;
            c = cps[i];
            if (c >= 0x10000) {
                /* Unicode D91: a surrogate pair, each half a separate 16-bit
                   quantity (Rule 2). */
                units[nunits++] = 0xD800 + ((c - 0x10000) >> 10);
                units[nunits++] = 0xDC00 + ((c - 0x10000) & 0x3FF);
            } else {
                units[nunits++] = c;
            }
            for (size_t k = 0; k < nunits; k++) {
                bits = (bits << 16) | units[k];
                nbits += 16;
                while (nbits >= 6) {
                    out[o++] = base64_char((bits >> (nbits - 6)) & 0x3F);
                    nbits -= 6;
                }
                bits &= ((uint32_t)1 << nbits) - 1;
            }
            i++;
        }
        /* Rule 2: "zero bits are added to pad to a Base64 character
           boundary". */
        if (nbits > 0)
            out[o++] = base64_char((bits << (6 - nbits)) & 0x3F);
        /* "-" iff the next character would otherwise be read as part of the
           run (Set B) or absorbed ("-"), or the input ends (an explicit end
           of the shift). Another direct character ends the run by itself. */
        if (i == n || is_set_b(cps[i]) || cps[i] == '-')
            out[o++] = '-';
    }
    return o;
}
