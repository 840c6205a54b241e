# SPDX-License-Identifier: MIT
"""The extension: src/utfdfa/_utfdfa.c over the library's amalgamation.

Where the library comes from, first found wins:
  $UTFDFA_AMALGAMATION   a directory holding utfdfa.c and utfdfa.h;
  vendor/                 the same two files (an sdist ships them there);
  the repository around   ../build/amalgamation, made with `make amalgamate`
                          (which needs make, a C compiler, re2c and python3).
"""
import filecmp
import os
import re
import shutil
import subprocess

from setuptools import Extension, setup

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def amalgamation():
    given = os.environ.get("UTFDFA_AMALGAMATION")
    if given:
        return os.path.abspath(given)
    vendor = os.path.join(HERE, "vendor")
    if os.path.exists(os.path.join(vendor, "utfdfa.c")):
        return vendor
    if not os.path.exists(os.path.join(REPO, "gen", "dist", "amalgamate.py")):
        raise SystemExit("utfdfa: no library sources (set UTFDFA_AMALGAMATION, or put "
                         "utfdfa.c and utfdfa.h in python/vendor/)")
    subprocess.check_call(["make", "-C", REPO, "amalgamate"])
    return os.path.join(REPO, "build", "amalgamation")


def version(header):
    with open(header, encoding="utf-8") as f:
        return re.search(r'#define UTFDFA_VERSION "([^"]+)"', f.read()).group(1)


def local_copy(amalg):
    """The two files where setuptools takes them: inside python/ (a source
    path must be relative to setup.py; an absolute one lands in the
    egg-info's SOURCES.txt and fails the next build)."""
    if os.path.dirname(os.path.abspath(os.path.join(amalg, "x"))) == os.path.join(HERE, "vendor"):
        return "vendor"
    local = os.path.join("build", "amalgamation")
    os.makedirs(os.path.join(HERE, local), exist_ok=True)
    for name in ("utfdfa.c", "utfdfa.h"):
        src, dst = os.path.join(amalg, name), os.path.join(HERE, local, name)
        if not os.path.exists(dst) or not filecmp.cmp(src, dst, shallow=False):
            shutil.copyfile(src, dst)
    return local


AMALG = local_copy(amalgamation())

setup(
    version=version(os.path.join(HERE, AMALG, "utfdfa.h")),
    ext_modules=[
        Extension(
            "utfdfa._utfdfa",
            sources=["src/utfdfa/_utfdfa.c", os.path.join(AMALG, "utfdfa.c")],
            include_dirs=[AMALG],
            extra_compile_args=["-std=c11", "-O3"],
        )
    ],
)
