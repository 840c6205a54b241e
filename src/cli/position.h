/* SPDX-License-Identifier: MIT */
/* Where the text stands: the line and column of an input offset, by the
 * library's tracker (utfdfa_position_*, utfdfa(3)): a line ends at U+000A;
 * the column counts characters (each ill-formed subpart one, as a U+FFFD
 * would be) from the start of the line, 1-based. A BOM the decoder strips
 * is not a character.
 */
#ifndef UTFDFA_CLI_POSITION_H
#define UTFDFA_CLI_POSITION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "utfdfa.h"

struct position {
    utfdfa_position tracker;
    unsigned unit; /* bytes a unit: chunks start on unit boundaries */
};

/* A stream of `enc` whose decoder has the BOM mode `bom` and writes into
 * `target` with `options` (whose unencodable characters are its errors
 * too), or only checks (target UTFDFA_NENCODINGS). */
void position_init(struct position *pos, enum utfdfa_encoding enc, enum utfdfa_bom bom,
                   enum utfdfa_encoding target, unsigned options);

/* Line and column of stream offset `at`, which lies before the end of the
 * current chunk p[0..n) (or in the bytes pending from the one before).
 * Calls for one chunk come in increasing order of `at`. */
void position_of(struct position *pos, const uint8_t *p, size_t n, uint64_t at, uint64_t *line,
                 uint64_t *column);

/* The current chunk p[0..n) is done; the next one follows it. */
void position_advance(struct position *pos, const uint8_t *p, size_t n);

#endif /* UTFDFA_CLI_POSITION_H */
