/* SPDX-License-Identifier: MIT */
/* The counting kernel (utfdfa__count, kernels.h) as a template in GCC's
 * vector extensions, included once per level (x86/count.c, arm64/count.c)
 * after defining COUNT_NAME (the kernel's name), COUNT_FN(x) (its helpers'
 * names), COUNT_ATTR (the level's target attribute, or nothing) and
 * COUNT_VW (bytes a vector). A step loads one vector of units, compares it
 * and subtracts the masks (-1 where true) from per-lane counters, which are
 * added up before they can overflow; the compiler lowers each operation to
 * the level's instructions. The tail, less than a vector, is the scalar
 * kernel's. No include guard: a template. */

typedef uint8_t COUNT_FN(u8) __attribute__((vector_size(COUNT_VW)));
typedef int8_t COUNT_FN(i8) __attribute__((vector_size(COUNT_VW)));
typedef uint16_t COUNT_FN(u16) __attribute__((vector_size(COUNT_VW)));
typedef uint32_t COUNT_FN(u32) __attribute__((vector_size(COUNT_VW)));

/* UTF-8, nvec vectors: the bytes that are not 80-BF, with COUNT_UTF16 the
 * bytes F0-FF as well (at most 2 a lane a step: 127 steps a round). */
KERN_INLINE COUNT_ATTR uint64_t COUNT_FN(utf8)(int four, const uint8_t *s, size_t nvec)
{
    uint64_t total = 0;
    while (nvec) {
        size_t k = nvec < 127 ? nvec : 127;
        nvec -= k;
        COUNT_FN(u8) acc = {0};
        for (; k; k--, s += COUNT_VW) {
            COUNT_FN(u8) v;
            memcpy(&v, s, COUNT_VW);
            acc -= (COUNT_FN(u8))((COUNT_FN(i8))v > -65); /* 00-7F, C0-FF */
            if (four)
                acc -= (COUNT_FN(u8))(v >= 0xF0);
        }
        for (size_t j = 0; j < COUNT_VW; j++)
            total += acc[j];
    }
    return total;
}

/* UTF-16, nvec vectors: the low surrogates (cps), or the units of 2 and 3
 * bytes in UTF-8 counted once and twice, surrogates once (at most 2 a lane
 * a step: 16384 steps a round). */
KERN_INLINE COUNT_ATTR uint64_t COUNT_FN(utf16)(int be, int cps, const uint8_t *s, size_t nvec)
{
    uint64_t total = 0;
    while (nvec) {
        size_t k = nvec < 16384 ? nvec : 16384;
        nvec -= k;
        COUNT_FN(u16) acc = {0};
        for (; k; k--, s += COUNT_VW) {
            COUNT_FN(u16) u;
            memcpy(&u, s, COUNT_VW);
            if (be)
                u = (COUNT_FN(u16))(u << 8 | u >> 8);
            if (cps) {
                acc -= (COUNT_FN(u16))((u & 0xFC00) == 0xDC00);
            } else {
                acc -= (COUNT_FN(u16))(u >= 0x80);
                acc -= (COUNT_FN(u16))((u >= 0x800) & ((u & 0xF800) != 0xD800));
            }
        }
        for (size_t j = 0; j < COUNT_VW / 2; j++)
            total += acc[j];
    }
    return total;
}

/* UTF-32, nvec vectors: the units of 2, 3 and 4 bytes in UTF-8 counted
 * once, twice and three times, or (utf16) those above FFFF once (at most 3
 * a lane a step: 2^20 steps a round). */
KERN_INLINE COUNT_ATTR uint64_t COUNT_FN(utf32)(int be, int utf16, const uint8_t *s, size_t nvec)
{
    uint64_t total = 0;
    while (nvec) {
        size_t k = nvec < ((size_t)1 << 20) ? nvec : (size_t)1 << 20;
        nvec -= k;
        COUNT_FN(u32) acc = {0};
        for (; k; k--, s += COUNT_VW) {
            COUNT_FN(u32) u;
            memcpy(&u, s, COUNT_VW);
            if (be)
                u = u >> 24 | (u >> 8 & 0xFF00) | (u << 8 & 0xFF0000) | u << 24;
            acc -= (COUNT_FN(u32))(u >= 0x10000);
            if (!utf16) {
                acc -= (COUNT_FN(u32))(u >= 0x80);
                acc -= (COUNT_FN(u32))(u >= 0x800);
            }
        }
        for (size_t j = 0; j < COUNT_VW / 4; j++)
            total += acc[j];
    }
    return total;
}

COUNT_ATTR uint64_t COUNT_NAME(enum fast_form from, enum fast_count what, const uint8_t *src,
                               size_t len)
{
    size_t nvec = len / COUNT_VW, head = nvec * COUNT_VW, units = head / kern_unit(from);
    int be = from == FORM_UTF16BE || from == FORM_UTF32BE;
    uint64_t n;
    switch (from) {
    case FORM_UTF8:
        n = what == COUNT_UTF8    ? head
            : what == COUNT_UTF16 ? COUNT_FN(utf8)(1, src, nvec)
                                  : COUNT_FN(utf8)(0, src, nvec);
        break;
    case FORM_UTF16LE:
    case FORM_UTF16BE:
        n = what == COUNT_UTF16 ? units
            : what == COUNT_CPS ? units - (be ? COUNT_FN(utf16)(1, 1, src, nvec)
                                              : COUNT_FN(utf16)(0, 1, src, nvec))
                                : units + (be ? COUNT_FN(utf16)(1, 0, src, nvec)
                                              : COUNT_FN(utf16)(0, 0, src, nvec));
        break;
    default: /* FORM_UTF32LE, FORM_UTF32BE */
        n = what == COUNT_CPS ? units
            : units + (what == COUNT_UTF16 ? (be ? COUNT_FN(utf32)(1, 1, src, nvec)
                                                 : COUNT_FN(utf32)(0, 1, src, nvec))
                                           : (be ? COUNT_FN(utf32)(1, 0, src, nvec)
                                                 : COUNT_FN(utf32)(0, 0, src, nvec)));
        break;
    }
    return n + utfdfa__scalar_count(from, what, src + head, len - head);
}
