# SPDX-License-Identifier: MIT
"""CPython's own codec tests (Lib/test/test_codecs.py) run against utfdfa's
codecs: each class below is one of CPython's with `encoding` set to ours.

Tests that do not apply are skipped, each with its reason (SKIPPED below):
the ones that call CPython's own functions (codecs.utf_16_le_decode, ...)
test those, not the codec named by `encoding`."""
import importlib.util
import os
import sys
import unittest

import utfdfa  # noqa: F401  (registers the codecs)


def _load_test_codecs():
    try:
        from test import test_codecs
        return test_codecs
    except ImportError:
        pass
    ver = "python%d.%d" % sys.version_info[:2]
    for path in ("/usr/lib/%s/test/test_codecs.py" % ver,):
        if os.path.exists(path):
            spec = importlib.util.spec_from_file_location("test_codecs", path)
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            return mod
    return None


T = _load_test_codecs()

CPYTHON_FUNCTION = "calls CPython's codecs.%s itself, not the codec under test"
LONE_UTF7 = ("writes lone surrogates in UTF-7 ('\\ud801\\udca0', '\\ud901'): CPython's UTF-7 "
             "writes any UTF-16 unit; utfdfa's is RFC 2152 over well-formed UTF-16, where a "
             "lone surrogate is an error, and has no surrogatepass (test_properties checks "
             "the rest of UTF-7 against CPython's)")
SKIPPED = {
    "UTF8": {},
    "UTF16": {
        "test_handlers": CPYTHON_FUNCTION % "utf_16_decode",
        "test_errors": CPYTHON_FUNCTION % "utf_16_decode",
    },
    "UTF16LE": {"test_errors": CPYTHON_FUNCTION % "utf_16_le_decode and bytes.decode('utf-16le')"},
    "UTF16BE": {"test_errors": CPYTHON_FUNCTION % "utf_16_be_decode and bytes.decode('utf-16be')"},
    "UTF32": {
        "test_handlers": CPYTHON_FUNCTION % "utf_32_decode",
        "test_errors": CPYTHON_FUNCTION % "utf_32_decode",
        "test_issue8941": CPYTHON_FUNCTION % "utf_32_decode",
    },
    "UTF32LE": {
        "test_errors": CPYTHON_FUNCTION % "utf_32_le_decode",
        "test_issue8941": CPYTHON_FUNCTION % "utf_32_le_decode",
    },
    "UTF32BE": {
        "test_errors": CPYTHON_FUNCTION % "utf_32_be_decode",
        "test_issue8941": CPYTHON_FUNCTION % "utf_32_be_decode",
    },
    "UTF7": {"test_errors": CPYTHON_FUNCTION % "utf_7_decode and bytes.decode('utf-7')",
             "test_lone_surrogates": "decodes with bytes.decode('utf-7'), CPython's codec",
             "test_incremental_surrogatepass": LONE_UTF7,
             "test_nonbmp": LONE_UTF7},
}

OURS = {
    "UTF8": "utfdfa-utf-8",
    "UTF16": "utfdfa-utf-16",
    "UTF16LE": "utfdfa-utf-16-le",
    "UTF16BE": "utfdfa-utf-16-be",
    "UTF32": "utfdfa-utf-32",
    "UTF32LE": "utfdfa-utf-32-le",
    "UTF32BE": "utfdfa-utf-32-be",
    "UTF7": "utfdfa-utf-7",
}


def _skip(reason):
    @unittest.skip(reason)
    def test(self):
        pass
    return test


if T is None:
    class TestCodecsMissing(unittest.TestCase):
        @unittest.skip("CPython's test/test_codecs.py is not installed "
                       "(Debian: apt-get install libpython3.11-testsuite)")
        def test_missing(self):
            pass
else:
    for short, codec in OURS.items():
        base = getattr(T, short + "Test")
        body = {"encoding": codec}
        body.update({name: _skip(why) for name, why in SKIPPED[short].items()})
        globals()["Test" + short] = type("Test" + short, (base,), body)

if __name__ == "__main__":
    unittest.main()
