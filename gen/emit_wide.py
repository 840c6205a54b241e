# SPDX-License-Identifier: MIT
"""The byte shuffles of the fused kernels: the pshufb controls of
src/fast/x86/wide_sse4.h, which pack the bytes each 32-bit lane contributes,
and the tbl/tbx controls of the NEON level's into UTF-8 (src/fast/arm64/wide_neon.h),
which pack them from planes of lead, middle and last bytes (or 16-bit
lanes), looked up from the units' output lengths. Derived here from the encoding forms'
lengths (UTF-8: 1-4 bytes a code point; UTF-16: 1-2 units; UTF-32: 1 unit),
so that no index is typed in C.

    python3 gen/emit_wide.py -o build/gen/wide.gen.h
"""

import argparse
import os
import sys

ZERO = 0x80  # pshufb writes 0 for an index with its top bit set

TABLES = []  # (name, rows, comment, C type), filled by the functions below


def table(name, comment, ctype="uint8_t", level="KERN_X86"):
    """A table of the kernels of `level` (src/fast/levels.h's KERN_X86 or
    KERN_ARM64, true where those kernels are built), emitted only there."""
    def wrap(fn):
        TABLES.append((name, fn(), comment, ctype, level))
        return fn
    return wrap


def padded(indices, width):
    assert len(indices) <= width
    return indices + [ZERO] * (width - len(indices))


