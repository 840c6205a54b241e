# SPDX-License-Identifier: MIT
"""Emitter of the lookup validator's tables (--emit c-simd).

One header per grammar, build/gen/NAME.simd.gen.h: PREFIX_SIMD_DERIVED, and
either the tables (gen/derive_simd.py: what they mean and how they are
found) as one constant struct, the same struct type for every grammar, or
PREFIX_SIMD_WHY, the reason the grammar does not fit the model. A grammar
that does not fit still gets its header, so the build never fails for it.
Deterministic: a pure function of the compiled grammar.
"""

import textwrap

import derive_simd
import emit
from derive_simd import show

STRUCT = [
    "#ifndef UTFDFA_SIMD_TABLES_DEFINED",
    "#define UTFDFA_SIMD_TABLES_DEFINED",
    "/* The lookup validator's tables: for bytes x then y, pair = prev_high[x >> 4]",
    " * & prev_low[x & 15] & cur_high[y >> 4] & cur_low[y & 15]; y is in error when",
    " * pair ^ (must ? two_conts : 0) != 0, where must: some byte j = 2..max_len-1",
    " * back is >= longer_min[j-1]. Before and after the input: the byte pad. */",
    "struct utfdfa_simd_tables {",
    "    uint8_t prev_high[16], prev_low[16], cur_high[16], cur_low[16];",
    "    uint8_t longer_min[7];           /* [j-1]: a byte >= this starts a character of",
    "                                      * more than j bytes; j = 1..max_len-1 */",
    "    uint8_t two_conts;               /* the bit for continuation after continuation */",
    "    uint8_t max_len, pad;",
    "};",
    "#endif",
    "",
]
TABLES = ("prev_high", "prev_low", "cur_high", "cur_low")


def _c_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _bit_grid(t, names):
    """Which nibbles carry each bit, as rows of x and . under the four tables."""
    w = max(len(n) for n in names)
    head = " * " + " " * (w + 6) + "  ".join(n.ljust(16) for n in TABLES)
    nibs = " * " + " " * (w + 6) + "  ".join("0123456789ABCDEF" for _ in TABLES)
    rows = [head.rstrip(), nibs]
    for i, n in enumerate(names):
        bit = 0x80 if i == len(names) - 1 else 1 << i
        cells = ["".join("x" if t[k][v] & bit else "." for v in range(16)) for k in TABLES]
        rows.append(f" * 0x{bit:02X} {n.ljust(w)} " + "  ".join(cells))
    return rows


def _lead_lines(t):
    out = []
    for n in range(1, t["max_len"] + 1):
        if t["leads"][n]:
            out.append(f" *   start a character of {n} byte{'s' if n > 1 else ''}: "
                       f"{show(t['leads'][n])}")
    out.append(f" *   continue one: {show(t['cont'])}")
    out.append(f" *   are in no character: {show(t['invalid'])}")
    return out


def _tables_block(t, p):
    hexb = lambda v: f"0x{v:02X}"  # noqa: E731
    out = [f"static const struct utfdfa_simd_tables {p}_simd_tables = {{",
           "    /*              " + "     ".join(f"{v:X}" for v in range(16)) + " */"]
    for k in TABLES:
        out.append(f"    .{k.ljust(10)} = {{ " + ", ".join(hexb(v) for v in t[k]) + " },")
    used = t["max_len"] - 1
    out += [f"    .longer_min = {{ " + ", ".join(hexb(v) for v in t["longer_min"]) + " },"
            f"  /* j = 1..{used}; 0xFF: unused */",
            f"    .two_conts  = {hexb(t['two_conts'])},",
            f"    .max_len    = {t['max_len']},",
            f"    .pad        = {hexb(t['pad'])},",
            "};"]
    return out


def emit_c_simd(comp, source, prefix, note=None):
    """note: called with a line saying why, when the grammar does not fit
    (abnfc --verbose prints it; the header says it in any case)."""
    P, p = prefix.upper(), prefix.lower()
    guard = f"{P}_SIMD_GEN_H"
    try:
        t = derive_simd.derive(comp)
    except derive_simd.NotDerivable as e:
        if note:
            note(f"{source}: note: no SIMD lookup tables: {e}")
        return "\n".join(emit.c_notice(comp) + [
            f"/* {emit.banner(source)}.",
            " *",
            f" * {source} does not fit the lookup validator's model (gen/derive_simd.py):"]
            + [" * " + line for line in textwrap.wrap(f"{e}.", 76)] + [
            " */",
            f"#ifndef {guard}", f"#define {guard}", "",
            f"#define {P}_SIMD_DERIVED 0",
            f"#define {P}_SIMD_WHY {_c_string(str(e))}", "",
            f"#endif /* {guard} */", ""])
    names = [b["name"].upper() for b in t["bits"]] + ["TWO_CONTS"]
    form = "four tables (cur_low is needed)" if t["cur_low_needed"] else \
        "three tables (cur_low is all ones)"
    out = emit.c_notice(comp) + [
        f"/* {emit.banner(source)}.",
        " *",
        f" * The lookup validator's tables for {source}, derived from its DFA",
        f" * ({comp.dfa.nstates} states) by gen/derive_simd.py, which describes the model;",
        " * tests/gen/test_simd_derive.py proves them equal to the DFA.",
        f" * Form: {form}.",
        " *",
        " * The bytes that"] + _lead_lines(t) + [
        f" * PAD, the virtual byte before and after the input: 0x{t['pad']:02X}.",
        " *",
        " * The error bits: x where a table's entry for a nibble has the bit.",
        " *"] + _bit_grid(t, names) + [
        " */",
        f"#ifndef {guard}", f"#define {guard}", "", "#include <stdint.h>", "",
        f"#define {P}_SIMD_DERIVED 1",
        f"#define {P}_SIMD_MAX_LEN {t['max_len']}",
        f"#define {P}_SIMD_CUR_LOW {t['cur_low_needed']}",
        "/* 1: every byte below longer_min[0] that is not a continuation is a character",
        " * by itself (none of them is in no character). */",
        f"#define {P}_SIMD_SHORT_WHOLE {int(not any(b < t['longer_min'][0] for b in t['invalid']))}",
        "",
        "/* Each error bit and the byte pairs (previous x current) it covers: the kinds",
        " * are the grammar's (@error), the first the one the bit is named after. */"]
    for i, b in enumerate(t["bits"]):
        out += [f"#define {P}_SIMD_ERR_{names[i]} 0x{1 << i:02X}",
                f"    /* {show(b['prev'])} x {show(b['cur'])}: {', '.join(b['kinds'])} */"]
    out += [f"#define {P}_SIMD_TWO_CONTS 0x{t['two_conts']:02X}",
            f"    /* {show(t['cont'])} x {show(t['cont'])}: allowed only as a third or later "
            "byte (must) */", ""]
    out += STRUCT + _tables_block(t, p) + ["", f"#endif /* {guard} */", ""]
    return "\n".join(out)
