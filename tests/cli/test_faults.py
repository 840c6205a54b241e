#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The utfdfa command-line tool under faults, and nothing lost (issue 6).

    python3 tests/cli/test_faults.py BUILD_DIR              (BUILD_DIR/utfdfa)
    python3 tests/cli/test_faults.py BUILD_DIR --big        only the 2 GiB stream
    python3 tests/cli/test_faults.py BUILD_DIR --valgrind   representative commands
                                                            under valgrind

The contract under test (README, src/cli/): a read or write error is
reported with one clear message naming the file and the reason, and exit
status 3; the output written before any failure holds whole characters only;
never exit 0 after a failed write; -o naming an input is refused (exit 2)
and the input is left intact; memory is bounded whatever the input size;
transcoding loses nothing; --errors=strict output is a prefix of the
--errors=replace and --errors=ignore outputs.

Faults come from the kernel itself where it can make them (/proc/self/mem
gives EIO, a directory on stdin EISDIR, /dev/full ENOSPC, RLIMIT_FSIZE a
short write then EFBIG, a closed pipe EPIPE, a slow reader short writes)
and otherwise from strace's fault injection (-P FILE -e inject=...): EIO
on the nth read or write or on close, EINTR on reads and writes. Without
strace (Debian package strace) or ptrace permission those checks are
skipped with a note.

Known findings (see KNOWN): checks listed there are counted as "known"
instead of failed until src/ is fixed; when such a check passes, a note asks
to remove it from KNOWN.

