/* SPDX-License-Identifier: MIT */
/* The variants of the UTF-8 fast paths that no level of the library calls
 * (utf8_variants.h): the engines of src/fast/utf8/ (scan.h, decode.h,
 * lanes.h, replace.h) over UTF-8's generated tables with other techniques
 * fixed, and the list of every variant, the library's among them. Names:
 * b_ with BMI2 (the shift DFA's shift is shrx: one uop, any register,
 * latency 1, where shr %cl takes more uops and latency 2); dfa (no ASCII
 * path), word, sse2, avx2: the ASCII path; l2-l4: lanes; branchy or free:
 * decoding with or without branches per byte. Each x86-64 function carries
 * its target attribute (utfdfa__fast_variant_runs says which this CPU
 * runs). */
#include "utf8_variants.h"

#include "decode.h"
#include "lanes.h"
#include "replace.h"
#include "scan.h"
#include "variants.h"

#include "branchy_block.h"

#include "kernels.h"

#if FAST_X86
#define FAST_TARGET_BMI2 __attribute__((target("bmi2")))
#endif

/* ---------------------------------------------------------- any CPU */
static size_t scan_dfa(const uint8_t *src, size_t n, uint32_t *state)
{
    return fast_scan_engine(fast_utf8(), src, n, state, FAST_ASCII_NONE, 1);
}

static size_t scan_word(const uint8_t *src, size_t n, uint32_t *state)
{
    return fast_scan_engine(fast_utf8(), src, n, state, FAST_ASCII_WORD, 1);
}

static size_t scan_word_l4(const uint8_t *src, size_t n, uint32_t *state)
{
    return fast_scan_engine(fast_utf8(), src, n, state, FAST_ASCII_WORD, 4);
}

static size_t dec_branchy_32(const uint8_t *src, size_t n, uint32_t *state, uint32_t *partial,
                             uint32_t *dst, size_t cap, size_t *written)
{
    return fast_dec_engine(
        (struct fast_dec_ops){fast_utf8(), false, FAST_ASCII_NONE, fast_dec_block_branchy, 1, NULL},
        (struct fast_call){src, n, state, partial, dst, cap, written, NULL});
}

static size_t dec_branchy_16(const uint8_t *src, size_t n, uint32_t *state, uint32_t *partial,
                             uint16_t *dst, size_t cap, size_t *written)
{
    return fast_dec_engine(
        (struct fast_dec_ops){fast_utf8(), true, FAST_ASCII_NONE, fast_dec_block_branchy, 1, NULL},
        (struct fast_call){src, n, state, partial, dst, cap, written, NULL});
}

static size_t dec_free_32(const uint8_t *src, size_t n, uint32_t *state, uint32_t *partial,
                          uint32_t *dst, size_t cap, size_t *written)
{
    return fast_dec_engine(
        (struct fast_dec_ops){fast_utf8(), false, FAST_ASCII_NONE, fast_dec_block, 1, NULL},
        (struct fast_call){src, n, state, partial, dst, cap, written, NULL});
}

static size_t dec_free_16(const uint8_t *src, size_t n, uint32_t *state, uint32_t *partial,
                          uint16_t *dst, size_t cap, size_t *written)
{
    return fast_dec_engine((struct fast_dec_ops){fast_utf8(), true, FAST_ASCII_NONE, fast_dec_block, 1, NULL},
                           (struct fast_call){src, n, state, partial, dst, cap, written, NULL});
}

static size_t dec_free_word_32(const uint8_t *src, size_t n, uint32_t *state, uint32_t *partial,
                               uint32_t *dst, size_t cap, size_t *written)
{
    return fast_dec_engine(
        (struct fast_dec_ops){fast_utf8(), false, FAST_ASCII_WORD, fast_dec_block, 1, NULL},
        (struct fast_call){src, n, state, partial, dst, cap, written, NULL});
}

