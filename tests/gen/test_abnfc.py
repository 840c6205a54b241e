#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Tests of the ABNF-to-DFA compiler (gen/abnfc.py and its modules).

Run from the repository root:  python3 tests/gen/test_abnfc.py [-v] [unittest names]

Covers every RFC 5234 (and RFC 7405) construct by the strings it accepts and
rejects, every error path by its exact FILE:LINE:COL and message (through the
Python API and the command line; malformed grammars live in tests/gen/bad/,
each starting with `; expect: LINE:COL: message fragment`), the facts of
RFC 3629's UTF-8 grammar, four other regular grammars from RFCs (checked in
Python and in C through the generated headers, tests/gen/grammars/), and the
emitters. Only the Python standard library is used; C checks need `cc` (or
$CC) and are skipped with a note without one, re2c checks likewise.

The last line printed is `test_abnfc: N passed, M failed`; the exit status is
non-zero if anything failed.
"""

import atexit
import concurrent.futures
import functools
import itertools
import json
import os
import random
import re
import shlex
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
GEN = os.path.join(ROOT, "gen")
sys.path.insert(0, GEN)

import abnf  # noqa: E402
import automaton  # noqa: E402
import compiler  # noqa: E402
import emit  # noqa: E402
import limits  # noqa: E402

ABNFC = os.path.join(GEN, "abnfc.py")
UTF8 = os.path.join(ROOT, "grammar", "utf8.abnf")
BAD_DIR = os.path.join(HERE, "bad")
GRAMMAR_DIR = os.path.join(HERE, "grammars")

TMP = tempfile.mkdtemp(prefix="test_abnfc-")
atexit.register(shutil.rmtree, TMP, True)
_serial = itertools.count()

CFLAGS = ["-std=c11", "-Wall", "-Wextra", "-Wpedantic", "-Werror"]


def _find_cc():
    for cand in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if cand:
            argv = shlex.split(cand)
            if argv and shutil.which(argv[0]):
                return [shutil.which(argv[0])] + argv[1:]
    return None


CC = _find_cc()
RE2C = shutil.which(os.environ.get("RE2C", "re2c"))
_notes = set()


def note(text):
    if text not in _notes:
        _notes.add(text)
        print(f"test_abnfc: note: {text}", file=sys.stderr)


# ------------------------------------------------------------------ helpers

def B(s):
    return s if isinstance(s, bytes) else s.encode("latin-1")


def grammar(text, path="t.abnf"):
    return abnf.parse_grammar(path, text)


def lang(text, rule=None):
    """Language DFA of `rule` (default: the first rule) of grammar text."""
    g = grammar(text)
    return automaton.language_dfa(g, rule or g.rules[g.order[0]].name)


def write_grammar(text, name=None):
    """Write grammar text (str or bytes) to a fresh file; return its path."""
    path = os.path.join(TMP, name or f"g{next(_serial)}.abnf")
    with open(path, "wb") as f:
        f.write(B(text) if isinstance(text, bytes) else text.encode("ascii"))
    return path


@functools.lru_cache(maxsize=None)
def rfc_comp(name, start=None):
    """A grammar of tests/gen/grammars/ compiled (once) with the given start rule;
    "a.abnf+b.abnf" is the grammar of both files."""
    return compiler.compile_grammar([os.path.join(GRAMMAR_DIR, n) for n in name.split("+")],
                                    start=start)


def compile_text(text, **kw):
    return compiler.compile_grammar(write_grammar(text), **kw)


def run_cli(*args, cwd=ROOT):
    return subprocess.run([sys.executable, ABNFC, *args], cwd=cwd, capture_output=True,
                          text=True, encoding="utf-8", errors="replace", timeout=60)


def first_reject(dfa, data):
    """(index of the first rejected byte, its error kind name), or None if never rejected."""
    s = dfa.start
    for i, b in enumerate(data):
        t = dfa.trans[s][b]
        if t == dfa.reject:
            return i, dfa.kind_names[dfa.kinds[s][b]]
        s = t
    return None


def parse_byte_label(label):
    """A picture's edge label -> set of bytes. Items are separated by one space:
    'c' or 'c'-'d' (a printable character, C escapes for ' and \\), XX or XX-YY
    (hex, only where a byte is not printable ASCII)."""
    out, i = set(), 0

    def one(i):
        if label[i] == "'":
            escaped = label[i + 1] == "\\"
            ch = label[i + 1 + escaped]
            assert label[i + 2 + escaped] == "'", label
            return ord(ch), i + 3 + escaped, True
        return int(label[i:i + 2], 16), i + 2, False

    while i < len(label):
        a, i, a_char = one(i)
        b, b_char = a, a_char
        if i < len(label) and label[i] == "-":
            b, i, b_char = one(i + 1)
        printable = [0x20 <= x <= 0x7E for x in range(a, b + 1)]
        assert a_char == b_char and printable == [a_char] * len(printable), \
            f"{label!r}: {a:02X}-{b:02X} shown wrongly"
        out.update(range(a, b + 1))
        assert i == len(label) or label[i] == " ", label
        i += 1
    return out


def c_string(data):
    return '"' + "".join(f"\\x{b:02X}" for b in data) + '"'


def dfa_edges(dfa):
    """(from, to) -> bytes, for every transition out of a live state that avoids reject."""
    edges = {}
    for s in range(dfa.nstates):
        if s == dfa.reject:
            continue
        for b in range(256):
            t = dfa.trans[s][b]
            if t != dfa.reject:
                edges.setdefault((s, t), set()).add(b)
    return edges



# re2c's custom API over a buffer [cur, lim) with end-of-input checks: the
# lexers these tests write themselves.
RE2C_BUFFER_API = [
    "        re2c:api = custom;", "        re2c:api:style = free-form;",
    '        re2c:define:YYCTYPE = "unsigned char";',
    '        re2c:define:YYPEEK = "(cur < lim ? *cur : 0)";',
    '        re2c:define:YYSKIP = "++cur;";',
    '        re2c:define:YYBACKUP = "mar = cur;";',
    '        re2c:define:YYRESTORE = "cur = mar;";',
    '        re2c:define:YYLESSTHAN = "(size_t)(lim - cur) < @@{len}";',
    '        re2c:define:YYFILL = "0";', "        re2c:eof = 0;",
]

class Case(unittest.TestCase):
    maxDiff = 4000

    def assertLanguage(self, dfa, accept=(), reject=()):
        for s in accept:
            self.assertTrue(dfa.accepts(B(s)), f"should accept {B(s)!r}")
        for s in reject:
            self.assertFalse(dfa.accepts(B(s)), f"should reject {B(s)!r}")

    def assertAbnfError(self, fn, line, col, fragment, path=None):
        with self.assertRaises(abnf.AbnfError) as cm:
            fn()
        e = cm.exception
        self.assertEqual((e.line, e.col), (line, col), f"wrong position: {e}")
        self.assertIn(fragment, e.message)
        if path is not None:
            self.assertEqual(e.path, path)
        # No position (line 0: the file or a command-line option): "FILE: message".
        want = f"{e.path}:{e.line}:{e.col}: {e.message}" if e.line else f"{e.path}: {e.message}"
        self.assertEqual(str(e), want)
        return e

    def assertGrammarError(self, text, line, col, fragment, rule=None):
        return self.assertAbnfError(lambda: lang(text, rule), line, col, fragment, "t.abnf")

    def assertCompileError(self, text, line, col, fragment, **kw):
        return self.assertAbnfError(lambda: compile_text(text, **kw), line, col, fragment)

    def build_run(self, d, sources):
        """Compile {file name: C source} as one program with one cc run; return its output."""
        files = []
        for name, text in sources.items():
            files.append(os.path.join(d, name))
            with open(files[-1], "w", encoding="utf-8") as f:
                f.write(text)
        exe = os.path.join(d, "main")
        r = subprocess.run(CC + CFLAGS + ["-I", d] + files + ["-o", exe], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        r = subprocess.run([exe], capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        return r.stdout

    def need_cc(self, also_re2c=False):
        if not CC:
            note("no C compiler (cc, gcc, clang or $CC): C checks skipped")
            self.skipTest("no C compiler")
        if also_re2c and not RE2C:
            note("no re2c: re2c cross-check skipped")
            self.skipTest("no re2c")

    def assertWellFormedDfa(self, dfa):
        """Invariants of every DFA the compiler returns: see automaton.Dfa."""
        n = dfa.nstates
        self.assertEqual(dfa.start, 0)
        self.assertFalse(dfa.accepting[dfa.reject])
        self.assertEqual(dfa.trans[dfa.reject], [dfa.reject] * 256)
        for s in range(n):
            for b in range(256):
                self.assertEqual(dfa.trans[s][b], dfa.class_trans[s][dfa.classes[b]])
        # Byte classes are exactly the distinct columns (no two classes alike).
        cols = {tuple((dfa.trans[s][b], dfa.tags[s][b]) for s in range(n)) for b in range(256)}
        self.assertEqual(dfa.nclasses, len(cols))
        # Canonical numbering: breadth-first from 0, successors in byte order,
        # then reject last if no byte reaches it.
        order, seen = [0], {0}
        for s in order:
            for b in range(256):
                t = dfa.trans[s][b]
                if t not in seen:
                    seen.add(t)
                    order.append(t)
        if dfa.reject not in seen:
            order.append(dfa.reject)
        self.assertEqual(order, list(range(n)), "numbering is not canonical")
        # Minimal: no two reachable states are equivalent (Moore refinement; tags
        # and error kinds are transition outputs, so they count).
        reach = sorted(seen)

        def renumber(keys):
            ids = {}
            return {s: ids.setdefault(k, len(ids)) for s, k in keys.items()}

        block = renumber({s: dfa.accepting[s] for s in reach})
        while True:
            nb = renumber({s: (block[s],) + tuple((block[dfa.trans[s][b]], dfa.tags[s][b],
                                                   dfa.kinds[s][b]) for b in range(256))
                           for s in reach})
            if len(set(nb.values())) == len(set(block.values())):
                break
            block = nb
        self.assertEqual(len(set(block.values())), len(reach), "DFA is not minimal")


# ------------------------------------------------ RFC 5234 / 7405 constructs

class TestConstructs(Case):
    """Every ABNF construct, by the byte strings it accepts and rejects."""

    def test_defined_as_equals(self):
        self.assertLanguage(lang('a = "x"'), ["x", "X"], ["", "xx", "y"])

    def test_incremental_alternatives(self):
        d = lang('a = "x"\nb = "q"\na =/ "y"\na =/ "z" / %x30-31\n')
        self.assertLanguage(d, ["x", "y", "z", "0", "1"], ["q", "2", "xy", ""])

    def test_incremental_alternative_keeps_concatenation_whole(self):
        # a = "x" "y" then a =/ "z" is ("x" "y") / "z", not "x" ("y" / "z").
        d = lang('a = "x" "y"\na =/ "z"')
        self.assertLanguage(d, ["xy", "z"], ["xz", "x", "y"])

    def test_incremental_on_group_body(self):
        d = lang('a = ("x" / "y") "w"\na =/ "v"')
        self.assertLanguage(d, ["xw", "yw", "v"], ["x", "w", "xv"])

    def test_alternation(self):
        self.assertLanguage(lang('a = "x" / "yy" / %x30'), ["x", "yy", "0"], ["y", "", "x0"])

    def test_alternation_without_spaces(self):
        self.assertLanguage(lang('a = "x"/"y"/("z")'), ["x", "y", "z"], ["xy"])

    def test_concatenation(self):
        self.assertLanguage(lang('a = "x" "y"\t%x7A'), ["xyz", "XYz"], ["xy", "xzy", "xyzz"])

    def test_concatenation_binds_tighter_than_alternation(self):
        d = lang('a = "a" "b" / "c"')
        self.assertLanguage(d, ["ab", "c"], ["ac", "abc", "a"])
        d = lang('a = "a" ("b" / "c")')
        self.assertLanguage(d, ["ab", "ac"], ["c", "abc"])

    def test_repetition_star(self):
        self.assertLanguage(lang('a = *"x"'), ["", "x", "xxxxxxxxxx"], ["y", "xy"])

    def test_repetition_n_star_m(self):
        self.assertLanguage(lang('a = 2*3"x"'), ["xx", "xxx"], ["", "x", "xxxx"])

    def test_repetition_n_star(self):
        self.assertLanguage(lang('a = 2*"x"'), ["xx", "xxx", "x" * 20], ["", "x"])

    def test_repetition_star_m(self):
        self.assertLanguage(lang('a = *2"x"'), ["", "x", "xx"], ["xxx"])

    def test_repetition_exact(self):
        self.assertLanguage(lang('a = 3"x"'), ["xxx"], ["xx", "xxxx", ""])
        self.assertLanguage(lang('a = 3%x30-31'), ["010", "111"], ["01", "0101", "012"])

    def test_repetition_zero(self):
        self.assertLanguage(lang('a = 0"x" "y"'), ["y"], ["xy"])
        self.assertLanguage(lang('a = 0*0"x" "y"'), ["y"], ["xy"])
        self.assertLanguage(lang('a = 1*1"x"'), ["x"], ["", "xx"])

    def test_repetition_of_group(self):
        self.assertLanguage(lang('a = 1*2("a" "b") "c"'), ["abc", "ababc"], ["c", "abababc", "aabbc"])

    def test_group(self):
        self.assertLanguage(lang('a = ( "x" ( "y" / "z" ) ) "w"'), ["xyw", "xzw"], ["xw", "yw"])

    def test_option(self):
        d = lang('a = "x" [ "y" "z" ] "w"')
        self.assertLanguage(d, ["xw", "xyzw"], ["xyw", "xzw", "xyzyzw"])

    def test_nested_options(self):
        self.assertLanguage(lang('a = ["a" ["b"]] "c"'), ["c", "ac", "abc"], ["bc", "abbc"])

    def test_numval_hex(self):
        self.assertLanguage(lang('a = %x41 %x61-63 %X7e'), ["Aa~", "Ac~"], ["aa~", "Ad~"])

    def test_numval_decimal(self):
        self.assertLanguage(lang('a = %d65 %d48-57'), ["A0", "A9"], ["a0", "A:"])

    def test_numval_binary(self):
        self.assertLanguage(lang('a = %b1000001 %b110000-110001'), ["A0", "A1"], ["A2", "a0"])

    def test_numval_dotted_concatenation(self):
        self.assertLanguage(lang('a = %x48.49'), ["HI"], ["hi", "H", "HIH"])
        self.assertLanguage(lang('a = %d13.10'), ["\r\n"], ["\n", "\r"])
        self.assertLanguage(lang('a = %b1.10.11'), ["\x01\x02\x03"], ["\x01\x02"])

    def test_numval_full_octet_range(self):
        d = lang('a = %x00-FF')
        self.assertEqual(sum(d.accepts(bytes([b])) for b in range(256)), 256)
        self.assertLanguage(lang('a = %d0 %d255'), [b"\x00\xff"], [b"\x00", b"\xff"])

    def test_charval_case_insensitive(self):
        d = lang('a = "abc"')
        self.assertLanguage(d, ["abc", "ABC", "aBc", "AbC"], ["ab", "abcd", "abd"])
        # Only letters fold: digits and punctuation are exact.
        self.assertLanguage(lang('a = "a1-["'), ["A1-["], ["a1-{", "A!-["])

    def test_rfc7405_case_sensitive(self):
        d = lang('a = %s"aBc"')
        self.assertLanguage(d, ["aBc"], ["abc", "ABC", "aBC"])
        self.assertLanguage(lang('a = %S"aB"'), ["aB"], ["ab"])  # "%s" is itself case-insensitive

    def test_rfc7405_case_insensitive(self):
        self.assertLanguage(lang('a = %i"aBc"'), ["abc", "ABC", "aBc"], ["ab"])
        self.assertLanguage(lang('a = %I"x" %s"y"'), ["xy", "Xy"], ["xY"])

    def test_empty_string(self):
        self.assertLanguage(lang('a = ""'), [""], ["x", " "])
        self.assertLanguage(lang('a = "x" "" "y"'), ["xy"], ["x", "x y"])
        self.assertLanguage(lang('a = "" / "x"'), ["", "x"], ["xx"])
        self.assertLanguage(lang('a = *""'), [""], ["x"])

    def test_core_rules_single_byte(self):
        # RFC 5234 Appendix B.1, checked on every byte.
        sets = {
            "ALPHA": set(range(0x41, 0x5B)) | set(range(0x61, 0x7B)),
            "BIT": {0x30, 0x31},
            "CHAR": set(range(0x01, 0x80)),
            "CR": {0x0D},
            "CTL": set(range(0x00, 0x20)) | {0x7F},
            "DIGIT": set(range(0x30, 0x3A)),
            "DQUOTE": {0x22},
            "HEXDIG": set(b"0123456789ABCDEFabcdef"),
            "HTAB": {0x09},
            "LF": {0x0A},
            "OCTET": set(range(256)),
            "SP": {0x20},
            "VCHAR": set(range(0x21, 0x7F)),
            "WSP": {0x20, 0x09},
        }
        for name, want in sets.items():
            with self.subTest(rule=name):
                d = lang(f"r = {name}")
                got = {b for b in range(256) if d.accepts(bytes([b]))}
                self.assertEqual(got, want)
                self.assertFalse(d.accepts(b"00"))

    def test_core_rules_multi_byte(self):
        self.assertLanguage(lang("r = CRLF"), ["\r\n"], ["\n", "\r", "\n\r", "\r\n\r\n"])
        self.assertLanguage(lang('r = LWSP "x"'),
                            ["x", " x", " \t x", "\r\n x", " \r\n\tx", "\r\n \r\n x"],
                            ["\r\nx", "\r\n\r\n x", "\n x", " \r x"])
        self.assertLanguage(lang("r = 1*HEXDIG"), ["DEADbeef", "0", "fF09"], ["", "g", "0x"])

    def test_core_rule_names_case_insensitive(self):
        self.assertLanguage(lang("r = 1*digit hexDig Alpha"), ["12fz", "1fz", "123Az"], ["12", "af", "12f1"])

    def test_grammar_may_redefine_core_rule(self):
        d = lang('r = 1*DIGIT\nDIGIT = "0" / "1"')
        self.assertLanguage(d, ["0110"], ["2", "012"])

    def test_comments(self):
        d = lang('; a comment line\n'
                 'a = "x" ; comment after elements ; and more\n'
                 '    ; a comment line inside a rule\n'
                 '    "y" ; one more\n'
                 ';last\n')
        self.assertLanguage(d, ["xy"], ["x", "y"])

    def test_semicolon_inside_quotes_and_prose_is_not_a_comment(self):
        self.assertLanguage(lang('a = "x;y" / %x3B ; real comment "z"'), ["x;y", ";"], ["x", "z"])
        g = grammar('a = "x"\nb = <prose; still prose> "z" ; comment')
        self.assertIsInstance(g.rules["b"].body.items[0], abnf.Prose)
        self.assertEqual(g.rules["b"].body.items[0].text, "prose; still prose")

    def test_continuation_lines(self):
        d = lang('a = "x"\n'
                 '    / "y"\n'
                 '\t"z"\n'
                 '\n'
                 '      "w"\n'
                 'b = "q"\n')
        self.assertLanguage(d, ["x", "yzw"], ["y", "yz", "q"])

    def test_rule_names_case_insensitive(self):
        d = lang('Foo = "a" fOO-bar\nFOO-BAR = "b"')
        self.assertLanguage(d, ["ab"], ["a"])
        g = grammar('Foo = "a"\nfoo =/ "b"')
        self.assertEqual(g.rules["foo"].name, "Foo")
        self.assertLanguage(automaton.language_dfa(g, "FOO"), ["a", "b"], [""])

    def test_rule_name_characters(self):
        self.assertLanguage(lang('r-1-x = a2-\na2- = "q"'), ["q"], [""])

    def test_crlf_line_endings(self):
        text = '; CRLF file\r\na = "x"\r\n    / b\r\nb = "y" ; c\r\n'
        self.assertLanguage(lang(text), ["x", "y"], ["\r", "x\r"])
        # A CR is line-end only at the end of a line; columns are not shifted by CRs.
        self.assertGrammarError('a = "x"\r\nb = c\r\n', 2, 5, "rule 'c' is not defined", rule="b")

    def test_block_indented_grammar(self):
        text = ('   ; a grammar copied from an RFC, indented as a block\n'
                '   a   = "x" b\n'
                '         / "w"\n'
                '   b   = "y"\n'
                '      ; indented comment\n'
                '   c   = "z"\n')
        g = grammar(text)
        self.assertEqual(g.order, ["a", "b", "c"])
        self.assertLanguage(lang(text), ["xy", "w"], ["x", "xyw", "z"])
        # Error columns are the file's columns, indent included.
        self.assertGrammarError('   a = "x"\n       / d\n', 2, 10, "rule 'd' is not defined")

    def test_tab_indented_grammar(self):
        self.assertLanguage(lang('\ta = "x"\n\t\t"y"\n\tb = "z"'), ["xy"], ["x", "z"])

    def test_right_linear_recursion_is_a_loop(self):
        d = lang('a = "x" a / "y"')
        self.assertLanguage(d, ["y", "xy", "xxy", "xxxxxxxxxxy"], ["", "x", "yy", "xyx", "yx"])
        loop = lang('a = *"x" "y"')
        self.assertTrue(automaton.same_language(d, loop))
        self.assertEqual(d.nstates, loop.nstates)
        self.assertEqual(d.trans, loop.trans)

    def test_right_linear_recursion_forms(self):
        # Through an option, through another rule, mutual, and inside a rule used in the middle.
        self.assertLanguage(lang('a = "x" [a]'), ["x", "xx", "xxx"], [""])
        self.assertLanguage(lang('a = "x" b\nb = "y" a / "z"'), ["xz", "xyxz", "xyxyxz"], ["xyz", "x"])
        self.assertLanguage(lang('a = b "z"\nb = "x" b / "y"'), ["yz", "xxyz"], ["xz", "y"])
        self.assertLanguage(lang('a = 1b\nb = "x" ( "y" / b )'), ["xy", "xxy"], ["x", "xyy"])
        self.assertLanguage(lang('a = *(b)\nb = "x" b / "y"'), ["", "y", "xyy", "xxyxy"], ["x"])

    def test_recursion_without_exit_accepts_nothing(self):
        d = lang('a = "x" a')
        self.assertFalse(any(d.accepts(s) for s in [b"", b"x", b"xx", b"xxxxxx"]))
        d = lang('a = b\nb = a')
        self.assertFalse(d.accepts(b""))

    def test_unused_rules_need_not_compile(self):
        # Prose and non-regular recursion are errors only in the rules compiled.
        text = 'a = "x"\nb = <prose>\nc = "(" *c ")"\nd = undefined-rule'
        self.assertLanguage(lang(text), ["x"], [""])
        self.assertGrammarError(text, 2, 5, "rule 'b' is prose (<prose>); give a grammar that defines it",
                                rule="b")
        self.assertGrammarError(text, 4, 5, "rule 'undefined-rule' is not defined", rule="d")

    # Minimisation is Hopcroft's refinement, O(k n log n) work: Moore's,
    # before it, took n rounds of O(n) on a chain of n states, and this grammar
    # took minutes (4 s at 1*1000). Processor time, so a busy machine is fair.
    def test_long_repetition_compiles_fast(self):
        t0 = time.process_time()
        d = lang('a = 1*4000( "x" / "y" )\n')
        took = time.process_time() - t0
        self.assertEqual(d.nstates, 4002)
        self.assertLanguage(d, accept=["x", "xy" * 2000], reject=["", "x" * 4001, "z"])
        self.assertLess(took, 30, f"1*4000 took {took:.1f} s of processor time")

    def test_prose_text_kept(self):
        g = grammar('a = <some words, with "quotes">')
        self.assertEqual(g.rules["a"].body, abnf.Prose('some words, with "quotes"', None))


class TestProseAndFiles(Case):
    """RFC grammars as they are published: prose-vals, several files as one grammar."""

    COOKIE = os.path.join(GRAMMAR_DIR, "rfc6265-cookie.abnf")
    TOKEN = os.path.join(GRAMMAR_DIR, "rfc7230-token.abnf")

    def line_col(self, path, needle):
        """Where needle first occurs in a file, 1-based."""
        with open(path) as f:
            for n, line in enumerate(f, 1):
                if needle in line:
                    return n, line.index(needle) + 1
        self.fail(f"{needle!r} not in {path}")

    def test_repeat_of_at_most_zero_is_the_empty_string(self):
        # RFC 3986's path-empty = 0<pchar>: zero of anything, whatever it is.
        for body in ('"x" 0<pchar> "y"', '"x" 0*0"z" "y"', '"x" 0*0undefined-rule "y"',
                     '"x" 0( <words> / "q" ) "y"'):
            with self.subTest(body=body):
                comp = compile_text(f"a = {body}\n")
                self.assertLanguage(comp.language, ["xy"], ["x", "y", "xzy", "xqy", ""])
                text = emit.emit_re2c_defs(comp, "z.abnf")
                self.assertIn("\na = 'x' \"\" 'y'; // z.abnf:1\n", text)

    def test_rfc3986_every_rule_is_a_re2c_definition(self):
        comp = rfc_comp("rfc3986-uri.abnf")
        text = emit.emit_re2c_defs(comp, "rfc3986-uri.abnf")
        self.assertNotIn("not a re2c definition", text)
        for key in comp.grammar.order:
            self.assertRegex(text, rf"(?m)^{re.escape(emit.re2c_name(comp.grammar.rules[key].name))} = ")
        self.assertIn("\npath_empty = \"\"; //", text)
        # path-empty makes the empty string a relative reference (RFC 3986 section 4.2).
        self.assertTrue(rfc_comp("rfc3986-uri.abnf", "URI-reference").language.accepts(b""))

    def test_unsupplied_prose_rule_is_an_error_naming_it(self):
        rel = os.path.relpath(self.COOKIE, ROOT)
        line, col = self.line_col(self.COOKIE, "<token,")
        r = run_cli(rel, "--start", "cookie-pair")
        self.assertEqual((r.returncode, r.stdout), (1, ""))
        self.assertEqual(r.stderr, f"{rel}:{line}:{col}: rule 'token' is prose (<token, defined in "
                                   "[RFC2616], Section 2.2>); give a grammar that defines it\n")
        # The same for every emitter: none of them leaves the rule out quietly.
        for e in emit_names():
            r = run_cli(rel, "--start", "cookie-pair", "--emit", e)
            self.assertEqual((r.returncode, r.stderr.split(": rule")[0]), (1, f"{rel}:{line}:{col}"), e)

    def test_prose_rule_the_start_does_not_need(self):
        comp = rfc_comp("rfc6265-cookie.abnf", "cookie-value")
        self.assertLanguage(comp.language, ["", "abc", '"abc"'], ['"', "a b", "a;b"])

    def test_another_file_supplies_a_prose_rule(self):
        for files in ([self.COOKIE, self.TOKEN], [self.TOKEN, self.COOKIE]):
            with self.subTest(first=os.path.basename(files[0])):
                comp = compiler.compile_grammar(files, start="cookie-pair")
                rule = comp.grammar.rules["token"]
                self.assertEqual(rule.pos.path, self.TOKEN)
                self.assertLanguage(comp.language, ["a=b", "Content-Type=x"], ["(=b", "a=b;"])
                r = run_cli(*files, "--start", "cookie-pair")
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertEqual(r.stdout.split(": start")[0], ", ".join(files))

    def test_each_file_is_parsed_with_its_own_margin(self):
        # RFC 6265 indents its ABNF by one space, RFC 7230 by five: as one
        # text, RFC 7230's lines would continue RFC 6265's last rule.
        texts = []
        for path in (self.COOKIE, self.TOKEN):
            with open(path) as f:
                texts.append(f.read())
        with self.assertRaises(abnf.AbnfError):
            abnf.parse_grammar("both.abnf", "".join(texts))
        g = abnf.parse_grammars([(self.COOKIE, texts[0]), (self.TOKEN, texts[1])])
        self.assertEqual(g.paths, [self.COOKIE, self.TOKEN])
        self.assertIn("tchar", g.order)

    def test_duplicate_across_files_names_both_places(self):
        a = write_grammar('  x = "1"\n  y = "2"\n', "dup-a.abnf")
        b = write_grammar('\n y = "3"\n', "dup-b.abnf")
        e = self.assertAbnfError(lambda: compiler.compile_grammar([a, b]), 2, 2,
                                 f"rule 'y' is already defined at {a}:2:3; a rule is defined in "
                                 "one grammar file only, unless one of the definitions is prose", b)
        self.assertIn(a, str(e))
        # Two prose definitions supply nothing: a duplicate too.
        c = write_grammar("y = <two>\n", "dup-c.abnf")
        d = write_grammar("y = <words>\n", "dup-d.abnf")
        self.assertAbnfError(lambda: compiler.compile_grammar([c, d]), 1, 1,
                             f"rule 'y' is already defined at {c}:1:1", d)
        # In one file a prose and an ABNF definition are still a duplicate.
        self.assertGrammarError('y = <words>\ny = "1"\n', 2, 1,
                                "rule 'y' is already defined at 1:1 (use '=/' to add alternatives)")

    def test_re2c_says_why_in_a_sentence(self):
        comp = compile_text('top = "t"\nr = "a" r / "b"\np = <some words>\nq = p "x"\n'
                            'i = "a" <inline words>\nu = undefined-rule\nm = n "1"\nn = "2" m\n')
        text = emit.emit_re2c_defs(comp, "w.abnf")
        want = {
            "r": "it refers to itself (r -> r), and a re2c definition cannot (the DFA of "
                 "--emit c loops instead)",
            "p": "it is prose, <some words>, and no grammar given defines it",
            "q": "it uses p, which is not a re2c definition either",
            "i": "it uses the prose <inline words>, which names no bytes",
            "u": "it uses undefined-rule, which no grammar given defines",
            "m": "it refers to itself (m -> n -> m), and a re2c definition cannot (the DFA "
                 "of --emit c loops instead)",
            "n": "it refers to itself (n -> m -> n), and a re2c definition cannot (the DFA "
                 "of --emit c loops instead)",
        }
        for name, reason in want.items():
            self.assertIn(f"\n// {name} is not a re2c definition: {reason}.\n", text)
        self.assertIn("\ntop = 't'; // w.abnf:1\n", text)

    def test_re2c_origin_names_each_rules_file(self):
        text = emit.emit_re2c_defs(rfc_comp("rfc6265-cookie.abnf+rfc7230-token.abnf", "cookie-pair"),
                                   "both")
        self.assertRegex(text, rf"(?m)^token = tchar\+; // {re.escape(self.TOKEN)}:\d+$")
        self.assertRegex(text, rf"(?m)^cookie_pair = .*; // {re.escape(self.COOKIE)}:\d+$")


def emit_names():
    import abnfc
    return [e for e in abnfc.EMITTERS if e != "re2c-lexer"]


def json_string_oracle(data):
    """Whether bytes are exactly one JSON string (RFC 8259 section 7), by
    Python's json module after a strict UTF-8 decode (section 8.1)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        return False  # json.loads would skip white space around the value
    try:
        return isinstance(json.loads(text), str)
    except ValueError:
        return False


def count_accepted(dfa):
    """How many strings an acyclic DFA accepts (None: it loops)."""
    memo, busy = {}, set()

    def n(s):
        if s == dfa.reject:
            return 0
        if s in busy:
            raise OverflowError
        if s not in memo:
            busy.add(s)
            memo[s] = int(dfa.accepting[s]) + sum(n(t) for t in dfa.trans[s])
            busy.discard(s)
        return memo[s]
    try:
        return n(dfa.start)
    except OverflowError:
        return None


def scalar_values(lo, hi):
    """How many Unicode scalar values (code points but surrogates) lo..hi holds."""
    return hi - lo + 1 - max(0, min(hi, 0xDFFF) - max(lo, 0xD800) + 1)


class TestUtf8Terminals(Case):
    """--terminals utf-8: num-vals as Unicode code points, matched as UTF-8."""

    JSON = os.path.join(GRAMMAR_DIR, "rfc8259-string.abnf")

    @classmethod
    def setUpClass(cls):
        cls.json = compiler.compile_grammar(cls.JSON, terminals="utf-8")

    def code_point_dfa(self, lo, hi):
        g = abnf.parse_grammar("cp.abnf", f"a = %x{lo:X}-{hi:X}\n", terminals="utf-8")
        return automaton.language_dfa(g, "a")

    def test_ranges_are_exactly_the_utf8_of_their_scalar_values(self):
        # The DFA accepts a code point's UTF-8 (Python's codec) iff it is in
        # the range and not a surrogate, and accepts as many strings as the
        # range has scalar values: so nothing else.
        bounds = [0, 0x7F, 0x80, 0x7FF, 0x800, 0xFFF, 0x1000, 0xD7FF, 0xD800, 0xDFFF, 0xE000,
                  0xFFFF, 0x10000, 0x3FFFF, 0x40000, 0xFFFFF, 0x100000, 0x10FFFF]
        rng = random.Random(8259)
        cases = [(0, 0x10FFFF), (0x5D, 0x10FFFF), (0xA0, 0xD7FF), (0x80, 0x10FFFF), (0x7F, 0x80)]
        cases += [tuple(sorted(rng.sample(bounds, 2))) for _ in range(12)]
        cases += [tuple(sorted((rng.randrange(0x110000), rng.randrange(0x110000))))
                  for _ in range(12)]
        for lo, hi in cases:
            if scalar_values(lo, hi) == 0 or hi <= 0xFF and not lo < 0x80 <= hi:
                continue  # all surrogates (an error), or octets
            with self.subTest(lo=hex(lo), hi=hex(hi)):
                d = self.code_point_dfa(lo, hi)
                self.assertWellFormedDfa(d)
                self.assertEqual(count_accepted(d), scalar_values(lo, hi))
                probes = {lo, hi, max(0, lo - 1), min(0x10FFFF, hi + 1), 0xD800, 0xDFFF}
                probes |= {c + k for c in bounds for k in (-1, 0, 1) if 0 <= c + k <= 0x10FFFF}
                probes |= {rng.randrange(0x110000) for _ in range(300)}
                for cp in sorted(probes):
                    want = lo <= cp <= hi and not 0xD800 <= cp <= 0xDFFF
                    self.assertEqual(d.accepts(chr(cp).encode("utf-8", "surrogatepass")), want,
                                     f"U+{cp:04X}")
        # Every code point, once, for the whole range.
        d = self.code_point_dfa(0, 0x10FFFF)
        for cp in range(0x110000):
            if d.accepts(chr(cp).encode("utf-8", "surrogatepass")) == (0xD800 <= cp <= 0xDFFF):
                self.fail(f"U+{cp:04X}")

    def test_rfc8259_string_every_code_point_against_python_json(self):
        d = self.json.language
        self.assertWellFormedDfa(d)
        inside = d.trans[d.start][0x22]
        wrong = []
        for cp in range(0x110000):
            data = chr(cp).encode("utf-8", "surrogatepass")
            s = inside
            for b in data:
                s = d.trans[s][b]
            got = d.accepting[d.trans[s][0x22]]
            if got != json_string_oracle(b'"' + data + b'"'):
                wrong.append(f"U+{cp:04X}")
        self.assertEqual(wrong[:10], [])

    def test_rfc8259_string_byte_strings_against_python_json(self):
        d = self.json.language
        cases = [b'"' + bytes(p) + b'"' for p in itertools.product(range(256), repeat=2)]
        rng = random.Random(7159)
        pieces = [b'"', b"\\", b"u", b"0", b"a", b"F", b"g", b"n", b"/", b" ", b"\x1f", b"\x7f",
                  "\u00e9".encode(), "\u20ac".encode(), "\U0001F600".encode(), b"\xff", b"\xc0\xaf",
                  b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xe0\x80", b"\xc3"]
        for _ in range(40000):
            cases.append(b'"' + b"".join(rng.choice(pieces) for _ in range(rng.randrange(7)))
                         + rng.choice([b'"', b"", b'"'*2, b"x"]))
        cases += [b'""', b'"\\u00e9"', b'"\\uD83D\\uDE00"', b'"\\uzzzz"', b'"a\\"b"', b'"\\',
                  b'', b'"', b'"\\u12"']
        wrong = [c for c in cases if d.accepts(c) != json_string_oracle(c)]
        self.assertEqual(wrong[:10], [])

    def test_rfc8259_string_against_re2c_utf8(self):
        """The generated C header against re2c -8 on the same strings as a
        regular expression over code points: every string of 0 to 3 bytes
        between quotes, 4-byte sequences around the UTF-8 limits, escapes."""
        self.need_cc(also_re2c=True)
        d = os.path.join(TMP, "re2c-json")
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "js.gen.h"), "w", encoding="utf-8") as f:
            f.write(emit.emit_c(self.json, "rfc8259-string.abnf", "js"))
        src = ["#include <stdio.h>", "#include <stddef.h>", '#include "js.gen.h"', "",
               "static int re2c_string(const unsigned char *in, size_t n)", "{",
               "    const unsigned char *cur = in, *lim = in + n, *mar = in;", "    (void)mar;",
               "    /*!re2c", *RE2C_BUFFER_API,
               "        hex = [0-9A-Fa-f];",
               "        unescaped = [\\x20-\\x21\\x23-\\x5B\\x5D-\\uD7FF\\uE000-\\U0010FFFF];",
               '        char = unescaped | "\\\\" (["\\\\/bfnrt] | "u" hex{4});',
               '        ["] char* ["] { return cur == lim; }',
               "        * { return 0; }", "        $ { return 0; }", "    */", "}", "",
               "static int ours(const unsigned char *in, size_t n)", "{",
               "    uint32_t s = JS_START;", "    size_t i;",
               "    for (i = 0; i < n; i++)", "        s = js_step(s, in[i]);",
               "    return js_is_accepting(s);", "}", "",
               "static long checked, differ;",
               "static void check(const unsigned char *x, size_t n)", "{",
               "    unsigned char buf[16];", "    size_t i;", "    buf[0] = '\"';",
               "    for (i = 0; i < n; i++)", "        buf[i + 1] = x[i];", "    buf[n + 1] = '\"';",
               "    checked++;",
               "    if (ours(buf, n + 2) != re2c_string(buf, n + 2) && differ++ < 5) {",
               "        for (i = 0; i < n + 2; i++)", '            printf("%02X ", buf[i]);',
               '        printf("differ\\n");', "    }", "}", "",
               "int main(void)", "{",
               "    static const char hexish[] = \"0123456789abcdefABCDEFgG/ \";",
               "    unsigned char x[6] = {0};", "    unsigned a, b, c, e;",
               "    check(x, 0);",
               "    for (a = 0; a < 256; a++) {", "        x[0] = (unsigned char)a;", "        check(x, 1);",
               "        for (b = 0; b < 256; b++) {", "            x[1] = (unsigned char)b;",
               "            check(x, 2);",
               "            for (c = 0; c < 256; c++) {", "                x[2] = (unsigned char)c;",
               "                check(x, 3);", "            }", "        }", "    }",
               "    for (a = 0xED; a <= 0xF5; a++)",
               "        for (b = 0x7F; b <= 0xC0; b++)", "            for (c = 0x7F; c <= 0xC0; c++)",
               "                for (e = 0x7F; e <= 0xC0; e++) {",
               "                    x[0] = (unsigned char)a; x[1] = (unsigned char)b;",
               "                    x[2] = (unsigned char)c; x[3] = (unsigned char)e;",
               "                    check(x, 4);", "                }",
               "    x[0] = '\\\\'; x[1] = 'u';",
               "    for (a = 0; a < 26; a++)", "        for (b = 0; b < 26; b++)",
               "            for (c = 0; c < 26; c++)", "                for (e = 0; e < 26; e++) {",
               "                    x[2] = (unsigned char)hexish[a]; x[3] = (unsigned char)hexish[b];",
               "                    x[4] = (unsigned char)hexish[c]; x[5] = (unsigned char)hexish[e];",
               "                    check(x, 6);", "                }",
               '    printf("checked %ld, %ld differ\\n", checked, differ);',
               "    return differ != 0;", "}"]
        with open(os.path.join(d, "cross.re"), "w") as f:
            f.write("\n".join(src) + "\n")
        r = subprocess.run([RE2C, "-8", "--encoding-policy", "fail", "-W", "-Werror",
                            "--no-generation-date", "--no-version", "-i",
                            os.path.join(d, "cross.re"), "-o", os.path.join(d, "cross.c")],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        exe = os.path.join(d, "cross")
        r = subprocess.run(CC + CFLAGS + ["-O2", "-I", d, os.path.join(d, "cross.c"), "-o", exe],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        r = subprocess.run([exe], capture_output=True, text=True, timeout=120)
        n = 1 + 256 + 256 ** 2 + 256 ** 3 + 9 * 66 ** 3 + 26 ** 4
        self.assertEqual((r.returncode, r.stdout), (0, f"checked {n}, 0 differ\n"))

    def test_values_up_to_ff_stay_octets(self):
        # RFC 3629 writes UTF-8's bytes as %xC2-DF and %x80-BF: they stay bytes.
        g = abnf.parse_grammar("o.abnf", "a = %xC3 %xA9 / %xE9\nb = %x0-E9\n", terminals="utf-8")
        self.assertLanguage(automaton.language_dfa(g, "a"), [b"\xc3\xa9", b"\xe9"], [b"\xc3"])
        # A range crossing 0x80 is code points: U+00E9 is C3 A9, not E9.
        self.assertLanguage(automaton.language_dfa(g, "b"), [b"\xc3\xa9", b"a", b"\xc2\x80"],
                            [b"\xe9", b"\x80", b"\xc3\xaa"])
        for path in sorted(os.listdir(os.path.join(ROOT, "grammar"))):
            if path.startswith("utf8"):
                full = os.path.join(ROOT, "grammar", path)
                self.assertEqual(emit.emit_c(compiler.compile_grammar(full, terminals="utf-8"), "x", "x"),
                                 emit.emit_c(compiler.compile_grammar(full), "x", "x"), path)

    def test_dotted_values(self):
        g = abnf.parse_grammar("d.abnf", "a = %x61.E9.20AC.1F600\n", terminals="utf-8")
        self.assertLanguage(automaton.language_dfa(g, "a"),
                            ["a\u00e9\u20ac\U0001F600".encode().replace(b"\xc3\xa9", b"\xe9")],
                            ["a\u00e9\u20ac\U0001F600".encode()])

    def test_errors(self):
        def err(text, col, fragment, terminals="utf-8"):
            self.assertAbnfError(lambda: abnf.parse_grammar("t.abnf", text, terminals), 1, col,
                                 fragment, "t.abnf")
        err("a = %x110000", 7, "value 110000 (=1114112) is beyond U+10FFFF, the last Unicode code point")
        err("a = %x41-110000", 10, "is beyond U+10FFFF")
        err("a = %xD800", 7, "U+D800 is a surrogate, which UTF-8 does not encode: nothing can match")
        err("a = %xD800-DFFF", 5, "U+D800-U+DFFF are surrogates")
        err("a = %x100", 7, "(--terminals utf-8 reads values above 0xFF as Unicode code points)",
            "octets")
        r = run_cli(self.JSON)
        self.assertEqual(r.returncode, 1)
        self.assertIn("--terminals utf-8", r.stderr)
        r = run_cli(self.JSON, "--terminals", "utf-8")
        self.assertEqual((r.returncode, r.stderr), (0, ""))


# ------------------------------------------------------------- error paths

class TestErrors(Case):
    """Errors through the Python API, with exact positions (more in tests/gen/bad/)."""

    def test_unclosed_group(self):
        self.assertGrammarError('a = ( "x" / "y"', 1, 16, "expected ')' to close the group opened at 1:5")

    def test_unclosed_option(self):
        self.assertGrammarError('a = [ "x"\n  "y"\nb = "z"', 2, 6, "expected ']' to close the option opened at 1:5")

    def test_unclosed_quote(self):
        self.assertGrammarError('a = "x" / "abc', 1, 11, "char-val not closed with '\"' on its line")
        self.assertGrammarError('a = %s"abc', 1, 5, "char-val not closed")

    def test_unclosed_prose(self):
        self.assertGrammarError('a = <abc', 1, 5, "prose-val not closed with '>'")

    def test_bad_numval_digit(self):
        self.assertGrammarError('a = %xG1', 1, 7, "expected a base-16 digit")
        self.assertGrammarError('a = %d1-x', 1, 9, "expected a base-10 digit")
        self.assertGrammarError('a = %b2', 1, 7, "expected a base-2 digit")
        self.assertGrammarError('a = %x41.', 1, 10, "expected a base-16 digit")
        self.assertGrammarError('a = %', 1, 6, "expected 'x', 'd' or 'b' after '%' (num-val)")

    def test_numval_above_255(self):
        e = self.assertGrammarError('a = %x100', 1, 7, "value 100 (=256) is not an octet")
        self.assertIn("bytes 0-255", e.message)
        self.assertGrammarError('a = %d255 %d256', 1, 13, "value 256 (=256) is not an octet")
        self.assertGrammarError('a = %b111111111', 1, 7, "value 111111111 (=511) is not an octet")

    def test_numval_empty_range(self):
        self.assertGrammarError('a = %x42-41', 1, 5, "num-val range is empty")

    def test_bad_repeat(self):
        self.assertGrammarError('a = 3*2"x"', 1, 5, "repeat 3*2: the maximum is below the minimum")
        self.assertGrammarError('a = *', 1, 6, "expected an element after the repeat count")
        self.assertGrammarError('a = "x" 2 "y"', 1, 10, "expected an element after the repeat count")

    def test_missing_equals(self):
        self.assertGrammarError('a "x"', 1, 3, "expected '=' or '=/' after rule name 'a'")
        self.assertGrammarError('a = "x"\nb\n', 2, 2, "expected '=' or '=/' after rule name 'b'")

    def test_junk_after_elements(self):
        self.assertGrammarError('a = "x" )', 1, 9, "unexpected ')' after the elements of rule 'a'")
        self.assertGrammarError('a = "x" @', 1, 9, "unexpected character '@'")

    def test_empty_group_and_option(self):
        self.assertGrammarError('a = ( )', 1, 7, "empty group")
        self.assertGrammarError('a = []', 1, 6, "empty option")

    def test_missing_element_at_end(self):
        # These used to recurse until Python's stack ran out (RecursionError).
        self.assertGrammarError('a = "x" /', 1, 10, "expected an element, found the end of the rule")
        self.assertGrammarError('a = "x" / ', 1, 11, "expected an element, found the end of the rule")
        self.assertGrammarError('a = (', 1, 6, "expected an element, found the end of the rule")
        self.assertGrammarError('a = [ "x" /\nb = "y"', 1, 12, "expected an element, found the end of the rule")

    def test_deep_nesting_is_an_error_not_a_crash(self):
        ok = 'a = ' + '("x" [' * 50 + '"y"' + '])' * 50          # 100 levels
        self.assertLanguage(lang(ok), ["x", "xx", "x" * 50 + "y"], ["", "y", "xy", "x" * 51])
        bad = 'a = ' + '("x" [' * 50 + '("y")' + '])' * 50      # 101 levels
        self.assertGrammarError(bad, 1, 305, "groups and options nest more than 100 deep")

    def test_non_ascii_byte(self):
        self.assertGrammarError('a = "x"\nb = "\xe9"', 2, 6, "character 0xE9 is not allowed in ABNF")
        self.assertGrammarError('a = "\x00"', 1, 6, "character 0x00 is not allowed in ABNF")

    def test_lone_cr(self):
        self.assertGrammarError('a = "x"\rb = "y"', 1, 8, "character 0x0D is not allowed in ABNF")

    def test_continuation_line_before_any_rule(self):
        self.assertGrammarError('; c\n   "x"\na = "y"', 2, 4, "continuation line (indented) before any rule")

    def test_bad_rule_name(self):
        self.assertGrammarError('a = "x"\n1b = "y"', 2, 1, "expected a rule name at the start of a rule")

    def test_undefined_rule(self):
        self.assertGrammarError('a = "x" / Nope', 1, 11, "rule 'Nope' is not defined")

    def test_undefined_start_rule(self):
        self.assertAbnfError(lambda: automaton.language_dfa(grammar('a = "x"'), "zz"), 0, 0,
                             "start rule 'zz' is not defined")

    def test_incremental_for_undefined_rule(self):
        self.assertGrammarError('a = "x"\nb =/ "y"', 2, 1,
                                "'=/' adds to rule 'b', which is not defined earlier in the file")

    def test_duplicate_definition(self):
        self.assertGrammarError('Ab = "x"\nc = "y"\naB = "z"', 3, 1,
                                "rule 'aB' is already defined at 1:1 (use '=/' to add alternatives)")

    def test_prose_used(self):
        self.assertGrammarError('a = "x" b\nb = "y" / <anything>', 2, 11,
                                "rule 'b' uses prose (<anything>) inside its definition; only a "
                                "rule that is prose as a whole can be defined by another grammar, "
                                "so write this part in ABNF")

    def test_non_regular_recursion_names_the_cycle(self):
        # RFC 5322 section 3.2.2: comments nest.
        text = ('comment = "(" *(ctext / comment) ")"\n'
                'ctext = %d33-39 / %d42-91 / %d93-126\n')
        self.assertGrammarError(text, 1, 25, "recursion that is not regular: comment -> comment")
        text = ('comment  = "(" *([FWS] ccontent) [FWS] ")"\n'
                'ccontent = ctext / quoted-pair / comment\n'
                'ctext    = %d33-39 / %d42-91 / %d93-126\n'
                'quoted-pair = "\\" (VCHAR / WSP)\n'
                'FWS      = ([*WSP CRLF] 1*WSP)\n')
        self.assertGrammarError(text, 2, 34, "recursion that is not regular: comment -> ccontent -> comment")

    def test_non_regular_recursion_forms(self):
        self.assertGrammarError('a = "x" a "y" / ""', 1, 9, "a -> a")           # not at the end
        self.assertGrammarError('a = *("x" a) "y"', 1, 11, "a -> a")            # inside a repetition
        self.assertGrammarError('a = "x" 2a / "y"', 1, 10, "a -> a")            # repeated
        self.assertGrammarError('a = b\nb = [a] "x"', 2, 6, "a -> b -> a")      # left recursion
        self.assertGrammarError('s = a "!"\na = "(" b\nb = a ")" / "x"', 3, 5, "a -> b -> a")

    def test_value_annotations_checked_when_read(self):
        # Each was an error of --emit c alone, without a position; --emit json
        # and the others passed it.
        head = "; @unit u\n; @tags\n"
        body = "s = *u\nu = one / two\none = %x00-7F\ntwo = %xC2-DF %x80-BF\n"
        cases = [
            ("; @value payload trailing-zeros\n", 3, 18,
             "@value payload: unknown scheme 'trailing-zeros' (known: leading-ones, octet)"),
            ("; @value literal three\n", 3, 18,
             "@value literal: 'three' is not a tag or mark (tags: one, two)"),
            ("; @value offset three 5\n", 3, 17,
             "@value offset: 'three' is not an alternative of the unit rule (tags: one, two)"),
            ("; @value reserved nothing\n", 3, 19,
             "@value reserved: 'nothing' is not an alternative of the unit rule (tags: one, two)"),
        ]
        for ann, line, col, message in cases:
            path = write_grammar(head + ann + body)
            for e in emit_names():
                with self.subTest(annotation=ann, emit=e):
                    r = run_cli(path, "--emit", e)
                    self.assertEqual((r.returncode, r.stderr), (1, f"{path}:{line}:{col}: {message}\n"))
        # One class may not mix payload masks (C0-DF's 5 bits, E0-EF's 4 bits here).
        self.assertCompileError("; @unit u\n; @value payload leading-ones\ns = *u\n"
                                "u = %x00-7F / %xC0-EF %x80-BF\n", 2, 10,
                                "@value payload: byte class C0-EF mixes payload masks")
        self.assertCompileError('; @value empty x\ns = "a"\n', 1, 3,
                                "@value describes the value of a decoder's units: it needs a unit "
                                "rule (@unit or --unit)")

    def test_space_after_repeat_count_hint(self):
        self.assertGrammarError("a = 1*255 DIGIT", 1, 10,
                                "expected an element after the repeat count 1*255: RFC 5234 allows "
                                "no space between a repeat and its element (write 1*255DIGIT, not "
                                "1*255 DIGIT)")
        self.assertGrammarError('a = 2  ( "x" )', 1, 6, "(write 2(, not 2 ()")
        self.assertGrammarError("a = 1*2 /", 1, 8, "expected an element after the repeat count")
        e = self.assertGrammarError("a = 3\n", 1, 6, "expected an element after the repeat count")
        self.assertNotIn("RFC 5234", e.message)

    def test_unknown_annotation(self):
        e = self.assertCompileError('; @strat a\na = "x"', 1, 3, "unknown annotation @strat")
        self.assertIn("@start", e.message)

    def test_annotation_errors(self):
        self.assertCompileError('; @start b\na = "x"', 1, 10, "@start: rule 'b' is not defined")
        self.assertCompileError('; @start a\n; @start a\na = "x"', 2, 3, "@start is given more than once (first at 1:3)")
        self.assertCompileError('; @start\na = "x"', 1, 9, "@start needs a rule name")
        self.assertCompileError('; @start a b\na = "x"', 1, 10, "@start takes one rule name")
        self.assertCompileError('', 1, 1, "the grammar defines no rule")
        unit = 's = *u\nu = "a"\n'
        self.assertCompileError('; @unit u\n; @error e\n' + unit, 2, 10, "@error takes KIND = ELEMENTS")
        self.assertCompileError('; @unit u\n; @error e = "b" /\n' + unit, 2, 19,
                                "expected an element, found the end of the rule")
        self.assertCompileError('; @unit u\n; @error-kinds e e\n' + unit, 2, 16, "@error-kinds names 'e' twice")
        self.assertCompileError('; @unit u\n; @error-kinds e\n; @error f = "b"\n' + unit, 3, 10,
                                "error kind 'f' is not listed in @error-kinds at 2:3")
        self.assertCompileError('; @unit u\n; @error-start a b\n' + unit, 2, 16, "@error-start takes one error kind")

    def test_command_line_rule_errors(self):
        self.assertCompileError('a = "x"', 0, 0, "--start: rule 'b' is not defined", start="b")
        self.assertCompileError('a = "x"', 0, 0, "--unit: rule 'b' is not defined", unit="b")

    def test_unit_not_prefix_free(self):
        e = self.assertCompileError('; @unit u\ns = *u\nu = "a" / "ab"', 3, 1,
                                    "unit rule 'u' is not prefix-free: [41] is a whole unit")
        self.assertIn("start of a longer one", e.message)
        self.assertCompileError('s = *u\nu = %x00-7F / %xC0 1*%x80-BF', 2, 1,
                                "is not prefix-free: [C0 80]", unit="u")

    def test_start_must_repeat_unit(self):
        self.assertCompileError('; @unit u\ns = 1*u\nu = "a"', 2, 1,
                                "start rule 's' must be *( u ) for a decoder: its language differs")

    def test_unit_recursion(self):
        self.assertCompileError('; @unit u\ns = *u\nu = "a" u / "b"', 3, 9, "recursion that is not regular: u -> u")

    def test_missing_file(self):
        path = os.path.join(TMP, "does-not-exist.abnf")
        self.assertAbnfError(lambda: compiler.compile_grammar(path), 0, 0, "cannot read grammar")


# ------------------------------------------------ tests/gen/bad/, API + CLI

def _bad_files():
    return sorted(f for f in os.listdir(BAD_DIR) if f.endswith(".abnf"))


def _expectation(path):
    with open(path, "rb") as f:
        first = f.readline().decode("ascii").rstrip("\r\n")
    m = re.fullmatch(r"; expect: (\d+):(\d+): (.+)", first)
    if not m:
        raise AssertionError(f"{path}: first line must be '; expect: LINE:COL: fragment', got {first!r}")
    return int(m.group(1)), int(m.group(2)), m.group(3)


class TestBadGrammars(Case):
    """Each tests/gen/bad/*.abnf fails with the position and message on its first line."""

    cli = {}

    @classmethod
    def setUpClass(cls):
        # The command-line runs are independent: run them in parallel, once.
        rels = [os.path.relpath(os.path.join(BAD_DIR, f), ROOT) for f in _bad_files()]
        out = os.path.join(TMP, "bad-out")
        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            runs = pool.map(lambda r: run_cli(r, "--emit", "c", "-o", out + "-" + os.path.basename(r)), rels)
            cls.cli = dict(zip(rels, runs))

    def test_directory_has_at_least_15_files(self):
        self.assertGreaterEqual(len(_bad_files()), 15)

    @classmethod
    def add(cls, name):
        path = os.path.join(BAD_DIR, name)
        rel = os.path.relpath(path, ROOT)
        stem = re.sub(r"\W", "_", name[:-5])

        def api(self):
            line, col, frag = _expectation(path)
            self.assertAbnfError(lambda: compiler.compile_grammar(path), line, col, frag, path)

        def cli(self):
            line, col, frag = _expectation(path)
            r = self.cli[rel]
            self.assertNotIn("Traceback", r.stderr)
            self.assertEqual(r.returncode, 1, r.stderr)
            self.assertEqual(r.stdout, "")
            lines = r.stderr.splitlines()
            self.assertEqual(len(lines), 1, r.stderr)
            # FILE:LINE:COL: message, as compilers write it: no program name in front.
            self.assertTrue(lines[0].startswith(f"{rel}:{line}:{col}: "), lines[0])
            self.assertIn(frag, lines[0])
            # Exactly the API's message, and no output file left behind.
            with self.assertRaises(abnf.AbnfError) as cm:
                compiler.compile_grammar(path)
            e = cm.exception
            self.assertEqual(lines[0], f"{rel}:{e.line}:{e.col}: {e.message}")
            self.assertFalse(os.path.exists(os.path.join(TMP, "bad-out-" + name)))

        api.__doc__ = f"bad/{name} via compile_grammar"
        cli.__doc__ = f"bad/{name} via the command line"
        setattr(cls, f"test_api_{stem}", api)
        setattr(cls, f"test_cli_{stem}", cli)


for _name in _bad_files():
    TestBadGrammars.add(_name)


# ------------------------------------------------ RFC 9110 list syntax

def _list_oracle(lo, hi):
    """RFC 9110 §5.6.1.1's sender form of <lo>#<hi>"a" as a Python regex,
    written from the RFC's own expansion, not from the compiler."""
    more = f"(?:[ \t]*,[ \t]*a){{{max(lo, 1) - 1},{'' if hi is None else hi - 1}}}"
    if hi == 0:
        return re.compile("")
    return re.compile(f"a{more}" if lo else f"(?:a{more})?")


class TestListSyntax(Case):
    """`#` lists (RFC 9110 §5.6.1, sender form): element, comma, OWS."""

    FORMS = [(1, None), (0, None), (2, 3), (0, 2), (3, 3), (1, 1), (0, 0), (2, None)]

    @staticmethod
    def spell(lo, hi):
        return f"{lo or ''}#{'' if hi is None else hi}"

    def test_every_short_string_against_the_rfc(self):
        alphabet = b"a, \tb"
        strings = [bytes(t) for n in range(7) for t in itertools.product(alphabet, repeat=n)]
        for lo, hi in self.FORMS:
            with self.subTest(form=self.spell(lo, hi)):
                d = lang(f'x = {self.spell(lo, hi)}"a"\n')
                want = _list_oracle(lo, hi)
                wrong = [s for s in strings
                         if d.accepts(s) != bool(want.fullmatch(s.decode("ascii")))]
                self.assertEqual(wrong[:5], [])

    def test_rfc9110_connection_header(self):
        d = lang("Connection = 1#connection-option\nconnection-option = token\n"
                 "token = 1*tchar\ntchar = \"!\" / \"#\" / \"$\" / \"%\" / \"&\" / \"'\" / "
                 "\"*\" / \"+\" / \"-\" / \".\" / \"^\" / \"_\" / \"`\" / \"|\" / \"~\" / "
                 "DIGIT / ALPHA\n")
        self.assertLanguage(d, ["close", "keep-alive, Upgrade", "a,b ,c\t,  d", "x#y"],
                            ["", "close,", ", close", "a,,b", "a b", "close ,"])

    def test_list_of_a_group_and_of_a_rule(self):
        self.assertLanguage(lang('x = 1#2( "a" / "b" "c" )\n'),
                            ["a", "bc", "a , bc", "bc,a"], ["a,a,a", "b", ""])
        self.assertLanguage(lang('x = "<" #item ">"\nitem = 1*DIGIT\n'),
                            ["<>", "<1>", "<1, 22,333>"], ["<,>", "<1,>", "< 1>"])

    def test_errors(self):
        self.assertGrammarError('a = 3#2"y"\n', 1, 5, "list 3#2: the maximum is below the minimum")
        self.assertGrammarError("a = 1#\n", 1, 7, "expected an element after the list count")
        self.assertGrammarError('a = #"x" # "y"\n', 1, 11, "expected an element after the list count")


# ------------------------------------------------------- RFC page layout

SPEC_DIR = os.path.join(ROOT, "..", "shared", "spec")
FOOTER_49 = "Berners-Lee, et al.         Standards Track                    [Page 49]"
HEADER_3986 = "RFC 3986                   URI Generic Syntax               January 2005"


class TestRfcPageLayout(Case):
    """ABNF copied from an RFC's .txt across page breaks compiles: the page
    footer, form feed and header are skipped, each break with a note."""

    PAGES = os.path.join(GRAMMAR_DIR, "rfc3986-uri-pages.abnf")
    CLEAN = os.path.join(GRAMMAR_DIR, "rfc3986-uri.abnf")

    def assertSameLanguage(self, a, b):
        self.assertEqual((a.trans, a.accepting), (b.trans, b.accepting))

    def test_rfc3986_across_two_page_breaks(self):
        for start in (None, "URI-reference"):
            self.assertSameLanguage(compiler.compile_grammar(self.PAGES, start).language,
                                    rfc_comp("rfc3986-uri.abnf", start).language)
        g = compiler.compile_grammar(self.PAGES).grammar
        self.assertEqual(g.notes, [
            f"{self.PAGES}:35: note: skipped an RFC page break (lines 35-37: page footer, "
            "form feed, page header)",
            f"{self.PAGES}:57: note: skipped an RFC page break (lines 57-58: page footer, "
            "form feed, page header)"])
        self.assertEqual(compiler.compile_grammar(self.CLEAN).grammar.notes, [])

    def test_notes_on_stderr(self):
        rel = os.path.relpath(self.PAGES, ROOT)
        r = run_cli(rel)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stderr.splitlines(), [
            f"{rel}:35: note: skipped an RFC page break (lines 35-37: page footer, form feed, "
            "page header)",
            f"{rel}:57: note: skipped an RFC page break (lines 57-58: page footer, form feed, "
            "page header)"])
        self.assertTrue(r.stdout.startswith(f"{rel}: start URI: language DFA 180 states"))

    def variant(self, old, new):
        with open(self.PAGES, encoding="ascii") as f:
            text = f.read()
        self.assertIn(old, text)
        return write_grammar(text.replace(old, new))

    def test_break_without_form_feed(self):
        # Copies that lost the form feed (from HTML, or re-flowed text) keep
        # the footer and header lines.
        path = self.variant(f"{FOOTER_49}\n\f\n", f"{FOOTER_49}\n\n")
        comp = compiler.compile_grammar(path)
        self.assertSameLanguage(comp.language, rfc_comp("rfc3986-uri.abnf").language)
        self.assertIn(f"{path}:35: note: skipped an RFC page break (lines 35-37: page footer, "
                      "page header)", comp.grammar.notes)

    def test_form_feed_alone(self):
        path = self.variant(f"{FOOTER_49}\n\f\n{HEADER_3986}\n", "\n\f\n\n")
        comp = compiler.compile_grammar(path)
        self.assertSameLanguage(comp.language, rfc_comp("rfc3986-uri.abnf").language)
        self.assertIn(f"{path}:36: note: skipped an RFC page break (line 36: form feed)",
                      comp.grammar.notes)

    def test_unrecognised_footer_points_at_its_line(self):
        # Not the RFC layout (no [Page N]): the line left of the rules is the error.
        path = self.variant(f"{FOOTER_49}\n\f\n{HEADER_3986}\n",
                            "Berners-Lee, et al.    Standards Track    Page 49\n")
        self.assertCompileError_at(path, 35, 1, "line starts left of the rules' margin "
                                   "(column 4, from the rule at line 11)")

    def test_form_feed_inside_a_line(self):
        path = write_grammar('a = "x"\f "y"\n')
        self.assertCompileError_at(path, 1, 8, "character 0x0C is not allowed in ABNF")

    def assertCompileError_at(self, path, line, col, fragment):
        self.assertAbnfError(lambda: compiler.compile_grammar(path), line, col, fragment, path)
        r = run_cli(path)
        self.assertEqual((r.returncode, r.stdout), (1, ""))
        self.assertTrue(r.stderr.startswith(f"{path}:{line}:{col}: "), r.stderr)

    def test_rfc3629_as_published(self):
        # RFC 3629's own text: its ABNF runs across the break from page 5 to 6.
        path = os.path.join(SPEC_DIR, "rfc3629-utf-8.txt")
        if not os.path.exists(path):
            note(f"{path} absent: RFC 3629 page-break check skipped")
            self.skipTest("no ../shared/spec")
        with open(path, encoding="ascii") as f:
            lines = f.read().split("\n")
        first = next(i for i, ln in enumerate(lines) if ln.startswith("   UTF8-octets ="))
        last = next(i for i, ln in enumerate(lines) if ln.startswith("   UTF8-tail   ="))
        excerpt = lines[first:last + 1]
        self.assertTrue(any(ln.endswith("[Page 5]") for ln in excerpt))
        want = compiler.compile_grammar(UTF8, start="UTF8-octets").language
        # As stored here (the form feed dropped), and as the RFC Editor's .txt has it.
        with_feed = [("\f" if not ln and excerpt[i - 1].endswith("[Page 5]") else ln)
                     for i, ln in enumerate(excerpt)]
        for text, found in ((excerpt, "page footer, page header"),
                            (with_feed, "page footer, form feed, page header")):
            g = write_grammar("\n".join(text) + "\n")
            comp = compiler.compile_grammar(g)
            self.assertSameLanguage(comp.language, want)
            self.assertEqual(comp.grammar.notes, [f"{g}:8: note: skipped an RFC page break "
                                                  f"(lines 8-10: {found})"])
        # An excerpt that begins with a page's header, or ends with its footer.
        for part, at, found in ((excerpt[9:], 1, "page header"), (excerpt[:8], 8, "page footer")):
            g = write_grammar("\n".join(part) + "\n")
            self.assertEqual(abnf.load(g).notes, [f"{g}:{at}: note: skipped an RFC page break "
                                                  f"(line {at}: {found})"])


# ------------------------------------------------------- size and limits

class TestScale(Case):
    """Counted repetition costs work and output linear in its count, and a
    compilation that grows too big stops at the rule that grew it."""

    def test_long_chain_compiles_in_linear_memory(self):
        # Each state's shortest path kept in full is quadratic: 40000 of them
        # take 800 MB as bytes objects; the chain itself needs ~100 MB.
        path = write_grammar('a = 40000"x"\n')
        out = os.path.join(TMP, "chain.h")
        r = run_cli(path, "--emit", "c", "--max-memory", "400", "-o", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stderr, "")
        self.assertLess(os.path.getsize(out), 40000 * 200)

    def test_header_linear_in_states(self):
        # Every state's comment has the same few dozen bytes whatever its depth:
        # 1000 more states of 4 classes add about the same bytes each time (a
        # few more as state numbers grow a digit); a comment growing with its
        # state's depth adds 3 bytes more per state each time.
        sizes = []
        for n in (1000, 2000, 3000):
            comp = compile_text(f"line = 1*{n}VCHAR CRLF\n")
            self.assertEqual(comp.dfa.nclasses, 4)
            sizes.append(len(emit.emit_c(comp, "t.abnf", "t")))
        self.assertLess(abs((sizes[2] - sizes[1]) - (sizes[1] - sizes[0])), 1000)
        comment = [ln for ln in emit.emit_c(comp, "t.abnf", "t").splitlines()
                   if ln.startswith("/*   ") and ", after " in ln]
        self.assertEqual(len(comment), 3001)  # and the state after CR
        self.assertLessEqual(max(map(len, comment)), 72)
        want = "/* 8012: s2003, after 21 21 21 21 21 21 21 21 ... (2000 bytes) */"
        self.assertTrue(any(" ".join(ln.split()) == want for ln in comment), want)

    def test_cut_comment_keeps_shortest_path(self):
        d = compile_text('a = 20"ab" "c"\n').dfa
        deep = max((s for s in range(d.nstates) if not d.accepting[s]),
                   key=lambda s: len(d.paths[s] or b""))
        head, length = d.paths.head(deep)
        self.assertEqual(head, d.paths[deep][:8])
        self.assertEqual(length, len(d.paths[deep]))
        self.assertEqual(emit.state_doc(d, deep),
                         f"after 41 42 41 42 41 42 41 42 ... ({length} bytes)")

    def test_state_limit_names_the_repetition(self):
        path = write_grammar('b = "q"\nbig = b 5000"x"\n')
        budget = limits.Budget(states=1000)
        e = self.assertAbnfError(lambda: compiler.compile_grammar(path, start="big",
                                                                  budget=budget),
                                 2, 9, "rule 'big' is too big to compile: its NFA passed "
                                       "1000 states (--max-states)")
        self.assertIn("the repetition here makes 5000 copies", e.message)
        r = run_cli(path, "--start", "big", "--max-states", "1000")
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stdout, "")
        self.assertEqual(r.stderr, f"{e}\n")

    def test_dfa_state_limit(self):
        # A small NFA whose DFA is big: the subsets of the last 11 bytes.
        path = write_grammar('a = *("a" / "b") "a" 11("a" / "b")\n')
        self.assertAbnfError(lambda: compiler.compile_grammar(
            path, budget=limits.Budget(states=1000)), 1, 22, "its DFA passed 1000 states")
        self.assertEqual(compiler.compile_grammar(path).language.nstates, (1 << 12) + 1)

    def test_time_and_memory_limits(self):
        path = write_grammar('a = 300000"x"\n')
        for flag, value, what in (("--max-seconds", "1", "compiling took more than 1 s"),
                                  ("--max-memory", "60", "used more than 60 MB of memory")):
            r = run_cli(path, "--max-states", "0", flag, value, "--max-memory"
                        if flag == "--max-seconds" else "--max-seconds", "0")
            self.assertEqual(r.returncode, 1, r.stderr)
            self.assertTrue(r.stderr.startswith(f"{os.path.relpath(path)}:1:5: rule 'a' is too "
                                                "big to compile: ")
                            or r.stderr.startswith(f"{path}:1:5: rule 'a' is too big"), r.stderr)
            self.assertIn(what, r.stderr)

    def test_negative_limit_refused(self):
        r = run_cli(UTF8, "--max-states", "-1")
        self.assertEqual(r.returncode, 2)
        self.assertIn("--max-states must be 0 (no limit) or more", r.stderr)


