#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""registry: the encoding registry (grammar/encodings.registry) into the
runtime's tables and the Makefile's lists.

    python3 gen/registry.py grammar/encodings.registry --emit c -o build/gen/encodings.gen.h
    python3 gen/registry.py grammar/encodings.registry --emit make -o build/gen/encodings.mk
    python3 gen/registry.py grammar/encodings.registry --emit rows -o build/gen/encoding_rows.gen.h

The registry's own comment says what each column means. The C header also
carries what the runtime would otherwise retype from the grammars the rows
name (gen/grammar_facts.py): the error taxonomy, UTF-7's character classes,
Corrected UTF-8's rows and the bytes of a low surrogate in CESU-8. Errors in
the registry are FILE:LINE:COL: message, as abnfc's are in a grammar.
"""

import argparse
import os
import re
import sys
from dataclasses import dataclass, field

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import abnf  # noqa: E402
import abnfc  # noqa: E402
import emit  # noqa: E402
import grammar_facts  # noqa: E402

GENERATOR = "gen/registry.py"
COLUMNS = ("enum", "name", "source", "fuzz", "unit", "bytes", "limit", "grammar", "decoder",
           "writer", "kernel", "aliases")
LIMIT_FLAGS = ("surrogates", "c1", "nul")
# What the decoder's 16 bytes have room for (src/decode/decoder.h asserts it too).
MAX_ROWS, MAX_LIMITS = 32, 8
UNICODE_MAX = 0x10FFFF
FUZZ_HARNESSES = ("forms", "variants")
GRAMMAR_USES = ("dfa", "check")
# The decoder column: its grammar's tables (dfa, and what the runtime adds:
# +pairs joins UTF-16 code units, +wobbly WTF-8's surrogates, +magic a
# signature), UTF-7's engine over them (utf7), or a unit decoder: core(),
# then its arguments, for the generated dispatch.
DFA_DECODERS = {"dfa": "PAIRS_NONE", "dfa+pairs": "PAIRS_JOIN", "dfa+wobbly": "PAIRS_WTF8",
                "dfa+magic": "PAIRS_NONE"}
UNIT_DECODERS = {"utf16le": ("utf16", "UNITS_LE"), "utf16be": ("utf16", "UNITS_BE"),
                 "utf32le": ("utf32", "UNITS_LE", "SCALAR_VALUES"),
                 "utf32be": ("utf32", "UNITS_BE", "SCALAR_VALUES"),
                 "ucs4le": ("utf32", "UNITS_LE", "ANY_VALUE"),
                 "ucs4be": ("utf32", "UNITS_BE", "ANY_VALUE")}
DECODERS = tuple(DFA_DECODERS) + ("utf7",) + tuple(UNIT_DECODERS)
# The writer column: the writers of src/output/forms.h (write_WRITER, len_WRITER).
WRITERS = ("utf8", "corrected", "cesu8", "mutf8", "utf16le", "utf16be", "utf32le", "utf32be",
           "utf7", "octet")
# The kernel column: the form of src/fast/kernels.h in which the row writes
# every scalar value (FORM), or only ASCII (ascii:FORM).
FORMS = ("utf8", "utf16le", "utf16be", "utf32le", "utf32be")


@dataclass
class Limit:
    name: str
    max: int
    flags: list


@dataclass
class Row:
    line: int
    enum: str
    name: str
    source: object       # instance name or None
    fuzz: object         # (harness, target) or None
    unit: int
    bytes: int
    limit: str
    grammar: object      # (use, file stem) or None
    decoder: object = None  # a word of DECODERS or None
    writer: object = None   # a word of WRITERS or None
    kernel: object = None   # (form, ascii only) or None
    aliases: list = field(default_factory=list)
    cols: dict = field(default_factory=dict)  # column of each name and alias, and "grammar"


@dataclass
class Registry:
    path: str
    limits: list
    rows: list


def _fields(text):
    """(column, word) of each whitespace-separated word, 1-based columns."""
    return [(m.start() + 1, m.group()) for m in re.finditer(r"\S+", text)]


def _strip(line):
    cut = line.find("#")
    return line if cut < 0 else line[:cut]


def _int(word, col, err, what):
    try:
        return int(word, 0)
    except ValueError:
        raise err(col, f"{what} must be a number, not {word!r}")


def _limit(words, err):
    if len(words) < 3:
        raise err(words[0][0], "@limit takes NAME MAX [FLAGS]")
    (_, name), (mcol, mword) = words[1], words[2]
    value = _int(mword, mcol, err, "@limit's MAX")
    if not 0 <= value <= 0xFFFFFFFF:
        raise err(mcol, f"@limit's MAX {mword} is not a 32-bit value")
    for col, flag in words[3:]:
        if flag not in LIMIT_FLAGS:
            raise err(col, f"unknown @limit flag {flag!r} (known: {', '.join(LIMIT_FLAGS)})")
    return Limit(name, value, [f for _, f in words[3:]])


def _pair(col, word, known, err, what):
    """'-' or KIND:VALUE with KIND in known."""
    if word == "-":
        return None
    kind, sep, value = word.partition(":")
    if not sep or kind not in known or not value:
        raise err(col, f"{what} must be - or one of {', '.join(k + ':NAME' for k in known)}, "
                       f"not {word!r}")
    return kind, value


def _row(line, words, limits, err):
    if len(words) < len(COLUMNS):
        col = words[-1][0] + len(words[-1][1])
        raise err(col, f"a row has {len(COLUMNS)} columns ({' '.join(COLUMNS)}); "
                       f"this one has {len(words)}")
    w = dict(zip(COLUMNS, words))
    col, enum = w["enum"]
    if not re.fullmatch(r"UTFDFA_[A-Z0-9_]+", enum):
        raise err(col, f"enum {enum!r} is not a UTFDFA_ constant")
    col, source = w["source"]
    if source != "-" and not re.fullmatch(r"[a-z][a-z0-9_]*", source):
        raise err(col, f"source {source!r} is not a C name in lower case")
    col, unit = w["unit"]
    unit_size = _int(unit, col, err, "unit")
    if unit_size not in (1, 2, 4):
        raise err(col, f"unit must be 1, 2 or 4 bytes, not {unit}")
    col, most = w["bytes"]
    most_bytes = _int(most, col, err, "bytes")
    if not unit_size <= most_bytes <= 8:
        raise err(col, f"bytes must be from the unit size to 8, not {most}")
    col, limit = w["limit"]
    if limit not in limits:
        raise err(col, f"unknown limit {limit!r} (the @limit lines name {', '.join(limits)})")
    grammar = _pair(*w["grammar"], GRAMMAR_USES, err, "grammar")
    if grammar:
        if not grammar[1].endswith(".abnf"):
            raise err(w["grammar"][0], f"grammar {grammar[1]!r} is not an .abnf file")
        grammar = (grammar[0], grammar[1][:-len(".abnf")])
    decoder, writer, kernel = _dispatch(w, source, grammar, err)
    aliases = [a for _, a in words[len(COLUMNS) - 1:]]
    cols = {a: c for c, a in words[len(COLUMNS) - 1:]}
    cols.update({w["name"][1]: w["name"][0], "grammar": w["grammar"][0]})
    return Row(line, enum, w["name"][1], None if source == "-" else source,
               _pair(*w["fuzz"], FUZZ_HARNESSES, err, "fuzz"), unit_size, most_bytes, limit,
               grammar, decoder, writer, kernel, [] if aliases == ["-"] else aliases, cols)


def _one_of(col, word, known, err, what):
    if word != "-" and word not in known:
        raise err(col, f"{what} must be - or one of {', '.join(known)}, not {word!r}")
    return None if word == "-" else word


def _dispatch(w, source, grammar, err):
    """The decoder, writer and kernel columns."""
    col, decoder = w["decoder"]
    decoder = _one_of(col, decoder, DECODERS, err, "decoder")
    if (decoder is None) != (source == "-"):
        raise err(col, "a row has a decoder exactly when it has a source instance")
    if decoder and (decoder in DFA_DECODERS or decoder == "utf7") and \
            not (grammar and grammar[0] == "dfa"):
        raise err(col, f"decoder {decoder} decodes with its grammar's tables: the grammar "
                       f"column must be dfa:FILE")
    col, writer = w["writer"]
    writer = _one_of(col, writer, WRITERS, err, "writer")
    col, kernel = w["kernel"]
    ascii = kernel.startswith("ascii:")
    form = _one_of(col, kernel[len("ascii:"):] if ascii else kernel, FORMS, err, "kernel")
    return decoder, writer, (form, ascii) if form else None


def _check_names(path, rows):
    """Every name and alias is lower case (the lookup lowers its input) and
    names one encoding."""
    seen = {}
    for r in rows:
        for name in [r.name] + r.aliases:
            where = abnf.Pos(path, r.line, r.cols[name])
            if not re.fullmatch(r"[a-z0-9][a-z0-9_:/.+-]*", name):
                raise where.error(f"name {name!r} is not lower-case ASCII")
            if name in seen:
                raise where.error(f"name {name!r} is given twice (first on line {seen[name]})")
            seen[name] = r.line
    first = {}
    for r in rows:
        if r.enum in first:
            raise abnf.Pos(path, r.line, 1).error(
                f"enum {r.enum!r} is given twice (first on line {first[r.enum]})")
        first[r.enum] = r.line
    # An instance serves several rows only when they are one grammar family:
    # the same engine over each row's own tables (UTF-7 and IMAP's form).
    kind = {}
    for r in rows:
        if r.source is None:
            continue
        engine = r.decoder
        if r.source in kind and kind[r.source][0] != (engine, r.unit):
            raise abnf.Pos(path, r.line, 1).error(
                f"source {r.source!r} is shared with line {kind[r.source][1]}, whose engine "
                f"or unit differs")
        if r.source in kind and engine != "utf7":
            raise abnf.Pos(path, r.line, 1).error(
                f"source {r.source!r} is shared with line {kind[r.source][1]}: only the "
                f"utf7 decoder takes each row's tables at run time")
        kind.setdefault(r.source, ((engine, r.unit), r.line))


def parse(path):
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
    except (OSError, UnicodeDecodeError) as e:
        raise abnf.AbnfError(path, 0, 0, f"cannot read the registry: {getattr(e, 'strerror', e)}")
    limits, rows = {}, []
    for n, line in enumerate(lines, 1):
        words = _fields(_strip(line))
        if not words:
            continue

        def err(col, message, n=n):
            return abnf.AbnfError(path, n, col, message)

        if words[0][1] == "@limit":
            lim = _limit(words, err)
            if lim.name in limits:
                raise err(words[1][0], f"@limit {lim.name!r} is given twice")
            limits[lim.name] = lim
        elif words[0][1].startswith("@"):
            raise err(words[0][0], f"unknown directive {words[0][1]!r} (known: @limit)")
        else:
            rows.append(_row(n, words, limits, err))
    if not rows:
        raise abnf.AbnfError(path, 0, 0, "the registry has no rows")
    if len(rows) > MAX_ROWS:
        raise abnf.Pos(path, rows[MAX_ROWS].line, 1).error(
            f"more than {MAX_ROWS} encodings do not fit the decoder's 5-bit source field")
    if len(limits) > MAX_LIMITS:
        raise abnf.AbnfError(path, 0, 0, f"more than {MAX_LIMITS} @limit lines do not fit the "
                                         "decoder's 3-bit limit field")
    _check_names(path, rows)
    return Registry(path, list(limits.values()), rows)


# ------------------------------------------------------------------ emitters

def _banner_c(reg, sources):
    return ["/* SPDX-License-Identifier: MIT */",
            f"/* generated by {GENERATOR} from {', '.join([reg.path] + sources)}"
            " \u2014 do not edit. */"]


def _c_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _limit_const(name):
    return "LIMIT_" + emit.c_ident(name).upper()


def emit_c(reg, grammar_dir):
    facts = grammar_facts.Facts(reg, grammar_dir)
    rows, n = reg.rows, len(reg.rows)
    out = _banner_c(reg, facts.sources) + [
        "#ifndef UTFDFA_ENCODINGS_GEN_H", "#define UTFDFA_ENCODINGS_GEN_H", "",
        "#include <stdint.h>", "", '#include "utfdfa.h"', '#include "encoding_rows.gen.h"', ""]
    out += [f'#include "{g}.gen.h"' for g in facts.grammars] + [""]
    out += ["/* The public enum is hand-written (its values are the ABI): each constant",
            " * is its row's number in the registry. */"]
    out += [f'_Static_assert({r.enum} == {i}, "{r.enum} is row {i} of the registry");'
            for i, r in enumerate(rows)]
    out += [f'_Static_assert(UTFDFA_NENCODINGS == {n}, "the registry has {n} rows");', ""]
    out += ["/* Canonical names (utfdfa_encoding_name), by enum value. */",
            "static const char *const utfdfa_encoding_names[UTFDFA_NENCODINGS] = {"]
    out += [f"    {_c_string(r.name)}," for r in rows] + ["};", ""]
    out += ["/* Other names utfdfa_encoding_from_name takes, each encoding's in order. */",
            "struct utfdfa_alias {", "    const char *name;", "    uint8_t enc;", "};",
            "static const struct utfdfa_alias utfdfa_aliases[] = {"]
    out += [f"    {{{_c_string(a)}, {r.enum}}}," for r in rows for a in r.aliases]
    out += ["};", "", "/* Bytes per code unit (utfdfa_unit_size). */",
            "static const uint8_t utfdfa_encoding_unit_size[UTFDFA_NENCODINGS] = {"]
    out += [f"    {r.unit}, /* {r.name} */" for r in rows] + ["};", ""]
    out += ["/* The most bytes one character takes when written. */",
            "static const uint8_t utfdfa_encoding_max_bytes[UTFDFA_NENCODINGS] = {"]
    out += [f"    {r.bytes}, /* {r.name} */" for r in rows] + ["};", ""]
    out += _emit_limits(reg)
    out += _emit_limit_writers(reg)
    out += ["/* Every encoding with an instance of the conversion engine, X(source name,",
            " * enum constant); rows of one family name one instance. */",
            "#define UTFDFA_EACH_ENCODING(X) \\"]
    out += _x_lines([f"X({r.source}, {r.enum})" for r in rows if r.source])
    out += ["/* Every instance once, X(source name, its first row's enum constant, how many",
            " * rows it serves): src/decode/convert_from.c is compiled once per source name",
            " * (the Makefile's CONVERT_SOURCES, from the same rows). */",
            "#define UTFDFA_EACH_SOURCE(X) \\"]
    out += _x_lines([f"X({s}, {first.enum}, {n})" for s, first, n in _instances(rows)])
    out += facts.emit_c()
    out += _emit_dispatch(reg, facts)
    out += ["#endif /* UTFDFA_ENCODINGS_GEN_H */"]
    return "\n".join(out) + "\n"


# ------------------------------------------------------------ row facts

def _unit_order(r):
    """UNITS_LE or UNITS_BE for a row with a unit decoder, else None."""
    return UNIT_DECODERS[r.decoder][1] if r.decoder in UNIT_DECODERS else None


def _sibling(reg, row, order):
    """The row a row without a byte order reads and writes as in `order`: the
    one of its unit size and limit whose unit decoder has that byte order."""
    found = [r for r in reg.rows if r.unit == row.unit and r.limit == row.limit
             and _unit_order(r) == order]
    if len(found) != 1:
        raise ValueError(f"line {row.line}: {row.enum} has no byte order: it needs exactly one "
                         f"row of unit {row.unit} and limit {row.limit} with a {order} unit "
                         f"decoder, not {len(found)}")
    return found[0]


def _predicate(name, doc, consts, what="enc"):
    """A generated test: `what` is one of consts (compares, as one would
    write them, so the compiler makes of it what it did of the hand-written
    test)."""
    test = " || ".join(f"{what} == {c}" for c in consts)
    if not consts:
        return [f"/* {doc} */", f"UTFDFA_ROW_INLINE bool {name}(unsigned {what})", "{",
                f"    (void){what};", "    return false;", "}", ""]
    return [f"/* {doc} */", f"UTFDFA_ROW_INLINE bool {name}(unsigned {what})", "{",
            f"    return {test};" if len(test) < 80 else
            "    return " + " ||\n           ".join(f"{what} == {c}" for c in consts) + ";",
            "}", ""]


def _rows_predicate(rows, name, doc, pick):
    chosen = [r for r in rows if pick(r)]
    return _predicate(name, f"{doc}: {', '.join(r.name for r in chosen) or 'none'}.",
                      [r.enum for r in chosen])


def _sibling_function(reg, name, order):
    """enc's sibling in `order`, for enc a row without a byte order (the
    last such row's is the else: no compare for what the caller knows)."""
    unordered = [r for r in reg.rows if r.decoder is None]
    if not unordered:
        return []
    chain = "".join(f"enc == {r.enum} ? {_sibling(reg, r, order).enum} : "
                    for r in unordered[:-1]) + _sibling(reg, unordered[-1], order).enum
    return [f"UTFDFA_ROW_INLINE enum utfdfa_encoding {name}(unsigned enc)", "{",
            f"    return {chain};", "}", ""]


