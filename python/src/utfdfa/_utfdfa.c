/* SPDX-License-Identifier: MIT */
/* utfdfa._utfdfa: the library's decoders and encoders as CPython functions.
 *
 * The library runs strict; this module does what Python's error handlers
 * ask at each error it reports (strict, replace, ignore and surrogatepass
 * here, any other through codecs.lookup_error), so the exceptions carry the
 * start and end Python's own codecs report. Input is any buffer (bytes,
 * bytearray, memoryview, array), read in place; calls on large inputs run
 * without the GIL. The full C API (not the stable ABI): a str is written in
 * place (PyUnicode_New and its data), which the limited API cannot do.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdlib.h>
#include <string.h>

#include "utfdfa.h"

/* Inputs at least this long are decoded without the GIL. */
#define NOGIL_BYTES ((size_t)1 << 16)

#define UNLOCKED(n, stmt)                                                                     \
    do {                                                                                      \
        if ((n) >= NOGIL_BYTES) {                                                             \
            Py_BEGIN_ALLOW_THREADS stmt;                                                      \
            Py_END_ALLOW_THREADS                                                              \
        } else {                                                                              \
            stmt;                                                                             \
        }                                                                                     \
    } while (0)

static bool is_utf8_family(int enc)
{
    switch (enc) {
    case UTFDFA_UTF8: case UTFDFA_UTF8_RFC2279: case UTFDFA_CORRECTED_UTF8:
    case UTFDFA_CESU8: case UTFDFA_MUTF8: case UTFDFA_WTF8:
        return true;
    default:
        return false;
    }
}

static bool is_utf7(int enc) { return enc == UTFDFA_UTF7 || enc == UTFDFA_UTF7_IMAP; }

static int parse_encoding(PyObject *name, int *enc)
{
    Py_ssize_t len;
    const char *s = PyUnicode_AsUTF8AndSize(name, &len);
    enum utfdfa_encoding e;
    if (!s)
        return -1;
    if (!utfdfa_encoding_from_name(s, (size_t)len, &e)) {
        PyErr_Format(PyExc_LookupError, "unknown encoding: %U", name);
        return -1;
    }
    *enc = (int)e;
    return 0;
}

/* ------------------------------------------------------------ growable buffers */
typedef struct {
    uint32_t *p;
    size_t n, cap;
} cpbuf;

static int cpbuf_reserve(cpbuf *b, size_t more)
{
    if (b->cap - b->n >= more)
        return 0;
    size_t cap = b->cap ? b->cap : 64;
    while (cap - b->n < more)
        cap *= 2;
    uint32_t *p = realloc(b->p, cap * sizeof *p);
    if (!p) {
        PyErr_NoMemory();
        return -1;
    }
    b->p = p;
    b->cap = cap;
    return 0;
}

static int cpbuf_push(cpbuf *b, uint32_t c)
{
    if (cpbuf_reserve(b, 1) < 0)
        return -1;
    b->p[b->n++] = c;
    return 0;
}

typedef struct {
    uint8_t *p;
    size_t n, cap;
} bytebuf;

static int bytebuf_reserve(bytebuf *b, size_t more)
{
    if (b->cap - b->n >= more)
        return 0;
    size_t cap = b->cap ? b->cap : 64;
    while (cap - b->n < more)
        cap *= 2;
    uint8_t *p = realloc(b->p, cap);
    if (!p) {
        PyErr_NoMemory();
        return -1;
    }
    b->p = p;
    b->cap = cap;
    return 0;
}

/* ------------------------------------------------------------ error reasons */
/* Python's own words where its codec has the same encoding, else the
 * library's name for the kind. */
static const char *decode_reason(int enc, const utfdfa_error *err, const uint8_t *s, size_t len,
                                 size_t start)
{
    size_t end = start + err->length;
    uint8_t b = s[start];
    switch (enc) {
    case UTFDFA_UTF8:
        if ((b >= 0x80 && b <= 0xC1) || b >= 0xF5)
            return "invalid start byte";
        return end >= len && err->kind == UTFDFA_ERR_TRUNCATED ? "unexpected end of data"
                                                               : "invalid continuation byte";
    case UTFDFA_UTF16LE: case UTFDFA_UTF16BE: case UTFDFA_UTF16: {
        if (err->kind == UTFDFA_ERR_TRUNCATED)
            return err->length == 1 ? "truncated data" : "unexpected end of data";
        if (err->kind == UTFDFA_ERR_SURROGATE && start + 1 < len) {
            bool be = enc == UTFDFA_UTF16BE;
            uint8_t hi = be ? s[start] : s[start + 1];
            return hi >= 0xDC ? "illegal encoding" : "illegal UTF-16 surrogate";
        }
        break;
    }
    case UTFDFA_UTF32LE: case UTFDFA_UTF32BE: case UTFDFA_UTF32:
        if (err->kind == UTFDFA_ERR_TRUNCATED)
            return "truncated data";
        if (err->kind == UTFDFA_ERR_SURROGATE)
            return "code point in surrogate code point range(0xd800, 0xe000)";
        if (err->kind == UTFDFA_ERR_TOO_LARGE)
            return "code point not in range(0x110000)";
        break;
    default:
        break;
    }
    return utfdfa_error_name(err->kind);
}

