# SPDX-License-Identifier: MIT
"""ABNF parser: RFC 5234 (with RFC 7405 %s/%i case-sensitive strings).

The parser turns a grammar file into a dict of rules (name, case-folded ->
Rule) whose bodies are small expression trees over *octets*: every terminal
is a set of byte values. Annotations for the compiler are written inside ABNF
comments (`; @start RULE`), so an annotated grammar is still plain ABNF.
With terminals="utf-8" a num-val written in Unicode code points becomes the
byte sequences of their UTF-8 encodings (see _RuleParser). Several files
make one grammar (parse_grammars): a rule one of them defines in prose may
be defined in ABNF by another.

Every error is an AbnfError carrying FILE:LINE:COL; nothing here raises
anything else on bad input.
"""

import re
from dataclasses import dataclass, field


class AbnfError(Exception):
    def __init__(self, path, line, col, message):
        # line 0: about the file as a whole (it cannot be read), no position.
        super().__init__(f"{path}:{line}:{col}: {message}" if line else f"{path}: {message}")
        self.path, self.line, self.col, self.message = path, line, col, message


@dataclass(frozen=True)
class Pos:
    path: str
    line: int
    col: int

    def error(self, message):
        return AbnfError(self.path, self.line, self.col, message)


# Expression tree. Byte sets are 256-bit Python ints (bit b set = byte b).
@dataclass(frozen=True)
class Bytes:
    mask: int
    pos: Pos = field(compare=False)


@dataclass(frozen=True)
class Seq:
    items: tuple
    pos: Pos = field(compare=False)


@dataclass(frozen=True)
class Alt:
    items: tuple
    pos: Pos = field(compare=False)


@dataclass(frozen=True)
class Rep:
    lo: int
    hi: object  # int, or None for unbounded
    item: object
    pos: Pos = field(compare=False)


@dataclass(frozen=True)
class Ref:
    name: str  # as written; look up with name.lower()
    pos: Pos = field(compare=False)


@dataclass(frozen=True)
class Prose:
    text: str
    pos: Pos = field(compare=False)


@dataclass(frozen=True)
class Text:
    """A char-val, kept as written so emitters can show it; `masks` are its octets."""
    text: str
    case_sensitive: bool
    masks: tuple
    pos: Pos = field(compare=False)


@dataclass
class Rule:
    name: str           # spelling of the first definition
    body: object        # expression
    pos: Pos            # where it was first defined
    core: bool = False  # an RFC 5234 Appendix B rule not defined by the grammar


@dataclass
class Annotation:
    keyword: str
    args: str
    pos: Pos        # of the '@'
    args_pos: Pos   # of the first character of args


@dataclass
class Grammar:
    path: str                   # the first grammar file
    rules: dict                 # lower-cased name -> Rule
    order: list                 # lower-cased names in definition order
    annotations: list
    paths: list = field(default_factory=list)  # every grammar file, in the order given
    budget: object = None  # limits.Budget of the compilation under way, if any
    notes: list = field(default_factory=list)  # FILE:LINE: note: ... (page breaks skipped)


def is_prose(rule):
    """Whether a rule is defined only in words (`token = <token, see RFC 2616>`):
    a hole that another grammar file may fill with an ABNF definition."""
    return isinstance(rule.body, Prose)


def where(pos, seen_from):
    """LINE:COL of pos, with its file in front when that is not seen_from's file."""
    at = f"{pos.line}:{pos.col}"
    return at if pos.path == seen_from.path else f"{pos.path}:{at}"


def byte_mask(lo, hi=None):
    hi = lo if hi is None else hi
    return ((1 << (hi + 1)) - 1) ^ ((1 << lo) - 1)


def char_masks(text, case_sensitive):
    masks = []
    for ch in text:
        b = ord(ch)
        m = byte_mask(b)
        if not case_sensitive and ch.isalpha():
            m |= byte_mask(ord(ch.swapcase()))
        masks.append(m)
    return tuple(masks)


