# SPDX-License-Identifier: MIT
"""Emitter of the 128-bit UTF-8 transcoder's shuffle tables (--emit c-shuffle).

The transcoder of valid text at the SSE4 and AVX2 levels (src/fast/utf8/
masked.h) follows the "end of character mask" method of Keiser and Lemire:
a window of WINDOW bytes starting at a character's first byte, and the mask
of its bytes that end a character (bit i: byte i+1 is not a continuation).
The mask fixes the lengths of the characters that start the window; the
tables say, for each mask, which shuffle gathers the first characters'
bytes into lanes, and how many bytes those characters span.

Three forms, tried in order (the first whose characters all fit):
  six characters of 1-2 bytes, a 16-bit lane each;
  four characters of 1-3 bytes, a 32-bit lane each;
  three characters of 1-max_len bytes, a 32-bit lane each.
A lane holds its character's bytes last byte lowest (byte k of the lane: the
character's k-th byte from its end), zero (shuffle index 0x80) above them.
The rows of the 32-bit forms have bit 6 (MARK) set in all 16 bytes: pshufb
reads only bits 7 and 0-3, and a 256-bit step that runs two windows of
either form at once takes its per-lane choice of formula from that bit
(shifted to bit 7, a vpblendvb mask). units[entry]: its characters (units
to UTF-32) in bits 0-3, its units to UTF-16 (4-byte characters count two)
in bits 4-7; pair_lanes[entry]: the lanes of its 4-byte characters (bit k:
lane k; 0 in the 16-bit form). In a 32-bit form's row a lane's byte 3 has
bit 7 clear exactly when the lane holds a 4-byte character (a character
above U+FFFF, the form's fact): the transcoder takes its choice of a
surrogate pair from that bit (asserted below).

To UTF-16, four 32-bit lanes each hold one code unit (low half) or a
surrogate pair (both halves); pairs[m] (bit k of m: lane k holds a pair)
is the shuffle that packs their units in order.
In valid text of characters of at most max_len (4) bytes, WINDOW (12) bytes
always hold three whole characters, so some form applies; a mask valid text
cannot give (a gap longer than max_len) maps to entry 0, only so that the
table is total.

The facts come from the grammar (gen/derive_simd.py): the characters'
lengths (1..max_len: the forms are defined for max_len 4) and the
continuation bytes (which make the mask). A grammar that does not fit gets
a header that says why (PREFIX_SHUF_DERIVED 0). Deterministic.
"""

import itertools
import sys
import textwrap

import derive_simd
import emit
from derive_simd import show

WINDOW = 12
LANES16 = 16                                   # bytes in a vector
FORMS = ((6, 2, 2), (4, 3, 4), (3, 4, 4))       # (characters, longest, lane bytes)
ZERO = 0x80                                    # a shuffle index that gives 0
MARK = 0x40                                    # pshufb ignores it: the 32-bit forms' rows


def _lengths(mask):
    """The lengths of the characters that end in the window, in order."""
    out, start = [], 0
    for i in range(WINDOW):
        if mask >> i & 1:
            out.append(i + 1 - start)
            start = i + 1
    return out


def _shuffle(lengths, lane):
    row, pos = [], 0
    for n in lengths:
        row += [pos + n - 1 - k if k < n else ZERO for k in range(lane)]
        pos += n
    return row + [ZERO] * (LANES16 - len(row))


def pairs():
    """[m] = the shuffle packing four 32-bit lanes' UTF-16 units, lane k a
    pair when bit k of m is set (the form's fact: a code point above U+FFFF
    takes two units)."""
    out = []
    for m in range(16):
        row = []
        for k in range(4):
            row += [4 * k, 4 * k + 1] + ([4 * k + 2, 4 * k + 3] if m >> k & 1 else [])
        out.append(row + [ZERO] * (LANES16 - len(row)))
    return out


def tables(max_len):
    """(entries, index): entries a list of (form, lengths, shuffle, consumed);
    index[mask] = (entry, consumed)."""
    if max_len != FORMS[-1][1]:
        raise derive_simd.NotDerivable(f"characters of up to {max_len} bytes: the "
                                       f"transcoder's forms are for {FORMS[-1][1]}")
    entries, where = [], {}
    for f, (count, longest, lane) in enumerate(FORMS):
        for lengths in itertools.product(range(1, longest + 1), repeat=count):
            where[(f, lengths)] = len(entries)
            row = [b | (MARK if lane == 4 else 0) for b in _shuffle(lengths, lane)]
            if lane == 4:
                assert all((row[4 * k + 3] & 0x80 == 0) == (k < count and lengths[k] == 4)
                           for k in range(4)), "a lane's byte 3 says whether it holds a pair"
            entries.append((f, lengths, row, sum(lengths)))
    index = []
    for mask in range(1 << WINDOW):
        ls, e = _lengths(mask), 0
        for f, (count, longest, _) in enumerate(FORMS):
            if len(ls) >= count and max(ls[:count]) <= longest:
                e = where[(f, tuple(ls[:count]))]
                break
        index.append((e, entries[e][3]))
    return entries, index


