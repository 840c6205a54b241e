# SPDX-License-Identifier: MIT
"""ABNF expression trees -> NFA -> DFA -> minimal DFA -> byte classes.

Two automata come out of a grammar:

* the *language* DFA of the start rule: plain acceptance, minimal, canonically
  numbered. It is what the grammar means, and what tests compare with re2c.
* the *decoder* DFA, when a unit rule is given (`; @unit UTF8-char`): the DFA
  of the unit rule in which every transition that completes a unit goes back
  to the start state (state 0, ACCEPT). Such a transition may carry a tag
  (`; @tags`: which top-level alternative of the unit rule completed), and
  every transition into the reject state carries an error kind taken from the
  `; @error KIND = elements` annotations. A transition that completes a
  *marked* rule inside a unit (`; @mark NAME RULE...`) carries that mark as
  its output although it does not complete the unit: UTF-7's base64 run
  completes a 16-bit code unit every 16 bits, in the middle of its unit.

Error kinds are compiled as one sink state per kind, so that minimisation
keeps apart states whose errors differ; afterwards all sinks collapse into one
REJECT state and the kinds move to a separate table that only the error path
reads. Tags are Mealy outputs and minimisation respects them the same way.
"""

import functools
import operator
from dataclasses import dataclass
from collections import deque

from abnf import Alt, Bytes, Prose, Ref, Rep, Seq, Text

FULL = (1 << 256) - 1


class Nfa:
    def __init__(self, budget=None, fallback=None):
        self.eps = []
        self.edges = []  # per state: list of (byte mask, target)
        self.mark = {}   # state -> mark output: entered just after a marked rule ends
        # What to blame when the automata grow too big (limits.Budget): per
        # state an index into origins, each (rule name, Pos, copies, rank):
        # the counted repetition with the most copies around the state, else
        # the innermost rule. fallback: (rule name, Pos, 1) of the start.
        self.budget, self.fallback = budget, fallback
        self.origins, self.origin, self.current = [], [], -1

    def new(self):
        self.eps.append([])
        self.edges.append([])
        self.origin.append(self.current)
        if self.budget:
            self.budget.count(len(self.eps), "its NFA", lambda: self.blame([len(self.eps) - 1]))
        return len(self.eps) - 1

    def enter(self, name, pos, copies):
        """Build what follows inside rule `name` (copies 1) or a repetition
        of `copies`; returns the origin to restore afterwards."""
        old = self.current
        rank = (1, copies) if copies > 1 else (0, len(self.origins))
        if old < 0 or rank > self.origins[old][3]:
            self.origins.append((name, pos, copies, rank))
            self.current = len(self.origins) - 1
        return old

    def blame(self, states=None):
        """(rule name, Pos, copies) of what the states (default: all) were built for."""
        found = set(self.origin[s] for s in states) if states is not None else range(len(self.origins))
        best = max((self.origins[i] for i in found if i >= 0), key=lambda o: o[3], default=None)
        return best[:3] if best else self.fallback

    def closure(self, states):
        seen = set(states)
        todo = list(states)
        while todo:
            s = todo.pop()
            for t in self.eps[s]:
                if t not in seen:
                    seen.add(t)
                    todo.append(t)
        return seen


@dataclass
class _Frame:
    key: str
    name: str
    start: int
    nontail: int