/* ------------------------------------------------------------ decoding */
typedef struct {
    int enc;
    const char *codec;    /* the name the exception carries */
    const char *errors;
    PyObject *source;     /* the object decoded (for the exception) */
    const uint8_t *s;
    size_t len;
    bool final;
    PyObject *exc;        /* made at the first error, reused */
    PyObject *handler;    /* codecs.lookup_error(errors), when needed */
    int order;            /* the encoding read at the error: UTF-16's decided LE or BE */
} decode_job;

static void decoder_start(utfdfa_decoder *d, int enc)
{
    utfdfa_decoder_init(d, (enum utfdfa_encoding)enc, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    /* A str holds U+0000..U+10FFFF, surrogates included. */
    utfdfa_decoder_set_target(d, UTFDFA_WTF8);
}

static int make_decode_exc(decode_job *j, size_t start, size_t end, const char *reason)
{
    if (!j->exc) {
        j->exc = PyUnicodeDecodeError_Create(j->codec, (const char *)j->s, (Py_ssize_t)j->len,
                                             (Py_ssize_t)start, (Py_ssize_t)end, reason);
        return j->exc ? 0 : -1;
    }
    PyObject *r = PyUnicode_FromString(reason);
    if (!r)
        return -1;
    int bad = PyObject_SetAttrString(j->exc, "reason", r);
    Py_DECREF(r);
    if (bad || PyUnicodeDecodeError_SetStart(j->exc, (Py_ssize_t)start) ||
        PyUnicodeDecodeError_SetEnd(j->exc, (Py_ssize_t)end))
        return -1;
    return 0;
}

static void raise_exc(PyObject *exc)
{
    PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
}

/* The surrogate whose encoding starts at s[start], for surrogatepass;
 * 0 when there is none (need: its whole encoding's length, or more bytes
 * are needed than there are). */
static uint32_t surrogate_at(int enc, const uint8_t *s, size_t len, size_t start, size_t *size)
{
    const uint8_t *p = s + start;
    size_t left = len - start;
    uint32_t c = 0;
    if (is_utf8_family(enc)) {
        *size = 3;
        if (left >= 3 && p[0] == 0xED && (p[1] & 0xE0) == 0xA0 && (p[2] & 0xC0) == 0x80)
            c = 0xD000 | (uint32_t)(p[1] & 0x3F) << 6 | (p[2] & 0x3F);
    } else if (enc == UTFDFA_UTF16LE || enc == UTFDFA_UTF16BE) {
        *size = 2;
        if (left >= 2)
            c = enc == UTFDFA_UTF16LE ? (uint32_t)p[1] << 8 | p[0] : (uint32_t)p[0] << 8 | p[1];
    } else if (enc == UTFDFA_UTF32LE || enc == UTFDFA_UTF32BE) {
        *size = 4;
        if (left >= 4)
            c = enc == UTFDFA_UTF32LE
                    ? (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0]
                    : (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
    } else {
        *size = 0;
    }
    return c >= 0xD800 && c <= 0xDFFF ? c : 0;
}

/* Whether s[start..len) is the start of a surrogate's UTF-8 form: a
 * non-final surrogatepass decoder waits for the rest. */
static bool surrogate_prefix(int enc, const uint8_t *s, size_t len, size_t start)
{
    if (!is_utf8_family(enc) || len - start >= 3)
        return false;
    return s[start] == 0xED && (len - start == 1 || (s[start + 1] & 0xE0) == 0xA0);
}

/* Act on the error at [start, end): append what replaces it and say where
 * decoding goes on (*next). Returns 1 to stop there (a non-final decoder
 * waiting for more), 0 to go on, -1 on an exception. */
static int decode_error(decode_job *j, cpbuf *out, size_t start, size_t end, const char *reason,
                        size_t *next)
{
    const char *e = j->errors;
    *next = end;
    if (!strcmp(e, "strict")) {
        if (make_decode_exc(j, start, end, reason) == 0)
            raise_exc(j->exc);
        return -1;
    }
    if (!strcmp(e, "replace"))
        return cpbuf_push(out, 0xFFFD);
    if (!strcmp(e, "ignore"))
        return 0;
    if (!strcmp(e, "surrogatepass")) {
        size_t size;
        uint32_t c = surrogate_at(j->order, j->s, j->len, start, &size);
        if (c) {
            *next = start + size;
            return cpbuf_push(out, c);
        }
        if (!j->final && surrogate_prefix(j->enc, j->s, j->len, start))
            return 1;
        if (make_decode_exc(j, start, end, reason) == 0)
            raise_exc(j->exc);
        return -1;
    }
    if (!j->handler && !(j->handler = PyCodec_LookupError(e)))
        return -1;
    if (make_decode_exc(j, start, end, reason) < 0)
        return -1;
    PyObject *res = PyObject_CallOneArg(j->handler, j->exc);
    if (!res)
        return -1;
    PyObject *rep;
    Py_ssize_t pos;
    if (!PyTuple_Check(res) || !PyArg_ParseTuple(res, "Un;decoding error handler must return (str, int) tuple", &rep, &pos)) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "decoding error handler must return (str, int) tuple");
        Py_DECREF(res);
        return -1;
    }
    if (pos < 0)
        pos += (Py_ssize_t)j->len;
    if (pos < 0 || (size_t)pos > j->len) {
        PyErr_Format(PyExc_IndexError, "position %zd from error handler out of bounds", pos);
        Py_DECREF(res);
        return -1;
    }
    Py_ssize_t n = PyUnicode_GET_LENGTH(rep);
    int rc = cpbuf_reserve(out, (size_t)n);
    if (rc == 0) {
        int kind = PyUnicode_KIND(rep);
        const void *data = PyUnicode_DATA(rep);
        for (Py_ssize_t i = 0; i < n; i++)
            out->p[out->n++] = PyUnicode_READ(kind, data, i);
    }
    *next = (size_t)pos;
    Py_DECREF(res);
    return rc;
}