FAST_NOINLINE static bool l2_word_lanes(const uint8_t *src, size_t n, size_t *pi, uint64_t *ps,
                                        uint32_t *pcp, struct fast_out out, size_t *pw)
{
    return fast_dec_lanes_run((struct fast_lane_ops){fast_utf8(), FAST_ASCII_WORD, 2}, src, n, pi,
                              ps, pcp, out, pw);
}

static size_t dec_l2_word_16(const uint8_t *src, size_t n, uint32_t *state, uint32_t *partial,
                             uint16_t *dst, size_t cap, size_t *written)
{
    return fast_dec_engine(
        (struct fast_dec_ops){fast_utf8(), true, FAST_ASCII_WORD, fast_dec_block, 2, l2_word_lanes},
        (struct fast_call){src, n, state, partial, dst, cap, written, NULL});
}

/* The portable set off x86-64 (src/fast/utf8/portable.c) is the library's
 * own; on x86-64 that set has the SSE2 ASCII path, and these are here. */
#if FAST_X86
static size_t scan_word_l2(const uint8_t *src, size_t n, uint32_t *state)
{
    return fast_scan_engine(fast_utf8(), src, n, state, FAST_ASCII_WORD, 2);
}

static size_t dec_l2_word_32(const uint8_t *src, size_t n, uint32_t *state, uint32_t *partial,
                             uint32_t *dst, size_t cap, size_t *written)
{
    return fast_dec_engine(
        (struct fast_dec_ops){fast_utf8(), false, FAST_ASCII_WORD, fast_dec_block, 2, l2_word_lanes},
        (struct fast_call){src, n, state, partial, dst, cap, written, NULL});
}

static size_t dec_free_word_16(const uint8_t *src, size_t n, uint32_t *state, uint32_t *partial,
                               uint16_t *dst, size_t cap, size_t *written)
{
    return fast_dec_engine((struct fast_dec_ops){fast_utf8(), true, FAST_ASCII_WORD, fast_dec_block, 1, NULL},
                           (struct fast_call){src, n, state, partial, dst, cap, written, NULL});
}

FAST_NOINLINE static void rep_word_run(const uint8_t *src, size_t n, size_t *pi, uint64_t *ps,
                                       uint32_t *pcp, struct fast_out out, size_t *perr)
{
    fast_rep_run(fast_utf8(), src, n, pi, ps, pcp, out, perr);
}

static size_t rep_word(const uint8_t *src, size_t n, uint32_t *state, uint32_t *partial,
                       uint32_t *dst, size_t cap, size_t *written, size_t *errors)
{
    return fast_rep_engine((struct fast_rep_ops){fast_utf8(), FAST_ASCII_WORD, rep_word_run},
                           (struct fast_call){src, n, state, partial, dst, cap, written, errors});
}
#else
#define scan_word_l2 utfdfa__utf8_scan_word_l2
#define dec_l2_word_32 utfdfa__utf8_dec_l2_word_32
#define dec_free_word_16 utfdfa__utf8_dec_free_word_16
#define rep_word utfdfa__utf8_rep_word
#endif

#if FAST_X86
/* ---------------------------------------------------------- BMI2 */
FAST_TARGET_BMI2 static size_t scan_b_dfa(const uint8_t *src, size_t n, uint32_t *state)
{
    return fast_scan_engine(fast_utf8(), src, n, state, FAST_ASCII_NONE, 1);
}

FAST_TARGET_BMI2 static size_t scan_b_sse2(const uint8_t *src, size_t n, uint32_t *state)
{
    return fast_scan_engine(fast_utf8(), src, n, state, FAST_ASCII_SSE2, 1);
}

FAST_TARGET_BMI2 static size_t scan_b_sse2_l2(const uint8_t *src, size_t n, uint32_t *state)
{
    return fast_scan_engine(fast_utf8(), src, n, state, FAST_ASCII_SSE2, 2);
}

FAST_TARGET_BMI2 static size_t scan_b_sse2_l3(const uint8_t *src, size_t n, uint32_t *state)
{
    return fast_scan_engine(fast_utf8(), src, n, state, FAST_ASCII_SSE2, 3);
}

