#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Self-check of the reference UTF-8 oracle (tests/ref/ref_utf8.c).

Usage:  python3 tests/ref/ref_selftest.py BUILD_DIR

BUILD_DIR must contain the compiled helper BUILD_DIR/ref_dump (built from
tests/ref/ref_utf8.c + tests/ref/ref_dump.c); this script builds nothing.

The oracle is compared against an independent second opinion, CPython's own
UTF-8 codec (standard library only), which implements the Unicode
"U+FFFD substitution of maximal subparts" practice:

  (a) hand-picked vectors with explicitly written expected items
      (offset/length/kind/code point): every boundary of Unicode Table 3-7,
      overlong / surrogate / too-large / invalid-lead / truncated examples,
      the CESU-8 pair from RFC 3629 section 3, the RFC 3629 section 7 and
      section 10 examples and the Unicode section 3.9 example;
  (b) exhaustively: every 1-byte string, every 2-byte string and every
      3-byte string whose first byte is E0..EF;
  (c) 2000 random byte strings from random.Random(20261122);
  (d) the encoder: every scalar value 0..10FFFF against chr(cp).encode(),
      plus rejected values and a decode round trip of all encodings.

For every decoded string (a, b, c) it checks that
  - the items tile the string exactly (lengths 1..4, errors have CP 0);
  - the replacement decoding implied by the items (OK -> chr(cp),
    error -> U+FFFD) equals bytes.decode('utf-8', 'replace');
  - every OK item equals Python's strict decode of its bytes;
  - the error items are exactly the maximal subparts CPython reports
    (start/end of each UnicodeDecodeError), and
  - each error kind is the one the kind table prescribes (computed here
    from the first two bytes) and non-truncated errors have length 1.

Strings in (a) are each decoded by a separate run of ref_dump reading stdin
(so the end of input is the real end of the input); (b) and (c) use
`ref_dump --records`, which decodes each record from its own exactly-sized
buffer, so every string's end is again a real end of input.