/* UTF-7, not final: an open base64 run is decoded when it ends, as
 * Python's UTF-7 decoder does; where it starts (or len). */
static size_t utf7_open_run(int enc, const uint8_t *s, size_t len)
{
    bool imap = enc == UTFDFA_UTF7_IMAP;
    uint8_t shift = imap ? '&' : '+';
    size_t i = len, r = len;
    while (i > 0) {
        uint8_t c = s[i - 1];
        bool b64 = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                   c == '+' || c == (imap ? ',' : '/');
        if (!b64)
            break;
        i--;
    }
    if (i > 0 && s[i - 1] == shift)
        r = i - 1;
    else
        for (; i < len; i++)
            if (s[i] == shift) {
                r = i;
                break;
            }
    /* IMAP: a run just closed ("&...-") decides whether a "&" next is
     * valid (RFC 3501 wants one run, never "-&"): kept for the next call */
    while (imap && r > 0 && s[r - 1] == '-') {
        size_t k = r - 1;
        while (k > 0 && s[k - 1] != '&' && s[k - 1] != '-' && s[k - 1] >= 0x20 && s[k - 1] < 0x7F)
            k--;
        if (k == 0 || s[k - 1] != '&')
            break;
        r = k - 1;
    }
    return r;
}

/* The general decoder: every encoding, every handler. *consumed: how far
 * the input was decoded (all of it when final). */
static PyObject *decode_general(decode_job *j, size_t *consumed)
{
    cpbuf out = {0};
    utfdfa_decoder d;
    size_t len = j->len, base = 0, pos = 0, max;
    bool last = j->final;
    PyObject *result = NULL;
    if (!j->final && is_utf7(j->enc)) {
        len = utf7_open_run(j->enc, j->s, j->len);
        last = true;
    }
    if (!utfdfa_max_utf32_len((enum utfdfa_encoding)j->enc, len, &max) || cpbuf_reserve(&out, max + 1) < 0)
        goto done;
    decoder_start(&d, j->enc);
    for (;;) {
        size_t n = len - pos, m = out.cap - out.n;
        utfdfa_error err = {0};
        utfdfa_result r;
        UNLOCKED(n, r = utfdfa_decode_utf32(&d, j->s + pos, &n, out.p + out.n, &m, last, &err));
        pos += n;
        out.n += m;
        if (r == UTFDFA_OUTPUT_FULL) {
            if (cpbuf_reserve(&out, out.cap) < 0)
                goto done;
            continue;
        }
        if (r == UTFDFA_INPUT_EMPTY)
            break;
        size_t start = base + (size_t)err.offset, end = start + err.length, next;
        int order = (int)utfdfa_decoder_encoding(&d);
        const char *reason = decode_reason(j->enc, &err, j->s, j->len, start);
        j->order = order;
        int rc = decode_error(j, &out, start, end, reason, &next);
        if (rc < 0)
            goto done;
        if (rc > 0) {
            *consumed = start;
            goto make;
        }
        /* The decoder goes on from where it stands (UTF-7's errors may
         * overlap: it reads a base64 digit again), unless the handler
         * moved elsewhere. WTF-8 starts afresh after every error: the
         * library's source decoder does, but the target here is WTF-8 only
         * for its range (a str holds every code point, surrogates too), and
         * a WTF-8 writer goes on from what it wrote: after a high surrogate
         * it refuses a low one (they would be one character's six bytes),
         * and a str is no WTF-8 (the handler put something between them). */
        if (next != end || j->enc == UTFDFA_WTF8) {
            decoder_start(&d, order); /* UTF-16, UTF-32: the order the mark decided */
            base = pos = next;
        }
    }
    *consumed = len;
    if (!last) {
        /* What the decoder holds waiting for more: a final empty call on a
         * copy says where it starts. */
        utfdfa_decoder probe = d;
        uint32_t tmp[8];
        size_t n = 0, m = 8;
        utfdfa_error err = {0};
        if (utfdfa_decode_utf32(&probe, j->s, &n, tmp, &m, true, &err) == UTFDFA_MALFORMED)
            *consumed = base + (size_t)err.offset;
    }
make:
    result = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, out.p, (Py_ssize_t)out.n);
