# SPDX-License-Identifier: MIT
"""Lookup-validator tables derived from a byte-oriented DFA (--emit c-simd).

The lookup validator (Keiser and Lemire, "Validating UTF-8 in less than one
instruction per byte", 2021) checks a byte string without stepping a DFA.
For bytes b[0..n), with a virtual byte PAD before the input and one after it:

  pair(i) = prev_high[b[i-1] >> 4] & prev_low[b[i-1] & 15]
          & cur_high[b[i] >> 4] & cur_low[b[i] & 15]          (8 error bits)
  must(i) = some j in 2..max_len-1 has b[i-j] >= longer_min[j-1]
  error at i  <=>  pair(i) ^ (must(i) ? two_conts : 0) != 0

and the input is valid when no position 0..n has an error. This module finds
such tables for a grammar, or says exactly why the grammar does not fit:

* every character ends back in ACCEPT, and a byte either starts characters
  (a lead) or continues them (C), never both: pairs of bytes can only tell
  these apart when the bytes do;
* a lead fixes its character's length L, and its characters are
  lead x S2(lead) x C^(L-2): after the second byte every byte is any of C.
  So an adjacent pair decides everything but "is this continuation the
  third or later of its character", which must() answers from the leads
  2..max_len-1 bytes back;
* longer_min[j-1] separates the leads of characters longer than j bytes
  (at or above it) from the shorter leads and the continuations (below);
  must() compares with saturating arithmetic, so its entries are >= 0x81;
* C is a product of nibble sets, so that one bit (two_conts) set in all four
  tables marks exactly the continuation-after-continuation pairs;
* every forbidden pair (a pair no valid text has, PAD included) is covered by
  one of at most 7 products H_prev x L_prev x H_cur [x L_cur] that hold only
  forbidden or don't-care pairs; a pair is don't-care when its second byte
  is in no character but its first ends one, as the next pair is then
  forbidden anyway (unless that byte lies below longer_min[0], where a
  block could end on it unseen). The three-table form (cur_low all ones) is
  tried first; the cover is a minimum one from the maximal products, by an
  exact search in a fixed order, so the output is deterministic.

tests/gen/test_simd_derive.py proves what is emitted equal to the DFA
without this module's reasoning: it product-constructs the model with the
DFA from the header's numbers.
"""

import automaton
import cover_simd
from cover_simd import NotDerivable

TWO_CONTS = 0x80      # the bit above cover_simd.MAX_BITS error bits


def show(byte_list):
    """Bytes as hex ranges: 'C0-C1 F5-FF'."""
    out, bs = [], sorted(byte_list)
    i = 0
    while i < len(bs):
        j = i
        while j + 1 < len(bs) and bs[j + 1] == bs[j] + 1:
            j += 1
        out.append(f"{bs[i]:02X}" if i == j else f"{bs[i]:02X}-{bs[j]:02X}")
        i = j + 1
    return " ".join(out) or "none"


def _lengths(trans, R):
    """Per live state other than ACCEPT: the lengths of the paths back to
    ACCEPT (a set). A cycle that avoids ACCEPT makes characters unbounded."""
    memo, busy = {}, set()

    def walk(s):
        if s in memo:
            return memo[s]
        if s in busy:
            raise NotDerivable("a character can be arbitrarily long (the DFA loops "
                               "without returning to ACCEPT)")
        busy.add(s)
        out = set()
        for t in sorted(set(trans[s]) - {R}):
            out |= {1} if t == 0 else {1 + n for n in walk(t)}
        busy.discard(s)
        memo[s] = out
        return out
    return walk


