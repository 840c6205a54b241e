/* SPDX-License-Identifier: MIT */
/* The counting kernels of the x86-64 levels: the template of count.h at
 * 16 bytes a step (SSE2, the baseline; also SSE4's), 32 (AVX2's and
 * AVX-512 BW's level) and 64 (the AVX-512 VBMI level's: byte compares
 * into mask registers need AVX-512 BW). */
#include "x86.h"

#if KERN_X86

#define COUNT_NAME utfdfa__sse2_count
#define COUNT_FN(x) sse2_count_##x
#define COUNT_ATTR
#define COUNT_VW 16
#include "../count.h"
#undef COUNT_NAME
#undef COUNT_FN
#undef COUNT_ATTR
#undef COUNT_VW

#define COUNT_NAME utfdfa__avx2_count
#define COUNT_FN(x) avx2_count_##x
#define COUNT_ATTR __attribute__((target("avx2")))
#define COUNT_VW 32
#include "../count.h"
#undef COUNT_NAME
#undef COUNT_FN
#undef COUNT_ATTR
#undef COUNT_VW

#define COUNT_NAME utfdfa__avx512_count
#define COUNT_FN(x) avx512_count_##x
#define COUNT_ATTR __attribute__((target("avx512f,avx512bw,avx2")))
#define COUNT_VW 64
#include "../count.h"
#undef COUNT_NAME
#undef COUNT_FN
#undef COUNT_ATTR
#undef COUNT_VW

#else
typedef int utfdfa__no_x86_count_here; /* ISO C wants a declaration in every unit */
#endif
