# SPDX-License-Identifier: MIT
"""The layout rules of the runtime: no source file over FILE_MAX lines, no
function over FUNC_MAX lines (from its opening line to its closing brace);
the x86 ISA asked in one place (ISA_HEADER), so the levels, the fast paths
and their tests cannot disagree on where the SIMD code exists.

    python3 tests/layout/check_layout.py DIR...

A function is a top-level brace block whose opening line has a "(" (not a
struct, enum or table initialiser). Prints each breach as FILE:LINE: ...
and exits 1 if there is one.
"""
import os
import re
import sys

FILE_MAX = 500
FUNC_MAX = 80
SOURCES = (".c", ".h")
ISA_HEADER = os.path.join("fast", "isa.h")
ISA_MACROS = re.compile(r"\b(__x86_64__|__x86_64|__amd64__|__amd64|_M_X64|_M_AMD64)\b")


def functions(lines):
    """(name, first line, length) of each top-level function body."""
    depth, start, head = 0, None, ""
    for n, line in enumerate(lines, 1):
        code = re.sub(r'"(\\.|[^"\\])*"|\'(\\.|[^\'\\])*\'|//.*', "", line)
        if depth == 0:
            head = (head + " " + code.strip())[-300:] if code.strip() else head
        for ch in code:
            if ch == "{":
                if depth == 0:
                    start = n
                    sig = head
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0 and start is not None:
                    m = re.search(r"(\w+)\s*\([^;{]*\)\s*\{?\s*$", sig.split("{")[0] + "{")
                    if m and not re.search(r"\b(struct|enum|union)\s+\w*\s*\{?\s*$|=\s*\{?$", sig):
                        yield m.group(1), start, n - start + 1
                    start, head = None, ""
        if depth == 0 and code.strip().endswith((";", "}")):
            head = ""


def main(dirs):
    bad = 0
    checked = 0
    for top in dirs:
        for root, _, files in os.walk(top):
            for f in sorted(files):
                if not f.endswith(SOURCES):
                    continue
                path = os.path.join(root, f)
                with open(path, encoding="utf-8") as fh:
                    lines = fh.read().splitlines()
                checked += 1
                if not path.endswith(ISA_HEADER):
                    for n, line in enumerate(lines, 1):
                        if ISA_MACROS.search(line):
                            print(f"{path}:{n}: asks for x86-64 itself; use KERN_X86 "
                                  f"(src/{ISA_HEADER})")
                            bad += 1
                if len(lines) > FILE_MAX:
                    print(f"{path}:1: {len(lines)} lines (at most {FILE_MAX})")
                    bad += 1
                for name, first, length in functions(lines):
                    if length > FUNC_MAX:
                        print(f"{path}:{first}: {name}() is {length} lines (at most {FUNC_MAX})")
                        bad += 1
    print(f"check-layout: {checked} files, {bad} over the limits "
          f"({FILE_MAX} lines a file, {FUNC_MAX} a function)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
