/* SPDX-License-Identifier: MIT */
/* The NEON kernels' inner loops, one function each whose body is one
 * iteration, for llvm-mca (make bench-arm64 compiles this to assembly and
 * gives each body to llvm-mca-14 for a Neoverse core). Each calls the
 * library's own inline steps, so the code is the loops'. */
#include "arm64/lookup_neon.h"
#include "variants.h"

#if FAST_ARM64
/* The validator's group of 64 bytes (lookup_engine.h's run, non-ASCII). */
uint8x16_t mca_lookup_group(const struct lk_neon_ctx *c, const uint8_t *p, uint8x16_t prev);
uint8x16_t mca_lookup_group(const struct lk_neon_ctx *c, const uint8_t *p, uint8x16_t prev)
{
    uint8x16_t v[4], next;
    lk_neon_load(p, v);
    return lk_neon_or(lk_neon_group(c, &utf8_simd_tables, UTF8_SIMD_CUR_LOW, &prev, v, &next),
                      lk_neon_incomplete(c, next));
}

/* The validator's ASCII run: 128 bytes a step. */
bool mca_lookup_ascii2(const uint8_t *p);
bool mca_lookup_ascii2(const uint8_t *p)
{
    return lk_neon_ascii2(p);
}

/* The decoders' ASCII run: 16 bytes widened to UTF-32. */
size_t mca_widen32(const uint8_t *p, uint32_t *dst);
size_t mca_widen32(const uint8_t *p, uint32_t *dst)
{
    uint8x16_t v = vld1q_u8(p);
    vst4q_u8((uint8_t *)dst, (uint8x16x4_t){{v, vdupq_n_u8(0), vdupq_n_u8(0), vdupq_n_u8(0)}});
    return vmaxvq_u8(v) >= 0x80;
}
#endif