class NfaBuilder:
    """Thompson construction with rule references expanded in place.

    A reference back to a rule being expanded is a loop when it is in tail
    position all the way from that rule's body (right-linear recursion, which is
    regular); any other recursion is not regular and is reported with its cycle.
    """

    def __init__(self, grammar, nfa, marks=None):
        self.g, self.nfa = grammar, nfa
        self.marks = marks or {}  # rule key -> mark output
        self.stack = []
        self.nontail = 0

    def build(self, expr, tail=True):
        if not tail:
            self.nontail += 1
        try:
            return self._build(expr, tail)
        finally:
            if not tail:
                self.nontail -= 1

    def _build(self, e, tail):
        nfa = self.nfa
        if isinstance(e, Bytes):
            s, t = nfa.new(), nfa.new()
            nfa.edges[s].append((e.mask, t))
            return s, t
        if isinstance(e, Text):
            s = cur = nfa.new()
            for m in e.masks:
                nxt = nfa.new()
                nfa.edges[cur].append((m, nxt))
                cur = nxt
            return s, cur
        if isinstance(e, Seq):
            s = cur = nfa.new()
            for i, item in enumerate(e.items):
                a, b = self.build(item, tail and i == len(e.items) - 1)
                nfa.eps[cur].append(a)
                cur = b
            return s, cur
        if isinstance(e, Alt):
            s, t = nfa.new(), nfa.new()
            for item in e.items:
                a, b = self.build(item, tail)
                nfa.eps[s].append(a)
                nfa.eps[b].append(t)
            return s, t
        if isinstance(e, Rep):
            copies = e.hi if e.hi is not None else e.lo + 1
            outer = nfa.enter(self.stack[-1].name if self.stack else "@error", e.pos, copies)
            try:
                return self._rep(e, tail)
            finally:
                nfa.current = outer
        if isinstance(e, Ref):
            return self._ref(e, tail)
        if isinstance(e, Prose):
            raise self._prose_error(e)
        raise TypeError(e)

    def _rep(self, e, tail):
        """A counted or open repetition: lo copies, then hi - lo optional ones or a loop."""
        nfa = self.nfa
        s = cur = nfa.new()
        inner_tail = tail and e.hi == 1
        for _ in range(e.lo):
            a, b = self.build(e.item, inner_tail)
            nfa.eps[cur].append(a)
            cur = b
        end = nfa.new()
        nfa.eps[cur].append(end)
        if e.hi is None:
            a, b = self.build(e.item, False)
            nfa.eps[cur].append(a)
            nfa.eps[b].append(cur)
        else:
            for _ in range(e.hi - e.lo):
                a, b = self.build(e.item, inner_tail)
                nfa.eps[cur].append(a)
                cur = b
                nfa.eps[cur].append(end)
        return s, end

    def _prose_error(self, e):
        """A prose-val is a hole in the grammar: say which rule it leaves
        undefined and how to fill it."""
        shown = f"<{e.text}>" if len(e.text) <= 60 else f"<{e.text[:57]}...>"
        if not self.stack:
            return e.pos.error(f"prose {shown} cannot be compiled: write it in ABNF")
        rule = self.g.rules[self.stack[-1].key]
        if rule.body is e:
            return e.pos.error(f"rule {rule.name!r} is prose ({shown}); give a grammar "
                               "that defines it")
        return e.pos.error(f"rule {rule.name!r} uses prose ({shown}) inside its definition; "
                           "only a rule that is prose as a whole can be defined by another "
                           "grammar, so write this part in ABNF")

    def _ref(self, e, tail):
        key = e.name.lower()
        rule = self.g.rules.get(key)
        if rule is None:
            raise e.pos.error(f"rule {e.name!r} is not defined")
        for depth, frame in enumerate(self.stack):
            if frame.key == key:
                if tail and frame.nontail == self.nontail:
                    s = self.nfa.new()
                    self.nfa.eps[s].append(frame.start)
                    return s, self.nfa.new()  # the loop never ends here
                cycle = " -> ".join([f.name for f in self.stack[depth:]] + [rule.name])
                raise e.pos.error(f"recursion that is not regular: {cycle} (only a "
                                  "reference at the very end of the rule can loop)")
        start = self.nfa.new()
        self.stack.append(_Frame(key, rule.name, start, self.nontail))
        outer = self.nfa.enter(rule.name, rule.pos, 1)
        try:
            a, b = self.build(rule.body, True)
        finally:
            self.stack.pop()
            self.nfa.current = outer
        self.nfa.eps[start].append(a)
        if key in self.marks:
            m = self.nfa.new()
            self.nfa.mark[m] = self.marks[key]
            self.nfa.eps[b].append(m)
            b = m
        return start, b


def _byte_partition(masks):
    """Split 0..255 into blocks that every mask either contains or misses."""
    blocks = [FULL]
    for m in set(masks):
        nxt = []
        for blk in blocks:
            inside, outside = blk & m, blk & ~m
            nxt.extend(x for x in (inside, outside) if x)
        blocks = nxt
    return blocks


@functools.lru_cache(maxsize=None)
def _bytes_of(mask):
    """The bytes of a mask, ascending (cached: the same blocks recur in every state)."""
    return tuple(b for b in range(256) if mask >> b & 1)


