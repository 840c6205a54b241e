/* SPDX-License-Identifier: MIT */
/* What the SIMD UTF-7 kernels share across ISAs (utf7_loop.h over
 * x86/utf7_sse4.c's and arm64/utf7_neon.c's steps, x86/utf7_avx2.c): the order that takes four 24-bit
 * groups of bits (four digits each, packed into the 32-bit lanes of a
 * 128-bit vector as first << 18 | ... | fourth, by multiply-adds on x86 and
 * shifts on NEON) to six 16-bit units in memory order, and the bits that
 * test a byte's high nibble against utf7_simd's set rows. RFC 2152's bits
 * are big-endian: the stream's byte j is byte 2 - j % 3 of the lane's dword
 * j / 3, and unit m is its bytes 2m (high) and 2m + 1 (low); the last four
 * bytes are cleared (-1: pshufb and tbl both give zero). */
#ifndef UTFDFA_FAST_UTF7_LAYOUT_H
#define UTFDFA_FAST_UTF7_LAYOUT_H

#define U7_STREAM_BYTE(j) (4 * ((j) / 3) + 2 - (j) % 3)
#define U7_UNIT_BYTES(m) U7_STREAM_BYTE(2 * (m) + 1), U7_STREAM_BYTE(2 * (m))
#define U7_UNIT_ORDER                                                                             \
    U7_UNIT_BYTES(0), U7_UNIT_BYTES(1), U7_UNIT_BYTES(2), U7_UNIT_BYTES(3), U7_UNIT_BYTES(4),     \
        U7_UNIT_BYTES(5), -1, -1, -1, -1
/* 1 << h for a high nibble h below 8 (the bits of utf7_simd's set rows), 0 above. */
#define U7_HIGH_BITS 1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0

#endif
