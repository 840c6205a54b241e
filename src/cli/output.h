/* SPDX-License-Identifier: MIT */
/* Where the transcoded text goes: standard output, or the file of -o.
 *
 * A regular file named by -o (or a new one) is written to a temporary file
 * beside it and renamed into place when the run ends, so that two runs
 * writing the same path leave one whole output, never a mixture; a device
 * or fifo is written in place. Whatever ends the run, what was written
 * holds whole characters only: after a failed write a regular file is cut
 * back to the last clean point (output_cut).
 */
#ifndef UTFDFA_CLI_OUTPUT_H
#define UTFDFA_CLI_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct output {
    int fd;
    const char *name;       /* for messages: the path, or "standard output" */
    const char *path;       /* -o FILE, or NULL */
    char *temp;             /* the temporary file renamed to target, or NULL */
    char *target;           /* what the rename replaces: path, through links */
    uint64_t written;       /* bytes written so far */
};

/* Standard output (path NULL) or -o path; prints the reason and returns
 * -1 when it cannot be opened. */
int output_open(struct output *out, const char *path);

/* Write p[0..n). On failure the reason is printed, *done says how much of
 * p was written, and -1 is returned. */
int output_write(struct output *out, const uint8_t *p, size_t n, size_t *done);

/* Cut a regular file back so that it holds `length` bytes of this run's
 * output (a failed write left it inside a character); -1 if it cannot be. */
int output_cut(struct output *out, uint64_t length);

/* After a cut, which freed room: write p[0..n) quietly (the failure that
 * led to the cut is reported already); -1 if it did not all go. */
int output_append_after_cut(struct output *out, const uint8_t *p, size_t n);

/* Close; a temporary file is renamed into place. Returns -1 (reason
 * printed) if that fails. */
int output_close(struct output *out);

/* The temporary file, if a signal ends the run (async-signal-safe). */
void output_remove_temp_on_signal(void);

#endif /* UTFDFA_CLI_OUTPUT_H */