done:
    free(out.p);
    return result;
}

/* UTF-8, strict and valid: count the characters and find the widest, make
 * the str of that size and kind, decode into it. NULL with no exception
 * set when the input is not valid (the general decoder then reports it). */
static void utf8_scan(const uint8_t *s, size_t len, size_t *chars, uint8_t *top)
{
    size_t cont = 0;
    uint8_t mx = 0;
    for (size_t i = 0; i < len;) {
        size_t k = len - i < 4096 ? len - i : 4096;
        uint32_t c = 0;
        uint8_t m = 0;
        for (size_t q = 0; q < k; q++) {
            uint8_t b = s[i + q];
            c += (int8_t)b < (int8_t)0xC0;
            m = b > m ? b : m;
        }
        cont += c;
        mx = m > mx ? m : mx;
        i += k;
    }
    *chars = len - cont;
    *top = mx;
}

/* Copy ASCII s[0..len) to dst block by block, each checked as it is
 * copied (in cache); false at the first block holding a byte above 7F. */
static bool copy_ascii(const uint8_t *s, size_t len, uint8_t *dst)
{
    for (size_t i = 0; i < len;) {
        size_t k = len - i < 4096 ? len - i : 4096;
        uint64_t acc = 0;
        size_t q = 0;
        for (; q + 8 <= k; q += 8) {
            uint64_t w;
            memcpy(&w, s + i + q, 8);
            acc |= w;
        }
        for (; q < k; q++)
            acc |= s[i + q];
        if (acc & 0x8080808080808080u)
            return false;
        memcpy(dst + i, s + i, k);
        i += k;
    }
    return true;
}