Python 3 standard library only; fixed random seeds. Last line:
"test_faults: N passed, M failed"; exit status 1 when M > 0.
"""

import fcntl
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SHARED = os.path.normpath(os.path.join(REPO, "..", "shared"))
LIPSUM = os.path.join(SHARED, "corpus", "lipsum")
KUHN = os.path.join(SHARED, "conformance", "UTF-8-test.txt")

ENCODINGS = ["utf-8", "utf-16le", "utf-16be", "utf-32le", "utf-32be"]
PYNAME = {"utf-8": "utf-8", "utf-16le": "utf-16-le", "utf-16be": "utf-16-be",
          "utf-32le": "utf-32-le", "utf-32be": "utf-32-be"}
RSS_LIMIT_KIB = 4 * 1024  # "a few MiB" for a 2 GiB stream

# Findings reported to the maintainers, not yet fixed in src/: check name
# prefix -> finding id. Such checks print KNOWN instead of FAIL.
KNOWN = {}

BIN = None
TMP = None


class Registry:
    def __init__(self):
        self.tests, self.passed, self.failed, self.known = [], 0, 0, 0
        self.findings = set()
        self.current = None

    def test(self, fn):
        self.tests.append(fn)
        return fn

    def check(self, cond, what, detail=""):
        finding = next((f for k, f in KNOWN.items() if what.startswith(k)), None)
        if cond:
            self.passed += 1
            if finding:
                self.note("%s passes now: finding %s looks fixed; remove it from KNOWN"
                          % (what, finding))
        elif finding:
            self.known += 1
            self.findings.add(finding)
            print("KNOWN %s (finding %s): %s" % (self.current, finding, what), flush=True)
        else:
            self.failed += 1
            msg = "FAIL %s: %s" % (self.current, what)
            if detail:
                msg += "\n      " + str(detail).replace("\n", "\n      ")[:2000]
            print(msg, flush=True)
        return bool(cond)

    def note(self, text):
        print("note %s: %s" % (self.current, text), flush=True)

    def run(self, tests):
        for fn in tests:
            self.current = fn.__name__
            t0 = time.monotonic()
            try:
                fn()
            except Exception:
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

def run(args, inp=b"", timeout=120, **kw):
    if isinstance(inp, (bytes, bytearray)):
        return subprocess.run([BIN] + list(args), input=inp, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=timeout, **kw)
    return subprocess.run([BIN] + list(args), stdin=inp, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=timeout, **kw)


def text(b):
    return b.decode("utf-8", "backslashreplace")


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)
    return path


def tmp(name, data=None):
    path = os.path.join(TMP, name)
    if data is not None:
        write(path, data)
    return path


def read(path):
    with open(path, "rb") as f:
        return f.read()


def one_message(stderr, what, *words):
    """Exactly one line 'utfdfa: ...' that contains each of words."""
    lines = text(stderr).splitlines()
    ok = len(lines) == 1 and lines[0].startswith("utfdfa: ")
    ok = ok and all(w.lower() in lines[0].lower() for w in words)
    return check(ok, what + ": one message 'utfdfa: ...' naming %s" % (", ".join(words)),
                 text(stderr))


def whole_characters(data, enc):
    """Output of valid text is whole characters iff it decodes strictly."""
    try:
        data.decode(PYNAME[enc])
        return True
    except UnicodeDecodeError:
        return False


def mixed_text(rng, n):
    """Valid text: every length of character, BOM, NUL, noncharacters, limits."""
    special = ["\x00", "\n", "\r\n", "\ufeff", "\ufffe", "\uffff", "\ufffd", "\U0010ffff",
               "\U00010000", "\ud7ff", "\ue000", "\x7f", "\x80", "\u07ff", "\u0800"]
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.1:
            out.append(rng.choice(special))
        elif r < 0.4:
            out.append(chr(rng.randrange(0x20, 0x7F)))
        elif r < 0.6:
            out.append(chr(rng.randrange(0x80, 0x800)))
        elif r < 0.8:
            c = rng.randrange(0x800, 0x10000)
            out.append(chr(c) if not 0xD800 <= c <= 0xDFFF else "x")
        else:
            out.append(chr(rng.randrange(0x10000, 0x110000)))
    return "".join(out)


def hostile_bytes(rng, enc, n):
    """Valid text in enc with ill-formed units spliced in."""
    data = bytearray(mixed_text(rng, n).encode(PYNAME[enc]))
    bad = {"utf-8": [b"\x80", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xff",
                     b"\xe2\x82", b"\xf0\x9f\x98"],
           "utf-16le": [b"\x00\xd8", b"\x00\xdc", b"\x3d\xd8\x41\x00"],
           "utf-16be": [b"\xd8\x00", b"\xdc\x00", b"\xd8\x3d\x00\x41"],
           "utf-32le": [b"\x00\x00\x11\x00", b"\x00\xd8\x00\x00", b"\xff\xff\xff\xff"],
           "utf-32be": [b"\x00\x11\x00\x00", b"\x00\x00\xd8\x00", b"\x80\x00\x00\x00"]}[enc]
    unit = 1 if enc == "utf-8" else 2 if enc.startswith("utf-16") else 4
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(len(data) // unit + 1) * unit
        data[at:at] = rng.choice(bad)
    if rng.random() < 0.3:
        data += b"\x3d"  # a trailing partial unit
    return bytes(data)


# ------------------------------------------------------------------ strace

_STRACE = None


def strace_ok():
    """strace present and allowed to trace (ptrace may be forbidden)."""
    global _STRACE
    if _STRACE is None:
        exe = shutil.which("strace")
        _STRACE = False
        if exe:
            p = subprocess.run([exe, "-o", os.devnull, "true"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
            _STRACE = exe if p.returncode == 0 else False
            if not _STRACE:
                note("strace cannot trace here (%s): fault injection skipped"
                     % text(p.stderr).strip()[:200])
        else:
            note("strace is not installed (Debian package strace): fault injection skipped")
    return _STRACE


def under_strace(path, inject, args, stdin_path=None, stdout=subprocess.PIPE, timeout=120):
    """Run the tool with strace injecting `inject` into syscalls on `path`
    only; the result's .injected says whether a fault was injected."""
    log = os.path.join(TMP, "strace.log")
    argv = [strace_ok(), "-f", "-o", log, "-P", path, "-e", inject, BIN] + args
    with open(stdin_path or os.devnull, "rb") as f:
        p = subprocess.run(argv, stdin=f, stdout=stdout, stderr=subprocess.PIPE,
                           timeout=timeout)
    with open(log, "rb") as f:
        p.injected = b"(INJECTED)" in f.read()
    return p


# ------------------------------------------------------------------ 1. reads

