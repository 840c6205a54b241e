/* SPDX-License-Identifier: MIT */
/* What the library knows about each encoding, from the generated registry
 * (grammar/encodings.registry): the internal part of src/api/encodings.c. */
#ifndef UTFDFA_API_ENCODINGS_H
#define UTFDFA_API_ENCODINGS_H

#include <stddef.h>

#include "utfdfa.h"

/* The most bytes one character takes when written in enc. */
size_t utfdfa__max_char_bytes(enum utfdfa_encoding enc);

#endif /* UTFDFA_API_ENCODINGS_H */