static PyObject *decode_utf8_fast(const uint8_t *s, size_t len)
{
    size_t chars;
    uint8_t top;
    bool ascii;
    PyObject *u = PyUnicode_New((Py_ssize_t)len, 0x7F);
    if (!u)
        return NULL;
    UNLOCKED(len, ascii = copy_ascii(s, len, PyUnicode_1BYTE_DATA(u)));
    if (ascii)
        return u;
    Py_DECREF(u);
    UNLOCKED(len, utf8_scan(s, len, &chars, &top));
    if (top < 0x80)
        return NULL; /* the buffer changed under us: the general decoder reads it again */
    Py_UCS4 maxchar = top < 0xC4 ? 0xFF : top < 0xF0 ? 0xFFFF : 0x10FFFF;
    u = PyUnicode_New((Py_ssize_t)chars, maxchar);
    if (!u)
        return NULL;
    utfdfa_decoder d;
    utfdfa_error err;
    utfdfa_result r;
    size_t n = len, m = chars;
    utfdfa_decoder_init(&d, UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    if (maxchar == 0x10FFFF) {
        UNLOCKED(len, r = utfdfa_decode_utf32(&d, s, &n, (uint32_t *)PyUnicode_4BYTE_DATA(u), &m,
                                              true, &err));
    } else if (maxchar == 0xFFFF) {
        UNLOCKED(len, r = utfdfa_decode_utf16(&d, s, &n, (uint16_t *)PyUnicode_2BYTE_DATA(u), &m,
                                              true, &err));
    } else {
        uint16_t *tmp = malloc(chars * sizeof *tmp + 1);
        if (!tmp) {
            Py_DECREF(u);
            return PyErr_NoMemory();
        }
        UNLOCKED(len, r = utfdfa_decode_utf16(&d, s, &n, tmp, &m, true, &err));
        Py_UCS1 *o = PyUnicode_1BYTE_DATA(u);
        for (size_t i = 0; i < m && i < chars; i++)
            o[i] = (Py_UCS1)tmp[i];
        free(tmp);
    }
    if (r != UTFDFA_INPUT_EMPTY || n != len || m != chars) {
        Py_DECREF(u);
        return NULL;
    }
    return u;
}

static int get_view(PyObject *obj, Py_buffer *view)
{
    if (PyUnicode_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "a bytes-like object is required, not '%.100s'",
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    return PyObject_GetBuffer(obj, view, PyBUF_SIMPLE);
}

/* decode(data, encoding, errors, final, codec) -> (str, consumed) */
static PyObject *py_decode(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *data, *encname, *result = NULL;
    const char *errors = NULL, *codec = NULL;
    int final = 1;
    Py_buffer view;
    decode_job j = {0};
    if (!PyArg_ParseTuple(args, "OU|zpz", &data, &encname, &errors, &final, &codec))
        return NULL;
    if (parse_encoding(encname, &j.enc) < 0 || get_view(data, &view) < 0)
        return NULL;
    j.codec = codec ? codec : utfdfa_encoding_name((enum utfdfa_encoding)j.enc);
    j.errors = errors ? errors : "strict";
    j.source = data;
    j.s = view.buf;
    j.len = (size_t)view.len;
    j.final = final;
    size_t consumed = j.len;
    PyObject *str = NULL;
    if (j.enc == UTFDFA_UTF8 && final) {
        str = decode_utf8_fast(j.s, j.len);
        if (!str && PyErr_Occurred())
            goto done;
    }
    if (!str && !(str = decode_general(&j, &consumed)))
        goto done;
    result = Py_BuildValue("(Nn)", str, (Py_ssize_t)consumed);
done:
    Py_XDECREF(j.exc);
    Py_XDECREF(j.handler);
    PyBuffer_Release(&view);
    return result;
}

/* ------------------------------------------------------------ encoding */
typedef struct {
    int enc;
    const char *codec;
    const char *errors;
    PyObject *str;
    int kind;
    const void *data;
    size_t len;
    PyObject *exc;
    PyObject *handler;
    unsigned options; /* enum utfdfa_encoder_option */
    utfdfa_encoder e;
    size_t fed;       /* code points the encoder has read: its error offsets count them */
    bytebuf out;
} encode_job;

/* Feed n code points to the encoder, growing the output; MALFORMED stops
 * it with *done code points read. */
static utfdfa_result feed(encode_job *j, const uint32_t *cp, size_t n, bool last, size_t *done,
                          utfdfa_error *err)
{
    size_t read = 0;
    for (;;) {
        size_t need, k = n - read, m;
        if (!utfdfa_max_encoded_len((enum utfdfa_encoding)j->enc, k, &need) ||
            bytebuf_reserve(&j->out, need + 16) < 0) {
            if (!PyErr_Occurred())
                PyErr_NoMemory();
            *done = read;
            return (utfdfa_result)-1;
        }
        m = j->out.cap - j->out.n;
        utfdfa_result r;
        UNLOCKED(k, r = utfdfa_encode(&j->e, cp + read, &k, j->out.p + j->out.n, &m, last, err));
        read += k;
        j->fed += k;
        j->out.n += m;
        if (r != UTFDFA_OUTPUT_FULL) {
            *done = read;
            return r;
        }
    }
}

static int make_encode_exc(encode_job *j, size_t start, size_t end, const char *reason)
{
    if (!j->exc) {
        j->exc = PyObject_CallFunction(PyExc_UnicodeEncodeError, "sOnns", j->codec, j->str,
                                       (Py_ssize_t)start, (Py_ssize_t)end, reason);
        return j->exc ? 0 : -1;
    }
    PyObject *r = PyUnicode_FromString(reason);
    if (!r)
        return -1;
    int bad = PyObject_SetAttrString(j->exc, "reason", r);
    Py_DECREF(r);
    if (bad || PyUnicodeEncodeError_SetStart(j->exc, (Py_ssize_t)start) ||
        PyUnicodeEncodeError_SetEnd(j->exc, (Py_ssize_t)end))
        return -1;
    return 0;
}

static int raise_encode(encode_job *j, size_t start, size_t end, const char *reason)
{
    if (make_encode_exc(j, start, end, reason) == 0)
        raise_exc(j->exc);
    return -1;
}

/* Encode replacement code points in the stream; one it cannot hold raises
 * the original error. */
static int feed_replacement(encode_job *j, const uint32_t *cp, size_t n, size_t start, size_t end,
                            const char *reason)
{
    size_t done;
    utfdfa_error err;
    utfdfa_result r = feed(j, cp, n, false, &done, &err);
    if ((int)r < 0)
        return -1;
    if (r == UTFDFA_MALFORMED)
        return raise_encode(j, start, end, reason);
    return 0;
}

/* The bytes surrogatepass writes for surrogate c (0 if it has no meaning). */
static size_t surrogate_bytes(int enc, uint32_t c, uint8_t *b)
{
    if (is_utf8_family(enc)) {
        b[0] = 0xED; b[1] = (uint8_t)(0x80 | (c >> 6 & 0x3F)); b[2] = (uint8_t)(0x80 | (c & 0x3F));
        return 3;
    }
    switch (enc) {
    case UTFDFA_UTF16: case UTFDFA_UTF16LE: b[0] = (uint8_t)c; b[1] = (uint8_t)(c >> 8); return 2;
    case UTFDFA_UTF16BE: b[0] = (uint8_t)(c >> 8); b[1] = (uint8_t)c; return 2;
    case UTFDFA_UTF32: case UTFDFA_UTF32LE: b[0] = (uint8_t)c; b[1] = (uint8_t)(c >> 8); b[2] = 0; b[3] = 0; return 4;
    case UTFDFA_UTF32BE: b[0] = 0; b[1] = 0; b[2] = (uint8_t)(c >> 8); b[3] = (uint8_t)c; return 4;
    default: return 0;
    }
}

static int encode_error(encode_job *j, size_t start, size_t end, const char *reason, size_t *next)
{
    const char *e = j->errors;
    *next = end;
    if (!strcmp(e, "strict"))
        return raise_encode(j, start, end, reason);
    if (!strcmp(e, "ignore"))
        return 0;
    if (!strcmp(e, "replace")) {
        for (size_t i = start; i < end; i++) {
            uint32_t q = '?';
            if (feed_replacement(j, &q, 1, start, end, reason) < 0)
                return -1;
        }
        return 0;
    }
    if (!strcmp(e, "surrogateescape") && is_utf8_family(j->enc)) {
        /* U+DC80..U+DCFF are the bytes 80..FF they stand for, as
         * Python's UTF-8 encoder writes them */
        for (size_t i = start; i < end; i++) {
            uint32_t c = PyUnicode_READ(j->kind, j->data, i);
            if (c < 0xDC80 || c > 0xDCFF)
                return raise_encode(j, i, end, reason);
            if (bytebuf_reserve(&j->out, 1) < 0)
                return -1;
            j->out.p[j->out.n++] = (uint8_t)(c - 0xDC00);
        }
        return 0;
    }
    if (!strcmp(e, "surrogatepass")) {
        for (size_t i = start; i < end; i++) {
            uint32_t c = PyUnicode_READ(j->kind, j->data, i);
            uint8_t b[4];
            size_t k = c >= 0xD800 && c <= 0xDFFF ? surrogate_bytes(j->enc, c, b) : 0;
            if (!k)
                return raise_encode(j, i, end, reason);
            if (bytebuf_reserve(&j->out, k) < 0)
                return -1;
            memcpy(j->out.p + j->out.n, b, k);
            j->out.n += k;
        }
        return 0;
    }
    if (!j->handler && !(j->handler = PyCodec_LookupError(e)))
        return -1;
    if (make_encode_exc(j, start, end, reason) < 0)
        return -1;
    PyObject *res = PyObject_CallOneArg(j->handler, j->exc);
    if (!res)
        return -1;
    PyObject *rep;
    Py_ssize_t pos;
    int rc = -1;
    if (!PyTuple_Check(res) || PyTuple_GET_SIZE(res) != 2 ||
        !PyArg_ParseTuple(res, "On", &rep, &pos) || !(PyUnicode_Check(rep) || PyBytes_Check(rep))) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "encoding error handler must return (str/bytes, int) tuple");
        goto out;
    }
    if (pos < 0)
        pos += (Py_ssize_t)j->len;
    if (pos < 0 || (size_t)pos > j->len) {
        PyErr_Format(PyExc_IndexError, "position %zd from error handler out of bounds", pos);
        goto out;
    }
    if (PyBytes_Check(rep)) {
        /* bytes go out as they are; for UTF-16 and UTF-32 whole units
         * only, as Python's encoders have it */
        size_t k = (size_t)PyBytes_GET_SIZE(rep);
        if (k % utfdfa_unit_size((enum utfdfa_encoding)j->enc)) {
            raise_encode(j, start, end, reason);
            goto out;
        }
        if (bytebuf_reserve(&j->out, k) < 0)
            goto out;
        memcpy(j->out.p + j->out.n, PyBytes_AS_STRING(rep), k);
        j->out.n += k;
    } else {
        Py_UCS4 *cp = PyUnicode_AsUCS4Copy(rep);
        if (!cp)
            goto out;
        int bad = feed_replacement(j, cp, (size_t)PyUnicode_GET_LENGTH(rep), start, end, reason);
        PyMem_Free(cp);
        if (bad)
            goto out;
    }
    *next = (size_t)pos;
    rc = 0;
out:
    Py_DECREF(res);
    return rc;
}

