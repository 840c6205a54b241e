/* SPDX-License-Identifier: MIT */
/* utfdfa: iconv-like transcoder and validator built on libutfdfa.
 *
 *   utfdfa [-f FROM] [-t TO[//IGNORE|//TRANSLIT]] [--errors=strict|replace|ignore]
 *          [--bom=keep|strip|add] [-c] [-s] [-o OUT] [FILE...]
 *   utfdfa check [-f FROM] FILE...
 *   utfdfa -l | --help | --version
 *
 * Encodings: utfdfa -l. Exit status: 0 success; 1 invalid input (strict
 * transcoding, or check; also a character the output encoding cannot hold);
 * 2 usage errors (unknown option or encoding, missing or unreadable file, a
 * directory); 3 read or write errors (the output written so far holds whole
 * characters only).
 *
 * Memory is bounded: input is read and converted in fixed-size chunks.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "utfdfa.h"

enum { EXIT_INVALID = 1, EXIT_USAGE = 2, EXIT_IO = 3 };
enum { CHUNK = 64 * 1024 };

static const char *progname = "utfdfa";

static void usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "%s: ", progname);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, " (try '%s --help')\n", progname);
    exit(EXIT_USAGE);
}

static void print_help(void)
{
    printf("Usage: utfdfa [OPTION]... [FILE]...\n"
           "       utfdfa check [-f FROM] FILE...\n"
           "Transcode FILEs (or standard input) between Unicode encodings, streaming.\n"
           "\n"
           "  -f, --from=ENC         input encoding (default utf-8); also --from-code\n"
           "  -t, --to=ENC           output encoding (default utf-8); also --to-code;\n"
           "                         ENC//IGNORE is -c, ENC//TRANSLIT --errors=replace\n"
           "      --errors=MODE      strict (stop at the first error, exit 1), replace\n"
           "                         (one U+FFFD per maximal subpart) or ignore\n"
           "  -c                     the same as --errors=ignore (as in iconv)\n"
           "  -s, --silent           no message for invalid input (the exit status stays)\n"
           "      --utf7-set-o       UTF-7 output: send Set O directly too (RFC 2152 Rule 1)\n"
           "      --corrected-pua    corrected-utf-8: write C1 controls and surrogates as the\n"
           "                         private-use U+F0080-U+F009F and U+FD800-U+FDFFF, and\n"
           "                         read those back as them\n"
           "      --bom=MODE         keep, strip or add a byte order mark (corrected-utf-8:\n"
           "                         its magic number); default keep, strip for\n"
           "                         corrected-utf-8 input\n"
           "  -o, --output=FILE      write to FILE instead of standard output\n"
           "  -l, --list             list the encodings (names are case-insensitive; iconv's\n"
           "                         spellings such as UTF8, UCS-4 work too; UTF-16 and\n"
           "                         UTF-32 read a byte order mark, little-endian without\n"
           "                         one, and write one, little-endian, as glibc's iconv)\n"
           "      --help             show this help\n"
           "      --version          show the version\n"
           "\n"
           "check: print one line 'FILE:LINE:COL: invalid ENC (KIND) at byte offset N'\n"
           "for each invalid FILE; exit 0 if all are valid, 1 otherwise.\n"
           "\n"
           "Exit status: 0 ok, 1 invalid input, 2 usage error, 3 read or write error.\n");
}

/* ---------------------------------------------------------------- output */

struct output {
    int fd;
    const char *name;
    enum utfdfa_encoding enc; /* what is written: whole characters of it */
    const uint8_t *owed;      /* written before the first byte of output (a BOM) */
    size_t owed_len;
};

/* Write p[0..n), whole characters of out->enc. When a write fails after a
 * short one (a full disk, a file size limit), the file would end inside a
 * character: a regular file is cut back to the last whole one. */
static int write_all(struct output *out, const uint8_t *p, size_t n)
{
    if (out->owed_len && n > 0) {
        size_t k = out->owed_len;
        out->owed_len = 0;
        if (write_all(out, out->owed, k) < 0)
            return -1;
    }
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(out->fd, p + done, n - done);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            int saved = errno;
            struct stat st;
            size_t whole = utfdfa_validate(out->enc, p, done, NULL);
            if (whole < done && fstat(out->fd, &st) == 0 && S_ISREG(st.st_mode)) {
                off_t end = lseek(out->fd, 0, SEEK_CUR);
                if (end >= (off_t)(done - whole))
                    (void)!ftruncate(out->fd, end - (off_t)(done - whole));
            }
            fprintf(stderr, "%s: %s: write error: %s\n", progname, out->name, strerror(saved));
            return -1;
        }
        done += (size_t)w;
    }
    return 0;
}