def _body(entries, index, p, cont):
    form_end = [sum(1 for e in entries if e[0] <= f) for f in range(len(FORMS))]
    out = ["#include <stdint.h>", "",
           f"#define {p.upper()}_SHUF_DERIVED 1",
           f"#define {p.upper()}_SHUF_WINDOW {WINDOW}",
           f"/* A continuation byte: {show(cont)}. */",
           f"#define {p.upper()}_SHUF_CONT_MIN 0x{min(cont):02X}",
           f"#define {p.upper()}_SHUF_CONT_MAX 0x{max(cont):02X}",
           "/* Entries [0, TWO_END): six characters of 1-2 bytes, 16-bit lanes;",
           " * [TWO_END, THREE_END): four of 1-3 bytes, 32-bit lanes; the rest: three",
           " * of 1-4 bytes, 32-bit lanes. */",
           f"#define {p.upper()}_SHUF_TWO_END {form_end[0]}",
           f"#define {p.upper()}_SHUF_THREE_END {form_end[1]}",
           f"#define {p.upper()}_SHUF_ENTRIES {len(entries)}",
           "/* Set in every byte of the 32-bit forms' shuffles (pshufb ignores it). */",
           f"#define {p.upper()}_SHUF_MARK 0x{MARK:02X}",
           "/* The windows of whole 3-byte and whole 4-byte characters (the mask, the",
           " * entry): a script of them takes these without the index. */"]
    for n in (3, 4):
        count = WINDOW // n
        lengths = (n,) * count
        e = next(k for k, x in enumerate(entries) if x[1] == lengths)
        mask = sum(1 << (n * (j + 1) - 1) for j in range(count))
        assert index[mask][0] == e
        out += [f"#define {p.upper()}_SHUF_ALL{n}_MASK 0x{mask:03X}",
                f"#define {p.upper()}_SHUF_ALL{n} {e}"]
    out += ["", "struct utfdfa_shuffle_tables {",
           f"    uint8_t index[{1 << WINDOW}];  /* [mask of the ends]: entry */",
           f"    uint8_t shuffle[{len(entries)}][{LANES16}];  /* [entry]: pshufb indexes */",
           f"    uint8_t took[{len(entries)}];  /* [entry]: the bytes its characters span */",
           f"    uint8_t units[{len(entries)}];  /* [entry]: UTF-32 units | UTF-16 units << 4 */",
           f"    uint8_t pair_lanes[{len(entries)}];  /* [entry]: its 4-byte characters' lanes */",
           f"    uint8_t pairs[16][{LANES16}];  /* [lanes that hold a pair]: pshufb indexes */",
           "};", "",
           f"static const struct utfdfa_shuffle_tables {p.lower()}_shuffle_tables = {{",
           "    .index = {"]
    for m in range(0, len(index), 16):
        row = ", ".join(f"{e:3}" for e, _ in index[m:m + 16])
        out.append(f"        {row}, /* 0x{m:03X} */")
    out += ["    },", "    .shuffle = {"]
    for k, (f, lengths, sh, consumed) in enumerate(entries):
        row = ", ".join(f"0x{v:02X}" for v in sh)
        out.append(f"        {{{row}}}, /* {k:3}: {'-'.join(map(str, lengths))} */")
    out += ["    },", "    .took = {"]
    for k in range(0, len(entries), 16):
        out.append("        " + ", ".join(f"{x[3]:2}" for x in entries[k:k + 16]) + f", /* {k} */")
    out += ["    },", "    .units = {"]
    for k in range(0, len(entries), 16):
        out.append("        " + ", ".join(
            f"0x{len(x[1]) | (len(x[1]) + sum(n == 4 for n in x[1])) << 4:02X}"
            for x in entries[k:k + 16]) + f", /* {k} */")
    out += ["    },", "    .pair_lanes = {"]
    for k in range(0, len(entries), 16):
        out.append("        " + ", ".join(
            f"0x{sum(1 << j for j, n in enumerate(x[1]) if n == 4):X}"
            for x in entries[k:k + 16]) + f", /* {k} */")
    out += ["    },", "    .pairs = {"]
    pk = pairs()
    for m, sh in enumerate(pk):
        row = ", ".join(f"0x{v:02X}" for v in sh)
        out.append(f"        {{{row}}}, /* {m:2}: lanes {m:04b} pairs */")
    out += ["    },", "};"]
    return out


def emit_c_shuffle(comp, source, prefix):
    P = prefix.upper()
    guard = f"{P}_SHUFFLE_GEN_H"
    head = emit.c_notice(comp) + [f"/* {emit.banner(source)}.", " *"]
    try:
        t = derive_simd.derive(comp)
        cont = t["cont"]
        if cont != list(range(min(cont), max(cont) + 1)):
            raise derive_simd.NotDerivable(f"the continuation bytes {show(cont)} are not "
                                           "one range")
        entries, index = tables(t["max_len"])
    except derive_simd.NotDerivable as e:
        print(f"abnfc: {source}: note: no shuffle tables: {e}", file=sys.stderr)
        return "\n".join(head + [
            f" * {source} does not fit the 128-bit transcoder's forms (gen/emit_shuffle.py):"]
            + [" * " + line for line in textwrap.wrap(f"{e}.", 76)] + [
            " */", f"#ifndef {guard}", f"#define {guard}", "",
            f"#define {P}_SHUF_DERIVED 0", "", f"#endif /* {guard} */", ""])
    doc = [" * " + line if line else " *" for line in __doc__.splitlines()[2:]]
    return "\n".join(head + [
        f" * The shuffle tables of the 128-bit transcoder for {source}, made by",
        " * gen/emit_shuffle.py from the grammar's lengths and continuation bytes:",
        " *"] + doc + [" */", f"#ifndef {guard}", f"#define {guard}", ""]
        + _body(entries, index, prefix, cont) + ["", f"#endif /* {guard} */", ""])
