/* SPDX-License-Identifier: MIT */
/* Names, aliases and sizes of the encodings, and the names of the error
 * kinds: lookups in the tables generated from grammar/encodings.registry
 * and the grammars (encodings.gen.h). */
#include "encodings.h"

#include <string.h>

#include "encodings.gen.h"

enum { NALIASES = sizeof utfdfa_aliases / sizeof utfdfa_aliases[0] };

const char *utfdfa_encoding_name(enum utfdfa_encoding enc)
{
    return (unsigned)enc < UTFDFA_NENCODINGS ? utfdfa_encoding_names[enc] : "unknown";
}

static int ascii_lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

/* name[0..len) equals `want` (lower case: the generator checks), ignoring
 * ASCII case. */
static bool same_name(const char *name, size_t len, const char *want)
{
    size_t n = strlen(want), i = 0;
    if (n != len)
        return false;
    while (i < n && ascii_lower((unsigned char)name[i]) == want[i])
        i++;
    return i == n;
}

bool utfdfa_encoding_from_name(const char *name, size_t len, enum utfdfa_encoding *enc)
{
    for (unsigned e = 0; e < UTFDFA_NENCODINGS; e++)
        if (same_name(name, len, utfdfa_encoding_names[e])) {
            *enc = (enum utfdfa_encoding)e;
            return true;
        }
    for (size_t k = 0; k < NALIASES; k++)
        if (same_name(name, len, utfdfa_aliases[k].name)) {
            *enc = (enum utfdfa_encoding)utfdfa_aliases[k].enc;
            return true;
        }
    return false;
}

const char *utfdfa_encoding_alias(enum utfdfa_encoding enc, size_t index)
{
    for (size_t k = 0; k < NALIASES; k++)
        if (utfdfa_aliases[k].enc == (unsigned)enc && index-- == 0)
            return utfdfa_aliases[k].name;
    return NULL;
}

/* Bytes of one unit of an encoding: a character never takes fewer. An
 * unknown one counts as 1, which bounds the most units in any input. */
size_t utfdfa_unit_size(enum utfdfa_encoding enc)
{
    return (unsigned)enc < UTFDFA_NENCODINGS ? utfdfa_encoding_unit_size[enc] : 1;
}

/* An unknown target is written as UTF-8 (output/forms.h's known_target): 4
 * bytes. */
size_t utfdfa__max_char_bytes(enum utfdfa_encoding enc)
{
    return (unsigned)enc < UTFDFA_NENCODINGS ? utfdfa_encoding_max_bytes[enc] : 4;
}

const char *utfdfa_error_name(enum utfdfa_error_kind kind)
{
    return (unsigned)kind < UTFDFA_NERROR_KINDS ? utfdfa_error_names[kind] : "unknown";
}