# ------------------------------------------------------------ command line

class TestCommandLine(Case):

    def assertCliError(self, r, prefix):
        self.assertNotIn("Traceback", r.stderr)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertEqual(r.stderr.count("\n"), 1, r.stderr)
        self.assertTrue(r.stderr.startswith(prefix), r.stderr)

    def test_stats(self):
        r = run_cli("grammar/utf8.abnf")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout, "grammar/utf8.abnf: start UTF8-octets: language DFA 9 states, "
                         "12 classes; unit UTF8-char: decoder DFA 9 states, 12 classes, "
                         "7 error classes, 6 error kinds; run engine: shuffle (pshufb: SSSE3 a byte "
                         "a shuffle, AVX2 four bytes (two pair classes) a shuffle from the byte-pair "
                         "table, three bytes a shuffle with AVX-512 VBMI; tbl, NEON): 9 states fit 16 "
                         "lanes; scalar 8-way elsewhere\n")

    def test_simd_note_only_when_verbose(self):
        # A grammar outside the lookup validator's model is not a problem: the
        # header says why; stderr says it only with --verbose.
        quiet = run_cli("grammar/utf16le.abnf", "--emit", "c-simd")
        self.assertEqual(quiet.returncode, 0, quiet.stderr)
        self.assertEqual(quiet.stderr, "")
        self.assertIn("#define UTF16LE_SIMD_DERIVED 0", quiet.stdout)
        for flag in ("-v", "--verbose"):
            loud = run_cli("grammar/utf16le.abnf", "--emit", "c-simd", flag)
            self.assertEqual(loud.stdout, quiet.stdout)
            self.assertEqual(loud.stderr, "abnfc: grammar/utf16le.abnf: note: no SIMD lookup "
                             "tables: byte 00-FF both starts a character and continues one, "
                             "so a pair of bytes cannot tell where characters begin\n")

    def test_start_and_unit_options(self):
        rel = os.path.relpath(os.path.join(GRAMMAR_DIR, "rfc3986-ipv4.abnf"), ROOT)
        r = run_cli(rel, "--start", "DEC-OCTET")
        self.assertEqual(r.stdout, f"{rel}: start dec-octet: language DFA 7 states, 7 classes; "
                         "run engine: shuffle (pshufb: SSSE3 a byte a shuffle, AVX2 four bytes (two "
                         "pair classes) a shuffle from the byte-pair table, four bytes (two pair "
                         "classes) a shuffle with AVX-512 VBMI; tbl, NEON): 7 states fit 16 lanes; "
                         "scalar 8-way elsewhere\n")
        r = run_cli("grammar/utf8.abnf", "--start", "UTF8-3")
        self.assertEqual(r.returncode, 1)  # the start rule is not *( UTF8-char )
        self.assertIn("must be *( UTF8-char ) for a decoder", r.stderr)
        path = write_grammar('s = *u\nu = "a" / "b" "c"\n')
        r = run_cli(path, "--unit", "U", "--emit", "json")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(json.loads(r.stdout)["unit"], "u")

    def test_output_file(self):
        out = os.path.join(TMP, "cli-out.h")
        r = run_cli("grammar/utf8.abnf", "--emit", "c", "--prefix", "zz", "-o", out)
        self.assertEqual((r.returncode, r.stdout, r.stderr), (0, "", ""))
        with open(out, encoding="utf-8") as f:
            text = f.read()
        self.assertIn("#define ZZ_NSTATES 9", text)
        self.assertIn("static inline uint32_t zz_step(", text)
        self.assertEqual(run_cli("grammar/utf8.abnf", "--emit", "c", "--prefix", "zz").stdout, text)
        self.assertEqual([f for f in os.listdir(TMP) if f.startswith(".tmp-")], [])

    # write_atomic() goes through tempfile.mkstemp (mode 0600): the file it
    # renames into place must still get 0666 & ~umask.
    def test_output_file_mode_follows_umask(self):
        out = os.path.join(TMP, "mode.h")
        r = subprocess.run([sys.executable, ABNFC, "grammar/utf8.abnf", "--emit", "c", "-o", out],
                           cwd=ROOT, capture_output=True, text=True, preexec_fn=lambda: os.umask(0o022))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(os.stat(out).st_mode & 0o777, 0o644)

    def test_error_keeps_old_output(self):
        out = os.path.join(TMP, "keep.h")
        with open(out, "w") as f:
            f.write("old\n")
        bad = write_grammar('a = b\n')
        r = run_cli(bad, "--emit", "c", "-o", out)
        self.assertCliError(r, f"{bad}:1:5: rule 'b' is not defined")
        with open(out) as f:
            self.assertEqual(f.read(), "old\n")

    def test_missing_grammar_file(self):
        r = run_cli("no/such/grammar.abnf")
        self.assertCliError(r, "abnfc: no/such/grammar.abnf: cannot read grammar: No such file")

    def test_unwritable_output(self):
        r = run_cli("grammar/utf8.abnf", "-o", os.path.join(TMP, "no-such-dir", "x.h"))
        self.assertCliError(r, "abnfc: ")
        self.assertIn("No such file or directory", r.stderr)

    # Positioned errors are FILE:LINE:COL: message (issue 2, README, utfdfa-gen(1));
    # only errors without a position (usage, I/O, a whole file) start PROG: .
    def test_error_formats(self):
        bad = write_grammar('a = "x" b\n')
        r = run_cli(bad)
        self.assertEqual(r.stderr, f"{bad}:1:9: rule 'b' is not defined\n")
        r = run_cli("no/such/grammar.abnf")
        self.assertTrue(r.stderr.startswith("abnfc: no/such/grammar.abnf: "), r.stderr)
        env = dict(os.environ, UTFDFA_GEN_PROG="utfdfa-gen")
        r = subprocess.run([sys.executable, ABNFC, bad], capture_output=True, text=True, env=env)
        self.assertEqual(r.stderr, f"{bad}:1:9: rule 'b' is not defined\n")
        r = subprocess.run([sys.executable, ABNFC, "grammar/utf8.abnf", "-o", TMP], cwd=ROOT,
                           capture_output=True, text=True, env=env)
        self.assertEqual((r.returncode, r.stderr), (1, f"utfdfa-gen: {TMP}: Is a directory\n"))

    # -o through a symbolic link writes the link's target (atomically, beside
    # the target) and leaves the link a link; it used to become a regular file.
    def test_output_through_symlink(self):
        d = os.path.join(TMP, "symlink")
        os.makedirs(os.path.join(d, "real"))
        target = os.path.join(d, "real", "utf8.h")
        with open(target, "w") as f:
            f.write("old\n")
        link = os.path.join(d, "link.h")
        os.symlink(os.path.join("real", "utf8.h"), link)
        r = run_cli("grammar/utf8.abnf", "--emit", "c", "-o", link)
        self.assertEqual((r.returncode, r.stdout, r.stderr), (0, "", ""))
        self.assertTrue(os.path.islink(link))
        self.assertEqual(os.readlink(link), os.path.join("real", "utf8.h"))
        with open(target, encoding="utf-8") as f:
            self.assertEqual(f.read(), run_cli("grammar/utf8.abnf", "--emit", "c").stdout)
        # A dangling link: its target is created.
        dangling = os.path.join(d, "dangling.h")
        os.symlink(os.path.join("real", "new.h"), dangling)
        r = run_cli("grammar/utf8.abnf", "-o", dangling)
        self.assertEqual((r.returncode, r.stderr), (0, ""))
        self.assertTrue(os.path.islink(dangling))
        with open(os.path.join(d, "real", "new.h")) as f:
            self.assertIn("9 states", f.read())
        for folder in (d, os.path.join(d, "real")):
            self.assertEqual([f for f in os.listdir(folder) if f.startswith(".tmp-")], [])

    # A device is written in place, never renamed over: as root, -o /dev/full
    # used to replace the device node with a regular file.
    def test_output_to_device(self):
        try:
            before = os.stat("/dev/full")
        except OSError:
            self.skipTest("no /dev/full")
        if not stat.S_ISCHR(before.st_mode):
            self.skipTest("/dev/full is not a character device here")
        r = run_cli("grammar/utf8.abnf", "--emit", "c", "-o", "/dev/full")
        self.assertEqual((r.returncode, r.stdout, r.stderr),
                         (1, "", "abnfc: /dev/full: No space left on device\n"))
        after = os.stat("/dev/full")
        self.assertTrue(stat.S_ISCHR(after.st_mode), "/dev/full is no longer a character device")
        self.assertEqual(after.st_rdev, before.st_rdev)
        self.assertEqual([f for f in os.listdir("/dev") if f.startswith(".tmp-")], [])

    def test_output_to_fifo(self):
        if not hasattr(os, "mkfifo"):
            self.skipTest("no fifos")
        fifo = os.path.join(TMP, "out.fifo")
        os.mkfifo(fifo)
        reader = subprocess.Popen(["cat", fifo], stdout=subprocess.PIPE)
        try:
            r = run_cli("grammar/utf8.abnf", "--emit", "json", "-o", fifo)
            self.assertEqual((r.returncode, r.stderr), (0, ""))
            out, _ = reader.communicate(timeout=30)
        finally:
            reader.kill()
            reader.wait()
        self.assertTrue(stat.S_ISFIFO(os.lstat(fifo).st_mode), "the fifo was replaced")
        self.assertEqual(json.loads(out)["start"], "UTF8-octets")

    def test_output_dash_is_standard_output(self):
        r = run_cli("grammar/utf8.abnf", "--emit", "c", "-o", "-")
        self.assertEqual((r.returncode, r.stderr), (0, ""))
        self.assertEqual(r.stdout, run_cli("grammar/utf8.abnf", "--emit", "c").stdout)
        self.assertFalse(os.path.exists(os.path.join(ROOT, "-")))

    # /dev/stdout is a link to /proc/self/fd/1, itself a link to 'pipe:[N]' when
    # standard output is a pipe (as here): it is written as the pipe it is.
    def test_output_to_dev_stdout_pipe(self):
        if not os.path.exists("/dev/stdout"):
            self.skipTest("no /dev/stdout")
        r = run_cli("grammar/utf8.abnf", "--emit", "c", "-o", "/dev/stdout")
        self.assertEqual((r.returncode, r.stderr), (0, ""))
        self.assertEqual(r.stdout, run_cli("grammar/utf8.abnf", "--emit", "c").stdout)

    # Standard output that cannot be written: one line, no traceback, exit 1.
    def test_standard_output_errors(self):
        if os.path.exists("/dev/full") and stat.S_ISCHR(os.stat("/dev/full").st_mode):
            with open("/dev/full", "w") as full:
                r = subprocess.run([sys.executable, ABNFC, "grammar/utf8.abnf", "--emit", "c"],
                                   cwd=ROOT, stdout=full, stderr=subprocess.PIPE, text=True)
            self.assertEqual((r.returncode, r.stderr),
                             (1, "abnfc: standard output: No space left on device\n"))
        r = subprocess.run(f"exec {shlex.quote(sys.executable)} {shlex.quote(ABNFC)} "
                           "grammar/utf8.abnf >&-", shell=True, cwd=ROOT, capture_output=True, text=True)
        self.assertEqual((r.returncode, r.stderr), (1, "abnfc: standard output: Bad file descriptor\n"))

    # A reader that went away ends the generator quietly, as it does cat.
    def test_closed_pipe_is_quiet(self):
        rd, wr = os.pipe()
        os.close(rd)  # no reader at all: the first write fails
        try:
            r = subprocess.run([sys.executable, ABNFC, "grammar/utf8.abnf", "--emit", "json"],
                               cwd=ROOT, stdout=wr, stderr=subprocess.PIPE, text=True, timeout=60)
        finally:
            os.close(wr)
        self.assertEqual(r.stderr, "")
        self.assertEqual(r.returncode, -signal.SIGPIPE)
        r = subprocess.run(f"{shlex.quote(sys.executable)} {shlex.quote(ABNFC)} grammar/utf8.abnf "
                           "--emit c | head -n 1", shell=True, cwd=ROOT, capture_output=True, text=True)
        self.assertEqual((r.returncode, r.stderr), (0, ""))
        self.assertTrue(r.stdout.startswith("/* SPDX-License-Identifier: MIT */"), r.stdout)

    def test_undefined_start_option(self):
        r = run_cli("grammar/utf8.abnf", "--start", "nope")
        self.assertCliError(r, "abnfc: grammar/utf8.abnf: --start: rule 'nope' is not defined")

    def test_man_page_documents_every_option(self):
        r = run_cli("--help")
        options = sorted(set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", r.stdout)))
        self.assertIn("--max-states", options)
        with open(os.path.join(ROOT, "man", "utfdfa-gen.1"), encoding="ascii") as f:
            page = f.read().replace("\\-", "-")
        self.assertEqual([o for o in options if o not in page], [])
        # The limits' defaults as the generator has them, and the extensions it reads.
        for text in (f"N\nstates (default: {limits.DEFAULT_STATES})",
                     f"megabytes (default: {limits.DEFAULT_MEMORY_MB})",
                     f"seconds (default: {limits.DEFAULT_SECONDS})",
                     "RFC\\ 9110 section\\ 5.6.1", "note: skipped an RFC page break"):
            self.assertIn(text, page)

    def test_unit_that_is_the_start_rule_says_what_to_write(self):
        path = write_grammar('token = 1*ALPHA\n')
        r = run_cli(path, "--unit", "token", "--emit", "re2c-lexer")
        self.assertCliError(r, f"{path}:1:1: rule 'token' is both the start rule and the unit: "
                               "a decoder's start rule is a sequence of units; add "
                               "`token-seq = *( token )` and `; @start token-seq` (or --start "
                               "token-seq); for --emit re2c-lexer alone, give no unit")
        # What it says to write works.
        fixed = write_grammar('; @start token-seq\n; @unit token\n; @longest-match\n; @tags\n'
                              'token-seq = *( token )\ntoken = 1*ALPHA\n')
        r = run_cli(fixed, "--emit", "re2c-lexer")
        self.assertEqual((r.returncode, r.stderr), (0, ""))

    def test_deep_grammars_never_crash(self):
        parens = write_grammar("a = " + "(" * 2000 + '"x"' + ")" * 2000 + "\n")
        r = run_cli(parens)
        self.assertCliError(r, f"{parens}:1:105: groups and options nest more than 100 deep")
        chain = write_grammar("".join(f"r{i} = r{i + 1}\n" for i in range(3000)) + 'r3000 = "x"\n')
        r = run_cli(chain)
        self.assertCliError(r, f"abnfc: {chain}")
        self.assertIn("nests too deeply", r.stderr)

    def test_every_emitter_runs(self):
        kinds = ("c", "re2c", "re2c-lexer", "dot", "mermaid", "json", "stats")
        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            runs = list(pool.map(lambda e: run_cli("grammar/utf8.abnf", "--emit", e), kinds))
        for e, r in zip(kinds, runs):
            with self.subTest(emit=e):
                self.assertEqual((r.returncode, r.stderr), (0, ""))
                self.assertTrue(r.stdout.endswith("\n"))
                self.assertIn("generated by gen/abnfc.py from grammar/utf8.abnf"
                              if e != "stats" else "grammar/utf8.abnf: start UTF8-octets", r.stdout)


# ------------------------------------------------------------ Makefile

class TestMakefile(Case):

    # Issue 2 names build/gen/NAME.lexer.re an output, but make deleted it as
    # an intermediate file once NAME.lexer.c was made from it.
    def test_lexer_sources_are_not_intermediate(self):
        make = shutil.which("make")
        if not make:
            self.skipTest("no make")
        b = os.path.join(TMP, "mk")
        env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
        r = subprocess.run([make, "-n", "-C", ROOT, f"B={b}", f"{b}/gen/utf8.lexer.c"],
                           capture_output=True, text=True, env=env, timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("--emit re2c-lexer", r.stdout)  # the lexer source is made ...
        removed = [line for line in r.stdout.splitlines()
                   if line.startswith("rm ") and "lexer.re" in line]
        self.assertEqual(removed, [], "make deletes the lexer source as an intermediate")  # ... and kept

    def test_builds_use_every_core_unless_told(self):
        """make alone builds with -j$(nproc); -jN (and MAKEFLAGS=-jN) win; a
        sub-make adds nothing; test goals stay serial unless given -j."""
        make = shutil.which("make")
        if not make:
            self.skipTest("no make")
        env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
        ncpu = os.cpu_count() or 1
        try:
            ncpu = len(os.sched_getaffinity(0))  # what nproc counts
        except AttributeError:
            pass

        # make -n still expands recipes, and $(file ...) in them writes: a
        # build directory of its own that does not exist keeps build/ clean.
        b = os.path.join(TMP, "mk-jobs")

        def jobs(*args, **extra):
            r = subprocess.run([make, "-pn", "-C", ROOT, f"B={b}", *args], capture_output=True,
                               text=True, env={**env, **extra}, timeout=120)
            flags = [line for line in r.stdout.splitlines() if line.startswith("MAKEFLAGS = ")]
            self.assertTrue(flags, r.stderr[-500:])
            return re.findall(r"(?:^| )(-j\d*)(?= |$)", flags[-1])

        self.assertEqual(jobs(), [f"-j{ncpu}"])
        self.assertEqual(jobs("all"), [f"-j{ncpu}"])
        self.assertEqual(jobs("amalgamate"), [f"-j{ncpu}"])
        self.assertEqual(jobs("-j1"), ["-j1"])
        self.assertEqual(jobs("-j3", "all"), ["-j3"])
        self.assertEqual(jobs(MAKEFLAGS="-j1"), ["-j1"])
        self.assertEqual(jobs(MAKELEVEL="1"), [])
        self.assertEqual(jobs("check-abi"), [])
        self.assertEqual(jobs("all", "check-abi"), [])

    def test_built_lexer_sources_are_in_place(self):
        built = [g for g in ("utf8", "utf7") if os.path.exists(os.path.join(ROOT, "build", "gen", g + ".lexer.c"))]
        if not built:
            self.skipTest("nothing built (make)")
        for g in built:
            self.assertTrue(os.path.exists(os.path.join(ROOT, "build", "gen", g + ".lexer.re")),
                            f"build/gen/{g}.lexer.re is missing after make")


# ------------------------------------------------- decoder annotations

class TestDecoder(Case):
    """@unit, @tags, @error, @error-kinds, @error-start, @error-within on small grammars."""

    def kinds_of(self, comp, inputs):
        return {x: first_reject(comp.dfa, B(x)) for x in inputs}

    def test_first_matching_error_annotation_wins(self):
        body = 's = *u\nu = "ab" / "x"\n'
        first = compile_text('; @unit u\n; @error one = "a" %x00-FF\n; @error two = "a" "c" / "q"\n' + body)
        self.assertEqual(first.dfa.kind_names, ["none", "one", "two", "invalid", "truncated"])
        self.assertEqual(self.kinds_of(first, ["ac", "q", "z", "xa", "aba"]),
                         {"ac": (1, "one"), "q": (0, "two"), "z": (0, "invalid"), "xa": None,
                          "aba": None})
        swapped = compile_text('; @unit u\n; @error two = "a" "c" / "q"\n; @error one = "a" %x00-FF\n' + body)
        self.assertEqual(self.kinds_of(swapped, ["ac", "ad", "q"]),
                         {"ac": (1, "two"), "ad": (1, "one"), "q": (0, "two")})

    def test_default_kinds(self):
        comp = compile_text('; @unit u\ns = *u\nu = "ab" / "x"\n')
        self.assertEqual(comp.dfa.kind_names, ["none", "invalid", "truncated"])
        self.assertEqual(self.kinds_of(comp, ["b", "aa", "xab", "abx", "abab", "xxb"]),
                         {"b": (0, "invalid"), "aa": (1, "truncated"), "xab": None, "abx": None,
                          "abab": None, "xxb": (2, "invalid")})
        comp = compile_text('; @unit u\n; @error-kinds stray cut\n; @error-start stray\n'
                            '; @error-within cut\ns = *u\nu = "ab" / "x"\n')
        self.assertEqual(comp.dfa.kind_names, ["none", "stray", "cut"])
        self.assertEqual(self.kinds_of(comp, ["b", "aa"]), {"b": (0, "stray"), "aa": (1, "cut")})

    def test_error_kinds_keep_states_apart(self):
        # Two states with the same future but different error kinds stay two states.
        text = '; @unit u\n; @error bad-a = "a" "z"\ns = *u\nu = "a" "b" / "c" "b"\n'
        comp = compile_text(text)
        self.assertEqual(comp.language.nstates, 3)   # start/accept, after "a" or "c", reject
        self.assertEqual(comp.dfa.nstates, 4)        # after "a" and after "c" differ in kinds
        self.assertEqual(first_reject(comp.dfa, b"az"), (1, "bad-a"))
        self.assertEqual(first_reject(comp.dfa, b"cz"), (1, "truncated"))
        self.assertNotEqual(comp.dfa.trans[0][ord("a")], comp.dfa.trans[0][ord("c")])
        self.assertWellFormedDfa(comp.dfa)

    def test_tags_name_alternatives(self):
        comp = compile_text('; @unit u\n; @tags\ns = *u\nu = one / "x" "y"\none = "1"\n')
        d = comp.dfa
        self.assertEqual(d.tag_names, ["none", "one", "alternative-2"])
        self.assertEqual((d.tags[0][ord("1")], d.tags[0][ord("x")], d.tags[d.trans[0][ord("x")]][ord("y")]),
                         (1, 0, 2))
        untagged = compile_text('; @unit u\ns = *u\nu = one / "x" "y"\none = "1"\n')
        self.assertEqual(untagged.dfa.tag_names, ["none"])
        self.assertEqual(compile_text('s = *u\nu = one / "x" "y"\none = "1"\n', unit="u", tags=True)
                         .dfa.tag_names, ["none", "one", "alternative-2"])

    def test_marks_inside_a_unit(self):
        # Pairs of hex digits inside a quoted run: each second digit completes
        # a byte (the mark), though the unit goes on until the closing quote.
        g = ('; @unit u\n; @tags\n; @mark byte second\n; @value payload digits hex\n'
             '; @value split byte 0\n'
             's = *u\nu = "x" / DQUOTE *( hex second ) DQUOTE\nsecond = hex\n'
             'hex = DIGIT / %x61-66\n')
        comp = compile_text(g)
        d = comp.dfa
        self.assertEqual(d.tag_names, ["none", "alternative-1", "alternative-2", "byte"])
        s1 = d.trans[0][ord('"')]
        s2 = d.trans[s1][ord("4")]
        self.assertEqual((d.tags[0][ord('"')], d.tags[s1][ord("4")], d.tags[s2][ord("1")]),
                         (0, 0, 3))
        self.assertEqual(d.trans[d.trans[s2][ord("1")]][ord('"')], 0)  # then the quote ends it
        self.assertEqual(comp.values["digits"], list(range(0x30, 0x3A)) + list(range(0x61, 0x67)))
        self.assertWellFormedDfa(d)
        header = emit.emit_c(comp, "t.abnf", "t")
        self.assertIn("T_VALUE_SPLIT, /* byte */", header)
        self.assertIn("#define T_DIGIT_BITS 4", header)

    def test_ambiguous_marks_are_errors(self):
        # The same byte would complete two different marks.
        with self.assertRaisesRegex(abnf.AbnfError, "emits the marks a and b at once"):
            compile_text('; @unit u\n; @mark a ra\n; @mark b rb\ns = *u\n'
                         'u = "<" ( ra / rb ) ">"\nra = "1"\nrb = "1"\n')
        # A mark on the byte that also ends the unit.
        with self.assertRaisesRegex(abnf.AbnfError, "ends the unit and emits the mark a"):
            compile_text('; @unit u\n; @mark a ra\ns = *u\nu = "<" ra\nra = "1"\n')
        with self.assertRaisesRegex(abnf.AbnfError, "not a power of two"):
            compile_text('; @unit u\n; @value payload digits d\ns = *u\nu = d\nd = %x30-32\n')

    def test_value_annotation_recorded(self):
        comp = compile_text('; @unit u\n; @value payload leading-ones ; bits below the top zero\n'
                            's = *u\nu = %x00-7F / %xC2-DF %x80-BF\n')
        self.assertEqual(comp.values["payload"], ["leading-ones"])
        header = emit.emit_c(comp, "v", "v")
        self.assertIn("v_payload_mask[V_NCLASSES] = {", header)
        masks = re.search(r"v_payload_mask\[V_NCLASSES\] = \{\n    (.*),\n\};", header).group(1)
        want = {0x00: 0x7F, 0x80: 0x3F, 0xC2: 0x1F}
        got = [int(x, 16) for x in masks.split(", ")]
        for b, m in want.items():
            self.assertEqual(got[comp.dfa.classes[b]], m, f"{b:02X}")

    def test_value_payload_octet(self):
        # ISO-8859-1's scheme: a one-byte unit's value is the whole byte.
        comp = compile_text('; @unit u\n; @value payload octet\ns = *u\nu = %x00-FF\n')
        self.assertEqual(comp.values["payload"], ["octet"])
        header = emit.emit_c(comp, "v", "v")
        masks = re.search(r"v_payload_mask\[V_NCLASSES\] = \{\n    (.*),\n\};", header).group(1)
        self.assertEqual([int(x, 16) for x in masks.split(", ")], [0xFF] * comp.dfa.nclasses)

    # Regression: with @error-kinds but no @error-start, the default kind
    # "invalid" was looked up with ann=None, and `ann.args_pos` raised
    # AttributeError: the CLI printed a Python traceback.
    def test_error_kinds_without_default_kinds_listed(self):
        text = '; @unit u\n; @error-kinds bad\n; @error bad = "b"\ns = *u\nu = "a"\n'
        path = write_grammar(text)
        r = run_cli(path)
        self.assertNotIn("Traceback", r.stderr)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertTrue(r.stderr.startswith(f"{path}:2:16: "), r.stderr)
        self.assertIn("'invalid'", r.stderr)
        self.assertEqual(r.stderr.count("\n"), 1, r.stderr)
        self.assertAbnfError(lambda: compiler.compile_grammar(path), 2, 16, "'invalid'")


# ------------------------------------------------------ license and provenance

class TestNotice(Case):
    """Generated tables carry their grammar's license (its SPDX line) and its
    own description of where it comes from; a grammar that declares no license
    gives output that declares none (utfdfa-gen imposes none of its own)."""

    GRAMMAR = ("; SPDX-License-Identifier: Apache-2.0 OR MIT\n"
               "; Digits, after RFC 5234 Appendix B's DIGIT.\n"
               "; A second line of the description; a */ inside it.\n"
               ";\n"
               "; not part of the description\n"
               "; @start digits\n"
               "digits = 1*%x30-39\n")

    def test_c_header(self):
        comp = compile_text(self.GRAMMAR)
        h = emit.emit_c(comp, "d.abnf", "d")
        self.assertTrue(h.startswith("/* SPDX-License-Identifier: Apache-2.0 OR MIT */\n"), h[:200])
        self.assertIn(" *   Digits, after RFC 5234 Appendix B's DIGIT.\n", h)
        self.assertIn("a * / inside it.", h)
        self.assertNotIn("not part of the description", h)
        self.assertNotIn("@start", h.split("#ifndef")[0])
        self.need_cc()
        self.build_run(tempfile.mkdtemp(dir=TMP), {
            "d.gen.h": h, "main.c": '#include "d.gen.h"\nint main(void) { return D_NSTATES > 0 ? 0 : 1; }\n'})

    def test_re2c_and_json(self):
        comp = compile_text(self.GRAMMAR)
        self.assertTrue(emit.emit_re2c_defs(comp, "d.abnf").startswith(
            "/* SPDX-License-Identifier: Apache-2.0 OR MIT */\n"))
        self.assertEqual(json.loads(emit.emit_json(comp, "d.abnf"))["license"], "Apache-2.0 OR MIT")

    def test_no_license_declared(self):
        comp = compile_text("; Digits.\ndigits = 1*%x30-39\n")
        h = emit.emit_c(comp, "d.abnf", "d")
        self.assertNotIn("SPDX", h)
        self.assertIn(" *   Digits.\n", h)
        self.assertNotIn("license", json.loads(emit.emit_json(comp, "d.abnf")))

    def test_shipped_grammars_declare_the_project_license(self):
        """Every grammar under grammar/ says its license, so every installed table does."""
        lic = open(os.path.join(ROOT, "LICENSE")).readline()
        self.assertIn("MIT", lic)
        for name in sorted(os.listdir(os.path.join(ROOT, "grammar"))):
            if not name.endswith(".abnf"):
                continue  # encodings.registry
            comp = compiler.compile_grammar(os.path.join(ROOT, "grammar", name))
            spdx, about = emit.grammar_notice(comp)
            self.assertEqual(spdx, "MIT", name)
            self.assertTrue(about, name)


# --------------------------------------------------------- tests/gen/doc_mermaid.py

class TestMermaidCheck(Case):
    """The docs' Mermaid check script, run in-process on small files."""

    @classmethod
    def setUpClass(cls):
        import importlib.util
        spec = importlib.util.spec_from_file_location("doc_mermaid", os.path.join(HERE, "doc_mermaid.py"))
        cls.mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(cls.mod)

    def run_check(self, readme, mmd):
        import contextlib
        import io
        a, b = os.path.join(TMP, "R.md"), os.path.join(TMP, "R.mmd")
        with open(a, "w", encoding="utf-8") as f:
            f.write(readme)
        with open(b, "w", encoding="utf-8") as f:
            f.write(mmd)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = self.mod.main(["doc_mermaid.py", a, b])
        return rc, out.getvalue(), err.getvalue()

    def test_match(self):
        mmd = emit.emit_mermaid(compiler.compile_grammar(UTF8), "grammar/utf8.abnf")
        rc, out, _ = self.run_check("# T\n\n```sh\nx\n```\n\n```mermaid\n" + mmd + "```\n\n```mermaid\nz\n```\n", mmd)
        self.assertEqual((rc, out), (0, "check-mermaid: 1 passed, 0 failed\n"))

    def test_section(self):
        # A hand-drawn picture above the DFA's section is not the DFA's block.
        mmd = emit.emit_mermaid(compiler.compile_grammar(UTF8), "grammar/utf8.abnf")
        readme = ("```mermaid\nflowchart LR\n  a --> b\n```\n\n## The UTF-8 DFA\n\n```mermaid\n"
                  + mmd + "```\n")
        self.assertEqual(self.run_check(readme, mmd)[:2], (0, "check-mermaid: 1 passed, 0 failed\n"))
        stale = readme.replace("```mermaid\n" + mmd, "```mermaid\nflowchart LR\n  s0 --> s1\n")
        self.assertEqual(self.run_check(stale, mmd)[0], 1)

    def test_mismatch(self):
        rc, out, _ = self.run_check("```mermaid\nflowchart LR\n  s0 --> s1\n```\n", "flowchart LR\n  s0 --> s2\n")
        self.assertEqual(rc, 1)
        self.assertIn("-  s0 --> s1\n+  s0 --> s2\n", out)
        self.assertIn("the UTF-8 DFA's Mermaid block is stale: regenerate with `make dfa` and paste build/utf8.mmd", out)
        self.assertTrue(out.endswith("check-mermaid: 0 passed, 1 failed\n"))

    def test_no_block(self):
        rc, out, err = self.run_check("# no diagram\n```\nflowchart LR\n```\n", "flowchart LR\n")
        self.assertEqual(rc, 1)
        self.assertIn("no closed ```mermaid block", err)


# ------------------------------------------------------------ RFC 3629 UTF-8

def _utf8_ok(data):
    try:
        data.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


class TestUtf8(Case):
    comp = None

    @classmethod
    def setUpClass(cls):
        cls.comp = compiler.compile_grammar(UTF8)

    def test_language_dfa_has_9_states_12_classes(self):
        L = self.comp.language
        self.assertEqual(self.comp.start, "UTF8-octets")
        self.assertEqual((L.nstates, L.nclasses), (9, 12))
        self.assertWellFormedDfa(L)

    def test_decoder_dfa_has_9_states_12_classes(self):
        D = self.comp.dfa
        self.assertEqual(self.comp.unit, "UTF8-char")
        self.assertEqual((D.nstates, D.nclasses), (9, 12))
        self.assertWellFormedDfa(D)
        self.assertTrue(automaton.same_language(D, self.comp.language))

    def test_direct_language_dfa(self):
        g = abnf.load(UTF8)
        d = automaton.language_dfa(g, "utf8-octets")
        self.assertEqual((d.nstates, d.nclasses), (9, 12))
        # UTF8-char alone: start, 7 partial states, one accepting end, reject.
        c = automaton.language_dfa(g, "UTF8-char")
        self.assertEqual(c.nstates, 10)
        self.assertLanguage(c, [b"A", b"\xe2\x82\xac"], [b"", b"AA"])

    def test_state_0_is_start_and_only_accept(self):
        for d in (self.comp.language, self.comp.dfa):
            self.assertEqual(d.start, 0)
            self.assertEqual(d.accepting, [True] + [False] * 8)
            self.assertEqual(d.paths[0], b"")

    def test_byte_classes(self):
        d = self.comp.dfa
        got = sorted(emit.range_text(compiler.ranges(d.class_bytes(c))) for c in range(d.nclasses))
        self.assertEqual(got, sorted(["00-7F", "80-8F", "90-9F", "A0-BF", "C0-C1 F5-FF", "C2-DF",
                                      "E0", "E1-EC EE-EF", "ED", "F0", "F1-F3", "F4"]))
        # Canonical numbering: classes in order of their first byte.
        self.assertEqual([d.class_bytes(c)[0] for c in range(12)],
                         [0x00, 0x80, 0x90, 0xA0, 0xC0, 0xC2, 0xE0, 0xE1, 0xED, 0xF0, 0xF1, 0xF4])

    def test_shortest_paths_of_states(self):
        d = self.comp.dfa
        self.assertEqual(d.paths, [b"", b"\x80", b"\xc2", b"\xe0", b"\xe1", b"\xed", b"\xf0",
                                   b"\xf1", b"\xf4"])
        self.assertEqual(d.reject, 1)

    def test_agrees_with_python_codec_on_short_strings(self):
        d = self.comp.language
        trans, acc = d.trans, d.accepting
        for a in range(256):
            s1 = trans[0][a]
            self.assertEqual(acc[s1], _utf8_ok(bytes([a])), f"{a:02X}")
            row = trans[s1]
            for b in range(256):
                if acc[row[b]] != _utf8_ok(bytes([a, b])):
                    self.fail(f"{a:02X} {b:02X}")
        tails = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xE0, 0xF4, 0xFF]
        for a in range(0xC0, 0x100):
            for b in range(256):
                for c in tails:
                    data = bytes([a, b, c])
                    self.assertEqual(d.accepts(data), _utf8_ok(data), data.hex())
        for a in range(0xF0, 0xF8):
            for b in (0x7F, 0x80, 0x8F, 0x90, 0xBF, 0xC0):
                for c in (0x7F, 0x80, 0xBF, 0xC0):
                    for e in (0x7F, 0x80, 0xBF, 0xC0):
                        data = bytes([a, b, c, e])
                        self.assertEqual(d.accepts(data), _utf8_ok(data), data.hex())

    def test_rfc3629_examples(self):
        # RFC 3629 section 7.
        for hexs in ["41 E2 89 A2 CE 91 2E", "ED 95 9C EA B5 AD EC 96 B4",
                     "E6 97 A5 E6 9C AC E8 AA 9E", "EF BB BF F0 A3 8E B4"]:
            self.assertTrue(self.comp.language.accepts(bytes.fromhex(hexs)), hexs)
        for hexs in ["C0 80", "ED A0 80", "F4 90 80 80", "FE", "E2 82"]:
            self.assertFalse(self.comp.language.accepts(bytes.fromhex(hexs)), hexs)

    KINDS = [("80", 0, "unexpected-continuation"), ("C0", 0, "overlong"), ("E0 80", 1, "overlong"),
             ("ED A0", 1, "surrogate"), ("F4 90", 1, "too-large"), ("F5", 0, "too-large"),
             ("F8", 0, "invalid-lead"), ("E2 41", 1, "truncated"), ("F0 90 41", 2, "truncated"),
             ("C1 BF", 0, "overlong"), ("F0 8F", 1, "overlong"), ("FF", 0, "invalid-lead"),
             ("F7", 0, "too-large"), ("ED BF", 1, "surrogate"), ("41 E2 82 AC 80", 4, "unexpected-continuation"),
             ("C2 C2", 1, "truncated"), ("E1 80 7F", 2, "truncated"), ("F1 80 80 F4", 3, "truncated")]

    def test_error_kinds(self):
        d = self.comp.dfa
        self.assertEqual(d.kind_names, ["none", "unexpected-continuation", "invalid-lead", "overlong",
                                        "surrogate", "too-large", "truncated"])
        for hexs, index, kind in self.KINDS:
            with self.subTest(input=hexs):
                self.assertEqual(first_reject(d, bytes.fromhex(hexs)), (index, kind))
        # Only transitions into reject carry a kind, and every one of them does.
        for s in range(d.nstates):
            for b in range(256):
                into_reject = d.trans[s][b] == d.reject and s != d.reject
                self.assertEqual(d.kinds[s][b] != 0, into_reject, (s, b))

    def test_error_positions_are_maximal_subparts(self):
        # Unicode's "maximal subpart" practice, which Python's codec follows: an
        # error at a unit's first byte covers that byte; otherwise it covers the
        # unit's bytes before the rejected one (or up to the end, if cut short).
        d = self.comp.dfa

        def span(data):
            s, unit = 0, 0
            for i, b in enumerate(data):
                if s == 0:
                    unit = i
                t = d.trans[s][b]
                if t == d.reject:
                    return (i, i + 1) if s == 0 else (unit, i)
                s = t
            return None if s == 0 else (unit, len(data))

        def python_span(data):
            try:
                data.decode("utf-8")
                return None
            except UnicodeDecodeError as e:
                return e.start, e.end

        some = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0,
                0xE1, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF]
        for a in range(256):
            for b in range(256):
                data = bytes([a, b])
                self.assertEqual(span(data), python_span(data), data.hex())
            for b in some:
                for c in some:
                    data = bytes([a, b, c])
                    self.assertEqual(span(data), python_span(data), data.hex())

    def test_tags(self):
        comp = compiler.compile_grammar(UTF8, tags=True)
        d = comp.dfa
        self.assertEqual(d.tag_names, ["none", "UTF8-1", "UTF8-2", "UTF8-3", "UTF8-4"])
        # Tags are transition outputs: the states one byte before the end of a
        # UTF8-2, UTF8-3 or UTF8-4 now differ, and so do the two "2 more" states
        # of UTF8-3 and UTF8-4. The byte classes stay the same.
        self.assertEqual((d.nstates, d.nclasses), (12, 12))
        self.assertWellFormedDfa(d)
        self.assertTrue(automaton.same_language(d, comp.language))

        def tags_of(data):
            s, out = 0, []
            for b in data:
                out.append(d.tags[s][b])
                s = d.trans[s][b]
            return out

        self.assertEqual(tags_of(bytes.fromhex("41 C2 A2 E2 82 AC F0 90 8D 88")),
                         [1, 0, 2, 0, 0, 3, 0, 0, 0, 4])

    def test_compile_twice_identical(self):
        a = compiler.compile_grammar(UTF8)
        b = compiler.compile_grammar(UTF8)
        for attr in ("trans", "classes", "kinds", "class_kinds", "error_classes", "accepting", "paths"):
            self.assertEqual(getattr(a.dfa, attr), getattr(b.dfa, attr), attr)
        self.assertEqual(emit.emit_c(a, "x", "u"), emit.emit_c(b, "x", "u"))
        self.assertEqual(emit.emit_json(a, "x"), emit.emit_json(b, "x"))

    def _variant_c(self, text):
        comp = compiler.compile_grammar(write_grammar(text))
        return emit.emit_c(comp, "same-banner", "u")

    @staticmethod
    def _strip_banner(c_text):
        # The banner comment names the source and the rules; everything after it must agree.
        # (It ends with a line of its own; an SPDX line before it is a comment of one line.)
        _, sep, rest = c_text.partition("\n */\n")
        assert sep
        return rest

    def test_numbering_ignores_rule_names_and_order(self):
        with open(UTF8) as f:
            src = f.read()
        base = self._variant_c(src)
        renamed = src
        for old, new in [("UTF8-octets", "Text"), ("UTF8-char", "Chr"), ("UTF8-tail", "Cont"),
                         ("UTF8-1", "One"), ("UTF8-2", "Two"), ("UTF8-3", "Three"), ("UTF8-4", "Four")]:
            renamed = renamed.replace(old, new)
        self.assertNotEqual(renamed, src)
        ren = self._variant_c(renamed)
        self.assertIn("rule Chr (one unit of Text)", ren)
        self.assertEqual(self._strip_banner(ren), self._strip_banner(base))

        head, _, body = src.partition("\n   UTF8-octets")
        rules, cur = [], None
        for line in ("   UTF8-octets" + body).splitlines():
            if line.startswith("   ") and not line.startswith("    "):
                cur = [line]
                rules.append(cur)
            elif line.strip():
                cur.append(line)
        self.assertEqual(len(rules), 7)
        reordered = head + "\n" + "\n".join("\n".join(r) for r in reversed(rules)) + "\n"
        self.assertEqual(self._variant_c(reordered), base)

        # Alternatives reordered and ranges split: the same language, the same tables.
        shuffled = src.replace("UTF8-1 / UTF8-2 / UTF8-3 / UTF8-4", "UTF8-4 / UTF8-2 / UTF8-1 / UTF8-3")
        shuffled = shuffled.replace("%x00-7F", "%x40-7F / %x00-3F")
        self.assertNotEqual(shuffled, src)
        self.assertEqual(self._variant_c(shuffled), base)

    def test_c_header_decodes_and_classifies(self):
        self.need_cc()
        d = os.path.join(TMP, "utf8c")
        os.makedirs(d, exist_ok=True)
        r = run_cli("grammar/utf8.abnf", "--emit", "c", "-o", os.path.join(d, "utf8.gen.h"))
        self.assertEqual(r.returncode, 0, r.stderr)
        samples = ["41 E2 89 A2 CE 91 2E", "ED 95 9C EA B5 AD EC 96 B4", "E6 97 A5 E6 9C AC E8 AA 9E",
                   "EF BB BF F0 A3 8E B4", "24 C2 A2 E2 82 AC F0 90 8D 88 F4 8F BF BF 00 7F"]
        cases = [bytes.fromhex(h) for h, _, _ in self.KINDS] + [bytes.fromhex(h) for h in samples]
        prog = ['#include <stdio.h>', '#include <stddef.h>', '#include "utf8.gen.h"',
                "static const struct { const char *s; size_t n; } cases[] = {"]
        prog += [f"    {{ {c_string(c)}, {len(c)} }}," for c in cases]
        prog += ["};", r"""
int main(void)
{
    size_t i, j;
    unsigned a, b;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint32_t st = UTF8_START, prev = UTF8_START;
        uint32_t value = 0;
        const unsigned char *s = (const unsigned char *)cases[i].s;
        for (j = 0; j < cases[i].n; j++) {
            prev = st;
            st = utf8_step(st, s[j]);
            if (st == UTF8_REJECT) {
                printf("reject %u %s", (unsigned)j, utf8_error_name[utf8_error_of(prev, s[j])]);
                break;
            }
            value = value << 6 | (s[j] & utf8_payload_mask[utf8_class[s[j]]]);
            if (st == UTF8_ACCEPT) {
                printf("U+%04X ", (unsigned)value);
                value = 0;
            }
        }
        printf("%s\n", utf8_is_accepting(st) ? "ok" : "");
    }
    /* The shift DFA is the same automaton: compare on every 1- and 2-byte string. */
    for (a = 0; a < 256; a++) {
        uint32_t t1 = utf8_step(UTF8_START, (uint8_t)a);
        uint64_t s1 = utf8_shift_step(UTF8_SHIFT_START, (uint8_t)a);
        if ((s1 & 63) / 6 != t1 / UTF8_NCLASSES) { printf("shift %02X\n", a); return 1; }
        putchar(utf8_is_accepting(t1) ? '1' : '0');
        for (b = 0; b < 256; b++) {
            uint32_t t2 = utf8_step(t1, (uint8_t)b);
            uint64_t s2 = utf8_shift_step(s1, (uint8_t)b);
            if ((s2 & 63) / 6 != t2 / UTF8_NCLASSES) { printf("shift %02X %02X\n", a, b); return 1; }
            putchar(utf8_is_accepting(t2) ? '1' : '0');
        }
    }
    putchar('\n');
    return 0;
}
"""]
        out = self.build_run(d, {"main.c": "\n".join(prog)})
        lines = out.splitlines()
        for (hexs, index, kind), line in zip(self.KINDS, lines):
            data = bytes.fromhex(hexs)
            valid_before = "".join(f"U+{ord(ch):04X} " for ch in data[:index].decode("utf-8", "ignore"))
            self.assertEqual(line, f"{valid_before}reject {index} {kind}", hexs)
        for hexs, line in zip(samples, lines[len(self.KINDS):]):
            want = "".join(f"U+{ord(ch):04X} " for ch in bytes.fromhex(hexs).decode("utf-8")) + "ok"
            self.assertEqual(line, want, hexs)
        bits = lines[len(self.KINDS) + len(samples)]
        want = []
        for a in range(256):
            want.append("1" if _utf8_ok(bytes([a])) else "0")
            want.extend("1" if _utf8_ok(bytes([a, b])) else "0" for b in range(256))
        self.assertEqual(bits, "".join(want))


