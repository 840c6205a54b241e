# SPDX-License-Identifier: MIT
"""Grammar file + annotations -> compiled automata.

Annotations live in ABNF comments, one per line:

  ; @start RULE          the rule whose language is compiled (default: first rule)
  ; @unit RULE           one unit (character) of a decoder; the start rule must
                         then be exactly a repetition of it
  ; @tags                transitions that complete a unit carry which top-level
                         alternative of the unit rule they completed
  ; @longest-match       a unit may be a prefix of a longer one: the longest
                         wins, ending before the first byte that cannot go on
  ; @mark NAME RULE ...  a transition that completes one of the RULEs inside a
                         unit carries the output NAME (numbered after the tags),
                         though the unit goes on
  ; @error-kinds K ...   the error kinds, in the order they are numbered (1..)
  ; @error K = ELEMENTS  the bytes of the current unit up to and including a
                         rejected byte match ELEMENTS: the error is of kind K
                         (the first matching annotation wins)
  ; @error-start K       kind of an unlabelled reject at the start of a unit
  ; @error-within K      kind of an unlabelled reject inside a unit
  ; @value payload S     how a byte adds to the value (leading-ones: UTF-8's bits;
                         octet: the whole byte, for units of one byte)
  ; @value payload digits RULE
                         a byte's value is its index among RULE's bytes, in
                         the order RULE lists them (base64: A-Z a-z 0-9 + /);
                         each digit adds log2(count) bits
  ; @value offset T N    a unit completed by alternative T adds N to its value
  ; @value reserved T    alternative T has no value (a reserved unit)
  ; @value literal T     alternative T's value is the byte that completes it
  ; @value constant T N  alternative T's value is N
  ; @value empty T       alternative T completes no character (only syntax)
  ; @value split M N     at mark M the value's bits above its low N complete a
                         sub-unit; the low N bits stay for the next one

A grammar without annotations still compiles: its language DFA, with one
error kind ("invalid") for every reject.
"""

from dataclasses import dataclass, field

import abnf
import automaton
import limits

KNOWN = ("start", "unit", "tags", "longest-match", "mark", "error-kinds", "error",
         "error-start", "error-within", "value")


@dataclass
class Compiled:
    grammar: abnf.Grammar
    start: str           # rule name as spelled in the grammar
    unit: object         # rule name or None
    language: automaton.Dfa
    dfa: automaton.Dfa   # the decoder DFA when there is a unit, else the language DFA
    values: dict = field(default_factory=dict)


def _one(anns, kw):
    found = [a for a in anns if a.keyword == kw]
    if len(found) > 1:
        raise found[1].pos.error(f"@{kw} is given more than once (first at "
                                 f"{abnf.where(found[0].pos, found[1].pos)})")
    return found[0] if found else None


def _rule_arg(g, ann):
    name = ann.args.split()[0] if ann.args.split() else ""
    if not name:
        raise ann.args_pos.error(f"@{ann.keyword} needs a rule name")
    if name.lower() not in g.rules:
        raise ann.args_pos.error(f"@{ann.keyword}: rule {name!r} is not defined")
    if len(ann.args.split()) > 1:
        raise ann.args_pos.error(f"@{ann.keyword} takes one rule name")
    return g.rules[name.lower()].name


def _strip_comment(text):
    cut = abnf._split_comment(text)
    return (text if cut < 0 else text[:cut]).rstrip(abnf.WSP)


