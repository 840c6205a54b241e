#!/usr/bin/env python3
"""CESU-8 and Java's modified UTF-8 through the CLI, against Python's codecs.

    python3 tests/cli/test_cesu.py BUILD_DIR        (runs BUILD_DIR/utfdfa)

Python has no codec of either name, but both are spelled out from its own:
CESU-8 is the UTF-8 form ("surrogatepass") of each UTF-16 code unit
(Unicode TR #26), modified UTF-8 the same with U+0000 as C0 80 (Java's
DataInput). Random texts (fixed seed) over ASCII, U+0000, the BMP and the
supplementary planes, and the corpus when ../shared is present: encoding
is byte-identical, decoding gives the text back, and replacing gives one
U+FFFD per lone surrogate. Last line: "test_cesu: N passed, M failed".
"""

import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "corpus"))


def cesu(text):
    units = text.encode("utf-16-be")
    return "".join(chr(int.from_bytes(units[i:i + 2], "big"))
                   for i in range(0, len(units), 2)).encode("utf-8", "surrogatepass")


def mutf(text):
    return cesu(text).replace(b"\x00", b"\xc0\x80")


def main():
    binary = os.path.join(sys.argv[1], "utfdfa")
    passed = failed = 0

    def check(cond, what):
        nonlocal passed, failed
        if cond:
            passed += 1
        else:
            failed += 1
            print("FAIL:", what)

    def run(args, data):
        p = subprocess.run([binary] + args, input=data, capture_output=True, timeout=60)
        return p.returncode, p.stdout

    rng = random.Random(20261123)
    texts = []
    for _ in range(200):
        texts.append("".join(chr(rng.choice([rng.randrange(0, 0x80), 0, rng.randrange(0x80, 0xD800),
                                             rng.randrange(0xE000, 0x10000),
                                             rng.randrange(0x10000, 0x110000)]))
                             for _ in range(rng.randrange(0, 60))))
    if os.path.isdir(CORPUS):
        for root, _, files in sorted(os.walk(CORPUS)):
            for name in sorted(files):
                with open(os.path.join(root, name), "rb") as f:
                    try:
                        texts.append(f.read().decode("utf-8"))
                    except UnicodeDecodeError:
                        pass
    else:
        print("test_cesu: %s is absent: random texts only" % CORPUS)
    for k, text in enumerate(texts):
        for name, codec in (("cesu-8", cesu), ("mutf-8", mutf)):
            want = codec(text)
            code, out = run(["-f", "utf-8", "-t", name], text.encode("utf-8"))
            check(code == 0 and out == want, "text %d -> %s as Python spells it" % (k, name))
            code, out = run(["-f", name, "-t", "utf-8"], want)
            check(code == 0 and out == text.encode("utf-8"), "text %d: %s -> utf-8" % (k, name))
    # Lone surrogates (and the pair in 4-byte UTF-8 form, not CESU-8): one
    # U+FFFD per maximal subpart, as Python's replace of the same units.
    for name, codec in (("cesu-8", cesu), ("mutf-8", mutf)):
        for text, bad, repl in (("a", "\ud800", "\ufffd"), ("b", "\udc00\ud800", "\ufffd\ufffd"),
                                ("c", "\ud83d\ud83d\ude00", "\ufffd\U0001f600")):
            data = codec(text) + bad.encode("utf-8", "surrogatepass") + codec(text)
            code, out = run(["-f", name, "-t", "utf-8", "--errors=replace"], data)
            check(code == 0 and out == (text + repl + text).encode("utf-8"),
                  "%s: %r replaced" % (name, bad))
        code, out = run(["-f", name, "-t", "utf-8", "--errors=replace"], b"x\xf0\x9f\x98\x80")
        check(code == 0 and out == "x\ufffd\ufffd\ufffd\ufffd".encode("utf-8"),
              "%s: a 4-byte UTF-8 sequence is four errors" % name)
    code, out = run(["-f", "mutf-8", "-t", "utf-8", "--errors=replace"], b"a\x00b")
    check(code == 0 and out == "a\ufffdb".encode("utf-8"), "mutf-8: the byte 00 is an error")
    print("test_cesu: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
