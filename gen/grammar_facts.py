# SPDX-License-Identifier: MIT
"""What the runtime needs from the grammars beyond their DFA tables, read
from the grammars themselves so that C does not retype it:

  - the error taxonomy: one list of kind names (every decoder grammar's
    @error-kinds is a prefix of the longest), with a _Static_assert tying
    each grammar's kind constant to the public enum utfdfa_error_kind;
  - UTF-7's ASCII classes: RFC 2152's Set D and Rule 3 (`direct` less
    `set-o`), Set O (`set-o`), the base64 characters (`b64`), and IMAP's
    directly sent characters (utf7-imap's `direct`);
  - Corrected UTF-8's rows: one per alternative of the unit with a value,
    its first code point (offset + the smallest payload), tag and length;
  - the bytes that begin a low surrogate's 3-byte sequence in CESU-8 and
    modified UTF-8 (which the runtime's pairing looks for after a high one);
  - UTF-8 as a sublanguage of each other encoding: the first bytes of the
    UTF-8 characters that are not, byte for byte and value for value, units
    of that encoding; text without them goes through UTF-8's fast paths.
"""

import os

import abnf
import automaton
import compiler
import emit

UTF7, UTF7_IMAP, CORRECTED, PAIRED = "utf7", "utf7-imap", "corrected-utf-8", ("cesu-8", "mutf-8")
UTF8 = "utf8"


def _path(grammar_dir, stem):
    return os.path.join(grammar_dir, stem + ".abnf")


def check_grammars(reg, grammar_dir):
    """Every grammar a row names exists (the error points at the row)."""
    for r in reg.rows:
        if r.grammar and not os.path.isfile(_path(grammar_dir, r.grammar[1])):
            raise abnf.Pos(reg.path, r.line, r.cols["grammar"]).error(
                f"grammar {r.grammar[1]}.abnf is not in {grammar_dir}")


def _rule_bytes(g, rule):
    """The bytes of a rule whose strings are all one byte long."""
    dfa = automaton.language_dfa(g, rule)
    one = [b for b in range(256) if dfa.accepting[dfa.trans[dfa.start][b]]]
    for b in range(256):
        s = dfa.trans[dfa.start][b]
        if any(dfa.trans[s][c] != dfa.reject for c in range(256)):
            raise ValueError(f"rule {rule!r} of {g.paths[0]} is not one byte long")
    return one


def _payload(data):
    """@value payload leading-ones: the value a unit's bytes carry."""
    v = 0
    for b in data:
        v = v << 6 | (b & compiler.payload_mask(b))
    return v


def _extreme(dfa, pick):
    """The smallest (pick=min) or largest (max) string of a DFA whose strings
    are all of one length (each step takes the pick of the live bytes)."""
    s, out = dfa.start, []
    while not dfa.accepting[s]:
        b = pick(b for b in range(256) if dfa.trans[s][b] != dfa.reject)
        out.append(b)
        s = dfa.trans[s][b]
    return bytes(out)


def _nibble_bits(members):
    """Muła's set membership: byte b is in the set iff bit (b >> 4) of row[b & 15] is set."""
    row = [0] * 16
    for b in members:
        if b >= 0x80:
            raise ValueError(f"byte 0x{b:02X} of a UTF-7 set is above 0x7F")
        row[b & 15] |= 1 << (b >> 4)
    return row


def _b64_roll(digits):
    """Muła and Lemire's offsets: digit(b) = b + roll[(b >> 4) - (b == fix)] (mod 256). Every
    high nibble's bytes share an offset, but for at most one byte (fix), whose offset goes in
    the row below, which holds no digit. fix is 0 (never a digit) when no byte needs it."""
    offsets = {}
    for value, b in enumerate(digits):
        offsets.setdefault(b >> 4, {}).setdefault((value - b) & 0xFF, []).append(b)
    roll, fix = [0] * 16, None
    for hi, offs in sorted(offsets.items()):
        lone = [o for o, bs in offs.items() if len(bs) == 1]
        if len(offs) == 2 and fix is None and lone and hi > 0 and hi - 1 not in offsets:
            fix = offs[lone[0]][0]
            roll[hi - 1] = lone[0]
            del offs[lone[0]]
        if len(offs) != 1:
            raise ValueError("the base64 alphabet does not fit one offset per high nibble")
        roll[hi] = next(iter(offs))
    return roll, fix or 0


