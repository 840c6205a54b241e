/* SPDX-License-Identifier: MIT */
/* The fast kernels (internal, not installed): the common paths of the
 * decoders (UTF-16/32 to code points) and encoders (code points to
 * UTF-8/16/32), and ASCII straight from one form to another, in a scalar
 * version and SIMD ones chosen once at run time (src/fast/dispatch.c).
 * Each consumes a prefix of its input and stops where the caller's slow
 * path must take over. No pointer is assumed aligned; nothing outside the
 * given ranges is read or written, and dst past what is reported written is
 * left as it was (the SSE4 fused kernels store scratch there and put the
 * bytes back: src/fast/x86/wide_sse4.h), except where a kernel says it
 * leaves scratch values there (utfdfa__utf7_text). */
#ifndef UTFDFA_FAST_KERNELS_H
#define UTFDFA_FAST_KERNELS_H

#include <stddef.h>
#include <stdint.h>

/* The code-unit forms the kernels read and write. */
enum fast_form { FORM_UTF8, FORM_UTF16LE, FORM_UTF16BE, FORM_UTF32LE, FORM_UTF32BE };

/* The forms in the host's byte order: its uint16_t and uint32_t arrays. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define FORM_HOST_UTF16 FORM_UTF16BE
#define FORM_HOST_UTF32 FORM_UTF32BE
#else
#define FORM_HOST_UTF16 FORM_UTF16LE
#define FORM_HOST_UTF32 FORM_UTF32LE
#endif

/* How long the caller's plain loop runs before it calls a kernel again.
 * After a call that read a stretch's worth, KERNEL_WAIT; where calls keep
 * stopping early (errors, or characters the kernels leave to the caller,
 * close together), each stretch twice the last, up to KERNEL_WAIT_MOST, so
 * that the calls do not cost more than they read. The decoders count bytes
 * (decode/fast_path.h), the encoder code points (api/encoder.c). */
enum { KERNEL_WAIT = 16, KERNEL_WAIT_MOST = 1024 };

static inline size_t kernel_wait_after_short(size_t last)
{
    return last < KERNEL_WAIT ? KERNEL_WAIT : last < KERNEL_WAIT_MOST ? 2 * last : KERNEL_WAIT_MOST;
}

/* ASCII: copy the longest prefix of src[0..src_len) made of whole `from` units whose values are
 * 0x00-0x7F, converted to `to` units, as many as fit dst[0..dst_len). Returns the number of
 * characters copied: n * unit(from) bytes read, n * unit(to) bytes written. A partial unit at
 * the end is not read. Returns quickly when the first unit is not ASCII. */
size_t utfdfa__ascii_copy(enum fast_form from, enum fast_form to, const uint8_t *src,
                          size_t src_len, uint8_t *dst, size_t dst_len);

/* UTF-16 (FORM_UTF16LE/BE) to code points: reads whole units; a high surrogate followed by a low
 * one is one code point; stops BEFORE a lone surrogate, before a high surrogate whose low one is
 * not within src (the caller's slow path handles those), or when dst[0..cap) is full. Returns
 * bytes read; *written code points. */
size_t utfdfa__utf16_to_cp(enum fast_form from, const uint8_t *src, size_t src_len,
                           uint32_t *dst, size_t cap, size_t *written);

/* UTF-32 (FORM_UTF32LE/BE) to code points: stops BEFORE a unit above 0x10FFFF or a surrogate
 * (D800-DFFF), at a partial unit, or when dst is full. Returns bytes read; *written. */
size_t utfdfa__utf32_to_cp(enum fast_form from, const uint8_t *src, size_t src_len,
                           uint32_t *dst, size_t cap, size_t *written);

/* Code points to `to` (FORM_UTF8: the 1-4 byte form, surrogate values written in their 3-byte
 * form as WTF-8 does; UTF-16LE/BE with pairs; UTF-32LE/BE). Precondition: every value <=
 * 0x10FFFF (UTF-16: no surrogate values either). Stops before the first code point whose bytes
 * do not fit dst[0..dst_len) (a pair is never split). Returns code points read; *written bytes. */
size_t utfdfa__cp_to_form(enum fast_form to, const uint32_t *src, size_t n, uint8_t *dst,
                          size_t dst_len, size_t *written);

