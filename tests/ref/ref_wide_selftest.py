#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Self-check of the reference UTF-16/UTF-32 decoders (tests/ref/ref_utf16.c,
tests/ref/ref_utf32.c) against CPython's codecs (standard library only).

Usage:  python3 tests/ref/ref_wide_selftest.py BUILD_DIR
        (BUILD_DIR/ref_wide_dump must exist; this script builds nothing)

For utf-16le, utf-16be, utf-32le and utf-32be, on
  (a) hand-written vectors with their expected items written out;
  (b) every single UTF-16 code unit (65,536), every sequence of up to three
      units from a list of boundary units, each also with a trailing odd byte
      (UTF-32: 1-3 trailing bytes), in both byte orders;
  (c) 3,000 random byte strings (random.Random(20261122)) biased towards
      surrogate and out-of-range bytes;
it checks that the reference's items tile the input; that the replacement
decoding they imply equals bytes.decode(ENC, 'replace'); that the error items
are exactly the spans CPython's UnicodeDecodeError reports (WHATWG and
CPython agree on UTF-16: a lone surrogate is one error of 2 bytes, the unit
after a lone high surrogate is decoded anew, whatever is pending at the end
is one error); that every error's kind follows ref_utf16.h / ref_utf32.h;
and (d) that the encoders equal str.encode() on every scalar value.

Last line: "ref_wide_selftest: N passed, M failed"; exit 1 when M > 0.
"""

import codecs
import os
import random
import struct
import subprocess
import sys

ENCODINGS = {"utf-16le": "utf-16-le", "utf-16be": "utf-16-be",
             "utf-32le": "utf-32-le", "utf-32be": "utf-32-be"}

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


def hexs(b):
    return " ".join("%02X" % x for x in b) if b else "(empty)"


# CPython's error spans, collected by an error handler that replaces.
_spans = []


def _record(exc):
    _spans.append((exc.start, exc.end))
    return ("\ufffd", exc.end)


codecs.register_error("ref_wide_record", _record)


def python_view(data, pyenc):
    del _spans[:]
    text = data.decode(pyenc, "ref_wide_record")
    return text, list(_spans)


def expected_kind(enc, item_bytes, at_end=False):
    """The kind ref_utf16.h / ref_utf32.h promise for an ill-formed item: in
    UTF-16 a high surrogate the end cuts from its pair is truncated, as
    Python's "unexpected end of data" has it."""
    if enc.startswith("utf-16"):
        high = 0xD8 <= item_bytes[1 if enc.endswith("le") else 0] <= 0xDB if len(item_bytes) == 2 else False
        return "surrogate" if len(item_bytes) == 2 and not (high and at_end) else "truncated"
    if len(item_bytes) < 4:
        return "truncated"
    v = struct.unpack(">I" if enc.endswith("be") else "<I", item_bytes)[0]
    return "too-large" if v > 0x10FFFF else "surrogate"


