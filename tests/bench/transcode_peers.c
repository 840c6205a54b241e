/* SPDX-License-Identifier: MIT */
/* The transcoding matrix's peers: glibc iconv (in-process iconv_open/iconv)
 * and ICU's ucnv_convertEx (when tests/bench/run.sh found it: HAVE_ICU), on
 * every pair among UTF-8, UTF-16LE and UTF-32LE. Descriptors and converters
 * are opened once, outside timing; a timed call only resets and converts
 * the whole buffer. Strict: on an error the call reports RUN_FAILED. */
#include <iconv.h>
#include <stdint.h>

#include "bench.h"

static const char *const names[TC_NENC] = {"UTF-8", "UTF-16LE", "UTF-32LE"};

/* ------------------------------------------------------------ glibc iconv */
static iconv_t cds[TC_NENC][TC_NENC];

static size_t iconv_pair(const struct tc_call *c)
{
    iconv_t cd = cds[c->from][c->to];
    iconv(cd, NULL, NULL, NULL, NULL);
    char *in = (char *)(uintptr_t)c->src, *out = (char *)c->dst;
    size_t inl = c->n, outl = c->cap;
    if (iconv(cd, &in, &inl, &out, &outl) == (size_t)-1 || inl)
        return RUN_FAILED;
    return c->cap - outl;
}

/* ------------------------------------------------------------------- ICU */
#ifdef HAVE_ICU
#include <unicode/ucnv.h>

/* One converter per encoding and direction: a pair's source and target
 * are distinct objects even for UTF-8 to UTF-8. */
static UConverter *icu_from[TC_NENC], *icu_to[TC_NENC];

/* The pivot (UTF-16) lives on the stack, 1024 units as ucnv_convert's
 * own; reset and flush: one whole conversion per call. */
static size_t icu_pair(const struct tc_call *c)
{
    UChar pivot[1024], *pivot_src = pivot, *pivot_tgt = pivot;
    char *out = (char *)c->dst;
    const char *in = (const char *)c->src, *in_end = in + c->n;
    UErrorCode e = U_ZERO_ERROR;
    ucnv_convertEx(icu_to[c->to], icu_from[c->from], &out, out + c->cap, &in, in_end, pivot,
                   &pivot_src, &pivot_tgt, pivot + 1024, true, true, &e);
    if (U_FAILURE(e) || in != in_end)
        return RUN_FAILED;
    return (size_t)(out - (char *)c->dst);
}

static UConverter *icu_open_strict(const char *name)
{
    UErrorCode e = U_ZERO_ERROR;
    UConverter *cnv = ucnv_open(name, &e);
    if (U_SUCCESS(e)) {
        ucnv_setToUCallBack(cnv, UCNV_TO_U_CALLBACK_STOP, NULL, NULL, NULL, &e);
        ucnv_setFromUCallBack(cnv, UCNV_FROM_U_CALLBACK_STOP, NULL, NULL, NULL, &e);
    }
    if (U_FAILURE(e) && cnv) {
        ucnv_close(cnv);
        cnv = NULL;
    }
    return cnv;
}
#endif

void tc_peers_open(void)
{
    for (int f = 0; f < TC_NENC; f++) {
        for (int t = 0; t < TC_NENC; t++)
            cds[f][t] = iconv_open(names[t], names[f]);
#ifdef HAVE_ICU
        icu_from[f] = icu_open_strict(names[f]);
        icu_to[f] = icu_open_strict(names[f]);
#endif
    }
}

const char *tc_peer_name(enum tc_peer p)
{
    return p == TC_ICONV ? "iconv (glibc)" : "ICU ucnv_convertEx";
}

tc_run_fn tc_peer_fn(enum tc_peer p, enum tc_enc from, enum tc_enc to, const char **why)
{
    if (p == TC_ICONV) {
        *why = "iconv_open failed";
        return cds[from][to] == (iconv_t)-1 ? NULL : iconv_pair;
    }
#ifdef HAVE_ICU
    *why = "ucnv_open failed";
    return icu_from[from] && icu_to[to] ? icu_pair : NULL;
#else
    *why = "ICU absent (libicu-dev)";
    return NULL;
#endif
}
