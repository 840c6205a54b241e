/* SPDX-License-Identifier: MIT */
/* The kernels' entry points: each calls the level chosen once, on first
 * use, from what the CPU supports (x86-64: the best of levels.h's levels;
 * elsewhere the scalar level). The choice is a relaxed atomic: threads that
 * race on the first call store the same value. */
#include "levels.h"

#if !defined(__STDC_NO_ATOMICS__)
#include <stdatomic.h>
#define KERN_ATOMIC 1
#else
#define KERN_ATOMIC 0
#endif

/* Each level's kernels (a level with none of its own shares the one below). */
static const struct fast_kernels *const kern_tables[FAST_LEVELS] = {
    [LEVEL_SCALAR] = &utfdfa__fast_scalar,
#if KERN_X86
    [LEVEL_SSE2] = &utfdfa__fast_sse2,
    [LEVEL_SSE4] = &utfdfa__fast_sse4,
    [LEVEL_AVX2] = &utfdfa__fast_avx2,
    [LEVEL_AVX512] = &utfdfa__fast_avx2,
    [LEVEL_AVX512VBMI] = &utfdfa__fast_avx512vbmi,
#endif
};

static const char *const kern_names[FAST_LEVELS] = {
    "scalar", "sse2", "sse4", "avx2", "avx512", "avx512vbmi",
};

#if KERN_X86
#include <cpuid.h>

/* The CPU's features that the levels need, from cpuid, and whether the
 * operating system saves the registers they use (xgetbv's XCR0): a few
 * bit tests here instead of libgcc's __builtin_cpu_supports, whose tables
 * of every feature cost the library about 5 KB of code. */
static const unsigned CPUID1_SSSE3 = 1u << 9; /* ecx of leaf 1 */
static const unsigned CPUID1_SSE41 = 1u << 19;
static const unsigned CPUID1_POPCNT = 1u << 23;
static const unsigned CPUID1_OSXSAVE = 1u << 27;
static const unsigned CPUID1_AVX = 1u << 28;
static const unsigned CPUID7_BMI1 = 1u << 3; /* ebx of leaf 7 */
static const unsigned CPUID7_AVX2 = 1u << 5;
static const unsigned CPUID7_BMI2 = 1u << 8;
static const unsigned CPUID7_AVX512F = 1u << 16;
static const unsigned CPUID7_AVX512BW = 1u << 30;
static const unsigned CPUID7_AVX512VL = 1u << 31;
static const unsigned CPUID7C_VBMI = 1u << 1; /* ecx of leaf 7 */
static const unsigned CPUID7C_VBMI2 = 1u << 6;
static const unsigned XCR0_AVX = 0x6; /* XMM and YMM state */
static const unsigned XCR0_AVX512 = 0xE0; /* opmask, ZMM_Hi256, Hi16_ZMM state */

static unsigned kern_xcr0(void)
{
    unsigned lo, hi;
    __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return lo;
}

/* The best level this CPU has. */
static enum fast_level kern_detect(void)
{
    unsigned a, b, c1, d, b7 = 0, c7 = 0;
    if (!__get_cpuid(1, &a, &b, &c1, &d))
        return LEVEL_SSE2;
    if (__get_cpuid_max(0, NULL) >= 7)
        __cpuid_count(7, 0, a, b7, c7, d);
    unsigned xcr0 = c1 & CPUID1_OSXSAVE ? kern_xcr0() : 0;
    /* POPCNT with AVX2: the AVX2 level counts bits (every AVX2 CPU has it) */
    const unsigned sse4 = CPUID1_SSSE3 | CPUID1_SSE41,
                   avx = CPUID1_AVX | CPUID1_OSXSAVE | CPUID1_POPCNT;
    const unsigned avx2 = CPUID7_AVX2 | CPUID7_BMI1 | CPUID7_BMI2;
    const unsigned avx512 = CPUID7_AVX512F | CPUID7_AVX512BW | CPUID7_AVX512VL;
    const unsigned vbmi = CPUID7C_VBMI | CPUID7C_VBMI2;
    if ((c1 & sse4) != sse4)
        return LEVEL_SSE2;
    if ((c1 & avx) != avx || (xcr0 & XCR0_AVX) != XCR0_AVX || (b7 & avx2) != avx2)
        return LEVEL_SSE4;
    if ((b7 & avx512) != avx512 || (xcr0 & XCR0_AVX512) != XCR0_AVX512)
        return LEVEL_AVX2;
    if ((c7 & vbmi) != vbmi || !(c1 & CPUID1_POPCNT))
        return LEVEL_AVX512;
    return LEVEL_AVX512VBMI;
}
#else
static enum fast_level kern_detect(void)
{
    return LEVEL_SCALAR;
}
#endif

/* kern_detect's level plus one, 0 until asked (cpuid traps to the
 * hypervisor in a VM: asked once). Threads that race store the same. */
