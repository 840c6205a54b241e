/* SPDX-License-Identifier: MIT */
/* The plain per-byte loop (core_dfa of src/decode/dfa.h) over a grammar's
 * generated tables: the oracle the fast paths are brute-forced against.
 * The fast paths do not read these tables, so the two are independent.
 * One copy here, so that the suites check against the same loop. */
#ifndef UTFDFA_TESTS_PLAIN_DFA_H
#define UTFDFA_TESTS_PLAIN_DFA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A DFA as gen/ emits it: trans[state + cls[byte]] is the next state
 * (states pre-multiplied by the class count); a byte keeps the bits
 * payload_mask[cls[byte]] of itself in the character. */
struct plain_dfa {
    const uint8_t *cls;
    const void *trans;
    size_t trans_size; /* bytes per entry of trans: 1 or 2 (uint16_t) */
    const uint8_t *payload_mask;
    uint32_t accept, reject;
};

/* The one for a generated prefix: PLAIN_DFA(utf8, UTF8). */
#define PLAIN_DFA(p, P)                                                                     \
    {                                                                                       \
        p##_class, p##_trans, sizeof p##_trans[0], p##_payload_mask, P##_ACCEPT, P##_REJECT \
    }

uint32_t plain_dfa_step(const struct plain_dfa *d, uint32_t state, uint8_t byte);

/* Strict, into UTF-32 or (utf16) UTF-16 units: stops before a rejecting
 * byte and before the byte completing a character whose units (a pair
 * whole) do not fit in cap - written. Returns the bytes consumed; leaves
 * the state, the partial value and the units written. */
size_t plain_dfa_decode(const struct plain_dfa *d, const uint8_t *s, size_t n, uint32_t *state,
                        uint32_t *partial, void *dst, size_t cap, size_t *written, bool utf16);

/* Replacing (convert()'s loop with UTFDFA_REPLACE), into UTF-32: a
 * rejecting byte gives U+FFFD (one per maximal subpart) and is consumed
 * only if it came in the accepting state; stops when the next unit has no
 * room. The same outs, and the U+FFFDs written in errors. */
size_t plain_dfa_replace(const struct plain_dfa *d, const uint8_t *s, size_t n, uint32_t *state,
                         uint32_t *partial, uint32_t *dst, size_t cap, size_t *written,
                         size_t *errors);

/* The same into UTF-16 units: a pair whole or not at all, as strict. */
size_t plain_dfa_replace16(const struct plain_dfa *d, const uint8_t *s, size_t n,
                           uint32_t *state, uint32_t *partial, uint16_t *dst, size_t cap,
                           size_t *written, size_t *errors);

/* Ignoring (UTFDFA_IGNORE), into UTF-32 or (utf16) UTF-16: as replacing,
 * but an error writes nothing (errors counts it). */
size_t plain_dfa_ignore(const struct plain_dfa *d, const uint8_t *s, size_t n, uint32_t *state,
                        uint32_t *partial, void *dst, size_t cap, size_t *written,
                        size_t *errors, bool utf16);

#endif /* UTFDFA_TESTS_PLAIN_DFA_H */