Prints a final line "ref_selftest: N passed, M failed"; exit status 1 if
M > 0.
"""

import codecs
import os
import random
import subprocess
import sys

KIND_NAMES = (
    "ok",
    "unexpected-continuation",
    "invalid-lead",
    "overlong",
    "surrogate",
    "too-large",
    "truncated",
)

MAX_MESSAGES = 40


class Tally:
    def __init__(self):
        self.passed = 0
        self.failed = 0
        self.messages = 0

    def ok(self, count=1):
        self.passed += count

    def fail(self, what, problems):
        self.failed += 1
        if self.messages < MAX_MESSAGES:
            print("FAIL: %s" % what)
            for p in problems[:8]:
                print("    %s" % p)
        elif self.messages == MAX_MESSAGES:
            print("(further failure messages suppressed)")
        self.messages += 1

    def check(self, what, problems):
        if problems:
            self.fail(what, problems)
        else:
            self.ok()


def hexs(b):
    return " ".join("%02X" % x for x in b) if b else "(empty)"


# ---------------------------------------------------------------------------
# Running ref_dump

class DumpError(Exception):
    pass


def run_dump(exe, args, data):
    proc = subprocess.run([exe] + args, input=data, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE)
    cmd = " ".join(["ref_dump"] + args[:3] + (["..."] if len(args) > 3 else []))
    if proc.returncode != 0:
        raise DumpError("%s exited with status %d; stderr: %s"
                        % (cmd, proc.returncode,
                           proc.stderr.decode("utf-8", "replace")[:2000]))
    if proc.stderr:
        raise DumpError("%s wrote to stderr: %s"
                        % (cmd, proc.stderr.decode("utf-8", "replace")[:2000]))
    return proc.stdout


_KIND_BY_BYTES = {name.encode("ascii"): name for name in KIND_NAMES}


def parse_line(line):
    try:
        off, n, kind, cp = line.split(b" ")
        return (int(off), int(n), _KIND_BY_BYTES.get(kind) or kind.decode("ascii"),
                int(cp, 16))
    except ValueError:
        raise DumpError("malformed ref_dump line: %r" % line)


def parse_plain(out):
    lines = out.split(b"\n")
    if lines[-1] != b"":
        raise DumpError("ref_dump output does not end with a newline")
    return [parse_line(line) for line in lines[:-1]]


def parse_records(out, count):
    lines = out.split(b"\n")
    if lines[-1] != b"":
        raise DumpError("ref_dump --records output does not end with a newline")
    records = []
    cur = []
    for line in lines[:-1]:
        if line == b"END":
            records.append(cur)
            cur = []
        else:
            cur.append(parse_line(line))
    if cur:
        raise DumpError("ref_dump --records output: items after the last END")
    if len(records) != count:
        raise DumpError("ref_dump --records: %d records in, %d out"
                        % (count, len(records)))
    return records


def dump_plain(exe, s):
    return parse_plain(run_dump(exe, [], s))


def dump_records(exe, strings):
    parts = []
    for s in strings:
        assert len(s) <= 255
        parts.append(bytes([len(s)]))
        parts.append(s)
    return parse_records(run_dump(exe, ["--records"], b"".join(parts)),
                         len(strings))


# ---------------------------------------------------------------------------
# The second opinion: CPython's codec + the kind table of the spec

_spans = []


def _record_error(exc):
    _spans.append((exc.start, exc.end))
    return ("\ufffd", exc.end)


codecs.register_error("ref_selftest_record", _record_error)


def table_kind(s, i):
    """Error kind of an ill-formed item starting at s[i], per the kind table."""
    b0 = s[i]
    b1 = s[i + 1] if i + 1 < len(s) else None
    if 0x80 <= b0 <= 0xBF:
        return "unexpected-continuation"
    if b0 in (0xC0, 0xC1):
        return "overlong"
    if 0xF5 <= b0 <= 0xF7:
        return "too-large"
    if 0xF8 <= b0 <= 0xFF:
        return "invalid-lead"
    if b1 is not None:
        if b0 == 0xE0 and 0x80 <= b1 <= 0x9F:
            return "overlong"
        if b0 == 0xF0 and 0x80 <= b1 <= 0x8F:
            return "overlong"
        if b0 == 0xED and 0xA0 <= b1 <= 0xBF:
            return "surrogate"
        if b0 == 0xF4 and 0x90 <= b1 <= 0xBF:
            return "too-large"
    return "truncated"


def python_items(s):
    """Expected items (offset, len, kind, cp) from CPython's codec."""
    del _spans[:]
    s.decode("utf-8", "ref_selftest_record")
    spans = list(_spans)
    items = []
    pos = 0
    for start, end in spans + [(len(s), None)]:
        for ch in s[pos:start].decode("utf-8"):
            n = len(ch.encode("utf-8"))
            items.append((pos, n, "ok", ord(ch)))
            pos += n
        if end is None:
            break
        items.append((start, end - start, table_kind(s, start), 0))
        pos = end
    return items