FAST_TARGET_BMI2 static size_t scan_b_sse2_l4(const uint8_t *src, size_t n, uint32_t *state)
{
    return fast_scan_engine(fast_utf8(), src, n, state, FAST_ASCII_SSE2, 4);
}

FAST_TARGET_BMI2 static size_t dec_b_branchy_32(const uint8_t *src, size_t n, uint32_t *state,
                                                uint32_t *partial, uint32_t *dst, size_t cap,
                                                size_t *written)
{
    return fast_dec_engine(
        (struct fast_dec_ops){fast_utf8(), false, FAST_ASCII_NONE, fast_dec_block_branchy, 1, NULL},
        (struct fast_call){src, n, state, partial, dst, cap, written, NULL});
}

FAST_TARGET_BMI2 static size_t dec_b_branchy_16(const uint8_t *src, size_t n, uint32_t *state,
                                                uint32_t *partial, uint16_t *dst, size_t cap,
                                                size_t *written)
{
    return fast_dec_engine(
        (struct fast_dec_ops){fast_utf8(), true, FAST_ASCII_NONE, fast_dec_block_branchy, 1, NULL},
        (struct fast_call){src, n, state, partial, dst, cap, written, NULL});
}

FAST_TARGET_BMI2 static size_t dec_b_free_32(const uint8_t *src, size_t n, uint32_t *state,
                                             uint32_t *partial, uint32_t *dst, size_t cap,
                                             size_t *written)
{
    return fast_dec_engine(
        (struct fast_dec_ops){fast_utf8(), false, FAST_ASCII_NONE, fast_dec_block, 1, NULL},
        (struct fast_call){src, n, state, partial, dst, cap, written, NULL});
}

FAST_TARGET_BMI2 static size_t dec_b_free_16(const uint8_t *src, size_t n, uint32_t *state,
                                             uint32_t *partial, uint16_t *dst, size_t cap,
                                             size_t *written)
{
    return fast_dec_engine((struct fast_dec_ops){fast_utf8(), true, FAST_ASCII_NONE, fast_dec_block, 1, NULL},
                           (struct fast_call){src, n, state, partial, dst, cap, written, NULL});
}

FAST_TARGET_BMI2 static size_t dec_b_branchy_sse2_32(const uint8_t *src, size_t n,
                                                     uint32_t *state, uint32_t *partial,
                                                     uint32_t *dst, size_t cap, size_t *written)
{
    return fast_dec_engine(
        (struct fast_dec_ops){fast_utf8(), false, FAST_ASCII_SSE2, fast_dec_block_branchy, 1, NULL},
        (struct fast_call){src, n, state, partial, dst, cap, written, NULL});
}

FAST_TARGET_BMI2 static size_t dec_b_branchy_sse2_16(const uint8_t *src, size_t n,
                                                     uint32_t *state, uint32_t *partial,
                                                     uint16_t *dst, size_t cap, size_t *written)
{
    return fast_dec_engine(
        (struct fast_dec_ops){fast_utf8(), true, FAST_ASCII_SSE2, fast_dec_block_branchy, 1, NULL},
        (struct fast_call){src, n, state, partial, dst, cap, written, NULL});
}

FAST_TARGET_BMI2 static size_t dec_b_free_sse2_32(const uint8_t *src, size_t n, uint32_t *state,
                                                  uint32_t *partial, uint32_t *dst, size_t cap,
                                                  size_t *written)
{
    return fast_dec_engine(
        (struct fast_dec_ops){fast_utf8(), false, FAST_ASCII_SSE2, fast_dec_block, 1, NULL},
        (struct fast_call){src, n, state, partial, dst, cap, written, NULL});
}

FAST_TARGET_BMI2 static size_t dec_b_free_sse2_16(const uint8_t *src, size_t n, uint32_t *state,
                                                  uint32_t *partial, uint16_t *dst, size_t cap,
                                                  size_t *written)
{
    return fast_dec_engine((struct fast_dec_ops){fast_utf8(), true, FAST_ASCII_SSE2, fast_dec_block, 1, NULL},
                           (struct fast_call){src, n, state, partial, dst, cap, written, NULL});
}

