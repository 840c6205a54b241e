# SPDX-License-Identifier: MIT
"""Property tests: utfdfa's codecs against independent oracles on random
text and random damage, with every error handler, split at every point.

Shared encodings: Python's own codecs are the oracle (results, exception
start/end, incremental decoding at each split). The encodings CPython lacks:
the project's reference decoders (tests/ref/ref_forms.c, written from the
specifications apart from the library; loaded with ctypes from
$UTFDFA_REF_LIB) and, for IMAP's UTF-7, an encoder written here from
RFC 3501 section 5.1.3. UTFDFA_PROPERTY_SEED and UTFDFA_PROPERTY_ROUNDS
vary a run."""
import codecs
import ctypes
import os
import random
import re
import unittest

import utfdfa

ROUNDS = int(os.environ.get("UTFDFA_PROPERTY_ROUNDS", "150"))
SEED = int(os.environ.get("UTFDFA_PROPERTY_SEED", "20261201"))

# A handler that writes where each error is: start and end must match.
codecs.register_error("utfdfa-test-mark", lambda e: ("<%d:%d>" % (e.start, e.end), e.end))
# One that skips a byte (or character) less or more than the error: the
# codec must go on from where the handler says.
codecs.register_error("utfdfa-test-skip1", lambda e: ("#", e.start + 1))

SHARED = {  # ours -> CPython's
    "utfdfa-utf-8": "utf-8",
    "utfdfa-utf-16": "utf-16",
    "utfdfa-utf-16-le": "utf-16-le",
    "utfdfa-utf-16-be": "utf-16-be",
    "utfdfa-utf-32": "utf-32",
    "utfdfa-utf-32-le": "utf-32-le",
    "utfdfa-utf-32-be": "utf-32-be",
    "utfdfa-utf-7": "utf-7",
}
DECODE_HANDLERS = ["strict", "replace", "ignore", "surrogateescape", "backslashreplace",
                   "surrogatepass", "utfdfa-test-mark", "utfdfa-test-skip1"]
ENCODE_HANDLERS = ["strict", "replace", "ignore", "surrogateescape", "backslashreplace",
                   "xmlcharrefreplace", "namereplace", "surrogatepass", "utfdfa-test-mark"]
INTERESTING = [0x00, 0x0A, 0x2B, 0x2D, 0x26, 0x2C, 0x2F, 0x41, 0x7F, 0x80, 0x9F, 0xA0, 0xBF,
               0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xF8, 0xFC, 0xFE,
               0xFF, 0xD8, 0xDC, 0xDB]


def random_text(rng, surrogates=True, length=None):
    out = []
    for _ in range(length if length is not None else rng.randrange(0, 14)):
        r = rng.random()
        if r < 0.3:
            out.append(rng.choice("abc+-&,/\n \t=~"))
        elif r < 0.45:
            out.append(chr(rng.randrange(0x80, 0x100)))
        elif r < 0.65:
            out.append(chr(rng.choice([rng.randrange(0x100, 0xD800), rng.randrange(0xE000, 0x10000),
                                       0xFEFF, 0xFFFD, 0xFFFF, 0x7FF, 0x800, 0])))
        elif r < 0.85:
            out.append(chr(rng.choice([rng.randrange(0x10000, 0x110000), 0x10000, 0x10FFFF,
                                       0x1F600])))
        elif surrogates:
            out.append(chr(rng.randrange(0xD800, 0xE000)))
        else:
            out.append("x")
    return "".join(out)


def damage(rng, data):
    data = bytearray(data)
    for _ in range(rng.randrange(0, 4)):
        op = rng.random()
        pos = rng.randrange(0, len(data) + 1)
        if op < 0.4:
            data[pos:pos] = bytes([rng.choice(INTERESTING)])
        elif op < 0.6 and data:
            del data[min(pos, len(data) - 1)]
        elif op < 0.8 and data:
            data[min(pos, len(data) - 1)] = rng.randrange(256)
        else:
            data = data[:pos]
    return bytes(data)


def outcome(call):
    """The result, or the exception's type, start and end (and reason)."""
    try:
        return ("ok", call())
    except UnicodeError as e:
        return ("error", type(e).__name__, getattr(e, "start", None), getattr(e, "end", None))


def split_decode(encoding, data, errors, i):
    def run():
        d = codecs.getincrementaldecoder(encoding)(errors)
        return d.decode(data[:i]) + d.decode(data[i:], True)
    return outcome(run)


