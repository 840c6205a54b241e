/* SPDX-License-Identifier: MIT */
/* The fast paths' engines (src/fast/utf8/) over tables given at run time,
 * for tests/fast/test_fast.c: the same code the library runs for UTF-8,
 * compiled for the plain table's step (trans[state + class[byte]], what
 * grammars of more than 10 states need: model.h), over other grammars'
 * generated tables (gen/emit_fast.py) and over UTF-8's. Portable
 * techniques only (the ISA variants differ from these in target
 * attributes alone). */
#ifndef FAST_GENERIC_H
#define FAST_GENERIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "utf8_variants.h"

struct utfdfa_fast_tables;

/* The tables the variants below use from now on. */
void fast_generic_use(const struct utfdfa_fast_tables *tables);

/* Terminated by an entry whose name is NULL; the first is the "default". */
extern const struct utfdfa__fast_variant fast_generic_variants[];

size_t fast_generic_pending(const uint8_t *src, size_t k, uint32_t state);

#endif /* FAST_GENERIC_H */
