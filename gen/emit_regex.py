# SPDX-License-Identifier: MIT
"""--emit regex and --emit ragel: the start rule's language for the regex and
ragel engines (Hyperscan, PCRE2, RE2, Python's re; ragel -G2), so that a
grammar can be run, and measured, by them as written.

Both are over bytes, as the DFA is: a char-val is its octets (case-insensitive
ones as two-byte sets), a num-val with --terminals=utf-8 its UTF-8 sequences.
A rule that refers to itself cannot be either (the DFA of --emit c loops
instead), nor can prose that no grammar given defines: both are errors here.
"""

import re

import compiler
import emit
from abnf import Alt, Bytes, Prose, Ref, Rep, Seq, Text

# An inlined regex grows with every use of a rule: past this it is an error,
# not a file no engine would compile.
MAX_REGEX = 1 << 22


def _ranges(mask):
    return compiler.ranges([b for b in range(256) if mask >> b & 1])


# ---- regex (PCRE syntax on bytes)

def _rx_byte(b, in_class):
    c = chr(b)
    return c if c.isascii() and c.isalnum() else f"\\x{b:02X}"


def _rx_set(mask):
    rs = _ranges(mask)
    if len(rs) == 1 and rs[0][0] == rs[0][1]:
        return _rx_byte(rs[0][0], False)
    return "[" + "".join(_rx_byte(a, True) if a == b else
                         f"{_rx_byte(a, True)}-{_rx_byte(b, True)}" for a, b in rs) + "]"


def _rx_rep(lo, hi):
    return ("*" if (lo, hi) == (0, None) else "+" if (lo, hi) == (1, None) else
            "?" if (lo, hi) == (0, 1) else f"{{{lo},}}" if hi is None else
            f"{{{lo}}}" if lo == hi else f"{{{lo},{hi}}}")


def _closes(s, i, open_, close):
    """Index of the bracket closing the one at s[i] (escapes skipped)."""
    depth, j = 0, i
    while j < len(s):
        if s[j] == "\\":
            j += 2
            continue
        depth += s[j] == open_
        depth -= s[j] == close
        if depth == 0:
            return j
        j += 1
    return j


def _rx_atomic(s):
    """Whether a postfix repeat applies to all of s: one byte, one class, one group."""
    if re.fullmatch(r"[0-9A-Za-z]|\\x[0-9A-F]{2}", s):
        return True
    if s.startswith("[") or s.startswith("(?:"):
        return _closes(s, 0, s[0], "]" if s[0] == "[" else ")") == len(s) - 1
    return False


class _Inliner:
    """One regex for a rule, every reference replaced by its rule's regex
    (each rule's computed once)."""

    def __init__(self, g):
        self.g, self.done, self.stack = g, {}, []

    def rule(self, ref):
        key = ref.name.lower()
        rule = self.g.rules.get(key)
        if rule is None:
            raise ref.pos.error(f"rule {ref.name!r} is not defined")
        if key in self.stack:
            cycle = " -> ".join(self.g.rules[k].name for k in self.stack[self.stack.index(key):])
            raise ValueError(f"rule {rule.name} refers to itself ({cycle} -> {rule.name}), "
                             "and a regular expression cannot (the DFA of --emit c loops "
                             "instead)")
        if key not in self.done:
            self.stack.append(key)
            self.done[key] = self.expr(rule.body, True)
            self.stack.pop()
        return self.done[key]

    def one_byte(self, e):
        """The byte set of e when e matches exactly one byte of a set, else None."""
        if isinstance(e, Bytes):
            return e.mask
        if isinstance(e, Text):
            return e.masks[0] if len(e.masks) == 1 else None
        if isinstance(e, Ref) and e.name.lower() in self.g.rules \
                and e.name.lower() not in self.stack:
            self.stack.append(e.name.lower())
            try:
                return self.one_byte(self.g.rules[e.name.lower()].body)
            finally:
                self.stack.pop()
        if isinstance(e, (Alt, Seq)) and len(e.items) == 1:
            return self.one_byte(e.items[0])
        if isinstance(e, Alt) and e.items:
            masks = [self.one_byte(i) for i in e.items]
            if None not in masks:
                acc = 0
                for m in masks:
                    acc |= m
                return acc
        if isinstance(e, Rep) and (e.lo, e.hi) == (1, 1):
            return self.one_byte(e.item)
        return None

    def expr(self, e, top=False):
        """The regex of e; `top`: it may be an unbracketed alternation."""
        if isinstance(e, Bytes):
            return _rx_set(e.mask)
        if isinstance(e, Text):
            return "".join(_rx_set(m) for m in e.masks)
        if isinstance(e, Ref):
            s = self.rule(e)
            if len(s) > MAX_REGEX:
                raise ValueError(f"the regex passes {MAX_REGEX} bytes at rule {e.name}: "
                                 "a grammar this size is the DFA's (--emit c)")
            return s if top or _rx_atomic(s) else f"(?:{s})"
        if isinstance(e, Prose):
            raise e.pos.error(f"prose <{e.text[:60]}> names no bytes, and no grammar given "
                              "defines it")
        if isinstance(e, Seq):
            s = "".join(self.expr(i) for i in e.items)
            return s if top or len(e.items) <= 1 else f"(?:{s})"
        if isinstance(e, Alt):
            mask = self.one_byte(e)
            if mask is not None:  # alternatives of one byte each: one class
                return _rx_set(mask)
            s = "|".join(self.expr(i, True) for i in e.items)
            return s if top or len(e.items) <= 1 else f"(?:{s})"
        if isinstance(e, Rep):
            if e.hi == 0:
                return ""
            inner = self.expr(e.item)
            return (inner if _rx_atomic(inner) else f"(?:{inner})") + _rx_rep(e.lo, e.hi)
        raise TypeError(e)