def _classify(comp):
    """Leads with their lengths and the continuation set C."""
    dfa = comp.dfa
    view = dfa.language_view()
    trans, R = view.trans, dfa.reject
    live, todo = {0}, [0]
    while todo:
        for t in trans[todo.pop()]:
            if t != R and t not in live:
                live.add(t)
                todo.append(t)
    # A transition that ends a character before its byte (@longest-match) is
    # the byte starting the next one, not continuing this one.
    goes_on = [[dfa.trans[s][b] != R and not dfa.tags[s][b] & automaton.TAG_BEFORE
                for b in range(256)] for s in range(dfa.nstates)]
    leads = [b for b in range(256) if trans[0][b] != R]
    cont = sorted({b for s in live - {0} for b in range(256) if goes_on[s][b]})
    both = sorted(set(leads) & set(cont))
    if both:
        raise NotDerivable(f"byte {show(both)} both starts a character and continues one, "
                           "so a pair of bytes cannot tell where characters begin")
    ends = [s for s, a in enumerate(view.accepting) if a and s != 0]
    if dfa.start != 0 or not view.accepting[0] or ends:
        where = " ".join(f"{b:02X}" for b in dfa.paths[ends[0]]) if ends else "?"
        raise NotDerivable(f"after {where} a character may end or go on, so a character's "
                           "end is not fixed by its lead")
    walk = _lengths(trans, R)
    length = {}
    for b in leads:
        lens = {1} if trans[0][b] == 0 else {1 + n for n in walk(trans[0][b])}
        if len(lens) > 1:
            raise NotDerivable(f"a character starting {b:02X} takes "
                               + " or ".join(map(str, sorted(lens)))
                               + " bytes: its length is not fixed by its lead")
        length[b] = lens.pop()
    return view, leads, cont, length


def _check_tails(trans, R, cont, b, L):
    """The characters of lead b are b x S2(b) x C^(L-2); returns S2(b)."""
    s1 = trans[0][b]
    s2 = [y for y in range(256) if trans[s1][y] != R]
    cset = set(cont)
    memo = {}

    def tail(s, k, path):
        if (s, k) in memo:
            return
        memo[s, k] = True
        if k == 0:
            return
        here = [y for y in range(256) if trans[s][y] != R]
        if here != cont:
            raise NotDerivable(f"after {path}, the bytes that continue are {show(here)}, "
                               f"not all continuation bytes {show(cont)}: a byte after the "
                               "second depends on more than its character's lead")
        for y in sorted(cset, key=lambda y: trans[s][y]):
            tail(trans[s][y], k - 1, f"{path} {y:02X}")
    for y in s2:
        tail(trans[s1][y], L - 2, f"{b:02X} {y:02X}")
    return s2


def _thresholds(leads, cont, length, max_len):
    """longer_min[j-1], j = 1..max_len-1: the least byte above every lead of at
    most j bytes and every continuation byte; every longer lead must be above."""
    out = []
    for j in range(1, max_len):
        below = [b for b in leads if length[b] <= j] + cont
        m = max(below) + 1
        low = [b for b in leads if length[b] > j and b < m]
        if low:
            raise NotDerivable(f"lead {low[0]:02X} ({length[low[0]]} bytes) lies below "
                               f"{max(below):02X}, a lead of at most {j} byte(s) or a "
                               f"continuation byte: no threshold tells characters longer "
                               f"than {j} byte(s) by their lead")
        if j >= 2 and m < 0x81:
            raise NotDerivable(f"longer_min[{j - 1}] would be 0x{m:02X}, below 0x81 "
                               "(the kernels compare with a saturating subtraction)")
        out.append(m)
    return out


def _pairs(comp, leads, cont, length, s2, lm0):
    """Every pair (x, y): 'ok', 'cc' (two continuations), 'F' (forbidden: with
    its error kind) or 'D' (don't care)."""
    dfa = comp.dfa
    cset, lset = set(cont), set(leads)
    status, kind = {}, {}
    for x in range(256):
        for y in range(256):
            if x in cset and y in cset:
                st = "cc"
            elif x not in lset and x not in cset:
                st, k = "F", dfa.kinds[0][x]
            elif x in lset and length[x] >= 2:
                st, k = ("ok", 0) if y in s2[x] else ("F", dfa.kinds[dfa.trans[0][x]][y])
            elif y in lset:
                st = "ok"
            elif y in cset:        # x ends a character (a one-byte lead): y cannot go on
                st, k = "F", dfa.kinds[0][y]
            else:                  # y is in no character: the pair (y, next) rejects
                st, k = ("D", 0) if y >= lm0 else ("F", dfa.kinds[0][y])
            status[x, y] = st
            if st == "F":
                kind[x, y] = k
    return status, kind


