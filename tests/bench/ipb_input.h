/* SPDX-License-Identifier: MIT */
/* The input of make bench-arm64's drivers (tests/bench/ipb.c for utfdfa's
 * levels, tests/bench/ipb_peers.cpp for the peers), one definition so that
 * every column of a row counts the same bytes. */
#ifndef IPB_INPUT_H
#define IPB_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "utfdfa.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The first `want` bytes of the file at `path`, cut back to a character
 * boundary; *len their count; NULL when the file cannot be read. */
uint8_t *ipb_read_prefix(const char *path, size_t want, size_t *len);

/* src[0..n) from `from` into `to` by utfdfa (strict), whole, into dst (cap
 * bytes); the bytes written (the program ends when it does not transcode
 * whole). */
size_t ipb_transcode(enum utfdfa_encoding from, enum utfdfa_encoding to, const uint8_t *src,
                     size_t n, uint8_t *dst, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
