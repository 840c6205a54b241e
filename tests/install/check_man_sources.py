#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The man pages in the source tree read as they are (man -l man/utfdfa.1).

    python3 tests/install/check_man_sources.py include/utfdfa.h PAGE...

Each page: no @PLACEHOLDER@ left (the build no longer fills any in: it only
replaces the default PREFIX's directories); .TH carries a YYYY-MM-DD date,
the same on every page, and "utfdfa X.Y.Z" with the header's UTFDFA_VERSION;
a '#define UTFDFA_VERSION_*' the page shows is the header's; groff -ww and
man --warnings (when man is installed) render it without a warning.
"""

import os
import re
import shutil
import subprocess
import sys


def header_versions(path):
    with open(path) as f:
        h = f.read()
    found = dict(re.findall(r'^#define (UTFDFA_VERSION(?:_MAJOR|_MINOR|_PATCH)?) (\S+)$', h, re.M))
    found["UTFDFA_VERSION"] = found.get("UTFDFA_VERSION", "").strip('"')
    return found


def warnings(cmd, env=None):
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       env=dict(os.environ, **(env or {})), timeout=60)
    return p.stderr.decode(errors="replace").strip() or ("exit %d" % p.returncode if p.returncode else "")


def main():
    versions, pages = header_versions(sys.argv[1]), sys.argv[2:]
    failures, passed, dates = [], 0, set()

    def check(ok, what):
        nonlocal passed
        if ok:
            passed += 1
        else:
            failures.append(what)

    for page in pages:
        with open(page) as f:
            text = f.read()
        left = sorted(set(re.findall(r"@[A-Z_]+@", text)))
        check(not left, "%s: placeholders the reader would see: %s" % (page, " ".join(left)))
        th = re.search(r'^\.TH \S+ \d (\S+) "utfdfa (\S+)"', text, re.M)
        check(th is not None, "%s: no .TH NAME SECTION DATE \"utfdfa VERSION\" line" % page)
        if th:
            dates.add(th.group(1))
            check(re.fullmatch(r"\d{4}-\d\d-\d\d", th.group(1)) is not None,
                  "%s: .TH date %r is not YYYY-MM-DD" % (page, th.group(1)))
            check(th.group(2) == versions["UTFDFA_VERSION"],
                  "%s: .TH says version %s, include/utfdfa.h UTFDFA_VERSION %s"
                  % (page, th.group(2), versions["UTFDFA_VERSION"]))
        for name, value in re.findall(r"#define (UTFDFA_VERSION\w*) (\S+)", text):
            value = value.replace("\\(dq", "").strip('"')
            check(value == versions.get(name), "%s: shows #define %s %s, the header %s"
                  % (page, name, value, versions.get(name)))
        w = warnings(["groff", "-ww", "-z", "-man", "-t", page], {"LC_ALL": "C"})
        check(not w, "%s: groff -ww: %s" % (page, w))
        if shutil.which("man"):
            w = warnings(["man", "--warnings", "-E", "UTF-8", "-l", page],
                         {"LC_ALL": "C.UTF-8", "MANWIDTH": "80"})
            check(not w, "%s: man --warnings -l: %s" % (page, w))
    check(len(dates) <= 1, "the pages carry different dates: %s" % " ".join(sorted(dates)))
    for f in failures:
        print("FAIL %s" % f)
    print("check-man: %d passed, %d failed" % (passed, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
