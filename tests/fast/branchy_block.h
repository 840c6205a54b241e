/* SPDX-License-Identifier: MIT */
/* The branchy block step that the benchmark variants measure against the
 * library's branch-free one (src/fast/utf8/decode.h): a store only when a
 * character completes, so a branch per byte. Include after decode.h. */
#ifndef UTFDFA_TESTS_FAST_BRANCHY_BLOCK_H
#define UTFDFA_TESTS_FAST_BRANCHY_BLOCK_H

#define FAST_DSTEP_BRANCHY(k)                                                               \
    do {                                                                                    \
        uint8_t b_ = p[k];                                                                  \
        s = fast_next(g, s, b_);                                                            \
        cp = cp << 6 | fast_payload(g, b_);                                                 \
        if (fast_st(g, s) == 0) {                                                           \
            if (u16 && cp >= 0x10000) {                                                     \
                d16[o] = (uint16_t)(0xD800 | (cp - 0x10000) >> 10);                         \
                d16[o + 1] = (uint16_t)(0xDC00 | (cp & 0x3FF));                             \
                o += 2;                                                                     \
            } else if (u16) {                                                               \
                d16[o++] = (uint16_t)cp;                                                    \
            } else {                                                                        \
                d32[o++] = cp;                                                              \
            }                                                                               \
            cp = 0;                                                                         \
        }                                                                                   \
    } while (0)

/* fast_block_fn's contract (decode.h). */
FAST_INLINE void fast_dec_block_branchy(const fast_tables *g, const uint8_t *p, uint64_t *ps,
                                        uint32_t *pcp, void *dst, size_t *po, bool u16)
{
    uint64_t s = *ps;
    uint32_t cp = *pcp, *d32 = dst;
    uint16_t *d16 = dst;
    size_t o = *po;
    FAST_DSTEP16(FAST_DSTEP_BRANCHY);
    *ps = s;
    *pcp = cp;
    *po = o;
}

#endif
