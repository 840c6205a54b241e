#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Line and column in the CLI's error reports, against Python's decoders.

    python3 tests/cli/test_positions.py BUILD_DIR

The CLI works line and column out only when it reports an error (from a
running count of line feeds and the characters of the current line), so
every report is compared with an oracle that decodes the whole input with
Python's codecs: the byte offset, line and column of each error, a line
ending at U+000A, the column counting characters (an ill-formed subpart
as one, as its U+FFFD). Inputs cross the CLI's chunks everywhere: long
texts with errors near every chunk boundary, lines longer than a chunk,
characters cut between reads of a pipe fed in odd-sized pieces. Each
input encoding Python has: UTF-8, UTF-16LE/BE, UTF-32LE/BE.

Also: `check` with no FILE reads standard input; `check --all` reports
every error and then how many, in how many files; -s silences it all.
"""

import codecs
import os
import random
import re
import subprocess
import threading
import time

from clitest import SHARED, Suite

S = Suite("test_positions")
test, check = S.test, S.check

PYNAME = {"utf-8": "utf-8", "utf-16le": "utf-16-le", "utf-16be": "utf-16-be",
          "utf-32le": "utf-32-le", "utf-32be": "utf-32-be"}
CHUNK = 128 * 1024  # the CLI's read size; the tests do not depend on it
LINE_RE = re.compile(rb"^(.*):(\d+):(\d+): invalid (\S+) \((\S+)\) at byte offset (\d+)$")


def oracle(data, enc):
    """[(offset, line, column)] of every error of data, by Python: between
    two errors the bytes are valid and decode on their own."""
    out = []
    at = {"end": 0, "line": 1, "col": 0}

    def record(e):
        text = data[at["end"]:e.start].decode(PYNAME[enc])
        nl = text.count("\n")
        if nl:
            at["line"] += nl
            at["col"] = len(text) - text.rfind("\n") - 1
        else:
            at["col"] += len(text)
        out.append((e.start, at["line"], at["col"] + 1))
        at["col"] += 1  # the subpart is one character, as its U+FFFD
        at["end"] = e.end
        return ("\ufffd", e.end)

    codecs.register_error("utfdfa-record", record)
    data.decode(PYNAME[enc], "utfdfa-record")
    return out


def reported(stderr):
    got = []
    for ln in stderr.splitlines():
        m = LINE_RE.match(ln)
        if m:
            got.append((int(m.group(6)), int(m.group(2)), int(m.group(3))))
    return got


def encode(text, enc):
    return text.encode(PYNAME[enc], "surrogatepass")


BAD = {"utf-8": [b"\x80", b"\xff", b"\xc0\xaf", b"\xe2\x82", b"\xed\xa0\x80", b"\xf4\x90\x80\x80"],
       "utf-16le": [b"\x00\xdc", b"\x00\xd8"], "utf-16be": [b"\xdc\x00", b"\xd8\x00"],
       "utf-32le": [b"\x00\x00\x11\x00", b"\x00\xd8\x00\x00"],
       "utf-32be": [b"\x00\x11\x00\x00", b"\x00\x00\xd8\x00"]}
CHARS = "abc \u00e9\u00df\u0416\u05d0\u0939\u4e2d\u6587\U0001f600\U00010348\t"


def text_with_errors(rng, enc, size, long_lines=False):
    """Text of about `size` bytes: lines of random length (some longer than
    a chunk when long_lines), random characters, errors here and there."""
    parts, n = [], 0
    while n < size:
        if long_lines and rng.random() < 0.05:
            length = CHUNK + rng.randrange(CHUNK)
        else:
            length = rng.randrange(0, 120)
        piece = encode("".join(rng.choice(CHARS) for _ in range(length)), enc)
        if rng.random() < 0.3:
            cut = rng.randrange(0, len(piece) + 1)
            unit = 1 if enc == "utf-8" else 2 if "16" in enc else 4
            cut -= cut % unit
            piece = piece[:cut] + rng.choice(BAD[enc]) + piece[cut:]
        piece += encode("\n", enc)
        parts.append(piece)
        n += len(piece)
    return b"".join(parts)


def compare(data, enc, what, feed=None):
    """check --all on data (a file, or a pipe fed by `feed`) against the oracle."""
    want = oracle(data, enc)
    if feed is None:
        f = S.path("positions.in", data)
        p = S.run(["check", "--all", "-f", enc, f])
    else:
        p = feed(["check", "--all", "-f", enc], data)
    got = reported(p.stderr)
    ok = check(got == want, "%s (%s, %d bytes): check --all reports every error with its "
               "offset, line and column" % (what, enc, len(data)),
               next(((g, w) for g, w in zip(got + [None] * len(want), want) if g != w),
                    (len(got), len(want))))
    check(p.returncode == (1 if want else 0), "%s (%s): exit status" % (what, enc), p.returncode)
    return ok


def fed_in_pieces(args, data, sizes=(1, 2, 3, 4097, 7, 65539)):
    """Run with data written to a pipe in odd-sized pieces, each flushed and
    given time to be read on its own."""
    p = subprocess.Popen([S.bin] + args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    out = {}

    def drain(name, f):
        out[name] = f.read()

    ts = [threading.Thread(target=drain, args=("out", p.stdout)),
          threading.Thread(target=drain, args=("err", p.stderr))]
    for t in ts:
        t.start()
    i, k = 0, 0
    while i < len(data):
        n = sizes[k % len(sizes)]
        p.stdin.write(data[i:i + n])
        p.stdin.flush()
        i += n
        k += 1
        if k % 5 == 0:
            time.sleep(0.001)
    p.stdin.close()
    rc = p.wait(timeout=120)
    for t in ts:
        t.join()
    return subprocess.CompletedProcess(args, rc, out["out"], out["err"])


@test
def kuhn_stress_test():
    kuhn = os.path.join(SHARED, "conformance", "UTF-8-test.txt")
    if not os.path.exists(kuhn):
        S.note("%s is absent: Kuhn's test skipped" % kuhn)
        return
    with open(kuhn, "rb") as f:
        data = f.read()
    compare(data, "utf-8", "Kuhn's UTF-8 stress test")


@test
def random_texts_every_encoding():
    for enc in PYNAME:
        rng = random.Random(hash(enc) & 0xFFFF)
        compare(text_with_errors(rng, enc, 5 * CHUNK), enc, "random text")
        compare(text_with_errors(rng, enc, 4 * CHUNK, long_lines=True), enc,
                "lines longer than a chunk")


@test
def errors_at_every_place_around_chunk_ends():
    # One error, placed at each byte around where chunks end, in a text of
    # short lines and multi-byte characters; the first error's report of
    # the transcoder (strict) too.
    for enc in ("utf-8", "utf-16le", "utf-32be"):
        unit = 1 if enc == "utf-8" else 2 if "16" in enc else 4
        base = encode(("\u00e9t\u00e9 \u4e2d\U0001f600\n" * 40000), enc)
        for end in (CHUNK, 2 * CHUNK, 3 * CHUNK):
            for delta in range(-8 * unit, 8 * unit, unit):
                at = end + delta
                data = base[:at] + BAD[enc][0] + base[at:]
                want = oracle(data, enc)
                p = S.run(["-f", enc, "-t", "utf-16le", S.path("one.in", data)])
                m = re.search(rb"at byte offset (\d+), line (\d+), column (\d+)", p.stderr)
                got = (int(m.group(1)), int(m.group(2)), int(m.group(3))) if m else None
                check(got == want[0], "%s, error at byte %d: the transcoder's message" %
                      (enc, at), (got, want[0]))
            compare(base[:end] + BAD[enc][-1] + base[end:], enc, "error at a chunk end")


@test
def pipe_fed_in_odd_pieces():
    for enc in ("utf-8", "utf-16be", "utf-32le"):
        rng = random.Random(7)
        data = text_with_errors(rng, enc, 300000)
        compare(data, enc, "a pipe fed in odd-sized pieces", feed=fed_in_pieces)


@test
def bom_and_signature_columns():
    # A kept BOM is a character; one stripped (UTF-16 without a byte order) is not.
    p = S.run(["check", "-f", "utf-8"], b"\xef\xbb\xbfab\x80")
    check(reported(p.stderr) == [(3 + 2, 1, 4)], "utf-8 BOM kept: a column of its own",
          p.stderr)
    p = S.run(["check", "-f", "utf-16"], b"\xff\xfea\x00\x00\xdc")
    check(reported(p.stderr) == [(4, 1, 2)], "UTF-16's BOM decides the order, no column",
          p.stderr)


@test
def errors_at_the_very_start():
    for enc in PYNAME:
        for bad in BAD[enc]:
            data = bad + encode("ab\ncd", enc) + bad
            compare(data, enc, "an error in the first bytes")


@test
def utf7_family_and_signature_lines():
    # Where a line feed is not one byte that means nothing else, lines are
    # counted on the decoded text: UTF-7 may write U+000A in base64 ("+AAo-"),
    # IMAP's UTF-7 always does ("&AAo-"), Corrected UTF-8's magic number ends
    # in 0A (no line when it is stripped, the default for that input).
    cases = [(["-f", "utf-7-imap"], b"a&-b&-c\xff", 1, 6),
             (["-f", "utf-7"], b"a+AAo-b\xff", 2, 2),
             (["-f", "utf-7"], b"a\nb+AAoAYQ-c\xff", 3, 3),
             (["-f", "corrected-utf-8"], b"\xef\xb7\x9d\xed\xb2\xae\x00\x0aab\xc0", 1, 3),
             (["-f", "corrected-utf-8", "--bom=keep"],
              b"\xef\xb7\x9d\xed\xb2\xae\x00\x0aab\xc0", 2, 3)]
    for args, data, line, col in cases:
        for how, p in (("file", S.run(args + [S.path("u7.in", data)])),
                       ("pipe", S.run(args, data))):
            m = re.search(rb"line (\d+), column (\d+)", p.stderr)
            check(m and (int(m.group(1)), int(m.group(2))) == (line, col),
                  "%s %r (%s): line %d, column %d" % (" ".join(args), data, how, line, col),
                  p.stderr)
    # Long UTF-7 text: pieces Python encodes (each ends its runs), an FF
    # between them (an error of its own); Python decodes each piece.
    rng = random.Random(11)
    pieces = ["".join(rng.choice(CHARS + "\n\n") for _ in range(rng.randrange(1, 3000)))
              for _ in range(200)]
    data = b"\xff".join(t.encode("utf-7") for t in pieces)
    want, line, col, at = [], 1, 0, 0
    for t in pieces[:-1]:
        at += len(t.encode("utf-7"))
        nl = t.count("\n")
        line, col = (line + nl, len(t) - t.rfind("\n") - 1) if nl else (line, col + len(t))
        want.append((at, line, col + 1))
        col += 1
        at += 1
    for how, p in (("file", S.run(["check", "--all", "-f", "utf-7", S.path("u7.in", data)])),
                   ("pipe", fed_in_pieces(["check", "--all", "-f", "utf-7"], data))):
        got = reported(p.stderr)
        check(got == want, "UTF-7, %d bytes through a %s: every error's line and column"
              % (len(data), how), next(((g, w) for g, w in zip(got, want) if g != w),
                                       (len(got), len(want))))


@test
def check_reads_standard_input():
    data = "ok\nb\u00e9d ".encode() + b"\xff\n"
    p = S.run(["check"], data)
    check(p.returncode == 1, "check without FILE: standard input, exit 1", p.returncode)
    check(p.stderr == b"<stdin>:2:5: invalid utf-8 (invalid-lead) at byte offset 8\n",
          "check without FILE: <stdin> in the message", p.stderr)
    p = S.run(["check"], b"fine\n")
    check(p.returncode == 0 and p.stderr == b"", "check without FILE, valid: exit 0, quiet",
          (p.returncode, p.stderr))


@test
def check_all_counts():
    a = S.path("a.txt", b"x\x80y\x80\n\xff")
    b = S.path("b.txt", b"fine\n")
    c = S.path("c.txt", b"ab\xff")
    p = S.run(["check", "--all", a, b, c])
    lines = p.stderr.decode().splitlines()
    check(p.returncode == 1, "check --all: exit 1", p.returncode)
    check(len(lines) == 5 and lines[-1] == "utfdfa: check: 4 errors in 2 of 3 files",
          "check --all: every error, then how many in how many files", lines)
    p = S.run(["check", a, b, c])
    check(len(p.stderr.splitlines()) == 2, "check without --all: one line per invalid file",
          p.stderr)
    p = S.run(["check", "--all", "-s", a, b, c])
    check(p.returncode == 1 and p.stderr == b"", "check --all -s: silent, exit 1",
          (p.returncode, p.stderr))


if __name__ == "__main__":
    S.main()
