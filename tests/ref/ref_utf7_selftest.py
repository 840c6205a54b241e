#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Check of the reference UTF-7 decoder/encoder (tests/ref/ref_utf7.c) against
CPython's 'utf-7' codec (standard library only; nothing is stored).

Usage:  python3 tests/ref/ref_utf7_selftest.py BUILD_DIR
        (BUILD_DIR/ref_utf7_test must exist; this script builds nothing)

(a) 4,000 random valid texts (random.Random(20260515)): the reference decodes
    Python's encoding back to the text; Python decodes the reference's
    encoding (direct_o 0 and 1) back to the text; with direct_o = 1 the two
    encoders write the same bytes.
(b) 20,000 random byte strings made of UTF-7 pieces: where both decoders
    accept an input they give the same text, and every disagreement is one of
    the known differences below (nothing else is allowed).

Known differences between CPython's strict utf-7 decoder/encoder and the
project's error model (which the reference implements):
  P1  (none: "}" is in Set O for both, as RFC 2152 lists it.)
  P2  Six zero leftover bits at the end of a run ("+A-", a run of 9 chars):
      RFC 2152 padding, valid for the reference; CPython reports "partial
      character in shift sequence" (or "unterminated shift sequence" at the
      end of input).
  P3  CPython decodes every ASCII byte but "+" directly (NUL, controls, DEL,
      "\\", "~", "}"); the reference reports invalid-direct for bytes outside
      Set D, Set O and SP/TAB/CR/LF.
  P4  CPython passes lone surrogates through (str may hold them); the
      reference reports surrogate.
  P5  "+" at the end of input: CPython decodes it to nothing; the reference
      reports truncated.
  P6  "+" followed by a byte outside Set B and "-": both reject it, but
      CPython's error covers both bytes, the reference's only the "+" (the
      byte after it is decoded again). Not compared: (b) only compares
      verdicts and texts, not error spans.

Last line: "ref_utf7_selftest: N passed, M failed"; exit 1 when M > 0.
"""

import os
import random
import re
import subprocess
import sys

passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        if failed <= 40:
            print("FAIL: " + what)
    return cond


def run(exe, args, lines):
    data = "".join(l + "\n" for l in lines).encode("ascii")
    p = subprocess.run([exe] + args, input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0 or p.stderr:
        raise RuntimeError("ref_utf7_test %s failed: %r" % (" ".join(args), p.stderr[:500]))
    return p.stdout.decode("ascii").splitlines()


def ref_decode(exe, inputs):
    """[(strict, replace)] per input: strict = (kind or 'OK', offset, length, text
    before the error); replace = (text, [(offset, length, kind)])."""
    out = run(exe, ["--decode"], [b.hex() for b in inputs])
    if len(out) != 2 * len(inputs):
        raise RuntimeError("ref_utf7_test --decode printed %d lines for %d inputs"
                           % (len(out), len(inputs)))
    res = []
    for k in range(len(inputs)):
        s = out[2 * k].split(" ")
        r = out[2 * k + 1].split(" ")
        assert s[0] == "S" and r[0] == "R"
        if s[1] == "OK":
            strict = ("OK", 0, 0, "".join(chr(int(x, 16)) for x in s[2:]))
        else:
            strict = (s[1], int(s[2]), int(s[3]), "".join(chr(int(x, 16)) for x in s[4:]))
        semi = r.index(";")
        text = "".join(chr(int(x, 16)) for x in r[1:semi])
        errs = []
        for e in r[semi + 1:]:
            off, n, kind = e.split(",")
            errs.append((int(off), int(n), kind))
        res.append((strict, (text, errs)))
    return res


def ref_encode(exe, texts, direct_o):
    out = run(exe, ["--encode", "1" if direct_o else "0"],
              [" ".join("%X" % ord(c) for c in t) for t in texts])
    if len(out) != len(texts):
        raise RuntimeError("ref_utf7_test --encode printed %d lines for %d texts"
                           % (len(out), len(texts)))
    return [bytes.fromhex(l) for l in out]


def py_decode(b):
    """(True, text) or (False, reason) from CPython's strict decoder."""
    try:
        return True, b.decode("utf-7")
    except UnicodeDecodeError as e:
        return False, e.reason


def random_char(rng):
    r = rng.random()
    if r < 0.30:
        return rng.choice("+-\\~}A/9z.!=\n\t \0\x7f&'(),:?")
    if r < 0.55:
        return chr(rng.randrange(0x80))
    if r < 0.70:
        return chr(rng.randrange(0x80, 0x800))
    if r < 0.85:
        c = rng.randrange(0x800, 0x10000)
        return chr(c - 0x800 if 0xD800 <= c <= 0xDFFF else c)
    return chr(rng.randrange(0x10000, 0x110000))