static bool is_surrogate(uint32_t c) { return c >= 0xD800 && c <= 0xDFFF; }

static const char *encode_reason(int enc, const utfdfa_error *err, uint32_t c)
{
    if (enc == UTFDFA_WTF8 && is_surrogate(c))
        return "a surrogate pair is not WTF-8 (write the character it stands for)";
    if (is_surrogate(c))
        return "surrogates not allowed";
    return utfdfa_error_name(err->kind);
}

#define CHUNK 4096

static PyObject *encode_general(encode_job *j)
{
    uint32_t tmp[CHUNK];
    size_t pos = 0, fed_at; /* our index; the encoder's count where a call starts */
    utfdfa_encoder_init(&j->e, (enum utfdfa_encoding)j->enc, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    utfdfa_encoder_set_options(&j->e, j->options);
    for (;;) {
        size_t k = j->len - pos < CHUNK ? j->len - pos : CHUNK;
        const uint32_t *cp = tmp;
        if (j->kind == PyUnicode_4BYTE_KIND) {
            cp = (const uint32_t *)j->data + pos;
            k = j->len - pos;
        } else {
            for (size_t i = 0; i < k; i++)
                tmp[i] = PyUnicode_READ(j->kind, j->data, pos + i);
        }
        bool last = pos + k == j->len;
        size_t done;
        utfdfa_error err = {0};
        fed_at = j->fed;
        utfdfa_result r = feed(j, cp, k, last, &done, &err);
        if ((int)r < 0)
            return NULL;
        size_t call_pos = pos;
        pos += done;
        if (r == UTFDFA_INPUT_EMPTY) {
            if (last)
                break;
            continue;
        }
        size_t start = call_pos + ((size_t)err.offset - fed_at), end = start + 1, next;
        if (err.offset < fed_at || start >= j->len) {
            PyErr_SetString(PyExc_SystemError, "utfdfa_encode: error offset out of the input");
            return NULL;
        }
        uint32_t c = PyUnicode_READ(j->kind, j->data, start);
        /* Python's UTF-8 encoder takes a run of surrogates as one error */
        if (is_surrogate(c) && is_utf8_family(j->enc) && j->enc != UTFDFA_WTF8)
            while (end < j->len && is_surrogate(PyUnicode_READ(j->kind, j->data, end)))
                end++;
        if (encode_error(j, start, end, encode_reason(j->enc, &err, c), &next) < 0)
            return NULL;
        pos = next;
        if (pos == j->len) {
            size_t d2;
            if ((int)feed(j, tmp, 0, true, &d2, &err) < 0)
                return NULL;
            break;
        }
    }
    return PyBytes_FromStringAndSize((const char *)j->out.p, (Py_ssize_t)j->out.n);
}

/* A UCS-2 str without surrogates is UTF-16 text: transcoded in place. NULL
 * without an exception when it cannot be (the general path then runs). */
static PyObject *encode_ucs2_fast(encode_job *j)
{
    const uint16_t *u = j->data;
    size_t n = j->len, max;
    bool sur = false;
    for (size_t i = 0; i < n; i++)
        sur |= (u[i] & 0xF800) == 0xD800;
    if (sur)
        return NULL;
    enum utfdfa_encoding from = PY_LITTLE_ENDIAN ? UTFDFA_UTF16LE : UTFDFA_UTF16BE;
    if (!utfdfa_max_transcoded_len(from, (enum utfdfa_encoding)j->enc, 2 * n, &max))
        return PyErr_NoMemory();
    PyObject *b = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)max);
    if (!b)
        return NULL;
    utfdfa_decoder d;
    utfdfa_error err;
    utfdfa_result r;
    size_t sn = 2 * n, dn = max;
    utfdfa_decoder_init(&d, from, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    UNLOCKED(sn, r = utfdfa_transcode(&d, (enum utfdfa_encoding)j->enc, (const uint8_t *)u, &sn,
                                      (uint8_t *)PyBytes_AS_STRING(b), &dn, true, &err));
    if (r != UTFDFA_INPUT_EMPTY || sn != 2 * n) {
        Py_DECREF(b);
        return NULL;
    }
    if (_PyBytes_Resize(&b, (Py_ssize_t)dn) < 0)
        return NULL;
    return b;
}

