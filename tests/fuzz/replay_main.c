/* SPDX-License-Identifier: MIT */
/* A main() for the fuzz targets without libFuzzer: runs
 * LLVMFuzzerTestOneInput on every file named (directories are read one
 * level deep, in name order), each input in an exact-size heap buffer.
 * Built with -fsanitize=address,undefined by `make check-sanitize` to
 * replay the seed corpus and tests/fuzz/regressions/. A failing input
 * aborts (the target's own checks) with the input printed.
 *
 * Usage: replay NAME PATH...   prints "NAME: N passed, 0 failed".
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned long inputs;

static void run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(2);
    }
    size_t cap = 4096, len = 0, got;
    uint8_t *buf = malloc(cap);
    while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap)
            buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    if (!buf) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    uint8_t *exact = malloc(len ? len : 1);
    if (!exact) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    if (len)
        memcpy(exact, buf, len);
    free(buf);
    LLVMFuzzerTestOneInput(exact, len);
    free(exact);
    inputs++;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void run_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        perror(path);
        exit(2);
    }
    if (!S_ISDIR(st.st_mode)) {
        run_file(path);
        return;
    }
    DIR *dir = opendir(path);
    if (!dir) {
        perror(path);
        exit(2);
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(dir)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            names = realloc(names, cap * sizeof *names);
        }
        size_t len = strlen(path) + strlen(de->d_name) + 2;
        names[n] = malloc(len);
        snprintf(names[n], len, "%s/%s", path, de->d_name);
        n++;
    }
    closedir(dir);
    if (n)
        qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        struct stat fst;
        if (stat(names[i], &fst) == 0 && S_ISREG(fst.st_mode))
            run_file(names[i]);
        free(names[i]);
    }
    free(names);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: replay NAME PATH...\n");
        return 2;
    }
    for (int i = 2; i < argc; i++)
        run_path(argv[i]);
    printf("%s: %lu passed, 0 failed\n", argv[1], inputs);
    return 0;
}
