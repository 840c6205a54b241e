/* SPDX-License-Identifier: MIT */
/* What the UTF-7 kernel of utf7_sse4.c builds on (a wider level may share it): the order
 * that takes four 24-bit groups of bits (four digits each, packed into the
 * 32-bit lanes of a 128-bit lane by the multiply-adds) to six 16-bit units
 * in memory order. RFC 2152's bits are big-endian: the stream's byte j is
 * byte 2 - j % 3 of the lane's dword j / 3, and unit m is its bytes 2m
 * (high) and 2m + 1 (low); the last four bytes are cleared. */
#ifndef UTFDFA_FAST_X86_UTF7_H
#define UTFDFA_FAST_X86_UTF7_H

#include "x86.h"

#define U7_STREAM_BYTE(j) (4 * ((j) / 3) + 2 - (j) % 3)
#define U7_UNIT_BYTES(m) U7_STREAM_BYTE(2 * (m) + 1), U7_STREAM_BYTE(2 * (m))
#define U7_UNIT_ORDER                                                                             \
    U7_UNIT_BYTES(0), U7_UNIT_BYTES(1), U7_UNIT_BYTES(2), U7_UNIT_BYTES(3), U7_UNIT_BYTES(4),     \
        U7_UNIT_BYTES(5), -1, -1, -1, -1
/* 1 << h for a high nibble h below 8 (the bits of utf7_simd's set rows), 0 above. */
#define U7_HIGH_BITS 1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0
/* The multiply-adds: two digits to 12 bits (first << 6 | second), two of those to 24. */
#define U7_MADDUBS 0x01400140
#define U7_MADDWD 0x00011000

#endif