/* encode(str, encoding, errors, codec, options) -> (bytes, len) */
static PyObject *py_encode(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *str, *encname, *bytes = NULL;
    const char *errors = NULL, *codec = NULL;
    encode_job j = {0};
    if (!PyArg_ParseTuple(args, "UU|zzI", &str, &encname, &errors, &codec, &j.options))
        return NULL;
    if (parse_encoding(encname, &j.enc) < 0)
        return NULL;
    j.codec = codec ? codec : utfdfa_encoding_name((enum utfdfa_encoding)j.enc);
    j.errors = errors ? errors : "strict";
    j.str = str;
    j.kind = PyUnicode_KIND(str);
    j.data = PyUnicode_DATA(str);
    j.len = (size_t)PyUnicode_GET_LENGTH(str);
    bool ascii_same = (j.enc == UTFDFA_UTF8 || j.enc == UTFDFA_CESU8 || j.enc == UTFDFA_WTF8 ||
                       j.enc == UTFDFA_UTF8_RFC2279);
    if (ascii_same && PyUnicode_IS_ASCII(str))
        bytes = PyBytes_FromStringAndSize(PyUnicode_DATA(str), (Py_ssize_t)j.len);
    else if (j.kind == PyUnicode_2BYTE_KIND && !is_utf7(j.enc) && !j.options && j.enc != UTFDFA_UTF16 &&
             j.enc != UTFDFA_UTF32) {
        bytes = encode_ucs2_fast(&j);
        if (!bytes && PyErr_Occurred())
            goto done;
    }
    if (!bytes)
        bytes = encode_general(&j);
done:
    free(j.out.p);
    Py_XDECREF(j.exc);
    Py_XDECREF(j.handler);
    if (!bytes)
        return NULL;
    return Py_BuildValue("(Nn)", bytes, (Py_ssize_t)j.len);
}

/* ------------------------------------------------------------ validation */
/* Line (1-based, ended by U+000A) and column (characters since, 1-based)
 * of offset in valid text s[0..offset). */
static void position(int enc, const uint8_t *s, size_t offset, uint64_t *line, uint64_t *col)
{
    utfdfa_decoder d;
    uint32_t tmp[CHUNK];
    size_t pos = 0;
    *line = 1;
    *col = 1;
    utfdfa_decoder_init(&d, (enum utfdfa_encoding)enc, UTFDFA_REPLACE, UTFDFA_BOM_KEEP);
    while (pos < offset) {
        size_t n = offset - pos, m = CHUNK;
        utfdfa_error err;
        utfdfa_decode_utf32(&d, s + pos, &n, tmp, &m, false, &err);
        pos += n;
        for (size_t i = 0; i < m; i++) {
            if (tmp[i] == '\n') {
                ++*line;
                *col = 1;
            } else {
                ++*col;
            }
        }
        if (n == 0 && m == 0)
            break;
    }
}

