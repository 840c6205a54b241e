#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Acceptance tests for the utfdfa command-line tool.

    python3 tests/cli/test_cli.py BUILD_DIR      (BUILD_DIR/utfdfa is the binary)

The tests follow the CLI contract (the project's issue), not the code:

  utfdfa [-f FROM] [-t TO] [--errors=strict|replace|ignore] [--bom=keep|strip|add]
         [-c] [-o OUT] [FILE...]
  utfdfa check [-f FROM] FILE...
  utfdfa -l | --help | --version

  exit 0 ok; 1 invalid input (strict, check), or a FILE that cannot be opened
  (missing, unreadable, a directory: the others are still converted, as iconv
  and cat do); 2 usage error (unknown encoding or option, -o naming an
  input); 3 I/O error (e.g. -o /dev/full, a closed pipe).

  strict:  "utfdfa: FILE: invalid ENC (KIND) at byte offset N, line L, column C"
  check:   "FILE:L:C: invalid ENC (KIND) at byte offset N"
  replace/ignore: identical to Python's bytes.decode(ENC, 'replace'/'ignore').

Python 3 standard library only. Every check is counted; the last line printed
is exactly "test_cli: N passed, M failed" and the exit status is 1 when M > 0.
Data that lives outside the repository (../shared/corpus, ../shared/conformance)
is optional: when it is absent the tests that need it print a note and skip.
"""

import hashlib
import os
import random
import re
import signal
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import traceback

from clitest import NOBODY, copy_for_nobody

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SHARED = os.path.normpath(os.path.join(REPO, "..", "shared"))
LIPSUM = os.path.join(SHARED, "corpus", "lipsum")
KUHN = os.path.join(SHARED, "conformance", "UTF-8-test.txt")

ENCODINGS = ["utf-8", "utf-16le", "utf-16be", "utf-32le", "utf-32be"]


def registry_names():
    """The canonical names of grammar/encodings.registry's rows (its second
    column), less UTF-16 and UTF-32 without a byte order: what -l lists."""
    names = []
    with open(os.path.join(REPO, "grammar", "encodings.registry"), encoding="utf-8") as f:
        for line in f:
            words = line.split("#", 1)[0].split()
            if len(words) > 1 and words[0].startswith("UTFDFA_"):
                names.append(words[1])
    return [n for n in names if n not in ("utf-16", "utf-32")]


# Every encoding, the Unicode forms first; the rows are ABI (never removed),
# so the ones of the first release must be there.
ALL_ENCODINGS = ENCODINGS + [n for n in registry_names() if n not in ENCODINGS]
assert set(ENCODINGS + ["utf-8-rfc2279", "corrected-utf-8", "ucs-4le", "ucs-4be", "utf-7",
                        "cesu-8", "mutf-8", "wtf-8", "utf-7-imap"]) <= set(ALL_ENCODINGS)
PYNAME = {
    "utf-8": "utf-8",
    "utf-16le": "utf-16-le",
    "utf-16be": "utf-16-be",
    "utf-32le": "utf-32-le",
    "utf-32be": "utf-32-be",
}
KINDS = ["unexpected-continuation", "invalid-lead", "overlong", "surrogate", "too-large",
         "truncated"]
KIND_RE = "(?:" + "|".join(re.escape(k) for k in KINDS) + ")"

BIN = None          # set in main()
TMP = None          # a scratch directory, removed at exit


# ------------------------------------------------------------------ registry

class Registry:
    def __init__(self):
        self.tests = []
        self.passed = 0
        self.failed = 0
        self.current = None
        self.valgrind_left = 0  # invocations of this test still to run under valgrind
        self.valgrind_runs = 0

    def test(self, fn):
        self.tests.append(fn)
        return fn

    def check(self, cond, what, detail=""):
        """One counted assertion; returns cond so callers can stop early."""
        if cond:
            self.passed += 1
        else:
            self.failed += 1
            msg = "FAIL %s: %s" % (self.current, what)
            if detail:
                msg += "\n      " + str(detail).replace("\n", "\n      ")
            print(msg, flush=True)
        return bool(cond)

    def note(self, text):
        print("note %s: %s" % (self.current, text), flush=True)

    def run_all(self):
        for fn in self.tests:
            self.current = fn.__name__
            self.valgrind_left = VALGRIND_PER_TEST
            t0 = time.monotonic()
            try:
                fn()
            except Exception:  # an unexpected exception is one failure
                self.failed += 1
                print("FAIL %s: exception\n%s" % (self.current, traceback.format_exc()),
                      flush=True)
            dt = time.monotonic() - t0
            if dt > 5:
                print("info %s took %.1f s" % (self.current, dt), flush=True)


R = Registry()
test = R.test
check = R.check
note = R.note


# ------------------------------------------------------------------ helpers

# TEST_CLI_VALGRIND=N runs the first N invocations of every test under
# valgrind (make check-valgrind): each test's own checks then also see
# valgrind's exit status 99 for a memory error or a leak. Its start-up costs
# about a second, so not every invocation of every test.
VALGRIND_PER_TEST = int(os.environ.get("TEST_CLI_VALGRIND", "0"))
VALGRIND = ["valgrind", "-q", "--error-exitcode=99", "--leak-check=full"]


def run(args, inp=b"", timeout=60, cwd=None):
    argv = [BIN] + list(args)
    if R.valgrind_left > 0:
        R.valgrind_left -= 1
        R.valgrind_runs += 1
        argv = VALGRIND + argv
        timeout *= 20
    return subprocess.run(argv, input=inp, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=timeout, cwd=cwd)


def text(b):
    return b.decode("utf-8", "backslashreplace")


def short(b, n=160):
    r = repr(b)
    return r if len(r) <= n else r[:n] + "...(%d bytes)" % len(b)


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)
    return path


def tmpfile(name, data):
    return write(os.path.join(TMP, name), data)


def one_line(stderr, regex, what):
    """stderr is exactly one line, and it matches regex in full."""
    s = text(stderr)
    ok = s.endswith("\n") and s.count("\n") == 1 and re.fullmatch(regex, s[:-1]) is not None
    return check(ok, what, "stderr %r does not fully match /%s/" % (s, regex))


def enc(s, e):
    return s.encode(PYNAME[e])


def strict_line(name, e, kind, off, line, col):
    return ("utfdfa: %s: invalid %s (%s) at byte offset %d, line %d, column %d"
            % (name, e, kind, off, line, col))


def check_line(name, e, kind, off, line, col):
    return "%s:%d:%d: invalid %s (%s) at byte offset %d" % (name, line, col, e, kind, off)


def position(prefix):
    """Line and column (1-based, lines end at LF) of the character after prefix."""
    last = prefix.rfind("\n")
    return prefix.count("\n") + 1, len(prefix) - (last + 1) + 1


# ------------------------------------------------------------------ 1. exit codes

@test
def exit0_valid_transcoding():
    src = "h\u00e9llo\n\u20ac \U0001f600\n"
    for t in ENCODINGS:
        p = run(["-t", t], enc(src, "utf-8"))
        check(p.returncode == 0, "-t %s exit 0" % t, p.returncode)
        check(p.stdout == enc(src, t), "-t %s output" % t, short(p.stdout))
        check(p.stderr == b"", "-t %s silent" % t, text(p.stderr))
    # the default is utf-8 -> utf-8, strict
    p = run([], enc(src, "utf-8"))
    check(p.returncode == 0 and p.stdout == enc(src, "utf-8"), "defaults copy utf-8",
          (p.returncode, short(p.stdout)))
    p = run([], b"")
    check(p.returncode == 0 and p.stdout == b"" and p.stderr == b"", "empty input",
          (p.returncode, p.stdout, p.stderr))
    p = run([], b"a\x80")
    check(p.returncode == 1, "default errors mode is strict", p.returncode)
    # replacements are not an error
    p = run(["--errors=replace"], b"a\x80b")
    check(p.returncode == 0 and p.stdout == "a\ufffdb".encode(), "replace exit 0",
          (p.returncode, p.stdout))
    p = run(["--errors=ignore"], b"a\x80b")
    check(p.returncode == 0 and p.stdout == b"ab", "ignore exit 0", (p.returncode, p.stdout))


@test
def exit0_long_and_short_option_forms():
    src = "x\u00ff\U00010000\n"
    data = enc(src, "utf-16be")
    want = enc(src, "utf-32le")
    forms = [["-f", "utf-16be", "-t", "utf-32le"],
             ["--from=utf-16be", "--to=utf-32le"],
             ["--from", "utf-16be", "--to", "utf-32le"],
             ["-f", "UTF-16BE", "-t", "Utf-32LE"]]  # names are case-insensitive
    for args in forms:
        p = run(args, data)
        check(p.returncode == 0 and p.stdout == want, "options %s" % args,
              (p.returncode, short(p.stdout), text(p.stderr)))
    for opt in (["-o"], ["--output"], None):
        out = os.path.join(TMP, "out-%s.bin" % (opt[0].strip("-") if opt else "eq"))
        args = (opt + [out]) if opt else ["--output=" + out]
        p = run(["-f", "utf-16be", "-t", "utf-32le"] + args, data)
        check(p.returncode == 0 and p.stdout == b"", "%s: exit 0, nothing on stdout" % args,
              (p.returncode, p.stdout, text(p.stderr)))
        with open(out, "rb") as f:
            check(f.read() == want, "%s: file content" % args)
    # files on the command line, concatenated in order
    a = tmpfile("cat-a.txt", "one\n".encode())
    b = tmpfile("cat-b.txt", "tw\u00f6\n".encode())
    p = run(["-t", "utf-16le", a, b])
    check(p.returncode == 0 and p.stdout == enc("one\ntw\u00f6\n", "utf-16le"),
          "two FILEs are transcoded in order", (p.returncode, short(p.stdout)))
    p = run([a, "-", b], "stdin\n".encode())
    check(p.returncode == 0 and p.stdout == b"one\nstdin\ntw\xc3\xb6\n",
          "'-' reads standard input", (p.returncode, p.stdout))


USAGE_RE = r"utfdfa: .+"


@test
def utf7_against_python():
    """UTF-7 both ways against Python's codec: Python encodes Set O directly,
    as --utf7-set-o does, with the same rule for the "-" ending a run."""
    rnd = random.Random(7)
    texts = ["Hi Mom -\u263a-!", "A\u2262\u0391.", "\u65e5\u672c\u8a9e", "Item 3 is \u00a31.",
             "+", "a+b-c", "~\\", "".join(chr(c) for c in range(1, 128)), "\U0001f600x\U0001f600"]
    pool = "aZ09+-/.~\\!@ \t\n\u00e9\u20ac\u4e2d\U0001f600"
    texts += ["".join(rnd.choice(pool) for _ in range(rnd.randrange(60))) for _ in range(150)]
    for s in texts:
        py = s.encode("utf-7")
        p = run(["-f", "utf-7"], py)
        check(p.returncode == 0 and p.stdout == s.encode("utf-8"), "decodes Python's UTF-7",
              (s, py, p.stdout[:80], p.stderr[:200]))
        p = run(["-t", "utf-7", "--utf7-set-o"], s.encode("utf-8"))
        check(p.returncode == 0 and p.stdout == py, "--utf7-set-o writes what Python writes",
              (s, py, p.stdout))
        p = run(["-t", "utf-7"], s.encode("utf-8"))
        check(p.returncode == 0 and p.stdout.decode("utf-7") == s
              and not set(p.stdout) & set(b"!\"#$%&*;<=>@[]^_`{|}"),
              "writes UTF-7 Python decodes, Set O in base64", (s, p.stdout))
    p = run(["-f", "utf-7", "-t", "utf-16le"], b"a+IKx-b")
    check(p.returncode == 1 and p.stdout == "a\u20ac".encode("utf-16-le")
          and b"nonzero-padding" in p.stderr and b"byte offset 4" in p.stderr,
          "a+IKx-b: strict stops after the euro sign", (p.returncode, p.stdout, p.stderr))
    p = run(["-f", "utf-7", "--errors=replace"], b"a+IK-b a+2AE-b a+@b +ADw-script+AD4-")
    check(p.returncode == 0 and p.stdout == "a\ufffdb a\ufffdb a\ufffd@b <script>".encode(),
          "hostile UTF-7 replaced", p.stdout)


@test
def exit2_usage_errors():
    cases = [
        (["-f", "latin-1"], "latin-1", "unknown input encoding"),
        (["-t", "utf-9"], "utf-9", "unknown output encoding"),
        (["--from=utf-9"], "utf-9", "unknown --from= encoding"),
        (["--to=ucs-2"], "ucs-2", "unknown --to= encoding"),
        (["--frobnicate"], "--frobnicate", "unknown long option"),
        (["-z"], "-z", "unknown short option"),
        (["--errors=lenient"], "lenient", "unknown --errors mode"),
        (["--bom=maybe"], "maybe", "unknown --bom mode"),
        (["-t", "utf-8//BOGUS"], "BOGUS", "unknown suffix"),
        (["check", "-f", "utf-9", os.path.join(TMP, "cat-a.txt")], "utf-9",
         "check: unknown encoding"),
        (["check", "--frob", "x"], "--frob", "check: unknown option"),
    ]
    for args, mention, what in cases:
        p = run(args, b"abc\n")
        check(p.returncode == 2, what + ": exit 2", (args, p.returncode, text(p.stderr)))
        one_line(p.stderr, USAGE_RE, what + ": one line starting 'utfdfa: '")
        check(mention in text(p.stderr), what + ": message names %r" % mention,
              text(p.stderr))
        check(text(p.stderr).count("(") <= 1, what + ": at most one parenthetical",
              text(p.stderr))
        check(p.stdout == b"", what + ": nothing on stdout", short(p.stdout))


@test
def files_that_cannot_be_opened():
    """A missing FILE or a directory among others: named on stderr, the
    others converted (or checked) in order, exit 1: iconv's and cat's
    behaviour, the same for the transcoder and check."""
    good = tmpfile("good-for-open.txt", "fine \u00e9\n".encode())
    other = tmpfile("other-for-open.txt", b"more\n")
    missing = os.path.join(TMP, "missing-2.txt")
    for bad, what in ((missing, "missing file"), (TMP, "a directory")):
        for args, want in (([bad], b""), ([good, bad, other], read_bytes(good) + b"more\n"),
                           ([bad, good], read_bytes(good))):
            label = "%s in %d FILEs" % (what, len(args))
            p = run(args)
            check(p.returncode == 1 and p.stdout == want,
                  label + ": the others converted, exit 1", (p.returncode, short(p.stdout)))
            one_line(p.stderr, r"utfdfa: .*" + re.escape(bad) + r".*", label + ": one message")
            p = run(["-t", "utf-16le"] + args)
            check(p.returncode == 1 and p.stdout == want.decode().encode("utf-16-le"),
                  label + ": -t utf-16le, the others converted", short(p.stdout))
            p = run(["check"] + args)
            check(p.returncode == 1 and p.stdout == b"", label + ": check exits 1",
                  (p.returncode, text(p.stderr)))
            one_line(p.stderr, r"utfdfa: .*" + re.escape(bad) + r".*", label + ": check, one message")
    if shutil.which("iconv"):
        args = [good, missing, other]
        want = iconv(["-f", "UTF-8", "-t", "UTF-16LE"] + args, b"")
        got = run(["-f", "UTF-8", "-t", "UTF-16LE"] + args)
        check((got.returncode, got.stdout) == (want.returncode, want.stdout),
              "a missing file among others: as iconv (output, exit status)",
              (got.returncode, want.returncode))
    # An invalid FILE after a missing one: strict still stops at it, exit 1.
    invalid = tmpfile("invalid-for-open.txt", b"ab\xffcd\n")
    p = run([missing, invalid, good])
    check(p.returncode == 1 and p.stdout == b"ab" and text(p.stderr).count("\n") == 2,
          "missing + invalid: strict stops at the error, both named", (short(p.stdout), text(p.stderr)))
    # Only missing FILEs: -o is not created (as iconv -o).
    out = os.path.join(TMP, "never-written.out")
    p = run(["-o", out, missing])
    check(p.returncode == 1 and not os.path.exists(out), "-o with only a missing FILE: no output file",
          p.returncode)


@test
def unreadable_file_exit1():
    """A FILE the user cannot read: named, the others converted, exit 1. As
    root (who reads mode-000 files) the tool runs as nobody, from a copy in
    a directory nobody can reach: the checkout may be under a private one."""
    prefix, binary, d = [], BIN, None
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if not setpriv:
            note("running as root without setpriv: skipped")
            return
        if os.environ.get("UTFDFA_CLI_EMULATOR"):  # make check-cross: BIN is a wrapper script
            note("under %s the tool is a script running a binary of the build tree, which nobody "
                 "may not reach: skipped (the native run checks it)" % os.environ["UTFDFA_CLI_EMULATOR"])
            return
        prefix = [setpriv, "--reuid=%d" % NOBODY, "--regid=%d" % NOBODY, "--clear-groups"]
        d, binary, why = copy_for_nobody(BIN)
        if d is None:
            note("%s: skipped" % why)
            return
    else:
        d = tempfile.mkdtemp(prefix="utfdfa-cli-perm-")
        os.chmod(d, 0o755)
    try:
        readable = write(os.path.join(d, "readable.txt"), b"fine\n")
        path = write(os.path.join(d, "unreadable.txt"), b"secret\n")
        os.chmod(readable, 0o644)
        os.chmod(path, 0)

        def run_as(args):
            return subprocess.run(prefix + [binary] + args, stdin=subprocess.DEVNULL,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=30)

        ctl = run_as([readable])
        if not check(ctl.returncode == 0 and ctl.stdout == b"fine\n",
                     "the tool runs as an unprivileged user", text(ctl.stderr)):
            return
        for args, what, out in (([path], "unreadable file", b""),
                                ([readable, path, readable], "good + unreadable", b"fine\n" * 2),
                                (["check", path], "check unreadable file", b"")):
            p = run_as(args)
            check(p.returncode == 1 and p.stdout == out, what + ": exit 1, the others converted",
                  (p.returncode, text(p.stderr)))
            one_line(p.stderr, r"utfdfa: .*" + re.escape(path) + r".*", what + ": message")
    finally:
        shutil.rmtree(d, ignore_errors=True)


@test
def exit2_output_is_an_input():
    orig = "do not truncate me \u00e9\n".encode() * 100
    path = tmpfile("precious.txt", orig)
    other = tmpfile("other-input.txt", b"other\n")
    link = os.path.join(TMP, "precious-hardlink.txt")
    os.link(path, link)
    sym = os.path.join(TMP, "precious-symlink.txt")
    os.symlink(path, sym)
    rel_dir = os.path.dirname(path)
    variants = [
        (["-o", path, path], None, "-o FILE FILE"),
        (["-t", "utf-16le", "--output=" + path, path], None, "--output=FILE FILE"),
        (["-o", path, other, path], None, "-o FILE naming the second input"),
        (["-o", "./precious.txt", "precious.txt"], rel_dir, "-o ./FILE FILE (same file)"),
        (["-o", link, path], None, "-o HARDLINK FILE"),
        (["-o", sym, path], None, "-o SYMLINK FILE"),
    ]
    for args, cwd, what in variants:
        p = run(args, b"", cwd=cwd)
        check(p.returncode == 2, what + ": exit 2", (p.returncode, text(p.stderr)))
        one_line(p.stderr, USAGE_RE, what + ": one line starting 'utfdfa: '")
        with open(path, "rb") as f:
            check(f.read() == orig, what + ": the input is left intact")


@test
def exit3_dev_full():
    if not os.path.exists("/dev/full"):
        note("/dev/full is absent; skipped")
        return
    for data, what in ((b"hello\n", "small"), ("\u00e9t\u00e9\n".encode() * 300000, "2 MB")):
        p = run(["-o", "/dev/full"], data)
        check(p.returncode == 3, "-o /dev/full (%s): exit 3" % what, p.returncode)
        one_line(p.stderr, r"utfdfa: .*/dev/full.*",
                 "-o /dev/full (%s): one message naming the output" % what)
        check("No space" in text(p.stderr) or "ENOSPC" in text(p.stderr)
              or "space" in text(p.stderr).lower(),
              "-o /dev/full (%s): the message says why (ENOSPC)" % what, text(p.stderr))
    # standard output on /dev/full
    with open("/dev/full", "wb") as full:
        p = subprocess.run([BIN, "-t", "utf-16le"], input=b"hello\n", stdout=full,
                           stderr=subprocess.PIPE, timeout=30)
    check(p.returncode == 3, "stdout is /dev/full: exit 3", p.returncode)
    one_line(p.stderr, USAGE_RE, "stdout is /dev/full: one message")


@test
def closed_pipe_ends_quietly():
    data = ("pipe \u00e9\u20ac\U0001f600 data\n".encode()) * 200000  # ~4.6 MB
    p = subprocess.Popen([BIN, "-t", "utf-16le"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.close()  # the reader goes away before the writer starts
    err = []

    def feed():
        try:
            for i in range(0, len(data), 65536):
                p.stdin.write(data[i:i + 65536])
            p.stdin.close()
        except (BrokenPipeError, OSError, ValueError):
            pass

    def drain():
        err.append(p.stderr.read())

    tf = threading.Thread(target=feed, daemon=True)
    td = threading.Thread(target=drain, daemon=True)
    tf.start()
    td.start()
    try:
        rc = p.wait(timeout=20)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
        check(False, "closed pipe: the tool hangs (killed after 20 s)")
        return
    td.join(5)
    try:
        p.stdin.close()
    except (BrokenPipeError, OSError):
        pass
    stderr = err[0] if err else b""
    # As cat and iconv: quietly, killed by SIGPIPE (or an exit without a
    # message), never success.
    check(rc != 0, "closed pipe: never exit 0", rc)
    check(rc == -signal.SIGPIPE or (rc > 0 and stderr == b""),
          "closed pipe: ends quietly (SIGPIPE, or a status without a message)",
          (rc, text(stderr)))


# ------------------------------------------------------------------ 2. strict offsets

# (input encoding, valid prefix text, ill-formed tail bytes, KIND or None = any,
#  expected offset or None = len(encoded prefix))
STRICT_CASES = [
    # UTF-8
    ("utf-8", "", b"\x80", "unexpected-continuation", 0),
    ("utf-8", "", b"\xff", "invalid-lead", 0),
    ("utf-8", "", b"\xc0\xaf", "overlong", 0),
    ("utf-8", "abc", b"\xc1\xbf", "overlong", 3),
    ("utf-8", "ab", b"\xe0\x80\xaf", "overlong", 2),
    ("utf-8", "ab", b"\xf0\x80\x80\xaf", "overlong", 2),
    ("utf-8", "x", b"\xed\xa0\x80", "surrogate", 1),
    ("utf-8", "x", b"\xed\xbf\xbf", "surrogate", 1),
    ("utf-8", "x", b"\xf4\x90\x80\x80", "too-large", 1),
    ("utf-8", "\u00e9", b"\xf8\x88\x80\x80\x80", "invalid-lead", 2),
    ("utf-8", "abc\n", b"\xe2\x82", "truncated", 4),            # cut short by EOF
    ("utf-8", "a\nb", b"\xe2\x82", "truncated", 3),
    ("utf-8", "", b"\xf0\x9f\x98", "truncated", 0),
    ("utf-8", "", b"\xc3", "truncated", 0),
    ("utf-8", "a", b"\xe2\x82a", None, 1),                      # cut short by 'a'
    ("utf-8", "abc\n\u00e9t\u00e9\n\u20ac\u20acx", b"\xff", "invalid-lead", 17),
    ("utf-8", "\U0001f600\U0001f600", b"\x80", "unexpected-continuation", 8),
    ("utf-8", "ab\r\ncd\r\n\r", b"\xbf", "unexpected-continuation", 9),  # CR is a character
    ("utf-8", "\n\n\n", b"\xc0\x80", "overlong", 3),
    ("utf-8", "l1\nl2 \u0939\u093f\u0928\u094d\u0926\u0940\n\u4e2d\u6587", b"\xed\xb0\x80",
     "surrogate", None),
    ("utf-8", "x" * 70000 + "\n" + "\u00e9" * 40000, b"\xff", "invalid-lead", 150001),
    ("utf-8", "\ufeffbom", b"\x80", "unexpected-continuation", 6),  # a kept BOM counts
    # UTF-16LE / UTF-16BE
    ("utf-16le", "", b"\x00\xdc", "surrogate", 0),                 # lone low surrogate
    ("utf-16le", "a\nb", b"\x00\xdc", "surrogate", 6),
    ("utf-16le", "ab", b"\x00\xd8x\x00", "surrogate", 4),          # high, then not a low
    ("utf-16le", "\U0001f600\U0001f600", b"\x00\xdcx\x00", "surrogate", 8),
    ("utf-16le", "\u00e9\n\u20acx", b"z", "truncated", 8),         # odd byte at EOF
    ("utf-16le", "\n\n", b"\xff\xdb", None, 4),                    # high surrogate at EOF
    ("utf-16be", "q\n\u4e2d", b"\xdc\x00", "surrogate", 6),
    ("utf-16be", "qq", b"\xd8\x3d\x00a", "surrogate", 4),
    # UTF-32BE / UTF-32LE
    ("utf-32be", "ab\n", b"\x00\x11\x00\x00", "too-large", 12),
    ("utf-32be", "", b"\xff\xff\xff\xff", "too-large", 0),
    ("utf-32be", "\u00e9\n\u20ac\U0001f600", b"\x00\x00\xd8\x00", "surrogate", 16),
    ("utf-32be", "\U0010ffff", b"\x00\x00\xdf\xff", "surrogate", 4),
    ("utf-32be", "a\nbc", b"\x00\x00", "truncated", 16),
    ("utf-32be", "a", b"\x00\x00\x00", "truncated", 4),
    ("utf-32le", "\n\U0001f600", b"\x00\x00\x11\x00", "too-large", 8),
    ("utf-32le", "x", b"\x00\xdc\x00\x00", "surrogate", 4),
    ("utf-32le", "xy", b"\x41", "truncated", 8),
]


@test
def strict_error_positions():
    for i, (e, prefix, tail, kind, off) in enumerate(STRICT_CASES):
        pre = enc(prefix, e)
        want_off = len(pre) if off is None else off
        check(want_off == len(pre), "case %d: table self-check (offset)" % i)
        line, col = position(prefix)
        data = pre + tail
        label = "case %d (%s %s)" % (i, e, short(prefix.encode()[-20:] + tail, 60))
        for t in ("utf-8", "utf-16le") if i % 2 else ("utf-32be", "utf-8"):
            p = run(["-f", e, "-t", t], data)
            check(p.returncode == 1, label + " -t %s: exit 1" % t, (p.returncode, text(p.stderr)))
            kre = re.escape(kind) if kind else KIND_RE
            rx = re.escape(strict_line("<stdin>", e, "KIND", want_off, line, col)).replace(
                "KIND", kre)
            one_line(p.stderr, rx, label + " -t %s: message" % t)
            check(p.stdout == enc(prefix, t), label + " -t %s: everything before the error "
                  "is written" % t, "got %s want %s" % (short(p.stdout), short(enc(prefix, t))))


@test
def strict_error_names_the_file_and_stops():
    a = tmpfile("strict-a.txt", "first \u00e9\n".encode())
    b = tmpfile("strict b.txt", "sec\nond \u20ac".encode() + b"\xff")
    c = tmpfile("strict-c.txt", b"never\n")
    p = run([a, b, c])
    check(p.returncode == 1, "error in the second FILE: exit 1", p.returncode)
    one_line(p.stderr, re.escape(strict_line(b, "utf-8", "invalid-lead", 11, 2, 6)),
             "error in the second FILE: message names it; offset/line relative to it")
    check(p.stdout == "first \u00e9\nsec\nond \u20ac".encode(),
          "output stops at the error (third FILE not written)", short(p.stdout))
    # '-' is standard input: FILE is <stdin>
    p = run(["-"], b"ok\n\xc0\x80")
    check(p.returncode == 1, "'-' with bad input: exit 1", p.returncode)
    one_line(p.stderr, re.escape(strict_line("<stdin>", "utf-8", "overlong", 3, 2, 1)),
             "'-': FILE is <stdin>")
    # -o: the prefix lands in the output file
    out = os.path.join(TMP, "strict-out.bin")
    p = run(["-t", "utf-32le", "-o", out], b"abc\n\xed\xa0\x80tail")
    check(p.returncode == 1, "strict with -o: exit 1", p.returncode)
    with open(out, "rb") as f:
        check(f.read() == enc("abc\n", "utf-32le"), "strict with -o: the prefix is written")


@test
def strict_position_does_not_count_an_added_bom():
    # The added BOM is not part of the input: line/column/offset describe the input.
    for bom_in in (b"", b"\xef\xbb\xbf"):
        data = bom_in + b"a\x80"
        col = 3 if bom_in else 2
        for mode in ("keep", "add"):
            if mode == "add" and bom_in:
                continue
            p = run(["--bom=" + mode], data)
            check(p.returncode == 1, "--bom=%s %r: exit 1" % (mode, data), p.returncode)
            one_line(p.stderr, re.escape(strict_line("<stdin>", "utf-8",
                                                     "unexpected-continuation",
                                                     len(bom_in) + 1, 1, col)),
                     "--bom=%s %r: position in the input" % (mode, data))
    p = run(["--bom=add", "-f", "utf-16le"], b"\n\x00a\x00\x00\xdc")
    one_line(p.stderr, re.escape(strict_line("<stdin>", "utf-16le", "surrogate", 4, 2, 2)),
             "--bom=add utf-16le: position in the input")


# ------------------------------------------------------------------ 3. replace / ignore

U8_BYTES = ([0x80, 0x81, 0x8F, 0x90, 0x9F, 0xA0, 0xA1, 0xBF, 0xC0, 0xC1, 0xC2, 0xC3, 0xDF,
             0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF7, 0xF8,
             0xFB, 0xFC, 0xFD, 0xFE, 0xFF, 0x00, 0x0A, 0x41, 0x7F])
CP_POOL = [0x0, 0xA, 0x41, 0x7F, 0x80, 0xE9, 0x7FF, 0x800, 0xFFF, 0x1000, 0xD7FF, 0xE000,
           0xFEFF, 0xFFFD, 0xFFFE, 0xFFFF, 0x10000, 0x1F600, 0xFFFFF, 0x100000, 0x10FFFF]


def rand_cp(rng):
    r = rng.random()
    if r < 0.3:
        return rng.choice(CP_POOL)
    if r < 0.45:
        return rng.randrange(0x80)
    if r < 0.6:
        return rng.randrange(0x80, 0x800)
    if r < 0.8:
        c = rng.randrange(0x800, 0x10000)
        return c if not 0xD800 <= c < 0xE000 else 0x4E2D
    return rng.randrange(0x10000, 0x110000)


def gen_utf8(rng):
    out = bytearray()
    for _ in range(rng.randint(0, 10)):
        r = rng.random()
        if r < 0.4:
            out.append(rng.choice(U8_BYTES) if rng.random() < 0.7 else rng.randrange(0x80, 0xC0))
        elif r < 0.65:
            out += chr(rand_cp(rng)).encode()
        elif r < 0.85:  # a valid sequence cut short, or with a bad continuation
            s = chr(rng.randrange(0x80, 0x110000) if rng.random() < 0.5
                    else rng.choice(CP_POOL[4:])).encode("utf-8", "surrogatepass")
            cut = rng.randrange(1, max(2, len(s)))
            out += s[:cut]
        elif r < 0.92:  # hand-made lead + continuations: overlong/surrogate/too-large
            lead = rng.choice([0xC0, 0xC1, 0xE0, 0xED, 0xF0, 0xF4, 0xF5, 0xF8, 0xFC])
            out.append(lead)
            for _ in range(rng.randint(0, 4)):
                out.append(rng.choice([0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF]))
        else:
            out.append(rng.randrange(256))
    return bytes(out)


def gen_utf16(rng, big):
    out = bytearray()

    def unit(u):
        out.extend(u.to_bytes(2, "big" if big else "little"))

    for _ in range(rng.randint(0, 10)):
        r = rng.random()
        if r < 0.3:
            s = chr(rand_cp(rng)).encode("utf-16-be" if big else "utf-16-le")
            out += s
        elif r < 0.5:
            unit(rng.choice([0xD800, 0xDBFF, 0xD83D]) if rng.random() < 0.5
                 else rng.randrange(0xD800, 0xDC00))          # high surrogate
        elif r < 0.65:
            unit(rng.choice([0xDC00, 0xDFFF, 0xDE00]) if rng.random() < 0.5
                 else rng.randrange(0xDC00, 0xE000))          # low surrogate
        elif r < 0.8:  # random bytes, high byte biased to D8-DF
            hi = rng.randrange(0xD8, 0xE0) if rng.random() < 0.7 else rng.randrange(256)
            lo = rng.randrange(256)
            out += bytes([hi, lo]) if big else bytes([lo, hi])
        elif r < 0.9:
            unit(rng.choice([0x0A, 0x41, 0xFEFF, 0xFFFE, 0xFFFD, 0xFFFF, 0x0000]))
        else:
            out.append(rng.choice([0x00, 0xD8, 0xDC, 0x41, rng.randrange(256)]))  # odd byte
    return bytes(out)


def gen_utf32(rng, big):
    out = bytearray()
    for _ in range(rng.randint(0, 8)):
        r = rng.random()
        if r < 0.4:
            v = rand_cp(rng)
        elif r < 0.55:
            v = rng.choice([0xD800, 0xDBFF, 0xDC00, 0xDFFF, rng.randrange(0xD800, 0xE000)])
        elif r < 0.75:
            v = rng.choice([0x110000, 0x10FFFF + 2, 0x1FFFFF, 0x7FFFFFFF, 0x80000000,
                            0xFFFFFFFF, 0x00FF0000, 0x0000FFFE, 0xFFFE0000,
                            rng.randrange(0x110000, 1 << 32)])
        elif r < 0.9:
            v = rng.randrange(1 << 32)
        else:
            out += bytes(rng.randrange(256) for _ in range(rng.randint(1, 3)))  # misalign
            continue
        out += v.to_bytes(4, "big" if big else "little")
    return bytes(out)


GENERATORS = {
    "utf-8": gen_utf8,
    "utf-16le": lambda r: gen_utf16(r, False),
    "utf-16be": lambda r: gen_utf16(r, True),
    "utf-32le": lambda r: gen_utf32(r, False),
    "utf-32be": lambda r: gen_utf32(r, True),
}


def samples():
    rng = random.Random(20261122)
    return {e: [GENERATORS[e](rng) for _ in range(500)] for e in ENCODINGS}


SAMPLES = None


def get_samples():
    global SAMPLES
    if SAMPLES is None:
        SAMPLES = samples()
    return SAMPLES


def py_convert(data, frm, to, mode):
    return data.decode(PYNAME[frm], mode).encode(PYNAME[to])


@test
def replace_ignore_match_python_per_sample():
    """Each sample in its own process (EOF behaviour included); -t cycles over
    the five encodings so every (from, to, mode) is covered."""
    S = get_samples()
    jobs = []
    for frm in ENCODINGS:
        for mode in ("replace", "ignore"):
            for i, data in enumerate(S[frm]):
                to = ENCODINGS[(i + (mode == "ignore")) % 5]
                jobs.append((frm, to, mode, i, data))
    results = [None] * len(jobs)

    def worker(k0):
        for k in range(k0, len(jobs), 2):
            frm, to, mode, i, data = jobs[k]
            results[k] = run(["-f", frm, "-t", to, "--errors=" + mode], data)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    bad = {}
    for (frm, to, mode, i, data), p in zip(jobs, results):
        want = py_convert(data, frm, to, mode)
        if p.returncode != 0 or p.stdout != want or p.stderr != b"":
            bad.setdefault((frm, mode), []).append(
                "#%d -t %s in=%s\n  got rc=%d %s %s\n  want %s" % (
                    i, to, data.hex(" "), p.returncode, p.stdout.hex(" "),
                    text(p.stderr).strip(), want.hex(" ")))
    for frm in ENCODINGS:
        for mode in ("replace", "ignore"):
            lst = bad.get((frm, mode), [])
            check(not lst, "-f %s --errors=%s: 500 samples equal Python (%d differ)"
                  % (frm, mode, len(lst)), "\n".join(lst[:4]))


@test
def replace_ignore_match_python_batched():
    """All 500 samples of an encoding concatenated into one stream, for every
    (from, to, mode); compared with Python decoding the same stream."""
    S = get_samples()
    for frm in ENCODINGS:
        stream = b"".join(S[frm])
        for to in ENCODINGS:
            for mode in ("replace", "ignore"):
                p = run(["-f", frm, "-t", to, "--errors=" + mode], stream)
                want = py_convert(stream, frm, to, mode)
                ok = p.returncode == 0 and p.stdout == want
                detail = ""
                if not ok:
                    k = next((j for j in range(min(len(want), len(p.stdout)))
                              if want[j] != p.stdout[j]), min(len(want), len(p.stdout)))
                    detail = "rc=%d; first difference at output byte %d: got %s want %s" % (
                        p.returncode, k, p.stdout[k:k + 16].hex(" "), want[k:k + 16].hex(" "))
                check(ok, "batched -f %s -t %s --errors=%s equals Python" % (frm, to, mode),
                      detail)
    # the replacement count itself on a classic example (Unicode 3.9 table 3-8)
    data = b"\x61\xf1\x80\x80\xe1\x80\xc2\x62\x80\x63\x80\xbf\x64"
    p = run(["--errors=replace"], data)
    check(p.stdout == "a\ufffd\ufffd\ufffdb\ufffdc\ufffd\ufffdd".encode(),
          "Unicode table 3-8 example: one U+FFFD per maximal subpart", short(p.stdout))


# ------------------------------------------------------------------ 4. round trips

@test
def lipsum_round_trips():
    if not os.path.isdir(LIPSUM):
        note("%s is absent; skipped" % LIPSUM)
        return
    files = sorted(f for f in os.listdir(LIPSUM) if os.path.isfile(os.path.join(LIPSUM, f)))
    check(len(files) > 0, "the corpus has files")
    for name in files:
        path = os.path.join(LIPSUM, name)
        with open(path, "rb") as f:
            orig = f.read()
        try:
            txt = orig.decode("utf-8")
        except UnicodeDecodeError:
            note("%s is not valid UTF-8; skipped" % name)
            continue
        p = run([path])
        check(p.returncode == 0 and p.stdout == orig, "%s: utf-8 -> utf-8 identical" % name)
        for t in ENCODINGS[1:]:
            p = run(["-t", t, path])
            mid = p.stdout
            check(p.returncode == 0 and mid == txt.encode(PYNAME[t]),
                  "%s: utf-8 -> %s equals Python" % (name, t), (p.returncode, text(p.stderr)))
            q = run(["-f", t], mid)
            check(q.returncode == 0 and q.stdout == orig,
                  "%s: utf-8 -> %s -> utf-8 byte-identical" % (name, t),
                  (q.returncode, text(q.stderr)))
            # and between the non-UTF-8 encodings
            t2 = ENCODINGS[1 + (ENCODINGS.index(t)) % 4]
            r = run(["-f", t, "-t", t2], mid)
            check(r.returncode == 0 and r.stdout == txt.encode(PYNAME[t2]),
                  "%s: %s -> %s equals Python" % (name, t, t2), (r.returncode, text(r.stderr)))
        # check agrees that the file is valid
        c = run(["check", path])
        check(c.returncode == 0 and c.stdout == b"" and c.stderr == b"",
              "%s: check says valid" % name, (c.returncode, text(c.stderr)))


# ------------------------------------------------------------------ 5. Kuhn

@test
def kuhn_stress_test():
    if not os.path.isfile(KUHN):
        note("%s is absent; skipped" % KUHN)
        return
    with open(KUHN, "rb") as f:
        data = f.read()
    p = run([KUHN])
    check(p.returncode == 1, "strict: exit 1", p.returncode)
    one_line(p.stderr, re.escape(strict_line(KUHN, "utf-8", "invalid-lead", 4461, 75, 38)),
             "strict: first error at 4461, line 75, column 38, invalid-lead")
    check(p.stdout == data[:4461], "strict: the 4461 bytes before the error are written",
          len(p.stdout))
    p = run([], data)
    one_line(p.stderr, re.escape(strict_line("<stdin>", "utf-8", "invalid-lead", 4461, 75, 38)),
             "strict on stdin: same position, FILE is <stdin>")
    p = run(["--errors=replace", KUHN])
    check(p.returncode == 0, "replace: exit 0", p.returncode)
    check(p.stdout.decode("utf-8", "strict").count("\ufffd") == 379,
          "replace: exactly 379 U+FFFD", p.stdout.decode("utf-8", "replace").count("\ufffd"))
    check(p.stdout == data.decode("utf-8", "replace").encode(), "replace: equals Python")
    p = run(["--errors=ignore", "-t", "utf-16be", KUHN])
    check(p.returncode == 0 and p.stdout == data.decode("utf-8", "ignore").encode("utf-16-be"),
          "ignore -t utf-16be: equals Python")
    p = run(["--errors=replace", "-t", "utf-32le"], data)
    check(p.stdout == data.decode("utf-8", "replace").encode("utf-32-le"),
          "replace -t utf-32le: equals Python")
    c = run(["check", KUHN])
    check(c.returncode == 1, "check: exit 1", c.returncode)
    one_line(c.stderr, re.escape(check_line(KUHN, "utf-8", "invalid-lead", 4461, 75, 38)),
             "check: FILE:75:38: invalid utf-8 (invalid-lead) at byte offset 4461")
    check(c.stdout == b"", "check: nothing on stdout")


# ------------------------------------------------------------------ 6. check

@test
def check_several_files():
    d = tempfile.mkdtemp(dir=TMP)
    write(os.path.join(d, "good1.txt"), "line one\nline \u00e9\u20ac\U0001f600\n".encode())
    write(os.path.join(d, "bad1.txt"), b"ok\nabc\xed\xa0\x80rest\n")
    write(os.path.join(d, "good2.txt"), b"")
    write(os.path.join(d, "bad2.txt"), b"\xff")
    bad3 = "\u00e9\n\n\u4e2d\u6587x".encode() + b"\xe2\x82"
    write(os.path.join(d, "bad3.txt"), bad3)
    args = ["check", "good1.txt", "bad1.txt", "good2.txt", "bad2.txt", "bad3.txt"]
    p = run(args, cwd=d)
    want = "".join(l + "\n" for l in (
        check_line("bad1.txt", "utf-8", "surrogate", 6, 2, 4),
        check_line("bad2.txt", "utf-8", "invalid-lead", 0, 1, 1),
        check_line("bad3.txt", "utf-8", "truncated", len(bad3) - 2, 3, 4)))
    check(p.returncode == 1, "mixed files: exit 1", p.returncode)
    check(text(p.stderr) == want, "mixed files: exactly one line per invalid file, in order",
          "got:\n%swant:\n%s" % (text(p.stderr), want))
    check(p.stdout == b"", "mixed files: nothing on stdout", short(p.stdout))
    p = run(["check", "good1.txt", "good2.txt", os.path.join(d, "good1.txt")], cwd=d)
    check(p.returncode == 0 and p.stdout == b"" and p.stderr == b"",
          "all valid: exit 0, prints nothing", (p.returncode, p.stdout, p.stderr))
    # -f with check
    write(os.path.join(d, "w16.txt"), enc("a\n\U0001f600b", "utf-16le"))
    write(os.path.join(d, "w16bad.txt"), enc("a\n\U0001f600b", "utf-16le") + b"\x00\xdc")
    p = run(["check", "-f", "utf-16le", "w16.txt", "w16bad.txt"], cwd=d)
    check(p.returncode == 1, "check -f utf-16le: exit 1", p.returncode)
    check(text(p.stderr) == check_line("w16bad.txt", "utf-16le", "surrogate", 10, 2, 3) + "\n",
          "check -f utf-16le: exact line", text(p.stderr))
    write(os.path.join(d, "w32.txt"), enc("ok", "utf-32be"))
    p = run(["check", "--from=UTF-32BE", "w32.txt"], cwd=d)
    check(p.returncode == 0 and p.stderr == b"", "check --from=UTF-32BE valid: exit 0",
          (p.returncode, text(p.stderr)))
    # standard input via '-'
    p = run(["check", "-"], "fine \u00e9\n".encode())
    check(p.returncode == 0 and p.stderr == b"" and p.stdout == b"",
          "check - (valid stdin): exit 0, silent", (p.returncode, text(p.stderr)))
    p = run(["check", "-"], b"ab\ncd\xc1\x81")
    check(p.returncode == 1, "check - (invalid stdin): exit 1", p.returncode)
    one_line(p.stderr, re.escape(check_line("<stdin>", "utf-8", "overlong", 5, 2, 3)),
             "check - (invalid stdin): FILE is <stdin>")
    p = run(["check", "good1.txt", "-", "bad2.txt"], b"\x80", cwd=d)
    check(p.returncode == 1, "check file - file: exit 1", p.returncode)
    check(text(p.stderr).splitlines()[-1:] == [check_line("bad2.txt", "utf-8", "invalid-lead",
                                                          0, 1, 1)],
          "check file - file: the file after stdin is still checked", text(p.stderr))
    check(len(text(p.stderr).splitlines()) == 2, "check file - file: two lines",
          text(p.stderr))


# ------------------------------------------------------------------ 7. BOM

BOM = "\ufeff"


@test
def bom_modes():
    pairs = [("utf-8", "utf-8"), ("utf-16le", "utf-8"), ("utf-8", "utf-16le"),
             ("utf-16le", "utf-16le"), ("utf-32be", "utf-16be")]
    body = "ab\n" + BOM + "c\u00e9"   # a U+FEFF in the middle, never touched
    cases = [
        # (input text, mode, expected output text)
        (BOM + body, "keep", BOM + body),
        (body, "keep", body),
        (BOM + body, "strip", body),
        (body, "strip", body),                  # mid-stream U+FEFF is not stripped
        (BOM + BOM + body, "strip", BOM + body),  # only the very first one
        ("x" + BOM, "strip", "x" + BOM),
        (body, "add", BOM + body),
        (BOM + body, "add", BOM + body),        # not doubled
        ("", "add", BOM),
        ("", "strip", ""),
        (BOM, "strip", ""),
        (BOM, "add", BOM),
        (BOM, "keep", BOM),
    ]
    for frm, to in pairs:
        for src, mode, want in cases:
            p = run(["-f", frm, "-t", to, "--bom=" + mode], enc(src, frm))
            check(p.returncode == 0 and p.stdout == enc(want, to),
                  "-f %s -t %s --bom=%s on %r" % (frm, to, mode, src),
                  "rc=%d got %s want %s" % (p.returncode, short(p.stdout),
                                            short(enc(want, to))))
    # the BOM is added in the output encoding, once
    p = run(["-t", "utf-16le", "--bom=add"], b"hi")
    check(p.stdout == b"\xff\xfeh\x00i\x00", "add -t utf-16le: FF FE once", short(p.stdout))
    p = run(["-t", "utf-32be", "--bom=add"], b"\xef\xbb\xbfhi")
    check(p.stdout == b"\x00\x00\xfe\xff\x00\x00\x00h\x00\x00\x00i",
          "add -t utf-32be with input BOM: 00 00 FE FF once", short(p.stdout))
    # default is keep
    p = run([], b"\xef\xbb\xbfhi")
    check(p.stdout == b"\xef\xbb\xbfhi", "default --bom=keep", short(p.stdout))
    # replace mode: an invalid first sequence is not a BOM and the BOM after it is kept
    p = run(["--errors=replace", "--bom=strip"], b"\x80\xef\xbb\xbfx")
    check(p.stdout == "\ufffd\ufeffx".encode(), "strip: a BOM after a replaced byte is kept",
          short(p.stdout))


@test
def bom_several_files():
    a = tmpfile("bom-a.txt", b"ab")
    b = tmpfile("bom-b.txt", b"cd")
    ab = tmpfile("bom-ab.txt", b"\xef\xbb\xbfab")
    bb = tmpfile("bom-bb.txt", b"\xef\xbb\xbfcd")
    E = b"\xef\xbb\xbf"
    cases = [
        (["--bom=add", a, b], E + b"abcd", "add, no BOMs: one BOM before the first file"),
        (["--bom=add", a, b, a], E + b"abcdab", "add, three files: one BOM"),
        (["--bom=add", ab, b], E + b"abcd", "add, first has a BOM: not doubled"),
        (["--bom=add", ab, bb], E + b"ab" + E + b"cd",
         "add, both have BOMs: one at the start, the second file's is mid-stream content"),
        (["--bom=keep", ab, bb], E + b"ab" + E + b"cd", "keep, both have BOMs"),
        (["--bom=strip", ab, b], b"abcd", "strip, first has a BOM"),
        (["--bom=strip", ab, bb], b"ab" + E + b"cd",
         "strip: only the BOM at the very start of the (one) output stream is dropped"),
        (["--bom=strip", a, bb], b"ab" + E + b"cd", "strip: a mid-stream BOM is never stripped"),
    ]
    for args, want, what in cases:
        p = run(args)
        check(p.returncode == 0 and p.stdout == want, what,
              "%s: rc=%d got %r want %r" % (" ".join(os.path.basename(x) for x in args),
                                            p.returncode, p.stdout, want))
    p = run(["--bom=add", "-t", "utf-16be", a, b])
    check(p.stdout == b"\xfe\xff" + enc("abcd", "utf-16be"), "add -t utf-16be, two files",
          short(p.stdout))


# ------------------------------------------------------------------ 8. streaming

def big_input(size):
    """Deterministic, varied UTF-8 text of about `size` bytes (every length of
    sequence, lines of every length, so characters straddle any chunk size)."""
    rng = random.Random(20261122)
    alphabet = ("abcdefghijklmnopqrstuvwxyz ABCDEFGHIJ 0123456789 \u00e9\u00df\u00f1\u0416"
                "\u05d0\u0627\u0939\u0e01\u20ac\u4e2d\u6587\u65e5\u672c\uac00\ufeff\ufffd"
                "\U0001f600\U0001f4a9\U00010348\U0010fffd")
    words = ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 13)))
             for _ in range(4000)]
    parts = []
    n = 0
    while n < size:
        line = " ".join(rng.choice(words) for _ in range(rng.randint(0, 40))) + "\n"
        b = line.encode()
        parts.append(b)
        n += len(b)
    return b"".join(parts)


@test
def streaming_20mb_bounded_memory():
    data = big_input(20 * 1024 * 1024)
    want = data.decode("utf-8").encode("utf-16-le")
    tv = "/usr/bin/time" if os.path.exists("/usr/bin/time") else None
    emulator = os.environ.get("UTFDFA_CLI_EMULATOR")  # make check-cross: BIN runs under qemu
    argv = [BIN, "-f", "utf-8", "-t", "utf-16le"]
    if tv and emulator:
        note("under %s the max RSS is the emulator's: memory bound not measured" % emulator)
        tv = None
    elif tv:
        argv = [tv, "-v"] + argv
    else:
        note("/usr/bin/time is absent (Debian package 'time'): memory bound not measured")
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)

    def feed():  # generated chunks, written as they come
        try:
            for i in range(0, len(data), 1 << 20):
                p.stdin.write(data[i:i + (1 << 20)])
            p.stdin.close()
        except (BrokenPipeError, OSError):
            pass

    t = threading.Thread(target=feed, daemon=True)
    t.start()
    h = hashlib.sha256()
    total = 0
    while True:
        chunk = p.stdout.read(1 << 20)
        if not chunk:
            break
        h.update(chunk)
        total += len(chunk)
    err = p.stderr.read()
    rc = p.wait(timeout=60)
    t.join(5)
    check(rc == 0, "20 MB: exit 0", (rc, text(err)[-500:]))
    check(total == len(want) and h.hexdigest() == hashlib.sha256(want).hexdigest(),
          "20 MB utf-8 -> utf-16le equals Python", "got %d bytes, want %d" % (total, len(want)))
    if tv:
        m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", text(err))
        if check(m is not None, "/usr/bin/time -v reports the max RSS", text(err)[-400:]):
            kb = int(m.group(1))
            # The bound is the plain build's. Under ASan (make check-sanitize)
            # its shadow memory and allocator add 10-20 MiB of their own;
            # 32 MiB there still fails a CLI that holds the 20 MB input.
            with open(BIN, "rb") as f:
                sanitized = b"__asan_init" in f.read()
            mib = 32 if sanitized else 16
            check(kb < mib * 1024, "max RSS %d KiB < %d MiB%s"
                  % (kb, mib, " (ASan build)" if sanitized else ""), kb)


# ------------------------------------------------------------------ 9. info options, -c

@test
def help_version_list():
    p = run(["--help"])
    out = text(p.stdout)
    check(p.returncode == 0, "--help: exit 0", p.returncode)
    check(p.stderr == b"", "--help: nothing on stderr", text(p.stderr))
    check(out.lower().startswith("usage:") and "utfdfa" in out, "--help: a usage text",
          out[:200])
    for word in ("-f", "-t", "--from", "--to", "--errors", "strict", "replace", "ignore",
                 "--bom", "keep", "strip", "add", "-o", "--output", "-c", "-l", "--help",
                 "--version", "check"):
        check(re.search(r"(?<![\w-])" + re.escape(word) + r"(?![\w])", out) is not None,
              "--help mentions %s" % word)
    p = run(["--version"])
    check(p.returncode == 0 and p.stderr == b"", "--version: exit 0", p.returncode)
    one_line(p.stdout, r"utfdfa \d+\.\d+\.\d+\S*", "--version: 'utfdfa X.Y.Z'")
    hdr = os.path.join(REPO, "include", "utfdfa.h")
    if os.path.isfile(hdr):
        with open(hdr) as f:
            m = re.search(r'#define\s+UTFDFA_VERSION\s+"([^"]+)"', f.read())
        if m:
            check(text(p.stdout).strip() == "utfdfa " + m.group(1),
                  "--version agrees with UTFDFA_VERSION", (text(p.stdout), m.group(1)))
    # -l: a line per encoding, its name first, then the other names it takes
    # (comma-separated; a parenthesis explains), and UTF-16/UTF-32 without
    # a byte order; the other names in one column, no trailing blanks.
    p = run(["-l"])
    lines = text(p.stdout).splitlines()
    check(all(ln == ln.rstrip() for ln in lines), "-l: no trailing blanks",
          [ln for ln in lines if ln != ln.rstrip()])
    columns = {len(ln) - len(ln.split(None, 1)[1]) for ln in lines if len(ln.split(None, 1)) == 2}
    check(len(columns) == 1 and min(columns) >= 2 + max(len(ln.split()[0]) for ln in lines),
          "-l: the other names in one column after the longest name", text(p.stdout))
    check(p.returncode == 0 and p.stderr == b"", "-l: exit 0", p.returncode)
    names = [ln.split()[0] for ln in lines if ln.strip()]
    check(text(p.stdout).endswith("\n") and
          sorted(names) == sorted(ALL_ENCODINGS + ["utf-16", "utf-32"]),
          "-l: every encoding, one a line, name first", text(p.stdout))
    aliases = {}
    for ln in lines:
        name, _, rest = ln.partition(" ")
        aliases[name] = [a.strip() for a in rest.split("(")[0].split(",") if a.strip()]
    for name, want in (("utf-8", "utf8"), ("ucs-4be", "ucs-4"), ("utf-7", "utf7"),
                       ("utf-16", "utf16"), ("utf-32le", "utf32le")):
        check(want in aliases.get(name, []), "-l shows %s for %s" % (want, name),
              aliases.get(name))
    sample = "ok\u00e9\n".encode()
    for name in names:
        written = run(["-t", name], sample)
        check(written.returncode == 0, "-l name %r: -t" % name, written.returncode)
        for other in [name] + aliases.get(name, []):
            for n2 in (other, other.upper()):
                q = run(["-f", n2], written.stdout)
                check(q.returncode == 0 and q.stdout == sample,
                      "-l name %r reads as %s" % (n2, name), (q.returncode, q.stdout[:40]))
                q = run(["-t", n2], sample)
                check(q.returncode == 0 and q.stdout == written.stdout,
                      "-l name %r writes as %s" % (n2, name), (q.returncode, q.stdout[:40]))


def iconv(args, inp):
    return subprocess.run(["iconv"] + list(args), input=inp, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=60)


def fed_slowly(args, data, piece):
    """utfdfa reading `data` from a pipe written `piece` bytes at a time."""
    p = subprocess.Popen([BIN] + list(args), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL)
    got = []
    reader = threading.Thread(target=lambda: got.append(p.stdout.read()), daemon=True)
    reader.start()
    try:
        for i in range(0, len(data), piece):
            p.stdin.write(data[i:i + piece])
            p.stdin.flush()
            time.sleep(0.002)
        p.stdin.close()
    except BrokenPipeError:
        pass  # it stopped reading: an error in the input
    code = p.wait(timeout=60)
    reader.join(timeout=60)
    return code, got[0] if got else b""


@test
def iconv_compatible():
    """glibc's iconv is the oracle: its names, UTF-16/UTF-32 with a byte
    order mark, --from-code/--to-code, //IGNORE and //TRANSLIT, -s."""
    if not shutil.which("iconv"):
        note("iconv is absent: its comparisons are skipped")
        return
    texts = ["", "A", "h\u00e9llo \U0001f600\n", "\ufeffA\u20ac"]
    # Output names, byte for byte as iconv writes them.
    for to in ("UTF-16", "utf16", "UTF-32", "UTF32", "UCS-4", "ucs4", "UTF8", "utf-8",
               "UTF-16LE", "UTF16BE", "UTF32LE", "UTF-7-IMAP", "UCS-4LE", "UCS-4BE"):
        for t in texts:
            want = iconv(["-f", "UTF-8", "-t", to], t.encode())
            got = run(["-f", "UTF-8", "-t", to], t.encode())
            check(got.returncode == 0 and got.stdout == want.stdout,
                  "-t %s as iconv writes %r" % (to, t), (short(got.stdout), short(want.stdout)))
    # UTF-16/UTF-32 input: a BOM decides the byte order and is not text;
    # without one, iconv's default; the BOM split over pipe writes.
    for name, width, codecs in (("UTF-16", 2, ("utf-16-le", "utf-16-be")),
                                ("UTF-32", 4, ("utf-32-le", "utf-32-be"))):
        for t in texts[1:]:
            for codec in codecs:
                body = t.encode(codec)
                for data in ("\ufeff".encode(codec) + body, body):
                    want = iconv(["-f", name, "-t", "UTF-8"], data)
                    got = run(["-f", name, "-t", "UTF-8"], data)
                    check(got.returncode == want.returncode and got.stdout == want.stdout,
                          "-f %s %s as iconv reads it" % (name, short(data)),
                          (short(got.stdout), short(want.stdout)))
                    code, out = fed_slowly(["--from-code", name, "--to-code=UTF-8"], data, 1)
                    check(code == want.returncode and out == want.stdout,
                          "-f %s fed a byte at a time: %s" % (name, short(data)), short(out))
    # //IGNORE is -c; //TRANSLIT replaces (no transliteration); unknown suffixes are refused.
    bad = b"a\xffb\xc0\xafc"
    got = run(["-t", "UTF-8//IGNORE"], bad)
    check(got.returncode == 0 and got.stdout == run(["-c"], bad).stdout ==
          iconv(["-c", "-f", "UTF-8", "-t", "UTF-8"], bad).stdout, "//IGNORE is -c, as iconv",
          short(got.stdout))
    got = run(["--to-code=utf8//TRANSLIT"], bad)
    check(got.returncode == 0 and got.stdout == "a\ufffdb\ufffd\ufffdc".encode(),
          "//TRANSLIT replaces", short(got.stdout))
    # Combined suffixes, in either order and with iconv's comma: IGNORE wins
    # (iconv then skips invalid input); a suffix on the source is ignored.
    ignored = iconv(["-c", "-f", "UTF-8", "-t", "UTF-8"], bad).stdout
    for to in ("UTF-8//TRANSLIT//IGNORE", "utf-8//ignore//translit", "UTF-8//TRANSLIT,IGNORE",
               "UTF-8//IGNORE//", "UTF-16LE//TRANSLIT//IGNORE"):
        want = iconv(["-f", "UTF-8", "-t", to], bad)
        got = run(["-t", to], bad)
        check(got.returncode == 0 and got.stdout == want.stdout and
              got.stdout == ignored.decode().encode(to.split("/")[0].lower()),
              "-t %s as iconv writes it" % to, (got.returncode, short(got.stdout), short(want.stdout)))
    for frm in ("UTF-8//IGNORE", "utf-8//TRANSLIT", "UTF-8//TRANSLIT//IGNORE"):
        want = iconv(["-f", frm, "-t", "UTF-16LE"], "ok\u00e9".encode())
        got = run(["-f", frm, "-t", "UTF-16LE"], "ok\u00e9".encode())
        check(want.returncode == 0 and (got.returncode, got.stdout) == (0, want.stdout),
              "-f %s: the suffix ignored, as iconv" % frm, (got.returncode, text(got.stderr)))
        got = run(["-f", frm], bad)
        check(got.returncode == 1 and got.stdout == b"a",
              "-f %s: still strict (the suffix is the output's business)" % frm, got.returncode)
    for args in (["-t", "utf-8//BOGUS"], ["-t", "utf-8//IGNORE//BOGUS"], ["-f", "utf-8//BOGUS"]):
        got = run(args, b"x")
        check(got.returncode == 2 and got.stdout == b"", "%s refused" % " ".join(args),
              got.returncode)
        one_line(got.stderr, USAGE_RE, "%s: one message" % " ".join(args))
    # -s: no message, the same status.
    got = run(["-s"], b"a\xff")
    check(got.returncode == 1 and got.stderr == b"" and got.stdout == b"a", "-s is silent",
          (got.returncode, text(got.stderr)))


