/* SPDX-License-Identifier: MIT */
/* The variants of the UTF-8 fast paths the library calls: each an engine
 * with its techniques fixed, defined in the file of the ISA it needs
 * (portable.c, avx2.c, masked.c, avx512.c; src/fast/arm64/utf8_neon.c). Each ISA file gives
 * the set the library calls on such a CPU (struct utfdfa__utf8_fast_impl);
 * select.c chooses one set at run time. (Variants with other techniques,
 * for the tests and the benchmark: tests/fast/utf8_variants.c.) Names:
 * scan_, dec_ (_32: to UTF-32, _16: to UTF-16), rep_ (replacing); b_ with
 * BMI2; word, sse2, avx2: the ASCII path; l2-l4: lanes; free: decoding
 * without branches per byte. */
#ifndef UTFDFA_FAST_UTF8_VARIANTS_H
#define UTFDFA_FAST_UTF8_VARIANTS_H

#include "ascii.h"
#include "common.h"
#include "model.h"
#include "utf8_fast.h"

/* UTF-8's generated tables, for the engines (compiled for shift rows). */
_Static_assert(UTF8_FAST_HAS_SHIFT && FAST_SHIFT, "UTF-8 is stepped by its shift rows");
FAST_INLINE const fast_tables *fast_utf8(void)
{
    return &utf8_fast_tables;
}

struct utfdfa__utf8_fast_impl {
    utfdfa__scan_fn scan;
    utfdfa__dec32_fn dec32;
    utfdfa__dec16_fn dec16;
    utfdfa__rep_fn rep;
    fast_ascii_fn ascii32; /* to UTF-32 (ascii.h); NULL: the level has none */
};

extern const struct utfdfa__utf8_fast_impl utfdfa__utf8_fast_portable;
#if FAST_X86
extern const struct utfdfa__utf8_fast_impl utfdfa__utf8_fast_sse4, utfdfa__utf8_fast_avx2,
    utfdfa__utf8_fast_vbmi;
#endif
#if FAST_ARM64
extern const struct utfdfa__utf8_fast_impl utfdfa__utf8_fast_neon;
#endif

/* The functions' types, to declare the variants one a line. */
typedef size_t utfdfa__scan_f(const uint8_t *, size_t, uint32_t *);
typedef size_t utfdfa__dec32_f(const uint8_t *, size_t, uint32_t *, uint32_t *, uint32_t *, size_t,
                               size_t *);
typedef size_t utfdfa__dec16_f(const uint8_t *, size_t, uint32_t *, uint32_t *, uint16_t *, size_t,
                               size_t *);
typedef size_t utfdfa__rep_f(const uint8_t *, size_t, uint32_t *, uint32_t *, uint32_t *, size_t,
                             size_t *, size_t *);

/* portable.c: the portable set (on x86-64 with the SSE2 ASCII path) */
#if FAST_X86
utfdfa__scan_f utfdfa__utf8_scan_sse2_l4;
utfdfa__dec32_f utfdfa__utf8_dec_free_sse2_32;
utfdfa__dec16_f utfdfa__utf8_dec_free_sse2_16;
utfdfa__rep_f utfdfa__utf8_rep_sse2;
#else
utfdfa__scan_f utfdfa__utf8_scan_word_l2;
utfdfa__dec32_f utfdfa__utf8_dec_l2_word_32;
utfdfa__dec16_f utfdfa__utf8_dec_free_word_16;
utfdfa__rep_f utfdfa__utf8_rep_word;
#endif

/* avx2.c: the windows around errors at AVX2 and up */
utfdfa__rep_f utfdfa__utf8_rep_b_avx2;

/* masked.c: slabs, scanned then transcoded 12 bytes a window; the AVX2
 * and SSE4 levels' short chunks (small_avx2.h, small_sse4.h) */
utfdfa__dec32_f utfdfa__utf8_dec_sse4_32, utfdfa__utf8_dec_avx2_32;
utfdfa__dec16_f utfdfa__utf8_dec_sse4_16, utfdfa__utf8_dec_avx2_16;
utfdfa__rep_f utfdfa__utf8_rep_sse4, utfdfa__utf8_rep_avx2;
/* rep_tokens.h: the AVX2 level's replacing windows by chunks of tokens */
utfdfa__rep_f utfdfa__utf8_rep_tok_avx2;
/* The room past n it may write as scratch (a window stores at most 16
 * units at a character before the chunk's end); with less, not called. */
enum { SMALL_SLACK = 16 };
size_t utfdfa__utf8_small_avx2_32(const uint8_t *src, size_t n, struct utfdfa__utf8_cursor *c,
                                 uint32_t *dst, size_t cap, size_t *written);
/* small_sse4.h: the SSE4 level's, with the same slack */
size_t utfdfa__utf8_small_sse4_32(const uint8_t *src, size_t n, struct utfdfa__utf8_cursor *c,
                                 uint32_t *dst, size_t cap, size_t *written);

/* avx512.c: slabs, scanned then transcoded with AVX-512 VBMI/VBMI2 */
utfdfa__dec32_f utfdfa__utf8_dec_vbmi_32;
utfdfa__dec16_f utfdfa__utf8_dec_vbmi_16;
utfdfa__rep_f utfdfa__utf8_rep_vbmi;
size_t utfdfa__utf8_small_vbmi_32(const uint8_t *src, size_t n, struct utfdfa__utf8_cursor *c,
                                 uint32_t *dst, size_t cap, size_t *written);

#endif /* UTFDFA_FAST_UTF8_VARIANTS_H */
