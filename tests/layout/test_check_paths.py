#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check_paths.py on small trees of its own: what it must find, and what it must let be."""

import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "check_paths.py")


class CheckPaths(unittest.TestCase):
    def run_on(self, files):
        with tempfile.TemporaryDirectory() as root:
            for name, text in files.items():
                os.makedirs(os.path.join(root, os.path.dirname(name)), exist_ok=True)
                with open(os.path.join(root, name), "w", encoding="utf-8") as f:
                    f.write(text)
            run = subprocess.run([sys.executable, SCRIPT, root], capture_output=True, text=True)
            return run.returncode, run.stdout

    def test_existing_paths_pass(self):
        rc, out = self.run_on({"src/a.c": "/* see src/b.h and tests/*.py */\n", "src/b.h": "",
                               "tests/t.py": "", "doc/x.md": "[a](../src/a.c) `src/`\n"})
        self.assertEqual(rc, 0, out)
        self.assertIn("4 passed, 0 failed", out)

    def test_missing_path_in_a_comment(self):
        rc, out = self.run_on({"src/a.c": "int x;\n/* the engine (src/convert.h) */\n"})
        self.assertEqual(rc, 1)
        self.assertIn("src/a.c:2: src/convert.h: no such file or folder", out)

    def test_missing_glob_and_link(self):
        rc, out = self.run_on({"README.md": "`gen/*.py`\n[d](doc/gone.md)\n"})
        self.assertEqual(rc, 1)
        self.assertIn("README.md:1: gen/*.py", out)
        self.assertIn("README.md:2: doc/gone.md", out)

    def test_what_is_not_a_path_of_the_tree(self):
        rc, out = self.run_on({"mk/a.mk": "x: build/gen/u.h ../shared/spec/x $(B)/gen/y tests/FEATURE/NAME.c\n"
                                          "# http://example.org/src/nothing\n"})
        self.assertEqual(rc, 0, out)

    def test_paths_relative_to_src(self):
        rc, out = self.run_on({"src/fast/k.h": "", "src/decode/a.c": "/* fast/k.h, not fast/gone.h;\n"
                                                                    " * encode/decode is words */\n"})
        self.assertEqual(rc, 1)
        self.assertIn("src/decode/a.c:1: fast/gone.h: no such file or folder", out)
        self.assertNotIn("fast/k.h:", out)
        self.assertNotIn("encode/decode", out)

    def test_make_targets(self):
        rc, out = self.run_on({"Makefile": ".PHONY: check-a \\\n  check-b\ncheck-x-%: ; true\nbench-c: check-a\n",
                               "doc/x.md": "`make check-a check-b`, make -j2 check-x-y, `bench-c`\n"
                                           "`make check-gone`, `bench-gone`\n"})
        self.assertEqual(rc, 1)
        self.assertIn("doc/x.md:2: make check-gone: no such target", out)
        self.assertIn("doc/x.md:2: make bench-gone: no such target", out)
        self.assertNotIn("doc/x.md:1:", out)


if __name__ == "__main__":
    unittest.main()
