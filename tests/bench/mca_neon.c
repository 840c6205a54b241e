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
 * UTF-32, and to UTF-16 (st4/st2 of bound registers). The zeros are set
 * once before a run: the empty asm says they are in their registers
 * without an instruction, so that the block is one step's. */
FAST_INLINE bool mca_widen64(const uint8_t *p, uint8_t *d, bool u16)
{
    register uint8x16_t fast_z17 __asm__("v17"), fast_z18 __asm__("v18"), fast_z19 __asm__("v19"),
        fast_z21 __asm__("v21"), fast_z22 __asm__("v22"), fast_z23 __asm__("v23"),
        fast_z25 __asm__("v25"), fast_z26 __asm__("v26"), fast_z27 __asm__("v27"),
        fast_z29 __asm__("v29"), fast_z30 __asm__("v30"), fast_z31 __asm__("v31");
    __asm__("" : "=w"(fast_z17), "=w"(fast_z18), "=w"(fast_z19), "=w"(fast_z21), "=w"(fast_z22),
                 "=w"(fast_z23), "=w"(fast_z25), "=w"(fast_z26), "=w"(fast_z27), "=w"(fast_z29),
                 "=w"(fast_z30), "=w"(fast_z31));
    register uint8x16_t fast_v16 __asm__("v16") = vld1q_u8(p);
    register uint8x16_t fast_v20 __asm__("v20") = vld1q_u8(p + 16);
    register uint8x16_t fast_v24 __asm__("v24") = vld1q_u8(p + 32);
    register uint8x16_t fast_v28 __asm__("v28") = vld1q_u8(p + 48);
    if (vmaxvq_u8(vorrq_u8(vorrq_u8(fast_v16, fast_v20), vorrq_u8(fast_v24, fast_v28))) >= 0x80)
        return false;
    FAST_NEON_STORE64(d, u16);
    return true;
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
