/* SPDX-License-Identifier: MIT */
/* Cross-check of the generated UTF-8 DFA against an independent oracle:
 * re2c's own UTF-8 encoder (re2c -8 --encoding-policy fail) compiling the
 * code point class [\x00-\uD7FF\uE000-\U0010FFFF], i.e. every Unicode scalar
 * value (RFC 3629 section 3: U+0000..U+10FFFF minus the surrogates).
 *
 * Every byte string of length 1 to 4 (all 2^32 of length 4, split over
 * threads) must get the same verdict from both: is it a sequence of whole
 * characters? And exactly 1,112,064 of them must be one single character.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "utf8.gen.h"

/* 1 if s[0..n) is a sequence of scalar values in re2c's UTF-8, else 0;
 * *chars = how many. Never reads s[n]: YYPEEK stands in 0 at the end. */
static int re2c_valid(const unsigned char *s, size_t n, unsigned *chars)
{
    const unsigned char *cur = s, *lim = s + n, *mar = s;
    (void)mar;
    *chars = 0;
    for (;;) {
    /*!re2c
        re2c:api = custom;
        re2c:api:style = free-form;
        re2c:define:YYCTYPE = "unsigned char";
        re2c:define:YYPEEK = "(cur < lim ? *cur : 0)";
        re2c:define:YYSKIP = "++cur;";
        re2c:define:YYBACKUP = "mar = cur;";
        re2c:define:YYRESTORE = "cur = mar;";
        re2c:define:YYLESSTHAN = "(size_t)(lim - cur) < @@{len}";
        re2c:define:YYFILL = "0";
        re2c:eof = 0;

        [\x00-\uD7FF\uE000-\U0010FFFF] { ++*chars; continue; }
        * { return 0; }
        $ { return 1; }
    */
    }
}

struct job {
    unsigned first_lo, first_hi;  /* first byte range of the 4-byte strings */
    unsigned long long mismatches, one_char;
};

static void report(const unsigned char *s, size_t n, int ours, int theirs)
{
    fprintf(stderr, "re2c_cross: mismatch on");
    for (size_t i = 0; i < n; i++)
        fprintf(stderr, " %02X", s[i]);
    fprintf(stderr, ": generated DFA %s, re2c %s\n", ours ? "accepts" : "rejects",
            theirs ? "accepts" : "rejects");
}

/* Walk all strings of length len below prefix (depth bytes fixed) with the DFA state. */
static void walk(struct job *j, unsigned char *s, size_t depth, size_t len, uint32_t state,
                 int returned)
{
    if (depth == len) {
        unsigned chars;
        int ours = state == UTF8_ACCEPT;
        int theirs = re2c_valid(s, len, &chars);
        if (ours != theirs) {
            if (j->mismatches++ < 10)
                report(s, len, ours, theirs);
        }
        if (ours && !returned && chars == 1)
            j->one_char++;
        return;
    }
    unsigned lo = depth == 0 && len == 4 ? j->first_lo : 0;
    unsigned hi = depth == 0 && len == 4 ? j->first_hi : 255;
    for (unsigned b = lo; b <= hi; b++) {
        s[depth] = (unsigned char)b;
        uint32_t next = utf8_step(state, (uint8_t)b);
        /* "returned": the DFA came back to ACCEPT before the last byte, so the
         * string holds more than one character. */
        walk(j, s, depth + 1, len, next,
             returned || (depth + 1 < len && next == UTF8_ACCEPT));
    }
}

static void *run(void *arg)
{
    struct job *j = arg;
    unsigned char s[4];
    walk(j, s, 0, 4, UTF8_START, 0);
    return NULL;
}

int main(void)
{
    unsigned long long mismatches = 0, one_char = 0;
    unsigned char s[4];
    for (size_t len = 1; len <= 3; len++) {
        struct job j = {0, 255, 0, 0};
        walk(&j, s, 0, len, UTF8_START, 0);
        mismatches += j.mismatches;
        one_char += j.one_char;
    }
    enum { NTHREADS = 4 };
    struct job jobs[NTHREADS];
    pthread_t tids[NTHREADS];
    for (unsigned t = 0; t < NTHREADS; t++) {
        jobs[t] = (struct job){t * 64, t * 64 + 63, 0, 0};
        if (pthread_create(&tids[t], NULL, run, &jobs[t]) != 0) {
            fprintf(stderr, "re2c_cross: cannot start a thread\n");
            return 2;
        }
    }
    for (unsigned t = 0; t < NTHREADS; t++) {
        pthread_join(tids[t], NULL);
        mismatches += jobs[t].mismatches;
        one_char += jobs[t].one_char;
    }
    int ok_count = one_char == 1112064ull;
    printf("re2c_cross: %llu strings of length 1-4 compared, %llu mismatches; "
           "%llu single characters (want 1112064)\n",
           256ull + 65536ull + 16777216ull + 4294967296ull, mismatches, one_char);
    printf("re2c_cross: %d passed, %d failed\n", (mismatches == 0) + ok_count,
           (mismatches != 0) + !ok_count);
    return mismatches == 0 && ok_count ? 0 : 1;
}