def compile_grammar(paths, start=None, unit=None, tags=None, terminals="octets", budget=None):
    """Compile the grammar of one file (a path) or of several (a list of
    paths, whose rules are put together: see abnf.parse_grammars).
    terminals="utf-8": num-vals above 0xFF are code points (abnf._RuleParser).
    budget: a limits.Budget (default: the default limits)."""
    g = abnf.load(paths, terminals)
    g.budget = budget or limits.Budget()
    path = ", ".join(g.paths)  # names the grammar in messages about it as a whole
    for a in g.annotations:
        a.args = _strip_comment(a.args)
        if a.keyword not in KNOWN:
            raise a.pos.error(f"unknown annotation @{a.keyword} (known: "
                              + ", ".join("@" + k for k in KNOWN) + ")")
    anns = g.annotations
    if start is None:
        ann = _one(anns, "start")
        if ann:
            start = _rule_arg(g, ann)
        elif g.order:
            start = g.rules[g.order[0]].name
        else:
            raise abnf.AbnfError(path, 1, 1, "the grammar defines no rule")
    elif start.lower() not in g.rules:
        raise abnf.AbnfError(path, 0, 0, f"--start: rule {start!r} is not defined")
    else:
        start = g.rules[start.lower()].name
    if unit is None:
        ann = _one(anns, "unit")
        unit = _rule_arg(g, ann) if ann else None
    elif unit.lower() not in g.rules:
        raise abnf.AbnfError(path, 0, 0, f"--unit: rule {unit!r} is not defined")
    else:
        unit = g.rules[unit.lower()].name
    if tags is None:
        tags = _one(anns, "tags") is not None

    language = automaton.language_dfa(g, start)
    if unit is None:
        value_ann = next((a for a in anns if a.keyword == "value"), None)
        if value_ann:
            raise value_ann.pos.error("@value describes the value of a decoder's units: it "
                                      "needs a unit rule (@unit or --unit)")
        return Compiled(g, start, None, language, language)

    kinds_ann = _one(anns, "error-kinds")
    kind_names = ["none"]
    if kinds_ann:
        for k in kinds_ann.args.split():
            if k in kind_names:
                raise kinds_ann.args_pos.error(f"@error-kinds names {k!r} twice")
            kind_names.append(k)

    def kind_index(ann, name, default_for=None):
        if name not in kind_names:
            if kinds_ann and ann is None:
                raise kinds_ann.args_pos.error(
                    f"@error-kinds does not list {name!r}, the kind of an unlabelled reject "
                    f"{default_for}: list it, or name another with @error-"
                    f"{'start' if 'start' in default_for else 'within'}")
            if kinds_ann:
                raise ann.args_pos.error(f"error kind {name!r} is not listed in @error-kinds "
                                         f"at {kinds_ann.pos.line}:{kinds_ann.pos.col}")
            kind_names.append(name)
        return kind_names.index(name)

    errors = []
    for a in anns:
        if a.keyword != "error":
            continue
        kind, eq, expr = a.args.partition("=")
        kind = kind.strip()
        if not eq or not kind or " " in kind:
            raise a.args_pos.error("@error takes KIND = ELEMENTS")
        expr_col = a.args_pos.col + len(a.args) - len(expr) + (len(expr) - len(expr.lstrip()))
        expr_pos = abnf.Pos(a.pos.path, a.pos.line, expr_col)
        errors.append((kind_index(a, kind), abnf.parse_expression(expr_pos, expr.strip(),
                                                                  terminals)))
    defaults = []
    for kw, fallback in (("error-start", "invalid"), ("error-within", "truncated")):
        ann = _one(anns, kw)
        if ann and len(ann.args.split()) != 1:
            raise ann.args_pos.error(f"@{kw} takes one error kind")
        where = "at the start of a unit" if kw == "error-start" else "inside a unit"
        defaults.append(kind_index(ann, ann.args) if ann else kind_index(None, fallback, where))
    marks = []
    for a in anns:
        if a.keyword != "mark":
            continue
        parts = a.args.split()
        if len(parts) < 2:
            raise a.args_pos.error("@mark takes NAME RULE...")
        if parts[0] in [m for m, _ in marks]:
            raise a.args_pos.error(f"@mark {parts[0]!r} is given twice")
        for r in parts[1:]:
            if r.lower() not in g.rules:
                raise a.args_pos.error(f"@mark: rule {r!r} is not defined")
        marks.append((parts[0], parts[1:]))
    if unit.lower() == start.lower():
        rule = g.rules[start.lower()]
        raise rule.pos.error(f"rule {unit!r} is both the start rule and the unit: a decoder's "
                             f"start rule is a sequence of units; add `{unit}-seq = *( {unit} )` "
                             f"and `; @start {unit}-seq` (or --start {unit}-seq); for --emit "
                             "re2c-lexer alone, give no unit: its token is then the start rule")
    dfa = automaton.decoder_dfa(g, unit, errors, tuple(defaults), kind_names, tags,
                                _one(anns, "longest-match") is not None, marks)
    unit_rule = g.rules[unit.lower()]
    tick = lambda: g.budget.tick(lambda: (unit_rule.name, unit_rule.pos, 1))  # noqa: E731
    if not automaton.same_language(language, dfa.language_view(), tick):
        rule = g.rules[start.lower()]
        raise rule.pos.error(f"start rule {start!r} must be *( {unit} ) for a decoder: "
                             "its language differs")
    values = {}
    value_anns = []
    for a in anns:
        if a.keyword != "value":
            continue
        parts = a.args.split()
        value_anns.append((a, parts))
        if parts[:1] == ["payload"] and len(parts) == 2:
            values["payload"] = parts[1:]
        elif parts[:2] == ["payload", "digits"] and len(parts) == 3:
            if parts[2].lower() not in g.rules:
                raise a.args_pos.error(f"@value payload digits: rule {parts[2]!r} is not defined")
            values["digits"] = _digit_bytes(g, g.rules[parts[2].lower()], a)
        elif parts[:1] in (["literal"], ["empty"]) and len(parts) == 2:
            values.setdefault(parts[0], []).append(_tag_name(g, parts[1]))
        elif parts[:1] == ["constant"] and len(parts) == 3 and parts[2].isdigit():
            values.setdefault("constant", []).append((_tag_name(g, parts[1]), int(parts[2])))
        elif parts[:1] == ["split"] and len(parts) == 3 and parts[2].isdigit():
            values.setdefault("split", []).append((parts[1], int(parts[2])))
        elif parts[:1] == ["reserved"] and len(parts) == 2:
            values["reserved"] = g.rules[parts[1].lower()].name if parts[1].lower() in g.rules \
                else parts[1]
        elif parts[:1] == ["offset"] and len(parts) == 3 and parts[2].isdigit():
            values.setdefault("offset", []).append((g.rules[parts[1].lower()].name
                                                    if parts[1].lower() in g.rules
                                                    else parts[1], int(parts[2])))
        else:
            raise a.args_pos.error("@value takes 'payload SCHEME', 'payload digits RULE', "
                                   "'offset TAG NUMBER', 'reserved TAG', 'literal TAG', "
                                   "'constant TAG NUMBER', 'empty TAG' or 'split MARK BITS'")
    for a, parts in value_anns:
        _check_value(a, parts, g, dfa)
    return Compiled(g, start, unit, language, dfa, values)