# ------------------------------------------- other regular grammars from RFCs

def _dec_octet_ok(s):
    return s.isdigit() and 1 <= len(s) <= 3 and (s == "0" or s[0] != "0") and int(s) <= 255


TCHAR = set(b"!#$%&'*+-.^_`|~0123456789") | set(range(0x41, 0x5B)) | set(range(0x61, 0x7B))

# (grammar file, start rule or None for the file's, C prefix, accepted, rejected)
RFC_CASES = [
    ("rfc3986-ipv4.abnf", None, "ipv4",
     ["0.0.0.0", "255.255.255.255", "192.168.1.1", "10.0.0.255", "1.22.133.249", "250.251.252.253",
      "99.100.199.200"],
     ["256.1.1.1", "01.1.1.1", "1.1.1", "1.1.1.1.", "", "1.1.1.01", "1.1.1.256", "1..1.1", "300.1.1.1",
      "1.1.1.1.1", " 1.1.1.1", "1.1.1.a", "260.1.1.1", "1.1.1.00", "1.1.1.1\n", "-1.1.1.1"]),
    ("rfc7230-token.abnf", None, "token",
     ["GET", "x-foo!#$", "a", "!#$%&'*+-.^_`|~09azAZ", "Content-Type"],
     ["", "a b", "a(b", 'a"b', "a,b", "a/b", "a:b", "a;b", "a=b", "a{b", "a@b", b"\xc3\xa9", "a\tb",
      "a\x7f", "a\x00"]),
    ("rfc3339-datetime.abnf", None, "fulldate",
     ["1985-04-12", "1996-12-19", "0000-00-00", "9999-99-99"],
     ["1985-4-12", "85-04-12", "1985/04/12", "1985-04-120", "", "1985-04-1a", "1985-04-12T",
      "19850412"]),
    ("rfc3339-datetime.abnf", "date-time", "datetime",
     ["1985-04-12T23:20:50.52Z", "1996-12-19T16:39:57-08:00", "1990-12-31t23:59:60z",
      "1990-12-31T15:59:60-08:00", "1937-01-01T12:00:27.87+00:20"],
     ["1985-04-12 23:20:50Z", "1985-04-12T23:20:50", "1985-04-12T23:20:50.Z", "1985-04-12T23:20Z",
      "1985-04-12T23:20:50+0800", "1985-04-12T23:20:50.52ZZ"]),
    # RFC 3986 section 1.1.2's examples, and two from section 3.
    ("rfc3986-uri.abnf", None, "uri",
     ["ftp://ftp.is.co.za/rfc/rfc1808.txt", "http://www.ietf.org/rfc/rfc2396.txt",
      "ldap://[2001:db8::7]/c=GB?objectClass?one", "mailto:John.Doe@example.com",
      "news:comp.infosystems.www.servers.unix", "tel:+1-816-555-1212", "telnet://192.0.2.16:80/",
      "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
      "foo://example.com:8042/over/there?name=ferret#nose", "a:", "http://[v7.x]/",
      "http://[::]/", "http://[1:2:3:4:5:6:7:8]", "http://[::ffff:192.0.2.1]/", "s://%41@h"],
     ["", "//example.com", "1http://x", "http://exa mple.com", "http://[::1", "http://[1:2:3:4:5:6:7:8:9]/",
      "http://x/%zz", "http://x#a#b", "http://[v7]/", ":x", b"http://x/\xc3\xa9", "http://[::1]x",
      "http://x:8o/"]),
    ("rfc3986-uri.abnf", "URI-reference", "uriref",
     ["//example.com", "../a/b", "#frag", "?q", "a/b:c", "a:b", "/", "g;x=1/../y"],
     [":a", "http://[::1", "a b", "a#b#c", "[::1]"]),
    # Two files as one grammar: RFC 6265's token is prose, RFC 7230 defines it.
    ("rfc6265-cookie.abnf+rfc7230-token.abnf", "cookie-pair", "cookie",
     ["SID=31d4d96e407aad42", "lang=en-US", "a=", 'a=""', 'a="x"', "!#$%&'*+-.^_`|~=x"],
     ["=x", "a b=c", "a=b c", 'a="x', 'a=x"', "a=b;", "a", "a=b,", "a(=b"]),
    ("rfc5234-core.abnf", None, "hexdigits",
     ["DEADbeef", "0", "0123456789abcdefABCDEF"],
     ["", "g", "0x1F", "DEAD beef", "-1"]),
    ("rfc5234-core.abnf", "num-val", "numval",
     ["%x41", "%X41-5A", "%d13.10", "%b1010", "%x4.5.6", "%D9", "%B1-0"],
     ["%x", "%x41-", "%q1", "%x41-42.43", "%b12", "x41", "%x41.", "%d1.2-3"]),
    ("rfc5234-core.abnf", "rulename", "rulename",
     ["a", "rule-name2", "A-", "CRLF"], ["2a", "-a", "", "a_b", "a b"]),
    ("rfc5234-core.abnf", "repeat", "repeat",
     ["1", "*", "1*", "*2", "12*34"], ["", "1**", "a", "*1*"]),
    ("rfc5234-core.abnf", "char-val", "charval",
     ['"abc"', '""', '"a b"', '"~!"'], ['"a"b"', "abc", '"', '"a\tb"']),
    ("rfc5234-core.abnf", "prose-val", "prose",
     ["<x y>", "<>", "<a=b>"], ["<a>b>", "<a", "a>"]),
    ("rfc5234-core.abnf", "line", "line",
     ["abc\r\n", "\r\n", " \t~\r\n"], ["abc\n", "a\x00b\r\n", "abc", "a\r\nb\r\n"]),
    ("rfc5234-core.abnf", "blank", "blank",
     ["\r\n", "  \r\n", " \r\n \r\n", "\r\n\t\r\n"], ["", " ", "\r\n\r\n", "x\r\n"]),
]


