/* SPDX-License-Identifier: MIT */
/* What the C test programs share: the pass/fail counts, fail() (the first
 * 40 failures are printed, "FAIL: ..." on stderr, the rest only counted),
 * and CHECK(condition, printf-style message). Each program ends with the
 * line "NAME: N passed, M failed" (check_summary) and exits non-zero when
 * M > 0. Defined once, in tests/common/common.c. */
#ifndef UTFDFA_TESTS_CHECK_H
#define UTFDFA_TESTS_CHECK_H

extern unsigned long passed, failed;

#if defined(__GNUC__)
void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#else
void fail(const char *fmt, ...);
#endif

#define CHECK(cond, ...) ((cond) ? (void)passed++ : fail(__VA_ARGS__))

/* Prints "name: N passed, M failed"; the exit status main returns. */
int check_summary(const char *name);

#endif /* UTFDFA_TESTS_CHECK_H */
