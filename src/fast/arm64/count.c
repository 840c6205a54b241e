/* SPDX-License-Identifier: MIT */
/* The counting kernel of the NEON level: the template of count.h at 16
 * bytes a step (ASIMD is AArch64's baseline: no target attribute). */
#include "../levels.h"

#if KERN_ARM64

#define COUNT_NAME utfdfa__neon_count
#define COUNT_FN(x) neon_count_##x
#define COUNT_ATTR
#define COUNT_VW 16
#include "../count.h"
#undef COUNT_NAME
#undef COUNT_FN
#undef COUNT_ATTR
#undef COUNT_VW

#else
typedef int utfdfa__no_neon_count_here; /* ISO C wants a declaration in every unit */
#endif
