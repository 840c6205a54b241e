/* SPDX-License-Identifier: MIT */
/* The generic driver: every encoding's vectors through every sink
 * (utfdfa_check, decode_utf32, decode_utf16, utfdfa_transcode to every
 * target, utfdfa_encode of what was decoded to every target) in every error
 * mode, whole, split in two at every offset, in chunks of every size, one
 * byte per call, and with every output room from one unit up (growing a
 * call's room only when it could write nothing). Every way must give
 * exactly the one-call result (output, errors with offsets, kinds and
 * lengths, the replaced flag, the offset), and the one-call result must be
 * the expected one: written here by hand (the hostile inputs: overlongs,
 * "2F C0 AE 2E 2F" never "/../", surrogates, the CESU-8 pair, values above
 * U+10FFFF, truncation; UTF-16/32 per WHATWG; UTF-7's errors), or for the
 * shared vectors (tests/common/vectors.h) in every source encoding, what
 * the reference of that encoding in tests/ref says, encoded for each sink
 * by the reference encoders. Where an encoding or a target has no
 * reference (IMAP's UTF-7, Corrected UTF-8 as a target, encodings newer
 * than this file), every way must still agree with the one call.
 *
 * Loops run over UTFDFA_NENCODINGS, so encodings added to the header are
 * driven too. Public API only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common.h"
#include "drive.h"
#include "oracle.h"
#include "utfdfa.h"
#include "vectors.h"

struct vector {
    enum utfdfa_encoding from;
    const char *input;   /* hex bytes */
    const char *replace; /* the output in replace mode, hex code points */
    const char *ignore;  /* ... in ignore mode (= strict, going on after each error) */
    const char *errors;  /* strict errors in order: "OFFSET+LENGTH kind, ..." */
    /* (NULL for all three: what the reference of tests/ref says) */
    const char *why;
};