def _simd_tables(grammars):
    """The tables of the SIMD UTF-7 kernels (src/fast/x86/utf7_*.c), per grammar: the direct
    characters (the `direct` rule) and the base64 digits as nibble bits, the offsets from a
    digit's byte to its value and the one byte that takes the row below (16 times)."""
    out = ["/* The SIMD UTF-7 kernels' tables: utf7_simd[imap][row], rows UTF7_SIMD_*",
           " * (gen/grammar_facts.py, _simd_tables). */",
           "#define UTF7_SIMD_DIRECT 0 /* direct characters: bit (b >> 4) of row[b & 15] */",
           "#define UTF7_SIMD_B64 1    /* base64 digits, the same way */",
           "#define UTF7_SIMD_ROLL 2   /* digit = b + roll[(b >> 4) - (b == fix)] */",
           "#define UTF7_SIMD_FIX 3    /* fix, 16 times */",
           "static const uint8_t utf7_simd[2][4][16] = {"]
    for g, comp in grammars:
        digits = comp.values["digits"]
        roll, fix = _b64_roll(digits)
        rows = [_nibble_bits(_rule_bytes(g, "direct")), _nibble_bits(digits), roll, [fix] * 16]
        for b in range(256):  # the scheme gives back the digit table
            ok = b < 0x80 and rows[1][b & 15] >> (b >> 4) & 1
            if bool(ok) != (b in digits) or (ok and (b + roll[(b >> 4) - (b == fix)]) & 0xFF
                                             != digits.index(b)):
                raise ValueError(f"the SIMD tables miss byte 0x{b:02X}")
        out.append("    {")
        out += ["        {" + ", ".join(f"0x{v:02X}" for v in r) + "}," for r in rows]
        out.append("    },")
    return out + ["};", ""]


