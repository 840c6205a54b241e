/* SPDX-License-Identifier: MIT */
/* The NEON transcoder of valid UTF-8 into UTF-16LE or UTF-32 (slab.h's
 * fast_valid_fn at the NEON level): the "end of character mask" method of
 * Keiser and Lemire, as src/fast/utf8/masked.h has it for x86, over the
 * same generated tables (utf8.shuffle.gen.h, gen/emit_shuffle.py). A block
 * of 64 bytes gives the mask of the bytes that end a character (NEON has
 * no movemask: the continuation compares weighted by bit and summed
 * pairwise); windows of 12 bytes at a character's first byte index the
 * tables with 12 bits of it, and tbl gathers each character's bytes into a
 * 16- or 32-bit lane, last byte lowest; the payload bits are then joined:
 *   16-bit lanes: y = t & 1F7F, y - 192 * (y >> 8)       (b0 | b1 << 6)
 *   32-bit lanes: bytes masked (073F3F7F, byte 2 less its bit 5 when its
 *     bit 6 is set: a 3-byte first byte), the 16-bit step on both halves,
 *     then the high half shifted in at bit 12 (sli).
 * tbl gives 0 for an index of 16 and more: the 32-bit rows' MARK (0x40,
 * which pshufb ignores) is masked off first. Whole blocks of ASCII, 48
 * bytes of sixteen 3-byte characters (ld3: a byte of each in a vector),
 * and windows of 16 ASCII bytes or of eight 2-byte characters skip the
 * table.
 * The last bytes (fewer than a window's 16) one character at a time. */
#ifndef UTFDFA_FAST_ARM64_UTF8_TRANSCODE_H
#define UTFDFA_FAST_ARM64_UTF8_TRANSCODE_H

#include "../utf8/common.h"

#include "utf8.shuffle.gen.h"
#include "../utf8/valid_scalar.h"

#if FAST_ARM64
#include <arm_neon.h>

_Static_assert(UTF8_SHUF_DERIVED && UTF8_SHUF_WINDOW == 12,
               "the transcoder's forms are UTF-8's: 12-byte windows, characters of 1-4 bytes");
_Static_assert(UTF8_SHUF_CONT_MIN == 0x80, "continuations are the bytes 80 to CONT_MAX: one "
               "signed comparison");

/* A block's windows start at most here (their 12 bits in the mask). */
enum { NT_BLOCK = 64, NT_LAST = NT_BLOCK - UTF8_SHUF_WINDOW };
/* The ends of 48 bytes of sixteen 3-byte characters. */
#define NT_THREE_MASK ((uint64_t)0xFFFFFFFFFFFF)
#define NT_THREE_ENDS ((uint64_t)0x924924924924)

FAST_INLINE bool nt_is_cont(uint8_t b)
{
    return b >= UTF8_SHUF_CONT_MIN && b <= UTF8_SHUF_CONT_MAX;
}

/* The continuation bytes of p[0..64) as a bit mask (bit k: byte k). */
FAST_INLINE uint64_t nt_cont64(const uint8_t *p)
{
    const uint8x16_t bit = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
    const int8x16_t lim = vdupq_n_s8((int8_t)(UTF8_SHUF_CONT_MAX + 1));
#define NT_CONT(k) vandq_u8(vcltq_s8(vreinterpretq_s8_u8(vld1q_u8(p + 16 * (k))), lim), bit)
    uint8x16_t s = vpaddq_u8(vpaddq_u8(NT_CONT(0), NT_CONT(1)), vpaddq_u8(NT_CONT(2), NT_CONT(3)));
#undef NT_CONT
    s = vpaddq_u8(s, s);
    return vgetq_lane_u64(vreinterpretq_u64_u8(s), 0);
}

/* The tables' rows, each through a register of its own (an empty asm
 * hides their common base: else each row's offset in the struct, past a
 * load's immediate, costs an add a window). */
struct nt_tabs {
    const uint8_t *index, *took, *units, *pair_lanes, *shuffle, *pairs;
};

FAST_INLINE const uint8_t *nt_reg(const uint8_t *p)
{
    __asm__("" : "+r"(p));
    return p;
}

FAST_INLINE struct nt_tabs nt_tabs(void)
{
    const struct utfdfa_shuffle_tables *st = &utf8_shuffle_tables;
    return (struct nt_tabs){nt_reg(st->index), nt_reg(st->took), nt_reg(st->units),
                            nt_reg(st->pair_lanes), nt_reg(st->shuffle[0]), nt_reg(st->pairs[0])};
}

/* 16 ASCII bytes v as units at d (16 units). */
FAST_INLINE void nt_widen16(uint8_t *d, uint8x16_t v, bool u16)
{
    uint8x16_t z = vdupq_n_u8(0);
    const uint8x16x2_t two = {{v, z}}; /* named: clang's vst2q_u8 and vst4q_u8 are macros */
    const uint8x16x4_t four = {{v, z, z, z}};
    if (u16)
        vst2q_u8(d, two);
    else
        vst4q_u8(d, four);
}