static const struct vector table[] = {
    /* Overlongs (RFC 3629 section 3; Unicode 3.9 Table 3-7): each byte that
     * cannot start or continue a character is one U+FFFD. */
    {UTFDFA_UTF8, "C0 AF", "FFFD FFFD", "", "0+1 overlong, 1+1 unexpected-continuation",
     "overlong '/' (2 bytes)"},
    {UTFDFA_UTF8, "E0 80 AF", "FFFD FFFD FFFD", "",
     "0+1 overlong, 1+1 unexpected-continuation, 2+1 unexpected-continuation",
     "overlong '/' (3 bytes)"},
    {UTFDFA_UTF8, "F0 80 80 AF", "FFFD FFFD FFFD FFFD", "",
     "0+1 overlong, 1+1 unexpected-continuation, 2+1 unexpected-continuation, "
     "3+1 unexpected-continuation",
     "overlong '/' (4 bytes)"},
    {UTFDFA_UTF8, "C0 AE", "FFFD FFFD", "", "0+1 overlong, 1+1 unexpected-continuation",
     "overlong '.'"},
    {UTFDFA_UTF8, "C0 80", "FFFD FFFD", "", "0+1 overlong, 1+1 unexpected-continuation",
     "overlong NUL (Java's modified UTF-8)"},
    {UTFDFA_UTF8, "C1 BF", "FFFD FFFD", "", "0+1 overlong, 1+1 unexpected-continuation",
     "overlong U+007F"},
    {UTFDFA_UTF8, "E0 9F BF", "FFFD FFFD FFFD", "",
     "0+1 overlong, 1+1 unexpected-continuation, 2+1 unexpected-continuation",
     "overlong U+07FF"},
    {UTFDFA_UTF8, "F0 8F BF BF", "FFFD FFFD FFFD FFFD", "",
     "0+1 overlong, 1+1 unexpected-continuation, 2+1 unexpected-continuation, "
     "3+1 unexpected-continuation",
     "overlong U+FFFF"},
    /* RFC 3629 section 10: "/../" smuggled past a check. */
    {UTFDFA_UTF8, "2F C0 AE 2E 2F", "2F FFFD FFFD 2E 2F", "2F 2E 2F",
     "1+1 overlong, 2+1 unexpected-continuation", "RFC 3629 section 10: never /../"},
    {UTFDFA_UTF8, "2F E0 80 AE 2E 2F", "2F FFFD FFFD FFFD 2E 2F", "2F 2E 2F",
     "1+1 overlong, 2+1 unexpected-continuation, 3+1 unexpected-continuation",
     "3-byte overlong '.': never /../"},
    {UTFDFA_UTF8, "2E 2E C0 AF", "2E 2E FFFD FFFD", "2E 2E",
     "2+1 overlong, 3+1 unexpected-continuation", "overlong '/' after '..'"},
    /* Surrogates (RFC 3629 section 3: never encoded in UTF-8). */
    {UTFDFA_UTF8, "ED A0 80", "FFFD FFFD FFFD", "",
     "0+1 surrogate, 1+1 unexpected-continuation, 2+1 unexpected-continuation", "U+D800"},
    {UTFDFA_UTF8, "ED BF BF", "FFFD FFFD FFFD", "",
     "0+1 surrogate, 1+1 unexpected-continuation, 2+1 unexpected-continuation", "U+DFFF"},
    {UTFDFA_UTF8, "ED A1 8C ED BE B4", "FFFD FFFD FFFD FFFD FFFD FFFD", "",
     "0+1 surrogate, 1+1 unexpected-continuation, 2+1 unexpected-continuation, "
     "3+1 surrogate, 4+1 unexpected-continuation, 5+1 unexpected-continuation",
     "CESU-8 pair: never U+233B4"},
    {UTFDFA_UTF8, "ED 9F BF EE 80 80", "D7FF E000", "D7FF E000", "",
     "the neighbours of the surrogates are valid"},
    /* Above U+10FFFF and lead bytes F5-FF. */
    {UTFDFA_UTF8, "F4 90 80 80", "FFFD FFFD FFFD FFFD", "",
     "0+1 too-large, 1+1 unexpected-continuation, 2+1 unexpected-continuation, "
     "3+1 unexpected-continuation",
     "U+110000"},
    {UTFDFA_UTF8, "F4 8F BF BF", "10FFFF", "10FFFF", "", "U+10FFFF is valid"},
    {UTFDFA_UTF8, "F7 BF BF BF", "FFFD FFFD FFFD FFFD", "",
     "0+1 too-large, 1+1 unexpected-continuation, 2+1 unexpected-continuation, "
     "3+1 unexpected-continuation",
     "U+1FFFFF (F5-F7 lead)"},
    {UTFDFA_UTF8, "F8 88 80 80 80", "FFFD FFFD FFFD FFFD FFFD", "",
     "0+1 invalid-lead, 1+1 unexpected-continuation, 2+1 unexpected-continuation, "
     "3+1 unexpected-continuation, 4+1 unexpected-continuation",
     "5-byte form of ISO 10646 UTF-8"},
    {UTFDFA_UTF8, "FC 84 80 80 80 80", "FFFD FFFD FFFD FFFD FFFD FFFD", "",
     "0+1 invalid-lead, 1+1 unexpected-continuation, 2+1 unexpected-continuation, "
     "3+1 unexpected-continuation, 4+1 unexpected-continuation, 5+1 unexpected-continuation",
     "6-byte form of ISO 10646 UTF-8"},
    {UTFDFA_UTF8, "FE FF 41", "FFFD FFFD 41", "41", "0+1 invalid-lead, 1+1 invalid-lead",
     "FE FF (a UTF-16 BOM read as UTF-8)"},
    /* Truncation at the end of input: whatever is pending is one error. */
    {UTFDFA_UTF8, "E2 82", "FFFD", "", "0+2 truncated", "E2 82 at EOF: one U+FFFD"},
    {UTFDFA_UTF8, "F0 9F 98", "FFFD", "", "0+3 truncated", "3 of 4 bytes at EOF"},
    {UTFDFA_UTF8, "41 C3", "41 FFFD", "41", "1+1 truncated", "a lead byte at EOF"},
    {UTFDFA_UTF8, "E2 82 41", "FFFD 41", "41", "0+2 truncated", "cut short by 'A'"},
    {UTFDFA_UTF8, "F0 9F 98 F0 9F 98 80", "FFFD 1F600", "1F600", "0+3 truncated",
     "cut short by a new lead"},
    {UTFDFA_UTF8, "61 F1 80 80 E1 80 C2 62 80 63 80 BF 64",
     "61 FFFD FFFD FFFD 62 FFFD 63 FFFD FFFD 64", "61 62 63 64",
     "1+3 truncated, 4+2 truncated, 6+1 truncated, 8+1 unexpected-continuation, "
     "10+1 unexpected-continuation, 11+1 unexpected-continuation",
     "Unicode 3.9 maximal-subpart example"},
    {UTFDFA_UTF8, "00 41 00", "0 41 0", "0 41 0", "", "NUL is a character, not an end"},
    {UTFDFA_UTF8, "EF BB BF EF BF BE EF BF BF", "FEFF FFFE FFFF", "FEFF FFFE FFFF", "",
     "BOM and noncharacters are valid"},
    /* UTF-16 (WHATWG shared UTF-16 decoder): a lone surrogate is one error
     * of 2 bytes; the unit after a lone high surrogate is decoded anew;
     * whatever is pending at the end is one error, truncated. */
    {UTFDFA_UTF16LE, "00 D8 41 00", "FFFD 41", "41", "0+2 surrogate", "lone high surrogate"},
    {UTFDFA_UTF16LE, "00 DC 41 00", "FFFD 41", "41", "0+2 surrogate", "lone low surrogate"},
    {UTFDFA_UTF16LE, "00 DC 00 D8", "FFFD FFFD", "", "0+2 surrogate, 2+2 truncated",
     "swapped pair: a lone low one, then a pair cut short"},
    {UTFDFA_UTF16LE, "3D D8 3D D8 00 DE", "FFFD 1F600", "1F600", "0+2 surrogate",
     "high, then a whole pair"},
    {UTFDFA_UTF16LE, "3D D8", "FFFD", "", "0+2 truncated", "high surrogate at EOF: a pair cut short"},
    {UTFDFA_UTF16LE, "3D D8 00", "FFFD", "", "0+3 truncated",
     "high surrogate and a byte at EOF: one error"},
    {UTFDFA_UTF16LE, "41 00 42", "41 FFFD", "41", "2+1 truncated", "odd byte at EOF"},
    {UTFDFA_UTF16LE, "FF DB FF DF 00 00", "10FFFF 0", "10FFFF 0", "", "U+10FFFF, NUL"},
    {UTFDFA_UTF16BE, "D8 3D DE 00 00 41", "1F600 41", "1F600 41", "", "a pair"},
    /* pairs that fill the SIMD kernels' steps (16 and 32 bytes), from a pair's start or not */
    {UTFDFA_UTF16LE,
     "3D D8 00 DE 3D D8 01 DE 3D D8 02 DE 3D D8 03 DE "
     "3D D8 04 DE 3D D8 05 DE 3D D8 06 DE 3D D8 07 DE",
     "1F600 1F601 1F602 1F603 1F604 1F605 1F606 1F607",
     "1F600 1F601 1F602 1F603 1F604 1F605 1F606 1F607", "", "8 pairs"},
    {UTFDFA_UTF16LE,
     "41 00 3D D8 00 DE 3D D8 01 DE 3D D8 02 DE 3D D8 03 DE "
     "3D D8 04 DE 3D D8 05 DE 3D D8 06 DE 3D D8 07 DE",
     "41 1F600 1F601 1F602 1F603 1F604 1F605 1F606 1F607",
     "41 1F600 1F601 1F602 1F603 1F604 1F605 1F606 1F607", "", "8 pairs one unit on"},
    {UTFDFA_UTF16LE,
     "3D D8 00 DE 3D D8 01 DE 3D D8 02 DE 3D D8 03 DE "
     "3D D8 04 DE 3D D8 41 00 3D D8 06 DE 3D D8 07 DE",
     "1F600 1F601 1F602 1F603 1F604 FFFD 41 1F606 1F607",
     "1F600 1F601 1F602 1F603 1F604 41 1F606 1F607", "20+2 surrogate",
     "a lone high surrogate among 8 pairs"},
    {UTFDFA_UTF16BE,
     "D8 3D DE 00 D8 3D DE 4F D8 00 DC 00 DB FF DF FF "
     "D8 3D DE 80 D8 40 DC 00 D8 3D DC A9 D8 3D DE 0D",
     "1F600 1F64F 10000 10FFFF 1F680 20000 1F4A9 1F60D",
     "1F600 1F64F 10000 10FFFF 1F680 20000 1F4A9 1F60D", "", "8 pairs, big-endian"},
    {UTFDFA_UTF16BE, "D8 3D 00 41 DE 00", "FFFD 41 FFFD", "41", "0+2 surrogate, 4+2 surrogate",
     "a pair split by a character"},
    {UTFDFA_UTF16BE, "D8 4C DF B4", "233B4", "233B4", "", "U+233B4 in UTF-16 is fine"},
    {UTFDFA_UTF16BE, "FE FF 00 41", "FEFF 41", "FEFF 41", "", "a BOM is a character (keep)"},
    /* UTF-32: values above 10FFFF and surrogates are errors of 4 bytes; a
     * partial unit at the end is one error. */
    {UTFDFA_UTF32LE, "00 00 11 00", "FFFD", "", "0+4 too-large", "U+110000"},
    {UTFDFA_UTF32LE, "FF FF FF FF 41 00 00 00", "FFFD 41", "41", "0+4 too-large",
     "0xFFFFFFFF"},
    {UTFDFA_UTF32LE, "00 D8 00 00 00 DC 00 00", "FFFD FFFD", "",
     "0+4 surrogate, 4+4 surrogate", "a surrogate pair is not UTF-32"},
    {UTFDFA_UTF32LE, "41 00 00", "FFFD", "", "0+3 truncated", "a partial unit at EOF"},
    {UTFDFA_UTF32BE, "00 10 FF FF 00 00 00", "10FFFF FFFD", "10FFFF", "4+3 truncated",
     "U+10FFFF then a partial unit"},
    {UTFDFA_UTF32BE, "80 00 00 41", "FFFD", "", "0+4 too-large", "sign bit set"},
    {UTFDFA_UTF32BE, "00 00 DF FF 00 00 E0 00", "FFFD E000", "E000", "0+4 surrogate",
     "U+DFFF, U+E000"},
    /* UTF-16 and UTF-32 per WHATWG (also Python's codecs). */
    {UTFDFA_UTF16LE, "3D D8 41 00", "FFFD 41", "41", "0+2 surrogate", "lone high"},
    {UTFDFA_UTF16LE, "41 00 42", "41 FFFD", "41", "2+1 truncated", "odd byte"},
    {UTFDFA_UTF16LE, "3D D8 41", "FFFD", "", "0+3 truncated", "high and an odd byte: one error"},
    {UTFDFA_UTF16LE, "3D D8", "FFFD", "", "0+2 truncated", "lone high at the end"},
    {UTFDFA_UTF16LE, "00 DC 41 00", "FFFD 41", "41", "0+2 surrogate", "lone low"},
    {UTFDFA_UTF16LE, "3D D8 3D D8 00 DE", "FFFD 1F600", "1F600", "0+2 surrogate",
     "a lone high, then a pair"},
    {UTFDFA_UTF16BE, "D8 3D DE 00 00 41", "1F600 41", "1F600 41", "", "a pair"},
    /* pairs filling the SIMD kernels' steps (16 and 32 bytes), from a pair's start or not */
    {UTFDFA_UTF16LE,
     "3D D8 00 DE 3D D8 01 DE 3D D8 02 DE 3D D8 03 DE 3D D8 04 DE 3D D8 05 DE 3D D8 06 DE 3D D8 07 DE",
     "1F600 1F601 1F602 1F603 1F604 1F605 1F606 1F607", "1F600 1F601 1F602 1F603 1F604 1F605 1F606 1F607", "", "8 pairs"},
    {UTFDFA_UTF16LE,
     "41 00 3D D8 00 DE 3D D8 01 DE 3D D8 02 DE 3D D8 03 DE 3D D8 04 DE 3D D8 05 DE 3D D8 06 DE 3D D8 "
     "07 DE",
     "41 1F600 1F601 1F602 1F603 1F604 1F605 1F606 1F607", "41 1F600 1F601 1F602 1F603 1F604 1F605 1F606 1F607", "", "8 pairs one unit on"},
    {UTFDFA_UTF16LE,
     "3D D8 00 DE 3D D8 01 DE 3D D8 02 DE 3D D8 03 DE 3D D8 04 DE 3D D8 41 00 3D D8 06 DE 3D D8 07 DE",
     "1F600 1F601 1F602 1F603 1F604 FFFD 41 1F606 1F607", "1F600 1F601 1F602 1F603 1F604 41 1F606 1F607",
     "20+2 surrogate", "a lone high surrogate among 8 pairs"},
    {UTFDFA_UTF16BE,
     "D8 3D DE 00 D8 3D DE 4F D8 00 DC 00 DB FF DF FF D8 3D DE 80 D8 40 DC 00 D8 3D DC A9 D8 3D DE 0D",
     "1F600 1F64F 10000 10FFFF 1F680 20000 1F4A9 1F60D",
     "1F600 1F64F 10000 10FFFF 1F680 20000 1F4A9 1F60D", "", "8 pairs, big-endian"},
    {UTFDFA_UTF16BE, "FE FF 00 41", "FEFF 41", "FEFF 41", "", "a BOM kept"},
    {UTFDFA_UTF32LE, "00 00 11 00", "FFFD", "", "0+4 too-large", "110000"},
    {UTFDFA_UTF32LE, "00 D8 00 00 41 00 00 00", "FFFD 41", "41", "0+4 surrogate", "D800"},
    {UTFDFA_UTF32LE, "41 00 00 00 42", "41 FFFD", "41", "4+1 truncated", "a partial unit"},
    {UTFDFA_UTF32BE, "00 01 F6 00 00 00", "1F600 FFFD", "1F600", "4+2 truncated",
     "a partial unit after a character"},
    {UTFDFA_UTF8, "EF BB BF EF BB BF 41", "FEFF FEFF 41", "FEFF FEFF 41", "", "two BOMs kept"},
    /* UTF-7 (RFC 2152): exact errors; a run that ends in error still absorbs its "-". */
    {UTFDFA_UTF7, "61 2B 49 4B 78 2D 62", "61 20AC FFFD 62", "61 20AC 62", "4+1 nonzero-padding",
     "a+IKx-b"},
    {UTFDFA_UTF7, "61 2B 49 4B 2D 62", "61 FFFD 62", "61 62", "2+2 partial-unit", "a+IK-b"},
    {UTFDFA_UTF7, "61 2B 32 41 45 2D 62", "61 FFFD 62", "61 62", "2+3 surrogate", "a+2AE-b"},
    {UTFDFA_UTF7, "61 2B 40 62", "61 FFFD 40 62", "61 40 62", "1+1 bad-shift", "a+@b"},
    {UTFDFA_UTF7, "61 2B", "61 FFFD", "61", "1+1 truncated", "a+"},
    {UTFDFA_UTF7, "61 2B 49 4B 78", "61 20AC FFFD", "61 20AC", "4+1 nonzero-padding", "a+IKx"},
    {UTFDFA_UTF7, "2B 41 47 45 41 2D", "61 FFFD", "61", "3+2 partial-unit", "+AGEA-"},
    {UTFDFA_UTF7, "2B 41 47 45 41 59 51 2E", "61 61 2E", "61 61 2E", "", "+AGEAYQ."},
    {UTFDFA_UTF7, "2B 41 47 45 41 59 2D", "61 FFFD", "61", "3+3 partial-unit", "+AGEAY-"},
    {UTFDFA_UTF7, "61 5C 62 7E", "61 FFFD 62 FFFD", "61 62", "1+1 invalid-lead, 3+1 invalid-lead",
     "a\\b~"},
    {UTFDFA_UTF7, "80 41 00", "FFFD 41 FFFD", "41", "0+1 invalid-lead, 2+1 invalid-lead",
     "80 A 00"},
    {UTFDFA_UTF7, "2B 32 44 33 59 41 41 2D", "FFFD FFFD", "", "1+3 surrogate, 3+4 surrogate",
     "+2D3YAA-: a high surrogate, then another"},
    {UTFDFA_UTF7, "2B 32 44 30 41 59 51 2D", "FFFD 61", "61", "1+3 surrogate",
     "+2D0AYQ-: a high surrogate, then a BMP character that survives"},
    {UTFDFA_UTF7, "2B 32 44 33 2D 2B 33 67 41 2D", "FFFD FFFD FFFD", "",
     "1+3 surrogate, 3+1 nonzero-padding, 6+3 surrogate",
     "+2D3-+3gA-: a pair split over two runs is two lone surrogates"},
    {UTFDFA_UTF7, "2B 33 67 41 2D", "FFFD", "", "1+3 surrogate", "+3gA-"},
    {UTFDFA_UTF7, "2B 41 2D 2B 41 47 45 2D 2D", "61 2D", "61 2D", "", "+A-+AGE--"},
};
#define NTABLE (sizeof table / sizeof table[0])

