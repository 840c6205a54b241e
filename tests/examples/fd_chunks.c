/* SPDX-License-Identifier: MIT */
/* Example 3: incremental decoding of input read from a file descriptor in
 * whatever chunks read() returns.
 *
 * decode_fd() is the loop to copy. Each read() result is handed to
 * utfdfa_decode_utf32() together with what is left of it; `last` is set
 * only at end of file. The decoder keeps a sequence split between two reads
 * in its own 16-byte state, so no bytes are carried over by the caller, and
 * a small output buffer is drained whenever the call says OUTPUT_FULL. In
 * strict mode each MALFORMED is recorded and decoding goes on after it.
 *
 * The test: the same bytes decoded through a pipe written by a child process
 * in uneven writes, from a temporary file with many read-size patterns, and
 * from the files of ../shared (corpus and Kuhn's stress test, when present)
 * must give exactly what one whole-buffer call gives: the same code points,
 * the same errors at the same offsets. Random data uses fixed seeds.
 *
 *   fd_chunks [SHARED_DIR]      last line: "fd_chunks: N passed, M failed"
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "utfdfa.h"

/* ------------------------------------------------------------ the example */

struct decoded {
    uint32_t *cps; /* code points, cap of them */
    size_t len, cap;
    utfdfa_error errors[64]; /* strict mode: the first 64 errors */
    size_t nerrors;          /* all of them */
};

static void keep(struct decoded *out, const uint32_t *cps, size_t n)
{
    if (out->len + n > out->cap) { /* the test sizes cap; this cannot happen */
        fprintf(stderr, "fd_chunks: output overflow\n");
        exit(2);
    }
    memcpy(out->cps + out->len, cps, n * sizeof *cps);
    out->len += n;
}

static void keep_error(struct decoded *out, const utfdfa_error *e)
{
    if (out->nerrors < sizeof out->errors / sizeof out->errors[0])
        out->errors[out->nerrors] = *e;
    out->nerrors++;
}

/* How many bytes the next read() asks for: stands in for a network's whims. */
typedef size_t (*read_size_fn)(void *ctx);

/* Decode everything fd delivers. Returns 0, or -1 with errno on a read error. */
static int decode_fd(int fd, enum utfdfa_encoding enc, enum utfdfa_error_mode mode,
                     read_size_fn next_size, void *ctx, struct decoded *out)
{
    uint8_t chunk[4096];
    uint32_t cps[7]; /* deliberately small: OUTPUT_FULL happens often */
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, enc, mode, UTFDFA_BOM_KEEP);
    for (;;) {
        size_t want = next_size(ctx);
        ssize_t got = read(fd, chunk, want < sizeof chunk ? want : sizeof chunk);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        bool last = got == 0; /* end of file: flush, report a truncated tail */
        size_t done = 0;
        for (;;) {
            size_t n = (size_t)got - done, m = sizeof cps / sizeof cps[0];
            utfdfa_error e;
            utfdfa_result r = utfdfa_decode_utf32(&d, chunk + done, &n, cps, &m, last, &e);
            done += n;
            keep(out, cps, m);
            if (r == UTFDFA_MALFORMED)
                keep_error(out, &e); /* and go on with the rest */
            else if (r == UTFDFA_INPUT_EMPTY)
                break;
            /* OUTPUT_FULL: cps was drained, call again */
        }
        if (last)
            return 0;
    }
}

/* ------------------------------------------------------------ the test */

/* The oracle: one whole-buffer call (looping only past strict errors). */
static void decode_whole(const uint8_t *buf, size_t len, enum utfdfa_encoding enc,
                         enum utfdfa_error_mode mode, struct decoded *out)
{
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, enc, mode, UTFDFA_BOM_KEEP);
    size_t done = 0;
    for (;;) {
        size_t n = len - done, m = out->cap - out->len;
        utfdfa_error e;
        utfdfa_result r = utfdfa_decode_utf32(&d, buf + done, &n, out->cps + out->len, &m, true, &e);
        done += n;
        out->len += m;
        if (r == UTFDFA_MALFORMED) {
            keep_error(out, &e);
            continue;
        }
        if (r != UTFDFA_INPUT_EMPTY) {
            fprintf(stderr, "fd_chunks: whole-buffer output too small\n");
            exit(2);
        }
        return;
    }
}

static unsigned passed, failed;

static void check(int ok, const char *what)
{
    if (ok) {
        passed++;
    } else {
        failed++;
        fprintf(stderr, "FAIL: %s\n", what);
    }
}