@test
def read_errors():
    # EIO from the kernel: reading /proc/self/mem at offset 0 (unmapped).
    if os.path.exists("/proc/self/mem"):
        p = run(["/proc/self/mem"])
        check(p.returncode == 3, "read of /proc/self/mem (EIO): exit 3", (p.returncode,
                                                                           text(p.stderr)))
        one_message(p.stderr, "read of /proc/self/mem", "/proc/self/mem", "read error",
                    "input/output")
        check(p.stdout == b"", "read of /proc/self/mem: nothing written", p.stdout[:100])
        p = run(["check", "/proc/self/mem"])
        check(p.returncode == 3, "check /proc/self/mem: exit 3", (p.returncode, text(p.stderr)))
    else:
        note("/proc/self/mem is absent; skipped")
    # EISDIR: standard input is a directory.
    d = os.open(TMP, os.O_RDONLY)
    try:
        p = run([], d)
    finally:
        os.close(d)
    check(p.returncode == 1, "stdin is a directory: exit 1 (as a directory FILE)",
          (p.returncode, text(p.stderr)))
    one_message(p.stderr, "stdin is a directory", "<stdin>", "is a directory")
    # EIO in the middle of the stream (strace): what was written before is
    # whole characters and a prefix of the right output.
    if not strace_ok():
        return
    rng = random.Random(1)
    src = mixed_text(rng, 200000)
    inp = tmp("read-eio.txt", src.encode())
    for to in ("utf-8", "utf-16le", "utf-32be"):
        want = src.encode(PYNAME[to])
        for nth in (1, 2, 3):
            p = under_strace(inp, "inject=read:error=EIO:when=%d" % nth, ["-t", to],
                             stdin_path=inp)
            what = "read EIO on read #%d (-> %s)" % (nth, to)
            check(p.returncode == 3, what + ": exit 3", (p.returncode, text(p.stderr)))
            one_message(p.stderr, what, "<stdin>", "read error", "input/output")
            check(want.startswith(p.stdout), what + ": output so far is a prefix of the output",
                  len(p.stdout))
            check(whole_characters(p.stdout, to), what + ": output so far is whole characters")


# ------------------------------------------------------------------ 2. writes

@test
def write_errors():
    rng = random.Random(2)
    src = mixed_text(rng, 150000)
    data = src.encode()
    # ENOSPC from the kernel.
    if os.path.exists("/dev/full"):
        for to in ("utf-8", "utf-16be"):
            p = run(["-t", to, "-o", "/dev/full"], data)
            check(p.returncode == 3, "-o /dev/full (%s): exit 3" % to, p.returncode)
            one_message(p.stderr, "-o /dev/full", "/dev/full", "write error", "no space")
            with open("/dev/full", "wb") as full:
                p = subprocess.run([BIN, "-t", to], input=data, stdout=full,
                                   stderr=subprocess.PIPE, timeout=60)
            check(p.returncode == 3, "stdout is /dev/full (%s): exit 3" % to, p.returncode)
            one_message(p.stderr, "stdout is /dev/full", "standard output", "no space")
            # Small output that is only written by the last flush.
            p = run(["-o", "/dev/full"], b"x")
            check(p.returncode == 3, "-o /dev/full, one byte (last flush): exit 3",
                  p.returncode)
    # A short write, then EFBIG (RLIMIT_FSIZE, SIGXFSZ ignored): the file
    # must not end in the middle of a character.
    for to, limit in (("utf-16le", 1001), ("utf-8", 4097), ("utf-32be", 70002)):
        out = tmp("fsize.%s" % to)

        def limit_size(limit=limit):
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)

        p = run(["-t", to, "-o", out], data, preexec_fn=limit_size)
        got = read(out)
        what = "short write then EFBIG (-> %s, limit %d)" % (to, limit)
        check(p.returncode == 3, what + ": exit 3", (p.returncode, text(p.stderr)))
        check(src.encode(PYNAME[to]).startswith(got), what + ": the file is a prefix")
        check(whole_characters(got, to),
              "short write then EFBIG: the file holds whole characters only (-> %s, %d bytes)"
              % (to, len(got)))
    if not strace_ok():
        return
    # EIO on the nth write (strace): whole characters before, exit 3. The
    # output is standard output redirected to a file: strace -P names the
    # file, and -o writes a temporary file of another name.
    inp = tmp("write-eio.txt", data)
    for to in ("utf-8", "utf-16be", "utf-32le"):
        want = src.encode(PYNAME[to])
        for nth in (1, 2, 3, 5):
            out = tmp("write-eio.out")
            with open(out, "wb") as f:
                p = under_strace(out, "inject=write:error=EIO:when=%d" % nth,
                                 ["-t", to], stdin_path=inp, stdout=f)
            got = read(out)
            what = "write EIO on write #%d (-> %s)" % (nth, to)
            if not p.injected:  # fewer writes than that: all must be there
                check(p.returncode == 0 and got == want, what + ": not reached, complete",
                      (p.returncode, len(got), len(want)))
                continue
            check(p.returncode == 3, what + ": exit 3, never success", (p.returncode,
                                                                         text(p.stderr)))
            one_message(p.stderr, what, "standard output", "write error", "input/output")
            check(want.startswith(got) and whole_characters(got, to),
                  what + ": the file holds a prefix of whole characters", len(got))
    # A write error on the last (only) flush, and close() failing.
    out = tmp("close-eio.out")
    small = tmp("small.txt", "tiny \u00e9\n".encode())
    with open(out, "wb") as f:
        p = under_strace(out, "inject=write:error=ENOSPC:when=1", [], stdin_path=small, stdout=f)
    check(p.returncode == 3, "ENOSPC on the final flush: exit 3", (p.returncode,
                                                                  text(p.stderr)))
    with open(out, "wb") as f:
        p = under_strace(out, "inject=close:error=EIO:when=1", [], stdin_path=small, stdout=f)
    check(p.returncode == 3, "close() of the output fails (EIO): exit 3, never success",
          (p.returncode, text(p.stderr)))
    one_message(p.stderr, "close() fails", "standard output", "input/output")


