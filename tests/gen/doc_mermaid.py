#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check-mermaid: the docs' picture of the UTF-8 DFA must be exactly what the generator emits.

usage: doc_mermaid.py DOC.md FILE.mmd

Finds the first ```mermaid fenced block of DOC.md's section on the UTF-8
DFA ("## The UTF-8 DFA"; a picture above it is drawn by hand)
and compares its body
(the lines between the fences) with FILE.mmd byte for byte. On a mismatch it
prints a unified diff and how to regenerate; exits 1 on any failure.
"""

import difflib
import sys

HINT = ("the UTF-8 DFA's Mermaid block is stale: regenerate with `make dfa` and paste "
        "build/utf8.mmd")


SECTION = "## The UTF-8 DFA"


def first_mermaid_block(text, section=SECTION):
    """Body of the first ```mermaid fence after the `section` heading (of the
    text when it has no such heading); None if there is none or it is
    unclosed."""
    lines = text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if line.rstrip() == section), -1)
    for i, line in enumerate(lines):
        if i <= start:
            continue
        stripped = line.strip()
        if stripped.startswith("```") and stripped[3:].strip() == "mermaid":
            fence = line[:len(line) - len(line.lstrip())] + "```"
            body = []
            for later in lines[i + 1:]:
                if later.strip() == "```" and later.startswith(fence[:-3]):
                    return "".join(body)
                body.append(later)
            return None
    return None


def fail(message):
    print(f"check-mermaid: {message}", file=sys.stderr)
    print("check-mermaid: 0 passed, 1 failed")
    return 1


def main(argv):
    if len(argv) != 3:
        print("usage: doc_mermaid.py DOC.md FILE.mmd", file=sys.stderr)
        return 2
    readme, mmd = argv[1], argv[2]
    try:
        with open(readme, encoding="utf-8", newline="") as f:
            text = f.read()
        with open(mmd, encoding="utf-8", newline="") as f:
            want = f.read()
    except (OSError, UnicodeDecodeError) as e:
        return fail(f"cannot read: {e}")
    got = first_mermaid_block(text)
    if got is None:
        print(HINT, file=sys.stderr)
        return fail(f"{readme} has no closed ```mermaid block")
    if got != want:
        diff = difflib.unified_diff(got.splitlines(keepends=True), want.splitlines(keepends=True),
                                    f"{readme} (```mermaid block)", mmd)
        for line in diff:
            sys.stdout.write(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
        print(HINT)
        return fail(f"{readme}'s Mermaid block differs from {mmd}")
    print("check-mermaid: 1 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
