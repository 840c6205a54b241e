#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Tests of the fast paths' derived tables (gen/emit_fast.py, --emit c-fast).

Each table is checked against an oracle that does not come from the
generator: Python's own UTF-8 codec (which substitutes U+FFFD per maximal
subpart, as Unicode 3.9 recommends) for the replacing DFA and for the
stateless decoding tables, RFC 3629's byte ranges for the start-only bytes,
and the C header's shift rows (emit.emit_c) for the rows. The last line
printed is `test_emit_fast: N passed, M failed`.
"""

import os
import random
import re
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "gen"))

import compiler  # noqa: E402
import emit  # noqa: E402
import emit_fast  # noqa: E402

UTF8 = os.path.join(ROOT, "grammar", "utf8.abnf")
MASK64 = (1 << 64) - 1


def utf8_facts():
    return emit_fast.fast_facts(compiler.compile_grammar([UTF8], None, None, None, "octets"))


FACTS = utf8_facts()


def replace_decode(data, f=FACTS):
    """The replacing DFA's step (src/fast/utf8/replace.h, FAST_RSTEP_T), in Python."""
    s7, v, out = 0, 0, []
    for b in data:
        sh = f["replace_shift"][b] >> (s7 & 63)
        s7 = f["replace_next"][b] >> (s7 & 63)
        v = ((v << (sh & 63)) | f["payload"][b]) & MASK64
        if sh >> 6 & 1:
            out.append(0xFFFD)  # the subpart cut short before this byte
        if s7 & 63 == 0:
            out.append(0xFFFD if s7 >> 6 & 1 else v & 0xFFFFFFFF)
    if s7 & 63:
        out.append(0xFFFD)  # a character cut short by the end
    return out


def stateless_decode(data, f=FACTS):
    """Decoding valid text by the lanes' tables (src/fast/utf8/lanes.h)."""
    v, x, out = 0, -1, []
    for b in data:
        e = f["decode_shift"][b]
        v = ((v << e) | f["payload"][b]) & MASK64
        x += e >> 5
        if x == len(out):
            out.append(0)
        out[x] = v & 0xFFFFFFFF
    return out


def codec(data):
    return [ord(c) for c in data.decode("utf-8", "replace")]


class EmitFastTest(unittest.TestCase):
    def test_replace_every_short_string(self):
        for n in (1, 2):
            for i in range(256 ** n):
                data = i.to_bytes(n, "big")
                self.assertEqual(replace_decode(data), codec(data), data.hex())

    def test_replace_random(self):
        rng = random.Random(1)
        alphabet = [0x41, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xE1,
                    0xED, 0xEF, 0xF0, 0xF1, 0xF4, 0xF5, 0xFF]
        for _ in range(20000):
            data = bytes(rng.choice(alphabet) for _ in range(rng.randrange(1, 14)))
            self.assertEqual(replace_decode(data), codec(data), data.hex())

    def test_stateless_decoding_of_valid_text(self):
        rng = random.Random(2)
        for _ in range(3000):
            cps = [rng.choice((rng.randrange(0x80), rng.randrange(0x80, 0x800),
                               rng.randrange(0x800, 0xD800), rng.randrange(0xE000, 0x10000),
                               rng.randrange(0x10000, 0x110000))) for _ in range(rng.randrange(1, 9))]
            data = "".join(map(chr, cps)).encode("utf-8")
            self.assertEqual(stateless_decode(data), cps, data.hex())

    def test_start_only_bytes(self):
        # RFC 3629: a character starts with 00-7F, C2-DF, E0-EF or F0-F4, and
        # its later bytes are 80-BF: so these bytes start characters only.
        want = [int(b < 0x80 or 0xC2 <= b <= 0xF4) for b in range(256)]
        self.assertEqual(FACTS["start_only"], want)
        self.assertEqual(FACTS["ascii_identity"], 1)

    def test_rows_are_the_headers(self):
        comp = compiler.compile_grammar([UTF8], None, None, None, "octets")
        header = emit.emit_c(comp, "grammar/utf8.abnf", "utf8")
        rows = header.split("utf8_shift_row[256] = {")[1].split("};")[0]
        want = [int(w, 16) for w in re.findall(r"0x([0-9A-F]{16})u", rows)]
        self.assertEqual(FACTS["row"], want)

    def test_deterministic_and_bannered(self):
        cmd = [sys.executable, os.path.join(ROOT, "gen", "abnfc.py"), UTF8, "--emit", "c-fast"]
        a = subprocess.run(cmd, capture_output=True, check=True).stdout
        b = subprocess.run(cmd, capture_output=True, check=True).stdout
        self.assertEqual(a, b)
        self.assertIn("do not edit", a.decode("utf-8").splitlines()[1])

    def test_refuses_a_grammar_without_payload(self):
        comp = compiler.compile_grammar([os.path.join(ROOT, "grammar", "utf7.abnf")], None, None,
                                        None, "octets")
        with self.assertRaises(ValueError):
            emit_fast.fast_facts(comp)


def main():
    result = unittest.TextTestRunner(stream=sys.stderr, verbosity=0).run(
        unittest.TestLoader().loadTestsFromTestCase(EmitFastTest))
    failed = len(result.failures) + len(result.errors)
    print(f"test_emit_fast: {result.testsRun - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