@test
def variant_encodings():
    # RFC 2279bis section 3: U+200000 is F8 88 80 80 80; it goes to ucs-4 and
    # back, but not into RFC 3629's UTF-8 (an error of the input at its offset).
    src = b"A\xf8\x88\x80\x80\x80B"
    p = run(["-f", "utf-8-rfc2279", "-t", "ucs-4be"], src)
    check(p.returncode == 0 and p.stdout == b"\0\0\0A\0\x20\0\0\0\0\0B",
          "rfc2279 -> ucs-4be", (p.returncode, p.stdout))
    q = run(["-f", "ucs-4be", "-t", "utf-8-rfc2279"], p.stdout)
    check(q.returncode == 0 and q.stdout == src, "ucs-4be -> rfc2279 round trip", q.stdout)
    p = run(["-f", "utf-8-rfc2279"], src)
    one_line(p.stderr, re.escape("utfdfa: <stdin>: invalid utf-8-rfc2279 (too-large) at byte "
                                 "offset 1, line 1, column 2"), "rfc2279 -> utf-8 strict")
    check(p.returncode == 1 and p.stdout == b"A", "rfc2279 -> utf-8: exit 1, 'A' written",
          (p.returncode, p.stdout))
    p = run(["-f", "utf-8-rfc2279", "--errors=replace"], src)
    check(p.returncode == 0 and p.stdout == "A\ufffdB".encode(), "rfc2279 -> utf-8 replace",
          p.stdout)
    # Corrected UTF-8: C0 AF is U+00CF; U+0085 (C1) cannot be written; 00 is an error.
    p = run(["-f", "corrected-utf-8"], b"\xc0\xaf")
    check(p.returncode == 0 and p.stdout == "\u00cf".encode(), "corrected C0 AF", p.stdout)
    p = run(["-t", "corrected-utf-8"], "\u00cf".encode())
    check(p.returncode == 0 and p.stdout == b"\xc0\xaf", "to corrected: U+00CF", p.stdout)
    p = run(["-t", "corrected-utf-8"], "x\u0085".encode())
    one_line(p.stderr, re.escape("utfdfa: <stdin>: invalid utf-8 (unencodable) at byte offset 1, "
                                 "line 1, column 2"), "to corrected: C1 control")
    check(p.returncode == 1, "to corrected: C1 control exits 1", p.returncode)
    # --corrected-pua: the spec's private-use mapping, both ways. Read without
    # the option, what was written is the private-use image itself.
    p = run(["-t", "corrected-utf-8", "--corrected-pua"], "x\u0085y".encode())
    q = run(["-f", "corrected-utf-8"], p.stdout)
    r = run(["-f", "corrected-utf-8", "--corrected-pua"], p.stdout)
    check(p.returncode == 0 and q.stdout == "x\U000f0085y".encode()
          and r.returncode == 0 and r.stdout == "x\u0085y".encode(),
          "--corrected-pua: U+0085 written as U+F0085 and read back",
          (p.returncode, p.stdout, q.stdout, r.stdout))
    p = run(["-f", "wtf-8", "-t", "corrected-utf-8", "--corrected-pua"], b"a\xed\xa0\x80")
    q = run(["-f", "corrected-utf-8", "-t", "wtf-8", "--corrected-pua"], p.stdout)
    check(p.returncode == 0 and q.returncode == 0 and q.stdout == b"a\xed\xa0\x80"
          and run(["-f", "corrected-utf-8"], p.stdout).stdout == "a\U000fd800".encode(),
          "--corrected-pua: a lone surrogate as U+FD800 and back", (p.stdout, q.stdout))
    p = run(["-t", "corrected-utf-8", "--corrected-pua"], "\U000f0085".encode())
    check(p.returncode == 1 and b"(unencodable)" in p.stderr,
          "--corrected-pua: the image itself is unencodable (the mapping is exact)", p.stderr)
    p = run(["check", "-f", "corrected-utf-8", "-"], b"ab\x00")
    one_line(p.stderr, re.escape("<stdin>:1:3: invalid corrected-utf-8 (nul) at byte offset 2"),
             "corrected: 00 is an error")
    # The magic number: a signature at the start, stripped by default, kept on
    # request (as U+10E7D U+ED4E U+0000 U+000A), written by --bom=add.
    magic = b"\xef\xb7\x9d\xed\xb2\xae\x00\x0a"
    p = run(["-f", "corrected-utf-8"], magic + b"hi\n")
    check(p.returncode == 0 and p.stdout == b"hi\n", "corrected: magic stripped by default",
          p.stdout)
    p = run(["-f", "corrected-utf-8", "--bom=keep"], magic + b"hi")
    check(p.returncode == 0 and p.stdout == "\U00010e7d\ued4e\x00\nhi".encode(),
          "corrected: --bom=keep keeps the magic's characters", p.stdout)
    p = run(["-t", "corrected-utf-8", "--bom=add"], b"hi")
    check(p.returncode == 0 and p.stdout == magic + b"hi", "to corrected: --bom=add writes it",
          p.stdout)
    p = run(["-f", "corrected-utf-8", "-t", "corrected-utf-8", "--bom=add"], magic + b"hi")
    check(p.returncode == 0 and p.stdout == magic + b"hi", "corrected: --bom=add not doubled",
          p.stdout)
    p = run(["check", "-f", "corrected-utf-8", "-"], magic + b"ok\xfe\x80\xff")
    check(p.returncode == 0 and p.stderr == b"", "check: magic and reserved units are valid",
          p.stderr)
    # Reserved units (FE/FF ...): carried through to corrected-utf-8, errors elsewhere.
    res = b"a\xfe\x80\x80b\xff"
    p = run(["-f", "corrected-utf-8", "-t", "corrected-utf-8"], res)
    check(p.returncode == 0 and p.stdout == res, "corrected -> corrected keeps reserved units",
          p.stdout)
    p = run(["-f", "corrected-utf-8"], res)
    one_line(p.stderr, re.escape("utfdfa: <stdin>: invalid corrected-utf-8 (reserved) at byte "
                                 "offset 1, line 1, column 2"), "corrected -> utf-8: reserved")
    p = run(["-f", "corrected-utf-8", "--errors=replace"], res)
    check(p.returncode == 0 and p.stdout == "a\ufffdb\ufffd".encode(),
          "corrected -> utf-8 replace: one U+FFFD per reserved unit", p.stdout)
    # Everything in the corpus survives utf-8 -> corrected -> utf-8 and -> rfc2279 -> utf-8.
    corpus = os.path.join(SHARED, "corpus", "lipsum") if SHARED else None
    if corpus and os.path.isdir(corpus):
        for name in sorted(os.listdir(corpus)):
            if not name.endswith(".txt"):
                continue
            with open(os.path.join(corpus, name), "rb") as f:
                data = f.read()
            for mid in ("corrected-utf-8", "utf-8-rfc2279", "ucs-4le"):
                a = run(["-t", mid], data)
                b = run(["-f", mid], a.stdout)
                check(a.returncode == 0 and b.returncode == 0 and b.stdout == data,
                      "%s through %s and back" % (name, mid), (a.returncode, b.returncode))


