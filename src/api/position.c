/* SPDX-License-Identifier: MIT */
/* Line and column of a stream offset (utfdfa_position_*): a strict
 * decoder of the stream's source counts characters, but only over the
 * last line of each chunk; the lines before it are counted by their line
 * feeds, one compare a unit, where a line feed is a unit that means
 * nothing else (every source but UTF-7 and IMAP's, whose line feeds may be
 * in base64, and Corrected UTF-8, whose magic number holds one). */
#include "decode/byte_order.h"
#include "decode/convert.h"

/* The counter: a strict decoder fed up to its offset, the lines it ended
 * and the characters of the line since (each error one, as a U+FFFD). */
struct count {
    utfdfa_decoder counter;
    uint64_t lines, chars;
};

struct position {
    struct count known; /* at the start of the current chunk */
    struct count last;  /* stopped at the last error asked for in this chunk,
                           counted (chars >= 1), or none (chars 0) */
};
_Static_assert(sizeof(struct position) <= sizeof(utfdfa_position) &&
                   _Alignof(struct position) <= _Alignof(utfdfa_position),
               "the tracker fits the public type");

#define NO_STOP UINT64_MAX

static struct position load_position(const utfdfa_position *p)
{
    struct position s;
    memcpy(&s, p, sizeof s);
    return s;
}

static uint64_t at_of(const struct count *k)
{
    return utfdfa_decoder_offset(&k->counter);
}

void utfdfa_position_init(utfdfa_position *pos, const utfdfa_decoder *dec)
{
    struct position s = {0};
    struct decoder d = load_decoder(dec);
    unsigned bom = BOM_MODE(d.flags);
    /* Strict; an added BOM is not in the input, a stripped one no character. */
    d.config = (uint8_t)(d.config & ~(3u << 4));
    d.flags = (uint8_t)((d.flags & ~(3u << 5)) |
                        (bom == UTFDFA_BOM_KEEP ? 0u : (unsigned)UTFDFA_BOM_STRIP << 5));
    set_writer(&d, 0);
    store_decoder(&s.known.counter, &d);
    memset(pos, 0, sizeof *pos);
    memcpy(pos, &s, sizeof s);
}

/* Count on over p[0..n); stop at the error at stream offset `stop` or
 * after (not counted), if it comes: true then. */
static bool count_on(struct count *k, const uint8_t *p, size_t n, uint64_t stop)
{
    uint32_t cps[256];
    while (n > 0) {
        size_t used = n, m = sizeof cps / sizeof cps[0];
        utfdfa_error err;
        utfdfa_result r = utfdfa_decode_utf32(&k->counter, p, &used, cps, &m, false, &err);
        for (size_t i = 0; i < m; i++) {
            bool lf = cps[i] == 0x0A;
            k->lines += lf;
            k->chars = lf ? 0 : k->chars + 1;
        }
        p += used;
        n -= used;
        if (r == UTFDFA_MALFORMED) {
            if (err.offset >= stop)
                return true;
            k->chars++;
        }
    }
    return false;
}

/* The bytes of U+000A's unit in the decoder's source, or 0 when a line
 * feed is not found by its unit (see above; also before a UTF-16 or
 * UTF-32 source's byte order is known). */
static size_t lf_unit(const struct count *k, uint8_t lf[4])
{
    unsigned enc = utfdfa_decoder_encoding(&k->counter);
    size_t unit = utfdfa_unit_size((enum utfdfa_encoding)enc);
    if (is_unordered(enc) || is_utf7(enc) || utfdfa_row_magic(enc) ||
        enc >= UTFDFA_NENCODINGS)
        return 0;
    bool big = utfdfa_row_big_endian(enc);
    memset(lf, 0, 4);
    lf[big ? unit - 1 : 0] = 0x0A;
    return unit;
}

/* Line feeds among the whole units of p[0..n). */
static uint64_t count_lf(const uint8_t *p, size_t n, const uint8_t *lf, size_t unit)
{
    uint64_t count = 0;
    if (unit == 1) {
        for (const uint8_t *q = p, *end = p + n; (q = memchr(q, 0x0A, (size_t)(end - q))); q++)
            count++;
        return count;
    }
    for (size_t i = 0; i + unit <= n; i += unit)
        count += memcmp(p + i, lf, unit) == 0;
    return count;
}

/* The end of the last line feed among the whole units of p[0..n), or 0. */
static size_t after_last_lf(const uint8_t *p, size_t n, const uint8_t *lf, size_t unit)
{
    for (size_t i = n - n % unit; i >= unit; i -= unit)
        if (p[i - unit] == lf[0] && memcmp(p + i - unit, lf, unit) == 0)
            return i;
    return 0;
}

/* A count at the start of a line, at stream offset `at` after `lines`:
 * the counter as a line feed leaves it, nothing pending. */
static void start_line(struct count *k, uint64_t at, uint64_t lines)
{
    struct decoder d = load_decoder(&k->counter);
    d.offset = at;
    d.partial = 0;
    d.flags = (uint8_t)((d.flags & ~7u) | F_STARTED);
    d.state_limit = (uint8_t)(d.state_limit & ~STATE_MASK);
    store_decoder(&k->counter, &d);
    k->lines = lines;
    k->chars = 0;
}

/* The bytes of p[0..n) before the first unit boundary of the stream. */
static size_t to_boundary(const struct count *k, size_t unit, size_t n)
{
    size_t lead = (size_t)((unit - at_of(k) % unit) % unit);
    return lead < n ? lead : n;
}

void utfdfa_position_of(utfdfa_position *pos, const uint8_t *p, size_t n, uint64_t at,
                        uint64_t *line, uint64_t *column)
{
    struct position s = load_position(pos);
    struct count k = s.known;
    uint64_t start = at_of(&k);
    uint8_t lf[4];
    size_t unit = lf_unit(&k, lf), lead = unit ? to_boundary(&k, unit, n) : 0;
    p = REAL_ADDRESS(p, n);
    bool stopped = count_on(&k, p, lead, at);
    if (!stopped) {
        size_t in = at > start ? (size_t)(at - start < n ? at - start : n) : 0;
        size_t e = unit && in > lead ? after_last_lf(p + lead, in - lead, lf, unit) : 0;
        size_t from = lead + e;
        if (s.last.chars && at_of(&s.last) >= start + from) {
            k = s.last; /* go on from the error before, in this chunk */
            from = (size_t)(at_of(&k) - start);
        } else if (e > 0) {
            start_line(&k, start + from, k.lines + count_lf(p + lead, e, lf, unit));
        }
        stopped = count_on(&k, p + from, n - from, at);
    }
    *line = 1 + k.lines;
    *column = 1 + k.chars;
    s.last = k;
    s.last.chars = stopped ? k.chars + 1 : 0; /* the error at `at` is one character */
    memcpy(pos, &s, sizeof s);
}

void utfdfa_position_advance(utfdfa_position *pos, const uint8_t *p, size_t n)
{
    struct position s = load_position(pos);
    struct count *k = &s.known;
    uint8_t lf[4];
    size_t unit = lf_unit(k, lf), lead = unit ? to_boundary(k, unit, n) : 0;
    p = REAL_ADDRESS(p, n);
    count_on(k, p, lead, NO_STOP);
    size_t e = unit ? after_last_lf(p + lead, n - lead, lf, unit) : 0;
    if (e > 0)
        start_line(k, at_of(k) + e, k->lines + count_lf(p + lead, e, lf, unit));
    count_on(k, p + lead + e, n - lead - e, NO_STOP);
    s.last.chars = 0;
    memcpy(pos, &s, sizeof s);
}
