/* SPDX-License-Identifier: MIT */
/* What the C test programs share: the pass/fail counts, fail() (the first
 * 40 failures are printed, "FAIL: ..." on stderr, the rest only counted),
 * and CHECK(condition, printf-style message). Each program ends with the
 * line "NAME: N passed, M failed" and exits non-zero when M > 0. */
#ifndef UTFDFA_TESTS_CHECK_H
#define UTFDFA_TESTS_CHECK_H

#include <stdarg.h>
#include <stdio.h>

static unsigned long passed, failed;

#if defined(__GNUC__)
static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#endif

static void fail(const char *fmt, ...)
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

#define CHECK(cond, ...) ((cond) ? (void)passed++ : fail(__VA_ARGS__))

#endif /* UTFDFA_TESTS_CHECK_H */
