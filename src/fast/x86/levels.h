/* SPDX-License-Identifier: MIT */
/* The x86-64 levels' rows (the columns: src/fast/levels.h); their
 * predicates are in x86/detect.h. */
#ifndef UTFDFA_FAST_X86_LEVELS_H
#define UTFDFA_FAST_X86_LEVELS_H

#define KERN_X86_LEVELS(X)                                                                        \
    /* the x86-64 baseline */                                                                     \
    X(SSE2, sse2, kern_baseline, utfdfa__fast_sse2, utfdfa__utf8_fast_portable, 0)                \
    /* + SSSE3, SSE4.1 (pshufb, pblendvb) */                                                      \
    X(SSE4, sse4, x86_has_sse4, utfdfa__fast_sse4, utfdfa__utf8_fast_sse4,                        \
      utfdfa__utf8_scan_lookup_sse4)                                                              \
    /* + AVX2, BMI1, BMI2, POPCNT */                                                              \
    X(AVX2, avx2, x86_has_avx2, utfdfa__fast_avx2, utfdfa__utf8_fast_avx2,                        \
      utfdfa__utf8_scan_lookup_avx2)                                                              \
    /* + AVX-512 F, BW, VL */                                                                     \
    X(AVX512, avx512, x86_has_avx512, utfdfa__fast_avx2, utfdfa__utf8_fast_avx2,                  \
      utfdfa__utf8_scan_lookup_avx512)                                                            \
    /* + AVX-512 VBMI, VBMI2 (byte permutes, compress and expand of bytes), POPCNT */             \
    X(AVX512VBMI, avx512vbmi, x86_has_vbmi, utfdfa__fast_avx512vbmi, utfdfa__utf8_fast_vbmi,      \
      utfdfa__utf8_scan_lookup_vbmi)

#endif