def emit_rows(reg):
    """The registry's yes-or-no facts of each row, as inline tests (a header
    of inline functions only, so that the command-line tool, which links
    only the library's public API, may include it too)."""
    rows = reg.rows
    out = ["/* SPDX-License-Identifier: MIT */",
           f"/* generated by {GENERATOR} from {reg.path} \u2014 do not edit. */",
           "#ifndef UTFDFA_ENCODING_ROWS_GEN_H", "#define UTFDFA_ENCODING_ROWS_GEN_H", "",
           "#include <stdbool.h>", "", '#include "utfdfa.h"', "",
           "/* Each row's facts, from its columns: a value past the rows has none.",
           " * Forced inline where GCC forces the library's own (common.h): a call,",
           " * even one inlined later, changes the inliner's sums, and the tests",
           " * should cost what the compares they stand for cost. */",
           "#if defined(__GNUC__) && !defined(UTFDFA_INLINE_HINTS)",
           "#define UTFDFA_ROW_INLINE static inline __attribute__((always_inline))",
           "#else", "#define UTFDFA_ROW_INLINE static inline", "#endif", ""]
    out += _rows_predicate(rows, "utfdfa_row_unordered", "No byte order of its own (no "
                           "decoder: the byte order\n * mark picks one)",
                           lambda r: r.decoder is None)
    out += _rows_predicate(rows, "utfdfa_row_big_endian", "Units of more than a byte, most "
                           "significant first (a\n * big-endian unit decoder)",
                           lambda r: _unit_order(r) == "UNITS_BE")
    out += _rows_predicate(rows, "utfdfa_row_utf7_writer", "Written by UTF-7's writer, which "
                           "keeps state (an open\n * base64 run)", lambda r: r.writer == "utf7")
    out += _rows_predicate(rows, "utfdfa_row_wobbly", "Surrogate code points, never a high "
                           "one then a low one\n * (decoder dfa+wobbly; its writer refuses "
                           "that pair too)", lambda r: r.decoder == "dfa+wobbly")
    out += _rows_predicate(rows, "utfdfa_row_magic", "A magic number, not U+FEFF, as the "
                           "signature (decoder\n * dfa+magic)", lambda r: r.decoder == "dfa+magic")
    out += _rows_predicate(rows, "utfdfa_row_pua", "The corrected writer's: C1 controls and "
                           "surrogates\n * written as private use under UTFDFA_CORRECTED_PUA, "
                           "and read back", lambda r: r.writer == "corrected")
    out += ["/* The form a row without a byte order (enc) is written in, and read in",
            " * without a byte order mark: its little-endian sibling. */"]
    out += _sibling_function(reg, "utfdfa_little_endian_of", "UNITS_LE")
    out += ["/* The form a row without a byte order (enc) is read in after a big-endian",
            " * byte order mark. */"]
    out += _sibling_function(reg, "utfdfa_big_endian_of", "UNITS_BE")
    out += ["#endif /* UTFDFA_ENCODING_ROWS_GEN_H */"]
    return "\n".join(out) + "\n"