def check_string(s, items):
    """All generic checks of the oracle's items for byte string s."""
    problems = []
    pos = 0
    for (off, n, kind, cp) in items:
        if off != pos:
            problems.append("item at offset %d, expected offset %d" % (off, pos))
        if not 1 <= n <= 4:
            problems.append("item at %d has length %d" % (off, n))
        if kind not in KIND_NAMES:
            problems.append("item at %d has unknown kind %r" % (off, kind))
        if kind != "ok" and cp != 0:
            problems.append("error item at %d has CP %X, not 0" % (off, cp))
        if kind == "ok":
            if not (0 <= cp <= 0x10FFFF) or 0xD800 <= cp <= 0xDFFF:
                problems.append("OK item at %d has non-scalar CP %X" % (off, cp))
            else:
                chunk = s[off:off + n]
                try:
                    strict = chunk.decode("utf-8")
                except UnicodeDecodeError as e:
                    problems.append("OK item at %d (%s) is not strictly valid: %s"
                                    % (off, hexs(chunk), e))
                else:
                    if strict != chr(cp):
                        problems.append("OK item at %d (%s): CP %X but strict decode "
                                        "gives %s" % (off, hexs(chunk), cp,
                                                      " ".join("%X" % ord(c) for c in strict)))
        pos = off + n
    if pos != len(s):
        problems.append("items cover %d bytes, string has %d" % (pos, len(s)))
    if problems:
        return problems

    replaced = "".join(chr(cp) if kind == "ok" else "\ufffd"
                       for (off, n, kind, cp) in items)
    expected = s.decode("utf-8", "replace")
    if replaced != expected:
        problems.append("replacement decoding %s != Python's %s"
                        % (ascii(replaced), ascii(expected)))

    want = python_items(s)
    if items != want:
        problems.append("items %s" % items)
        problems.append("expected %s" % want)
    return problems


# ---------------------------------------------------------------------------
# (a) Hand-picked vectors: (hex bytes, [(len, kind, cp), ...])

OK = "ok"
UC = "unexpected-continuation"
IL = "invalid-lead"
OL = "overlong"
SU = "surrogate"
TL = "too-large"
TR = "truncated"


def ok(n, cp):
    return (n, OK, cp)


def err(kind, n=1):
    return (n, kind, 0)