FAST_TARGET_BMI2 FAST_NOINLINE static bool b_l2_sse2_lanes(const uint8_t *src, size_t n, size_t *pi,
                                                           uint64_t *ps, uint32_t *pcp,
                                                           struct fast_out out, size_t *pw)
{
    return fast_dec_lanes_run((struct fast_lane_ops){fast_utf8(), FAST_ASCII_SSE2, 2}, src, n, pi,
                              ps, pcp, out, pw);
}

FAST_TARGET_BMI2 static size_t dec_b_l2_sse2_32(const uint8_t *src, size_t n, uint32_t *state,
                                                uint32_t *partial, uint32_t *dst, size_t cap,
                                                size_t *written)
{
    return fast_dec_engine(
        (struct fast_dec_ops){fast_utf8(), false, FAST_ASCII_SSE2, fast_dec_block, 2, b_l2_sse2_lanes},
        (struct fast_call){src, n, state, partial, dst, cap, written, NULL});
}

FAST_TARGET_BMI2 static size_t dec_b_l2_sse2_16(const uint8_t *src, size_t n, uint32_t *state,
                                                uint32_t *partial, uint16_t *dst, size_t cap,
                                                size_t *written)
{
    return fast_dec_engine(
        (struct fast_dec_ops){fast_utf8(), true, FAST_ASCII_SSE2, fast_dec_block, 2, b_l2_sse2_lanes},
        (struct fast_call){src, n, state, partial, dst, cap, written, NULL});
}

FAST_TARGET_BMI2 FAST_NOINLINE static void rep_b_sse2_run(const uint8_t *src, size_t n, size_t *pi,
                                                          uint64_t *ps, uint32_t *pcp,
                                                          struct fast_out out, size_t *perr)
{
    fast_rep_run(fast_utf8(), src, n, pi, ps, pcp, out, perr);
}

FAST_TARGET_BMI2 static size_t rep_b_sse2(const uint8_t *src, size_t n, uint32_t *state,
                                          uint32_t *partial, uint32_t *dst, size_t cap,
                                          size_t *written, size_t *errors)
{
    return fast_rep_engine((struct fast_rep_ops){fast_utf8(), FAST_ASCII_SSE2, rep_b_sse2_run},
                           (struct fast_call){src, n, state, partial, dst, cap, written, errors});
}

/* ---------------------------------------------------------- AVX2 and BMI2 */
FAST_TARGET_AVX2 static size_t scan_b_avx2_l2(const uint8_t *src, size_t n, uint32_t *state)
{
    return fast_scan_engine(fast_utf8(), src, n, state, FAST_ASCII_AVX2, 2);
}

FAST_TARGET_AVX2 static size_t scan_b_avx2_l4(const uint8_t *src, size_t n, uint32_t *state)
{
    return fast_scan_engine(fast_utf8(), src, n, state, FAST_ASCII_AVX2, 4);
}

FAST_TARGET_AVX2 static size_t dec_b_free_avx2_32(const uint8_t *src, size_t n, uint32_t *state,
                                                  uint32_t *partial, uint32_t *dst, size_t cap,
                                                  size_t *written)
{
    return fast_dec_engine(
        (struct fast_dec_ops){fast_utf8(), false, FAST_ASCII_AVX2, fast_dec_block, 1, NULL},
        (struct fast_call){src, n, state, partial, dst, cap, written, NULL});
}

FAST_TARGET_AVX2 static size_t dec_b_free_avx2_16(const uint8_t *src, size_t n, uint32_t *state,
                                                  uint32_t *partial, uint16_t *dst, size_t cap,
                                                  size_t *written)
{
    return fast_dec_engine((struct fast_dec_ops){fast_utf8(), true, FAST_ASCII_AVX2, fast_dec_block, 1, NULL},
                           (struct fast_call){src, n, state, partial, dst, cap, written, NULL});
}

