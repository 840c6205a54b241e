/* SPDX-License-Identifier: MIT */
/* The peers measured by `make bench`, each compiled in when tests/bench/run.sh
 * found it (HAVE_ICU, HAVE_UNISTRING, HAVE_GLIB, HAVE_UTF8PROC,
 * HAVE_SIMDJSON; glibc iconv is always there; its UTF-7 module and ICU's
 * UTF-7 converter are measured when they open). Every engine does the whole
 * operation on the whole corpus into a preallocated buffer: no allocation
 * is timed. Outputs are native-endian units (x86-64: little-endian).
 */
#define _GNU_SOURCE 1 /* gnu_get_libc_version */
#include <errno.h>
#include <gnu/libc-version.h>
#include <iconv.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"

static size_t n_added;
static struct engine *list;
static size_t list_max;

static void add_flags(const char *name, enum op op, enum out out, enum role role, run_fn run,
                      unsigned flags)
{
    if (n_added < list_max)
        list[n_added++] = (struct engine){name, op, out, role, run, NULL, flags};
}

static void add(const char *name, enum op op, enum out out, enum role role, run_fn run)
{
    add_flags(name, op, out, role, run, 0);
}

/* ------------------------------------------------------------ glibc iconv */
static iconv_t cd_u32, cd_u16, cd_enc, cd_u7dec, cd_u7enc;

/* One iconv over the whole buffer; RUN_FAILED on any error. */
static size_t iconv_all(iconv_t cd, const void *src, size_t n, void *dst, size_t cap_bytes)
{
    iconv(cd, NULL, NULL, NULL, NULL);
    char *in = (char *)(uintptr_t)src, *out = dst;
    size_t inl = n, outl = cap_bytes;
    if (iconv(cd, &in, &inl, &out, &outl) == (size_t)-1 || inl)
        return RUN_FAILED;
    return cap_bytes - outl;
}

static size_t iconv_dec32(const struct job *j)
{
    size_t r = iconv_all(cd_u32, j->src, j->n, j->dst, j->cap * 4);
    return r == RUN_FAILED ? r : r / 4;
}

static size_t iconv_dec16(const struct job *j)
{
    size_t r = iconv_all(cd_u16, j->src, j->n, j->dst, j->cap * 2);
    return r == RUN_FAILED ? r : r / 2;
}

static size_t iconv_encode(const struct job *j)
{
    return iconv_all(cd_enc, j->cps, j->ncps * 4, j->dst, j->cap);
}

/* UTF-7 <-> UTF-32LE (glibc's "UTF-7" module). */
static size_t iconv_utf7dec(const struct job *j)
{
    size_t r = iconv_all(cd_u7dec, j->src, j->n, j->dst, j->cap * 4);
    return r == RUN_FAILED ? r : r / 4;
}

/* UTF-7 is stateful: the last base64 bits and the "-" that closes a run
 * come with the flush (iconv with a null input). */
static size_t iconv_utf7enc(const struct job *j)
{
    iconv(cd_u7enc, NULL, NULL, NULL, NULL);
    char *in = (char *)(uintptr_t)j->cps, *out = j->dst;
    size_t inl = j->ncps * 4, outl = j->cap;
    if (iconv(cd_u7enc, &in, &inl, &out, &outl) == (size_t)-1 || inl ||
        iconv(cd_u7enc, NULL, NULL, &out, &outl) == (size_t)-1)
        return RUN_FAILED;
    return j->cap - outl;
}

/* Streaming: the input arrives in chunks; a character cut by a chunk's end
 * (EINVAL) is presented again with the next chunk, as a caller's carry
 * buffer would. */
static size_t iconv_stream(const struct job *j)
{
    iconv(cd_u32, NULL, NULL, NULL, NULL);
    char *in = (char *)(uintptr_t)j->src, *out = j->dst;
    size_t outl = j->cap * 4, end = 0;
    while (end < j->n) {
        end = end + j->chunk < j->n ? end + j->chunk : j->n;
        size_t inl = (size_t)(j->src + end - (const uint8_t *)in);
        if (iconv(cd_u32, &in, &inl, &out, &outl) == (size_t)-1 && errno != EINVAL)
            return RUN_FAILED;
    }
    if ((const uint8_t *)in != j->src + j->n)
        return RUN_FAILED;
    return (j->cap * 4 - outl) / 4;
}

