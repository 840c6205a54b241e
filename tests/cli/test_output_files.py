#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What the CLI leaves in its output, whatever ends the run.

    python3 tests/cli/test_output_files.py BUILD_DIR

- Under a file size limit with SIGXFSZ at its default (a shell's
  `ulimit -f`), the run is not killed: a message, exit 3, whole characters.
- After a failed write into UTF-7 or IMAP's UTF-7, what is left decodes
  cleanly (no run left open, whole characters), at each of 41 limits.
- --bom=add into UTF-16 or UTF-32 without a byte order writes one BOM:
  read back by Python's BOM-reading codecs, the text has no U+FEFF.
- Standard output that is an input file (`utfdfa f >> f`) is refused, as
  cat refuses it, and the file is left alone.
- -o: a regular file is replaced by a rename, so two runs writing the same
  path leave one whole output; the file keeps its mode; a symbolic link
  stays a link to the written file; a fifo is written in place; a run
  ended by SIGTERM leaves the old file and no temporary file behind.
- A directory on standard input cannot be read: named, exit 1, as a
  directory FILE.
"""

import os
import random
import resource
import shutil
import signal
import stat
import subprocess
import time

from clitest import NOBODY, Suite, copy_for_nobody, read

S = Suite("test_output_files")
test, check = S.test, S.check


def text(rng, n):
    pool = "ab \n\u00e9\u4e2d\U0001f600-+&~"
    return "".join(rng.choice(pool) for _ in range(n))


def limited(limit, ignore_sigxfsz=False):
    def pre():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
        if ignore_sigxfsz:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    return pre


def decodes_as_prefix(got, to, src):
    """got decodes strictly (by Python, or for IMAP by the tool itself) to a
    prefix of src."""
    if to == "utf-7-imap":
        p = S.run(["-f", "utf-7-imap"], got)
        return p.returncode == 0 and src.encode().startswith(p.stdout)
    try:
        return src.startswith(got.decode({"utf-7": "utf-7"}.get(to, to)))
    except UnicodeDecodeError:
        return False


@test
def file_size_limit_is_a_write_error():
    rng = random.Random(1)
    src = text(rng, 20000)
    for to in ("utf-8", "utf-16le", "utf-7", "utf-7-imap"):
        out = S.path("fsize.out")
        p = S.run(["-t", to, "-o", out], src.encode(), preexec_fn=limited(4097))
        what = "ulimit -f, SIGXFSZ at its default (-> %s)" % to
        check(p.returncode == 3, what + ": exit 3, not killed", p.returncode)
        check(b"write error" in p.stderr and b"too large" in p.stderr.lower(),
              what + ": a message", p.stderr)
        check(decodes_as_prefix(read(out), to, src), what + ": whole characters, decodable")


@test
def utf7_after_a_write_error_decodes():
    rng = random.Random(2)
    src = text(rng, 4000)
    for to in ("utf-7", "utf-7-imap"):
        full = S.run(["-t", to], src.encode()).stdout
        bad = 0
        for k in range(41):
            limit = 64 + k * (len(full) - 64) // 41
            out = S.path("u7.out")
            p = S.run(["-t", to, "-o", out], src.encode(), preexec_fn=limited(limit, True))
            got = read(out)
            # Whole characters with their run closed: the text decodes, and
            # to a prefix of the input (a run closed early is no byte prefix
            # of the full output); at most a character's worth is lost.
            ok = p.returncode == 3 and decodes_as_prefix(got, to, src) and len(got) >= limit - 12
            bad += not ok
            check(ok, "-t %s, EFBIG at %d bytes: what is left decodes (%d bytes kept)"
                  % (to, limit, len(got)), (p.returncode, got[-12:]))
        check(bad == 0, "-t %s: every cut decodes" % to, bad)


@test
def bom_add_writes_one_bom():
    for to, py in (("UTF-16", "utf-16"), ("UTF-32", "utf-32")):
        for inp in (b"abc", b"", b"\xef\xbb\xbfabc", "\u00e9\U0001f600".encode()):
            p = S.run(["--bom=add", "-t", to], inp)
            want = inp.decode("utf-8-sig")
            got = p.stdout
            check(p.returncode == 0 and got.decode(py) == want and
                  got.startswith(b"\xff\xfe") and not got[4 if py == "utf-32" else 2:].startswith(
                      "\ufeff".encode(py + "-le")),
                  "--bom=add -t %s of %r: one BOM, then the text" % (to, inp), got[:16])
        p = S.run(["-t", to], b"abc")
        check(p.stdout.decode(py) == "abc", "-t %s: its BOM, then the text" % to, p.stdout)


@test
def standard_output_that_is_an_input():
    orig = "precious \u00e9\n".encode() * 100
    f = S.path("same.txt", orig)
    for args, stdin in (([f], None), ([], f), (["-"], f), (["-t", "utf-8", f], None)):
        with open(f, "ab") as out:
            inp = open(stdin, "rb") if stdin else subprocess.DEVNULL
            try:
                p = subprocess.run([S.bin] + args, stdin=inp, stdout=out, stderr=subprocess.PIPE,
                                   timeout=30)
            except subprocess.TimeoutExpired:
                p = None
            finally:
                if stdin:
                    inp.close()
        what = "utfdfa %s >> FILE%s" % (" ".join(args), " < FILE" if stdin else "")
        check(p is not None, what + ": ends (never reads its own output back)")
        if p is None:
            write_back = open(f, "wb")
            write_back.write(orig)
            write_back.close()
            continue
        check(p.returncode == 2, what + ": refused, exit 2", p.returncode)
        check(b"input file is output file" in p.stderr, what + ": says why", p.stderr)
        check(read(f) == orig, what + ": the file is left alone")
    other = S.path("other.txt")
    with open(other, "wb") as out:
        p = subprocess.run([S.bin, f], stdout=out, stderr=subprocess.PIPE, timeout=30)
    check(p.returncode == 0 and read(other) == orig, "another file as standard output: fine")


@test
def two_runs_one_output_path():
    a = S.path("in-a.txt", ("A\u00e9" * 3000000).encode())
    b = S.path("in-b.txt", ("b\u4e2d" * 2000000).encode())
    want = {read(a).decode().encode("utf-32le"), read(b).decode().encode("utf-32le")}
    out = S.path("shared.out")
    mixed = 0
    for _ in range(5):
        ps = [subprocess.Popen([S.bin, "-t", "utf-32le", "-o", out, x]) for x in (a, b)]
        rcs = [p.wait(timeout=120) for p in ps]
        got = read(out)
        check(rcs == [0, 0], "two runs to one -o: both succeed", rcs)
        mixed += got not in want
    check(mixed == 0, "two runs to one -o: the file is one output, whole, every time", mixed)
    leftovers = [n for n in os.listdir(S.tmp) if n.startswith(".shared.out")]
    check(leftovers == [], "two runs to one -o: no temporary file left", leftovers)


@test
def output_file_kinds():
    src = "text \u00e9\n".encode()
    f = S.path("moded.out", b"old")
    os.chmod(f, 0o640)
    p = S.run(["-o", f], src)
    check(p.returncode == 0 and read(f) == src and stat.S_IMODE(os.stat(f).st_mode) == 0o640,
          "-o an existing file: replaced, its mode kept", oct(os.stat(f).st_mode))
    target = S.path("target.out", b"old")
    link = os.path.join(S.tmp, "link.out")
    os.symlink("target.out", link)
    p = S.run(["-o", link], src)
    check(p.returncode == 0 and os.path.islink(link) and read(target) == src,
          "-o a symbolic link: still a link, its target written")
    fifo = os.path.join(S.tmp, "out.fifo")
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", fifo], stdout=subprocess.PIPE)
    p = S.run(["-o", fifo], src)
    got = reader.communicate(timeout=30)[0]
    check(p.returncode == 0 and got == src and stat.S_ISFIFO(os.stat(fifo).st_mode),
          "-o a fifo: written in place", (p.returncode, got))
    check(not [n for n in os.listdir(S.tmp) if n.startswith(".")], "no temporary file left",
          os.listdir(S.tmp))


@test
def ended_by_a_signal():
    f = S.path("kept.out", b"the old content\n")
    r, w = os.pipe()
    p = subprocess.Popen([S.bin, "-o", f], stdin=r, stderr=subprocess.PIPE)
    os.close(r)
    os.write(w, "part of the new \u00e9 content\n".encode() * 1000)
    time.sleep(0.3)
    temps = [n for n in os.listdir(S.tmp) if n.startswith(".kept.out")]
    p.send_signal(signal.SIGTERM)
    rc = p.wait(timeout=30)
    os.close(w)
    check(temps != [], "-o writes a temporary file beside the target", os.listdir(S.tmp))
    check(rc == -signal.SIGTERM, "SIGTERM ends the run as SIGTERM", rc)
    check(read(f) == b"the old content\n", "SIGTERM: the old file is untouched")
    check(not [n for n in os.listdir(S.tmp) if n.startswith(".kept.out")],
          "SIGTERM: no temporary file left", os.listdir(S.tmp))


@test
def directory_on_standard_input():
    for args in ([], ["check"], ["-"]):
        d = os.open(S.tmp, os.O_RDONLY)
        try:
            p = S.run(args, d)
        finally:
            os.close(d)
        check(p.returncode == 1 and b"<stdin>: is a directory" in p.stderr,
              "utfdfa %s < DIR: exit 1, is a directory" % " ".join(args),
              (p.returncode, p.stderr))


@test
def cut_back_keeps_what_came_before():
    # >> (O_APPEND) under a file size limit: the file's earlier content
    # stays, the new text ends on a whole character.
    old = b"OLDCONTENT-" * 1000 + b"x"
    f = S.path("appended.txt", old)
    src = ("\u00e9" * 40000).encode()
    with open(f, "ab") as out:
        p = subprocess.run([S.bin, "-t", "utf-8"], input=src, stdout=out,
                           stderr=subprocess.PIPE, preexec_fn=limited(65536), timeout=60)
    got = read(f)
    check(p.returncode == 3 and got.startswith(old), ">> under a size limit: the old content stays",
          (p.returncode, len(got)))
    check(src.startswith(got[len(old):]) and len(got[len(old):]) % 2 == 0,
          ">> under a size limit: whole characters after it", len(got))
    # -o naming the file standard output already writes: written there, not replaced.
    log = S.path("log.txt", b"OLD\n")
    with open(log, "ab") as out:
        subprocess.run([S.bin, "-o", "/dev/stdout"], input=b"new\n", stdout=out, timeout=30)
    check(read(log) == b"OLD\nnew\n", "-o /dev/stdout >> log: appended, nothing replaced",
          read(log))
    # UTF-7 text that is one long run: cut back to a whole character and closed.
    src = "\u4e2d" * 30000
    out = S.path("cjk.u7")
    p = S.run(["-t", "utf-7", "-o", out], src.encode(), preexec_fn=limited(16384))
    got = read(out)
    check(p.returncode == 3 and len(got) > 16000 and got.endswith(b"-") and
          decodes_as_prefix(got, "utf-7", src), "-t utf-7, one long run cut: kept, and closed",
          (p.returncode, len(got), got[-8:]))


def as_nobody():
    os.setgroups([])
    os.setgid(NOBODY)
    os.setuid(NOBODY)


@test
def files_the_output_must_not_take_over():
    src = "new \u00e9\n".encode()
    # A file with another hard link is written in place: both names see it.
    a = S.path("linked-a.txt", b"old")
    b = os.path.join(S.tmp, "linked-b.txt")
    os.link(a, b)
    p = S.run(["-o", a], src)
    check(p.returncode == 0 and read(b) == src and os.stat(a).st_ino == os.stat(b).st_ino,
          "-o a file with two names: written in place, still one file")
    if os.geteuid() != 0:
        S.note("not root: the owner and permission checks are skipped")
        return
    # nobody runs a copy of the binary from a place nobody can reach (the
    # checkout may be under a private directory), in a directory of its own.
    reach, nobody_bin, why = copy_for_nobody(S.bin)
    if reach is None:
        S.note("%s: the owner and permission checks are skipped" % why)
        return
    try:
        owner_checks(src, reach, nobody_bin)
    finally:
        shutil.rmtree(reach, ignore_errors=True)


def owner_checks(src, reach, nobody_bin):
    ctl = subprocess.run([nobody_bin, "--version"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, preexec_fn=as_nobody, timeout=30)
    if not check(ctl.returncode == 0, "nobody runs the copy of the binary", ctl.stderr):
        return
    shared = os.path.join(reach, "shared-dir")
    os.mkdir(shared)
    os.chmod(shared, 0o777)
    mine = os.path.join(shared, "nobodys.txt")
    with open(mine, "wb") as f:
        f.write(b"old")
    os.chown(mine, 65534, 65534)
    p = S.run(["-o", mine], src)
    st = os.stat(mine)
    check(p.returncode == 0 and read(mine) == src and (st.st_uid, st.st_gid) == (65534, 65534),
          "-o another user's file (as root): replaced, its owner kept", (st.st_uid, st.st_gid))
    locked = os.path.join(shared, "roots.txt")
    with open(locked, "wb") as f:
        f.write(b"keep")
    os.chmod(locked, 0o444)
    p = subprocess.run([nobody_bin, "-o", locked], input=src, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, preexec_fn=as_nobody, timeout=30)
    check(p.returncode == 2 and read(locked) == b"keep" and os.stat(locked).st_uid == 0,
          "-o a file the user cannot write: refused, left alone (as a shell redirection)",
          (p.returncode, p.stderr))


@test
def standard_streams_and_odd_arguments():
    f = S.path("some.txt", "text \u00e9\n".encode() * 1000)
    p = subprocess.run([S.bin, f], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       preexec_fn=lambda: os.close(1), timeout=30)
    check(p.returncode == 3 and b"write error" in p.stderr,
          "standard output closed: a write error, exit 3", (p.returncode, p.stderr))
    out = S.path("from-closed-stdin.out")
    p = subprocess.run([S.bin, "-o", out], stderr=subprocess.PIPE,
                       preexec_fn=lambda: os.close(0), timeout=30)
    check(p.returncode == 3 and b"read error" in p.stderr,
          "standard input closed: a read error, exit 3", (p.returncode, p.stderr))
    p = S.run(["-o", ""], b"x")
    check(p.returncode == 2, "-o '': a usage error", (p.returncode, p.stderr))
    with open("/dev/full", "wb") as full:
        for args in (["--help"], ["-l"], ["--version"]):
            p = subprocess.run([S.bin] + args, stdout=full, stderr=subprocess.PIPE, timeout=30)
            check(p.returncode == 3, "%s > /dev/full: exit 3" % args[0], p.returncode)
    bad = S.path("bad.txt", b"a\xff")
    p = S.run(["check", bad, os.path.join(S.tmp, "missing.txt"), bad])
    check(p.returncode == 1 and p.stderr.count(b"invalid-lead") == 2,
          "check with a missing FILE: the others still checked, exit 1", (p.returncode, p.stderr))


if __name__ == "__main__":
    S.main()
