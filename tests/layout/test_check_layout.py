#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check_layout.py on small src/ trees of its own: what it must find, and what it must let be."""

import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "check_layout.py")

NINE = ("/* (a, b) in a comment: not a parameter list */\n"
        "static inline int nine(int a, int b, int c, int d, int e,\n"
        "                       int f, int g, int h, int i)\n"
        "{\n    return a + b + c + d + e + f + g + h + i;\n}\n")
EIGHT = ("static int eight(int a, int b, int c, int d, int e, int f, int g,\n"
         "                 void (*cb)(int, int, int))\n"
         "{\n    cb(a, b, c);\n    return d + e + f + g;\n}\n")


class CheckLayout(unittest.TestCase):
    def run_on(self, files):
        with tempfile.TemporaryDirectory() as root:
            src = os.path.join(root, "src")
            for name, text in files.items():
                os.makedirs(os.path.join(src, os.path.dirname(name)), exist_ok=True)
                with open(os.path.join(src, name), "w", encoding="utf-8") as f:
                    f.write(text)
            run = subprocess.run([sys.executable, SCRIPT, src], capture_output=True, text=True)
            return run.returncode, run.stdout

    def test_nine_parameters_fail(self):
        for folder in ("decode", "encode", "api", "output", "cli"):
            rc, out = self.run_on({f"{folder}/a.c": "int x;\n" + NINE})
            self.assertEqual(rc, 1, out)
            self.assertIn(f"{folder}/a.c:3: nine() takes 9 parameters", out)

    def test_nine_parameters_fail_in_src_itself(self):
        # src/common.h and its like are below every layer: the bound holds there too
        rc, out = self.run_on({"common.h": "int x;\n" + NINE})
        self.assertEqual(rc, 1, out)
        self.assertIn("common.h:3: nine() takes 9 parameters", out)

    def test_eight_parameters_pass(self):
        rc, out = self.run_on({"decode/a.c": EIGHT + "int none(void)\n{\n    return 0;\n}\n",
                               "decode/b.h": "/* nine(a, b, c, d, e, f, g, h, i) */\n"
                                             "int decl(int a, int b, int c, int d, int e, int f,"
                                             " int g, int h, int i);\n"
                                             "#define M(a, b, c, d, e, f, g, h) { a }\n"
                                             "#define V(a, b, c, d, e, f, g, ...) {__VA_ARGS__}\n"
                                             "#define OBJ (a, b, c, d, e, f, g, h, i)\n"
                                             "static const int t[2] = {1, 2};\n"
                                             "struct s { int a, b; };\n"})
        self.assertEqual(rc, 0, out)
        self.assertIn("0 over the limits", out)

    def test_nine_parameter_macro_fails(self):
        # a macro is a call site's parameter list too, its list over continued lines
        for folder, name in (("decode", "a.h"), ("fast", "b.c"), ("", "common.h")):
            rc, out = self.run_on({os.path.join(folder, name):
                                   "int x;\n#define NINE(a, b, c, d, e, \\\n"
                                   "             f, g, h, i) { a, b, c }\n"})
            self.assertEqual(rc, 1, out)
            self.assertIn(f"{os.path.join(folder, name)}:2: macro NINE() takes 9 parameters", out)

    def test_token_pasted_name(self):
        # a template instantiated per width: LK_(stop) is LK_ applied to stop
        pasted = NINE.replace("static inline int nine(", "static inline int LK_(stop)(")
        rc, out = self.run_on({"fast/a.h": "int x;\n" + pasted})
        self.assertEqual(rc, 1, out)
        self.assertIn("fast/a.h:3: LK_(stop)() takes 9 parameters", out)

    def test_out_of_scope_folder(self):
        rc, out = self.run_on({"other/a.c": NINE + "#define M(a, b, c, d, e, f, g, h, i) a\n"})
        self.assertEqual(rc, 0, out)

    def test_output_includes_neither_decode_nor_encode(self):
        for header in ("decode/deliver.h", "encode/codes.h"):
            rc, out = self.run_on({"output/sink.h": f'#include "{header}"\n',
                                   header: ""})
            self.assertEqual(rc, 1, out)
            self.assertIn(f"output/sink.h:1: includes {header}", out)

    def test_decode_and_encode_include_not_each_other(self):
        rc, out = self.run_on({"decode/a.h": '#include "encode/b.h"\n', "encode/b.h": "",
                               "encode/c.c": '#include "decode/d.h"\n', "decode/d.h": ""})
        self.assertEqual(rc, 1, out)
        self.assertIn("decode/a.h:1: includes encode/b.h", out)
        self.assertIn("encode/c.c:1: includes decode/d.h", out)

    def test_layers_below_pass(self):
        rc, out = self.run_on({"decode/a.h": '#include "output/sink.h"\n#include "common.h"\n',
                               "encode/b.c": '#include "output/sink.h"\n',
                               "output/sink.h": '#include "forms.h"\n#include "fast/k.h"\n',
                               "output/forms.h": "", "fast/k.h": "", "common.h": "",
                               "api/c.c": '#include "decode/a.h"\n#include "encode/b.h"\n'})
        self.assertEqual(rc, 0, out)

    def test_long_file_and_function(self):
        body = "int f(void)\n{\n" + "    x++;\n" * 80 + "}\n"
        rc, out = self.run_on({"api/a.c": "int x;\n" + body, "cli/b.c": "\n" * 501})
        self.assertEqual(rc, 1, out)
        self.assertIn("api/a.c:3: f() is 82 lines", out)
        self.assertIn("cli/b.c:1: 501 lines", out)


if __name__ == "__main__":
    unittest.main()