@dataclass
class Track:
    """A sub-automaton run in parallel with the main one (an error annotation)."""
    start: int
    finals: set
    kind: int


class _Mealy:
    """A DFA whose transitions carry an output: trans[s][c] = (target, output)
    for each byte class c. The classes split 0..255 so that no NFA edge
    tells two bytes of a class apart; they are numbered in the order of
    their smallest byte, so walking a row in class order meets the targets
    in the order a walk in byte order would."""

    def __init__(self, class_masks):
        self.trans = []
        self.label = []  # initial partition key per state
        self.class_masks = class_masks
        self.class_of = [0] * 256
        for c, mask in enumerate(class_masks):
            for b in _bytes_of(mask):
                self.class_of[b] = c

    def add(self, label):
        self.trans.append(None)
        self.label.append(label)
        return len(self.trans) - 1

    def byte_row(self, row):
        """A class row spread over the 256 bytes."""
        return list(operator.itemgetter(*self.class_of)(row))

    def column_classes(self, *tables):
        """Byte classes of 256-wide tables: the bytes whose columns agree in
        all of them, numbered by smallest byte. Bytes of one class here agree
        already, so only a column per class is built and compared (a byte's
        whole column is one entry per state: 256 of them are big)."""
        firsts = [(mask & -mask).bit_length() - 1 for mask in self.class_masks]
        ids, id_of = {}, {}
        for c, b in enumerate(firsts):
            key = tuple(tuple(row[b] for row in t) for t in tables)
            id_of[c] = ids.setdefault(key, len(ids))
        # firsts ascend, so ids are already in order of smallest byte.
        return [id_of[c] for c in self.class_of], len(ids)


def _classes_of_masks(masks):
    """The byte classes of a set of edge masks, ordered by smallest byte."""
    return sorted(_byte_partition(masks), key=lambda m: m & -m)


TAG_BEFORE = 0x80  # output flag: the unit ended before this byte, which starts the next


