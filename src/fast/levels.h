/* SPDX-License-Identifier: MIT */
/* What the kernel levels (scalar.c and utf7.c, the references; x86/ one file
 * per level and job) share with the dispatcher: the level ladder, one table
 * of functions per level, the scalar functions the SIMD levels finish with,
 * and unit loads and stores by form. */
#ifndef UTFDFA_FAST_LEVELS_H
#define UTFDFA_FAST_LEVELS_H

#include "isa.h"
#include "kernels.h"

#include <string.h>

#if defined(__GNUC__)
#define KERN_INLINE static inline __attribute__((always_inline))
/* For a loop's common case, so that it is the loop's straight line. */
#define KERN_LIKELY(x) __builtin_expect(!!(x), 1)
#else
#define KERN_INLINE static inline
#define KERN_LIKELY(x) (x)
#endif

#include "isa.h"

/* The levels, one row each in the ISA's folder (x86/levels.h,
 * arm64/levels.h; scalar is every build's first), each a set of CPU
 * features that the next one includes: KERN_LEVELS(X) calls
 *   X(ID, name, detect, kernels, utf8_set, utf8_scan)
 * for each, where LEVEL_<ID> is its enum, name what the tests, make bench
 * and utfdfa__fast_force call it, detect its predicate on what the CPU
 * reports (struct kern_cpu of the dispatcher; kern_baseline: the ISA's
 * baseline, never asked), kernels its table
 * of functions (struct fast_kernels), utf8_set its UTF-8 fast paths
 * (src/fast/utf8/variants.h) and utf8_scan its UTF-8 validator (0: the
 * set's). The kernels of a level use nothing beyond its features; a level
 * without a kernel of its own for a job uses the one of the level below. */
#define KERN_SCALAR_LEVEL(X) \
    X(SCALAR, scalar, kern_baseline, utfdfa__fast_scalar, utfdfa__utf8_fast_portable, 0) /* plain C */
#if KERN_X86
#include "x86/levels.h"
#define KERN_LEVELS(X) KERN_SCALAR_LEVEL(X) KERN_X86_LEVELS(X)
#elif KERN_ARM64
#include "arm64/levels.h"
#define KERN_LEVELS(X) KERN_SCALAR_LEVEL(X) KERN_ARM64_LEVELS(X)
#else
#define KERN_LEVELS(X) KERN_SCALAR_LEVEL(X)
#endif

#define KERN_LEVEL_ENUM(id, name, detect, kernels, utf8_set, utf8_scan) LEVEL_##id,
enum fast_level {
    KERN_LEVELS(KERN_LEVEL_ENUM)
    FAST_LEVELS
};
#undef KERN_LEVEL_ENUM

/* The level in use: the best this CPU has, chosen on first use, or the one
 * utfdfa__fast_force set. */
enum fast_level utfdfa__fast_level(void);

/* Whether this CPU has every feature of `level` (from cpuid, asked once). */
int utfdfa__fast_cpu_has(enum fast_level level);

/* The level in use when one is chosen, else FAST_LEVELS: read without a
 * call, for the calls that cannot spend one (the variable is the level
 * plus one, 0 before the first use). */
#if !defined(__STDC_NO_ATOMICS__)
#include <stdatomic.h>
extern atomic_int utfdfa__fast_chosen;

static inline enum fast_level fast_level_chosen(void)
{
    int v = atomic_load_explicit(&utfdfa__fast_chosen, memory_order_relaxed);
    return v ? (enum fast_level)(v - 1) : FAST_LEVELS;
}
#else
#define fast_level_chosen utfdfa__fast_level
#endif

