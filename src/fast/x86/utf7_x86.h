/* SPDX-License-Identifier: MIT */
/* What the UTF-7 steps of utf7_sse4.c build on (a wider level may share
 * it): the layout shared with NEON (../utf7_layout.h) and the multiply-adds
 * that pack the digits into it. */
#ifndef UTFDFA_FAST_X86_UTF7_H
#define UTFDFA_FAST_X86_UTF7_H

#include "x86.h"
#include "../utf7_layout.h"

/* The multiply-adds: two digits to 12 bits (first << 6 | second), two of those to 24. */
#define U7_MADDUBS 0x01400140
#define U7_MADDWD 0x00011000

#endif