def _x_lines(items):
    return [f"    {x}" + (" \\" if k + 1 < len(items) else "") for k, x in enumerate(items)] + [""]


def _instances(rows):
    """The conversion engine's instances in row order: (source, first row, rows served)."""
    seen = {}
    for r in rows:
        if r.source:
            first, n = seen.get(r.source, (r, 0))
            seen[r.source] = (first, n + 1)
    return [(s, first, n) for s, (first, n) in seen.items()]


# ------------------------------------------------------------ dispatch

def _table_name(kind, stem):
    return f"{kind}_{emit.c_ident(stem)}"


def _emit_dispatch(reg, facts):
    """The runtime's per-encoding switches, from the decoder, writer and
    kernel columns: every case that names an encoding is here."""
    rows = reg.rows
    out = ["/* ------------------------------------------------------------ dispatch",
           " * What each row's decoder, writer and kernel form are (the registry's",
           " * columns of those names): the runtime's switches over encodings are",
           " * these lists and functions, and name no encoding themselves. */", ""]
    out += _emit_dfas(rows, facts)
    out += _emit_decoders(rows)
    out += _emit_writers(rows)
    out += _emit_forms(reg)
    return out


def _emit_dfas(rows, facts):
    """The tables of each grammar a row decodes with (src/decode/dfa.h)."""
    items, fit = [], []
    for r in rows:
        if r.decoder not in DFA_DECODERS:
            continue
        stem = r.grammar[1]
        comp, p = facts.comp[stem], emit.c_ident(stem)
        dfa, P = comp.dfa, p.upper()
        wide = dfa.nstates * dfa.nclasses > 256
        offsets = comp.values.get("offset") is not None
        reserved = comp.values.get("reserved") is not None
        rest = [f".trans16 = {p}_trans" if wide else f".trans8 = {p}_trans"]
        if offsets:
            rest += [f".tag = {p}_tag", f".offset = {p}_tag_offset"]
        if any(dfa.final_tags):
            rest.append(f".final_tag = {p}_final_tag")
        if reserved:
            rest.append(f".reserved_tag = {P}_RESERVED_TAG")
        if r.decoder == "dfa+magic":
            rest.append(".magic = corrected_magic")
        rest.append(f".pairing = {DFA_DECODERS[r.decoder]}")
        items.append(f"X({_table_name('dfa', stem)}, DFA_TABLES({r.enum}, {p}, {P}, "
                     f"{', '.join(rest)}))")
    for stem in facts.grammars:
        fit.append(f"{emit.c_ident(stem).upper()}_NSTATES <= 1u << (bits)")
    markers = [r.enum for r in rows if r.decoder == "dfa+magic" or
               (r.decoder in DFA_DECODERS and
                facts.comp[r.grammar[1]].values.get("reserved") is not None)]
    out = _predicate("utfdfa_row_code_markers", "Targets a block of code points may carry "
                     "markers for (src/output/sink.h):\n * a magic number, or a reserved unit "
                     "passed through.", markers)
    out += ["/* The tables each row with a dfa decoder steps (src/decode/dfa.h's struct",
           " * dfa): X(name, DFA_TABLES(enum, prefix, PREFIX, then the designated",
           " * initializers of the tables only some grammars have: 8-bit or 16-bit",
           " * transitions, tags, tag offsets, longest-match tags, reserved tag, magic",
           " * number, and the pairing)). */",
           "#define UTFDFA_EACH_DFA(X) \\"]
    out += _x_lines(items)
    out += ["/* Whether every state number of the grammars fits `bits` bits. */",
            "#define UTFDFA_STATES_FIT(bits) \\",
            "    (" + " && \\\n     ".join(fit) + ")", ""]
    return out