def run_records(exe, enc, strings):
    data = b"".join(struct.pack(">H", len(s)) + s for s in strings)
    p = subprocess.run([exe, enc, "--records"], input=data, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    if p.returncode != 0 or p.stderr:
        raise RuntimeError("ref_wide_dump %s --records failed: %s" % (enc, p.stderr[:500]))
    out, cur = [], []
    for line in p.stdout.decode("ascii").splitlines():
        if line == "END":
            out.append(cur)
            cur = []
        else:
            off, n, kind, cp = line.split(" ")
            cur.append((int(off), int(n), kind, int(cp, 16)))
    if len(out) != len(strings):
        raise RuntimeError("ref_wide_dump printed %d records for %d" % (len(out), len(strings)))
    return out


def compare(enc, data, items):
    """Problems (a list of strings) between the reference's items and CPython."""
    pyenc = ENCODINGS[enc]
    problems = []
    pos = 0
    text = []
    spans = []
    for off, n, kind, cp in items:
        if off != pos or not 1 <= n <= 4 or off + n > len(data):
            problems.append("items do not tile: %r at %d" % ((off, n, kind), pos))
            break
        chunk = data[off:off + n]
        if kind == "ok":
            try:
                want = chunk.decode(pyenc)
            except UnicodeDecodeError:
                want = None
            if want is None or len(want) != 1 or ord(want) != cp:
                problems.append("item %s decodes to U+%X, Python says %r" % (hexs(chunk), cp, want))
            text.append(chr(cp))
        else:
            if cp != 0:
                problems.append("error item with a code point")
            want_kind = expected_kind(enc, chunk, off + n == len(data))
            if kind != want_kind:
                problems.append("item %s: kind %s, want %s" % (hexs(chunk), kind, want_kind))
            spans.append((off, off + n))
            text.append("\ufffd")
        pos += n
    if pos != len(data):
        problems.append("items cover %d of %d bytes" % (pos, len(data)))
    ptext, pspans = python_view(data, pyenc)
    if "".join(text) != ptext:
        problems.append("replacement text %r, Python %r" % ("".join(text)[:40], ptext[:40]))
    if spans != pspans:
        problems.append("error spans %r, Python %r" % (spans[:8], pspans[:8]))
    return problems


# (a) hand-written vectors: (encoding, bytes, [(offset, length, kind, cp)])
VECTORS = [
    ("utf-16le", b"A\x00", [(0, 2, "ok", 0x41)]),
    ("utf-16le", b"=\xd8\x00\xde", [(0, 4, "ok", 0x1F600)]),
    ("utf-16be", b"\xd8=\xde\x00", [(0, 4, "ok", 0x1F600)]),
    ("utf-16be", b"\xdb\xff\xdf\xff", [(0, 4, "ok", 0x10FFFF)]),
    ("utf-16le", b"=\xd8A\x00", [(0, 2, "surrogate", 0), (2, 2, "ok", 0x41)]),
    ("utf-16le", b"\x00\xdc", [(0, 2, "surrogate", 0)]),
    ("utf-16le", b"\x00\xdc\x00\xd8", [(0, 2, "surrogate", 0), (2, 2, "truncated", 0)]),
    ("utf-16le", b"=\xd8=\xd8\x00\xde", [(0, 2, "surrogate", 0), (2, 4, "ok", 0x1F600)]),
    ("utf-16le", b"=\xd8", [(0, 2, "truncated", 0)]),
    ("utf-16le", b"=\xd8A", [(0, 3, "truncated", 0)]),
    ("utf-16le", b"A", [(0, 1, "truncated", 0)]),
    ("utf-16be", b"\x00A\x00", [(0, 2, "ok", 0x41), (2, 1, "truncated", 0)]),
    ("utf-16be", b"\xfe\xff", [(0, 2, "ok", 0xFEFF)]),
    ("utf-32le", b"\x00\x00\x11\x00", [(0, 4, "too-large", 0)]),
    ("utf-32be", b"\xff\xff\xff\xff", [(0, 4, "too-large", 0)]),
    ("utf-32be", b"\x00\x10\xff\xff", [(0, 4, "ok", 0x10FFFF)]),
    ("utf-32le", b"\x00\xd8\x00\x00A\x00\x00\x00", [(0, 4, "surrogate", 0), (4, 4, "ok", 0x41)]),
    ("utf-32be", b"\x00\x00\xdf\xff", [(0, 4, "surrogate", 0)]),
    ("utf-32le", b"A\x00\x00", [(0, 3, "truncated", 0)]),
    ("utf-32be", b"\x00\x01\xf6\x00\x00", [(0, 4, "ok", 0x1F600), (4, 1, "truncated", 0)]),
]

UNITS16 = [0x0000, 0x0041, 0x00FF, 0x0100, 0xD7FF, 0xD800, 0xD83D, 0xDBFF, 0xDC00, 0xDE00,
           0xDFFF, 0xE000, 0xFEFF, 0xFFFE, 0xFFFF]
UNITS32 = [0x0, 0x41, 0xD7FF, 0xD800, 0xDFFF, 0xE000, 0xFEFF, 0xFFFF, 0x10000, 0x10FFFF,
           0x110000, 0x1000000, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0x0000DC00]


def structured(enc):
    wide32 = enc.startswith("utf-32")
    fmt = (">" if enc.endswith("be") else "<") + ("I" if wide32 else "H")
    units = UNITS32 if wide32 else UNITS16
    out = []
    if not wide32:
        out += [struct.pack(fmt, u) for u in range(0x10000)]
    seqs = [[]]
    for _ in range(3):
        seqs = [s + [u] for s in seqs for u in units]
        out += [b"".join(struct.pack(fmt, u) for u in s) for s in seqs]
    tails = [b"\x00", b"\xd8", b"\xdc"] + ([b"\x00\x00", b"\x11\x00\x00"] if wide32 else [])
    base = [b""] + [struct.pack(fmt, u) for u in units] + \
           [struct.pack(fmt, a) + struct.pack(fmt, b) for a in units for b in units]
    out += [b + t for b in base for t in tails]
    return out


def random_strings(rng, count):
    pick = [0x00, 0x41, 0xD8, 0xDB, 0xDC, 0xDF, 0x3D, 0xFF, 0xFE, 0x10, 0x11, 0x00, 0x00]
    out = []
    for _ in range(count):
        n = rng.randint(0, 24)
        out.append(bytes(rng.choice(pick) if rng.random() < 0.7 else rng.randrange(256)
                         for _ in range(n)))
    return out


def main():
    if len(sys.argv) != 2:
        print("usage: ref_wide_selftest.py BUILD_DIR")
        print("ref_wide_selftest: 0 passed, 1 failed")
        return 2
    exe = os.path.join(sys.argv[1], "ref_wide_dump")
    if not os.access(exe, os.X_OK):
        print("FAIL: %s is missing" % exe)
        print("ref_wide_selftest: 0 passed, 1 failed")
        return 1
    rng = random.Random(20261122)
    for enc in ENCODINGS:
        vec = [(d, want) for e, d, want in VECTORS if e == enc]
        got = run_records(exe, enc, [d for d, _ in vec])
        for (d, want), items in zip(vec, got):
            check(items == want, "%s [%s]: items %r, want %r" % (enc, hexs(d), items, want))
            for p in compare(enc, d, items):
                check(False, "%s [%s]: %s" % (enc, hexs(d), p))
        strings = structured(enc) + random_strings(rng, 3000)
        got = run_records(exe, enc, strings)
        bad = 0
        for d, items in zip(strings, got):
            problems = compare(enc, d, items)
            if problems:
                bad += 1
                check(False, "%s [%s]: %s" % (enc, hexs(d), "; ".join(problems[:3])))
        check(bad == 0, "%s: %d of %d strings differ from Python" % (enc, bad, len(strings)))
        print("%s: %d strings agree with Python's %s codec" % (enc, len(strings) - bad,
                                                               ENCODINGS[enc]))
        # (d) the encoder, on every scalar value
        p = subprocess.run([exe, enc, "--encode-all"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
        want = "".join(chr(c) for c in range(0x110000)
                       if not 0xD800 <= c <= 0xDFFF).encode(ENCODINGS[enc])
        check(p.returncode == 0 and p.stdout == want,
              "%s: the encoder differs from Python on the scalar values (%s)"
              % (enc, p.stderr.decode(errors="replace")[:200]))
    print("ref_wide_selftest: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