struct fast_kernels {
    const char *name;
    size_t (*ascii_copy)(enum fast_form, enum fast_form, const uint8_t *, size_t, uint8_t *,
                         size_t);
    size_t (*utf16_to_cp)(enum fast_form, const uint8_t *, size_t, uint32_t *, size_t,
                          size_t *);
    size_t (*utf32_to_cp)(enum fast_form, const uint8_t *, size_t, uint32_t *, size_t,
                          size_t *);
    size_t (*cp_to_form)(enum fast_form, const uint32_t *, size_t, uint8_t *, size_t, size_t *);
    size_t (*wide_transcode)(enum fast_form, enum fast_form, const uint8_t *, size_t, uint8_t *,
                             size_t, size_t *);
    uint32_t wide_pairs; /* bit KERN_PAIR(from, to): wide_transcode is a fused kernel there */
    size_t (*utf7_b64)(int, const uint8_t *, size_t, void *, unsigned, size_t, size_t *);
    size_t (*utf7_text)(int, const uint8_t *, size_t, void *, unsigned, size_t, size_t *);
    uint64_t (*count)(enum fast_form, enum fast_count, const uint8_t *, size_t);
};

/* Each level's table (levels sharing one declare it twice: allowed). */
#define KERN_LEVEL_TABLE(id, name, detect, kernels, utf8_set, utf8_scan) \
    extern const struct fast_kernels kernels;
KERN_LEVELS(KERN_LEVEL_TABLE)
#undef KERN_LEVEL_TABLE
/* The UTF-7 SIMD kernels' rows (utf7_simd of encodings.gen.h), one copy for them all (utf7.c). */
extern const uint8_t (*const utfdfa__utf7_simd)[4][16];
#if KERN_X86
/* The UTF-7 kernels of x86/utf7_sse4.c (every x86 level from SSE4 on). */
size_t utfdfa__sse4_utf7_b64(int imap, const uint8_t *src, size_t n, void *dst, unsigned width,
                             size_t cap, size_t *written);
size_t utfdfa__sse4_utf7_text(int imap, const uint8_t *src, size_t n, void *dst, unsigned width,
                              size_t cap, size_t *written);
/* The UTF-7 text kernel of x86/utf7_avx2.c (AVX2 on). */
size_t utfdfa__avx2_utf7_text(int imap, const uint8_t *src, size_t n, void *dst, unsigned width,
                              size_t cap, size_t *written);
#endif

/* The scalar kernels: the reference, and the tails of the SIMD levels. */
size_t utfdfa__scalar_ascii_copy(enum fast_form from, enum fast_form to, const uint8_t *src,
                                 size_t src_len, uint8_t *dst, size_t dst_len);
size_t utfdfa__scalar_utf16_to_cp(enum fast_form from, const uint8_t *src, size_t src_len,
                                  uint32_t *dst, size_t cap, size_t *written);
size_t utfdfa__scalar_utf32_to_cp(enum fast_form from, const uint8_t *src, size_t src_len,
                                  uint32_t *dst, size_t cap, size_t *written);
size_t utfdfa__scalar_cp_to_form(enum fast_form to, const uint32_t *src, size_t n, uint8_t *dst,
                                 size_t dst_len, size_t *written);

size_t utfdfa__scalar_wide_transcode(enum fast_form from, enum fast_form to, const uint8_t *src,
                                     size_t src_len, uint8_t *dst, size_t dst_len,
                                     size_t *written);
size_t utfdfa__scalar_utf7_b64(int imap, const uint8_t *src, size_t n, void *dst,
                               unsigned width, size_t cap, size_t *written);
size_t utfdfa__scalar_utf7_text(int imap, const uint8_t *src, size_t n, void *dst,
                                unsigned width, size_t cap, size_t *written);

uint64_t utfdfa__scalar_count(enum fast_form from, enum fast_count what, const uint8_t *src,
                              size_t len);
#if KERN_X86
/* The counting kernels of x86/count.c: 16, 32 and 64 bytes a step. */
uint64_t utfdfa__sse2_count(enum fast_form from, enum fast_count what, const uint8_t *src,
                            size_t len);
uint64_t utfdfa__avx2_count(enum fast_form from, enum fast_count what, const uint8_t *src,
                            size_t len);
uint64_t utfdfa__avx512_count(enum fast_form from, enum fast_count what, const uint8_t *src,
                              size_t len);
#endif
#if KERN_ARM64
uint64_t utfdfa__neon_count(enum fast_form from, enum fast_count what, const uint8_t *src,
                            size_t len);