enum { MAX_IN = 64, MAX_CPS = MAX_IN + 1 };

/* What one input must decode to; `known` false: no oracle, no expectation. */
struct expect {
    bool known;
    uint32_t rep[MAX_CPS], ign[MAX_CPS];
    size_t nrep, nign;
    utfdfa_error err[MAX_CPS];
    size_t nerr;
};

static bool same_cps(const uint32_t *a, size_t na, const uint32_t *b, size_t nb)
{
    return na == nb && (na == 0 || memcmp(a, b, na * sizeof *a) == 0);
}

/* The written expectation of a row, or the reference's; a written one is
 * also checked against the reference where there is one. */
static void expectation(const struct vector *row, enum utfdfa_encoding from, const uint8_t *in,
                        size_t n, struct expect *x)
{
    struct expect ref;
    ref.known = oracle_decode(from, in, n, ref.ign, &ref.nign, ref.err, &ref.nerr) &&
                oracle_decode_replace(from, in, n, ref.rep, &ref.nrep);
    if (!row || !row->replace) {
        *x = ref;
        return;
    }
    x->known = true;
    x->nrep = parse_cps(row->replace, x->rep, MAX_CPS);
    x->nign = parse_cps(row->ignore, x->ign, MAX_CPS);
    x->nerr = parse_errors(row->errors, x->err, MAX_CPS);
    if (ref.known)
        CHECK(same_cps(x->rep, x->nrep, ref.rep, ref.nrep) &&
                  same_cps(x->ign, x->nign, ref.ign, ref.nign) &&
                  errors_equal(x->err, x->nerr, ref.err, ref.nerr),
              "%s [%s] (%s): the table and the reference disagree", utfdfa_encoding_name(from),
              row->input, row->why);
}

