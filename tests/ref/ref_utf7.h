/* SPDX-License-Identifier: MIT */
/*
 * ref_utf7.h - independent reference (oracle) UTF-7 decoder and encoder.
 *
 * Written from RFC 2152 ("UTF-7, A Mail-Safe Transformation Format of
 * Unicode", /work/shared/spec/rfc2152-utf-7.txt) and the project's UTF-7
 * error model, without looking at the implementation under test.
 * Deliberately plain and slow: one byte at a time, no tables.
 *
 * RFC 2152 in brief ("UTF-7 Definition"):
 *   Rule 1  Set D (A-Z a-z 0-9 ' ( ) , - . / : ?) is sent directly; Set O
 *           (! " # $ % & * ; < = > @ [ ] ^ _ ` { | }) may be sent directly.
 *   Rule 2  "+" shifts to Modified Base64 (Set B: A-Z a-z 0-9 + /, no "=")
 *           until a byte outside Set B; a terminating "-" is absorbed; "+-"
 *           is "+"; "+" followed by anything else is ill-formed. The base64
 *           carries UTF-16 code units, most significant octet first; left-
 *           over bits that do not make a 16-bit unit are discarded and must
 *           be zero.
 *   Rule 3  SP, TAB, CR, LF are sent directly.
 *
 * The error model (the project's; stricter than RFC 2152 in places, see
 * ref_utf7.c for each rule):
 *   REF7_INVALID_DIRECT    a byte that is not allowed in direct mode (1 byte,
 *                          consumed)
 *   REF7_BAD_SHIFT         "+" followed by a byte that is neither in Set B nor
 *                          "-" (the "+" only; the byte is decoded again)
 *   REF7_TRUNCATED         "+" at the end of input (the "+")
 *   REF7_SURROGATE         a lone high or low surrogate unit in a shifted run
 *                          (the base64 chars of that unit)
 *   REF7_PARTIAL_UNIT      8..14 leftover bits at the end of a run (from the
 *                          first char of the partial unit to the run's end)
 *   REF7_NONZERO_PADDING   1..6 leftover bits at the end of a run that are not
 *                          all zero (the run's last base64 char)
 *
 * Offsets and lengths are in bytes of the input. No global state.
 */
#ifndef REF_UTF7_H
#define REF_UTF7_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ref7_kind {
    REF7_OK = 0,
    REF7_INVALID_DIRECT,
    REF7_BAD_SHIFT,
    REF7_TRUNCATED,
    REF7_SURROGATE,
    REF7_PARTIAL_UNIT,
    REF7_NONZERO_PADDING
};

struct ref7_error {
    size_t offset, length;
    enum ref7_kind kind;
};

/* Strict decode of the whole input src[0..len) (end of input = end of stream).
 * Writes the code points decoded before the first error to out (room for len
 * entries always suffices), sets *nout. Returns true when valid; else false
 * and *err = first error. err may be NULL. */
bool ref7_decode(const uint8_t *src, size_t len, uint32_t *out, size_t *nout,
                 struct ref7_error *err);

/* Replacing decode: each error gives one U+FFFD at its place in the output
 * and decoding goes on. Returns the number of code points written (room for
 * len+1 suffices); *nerrors = number of errors (nerrors may be NULL); errs
 * (may be NULL) receives up to maxerrs error records in order. */
size_t ref7_decode_replace(const uint8_t *src, size_t len, uint32_t *out, size_t *nerrors,
                           struct ref7_error *errs, size_t maxerrs);

/* ref7_decode_replace, and marked[i] says whether out[i] is an error's
 * U+FFFD (marked has room for len+1 entries, as out). */
size_t ref7_decode_marked(const uint8_t *src, size_t len, uint32_t *out, bool *marked,
                          size_t *nerrors, struct ref7_error *errs, size_t maxerrs);

/* Encode scalar values (caller guarantees: <= 0x10FFFF, not D800-DFFF).
 * direct_o: also send Set O directly. Returns bytes written; out needs
 * ref7_encode_bound(n) bytes. */
size_t ref7_encode(const uint32_t *cps, size_t n, bool direct_o, uint8_t *out);

/* Bytes ref7_encode may write for n code points: 8 per code point (a lone
 * supplementary character between direct ones is "+" + 6 base64 + "-").
 * Saturates at SIZE_MAX. */
size_t ref7_encode_bound(size_t n);

/* "ok", "invalid-direct", "bad-shift", "truncated", "surrogate",
   "partial-unit", "nonzero-padding"; "invalid-kind" otherwise. */
const char *ref7_kind_name(enum ref7_kind k);

#endif /* REF_UTF7_H */
