/* SPDX-License-Identifier: MIT */
/* Line and column, computed when an error asks (see position.h). */
#define _GNU_SOURCE /* memrchr, pread */
#include "position.h"

#include <string.h>
#include <unistd.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define NO_STOP UINT64_MAX

/* A strict decoder of the stream's source, writing where the stream's
 * decoder writes: it sees each error where that one does. */
static void counter_init(const struct position *pos, utfdfa_decoder *c, enum utfdfa_bom bom)
{
    utfdfa_decoder_init(c, pos->enc, UTFDFA_STRICT, bom);
    if (pos->target < UTFDFA_NENCODINGS)
        utfdfa_decoder_set_target(c, pos->target);
    utfdfa_decoder_set_options(c, pos->options);
}

static void tally_code_points(struct tally *t, const uint32_t *cps, size_t m)
{
    for (size_t i = 0; i < m; i++) {
        if (cps[i] == 0x0A) {
            t->lines++;
            t->chars = 0;
        } else {
            t->chars++;
        }
    }
}

/* Count on over p[0..n), the stream from k->at on; each error is one
 * character. Stops at the error at stream offset `stop` (not counted), if
 * it comes: true then. An error is known only from the byte that reveals
 * it, so only a strict decoder given the bytes after it can tell that
 * bytes it holds were an earlier error. */
static bool count_on(struct counted *k, const uint8_t *p, size_t n, uint64_t stop)
{
    uint32_t cps[256];
    uint64_t shift = utfdfa_decoder_offset(&k->counter) - k->at; /* its offsets are its own */
    while (n > 0) {
        size_t used = n, m = sizeof cps / sizeof cps[0];
        utfdfa_error err;
        utfdfa_result r = utfdfa_decode_utf32(&k->counter, p, &used, cps, &m, false, &err);
        tally_code_points(&k->tally, cps, m);
        p += used;
        n -= used;
        k->at += used;
        if (r == UTFDFA_MALFORMED) {
            if (stop != NO_STOP && err.offset - shift >= stop)
                return true;
            k->tally.chars++;
        }
    }
    return false;
}

/* A count at the start of a line (stream offset at, after `lines` lines):
 * the counter as it stands after a line feed. */
static void start_line(const struct position *pos, struct counted *k, uint64_t at,
                       uint64_t lines)
{
    counter_init(pos, &k->counter, UTFDFA_BOM_KEEP);
    uint32_t cp;
    size_t n = pos->lf_len, m = 1;
    utfdfa_decode_utf32(&k->counter, pos->lf, &n, &cp, &m, false, NULL);
    k->at = at;
    k->tally.lines = lines;
    k->tally.chars = 0;
}

/* Count k (a copy of pos->known) on to chunk_start: the kept bytes, or the
 * file read again. */
static void catch_up(const struct position *pos, struct counted *k)
{
    if (pos->fd < 0) {
        count_on(k, pos->kept, pos->kept_len, NO_STOP);
        return;
    }
    uint8_t buf[64 * 1024];
    while (k->at < pos->chunk_start) {
        uint64_t left = pos->chunk_start - k->at;
        ssize_t got = pread(pos->fd, buf, left < sizeof buf ? (size_t)left : sizeof buf,
                            (off_t)(pos->fd_base + k->at));
        if (got <= 0)
            return; /* the file changed under us: what could be read */
        count_on(k, buf, (size_t)got, NO_STOP);
    }
}

/* Whether the unit at p is the line feed. */
static bool is_lf(const struct position *pos, const uint8_t *p)
{
    return pos->unit == 1 ? p[0] == pos->lf[0] : memcmp(p, pos->lf, pos->unit) == 0;
}

#if defined(__SSE2__)
/* Units equal to `want` among the whole 16-byte blocks of p[0..n), with
 * the compare of the unit size; the rest is left to the caller. Each
 * matching unit adds 1 to each of its bytes' counters, summed every 255
 * blocks at most. */
#define COUNT_EQUAL(name, cmpeq)                                                            \
    static size_t name(const uint8_t *p, size_t n, __m128i want, uint64_t *bytes)           \
    {                                                                                       \
        size_t i = 0;                                                                       \
        while (n - i >= 16) {                                                               \
            __m128i acc = _mm_setzero_si128();                                              \
            size_t blocks = (n - i) / 16 < 255 ? (n - i) / 16 : 255;                        \
            for (size_t b = 0; b < blocks; b++, i += 16) {                                  \
                __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + i));        \
                acc = _mm_sub_epi8(acc, cmpeq(v, want));                                    \
            }                                                                               \
            __m128i sums = _mm_sad_epu8(acc, _mm_setzero_si128());                          \
            *bytes += (uint64_t)_mm_cvtsi128_si32(sums) +                                   \
                      (uint64_t)_mm_cvtsi128_si32(_mm_srli_si128(sums, 8));                 \
        }                                                                                   \
        return i;                                                                           \
    }
COUNT_EQUAL(count_equal8, _mm_cmpeq_epi8)
COUNT_EQUAL(count_equal16, _mm_cmpeq_epi16)
COUNT_EQUAL(count_equal32, _mm_cmpeq_epi32)
#undef COUNT_EQUAL
#endif

/* Line feeds among the whole units of p[0..n): one compare a unit, 16
 * bytes at a time where SSE2 is there. */