def part_a(exe, rng):
    texts = ["".join(random_char(rng) for _ in range(rng.randrange(0, 61))) for _ in range(4000)]
    texts += ["", "}", "a}b", "+", "+}+", "\U0010FFFF}", "A\u2262\u0391.", "Hi Mom -\u263a-!"]
    py_enc = [t.encode("utf-7") for t in texts]
    decoded = ref_decode(exe, py_enc)
    with_brace = sum("}" in t for t in texts)
    for t, b, (strict, (text, errs)) in zip(texts, py_enc, decoded):
        check(strict[0] == "OK" and strict[3] == t and text == t and errs == [],
              "(a) ref decode of Python's %r is %r, want %r" % (b[:60], strict, t[:30]))
    for direct_o in (False, True):
        enc = ref_encode(exe, texts, direct_o)
        for t, b, pb in zip(texts, enc, py_enc):
            ok, back = py_decode(b)
            check(ok and back == t, "(a) Python decodes ref encode(direct_o=%d) %r to %r, want %r"
                  % (direct_o, b[:60], back, t[:30]))
            if direct_o:
                check(b == pb, "(a) ref encode(direct_o=1) %r, Python %r" % (b[:60], pb[:60]))
    print("  (a) %d texts, %d with a \"}\"" % (len(texts), with_brace))


PIECES = [b"+", b"-", b"+-", b"A", b"B", b"Q", b"g", b"w", b"/", b"+A", b"AA", b"AGE", b"AGEA",
          b"2AA", b"2AE", b"3AA", b"2D3eAA", b"2ADcAA", b"Jjo", b"ImIDkQ", b".", b" ", b"\n",
          b"!", b"=", b"}", b"~", b"\\", b"\0", b"\x7f", b"\x80", b"\xff", b"a", b"+2D3eAA-",
          b"+ZeVnLIqe-"]


def part_b(exe, rng):
    inputs = [b"".join(rng.choice(PIECES) for _ in range(rng.randrange(0, 9)))
              for _ in range(20000)]
    counts = {}
    for b, (strict, (text, errs)) in zip(inputs, ref_decode(exe, inputs)):
        ok, py = py_decode(b)
        ours = strict[0] == "OK"
        # the replacing decode agrees with the strict one
        n = len(strict[3])
        check((errs == []) == ours and (ours or (errs[0] == (strict[1], strict[2], strict[0]) and
                                                 text[:n + 1] == strict[3] + "\ufffd")) and
              (not ours or text == strict[3]),
              "(b) ref strict %r and replacing %r disagree on %r" % (strict, errs[:3], b))
        if ours and ok:
            cat = "both accept"
            check(text == py, "(b) %r: ref %r, Python %r" % (b, text, py))
        elif ours:
            cat = "P2"
            # and some run leaves exactly 6 bits (n chars, 6n mod 16 == 6: n mod 8 == 1),
            # all zero (its last char is "A")
            runs = [m.group(1) for m in re.finditer(rb"\+(-|[A-Za-z0-9+/]*)", b)]
            check(py in ("partial character in shift sequence", "unterminated shift sequence")
                  and any(len(r) % 8 == 1 and r.endswith(b"A") for r in runs),
                  "(b) %r: ref accepts (%r), Python: %s" % (b, text, py))
        elif ok:
            kind, off = strict[0], strict[1]
            if kind == "invalid-direct":
                cat = "P3"
                check(b[off] < 0x80 and b[off] != ord("+"),
                      "(b) %r: Python accepts, ref invalid-direct at %d" % (b, off))
            elif kind == "surrogate":
                cat = "P4"
                check(any(0xD800 <= ord(c) <= 0xDFFF for c in py),
                      "(b) %r: Python accepts %r without a lone surrogate, ref surrogate" % (b, py))
            elif kind == "truncated":
                cat = "P5"
                check(off == len(b) - 1 and b.endswith(b"+"),
                      "(b) %r: ref truncated at %d" % (b, off))
            else:
                cat = "unexplained"
                check(False, "(b) %r: Python accepts %r, ref %r" % (b, py, strict))
        else:
            cat = "both reject"
        counts[cat] = counts.get(cat, 0) + 1
    print("  (b) %d inputs: %s" % (len(inputs),
                                   ", ".join("%s %d" % kv for kv in sorted(counts.items()))))


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: ref_utf7_selftest.py BUILD_DIR")
    exe = os.path.join(sys.argv[1], "ref_utf7_test")
    rng = random.Random(20260515)
    part_a(exe, rng)
    part_b(exe, rng)
    print("ref_utf7_selftest: %d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
