/* SPDX-License-Identifier: MIT */
/* Line and column, computed when an error asks (see position.h). */
#define _GNU_SOURCE /* memrchr */
#include "position.h"

#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* A decoder that counts characters: a fresh strict one of the stream's
 * source, so that it sees each error where the stream's decoder does. */
static void counter_init(const struct position *pos, utfdfa_decoder *c, enum utfdfa_bom bom)
{
    utfdfa_decoder_init(c, pos->enc, UTFDFA_STRICT, bom);
    if (pos->target < UTFDFA_NENCODINGS)
        utfdfa_decoder_set_target(c, pos->target);
    utfdfa_decoder_set_options(c, pos->options);
}

#define NO_STOP UINT64_MAX

/* Characters decoded from p[0..n) with the counter, each error one, added
 * to *chars; unless *stopped already, or until the error at the counter's
 * offset `stop` (not counted; NO_STOP: none) comes, which sets *stopped.
 * An error is known only from the byte that reveals it, so only a strict
 * decoder given the bytes after it can tell that bytes it holds were an
 * earlier error. */
static void count_chars(utfdfa_decoder *c, const uint8_t *p, size_t n, uint64_t stop,
                        uint64_t *chars, bool *stopped)
{
    uint32_t cps[256];
    while (n > 0 && !*stopped) {
        size_t k = n, m = sizeof cps / sizeof cps[0];
        utfdfa_error err;
        utfdfa_result r = utfdfa_decode_utf32(c, p, &k, cps, &m, false, &err);
        *chars += m;
        p += k;
        n -= k;
        if (r == UTFDFA_MALFORMED) {
            if (stop != NO_STOP && err.offset >= stop)
                *stopped = true;
            else
                ++*chars;
        }
    }
}

/* All characters of p[0..n). */
static uint64_t count_all(utfdfa_decoder *c, const uint8_t *p, size_t n)
{
    uint64_t chars = 0;
    bool stopped = false;
    count_chars(c, p, n, NO_STOP, &chars, &stopped);
    return chars;
}

/* A counter as it stands right after a line feed: fed one, not counted. */
static void counter_after_lf(const struct position *pos, utfdfa_decoder *c)
{
    counter_init(pos, c, UTFDFA_BOM_KEEP);
    count_all(c, pos->lf, pos->lf_len);
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
                   enum utfdfa_encoding target, unsigned options)
{
    memset(pos, 0, sizeof *pos);
    pos->enc = enc;
    pos->target = target;
    pos->options = options;
    pos->unit = (unsigned)utfdfa_unit_size(enc);
    utfdfa_encoder e;
    utfdfa_encoder_init(&e, enc, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    static const uint32_t lf = 0x0A;
    size_t one = 1;
    pos->lf_len = sizeof pos->lf;
    utfdfa_encode(&e, &lf, &one, pos->lf, &pos->lf_len, true, NULL);
    /* An added BOM is not in the input; a stripped one is no character. */
    counter_init(pos, &pos->counter, bom == UTFDFA_BOM_KEEP ? UTFDFA_BOM_KEEP : UTFDFA_BOM_STRIP);
}

void position_of(const struct position *pos, const uint8_t *p, size_t n, uint64_t at,
                 uint64_t *line, uint64_t *column)
{
    size_t in = at > pos->chunk_start ? (size_t)(at - pos->chunk_start) : 0;
    in = in < n ? in : n;
    size_t start = after_last_lf(pos, p, in);
    *line = 1 + pos->lines + count_lf(pos, p, in);
    utfdfa_decoder c;
    uint64_t chars = 0;
    bool stopped = false;
    if (start > 0) { /* the line starts in this chunk */
        counter_after_lf(pos, &c);
        count_chars(&c, p + start, n - start,
                    utfdfa_decoder_offset(&c) + (at - pos->chunk_start - start), &chars, &stopped);
    } else { /* before it: from where the counter stands, through the tail */
        uint64_t from = pos->chunk_start - pos->tail_len;
        chars = pos->line_chars;
        c = pos->counter;
        uint64_t stop = at < from ? 0 : utfdfa_decoder_offset(&c) + (at - from);
        stopped = at < from; /* in bytes pending before the tail: all counted */
        count_chars(&c, pos->tail, pos->tail_len, stop, &chars, &stopped);
        count_chars(&c, p, n, stop, &chars, &stopped);
    }
    *column = 1 + chars;
}

void position_advance(struct position *pos, const uint8_t *p, size_t n)
{
    size_t start = after_last_lf(pos, p, n);
    if (start > 0) {
        pos->lines += count_lf(pos, p, start);
        counter_after_lf(pos, &pos->counter);
        pos->line_chars = 0;
        pos->tail_len = 0;
    }
    if (n - start <= sizeof pos->tail - pos->tail_len) {
        memcpy(pos->tail + pos->tail_len, p + start, n - start);
        pos->tail_len += n - start;
    } else {
        pos->line_chars += count_all(&pos->counter, pos->tail, pos->tail_len);
        pos->line_chars += count_all(&pos->counter, p + start, n - start);
        pos->tail_len = 0;
    }
    pos->chunk_start += n;
}