FAST_TARGET_AVX2 FAST_NOINLINE static bool b_l2_avx2_lanes(const uint8_t *src, size_t n, size_t *pi,
                                                           uint64_t *ps, uint32_t *pcp,
                                                           struct fast_out out, size_t *pw)
{
    return fast_dec_lanes_run((struct fast_lane_ops){fast_utf8(), FAST_ASCII_AVX2, 2}, src, n, pi,
                              ps, pcp, out, pw);
}

FAST_TARGET_AVX2 static size_t dec_b_l2_avx2_32(const uint8_t *src, size_t n, uint32_t *state,
                                                uint32_t *partial, uint32_t *dst, size_t cap,
                                                size_t *written)
{
    return fast_dec_engine(
        (struct fast_dec_ops){fast_utf8(), false, FAST_ASCII_AVX2, fast_dec_block, 2, b_l2_avx2_lanes},
        (struct fast_call){src, n, state, partial, dst, cap, written, NULL});
}

FAST_TARGET_AVX2 static size_t dec_b_l2_avx2_16(const uint8_t *src, size_t n, uint32_t *state,
                                                uint32_t *partial, uint16_t *dst, size_t cap,
                                                size_t *written)
{
    return fast_dec_engine(
        (struct fast_dec_ops){fast_utf8(), true, FAST_ASCII_AVX2, fast_dec_block, 2, b_l2_avx2_lanes},
        (struct fast_call){src, n, state, partial, dst, cap, written, NULL});
}

FAST_TARGET_AVX2 FAST_NOINLINE static bool b_l3_avx2_lanes(const uint8_t *src, size_t n, size_t *pi,
                                                           uint64_t *ps, uint32_t *pcp,
                                                           struct fast_out out, size_t *pw)
{
    return fast_dec_lanes_run((struct fast_lane_ops){fast_utf8(), FAST_ASCII_AVX2, 3}, src, n, pi,
                              ps, pcp, out, pw);
}

FAST_TARGET_AVX2 static size_t dec_b_l3_avx2_32(const uint8_t *src, size_t n, uint32_t *state,
                                                uint32_t *partial, uint32_t *dst, size_t cap,
                                                size_t *written)
{
    return fast_dec_engine(
        (struct fast_dec_ops){fast_utf8(), false, FAST_ASCII_AVX2, fast_dec_block, 3, b_l3_avx2_lanes},
        (struct fast_call){src, n, state, partial, dst, cap, written, NULL});
}

FAST_TARGET_AVX2 static size_t dec_b_l3_avx2_16(const uint8_t *src, size_t n, uint32_t *state,
                                                uint32_t *partial, uint16_t *dst, size_t cap,
                                                size_t *written)
{
    return fast_dec_engine(
        (struct fast_dec_ops){fast_utf8(), true, FAST_ASCII_AVX2, fast_dec_block, 3, b_l3_avx2_lanes},
        (struct fast_call){src, n, state, partial, dst, cap, written, NULL});
}
#endif

