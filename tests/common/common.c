/* SPDX-License-Identifier: MIT */
#include "common.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

unsigned long passed, failed;

void fail(const char *fmt, ...)
{
    va_list ap;
    failed++;
    if (failed > 40)
        return;
    va_start(ap, fmt);
    fprintf(stderr, "FAIL: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
}

int check_summary(const char *name)
{
    printf("%s: %lu passed, %lu failed\n", name, passed, failed);
    return failed != 0;
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        perror("malloc");
        exit(2);
    }
    return p;
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        perror("realloc");
        exit(2);
    }
    return q;
}

uint8_t *dup_exact(const uint8_t *s, size_t n)
{
    uint8_t *p = xmalloc(n);
    if (n)
        memcpy(p, s, n);
    return p;
}

/* The next space-separated hex number of *h into *v; false at the end. */
static bool next_hex(const char **h, unsigned long *v)
{
    while (**h == ' ')
        (*h)++;
    if (!**h)
        return false;
    *v = strtoul(*h, (char **)h, 16);
    return true;
}

size_t parse_hex(const char *h, uint8_t *out, size_t max)
{
    size_t n = 0;
    unsigned long v;
    while (n < max && next_hex(&h, &v))
        out[n++] = (uint8_t)v;
    return n;
}

size_t parse_cps(const char *h, uint32_t *out, size_t max)
{
    size_t n = 0;
    unsigned long v;
    while (n < max && next_hex(&h, &v))
        out[n++] = (uint32_t)v;
    return n;
}

const char *hex(const uint8_t *s, size_t n)
{
    static char buf[3 * 64 + 8];
    size_t k = 0;
    buf[0] = 0;
    for (size_t i = 0; i < n && i < 64; i++)
        k += (size_t)snprintf(buf + k, sizeof buf - k, i ? " %02X" : "%02X", s[i]);
    if (n > 64)
        snprintf(buf + k, sizeof buf - k, " ...");
    return buf;
}
