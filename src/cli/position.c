/* SPDX-License-Identifier: MIT */
/* Line and column, by the library's tracker (see position.h). */
#include "position.h"

void position_init(struct position *pos, enum utfdfa_encoding enc, enum utfdfa_bom bom,
                   enum utfdfa_encoding target, unsigned options)
{
    utfdfa_decoder d; /* set up as the stream's decoder, to tell the tracker */
    utfdfa_decoder_init(&d, enc, UTFDFA_STRICT, bom);
    if (target < UTFDFA_NENCODINGS)
        utfdfa_decoder_set_target(&d, target);
    utfdfa_decoder_set_options(&d, options);
    utfdfa_position_init(&pos->tracker, &d);
    pos->unit = (unsigned)utfdfa_unit_size(enc);
}

void position_of(struct position *pos, const uint8_t *p, size_t n, uint64_t at, uint64_t *line,
                 uint64_t *column)
{
    utfdfa_position_of(&pos->tracker, p, n, at, line, column);
}

void position_advance(struct position *pos, const uint8_t *p, size_t n)
{
    utfdfa_position_advance(&pos->tracker, p, n);
}