def _utf16_lengths(idx):
    """The UTF-8 lengths (1-3) of four lanes from idx = sum (len_k - 1) * 3^k."""
    return [idx // 3 ** k % 3 + 1 for k in range(4)]


ROW = 12  # a row's bytes: four lanes of at most 3; a load reads 4 bytes past it (scratch)


@table("wide_utf8_shuffle",
       "four 32-bit lanes whose bytes 0..len-1 are a unit's UTF-8 (len 1-3, a surrogate 2),\n"
       " * packed; the row for sum (len_k - 1) * 3^k at that times ROW, its last\n"
       " * 16 - ROW bytes those of the next row (or padding)")
def _utf8_shuffle():
    flat = []
    for idx in range(81):
        lens = _utf16_lengths(idx)
        flat += padded([4 * k + b for k in range(4) for b in range(lens[k])], ROW)
    return [[b] for b in flat + [ZERO] * (16 - ROW)]


def _group_lengths(bits):
    """The UTF-8 lengths of four units from a byte of their bits, two a unit
    as pmovmskb gives them from 16-bit lanes whose low byte says one thing
    and high byte another: bit 2k a unit of one byte (ASCII), bit 2k + 1 one
    of at most two (or a surrogate: two of its pair's four)."""
    return [1 if bits >> (2 * k) & 1 else 2 if bits >> (2 * k + 1) & 1 else 3 for k in range(4)]


@table("wide_utf8_group",
       "for four units' bits (_group_lengths), their row's offset in wide_utf8_shuffle\n"
       " * and, << 10, the bytes it packs", "uint16_t")
def _utf8_group():
    rows = []
    for bits in range(256):
        lens = _group_lengths(bits)
        rows.append([ROW * sum((n - 1) * 3 ** k for k, n in enumerate(lens)) | sum(lens) << 10])
    return rows


@table("wide_utf8_two8",
       "eight 16-bit lanes: byte 0 of each, byte 1 where the 8-bit mask says (a 2-byte\n"
       " * form), packed (x86's and NEON's steps of units below 0x800)",
       level="KERN_X86 || KERN_ARM64")
def _utf8_two8():
    return [padded([2 * k + b for k in range(8) for b in range(2 if m >> k & 1 else 1)], 16)
            for m in range(256)]


@table("wide_utf8_two8_len", "the bytes wide_utf8_two8's row packs",
       level="KERN_X86 || KERN_ARM64")
def _utf8_two8_len():
    return [[8 + bin(m).count("1")] for m in range(256)]


# The NEON planes: a step's units as their lead bytes (an ASCII unit's own),
# the middle bytes of their 3-byte forms and the last bytes of their 2- or
# 3-byte forms, regrouped so that one tbl (and a tbx) reads a row's units.


@table("wide_utf8_thirds",
       "eight units of 1 or 3 bytes (the 8-bit mask: the 3-byte ones), 24 bytes at most:\n"
       " * a row's bytes 0-15 and 32-39 pick from a register of the units' lead\n"
       " * bytes (0-7) and middle ones (8-15), bytes 16-31 and 40-47 put in their last\n"
       " * bytes (0-7; 0x80: kept) where tbx leaves the rest",
       level="KERN_ARM64")
def _utf8_thirds():
    rows = []
    for m in range(256):
        picks, lasts = [], []
        for k in range(8):
            three = m >> k & 1
            picks += [k, 8 + k, ZERO] if three else [k]
            lasts += [ZERO, ZERO, k] if three else [ZERO]
        picks, lasts = padded(picks, 24), padded(lasts, 24)
        rows.append(picks[:16] + lasts[:16] + picks[16:] + lasts[16:] + [ZERO] * 16)
    return rows


@table("wide_utf8_thirds_len", "the bytes wide_utf8_thirds's row packs", level="KERN_ARM64")
def _utf8_thirds_len():
    return [[8 + 2 * bin(m).count("1")] for m in range(256)]


def _quad_bytes(k, length):
    """Unit k's bytes in a register of four units' lead bytes (0-3), middle
    bytes (4-7) and last bytes (8-11)."""
    return {1: [k], 2: [k, 8 + k], 3: [k, 4 + k, 8 + k]}[length]


@table("wide_utf8_quads",
       "four units of 1-3 bytes, packed from a register of their lead bytes (0-3),\n"
       " * middle bytes (4-7) and last bytes (8-11); the row for sum (len_k - 1) * 3^k",
       level="KERN_ARM64")
def _utf8_quads():
    return [padded([b for k, n in enumerate(_utf16_lengths(idx)) for b in _quad_bytes(k, n)], 16)
            for idx in range(81)]


@table("wide_utf8_quads_len", "the bytes wide_utf8_quads's row packs", level="KERN_ARM64")
def _utf8_quads_len():
    return [[sum(_utf16_lengths(idx))] for idx in range(81)]


@table("wide_pair_shuffle",
       "two 32-bit lanes whose last len bytes are a code point's UTF-8 (len 1-4), packed;\n"
       " * row (len_0 - 1) + 4 * (len_1 - 1)")
def _pair_shuffle():
    rows = []
    for idx in range(16):
        l0, l1 = idx % 4 + 1, idx // 4 + 1
        rows.append(padded(list(range(4 - l0, 4)) + list(range(8 - l1, 8)), 8))
    return rows


@table("wide_pair_len", "the bytes wide_pair_shuffle's row packs")
def _pair_len():
    return [[idx % 4 + idx // 4 + 2] for idx in range(16)]


@table("wide_merge",
       "row n: bytes 0..n-1, then bytes 8.. (two packed 8-byte halves into one run)")
def _merge():
    return [padded([j if j < n else j - n + 8 for j in range(16) if j < n or j - n + 8 < 16], 16)
            for n in range(9)]


@table("wide_keep32", "the 32-bit lanes a 4-bit mask keeps, packed")
def _keep32():
    return [padded([4 * k + b for k in range(4) if m >> k & 1 for b in range(4)], 16)
            for m in range(16)]


@table("wide_units16",
       "four 32-bit lanes of UTF-16: the first unit of each, the second where the\n"
       " * 4-bit mask says (a pair), packed")
def _units16():
    return [padded([4 * k + b for k in range(4) for b in range(4 if m >> k & 1 else 2)], 16)
            for m in range(16)]


@table("wide_ones", "the bits set in a 4-bit mask")
def _ones():
    return [[bin(m).count("1")] for m in range(16)]


def emit():
    out = ["/* SPDX-License-Identifier: MIT */",
           "/* generated by gen/emit_wide.py from the UTF-8, UTF-16 and UTF-32 forms' lengths"
           " \u2014 do not edit.",
           " * The pshufb controls of src/fast/x86/wide_sse4.h, and the tbl and tbx controls of",
           " * src/fast/arm64/wide_neon.h (0x80: a zero byte for both). One copy of the tables",
           " * for the kernel files that use them (wide_sse4.c, units_sse4.c, wide_avx2.c;",
           " * wide_neon.c): declared where this is included, defined where it is included",
           " * with WIDE_TABLES_HERE (wide_sse4.c, wide_neon.c), so it has no include guard;",
           " * each table only for the level whose kernels use it (KERN_X86, KERN_ARM64). */",
           "#undef WIDE_TABLE",
           "#undef WIDE_ROWS",
           "#ifdef WIDE_TABLES_HERE",
           "#define WIDE_TABLE const",
           "#define WIDE_ROWS(...) = {__VA_ARGS__}",
           "#elif defined(__GNUC__)",
           "#define WIDE_TABLE extern __attribute__((visibility(\"hidden\"))) const",
           "#define WIDE_ROWS(...)",
           "#else",
           "#define WIDE_TABLE extern const",
           "#define WIDE_ROWS(...)",
           "#endif",
           ""]
    for name, rows, comment, ctype, level in TABLES:
        out.append(f"#if {level}")
        out.append(f"/* {comment} */")
        out.append(f"#define {name} utfdfa__{name}")
        if all(len(r) == 1 for r in rows):
            vals = [r[0] for r in rows]
            out.append(f"WIDE_TABLE {ctype} {name}[{len(vals)}] WIDE_ROWS(")
            lines = [", ".join(str(v) for v in vals[k:k + 12]) for k in range(0, len(vals), 12)]
        else:
            out.append(f"WIDE_TABLE uint8_t {name}[{len(rows)}][{len(rows[0])}] WIDE_ROWS(")
            lines = ["{" + ", ".join(f"0x{v:02X}" for v in r) + "}" for r in rows]
        out += ["    " + line + "," for line in lines[:-1]] + ["    " + lines[-1]]
        out.append(");")
        out.append("#endif")
        out.append("")
    out.append("/* wide_utf8_shuffle's row size: a row's offset is ROW * sum (len_k - 1) * 3^k */")
    out.append(f"#define WIDE_UTF8_ROW {ROW}")
    out.append("/* wide_utf8_shuffle's row of four 3-byte forms */")
    out.append(f"#define WIDE_UTF8_THREES {ROW * 80}")
    return "\n".join(out) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args(argv)
    text = emit()
    tmp = args.output + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
