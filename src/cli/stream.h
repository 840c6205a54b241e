/* SPDX-License-Identifier: MIT */
/* One input file through the decoder: transcoded into the output stream,
 * or only checked. */
#ifndef UTFDFA_CLI_STREAM_H
#define UTFDFA_CLI_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "cli.h"
#include "output.h"

/* The output stream all inputs go to, in order. */
struct sink {
    struct output *out;
    enum utfdfa_encoding enc;
    uint64_t clean;      /* UTF-7: bytes written up to the last point with no run open */
};

/* What check --all counts. */
struct check_totals {
    uint64_t errors;
    size_t invalid_files;
};

/* Transcode the input fd into sink (whose first file it is when bom is the
 * BOM mode; later files pass UTFDFA_BOM_KEEP). Returns an exit status. */
int transcode_file(int fd, const char *name, const struct options *opt, enum utfdfa_bom bom,
                   struct sink *sink);

/* Check the input fd; errors are reported (all of them with opt->all) and
 * counted in totals. Returns an exit status. */
int check_file(int fd, const char *name, const struct options *opt, struct check_totals *totals);

#endif /* UTFDFA_CLI_STREAM_H */