def emit_regex(comp, source):
    """Comment lines (#) then the regex of the start rule, unanchored."""
    rx = _Inliner(comp.grammar).rule(Ref(comp.start, comp.grammar.rules[comp.start.lower()].pos))
    return "\n".join([
        f"# {emit.banner(source)}.",
        f"# The language of rule {comp.start}, every rule it uses inlined: PCRE syntax over",
        "# bytes (\\xHH), the same language as the DFA of --emit c. The last line is the",
        "# expression, unanchored: a whole buffer matches \\A(?:...)\\z (PCRE2, Hyperscan,",
        "# RE2) or \\A(?:...)\\Z (Python's re).",
        rx, ""])


# ---- ragel (a machine definition per rule)

def ragel_name(name, prefix):
    return f"{prefix}_{name.replace('-', '_')}"


def _rl_set(mask):
    rs = _ranges(mask)
    if rs == [(0, 255)]:
        return "any"
    if not rs:
        return "empty"
    s = " | ".join(f"0x{a:02X}" if a == b else f"0x{a:02X}..0x{b:02X}" for a, b in rs)
    return s if len(rs) == 1 else f"({s})"


def _rl_text(e):
    printable = all(c.isascii() and (c.isalnum() or c in " -_.,:/+*=@!?#$%&~^|<>;'")
                    for c in e.text)
    if printable and e.text:
        folds = not e.case_sensitive and any(c.isalpha() for c in e.text)
        return f'"{e.text}"' + ("i" if folds else "")
    return "(" + " ".join(_rl_set(m) for m in e.masks) + ")" if e.masks else "zlen"


def ragel_expr(e, names, top=True):
    if isinstance(e, Bytes):
        return _rl_set(e.mask)
    if isinstance(e, Text):
        return _rl_text(e)
    if isinstance(e, Ref):
        return names[e.name.lower()]
    if isinstance(e, Seq):
        if not e.items:
            return "zlen"
        s = " . ".join(ragel_expr(i, names, False) for i in e.items)
        return s if top or len(e.items) == 1 else f"({s})"
    if isinstance(e, Alt):
        s = " | ".join(ragel_expr(i, names, True) for i in e.items)
        return s if top or len(e.items) == 1 else f"({s})"
    if isinstance(e, Rep):
        if e.hi == 0:
            return "zlen"
        inner = ragel_expr(e.item, names, False)
        if not (re.fullmatch(r"\w+|\"[^\"]*\"i?", inner) or inner.startswith("(")
                and _closes(inner, 0, "(", ")") == len(inner) - 1):
            inner = f"({inner})"
        lo, hi = e.lo, e.hi
        suffix = (_rx_rep(lo, hi) if (lo, hi) in ((0, None), (1, None), (0, 1)) or hi is None
                  or lo == hi else f"{{{lo},{hi}}}" if lo else f"{{,{hi}}}")
        return inner + suffix
    raise TypeError(e)


def emit_ragel(comp, source, prefix):
    """A ragel machine PREFIX: one definition per rule (PREFIX_RULE, '-' spelled
    '_'); a program instantiates the start rule (`main := PREFIX_START;`)."""
    g = comp.grammar
    keys, skipped = emit.re2c_rules(g)
    start = comp.start.lower()
    if start in skipped:
        raise ValueError(f"rule {comp.start} cannot be a ragel machine: {skipped[start]}")
    names = {k: ragel_name(r.name, prefix) for k, r in g.rules.items()}
    out = [f"# {emit.banner(source)}.",
           "#",
           f"# Ragel machine {prefix}: one definition per ABNF rule (and RFC 5234 core rule",
           f"# used), named {prefix}_RULE with '-' spelled '_', over bytes (alphtype unsigned",
           "# char). The same language as the DFA of --emit c. Use it from a ragel program",
           f"# with `include {prefix} \"FILE\";` and `main := {names[start]};`.",
           "", "%%{", f"machine {prefix};", "alphtype unsigned char;", ""]
    for key in keys:
        rule = g.rules[key]
        where = source if len(g.paths) <= 1 else rule.pos.path
        origin = "RFC 5234 Appendix B" if rule.core else f"{where}:{rule.pos.line}"
        out.append(f"{names[key]} = {ragel_expr(rule.body, names)}; # {origin}")
    for key in sorted(skipped, key=lambda k: g.order.index(k) if k in g.order else 0):
        out.append(f"# {names[key]} is not a ragel definition: {skipped[key]}.")
    out += ["", "}%%", ""]
    return "\n".join(out)
