/* SPDX-License-Identifier: MIT */
/* The ISA the SIMD levels are written for, asked in this one place (the
 * dispatcher's levels, the UTF-8 fast paths and their tests agree): x86-64
 * with GCC-style target attributes (GCC, clang). Elsewhere only the
 * portable and scalar code is compiled in. */
#ifndef UTFDFA_FAST_ISA_H
#define UTFDFA_FAST_ISA_H

#if defined(__GNUC__) && defined(__x86_64__)
#define UTFDFA_ISA_X86 1
#else
#define UTFDFA_ISA_X86 0
#endif

#endif /* UTFDFA_FAST_ISA_H */
