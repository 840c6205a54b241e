/* SPDX-License-Identifier: MIT */
/* Internal fast paths over the generated UTF-8 DFA (src/fast/utf8/).
 *
 * Contract (what makes them safe to call before the plain per-byte loop):
 * each function reads a PREFIX src[0..k) of its input and returns k. The
 * state it leaves (*state, pre-multiplied as in utf8_trans; *partial, built
 * as cp = cp << 6 | (byte & utf8_payload_mask[class]) and reset to 0 when a
 * character completes) and dst[0..*written) are exactly what the plain loop
 * of src/decode/dfa.h (core_dfa over the UTF-8 tables) gives over src[0..k):
 *   - it never consumes a byte that takes the DFA to REJECT (it stops before);
 *   - it never writes at or past dst[cap], and stops before the byte that
 *     completes a character that would not fit (a UTF-16 pair is never split);
 *   - it may stop earlier anywhere; the caller finishes with the plain loop.
 *     (These stop exactly where the plain loop stops: at a rejecting byte,
 *     for room, or at the end.)
 * Precondition: *partial == 0 whenever *state == UTF8_ACCEPT (the runtime's
 * invariant). *written is set, not added to. dst[*written..cap) may be
 * overwritten with scratch values (the unconditional stores of the
 * branch-free decoder), never anything at or past dst[cap].
 *
 * utfdfa__utf8_decode32_replace is the replacing decoder (UTFDFA_REPLACE)
 * under the same contract, except that errors do not stop it: each maximal
 * subpart becomes one U+FFFD (Unicode 3.9) and *errors counts them; it
 * stops only for room or at the end (a character cut short by the end of
 * input is the caller's, who knows whether more input follows).
 * The runtime calls these through utfdfa__utf8_decode_in_mode
 * (src/decode/convert.h), which also replaces into UTF-16 and drops errors.
 *
 * The runtime also counts the bytes of the character in progress (for an
 * error's offset and length); utfdfa__utf8_pending(src, k, state) gives it
 * after a call that consumed src[0..k) and left `state`: 0 in ACCEPT; else
 * the length of the shortest suffix of src[0..k) that takes the DFA from
 * ACCEPT to `state` without rejecting or passing through ACCEPT, or
 * SIZE_MAX when no suffix of at most 16 bytes does (the character began
 * before src: the count is the caller's previous one plus k). It relies on
 * a character's later bytes never starting one: true of RFC 3629 and RFC
 * 2279, not of Corrected UTF-8 (its reserved units go on over FE and FF).
 * The runtime calls it for UTF-8 only; tests/fast/test_fast.c checks the
 * property on each grammar and compares the count where it holds.
 *
 * The functions are written only in terms of tables gen/emit_fast.py
 * derives from the grammar (struct utfdfa_fast_tables, model.h), so the
 * same code serves any grammar gen/abnfc.py compiles with payload masks
 * (with shift rows when it has at most 10 states, else the plain table);
 * the library instantiates it for UTF-8 only, tests/fast/fast_generic.c
 * for other grammars.
 */
#ifndef UTFDFA_UTF8_FAST_H
#define UTFDFA_UTF8_FAST_H

#include <stddef.h>
#include <stdint.h>

size_t utfdfa__utf8_scan(const uint8_t *src, size_t n, uint32_t *state);
size_t utfdfa__utf8_decode32(const uint8_t *src, size_t n, uint32_t *state, uint32_t *partial,
                             uint32_t *dst, size_t cap, size_t *written);
size_t utfdfa__utf8_decode16(const uint8_t *src, size_t n, uint32_t *state, uint32_t *partial,
                             uint16_t *dst, size_t cap, size_t *written);
size_t utfdfa__utf8_decode32_replace(const uint8_t *src, size_t n, uint32_t *state,
                                     uint32_t *partial, uint32_t *dst, size_t cap,
                                     size_t *written, size_t *errors);
size_t utfdfa__utf8_pending(const uint8_t *src, size_t k, uint32_t state);

/* The UTF-8 text inside another encoding (encodings.gen.h's
 * utf8_sublanguages) runs up to the first byte outside [below, from)
 * (below < from <= 256): its index in src[0..n), or n. */
size_t utfdfa__utf8_part_end(const uint8_t *src, size_t n, unsigned below, unsigned from);
/* Its callers search for that end and run the fast path a slab at a time,
 * each after a slab passed whole twice as long, up to the most. A public
 * call's first slab is the most; once the fast path has stopped in that
 * call (at one of the source's own characters: CESU-8's pairs), a search
 * starts short, so that where those come close together it costs about
 * what the fast path then reads, not 16 KiB. A part without bounds (RFC
 * 2279, WTF-8) has no search: its slabs are the most. */
enum { UTF8_PART_FIRST = 256, UTF8_PART_MOST = 16384 };

/* A stream's position inside a character: the state's number (not
 * pre-multiplied: the decoder's own field), partial as above, and pending,
 * the bytes of the character in progress (0 in ACCEPT). */
struct utfdfa__utf8_cursor {
    uint32_t state, partial, pending;
};

/* The public calls' direct entry: a chunk decoded as utfdfa__utf8_decode32
 * would, the cursor kept (pending as utfdfa__utf8_pending gives it, the
 * count before the call added when the character began before src): a
 * short one (n <= 64, cap >= n) by a one-block path at the VBMI level (at
 * the AVX2 and AVX-512 levels, with 16 units of room past n:
 * small_avx2.h), any other by the level's decoder; it stops (returns less
 * than n) at an error or for room, and the caller's general path takes
 * what follows. */
size_t utfdfa__utf8_stream32(const uint8_t *src, size_t n, struct utfdfa__utf8_cursor *c,
                             uint32_t *dst, size_t cap, size_t *written);

/* The functions' types. */
typedef size_t (*utfdfa__scan_fn)(const uint8_t *, size_t, uint32_t *);
typedef size_t (*utfdfa__dec32_fn)(const uint8_t *, size_t, uint32_t *, uint32_t *, uint32_t *,
                                   size_t, size_t *);
typedef size_t (*utfdfa__dec16_fn)(const uint8_t *, size_t, uint32_t *, uint32_t *, uint16_t *,
                                   size_t, size_t *);
typedef size_t (*utfdfa__rep_fn)(const uint8_t *, size_t, uint32_t *, uint32_t *, uint32_t *,
                                 size_t, size_t *, size_t *);

#endif /* UTFDFA_UTF8_FAST_H */
