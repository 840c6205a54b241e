/* SPDX-License-Identifier: MIT */
#include "levels.h"

#include <stdio.h>

#include "check.h"
#include "fast/levels.h" /* the rows (compiled with -I src) */

int utfdfa__fast_force(const char *level); /* src/fast/kernels.h */

#define LEVEL_NAME(id, name, detect, kernels, utf8_set, utf8_scan) #name,
const char *const fast_level_names[] = {KERN_LEVELS(LEVEL_NAME)};
#undef LEVEL_NAME
const size_t fast_level_count = sizeof fast_level_names / sizeof *fast_level_names;

void each_fast_level(const char *suite, void (*run)(const char *level, void *arg), void *arg)
{
    for (size_t l = 0; l < fast_level_count; l++) {
        const char *level = fast_level_names[l];
        if (!utfdfa__fast_force(level)) {
            printf("%s: level %s: not on this CPU, skipped\n", suite, level);
            continue;
        }
        unsigned long before = passed;
        run(level, arg);
        printf("%s: level %s: %lu checks\n", suite, level, passed - before);
    }
    utfdfa__fast_force("auto");
}