/* The NEON fused kernels (arm64/wide_neon.c): UTF-16 or UTF-32 into UTF-8,
 * and UTF-16 into UTF-32 or back (any byte orders); utfdfa__wide_transcode's
 * contract. */
size_t utfdfa__neon_utf8_transcode(enum fast_form from, const uint8_t *src, size_t src_len,
                                   uint8_t *dst, size_t dst_len, size_t *written);
size_t utfdfa__neon_units_transcode(enum fast_form from, enum fast_form to, const uint8_t *src,
                                    size_t src_len, uint8_t *dst, size_t dst_len, size_t *written);
/* The NEON UTF-7 kernels (arm64/utf7_neon.c). */
size_t utfdfa__neon_utf7_b64(int imap, const uint8_t *src, size_t n, void *dst, unsigned width,
                             size_t cap, size_t *written);
size_t utfdfa__neon_utf7_text(int imap, const uint8_t *src, size_t n, void *dst, unsigned width,
                              size_t cap, size_t *written);
#endif

/* Every (from, to) pair, for the switches that give each pair its own loop. */
#define KERN_FORMS_TO(X, F) X(F, FORM_UTF8) X(F, FORM_UTF16LE) X(F, FORM_UTF16BE) \
    X(F, FORM_UTF32LE) X(F, FORM_UTF32BE)
#define KERN_EACH_PAIR(X) KERN_FORMS_TO(X, FORM_UTF8) KERN_FORMS_TO(X, FORM_UTF16LE) \
    KERN_FORMS_TO(X, FORM_UTF16BE) KERN_FORMS_TO(X, FORM_UTF32LE) KERN_FORMS_TO(X, FORM_UTF32BE)
#define KERN_PAIR(from, to) ((int)(from) * 5 + (int)(to))

/* Bytes per code unit. */
KERN_INLINE size_t kern_unit(enum fast_form f)
{
    return f == FORM_UTF8 ? 1 : f <= FORM_UTF16BE ? 2 : 4;
}

/* One code unit of form f at p (the callers pass constant forms, so the
 * switch folds away). */
KERN_INLINE uint32_t kern_load_unit(enum fast_form f, const uint8_t *p)
{
    switch (f) {
    case FORM_UTF8: return p[0];
    case FORM_UTF16LE: return (uint32_t)p[0] | (uint32_t)p[1] << 8;
    case FORM_UTF16BE: return (uint32_t)p[0] << 8 | (uint32_t)p[1];
    case FORM_UTF32LE:
        return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    case FORM_UTF32BE:
        return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
    }
    return 0;
}

/* Writes u (which fits the form's unit) at p. */
KERN_INLINE void kern_store_unit(enum fast_form f, uint8_t *p, uint32_t u)
{
    switch (f) {
    case FORM_UTF8: p[0] = (uint8_t)u; break;
    case FORM_UTF16LE: p[0] = (uint8_t)u; p[1] = (uint8_t)(u >> 8); break;
    case FORM_UTF16BE: p[0] = (uint8_t)(u >> 8); p[1] = (uint8_t)u; break;
    case FORM_UTF32LE:
        p[0] = (uint8_t)u; p[1] = (uint8_t)(u >> 8); p[2] = (uint8_t)(u >> 16);
        p[3] = (uint8_t)(u >> 24);
        break;
    case FORM_UTF32BE:
        p[0] = (uint8_t)(u >> 24); p[1] = (uint8_t)(u >> 16); p[2] = (uint8_t)(u >> 8);
        p[3] = (uint8_t)u;
        break;
    }
}

/* Code point arrays through memcpy: the kernels promise not to rely on
 * their alignment either. */
KERN_INLINE uint32_t kern_get_cp(const uint32_t *a, size_t i)
{
    uint32_t v;
    memcpy(&v, (const uint8_t *)a + i * 4, 4);
    return v;
}

KERN_INLINE void kern_put_cp(uint32_t *a, size_t i, uint32_t v)
{
    memcpy((uint8_t *)a + i * 4, &v, 4);
}

KERN_INLINE size_t kern_min(size_t a, size_t b)
{
    return a < b ? a : b;
}

#endif