static uint64_t xorshift(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Read-size patterns. */
struct sizes {
    const char *name;
    int kind;      /* 0: fixed, 1: random in 1..max, 2: cycle 1,2,3,...,max */
    size_t fixed;  /* also max */
    uint64_t seed; /* kind 1 */
    size_t step;   /* kind 2 */
};

static size_t next_size(void *ctx)
{
    struct sizes *s = ctx;
    switch (s->kind) {
    case 0:
        return s->fixed;
    case 1:
        return 1 + (size_t)(xorshift(&s->seed) % s->fixed);
    default:
        s->step = s->step % s->fixed + 1;
        return s->step;
    }
}

static const struct sizes patterns[] = {
    {"1 byte", 0, 1, 0, 0},          {"2 bytes", 0, 2, 0, 0},   {"3 bytes", 0, 3, 0, 0},
    {"5 bytes", 0, 5, 0, 0},         {"7 bytes", 0, 7, 0, 0},   {"cycle 1..13", 2, 13, 0, 0},
    {"random 1..17", 1, 17, 42, 0},  {"random 1..4096", 1, 4096, 7, 0},
    {"4096 bytes", 0, 4096, 0, 0},
};

static int same(const struct decoded *a, const struct decoded *b)
{
    if (a->len != b->len || memcmp(a->cps, b->cps, a->len * sizeof *a->cps) != 0)
        return 0;
    if (a->nerrors != b->nerrors)
        return 0;
    size_t k = a->nerrors < 64 ? a->nerrors : 64;
    for (size_t i = 0; i < k; i++)
        if (a->errors[i].offset != b->errors[i].offset ||
            a->errors[i].length != b->errors[i].length || a->errors[i].kind != b->errors[i].kind)
            return 0;
    return 1;
}

static struct decoded new_decoded(size_t len)
{
    struct decoded d = {0};
    d.cap = len + 2;
    d.cps = malloc(d.cap * sizeof *d.cps);
    if (!d.cps) {
        fprintf(stderr, "fd_chunks: out of memory\n");
        exit(2);
    }
    return d;
}

static const char *const mode_name[] = {"strict", "replace", "ignore"};

/* Decode buf through a temporary file with every read-size pattern. */
static void via_file(const char *label, const uint8_t *buf, size_t len, enum utfdfa_encoding enc,
                     enum utfdfa_error_mode mode)
{
    struct decoded want = new_decoded(len);
    decode_whole(buf, len, enc, mode, &want);
    const char *tmpdir = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/fd_chunks.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0 || write(fd, buf, len) != (ssize_t)len) {
        perror(path);
        exit(2);
    }
    unlink(path);
    for (size_t p = 0; p < sizeof patterns / sizeof patterns[0]; p++) {
        struct sizes s = patterns[p];
        struct decoded got = new_decoded(len);
        lseek(fd, 0, SEEK_SET);
        int r = decode_fd(fd, enc, mode, next_size, &s, &got);
        char what[256];
        snprintf(what, sizeof what, "%s, %s, %s: file read in %s = whole buffer (%zu vs %zu code points, %zu vs %zu errors)",
                 label, utfdfa_encoding_name(enc), mode_name[mode], s.name, got.len, want.len,
                 got.nerrors, want.nerrors);
        check(r == 0 && same(&got, &want), what);
        free(got.cps);
    }
    close(fd);
    free(want.cps);
}

/* Decode buf as a child process writes it into a pipe in uneven pieces. */
static void via_pipe(const char *label, const uint8_t *buf, size_t len, enum utfdfa_encoding enc,
                     enum utfdfa_error_mode mode, uint64_t seed)
{
    struct decoded want = new_decoded(len);
    decode_whole(buf, len, enc, mode, &want);
    int fds[2];
    if (pipe(fds) < 0) {
        perror("pipe");
        exit(2);
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        exit(2);
    }
    if (pid == 0) { /* the writer: pieces of 1..600 bytes, now and then a pause */
        close(fds[0]);
        uint64_t s = seed;
        size_t off = 0;
        while (off < len) {
            size_t k = 1 + (size_t)(xorshift(&s) % 600);
            if (k > len - off)
                k = len - off;
            ssize_t w = write(fds[1], buf + off, k);
            if (w < 0) {
                if (errno == EINTR)
                    continue;
                _exit(1);
            }
            off += (size_t)w;
            if (xorshift(&s) % 16 == 0) {
                struct timespec pause = {0, 20000};
                nanosleep(&pause, NULL);
            }
        }
        _exit(0);
    }
    close(fds[1]);
    struct sizes s = {"random 1..1000", 1, 1000, seed ^ 0x5555, 0};
    struct decoded got = new_decoded(len);
    int r = decode_fd(fds[0], enc, mode, next_size, &s, &got);
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    char what[256];
    snprintf(what, sizeof what, "%s, %s, %s: pipe from a child = whole buffer", label,
             utfdfa_encoding_name(enc), mode_name[mode]);
    check(r == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 && same(&got, &want), what);
    free(got.cps);
    free(want.cps);
}

/* Random text: well-formed characters of every length with ill-formed
 * bytes mixed in, as UTF-8 or UTF-16LE. */
