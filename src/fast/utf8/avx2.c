/* SPDX-License-Identifier: MIT */
/* For x86-64 with AVX2 and BMI2: the replacing DFA engine with shrx and
 * the ASCII path 32 bytes at a time, for the windows around errors of the
 * slab decoders at AVX2 and up (masked.c, avx512.c). Each function
 * carries its target attribute (select.c calls them only when the CPU has
 * both). */
#include "utf8_fast.h"

#include "decode.h"
#include "replace.h"
#include "variants.h"

#if FAST_X86
FAST_TARGET_AVX2 FAST_NOINLINE static void fast_rep_b_avx2_run(const uint8_t *src, size_t n,
    size_t *pi, uint64_t *ps, uint32_t *pcp, struct fast_out out, size_t *perr)
{
    fast_rep_run(fast_utf8(), src, n, pi, ps, pcp, out, perr);
}

FAST_TARGET_AVX2 size_t utfdfa__utf8_rep_b_avx2(const uint8_t *src, size_t n, uint32_t *state,
    uint32_t *partial, uint32_t *dst, size_t cap, size_t *written, size_t *errors)
{
    return fast_rep_engine((struct fast_rep_ops){fast_utf8(), FAST_ASCII_AVX2, fast_rep_b_avx2_run},
                           (struct fast_call){src, n, state, partial, dst, cap, written, errors});
}
#else
typedef int utfdfa__utf8_fast_avx2_none; /* not x86-64: nothing here (a unit must declare something) */
#endif