@test
def dash_c_is_errors_ignore():
    S = get_samples()
    for frm in ENCODINGS:
        for to in ("utf-8", "utf-16be"):
            stream = b"".join(S[frm][:120])
            a = run(["-c", "-f", frm, "-t", to], stream)
            b = run(["--errors=ignore", "-f", frm, "-t", to], stream)
            check(a.returncode == 0, "-c -f %s -t %s: exit 0" % (frm, to), a.returncode)
            check(a.stdout == b.stdout == py_convert(stream, frm, to, "ignore"),
                  "-c -f %s -t %s: same as --errors=ignore (and Python)" % (frm, to))
    p = run(["-c"], b"a\xffb\xe2\x82")
    check(p.returncode == 0 and p.stdout == b"ab", "-c drops ill-formed bytes, exit 0",
          (p.returncode, p.stdout))


# ------------------------------------------------------------------ main

def main():
    global BIN, TMP
    if len(sys.argv) != 2:
        print("usage: %s BUILD_DIR" % sys.argv[0], file=sys.stderr)
        print("test_cli: 0 passed, 1 failed")
        return 2
    BIN = os.path.abspath(os.path.join(sys.argv[1], "utfdfa"))
    if not os.access(BIN, os.X_OK):
        print("FAIL: %s is not an executable (build it with 'make all')" % BIN)
        print("test_cli: 0 passed, 1 failed")
        return 1
    TMP = tempfile.mkdtemp(prefix="utfdfa-cli-")
    t0 = time.monotonic()
    try:
        R.run_all()
    finally:
        for root, dirs, files in os.walk(TMP):
            for n in files + dirs:
                try:
                    os.chmod(os.path.join(root, n), 0o700, follow_symlinks=False)
                except (OSError, NotImplementedError):
                    pass
        shutil.rmtree(TMP, ignore_errors=True)
    if VALGRIND_PER_TEST:
        print("info: %d invocations under valgrind" % R.valgrind_runs)
    print("info: %.1f s" % (time.monotonic() - t0))
    print("test_cli: %d passed, %d failed" % (R.passed, R.failed))
    return 1 if R.failed else 0


if __name__ == "__main__":
    sys.exit(main())