VECTORS = [
    # empty input: no items
    ("", []),
    # --- Table 3-7 row 1: 00..7F
    ("00", [ok(1, 0x00)]),
    ("7F", [ok(1, 0x7F)]),
    ("00 00", [ok(1, 0), ok(1, 0)]),
    # --- continuation bytes where a character must start
    ("80", [err(UC)]),
    ("BF", [err(UC)]),
    ("80 BF", [err(UC), err(UC)]),
    # --- C0, C1: always overlong
    ("C0", [err(OL)]),
    ("C1", [err(OL)]),
    ("C0 80", [err(OL), err(UC)]),
    ("C0 AF", [err(OL), err(UC)]),
    ("C1 BF", [err(OL), err(UC)]),
    ("C0 41", [err(OL), ok(1, 0x41)]),
    # --- row 2: C2..DF 80..BF
    ("C2 80", [ok(2, 0x80)]),
    ("C2 BF", [ok(2, 0xBF)]),
    ("DF 80", [ok(2, 0x7C0)]),
    ("DF BF", [ok(2, 0x7FF)]),
    ("C2", [err(TR)]),
    ("DF", [err(TR)]),
    ("C2 7F", [err(TR), ok(1, 0x7F)]),
    ("C2 C0", [err(TR), err(OL)]),
    ("C2 C2 80", [err(TR), ok(2, 0x80)]),
    # --- row 3: E0 A0..BF 80..BF
    ("E0 A0 80", [ok(3, 0x800)]),
    ("E0 BF BF", [ok(3, 0xFFF)]),
    ("E0 80 80", [err(OL), err(UC), err(UC)]),
    ("E0 9F BF", [err(OL), err(UC), err(UC)]),
    ("E0 80", [err(OL), err(UC)]),
    ("E0 9F", [err(OL), err(UC)]),
    ("E0", [err(TR)]),
    ("E0 A0", [err(TR, 2)]),
    ("E0 41", [err(TR), ok(1, 0x41)]),
    ("E0 C0", [err(TR), err(OL)]),
    ("E0 A0 C0", [err(TR, 2), err(OL)]),
    ("E0 A0 41", [err(TR, 2), ok(1, 0x41)]),
    # --- row 4: E1..EC 80..BF 80..BF
    ("E1 80 80", [ok(3, 0x1000)]),
    ("EC BF BF", [ok(3, 0xCFFF)]),
    ("E1", [err(TR)]),
    ("E1 80", [err(TR, 2)]),
    ("E2 82 41", [err(TR, 2), ok(1, 0x41)]),
    ("E2", [err(TR)]),
    ("E2 82", [err(TR, 2)]),
    ("E2 82 AC", [ok(3, 0x20AC)]),
    ("EC C0 80", [err(TR), err(OL), err(UC)]),
    # --- row 5: ED 80..9F 80..BF (surrogates excluded)
    ("ED 80 80", [ok(3, 0xD000)]),
    ("ED 9F BF", [ok(3, 0xD7FF)]),
    ("ED A0 80", [err(SU), err(UC), err(UC)]),
    ("ED BF BF", [err(SU), err(UC), err(UC)]),
    ("ED A0", [err(SU), err(UC)]),
    ("ED", [err(TR)]),
    ("ED 9F", [err(TR, 2)]),
    ("ED 41", [err(TR), ok(1, 0x41)]),
    ("ED C0", [err(TR), err(OL)]),
    ("ED 9F C0", [err(TR, 2), err(OL)]),
    # CESU-8 form of U+233B4 (RFC 3629 section 3)
    ("ED A1 8C ED BE B4", [err(SU), err(UC), err(UC), err(SU), err(UC), err(UC)]),
    # --- row 6: EE..EF 80..BF 80..BF
    ("EE 80 80", [ok(3, 0xE000)]),
    ("EF BF BF", [ok(3, 0xFFFF)]),
    ("EF BF BD", [ok(3, 0xFFFD)]),
    ("EF BB BF", [ok(3, 0xFEFF)]),
    ("EF BF", [err(TR, 2)]),
    # --- row 7: F0 90..BF 80..BF 80..BF
    ("F0 90 80 80", [ok(4, 0x10000)]),
    ("F0 BF BF BF", [ok(4, 0x3FFFF)]),
    ("F0 80 80 80", [err(OL), err(UC), err(UC), err(UC)]),
    ("F0 8F BF BF", [err(OL), err(UC), err(UC), err(UC)]),
    ("F0 80", [err(OL), err(UC)]),
    ("F0", [err(TR)]),
    ("F0 90", [err(TR, 2)]),
    ("F0 90 80", [err(TR, 3)]),
    ("F0 41", [err(TR), ok(1, 0x41)]),
    ("F0 9F 41", [err(TR, 2), ok(1, 0x41)]),
    ("F0 9F 98", [err(TR, 3)]),
    ("F0 9F 98 41", [err(TR, 3), ok(1, 0x41)]),
    ("F0 9F 98 80", [ok(4, 0x1F600)]),
    ("F0 90 80 C0", [err(TR, 3), err(OL)]),
    # --- row 8: F1..F3 80..BF 80..BF 80..BF
    ("F1 80 80 80", [ok(4, 0x40000)]),
    ("F3 BF BF BF", [ok(4, 0xFFFFF)]),
    ("F1", [err(TR)]),
    ("F3 BF BF", [err(TR, 3)]),
    ("F1 C0", [err(TR), err(OL)]),
    # --- row 9: F4 80..8F 80..BF 80..BF
    ("F4 80 80 80", [ok(4, 0x100000)]),
    ("F4 8F BF BF", [ok(4, 0x10FFFF)]),
    ("F4 90 80 80", [err(TL), err(UC), err(UC), err(UC)]),
    ("F4 BF BF BF", [err(TL), err(UC), err(UC), err(UC)]),
    ("F4 90", [err(TL), err(UC)]),
    ("F4", [err(TR)]),
    ("F4 8F", [err(TR, 2)]),
    ("F4 8F BF", [err(TR, 3)]),
    ("F4 41", [err(TR), ok(1, 0x41)]),
    ("F4 C0", [err(TR), err(OL)]),
    # --- F5..F7: beyond U+10FFFF
    ("F5", [err(TL)]),
    ("F5 80 80 80", [err(TL), err(UC), err(UC), err(UC)]),
    ("F7 BF BF BF", [err(TL), err(UC), err(UC), err(UC)]),
    # --- F8..FF: never valid
    ("F8", [err(IL)]),
    ("F8 88 80 80 80", [err(IL), err(UC), err(UC), err(UC), err(UC)]),
    ("FB BF BF BF BF", [err(IL), err(UC), err(UC), err(UC), err(UC)]),
    ("FC 84 80 80 80 80", [err(IL), err(UC), err(UC), err(UC), err(UC), err(UC)]),
    ("FD BF BF BF BF BF", [err(IL), err(UC), err(UC), err(UC), err(UC), err(UC)]),
    ("FE", [err(IL)]),
    ("FF", [err(IL)]),
    ("FE FF", [err(IL), err(IL)]),
    # --- Unicode section 3.9 example: a FFFD FFFD FFFD b FFFD c FFFD FFFD d
    ("61 F1 80 80 E1 80 C2 62 80 63 80 BF 64",
     [ok(1, 0x61), err(TR, 3), err(TR, 2), err(TR), ok(1, 0x62), err(UC),
      ok(1, 0x63), err(UC), err(UC), ok(1, 0x64)]),
    # --- RFC 3629 section 10: "/../" smuggled with an overlong dot
    ("2F C0 AE 2E 2F", [ok(1, 0x2F), err(OL), err(UC), ok(1, 0x2E), ok(1, 0x2F)]),
    # --- RFC 3629 section 7 examples
    ("41 E2 89 A2 CE 91 2E", [ok(1, 0x41), ok(3, 0x2262), ok(2, 0x391), ok(1, 0x2E)]),
    ("ED 95 9C EA B5 AD EC 96 B4", [ok(3, 0xD55C), ok(3, 0xAD6D), ok(3, 0xC5B4)]),
    ("E6 97 A5 E6 9C AC E8 AA 9E", [ok(3, 0x65E5), ok(3, 0x672C), ok(3, 0x8A9E)]),
    ("EF BB BF F0 A3 8E B4", [ok(3, 0xFEFF), ok(4, 0x233B4)]),
    # --- 5-/6-byte ISO 10646 forms of small values and of U+10FFFF + 1
    ("F8 80 80 80 AF", [err(IL), err(UC), err(UC), err(UC), err(UC)]),
    ("F4 90 80 80 41", [err(TL), err(UC), err(UC), err(UC), ok(1, 0x41)]),
]


