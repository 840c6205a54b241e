/* SPDX-License-Identifier: MIT */
/* The sets for the SSE4 and the AVX2 levels (the AVX-512 level too): the
 * level's lookup validator and decoding by slabs (slab.h) with the 128-bit
 * transcoder (masked.h; at AVX2 VEX-encoded, with 32-byte stores for ASCII
 * blocks). The windows around errors of the replacing decoder: at SSE4 the
 * portable set's engine (the level does not imply BMI2), at AVX2 the DFA
 * engine with shrx and the 32-byte ASCII path (avx2.c). One unit for both
 * levels, so that they share one copy of the shuffle tables. Each function
 * carries its target attribute (select.c calls them only at that level). */
#include "utf8_fast.h"

#include "ascii.h"
#include "lookup.h"
#include "masked.h"
#include "slab.h"
#include "small_avx2.h"
#include "small_sse4.h"
#include "variants.h"

#if FAST_X86
#define MK_SUF sse4
#define MK_TARGET FAST_TARGET_SSE4
#define MK_WIDE 0
#define MK_SCAN utfdfa__utf8_scan_lookup_sse4
#define MK_REP utfdfa__utf8_rep_sse2
#include "masked_engine.h"
#undef MK_SUF
#undef MK_TARGET
#undef MK_WIDE
#undef MK_SCAN
#undef MK_REP

#define MK_SUF avx2
#define MK_TARGET FAST_TARGET_AVX2
#define MK_WIDE 1
#define MK_SCAN utfdfa__utf8_scan_lookup_avx2
#define MK_REP utfdfa__utf8_rep_tok_avx2
#include "masked_engine.h"
#undef MK_SUF
#undef MK_TARGET
#undef MK_WIDE
#undef MK_SCAN
#undef MK_REP

/* The AVX2 level's replacing windows (MK_REP above), over its walk. */
#include "rep_tokens.h"

const struct utfdfa__utf8_fast_impl utfdfa__utf8_fast_sse4 = {
    utfdfa__utf8_scan_lookup_sse4, utfdfa__utf8_dec_sse4_32, utfdfa__utf8_dec_sse4_16,
    utfdfa__utf8_rep_sse4, mk_sse4_ascii32,
};

const struct utfdfa__utf8_fast_impl utfdfa__utf8_fast_avx2 = {
    utfdfa__utf8_scan_lookup_avx2, utfdfa__utf8_dec_avx2_32, utfdfa__utf8_dec_avx2_16,
    utfdfa__utf8_rep_avx2, mk_avx2_ascii32,
};
#else
typedef int utfdfa__utf8_fast_masked_none; /* not x86-64: nothing here (a unit must declare something) */
#endif
