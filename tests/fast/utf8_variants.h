/* SPDX-License-Identifier: MIT */
/* Every technique of the UTF-8 fast paths (src/fast/utf8/) as its own
 * entry point, for tests/fast/test_fast.c, tests/fuzz/fuzz_fast.c and
 * tests/bench: the library's own decoders (its sets, variants.h) and, in
 * tests/fast/utf8_variants.c, the engines with the techniques no level of
 * the library uses (no ASCII path, branchy decoding, other lane counts,
 * BMI2 without AVX2, the ASCII path in words on x86-64). */
#ifndef UTFDFA_TESTS_UTF8_VARIANTS_H
#define UTFDFA_TESTS_UTF8_VARIANTS_H

#include "utf8_fast.h"

struct utfdfa__fast_variant {
    const char *name;
    utfdfa__scan_fn scan;   /* NULL when the variant has no such function */
    utfdfa__dec32_fn dec32;
    utfdfa__dec16_fn dec16;
    utfdfa__rep_fn rep;
};
/* Terminated by an entry whose name is NULL; the first is the library's
 * dispatching entry ("default"). */
extern const struct utfdfa__fast_variant utfdfa__utf8_fast_variants[];
/* Whether this CPU runs the variant named `name` (its prefix names the ISA it needs). */
int utfdfa__fast_variant_runs(const char *name);

#endif /* UTFDFA_TESTS_UTF8_VARIANTS_H */
