#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write the seed corpora of the fuzz targets (tests/fuzz/fuzz_decode.c).

    python3 tests/fuzz/make_seeds.py OUTDIR [SHARED_DIR]

OUTDIR/<target>/ gets one file per seed (named by its SHA-1, as libFuzzer
names its own), for the targets utf8, utf16le, utf16be, utf32le, utf32be
(fuzz_decode.c) and rfc2279, corrected, ucs4le, ucs4be, utf7, cesu8,
mutf8, wtf8, utf7imap, latin1 (fuzz_variants.c, same header layout).
Seeds are made at run time, never stored in the repository, from:
  - the test vectors of tests/common/vectors.h and the hostile inputs of
    tests/stream/test_vectors.c (those of each target's encoding);
  - SHARED_DIR/conformance/*.txt (Kuhn's UTF-8 stress test), in slices;
  - SHARED_DIR/corpus/**: slices of every file that is valid UTF-8,
    transcoded to each target encoding by Python's codecs, plus copies with
    lone surrogates (UTF-16) or out-of-range units (UTF-32) spliced in.
SHARED_DIR defaults to ../shared beside the repository; when it is absent
the seeds come from the test files only (a note says so).

Each seed is 4 header bytes (mode, output kind, chunking, output room:
see fuzz_decode.c) then the text; every text gets a few headers.
"""

import base64
import hashlib
import os
import random
import re
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
TARGETS = {"utf8": "utf-8", "utf16le": "utf-16-le", "utf16be": "utf-16-be",
           "utf32le": "utf-32-le", "utf32be": "utf-32-be"}
ENUM = {"UTFDFA_UTF8": "utf8", "UTFDFA_UTF16LE": "utf16le", "UTFDFA_UTF16BE": "utf16be",
        "UTFDFA_UTF32LE": "utf32le", "UTFDFA_UTF32BE": "utf32be"}
MAX_TEXT = 2048
# header byte 0: errors (bits 0-1), BOM (2-3), output kind (4-7);
# byte 1: max chunk (bits 0-3), room extra (4-6), empty last call (7); 2-3: seed
# (byte 3 bits 0-1 also: UTF-7 Set O direct, Corrected UTF-8 private-use mapping)
HEADERS = [bytes([0x00, 0x00, 0, 0]), bytes([0x01, 0x11, 1, 2]), bytes([0x26, 0x93, 7, 9]),
           bytes([0x79, 0x25, 3, 5]), bytes([0x42, 0xF4, 0, 1]), bytes([0x18, 0x3C, 9, 9])]


def parse_hex(s):
    return bytes(int(x, 16) for x in s.split())


def test_vectors():
    """(target or None for utf8, bytes) from the C test files."""
    out = []
    path = os.path.join(REPO, "tests", "common", "vectors.h")
    if os.path.isfile(path):
        with open(path) as f:
            body = f.read()
        m = re.search(r"vectors\[\]\s*=\s*\{(.*?)\};", body, re.S)
        if m:
            for s in re.findall(r'"([0-9A-Fa-f ]*)"', m.group(1)):
                out.append(("utf8", parse_hex(s)))
    path = os.path.join(REPO, "tests", "stream", "test_vectors.c")
    if os.path.isfile(path):
        with open(path) as f:
            body = f.read()
        for enum, s in re.findall(r'\{(UTFDFA_UTF\w+),\s*(?:UTFDFA_\w+,\s*UTFDFA_\w+,\s*)?'
                                  r'"([0-9A-Fa-f ]*)"', body):
            if enum in ENUM:
                out.append((ENUM[enum], parse_hex(s)))
    return out


def slices(data, rng, count):
    if len(data) <= MAX_TEXT:
        return [data]
    out = []
    for _ in range(count):
        start = rng.randrange(len(data) - MAX_TEXT)
        out.append(data[start:start + rng.randint(16, MAX_TEXT)])
    return out


def hostile_wide(text_bytes, target, rng):
    """The valid encoding with ill-formed units spliced in at random places."""
    unit = 2 if target.startswith("utf16") else 4
    be = target.endswith("be")
    if unit == 2:
        bad = [0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xD83D]
        pack = lambda u: struct.pack(">H" if be else "<H", u)
    else:
        bad = [0xD800, 0xDFFF, 0x110000, 0xFFFFFFFF, 0x7FFFFFFF]
        pack = lambda u: struct.pack(">I" if be else "<I", u)
    b = bytearray(text_bytes)
    for _ in range(4):
        at = rng.randrange(len(b) // unit + 1) * unit
        b[at:at] = pack(rng.choice(bad))
    if rng.random() < 0.5:
        b += b"\x3d"  # a trailing partial unit
    return bytes(b)


# Corrected UTF-8 (corrected-utf-8.txt, "Putting it all together"): each row
# (first code point, length) stores cp - offset in the UTF-8 bit layout.
CORRECTED_ROWS = [(0x0, 1, 0), (0xA0, 2, 160), (0x8A0, 3, 2208), (0xE000, 3, 4256),
                  (0x110A0, 4, 69792), (0x2110A0, 5, 2166944), (0x42110A0, 6, 69275808)]


def corrected_encode(text):
    out = bytearray()
    for ch in text:
        cp = ord(ch)
        if cp == 0 or 0x80 <= cp <= 0x9F or 0xD800 <= cp <= 0xDFFF:
            continue  # not encodable
        first, n, off = [r for r in CORRECTED_ROWS if r[0] <= cp][-1]
        v = cp - off
        if n == 1:
            out.append(v)
            continue
        tail = []
        for _ in range(n - 1):
            tail.append(0x80 | (v & 0x3F))
            v >>= 6
        out.append(((0xFF00 >> n) & 0xFF) | v)
        out += bytes(reversed(tail))
    return bytes(out)


def variant_texts(text, rng):
    """Seeds of the fuzz_variants.c targets for one text, with damage."""
    u8 = text.encode("utf-8")
    cut = rng.randrange(len(u8) + 1)
    corrected = corrected_encode(text)
    ccut = rng.randrange(len(corrected) + 1)
    u7 = text.encode("utf-7")
    u7cut = rng.randrange(len(u7) + 1)
    # CESU-8: the UTF-8 form of each UTF-16 unit; modified UTF-8: and U+0000 as C0 80
    units = text.encode("utf-16-be")
    cesu = "".join(chr(int.from_bytes(units[i:i + 2], "big"))
                   for i in range(0, len(units), 2)).encode("utf-8", "surrogatepass")
    mutf = cesu.replace(b"\x00", b"\xc0\x80")
    imap = "".join(("&-" if c == "&" else c) if 0x20 <= ord(c) <= 0x7E else
                   "&" + base64.b64encode(c.encode("utf-16-be")).decode().rstrip("=")
                   .replace("/", ",") + "-" for c in text).encode("ascii")
    icut = rng.randrange(len(imap) + 1)
    cecut = rng.randrange(len(cesu) + 1)
    mcut = rng.randrange(len(mutf) + 1)
    return {
        "rfc2279": [u8, u8[:cut] + rng.choice([b"\xf8\x88\x80\x80\x80", b"\xfd\xbf\xbf\xbf\xbf\xbf",
                                              b"\xf8\x80\x80\x80\x80", b"\xfe", b"\xed\xa0\x80"])
                    + u8[cut:]],
        "corrected": [corrected, corrected[:ccut] + rng.choice([b"\xfe\x80\x80", b"\xff", b"\x00",
                                                               b"\xc0\xaf", b"\x80"]) + corrected[ccut:],
                      b"\xef\xb7\x9d\xed\xb2\xae\x00\x0a" + corrected],
        "ucs4le": [text.encode("utf-32-le"), hostile_wide(text.encode("utf-32-le"), "utf32le", rng)],
        "ucs4be": [text.encode("utf-32-be"), hostile_wide(text.encode("utf-32-be"), "utf32be", rng)],
        "utf7": [u7, u7[:u7cut] + rng.choice([b"+", b"+2AE-", b"~", b"+IK-", b"+@"]) + u7[u7cut:]],
        "cesu8": [cesu, cesu[:cecut] + rng.choice(CESU_DAMAGE) + cesu[cecut:]],
        "mutf8": [mutf, mutf[:mcut] + rng.choice(CESU_DAMAGE) + mutf[mcut:]],
        "wtf8": [u8, u8[:cut] + rng.choice(CESU_DAMAGE) + u8[cut:]],
        "utf7imap": [imap, imap[:icut] + rng.choice([b"&", b"&AOk", b"-&AOk-", b"&AGE-", b"\t"]) + imap[icut:]],
        # every byte string is ISO-8859-1: the text where it fits, and its UTF-8 bytes as Latin-1
        "latin1": [text.encode("latin-1", "replace"), u8],
    }


CESU_DAMAGE = [b"\xed\xa0\x80", b"\xed\xb0\x80", b"\xf0\x9f\x98\x80", b"\x00", b"\xc0\x80",
               b"\xed\xa0\x80\xed", b"\xc0\xaf", b"\xe0\x80\x80"]

UTF7_HOSTILE = [b"+ADw-script+AD4-", b"a+IKx-b", b"a+IK-b", b"a+2AE-b", b"a+@b", b"+AGEAYgBj",
                b"A+ImIDkQ.", b"Hi Mom -+Jjo--!", b"+ZeVnLIqe-", b"Item 3 is +AKM-1.", b"+/v8-", b"+-",
                b"+", b"+2D3cAA-", b"+2D3cAA", b"+3AA-"]


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    outdir = sys.argv[1]
    shared = sys.argv[2] if len(sys.argv) == 3 else os.path.join(REPO, "..", "shared")
    rng = random.Random(20261122)
    texts = {t: [] for t in list(TARGETS) + ["utf16", "utf32", "rfc2279", "corrected", "ucs4le", "ucs4be", "utf7",
                                             "cesu8", "mutf8", "wtf8", "utf7imap", "latin1"]}
    texts["utf7"] += UTF7_HOSTILE
    # C0, C1, U+00FF, and the bytes of a UTF-8 BOM and magic number (text here, no signature)
    texts["latin1"] += [bytes(range(256)), b"\x00\x85\x9f\xa0\xff", b"\xef\xbb\xbfA",
                        b"\xef\xb7\x9d\xed\xb2\xae\x00\x0a"]
    texts["corrected"] += [b"\xfe", b"a\xff\x80\x80b", b"\xc0\xaf", b"\xef\xb7\x9d\xed\xb2\xae\x00\x0a",
                           b"\xef\xb7\x9d\xed\xb2\xae\x00", b"\xef\xb7\x9d\xed"]
    for target, data in test_vectors():
        texts[target].append(data)
        if target == "utf8":  # the same bytes mean something in the 1-6 byte forms too
            texts["rfc2279"].append(data)
            texts["corrected"].append(data)
    valid_utf8 = []
    conf = os.path.join(shared, "conformance")
    corpus = os.path.join(shared, "corpus")
    if not os.path.isdir(conf) and not os.path.isdir(corpus):
        print("make_seeds: %s is absent: seeds from the test files only" % shared)
    if os.path.isdir(conf):
        for name in sorted(os.listdir(conf)):
            if name.endswith(".txt"):
                with open(os.path.join(conf, name), "rb") as f:
                    data = f.read()
                for piece in slices(data, rng, 24):
                    texts["utf8"].append(piece)
                    # its replacement decoding, in every encoding
                    valid_utf8.append(piece.decode("utf-8", "replace").encode("utf-8"))
    if os.path.isdir(corpus):
        for root, _, files in sorted(os.walk(corpus)):
            for name in sorted(files):
                with open(os.path.join(root, name), "rb") as f:
                    data = f.read()
                try:
                    data.decode("utf-8")
                except UnicodeDecodeError:
                    continue
                for piece in slices(data, rng, 4):
                    valid_utf8.append(piece.decode("utf-8", "ignore").encode("utf-8"))
    for k, piece in enumerate(valid_utf8):
        text = piece.decode("utf-8")
        if k % 3 == 0:  # a BOM at the start, for the BOM modes
            text = "\ufeff" + text
        for target, seeds in variant_texts(text, rng).items():
            texts[target] += seeds
        # UTF-16/UTF-32 without a byte order: a BOM of either order, or none
        for target, le, be in (("utf16", "utf-16-le", "utf-16-be"), ("utf32", "utf-32-le", "utf-32-be")):
            bom = "\ufeff".encode(be if k % 2 else le)
            texts[target] += [bom + text.encode(be if k % 2 else le), text.encode(le)]
        for target, pyname in TARGETS.items():
            enc = text.encode(pyname)
            texts[target].append(enc)
            if target != "utf8":
                texts[target].append(hostile_wide(enc, target, rng))
            else:  # a UTF-8 slice cut anywhere, and with a stray byte
                cut = rng.randrange(len(enc) + 1)
                texts[target].append(enc[:cut] + bytes([rng.choice([0x80, 0xC0, 0xED, 0xF4, 0xFF])])
                                     + enc[cut:])
    total = 0
    for target, items in texts.items():
        d = os.path.join(outdir, target)
        os.makedirs(d, exist_ok=True)
        seen = set()
        for i, t in enumerate(items):
            for h in (HEADERS if len(t) < 256 else HEADERS[i % len(HEADERS):][:2]):
                seed = h + t
                name = hashlib.sha1(seed).hexdigest()
                if name in seen:
                    continue
                seen.add(name)
                with open(os.path.join(d, name), "wb") as f:
                    f.write(seed)
        total += len(seen)
        print("make_seeds: %s: %d seeds" % (target, len(seen)))
    return 0 if total else 1


if __name__ == "__main__":
    sys.exit(main())
