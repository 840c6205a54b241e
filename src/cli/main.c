/* SPDX-License-Identifier: MIT */
/* utfdfa: iconv-like transcoder and validator built on libutfdfa.
 *
 *   utfdfa [-f FROM] [-t TO[//IGNORE|//TRANSLIT]] [--errors=strict|replace|ignore]
 *          [--bom=keep|strip|add] [-c] [-s] [-o OUT] [FILE...]
 *   utfdfa check [-f FROM] [--all] [-s] [FILE...]
 *   utfdfa -l | --help | --version
 *
 * Exit status: 0 success; 1 invalid input (strict transcoding, or check;
 * also a character the output encoding cannot hold) or a FILE that cannot
 * be opened (missing, unreadable, a directory: the others are still
 * converted or checked, as iconv and cat do); 2 usage errors (unknown
 * option or encoding, an output that is also an input); 3 read or write
 * errors (the output written so far holds whole characters only). A closed
 * pipe ends the run quietly, by SIGPIPE, as cat's and iconv's do.
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

#include "cli.h"
#include "encoding_rows.gen.h"
#include "output.h"
#include "stream.h"

const char *const progname = "utfdfa";

/* A usage error: the message, then one parenthetical, the hint (by
 * default, to read --help). */
static void usage_error_with_hint(const char *fmt, const char *arg, const char *hint)
{
    fprintf(stderr, "%s: ", progname);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, " (%s)\n", hint);
    exit(EXIT_USAGE);
}

static void usage_error(const char *fmt, const char *arg)
{
    usage_error_with_hint(fmt, arg, "try 'utfdfa --help'");
}

static void print_help(void)
{
    printf("Usage: utfdfa [OPTION]... [FILE]...\n"
           "       utfdfa check [-f FROM] [--all] [-s] [FILE]...\n"
           "Transcode FILEs (or standard input) between Unicode encodings, streaming.\n"
           "\n"
           "  -f, --from=ENC         input encoding (default utf-8); also --from-code\n"
           "  -t, --to=ENC           output encoding (default utf-8); also --to-code;\n"
           "                         ENC//IGNORE is -c, ENC//TRANSLIT --errors=replace\n"
           "                         (both: IGNORE); a suffix on -f is ignored\n"
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
           "  -l, --list             list the encodings and the other names each takes\n"
           "                         (case-insensitive)\n"
           "      --help             show this help\n"
           "      --version          show the version\n"
           "\n"
           "UTF-16 and UTF-32 without a byte order: read, a byte order mark decides\n"
           "(little-endian without one) and is not text; written, little-endian after a\n"
           "byte order mark, as glibc's iconv.\n"
           "\n"
           "check: validate FILEs (or standard input); print one line\n"
           "'FILE:LINE:COL: invalid ENC (KIND) at byte offset N' for the first error of\n"
           "each invalid FILE, or with --all for every error and then how many; exit 0 if\n"
           "all are valid, 1 otherwise.\n"
           "\n"
           "Exit status: 0 ok, 1 invalid input or a FILE that cannot be opened (the\n"
           "others are still done), 2 usage error, 3 read or write error.\n");
}

/* The encodings, each with the other names it takes: one row each, the
 * aliases in a column after the longest name, no trailing blanks. */
static void print_list(void)
{
    int width = 0;
    for (unsigned e = 0; e < UTFDFA_NENCODINGS; e++) {
        int n = (int)strlen(utfdfa_encoding_name((enum utfdfa_encoding)e));
        width = n > width ? n : width;
    }
    for (unsigned e = 0; e < UTFDFA_NENCODINGS; e++) {
        const char *name = utfdfa_encoding_name((enum utfdfa_encoding)e), *alias;
        fputs(name, stdout);
        for (size_t k = 0; (alias = utfdfa_encoding_alias((enum utfdfa_encoding)e, k)); k++) {
            if (k == 0)
                printf("%*s%s", width + 2 - (int)strlen(name), "", alias);
            else
                printf(", %s", alias);
        }
        putchar('\n');
    }
}

/* iconv's suffixes: "//" then words separated by "//" or ",": IGNORE (-c)
 * and TRANSLIT (replacement; no transliteration is done), IGNORE winning
 * when both are given, as iconv then skips invalid input. An empty word is
 * nothing; an unknown one a usage error. */
