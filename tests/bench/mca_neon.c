/* SPDX-License-Identifier: MIT */
/* The NEON kernels' inner loops, one function each whose body is one
 * iteration, for llvm-mca (make bench-arm64 compiles this to assembly and
 * gives each body to llvm-mca-14 for a Neoverse core). Each calls the
 * library's own inline steps, so the code is the loops'; a step with
 * branches is given by the path its text takes (llvm-mca reads a body as
 * straight code). */
#include "arm64/lookup_neon.h"
#include "arm64/utf8_transcode.h"
#include "arm64/wide_neon.h"
#include "ascii.h"
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

/* The decoders' ASCII run (ascii.h): 64 bytes tested and widened to
 * UTF-32, and to UTF-16. */
FAST_INLINE bool mca_widen64(const uint8_t *p, uint8_t *dst, bool u16)
{
    uint8x16_t v0 = vld1q_u8(p), v1 = vld1q_u8(p + 16), v2 = vld1q_u8(p + 32), v3 = vld1q_u8(p + 48);
    size_t us = u16 ? 2 : 4;
    fast_widen16_neon(dst, v0, u16);
    fast_widen16_neon(dst + 16 * us, v1, u16);
    fast_widen16_neon(dst + 32 * us, v2, u16);
    fast_widen16_neon(dst + 48 * us, v3, u16);
    return vmaxvq_u8(vorrq_u8(vorrq_u8(v0, v1), vorrq_u8(v2, v3))) >= 0x80;
}

bool mca_widen32(const uint8_t *p, uint8_t *dst);
bool mca_widen32(const uint8_t *p, uint8_t *dst)
{
    return mca_widen64(p, dst, false);
}

bool mca_widen16(const uint8_t *p, uint8_t *dst);
bool mca_widen16(const uint8_t *p, uint8_t *dst)
{
    return mca_widen64(p, dst, true);
}

/* The UTF-8 transcoder (utf8_transcode.h): 48 bytes of sixteen 3-byte
 * characters into UTF-16. */
bool mca_utf8_three16(const uint8_t *p, uint8_t **pd);
bool mca_utf8_three16(const uint8_t *p, uint8_t **pd)
{
    return nt_three(p, pd, true);
}

/* UTF-16 into UTF-8 (wide_neon.h), 16 units a step: below 0x800 (Cyrillic,
 * Arabic), 3-byte forms (CJK), 1-3 bytes mixed. */
size_t mca_utf16_utf8_twos(const uint8_t *p, uint8_t *dst, uint8x16_t *saved);
size_t mca_utf16_utf8_twos(const uint8_t *p, uint8_t *dst, uint8x16_t *saved)
{
    return neon_utf8_twos(neon_load_utf16(FORM_UTF16LE, p), neon_load_utf16(FORM_UTF16LE, p + 16),
                          dst, saved);
}

size_t mca_utf16_utf8_threes(const uint8_t *p, uint8_t *dst, uint8x16_t *saved);
size_t mca_utf16_utf8_threes(const uint8_t *p, uint8_t *dst, uint8x16_t *saved)
{
    return neon_utf8_threes(neon_load_utf16(FORM_UTF16LE, p), neon_load_utf16(FORM_UTF16LE, p + 16),
                            dst, saved);
}

size_t mca_utf16_utf8_any(const uint8_t *p, uint8_t *dst, uint8x16_t *saved);
size_t mca_utf16_utf8_any(const uint8_t *p, uint8_t *dst, uint8x16_t *saved)
{
    uint16x8_t a = neon_load_utf16(FORM_UTF16LE, p), b = neon_load_utf16(FORM_UTF16LE, p + 16);
    return neon_utf8_any(a, b, neon_at_least(a, b, 0x80), neon_at_least(a, b, 0x800), dst, saved);
}

/* UTF-32 into UTF-8, 16 code points above U+FFFF (4 bytes each). */
void mca_utf32_utf8_four(const uint8_t *p, uint8_t *dst);
void mca_utf32_utf8_four(const uint8_t *p, uint8_t *dst)
{
    vst1q_u8(dst, neon_utf8_four(vreinterpretq_u32_u8(vld1q_u8(p))));
    vst1q_u8(dst + 16, neon_utf8_four(vreinterpretq_u32_u8(vld1q_u8(p + 16))));
    vst1q_u8(dst + 32, neon_utf8_four(vreinterpretq_u32_u8(vld1q_u8(p + 32))));
    vst1q_u8(dst + 48, neon_utf8_four(vreinterpretq_u32_u8(vld1q_u8(p + 48))));
}

/* UTF-16 into UTF-32 and UTF-32 into UTF-16, 16 units of the BMP: the
 * steps' tests and their stores (the path the text takes). */
bool mca_utf16_utf32(const uint8_t *p, uint8_t *dst);
bool mca_utf16_utf32(const uint8_t *p, uint8_t *dst)
{
    uint16x8_t a = neon_load_utf16(FORM_UTF16LE, p), b = neon_load_utf16(FORM_UTF16LE, p + 16);
    nu_widen16(FORM_UTF32LE, dst, a, b);
    return nu_any_surrogate(a, b);
}

bool mca_utf32_utf16(const uint8_t *p, uint8_t *dst);
bool mca_utf32_utf16(const uint8_t *p, uint8_t *dst)
{
    uint16x8_t lo[2], hi[2];
    neon_load_utf32(FORM_UTF32LE, p, lo, hi);
    nu_store16(FORM_UTF16LE, dst, lo[0]);
    nu_store16(FORM_UTF16LE, dst + 16, lo[1]);
    return vmaxvq_u16(vmaxq_u16(hi[0], hi[1])) != 0 || nu_any_surrogate(lo[0], lo[1]);
}
#endif
