/* SPDX-License-Identifier: MIT */
/* Worst-case output sizes. */
#include "api/encodings.h"
#include "decode/byte_order.h"

static bool mul_add(size_t a, size_t b, size_t c, size_t *out)
{
    if (b && a > (SIZE_MAX - c) / b)
        return false;
    *out = a * b + c;
    return true;
}

/* Each unit of `from` (and a trailing partial one) yields at most one
 * character or one U+FFFD. */
static size_t max_units_in(enum utfdfa_encoding from, size_t src_len)
{
    size_t u = utfdfa_unit_size(from);
    return src_len / u + (src_len % u != 0);
}

/* The most bytes a signature takes: a BOM, the magic number, or in UTF-7
 * "+/v8" and the digit and "-" that may end its run. */
static size_t sig_bytes(enum utfdfa_encoding to)
{
    struct out o = {NULL, 0, 0, {0, 0, false, false}, false};
    if (is_unordered(to)) /* one BOM, its own or UTFDFA_BOM_ADD's */
        to = little_endian_of(to);
    return is_utf7(to) ? 6 : sig_units(&o, SINK_BYTES, to);
}

bool utfdfa_max_encoded_len(enum utfdfa_encoding to, size_t n, size_t *out)
{
    return mul_add(n, utfdfa__max_char_bytes(to), sig_bytes(to), out);
}

bool utfdfa_max_transcoded_len(enum utfdfa_encoding from, enum utfdfa_encoding to,
                               size_t src_len, size_t *out)
{
    /* Per unit of input. A byte of a UTF-8 form yields at most 3 bytes of a
     * UTF-8 form (U+FFFD for a lone byte; a k-byte character is at most
     * k+1 bytes elsewhere, and k+1 <= 3k), 2 of UTF-16 (a supplementary
     * character takes at least 3 bytes in), 4 of UTF-32. A UTF-16 unit: at
     * most 3, 2 or 4 (a pair is 4 bytes in any form). A 32-bit unit: one
     * character, at most max_char_bytes. UTF-7 out: a character of 1 or 2
     * units in takes at most 4 bytes ("+" and 3 digits; a direct one after
     * a run: a digit, "-", itself), a pair 7 (two units in); what ends the
     * last run is counted with the signature (sig_bytes). Corrected UTF-8
     * with UTFDFA_CORRECTED_PUA writes a C1 control (one UTF-16 unit, two
     * bytes of a UTF-8 form, one byte where each is a character: ISO-8859-1)
     * as a 4-byte plane-15 character. */
    size_t in = utfdfa_unit_size(from), outu = utfdfa_unit_size(to), per;
    if (in == 4)
        per = utfdfa__max_char_bytes(to);
    else if (is_utf7(to) ||
             ((in == 2 || utfdfa__max_char_bytes(from) == 1) && to == UTFDFA_CORRECTED_UTF8))
        per = 4;
    else
        per = outu == 1 ? 3 : outu == 2 ? 2 : 4;
    return mul_add(max_units_in(from, src_len), per, sig_bytes(to), out);
}

bool utfdfa_max_utf32_len(enum utfdfa_encoding from, size_t src_len, size_t *out)
{
    return mul_add(max_units_in(from, src_len), 1, 1, out);
}

bool utfdfa_max_utf16_len(enum utfdfa_encoding from, size_t src_len, size_t *out)
{
    /* A 32-bit unit can be a pair; a UTF-8 form needs at least 3 bytes for one. */
    return mul_add(max_units_in(from, src_len), utfdfa_unit_size(from) == 4 ? 2 : 1, 1, out);
}