static size_t make_text(uint8_t *buf, size_t cap, enum utfdfa_encoding enc, uint64_t seed)
{
    static const uint8_t junk[] = {0x80, 0xBF, 0xC0, 0xC1, 0xE0, 0xED, 0xF0, 0xF4, 0xF5, 0xFF};
    uint64_t s = seed;
    size_t n = 0;
    while (n + 8 < cap) {
        uint64_t x = xorshift(&s);
        uint32_t cp;
        switch (x % 5) {
        case 0: cp = (uint32_t)(x >> 8) % 0x80; break;
        case 1: cp = 0x80 + (uint32_t)(x >> 8) % 0x780; break;
        case 2: cp = 0x800 + (uint32_t)(x >> 8) % 0xF800; break;
        case 3: cp = 0x10000 + (uint32_t)(x >> 8) % 0x100000; break;
        default: cp = 0xFFFFFFFF; break; /* an ill-formed unit */
        }
        if (cp >= 0xD800 && cp <= 0xDFFF && x % 7 != 0)
            cp = 0xFFFD; /* keep lone surrogates (ill-formed) rare */
        if (enc == UTFDFA_UTF8) {
            if (cp == 0xFFFFFFFF) {
                buf[n++] = junk[(x >> 32) % sizeof junk];
            } else if (cp >= 0xD800 && cp <= 0xDFFF) {
                buf[n++] = 0xED, buf[n++] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F)),
                buf[n++] = (uint8_t)(0x80 | (cp & 0x3F));
            } else {
                utfdfa_encoder e;
                utfdfa_encoder_init(&e, UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
                size_t one = 1, room = cap - n;
                utfdfa_encode(&e, &cp, &one, buf + n, &room, false, NULL);
                n += room;
            }
        } else { /* UTF-16LE; lone surrogates are its ill-formed units */
            if (cp == 0xFFFFFFFF)
                cp = 0xDC00 + (uint32_t)(x >> 40) % 0x400;
            if (cp >= 0x10000) {
                uint32_t v = cp - 0x10000, hi = 0xD800 + (v >> 10), lo = 0xDC00 + (v & 0x3FF);
                buf[n++] = (uint8_t)hi, buf[n++] = (uint8_t)(hi >> 8);
                buf[n++] = (uint8_t)lo, buf[n++] = (uint8_t)(lo >> 8);
            } else {
                buf[n++] = (uint8_t)cp, buf[n++] = (uint8_t)(cp >> 8);
            }
        }
    }
    if (enc == UTFDFA_UTF16LE && seed % 2)
        buf[n++] = 0x41; /* an odd trailing byte: one more error at the end */
    else if (enc == UTFDFA_UTF8 && seed % 2)
        buf[n++] = 0xE2, buf[n++] = 0x82; /* a truncated character at the end */
    return n;
}

static uint8_t *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    for (;;) {
        if (n == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
        if (!buf)
            exit(2);
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    fclose(f);
    *len = n;
    return buf;
}

int main(int argc, char **argv)
{
    const char *shared = argc > 1 ? argv[1] : "../shared";
    static uint8_t text[40000];

    for (uint64_t seed = 1; seed <= 2; seed++) {
        enum utfdfa_encoding encs[] = {UTFDFA_UTF8, UTFDFA_UTF16LE};
        for (size_t e = 0; e < 2; e++) {
            size_t n = make_text(text, sizeof text, encs[e], seed * 0x9E3779B97F4A7C15ull);
            char label[64];
            snprintf(label, sizeof label, "random text %llu", (unsigned long long)seed);
            for (int mode = UTFDFA_STRICT; mode <= UTFDFA_IGNORE; mode++) {
                via_file(label, text, n, encs[e], (enum utfdfa_error_mode)mode);
                via_pipe(label, text, n, encs[e], (enum utfdfa_error_mode)mode, seed * 31 + e);
            }
        }
    }
    /* The whole-buffer oracle itself must see the errors the text holds. */
    {
        size_t n = make_text(text, sizeof text, UTFDFA_UTF8, 0x9E3779B97F4A7C15ull);
        struct decoded d = new_decoded(n);
        decode_whole(text, n, UTFDFA_UTF8, UTFDFA_STRICT, &d);
        check(d.nerrors > 1000, "random UTF-8 text has many errors");
        check(d.errors[d.nerrors < 64 ? d.nerrors - 1 : 63].offset < n, "errors lie inside it");
        free(d.cps);
    }

    static const char *const files[] = {
        "conformance/UTF-8-test.txt",       "corpus/lipsum/Chinese-Lipsum.utf8.txt",
        "corpus/lipsum/Emoji-Lipsum.utf8.txt", "corpus/lipsum/Hindi-Lipsum.utf8.txt",
        "corpus/lipsum/Russian-Lipsum.utf8.txt",
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", shared, files[i]);
        size_t n;
        uint8_t *buf = read_file(path, &n);
        if (!buf) {
            printf("note: %s is absent: skipped\n", path);
            continue;
        }
        via_file(files[i], buf, n, UTFDFA_UTF8, UTFDFA_STRICT);
        via_file(files[i], buf, n, UTFDFA_UTF8, UTFDFA_REPLACE);
        via_pipe(files[i], buf, n, UTFDFA_UTF8, UTFDFA_REPLACE, i + 1);
        free(buf);
    }

    printf("fd_chunks: %u passed, %u failed\n", passed, failed);
    return failed != 0;
}
