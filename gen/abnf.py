# SPDX-License-Identifier: MIT
"""ABNF parser: RFC 5234 (with RFC 7405 %s/%i case-sensitive strings).

The parser turns a grammar file into a dict of rules (name, case-folded ->
Rule) whose bodies are small expression trees over *octets*: every terminal
is a set of byte values. Annotations for the compiler are written inside ABNF
comments (`; @start RULE`), so an annotated grammar is still plain ABNF.

Every error is an AbnfError carrying FILE:LINE:COL; nothing here raises
anything else on bad input.
"""

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
    path: str
    rules: dict                 # lower-cased name -> Rule
    order: list                 # lower-cased names in definition order
    annotations: list


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


class _RuleParser:
    def __init__(self, cur):
        self.cur = cur
        self.depth = 0

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
        lo_txt = cur.take_while(DIGITS)
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
            raise cur.error("expected an element after the repeat count")
        return Rep(lo, hi, self.element(), pos)

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
            if v > 0xFF:
                raise p.error(f"value {txt} (={v}) is not an octet: this compiler's "
                              "terminals are bytes 0-255")
            return v

        first = number()
        if cur.peek() == "-":
            cur.i += 1
            last = number()
            if last < first:
                raise pos.error("num-val range is empty: the end is below the start")
            return Bytes(byte_mask(first, last), pos)
        if cur.peek() == ".":
            items = [Bytes(byte_mask(first), pos)]
            while cur.peek() == ".":
                cur.i += 1
                p = cur.pos()
                items.append(Bytes(byte_mask(number()), p))
            return Seq(tuple(items), pos)
        return Bytes(byte_mask(first), pos)


def _check_chars(path, text):
    for lineno, line in enumerate(text.split("\n"), 1):
        for col, ch in enumerate(line, 1):
            o = ord(ch)
            if ch == "\r" and col == len(line):
                continue
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


def parse_text(path, text, core=False):
    """Parse grammar text; return (list of (Rule, defined_as), annotations)."""
    _check_chars(path, text)
    lines = [ln[:-1] if ln.endswith("\r") else ln for ln in text.split("\n")]
    if lines and lines[-1] == "":
        lines.pop()
    # Grammars copied from RFCs are indented as a block: the least indent of
    # the lines that hold ABNF (not only a comment) is the left margin.
    codes = [ln if _split_comment(ln) < 0 else ln[:_split_comment(ln)] for ln in lines]
    indents = [len(c) - len(c.lstrip(WSP)) for c in codes if c.strip(WSP)]
    margin = min(indents) if indents else 0

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
        body = _RuleParser(cur).alternation()
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


def parse_grammar(path, text):
    defs, annotations = parse_text(path, text)
    rules, order = {}, []
    for rule, incremental in defs:
        key = rule.name.lower()
        if incremental:
            if key not in rules:
                raise rule.pos.error(f"'=/' adds to rule {rule.name!r}, which is not defined "
                                     "earlier in the file")
            old = rules[key]
            items = (old.body.items if isinstance(old.body, Alt) else (old.body,))
            new = rule.body.items if isinstance(rule.body, Alt) else (rule.body,)
            old.body = Alt(items + new, old.body.pos)
        else:
            if key in rules:
                first = rules[key].pos
                raise rule.pos.error(f"rule {rule.name!r} is already defined at "
                                     f"{first.line}:{first.col} (use '=/' to add alternatives)")
            rules[key] = rule
            order.append(key)
    for key, rule in _core_rules().items():
        if key not in rules:
            rules[key] = Rule(rule.name, rule.body, rule.pos, core=True)
    return Grammar(path, rules, order, annotations)


def parse_expression(pos, text):
    """Parse an alternation written in an annotation (one line)."""
    chars = list(text)
    positions = [Pos(pos.path, pos.line, pos.col + j) for j in range(len(text))]
    cur = _Cursor(chars, positions, Pos(pos.path, pos.line, pos.col + len(text)))
    if not text.strip(WSP):
        raise pos.error("expected ABNF elements")
    expr = _RuleParser(cur).alternation()
    cur.skip_ws()
    if cur.peek():
        raise cur.error(f"unexpected {cur.peek()!r} after the elements")
    return expr


def load(path):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise AbnfError(path, 0, 0, f"cannot read grammar: {e.strerror}")
    return parse_grammar(path, data.decode("latin-1"))