# RFC 5234 Appendix B.1, verbatim.
CORE_RULES = """\
ALPHA          =  %x41-5A / %x61-7A   ; A-Z / a-z
BIT            =  "0" / "1"
CHAR           =  %x01-7F
CR             =  %x0D
CRLF           =  CR LF
CTL            =  %x00-1F / %x7F
DIGIT          =  %x30-39
DQUOTE         =  %x22
HEXDIG         =  DIGIT / "A" / "B" / "C" / "D" / "E" / "F"
HTAB           =  %x09
LF             =  %x0A
LWSP           =  *(WSP / CRLF WSP)
OCTET          =  %x00-FF
SP             =  %x20
VCHAR          =  %x21-7E
WSP            =  SP / HTAB
"""

WSP = " \t"
ALPHA = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
DIGITS = "0123456789"
RULENAME_CHARS = ALPHA + DIGITS + "-"


class _Cursor:
    """Characters of one rule (continuation lines joined, comments blanked) with positions."""

    def __init__(self, chars, positions, end_pos):
        self.chars, self.positions, self.end_pos = chars, positions, end_pos
        self.i = 0

    def peek(self, k=0):
        j = self.i + k
        return self.chars[j] if j < len(self.chars) else ""

    def pos(self):
        return self.positions[self.i] if self.i < len(self.chars) else self.end_pos

    def error(self, message):
        return self.pos().error(message)

    def skip_ws(self):
        n = 0
        while self.peek() and self.peek() in WSP + "\n":
            self.i += 1
            n += 1
        return n

    def take_while(self, allowed):
        start = self.i
        while self.peek() and self.peek() in allowed:
            self.i += 1
        return "".join(self.chars[start:self.i])


MAX_NESTING = 100  # groups and options inside one another, far beyond any real grammar


TERMINALS = ("octets", "utf-8")
MAX_CODE_POINT = 0x10FFFF
SURROGATES = (0xD800, 0xDFFF)


def _utf8(cp):
    return chr(cp).encode("utf-8")


def utf8_sequences(lo, hi):
    """The UTF-8 encodings of the scalar values lo..hi (surrogates left out),
    as a list of byte-range sequences [(first, last), ...]: each sequence
    matches exactly the encodings of one sub-range. The sub-ranges share an
    encoded length and differ only in their last k continuation bytes, all
    of whose values they cover (as re2c and RE2 split them)."""
    out = []
    for a, b in ((lo, min(hi, SURROGATES[0] - 1)), (max(lo, SURROGATES[1] + 1), hi)):
        for first, last in ((0, 0x7F), (0x80, 0x7FF), (0x800, 0xFFFF), (0x10000, MAX_CODE_POINT)):
            if max(a, first) <= min(b, last):
                _same_length(max(a, first), min(b, last), out)
    return out


def _same_length(lo, hi, out):
    n = len(_utf8(lo))
    for i in range(1, n):
        low = (1 << (6 * i)) - 1  # the bits of the last i continuation bytes
        if lo & ~low != hi & ~low:
            if lo & low:
                _same_length(lo, lo | low, out)
                _same_length((lo | low) + 1, hi, out)
                return
            if hi & low != low:
                _same_length(lo, (hi & ~low) - 1, out)
                _same_length(hi & ~low, hi, out)
                return
    out.append(list(zip(_utf8(lo), _utf8(hi))))


