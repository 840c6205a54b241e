/* SPDX-License-Identifier: MIT */
/* The encoder of utfdfa_transcode (internal): a block of code points that
 * the decoder wrote into SINK_CODES (every error, the BOM mode and what the
 * target holds already decided: output/sink.h), written in the target by
 * the encoder's kernels (src/fast/) or the target's writer
 * (output/forms.h, output/utf7_writer.h). */
#ifndef UTFDFA_ENCODE_CODES_H
#define UTFDFA_ENCODE_CODES_H

#include "output/sink.h"

/* Write codes[0..n) in `to` at o; stop before the first that does not fit.
 * Returns how many were written. */
size_t utfdfa__encode_codes(struct out *o, unsigned to, const uint32_t *codes, size_t n);

/* At the end of the stream: the "-" (and last digit) that close an open
 * UTF-7 run. false when there is no room. */
bool utfdfa__close_run(struct out *o, unsigned to);

#endif /* UTFDFA_ENCODE_CODES_H */