/* Every value a scalar value: then no target adds errors of its own. */
static bool all_scalar(const uint32_t *cps, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (cps[i] > 0x10FFFF || (cps[i] >= 0xD800 && cps[i] <= 0xDFFF))
            return false;
    return true;
}

/* "/../" in a sink's output. */
static bool has_dotdot(const struct outcome *o, const struct sink *s)
{
    static const uint32_t dotdot[] = {'/', '.', '.', '/'};
    uint8_t pat[64];
    size_t k;
    if (!oracle_sink_form(s, dotdot, 4, pat, &k))
        return false;
    for (size_t i = 0; k && i + k <= o->len; i++)
        if (memcmp(o->out + i, pat, k) == 0)
            return true;
    return false;
}

/* Corrected UTF-8's reserved units are errors only where they cannot be
 * carried: valid to utfdfa_check and into Corrected UTF-8. */
static bool has_reserved(const struct expect *x)
{
    for (size_t i = 0; i < x->nerr; i++)
        if (x->err[i].kind == UTFDFA_ERR_RESERVED)
            return true;
    return false;
}

static void expect_result(const struct outcome *o, const struct drive *dv, size_t n,
                          const struct expect *x, const char *what)
{
    const uint32_t *cps = dv->errors == UTFDFA_REPLACE ? x->rep : x->ign;
    size_t ncps = dv->errors == UTFDFA_REPLACE ? x->nrep : x->nign;
    uint8_t want[8 * MAX_CPS];
    size_t len;
    bool own_errors = dv->sink.kind != SINK_U32 && dv->sink.kind != SINK_CHECK;
    bool carries_reserved = dv->sink.kind == SINK_CHECK ||
                            (dv->sink.kind == SINK_BYTES && dv->sink.to == UTFDFA_CORRECTED_UTF8);
    if (!x->known || (own_errors && !all_scalar(x->ign, x->nign)) ||
        (carries_reserved && has_reserved(x)) ||
        !oracle_sink_form(&dv->sink, cps, ncps, want, &len))
        return; /* the sink's own errors, or no reference encoder: agreement only */
    const char *enc = utfdfa_encoding_name(dv->from), *sk = sink_name(&dv->sink);
    CHECK(o->len == len && (len == 0 || memcmp(o->out, want, len) == 0),
          "%s: %s %s mode %d: wrong output", what, enc, sk, (int)dv->errors);
    if (dv->errors == UTFDFA_STRICT)
        CHECK(errors_equal(o->err, o->nerr, x->err, x->nerr),
              "%s: %s %s: wrong strict errors (got %zu, first at %llu+%u %s)", what, enc, sk,
              o->nerr, o->nerr ? (unsigned long long)o->err[0].offset : 0ull,
              o->nerr ? o->err[0].length : 0u, o->nerr ? utfdfa_error_name(o->err[0].kind) : "-");
    CHECK(o->replaced == (dv->errors != UTFDFA_STRICT && x->nerr > 0) && o->offset == n,
          "%s: %s %s mode %d: replaced flag or offset", what, enc, sk, (int)dv->errors);
}

