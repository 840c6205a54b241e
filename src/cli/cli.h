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
    enum utfdfa_error_mode errors;
    enum utfdfa_bom bom;
    unsigned encoder_options; /* enum utfdfa_encoder_option */
    bool silent;              /* -s: no message for invalid input */
    bool all;                 /* check --all: every error, not only the first */
};

#endif /* UTFDFA_CLI_H */
