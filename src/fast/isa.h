/* SPDX-License-Identifier: MIT */
/* Which ISA folder's levels a build has, decided once for the kernels
 * (levels.h) and the UTF-8 fast paths (utf8/common.h) alike: x86-64 with
 * GCC-style target attributes, and little-endian AArch64, whose ASIMD
 * (NEON) is baseline. */
#ifndef UTFDFA_FAST_ISA_H
#define UTFDFA_FAST_ISA_H

#if defined(__GNUC__) && defined(__x86_64__)
#define KERN_X86 1
#else
#define KERN_X86 0
#endif

#if defined(__GNUC__) && defined(__aarch64__) && defined(__ARM_NEON) && \
    defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define KERN_ARM64 1
#else
#define KERN_ARM64 0
#endif

#endif