/* ------------------------------------------------------------ encoding */

struct encoding_way {
    enum utfdfa_encoding to;
    enum utfdfa_error_mode errors;
    size_t split;  /* two calls at this index (SIZE_MAX: one call, or chunks) */
    size_t chunk;  /* code points per call; 0: all */
    size_t outcap; /* bytes of room per call; a call that writes nothing gets one more */
};

/* One piece of code points, called until consumed; false on a broken rule. */
static bool encode_piece(utfdfa_encoder *e, const struct encoding_way *w, const uint32_t *cps,
                         size_t n, bool last, size_t *done, struct outcome *o)
{
    uint32_t *piece = xmalloc(n * sizeof *piece);
    size_t used = 0, room = w->outcap, calls = 0;
    if (n)
        memcpy(piece, cps, n * sizeof *piece);
    for (bool going = true; going;) {
        uint8_t *dst = xmalloc(room);
        size_t s = n - used, cap = room;
        utfdfa_error err = {0, 0, UTFDFA_ERR_NONE};
        utfdfa_result r = utfdfa_encode(e, piece + used, &s, dst, &cap, last, &err);
        going = ++calls < 64 * (n + 4) && s <= n - used && cap <= room;
        if (going && cap && o->len + cap <= o->cap)
            memcpy(o->out + o->len, dst, cap);
        o->len += cap;
        used += s;
        free(dst);
        if (!going || o->len > o->cap)
            break;
        if (r == UTFDFA_MALFORMED && o->nerr < OUTCOME_MAX_ERRORS)
            o->err[o->nerr++] = err;
        else if (r == UTFDFA_OUTPUT_FULL)
            room = s == 0 && cap == 0 ? room + 1 : w->outcap;
        else
            going = r == UTFDFA_MALFORMED;
    }
    free(piece);
    *done += used;
    return used == n && o->len <= o->cap;
}

