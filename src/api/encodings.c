/* SPDX-License-Identifier: MIT */
/* The encodings' names, aliases and unit sizes, and the error names. */
#include "common.h"

static const char *const encoding_names[UTFDFA_NENCODINGS] = {
    "utf-8",   "utf-16le", "utf-16be", "utf-32le", "utf-32be", "utf-8-rfc2279", "corrected-utf-8",
    "ucs-4le", "ucs-4be",  "utf-7",    "cesu-8",   "mutf-8",   "wtf-8",         "utf-7-imap",
    "utf-16",  "utf-32",
};

const char *utfdfa_encoding_name(enum utfdfa_encoding enc)
{
    return (unsigned)enc < UTFDFA_NENCODINGS ? encoding_names[enc] : "unknown";
}

static int ascii_lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

/* Other names of the same encodings, as glibc's iconv spells them (iconv
 * -l), and the hyphenless forms. Only exact equivalents: glibc's UCS-4 is
 * big-endian without a byte order mark. */
static const struct {
    const char *name;
    enum utfdfa_encoding enc;
} aliases[] = {
    {"utf8", UTFDFA_UTF8},
    {"iso-10646/utf8", UTFDFA_UTF8},
    {"iso-10646/utf-8", UTFDFA_UTF8},
    {"utf16le", UTFDFA_UTF16LE},
    {"utf16be", UTFDFA_UTF16BE},
    {"utf32le", UTFDFA_UTF32LE},
    {"utf32be", UTFDFA_UTF32BE},
    {"ucs4le", UTFDFA_UCS4LE},
    {"ucs4be", UTFDFA_UCS4BE},
    {"ucs-4", UTFDFA_UCS4BE},
    {"ucs4", UTFDFA_UCS4BE},
    {"iso-10646/ucs4", UTFDFA_UCS4BE},
    {"10646-1:1993/ucs4", UTFDFA_UCS4BE},
    {"csucs4", UTFDFA_UCS4BE},
    {"utf7", UTFDFA_UTF7},
    {"utf7-imap", UTFDFA_UTF7_IMAP},
    {"cesu8", UTFDFA_CESU8},
    {"mutf8", UTFDFA_MUTF8},
    {"wtf8", UTFDFA_WTF8},
    {"utf16", UTFDFA_UTF16},
    {"utf32", UTFDFA_UTF32},
};

/* name[0..len) equals `want` (lower case), ignoring ASCII case. */
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
        if (same_name(name, len, encoding_names[e])) {
            *enc = (enum utfdfa_encoding)e;
            return true;
        }
    for (size_t k = 0; k < sizeof aliases / sizeof aliases[0]; k++)
        if (same_name(name, len, aliases[k].name)) {
            *enc = aliases[k].enc;
            return true;
        }
    return false;
}

const char *utfdfa_encoding_alias(enum utfdfa_encoding enc, size_t index)
{
    for (size_t k = 0; k < sizeof aliases / sizeof aliases[0]; k++)
        if (aliases[k].enc == enc && index-- == 0)
            return aliases[k].name;
    return NULL;
}

static const char *const error_names[UTFDFA_NERROR_KINDS] = {
    "none",      "unexpected-continuation", "invalid-lead", "overlong", "surrogate",
    "too-large", "truncated",               "nul",          "unencodable", "reserved",
    "bad-shift", "partial-unit",            "nonzero-padding",
};

const char *utfdfa_error_name(enum utfdfa_error_kind kind)
{
    return (unsigned)kind < UTFDFA_NERROR_KINDS ? error_names[kind] : "unknown";
}

/* Bytes of one unit of an encoding: a character never takes fewer. */
size_t utfdfa_unit_size(enum utfdfa_encoding enc)
{
    switch (enc) {
    case UTFDFA_UTF16LE:
    case UTFDFA_UTF16BE:
    case UTFDFA_UTF16:
        return 2;
    case UTFDFA_UTF32LE:
    case UTFDFA_UTF32BE:
    case UTFDFA_UTF32:
    case UTFDFA_UCS4LE:
    case UTFDFA_UCS4BE:
        return 4;
    default:
        return 1;
    }
}