def _determinize(nfa, main_start, finals, tracks, loop, default_kinds, longest=False):
    """Subset construction over the main automaton and the annotation tracks.

    finals: NFA state -> tag (1-based alternative) of the main automaton.
    loop: completing a unit returns to the start state (decoder DFA).
    default_kinds: (kind at a unit's start, kind within a unit) for rejects
    that no annotation labels.
    longest: a unit that is complete but could go on goes on (longest
    match); a byte that cannot continue it ends it *before* that byte
    (output tag | TAG_BEFORE, next state: the start, where the runtime
    steps that byte again), and the end of input ends it too (final tag).
    Returns (mealy, start, accepting set, sink of each kind, final tags).
    """
    main_states = _reachable(nfa, [main_start])
    live_main = _coreachable(nfa, set(finals), main_states)
    track_live = [_coreachable(nfa, t.finals, _reachable(nfa, [t.start])) for t in tracks]
    keep = set(live_main)
    for live in track_live:
        keep |= live

    closures = {}

    def closure_of(state):
        if state not in closures:
            closures[state] = frozenset(s for s in nfa.closure([state]) if s in keep)
        return closures[state]

    def close(states):
        return frozenset().union(*map(closure_of, states))

    start_set = close([main_start] + [t.start for t in tracks])
    m = _Mealy(_classes_of_masks(mk for s in keep for mk, _ in nfa.edges[s]))
    m.budget, m.blame = nfa.budget, nfa.blame
    nclasses = len(m.class_masks)

    @functools.lru_cache(maxsize=None)
    def classes_in(mask):
        return tuple(c for c, cm in enumerate(m.class_masks) if cm & mask)

    ids = {}
    sinks = {}
    accepting = set()

    def sink(kind):
        if kind not in sinks:
            k = m.add(("sink", kind))
            m.trans[k] = [(k, 0)] * nclasses
            sinks[kind] = k
        return sinks[kind]

    # DFA state -> (state it was first reached from, byte): the shortest byte
    # string reaching it, spelled out only for a message (as a string per
    # state it would be quadratic in a long chain's length).
    how = {}

    def path_to(sid, byte):
        out = [byte]
        while sid in how:
            sid, b = how[sid]
            out.append(b)
        return bytes(reversed(out))
    final_tag = {}  # DFA state -> tag of the unit complete there (longest match)

    def state(sset, came_from, complete=0):
        if sset not in ids:
            ids[sset] = m.add(("live", complete))
            if m.budget:
                m.budget.count(len(m.trans), "its DFA", lambda: nfa.blame(sset))
            if came_from:
                how[ids[sset]] = came_from
            if complete:
                final_tag[ids[sset]] = complete
            queue.append(sset)
        return ids[sset]

    def blocks(sset):
        """The bytes that move sset alike, as (smallest byte, NFA targets,
        classes), by smallest byte. One pass over the edges for every class at
        once: a big automaton's states have few edges and few classes."""
        targets = [[] for _ in range(nclasses)]
        for s in sset:
            for mask, t in nfa.edges[s]:
                for c in classes_in(mask):
                    targets[c].append(t)
        alike = {}
        for c in range(nclasses):
            alike.setdefault(frozenset(targets[c]), []).append(c)
        return sorted((_bytes_of(m.class_masks[cs[0]])[0], ts, cs) for ts, cs in alike.items())

    queue = deque()
    start = state(start_set, None)
    if not loop and start_set & set(finals):
        accepting.add(start)
    while queue:
        sset = queue.popleft()
        sid = ids[sset]
        row = [None] * nclasses
        for first_byte, targets, cs in blocks(sset):
            moved = close(targets)
            came_from = (sid, first_byte)
            main_part = moved & live_main
            done = sorted(finals[s] for s in main_part if s in finals)
            marks = sorted({nfa.mark[s] for s in main_part if s in nfa.mark})
            if len(marks) > 1 or (marks and done and not longest):
                raise AmbiguousMark(path_to(*came_from), marks, bool(done))
            mark = marks[0] if marks else 0
            if not main_part and sid in final_tag:
                out = (start, final_tag[sid] | TAG_BEFORE)
            elif not main_part:
                kind = next((t.kind for t in tracks if moved & t.finals), None)
                if kind is None:
                    kind = default_kinds[0 if sid == start else 1]
                out = (sink(kind), 0)
            elif loop and done:
                going_on = [s for s in main_part if s not in finals and nfa.edges[s]]
                if going_on and not longest:
                    raise NotPrefixFree(path_to(*came_from))
                if going_on:
                    out = (state(moved, came_from, done[0]), mark)
                elif mark:
                    raise AmbiguousMark(path_to(*came_from), marks, True)
                else:
                    out = (start, done[0])
            else:
                nid = state(moved, came_from)
                if not loop and done:
                    accepting.add(nid)
                out = (nid, mark)
            for c in cs:
                row[c] = out
        m.trans[sid] = row
    if loop:
        accepting.add(start)
    return m, start, accepting, sinks, final_tag


class AmbiguousMark(Exception):
    """After `path` one byte would emit several marks, or end the unit and emit one."""

    def __init__(self, path, marks, completes):
        super().__init__(path)
        self.path, self.marks, self.completes = path, marks, completes


class NotPrefixFree(Exception):
    """A unit is complete after `path` and could also go on."""

    def __init__(self, path):
        super().__init__(path)
        self.path = path


def _reachable(nfa, starts):
    seen = set(starts)
    todo = list(starts)
    while todo:
        s = todo.pop()
        for t in nfa.eps[s] + [t for _, t in nfa.edges[s]]:
            if t not in seen:
                seen.add(t)
                todo.append(t)
    return seen


def _coreachable(nfa, finals, within):
    back = {}
    for s in within:
        for t in nfa.eps[s] + [t for _, t in nfa.edges[s]]:
            back.setdefault(t, []).append(s)
    seen = set(f for f in finals if f in within)
    todo = list(seen)
    while todo:
        s = todo.pop()
        for p in back.get(s, ()):
            if p not in seen:
                seen.add(p)
                todo.append(p)
    return seen