#if KERN_ATOMIC
static atomic_int kern_best_seen;
#define KERN_BEST_LOAD() atomic_load_explicit(&kern_best_seen, memory_order_relaxed)
#define KERN_BEST_STORE(v) atomic_store_explicit(&kern_best_seen, (v), memory_order_relaxed)
#else
static int kern_best_seen;
#define KERN_BEST_LOAD() kern_best_seen
#define KERN_BEST_STORE(v) (kern_best_seen = (v))
#endif

static enum fast_level kern_best(void)
{
    int v = KERN_BEST_LOAD();
    if (v == 0) {
        v = 1 + (int)kern_detect();
        KERN_BEST_STORE(v);
    }
    return (enum fast_level)(v - 1);
}

/* Whether this CPU has every feature of `level` (the levels are a ladder). */
static int kern_supported(enum fast_level level)
{
    return level <= kern_best();
}

int utfdfa__fast_cpu_has(enum fast_level level)
{
    return kern_supported(level);
}

/* The level plus one; 0 until the first use. */
#if KERN_ATOMIC
atomic_int utfdfa__fast_chosen; /* levels.h reads it inline */

static int kern_load(void)
{
    return atomic_load_explicit(&utfdfa__fast_chosen, memory_order_relaxed);
}

static void kern_store(int v)
{
    atomic_store_explicit(&utfdfa__fast_chosen, v, memory_order_relaxed);
}
#else
/* Without C11 atomics: the scalar level unless a test forces another. */
static int kern_chosen = 1 + LEVEL_SCALAR;

static int kern_load(void)
{
    return kern_chosen;
}

static void kern_store(int v)
{
    kern_chosen = v;
}
#endif

enum fast_level utfdfa__fast_level(void)
{
    int v = kern_load();
    if (v == 0) {
        v = 1 + (int)kern_best();
        kern_store(v);
    }
    return (enum fast_level)(v - 1);
}

static const struct fast_kernels *kern_level(void)
{
    return kern_tables[utfdfa__fast_level()];
}

/* The level named `level` when this build and CPU have it, else -1. */
static int kern_named(const char *level)
{
    for (int l = 0; l < FAST_LEVELS; l++)
        if (strcmp(level, kern_names[l]) == 0 && kern_tables[l] &&
            kern_supported((enum fast_level)l))
            return l;
    return -1;
}

const char *utfdfa__fast_level_name(void)
{
    return kern_names[utfdfa__fast_level()];
}

int utfdfa__fast_has(const char *level)
{
    return kern_named(level) >= 0;
}

int utfdfa__fast_force(const char *level)
{
    int l = strcmp(level, "auto") == 0 ? (int)kern_best() : kern_named(level);
    if (l < 0)
        return 0;
    kern_store(1 + l);
    return 1;
}

size_t utfdfa__ascii_copy(enum fast_form from, enum fast_form to, const uint8_t *src,
                          size_t src_len, uint8_t *dst, size_t dst_len)
{
    return kern_level()->ascii_copy(from, to, src, src_len, dst, dst_len);
}

size_t utfdfa__utf16_to_cp(enum fast_form from, const uint8_t *src, size_t src_len,
                           uint32_t *dst, size_t cap, size_t *written)
{
    return kern_level()->utf16_to_cp(from, src, src_len, dst, cap, written);
}

size_t utfdfa__utf32_to_cp(enum fast_form from, const uint8_t *src, size_t src_len,
                           uint32_t *dst, size_t cap, size_t *written)
{
    return kern_level()->utf32_to_cp(from, src, src_len, dst, cap, written);
}

size_t utfdfa__cp_to_form(enum fast_form to, const uint32_t *src, size_t n, uint8_t *dst,
                          size_t dst_len, size_t *written)
{
    return kern_level()->cp_to_form(to, src, n, dst, dst_len, written);
}

size_t utfdfa__wide_transcode(enum fast_form from, enum fast_form to, const uint8_t *src,
                              size_t src_len, uint8_t *dst, size_t dst_len, size_t *written)
{
    return kern_level()->wide_transcode(from, to, src, src_len, dst, dst_len, written);
}

int utfdfa__wide_fused(enum fast_form from, enum fast_form to)
{
    return (int)(kern_level()->wide_pairs >> KERN_PAIR(from, to) & 1u);
}

size_t utfdfa__utf7_b64(int imap, const uint8_t *src, size_t n, void *dst, unsigned width,
                        size_t cap, size_t *written)
{
    return kern_level()->utf7_b64(imap, src, n, dst, width, cap, written);
}

size_t utfdfa__utf7_text(int imap, const uint8_t *src, size_t n, void *dst, unsigned width,
                         size_t cap, size_t *written)
{
    return kern_level()->utf7_text(imap, src, n, dst, width, cap, written);
}