class TestRfcGrammars(Case):
    """Regular grammars from other RFCs, compiled as published."""

    def load(self, name, start=None):
        return rfc_comp(name, start)

    def test_grammar_files_name_their_rfc(self):
        names = sorted(os.listdir(GRAMMAR_DIR))
        self.assertGreaterEqual(len([n for n in names if n.endswith(".abnf")]), 4)
        for n in names:
            with open(os.path.join(GRAMMAR_DIR, n)) as f:
                text = f.read()
            self.assertRegex(text, r"^; RFC \d+ ", n)
            self.assertRegex(text, r"section \d", n)

    def test_accept_reject(self):
        for name, start, prefix, acc, rej in RFC_CASES:
            with self.subTest(grammar=name, start=start):
                comp = self.load(name, start)
                self.assertWellFormedDfa(comp.language)
                self.assertLanguage(comp.language, acc, rej)

    def test_dec_octet_exhaustive(self):
        d = self.load("rfc3986-ipv4.abnf", "dec-octet").language
        for n in range(1, 5):
            for t in itertools.product("0123456789", repeat=n):
                s = "".join(t)
                self.assertEqual(d.accepts(s.encode()), _dec_octet_ok(s), s)

    def test_ipv4_random(self):
        d = self.load("rfc3986-ipv4.abnf").language
        rng = random.Random(3986)
        for _ in range(3000):
            parts = [rng.choice([str(rng.randrange(256)), str(rng.randrange(1000)),
                                 "0" + str(rng.randrange(100))]) for _ in range(rng.choice([3, 4, 4, 4, 5]))]
            s = ".".join(parts)
            want = len(parts) == 4 and all(_dec_octet_ok(p) for p in parts)
            self.assertEqual(d.accepts(s.encode()), want, s)

    def test_tchar_every_byte(self):
        d = self.load("rfc7230-token.abnf").language
        got = {b for b in range(256) if d.accepts(bytes([b]))}
        self.assertEqual(got, TCHAR)
        # "any VCHAR, except delimiters"
        self.assertEqual(set(range(0x21, 0x7F)) - got, set(b'"(),/:;<=>?@[\\]{}'))

    def test_full_date_random(self):
        d = self.load("rfc3339-datetime.abnf").language
        rng = random.Random(3339)
        for _ in range(2000):
            s = "".join(rng.choice("0123456789--T:") for _ in range(rng.choice([9, 10, 10, 11])))
            want = re.fullmatch(r"\d{4}-\d{2}-\d{2}", s) is not None
            self.assertEqual(d.accepts(s.encode()), want, s)

    def test_date_time_matches_regex(self):
        d = self.load("rfc3339-datetime.abnf", "date-time").language
        rx = re.compile(r"\d{4}-\d\d-\d\d[Tt]\d\d:\d\d:\d\d(\.\d+)?([Zz]|[+-]\d\d:\d\d)")
        rng = random.Random(5)
        good = "1985-04-12T23:20:50.52Z"
        for _ in range(3000):
            s = list(good)
            for _ in range(rng.randrange(3)):
                op = rng.randrange(3)
                i = rng.randrange(len(s) + 1)
                ch = rng.choice("0123456789T:tZz.+- ")
                if op == 0:
                    s.insert(i, ch)
                elif op == 1 and i < len(s):
                    del s[i]
                elif i < len(s):
                    s[i] = ch
            s = "".join(s)
            self.assertEqual(d.accepts(s.encode()), rx.fullmatch(s) is not None, s)

    def test_generated_c_agrees(self):
        """`abnfc --emit c --prefix NAME` headers, stepped by C code over the same strings.

        Each (grammar, start rule) is its own translation unit including only its
        header; one cc run builds them all into one program, which prints each
        unit's verdicts on a line (X: the shift DFA disagreed with the table).
        """
        self.need_cc()
        d = os.path.join(TMP, "c-rfc")
        os.makedirs(d, exist_ok=True)
        jobs = []
        for name, start, prefix, _, _ in RFC_CASES:
            header = os.path.join(d, prefix + ".gen.h")
            if start is None:  # the command line, once per grammar file
                jobs.append([os.path.join(GRAMMAR_DIR, name), "--emit", "c", "--prefix", prefix, "-o", header])
            else:  # the same emitter through the API (saves a Python start-up per rule)
                with open(header, "w", encoding="utf-8") as f:
                    f.write(emit.emit_c(rfc_comp(name, start), name, prefix))
        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            for r in pool.map(lambda a: run_cli(*a), jobs):
                self.assertEqual((r.returncode, r.stderr), (0, ""))
        # Two larger tables too: uint16_t and uint32_t transition entries.
        big = [("digits200", "a = 200DIGIT\n", "uint16_t", ["0" * 200, "9" * 200], ["0" * 199, "0" * 201]),
               ("bytechain", "a = " + " ".join(f"%x{b:02X}" for b in range(256)) + "\n", "uint32_t",
                [bytes(range(256))], [bytes(range(255)), bytes(range(256)) + b"\0", b"\1", b""])]
        for prefix, text, ctype, _, _ in big:
            header = emit.emit_c(compile_text(text), prefix, prefix)
            self.assertIn(f"static const {ctype} {prefix}_trans[", header)
            with open(os.path.join(d, prefix + ".gen.h"), "w", encoding="utf-8") as f:
                f.write(header)
        sources, calls, want = {}, [], []
        for prefix, acc, rej in ([(p, a, r) for _, _, p, a, r in RFC_CASES]
                                 + [(p, a, r) for p, _, _, a, r in big]):
            sources[prefix + ".c"] = c_dfa_runner(prefix, [B(x) for x in acc + rej])
            calls.append(f"run_{prefix}")
            want.append(f"{prefix}: " + "1" * len(acc) + "0" * len(rej))
        sources["main.c"] = c_main(calls)
        self.assertEqual(self.build_run(d, sources).splitlines(), want)