def _minimize(m, accepting):
    """Hopcroft's partition refinement: the coarsest partition of the states,
    finer than (accepting, label, outputs), in which states of a block go to
    one block on every byte. Returns the block of each state.

    Outputs belong to a transition, not to the partition, so they go into
    the initial key. (Moore's refinement, which this replaces, needs up to n
    rounds of O(n) work each: `1*5000( "x" / "y" )` took over 20 s.)"""
    n = len(m.trans)
    # Classes whose columns agree in every state cannot tell states apart:
    # refine on one class of each such set.
    reps = {}
    for c, column in enumerate(zip(*m.trans)):  # zip: the columns, built in C
        reps.setdefault(column, c)
    reps = sorted(reps.values())
    block = _renumber([(i in accepting, m.label[i]) + tuple(m.trans[i][c][1] for c in reps)
                       for i in range(n)])
    members = {}
    for s in range(n):
        members.setdefault(block[s], set()).add(s)
    # inv[j][t]: the states that byte reps[j] takes to t.
    inv = [{} for _ in reps]
    for s in range(n):
        row = m.trans[s]
        for j, c in enumerate(reps):
            inv[j].setdefault(row[c][0], []).append(s)
    # Splitters (block, byte index): every block once, in a fixed order.
    todo = [(B, j) for B in sorted(members) for j in range(len(reps))]
    pending = set(todo)
    while todo:
        if m.budget:
            m.budget.tick(m.blame)
        splitter = todo.pop()
        pending.discard(splitter)
        A, j = splitter
        pre = set()
        for t in members[A]:
            pre.update(inv[j].get(t, ()))
        touched = {}
        for s in pre:
            touched.setdefault(block[s], set()).add(s)
        for Y in sorted(touched):
            inside = touched[Y]
            if len(inside) == len(members[Y]):
                continue  # Y goes into A entirely: not split
            # Only the smaller side is walked (a chain peels one state at a
            # time off a big block: copying the block each time is quadratic).
            if 2 * len(inside) <= len(members[Y]):
                members[Y].difference_update(inside)
            else:
                members[Y] = members[Y] - inside
            new = len(members)
            members[new] = inside
            for s in inside:
                block[s] = new
            for c in range(len(reps)):
                if (Y, c) in pending:
                    add = (new, c)
                else:
                    add = (new, c) if len(inside) <= len(members[Y]) else (Y, c)
                pending.add(add)
                todo.append(add)
    return block


def _renumber(keys):
    ids = {}
    return [ids.setdefault(k, len(ids)) for k in keys]


@dataclass
class Dfa:
    """A minimal, canonically numbered DFA over bytes.

    trans[s][b] is the next state (reject is one explicit state); tags[s][b]
    the output of that transition (0: none); kinds[s][b] the error kind of a
    transition into reject (0 on other transitions). The byte classes are the
    bytes whose (next, tag) columns agree; error classes the bytes whose kind
    columns agree, kept apart so that error kinds never split hot classes.
    """
    nstates: int
    start: int
    reject: int
    accepting: list
    trans: list
    tags: list
    kinds: list
    kind_names: list
    tag_names: list
    paths: object    # ShortestPaths: shortest, smallest byte string reaching each state
    classes: list
    nclasses: int
    class_trans: list
    class_tags: list
    error_classes: list
    nerror_classes: int
    class_kinds: list  # [state][error class]
    final_tags: list   # [state]: tag of a unit complete there (longest match), else 0

    def language_view(self):
        """The DFA as a plain acceptor: an ending-before transition is the
        start state's transition on that byte; a final tag accepts."""
        trans = [[self.trans[0][b] if self.tags[s][b] & TAG_BEFORE else self.trans[s][b]
                  for b in range(256)] for s in range(self.nstates)]
        acc = [a or bool(f) for a, f in zip(self.accepting, self.final_tags)]
        return _View(self.start, trans, acc)

    def class_bytes(self, c):
        return [b for b in range(256) if self.classes[b] == c]

    def run(self, data):
        s = self.start
        for b in data:
            s = self.trans[s][b]
        return s

    def accepts(self, data):
        return self.accepting[self.run(data)]


@dataclass
class _View:
    start: int
    trans: list
    accepting: list