static uint64_t count_lf(const struct position *pos, const uint8_t *p, size_t n)
{
    uint64_t count = 0;
    size_t i = 0;
#if defined(__SSE2__)
    uint64_t bytes = 0;
    uint32_t lf32;
    uint16_t lf16;
    memcpy(&lf32, pos->lf, 4);
    memcpy(&lf16, pos->lf, 2);
    if (pos->unit == 1)
        i = count_equal8(p, n, _mm_set1_epi8((char)pos->lf[0]), &bytes);
    else if (pos->unit == 2)
        i = count_equal16(p, n, _mm_set1_epi16((short)lf16), &bytes);
    else
        i = count_equal32(p, n, _mm_set1_epi32((int)lf32), &bytes);
    count = bytes / pos->unit;
#endif
    for (; i + pos->unit <= n; i += pos->unit)
        count += is_lf(pos, p + i);
    return count;
}

/* The end of the last line feed among the whole units of p[0..n), or 0. */
static size_t after_last_lf(const struct position *pos, const uint8_t *p, size_t n)
{
    if (pos->unit == 1) {
        const uint8_t *lf = memrchr(p, pos->lf[0], n);
        return lf ? (size_t)(lf - p) + 1 : 0;
    }
    for (size_t i = n - n % pos->unit; i >= pos->unit; i -= pos->unit)
        if (is_lf(pos, p + i - pos->unit))
            return i;
    return 0;
}

void position_init(struct position *pos, enum utfdfa_encoding enc, enum utfdfa_bom bom,
                   enum utfdfa_encoding target, unsigned options, int fd, int64_t fd_base)
{
    memset(pos, 0, sizeof *pos);
    pos->enc = enc;
    pos->target = target;
    pos->options = options;
    pos->unit = (unsigned)utfdfa_unit_size(enc);
    pos->fd = fd_base >= 0 ? fd : -1;
    pos->fd_base = fd_base >= 0 ? (uint64_t)fd_base : 0;
    utfdfa_encoder e;
    utfdfa_encoder_init(&e, enc, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    static const uint32_t lf = 0x0A;
    size_t one = 1;
    pos->lf_len = sizeof pos->lf;
    utfdfa_encode(&e, &lf, &one, pos->lf, &pos->lf_len, true, NULL);
    /* UTF-7 may write a line feed in base64 (IMAP's UTF-7 always does), and
     * Corrected UTF-8's magic number ends in one: there only the decoded
     * text tells. */
    pos->lines_by_byte = pos->lf_len == pos->unit && enc != UTFDFA_UTF7 &&
                         enc != UTFDFA_UTF7_IMAP && enc != UTFDFA_CORRECTED_UTF8;
    /* An added BOM is not in the input; a stripped one is no character. */
    counter_init(pos, &pos->known.counter,
                 bom == UTFDFA_BOM_KEEP ? UTFDFA_BOM_KEEP : UTFDFA_BOM_STRIP);
}

void position_of(struct position *pos, const uint8_t *p, size_t n, uint64_t at, uint64_t *line,
                 uint64_t *column)
{
    size_t in = at > pos->chunk_start ? (size_t)(at - pos->chunk_start) : 0;
    in = in < n ? in : n;
    size_t start = pos->lines_by_byte ? after_last_lf(pos, p, in) : 0;
    struct counted k;
    bool stopped;
    if (pos->have_last && pos->last.at >= pos->chunk_start + start) {
        k = pos->last; /* go on from the error before, in this chunk */
        stopped = count_on(&k, p + (k.at - pos->chunk_start), n - (k.at - pos->chunk_start), at);
    } else if (start > 0) { /* the line starts in this chunk */
        start_line(pos, &k, pos->chunk_start + start,
                   pos->known.tally.lines + count_lf(pos, p, start));
        stopped = count_on(&k, p + start, n - start, at);
    } else { /* before it: from what is known, through the bytes since */
        k = pos->known;
        catch_up(pos, &k);
        stopped = at >= pos->chunk_start && count_on(&k, p, n, at);
    }
    *line = 1 + k.tally.lines;
    *column = 1 + k.tally.chars;
    pos->have_last = stopped;
    if (stopped) {
        pos->last = k;
        pos->last.tally.chars++; /* the error at `at` is one character */
    }
}

void position_advance(struct position *pos, const uint8_t *p, size_t n)
{
    pos->have_last = false;
    size_t start = pos->lines_by_byte ? after_last_lf(pos, p, n) : 0;
    if (start > 0) {
        start_line(pos, &pos->known, pos->chunk_start + start,
                   pos->known.tally.lines + count_lf(pos, p, start));
        pos->kept_len = 0;
    }
    size_t from = (size_t)(pos->known.at > pos->chunk_start ? pos->known.at - pos->chunk_start : 0);
    pos->chunk_start += n;
    if (pos->fd >= 0)
        return; /* the file is read again when an error asks */
    if (n - from <= sizeof pos->kept - pos->kept_len) {
        memcpy(pos->kept + pos->kept_len, p + from, n - from);
        pos->kept_len += n - from;
        return;
    }
    count_on(&pos->known, pos->kept, pos->kept_len, NO_STOP);
    count_on(&pos->known, p + from, n - from, NO_STOP);
    pos->kept_len = 0;
}