/* UTF-16 or UTF-32 (either byte order) straight into UTF-8, or UTF-16 into UTF-32 and back,
 * without code points in between: `from` is FORM_UTF16LE..FORM_UTF32BE, `to` FORM_UTF8 or a
 * form of the other unit width. Reads whole units of scalar values (a high surrogate and the
 * low one after it are one character); stops BEFORE a lone surrogate, a high surrogate whose
 * low one is not within src, a UTF-32 unit that is a surrogate or above 0x10FFFF, a partial
 * unit, or the first character whose bytes do not fit dst[0..dst_len) (a pair is never split).
 * Returns bytes read; *written bytes written. */
size_t utfdfa__wide_transcode(enum fast_form from, enum fast_form to, const uint8_t *src,
                              size_t src_len, uint8_t *dst, size_t dst_len, size_t *written);

/* Whether the level in use has a fused kernel of its own for (from, to), faster than its
 * decoder and encoder kernels in turn; without one, utfdfa__wide_transcode is the scalar
 * kernel (for the tests). */
int utfdfa__wide_fused(enum fast_form from, enum fast_form to);

/* UTF-7 (imap = 0) or IMAP's modified UTF-7 (imap = 1), inside a base64 run where no bits are
 * left over: decodes whole groups of 8 base64 digits (48 bits, three UTF-16BE units) into code
 * points (width 4: uint32_t at dst), UTF-16 units (width 2: uint16_t) or nothing (width 0, dst
 * unused). Stops BEFORE a group with a byte that is not a digit, a lone surrogate, (IMAP) a
 * unit that is a printing US-ASCII character, or output that does not fit dst[0..cap); a group
 * that ends with a high surrogate goes only with the next, which must begin with its low one
 * and not end with another high one. Returns bytes read (a multiple of 8);
 * *written units of dst. */
size_t utfdfa__utf7_b64(int imap, const uint8_t *src, size_t n, void *dst, unsigned width,
                        size_t cap, size_t *written);

/* UTF-7 (imap = 0) text from the start state with nothing held: direct characters, "+-" as "+", and whole
 * base64 runs whose end is in src[0..n) and valid (RFC 2152: fewer than 8 bits over, all zero;
 * ended by "-", which it takes, or by a direct character, which it reads as such) and whose
 * surrogates are pairs, as code points (width 4: uint32_t at dst; a pair one), UTF-16 units (width 2) or
 * nothing (width 0, dst unused). Stops BEFORE
 * any other byte or run, or output that does not fit dst[0..cap) (a run goes whole or not at
 * all), so it ends in the start state with nothing held. Returns bytes read; *written units.
 * dst[*written..cap) may be overwritten with scratch values (its vector stores), never anything
 * at or past dst[cap]. IMAP's modified UTF-7 (imap = 1): its direct characters only (it stops
 * at "&"). */
size_t utfdfa__utf7_text(int imap, const uint8_t *src, size_t n, void *dst, unsigned width,
                         size_t cap, size_t *written);

/* What utfdfa__count counts. */
enum fast_count {
    COUNT_CPS,   /* code points */
    COUNT_UTF16, /* UTF-16 units */
    COUNT_UTF8   /* UTF-8 bytes */
};

/* src[0..len) of `from`, which must be well formed (whole units, no lone surrogate, scalar
 * values only; the caller has validated it), counted as `what`: its code points, the UTF-16
 * units or the UTF-8 bytes they take. Per unit, so any split of src adds up: UTF-8 code points
 * are the bytes that are not 80-BF, its UTF-16 units those plus the 4-byte leads (F0-F4);
 * a UTF-16 unit takes 1, 2 or 3 bytes of UTF-8, each half of a pair 2, and is a code point
 * unless it is a low surrogate; a UTF-32 unit takes 1-4 bytes and 1 or 2 units. */
uint64_t utfdfa__count(enum fast_form from, enum fast_count what, const uint8_t *src, size_t len);

/* The two below exist only with UTFDFA_TEST_HOOKS (the tests' build of
 * dispatch.c), never in the shipped library.
 * For tests and benchmarks: use the kernels of `level` (a name of the rows of
 * src/fast/levels.h: "scalar", "sse2", ..., "neon"; or "auto" for the run-time
 * choice) from now on. Returns 0, changing nothing, when this build or this
 * CPU has no such level. Not meant to race with calls to the kernels. */
int utfdfa__fast_force(const char *level);

/* For tests and benchmarks: whether this build and this CPU have the kernel level named as
 * utfdfa__fast_force takes it (never "auto"). */
int utfdfa__fast_has(const char *level);

/* The name of the kernel level in use (choosing it if none is yet). */
const char *utfdfa__fast_level_name(void);

#endif