PAYLOAD_SCHEMES = ("leading-ones", "octet")


def payload_mask(b, scheme="leading-ones"):
    """@value payload leading-ones: the bits of byte b below its highest zero
    bit (UTF-8's lead and continuation bytes alike); octet: all of its bits
    (a one-byte unit whose value is the byte, ISO-8859-1's)."""
    if scheme == "octet":
        return 0xFF
    bit = 7
    while bit >= 0 and b >> bit & 1:
        bit -= 1
    return (1 << bit) - 1 if bit > 0 else 0


def _word_pos(a, i):
    """Where the i-th word of an annotation's arguments starts."""
    col = 0
    for _ in range(i + 1):
        while a.args[col] in abnf.WSP:
            col += 1
        start = col
        while col < len(a.args) and a.args[col] not in abnf.WSP:
            col += 1
    return abnf.Pos(a.args_pos.path, a.args_pos.line, a.args_pos.col + start)


def _check_value(a, parts, g, dfa):
    """What an @value annotation names must exist in the decoder DFA: checked
    when the grammar is read, whatever is emitted."""
    tags = dfa.tag_names
    known = f"(tags: {', '.join(tags[1:])})" if len(tags) > 1 else "(the unit has no tags: @tags)"
    if parts[0] == "payload" and parts[1] != "digits":
        if parts[1] not in PAYLOAD_SCHEMES:
            raise _word_pos(a, 1).error(f"@value payload: unknown scheme {parts[1]!r} (known: "
                                   + ", ".join(PAYLOAD_SCHEMES) + ")")
        for c in range(dfa.nclasses):
            live = any(dfa.class_trans[s][c] != dfa.reject for s in range(dfa.nstates))
            if live and len({payload_mask(b, parts[1]) for b in dfa.class_bytes(c)}) != 1:
                shown = " ".join(f"{x:02X}" if x == y else f"{x:02X}-{y:02X}"
                                 for x, y in ranges(dfa.class_bytes(c)))
                raise a.args_pos.error(f"@value payload: byte class {shown} mixes payload "
                                       "masks, so one mask per class cannot decode it")
    elif parts[0] in ("literal", "empty", "constant", "split"):
        if _tag_name(g, parts[1]) not in tags:
            raise _word_pos(a, 1).error(f"@value {parts[0]}: {parts[1]!r} is not a tag or mark {known}")
    elif parts[0] in ("reserved", "offset"):
        if len(tags) < 2:
            raise a.args_pos.error(f"@value {parts[0]} needs @tags")
        if _tag_name(g, parts[1]) not in tags:
            raise _word_pos(a, 1).error(f"@value {parts[0]}: {parts[1]!r} is not an alternative of "
                                   f"the unit rule {known}")


def ranges(byte_list):
    """Sorted bytes as [(first, last)] runs of consecutive values."""
    out = []
    for b in byte_list:
        if out and out[-1][1] == b - 1:
            out[-1][1] = b
        else:
            out.append([b, b])
    return [tuple(r) for r in out]


def _tag_name(g, name):
    return g.rules[name.lower()].name if name.lower() in g.rules else name


def _digit_bytes(g, rule, ann):
    """RULE's bytes in the order it lists them: digit i is the i-th byte.
    RULE must be an alternation of single bytes, ranges and references to
    such rules (base64's ALPHA / DIGIT / "+" / "/")."""
    order = []

    def walk(e, depth=0):
        if depth > 20:
            raise ann.args_pos.error("@value payload digits: the rule nests too deeply")
        if isinstance(e, abnf.Alt):
            for item in e.items:
                walk(item, depth + 1)
        elif isinstance(e, abnf.Bytes):
            order.extend(b for b in range(256) if e.mask >> b & 1)
        elif isinstance(e, abnf.Text) and len(e.masks) == 1 and bin(e.masks[0]).count("1") == 1:
            order.append(e.masks[0].bit_length() - 1)
        elif isinstance(e, abnf.Ref) and e.name.lower() in g.rules:
            walk(g.rules[e.name.lower()].body, depth + 1)
        else:
            raise ann.args_pos.error("@value payload digits: the rule must list single bytes "
                                     "(byte values, ranges, one-character strings that are "
                                     "not letters, or rules made of them)")
    walk(rule.body)
    if len(set(order)) != len(order):
        raise ann.args_pos.error("@value payload digits: a byte is listed twice")
    n = len(order)
    if n < 2 or n & (n - 1):
        raise ann.args_pos.error(f"@value payload digits: {n} digits is not a power of two")
    return order