# ------------------------------------------------------------------ 3. pipes

def pipe_run(args, data, reader, timeout=60, sigpipe_ignored=False):
    """Run with stdin fed from data and stdout read by reader(fileobj)
    (with SIGPIPE ignored, as some callers start their children)."""
    ignore = (lambda: signal.signal(signal.SIGPIPE, signal.SIG_IGN)) if sigpipe_ignored else None
    p = subprocess.Popen([BIN] + args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, preexec_fn=ignore)
    err = []

    def feed():
        try:
            for i in range(0, len(data), 65536):
                p.stdin.write(data[i:i + 65536])
            p.stdin.close()
        except (BrokenPipeError, OSError, ValueError):
            pass

    def drain_err():
        err.append(p.stderr.read())

    threads = [threading.Thread(target=feed, daemon=True),
               threading.Thread(target=drain_err, daemon=True)]
    for t in threads:
        t.start()
    got = reader(p.stdout)
    try:
        rc = p.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
        rc = None
    for t in threads:
        t.join(5)
    return rc, got, err[0] if err else b""


@test
def closed_pipe():
    rng = random.Random(3)
    src = mixed_text(rng, 400000)
    data = src.encode()
    want = src.encode("utf-16-le")

    def close_at_once(f):
        f.close()
        return b""

    def read_some_then_close(f):
        got = f.read(100003)
        f.close()
        return got

    # As cat and iconv: quietly (killed by SIGPIPE, or a status without a
    # message), never success; also when the caller ignores SIGPIPE.
    for reader, what in ((close_at_once, "reader gone at once"),
                         (read_some_then_close, "reader gone after 100003 bytes")):
        for ignored in (False, True):
            label = what + (", SIGPIPE ignored by the caller" if ignored else "")
            rc, got, err = pipe_run(["-t", "utf-16le"], data, reader, sigpipe_ignored=ignored)
            check(rc is not None, "closed pipe (%s): the tool does not hang" % label)
            check(rc == -signal.SIGPIPE or (rc is not None and rc > 0 and err == b""),
                  "closed pipe (%s): ends quietly, never success" % label, (rc, text(err)))
            check(want.startswith(got), "closed pipe (%s): what was read is a prefix" % label)


