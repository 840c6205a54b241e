/* SPDX-License-Identifier: MIT */
/* Small helpers every C test needs once: allocation that never returns
 * NULL, exact-size heap copies (so AddressSanitizer catches a read past
 * the end), hex in and out (the seeded generator is rng.h). They do not call the
 * library (test_fast links only the UTF-8 fast paths, src/fast/utf8/); drive.h has those that do. */
#ifndef UTFDFA_TESTS_COMMON_H
#define UTFDFA_TESTS_COMMON_H

#include <stddef.h>
#include <stdint.h>

/* malloc(n), never NULL (exits with status 2), 1 byte for n == 0. */
void *xmalloc(size_t n);
/* realloc that exits on failure. */
void *xrealloc(void *p, size_t n);
/* A heap copy of exactly n bytes (never NULL, also for n == 0). */
uint8_t *dup_exact(const uint8_t *s, size_t n);

/* "C2 80": at most max bytes; returns how many. */
size_t parse_hex(const char *h, uint8_t *out, size_t max);
/* "41 FFFD 1F600": code points in hex; at most max. */
size_t parse_cps(const char *h, uint32_t *out, size_t max);

/* s[0..n) as "41 C2 80" (the first 64 bytes, then "..."); a static buffer
 * that the next call overwrites. */
const char *hex(const uint8_t *s, size_t n);

#endif /* UTFDFA_TESTS_COMMON_H */
