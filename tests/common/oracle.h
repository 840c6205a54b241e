/* SPDX-License-Identifier: MIT */
/* The independent references of tests/ref behind one interface, in the
 * library's terms: what a whole input decodes to (characters and errors,
 * in order) and what code points encode to, for every encoding that has a
 * reference written from its spec. The references know nothing of the
 * library; tests/ref/ref_kinds.h maps their error kinds to the library's. */
#ifndef UTFDFA_TESTS_ORACLE_H
#define UTFDFA_TESTS_ORACLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "drive.h"
#include "ref_kinds.h"
#include "utfdfa.h"

/* What s[0..n) decodes to, strict, going on after each error: the
 * characters (cps, room for n + 1) and the errors (errs, room for n + 1).
 * False when `from` has no reference here. */
bool oracle_decode(enum utfdfa_encoding from, const uint8_t *s, size_t n, uint32_t *cps,
                   size_t *ncps, utfdfa_error *errs, size_t *nerrs);
/* The same, replacing: one U+FFFD per error, where it stands. */
bool oracle_decode_replace(enum utfdfa_encoding from, const uint8_t *s, size_t n,
                           uint32_t *cps, size_t *ncps);

/* cps[0..n) as `to` writes them (no BOM), into out (room for 8 bytes a
 * code point); false when `to` has no reference encoder here or one of the
 * values is not a character it can hold. */
bool oracle_encode(enum utfdfa_encoding to, const uint32_t *cps, size_t n, uint8_t *out,
                   size_t *len);

/* Code points as a sink writes them: native units, or the target's bytes
 * by the reference encoders (no BOM); nothing for utfdfa_check. False when
 * there is no reference for it or a value cannot be written there. */
bool oracle_sink_form(const struct sink *s, const uint32_t *cps, size_t n, uint8_t *out,
                      size_t *len);

/* Whether the characters of a strict decode_utf32 outcome, each as long as
 * the reference encoder of `from` writes it, and its errors cover n bytes
 * exactly. True where that length is not the character's alone (UTF-7) or
 * there is no reference encoder. */
bool oracle_covers(enum utfdfa_encoding from, const struct outcome *strict_u32, size_t n);

#endif /* UTFDFA_TESTS_ORACLE_H */