@test
def partial_writes_slow_reader():
    rng = random.Random(4)
    src = mixed_text(rng, 120000)
    data = src.encode()
    for to in ("utf-16be", "utf-8"):
        want = src.encode(PYNAME[to])

        def slow(f):  # small reads with pauses: the writer blocks and resumes
            parts = []
            k = 0
            while True:
                chunk = f.read1(4093) if hasattr(f, "read1") else f.read(4093)
                if not chunk:
                    break
                parts.append(chunk)
                k += 1
                if k % 16 == 0:
                    time.sleep(0.002)
            return b"".join(parts)

        rc, got, err = pipe_run(["-t", to], data, slow)
        check(rc == 0 and got == want, "slow reader (-> %s): exit 0 and complete output" % to,
              (rc, len(got), len(want), text(err)))
    # A non-blocking stdout pipe (EAGAIN when full): either everything
    # arrives (exit 0) or the tool says so (exit 3); never exit 0 with less.
    r, w = os.pipe()
    fcntl.fcntl(w, fcntl.F_SETFL, fcntl.fcntl(w, fcntl.F_GETFL) | os.O_NONBLOCK)
    p = subprocess.Popen([BIN, "-t", "utf-32le"], stdin=subprocess.PIPE, stdout=w,
                         stderr=subprocess.PIPE)
    os.close(w)
    want = src.encode("utf-32-le")
    got = []

    def drain():
        while True:
            time.sleep(0.001)
            b = os.read(r, 65536)
            if not b:
                break
            got.append(b)

    t = threading.Thread(target=drain, daemon=True)
    t.start()
    _, err = p.communicate(data, timeout=60)
    t.join(30)
    os.close(r)
    out = b"".join(got)
    if p.returncode == 0:
        check(out == want, "non-blocking stdout: exit 0 only with the complete output",
              (len(out), len(want)))
    else:
        check(p.returncode == 3, "non-blocking stdout: a failure is exit 3", p.returncode)
        one_message(err, "non-blocking stdout", "standard output")
        note("non-blocking stdout: the tool gives up on EAGAIN (%s)" % text(err).strip())


@test
def interrupted_calls_eintr():
    if not strace_ok():
        return
    rng = random.Random(5)
    src = mixed_text(rng, 300000)
    inp = tmp("eintr.txt", src.encode())
    for to in ("utf-16le", "utf-8"):
        want = src.encode(PYNAME[to])
        p = under_strace(inp, "inject=read:error=EINTR:when=1+2", ["-t", to], stdin_path=inp)
        check(p.returncode == 0 and p.stdout == want,
              "EINTR on every other read (-> %s): exit 0, complete output" % to,
              (p.returncode, len(p.stdout), len(want), text(p.stderr)))
        out = tmp("eintr.out")
        write(out, b"")
        p = under_strace(out, "inject=write:error=EINTR:when=1+2", ["-t", to, "-o", out],
                         stdin_path=inp)
        check(p.returncode == 0 and read(out) == want,
              "EINTR on every other write (-> %s): exit 0, complete output" % to,
              (p.returncode, text(p.stderr)))


# ------------------------------------------------------------------ 4. -o and inputs

@test
def output_never_destroys_an_input():
    orig = "precious \u00e9\U0001f600\n".encode() * 500
    path = tmp("precious.txt", orig)
    # through a file argument: already refused
    p = run(["-o", path, path])
    check(p.returncode == 2 and read(path) == orig, "-o naming the input file: refused, intact",
          (p.returncode, text(p.stderr)))
    # through '-' (stdin is the file)
    with open(path, "rb") as f:
        p = run(["-o", path, "-"], f)
    check(p.returncode == 2 and read(path) == orig,
          "-o naming the input as '-': refused, intact", (p.returncode, text(p.stderr)))
    write(path, orig)
    # through stdin without any file argument
    with open(path, "rb") as f:
        p = run(["-o", path], f)
    check(p.returncode == 2, "-o naming the input through stdin: exit 2",
          (p.returncode, text(p.stderr)))
    check(read(path) == orig, "-o naming the input through stdin: the input is intact")
    write(path, orig)
    with open(path, "rb") as f:
        p = run(["-o", "/dev/stdin"], f)
    check(p.returncode == 2 and read(path) == orig,
          "-o naming the input through stdin (/dev/stdin): refused, intact",
          (p.returncode, text(p.stderr)))
    write(path, orig)


# ------------------------------------------------------------------ 5. nothing lost

