/* SPDX-License-Identifier: MIT */
/* The x86-64 levels' predicates (the detect column of x86/levels.h), for
 * the dispatcher alone: the CPU's features that the levels need, from
 * cpuid, and whether the operating system saves the registers they use
 * (xgetbv's XCR0). A few bit tests here instead of libgcc's
 * __builtin_cpu_supports, whose tables of every feature cost the library
 * about 5 KB of code. */
#ifndef UTFDFA_FAST_X86_DETECT_H
#define UTFDFA_FAST_X86_DETECT_H

#include <cpuid.h>

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

/* What cpuid and xgetbv say (all 0 where cpuid has no leaf 1). */
struct kern_cpu {
    unsigned c1, b7, c7, xcr0;
};

static unsigned kern_xcr0(void)
{
    unsigned lo, hi;
    __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return lo;
}

static void kern_cpu_read(struct kern_cpu *cpu)
{
    unsigned a, b, c1, d, b7 = 0, c7 = 0;
    *cpu = (struct kern_cpu){0, 0, 0, 0};
    if (!__get_cpuid(1, &a, &b, &c1, &d))
        return;
    if (__get_cpuid_max(0, NULL) >= 7)
        __cpuid_count(7, 0, a, b7, c7, d);
    *cpu = (struct kern_cpu){c1, b7, c7, c1 & CPUID1_OSXSAVE ? kern_xcr0() : 0};
}

/* Each level's own features (the ladder asks the ones below first). */
static inline int x86_has_sse4(const struct kern_cpu *cpu)
{
    const unsigned sse4 = CPUID1_SSSE3 | CPUID1_SSE41;
    return (cpu->c1 & sse4) == sse4;
}

/* POPCNT with AVX2: the AVX2 level counts bits (every AVX2 CPU has it) */
static inline int x86_has_avx2(const struct kern_cpu *cpu)
{
    const unsigned avx = CPUID1_AVX | CPUID1_OSXSAVE | CPUID1_POPCNT;
    const unsigned avx2 = CPUID7_AVX2 | CPUID7_BMI1 | CPUID7_BMI2;
    return (cpu->c1 & avx) == avx && (cpu->xcr0 & XCR0_AVX) == XCR0_AVX &&
           (cpu->b7 & avx2) == avx2;
}

static inline int x86_has_avx512(const struct kern_cpu *cpu)
{
    const unsigned avx512 = CPUID7_AVX512F | CPUID7_AVX512BW | CPUID7_AVX512VL;
    return (cpu->b7 & avx512) == avx512 && (cpu->xcr0 & XCR0_AVX512) == XCR0_AVX512;
}

static inline int x86_has_vbmi(const struct kern_cpu *cpu)
{
    const unsigned vbmi = CPUID7C_VBMI | CPUID7C_VBMI2;
    return (cpu->c7 & vbmi) == vbmi && (cpu->c1 & CPUID1_POPCNT);
}

#endif