def _emit_decoders(rows):
    """core()'s cases: each instance's decoder core with its arguments."""
    items = []
    for s, first, n in _instances(rows):
        if first.decoder in DFA_DECODERS:
            items.append(f"X({first.enum}, dfa, &{_table_name('dfa', first.grammar[1])})")
        elif first.decoder == "utf7":
            tables = f"&{_table_name('u7g', first.grammar[1])}"
            for r in rows[::-1]:
                if r.source == s and r is not first:
                    tables = f"FAMILY({r.enum}, &{_table_name('u7g', r.grammar[1])}, {tables})"
            items.append(f"X({first.enum}, utf7, {tables})")
        else:
            items.append(f"X({first.enum}, {', '.join(UNIT_DECODERS[first.decoder])})")
    return ["/* The decoder core of each instance (src/decode/convert.h's core()), by the",
            " * decoder column: X(enum, core, its arguments): core_dfa(tables),",
            " * core_utf16(byte order), core_utf32(byte order, values), core_utf7(tables).",
            " * The rows of one instance take their own tables: FAMILY(row, its tables,",
            " * the others'), by the decoder's source. */",
            "#define UTFDFA_EACH_DECODER(X) \\"] + _x_lines(items)


def _emit_writers(rows):
    """The writers' case groups (src/output/forms.h)."""
    items = []
    for w in WRITERS:
        targets = [r.enum for r in rows if r.writer == w]
        if targets:
            # A value that names no encoding is written as row 0, the
            # all-zero state's encoding (src/output/forms.h's known_target).
            default = " default:" if rows[0].writer == w else ""
            items.append(f"X({w}, " + " ".join(f"case {t}:" for t in targets) + default + ")")
    return ["/* The writer of each target (src/output/forms.h: len_WRITER, write_WRITER),",
            " * by the writer column: X(writer, the case labels of the targets it writes;",
            " * row 0's writer also the default). */",
            "#define UTFDFA_EACH_WRITER(X) \\"] + _x_lines(items)