static enum utfdfa_error_mode parse_suffixes(const char *s, const char *what,
                                             enum utfdfa_error_mode mode)
{
    bool ignore = false, translit = false;
    while (*what) {
        size_t n = strcspn(what, "/,");
        if (n == 6 && strncasecmp(what, "IGNORE", n) == 0)
            ignore = true;
        else if (n == 8 && strncasecmp(what, "TRANSLIT", n) == 0)
            translit = true;
        else if (n)
            usage_error_with_hint("unknown suffix in '%s'", s, "//IGNORE, //TRANSLIT or both");
        what += n + (what[n] != 0);
    }
    return ignore ? UTFDFA_IGNORE : translit ? UTFDFA_REPLACE : mode;
}

/* An encoding name as iconv takes it: the library's names and aliases,
 * then iconv's suffixes (parse_suffixes), which set *errors for the output
 * encoding and are accepted and ignored on the input one (errors NULL), as
 * iconv ignores them there. */
static void parse_encoding(const char *s, enum utfdfa_encoding *e,
                           enum utfdfa_error_mode *errors)
{
    size_t len = strlen(s);
    const char *suffix = strstr(s, "//");
    if (suffix) {
        len = (size_t)(suffix - s);
        enum utfdfa_error_mode mode = parse_suffixes(s, suffix + 2, errors ? *errors : UTFDFA_STRICT);
        if (errors)
            *errors = mode;
    }
    if (!utfdfa_encoding_from_name(s, len, e))
        usage_error_with_hint("unknown encoding '%s'", s, "see 'utfdfa -l'");
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

/* The index of v among names (the library's enum order), or a usage error. */
static unsigned choice(const char *v, const char *const *names, const char *what)
{
    for (unsigned k = 0; names[k]; k++)
        if (strcmp(v, names[k]) == 0)
            return k;
    fprintf(stderr, "%s: unknown %s '%s' (", progname, what, v);
    for (unsigned k = 0; names[k]; k++)
        fprintf(stderr, "%s%s", k ? (names[k + 1] ? ", " : " or ") : "", names[k]);
    fprintf(stderr, ")\n");
    exit(EXIT_USAGE);
}

static bool is_stdin(const char *file)
{
    return strcmp(file, "-") == 0;
}

static const char *display_name(const char *file)
{
    return is_stdin(file) ? "<stdin>" : file;
}

/* The input FILE ("-": standard input), never a directory; -1 (the
 * reason printed) if it cannot be read. */
static int open_input(const char *file)
{
    int fd = is_stdin(file) ? STDIN_FILENO : open(file, O_RDONLY);
    if (fd < 0) {
        fprintf(stderr, "%s: %s: %s\n", progname, file, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        fprintf(stderr, "%s: %s: is a directory\n", progname, display_name(file));
        if (fd != STDIN_FILENO)
            close(fd);
        return -1;
    }
    return fd;
}

/* A standard stream the caller closed is opened on /dev/null the wrong way
 * round (as coreutils does): no file this run opens takes its number, and
 * using it fails as a read or write error instead of going elsewhere. */
static void occupy_closed_standard_streams(void)
{
    for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++)
        if (fcntl(fd, F_GETFD) < 0 && errno == EBADF)
            (void)!open("/dev/null", fd == STDIN_FILENO ? O_WRONLY : O_RDONLY);
}

/* Whether st is the same regular file as one of the inputs: writing it
 * would read the output back (cat: "input file is output file"). */
static bool is_an_input(const struct stat *st, const int *fds, size_t n)
{
    struct stat ist;
    if (!S_ISREG(st->st_mode))
        return false;
    for (size_t k = 0; k < n; k++)
        if (fstat(fds[k], &ist) == 0 && ist.st_dev == st->st_dev && ist.st_ino == st->st_ino)
            return true;
    return false;
}

static bool output_is_an_input(const char *output, const int *fds, size_t n)
{
    struct stat st;
    if (output ? stat(output, &st) != 0 : fstat(STDOUT_FILENO, &st) != 0)
        return false;
    return is_an_input(&st, fds, n);
}

static void on_signal(int sig)
{
    output_remove_temp_on_signal();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void set_signals(void)
{
    signal(SIGPIPE, SIG_DFL); /* a closed pipe ends the run quietly, as cat's */
    signal(SIGXFSZ, SIG_IGN); /* a file size limit is a write error (EFBIG), reported */
    static const int ending[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGUSR1, SIGUSR2};
    for (size_t k = 0; k < sizeof ending / sizeof ending[0]; k++)
        if (signal(ending[k], on_signal) == SIG_IGN)
            signal(ending[k], SIG_IGN); /* ignored by the caller: stays so */
}

static int run_check(const struct options *opt, const char **files, size_t nfiles)
{
    static const char *const stdin_only[] = {"-"};
    if (nfiles == 0)
        files = (const char **)stdin_only, nfiles = 1;
    struct check_totals totals = {0, 0};
    int status = 0;
    for (size_t k = 0; k < nfiles; k++) {
        int fd = open_input(files[k]);
        if (fd < 0) { /* the others are still checked */
            status = EXIT_INVALID;
            continue;
        }
        int r = check_file(fd, display_name(files[k]), opt, &totals);
        if (fd != STDIN_FILENO)
            close(fd);
        if (r == EXIT_IO)
            return EXIT_IO;
        if (r)
            status = EXIT_INVALID;
    }
    if (opt->all && !opt->silent)
        fprintf(stderr, "%s: check: %llu error%s in %zu of %zu file%s\n", progname,
                (unsigned long long)totals.errors, totals.errors == 1 ? "" : "s",
                totals.invalid_files, nfiles, nfiles == 1 ? "" : "s");
    return status;
}

/* Transcode the opened inputs fds[0..nfiles) into one output stream. */
static int transcode_all(const struct options *opt, const char **files, const int *fds,
                         size_t nfiles, const char *output)
{
    if (output_is_an_input(output, fds, nfiles)) {
        fprintf(stderr, "%s: %s: input file is output file; refusing to overwrite it\n",
                progname, output ? output : "standard output");
        return EXIT_USAGE;
    }
    struct output out;
    if (output_open(&out, output) < 0)
        return EXIT_USAGE;
    /* All inputs make one output stream, so the BOM mode acts once, at its
     * start (first file); later files' signatures are text. UTF-16 and
     * UTF-32 without a byte order begin with a BOM of their own, written by
     * the library before the first character (see transcode_file). */
    struct sink sink = {&out, opt->to, 0};
    int status = 0;
    for (size_t k = 0; k < nfiles && !status; k++)
        status = transcode_file(fds[k], display_name(files[k]), opt,
                                k == 0 ? opt->bom : UTFDFA_BOM_KEEP, &sink);
    if (output_close(&out) < 0 && status == 0)
        status = EXIT_IO;
    return status;
}

/* Open every input first (a usage error found after them, an output that
 * is an input, must not leave a half-written output). A FILE that cannot be
 * opened is named and left out; the others are converted, and the run
 * fails with EXIT_INVALID, as iconv and cat do. */
static int run_transcode(const struct options *opt, const char **files, size_t nfiles,
                         const char *output)
{
    static const char *const stdin_only[] = {"-"};
    if (nfiles == 0)
        files = (const char **)stdin_only, nfiles = 1;
    int *fds = calloc(nfiles, sizeof *fds);
    const char **opened = calloc(nfiles, sizeof *opened);
    if (!fds || !opened) {
        free(fds);
        free((void *)opened);
        fprintf(stderr, "%s: out of memory\n", progname);
        return EXIT_IO;
    }
    size_t nopen = 0;
    for (size_t k = 0; k < nfiles; k++)
        if ((fds[nopen] = open_input(files[k])) >= 0)
            opened[nopen++] = files[k];
    int status = nopen ? transcode_all(opt, opened, fds, nopen, output) : 0;
    if (nopen < nfiles && status == 0)
        status = EXIT_INVALID;
    for (size_t k = 0; k < nopen; k++)
        if (fds[k] > STDIN_FILENO)
            close(fds[k]);
    free(fds);
    free((void *)opened);
    return status;
}

/* What the command line asks for. */
struct request {
    struct options opt;
    bool check_mode;
    bool done;          /* --help, --version or -l answered it */
    const char *output; /* -o FILE */
    const char **files;
    size_t nfiles;
};

/* Read the options into r (files has room for argc); usage errors exit. */
static void parse_arguments(int argc, char **argv, struct request *r)
{
    bool bom_given = false, only_files = false;
    struct options *opt = &r->opt;
    int i = 1;
    if (argc > 1 && strcmp(argv[1], "check") == 0) {
        r->check_mode = true;
        i = 2;
    }
    for (; i < argc && !r->done; i++) {
        const char *a = argv[i], *v;
        if (only_files || a[0] != '-' || strcmp(a, "-") == 0) {
            r->files[r->nfiles++] = a;
        } else if (strcmp(a, "--") == 0) {
            only_files = true;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            print_help();
            r->done = true;
        } else if (strcmp(a, "--version") == 0 || strcmp(a, "-V") == 0) {
            printf("utfdfa %s\n", UTFDFA_VERSION);
            r->done = true;
        } else if (strcmp(a, "-l") == 0 || strcmp(a, "--list") == 0) {
            print_list();
            r->done = true;
        } else if ((v = option_value(argc, argv, &i, a, "-f")) ||
                   (v = option_value(argc, argv, &i, a, "--from")) ||
                   (v = option_value(argc, argv, &i, a, "--from-code"))) {
            parse_encoding(v, &opt->from, NULL);
        } else if (strcmp(a, "-s") == 0 || strcmp(a, "--silent") == 0) {
            opt->silent = true;
        } else if (r->check_mode && strcmp(a, "--all") == 0) {
            opt->all = true;
        } else if (r->check_mode) {
            usage_error("unknown option '%s' for check", a);
        } else if ((v = option_value(argc, argv, &i, a, "-t")) ||
                   (v = option_value(argc, argv, &i, a, "--to")) ||
                   (v = option_value(argc, argv, &i, a, "--to-code"))) {
            parse_encoding(v, &opt->to, &opt->errors);
        } else if ((v = option_value(argc, argv, &i, a, "-o")) ||
                   (v = option_value(argc, argv, &i, a, "--output"))) {
            if (!*v)
                usage_error("%s", "-o needs a file name");
            r->output = v;
        } else if ((v = option_value(argc, argv, &i, a, "--errors"))) {
            static const char *const modes[] = {"strict", "replace", "ignore", NULL};
            opt->errors = (enum utfdfa_error_mode)choice(v, modes, "error mode");
        } else if (strcmp(a, "--utf7-set-o") == 0) {
            opt->encoder_options |= UTFDFA_UTF7_DIRECT_SET_O;
        } else if (strcmp(a, "--corrected-pua") == 0) {
            opt->encoder_options |= UTFDFA_CORRECTED_PUA;
        } else if (strcmp(a, "-c") == 0) {
            opt->errors = UTFDFA_IGNORE;
        } else if ((v = option_value(argc, argv, &i, a, "--bom"))) {
            static const char *const modes[] = {"keep", "strip", "add", NULL};
            opt->bom = (enum utfdfa_bom)choice(v, modes, "BOM mode");
            bom_given = true;
        } else {
            usage_error("unknown option '%s'", a);
        }
    }
    /* A magic number (Corrected UTF-8's) is not part of the text: strip it unless told. */
    if (!bom_given && utfdfa_row_magic(opt->from))
        opt->bom = UTFDFA_BOM_STRIP;
}

/* --help, -l and --version succeed only if what they print was written. */
static int printed(void)
{
    if (fflush(stdout) == 0 && !ferror(stdout))
        return 0;
    fprintf(stderr, "%s: standard output: write error: %s\n", progname, strerror(errno));
    return EXIT_IO;
}

int main(int argc, char **argv)
{
    struct request r = {{UTFDFA_UTF8, UTFDFA_UTF8, UTFDFA_STRICT, UTFDFA_BOM_KEEP, 0, false, false},
                        false, false, NULL, NULL, 0};
    r.files = calloc((size_t)argc + 1, sizeof *r.files);
    if (!r.files) {
        fprintf(stderr, "%s: out of memory\n", progname);
        return EXIT_IO;
    }
    set_signals();
    occupy_closed_standard_streams();
    parse_arguments(argc, argv, &r);
    int status = r.done         ? printed()
                 : r.check_mode ? run_check(&r.opt, r.files, r.nfiles)
                                : run_transcode(&r.opt, r.files, r.nfiles, r.output);
    free(r.files);
    return status;
}
