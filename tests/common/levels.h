/* SPDX-License-Identifier: MIT */
/* The kernel levels (src/fast/levels.h) the suites run their checks at, in
 * turn. */
#ifndef UTFDFA_TESTS_LEVELS_H
#define UTFDFA_TESTS_LEVELS_H

/* Calls run(level, arg) with the library's kernels forced to each level
 * this build and CPU have (utfdfa__fast_force), scalar first; says which
 * it skips and how many checks each run made; then gives the choice back
 * to the library. */
#include <stddef.h>

/* The names of this build's levels (the rows of src/fast/levels.h), scalar
 * first, in the ladder's order. */
extern const char *const fast_level_names[];
extern const size_t fast_level_count;

void each_fast_level(const char *suite, void (*run)(const char *level, void *arg), void *arg);

#endif /* UTFDFA_TESTS_LEVELS_H */