def _forms(name, doc, cases):
    """A list of forms and the case labels of the encodings of each:
    cases is [(form, [enum...])]."""
    items = [f"X({form.upper()}, " + " ".join(f"case {e}:" for e in enums) + ")"
             for form, enums in cases]
    return [f"/* {doc} */", f"#define {name}(X) \\"] + _x_lines(items)


def _by_form(rows, pick):
    cases = []
    for form in FORMS:
        enums = [r.enum for r in rows if r.kernel and pick(r) and r.kernel[0] == form]
        if enums:
            cases.append((form, enums))
    return cases


def _emit_forms(reg):
    """The kernel forms (src/fast/kernels.h's FORM_*) of each row, by the
    kernel column, for src/output/forms.h's functions of those names."""
    rows = reg.rows
    limit_max = {lim.name: lim.max for lim in reg.limits}
    scalars = {lim.name: lim.max == UNICODE_MAX and list(lim.flags) == ["surrogates"]
               for lim in reg.limits}
    whole = lambda r: not r.kernel[1]  # noqa: E731 (every scalar value in the form)
    out = ["/* The forms of the fast kernels (src/fast/kernels.h), by the kernel column:",
           " * X(FORM, the case labels of its encodings). */"]
    out += _forms("UTFDFA_UNIT_FORMS", "unit_form(): the sources of 16- or 32-bit units "
                  "the unit kernels decode.", _by_form(rows, lambda r: whole(r) and r.unit > 1))
    out += _forms("UTFDFA_KERNEL_FORMS", "kernel_form(): the targets the encoder's kernels "
                  "write, those that hold\n * exactly the scalar values (and WTF-8's "
                  "surrogates).",
                  _by_form(rows, lambda r: whole(r) and limit_max[r.limit] <= 0x10FFFF))
    out += _forms("UTFDFA_WIDE_FORMS", "wide_target(): the targets that write every scalar "
                  "value in a form.", _by_form(rows, whole))
    out += _forms("UTFDFA_SCALAR_SOURCE_FORMS", "scalar_form(): the sources whose valid text is "
                  "exactly the scalar values\n * in a form, which the validating and counting "
                  "kernels read.",
                  _by_form(rows, lambda r: whole(r) and scalars[r.limit]))
    out += _forms("UTFDFA_ASCII_SOURCE_FORMS", "ascii_source(): the sources whose ASCII is "
                  "a form's and nothing else of\n * them (no state, no signature).",
                  _by_form(rows, whole))
    out += _forms("UTFDFA_ASCII_TARGET_FORMS", "ascii_target(): the targets that write ASCII "
                  "in a form, one unit of its own\n * value.", _by_form(rows, lambda r: True))
    return out


