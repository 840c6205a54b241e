/* SPDX-License-Identifier: MIT */
/* Where the text stands: the line and column of an input offset, at no
 * cost until an error is reported.
 *
 * While the input streams by, each chunk costs one vectorised count of its
 * line feeds and a copy of the bytes after its last one (the start of a
 * line that goes on into the next chunk; they are decoded only if that
 * chunk has no line feed, or an error before its first). Line and column
 * of an offset in the current chunk are worked out only when asked, from
 * the bytes still at hand.
 *
 * A line ends at U+000A; the column counts characters (each ill-formed
 * subpart one, as a U+FFFD would be) from the start of the line, 1-based.
 * A BOM the decoder strips is not a character.
 */
#ifndef UTFDFA_CLI_POSITION_H
#define UTFDFA_CLI_POSITION_H

#include <stddef.h>
#include <stdint.h>

#include "utfdfa.h"

struct position {
    enum utfdfa_encoding enc;
    unsigned unit;            /* bytes a unit: chunks start on unit boundaries */
    uint64_t chunk_start;     /* stream offset of the current chunk */
    uint64_t lines;           /* line feeds before chunk_start */
    uint64_t line_chars;      /* characters from the line start to the tail */
    utfdfa_decoder counter;   /* counts those: where the tail starts, restarted at each line */
    uint8_t tail[4096];       /* the line's bytes just before chunk_start, not counted yet:
                                 most lines end in the next chunk, and then they never are */
    size_t tail_len;
    enum utfdfa_encoding target;
    unsigned options;
    uint8_t lf[8];            /* U+000A in enc */
    size_t lf_len;
};

/* A stream of `enc` whose decoder has the BOM mode `bom` and writes into
 * `target` with `options` (whose unencodable characters are its errors
 * too), or only checks (target UTFDFA_NENCODINGS). */
void position_init(struct position *pos, enum utfdfa_encoding enc, enum utfdfa_bom bom,
                   enum utfdfa_encoding target, unsigned options);

/* Line and column of stream offset `at`, which lies before the end of the
 * current chunk p[0..n) (or in the bytes pending from the one before). */
void position_of(const struct position *pos, const uint8_t *p, size_t n, uint64_t at,
                 uint64_t *line, uint64_t *column);

/* The current chunk p[0..n) is done; the next one follows it. */
void position_advance(struct position *pos, const uint8_t *p, size_t n);

#endif /* UTFDFA_CLI_POSITION_H */