def expected_with_offsets(spec):
    out = []
    pos = 0
    for (n, kind, cp) in spec:
        out.append((pos, n, kind, cp))
        pos += n
    return out


def test_vectors(exe, tally):
    strings = []
    plain_results = []
    for hx, spec in VECTORS:
        s = bytes.fromhex(hx)
        strings.append(s)
        what = "vector %s" % hexs(s)
        try:
            items = dump_plain(exe, s)
        except DumpError as e:
            tally.fail(what, [str(e)])
            plain_results.append(None)
            continue
        plain_results.append(items)
        problems = []
        want = expected_with_offsets(spec)
        if items != want:
            problems.append("items    %s" % items)
            problems.append("expected %s" % want)
        problems += check_string(s, items)
        tally.check(what, problems)

    # The same vectors through --records must give the same items.
    try:
        rec = dump_records(exe, strings)
    except DumpError as e:
        tally.fail("vectors via --records", [str(e)])
        return
    problems = []
    for s, a, b in zip(strings, plain_results, rec):
        if a is not None and a != b:
            problems.append("%s: plain %s, --records %s" % (hexs(s), a, b))
    tally.check("vectors via --records agree with plain mode", problems)


def test_kind_names(exe, tally):
    """Kind names for a handful of vectors, one per kind (and per rule)."""
    cases = [
        ("41", "ok"),
        ("80", "unexpected-continuation"),
        ("BF", "unexpected-continuation"),
        ("F8", "invalid-lead"),
        ("FF", "invalid-lead"),
        ("C0 80", "overlong"),
        ("C1 BF", "overlong"),
        ("E0 80 80", "overlong"),
        ("E0 9F BF", "overlong"),
        ("F0 80 80 80", "overlong"),
        ("F0 8F BF BF", "overlong"),
        ("ED A0 80", "surrogate"),
        ("ED BF BF", "surrogate"),
        ("F5 80 80 80", "too-large"),
        ("F7 BF BF BF", "too-large"),
        ("F4 90 80 80", "too-large"),
        ("F4 BF BF BF", "too-large"),
        ("E2 82 41", "truncated"),
        ("E2", "truncated"),
        ("E0 41", "truncated"),
        ("ED C0", "truncated"),
        ("F4", "truncated"),
        ("F0 9F 98", "truncated"),
    ]
    for hx, name in cases:
        s = bytes.fromhex(hx)
        what = "kind name of first item of %s" % hexs(s)
        try:
            items = dump_plain(exe, s)
        except DumpError as e:
            tally.fail(what, [str(e)])
            continue
        if not items or items[0][2] != name:
            tally.fail(what, ["got %s, expected %r" % (items[:1], name)])
        else:
            tally.ok()


