# SPDX-License-Identifier: MIT
"""The single-file distribution: build/amalgamation/utfdfa.c and utfdfa.h.

    python3 gen/dist/amalgamate.py --out DIR --gen build/gen --convert 'utf8 utf16le ...' \
        --license LICENSE SOURCE.c...

utfdfa.h is include/utfdfa.h. utfdfa.c is the whole library in one unit, for
vendoring as SQLite and simdutf ship theirs: the public header, the tables
generated from grammar/ (build/gen/*.gen.h), the internal headers and every
source, each `#include "..."` replaced by the file it names the first time
and dropped after that (a header without an include guard, a template for
several instances, every time). The conversion engine,
src/decode/convert_from.c, is instantiated once per source encoding
(--convert, the Makefile's CONVERT_SOURCES), each copy after its own
`#define SOURCE_NAME`, as the Makefile's per-encoding units are compiled;
convert_from.c is written so that its copies can share a unit.

Nothing in the output depends on the machine or the time, and it is written
through a temporary file and a rename. It compiles alone:
    cc -std=c11 -O2 -Wall -Wextra -Werror -c utfdfa.c
"""

import argparse
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"\s*(?:/\*.*\*/\s*|//.*)?$')
GUARD = re.compile(r'^#ifndef (\w+)\n#define \1\b', re.M)
SPDX = re.compile(r"^\s*/\*\s*SPDX-License-Identifier:\s*(.*?)\s*\*/\s*$")
GENERATOR = "gen/dist/amalgamate.py"


class Amalgamation:
    def __init__(self, search, unit):
        self.unit = unit      # one unit with sources (utfdfa.c), not a header (utfdfa.h)
        self.search = search  # directories for "..." includes, after the including file's own
        self.done = set()     # headers already inlined (by real path)
        self.inputs = []      # every file read, in order, for the banner

    def find(self, name, here):
        for d in [here] + self.search:
            p = os.path.join(d, name)
            if os.path.isfile(p):
                return p
        raise SystemExit(f"{GENERATOR}: cannot find \"{name}\" (from {here}) in {self.search}")

    def inline(self, path, out, header=True):
        """Append path's text to out with its local includes inlined; a header
        is inlined once, a source (header=False) every time it is asked for."""
        real = os.path.realpath(path)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        # A header without an include guard is a template, meant to be
        # included more than once (src/fast/utf8/lookup_engine.h): every time.
        if header and GUARD.search(text):
            if real in self.done:
                return
            self.done.add(real)
        if path not in self.inputs:
            self.inputs.append(path)
        lines = text.splitlines()
        out.append(f"/* ---- {rel(path)} ---- */")
        # A header may define static tables and static inline functions that
        # a unit does not use (a generated header defines every table and
        # step function of its DFA); compilers let a header do that (their
        # unused warnings spare headers), and here it is all one file: keep
        # the header's rules for the header's lines only.
        tables = header and self.unit
        if tables:
            out += ["#if defined(__GNUC__)", "#pragma GCC diagnostic push",
                    '#pragma GCC diagnostic ignored "-Wunused-const-variable"',
                    '#pragma GCC diagnostic ignored "-Wunused-function"', "#endif"]
        for i, line in enumerate(lines):
            if i == 0 and SPDX.match(line):
                continue  # the amalgamation's own SPDX line covers it
            m = INCLUDE.match(line)
            if m:
                self.inline(self.find(m.group(1), os.path.dirname(path)), out)
            else:
                out.append(line)
        if tables:
            out += ["#if defined(__GNUC__)", "#pragma GCC diagnostic pop", "#endif"]


def rel(path):
    p = os.path.relpath(path)
    return p if not p.startswith("..") else os.path.basename(path)


def license_id(path):
    with open(path, encoding="utf-8") as f:
        first = f.readline()
    if first.startswith("MIT License"):
        return "MIT"
    raise SystemExit(f"{GENERATOR}: {path}: unknown license; say its SPDX identifier here")


def write(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    os.replace(tmp, path)


def main(argv):
    ap = argparse.ArgumentParser(description="write the single-file utfdfa.c and utfdfa.h")
    ap.add_argument("--out", required=True, help="output directory")
    ap.add_argument("--gen", required=True, help="directory of the generated *.gen.h")
    ap.add_argument("--include", default="include", help="directory of utfdfa.h")
    ap.add_argument("--convert", required=True,
                    help="the source encodings to instantiate src/decode/convert_from.c for")
    ap.add_argument("--convert-source", default="src/decode/convert_from.c")
    ap.add_argument("--src", default="src", help="directory the library's includes start from")
    ap.add_argument("--license", default="LICENSE")
    ap.add_argument("--version", required=True)
    ap.add_argument("sources", nargs="+", help="the library's other .c files, in order")
    args = ap.parse_args(argv)

    spdx = license_id(args.license)
    names = args.convert.split()
    header = os.path.join(args.include, "utfdfa.h")

    def banner(what):
        return [f"/* SPDX-License-Identifier: {spdx} */",
                f"/* utfdfa {args.version}, {what}: generated by {GENERATOR} from the",
                " * sources of utfdfa (include/, src/) and the DFA tables generated from its",
                " * ABNF grammars (grammar/, by gen/abnfc.py) \u2014 do not edit.",
                " * Change those and run `make amalgamate`.",
                " *"]

    # ---- utfdfa.h: the public header as it is
    h = Amalgamation([args.include], unit=False)
    hout = banner("the public header of the single-file build") + [
        " * Use it with utfdfa.c, or with the installed library: it is the same API.",
        " */"]
    h.inline(header, hout)
    # ---- utfdfa.c: everything, the header first so the file compiles alone
    a = Amalgamation([args.include, args.src, args.gen], unit=True)
    body = []
    a.inline(header, body)
    for src in args.sources:
        a.inline(src, body, header=False)
    for name in names:
        body.append(f"/* ---- {rel(args.convert_source)} for SOURCE_NAME={name} ---- */")
        body.append(f"#define SOURCE_NAME {name}")
        a.inline(args.convert_source, body, header=False)
        body.append("#undef SOURCE_NAME")
    cout = banner("the whole library in one file") + [
        " * Compile it as any source of your program (C11):",
        " *     cc -std=c11 -O2 -c utfdfa.c",
        " * and include utfdfa.h (also inside this file) where you call it. It defines",
        " * the utfdfa_* functions of utfdfa.h, plus internal ones named utfdfa__*.",
        " *",
        " * Made of, in this order:",
    ] + [f" *   {rel(p)}" for p in a.inputs] + [
        f" *   ({rel(args.convert_source)} once for each of: {' '.join(names)})",
        " */"]
    for line in body:
        if INCLUDE.match(line):
            raise SystemExit(f"{GENERATOR}: a local #include is left: {line}")
    os.makedirs(args.out, exist_ok=True)
    write(os.path.join(args.out, "utfdfa.h"), "\n".join(hout) + "\n")
    write(os.path.join(args.out, "utfdfa.c"), "\n".join(cout + body) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
