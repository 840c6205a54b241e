# SPDX-License-Identifier: MIT
"""The layout rules of the runtime: no source file over FILE_MAX lines, no
function over FUNC_MAX lines (from its opening line to its closing brace);
no function defined, nor function-like macro, with more than PARAMS_MAX
parameters in the folders of PARAMS_SCOPE (a call's context goes in a
struct, passed by pointer; a macro's in a struct initializer); the
layers' includes (LAYERS: the output layer includes neither the decoders
nor the encoders, and those two include not each other); the x86 ISA asked
in one place (ISA_HEADER), so the levels, the fast paths and their tests
cannot disagree on where the SIMD code exists.

    python3 tests/layout/check_layout.py DIR...

Each DIR is a src/ tree: PARAMS_SCOPE and LAYERS name folders below it.
A function is a top-level brace block whose opening line has a "(" (not a
struct, enum or table initialiser). Prints each breach as FILE:LINE: ...
and exits 1 if there is one.
"""
import os
import re
import sys

FILE_MAX = 500
FUNC_MAX = 80
# The folders (below DIR) whose functions take at most PARAMS_MAX parameters.
PARAMS_SCOPE = ["", "decode", "encode", "api", "output", "cli", "fast"]  # "": src/ itself
PARAMS_MAX = 8
# What a folder (below DIR) may not include: a header of these folders.
LAYERS = {
    "output": ("decode", "encode", "api", "cli"),
    "decode": ("encode", "api", "cli"),
    "encode": ("decode", "api", "cli"),
}
SOURCES = (".c", ".h")
ISA_HEADER = os.path.join("fast", "isa.h")
ISA_MACROS = re.compile(r"\b(__x86_64__|__x86_64|__amd64__|__amd64|_M_X64|_M_AMD64)\b")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
# A function-like macro: its name touches the "(" (else the "(" is its body's).
MACRO = re.compile(r"[ \t]*#[ \t]*define[ \t]+(\w+)\(([^)]*)\)")


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


def code_only(text):
    """text with comments, string and character literals and preprocessor
    lines blanked (newlines kept, so line numbers stay)."""
    out, i, n = [], 0, len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        if at_line_start and c == "#" or (at_line_start and c in " \t" and
                                          text[i:].lstrip(" \t").startswith("#")):
            j = i
            while j < n and text[j] != "\n" or (j < n and j > 0 and text[j - 1] == "\\"):
                if text[j] == "\n":
                    out.append("\n")
                j += 1
            i = j
            continue
        at_line_start = False
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * max(0, min(j, n) - i - 1) + c)
            i = j + 1
        else:
            out.append(c)
            if c == "\n":
                at_line_start = True
            i += 1
    return "".join(out)


def split_params(inside):
    """The parameters of a parameter list's text (what is between its
    parentheses): commas at depth 0 separate them; "void" or nothing is
    none."""
    if inside.strip() in ("", "void"):
        return []
    params, depth, cur = [], 0, ""
    for ch in inside:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            params.append(cur)
            cur = ""
        else:
            cur += ch
    params.append(cur)
    return [p.strip() for p in params]


def definitions(text):
    """(name, line, parameters) of each function defined at the top level
    of text (C source): a brace block whose head ends with a parameter list
    (not a struct, union or enum body, nor an initialiser)."""
    code = code_only(text)
    depth, head_start = 0, 0
    for i, ch in enumerate(code):
        if ch == "{":
            if depth == 0:
                head = code[head_start:i].rstrip()
                found = parse_head(head)
                if found:
                    name, pos, params = found
                    yield name, code.count("\n", 0, head_start + pos) + 1, params
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                head_start = i + 1
        elif ch == ";" and depth == 0:
            head_start = i + 1


def parse_head(head):
    """(name, offset of the name, parameters) if head is a function's."""
    if not head.endswith(")") or re.search(r"=\s*$|\b(struct|union|enum)\s*\w*\s*$", head):
        return None
    end = len(head) - 1
    depth = 0
    for k in range(end, -1, -1):
        if head[k] == ")":
            depth += 1
        elif head[k] == "(":
            depth -= 1
            if depth == 0:
                # a name, or a template's name pasted by a macro: LK_(stop)
                m = re.search(r"(\w+)\s*$", head[:k]) or \
                    re.search(r"(\w+\s*\(\s*\w+\s*\))\s*$", head[:k])
                if not m or m.group(1) in ("if", "while", "for", "switch", "return", "sizeof"):
                    return None
                return re.sub(r"\s+", "", m.group(1)), m.start(1), split_params(head[k + 1:end])
    return None


def folder_of(top, path):
    """The first folder of path below top ("" for a file directly in it)."""
    rel = os.path.relpath(path, top).split(os.sep)
    return rel[0] if len(rel) > 1 else ""


def included_folder(top, path, name):
    """The folder below top of the header `#include "name"` in path names:
    beside path if it is there, else below top (the build's -I src)."""
    beside = os.path.normpath(os.path.join(os.path.dirname(path), name))
    target = beside if os.path.exists(beside) else os.path.normpath(os.path.join(top, name))
    return folder_of(top, target)


def check_params(path, found, what, fix):
    """Each (name, line, parameters) of found over PARAMS_MAX, reported as a
    `what` (function or macro) with the way to fix it."""
    bad = 0
    for name, line, params in found:
        if len(params) > PARAMS_MAX:
            print(f"{path}:{line}: {what}{name}() takes {len(params)} parameters (at most "
                  f"{PARAMS_MAX}: {fix})")
            bad += 1
    return bad

def macros(lines):
    """(name, line, parameters) of each function-like macro defined in lines;
    its parameter list may go on over continued lines; "..." is one
    parameter, as __VA_ARGS__ is one name."""
    for n, line in enumerate(lines, 1):
        head, k = line, n
        while head.endswith("\\") and k < len(lines):
            head, k = head[:-1] + " " + lines[k], k + 1
        m = MACRO.match(head)
        if m:
            yield m.group(1), n, split_params(m.group(2))



def check_layers(top, path, lines):
    bad = 0
    banned = LAYERS.get(folder_of(top, path), ())
    for n, line in enumerate(lines, 1):
        m = INCLUDE.match(line)
        if m and included_folder(top, path, m.group(1)) in banned:
            print(f"{path}:{n}: includes {m.group(1)}: {folder_of(top, path)}/ may not include "
                  f"{', '.join(f + '/' for f in banned)}")
            bad += 1
    return bad


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
                bad += check_layers(top, path, lines)
                if folder_of(top, path) in PARAMS_SCOPE:
                    bad += check_params(path, definitions("\n".join(lines)), "",
                                        "put the call's context in a struct")
                    bad += check_params(path, macros(lines), "macro ",
                                        "group them in a struct initializer")
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
          f"({FILE_MAX} lines a file, {FUNC_MAX} a function, {PARAMS_MAX} parameters a "
          f"function or macro in {', '.join(f + '/' if f else 'src/' for f in PARAMS_SCOPE)}; the layers' includes)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