/* ---------------------------------------------------------------- input */

struct options {
    enum utfdfa_encoding from, to;
    enum utfdfa_errors errors;
    enum utfdfa_bom bom;
    unsigned encoder_options; /* enum utfdfa_encoder_option */
    unsigned from_width;      /* UTF-16 or UTF-32 without a byte order: 2 or 4, else 0 */
    unsigned to_width;
    bool silent;
};

static int read_some(int fd, const char *name, uint8_t *buf, size_t cap, size_t *got)
{
    for (;;) {
        ssize_t r = read(fd, buf, cap);
        if (r >= 0) {
            *got = (size_t)r;
            return 0;
        }
        if (errno != EINTR) {
            fprintf(stderr, "%s: %s: read error: %s\n", progname, name, strerror(errno));
            return -1;
        }
    }
}

/* Where the text stands: counted over the output of the transcoder, which
 * is always well-formed, with a decoder of its own. */
struct position {
    utfdfa_decoder dec; /* decodes the output; a BOM we added is not text */
    uint64_t line;      /* 1-based; lines end at LF */
    uint64_t column;    /* characters since the last LF */
};

static void count_lines(struct position *pos, const uint8_t *p, size_t n)
{
    uint32_t cps[1024];
    while (n > 0) {
        size_t s = n, m = sizeof cps / sizeof cps[0];
        utfdfa_decode_utf32(&pos->dec, p, &s, cps, &m, false, NULL);
        for (size_t i = 0; i < m; i++) {
            if (cps[i] == '\n') {
                pos->line++;
                pos->column = 0;
            } else {
                pos->column++;
            }
        }
        p += s;
        n -= s;
    }
}

/* One transcoding step. UTF-7 output goes through code points and the
 * encoder, so that at an error (where the output stops) the open base64
 * run is closed and what was written decodes to every character. */
static utfdfa_result step(utfdfa_decoder *dec, utfdfa_encoder *enc, enum utfdfa_encoding to,
                          const uint8_t *src, size_t *src_len, uint8_t *dst, size_t *dst_len,
                          bool last, utfdfa_error *err)
{
    if (to != UTFDFA_UTF7 && to != UTFDFA_UTF7_IMAP)
        return utfdfa_transcode(dec, to, src, src_len, dst, dst_len, last, err);
    static uint32_t cps[1024];
    size_t per = 0, ncp;
    utfdfa_max_encoded_len(UTFDFA_UTF7, 1, &per); /* a character, a signature and a "-" */
    ncp = *dst_len / per - 1;
    if (ncp > sizeof cps / sizeof cps[0])
        ncp = sizeof cps / sizeof cps[0];
    utfdfa_result r = utfdfa_decode_utf32(dec, src, src_len, cps, &ncp, last, err);
    /* At the end, or at an error (where the output stops), the run is
     * closed so that what was written decodes to every character. */
    size_t n = ncp;
    utfdfa_encode(enc, cps, &n, dst, dst_len,
                  (last && r == UTFDFA_INPUT_EMPTY) || r == UTFDFA_MALFORMED, NULL);
    return r;
}

/* Transcode one input file into the output stream (in check mode, into its
 * own encoding, only to count). Returns an exit status. The input's
 * signature (BOM, or Corrected UTF-8's magic number) is stripped when the
 * mode is strip or add, and add writes the output's (first file only: later
 * files are the middle of the output stream). The error report is the CLI
 * contract: see the file comment. */