def c_cases(cases):
    return (["static const struct { const char *s; size_t n; } cases[] = {"]
            + [f"    {{ {c_string(c)}, {len(c)} }}," for c in cases] + ["};"])


def c_dfa_runner(prefix, cases):
    """A translation unit with run_PREFIX(): the verdict of PREFIX's DFA on each case."""
    P = prefix.upper()
    return "\n".join(['#include <stdio.h>', '#include <stddef.h>', f'#include "{prefix}.gen.h"']
                     + c_cases(cases) + [f"""
void run_{prefix}(void);
void run_{prefix}(void)
{{
    size_t i, j;
    printf("{prefix}: ");
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {{
        uint32_t st = {P}_START;
#if {P}_HAS_SHIFT_DFA
        uint64_t sh = {P}_SHIFT_START;
#endif
        for (j = 0; j < cases[i].n; j++) {{
            st = {prefix}_step(st, (uint8_t)cases[i].s[j]);
#if {P}_HAS_SHIFT_DFA
            sh = {prefix}_shift_step(sh, (uint8_t)cases[i].s[j]);
            if ((sh & 63) / 6 != st / {P}_NCLASSES) putchar('X');
#endif
        }}
        putchar({prefix}_is_accepting(st) ? '1' : '0');
    }}
    putchar('\\n');
}}
"""])