class _RuleParser:
    def __init__(self, cur, terminals="octets"):
        self.cur = cur
        self.depth = 0
        # utf-8: a num-val above 0xFF, or a range crossing 0x80, is Unicode
        # code points encoded in UTF-8; other values stay octets (RFC 3629
        # writes UTF-8's own bytes as %x80-BF and the like).
        self.code_points = terminals == "utf-8"

    def alternation(self):
        pos = self.cur.pos()
        items = [self.concatenation()]
        while True:
            save = self.cur.i
            self.cur.skip_ws()
            if self.cur.peek() == "/":
                self.cur.i += 1
                self.cur.skip_ws()
                items.append(self.concatenation())
            else:
                self.cur.i = save
                break
        return items[0] if len(items) == 1 else Alt(tuple(items), pos)

    def concatenation(self):
        pos = self.cur.pos()
        items = [self.repetition()]
        while True:
            save = self.cur.i
            if self.cur.skip_ws() == 0:
                break
            if self.cur.peek() and self.cur.peek() not in "/)]":
                items.append(self.repetition())
            else:
                self.cur.i = save
                break
        return items[0] if len(items) == 1 else Seq(tuple(items), pos)

    def repetition(self):
        cur = self.cur
        pos = cur.pos()
        start = cur.i
        lo_txt = cur.take_while(DIGITS)
        if cur.peek() == "#":
            return self.list_rep(pos, start, lo_txt)
        if cur.peek() == "*":
            cur.i += 1
            hi_txt = cur.take_while(DIGITS)
            lo = int(lo_txt) if lo_txt else 0
            hi = int(hi_txt) if hi_txt else None
            if hi is not None and hi < lo:
                raise pos.error(f"repeat {lo}*{hi}: the maximum is below the minimum")
        elif lo_txt:
            lo = hi = int(lo_txt)
        else:
            return self.element()
        if not cur.peek() or cur.peek() in WSP + "\n/)]":
            raise cur.error("expected an element after the repeat count"
                            + self._space_hint(cur.chars[start:cur.i]))
        return Rep(lo, hi, self.element(), pos)

    def list_rep(self, pos, start, lo_txt):
        """RFC 9110 §5.6.1's list extension, in its sender form (§5.6.1.1):
        <n>#<m>element is n to m elements separated by a comma with optional
        whitespace around it (OWS, *( SP / HTAB ), §5.6.3):

            1#element       =>  element *( OWS "," OWS element )
            #element        =>  [ 1#element ]
            <n>#<m>element  =>  element <n-1>*<m-1>( OWS "," OWS element )
        """
        cur = self.cur
        cur.i += 1  # '#'
        hi_txt = cur.take_while(DIGITS)
        lo = int(lo_txt) if lo_txt else 0
        hi = int(hi_txt) if hi_txt else None
        if hi is not None and hi < lo:
            raise pos.error(f"list {lo}#{hi}: the maximum is below the minimum")
        if not cur.peek() or cur.peek() in WSP + "\n/)]":
            raise cur.error("expected an element after the list count"
                            + self._space_hint(cur.chars[start:cur.i]))
        item = self.element()
        if hi == 0:
            return Seq((), pos)
        ows = Rep(0, None, Bytes(byte_mask(0x20) | byte_mask(0x09), pos), pos)
        comma = Text(",", False, char_masks(",", False), pos)
        more = Rep(max(lo, 1) - 1, None if hi is None else hi - 1,
                   Seq((ows, comma, ows, item), pos), pos)
        one_or_more = Seq((item, more), pos)
        return one_or_more if lo else Rep(0, 1, one_or_more, pos)

    def _space_hint(self, count):
        """When an element follows the count after a space (`1*255 DIGIT`),
        the grammar's author meant it: say what RFC 5234 wants instead."""
        cur = self.cur
        j = cur.i
        while j < len(cur.chars) and cur.chars[j] in WSP:
            j += 1
        k = j
        while k < len(cur.chars) and cur.chars[k] not in WSP + "\n":
            k += 1
        word = "".join(cur.chars[j:k])
        if j == cur.i or not word or word[0] not in ALPHA + '("[%<':
            return ""
        count = "".join(count)
        return (f" {count}: RFC 5234 allows no space between a repeat and its element "
                f"(write {count}{word}, not {count} {word})")

    def element(self):
        cur = self.cur
        pos = cur.pos()
        c = cur.peek()
        if c and c in ALPHA:
            return Ref(cur.take_while(RULENAME_CHARS), pos)
        if c and c in "([":
            close = ")" if c == "(" else "]"
            if self.depth == MAX_NESTING:
                # Deeper input would exhaust Python's stack here or in the NFA builder.
                raise pos.error(f"groups and options nest more than {MAX_NESTING} deep")
            cur.i += 1
            cur.skip_ws()
            if cur.peek() == close:
                raise cur.error(f"empty {'group' if c == '(' else 'option'}")
            self.depth += 1
            try:
                inner = self.alternation()
            finally:
                self.depth -= 1
            cur.skip_ws()
            if cur.peek() != close:
                raise cur.error(f"expected '{close}' to close the "
                                f"{'group' if c == '(' else 'option'} opened at "
                                f"{pos.line}:{pos.col}")
            cur.i += 1
            return inner if c == "(" else Rep(0, 1, inner, pos)
        if c == '"':
            return self.char_val(pos, case_sensitive=False)
        if c == "%":
            kind = cur.peek(1).lower()
            if kind in "si" and kind and cur.peek(2) == '"':
                cur.i += 2
                return self.char_val(pos, case_sensitive=(kind == "s"))
            return self.num_val(pos)
        if c == "<":
            cur.i += 1
            start = cur.i
            while cur.peek() and cur.peek() != ">":
                if cur.peek() == "\n":
                    raise cur.error("prose-val not closed with '>' on its line")
                cur.i += 1
            if cur.peek() != ">":
                raise pos.error("prose-val not closed with '>'")
            text = "".join(cur.chars[start:cur.i])
            cur.i += 1
            return Prose(text, pos)
        if not c:
            raise cur.error("expected an element, found the end of the rule")
        if c == "\n":
            raise cur.error("expected an element, found the end of the line")
        raise cur.error(f"unexpected character {c!r}")

    def char_val(self, pos, case_sensitive):
        cur = self.cur
        cur.i += 1  # opening quote
        start = cur.i
        while cur.peek() and cur.peek() not in '"\n':
            cur.i += 1
        if cur.peek() != '"':
            raise pos.error("char-val not closed with '\"' on its line")
        text = "".join(cur.chars[start:cur.i])
        cur.i += 1
        if text == "":
            # "" matches the empty string (RFC 5234 allows it).
            return Seq((), pos)
        return Text(text, case_sensitive, char_masks(text, case_sensitive), pos)

    def num_val(self, pos):
        cur = self.cur
        cur.i += 1  # '%'
        base_ch = cur.peek().lower()
        bases = {"x": (16, "0123456789abcdefABCDEF"), "d": (10, DIGITS), "b": (2, "01")}
        if base_ch not in bases or not base_ch:
            raise cur.error("expected 'x', 'd' or 'b' after '%' (num-val)")
        cur.i += 1
        base, digits = bases[base_ch]

        def number():
            p = cur.pos()
            txt = cur.take_while(digits)
            if not txt:
                raise p.error(f"expected a base-{base} digit")
            v = int(txt, base)
            if v > 0xFF and not self.code_points:
                raise p.error(f"value {txt} (={v}) is not an octet: this compiler's "
                              "terminals are bytes 0-255 (--terminals utf-8 reads values "
                              "above 0xFF as Unicode code points)")
            if v > MAX_CODE_POINT:
                raise p.error(f"value {txt} (={v}) is beyond U+10FFFF, the last Unicode "
                              "code point")
            return v, p

        (first, first_pos) = number()
        if cur.peek() == "-":
            cur.i += 1
            last, _ = number()
            if last < first:
                raise pos.error("num-val range is empty: the end is below the start")
            if self.code_points and (last > 0xFF or first < 0x80 <= last):
                return self._code_points(first, last, pos)
            return Bytes(byte_mask(first, last), pos)
        items = [self._value(first, first_pos)]
        while cur.peek() == ".":
            cur.i += 1
            items.append(self._value(*number()))
        return items[0] if len(items) == 1 else Seq(tuple(items), pos)

    def _value(self, v, pos):
        """One value of a num-val: a byte, or (above 0xFF, with code points)
        a code point's UTF-8 bytes."""
        if self.code_points and v > 0xFF:
            return self._code_points(v, v, pos)
        return Bytes(byte_mask(v), pos)

    def _code_points(self, lo, hi, pos):
        """The UTF-8 encodings of the code points lo..hi, surrogates excluded."""
        seqs = utf8_sequences(lo, hi)
        if not seqs:
            raise pos.error(f"U+{lo:04X}" + (f"-U+{hi:04X} are surrogates" if hi > lo else
                                              " is a surrogate")
                            + ", which UTF-8 does not encode: nothing can match")
        alts = [Seq(tuple(Bytes(byte_mask(a, b), pos) for a, b in seq), pos)
                if len(seq) > 1 else Bytes(byte_mask(*seq[0]), pos) for seq in seqs]
        return alts[0] if len(alts) == 1 else Alt(tuple(alts), pos)


