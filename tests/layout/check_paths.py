#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check-docs: every path that a document or a source file names must exist.

usage: check_paths.py [ROOT]

Reads the files git tracks under ROOT (and the new ones it does not ignore) (default: the current directory; every
file below it outside a git checkout) and finds each word that starts with a
top-level folder of the tree (`src/`, `tests/`, `gen/`, ...) and looks like
a path: in README.md and doc/, in the man pages, and in every source and
build file, comments included. Each must name a file or folder that exists,
or, with a `*`, match at least one; so must the target of every relative
Markdown link. `build/` is left out (generated), and so
are words with a placeholder part (`tests/FEATURE/NAME.c`). A file named
from one of src/'s folders, as the code's comments write them
(`decode/fast_path.h`, `fast/kernels.h`), must exist under src/ (or the
naming file's folder). Every target of `make check-...` and `make bench-...`
must be a rule of the Makefile or mk/*.mk. Prints each missing path or
target as FILE:LINE: name, and a closing count; exits 1 if any.
"""

import glob
import os
import re
import subprocess
import sys

TOP = ("src", "include", "gen", "grammar", "mk", "man", "doc", "tests", "python", "cmake")
# A path: a top-level folder, then path characters; never inside a longer
# word or path (../shared/spec, $(B)/gen, tests-x), never ending in punctuation.
PATH_RE = re.compile(r"(?<![\w/.$)-])((?:%s)/[A-Za-z0-9_.*+/-]*[A-Za-z0-9_*/])" % "|".join(TOP))
# Parts that stand for a name (a pattern in prose, not a path).
PLACEHOLDERS = {"NAME", "FEATURE", "FILE", "ENC", "ISA", "LEVEL", "X", "Y", "N"}
# This check's own test and check_layout.py's, whose data (small trees of
# their own) name missing paths on purpose.
SELF_TESTS = ("tests/layout/test_check_paths.py", "tests/layout/test_check_layout.py")
# A Markdown link to a file of the tree, relative to the document.
LINK_RE = re.compile(r"\]\(([^)#\s:]+)(?:#[^)]*)?\)")
SKIP_SUFFIXES = (".png", ".svg", ".gz", ".bin")
# Files that also name paths under an install prefix ($prefix/include/...),
# which the tree does not have: those words are not the tree's.
PREFIX_RELATIVE = {"tests/install/test_install.sh": ("include/",), "doc/install.md": ("include/" "utfdfa/",)}  # split: this file is read too


# A make goal a text names: `make check-docs`, `make -j2 check-sanitize`,
# `make check-fast check-stream` (every goal after the options is checked).
# In Markdown, a goal alone in backticks (a table's `check-unit`) too.
GOAL_RE = re.compile(r"`((?:check|bench)(?:-[a-z0-9]+)+)`")
MAKE_RE = re.compile(r"\bmake(?:\s+(?:-\S+|[A-Z_]+=\S*))*((?:\s+(?:check|bench)(?:-[a-z0-9]+)*(?![\w%-]))+)")


def src_path_re(root):
    """Words naming a file from one of src/'s folders, or None without src/."""
    src = os.path.join(root, "src")
    folders = sorted(d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d))) if os.path.isdir(src) else []
    if not folders:
        return None
    return re.compile(r"(?<![\w/.$)-])((?:%s)/[A-Za-z0-9_.*+/-]*[A-Za-z0-9_*])" % "|".join(map(re.escape, folders)))


def make_targets(root):
    """(names, patterns) of the rules in the Makefile and mk/*.mk, or None without a Makefile."""
    files = [os.path.join(root, "Makefile")] + sorted(glob.glob(os.path.join(root, "mk", "*.mk")))
    if not os.path.exists(files[0]):
        return None
    names, patterns = set(), []
    for name in files:
        with open(name, encoding="utf-8") as f:
            text = f.read().replace("\\\n", " ")
        for line in text.splitlines():
            m = re.match(r"^([^\t#:=][^:=#]*?)\s*::?(?!=)(.*)", line)
            if not m:
                continue
            words = m.group(1).split()
            if words == [".PHONY"]:
                words = m.group(2).split()
            for w in words:
                if "$" in w:
                    continue
                if "%" in w:
                    patterns.append(re.compile(re.escape(w).replace("%", ".+") + "$"))
                else:
                    names.add(w)
    return names, patterns


def tracked_files(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard"], check=True,
                             capture_output=True).stdout
        return [p for p in out.decode().split("\0") if p]
    except (OSError, subprocess.CalledProcessError):
        found = []
        for base, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if d not in (".git", "build")]
            found += [os.path.relpath(os.path.join(base, f), root) for f in files]
        return found


# Folders made on use, never in the tree: build output (pip's python/build/)
# and the folder a user fills with the library's files (python/vendor/).
MADE_ON_USE = {"build", "vendor"}


def is_placeholder(path):
    parts = re.split(r"[/.]", path)
    return any(p in PLACEHOLDERS for p in parts) or any(p in MADE_ON_USE for p in path.split("/"))


def exists(root, path):
    full = os.path.join(root, path)
    if "*" in path:
        return bool(glob.glob(full))
    return os.path.exists(full)


def missing_in(root, name, src_re=None, targets=None):
    """(line, path) for each path or make target that `name` names and that does not exist."""
    try:
        with open(os.path.join(root, name), encoding="utf-8") as f:
            lines = f.read().splitlines()
    except (UnicodeDecodeError, OSError):
        return []
    missing = []
    elsewhere = PREFIX_RELATIVE.get(name, ())
    for number, line in enumerate(lines, 1):
        for path in PATH_RE.findall(line):
            if path.startswith(elsewhere) or is_placeholder(path):
                continue
            # A path may also be relative to the file's own folder (python/setup.py's src/).
            if not exists(root, path) and not exists(root, os.path.join(os.path.dirname(name), path)):
                missing.append((number, path))
        for path in src_re.findall(line) if src_re else ():
            # A file, not a pair of words (encode/decode): its last part has a suffix.
            if "." not in path.rsplit("/", 1)[-1] or is_placeholder(path):
                continue
            if not any(exists(root, p) for p in (os.path.join("src", path), path,
                                                 os.path.join(os.path.dirname(name), path))):
                missing.append((number, path))
        goals = " ".join(MAKE_RE.findall(line) + (GOAL_RE.findall(line) if name.endswith(".md") else []))
        if targets:
            for goal in goals.split():
                if goal not in targets[0] and not any(p.match(goal) for p in targets[1]):
                    missing.append((number, "make " + goal))
        if name.endswith(".md"):
            for link in LINK_RE.findall(line):
                if not exists(root, os.path.normpath(os.path.join(os.path.dirname(name), link))):
                    missing.append((number, link))
    return missing


def main(argv):
    root = argv[1] if len(argv) > 1 else "."
    files = [f for f in tracked_files(root)
             if not f.endswith(SKIP_SUFFIXES) and not f.startswith("build/") and f not in SELF_TESTS]
    failed = 0
    src_re, targets = src_path_re(root), make_targets(root)
    for name in sorted(set(files)):
        missing = missing_in(root, name, src_re, targets)
        for number, path in missing:
            what = "no such target" if path.startswith("make ") else "no such file or folder"
            print(f"{name}:{number}: {path}: {what}")
        failed += bool(missing)
    print(f"check-docs: {len(set(files)) - failed} passed, {failed} failed "
          "(files whose every named path and make target exists)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