@test
def strict_output_is_whole_characters_before_an_error():
    rng = random.Random(6)
    for frm in ENCODINGS:
        for to in ENCODINGS:
            for _ in range(3):
                data = hostile_bytes(rng, frm, rng.randint(0, 3000))
                p = run(["-f", frm, "-t", to], data)
                try:
                    data.decode(PYNAME[frm])
                    check(p.returncode == 0, "%s->%s: valid input, exit 0" % (frm, to))
                    continue
                except UnicodeDecodeError as e:
                    valid_prefix = data[:e.start].decode(PYNAME[frm])
                check(p.returncode == 1, "%s->%s: invalid input, exit 1" % (frm, to),
                      p.returncode)
                # Everything before the first error, whole characters.
                check(p.stdout == valid_prefix.encode(PYNAME[to]),
                      "%s->%s: strict output is exactly the text before the error" % (frm, to),
                      (len(p.stdout), len(valid_prefix.encode(PYNAME[to]))))


def corpus_files():
    files = []
    if os.path.isdir(LIPSUM):
        for name in sorted(os.listdir(LIPSUM)):
            path = os.path.join(LIPSUM, name)
            if os.path.isfile(path):
                files.append(path)
    return files


@test
def corpus_round_trips_every_pair():
    files = corpus_files()
    if not files:
        note("%s is absent; skipped" % LIPSUM)
        return
    texts = []
    for path in files:
        raw = read(path)
        try:
            texts.append((os.path.basename(path), raw.decode("utf-8")))
        except UnicodeDecodeError:
            note("%s is not valid UTF-8; skipped" % path)
    if os.path.isfile(KUHN):  # its replacement decoding is valid text too
        p = run(["--errors=replace", KUHN])
        check(p.returncode == 0, "Kuhn's test --errors=replace: exit 0", p.returncode)
        texts.append(("UTF-8-test.txt (replaced)", p.stdout.decode("utf-8")))
    for name, txt in texts:
        bad = []
        for a in ENCODINGS:
            src = txt.encode(PYNAME[a])
            for b in ENCODINGS:
                if a == b:
                    continue
                p = run(["-f", a, "-t", b], src)
                q = run(["-f", b, "-t", a], p.stdout)
                if not (p.returncode == 0 and p.stdout == txt.encode(PYNAME[b])
                        and q.returncode == 0 and q.stdout == src):
                    bad.append("%s->%s->%s" % (a, b, a))
        check(not bad, "%s: every pair of encodings round-trips byte-identical" % name, bad)


@test
def random_texts_round_trip():
    rng = random.Random(7)
    for k in range(12):
        txt = mixed_text(rng, rng.choice([1, 2, 17, 1000, 70000]))
        bad = []
        for a in ENCODINGS:
            src = txt.encode(PYNAME[a])
            for b in ENCODINGS:
                p = run(["-f", a, "-t", b], src)
                q = run(["-f", b, "-t", a], p.stdout)
                if not (p.returncode == 0 and p.stdout == txt.encode(PYNAME[b])
                        and q.returncode == 0 and q.stdout == src):
                    bad.append("%s->%s->%s" % (a, b, a))
        check(not bad, "random text %d (%d characters): byte-identical round trips"
              % (k, len(txt)), bad)


@test
def strict_is_a_prefix_of_replace_and_ignore():
    rng = random.Random(8)
    inputs = []
    for frm in ENCODINGS:
        for _ in range(40):
            inputs.append((frm, hostile_bytes(rng, frm, rng.choice([0, 1, 5, 50, 500, 5000]))))
    if os.path.isfile(KUHN):
        inputs.append(("utf-8", read(KUHN)))
    bad = 0
    for frm, data in inputs:
        to = rng.choice(ENCODINGS)
        s = run(["-f", frm, "-t", to], data)
        r = run(["-f", frm, "-t", to, "--errors=replace"], data)
        i = run(["-f", frm, "-t", to, "--errors=ignore"], data)
        ok = (r.returncode == 0 and i.returncode == 0 and s.returncode in (0, 1)
              and r.stdout.startswith(s.stdout) and i.stdout.startswith(s.stdout)
              and r.stdout == data.decode(PYNAME[frm], "replace").encode(PYNAME[to])
              and i.stdout == data.decode(PYNAME[frm], "ignore").encode(PYNAME[to]))
        if not ok:
            bad += 1
            check(False, "%s->%s: strict output not a prefix of replace/ignore" % (frm, to),
                  data[:64])
    check(bad == 0, "strict output is a prefix of replace and ignore on %d inputs" % len(inputs))