/* ---------------------------------------------------------- the list */
#define V_SCAN(label, f) {label, f, NULL, NULL, NULL}
#define V_DEC(label, f32, f16) {label, NULL, f32, f16, NULL}
#define V_REP(label, f) {label, NULL, NULL, NULL, f}
const struct utfdfa__fast_variant utfdfa__utf8_fast_variants[] = {
    {"default", utfdfa__utf8_scan, utfdfa__utf8_decode32, utfdfa__utf8_decode16,
     utfdfa__utf8_decode32_replace},
    V_SCAN("dfa", scan_dfa),
    V_SCAN("dfa+ascii-word", scan_word),
    V_SCAN("dfa+ascii-word+2lanes", scan_word_l2),
    V_SCAN("dfa+ascii-word+4lanes", scan_word_l4),
    V_DEC("branchy", dec_branchy_32, dec_branchy_16),
    V_DEC("branchfree", dec_free_32, dec_free_16),
    V_DEC("branchfree+ascii-word", dec_free_word_32, dec_free_word_16),
    V_DEC("branchfree+ascii-word+2lanes", dec_l2_word_32, dec_l2_word_16),
    V_REP("replace+ascii-word", rep_word),
#if FAST_X86
    V_REP("replace+ascii-sse2", utfdfa__utf8_rep_sse2),
    V_REP("bmi2:replace+ascii-sse2", rep_b_sse2),
    V_SCAN("dfa+ascii-sse2+4lanes", utfdfa__utf8_scan_sse2_l4),
    V_DEC("branchfree+ascii-sse2", utfdfa__utf8_dec_free_sse2_32, utfdfa__utf8_dec_free_sse2_16),
    V_SCAN("bmi2:dfa", scan_b_dfa),
    V_SCAN("bmi2:dfa+ascii-sse2", scan_b_sse2),
    V_SCAN("bmi2:dfa+ascii-sse2+2lanes", scan_b_sse2_l2),
    V_SCAN("bmi2:dfa+ascii-sse2+3lanes", scan_b_sse2_l3),
    V_SCAN("bmi2:dfa+ascii-sse2+4lanes", scan_b_sse2_l4),
    V_SCAN("bmi2:dfa+ascii-avx2+2lanes", scan_b_avx2_l2),
    V_SCAN("bmi2:dfa+ascii-avx2+4lanes", scan_b_avx2_l4),
    V_DEC("bmi2:branchy", dec_b_branchy_32, dec_b_branchy_16),
    V_DEC("bmi2:branchfree", dec_b_free_32, dec_b_free_16),
    V_DEC("bmi2:branchy+ascii-sse2", dec_b_branchy_sse2_32, dec_b_branchy_sse2_16),
    V_DEC("bmi2:branchfree+ascii-sse2", dec_b_free_sse2_32, dec_b_free_sse2_16),
    V_DEC("bmi2:branchfree+ascii-avx2", dec_b_free_avx2_32, dec_b_free_avx2_16),
    V_DEC("bmi2:branchfree+ascii-sse2+2lanes", dec_b_l2_sse2_32, dec_b_l2_sse2_16),
    V_DEC("bmi2:branchfree+ascii-avx2+2lanes", dec_b_l2_avx2_32, dec_b_l2_avx2_16),
    V_DEC("bmi2:branchfree+ascii-avx2+3lanes", dec_b_l3_avx2_32, dec_b_l3_avx2_16),
    V_DEC("sse4:slabs", utfdfa__utf8_dec_sse4_32, utfdfa__utf8_dec_sse4_16),
    V_REP("sse4:slabs+replace", utfdfa__utf8_rep_sse4),
    V_DEC("avx2:slabs", utfdfa__utf8_dec_avx2_32, utfdfa__utf8_dec_avx2_16),
    V_REP("avx2:slabs+replace", utfdfa__utf8_rep_avx2),
    V_REP("avx2:tokens+replace", utfdfa__utf8_rep_tok_avx2),
    V_DEC("vbmi:slabs", utfdfa__utf8_dec_vbmi_32, utfdfa__utf8_dec_vbmi_16),
    V_REP("vbmi:slabs+replace", utfdfa__utf8_rep_vbmi),
#endif
    {NULL, NULL, NULL, NULL, NULL},
};

int utfdfa__fast_variant_runs(const char *name)
{
    static const struct {
        const char *prefix, *level;
    } needs[] = {{"sse4:", "sse4"}, {"bmi2:", "avx2"}, {"avx2:", "avx2"}, {"vbmi:", "avx512vbmi"}};
    for (size_t i = 0; i < sizeof needs / sizeof *needs; i++)
        if (strncmp(name, needs[i].prefix, strlen(needs[i].prefix)) == 0)
            return utfdfa__fast_has(needs[i].level);
    return 1; /* portable: plain C, and SSE2 on x86-64 (its baseline) */
}