class Facts:
    def __init__(self, reg, grammar_dir):
        self.reg = reg
        stems = []
        for r in reg.rows:
            if r.grammar and r.grammar[0] == "dfa" and r.grammar[1] not in stems:
                stems.append(r.grammar[1])
        self.grammars = stems
        self.sources = [os.path.join(os.path.basename(grammar_dir.rstrip("/")) or ".",
                                     s + ".abnf") for s in stems]
        self.comp = {s: compiler.compile_grammar([_path(grammar_dir, s)]) for s in stems}
        self.kinds = self._taxonomy()

    # -------------------------------------------------------- error kinds
    def _taxonomy(self):
        lists = {s: c.dfa.kind_names for s, c in self.comp.items()}
        longest = max(lists.values(), key=len)
        for s, kinds in lists.items():
            if kinds != longest[:len(kinds)]:
                raise ValueError(f"{s}.abnf: @error-kinds {' '.join(kinds[1:])} is not a prefix "
                                 f"of the taxonomy {' '.join(longest[1:])}")
        return longest

    def _emit_kinds(self):
        out = ["/* The error taxonomy (utfdfa_error_name), in the order of enum",
               " * utfdfa_error_kind: the longest @error-kinds list, of which every",
               " * grammar's is a prefix. */",
               f'_Static_assert(UTFDFA_NERROR_KINDS == {len(self.kinds)}, "the taxonomy");',
               "static const char *const utfdfa_error_names[UTFDFA_NERROR_KINDS] = {"]
        out += [f'    "{k}",' for k in self.kinds] + ["};"]
        for i, k in enumerate(self.kinds):
            out.append(f"_Static_assert(UTFDFA_ERR_{emit.c_ident(k).upper()} == {i}, "
                       f'"{k}");')
        for s, c in self.comp.items():
            P = emit.c_ident(s).upper()
            for k in c.dfa.kind_names[1:]:
                K = emit.c_ident(k).upper()
                out.append(f"_Static_assert((int){P}_ERROR_{K} == (int)UTFDFA_ERR_{K}, "
                           f'"{s}: {k}");')
        return out + [""]

    # -------------------------------------------------------- UTF-7 classes
    def _emit_utf7(self):
        if UTF7 not in self.comp or UTF7_IMAP not in self.comp:
            return []
        g7, gi = self.comp[UTF7].grammar, self.comp[UTF7_IMAP].grammar
        set_o = set(_rule_bytes(g7, "set-o"))
        classes = [
            ("DIRECT", "RFC 2152 Set D and Rule 3 (utf7's direct less set-o)",
             set(_rule_bytes(g7, "direct")) - set_o),
            ("SET_O", "RFC 2152 Set O (utf7's set-o)", set_o),
            ("BASE64", "the base64 digits (utf7's b64)", set(_rule_bytes(g7, "b64"))),
            ("IMAP_DIRECT", "sent as themselves in IMAP (utf7-imap's direct)",
             set(_rule_bytes(gi, "direct"))),
        ]
        out = ["/* UTF-7's ASCII classes, bits of utf7_ascii_class[byte]. */"]
        for bit, (name, what, members) in enumerate(classes):
            if any(b >= 0x80 for b in members):
                raise ValueError(f"UTF-7 class {name} holds a byte above 0x7F")
            out.append(f"#define UTF7_CLASS_{name} {1 << bit}u /* {what} */")
        table = [sum(1 << bit for bit, (_, _, m) in enumerate(classes) if b in m)
                 for b in range(128)]
        out.append("static const uint8_t utf7_ascii_class[128] = {")
        out += ["    " + ", ".join(f"{v:2d}" for v in table[i:i + 16]) + ","
                for i in range(0, 128, 16)]
        out += ["};", ""]
        return out + _simd_tables([(g7, self.comp[UTF7]), (gi, self.comp[UTF7_IMAP])])

    # -------------------------------------------------------- Corrected UTF-8 rows
    def _emit_corrected(self):
        if CORRECTED not in self.comp:
            return []
        c = self.comp[CORRECTED]
        offsets = dict(c.values.get("offset", []))
        P = emit.c_ident(CORRECTED).upper()
        rows = []
        for tag, name in enumerate(c.dfa.tag_names):
            if tag == 0 or name == c.values.get("reserved"):
                continue
            dfa = automaton.language_dfa(c.grammar, name)
            lo, hi = _extreme(dfa, min), _extreme(dfa, max)
            if len(lo) != len(hi):
                raise ValueError(f"{CORRECTED}.abnf: {name}'s units are not of one length")
            rows.append((offsets.get(name, 0) + _payload(lo), name, len(lo),
                         offsets.get(name, 0) + _payload(hi)))
        rows.sort()
        for (_, a, _, last), (first, b, _, _) in zip(rows, rows[1:]):
            if first <= last:
                raise ValueError(f"{CORRECTED}.abnf: rows {a} and {b} overlap")
        n = len(rows)
        out = ["/* Corrected UTF-8's rows (\"Putting it all together\"), from the grammar:",
               " * the first code point of each (the first row's is 0, the floor of the",
               " * search: U+0000 is its payload 0, which the grammar leaves to the magic",
               " * number), its tag (the offset is corrected_utf_8_tag_offset[tag]) and",
               " * its length. Last code points: "
               + ", ".join(f"{name} 0x{last:X}" for _, name, _, last in rows) + ". */",
               f"#define CORRECTED_NROWS {n}",
               "static const uint32_t corrected_first[CORRECTED_NROWS] = {"]
        out += ["    " + ", ".join(["0x0"] + [f"0x{r[0]:X}" for r in rows[1:]]) + ","]
        out += ["};", "static const uint8_t corrected_row_tag[CORRECTED_NROWS] = {"]
        out += [f"    {P}_TAG_{emit.c_ident(r[1]).upper()}," for r in rows]
        out += ["};", "static const uint8_t corrected_len[CORRECTED_NROWS] = {"]
        out += ["    " + ", ".join(str(r[2]) for r in rows) + ",", "};", ""]
        return out

    # -------------------------------------------------------- CESU-8 pairing
    def _low_surrogate_bytes(self, stem):
        """(first bytes, second bytes) of the 3-byte units with a value in
        U+DC00-DFFF, checked to be ranges whose every unit is a low surrogate."""
        c = self.comp[stem]
        dfa = automaton.language_dfa(c.grammar, c.unit)
        units = []
        for b0 in range(256):
            s0 = dfa.trans[dfa.start][b0]
            for b1 in range(256) if s0 != dfa.reject else ():
                s1 = dfa.trans[s0][b1]
                for b2 in range(256) if s1 != dfa.reject else ():
                    if dfa.accepting[dfa.trans[s1][b2]]:
                        units.append((b0, b1, 0xDC00 <= _payload((b0, b1, b2)) <= 0xDFFF))
        firsts = {b0 for b0, _, low in units if low}
        seconds = {b1 for _, b1, low in units if low}
        if not firsts or any(not low for b0, b1, low in units
                             if b0 in firsts and b1 in seconds):
            raise ValueError(f"{stem}.abnf: a low surrogate's first two bytes do not fix it")
        for name, s in (("first", firsts), ("second", seconds)):
            if max(s) - min(s) + 1 != len(s):
                raise ValueError(f"{stem}.abnf: a low surrogate's {name} bytes are not a range")
        return (min(firsts), max(firsts)), (min(seconds), max(seconds))

    def _emit_pairing(self):
        stems = [s for s in PAIRED if s in self.comp]
        if not stems:
            return []
        found = set()
        for s in stems:
            found.add(self._low_surrogate_bytes(s))
        if len(found) != 1:
            raise ValueError(f"{' and '.join(stems)} disagree on a low surrogate's bytes")
        (f0, f1), (s0, s1) = found.pop()
        return ["/* The first two bytes of a low surrogate's sequence (U+DC00-DFFF) in "
                + " and ".join(stems) + ". */",
                f"#define PAIRED_LOW_FIRST_MIN 0x{f0:02X}u",
                f"#define PAIRED_LOW_FIRST_MAX 0x{f1:02X}u",
                f"#define PAIRED_LOW_SECOND_MIN 0x{s0:02X}u",
                f"#define PAIRED_LOW_SECOND_MAX 0x{s1:02X}u", ""]

    # -------------------------------------------------- UTF-8 as a sublanguage
    def _utf8_unit_leads(self, stem):
        """The first bytes b of UTF-8 characters such that every UTF-8 character
        beginning with b is a unit of stem: the product of the two unit DFAs
        from b, in which every byte UTF-8 takes stem takes too, each reaches
        the end of a unit exactly when the other does, and neither goes on
        past it. Values agree because both grammars compute them alike
        (@value payload leading-ones and nothing else: no offsets, no
        reserved unit; checked by the caller). What the runtime adds beyond
        the units is the C side's to guard: surrogate pairing (the part is
        taken only with nothing held) and Corrected UTF-8's magic number
        (its values differ, so it has no part)."""
        u = automaton.language_dfa(self.comp[UTF8].grammar, self.comp[UTF8].unit)
        g = automaton.language_dfa(self.comp[stem].grammar, self.comp[stem].unit)

        def live(d, s):
            return [b for b in range(256) if d.trans[s][b] != d.reject]

        leads = []
        for b0 in live(u, u.start):
            todo, seen, ok = [(u.trans[u.start][b0], g.trans[g.start][b0])], set(), True
            while todo and ok:
                su, sg = todo.pop()
                if (su, sg) in seen:
                    continue
                seen.add((su, sg))
                if sg == g.reject or u.accepting[su] != g.accepting[sg]:
                    ok = False
                elif u.accepting[su]:
                    ok = not live(u, su) and not live(g, sg)
                else:
                    todo += [(u.trans[su][b], g.trans[sg][b]) for b in live(u, su)]
            if ok:
                leads.append(b0)
        return set(leads), set(live(u, u.start))

    def _emit_utf8_sublanguage(self):
        if UTF8 not in self.comp:
            return []
        out = ["/* UTF-8 text none of whose characters begins with a byte b < below or",
               " * b >= from is text of the encoding too, character for character and",
               " * value for value (gen/grammar_facts.py proves it on the two grammars'",
               " * units): such text of these sources takes UTF-8's fast paths. */",
               "struct utf8_sublanguage {",
               "    uint8_t has;    /* the encoding has UTF-8 text in it */",
               "    uint8_t below;  /* the first bytes that leave it: below, and from on */",
               "    uint16_t from;",
               "};",
               "static const struct utf8_sublanguage utf8_sublanguages[UTFDFA_NENCODINGS] = {"]
        for r in self.reg.rows:
            stem = r.grammar[1] if r.grammar and r.grammar[0] == "dfa" else None
            if stem is None or stem == UTF8 or self.comp[stem].values != self.comp[UTF8].values:
                continue
            good, firsts = self._utf8_unit_leads(stem)
            if not any(b < 0x80 for b in good):
                continue
            cut = firsts - good
            below = max([b + 1 for b in cut if b < 0x80], default=0)
            start = min([b for b in cut if b >= 0x80], default=0x100)
            if any(b < below or b >= start for b in good):
                raise ValueError(f"{stem}.abnf: the UTF-8 characters it lacks do not begin "
                                 "with the bytes of two ranges, 00-xx and xx-FF")
            out.append(f"    [{r.enum}] = {{1, 0x{below:02X}, 0x{start:03X}}}, /* {stem} */")
        return out + ["};", ""]

    def emit_c(self):
        return (self._emit_kinds() + self._emit_utf7() + self._emit_corrected()
                + self._emit_pairing() + self._emit_utf8_sublanguage())