/* Eight values below 0x10000 as units at d. */
FAST_INLINE void nt_store8(uint8_t *d, uint16x8_t w, bool u16)
{
    const uint16x8x2_t wide = {{w, vdupq_n_u16(0)}}; /* named: clang's vst2q_u16 is a macro */
    if (u16)
        vst1q_u16((uint16_t *)(void *)d, w);
    else
        vst2q_u16((uint16_t *)(void *)d, wide);
}

/* 16-bit lanes b0 | b1 << 8, payload bits only: b0 | b1 << 6. */
FAST_INLINE uint16x8_t nt_pack16(uint16x8_t y)
{
    return vmlsq_n_u16(y, vshrq_n_u16(y, 8), 192);
}

/* 32-bit lanes of 1-4 bytes (b3 0 for 1-3), last byte lowest: the code
 * points (the 3-byte first byte, the only byte 2 with bit 6 set, loses its
 * bit 5). three: the lanes hold 1-3 bytes (byte 2 & 0F is enough). */
FAST_INLINE uint32x4_t nt_join32(uint8x16_t t, bool three)
{
    uint32x4_t w = vreinterpretq_u32_u8(t), m;
    if (three)
        m = vandq_u32(w, vdupq_n_u32(0x000F3F7F));
    else
        m = veorq_u32(vandq_u32(w, vdupq_n_u32(0x073F3F7F)),
                      vshrq_n_u32(vandq_u32(w, vdupq_n_u32(0x00400000)), 1));
    uint32x4_t u = vreinterpretq_u32_u16(nt_pack16(vreinterpretq_u16_u32(m)));
    return vsliq_n_u32(u, vshrq_n_u32(u, 16), 12);
}

/* Each lane's code point above U+FFFF as its surrogate pair, the high
 * surrogate low: (c >> 10) + D7C0 below DC00 | (c & 3FF). */
FAST_INLINE uint32x4_t nt_pairs(uint32x4_t c)
{
    return vaddq_u32(vaddq_u32(vshrq_n_u32(c, 10), vdupq_n_u32(0xDC00D7C0)),
                     vandq_u32(vshlq_n_u32(c, 16), vdupq_n_u32(0x03FF0000)));
}

/* A window of the 32-bit forms (entry e, shuffle row sh): its units at d;
 * how many. UTF-16: 1-3 bytes are below U+10000 (one unit a lane); else a
 * lane's byte-3 index has bit 7 clear exactly when it holds a 4-byte
 * character (a pair), and the generated pairs[] packs the units in order. */
FAST_INLINE size_t nt_wide(const struct nt_tabs *tb, uint8_t *d, uint8x16_t in, uint8x16_t sh,
                           unsigned e, bool u16)
{
    uint8x16_t t = vqtbl1q_u8(in, vandq_u8(sh, vdupq_n_u8(0x8F)));
    if (e < UTF8_SHUF_THREE_END) {
        uint32x4_t c = nt_join32(t, true);
        if (u16)
            vst1_u16((uint16_t *)(void *)d, vmovn_u32(c));
        else
            vst1q_u32((uint32_t *)(void *)d, c);
        return 4;
    }
    uint32x4_t c = nt_join32(t, false);
    if (!u16) {
        vst1q_u32((uint32_t *)(void *)d, c);
        return 3;
    }
    uint32x4_t one = vreinterpretq_u32_s32(vshrq_n_s32(vreinterpretq_s32_u8(sh), 31));
    uint8x16_t w = vreinterpretq_u8_u32(vbslq_u32(one, c, nt_pairs(c)));
    vst1q_u8(d, vqtbl1q_u8(w, vld1q_u8(tb->pairs + 16 * tb->pair_lanes[e])));
    return tb->units[e] >> 4u;
}

/* One window at p (16 bytes readable; ends: bit k, byte k ends a
 * character, for k < 12 at least, and k < 16 unless bits 12-15 are not
 * all ones): its first characters' units at *pd, which it advances; the
 * bytes they span. Writes at most 16 units, one for each of the 16 bytes. */
