/* SPDX-License-Identifier: MIT */
/* The output stream: -o through a temporary file, or standard output (see
 * output.h). */
#define _XOPEN_SOURCE 700 /* realpath */
#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* For the signal handler: the temporary file of this run, if any. */
static const char *volatile temp_to_remove;

static char *copy(const char *s)
{
    char *p = malloc(strlen(s) + 1);
    if (!p) {
        fprintf(stderr, "%s: out of memory\n", progname);
        exit(EXIT_IO);
    }
    return strcpy(p, s);
}

/* "DIR/.NAME.XXXXXX" beside target. */
static char *temp_name_for(const char *target)
{
    const char *slash = strrchr(target, '/');
    size_t dir = slash ? (size_t)(slash - target) + 1 : 0;
    char *t = malloc(strlen(target) + 10);
    if (!t) {
        fprintf(stderr, "%s: out of memory\n", progname);
        exit(EXIT_IO);
    }
    memcpy(t, target, dir);
    sprintf(t + dir, ".%s.XXXXXX", target + dir);
    return t;
}

/* A temporary file beside the target with the mode and owner the file has
 * (or a new file would get); -1 if the directory does not allow one, or
 * the owner cannot be kept (the file is then written in place). */
static int open_temp(struct output *out, const struct stat *existing)
{
    out->temp = temp_name_for(out->target);
    int fd = mkstemp(out->temp);
    if (fd >= 0 && existing && (existing->st_uid != geteuid() || existing->st_gid != getegid()) &&
        fchown(fd, existing->st_uid, existing->st_gid) < 0) {
        close(fd);
        unlink(out->temp);
        fd = -1;
    }
    if (fd < 0) {
        free(out->temp);
        out->temp = NULL;
        return -1;
    }
    mode_t mask = umask(0);
    umask(mask);
    (void)!fchmod(fd, existing ? existing->st_mode & 07777 : 0666 & ~mask);
    temp_to_remove = out->temp;
    return fd;
}

/* Whether st is the file behind standard output or error (-o /dev/stdout). */
static bool is_a_standard_stream(const struct stat *st)
{
    struct stat fst;
    for (int fd = STDOUT_FILENO; fd <= STDERR_FILENO; fd++)
        if (fstat(fd, &fst) == 0 && fst.st_dev == st->st_dev && fst.st_ino == st->st_ino)
            return true;
    return false;
}

int output_open(struct output *out, const char *path)
{
    memset(out, 0, sizeof *out);
    out->path = path;
    out->fd = STDOUT_FILENO;
    out->name = "standard output";
    if (!path)
        return 0;
    out->name = path;
    struct stat st, lst;
    bool exists = stat(path, &st) == 0;
    if (exists && S_ISREG(st.st_mode) && is_a_standard_stream(&st))
        return 0; /* -o /dev/stdout: written where standard output writes, never replaced */
    if (exists && S_ISREG(st.st_mode) && access(path, W_OK) < 0) {
        fprintf(stderr, "%s: %s: %s\n", progname, path, strerror(errno));
        return -1; /* as a shell's redirection: not replaced behind the user's back */
    }
    bool dangling = !exists && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode);
    /* A device or fifo is written in place (and so is a dangling link's
     * target, and a file with other hard links, which stay its names); a
     * regular file or a new name through a renamed temporary. */
    if (!(exists && (!S_ISREG(st.st_mode) || st.st_nlink > 1)) && !dangling) {
        char resolved[PATH_MAX];
        out->target = copy(exists && realpath(path, resolved) ? resolved : path);
        out->fd = open_temp(out, exists ? &st : NULL);
        if (out->fd >= 0)
            return 0;
        free(out->target); /* no temporary possible there: write in place */
        out->target = NULL;
    }
    out->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (out->fd < 0) {
        fprintf(stderr, "%s: %s: %s\n", progname, path, strerror(errno));
        return -1;
    }
    return 0;
}

int output_write(struct output *out, const uint8_t *p, size_t n, size_t *done)
{
    *done = 0;
    while (*done < n) {
        ssize_t w = write(out->fd, p + *done, n - *done);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            if (errno != EPIPE) /* a reader gone (SIGPIPE blocked): quietly, as cat */
                fprintf(stderr, "%s: %s: write error: %s\n", progname, out->name,
                        strerror(errno));
            return -1;
        }
        *done += (size_t)w;
        out->written += (uint64_t)w;
    }
    return 0;
}

int output_cut(struct output *out, uint64_t length)
{
    /* From where this run's bytes end: the file may have had content before
     * them (>>, or -o /dev/stdout). */
    struct stat st;
    off_t end = lseek(out->fd, 0, SEEK_CUR);
    uint64_t drop = out->written - length;
    if (length > out->written || fstat(out->fd, &st) != 0 || !S_ISREG(st.st_mode) || end < 0 ||
        (uint64_t)end < drop || ftruncate(out->fd, end - (off_t)drop) < 0 ||
        lseek(out->fd, end - (off_t)drop, SEEK_SET) < 0)
        return -1;
    out->written = length;
    return 0;
}

int output_append_after_cut(struct output *out, const uint8_t *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(out->fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
        out->written += (uint64_t)w;
    }
    return 0;
}

int output_close(struct output *out)
{
    int status = 0;
    /* The new file is on disk before it takes the old one's name. */
    if (out->temp && fsync(out->fd) < 0) {
        fprintf(stderr, "%s: %s: write error: %s\n", progname, out->name, strerror(errno));
        status = -1;
    }
    if (close(out->fd) < 0 && !(errno == EBADF && out->fd == STDOUT_FILENO)) {
        fprintf(stderr, "%s: %s: write error: %s\n", progname, out->name, strerror(errno));
        status = -1;
    }
    if (out->temp) {
        if (rename(out->temp, out->target) < 0) {
            fprintf(stderr, "%s: %s: %s\n", progname, out->name, strerror(errno));
            unlink(out->temp);
            status = -1;
        }
        temp_to_remove = NULL;
        free(out->temp);
        free(out->target);
        out->temp = out->target = NULL;
    }
    return status;
}

void output_remove_temp_on_signal(void)
{
    const char *t = (const char *)temp_to_remove;
    if (t)
        unlink(t);
}