def c_main(calls):
    return "\n".join([f"void {c}(void);" for c in calls]
                     + ["int main(void)", "{"] + [f"    {c}();" for c in calls]
                     + ["    return 0;", "}", ""])


# ------------------------------------------------------------------ emitters

class TestEmitters(Case):
    comp = None

    @classmethod
    def setUpClass(cls):
        cls.comp = compiler.compile_grammar(UTF8)

    def all_comps(self):
        yield "utf8", self.comp
        for name, start, prefix, _, _ in RFC_CASES:
            yield prefix, rfc_comp(name, start)

    def test_c_header_compiles_standalone(self):
        self.need_cc()
        d = os.path.join(TMP, "standalone")
        os.makedirs(d, exist_ok=True)
        comps = list(self.all_comps()) + [("utf8tags", compiler.compile_grammar(UTF8, tags=True))]
        files = []
        for prefix, comp in comps:
            with open(os.path.join(d, prefix + ".gen.h"), "w", encoding="utf-8") as f:
                f.write(emit.emit_c(comp, "test", prefix))
            files.append(os.path.join(d, prefix + ".c"))
            with open(files[-1], "w") as f:  # the header and nothing else, twice (include guard)
                f.write(f'#include "{prefix}.gen.h"\n#include "{prefix}.gen.h"\n'
                        f"int {prefix}_main(void);\nint {prefix}_main(void) {{ return 0; }}\n")
        r = subprocess.run(CC + CFLAGS + ["-fsyntax-only", "-I", d] + files, capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        # The variants the emitter has: with and without shift DFA, tags, payload masks.
        texts = {p: open(os.path.join(d, p + ".gen.h"), encoding="utf-8").read() for p, _ in comps}
        self.assertIn("#define IPV4_HAS_SHIFT_DFA 0", texts["ipv4"])
        self.assertIn("#define UTF8_HAS_SHIFT_DFA 1", texts["utf8"])
        self.assertIn("UTF8TAGS_TAG_UTF8_4 = 4,", texts["utf8tags"])
        self.assertIn("utf8_payload_mask[UTF8_NCLASSES]", texts["utf8"])

    def test_c_header_tables(self):
        text = emit.emit_c(self.comp, "grammar/utf8.abnf", "utf8")
        d = self.comp.dfa
        self.assertIn("#define UTF8_NSTATES 9\n", text)
        self.assertIn("#define UTF8_NCLASSES 12\n", text)
        self.assertIn("#define UTF8_START 0\n", text)
        self.assertIn(f"#define UTF8_REJECT {d.reject * 12}\n", text)
        m = re.search(r"utf8_class\[256\] = \{\n(.*?)\n\};", text, re.S)
        nums = [int(x) for x in re.findall(r"\b\d+\b", re.sub(r"/\*.*?\*/", "", m.group(1)))]
        self.assertEqual(nums, d.classes)
        m = re.search(r"utf8_trans\[UTF8_NSTATES \* UTF8_NCLASSES\] = \{\n(.*?)\n\};", text, re.S)
        nums = [int(x) for x in re.findall(r"\b\d+\b", re.sub(r"/\*.*?\*/", "", m.group(1)))]
        self.assertEqual(nums, [t * 12 for row in d.class_trans for t in row])

    def test_json(self):
        for prefix, comp in self.all_comps():
            with self.subTest(prefix=prefix):
                doc = json.loads(emit.emit_json(comp, "src"))
                self.assertEqual(doc["start"], comp.start)
                self.assertEqual(doc["unit"], comp.unit)
                dumps = [("language", comp.language)] + ([("decoder", comp.dfa)] if comp.unit else [])
                self.assertEqual("decoder" in doc, comp.unit is not None)
                for key, dfa in dumps:
                    j = doc[key]
                    self.assertEqual((j["states"], j["classes"], j["start"], j["reject"]),
                                     (dfa.nstates, dfa.nclasses, 0, dfa.reject))
                    self.assertEqual(j["accepting"], [s for s in range(dfa.nstates) if dfa.accepting[s]])
                    for s in range(dfa.nstates):
                        for b in range(256):
                            self.assertEqual(j["transitions"][s][j["class_of_byte"][b]], dfa.trans[s][b])
                            self.assertEqual(j["error_kinds"][s][j["error_class_of_byte"][b]],
                                             dfa.kinds[s][b])
                    self.assertEqual([None if p is None else bytes.fromhex(p) for p in j["paths"]], dfa.paths)
        doc = json.loads(emit.emit_json(self.comp, "src"))
        self.assertEqual(doc["decoder"]["error_kind_names"][1:],
                         ["unexpected-continuation", "invalid-lead", "overlong", "surrogate",
                          "too-large", "truncated"])

    def _check_picture(self, dfa, text, node_re, edge_re, accept_re):
        """Nodes, accepting nodes, and edges (with their byte labels) of a drawing."""
        nodes = {int(n) for n in re.findall(node_re, text)}
        live = {s for s in range(dfa.nstates) if s != dfa.reject}
        self.assertTrue(live <= nodes, f"states missing: {sorted(live - nodes)}")
        self.assertTrue(nodes <= set(range(dfa.nstates)), nodes)
        acc = {int(n) for n in re.findall(accept_re, text)}
        self.assertEqual(acc, {s for s in range(dfa.nstates) if dfa.accepting[s]})
        edges = {}
        for m in re.finditer(edge_re, text):
            key = (int(m.group("s")), int(m.group("t")))
            self.assertNotIn(key, edges, "one edge per pair of states")
            edges[key] = parse_byte_label(m.group("label"))
        self.assertEqual(edges, dfa_edges(dfa))
        return nodes

    # Every printable ASCII byte, the characters dot and Mermaid quote or
    # read as markup among them, next to bytes that are not printable.
    TRICKY = ('a = "T" / "t" / 1*DIGIT / %x22 / "\\" / "\'" / "#<>&" / %x00-1F / %x20 / %x7F '
              '/ %x80-FF 2( %x21-7E )\n')

    def picture_comps(self):
        yield from self.all_comps()
        yield "tricky", compile_text(self.TRICKY)

    def test_picture_labels_for_people(self):
        comp = compile_text('a = ( "T" / "t" ) 1*DIGIT %x0A %x5D-7F\n')
        for text in (emit.emit_dot(comp, "p"), emit.emit_mermaid(comp, "p")):
            self.assertIn("'T' 't'", text)
            self.assertIn("'0'-'9'", text)
            self.assertRegex(text, r"[\"|]0A[\"|]")
            self.assertIn("']'-'~' 7F", text)

    def test_dot(self):
        for prefix, comp in self.picture_comps():
            with self.subTest(prefix=prefix):
                text = emit.emit_dot(comp, "src")
                self.assertIn("digraph", text)
                self.assertEqual(text.count("{"), text.count("}"))
                unescaped = re.sub(r'\\(["\\])', r"\1", text)  # dot's escapes in quoted strings
                nodes = self._check_picture(
                    comp.dfa, unescaped, r"(?m)^\s*s(\d+) \[",
                    r"(?m)^\s*s(?P<s>\d+) -> s(?P<t>\d+) \[label=\"(?P<label>.*)\"\];$",
                    r"(?m)^\s*s(\d+) \[[^\]]*doublecircle")
                self.assertNotIn(comp.dfa.reject, nodes, "no lone REJECT node")

    def test_mermaid(self):
        for prefix, comp in self.picture_comps():
            with self.subTest(prefix=prefix):
                text = emit.emit_mermaid(comp, "src")
                self.assertTrue(text.startswith("flowchart LR\n"))
                for code, ch in (("#quot;", '"'), ("#lt;", "<"), ("#gt;", ">"), ("#amp;", "&"),
                                 ("#35;", "#")):  # Mermaid's entity codes
                    text = text.replace(code, ch)
                nodes = self._check_picture(
                    comp.dfa, text, r'(?m)^\s*s(\d+)(?:\(\(|\[)"',
                    r'(?m)^\s*s(?P<s>\d+) -->\|"(?P<label>.*)"\| s(?P<t>\d+)\s*$',
                    r'(?m)^\s*s(\d+)\(\("')
                self.assertNotIn(comp.dfa.reject, nodes, "the reject state is left out")

    def test_re2c_defs(self):
        for prefix, comp in self.all_comps():
            with self.subTest(prefix=prefix):
                text = emit.emit_re2c_defs(comp, "src")
                defs = re.findall(r"(?m)^([A-Za-z][A-Za-z0-9_]*) = (.*); // (.*)$", text)
                names = [n for n, _, _ in defs]
                self.assertEqual(len(names), len(set(names)), "one definition per rule")
                g = comp.grammar
                reasons = dict(re.findall(r"(?m)^// ([A-Za-z][A-Za-z0-9_]*) is not a re2c "
                                          r"definition: (it .*\.)$", text))
                for key in g.order:
                    want = g.rules[key].name.replace("-", "_")
                    self.assertEqual(names.count(want) + (want in reasons), 1, want)
                    if want in reasons and "refers to itself" not in reasons[want]:
                        # Only a rule that cannot be compiled may be left out.
                        with self.assertRaises(abnf.AbnfError, msg=want):
                            automaton.language_dfa(g, key)
                for n in names:
                    self.assertNotIn("-", n)
                # Definitions come before their uses (re2c needs that), core rules included.
                seen = set()
                for n, body, _ in defs:
                    bare = re.sub(r"'[^']*'|\"[^\"]*\"|\[[^\]]*\]", " ", body)
                    for ident in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", bare):
                        self.assertIn(ident, seen, f"{n} uses {ident} before its definition")
                    seen.add(n)
        text = emit.emit_re2c_defs(self.comp, "grammar/utf8.abnf")
        self.assertIn("UTF8_tail = [\\x80-\\xBF];", text)
        self.assertIn("UTF8_octets = UTF8_char*;", text)

    def test_re2c_defs_match_the_dfa(self):
        """The re2c definitions of each rule match the same strings as its DFA."""
        self.need_cc(also_re2c=True)
        d = os.path.join(TMP, "re2c")
        os.makedirs(d, exist_ok=True)
        by_file = {}
        for case in RFC_CASES:
            by_file.setdefault(case[0], []).append(case)
        sources, calls, want = {}, [], []
        for k, (name, cases) in enumerate(sorted(by_file.items())):
            comp = rfc_comp(name, cases[0][1])
            with open(os.path.join(d, f"g{k}.defs.re"), "w", encoding="utf-8") as f:
                f.write(emit.emit_re2c_defs(comp, name))
            src = ["#include <stdio.h>", "#include <stddef.h>"]
            for j, (_, start, prefix, acc, rej) in enumerate(cases):
                rule = emit.re2c_name(start or comp.start)
                src += [f"static int match_{prefix}(const unsigned char *in, size_t n)", "{",
                        "    const unsigned char *cur = in, *lim = in + n, *mar = in;", "    (void)mar;",
                        "    /*!re2c",
                        *RE2C_BUFFER_API,
                        f'        !include "g{k}.defs.re";' if j == 0 else "",
                        f"        {rule} {{ return cur == lim; }}",
                        "        * { return 0; }", "        $ { return 0; }", "    */", "}"]
                src += [f"static const struct {{ const char *s; size_t n; }} cases_{prefix}[] = {{"]
                src += [f"    {{ {c_string(B(c))}, {len(B(c))} }}," for c in acc + rej] + ["};"]
                src += [f"void re2c_{prefix}(void);", f"void re2c_{prefix}(void)", "{", "    size_t i;",
                        f'    printf("{prefix}: ");',
                        f"    for (i = 0; i < sizeof cases_{prefix} / sizeof cases_{prefix}[0]; i++)",
                        f"        putchar(match_{prefix}((const unsigned char *)cases_{prefix}[i].s, "
                        f"cases_{prefix}[i].n) ? '1' : '0');",
                        "    putchar('\\n');", "}"]
                calls.append(f"re2c_{prefix}")
                want.append(f"{prefix}: " + "1" * len(acc) + "0" * len(rej))
            re_file = os.path.join(d, f"g{k}.re")
            with open(re_file, "w") as f:
                f.write("\n".join(src) + "\n")
            r = subprocess.run([RE2C, "-W", "-Werror", "-Wno-match-empty-string",
                                "--no-generation-date", "--no-version", "-i",
                                "-I", d, re_file, "-o", os.path.join(d, f"g{k}.c")],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(os.path.join(d, f"g{k}.c")) as f:
                sources[f"g{k}.c"] = f.read()
        sources["main.c"] = c_main(calls)
        self.assertEqual(self.build_run(d, sources).splitlines(), want)

    # Regression: re2c_expr spelled a reference as written at the use, but re2c
    # names are case-sensitive, so a rule referenced in another case ("fOO-bar"
    # for FOO-BAR, "digit" for DIGIT) named an undefined re2c definition.
    def test_re2c_defs_references_use_the_rule_spelling(self):
        comp = compile_text('Foo = "a" fOO-bar 1*digit\nFOO-BAR = "b"\n')
        text = emit.emit_re2c_defs(comp, "case.abnf")
        self.assertIn("Foo = 'a' FOO_BAR DIGIT+;", text)

    # Regression: a repetition directly inside a repetition was written without
    # parentheses, and re2c rejects a counted repetition next to another
    # postfix operator: `a = 1*( 2HEXDIG )` gave `a = HEXDIG{2}+;`.
    def test_re2c_nested_repetitions(self):
        self.need_cc(also_re2c=True)
        d = os.path.join(TMP, "re2c-nested")
        os.makedirs(d, exist_ok=True)
        comp = compile_text('a = 1*( 2HEXDIG ) "-" 2*3( [ "y" ] ) "-" *( 2"x" )\n')
        with open(os.path.join(d, "n.defs.re"), "w") as f:
            f.write(emit.emit_re2c_defs(comp, "n.abnf"))
        with open(os.path.join(d, "n.re"), "w") as f:
            f.write("/*!re2c\n    re2c:yyfill:enable = 0;\n    re2c:define:YYCTYPE = char;\n"
                    '    !include "n.defs.re";\n    a { return 1; }\n    * { return 0; }\n*/\n')
        r = subprocess.run([RE2C, "-i", "-I", d, os.path.join(d, "n.re"), "-o", os.path.join(d, "n.c")],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)

    # Issue 7: --prefix namespaces the re2c definitions too (re2c has one
    # namespace of definitions per lexer); without it the names stay as they are.
    def test_re2c_defs_prefix(self):
        comp = compile_text('x = 1*DIGIT "-" y-z\ny-Z = DIGIT ALPHA\n')
        plain = emit.emit_re2c_defs(comp, "p.abnf")
        self.assertIn("\nDIGIT = [\\x30-\\x39]; //", plain)
        self.assertIn("\nx = DIGIT+ '-' y_Z; //", plain)
        text = emit.emit_re2c_defs(comp, "p.abnf", "g1")
        defs = re.findall(r"(?m)^([A-Za-z][A-Za-z0-9_]*) = (.*); // ", text)
        self.assertEqual(sorted(n for n, _ in defs), ["g1_ALPHA", "g1_DIGIT", "g1_x", "g1_y_Z"])
        self.assertIn("\ng1_x = g1_DIGIT+ '-' g1_y_Z; //", text)
        self.assertIn("\ng1_y_Z = g1_DIGIT g1_ALPHA; //", text)
        for _, body in defs:
            bare = re.sub(r"'[^']*'|\"[^\"]*\"|\[[^\]]*\]", " ", body)
            for ident in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", bare):
                self.assertTrue(ident.startswith("g1_"), f"{ident} is not namespaced")
        # The lexer names the definitions the way they were emitted.
        lexer = emit.emit_re2c_lexer(self.comp, "s", "u8", "u8.defs.re", "u8")
        self.assertIn("        u8_UTF8_char { ", lexer)
        self.assertNotIn(" UTF8_", lexer)
        lexer = emit.emit_re2c_lexer(self.comp, "s", "u8", "u8.defs.re")
        self.assertIn("        UTF8_char { ", lexer)

    def _re2c_c(self, d, name):
        r = subprocess.run([RE2C, "-W", "-Werror", "--no-generation-date", "--no-version", "-i",
                            "-I", d, os.path.join(d, name + ".re"), "-o", os.path.join(d, name + ".c")],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(d, name + ".c")) as f:
            return f.read()

    # Issue 7's reproducer: two grammars, both using DIGIT, emitted with
    # --prefix g1 / --prefix g2 and !included in one re2c lexer. Without the
    # prefix on definitions re2c stops: name 'DIGIT' is already defined.
    def test_two_prefixed_defs_share_one_re2c_lexer(self):
        self.need_cc(also_re2c=True)
        d = os.path.join(TMP, "issue7-re2c")
        os.makedirs(d)
        for g, text in (("g1", "x = 1*DIGIT\n"), ("g2", "y = DIGIT ALPHA\n")):
            with open(os.path.join(d, g + ".abnf"), "w") as f:
                f.write(text)
            r = run_cli(g + ".abnf", "--emit", "re2c", "--prefix", g, "-o", g + ".defs.re", cwd=d)
            self.assertEqual((r.returncode, r.stderr), (0, ""))
        with open(os.path.join(d, "both.re"), "w") as f:
            f.write("\n".join([
                "#include <stdio.h>", "#include <string.h>",
                "static int which(const char *s)", "{",
                "    const unsigned char *cur = (const unsigned char *)s, *lim = cur + strlen(s), *mar = cur;",
                "    (void)mar;", "    /*!re2c",
                *RE2C_BUFFER_API,
                '        !include "g1.defs.re";', '        !include "g2.defs.re";',
                "        g1_x { return cur == lim ? 1 : 0; }",
                "        g2_y { return cur == lim ? 2 : 0; }",
                "        * { return 0; }", "        $ { return 0; }", "    */", "}",
                "int main(void)", "{",
                '    static const char *in[] = { "123", "7a", "7", "a", "7ab", "12a" };',
                "    for (size_t i = 0; i < sizeof in / sizeof in[0]; i++)",
                '        printf("%s=%d\\n", in[i], which(in[i]));',
                "    return 0;", "}", ""]))
        out = self.build_run(d, {"both.c": self._re2c_c(d, "both")})
        self.assertEqual(out.split(), ["123=1", "7a=2", "7=1", "a=0", "7ab=0", "12a=0"])

    # A prefixed re2c lexer !includes definitions emitted with the same prefix.
    def test_prefixed_re2c_lexer(self):
        self.need_cc(also_re2c=True)
        d = os.path.join(TMP, "prefixed-lexer")
        os.makedirs(d)
        for kind, out in (("re2c", "u8.defs.re"), ("re2c-lexer", "u8.re")):
            r = run_cli(UTF8, "--emit", kind, "--prefix", "u8", "--defs", "u8.defs.re", "-o", out, cwd=d)
            self.assertEqual((r.returncode, r.stderr), (0, ""))
        with open(os.path.join(d, "u8.defs.re")) as f:
            self.assertIn("\nu8_UTF8_char = ", f.read())
        main = "\n".join([
            "#include <stdio.h>", '#include "u8.c"', "int main(void)", "{",
            '    static const unsigned char in[] = "a\\xC3\\xA9\\xE2\\x82\\xFF";',
            "    size_t at = 0, len; unsigned tag; int t;",
            "    while ((t = u8_lex(in + at, sizeof in - 1 - at, &len, &tag)) != U8_LEX_END) {",
            '        printf("%d:%zu ", t, len);', "        at += len;", "    }",
            '    printf("\\n");', "    return 0;", "}", ""])
        self._re2c_c(d, "u8")  # u8.c, included by main.c
        out = self.build_run(d, {"main.c": main})
        # a, é, a maximal subpart E2 82, then a stray FF.
        self.assertEqual(out.split(), ["1:1", "1:2", "2:2", "2:1"])

    # A plain rule (no unit): the lexer's token is the start rule itself.
    def test_re2c_lexer_of_a_plain_rule(self):
        self.need_cc(also_re2c=True)
        d = os.path.join(TMP, "plain-lexer")
        os.makedirs(d)
        path = write_grammar('token = 1*tchar\ntchar = ALPHA / DIGIT / "-"\n')
        for kind, out in (("re2c", "tok.defs.re"), ("re2c-lexer", "tok.re")):
            r = run_cli(path, "--emit", kind, "--prefix", "tok", "--defs", "tok.defs.re", "-o", out,
                        cwd=d)
            self.assertEqual((r.returncode, r.stderr), (0, ""))
        with open(os.path.join(d, "tok.re")) as f:
            self.assertIn("the next token of in[0..n): a whole token (TOK_LEX_UNIT)", f.read())
        main = "\n".join([
            "#include <stdio.h>", '#include "tok.c"', "int main(void)", "{",
            '    static const unsigned char in[] = "ab-1  x\\xFFq";',
            "    size_t at = 0, len; unsigned tag; int t;",
            "    while ((t = tok_lex(in + at, sizeof in - 1 - at, &len, &tag)) != TOK_LEX_END) {",
            '        printf("%d:%zu ", t, len);', "        at += len;", "    }",
            '    printf("\\n");', "    return 0;", "}", ""])
        self._re2c_c(d, "tok")
        out = self.build_run(d, {"main.c": main})
        # The longest token, two stray spaces, a token, a stray FF, a token.
        self.assertEqual(out.split(), ["1:4", "2:1", "2:1", "1:1", "2:1", "1:1"])

    def test_emitters_are_deterministic(self):
        other = compiler.compile_grammar(UTF8)
        for fn in (lambda c: emit.emit_c(c, "s", "p"), lambda c: emit.emit_re2c_defs(c, "s"),
                   lambda c: emit.emit_re2c_lexer(c, "s", "p", "p.defs.re"),
                   lambda c: emit.emit_dot(c, "s"), lambda c: emit.emit_mermaid(c, "s"),
                   lambda c: emit.emit_json(c, "s")):
            self.assertEqual(fn(self.comp), fn(other))


# -------------------------------------------- random grammars against `re`

ALPHABET = "abAB"


class TestRandomGrammars(Case):
    """Random ABNF expressions compiled and compared with Python regexes on every short string."""


    def gen(self, rng, depth, helpers):
        """(abnf text, regex) of a random element."""
        k = rng.randrange(14 if depth > 0 else 7)
        if k == 0:
            return rng.choice([("%x61", "a"), ("%x62", "b"), ("%x41", "A"), ("%d98", "b"), ("%b1000010", "B")])
        if k == 1:
            return rng.choice([("%x61-62", "[ab]"), ("%x41-42", "[AB]"), ("%x42-61", "[Ba]")])
        if k == 2:
            return rng.choice([('"a"', "[aA]"), ('"ab"', "[aA][bB]"), ('"B"', "[bB]")])
        if k == 3:
            return rng.choice([('%s"aB"', "aB"), ('%s"b"', "b"), ('%i"ba"', "[bB][aA]")])
        if k == 4:
            return rng.choice([('""', ""), ("%x61.62", "ab"), ("%d65.65", "AA")])
        if k in (5, 6) and helpers:
            name = rng.choice(list(helpers))
            return rng.choice([name, name.upper()]), helpers[name]
        if k in (5, 6):
            return "%x62", "b"
        if k in (7, 8):
            items = [self.gen(rng, depth - 1, helpers) for _ in range(rng.randrange(2, 4))]
            return " ".join(_group(t) for t, _ in items), "".join(f"(?:{r})" for _, r in items)
        if k in (9, 10):
            items = [self.gen(rng, depth - 1, helpers) for _ in range(rng.randrange(2, 4))]
            return " / ".join(t for t, _ in items), "|".join(f"(?:{r})" for _, r in items)
        t, r = self.gen(rng, depth - 1, helpers)
        form = rng.randrange(7)
        if form == 0:
            return f"*{_group(t)}", f"(?:{r})*"
        if form == 1:
            n = rng.randrange(3)
            return f"{n}*{_group(t)}", f"(?:{r}){{{n},}}"
        if form == 2:
            m = rng.randrange(1, 3)
            return f"*{m}{_group(t)}", f"(?:{r}){{0,{m}}}"
        if form == 3:
            n = rng.randrange(3)
            m = n + rng.randrange(3)
            return f"{n}*{m}{_group(t)}", f"(?:{r}){{{n},{m}}}"
        if form == 4:
            n = rng.randrange(3)
            return f"{n}{_group(t)}", f"(?:{r}){{{n}}}"
        if form == 5:
            return f"[ {t} ]", f"(?:{r})?"
        return f"( {t} )", f"(?:{r})"

    def random_grammars(self):
        """(grammar text, equivalent Python regex) pairs, the same on every run."""
        rng = random.Random(5234)
        out = []
        for i in range(120):
            helpers, lines = {}, []
            for h in range(rng.randrange(3)):
                t, r = self.gen(rng, 2, helpers)
                name = f"h{h}-x"
                lines.append(f"{name} = {t}")
                helpers[name] = r
            if rng.randrange(4) == 0:  # a right-linear rule: loop = X loop / Y
                (tx, rx), (ty, ry) = self.gen(rng, 1, helpers), self.gen(rng, 1, helpers)
                lines.append(f"loop-r = {_group(tx)} loop-r / {ty}")
                helpers["loop-r"] = f"(?:{rx})*(?:{ry})"
            t, r = self.gen(rng, 3, helpers)
            out.append((f"top = {t}\n" + "\n".join(lines) + "\n", r))
        return out

    STRINGS = [""] + ["".join(p) for n in range(1, 5) for p in itertools.product(ALPHABET, repeat=n)]

    def test_random_grammars(self):
        for i, (text, r) in enumerate(self.random_grammars()):
            with self.subTest(i=i, grammar=text):
                d = lang(text)
                self.assertWellFormedDfa(d)
                rx = re.compile(r)
                for s in self.STRINGS:
                    if d.accepts(s.encode()) != (rx.fullmatch(s) is not None):
                        self.fail(f"{s!r}: dfa {d.accepts(s.encode())}, regex /{r}/")

    def test_random_grammars_in_re2c(self):
        """The re2c definitions of random grammars match what their DFAs match.

        Left out: grammars with the recursive rule (not a re2c definition, by
        design). Repetitions inside repetitions and references spelled unlike
        their rule are kept on purpose (both were emitter bugs).
        """
        self.need_cc(also_re2c=True)
        d = os.path.join(TMP, "re2c-random")
        os.makedirs(d, exist_ok=True)
        src = ["#include <stdio.h>", "#include <stddef.h>", "#include <string.h>"]
        want, calls, shapes = [], [], [0, 0]
        for i, (text, _) in enumerate(self.random_grammars()):
            text = re.sub(r"(?<![A-Za-z-])(top|h\d-x|loop-r)\b", rf"g{i}-\1", text, flags=re.I)
            g = grammar(text)
            if f"g{i}-loop-r" in g.rules:
                continue
            shapes[0] += any(_rep_in_rep(r.body) for r in g.rules.values())
            shapes[1] += any(_miscased_ref(g, r.body) for r in g.rules.values())
            comp = compiler.Compiled(g, f"g{i}-top", None, lang(text), lang(text))
            with open(os.path.join(d, f"g{i}.defs.re"), "w") as f:
                f.write(emit.emit_re2c_defs(comp, f"random {i}"))
            src += [f"static int m{i}(const unsigned char *in, size_t n)", "{",
                    "    const unsigned char *cur = in, *lim = in + n, *mar = in;", "    (void)mar;",
                    "    /*!re2c",
                    *RE2C_BUFFER_API,
                    f'        !include "g{i}.defs.re";',
                    f"        g{i}_top {{ return cur == lim; }}",
                    "        * { return 0; }", "        $ { return 0; }", "    */", "}"]
            calls.append(i)
            want.append("".join("1" if comp.language.accepts(s.encode()) else "0" for s in self.STRINGS[1:]))
            if len(calls) == 40:
                break
        self.assertEqual(len(calls), 40)
        self.assertTrue(shapes[0] and shapes[1], shapes)
        src += ["static const char *const strings[] = {"]
        src += [f'    "{s}",' for s in self.STRINGS[1:]] + ["};",
                "static void run(int (*m)(const unsigned char *, size_t))", "{", "    size_t i;",
                "    for (i = 0; i < sizeof strings / sizeof strings[0]; i++)",
                "        putchar(m((const unsigned char *)strings[i], strlen(strings[i])) ? '1' : '0');",
                "    putchar('\\n');", "}", "int main(void)", "{"]
        src += [f"    run(m{i});" for i in calls] + ["    return 0;", "}", ""]
        with open(os.path.join(d, "random.re"), "w") as f:
            f.write("\n".join(src))
        r = subprocess.run([RE2C, "-i", "--no-generation-date", "--no-version", "-I", d,
                            os.path.join(d, "random.re"), "-o", os.path.join(d, "random.c")],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(d, "random.c")) as f:
            out = self.build_run(d, {"main.c": f.read()})
        self.assertEqual(out.splitlines(), want)


def _rep_in_rep(e):
    if isinstance(e, abnf.Rep):
        return isinstance(e.item, abnf.Rep) or _rep_in_rep(e.item)
    if isinstance(e, (abnf.Seq, abnf.Alt)):
        return any(_rep_in_rep(i) for i in e.items)
    return False


def _miscased_ref(g, e):
    if isinstance(e, abnf.Ref):
        return e.name != g.rules[e.name.lower()].name
    if isinstance(e, abnf.Rep):
        return _miscased_ref(g, e.item)
    if isinstance(e, (abnf.Seq, abnf.Alt)):
        return any(_miscased_ref(g, i) for i in e.items)
    return False


def _group(t):
    """t as one element: bare if it is a single num-val, char-val or rule name."""
    return t if re.fullmatch(r'[%"A-Za-z][%\w".-]*', t) else f"( {t} )"


# ------------------------------------------------------------------ runner

class _Result(unittest.TextTestResult):
    """Counts test methods: one passes only if none of its subtests failed."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.bad, self.skipped_ids, self.xfail_ids = set(), set(), set()

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.bad.add(test.id())

    def addError(self, test, err):
        super().addError(test, err)
        self.bad.add(getattr(test, "id", lambda: str(test))())

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            self.bad.add(test.id())

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self.skipped_ids.add(test.id())

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self.xfail_ids.add(test.id())

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self.bad.add(test.id())


def main(argv):
    verbosity = 2 if "-v" in argv else 1
    names = [a for a in argv[1:] if not a.startswith("-")]
    loader = unittest.TestLoader()
    suite = (loader.loadTestsFromNames(names, sys.modules[__name__]) if names
             else loader.loadTestsFromModule(sys.modules[__name__]))
    runner = unittest.TextTestRunner(stream=sys.stderr, verbosity=verbosity, resultclass=_Result)
    t0 = time.monotonic()
    old = os.getcwd()
    os.chdir(ROOT)
    try:
        result = runner.run(suite)
    finally:
        os.chdir(old)
    failed = len(result.bad)
    skipped = len(result.skipped_ids - result.bad)
    xfail = len(result.xfail_ids - result.bad)
    passed = result.testsRun - failed - skipped - xfail
    extra = []
    if skipped:
        extra.append(f"{skipped} skipped")
    if xfail:
        extra.append(f"{xfail} expected failures (known compiler bugs)")
    if extra:
        print(f"test_abnfc: {', '.join(extra)}")
    print(f"test_abnfc: ran in {time.monotonic() - t0:.1f} s", file=sys.stderr)
    print(f"test_abnfc: {passed} passed, {failed} failed")
    return 1 if failed or not result.wasSuccessful() else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