/* ------------------------------------------------------------------- ICU */
int base_lib_open(void); /* base_lib.c: BENCH_BASE_SO */
size_t base_utf7dec(const struct job *j);
size_t base_utf8dec(const struct job *j);
size_t base_utf8rep(const struct job *j);
size_t base_encode(const struct job *j);
#ifdef HAVE_PYTHON /* python_peer.c */
int py_peer_open(void);
size_t py_utf7dec(const struct job *j);
#endif

#ifdef HAVE_ICU
#include <unicode/ucnv.h>
#include <unicode/ustring.h>
#include <unicode/uversion.h>

static UConverter *icu_strict, *icu_sub, *icu_stream_src, *icu_stream_dst, *icu_enc, *icu_utf7;

static size_t icu_validate(const struct job *j)
{
    UErrorCode e = U_ZERO_ERROR;
    int32_t len = 0;
    u_strFromUTF8(NULL, 0, &len, (const char *)j->src, (int32_t)j->n, &e); /* preflight */
    return e == U_BUFFER_OVERFLOW_ERROR || U_SUCCESS(e);
}

static size_t icu_from_utf8(const struct job *j)
{
    UErrorCode e = U_ZERO_ERROR;
    int32_t len = 0;
    u_strFromUTF8(j->dst, (int32_t)j->cap, &len, (const char *)j->src, (int32_t)j->n, &e);
    return U_FAILURE(e) ? RUN_FAILED : (size_t)len;
}

static size_t icu_to_uchars(const struct job *j)
{
    UErrorCode e = U_ZERO_ERROR;
    int32_t len = ucnv_toUChars(icu_strict, j->dst, (int32_t)j->cap, (const char *)j->src,
                                (int32_t)j->n, &e);
    return U_FAILURE(e) ? RUN_FAILED : (size_t)len;
}

static size_t icu_to_utf32(UConverter *cnv, const struct job *j)
{
    UErrorCode e = U_ZERO_ERROR;
    ucnv_reset(cnv);
    int32_t len = ucnv_toAlgorithmic(UCNV_UTF32_LittleEndian, cnv, j->dst, (int32_t)(j->cap * 4),
                                     (const char *)j->src, (int32_t)j->n, &e);
    return U_FAILURE(e) ? RUN_FAILED : (size_t)len / 4;
}

static size_t icu_dec32(const struct job *j)
{
    return icu_to_utf32(icu_strict, j);
}

static size_t icu_replace32(const struct job *j)
{
    return icu_to_utf32(icu_sub, j);
}

static size_t icu_replace16(const struct job *j)
{
    UErrorCode e = U_ZERO_ERROR;
    int32_t len = 0, subs = 0;
    u_strFromUTF8WithSub(j->dst, (int32_t)j->cap, &len, (const char *)j->src, (int32_t)j->n,
                         0xFFFD, &subs, &e);
    return U_FAILURE(e) ? RUN_FAILED : (size_t)len;
}

/* Streaming UTF-8 -> UTF-32LE through ICU's pivot, chunk by chunk. */
static size_t icu_stream(const struct job *j)
{
    UChar pivot[1024], *psrc = pivot, *ptgt = pivot;
    char *out = j->dst;
    const char *limit = out + j->cap * 4;
    const char *in = (const char *)j->src;
    size_t pos = 0;
    bool first = true;
    while (pos < j->n) {
        size_t end = pos + j->chunk < j->n ? pos + j->chunk : j->n;
        const char *in_end = (const char *)j->src + end;
        UErrorCode e = U_ZERO_ERROR;
        ucnv_convertEx(icu_stream_dst, icu_stream_src, &out, limit, &in, in_end, pivot, &psrc,
                       &ptgt, pivot + 1024, first, end == j->n, &e);
        if (U_FAILURE(e))
            return RUN_FAILED;
        first = false;
        pos = end;
    }
    return (size_t)(out - (char *)j->dst) / 4;
}

static size_t icu_encode(const struct job *j)
{
    UErrorCode e = U_ZERO_ERROR;
    ucnv_reset(icu_enc);
    int32_t len = ucnv_fromAlgorithmic(icu_enc, UCNV_UTF32_LittleEndian, j->dst, (int32_t)j->cap,
                                       (const char *)j->cps, (int32_t)(j->ncps * 4), &e);
    return U_FAILURE(e) ? RUN_FAILED : (size_t)len;
}