static void encode_run(const struct encoding_way *w, const uint32_t *cps, size_t n,
                       struct outcome *o)
{
    utfdfa_encoder e;
    utfdfa_encoder_init(&e, w->to, w->errors, UTFDFA_BOM_KEEP);
    memset(o, 0, sizeof *o);
    o->cap = 16 * n + 64;
    o->out = xmalloc(o->cap);
    size_t done = 0;
    bool ok = true;
    if (w->split != SIZE_MAX) {
        ok = encode_piece(&e, w, cps, w->split, false, &done, o) &&
             encode_piece(&e, w, cps + w->split, n - w->split, true, &done, o);
    } else {
        do {
            size_t k = w->chunk && n - done > w->chunk ? w->chunk : n - done;
            ok = encode_piece(&e, w, cps + done, k, done + k == n, &done, o);
        } while (ok && done < n);
    }
    o->offset = done;
    if (!ok)
        o->problem = "the encoder made no progress or claimed too much";
}

/* What was decoded, encoded to every target in every mode every way: all
 * as one call, and that as the reference encoder writes it. */
static void encode_every_way(const uint32_t *cps, size_t n, const char *what)
{
    for (unsigned to = 0; to < UTFDFA_NENCODINGS; to++) {
        for (int mode = UTFDFA_STRICT; mode <= UTFDFA_IGNORE; mode++) {
            struct encoding_way w = {(enum utfdfa_encoding)to, (enum utfdfa_error_mode)mode,
                                     SIZE_MAX, 0, 16 * n + 64};
            struct outcome whole, o;
            encode_run(&w, cps, n, &whole);
            uint8_t *want = xmalloc(8 * n + 8);
            size_t len;
            const char *name = utfdfa_encoding_name(w.to);
            if (oracle_encode(w.to, cps, n, want, &len))
                CHECK(!whole.problem && whole.nerr == 0 && whole.len == len &&
                          (len == 0 || memcmp(whole.out, want, len) == 0),
                      "%s: encode to %s mode %d: not what the reference writes", what, name, mode);
            free(want);
            struct encoding_way v = w;
            for (v.split = 0; v.split <= n; v.split++) {
                encode_run(&v, cps, n, &o);
                CHECK(outcome_same(&o, &whole), "%s: encode to %s mode %d: split at %zu differs",
                      what, name, mode, v.split);
                outcome_free(&o);
            }
            v.split = SIZE_MAX;
            v.chunk = 1;
            for (v.outcap = 1; v.outcap <= whole.len + 1; v.outcap++) {
                encode_run(&v, cps, n, &o);
                CHECK(outcome_same(&o, &whole),
                      "%s: encode to %s mode %d: one per call, room %zu differs", what, name,
                      mode, v.outcap);
                outcome_free(&o);
            }
            outcome_free(&whole);
        }
    }
}