def utf7_ok(text):
    # CPython's UTF-7 writes lone surrogates; utfdfa's refuses them (RFC 2152
    # encodes well-formed UTF-16), so they stay out of UTF-7's text.
    return not any(0xD800 <= ord(c) < 0xE000 for c in text)


class SharedEncodings(unittest.TestCase):
    def test_encode_matches_python(self):
        rng = random.Random(SEED)
        n = 0
        for ours, theirs in SHARED.items():
            for _ in range(ROUNDS):
                text = random_text(rng, surrogates=ours != "utfdfa-utf-7")
                for errors in ENCODE_HANDLERS:
                    if ours == "utfdfa-utf-7" and errors == "surrogatepass":
                        continue
                    want = outcome(lambda: text.encode(theirs, errors))
                    got = outcome(lambda: text.encode(ours, errors))
                    self.assertEqual(got, want, (ours, text, errors))
                    n += 1
        self.assertGreater(n, 0)

    def test_decode_matches_python(self):
        rng = random.Random(SEED + 1)
        for ours, theirs in SHARED.items():
            for _ in range(ROUNDS):
                text = random_text(rng, surrogates=False)
                if ours == "utfdfa-utf-7":
                    # errors: the project's UTF-7 error model, not CPython's
                    # (Utf7AgainstReference); valid text here
                    data = text.encode(theirs)
                else:
                    data = damage(rng, text.encode(theirs, "surrogatepass"))
                for errors in DECODE_HANDLERS:
                    if ours == "utfdfa-utf-7" and errors == "surrogatepass":
                        continue
                    want = outcome(lambda: data.decode(theirs, errors))
                    if ours == "utfdfa-utf-7" and want[0] == "ok" and not utf7_ok(want[1]):
                        continue  # a lone surrogate: see utf7_ok
                    got = outcome(lambda: data.decode(ours, errors))
                    self.assertEqual(got, want, (ours, data, errors))

    def test_incremental_every_split(self):
        rng = random.Random(SEED + 2)
        for ours, theirs in SHARED.items():
            for _ in range(ROUNDS // 3):
                text = random_text(rng, surrogates=False)
                if ours == "utfdfa-utf-7":
                    data = text.encode(theirs)
                else:
                    data = damage(rng, text.encode(theirs, "surrogatepass"))
                for errors in ("strict", "replace", "utfdfa-test-mark", "surrogatepass"):
                    if ours == "utfdfa-utf-7" and errors == "surrogatepass":
                        continue
                    whole = outcome(lambda: data.decode(theirs, errors))
                    if ours == "utfdfa-utf-7" and whole[0] == "ok" and not utf7_ok(whole[1]):
                        continue
                    for i in range(len(data) + 1):
                        want = split_decode(theirs, data, errors, i)
                        got = split_decode(ours, data, errors, i)
                        self.assertEqual(got, want, (ours, data, errors, i))

    def test_stream_reader_writer(self):
        import io
        rng = random.Random(SEED + 3)
        for ours, theirs in SHARED.items():
            for _ in range(ROUNDS // 5):
                parts = [random_text(rng, surrogates=False) for _ in range(3)]
                buf = io.BytesIO()
                w = codecs.getwriter(ours)(buf)
                for p in parts:
                    w.write(p)
                data = buf.getvalue()
                self.assertEqual(data.decode(theirs), "".join(parts))
                r = codecs.getreader(ours)(io.BytesIO(data))
                got = ""
                while True:
                    chunk = r.read(rng.randrange(1, 5))
                    if not chunk:
                        break
                    got += chunk
                self.assertEqual(got, "".join(parts), ours)


# ------------------------------------------------------------ the reference decoders
class RefItem(ctypes.Structure):
    _fields_ = [("cp", ctypes.c_uint32), ("offset", ctypes.c_size_t),
                ("len", ctypes.c_size_t), ("kind", ctypes.c_int)]


def load_ref():
    path = os.environ.get("UTFDFA_REF_LIB")
    if not path or not os.path.exists(path):
        return None
    lib = ctypes.CDLL(path)
    for name in ("refc_decode", "refw_decode", "ref2279_decode", "refcorr_decode",
                 "ref7_decode_marked"):
        getattr(lib, name).restype = ctypes.c_size_t
    return lib


REF = load_ref()


def ref_items(codec, data):
    items = (RefItem * (len(data) + 1))()
    buf = ctypes.create_string_buffer(data, len(data))
    if codec == "cesu-8":
        n = REF.refc_decode(buf, ctypes.c_size_t(len(data)), ctypes.c_bool(False), items)
    elif codec == "mutf-8":
        n = REF.refc_decode(buf, ctypes.c_size_t(len(data)), ctypes.c_bool(True), items)
    elif codec == "wtf-8":
        n = REF.refw_decode(buf, ctypes.c_size_t(len(data)), items)
    elif codec == "utf-8-rfc2279":
        n = REF.ref2279_decode(buf, ctypes.c_size_t(len(data)), items)
    else:
        n = REF.refcorr_decode(buf, ctypes.c_size_t(len(data)), items)
    return items[:n]


def ref_marked(codec, data):
    """What the mark handler gives: characters, and <start:end> per error
    (a value a str cannot hold, above U+10FFFF, is one too)."""
    out = []
    for it in ref_items(codec, data):
        if it.kind == 0 and it.cp <= 0x10FFFF:
            out.append(chr(it.cp))
        else:
            out.append("<%d:%d>" % (it.offset, it.offset + it.len))
    return "".join(out)


def ref_encode(codec, text):
    """The reference's encoding of text, or None where it has none."""
    out = bytearray()
    if codec in ("cesu-8", "mutf-8"):
        units = text.encode("utf-16-be")
        for k in range(0, len(units), 2):
            u = units[k] << 8 | units[k + 1]
            if codec == "mutf-8" and u == 0:
                out += b"\xc0\x80"
            else:
                out += chr(u).encode("utf-8", "surrogatepass")
        return bytes(out)
    if codec == "wtf-8":
        return text.encode("utf-8", "surrogatepass")
    return text.encode("utf-8")  # RFC 2279: UTF-8's layout, for every scalar value


FORMS = ["cesu-8", "mutf-8", "wtf-8", "utf-8-rfc2279", "corrected-utf-8"]


@unittest.skipIf(REF is None, "no reference decoders: set UTFDFA_REF_LIB (make check-python does)")
class FormsAgainstReference(unittest.TestCase):
    def random_bytes(self, rng, codec):
        text = random_text(rng, surrogates=codec == "wtf-8")
        if codec == "wtf-8":
            text = text.encode("utf-16", "surrogatepass").decode("utf-16", "surrogatepass")
        if codec in ("cesu-8", "mutf-8", "wtf-8"):
            data = ref_encode(codec, text)
        else:
            if codec == "corrected-utf-8":  # no NUL, no C1 controls
                text = "".join("x" if ord(c) < 0xA0 and (c == "\0" or ord(c) >= 0x80) else c
                               for c in text)
            data = utfdfa.encode(text, codec)
        return damage(rng, data)

    def test_decode_marks_every_error(self):
        rng = random.Random(SEED + 10)
        for codec in FORMS:
            for _ in range(ROUNDS * 2):
                data = self.random_bytes(rng, codec)
                if codec == "corrected-utf-8" and data[:1] in (b"\xfe", b"\xff"):
                    data = b"x" + data  # the magic number is not modelled by the reference
                want = ref_marked(codec, data)
                self.assertEqual(data.decode(codec, "utfdfa-test-mark"), want, (codec, data))
                replaced = outcome(lambda: data.decode(codec, "replace"))
                self.assertEqual(replaced[0], "ok")
                strict = outcome(lambda: data.decode(codec))
                bad = [it for it in ref_items(codec, data) if it.kind != 0 or it.cp > 0x10FFFF]
                if bad:
                    self.assertEqual(strict, ("error", "UnicodeDecodeError", bad[0].offset,
                                              bad[0].offset + bad[0].len), (codec, data))
                else:
                    self.assertEqual(strict, ("ok", want), (codec, data))
                for i in range(len(data) + 1):
                    self.assertEqual(split_decode(codec, data, "replace", i), replaced,
                                     (codec, data, i))

    def test_encode_matches_reference(self):
        rng = random.Random(SEED + 11)
        for codec in ("cesu-8", "mutf-8", "wtf-8"):
            for _ in range(ROUNDS * 2):
                text = random_text(rng, surrogates=False)
                self.assertEqual(text.encode(codec), ref_encode(codec, text), (codec, text))
                self.assertEqual(ref_encode(codec, text).decode(codec), text)
        for codec in ("utf-8-rfc2279",):
            for _ in range(ROUNDS):
                text = random_text(rng, surrogates=False)
                self.assertEqual(text.encode(codec), text.encode("utf-8"))
                self.assertEqual(text.encode("utf-8").decode(codec), text)


class Ref7Error(ctypes.Structure):
    _fields_ = [("offset", ctypes.c_size_t), ("length", ctypes.c_size_t), ("kind", ctypes.c_int)]


def ref7_marked(data):
    n = len(data) + 1
    out, marked = (ctypes.c_uint32 * n)(), (ctypes.c_bool * n)()
    errs, nerr = (Ref7Error * n)(), ctypes.c_size_t()
    k = REF.ref7_decode_marked(ctypes.create_string_buffer(data, len(data)),
                               ctypes.c_size_t(len(data)), out, marked, ctypes.byref(nerr),
                               errs, ctypes.c_size_t(n))
    res, e = [], 0
    for i in range(k):
        if marked[i]:
            res.append("<%d:%d>" % (errs[e].offset, errs[e].offset + errs[e].length))
            e += 1
        else:
            res.append(chr(out[i]))
    return "".join(res)


@unittest.skipIf(REF is None, "no reference decoders: set UTFDFA_REF_LIB (make check-python does)")
class Utf7AgainstReference(unittest.TestCase):
    """utfdfa-utf-7 on damaged input: every error where the project's
    reference UTF-7 decoder (tests/ref/ref_utf7.c) has it."""

    def test_decode_marks_every_error(self):
        rng = random.Random(SEED + 12)
        for _ in range(ROUNDS * 2):
            data = damage(rng, random_text(rng, surrogates=False).encode("utf-7"))
            want = ref7_marked(data)
            self.assertEqual(data.decode("utfdfa-utf-7", "utfdfa-test-mark"), want, data)
            replaced = data.decode("utfdfa-utf-7", "replace")
            self.assertEqual(re.sub(r"<\d+:\d+>", "\ufffd", want), replaced)
            for i in range(len(data) + 1):
                self.assertEqual(split_decode("utfdfa-utf-7", data, "replace", i),
                                 ("ok", replaced), (data, i))


# ------------------------------------------------------------ IMAP's modified UTF-7
def imap_encode(text):
    """RFC 3501 section 5.1.3, written from the text: printable US-ASCII
    but "&" as itself, "&" as "&-", everything else as "&" + modified
    BASE64 (, for /, no padding) of UTF-16BE + "-"."""
    import base64
    out, run = [], []

    def flush():
        if run:
            b64 = base64.b64encode("".join(run).encode("utf-16-be")).rstrip(b"=")
            out.append(b"&" + b64.replace(b"/", b",") + b"-")
            run.clear()
    for c in text:
        if 0x20 <= ord(c) <= 0x7E:
            flush()
            out.append(b"&-" if c == "&" else c.encode("ascii"))
        else:
            run.append(c)
    flush()
    return b"".join(out)


class ImapUtf7(unittest.TestCase):
    def test_round_trip_against_rfc3501(self):
        rng = random.Random(SEED + 20)
        for _ in range(ROUNDS * 3):
            text = random_text(rng, surrogates=False)
            want = imap_encode(text)
            self.assertEqual(text.encode("utf-7-imap"), want, text)
            self.assertEqual(want.decode("utf-7-imap"), text)
            for i in range(len(want) + 1):
                self.assertEqual(split_decode("utf-7-imap", want, "strict", i), ("ok", text))

    def test_rfc3501_example(self):
        self.assertEqual("~peter/mail/\u53f0\u5317/\u65e5\u672c\u8a9e".encode("utf-7-imap"),
                         b"~peter/mail/&U,BTFw-/&ZeVnLIqe-")
        self.assertEqual(b"&Jjo-!".decode("utf-7-imap"), "\u263a!")

    def test_errors_every_handler(self):
        rng = random.Random(SEED + 21)
        for _ in range(ROUNDS):
            data = damage(rng, imap_encode(random_text(rng, surrogates=False)))
            replaced = data.decode("utf-7-imap", "replace")
            marked = data.decode("utf-7-imap", "utfdfa-test-mark")
            self.assertEqual(re.sub(r"<\d+:\d+>", "\ufffd", marked), replaced)
            for i in range(len(data) + 1):
                self.assertEqual(split_decode("utf-7-imap", data, "replace", i), ("ok", replaced))


# ------------------------------------------------------------ functions
class Latin1AgainstCPython(unittest.TestCase):
    """ISO-8859-1 through the module's functions against CPython's latin-1
    codec: every byte, random texts in every error mode both ways."""

    def test_every_byte(self):
        every = bytes(range(256))
        self.assertEqual(utfdfa.decode(every, "iso-8859-1"), every.decode("latin-1"))
        self.assertEqual(utfdfa.encode(every.decode("latin-1"), "latin1"), every)
        self.assertEqual(utfdfa.transcode(every, "l1", "utf-8"), every.decode("latin-1").encode())

    def test_random_texts(self):
        rng = random.Random(SEED + 40)
        for _ in range(ROUNDS * 2):
            text = random_text(rng, surrogates=False)
            for errors in ("replace", "ignore"):
                self.assertEqual(utfdfa.encode(text, "latin1", errors),
                                 text.encode("latin-1", errors), (text, errors))
                self.assertEqual(utfdfa.transcode(text.encode(), "utf-8", "latin1", errors),
                                 text.encode("latin-1", errors), (text, errors))
            self.assertEqual(outcome(lambda: utfdfa.encode(text, "latin1"))[:2],
                             outcome(lambda: text.encode("latin-1"))[:2], text)
            data = text.encode("latin-1", "replace")
            self.assertEqual(utfdfa.decode(data, "latin1"), data.decode("latin-1"))


class Functions(unittest.TestCase):
    def test_validate_matches_python(self):
        rng = random.Random(SEED + 30)
        for _ in range(ROUNDS * 4):
            data = damage(rng, random_text(rng, surrogates=False).encode("utf-8"))
            err = utfdfa.validate(memoryview(data))
            try:
                text = data.decode("utf-8")
                self.assertIsNone(err, data)
            except UnicodeDecodeError as e:
                self.assertIsNotNone(err, data)
                self.assertEqual((err.offset, err.offset + err.length), (e.start, e.end))
                before = data[:e.start].decode("utf-8")
                self.assertEqual(err.line, before.count("\n") + 1)
                self.assertEqual(err.column, len(before.rsplit("\n", 1)[-1]) + 1)

    def test_buffers_in_place(self):
        import array
        text = "h\xe9llo \u4e16\u754c \U0001f600" * 50
        raw = text.encode("utf-8")
        for buf in (bytearray(raw), memoryview(raw), memoryview(bytearray(b"xx" + raw))[2:]):
            self.assertEqual(utfdfa.decode(buf), text)
            self.assertIsNone(utfdfa.validate(buf))
        self.assertEqual(utfdfa.decode(array.array("H", text.encode("utf-16-le")), "utf-16le"),
                         text)
        self.assertRaises(TypeError, utfdfa.decode, "a str")
        self.assertRaises(BufferError, utfdfa.decode, memoryview(raw)[::2])

    def test_large_inputs(self):
        # long enough to run without the GIL and through the fast paths
        for text in ("ascii only " * 20000, "\xe9t\xe9 " * 30000, "\u4e2d\u6587" * 40000,
                     "\U0001f600 x" * 30000):
            raw = text.encode("utf-8")
            self.assertEqual(utfdfa.decode(raw), text)
            self.assertEqual(utfdfa.encode(text), raw)
            self.assertIsNone(utfdfa.validate(raw))
            bad = raw[:-1] + b"\xff"
            self.assertEqual(utfdfa.decode(bad, errors="replace"), bad.decode("utf-8", "replace"))
            self.assertEqual(outcome(lambda: utfdfa.decode(bad)), outcome(lambda: bad.decode()))

    def test_transcode_matches_python(self):
        rng = random.Random(SEED + 31)
        pairs = [("utf-8", "utf-16le", "utf-16-le"), ("utf-8", "utf-32be", "utf-32-be"),
                 ("utf-16be", "utf-8", "utf-8"), ("utf-8", "utf-7", None)]
        for _ in range(ROUNDS):
            text = random_text(rng, surrogates=False)
            for frm, to, py_to in pairs:
                py_from = {"utf-16le": "utf-16-le", "utf-16be": "utf-16-be"}.get(frm, frm)
                data = damage(rng, text.encode(py_from))
                for errors in ("strict", "replace", "ignore", "backslashreplace"):
                    want = outcome(lambda: data.decode(py_from, errors))
                    got = outcome(lambda: utfdfa.transcode(data, frm, to, errors))
                    if want[0] == "error":
                        self.assertEqual(got[:1] + got[2:], want[:1] + want[2:], (data, frm, to))
                    elif py_to:
                        self.assertEqual(got, ("ok", want[1].encode(py_to)), (data, frm, to, errors))
                    else:
                        self.assertEqual(got[1].decode("utf-7"), want[1])
        self.assertEqual(utfdfa.transcode("\U0001f600".encode("cesu-8"), "cesu-8", "utf-8"),
                         "\U0001f600".encode("utf-8"))


if __name__ == "__main__":
    unittest.main()