def _emit_limits(reg):
    out = ["/* What an output can hold (the registry's @limit lines), from the narrowest",
           " * rule to none; the runtime's unfit() applies the exclusions. */",
           "enum limit {"]
    out += [f"    {_limit_const(lim.name)} = {i}," for i, lim in enumerate(reg.limits)]
    out += ["};"]
    out += [f"#define {_limit_const(lim.name)}_MAX 0x{lim.max:X}u" for lim in reg.limits]
    out += [f"#define UTFDFA_NLIMITS {len(reg.limits)}",
            "/* Each limit's rule (src/output/limits.h's unfit()): X(limit, largest value,",
            " * whether surrogates, C1 controls, U+0000 are excluded below it). */",
            "#define UTFDFA_EACH_LIMIT(X) \\"]
    out += _x_lines([f"X({_limit_const(lim.name)}, 0x{lim.max:X}u, "
                     + ", ".join("1" if f in lim.flags else "0" for f in LIMIT_FLAGS) + ")"
                     for lim in reg.limits])
    holding = sum(1 << i for i, lim in enumerate(reg.limits)
                  if lim.max >= UNICODE_MAX and not {"c1", "nul"} & set(lim.flags))
    out += ["/* The limits that hold every scalar value (a bit each): the fast paths,",
            " * which write scalar values unchecked, serve only these. */",
            f"#define UTFDFA_LIMITS_HOLDING_SCALARS 0x{holding:X}u"]
    out += ["static const uint8_t utfdfa_encoding_limit[UTFDFA_NENCODINGS] = {"]
    out += [f"    {_limit_const(r.limit)}, /* {r.name} */" for r in reg.rows] + ["};", ""]
    return out


