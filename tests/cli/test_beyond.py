#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The encodings beyond the specs through the CLI, against Python's codecs:
CESU-8, Java's modified UTF-8, WTF-8, IMAP's modified UTF-7, and ISO-8859-1
(Python's latin-1 codec, and glibc's iconv for its names).

    python3 tests/cli/test_beyond.py BUILD_DIR        (runs BUILD_DIR/utfdfa)

Python has no codec of either name, but both are spelled out from its own:
CESU-8 is the UTF-8 form ("surrogatepass") of each UTF-16 code unit
(Unicode TR #26), modified UTF-8 the same with U+0000 as C0 80 (Java's
DataInput), WTF-8 the UTF-8 form of each code point ("surrogatepass") when no
high surrogate is followed by a low one; IMAP's modified UTF-7 (RFC 3501
section 5.1.3) is printable ASCII but "&" as itself, "&" as "&-", and runs
of anything else as base64 of UTF-16 ("," for "/") between "&" and "-".
Random texts (fixed seed) over ASCII, U+0000, the BMP and the
supplementary planes, and the corpus when ../shared is present: encoding
is byte-identical, decoding gives the text back, and replacing gives one
U+FFFD per lone surrogate. Last line: "test_beyond: N passed, M failed".
"""

import base64
import os
import random
import shutil
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


def imap_utf7(text):
    """RFC 3501 section 5.1.3, spelled out with Python's base64 and utf-16."""
    out, run = [], []

    def close():
        if run:
            b64 = base64.b64encode("".join(run).encode("utf-16-be")).decode("ascii")
            out.append("&" + b64.rstrip("=").replace("/", ",") + "-")
            run.clear()

    for ch in text:
        if 0x20 <= ord(ch) <= 0x7E:
            close()
            out.append("&-" if ch == "&" else ch)
        else:
            run.append(ch)
    close()
    return "".join(out).encode("ascii")


# glibc iconv's names of ISO-8859-1 (iconv -l), every one the CLI takes.
LATIN1_NAMES = ("ISO-8859-1", "ISO_8859-1", "ISO_8859-1:1987", "ISO-IR-100", "LATIN1", "L1",
                "CP819", "IBM819", "CSISOLATIN1", "8859_1", "ISO8859-1", "ISO88591",
                "OSF00010001", "latin1", "iso-8859-1")


def latin1(run, check, rng, texts):
    """ISO-8859-1 against Python's latin-1 codec: every byte both ways, the
    texts (their characters above U+00FF refused, replaced by "?" or
    dropped, as Python's encoder does), and iconv's names."""
    every = bytes(range(256))
    code, out = run(["-f", "latin1", "-t", "utf-8"], every)
    check(code == 0 and out == every.decode("latin-1").encode("utf-8"),
          "latin1: every byte is the character of its value")
    code, out = run(["-f", "utf-8", "-t", "latin1"], every.decode("latin-1").encode("utf-8"))
    check(code == 0 and out == every, "latin1: U+0000-00FF written as their byte")
    for k, text in enumerate(texts[:200]):
        data = text.encode("utf-8")
        for mode, flag in (("replace", "--errors=replace"), ("ignore", "-c")):
            code, out = run(["-f", "utf-8", "-t", "latin1", flag], data)
            check(code == 0 and out == text.encode("latin-1", mode),
                  "text %d -> latin1 %s as Python's latin-1 codec" % (k, mode))
        code, out = run(["-f", "utf-8", "-t", "latin1"], data)
        try:
            want = text.encode("latin-1")
            check(code == 0 and out == want, "text %d -> latin1 strict" % k)
        except UnicodeEncodeError as e:
            check(code == 1 and out == text[:e.start].encode("latin-1"),
                  "text %d -> latin1: refused at its first character above U+00FF" % k)
    # Input errors replaced by "?" too (Python: U+FFFD, then its encoder's "?").
    bad = b"a\xc3\xa9\x80b\xe2\x82"
    code, out = run(["-f", "utf-8", "-t", "latin1", "--errors=replace"], bad)
    check(code == 0 and out == bad.decode("utf-8", "replace").encode("latin-1", "replace"),
          "latin1: an input error is \"?\" when replacing")
    code, out = run(["-f", "utf-8", "-t", "latin1", "--bom=add"], b"x")
    check(code == 0 and out == b"x", "latin1: no signature to add")
    iconv = shutil.which("iconv")
    for name in LATIN1_NAMES:
        code, decoded = run(["-f", name, "-t", "utf-8"], every)
        check(code == 0 and decoded == every.decode("latin-1").encode("utf-8"), "-f %s" % name)
        code, out = run(["--from-code=UTF-8", "--to-code=" + name], "h\xe9llo".encode("utf-8"))
        check(code == 0 and out == b"h\xe9llo", "--to-code=%s" % name)
        if iconv:  # the name is iconv's, and means what it means there
            p = subprocess.run([iconv, "-f", name, "-t", "UTF-8"], input=every,
                               capture_output=True)
            check(p.returncode == 0 and p.stdout == decoded, "iconv -f %s agrees" % name)


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
        print("test_beyond: %s is absent: random texts only" % CORPUS)
    for k, text in enumerate(texts):
        for name, codec in (("cesu-8", cesu), ("mutf-8", mutf), ("utf-7-imap", imap_utf7)):
            if name == "utf-7-imap" and len(text) > 4096:
                continue  # mailbox names are short; the corpus is for the others
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
    # WTF-8: lone surrogates are code points (UCS-4 holds them), both ways.
    for k in range(300):
        cps = []
        for _ in range(rng.randrange(0, 40)):
            c = rng.choice([rng.randrange(0, 0x80), rng.randrange(0xD800, 0xE000),
                            rng.randrange(0x80, 0x110000)])
            if cps and 0xD800 <= cps[-1] <= 0xDBFF and 0xDC00 <= c <= 0xDFFF:
                c = 0x41  # a high surrogate followed by a low one is the 4-byte character
            cps.append(c)
        wtf = "".join(map(chr, cps)).encode("utf-8", "surrogatepass")
        ucs4 = b"".join(c.to_bytes(4, "big") for c in cps)
        code, out = run(["-f", "wtf-8", "-t", "ucs-4be"], wtf)
        check(code == 0 and out == ucs4, "wtf-8 %d -> ucs-4be" % k)
        code, out = run(["-f", "ucs-4be", "-t", "wtf-8"], ucs4)
        check(code == 0 and out == wtf, "ucs-4be %d -> wtf-8 as Python spells it" % k)
    code, out = run(["-f", "wtf-8", "-t", "ucs-4be", "--errors=replace"],
                    "\ud800\udc00".encode("utf-8", "surrogatepass"))
    check(code == 0 and out == b"\0\0\xd8\0\0\0\xff\xfd",
          "wtf-8: a low surrogate after a high one is the error")
    # IMAP: the RFC's example, and what it forbids.
    code, out = run(["-f", "utf-7-imap"], b"~peter/mail/&U,BTFw-/&ZeVnLIqe-")
    check(code == 0 and out == "~peter/mail/\u53f0\u5317/\u65e5\u672c\u8a9e".encode("utf-8"),
          "utf-7-imap: RFC 3501's example")
    for bad in (b"&AOk", b"&AOk.", b"&AOk-&AOk-", b"&AGE-", b"a\tb"):
        code, out = run(["-f", "utf-7-imap", "-t", "utf-8"], bad)
        check(code == 1, "utf-7-imap: %r is refused" % bad)
    latin1(run, check, rng, texts)
    print("test_beyond: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
