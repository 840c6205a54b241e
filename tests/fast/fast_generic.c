/* SPDX-License-Identifier: MIT */
/* The fast paths' engines over tables chosen at run time (fast_generic.h),
 * compiled for the plain table's step (the library's is the shift rows'). */
#define FAST_STEP_TRANS 1
#include "fast_generic.h"

#include "decode.h"
#include "lanes.h"
#include "replace.h"
#include "scan.h"

#include "branchy_block.h"

static const fast_tables *generic;

void fast_generic_use(const struct utfdfa_fast_tables *tables)
{
    generic = tables;
}

size_t fast_generic_pending(const uint8_t *src, size_t k, uint32_t state)
{
    return fast_pending(generic, src, k, state);
}

static size_t scan_dfa(const uint8_t *src, size_t n, uint32_t *state)
{
    return fast_scan_engine(generic, src, n, state, FAST_ASCII_NONE, 1);
}

static size_t scan_word(const uint8_t *src, size_t n, uint32_t *state)
{
    return fast_scan_engine(generic, src, n, state, FAST_ASCII_WORD, 1);
}

static size_t scan_word_l2(const uint8_t *src, size_t n, uint32_t *state)
{
    return fast_scan_engine(generic, src, n, state, FAST_ASCII_WORD, 2);
}

static size_t scan_word_l4(const uint8_t *src, size_t n, uint32_t *state)
{
    return fast_scan_engine(generic, src, n, state, FAST_ASCII_WORD, 4);
}

/* Decoding: every technique, by its fixed arguments. */
static size_t dec(const uint8_t *src, size_t n, uint32_t *state, uint32_t *partial, void *dst,
                  size_t cap, size_t *written, bool u16, int amode, bool branchfree, int lanes);

static bool lanes2(const uint8_t *src, size_t n, size_t *pi, uint64_t *ps, uint32_t *pcp,
                   struct fast_out out, size_t *pw)
{
    return fast_dec_lanes_run((struct fast_lane_ops){generic, FAST_ASCII_WORD, 2}, src, n, pi, ps,
                              pcp, out, pw);
}

static bool lanes4(const uint8_t *src, size_t n, size_t *pi, uint64_t *ps, uint32_t *pcp,
                   struct fast_out out, size_t *pw)
{
    return fast_dec_lanes_run((struct fast_lane_ops){generic, FAST_ASCII_WORD, 4}, src, n, pi, ps,
                              pcp, out, pw);
}

static size_t dec(const uint8_t *src, size_t n, uint32_t *state, uint32_t *partial, void *dst,
                  size_t cap, size_t *written, bool u16, int amode, bool branchfree, int lanes)
{
    fast_block_fn block = branchfree ? fast_dec_block : fast_dec_block_branchy;
    if (lanes == 4)
        return fast_dec_engine((struct fast_dec_ops){generic, u16, amode, block, 4, lanes4},
                               (struct fast_call){src, n, state, partial, dst, cap, written, NULL});
    if (lanes == 2)
        return fast_dec_engine((struct fast_dec_ops){generic, u16, amode, block, 2, lanes2},
                               (struct fast_call){src, n, state, partial, dst, cap, written, NULL});
    return fast_dec_engine((struct fast_dec_ops){generic, u16, amode, block, 1, NULL},
                           (struct fast_call){src, n, state, partial, dst, cap, written, NULL});
}

#define DEC_PAIR(name32, name16, amode, branchfree, lanes)                                  \
    static size_t name32(const uint8_t *src, size_t n, uint32_t *state, uint32_t *partial, \
                            uint32_t *dst, size_t cap, size_t *written)                     \
    {                                                                                       \
        return dec(src, n, state, partial, dst, cap, written, false, amode, branchfree, lanes); \
    }                                                                                       \
    static size_t name16(const uint8_t *src, size_t n, uint32_t *state, uint32_t *partial, \
                            uint16_t *dst, size_t cap, size_t *written)                     \
    {                                                                                       \
        return dec(src, n, state, partial, dst, cap, written, true, amode, branchfree, lanes); \
    }
DEC_PAIR(dec_branchy_32, dec_branchy_16, FAST_ASCII_NONE, false, 1)
DEC_PAIR(dec_free_32, dec_free_16, FAST_ASCII_NONE, true, 1)
DEC_PAIR(dec_free_word_32, dec_free_word_16, FAST_ASCII_WORD, true, 1)
DEC_PAIR(dec_l2_word_32, dec_l2_word_16, FAST_ASCII_WORD, true, 2)
DEC_PAIR(dec_l4_word_32, dec_l4_word_16, FAST_ASCII_WORD, true, 4)

static void rep_run(const uint8_t *src, size_t n, size_t *pi, uint64_t *ps, uint32_t *pcp,
                    struct fast_out out, size_t *perr)
{
    fast_rep_run(generic, src, n, pi, ps, pcp, out, perr);
}

static size_t rep_word(const uint8_t *src, size_t n, uint32_t *state, uint32_t *partial,
                       uint32_t *dst, size_t cap, size_t *written, size_t *errors)
{
    return fast_rep_engine((struct fast_rep_ops){generic, FAST_ASCII_WORD, rep_run},
                           (struct fast_call){src, n, state, partial, dst, cap, written, errors});
}

static size_t rep_inline(const uint8_t *src, size_t n, uint32_t *state, uint32_t *partial,
                         uint32_t *dst, size_t cap, size_t *written, size_t *errors)
{
    return fast_rep_engine((struct fast_rep_ops){generic, FAST_ASCII_NONE, NULL},
                           (struct fast_call){src, n, state, partial, dst, cap, written, errors});
}

const struct utfdfa__fast_variant fast_generic_variants[] = {
    {"default", scan_word_l4, dec_l2_word_32, dec_free_word_16, rep_word},
    {"dfa", scan_dfa, NULL, NULL, NULL},
    {"dfa+ascii-word", scan_word, NULL, NULL, NULL},
    {"dfa+ascii-word+2lanes", scan_word_l2, NULL, NULL, NULL},
    {"dfa+ascii-word+4lanes", scan_word_l4, NULL, NULL, NULL},
    {"branchy", NULL, dec_branchy_32, dec_branchy_16, NULL},
    {"branchfree", NULL, dec_free_32, dec_free_16, NULL},
    {"branchfree+ascii-word", NULL, dec_free_word_32, dec_free_word_16, NULL},
    {"branchfree+ascii-word+2lanes", NULL, dec_l2_word_32, dec_l2_word_16, NULL},
    {"branchfree+ascii-word+4lanes", NULL, dec_l4_word_32, dec_l4_word_16, NULL},
    {"replace+ascii-word", NULL, NULL, NULL, rep_word},
    {"replace, no tables", NULL, NULL, NULL, rep_inline},
    {NULL, NULL, NULL, NULL, NULL},
};
