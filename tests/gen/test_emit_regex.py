#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Tests of --emit regex and --emit ragel (gen/emit_regex.py).

Each emitted expression must mean what the grammar's DFA means. The regex is
run by Python's re (an engine written apart from the generator); the ragel
machine by ragel -G2's C code, which also gives the index of the byte that
failed, to be compared with the DFA's reject index. Inputs: every string of
class representatives up to a length, random walks of the DFA (valid text) and
their one-byte mutations. An expression broken on purpose must be caught. The
grammars: grammar/*.abnf, tests/gen/grammars, tests/engine/grammars.list.
Ragel and cc are optional: without them that part says so and is skipped.

The last line printed is `test_emit_regex: N passed, M failed`.
"""

import itertools
import os
import random
import re
import shutil
import subprocess
import struct
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "gen"))

import compiler  # noqa: E402
import emit_regex  # noqa: E402


def grammars():
    """(name, [files], terminals) of every grammar the suite checks."""
    out = []
    for f in sorted(os.listdir(os.path.join(ROOT, "grammar"))):
        if f.endswith(".abnf"):
            out.append((f[:-5], [os.path.join("grammar", f)], "octets"))
    with open(os.path.join(ROOT, "tests", "engine", "grammars.list")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            name, opts, *files = line.split()
            terminals = "utf-8" if opts == "--terminals=utf-8" else "octets"
            out.append((name, files, terminals))
    return out


def compiled(files, terminals):
    return compiler.compile_grammar([os.path.join(ROOT, f) for f in files], None, None, None,
                                    terminals)


def inputs(dfa, seed):
    """Strings over which a wrong expression shows: every string of one byte per
    class up to the length where they number a few thousand, random walks that
    stay alive (valid text and its prefixes), and each walk with one byte
    replaced, inserted or dropped."""
    rng = random.Random(seed)
    reps = sorted({min(dfa.class_bytes(c)) for c in range(dfa.nclasses)}
                  | {max(dfa.class_bytes(c)) for c in range(dfa.nclasses)})
    out = [b""]
    n = 1
    while len(reps) ** n <= 3000:
        out += [bytes(t) for t in itertools.product(reps, repeat=n)]
        n += 1
    walks = []
    for _ in range(300):
        s, w = dfa.start, bytearray()
        while len(w) < 80:
            live = [b for b in range(256) if dfa.trans[s][b] != dfa.reject]
            if not live or (dfa.accepting[s] and rng.random() < 0.15):
                break
            b = rng.choice(live)
            w.append(b)
            s = dfa.trans[s][b]
        walks.append(bytes(w))
    out += walks
    for w in walks:
        i = rng.randrange(len(w) + 1)
        b = rng.choice(reps)
        out += [w[:i] + bytes([b]) + w[i + 1:], w[:i] + bytes([b]) + w[i:], w[:i] + w[i + 1:]]
    return out


def reject_index(dfa, s):
    st = dfa.start
    for i, b in enumerate(s):
        st = dfa.trans[st][b]
        if st == dfa.reject:
            return False, i
    return dfa.accepting[st], len(s)


def regex_mismatches(rx, dfa, strings):
    """The strings on which the regex and the DFA disagree."""
    r = re.compile(b"\\A(?:" + rx.encode("ascii") + b")\\Z")
    return [s for s in strings if bool(r.match(s)) != dfa.accepts(s)]


def regex_of(text):
    lines = text.splitlines()
    assert all(line.startswith("#") for line in lines[:-1]), lines[:-1]
    return lines[-1]


# Rewrites that change a language, tried in turn on a regex: a broken emitter.
BREAKS = [("[0-9]", "[0-8]"), ("+", "?"), ("*", "?"), ("{2}", "{3}"), ("{4}", "{3}"),
          ("\\x0A", "\\x0D")]


class EmitRegexTest(unittest.TestCase):
    def test_regex_equals_dfa(self):
        for name, files, terminals in grammars():
            with self.subTest(grammar=name):
                comp = compiled(files, terminals)
                rx = regex_of(emit_regex.emit_regex(comp, name))
                strings = inputs(comp.language, name)
                bad = regex_mismatches(rx, comp.language, strings)
                self.assertEqual(bad[:3], [], f"{name}: regex and DFA disagree")

    def test_a_broken_regex_is_caught(self):
        """Each grammar's regex, rewritten by every rewrite of BREAKS it admits:
        one of them at least must show on the inputs (a rewrite may keep the
        language: `(?:x+)*` is `(?:x?)*`)."""
        caught = 0
        for name, files, terminals in grammars():
            comp = compiled(files, terminals)
            rx = regex_of(emit_regex.emit_regex(comp, name))
            rewrites = [(o, n) for o, n in BREAKS if o in rx]
            if not rewrites:
                continue
            strings = inputs(comp.language, name)
            with self.subTest(grammar=name):
                self.assertTrue(any(regex_mismatches(rx.replace(o, n, 1), comp.language, strings)
                                    for o, n in rewrites), rewrites)
                caught += 1
        self.assertGreater(caught, 10)

    def test_recursion_is_an_error(self):
        g = os.path.join(TMP, "loop.abnf")
        with open(g, "w") as f:
            f.write('loop = "a" loop / "b"\n')
        with self.assertRaisesRegex(ValueError, "refers to itself"):
            emit_regex.emit_regex(compiled([g], "octets"), "loop")

    def test_deterministic_and_bannered(self):
        for emitter in ("regex", "ragel"):
            cmd = [sys.executable, os.path.join(ROOT, "gen", "abnfc.py"),
                   os.path.join(ROOT, "grammar", "utf8.abnf"), "--emit", emitter]
            a = subprocess.run(cmd, capture_output=True, check=True).stdout
            b = subprocess.run(cmd, capture_output=True, check=True).stdout
            self.assertEqual(a, b)
            self.assertIn("do not edit", a.decode("utf-8").splitlines()[0])


RAGEL_DRIVER = r"""
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
%%{
machine check;
include PREFIX "defs.rl";
main := PREFIX_START;
write data;
}%%
/* Reads [u32 length][bytes]...; prints "verdict index" per string. */
int main(void)
{
    static unsigned char buf[1 << 16];
    uint32_t n;
    while (fread(&n, 4, 1, stdin) == 1) {
        int cs;
        const unsigned char *p = buf, *pe = buf + n;
        if (n > sizeof buf || fread(buf, 1, n, stdin) != n)
            return 2;
        %% write init;
        %% write exec;
        printf("%d %ld\n", cs >= check_first_final, (long)(p - buf));
    }
    return 0;
}
"""


class EmitRagelTest(unittest.TestCase):
    def run_ragel(self, name, files, terminals):
        comp = compiled(files, terminals)
        prefix = "g_" + re.sub(r"\W", "_", name)
        d = os.path.join(TMP, name)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "defs.rl"), "w") as f:
            f.write(emit_regex.emit_ragel(comp, name, prefix))
        start = emit_regex.ragel_name(comp.start, prefix)
        with open(os.path.join(d, "check.rl"), "w") as f:
            f.write(RAGEL_DRIVER.replace("PREFIX_START", start).replace("PREFIX", prefix))
        subprocess.run(["ragel", "-G2", "-I", d, os.path.join(d, "check.rl"), "-o",
                        os.path.join(d, "check.c")], check=True)
        cc = os.environ.get("CC", "cc")
        subprocess.run([cc, "-std=c11", "-O1", "-w", os.path.join(d, "check.c"), "-o",
                        os.path.join(d, "check")], check=True)
        strings = inputs(comp.language, name)
        feed = b"".join(struct.pack("=I", len(s)) + s for s in strings)
        got = subprocess.run([os.path.join(d, "check")], input=feed, capture_output=True,
                             check=True).stdout.decode().split("\n")
        bad = []
        for s, line in zip(strings, got):
            ok, at = line.split()
            want_ok, want_at = reject_index(comp.language, s)
            # ragel stops on the byte that fails; a string that ends alive but
            # not accepting has no such byte, as in the DFA
            if (bool(int(ok)), int(at)) != (want_ok, want_at):
                bad.append((s, line, want_ok, want_at))
        return bad

    def test_ragel_equals_dfa(self):
        if not shutil.which("ragel") or not shutil.which(os.environ.get("CC", "cc")):
            print("test_emit_regex: no ragel or cc here: the ragel machines are not run "
                  "(apt-get install ragel)", file=sys.stderr)
            self.skipTest("no ragel")
        for name, files, terminals in grammars():
            with self.subTest(grammar=name):
                self.assertEqual(self.run_ragel(name, files, terminals)[:3], [])


TMP = tempfile.mkdtemp(prefix="test_emit_regex-")


def main():
    try:
        suite = unittest.TestSuite()
        for case in (EmitRegexTest, EmitRagelTest):
            suite.addTests(unittest.TestLoader().loadTestsFromTestCase(case))
        result = unittest.TextTestRunner(stream=sys.stderr, verbosity=0).run(suite)
    finally:
        shutil.rmtree(TMP, True)
    failed = len(result.failures) + len(result.errors)
    print(f"test_emit_regex: {result.testsRun - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
