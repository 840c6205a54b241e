# SPDX-License-Identifier: MIT
"""Emitter of the UTF-8 fast paths' derived tables (--emit c-fast).

The fast paths (src/fast/utf8/) step a DFA in ways the plain table does not
spell out: a shift DFA, a decoder that needs no state per byte, a replacing
DFA without REJECT. Their tables are facts of the grammar, so they are
computed here, once, and written as one constant struct (one base address
for every table the hot loops index):

    struct utfdfa_fast_tables PREFIX_fast_tables

The struct type is the same for every grammar (defined once, guarded), so
the same C code serves any grammar with payload masks and a single accepting
start state. Deterministic: a pure function of the compiled grammar.
"""

import compiler
import emit

# A state's field in a shift row (the generator's shift DFA, emit.emit_c).
SHIFT_BITS = 6
# The replacing DFA's field: the state's 6 bits and a flag above them.
REPLACE_BITS = 7
MAX_SHIFT_STATES = 10    # 6-bit fields of a 64-bit row
MAX_REPLACE_STATES = 9   # 7-bit fields of a 64-bit row

STRUCT = [
    "#ifndef UTFDFA_FAST_TABLES_DEFINED",
    "#define UTFDFA_FAST_TABLES_DEFINED",
    "/* What the fast paths of src/fast/utf8/ know of a grammar. States are",
    " * pre-multiplied by nclasses for trans, or field offsets (shift_width times",
    " * the state's number) in a shift row; ACCEPT is state 0, REJECT state 1. */",
    "struct utfdfa_fast_tables {",
    "    uint64_t row[256];           /* shift DFA: next = row[byte] >> (state & 63); 0 without one */",
    "    uint64_t payload[256];       /* byte & the payload mask of its class */",
    "    uint64_t replace_next[256];  /* replacing DFA, 7-bit fields: next state (7 * number)",
    "                                  * | a U+FFFD for the byte itself << 6 */",
    "    uint64_t replace_shift[256]; /* the value's shift (32 when stepped from ACCEPT, else 6)",
    "                                  * | a U+FFFD for the subpart cut short before the byte << 6 */",
    "    uint8_t decode_shift[256];   /* 32 for a byte that starts a character from ACCEPT, else 6 */",
    "    uint8_t start_only[256];     /* 1 for a byte that can only start a character */",
    "    uint8_t byte_class[256];     /* the plain DFA's classes */",
    "    const uint16_t *trans;       /* the plain DFA: trans[state + class] */",
    "    uint64_t decode_shifts;      /* per state field: 32 for ACCEPT, 6 else */",
    "    uint32_t nstates, nclasses;",
    "    uint32_t reject;             /* REJECT, pre-multiplied */",
    "    uint32_t shift_width;        /* bits of a state's field in row (0 without a shift DFA) */",
    "    uint32_t shift_reject;       /* REJECT's field offset */",
    "    uint8_t has_shift;           /* row is there */",
    "    uint8_t has_replace_rows;    /* replace_next and replace_shift are there */",
    "    uint8_t ascii_identity;      /* every byte below 0x80 loops on ACCEPT with its own value */",
    "};",
    "#endif",
    "",
]


def fast_facts(comp):
    """The derived tables, as Python values (also what tests of the emitter read)."""
    dfa = comp.dfa
    n, k = dfa.nstates, dfa.nclasses
    if not (dfa.accepting[0] and sum(dfa.accepting) == 1):
        raise ValueError("the fast paths need a single accepting state, the start state")
    if dfa.reject != 1:
        raise ValueError("the fast paths need REJECT to be state 1")
    if "payload" not in comp.values:
        raise ValueError("the fast paths need payload masks (@value payload)")
    masks = [compiler.payload_mask(dfa.class_bytes(c)[0]) for c in range(k)]
    cls, trans, rej = dfa.classes, dfa.class_trans, dfa.reject
    payload = [b & masks[cls[b]] for b in range(256)]
    starts = [trans[0][cls[b]] != rej for b in range(256)]
    start_only = [starts[b] and all(trans[s][cls[b]] == rej for s in range(1, n))
                  for b in range(256)]
    ascii_identity = all(trans[0][cls[b]] == 0 and payload[b] == b for b in range(128))
    facts = {
        "payload": payload,
        "decode_shift": [32 if s else 6 for s in starts],
        "start_only": [int(s) for s in start_only],
        "byte_class": list(cls),
        "trans": [t * k for row in trans for t in row],
        "nstates": n, "nclasses": k, "reject": rej * k,
        "ascii_identity": int(ascii_identity),
        "has_shift": int(n <= MAX_SHIFT_STATES),
        "has_replace_rows": int(n <= MAX_REPLACE_STATES),
    }
    w = SHIFT_BITS if facts["has_shift"] else 0
    facts["shift_width"], facts["shift_reject"] = w, rej * w
    facts["decode_shifts"] = sum(6 << (w * s) for s in range(n)) + 26 if w else 0
    facts["row"] = [sum(trans[s][cls[b]] * w << (w * s) for s in range(n)) if w else 0
                    for b in range(256)]
    facts["replace_next"], facts["replace_shift"] = _replace_rows(dfa, facts)
    return facts