def _finish(m, start, accepting, sinks, kind_names, tag_names, final_tag=None):
    block = _minimize(m, accepting)
    sink_blocks = {block[s] for s in sinks.values()}
    kind_of_block = {block[s]: k for k, s in sinks.items()}
    # One reject state stands for every sink; REJECT's own block id is fresh.
    reject_block = "reject"

    def blk(s):
        b = block[s]
        return reject_block if b in sink_blocks else b

    rep = {}
    for s in range(len(m.trans)):
        rep.setdefault(blk(s), s)
    # Canonical numbering: breadth-first from the start, successors in byte order.
    order, number = [], {}
    todo = deque([blk(start)])
    number[blk(start)] = 0
    while todo:
        b = todo.popleft()
        order.append(b)
        if b == reject_block:
            continue
        for t, _ in m.trans[rep[b]]:
            tb = blk(t)
            if tb not in number:
                number[tb] = len(number)
                todo.append(tb)
    if reject_block not in number:
        number[reject_block] = len(number)
        order.append(reject_block)
    n = len(order)
    reject = number[reject_block]
    # Rows over 256 bytes; equal rows are one shared list (most tag and kind
    # rows of a big automaton are alike), so a big DFA stays small in memory.
    shared = {}

    def byte_row(class_row):
        key = tuple(class_row)
        if key not in shared:
            shared[key] = m.byte_row(class_row)
        return shared[key]

    trans, tags, kinds, acc, finals = [], [], [], [], []
    for b in order:
        if b == reject_block:
            trans.append(byte_row([reject] * len(m.class_masks)))
            tags.append(byte_row([0] * len(m.class_masks)))
            kinds.append(byte_row([0] * len(m.class_masks)))
            acc.append(False)
            finals.append(0)
            continue
        s = rep[b]
        if m.budget:
            m.budget.tick(m.blame)
        finals.append((final_tag or {}).get(s, 0))
        trans.append(byte_row([number[blk(t)] for t, _ in m.trans[s]]))
        tags.append(byte_row([o for _, o in m.trans[s]]))
        kinds.append(byte_row([kind_of_block[block[t]] if block[t] in sink_blocks else 0
                               for t, _ in m.trans[s]]))
        acc.append(s in accepting)
    paths = ShortestPaths(trans, 0)
    # A byte's column of (next, tag) pairs, compared as its two columns.
    classes, ncls = m.column_classes(trans, tags)
    error_classes, necls = m.column_classes(kinds)
    first = [classes.index(c) for c in range(ncls)]
    efirst = [error_classes.index(c) for c in range(necls)]
    return Dfa(
        nstates=n, start=0, reject=reject, accepting=acc, trans=trans, tags=tags,
        kinds=kinds, kind_names=kind_names, tag_names=tag_names, paths=paths,
        classes=classes, nclasses=ncls,
        class_trans=[[trans[s][first[c]] for c in range(ncls)] for s in range(n)],
        class_tags=[[tags[s][first[c]] for c in range(ncls)] for s in range(n)],
        error_classes=error_classes, nerror_classes=necls,
        class_kinds=[[kinds[s][efirst[c]] for c in range(necls)] for s in range(n)],
        final_tags=finals,
    )


class ShortestPaths:
    """The shortest, smallest byte string reaching each state, as a list of
    bytes (None: unreachable). Kept as a breadth-first tree (parent, byte),
    with each path's depth and first HEAD bytes: all the paths written out
    take space quadratic in a long chain's length (`a = 100000"x"`)."""

    HEAD = 8

    def __init__(self, trans, start):
        n = len(trans)
        self.parent, self.byte = [None] * n, [0] * n
        self.depth, self.heads = [None] * n, [None] * n
        self.depth[start], self.heads[start] = 0, b""
        todo = deque([start])
        while todo:
            s = todo.popleft()
            row, head = trans[s], self.heads[s]
            for t in dict.fromkeys(row):  # the targets in byte order, once each
                if self.depth[t] is None:
                    b = row.index(t)
                    self.parent[t], self.byte[t] = s, b
                    self.depth[t] = self.depth[s] + 1
                    self.heads[t] = head + bytes([b]) if len(head) < self.HEAD else head
                    todo.append(t)

    def __len__(self):
        return len(self.depth)

    def __getitem__(self, s):
        if self.depth[s] is None:
            return None
        out = bytearray()
        while self.parent[s] is not None:
            out.append(self.byte[s])
            s = self.parent[s]
        return bytes(reversed(out))

    def __iter__(self):
        return (self[s] for s in range(len(self)))

    def __eq__(self, other):
        return list(self) == list(other)

    def head(self, s):
        """(the first HEAD bytes of state s's path, the path's length); (None, None)
        when s is unreachable."""
        return self.heads[s], self.depth[s]


