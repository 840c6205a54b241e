# SPDX-License-Identifier: MIT
"""utfdfa: Python codecs and functions over the utfdfa C library.

Importing the package registers the codecs (see CODECS): the encodings
CPython lacks (cesu-8, mutf-8, wtf-8, utf-7-imap, utf-8-rfc2279,
corrected-utf-8) and the library's own decoders of the standard ones
(utfdfa-utf-8, utfdfa-utf-16, utfdfa-utf-16-le, ...). Every error handler
works with them; errors report the start and end Python's codecs report.

    validate(data, encoding="utf-8")      None, or the first Error
    decode(data, encoding="utf-8", errors="strict")      str
    encode(text, encoding="utf-8", errors="strict")      bytes
    transcode(data, from_, to, errors="strict")          bytes

`data` is any bytes-like object (bytes, bytearray, memoryview, array),
read in place; large inputs are decoded without the GIL. Encoding names
are the library's (utfdfa.encodings()).
"""
import codecs
import re
import sys
from collections import namedtuple

from . import _utfdfa

__all__ = ["validate", "decode", "encode", "transcode", "encodings", "Error", "CODECS"]
__version__ = _utfdfa.library_version

Error = namedtuple("Error", "offset kind length line column")
Error.__doc__ = """The first error validate() finds: its byte offset, kind (the library's
name: truncated, overlong, surrogate, ...), length in bytes (the maximal
subpart), line (1-based; lines end at U+000A) and column (characters from
the line's start, 1-based)."""


def encodings():
    """The library's encoding names, as validate, decode, encode and transcode take them."""
    return _utfdfa.encodings()


def validate(data, encoding="utf-8"):
    """None when data is valid in encoding, else its first Error."""
    found = _utfdfa.validate(data, encoding)
    return None if found is None else Error(*found)


def decode(data, encoding="utf-8", errors="strict"):
    """data decoded to str, errors handled as bytes.decode handles them."""
    return _utfdfa.decode(data, encoding, errors, True)[0]


def encode(text, encoding="utf-8", errors="strict"):
    """text encoded to bytes, errors handled as str.encode handles them."""
    return _utfdfa.encode(text, encoding, errors)[0]


_LIBRARY_MODES = {"strict": 0, "replace": 1, "ignore": 2}


def transcode(data, from_, to, errors="strict"):
    """data, in from_, written in to. strict, replace (one U+FFFD, or what
    `to` writes for it, per maximal subpart) and ignore run in one pass in
    the library; other handlers decode to str and encode that."""
    mode = _LIBRARY_MODES.get(errors)
    if mode is not None:
        return _utfdfa.transcode(data, from_, to, mode)
    return encode(decode(data, from_, errors), to, errors)


# ---------------------------------------------------------------- codecs
def _fixed(codec, lib, options=0):
    """A codec without byte order mark logic: the library does it all."""

    def encode(input, errors="strict"):
        return _utfdfa.encode(input, lib, errors, codec, options)

    def decode(input, errors="strict", final=True):
        return _utfdfa.decode(input, lib, errors, final, codec)

    def stream_decode(input, errors="strict"):
        return _utfdfa.decode(input, lib, errors, False, codec)

    class IncrementalEncoder(codecs.IncrementalEncoder):
        def encode(self, input, final=False):
            return _utfdfa.encode(input, lib, self.errors, codec, options)[0]

    class IncrementalDecoder(codecs.BufferedIncrementalDecoder):
        _buffer_decode = staticmethod(decode)

    class StreamWriter(codecs.StreamWriter):
        pass

    class StreamReader(codecs.StreamReader):
        pass

    StreamWriter.encode = staticmethod(encode)
    StreamReader.decode = staticmethod(stream_decode)
    return codecs.CodecInfo(
        name=codec,
        encode=encode,
        decode=lambda input, errors="strict": decode(input, errors, True),
        incrementalencoder=IncrementalEncoder,
        incrementaldecoder=IncrementalDecoder,
        streamwriter=StreamWriter,
        streamreader=StreamReader,
    )


