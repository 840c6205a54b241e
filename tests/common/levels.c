/* SPDX-License-Identifier: MIT */
#include "levels.h"

#include <stdio.h>

#include "check.h"

int utfdfa__fast_force(const char *level); /* src/fast/kernels.h */

void each_fast_level(const char *suite, void (*run)(const char *level, void *arg), void *arg)
{
    static const char *const levels[] = {"scalar", "sse2", "sse4", "avx2", "avx512", "avx512vbmi"};
    for (size_t l = 0; l < sizeof levels / sizeof *levels; l++) {
        if (!utfdfa__fast_force(levels[l])) {
            printf("%s: level %s: not on this CPU, skipped\n", suite, levels[l]);
            continue;
        }
        unsigned long before = passed;
        run(levels[l], arg);
        printf("%s: level %s: %lu checks\n", suite, levels[l], passed - before);
    }
    utfdfa__fast_force("auto");
}
