/* SPDX-License-Identifier: MIT */
/* What the parts of the utfdfa command share. */
#ifndef UTFDFA_CLI_H
#define UTFDFA_CLI_H

#include <stdbool.h>

#include "utfdfa.h"

/* Exit status: see utfdfa(1). */
enum { EXIT_INVALID = 1, EXIT_USAGE = 2, EXIT_IO = 3 };

extern const char *const progname;

struct options {
    enum utfdfa_encoding from, to;
    enum utfdfa_errors errors;
    enum utfdfa_bom bom;
    unsigned encoder_options; /* enum utfdfa_encoder_option */
    unsigned from_width;      /* UTF-16 or UTF-32 without a byte order: 2 or 4, else 0 */
    unsigned to_width;
    bool silent;              /* -s: no message for invalid input */
    bool all;                 /* check --all: every error, not only the first */
};

#endif /* UTFDFA_CLI_H */