/* ICU's "UTF-7" converter (callbacks STOP: strict), to and from UTF-32LE
 * and UTF-16. */
static size_t icu_utf7dec32(const struct job *j)
{
    return icu_to_utf32(icu_utf7, j);
}

static size_t icu_utf7dec16(const struct job *j)
{
    UErrorCode e = U_ZERO_ERROR;
    int32_t len = ucnv_toUChars(icu_utf7, j->dst, (int32_t)j->cap, (const char *)j->src,
                                (int32_t)j->n, &e); /* resets the converter */
    return U_FAILURE(e) ? RUN_FAILED : (size_t)len;
}

static size_t icu_utf7enc(const struct job *j)
{
    UErrorCode e = U_ZERO_ERROR;
    ucnv_reset(icu_utf7);
    int32_t len = ucnv_fromAlgorithmic(icu_utf7, UCNV_UTF32_LittleEndian, j->dst, (int32_t)j->cap,
                                       (const char *)j->cps, (int32_t)(j->ncps * 4), &e);
    return U_FAILURE(e) ? RUN_FAILED : (size_t)len;
}

static bool icu_open(void)
{
    UErrorCode e = U_ZERO_ERROR;
    icu_strict = ucnv_open("UTF-8", &e);
    icu_sub = ucnv_open("UTF-8", &e);
    icu_stream_src = ucnv_open("UTF-8", &e);
    icu_stream_dst = ucnv_open("UTF-32LE", &e);
    icu_enc = ucnv_open("UTF-8", &e);
    if (U_FAILURE(e))
        return false;
    UErrorCode e7 = U_ZERO_ERROR;
    icu_utf7 = ucnv_open("UTF-7", &e7);
    if (U_SUCCESS(e7)) {
        ucnv_setToUCallBack(icu_utf7, UCNV_TO_U_CALLBACK_STOP, NULL, NULL, NULL, &e7);
        ucnv_setFromUCallBack(icu_utf7, UCNV_FROM_U_CALLBACK_STOP, NULL, NULL, NULL, &e7);
    }
    if (U_FAILURE(e7) && icu_utf7) {
        ucnv_close(icu_utf7);
        icu_utf7 = NULL;
    }
    ucnv_setToUCallBack(icu_strict, UCNV_TO_U_CALLBACK_STOP, NULL, NULL, NULL, &e);
    ucnv_setToUCallBack(icu_stream_src, UCNV_TO_U_CALLBACK_STOP, NULL, NULL, NULL, &e);
    return U_SUCCESS(e);
}
#endif

/* ---------------------------------------------------------- libunistring */
#ifdef HAVE_UNISTRING
#include <unistr.h>
#include <unistring/version.h>

static size_t us_check(const struct job *j)
{
    return u8_check(j->src, j->n) == NULL;
}

static size_t us_to_u32(const struct job *j)
{
    size_t len = j->cap;
    uint32_t *r = u8_to_u32(j->src, j->n, j->dst, &len);
    return r == j->dst ? len : RUN_FAILED; /* another pointer: it allocated */
}

static size_t us_to_u16(const struct job *j)
{
    size_t len = j->cap;
    uint16_t *r = u8_to_u16(j->src, j->n, j->dst, &len);
    return r == j->dst ? len : RUN_FAILED;
}

static size_t us_encode(const struct job *j)
{
    size_t len = j->cap;
    uint8_t *r = u32_to_u8(j->cps, j->ncps, j->dst, &len);
    return r == j->dst ? len : RUN_FAILED;
}

/* u8_mbtouc stores U+FFFD for an ill-formed start and returns how many
 * bytes it covers: not one per maximal subpart (it disagrees with Unicode
 * 3.9 on the random bytes), so it is measured on valid corpora only. */
static size_t us_replace(const struct job *j)
{
    uint32_t *d = j->dst;
    size_t i = 0, o = 0;
    while (i < j->n) {
        ucs4_t uc;
        i += (size_t)u8_mbtouc(&uc, j->src + i, j->n - i);
        d[o++] = uc;
    }
    return o;
}
#endif

/* ------------------------------------------------------------------ GLib */
#ifdef HAVE_GLIB
#include <glib.h>

static size_t glib_validate(const struct job *j)
{
    return g_utf8_validate_len((const gchar *)j->src, j->n, NULL);
}
#endif

/* -------------------------------------------------------------- utf8proc */
#ifdef HAVE_UTF8PROC
#include <utf8proc.h>