# ---------------------------------------------------------------------------
# (b) exhaustive, (c) random

def check_batch(exe, tally, label, strings):
    try:
        records = dump_records(exe, strings)
    except DumpError as e:
        tally.fail(label, [str(e)])
        return
    for s, items in zip(strings, records):
        problems = check_string(s, items)
        if problems:
            tally.fail("%s: %s" % (label, hexs(s)), problems)
        else:
            tally.ok()


def test_exhaustive(exe, tally):
    check_batch(exe, tally, "1-byte", [bytes([a]) for a in range(256)])
    check_batch(exe, tally, "2-byte",
                [bytes([a, b]) for a in range(256) for b in range(256)])
    for lead in range(0xE0, 0xF0):
        check_batch(exe, tally, "3-byte %02X" % lead,
                    [bytes([lead, b, c]) for b in range(256) for c in range(256)])


def random_string(rng):
    n = rng.randint(0, 64)
    out = bytearray()
    while len(out) < n:
        r = rng.random()
        if r < 0.10:
            out.append(rng.randint(0x00, 0x7F))          # ASCII
        elif r < 0.40:
            out.append(rng.randint(0x80, 0xBF))          # continuation
        elif r < 0.55:                                   # the interesting leads
            out.append(rng.choice((0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xED, 0xEF,
                                   0xF0, 0xF4, 0xF5, 0xF7, 0xF8, 0xFF)))
        elif r < 0.75:
            out.append(rng.randint(0xC0, 0xFF))          # any lead
        else:                                            # a whole character,
            length = rng.choice((2, 3, 3, 4, 4))         # sometimes cut short
            if length == 2:
                cp = rng.randint(0x80, 0x7FF)
            elif length == 3:
                cp = rng.choice((rng.randint(0x800, 0xD7FF), rng.randint(0xE000, 0xFFFF)))
            else:
                cp = rng.randint(0x10000, 0x10FFFF)
            enc = chr(cp).encode("utf-8")
            if rng.random() < 0.3:
                enc = enc[:rng.randint(1, len(enc) - 1)]
            out += enc
    return bytes(out[:n])


def test_random(exe, tally):
    rng = random.Random(20261122)
    strings = [random_string(rng) for _ in range(2000)]
    check_batch(exe, tally, "random", strings)


# ---------------------------------------------------------------------------
# (d) encoder

def scalar_values():
    return [cp for cp in range(0x110000) if not 0xD800 <= cp <= 0xDFFF]


