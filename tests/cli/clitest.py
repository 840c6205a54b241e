# SPDX-License-Identifier: MIT
"""What the newer CLI suites share: a registry of tests, check(), the
binary, a temporary folder, run(). Each suite ends with the line
"NAME: N passed, M failed" and exits 1 when M > 0."""

import os
import shutil
import subprocess
import sys
import tempfile
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SHARED = os.path.normpath(os.path.join(REPO, "..", "shared"))


class Suite:
    def __init__(self, name):
        self.name, self.tests, self.passed, self.failed = name, [], 0, 0
        self.bin = self.tmp = None

    def test(self, fn):
        self.tests.append(fn)
        return fn

    def check(self, cond, what, detail=""):
        if cond:
            self.passed += 1
            return True
        self.failed += 1
        if self.failed <= 60:
            print("FAIL %s%s" % (what, (": %r" % (detail,))[:400] if detail != "" else ""))
        return False

    def note(self, what):
        print("note: %s" % what)

    def run(self, args, inp=b"", timeout=120, **kw):
        if isinstance(inp, (bytes, bytearray)):
            return subprocess.run([self.bin] + args, input=inp, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, timeout=timeout, **kw)
        return subprocess.run([self.bin] + args, stdin=inp, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=timeout, **kw)

    def path(self, name, data=None):
        p = os.path.join(self.tmp, name)
        if data is not None:
            with open(p, "wb") as f:
                f.write(data)
        return p

    def main(self):
        if len(sys.argv) < 2:
            sys.exit("usage: %s BUILD_DIR" % sys.argv[0])
        self.bin = os.path.abspath(os.path.join(sys.argv[1], "utfdfa"))
        self.tmp = tempfile.mkdtemp(prefix="utfdfa-%s-" % self.name)
        try:
            for t in self.tests:
                try:
                    t()
                except Exception:  # a crash in a test is a failure, the rest still run
                    self.check(False, "%s raised" % t.__name__, traceback.format_exc())
        finally:
            shutil.rmtree(self.tmp, ignore_errors=True)
        print("%s: %d passed, %d failed" % (self.name, self.passed, self.failed))
        sys.exit(1 if self.failed else 0)


NOBODY = 65534


def searchable_by_others(path):
    """Whether every directory from / down to path lets other users through."""
    path = os.path.realpath(path)
    while True:
        try:
            if not os.stat(path).st_mode & 0o001:
                return False
        except OSError:
            return False
        if path == os.path.dirname(path):
            return True
        path = os.path.dirname(path)


def copy_for_nobody(binary):
    """(directory, copy of binary, "") in a fresh directory that user nobody
    can reach, as a checkout under a private (mode 0700) directory cannot
    be; or (None, None, why not). The caller removes the directory."""
    for base in (tempfile.gettempdir(), "/tmp", "/var/tmp", "/dev/shm"):
        if os.path.isdir(base) and searchable_by_others(base):
            break
    else:
        return None, None, "no temporary directory that user nobody can reach"
    d = tempfile.mkdtemp(prefix="utfdfa-nobody-", dir=base)
    os.chmod(d, 0o755)
    copy = os.path.join(d, os.path.basename(binary))
    shutil.copy2(binary, copy)
    os.chmod(copy, 0o755)
    return d, copy, ""


def read(path):
    with open(path, "rb") as f:
        return f.read()
