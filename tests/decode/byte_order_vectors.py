#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Expected results for tests/decode/test_byte_order.c, from Python's codecs
(the oracle): UTF-16 and UTF-32 without a byte order. "utf-16"/"utf-32"
decode by the BOM; without one Python reads native order, the library
little-endian, so those inputs are decoded with the -le codec. For each
input: whether it starts with a BOM, the code points in replace and in
ignore mode, in strict mode those before the first error and that
error's offset and length, and the replace mode's text written by Python's
"utf-16" and "utf-32" encoders (a BOM, then little-endian; nothing for no
text, as iconv: Python writes a lone BOM there). Writes a C header (generated, do not edit).

    byte_order_vectors.py OUT.h
"""
import codecs
import random
import sys

BOMS = {2: (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE), 4: (codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)}


def codec(unit, data):
    name = "utf-16" if unit == 2 else "utf-32"
    return name if data.startswith(BOMS[unit]) else name + "-le"


def strict(unit, data):
    try:
        return [ord(c) for c in data.decode(codec(unit, data))], None
    except UnicodeDecodeError as e:
        before = data[:e.start].decode(codec(unit, data), "replace")
        return [ord(c) for c in before], (e.start, e.end - e.start)


def cases():
    fixed = {2: [b"", b"\xff", b"\xfe", b"\x41", b"\xff\xfe", b"\xfe\xff", b"A\x00", b"\x00A",
                 b"\xff\xfeA\x00", b"\xfe\xff\x00A", b"\xff\xfe\xff\xfe", b"\xfe\xff\xfe\xff",
                 b"\xff\xfe\x00\xdc", b"\xfe\xff\xdc\x00", b"\xff\xfe\x00\xd8A\x00", b"\xff\xfeA",
                 b"\xfe\xff\x00", b"\xff\xfe\x00\x00", b"\x00\xd8\x00\xdc", b"\xfe\xff\xd8\x00\xdc\x00",
                 b"A\x00B\x00\n\x00", b"\x00\xdc", b"\xff\xfe\x3d\xd8\x00", b"\xfe\xff\xd8\x3d\xde\x00"],
             4: [b"", b"\x00", b"\x00\x00", b"\x00\x00\xfe", b"\x00\x00\xfe\xff", b"\xff\xfe\x00\x00",
                 b"\xff\xfe", b"\xff\xfe\x00", b"A\x00\x00\x00", b"\x00\x00\x00A",
                 b"\x00\x00\xfe\xff\x00\x00\x00A", b"\xff\xfe\x00\x00A\x00\x00\x00",
                 b"\xff\xfe\x00\x00\xff\xfe\x00\x00", b"\x00\x00\xfe\xff\x00\x00\xd8\x00",
                 b"\xff\xfe\x00\x00\x00\x00\x11\x00", b"\x00\x00\xfe\xff\x00\x11\x00\x00",
                 b"\xff\xfe\x01\x00", b"\xfe\xff\x00\x00", b"\x00\x00\xff\xfe", b"\xff\xfe\x00\x00A",
                 b"\x00\x00\xfe\xff\x00\x00"]}
    rng = random.Random(2781)
    for unit in (2, 4):
        yield from ((unit, d) for d in fixed[unit])
        alphabet = [b"\x00", b"\xff", b"\xfe", b"\xd8", b"\xdc", b"A", b"\x11", b"\n"]
        for _ in range(300):
            head = rng.choice([b"", BOMS[unit][0], BOMS[unit][1]])
            body = b"".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 11)))
            yield unit, head + body


def c_array(values, fmt):
    return "{" + ", ".join(fmt % v for v in values) + "}" if values else "{0}"


def main():
    out = ["/* generated from tests/decode/byte_order_vectors.py (Python's codecs) -- do not edit */",
           "static const struct vector vectors[] = {"]
    for unit, data in cases():
        def dec(mode):
            return [ord(c) for c in data.decode(codec(unit, data), mode)]
        rep, ign = dec("replace"), dec("ignore")
        before, error = strict(unit, data)
        text = "".join(map(chr, rep))  # written back: a BOM, then native (little-endian) order
        w16 = text.encode("utf-16") if text else b""
        w32 = text.encode("utf-32") if text else b""
        out.append("    {%d, %d, %s, %d, %d, %s, %d, %s, %d, %s, %d, %d, %d, %d, %s, %d, %s}," % (
            unit, len(data), c_array(data, "0x%02X"), data.startswith(BOMS[unit]),
            len(rep), c_array(rep, "0x%X"), len(ign), c_array(ign, "0x%X"),
            len(before), c_array(before, "0x%X"), error is not None,
            error[0] if error else 0, error[1] if error else 0,
            len(w16), c_array(w16, "0x%02X"), len(w32), c_array(w32, "0x%02X")))
    out.append("};")
    with open(sys.argv[1], "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