def _check_chars(path, lines):
    for lineno, line in enumerate(lines, 1):
        for col, ch in enumerate(line, 1):
            o = ord(ch)
            if not (0x20 <= o <= 0x7E or ch == "\t"):
                raise AbnfError(path, lineno, col,
                                f"character 0x{o:02X} is not allowed in ABNF "
                                "(only printable ASCII, SP, HTAB and line ends)")


def _split_comment(line):
    """Index of the ';' starting a comment, ignoring ';' inside quotes and prose."""
    quote = None
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch == '"':
            quote = '"'
        elif ch == "<":
            quote = ">"
        elif ch == ";":
            return i
    return -1


# RFC text as published (RFC 7322 §4.1): a page ends with a footer line
# ("Berners-Lee, et al.   Standards Track   [Page 49]"), a form feed, and the
# next page's header ("RFC 3986   URI Generic Syntax   January 2005"), all
# at column 1, with blank lines around them. Internet-Drafts alike.
_PAGE_FOOTER = re.compile(r"\S.*\S[ \t]+\[Page \d+\]")
_PAGE_HEADER = re.compile(r"(RFC \d+|Internet-Draft)[ \t]+\S.*")


def _page_breaks(lines):
    """The page breaks of RFC text among lines: [(first, last)] line indexes,
    each a footer and a header (with what lies between them: blank lines and
    a form feed), or a form feed alone on its line with any footer above and
    header below it."""
    def blank(i):
        return not lines[i].strip(WSP)

    def next_text(i, step):
        while 0 <= i < len(lines) and blank(i):
            i += step
        return i if 0 <= i < len(lines) else None

    breaks = []
    i = 0
    while i < len(lines):
        line = lines[i]
        footer = _PAGE_FOOTER.fullmatch(line.rstrip(WSP))
        feed = line.startswith("\f") and (line[1:].strip(WSP) == "" or
                                          _PAGE_HEADER.fullmatch(line[1:].rstrip(WSP)))
        # An excerpt may also begin with a page's header, or end with its footer.
        top = _PAGE_HEADER.fullmatch(line.rstrip(WSP)) and not any(
            ln.strip(WSP) and not ln.lstrip(WSP).startswith(";") for ln in lines[:i])
        if top:
            breaks.append((i, i))
        if top or not (footer or feed):
            i += 1
            continue
        first = last = i
        if footer:  # then a form feed and a header, or a header alone
            j = next_text(i + 1, 1)
            if j is not None and lines[j].startswith("\f"):
                feed, last, j = True, j, (j if lines[j][1:].strip(WSP) else next_text(j + 1, 1))
            if j is not None and _PAGE_HEADER.fullmatch(lines[j].lstrip("\f").rstrip(WSP)):
                last = j
            elif not feed and j is not None:
                i += 1
                continue
        else:  # a form feed: the footer above it, the header below it
            j = next_text(i - 1, -1)
            if j is not None and _PAGE_FOOTER.fullmatch(lines[j].rstrip(WSP)) and \
                    (not breaks or j > breaks[-1][1]):
                first = j
            if not line[1:].strip(WSP):
                j = next_text(i + 1, 1)
                if j is not None and _PAGE_HEADER.fullmatch(lines[j].rstrip(WSP)):
                    last = j
        breaks.append((first, last))
        i = last + 1
    return breaks