def derive(comp):
    """The lookup tables of a compiled grammar, as a dict; NotDerivable says why not."""
    dfa = comp.dfa
    view, leads, cont, length = _classify(comp)
    max_len = max(length.values())
    if max_len < 2:
        raise NotDerivable("every character is one byte: there is nothing to look up")
    if max_len > 8:
        raise NotDerivable(f"characters of {max_len} bytes: longer_min has room for 8 at most")
    s2 = {b: _check_tails(view.trans, dfa.reject, cont, b, length[b])
          for b in leads if length[b] >= 2}
    ch, cl = sorted({y >> 4 for y in cont}), sorted({y & 15 for y in cont})
    if len(ch) * len(cl) != len(cont):
        raise NotDerivable(f"the continuation bytes {show(cont)} are not a product of a "
                           "high-nibble set and a low-nibble set")
    pad = min((b for b in leads if length[b] == 1), default=None)
    if pad is None:
        raise NotDerivable("no byte is a character on its own, so there is no PAD byte")
    lm = _thresholds(leads, cont, length, max_len)
    status, kind = _pairs(comp, leads, cont, length, s2, lm[0])
    form, boxes = cover_simd.find_cover(status, cl)
    boxes = cover_simd.shrink(boxes, status, form)
    tables = {"prev_high": [0] * 16, "prev_low": [0] * 16, "cur_high": [0] * 16,
              "cur_low": [0] * 16 if form == 4 else [0xFF] * 16}
    boxes = cover_simd.order_boxes(boxes, status, kind)
    for i, box in enumerate(boxes):
        for name, nibbles in zip(("prev_high", "prev_low", "cur_high", "cur_low"), box):
            for v in nibbles:
                tables[name][v] |= 1 << i
    full = list(range(16))
    for name, nibbles in zip(("prev_high", "prev_low", "cur_high", "cur_low"),
                             (ch, cl, ch, cl if form == 4 else full)):
        for v in nibbles:
            tables[name][v] |= TWO_CONTS
    invalid = [b for b in range(256) if b not in set(leads) | set(cont)]
    bits = _describe(boxes, status, kind, dfa.kind_names, set(invalid))
    return dict(tables, longer_min=lm + [0xFF] * (7 - len(lm)), two_conts=TWO_CONTS,
                max_len=max_len, pad=pad, cur_low_needed=int(form == 4), bits=bits,
                leads={n: [b for b in leads if length[b] == n] for n in range(1, max_len + 1)},
                cont=cont, invalid=invalid)


def _describe(boxes, status, kind, kind_names, invalid):
    """Each bit's name and what it covers. A bit is named after the error kind
    of most of the forbidden pairs only it covers, counting first the pairs
    whose first byte is a lead (a byte in no character is caught by any bit)."""
    pairs = [set(cover_simd.pairs_of(b)) for b in boxes]
    out = []
    for i, box in enumerate(boxes):
        others = set().union(*(p for j, p in enumerate(pairs) if j != i))
        own = sorted(p for p in pairs[i] if status[p] == "F" and p not in others)
        main = [p for p in own if p[0] not in invalid] or own
        count = {}
        for p in main:
            count[kind[p]] = count.get(kind[p], 0) + 1
        top = min(count, key=lambda k: (-count[k], k))
        all_kinds = sorted({kind[p] for p in pairs[i] if status[p] == "F"})
        out.append({"name": kind_names[top].replace("-", "_"), "first": main[0][0],
                    "kinds": [kind_names[k] for k in [top] + [k for k in all_kinds if k != top]],
                    "prev": sorted({x for x, _ in pairs[i]}),
                    "cur": sorted({y for _, y in pairs[i]})})
    dup = {b["name"] for b in out if sum(c["name"] == b["name"] for c in out) > 1}
    for b in out:
        if b["name"] in dup:
            b["name"] += f"_{b['first']:02x}"
    seen = {}
    for b in out:
        seen[b["name"]] = seen.get(b["name"], 0) + 1
        if seen[b["name"]] > 1:
            b["name"] += f"_{seen[b['name']]}"
    return out