FAST_INLINE size_t nt_window(const struct nt_tabs *tb, const uint8_t *p, uint64_t ends,
                             uint8_t **pd, bool u16)
{
    const size_t us = u16 ? 2 : 4;
    uint8x16_t in = vld1q_u8(p);
    uint8_t *d = *pd;
    unsigned m16 = (unsigned)ends & 0xFFFF;
    unsigned e = tb->index[m16 & 0xFFF];
    if (e >= UTF8_SHUF_TWO_END) {
        *pd = d + us * nt_wide(tb, d, in, vld1q_u8(tb->shuffle + 16 * e), e, u16);
        return tb->took[e];
    }
    if (m16 == 0xFFFF) { /* sixteen ASCII bytes */
        nt_widen16(d, in, u16);
        *pd = d + 16 * us;
        return 16;
    }
    uint16x8_t t;
    size_t took = 16, units = 8;
    if (m16 == 0xAAAA) { /* eight 2-byte characters: each lane's bytes swapped */
        t = vreinterpretq_u16_u8(vrev16q_u8(in));
    } else { /* six of 1-2 bytes */
        t = vreinterpretq_u16_u8(vqtbl1q_u8(in, vld1q_u8(tb->shuffle + 16 * e)));
        took = tb->took[e], units = 6;
    }
    nt_store8(d, nt_pack16(vandq_u16(t, vdupq_n_u16(0x1F7F))), u16);
    *pd = d + us * units;
    return took;
}

/* The ends of the block at src + at (bit k: byte at + k ends a character,
 * as byte at + k + 1 is no continuation) and the last window start in it
 * (*last; a window reads 16 bytes): bytes at + 1 to at + 64 when more than
 * 64 are left, else the run's last 64 (n >= 64) shifted, bytes past n
 * counted as ends. */
FAST_INLINE uint64_t nt_ends(const uint8_t *src, size_t at, size_t n, size_t *last)
{
    size_t left = n - at;
    if (left > NT_BLOCK) {
        *last = left >= NT_LAST + 16 ? NT_LAST : left - 16;
        return ~nt_cont64(src + at + 1);
    }
    *last = left - 16;
    return ~(nt_cont64(src + n - NT_BLOCK) >> (NT_BLOCK + 1 - left));
}

/* Sixteen 3-byte characters at p (48 bytes; whole scripts are so), if its
 * every third byte is a 3-byte first byte (valid text: then all are):
 * their units at *pd, which it advances. */
FAST_INLINE bool nt_three(const uint8_t *p, uint8_t **pd, bool u16)
{
    uint8x16x3_t v = vld3q_u8(p);
    if (vmaxvq_u8(veorq_u8(vshrq_n_u8(v.val[0], 4), vdupq_n_u8(0x0E))) != 0)
        return false;
    /* (b1 << 6 | b2 & 3F), then b0 << 12 over its bits 12 and up */
    uint16x8_t lo = vsliq_n_u16(vmovl_u8(vget_low_u8(v.val[2])), vmovl_u8(vget_low_u8(v.val[1])), 6);
    uint16x8_t hi = vsliq_n_u16(vmovl_high_u8(v.val[2]), vmovl_high_u8(v.val[1]), 6);
    lo = vsliq_n_u16(lo, vmovl_u8(vget_low_u8(v.val[0])), 12);
    hi = vsliq_n_u16(hi, vmovl_high_u8(v.val[0]), 12);
    nt_store8(*pd, lo, u16);
    nt_store8(*pd + (u16 ? 16 : 32), hi, u16);
    *pd += u16 ? 32 : 64;
    return true;
}

/* The transcoder: src[0..n) is valid UTF-8, whole characters (slab.h's
 * contract); units out at dst. A window writes at most one unit for each
 * of its 16 bytes, all in the run, so within the room slab.h gives (a
 * unit a byte). */
FAST_INLINE size_t nt_valid(const uint8_t *src, size_t n, void *dst, bool u16)
{
    const size_t us = u16 ? 2 : 4;
    uint8_t *d = (uint8_t *)dst;
    size_t at = 0;
    const struct nt_tabs tb = nt_tabs();
    while (n >= NT_BLOCK && n - at >= 16) {
        size_t last, pos = 0;
        uint64_t ends = nt_ends(src, at, n, &last);
        if ((ends & NT_THREE_MASK) == NT_THREE_ENDS && n - at >= 48) {
            while (n - at >= 48 && nt_three(src + at, &d, u16))
                at += 48;
            continue;
        }
        if (ends == ~(uint64_t)0 && last == NT_LAST) { /* 64 ASCII bytes (valid text) */
            for (int k = 0; k < 4; k++)
                nt_widen16(d + 16 * us * k, vld1q_u8(src + at + 16 * k), u16);
            d += NT_BLOCK * us;
            at += NT_BLOCK;
            continue;
        }
        do
            pos += nt_window(&tb, src + at + pos, ends >> pos, &d, u16);
        while (pos <= last);
        at += pos;
        if (last < NT_LAST)
            break;
    }
    size_t o = (size_t)(d - (uint8_t *)dst) / us;
    return o + fast_valid_scalar(src + at, n - at, d, u16);
}

#endif /* FAST_ARM64 */
#endif /* UTFDFA_FAST_ARM64_UTF8_TRANSCODE_H */