def _looks_like_rule(code):
    return re.match(r"[ \t]*[A-Za-z][A-Za-z0-9-]*[ \t]*=", code) is not None


def parse_text(path, text, core=False, terminals="octets", notes=None):
    """Parse grammar text; return (list of (Rule, defined_as), annotations).
    RFC page breaks are skipped, with a line about each added to notes."""
    lines = [ln[:-1] if ln.endswith("\r") else ln for ln in text.split("\n")]
    if lines and lines[-1] == "":
        lines.pop()
    for first, last in _page_breaks(lines):
        page = lines[first:last + 1]
        found = [what for what, there in (
            ("page footer", any(_PAGE_FOOTER.fullmatch(ln.rstrip(WSP)) for ln in page)),
            ("form feed", any(ln.startswith("\f") for ln in page)),
            ("page header", any(_PAGE_HEADER.fullmatch(ln.lstrip("\f").rstrip(WSP))
                                for ln in page))) if there]
        lines[first:last + 1] = [""] * len(page)
        if notes is not None:
            span = f"line {first + 1}" if first == last else f"lines {first + 1}-{last + 1}"
            notes.append(f"{path}:{first + 1}: note: skipped an RFC page break ({span}: "
                         f"{', '.join(found)})")
    _check_chars(path, lines)
    # Grammars copied from RFCs are indented as a block: the least indent of
    # the lines that hold ABNF (not only a comment) is the left margin.
    codes = [ln if _split_comment(ln) < 0 else ln[:_split_comment(ln)] for ln in lines]
    indented = [(n, len(c) - len(c.lstrip(WSP))) for n, c in enumerate(codes, 1) if c.strip(WSP)]
    margin = min(i for _, i in indented) if indented else 0
    if indented and indented[0][1] > margin and _looks_like_rule(codes[indented[0][0] - 1]):
        # The first rule sets the margin: a line left of it is what is wrong.
        top, col = indented[0][0], indented[0][1] + 1
        lineno, indent = next((n, i) for n, i in indented if i < col - 1)
        raise AbnfError(path, lineno, indent + 1,
                        f"line starts left of the rules' margin (column {col}, from the rule "
                        f"at line {top}): a grammar file's rules start in one column")

    annotations = []
    chunks = []  # per rule: list of (lineno, first_col, text)
    for lineno, line in enumerate(lines, 1):
        cut = _split_comment(line)
        code = line if cut < 0 else line[:cut]
        if cut >= 0:
            comment = line[cut + 1:]
            stripped = comment.lstrip(WSP)
            if stripped.startswith("@"):
                at_col = cut + 2 + (len(comment) - len(stripped))
                body = stripped[1:]
                kw = ""
                while kw != body and body[len(kw)] in RULENAME_CHARS:
                    kw = body[:len(kw) + 1]
                rest = body[len(kw):]
                args = rest.strip(WSP)
                args_col = at_col + 1 + len(kw) + (len(rest) - len(rest.lstrip(WSP)))
                annotations.append(Annotation(kw, args, Pos(path, lineno, at_col),
                                              Pos(path, lineno, args_col)))
        if not code.strip(WSP):
            continue
        indent = len(code) - len(code.lstrip(WSP))
        if indent == margin:
            chunks.append([(lineno, 1, code)])
        elif not chunks:
            raise AbnfError(path, lineno, indent + 1,
                            "continuation line (indented) before any rule")
        else:
            chunks[-1].append((lineno, 1, code))

    defs = []
    for chunk in chunks:
        chars, positions = [], []
        for k, (lineno, col0, code) in enumerate(chunk):
            if k:  # the line break sits just after the previous line's text
                prev_line, _, prev_code = chunk[k - 1]
                chars.append("\n")
                positions.append(Pos(path, prev_line, len(prev_code) + 1))
            for j, ch in enumerate(code):
                chars.append(ch)
                positions.append(Pos(path, lineno, col0 + j))
        last_line, _, last_code = chunk[-1]
        cur = _Cursor(chars, positions, Pos(path, last_line, len(last_code) + 1))
        cur.skip_ws()
        name_pos = cur.pos()
        if not cur.peek() or cur.peek() not in ALPHA:
            raise cur.error("expected a rule name at the start of a rule")
        name = cur.take_while(RULENAME_CHARS)
        cur.skip_ws()
        if cur.peek() != "=":
            raise cur.error(f"expected '=' or '=/' after rule name {name!r}")
        cur.i += 1
        incremental = cur.peek() == "/"
        if incremental:
            cur.i += 1
        cur.skip_ws()
        if not cur.peek():
            raise cur.error(f"rule {name!r} has no elements")
        body = _RuleParser(cur, terminals).alternation()
        cur.skip_ws()
        if cur.peek():
            raise cur.error(f"unexpected {cur.peek()!r} after the elements of rule {name!r}")
        defs.append((Rule(name, body, name_pos, core=core), incremental))
    return defs, annotations