# ------------------------------------------------------------------ 6. 2 GiB

def big_block():
    """About 1 MiB of varied whole characters; its length is odd, so the
    tool's chunk boundaries fall everywhere in it over the stream."""
    rng = random.Random(20261122)
    txt = mixed_text(rng, 400000).replace("\x00", "0")
    data = txt.encode()
    while len(data) % 2 == 0:
        data += b"x"
        txt += "x"
    return data, txt.encode("utf-16-le")


def stream_2gib():
    tv = "/usr/bin/time"
    if not os.path.exists(tv):
        check(False, "2 GiB stream: /usr/bin/time is needed (Debian package time)")
        return
    block, block_out = big_block()
    total = 2 << 30
    count = -(-total // len(block))
    p = subprocess.Popen([tv, "-v", BIN, "-f", "utf-8", "-t", "utf-16le"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    err = []

    def feed():  # generated as it goes: 2 GiB are never held anywhere
        try:
            for _ in range(count):
                p.stdin.write(block)
            p.stdin.close()
        except (BrokenPipeError, OSError):
            pass

    threads = [threading.Thread(target=feed, daemon=True),
               threading.Thread(target=lambda: err.append(p.stderr.read()), daemon=True)]
    for t in threads:
        t.start()
    # Compare the output, as it comes, with block_out repeated.
    pattern = block_out + block_out
    L = len(block_out)
    pos = 0
    got = 0
    same = True
    while True:
        chunk = p.stdout.read(min(1 << 20, L))
        if not chunk:
            break
        if same and chunk != pattern[pos:pos + len(chunk)]:
            same = False
        pos = (pos + len(chunk)) % L
        got += len(chunk)
    rc = p.wait(timeout=600)
    for t in threads:
        t.join(10)
    stderr = text(err[0] if err else b"")
    check(rc == 0, "2 GiB stream: exit 0", (rc, stderr[-500:]))
    check(same and got == count * L, "2 GiB stream: the output is right",
          (got, count * L))
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", stderr)
    if check(m is not None, "2 GiB stream: /usr/bin/time -v reports the max RSS", stderr[-300:]):
        kb = int(m.group(1))
        check(kb < RSS_LIMIT_KIB, "2 GiB stream: max RSS %d KiB < %d KiB" % (kb, RSS_LIMIT_KIB))
        print("info: %d MiB in, %d MiB out, max RSS %d KiB" % (count * len(block) >> 20,
                                                                 got >> 20, kb))


# ------------------------------------------------------------------ 7. valgrind

def valgrind_commands():
    """(name, args, stdin bytes or path) covering every code path of the tool."""
    rng = random.Random(9)
    txt = mixed_text(rng, 3000)
    cmds = []
    # every decoder and every encoder, each error mode (valgrind's start-up
    # is most of the time: one command per path, not every combination)
    pairs = [("utf-8", b) for b in ENCODINGS] + [(a, "utf-8") for a in ENCODINGS[1:]] + \
            [("utf-16be", "utf-32le"), ("utf-32be", "utf-16le")]
    for a, b in pairs:
        cmds.append(("%s->%s" % (a, b), ["-f", a, "-t", b], txt.encode(PYNAME[a])))
    for a in ENCODINGS:
        bad = hostile_bytes(rng, a, 2000)
        for mode in ("strict", "replace", "ignore") if a == "utf-8" else ("replace",):
            cmds.append(("%s %s" % (a, mode), ["-f", a, "--errors=" + mode, "-t", "utf-16be"],
                         bad))
    for bom in ("keep", "strip", "add"):
        cmds.append(("bom " + bom, ["--bom=" + bom, "-t", "utf-32le"],
                     "\ufeffab\ufeff".encode()))
    f1 = tmp("vg1.txt", txt.encode())
    f2 = tmp("vg2.txt", b"bad \xff here\n")
    cmds += [
        ("check valid", ["check", f1], b""),
        ("check invalid", ["check", f1, f2], b""),
        ("two files", ["-t", "utf-16le", f1, f1], b""),
        ("-o file", ["-o", tmp("vg-out.txt"), f1], b""),
        ("-o /dev/full", ["-o", "/dev/full"], txt.encode()),
        ("-o is the input", ["-o", f1, f1], b""),
        ("unknown option", ["--frobnicate"], b""),
        ("unknown encoding", ["-f", "latin-1"], b""),
        ("missing file", [tmp("does-not-exist")], b""),
        ("directory", [TMP], b""),
        ("help", ["--help"], b""),
        ("list", ["-l"], b""),
        ("version", ["--version"], b""),
        ("/proc/self/mem", ["/proc/self/mem"], b""),
        ("empty", [], b""),
    ]
    if os.path.isfile(KUHN):
        cmds.append(("Kuhn replace", ["--errors=replace", KUHN], b""))
        cmds.append(("Kuhn check", ["check", KUHN], b""))
    files = corpus_files()
    if files:
        cmds.append(("corpus", ["-t", "utf-16le", files[0]], b""))
    return cmds


def valgrind_run():
    vg = shutil.which("valgrind")
    if not vg:
        check(False, "valgrind is needed (Debian package valgrind)")
        return
    for name, args, inp in valgrind_commands():
        plain = run(args, inp)
        p = subprocess.run([vg, "-q", "--error-exitcode=99", "--leak-check=full",
                            "--errors-for-leak-kinds=definite,indirect", BIN] + args,
                           input=inp, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=300)
        vg_lines = [l for l in text(p.stderr).splitlines() if l.startswith("==")]
        check(p.returncode != 99 and not vg_lines,
              "valgrind: %s: no memory errors or leaks" % name,
              "\n".join(vg_lines[:30]) or p.returncode)
        check(p.returncode == plain.returncode and p.stdout == plain.stdout,
              "valgrind: %s: same exit status and output as without valgrind" % name,
              (p.returncode, plain.returncode))
    # a closed pipe under valgrind
    p = subprocess.Popen([vg, "-q", "--error-exitcode=99", "--leak-check=full",
                          "--errors-for-leak-kinds=definite,indirect", BIN, "-t", "utf-16le"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.close()
    _, err = p.communicate(("pipe \u00e9\n" * 200000).encode(), timeout=300)
    vg_lines = [l for l in text(err).splitlines() if l.startswith("==")]
    check((p.returncode == -signal.SIGPIPE or p.returncode not in (0, 99)) and not vg_lines,
          "valgrind: closed pipe: ends quietly (SIGPIPE), no memory errors",
          (p.returncode, text(err)[:1000]))


# ------------------------------------------------------------------ main

def main():
    global BIN, TMP
    args = sys.argv[1:]
    mode = "default"
    if args and args[-1] in ("--big", "--valgrind"):
        mode = args.pop()[2:]
    if len(args) != 1:
        print("usage: %s BUILD_DIR [--big | --valgrind]" % sys.argv[0], file=sys.stderr)
        print("test_faults: 0 passed, 1 failed")
        return 2
    BIN = os.path.abspath(os.path.join(args[0], "utfdfa"))
    if not os.access(BIN, os.X_OK):
        print("FAIL: %s is not an executable" % BIN)
        print("test_faults: 0 passed, 1 failed")
        return 1
    TMP = tempfile.mkdtemp(prefix="utfdfa-faults-")
    t0 = time.monotonic()
    try:
        if mode == "big":
            R.current = "stream_2gib"
            R.run([stream_2gib])
        elif mode == "valgrind":
            R.run([valgrind_run])
        else:
            R.run(R.tests)
    finally:
        shutil.rmtree(TMP, ignore_errors=True)
    print("info: %.1f s" % (time.monotonic() - t0))
    if R.known:
        print("info: %d check(s) fail for known findings (%s)"
              % (R.known, ", ".join(sorted(R.findings))))
    print("test_faults: %d passed, %d failed" % (R.passed, R.failed))
    return 1 if R.failed else 0


if __name__ == "__main__":
    sys.exit(main())
