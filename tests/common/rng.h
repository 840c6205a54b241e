/* SPDX-License-Identifier: MIT */
/* The seeded generator of the C tests: splitmix64, one state per stream.
 * Each program seeds its own (`static struct test_rng rng = {SEED};`), so a
 * run draws the same inputs every time and a failure is reproducible.
 * splitmix64 takes any seed (0 too) and every bit of its output is good, so
 * callers may take low bits, high bits or a remainder alike. Header-only:
 * the helpers are static inline, no build change where it is included. */
#ifndef UTFDFA_TESTS_RNG_H
#define UTFDFA_TESTS_RNG_H

#include <stdint.h>

struct test_rng {
    uint64_t s;
};

/* The next 64 random bits. */
static inline uint64_t test_rng_next(struct test_rng *r)
{
    uint64_t z = r->s += 0x9E3779B97F4A7C15u;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

/* 32 random bits. */
static inline uint32_t test_rng_u32(struct test_rng *r)
{
    return (uint32_t)(test_rng_next(r) >> 32);
}

/* A value in [0, n), n > 0: the remainder of 64 bits, so the bias is below
 * n / 2^64 for every n (a 32-bit remainder's is visible for n near 2^31). */
static inline uint32_t test_rng_below(struct test_rng *r, uint32_t n)
{
    return (uint32_t)(test_rng_next(r) % n);
}

/* A random byte. */
static inline uint8_t test_rng_byte(struct test_rng *r)
{
    return (uint8_t)(test_rng_next(r) >> 56);
}

#endif /* UTFDFA_TESTS_RNG_H */