_CORE_CACHE = []


def _core_rules():
    if not _CORE_CACHE:
        defs, _ = parse_text("<RFC 5234 Appendix B>", CORE_RULES, core=True)
        _CORE_CACHE.append({r.name.lower(): r for r, _ in defs})
    return _CORE_CACHE[0]


def _add_definitions(rules, order, defs):
    """Add one file's definitions. A rule may be defined once; across files
    a prose definition gives way to an ABNF one (a grammar supplies what
    another describes in words)."""
    for rule, incremental in defs:
        key = rule.name.lower()
        old = rules.get(key)
        if incremental:
            if old is None:
                raise rule.pos.error(f"'=/' adds to rule {rule.name!r}, which is not defined "
                                     "earlier in the file")
            items = (old.body.items if isinstance(old.body, Alt) else (old.body,))
            new = rule.body.items if isinstance(rule.body, Alt) else (rule.body,)
            old.body = Alt(items + new, old.body.pos)
        elif old is None:
            rules[key] = rule
            order.append(key)
        elif old.pos.path != rule.pos.path and is_prose(old) != is_prose(rule):
            if is_prose(old):
                rules[key] = rule  # supplied: keeps its place in the order
        elif old.pos.path != rule.pos.path:
            raise rule.pos.error(f"rule {rule.name!r} is already defined at "
                                 f"{where(old.pos, rule.pos)}; a rule is defined in one "
                                 "grammar file only, unless one of the definitions is prose")
        else:
            raise rule.pos.error(f"rule {rule.name!r} is already defined at "
                                 f"{where(old.pos, rule.pos)} (use '=/' to add alternatives)")