def _with_bom(codec, lib, unit):
    """UTF-16 or UTF-32 with a byte order mark, as CPython's codecs
    (encodings/utf_16.py) have it: the mark read decides the order of the
    rest; none is the machine's order, which a stream reader refuses."""
    little = sys.byteorder == "little"
    le, be = lib + "le", lib + "be"
    native, other = (le, be) if little else (be, le)
    bom_native = "\ufeff".encode("utf-16-le" if little else "utf-16-be") if unit == 2 else \
        "\ufeff".encode("utf-32-le" if little else "utf-32-be")
    bom_le, bom_be = (b"\xff\xfe", b"\xfe\xff") if unit == 2 else (b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")
    name = lib.upper()

    def encode(input, errors="strict"):
        out, n = _utfdfa.encode(input, native, errors, codec)
        return bom_native + out, n

    def ex_decode(input, errors, final):
        """(str, consumed, byte order: -1 little, 1 big, 0 no mark)"""
        head = bytes(memoryview(input).cast("B")[:unit])
        if len(head) < unit and not final:
            return "", 0, 0
        order = -1 if head == bom_le else 1 if head == bom_be else 0
        out, consumed = _utfdfa.decode(input, lib, errors, final, codec)
        return out, consumed, order

    def decode(input, errors="strict"):
        return _utfdfa.decode(input, lib, errors, True, codec)

    def ordered(order):
        return le if order < 0 else be

    class IncrementalEncoder(codecs.IncrementalEncoder):
        def __init__(self, errors="strict"):
            super().__init__(errors)
            self.encoder = None

        def encode(self, input, final=False):
            if self.encoder is None:
                self.encoder = native
                return encode(input, self.errors)[0]
            return _utfdfa.encode(input, self.encoder, self.errors, codec)[0]

        def reset(self):
            super().reset()
            self.encoder = None

        def getstate(self):
            return 2 if self.encoder is None else 0

        def setstate(self, state):
            self.encoder = None if state else native

    class IncrementalDecoder(codecs.BufferedIncrementalDecoder):
        def __init__(self, errors="strict"):
            super().__init__(errors)
            self.decoder = None

        def _buffer_decode(self, input, errors, final):
            if self.decoder is None:
                out, consumed, order = ex_decode(input, errors, final)
                if order:
                    self.decoder = ordered(order)
                elif consumed >= unit:
                    raise UnicodeError(f"{name} stream does not start with BOM")
                return out, consumed
            return _utfdfa.decode(input, self.decoder, errors, final, codec)

        def reset(self):
            super().reset()
            self.decoder = None

        def getstate(self):
            state = super().getstate()[0]
            if self.decoder is None:
                return (state, 2)
            return (state, int(self.decoder != native))

        def setstate(self, state):
            super().setstate(state)
            self.decoder = {0: native, 1: other}.get(state[1])

    class StreamWriter(codecs.StreamWriter):
        def __init__(self, stream, errors="strict"):
            super().__init__(stream, errors)
            self.encoder = None

        def reset(self):
            super().reset()
            self.encoder = None

        def encode(self, input, errors="strict"):
            if self.encoder is None:
                self.encoder = native
                return encode(input, errors)
            return _utfdfa.encode(input, self.encoder, errors, codec)

    class StreamReader(codecs.StreamReader):
        def reset(self):
            super().reset()
            self.__dict__.pop("decode", None)

        def decode(self, input, errors="strict"):
            out, consumed, order = ex_decode(input, errors, False)
            if order:
                lib_order = ordered(order)
                self.decode = lambda input, errors="strict": _utfdfa.decode(
                    input, lib_order, errors, False, codec)
            elif consumed >= unit:
                raise UnicodeError(f"{name} stream does not start with BOM")
            return out, consumed

    return codecs.CodecInfo(
        name=codec, encode=encode, decode=decode,
        incrementalencoder=IncrementalEncoder, incrementaldecoder=IncrementalDecoder,
        streamwriter=StreamWriter, streamreader=StreamReader,
    )


# The encoder options (enum utfdfa_encoder_option) a codec writes with:
# utfdfa-utf-7 sends RFC 2152's Set O directly, as CPython's utf-7 does.
UTF7_DIRECT_SET_O = 1
_OPTIONS = {"utfdfa-utf-7": UTF7_DIRECT_SET_O}

# codec name -> the library's encoding name
CODECS = {
    "cesu-8": "cesu-8",
    "mutf-8": "mutf-8",
    "wtf-8": "wtf-8",
    "utf-7-imap": "utf-7-imap",
    "utf-8-rfc2279": "utf-8-rfc2279",
    "corrected-utf-8": "corrected-utf-8",
    "utfdfa-utf-8": "utf-8",
    "utfdfa-utf-7": "utf-7",
    "utfdfa-utf-16": "utf-16",
    "utfdfa-utf-16-le": "utf-16le",
    "utfdfa-utf-16-be": "utf-16be",
    "utfdfa-utf-32": "utf-32",
    "utfdfa-utf-32-le": "utf-32le",
    "utfdfa-utf-32-be": "utf-32be",
}


def _key(name):
    return re.sub(r"[^0-9a-z]", "", name.lower())


_KEYS = {_key(c): c for c in CODECS}
_INFO = {}


def _search(name):
    codec = _KEYS.get(_key(name))
    if codec is None:
        return None
    info = _INFO.get(codec)
    if info is None:
        lib = CODECS[codec]
        if lib in ("utf-16", "utf-32"):
            info = _with_bom(codec, lib, 2 if lib == "utf-16" else 4)
        else:
            info = _fixed(codec, lib, _OPTIONS.get(codec, 0))
        _INFO[codec] = info
    return info


codecs.register(_search)