def language_dfa(grammar, rule_name):
    """The minimal DFA of a rule's language (no tags, no error kinds)."""
    ref = _rule_ref(grammar, rule_name)
    nfa = Nfa(grammar.budget, (grammar.rules[rule_name.lower()].name, ref.pos, 1))
    s, f = NfaBuilder(grammar, nfa).build(ref)
    m, start, acc, sinks, _ = _determinize(nfa, s, {f: 1}, [], False, (1, 1))
    return _finish(m, start, acc, sinks, ["none", "invalid"], ["none"])


def decoder_dfa(grammar, unit_name, errors, default_kinds, kind_names, tagged, longest=False,
                marks=()):
    """The decoder DFA of a unit rule (see the module docstring).

    errors: list of (kind index, expression) from `@error` annotations, in
    priority order (the first that matches labels the transition).
    marks: list of (mark name, [rule names]); their outputs are numbered
    after the unit's alternatives.
    """
    rule = grammar.rules[unit_name.lower()]
    nfa = Nfa(grammar.budget, (rule.name, rule.pos, 1))
    alts = rule.body.items if isinstance(rule.body, Alt) else (rule.body,)
    first_mark = 1 + (len(alts) if tagged else 0)
    mark_of = {}
    for i, (_, rules) in enumerate(marks):
        for r in rules:
            mark_of[r.lower()] = first_mark + i
    if first_mark + len(marks) > TAG_BEFORE:
        raise rule.pos.error(f"more than {TAG_BEFORE - 1} tags and marks")
    builder = NfaBuilder(grammar, nfa, mark_of)
    main = nfa.new()
    finals = {}
    # The unit rule itself is on the stack so that a reference back to it is
    # reported as recursion rather than expanded forever.
    builder.stack.append(_Frame(rule.name.lower(), rule.name, main, builder.nontail + 1))
    for i, alt in enumerate(alts, 1):
        a, b = builder.build(alt, True)
        nfa.eps[main].append(a)
        finals[b] = i if tagged else 0
    builder.stack.pop()
    tracks = []
    for kind, expr in errors:
        s, f = NfaBuilder(grammar, nfa).build(expr)
        tracks.append(Track(s, {f}, kind))
    if longest and not tagged:
        raise rule.pos.error("longest-match units need @tags (a complete unit is told "
                             "apart from a prefix by its tag)")
    try:
        m, start, acc, sinks, final_tag = _determinize(nfa, main, finals, tracks, True,
                                                       default_kinds, longest)
    except NotPrefixFree as e:
        shown = " ".join(f"{b:02X}" for b in e.path)
        raise rule.pos.error(f"unit rule {rule.name!r} is not prefix-free: [{shown}] is a "
                             "whole unit and also the start of a longer one, so a decoder "
                             "cannot tell where a unit ends") from None
    except AmbiguousMark as e:
        shown = " ".join(f"{b:02X}" for b in e.path)
        names = [marks[m - first_mark][0] for m in e.marks]
        what = (f"emits the marks {' and '.join(names)} at once" if len(names) > 1 else
                f"ends the unit and emits the mark {names[0]} at once")
        raise rule.pos.error(f"unit rule {rule.name!r}: the byte sequence [{shown}] {what}; "
                             "a transition carries one output") from None
    tag_names = ["none"] + ([_alt_name(a, i) for i, a in enumerate(alts, 1)] if tagged else [])
    tag_names += [name for name, _ in marks]
    return _finish(m, start, acc, sinks, kind_names, tag_names, final_tag)


def _alt_name(alt, i):
    return alt.name if isinstance(alt, Ref) else f"alternative-{i}"


def _rule_ref(grammar, name):
    from abnf import Pos
    if name.lower() not in grammar.rules:
        raise Pos(grammar.path, 0, 0).error(f"start rule {name!r} is not defined")
    return Ref(name, grammar.rules[name.lower()].pos)


def same_language(a, b, tick=None):
    """Whether two DFAs (or language views) accept the same language.
    tick: called once per pair of states (limits.Budget.tick)."""
    seen = {(a.start, b.start)}
    todo = [(a.start, b.start)]
    while todo:
        if tick:
            tick()
        x, y = todo.pop()
        if a.accepting[x] != b.accepting[y]:
            return False
        for c in range(256):
            p = (a.trans[x][c], b.trans[y][c])
            if p not in seen:
                seen.add(p)
                todo.append(p)
    return True
