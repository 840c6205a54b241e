/* SPDX-License-Identifier: MIT */
/* Test vectors shared by the decoder tests: hostile and boundary inputs,
 * written as hex with their bit patterns or sources in comments (parse them
 * with parse_hex of common.h). */
#ifndef TEST_VECTORS_H
#define TEST_VECTORS_H


/* Hostile and boundary inputs; bit patterns in the comments. */
static const char *const vectors[] = {
    "",
    "41",                        /* 0xxxxxxx */
    "7F",
    "C2 80",                     /* 110xxxxx 10xxxxxx: U+0080 */
    "DF BF",                     /* U+07FF */
    "E0 A0 80",                  /* 1110xxxx ...: U+0800 */
    "ED 9F BF",                  /* U+D7FF, last before the surrogates */
    "EE 80 80",                  /* U+E000 */
    "EF BF BF",                  /* U+FFFF */
    "F0 90 80 80",               /* 11110xxx ...: U+10000 */
    "F4 8F BF BF",               /* U+10FFFF */
    "EF BB BF 41",               /* BOM A */
    "41 EF BB BF",               /* A, mid-stream U+FEFF */
    "C0 AF", "E0 80 AF", "F0 80 80 AF", "C0 AE", "C0 80", "C1 BF", "E0 9F BF", "F0 8F BF BF",
    "2F C0 AE 2E 2F",            /* RFC 3629 section 10: never "/../" */
    "ED A0 80",                  /* a surrogate */
    "ED A1 8C ED BE B4",         /* CESU-8 pair for U+233B4: six errors */
    "ED A0 A7 96 ED B8 A2",      /* WTF-8: a high surrogate, an error, a low one: the
                                    source's pairing rule starts afresh after the error */
    "F4 90 80 80",               /* above U+10FFFF: four errors */
    "F5 80 80 80", "F8 88 80 80 80", "FC 84 80 80 80 80", "FE", "FF",
    "80", "BF", "80 80 80",
    "E2 82", "E2", "F0 9F 98", "41 E2 82",                   /* truncated at the end */
    "E2 41", "E2 82 41", "F0 9F 98 41",                      /* truncated mid-stream */
    "61 F1 80 80 E1 80 C2 62 80 63 80 BF 64",                /* Unicode 3.9 example */
    "E2 82 AC F0 9F 98 80 C3 A9 41",
};


#endif