def _replace_rows(dfa, facts):
    """The replacing DFA: a rejected byte leads where it leads from ACCEPT
    (or to ACCEPT, with a U+FFFD for itself, when it rejects there too)."""
    if not facts["has_replace_rows"]:
        return [0] * 256, [0] * 256
    cls, trans, rej, f = dfa.classes, dfa.class_trans, dfa.reject, REPLACE_BITS
    nexts, shifts = [], []
    for b in range(256):
        c = cls[b]
        acc_bad = trans[0][c] == rej
        acc_next = 0 if acc_bad else trans[0][c]
        nx = sh = 0
        for s in range(dfa.nstates):
            cut = trans[s][c] == rej
            to = acc_next if cut else trans[s][c]
            nx |= (to * f | int(cut and acc_bad) << 6) << (s * f)
            sh |= ((32 if cut or s == 0 else 6) | int(cut and s != 0) << 6) << (s * f)
        nexts.append(nx)
        shifts.append(sh)
    return nexts, shifts


def _array(name, values, fmt, per_row):
    return [f"    .{name} = {{"] + ["    " + r for r in emit._table_rows(values, fmt, per_row)] \
        + ["    },"]


def emit_c_fast(comp, source, prefix):
    f = fast_facts(comp)
    P, p = prefix.upper(), prefix.lower()
    guard = f"{P}_FAST_GEN_H"
    hex64 = lambda v: f"0x{v:016X}u"  # noqa: E731
    dec = lambda v: f"{v:3d}"  # noqa: E731
    out = emit.c_notice(comp) + [
        f"/* {emit.banner(source)}.",
        " *",
        f" * The tables the UTF-8 fast paths (src/fast/utf8/) derive from the DFA of {source}",
        f" * ({f['nstates']} states, {f['nclasses']} byte classes), by gen/emit_fast.py.",
        " */",
        f"#ifndef {guard}", f"#define {guard}", "", "#include <stdint.h>", "",
        "/* has_shift as a constant expression: the code the compiler writes for the",
        " * shift DFA wants to know it before it inlines (a load it folds later is too late). */",
        f"#define {P}_FAST_HAS_SHIFT {f['has_shift']}", ""] + STRUCT
    out += [f"static const uint16_t {p}_fast_trans[{f['nstates'] * f['nclasses']}] = {{"]
    t, k = f["trans"], f["nclasses"]
    out += ["    " + ", ".join(str(v) for v in t[i:i + k]) + "," for i in range(0, len(t), k)]
    out += ["};", "", f"static const struct utfdfa_fast_tables {p}_fast_tables = {{"]
    out += _array("row", f["row"], hex64, 4)
    out += _array("payload", f["payload"], lambda v: f"{v:3d}", 16)
    out += _array("replace_next", f["replace_next"], hex64, 4)
    out += _array("replace_shift", f["replace_shift"], hex64, 4)
    out += _array("decode_shift", f["decode_shift"], dec, 16)
    out += _array("start_only", f["start_only"], lambda v: str(v), 16)
    out += _array("byte_class", f["byte_class"], dec, 16)
    out += [f"    .trans = {p}_fast_trans,",
            f"    .decode_shifts = {hex64(f['decode_shifts'])},"]
    for name in ("nstates", "nclasses", "reject", "shift_width", "shift_reject", "has_shift",
                 "has_replace_rows", "ascii_identity"):
        out.append(f"    .{name} = {f[name]},")
    out += ["};", "", f"#endif /* {guard} */", ""]
    return "\n".join(out)