static int process(int fd, const char *name, const struct options *opt, enum utfdfa_bom bom,
                   struct output *out, int check_mode)
{
    static uint8_t in[CHUNK];
    static uint8_t buf[4 * CHUNK + 16];
    /* UTF-16 or UTF-32 without a byte order: the file's BOM decides (and is
     * not text), little-endian without one, as glibc's iconv on this kind
     * of machine. The BOM may come in pieces: read until it is whole. */
    size_t have = 0;
    int eof = 0;
    enum utfdfa_encoding from = opt->from;
    if (opt->from_width) {
        while (have < opt->from_width && !eof) {
            size_t got;
            if (read_some(fd, name, in + have, sizeof in - have, &got) < 0)
                return EXIT_IO;
            have += got;
            eof = got == 0;
        }
        static const uint8_t be16[2] = {0xFE, 0xFF}, be32[4] = {0, 0, 0xFE, 0xFF};
        bool big = have >= opt->from_width &&
                   memcmp(in, opt->from_width == 2 ? be16 : be32, opt->from_width) == 0;
        from = opt->from_width == 2 ? (big ? UTFDFA_UTF16BE : UTFDFA_UTF16LE)
                                    : (big ? UTFDFA_UTF32BE : UTFDFA_UTF32LE);
        if (bom == UTFDFA_BOM_KEEP)
            bom = UTFDFA_BOM_STRIP;
    }
    enum utfdfa_encoding to = check_mode ? from : opt->to;
    utfdfa_decoder dec;
    utfdfa_decoder_init(&dec, from, opt->errors, bom);
    utfdfa_decoder_set_target(&dec, to);
    utfdfa_decoder_set_options(&dec, opt->encoder_options); /* also how corrected-utf-8 input reads */
    utfdfa_encoder enc;
    utfdfa_encoder_init(&enc, to, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    utfdfa_encoder_set_options(&enc, opt->encoder_options);
    struct position pos = {.line = 1, .column = 0};
    utfdfa_decoder_init(&pos.dec, to, UTFDFA_REPLACE,
                        bom == UTFDFA_BOM_ADD ? UTFDFA_BOM_STRIP : UTFDFA_BOM_KEEP);
    bool first = true;
    while (first || !eof) {
        size_t n = have;
        if (!(first && (have || eof))) {
            if (read_some(fd, name, in, sizeof in, &n) < 0)
                return EXIT_IO;
            eof = n == 0;
        }
        first = false;
        size_t done = 0;
        for (;;) {
            size_t src = n - done, m = sizeof buf;
            utfdfa_error err;
            utfdfa_result r = step(&dec, &enc, to, in + done, &src, buf, &m, eof, &err);
            done += src;
            count_lines(&pos, buf, m);
            if (out && write_all(out, buf, m) < 0)
                return EXIT_IO;
            if (r == UTFDFA_MALFORMED) {
                if (opt->silent)
                    ;
                else if (check_mode)
                    fprintf(stderr, "%s:%llu:%llu: invalid %s (%s) at byte offset %llu\n", name,
                            (unsigned long long)pos.line, (unsigned long long)pos.column + 1,
                            utfdfa_encoding_name(from), utfdfa_error_name(err.kind),
                            (unsigned long long)err.offset);
                else
                    fprintf(stderr,
                            "%s: %s: invalid %s (%s) at byte offset %llu, line %llu, column %llu\n",
                            progname, name, utfdfa_encoding_name(from),
                            utfdfa_error_name(err.kind), (unsigned long long)err.offset,
                            (unsigned long long)pos.line, (unsigned long long)pos.column + 1);
                return EXIT_INVALID;
            }
            if (r == UTFDFA_INPUT_EMPTY)
                break;
            /* OUTPUT_FULL: buf is written out; go on. */
        }
    }
    return 0;
}

/* An encoding name as iconv takes it: the library's names and aliases,
 * UTF-16 and UTF-32 without a byte order (*width 2 or 4), and a suffix
 * after "//": IGNORE (-c) or TRANSLIT (replacement; no transliteration is
 * done), which only an output encoding may carry (*errors). */
static void parse_encoding(const char *s, enum utfdfa_encoding *e, unsigned *width,
                           enum utfdfa_errors *errors)
{
    size_t len = strlen(s);
    const char *suffix = strstr(s, "//");
    if (suffix) {
        len = (size_t)(suffix - s);
        const char *what = suffix + 2;
        if (!errors && *what)
            usage_error("'%s': only the output encoding takes a //suffix", s);
        if (strcasecmp(what, "IGNORE") == 0)
            *errors = UTFDFA_IGNORE;
        else if (strcasecmp(what, "TRANSLIT") == 0)
            *errors = UTFDFA_REPLACE;
        else if (*what)
            usage_error("unknown suffix in '%s' (//IGNORE or //TRANSLIT)", s);
    }
    *width = 0;
    static const struct {
        const char *name;
        unsigned width;
        enum utfdfa_encoding enc;
    } wide[] = {{"utf-16", 2, UTFDFA_UTF16LE}, {"utf16", 2, UTFDFA_UTF16LE},
                {"utf-32", 4, UTFDFA_UTF32LE}, {"utf32", 4, UTFDFA_UTF32LE}};
    for (size_t k = 0; k < sizeof wide / sizeof wide[0]; k++)
        if (strlen(wide[k].name) == len && strncasecmp(s, wide[k].name, len) == 0) {
            *width = wide[k].width;
            *e = wide[k].enc;
            return;
        }
    if (!utfdfa_encoding_from_name(s, len, e))
        usage_error("unknown encoding '%s' (see 'utfdfa -l')", s);
}

/* Options in long form take "--name=value" or "--name value". */
static const char *option_value(int argc, char **argv, int *i, const char *arg, const char *name)
{
    size_t n = strlen(name);
    if (strncmp(arg, name, n) == 0 && arg[n] == '=')
        return arg + n + 1;
    if (strcmp(arg, name) == 0) {
        if (*i + 1 >= argc)
            usage_error("option '%s' needs a value", name);
        return argv[++*i];
    }
    return NULL;
}

static int open_input(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        fprintf(stderr, "%s: %s: %s\n", progname, path, strerror(errno));
        exit(EXIT_USAGE);
    }
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        fprintf(stderr, "%s: %s: is a directory\n", progname, path);
        exit(EXIT_USAGE);
    }
    return fd;
}