def _add_core_rules(rules):
    for key, rule in _core_rules().items():
        if key not in rules:
            rules[key] = Rule(rule.name, rule.body, rule.pos, core=True)


def parse_grammars(sources, terminals="octets"):
    """One grammar from several files: sources is a list of (path, text).
    Each file is parsed on its own (its own left margin: RFC excerpts are
    indented differently), then their rules are put together."""
    rules, order, annotations, notes = {}, [], [], []
    for path, text in sources:
        defs, anns = parse_text(path, text, terminals=terminals, notes=notes)
        _add_definitions(rules, order, defs)
        annotations += anns
    _add_core_rules(rules)
    paths = [path for path, _ in sources]
    return Grammar(paths[0], rules, order, annotations, paths, notes=notes)


def parse_grammar(path, text, terminals="octets"):
    return parse_grammars([(path, text)], terminals)


def parse_expression(pos, text, terminals="octets"):
    """Parse an alternation written in an annotation (one line)."""
    chars = list(text)
    positions = [Pos(pos.path, pos.line, pos.col + j) for j in range(len(text))]
    cur = _Cursor(chars, positions, Pos(pos.path, pos.line, pos.col + len(text)))
    if not text.strip(WSP):
        raise pos.error("expected ABNF elements")
    expr = _RuleParser(cur, terminals).alternation()
    cur.skip_ws()
    if cur.peek():
        raise cur.error(f"unexpected {cur.peek()!r} after the elements")
    return expr


def _read(path):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise AbnfError(path, 0, 0, f"cannot read grammar: {e.strerror}")
    return data.decode("latin-1")


def load(paths, terminals="octets"):
    """The grammar of one file (a path) or of several (a list of paths).
    terminals: "octets" (num-vals are bytes) or "utf-8" (see _RuleParser)."""
    if isinstance(paths, str):
        paths = [paths]
    return parse_grammars([(path, _read(path)) for path in paths], terminals)