static size_t u8p_validate(const struct job *j)
{
    size_t i = 0;
    while (i < j->n) {
        utf8proc_int32_t cp;
        utf8proc_ssize_t k = utf8proc_iterate(j->src + i, (utf8proc_ssize_t)(j->n - i), &cp);
        if (k < 0)
            return 0;
        i += (size_t)k;
    }
    return 1;
}

static size_t u8p_dec32(const struct job *j)
{
    uint32_t *d = j->dst;
    size_t i = 0, o = 0;
    while (i < j->n) {
        utf8proc_int32_t cp;
        utf8proc_ssize_t k = utf8proc_iterate(j->src + i, (utf8proc_ssize_t)(j->n - i), &cp);
        if (k < 0)
            return RUN_FAILED;
        d[o++] = (uint32_t)cp;
        i += (size_t)k;
    }
    return o;
}

static size_t u8p_encode(const struct job *j)
{
    uint8_t *d = j->dst;
    size_t o = 0;
    for (size_t i = 0; i < j->ncps; i++)
        o += (size_t)utf8proc_encode_char((utf8proc_int32_t)j->cps[i], d + o);
    return o;
}
#endif

/* -------------------------------------------------------------- simdjson */
#ifdef HAVE_SIMDJSON
int simdjson_shim_validate(const char *buf, size_t len);
const char *simdjson_shim_describe(void);

static size_t sj_validate(const struct job *j)
{
    return (size_t)simdjson_shim_validate((const char *)j->src, j->n);
}
#endif