def test_encoder(exe, tally):
    scalars = scalar_values()
    expected = b"".join(chr(cp).encode("utf-8") for cp in scalars)
    try:
        got = run_dump(exe, ["--encode-all"], b"")
    except DumpError as e:
        tally.fail("--encode-all", [str(e)])
        got = None
    if got is not None:
        if got == expected:
            tally.ok()
        else:
            problems = ["output %d bytes, expected %d" % (len(got), len(expected))]
            pos = 0
            for cp in scalars:
                enc = chr(cp).encode("utf-8")
                if got[pos:pos + len(enc)] != enc:
                    problems.append("first mismatch at U+%04X: expected %s, got %s"
                                    % (cp, hexs(enc), hexs(got[pos:pos + 4])))
                    break
                pos += len(enc)
            tally.fail("--encode-all equals Python's encodings", problems)

        # Round trip: decoding all encodings gives every scalar value in order.
        try:
            items = dump_plain(exe, got)
        except DumpError as e:
            tally.fail("decode of --encode-all output", [str(e)])
        else:
            problems = []
            if len(items) != len(scalars):
                problems.append("%d items, expected %d" % (len(items), len(scalars)))
            pos = 0
            for (off, n, kind, cp), want in zip(items, scalars):
                wlen = len(chr(want).encode("utf-8"))
                if (off, n, kind, cp) != (pos, wlen, "ok", want):
                    problems.append("item %s, expected %s"
                                    % ((off, n, kind, cp), (pos, wlen, "ok", want)))
                    break
                pos += n
            tally.check("round trip decode of all scalar values", problems)

    # Explicit values, including the ones that must be rejected.
    cases = [
        (0x0, "00"), (0x41, "41"), (0x7F, "7F"),
        (0x80, "C280"), (0x7FF, "DFBF"),
        (0x800, "E0A080"), (0xFFF, "E0BFBF"), (0x1000, "E18080"),
        (0xCFFF, "ECBFBF"), (0xD000, "ED8080"), (0xD7FF, "ED9FBF"),
        (0xD800, "none"), (0xDBFF, "none"), (0xDC00, "none"), (0xDFFF, "none"),
        (0xE000, "EE8080"), (0xFFFD, "EFBFBD"), (0xFFFF, "EFBFBF"),
        (0x10000, "F0908080"), (0x3FFFF, "F0BFBFBF"), (0x40000, "F1808080"),
        (0xFFFFF, "F3BFBFBF"), (0x100000, "F4808080"), (0x10FFFF, "F48FBFBF"),
        (0x233B4, "F0A38EB4"),
        (0x110000, "none"), (0x1FFFFF, "none"), (0x200000, "none"),
        (0x7FFFFFFF, "none"), (0x80000000, "none"), (0xFFFFFFFF, "none"),
    ]
    args = ["%X" % cp for cp, _ in cases]
    try:
        out = run_dump(exe, ["--encode"] + args, b"")
    except DumpError as e:
        tally.fail("--encode", [str(e)])
        return
    lines = out.decode("ascii").split("\n")
    if lines[-1] != "" or len(lines) - 1 != len(cases):
        tally.fail("--encode", ["unexpected output %r" % out[:500]])
        return
    for (cp, want), line in zip(cases, lines):
        tally.check("encode U+%04X" % cp,
                    [] if line == "%X %s" % (cp, want)
                    else ["got %r, expected %r" % (line, "%X %s" % (cp, want))])


# ---------------------------------------------------------------------------

def main(argv):
    if len(argv) != 2:
        print("usage: %s BUILD_DIR" % argv[0], file=sys.stderr)
        return 2
    exe = os.path.join(argv[1], "ref_dump")
    tally = Tally()
    if not (os.path.isfile(exe) and os.access(exe, os.X_OK)):
        tally.fail("helper", ["%s does not exist or is not executable" % exe])
    else:
        test_vectors(exe, tally)
        test_kind_names(exe, tally)
        test_exhaustive(exe, tally)
        test_random(exe, tally)
        test_encoder(exe, tally)
    print("ref_selftest: %d passed, %d failed" % (tally.passed, tally.failed))
    return 1 if tally.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