/* validate(data, encoding) -> None or (offset, kind, length, line, column) */
static PyObject *py_validate(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *data, *encname;
    int enc;
    Py_buffer view;
    if (!PyArg_ParseTuple(args, "OU", &data, &encname))
        return NULL;
    if (parse_encoding(encname, &enc) < 0 || get_view(data, &view) < 0)
        return NULL;
    const uint8_t *s = view.buf;
    size_t len = (size_t)view.len, good;
    utfdfa_error err = {0};
    UNLOCKED(len, good = utfdfa_validate((enum utfdfa_encoding)enc, s, len, &err));
    PyObject *r;
    if (good == len && err.kind == UTFDFA_ERR_NONE) {
        r = Py_NewRef(Py_None);
    } else {
        uint64_t line, col;
        position(enc, s, (size_t)err.offset, &line, &col);
        r = Py_BuildValue("(KsIKK)", (unsigned long long)err.offset, utfdfa_error_name(err.kind),
                          (unsigned)err.length, (unsigned long long)line, (unsigned long long)col);
    }
    PyBuffer_Release(&view);
    return r;
}

/* ------------------------------------------------------------ transcoding */
/* transcode(data, from, to, mode) -> bytes; mode 0 strict, 1 replace, 2 ignore.
 * Strict: UnicodeDecodeError at the first error (input offsets). */
static PyObject *py_transcode(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *data, *fromname, *toname, *result = NULL;
    int from, to, mode;
    Py_buffer view;
    if (!PyArg_ParseTuple(args, "OUUi", &data, &fromname, &toname, &mode))
        return NULL;
    if (parse_encoding(fromname, &from) < 0 || parse_encoding(toname, &to) < 0 ||
        get_view(data, &view) < 0)
        return NULL;
    const uint8_t *s = view.buf;
    size_t len = (size_t)view.len, max;
    if (!utfdfa_max_transcoded_len((enum utfdfa_encoding)from, (enum utfdfa_encoding)to, len, &max)) {
        PyErr_NoMemory();
        goto done;
    }
    PyObject *b = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)max);
    if (!b)
        goto done;
    utfdfa_decoder d;
    utfdfa_error err = {0};
    utfdfa_result r;
    size_t sn = len, dn = max;
    utfdfa_decoder_init(&d, (enum utfdfa_encoding)from, (enum utfdfa_error_mode)mode, UTFDFA_BOM_KEEP);
    UNLOCKED(len, r = utfdfa_transcode(&d, (enum utfdfa_encoding)to, s, &sn,
                                       (uint8_t *)PyBytes_AS_STRING(b), &dn, true, &err));
    if (r == UTFDFA_MALFORMED) {
        Py_DECREF(b);
        size_t start = (size_t)err.offset;
        PyObject *exc = PyUnicodeDecodeError_Create(
            utfdfa_encoding_name((enum utfdfa_encoding)from), (const char *)s, (Py_ssize_t)len,
            (Py_ssize_t)start, (Py_ssize_t)(start + err.length),
            err.kind == UTFDFA_ERR_UNENCODABLE || err.kind == UTFDFA_ERR_RESERVED ||
                    (err.kind == UTFDFA_ERR_TOO_LARGE && utfdfa_validate((enum utfdfa_encoding)from, s + start, err.length, NULL) == err.length)
                ? "not representable in the target encoding"
                : decode_reason(from, &err, s, len, start));
        if (exc) {
            raise_exc(exc);
            Py_DECREF(exc);
        }
        goto done;
    }
    if (r != UTFDFA_INPUT_EMPTY || _PyBytes_Resize(&b, (Py_ssize_t)dn) < 0) {
        if (r != UTFDFA_INPUT_EMPTY) {
            Py_DECREF(b);
            PyErr_SetString(PyExc_SystemError, "utfdfa_transcode: output bound too small");
        }
        goto done;
    }
    result = b;
done:
    PyBuffer_Release(&view);
    return result;
}

/* ------------------------------------------------------------ names */
static PyObject *py_encodings(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    PyObject *list = PyList_New(0);
    for (int e = 0; list && e < UTFDFA_NENCODINGS; e++) {
        PyObject *n = PyUnicode_FromString(utfdfa_encoding_name((enum utfdfa_encoding)e));
        if (!n || PyList_Append(list, n) < 0) {
            Py_XDECREF(n);
            Py_CLEAR(list);
            break;
        }
        Py_DECREF(n);
    }
    return list;
}

static PyMethodDef methods[] = {
    {"decode", py_decode, METH_VARARGS,
     "decode(data, encoding, errors=None, final=True, codec=None) -> (str, consumed)"},
    {"encode", py_encode, METH_VARARGS,
     "encode(str, encoding, errors=None, codec=None, options=0) -> (bytes, length)"},
    {"validate", py_validate, METH_VARARGS,
     "validate(data, encoding) -> None or (offset, kind, length, line, column)"},
    {"transcode", py_transcode, METH_VARARGS, "transcode(data, from, to, mode) -> bytes"},
    {"encodings", py_encodings, METH_NOARGS, "the library's encoding names"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "utfdfa._utfdfa", "utfdfa's C decoders and encoders", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__utfdfa(void)
{
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddStringConstant(m, "library_version", utfdfa_version()) < 0)
        Py_CLEAR(m);
    return m;
}