size_t peers_register(struct engine *e, size_t max)
{
    list = e;
    list_max = max;
    n_added = 0;
    cd_u32 = iconv_open("UTF-32LE", "UTF-8");
    cd_u16 = iconv_open("UTF-16LE", "UTF-8");
    cd_enc = iconv_open("UTF-8", "UTF-32LE");
    if (cd_u32 != (iconv_t)-1 && cd_u16 != (iconv_t)-1 && cd_enc != (iconv_t)-1) {
        add("iconv (glibc)", OP_DEC32, OUT_U32, ROLE_PEER, iconv_dec32);
        add("iconv (glibc)", OP_DEC16, OUT_U16, ROLE_PEER, iconv_dec16);
        add("iconv (glibc)", OP_STREAM4K, OUT_U32, ROLE_PEER, iconv_stream);
        add("iconv (glibc)", OP_STREAM64, OUT_U32, ROLE_PEER, iconv_stream);
        add("iconv (glibc)", OP_ENCODE, OUT_BYTES, ROLE_PEER, iconv_encode);
    }
    cd_u7dec = iconv_open("UTF-32LE", "UTF-7");
    cd_u7enc = iconv_open("UTF-7", "UTF-32LE");
    if (cd_u7dec != (iconv_t)-1 && cd_u7enc != (iconv_t)-1) {
        add("iconv (glibc)", OP_UTF7DEC, OUT_U32, ROLE_PEER, iconv_utf7dec);
        add("iconv (glibc)", OP_UTF7ENC, OUT_BYTES, ROLE_PEER, iconv_utf7enc);
    }
    if (base_lib_open()) {
        add("utfdfa (BENCH_BASE_SO)", OP_UTF7DEC, OUT_U32, ROLE_BASELINE, base_utf7dec);
        add("utfdfa (BENCH_BASE_SO)", OP_DEC32, OUT_U32, ROLE_BASELINE, base_utf8dec);
        add("utfdfa (BENCH_BASE_SO)", OP_REPLACE, OUT_U32, ROLE_BASELINE, base_utf8rep);
        add("utfdfa (BENCH_BASE_SO)", OP_STREAM4K, OUT_U32, ROLE_BASELINE, base_utf8dec);
        add("utfdfa (BENCH_BASE_SO)", OP_STREAM64, OUT_U32, ROLE_BASELINE, base_utf8dec);
        add("utfdfa (BENCH_BASE_SO)", OP_ENCODE, OUT_BYTES, ROLE_BASELINE, base_encode);
    }
#ifdef HAVE_PYTHON
    if (py_peer_open())
        add("CPython utf_7", OP_UTF7DEC, OUT_U32, ROLE_PEER, py_utf7dec);
#endif
#ifdef HAVE_ICU
    if (icu_open()) {
        add("ICU u_strFromUTF8 (preflight)", OP_VALIDATE, OUT_VERDICT, ROLE_PEER, icu_validate);
        add("ICU ucnv_toAlgorithmic", OP_DEC32, OUT_U32, ROLE_PEER, icu_dec32);
        add("ICU u_strFromUTF8", OP_DEC16, OUT_U16, ROLE_PEER, icu_from_utf8);
        add("ICU ucnv_toUChars", OP_DEC16, OUT_U16, ROLE_PEER, icu_to_uchars);
        add("ICU u_strFromUTF8WithSub", OP_REPLACE, OUT_U16, ROLE_PEER, icu_replace16);
        add("ICU ucnv_toAlgorithmic", OP_REPLACE, OUT_U32, ROLE_PEER, icu_replace32);
        add("ICU ucnv_convertEx", OP_STREAM4K, OUT_U32, ROLE_PEER, icu_stream);
        add("ICU ucnv_convertEx", OP_STREAM64, OUT_U32, ROLE_PEER, icu_stream);
        add("ICU ucnv_fromAlgorithmic", OP_ENCODE, OUT_BYTES, ROLE_PEER, icu_encode);
        if (icu_utf7) {
            add("ICU ucnv_toAlgorithmic", OP_UTF7DEC, OUT_U32, ROLE_PEER, icu_utf7dec32);
            add("ICU ucnv_toUChars", OP_UTF7DEC, OUT_U16, ROLE_PEER, icu_utf7dec16);
            add("ICU ucnv_fromAlgorithmic", OP_UTF7ENC, OUT_BYTES, ROLE_PEER, icu_utf7enc);
        }
    }
#endif
#ifdef HAVE_UNISTRING
    add("libunistring u8_check", OP_VALIDATE, OUT_VERDICT, ROLE_PEER, us_check);
    add("libunistring u8_to_u32", OP_DEC32, OUT_U32, ROLE_PEER, us_to_u32);
    add("libunistring u8_to_u16", OP_DEC16, OUT_U16, ROLE_PEER, us_to_u16);
    add_flags("libunistring u8_mbtouc", OP_REPLACE, OUT_U32, ROLE_PEER, us_replace,
              ENGINE_VALID_ONLY);
    add("libunistring u32_to_u8", OP_ENCODE, OUT_BYTES, ROLE_PEER, us_encode);
#endif
#ifdef HAVE_GLIB
    add("GLib g_utf8_validate_len", OP_VALIDATE, OUT_VERDICT, ROLE_PEER, glib_validate);
#endif
#ifdef HAVE_UTF8PROC
    add("utf8proc_iterate", OP_VALIDATE, OUT_VERDICT, ROLE_PEER, u8p_validate);
    add("utf8proc_iterate", OP_DEC32, OUT_U32, ROLE_PEER, u8p_dec32);
    add("utf8proc_encode_char", OP_ENCODE, OUT_BYTES, ROLE_PEER, u8p_encode);
#endif
#ifdef HAVE_SIMDJSON
    add("simdjson validate_utf8 (SIMD)", OP_VALIDATE, OUT_VERDICT, ROLE_PEER_SIMD, sj_validate);
#endif
    return n_added;
}

void peers_describe(void)
{
    printf("- glibc iconv: glibc %s\n", gnu_get_libc_version());
#ifdef HAVE_ICU
    printf("- ICU: %s\n", U_ICU_VERSION);
#else
    printf("- ICU: absent (apt-get install libicu-dev)\n");
#endif
#ifdef HAVE_UNISTRING
    printf("- libunistring: %d.%d.%d\n", _libunistring_version >> 16,
           (_libunistring_version >> 8) & 0xFF, _libunistring_version & 0xFF);
#else
    printf("- libunistring: absent (apt-get install libunistring-dev)\n");
#endif
#ifdef HAVE_GLIB
    printf("- GLib: %u.%u.%u\n", glib_major_version, glib_minor_version, glib_micro_version);
#else
    printf("- GLib: absent (apt-get install libglib2.0-dev)\n");
#endif
#ifdef HAVE_UTF8PROC
    printf("- utf8proc: %s\n", utf8proc_version());
#else
    printf("- utf8proc: absent (apt-get install libutf8proc-dev)\n");
#endif
#ifdef HAVE_SIMDJSON
    printf("- simdjson: %s\n", simdjson_shim_describe());
#else
    printf("- simdjson: absent (apt-get install libsimdjson-dev)\n");
#endif
}