int main(int argc, char **argv)
{
    struct options opt = {UTFDFA_UTF8, UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP, 0, 0, 0, false};
    bool bom_given = false;
    const char *output = NULL;
    const char **files = calloc((size_t)argc + 1, sizeof *files);
    size_t nfiles = 0;
    int check_mode = 0, only_files = 0;
    if (!files) {
        fprintf(stderr, "%s: out of memory\n", progname);
        return EXIT_IO;
    }
    signal(SIGPIPE, SIG_IGN); /* a closed pipe is a write error (EPIPE), reported */

    int i = 1;
    if (argc > 1 && strcmp(argv[1], "check") == 0) {
        check_mode = 1;
        i = 2;
    }
    for (; i < argc; i++) {
        const char *a = argv[i], *v;
        if (only_files || a[0] != '-' || strcmp(a, "-") == 0) {
            files[nfiles++] = a;
        } else if (strcmp(a, "--") == 0) {
            only_files = 1;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            print_help();
            free(files);
            return 0;
        } else if (strcmp(a, "--version") == 0 || strcmp(a, "-V") == 0) {
            printf("utfdfa %s\n", UTFDFA_VERSION);
            free(files);
            return 0;
        } else if (strcmp(a, "-l") == 0 || strcmp(a, "--list") == 0) {
            for (unsigned e = 0; e < UTFDFA_NENCODINGS; e++)
                printf("%s\n", utfdfa_encoding_name((enum utfdfa_encoding)e));
            free(files);
            return 0;
        } else if ((v = option_value(argc, argv, &i, a, "-f")) ||
                   (v = option_value(argc, argv, &i, a, "--from")) ||
                   (v = option_value(argc, argv, &i, a, "--from-code"))) {
            parse_encoding(v, &opt.from, &opt.from_width, NULL);
        } else if (!check_mode && ((v = option_value(argc, argv, &i, a, "-t")) ||
                                   (v = option_value(argc, argv, &i, a, "--to")) ||
                                   (v = option_value(argc, argv, &i, a, "--to-code")))) {
            parse_encoding(v, &opt.to, &opt.to_width, &opt.errors);
        } else if (strcmp(a, "-s") == 0 || strcmp(a, "--silent") == 0) {
            opt.silent = true;
        } else if (!check_mode && ((v = option_value(argc, argv, &i, a, "-o")) ||
                                   (v = option_value(argc, argv, &i, a, "--output")))) {
            output = v;
        } else if (!check_mode && (v = option_value(argc, argv, &i, a, "--errors"))) {
            if (strcmp(v, "strict") == 0)
                opt.errors = UTFDFA_STRICT;
            else if (strcmp(v, "replace") == 0)
                opt.errors = UTFDFA_REPLACE;
            else if (strcmp(v, "ignore") == 0)
                opt.errors = UTFDFA_IGNORE;
            else
                usage_error("unknown error mode '%s' (strict, replace or ignore)", v);
        } else if (!check_mode && strcmp(a, "--utf7-set-o") == 0) {
            opt.encoder_options |= UTFDFA_UTF7_DIRECT_SET_O;
        } else if (!check_mode && strcmp(a, "--corrected-pua") == 0) {
            opt.encoder_options |= UTFDFA_CORRECTED_PUA;
        } else if (!check_mode && strcmp(a, "-c") == 0) {
            opt.errors = UTFDFA_IGNORE;
        } else if (!check_mode && (v = option_value(argc, argv, &i, a, "--bom"))) {
            bom_given = true;
            if (strcmp(v, "keep") == 0)
                opt.bom = UTFDFA_BOM_KEEP;
            else if (strcmp(v, "strip") == 0)
                opt.bom = UTFDFA_BOM_STRIP;
            else if (strcmp(v, "add") == 0)
                opt.bom = UTFDFA_BOM_ADD;
            else
                usage_error("unknown BOM mode '%s' (keep, strip or add)", v);
        } else {
            usage_error("unknown option '%s'", a);
        }
    }

    /* Corrected UTF-8's magic number is not part of the text: strip it unless told. */
    if (!bom_given && opt.from == UTFDFA_CORRECTED_UTF8)
        opt.bom = UTFDFA_BOM_STRIP;

    if (check_mode) {
        if (nfiles == 0)
            usage_error("%s", "check needs at least one FILE");
        int status = 0;
        for (size_t k = 0; k < nfiles; k++) {
            int is_stdin = strcmp(files[k], "-") == 0;
            int fd = is_stdin ? STDIN_FILENO : open_input(files[k]);
            int r = process(fd, is_stdin ? "<stdin>" : files[k], &opt, UTFDFA_BOM_KEEP, NULL, 1);
            if (fd != STDIN_FILENO)
                close(fd);
            if (r == EXIT_IO)
                return EXIT_IO;
            if (r)
                status = EXIT_INVALID;
        }
        free(files);
        return status;
    }

    /* Open every input first: a usage error must not leave a half-written output. */
    int *fds = calloc(nfiles + 1, sizeof *fds);
    if (!fds) {
        fprintf(stderr, "%s: out of memory\n", progname);
        return EXIT_IO;
    }
    for (size_t k = 0; k < nfiles; k++)
        fds[k] = strcmp(files[k], "-") == 0 ? STDIN_FILENO : open_input(files[k]);

    static struct output out;
    out.fd = STDOUT_FILENO;
    out.name = "standard output";
    out.enc = opt.to;
    if (output) {
        struct stat ost;
        if (stat(output, &ost) == 0) {
            /* Without FILEs the input is standard input: it may be the file too. */
            if (nfiles == 0)
                fds[0] = STDIN_FILENO;
            for (size_t k = 0; k < (nfiles ? nfiles : 1); k++) {
                struct stat ist;
                if (fstat(fds[k], &ist) == 0 && ist.st_dev == ost.st_dev &&
                    ist.st_ino == ost.st_ino && S_ISREG(ist.st_mode)) {
                    fprintf(stderr, "%s: %s: the output file is also an input; refusing to "
                                    "overwrite it\n", progname, output);
                    free(fds);
                    free(files);
                    return EXIT_USAGE;
                }
            }
        }
        out.fd = open(output, O_WRONLY | O_CREAT | O_TRUNC, 0666);
        if (out.fd < 0) {
            fprintf(stderr, "%s: %s: %s\n", progname, output, strerror(errno));
            return EXIT_USAGE;
        }
        out.name = output;
    }

    /* All inputs make one output stream, so the BOM mode acts once, at its
     * start (first file); later files' signatures are text. UTF-16 and
     * UTF-32 without a byte order begin with a BOM of their own, as glibc's
     * iconv writes them: before the first character (none for no text),
     * then the text, a U+FEFF in it included. */
    int status = 0;
    static const uint8_t le_bom[4] = {0xFF, 0xFE, 0, 0};
    out.owed = le_bom;
    out.owed_len = opt.to_width;
    if (nfiles == 0) {
        status = process(STDIN_FILENO, "<stdin>", &opt, opt.bom, &out, 0);
    } else {
        for (size_t k = 0; k < nfiles && !status; k++)
            status = process(fds[k], strcmp(files[k], "-") == 0 ? "<stdin>" : files[k], &opt,
                             k == 0 ? opt.bom : UTFDFA_BOM_KEEP, &out, 0);
    }
    if (output && close(out.fd) < 0 && status == 0) {
        fprintf(stderr, "%s: %s: write error: %s\n", progname, output, strerror(errno));
        status = EXIT_IO;
    }
    for (size_t k = 0; k < nfiles; k++)
        if (fds[k] != STDIN_FILENO)
            close(fds[k]);
    free(fds);
    free(files);
    return status;
}