def _limit_of_rows(reg, pick, what):
    """The limits of the rows pick chooses, each held by those rows only: a
    decoder that knows only its target's limit (utfdfa_decoder_set_target)
    tells their writer by it."""
    chosen = [r for r in reg.rows if pick(r)]
    limits = sorted({r.limit for r in chosen})
    for r in reg.rows:
        if r.limit in limits and not pick(r):
            raise ValueError(f"line {r.line}: {r.enum} has limit {r.limit}, which only rows "
                             f"{what} may have (a decoder tells their writer by it)")
    return [_limit_const(n) for n in limits]


def _emit_limit_writers(reg):
    out = ["/* The writers' own rules, by the limit of their targets (what a decoder",
           " * of code points for a target keeps of it). */"]
    out += _predicate("utfdfa_limit_pua", "The corrected writer's private-use "
                      "mapping.", _limit_of_rows(reg, lambda r: r.writer == "corrected",
                                                 "of the corrected writer"), "limit")
    out += _predicate("utfdfa_limit_wobbly", "The wobbly writer's high-low rule.",
                      _limit_of_rows(reg, lambda r: r.decoder == "dfa+wobbly",
                                     "of decoder dfa+wobbly"), "limit")
    return out


def emit_make(reg):
    def names(rows):
        return " ".join(rows)

    rows = reg.rows
    dfa = []
    for r in rows:
        if r.grammar and r.grammar[0] == "dfa" and r.grammar[1] not in dfa:
            dfa.append(r.grammar[1])
    lines = [
        "# SPDX-License-Identifier: MIT",
        f"# generated by {GENERATOR} from {reg.path} \u2014 do not edit.",
        "# The grammars the runtime decodes with (their tables are compiled in).",
        f"ENCODING_GRAMMARS = {names(dfa)}",
        "# Unit grammars checked against a hand-written decoder (not compiled in).",
        "UNIT_GRAMMARS = " + names(r.grammar[1] for r in rows
                                   if r.grammar and r.grammar[0] == "check"),
        "# The conversion engine's instances (src/decode/convert_from.c, -DSOURCE_NAME=...).",
        "CONVERT_SOURCES = " + names(s for s, _, _ in _instances(rows)),
        "# Fuzz targets: the Unicode forms (tests/fuzz/fuzz_decode.c) and the others",
        "# (tests/fuzz/fuzz_variants.c).",
    ]
    for harness, var in (("forms", "FUZZ_ENCODINGS"), ("variants", "FUZZ_VARIANTS")):
        lines.append(f"{var} = " + names(r.fuzz[1] for r in rows
                                         if r.fuzz and r.fuzz[0] == harness))
    lines.append("# The encoding each fuzz target reads (-DFUZZ_FROM=...).")
    lines += [f"FUZZ_FROM_{r.fuzz[1]} = {r.enum}" for r in rows if r.fuzz]
    lines.append("ENCODING_NAMES = " + names(r.name for r in rows))
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(prog="registry", description="Emit the encoding registry as "
                                 "a C header of tables or a Makefile fragment.")
    ap.add_argument("registry", help="the registry (grammar/encodings.registry)")
    ap.add_argument("--emit", choices=("c", "make", "rows", "check"), default="check",
                    help="what to write: c (the runtime's tables), make (the Makefile's "
                         "lists), rows (each row's yes-or-no facts, for the CLI too) "
                         "(default: check, only read and check it)")
    ap.add_argument("--grammars", help="folder of the grammars the rows name "
                                       "(default: the registry's)")
    ap.add_argument("-o", "--output", default="-", help="output file (default: standard output)")
    args = ap.parse_args(argv)
    grammar_dir = args.grammars or os.path.dirname(args.registry) or "."
    try:
        reg = parse(args.registry)
        grammar_facts.check_grammars(reg, grammar_dir)
        text = (emit_c(reg, grammar_dir) if args.emit == "c"
                else emit_make(reg) if args.emit == "make"
                else emit_rows(reg) if args.emit == "rows" else "")
    except abnf.AbnfError as e:
        print(str(e) if e.line else f"{ap.prog}: {e}", file=sys.stderr)
        return 1
    except ValueError as e:
        print(f"{ap.prog}: {args.registry}: {e}", file=sys.stderr)
        return 1
    try:
        if args.emit != "check":
            abnfc.write_output(args.output, text)
    except OSError as e:
        print(f"{ap.prog}: {args.output}: {e.strerror or e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
