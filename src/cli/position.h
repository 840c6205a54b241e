/* SPDX-License-Identifier: MIT */
/* Where the text stands: the line and column of an input offset, at no
 * cost until an error is reported.
 *
 * Where a line feed is one unit that means nothing else (the UTF-8 forms
 * but Corrected UTF-8, UTF-16, UTF-32), each chunk costs one vectorised
 * count of its line feeds. The bytes of a line that began before the
 * current chunk are decoded only when an error asks: read again from the
 * file when it can be read again (a regular file), else kept when short
 * (4 KiB), else counted as they go by. Elsewhere (UTF-7, whose line feeds
 * may hide in base64, and Corrected UTF-8, whose magic number holds one)
 * lines are counted on the decoded text: deferred to an error for a
 * regular file, chunk by chunk for a pipe.
 *
 * A line ends at U+000A; the column counts characters (each ill-formed
 * subpart one, as a U+FFFD would be) from the start of the line, 1-based.
 * A BOM the decoder strips is not a character.
 */
#ifndef UTFDFA_CLI_POSITION_H
#define UTFDFA_CLI_POSITION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "utfdfa.h"

/* Lines ended and characters since, from some point of the stream on. */
struct tally {
    uint64_t lines;
    uint64_t chars;
};

/* A count that stands at a stream offset: the counter there, and what it
 * counted up to it. */
struct counted {
    uint64_t at;            /* stream offset */
    struct tally tally;     /* lines before `at`, characters of its line before it */
    utfdfa_decoder counter; /* a strict decoder of the source, fed up to `at` */
};

struct position {
    enum utfdfa_encoding enc, target;
    unsigned options;
    unsigned unit;            /* bytes a unit: chunks start on unit boundaries */
    bool lines_by_byte;       /* a line feed is found by its unit (see above) */
    int fd;                   /* re-read the input from here, or -1 */
    uint64_t fd_base;         /* the file offset of stream offset 0 */
    uint64_t chunk_start;     /* stream offset of the current chunk */
    struct counted known;     /* at or before chunk_start */
    uint8_t kept[4096];       /* the bytes from known.at to chunk_start, when not re-read */
    size_t kept_len;
    struct counted last;      /* the last position_of in this chunk, to go on from */
    bool have_last;
    uint8_t lf[8];            /* U+000A in enc */
    size_t lf_len;
};

/* A stream of `enc` whose decoder has the BOM mode `bom` and writes into
 * `target` with `options` (whose unencodable characters are its errors
 * too), or only checks (target UTFDFA_NENCODINGS). fd is the input: a
 * regular file is read again (pread) from the file offset fd_base on. */
void position_init(struct position *pos, enum utfdfa_encoding enc, enum utfdfa_bom bom,
                   enum utfdfa_encoding target, unsigned options, int fd, int64_t fd_base);

/* Line and column of stream offset `at`, which lies before the end of the
 * current chunk p[0..n) (or in the bytes pending from the one before).
 * Calls for one chunk come in increasing order of `at`. */
void position_of(struct position *pos, const uint8_t *p, size_t n, uint64_t at, uint64_t *line,
                 uint64_t *column);

/* The current chunk p[0..n) is done; the next one follows it. */
void position_advance(struct position *pos, const uint8_t *p, size_t n);

#endif /* UTFDFA_CLI_POSITION_H */