/* ------------------------------------------------------------ decoding */

static void validate_agrees(enum utfdfa_encoding from, const uint8_t *in, size_t n,
                            const struct outcome *strict, const char *what)
{
    utfdfa_error e;
    size_t v = utfdfa_validate(from, in, n, &e);
    if (strict->nerr)
        CHECK(v == strict->err[0].offset && e.offset == strict->err[0].offset &&
                  e.length == strict->err[0].length && e.kind == strict->err[0].kind,
              "%s: %s: validate says %zu", what, utfdfa_encoding_name(from), v);
    else
        CHECK(v == n, "%s: %s: validate says %zu, want %zu", what, utfdfa_encoding_name(from),
              v, n);
}

static size_t all_sinks(struct sink *sinks)
{
    size_t k = 0;
    sinks[k++] = (struct sink){SINK_CHECK, UTFDFA_UTF8};
    sinks[k++] = (struct sink){SINK_U32, UTFDFA_UTF8};
    sinks[k++] = (struct sink){SINK_U16, UTFDFA_UTF8};
    for (unsigned to = 0; to < UTFDFA_NENCODINGS; to++)
        sinks[k++] = (struct sink){SINK_BYTES, (enum utfdfa_encoding)to};
    return k;
}

static void one_input(const struct vector *row, enum utfdfa_encoding from, const uint8_t *in,
                      size_t n, const char *what)
{
    struct expect x;
    expectation(row, from, in, n, &x);
    struct sink sinks[3 + UTFDFA_NENCODINGS];
    size_t nsinks = all_sinks(sinks);
    for (size_t s = 0; s < nsinks; s++) {
        for (int mode = UTFDFA_STRICT; mode <= UTFDFA_IGNORE; mode++) {
            struct drive dv = {from, (enum utfdfa_error_mode)mode, UTFDFA_BOM_KEEP, sinks[s],
                               0, false, 0, 0, false, 0};
            struct outcome whole;
            check_every_way(&dv, in, n, what, &whole);
            expect_result(&whole, &dv, n, &x, what);
            if (row && strstr(row->why, "/../"))
                CHECK(!has_dotdot(&whole, &sinks[s]), "%s: %s mode %d yields /../", what,
                      sink_name(&sinks[s]), mode);
            if (sinks[s].kind == SINK_CHECK && mode == UTFDFA_STRICT)
                validate_agrees(from, in, n, &whole, what);
            if (sinks[s].kind == SINK_U32 && mode == UTFDFA_STRICT)
                CHECK(oracle_covers(from, &whole, n),
                      "%s: %s: characters and errors do not cover the input exactly", what,
                      utfdfa_encoding_name(from));
            if (sinks[s].kind == SINK_U32 && mode == UTFDFA_REPLACE)
                encode_every_way((const uint32_t *)(void *)whole.out, whole.len / 4, what);
            outcome_free(&whole);
        }
    }
}

/* The kernel level to run under (src/fast/kernels.h), for the dispatch's
 * check that every level gives the same results. */
int utfdfa__fast_force(const char *level);

int main(int argc, char **argv)
{
    uint8_t in[MAX_IN];
    char what[160];
    if (argc == 3 && strcmp(argv[1], "--level") == 0 && !utfdfa__fast_force(argv[2])) {
        printf("test_vectors: level %s: not on this CPU or in this build, skipped\n", argv[2]);
        return 0;
    }
    for (size_t r = 0; r < NTABLE; r++) {
        size_t n = parse_hex(table[r].input, in, sizeof in);
        snprintf(what, sizeof what, "[%s] (%s)", table[r].input, table[r].why);
        one_input(&table[r], table[r].from, in, n, what);
    }
    for (size_t v = 0; v < sizeof vectors / sizeof vectors[0]; v++) {
        size_t n = parse_hex(vectors[v], in, sizeof in);
        snprintf(what, sizeof what, "vector [%s]", vectors[v]);
        for (unsigned from = 0; from < UTFDFA_NENCODINGS; from++)
            one_input(NULL, (enum utfdfa_encoding)from, in, n, what);
    }
    return check_summary("test_vectors");
}
