# SPDX-License-Identifier: MIT
"""The cover of the forbidden byte pairs by nibble products (gen/derive_simd.py).

A pair (x, y) is a cell (x >> 4, x & 15, y >> 4[, y & 15]) of a 3- or
4-dimensional boolean tensor; an error bit is a box H_prev x L_prev x
H_cur [x L_cur] of it. A box may hold forbidden ('F') and don't-care ('D')
cells only; the boxes together must hold every forbidden cell. Nibble values
that behave alike in a dimension are merged first (a handful of classes per
dimension), the maximal boxes are enumerated over the classes, and a minimum
cover of at most MAX_BITS boxes is found by exact search: the uncovered cell
with the fewest boxes first, boxes in a fixed order. Deterministic.
"""

import itertools

MAX_BITS = 7          # error bits besides two_conts


class NotDerivable(Exception):
    """The grammar does not fit the lookup model; the message says why."""


def _cells(status, form):
    """cell -> (needs a bit, may have one); None when the form cannot work."""
    cells = {}
    for hp in range(16):
        for lp in range(16):
            x = hp << 4 | lp
            for hc in range(16):
                col = [status[x, hc << 4 | lc] for lc in range(16)]
                if form == 4:
                    for lc in range(16):
                        cells[hp, lp, hc, lc] = (col[lc] == "F", col[lc] in ("F", "D"))
                else:
                    need = "F" in col
                    may = all(c in ("F", "D") for c in col)
                    if need and not may:
                        ok = next(lc for lc in range(16) if col[lc] not in ("F", "D"))
                        bad = next(lc for lc in range(16) if col[lc] == "F")
                        return (f"{x:02X} {hc:X}{bad:X} is forbidden but {x:02X} {hc:X}{ok:X} "
                                "is not, and they share the current byte's high nibble")
                    cells[hp, lp, hc] = (need, may)
    return cells


def _compress(cells, n):
    """Per dimension, the nibble values grouped by their slice of the tensor;
    the tensor over those classes."""
    groups = []
    for d in range(n):
        sig = {}
        for v in range(16):
            key = tuple(cells[c] for c in sorted(cells) if c[d] == v)
            sig.setdefault(key, []).append(v)
        groups.append(sorted(sig.values()))
    index = [{v: i for i, g in enumerate(gs) for v in g} for gs in groups]
    small = {}
    for c, val in cells.items():
        small[tuple(index[d][c[d]] for d in range(n))] = val
    return groups, small


def _subsets(size):
    return range(1, 1 << size)


def _members(mask):
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


def _boxes(groups, small, n):
    """The boxes over classes, maximal in the last dimension (an AND of masks)."""
    sizes = [len(g) for g in groups]
    table = {}
    for c, (_, may) in small.items():
        key = c[:-1]
        table[key] = table.get(key, 0) | (int(may) << c[-1])
    out = []

    def rec(k, tab, chosen):
        if k == n - 1:
            if tab[()]:
                out.append(tuple(chosen) + (tab[()],))
            return
        rest = list(itertools.product(*[range(s) for s in sizes[k + 1:n - 1]]))
        per = {0: tuple(-1 for _ in rest)}
        for S in _subsets(sizes[k]):
            low = S & -S
            v = low.bit_length() - 1
            prev = per[S ^ low]
            per[S] = tuple(a & tab[(v,) + r] for a, r in zip(prev, rest))
            if any(per[S]):
                rec(k + 1, dict(zip(rest, per[S])), chosen + [S])
    rec(0, table, [])
    return out


def _maximal(box, small, sizes):
    """No class can be added to any dimension."""
    sets = [_members(m) for m in box]
    for d in range(len(box)):
        for v in range(sizes[d]):
            if box[d] >> v & 1:
                continue
            trial = sets[:d] + [[v]] + sets[d + 1:]
            if all(small[c][1] for c in itertools.product(*trial)):
                return False
    return True


def _search(need_cells, cover_of, limit):
    """A minimum list of boxes covering every needed cell, at most limit long."""
    full = (1 << len(need_cells)) - 1
    by_cell = [[b for b, cov in enumerate(cover_of) if cov >> i & 1]
               for i in range(len(need_cells))]
    biggest = max(bin(c).count("1") for c in cover_of)

    def rec(left, k, picked):
        if not left:
            return picked
        if k == 0 or biggest * k < bin(left).count("1"):
            return None
        cell = min(_members(left), key=lambda i: (len(by_cell[i]), i))
        for b in by_cell[cell]:
            got = rec(left & ~cover_of[b], k - 1, picked + [b])
            if got is not None:
                return got
        return None
    for k in range(1, limit + 1):
        got = rec(full, k, [])
        if got is not None:
            return got
    return None


def _try(status, form):
    cells = _cells(status, form)
    if isinstance(cells, str):
        return None, cells
    n = form
    groups, small = _compress(cells, n)
    sizes = [len(g) for g in groups]
    boxes = [b for b in _boxes(groups, small, n) if _maximal(b, small, sizes)]
    need_cells = sorted(c for c, (need, _) in small.items() if need)
    pos = {c: i for i, c in enumerate(need_cells)}
    cover_of, kept = [], []
    for b in boxes:
        cov = 0
        for c in itertools.product(*[_members(m) for m in b]):
            if c in pos:
                cov |= 1 << pos[c]
        if cov and cov not in cover_of:
            cover_of.append(cov)
            kept.append(b)
    if not need_cells:
        return [], None
    got = _search(need_cells, cover_of, MAX_BITS)
    if got is None:
        least = _search(need_cells, cover_of, 2 * MAX_BITS)
        many = f"{len(least)}" if least else f"more than {2 * MAX_BITS}"
        return None, (f"the forbidden pairs need {many} nibble products, and {MAX_BITS} "
                      "error bits fit beside two_conts")
    out = []
    for i in sorted(got):
        nib = [sorted(v for ci in _members(m) for v in groups[d][ci])
               for d, m in enumerate(kept[i])]
        out.append(tuple(nib) + ((list(range(16)),) if form == 3 else ()))
    return out, None


def find_cover(status, cont_low):
    """(form, boxes): form 3 (cur_low all ones) when it suffices, else 4; a box
    is (prev high nibbles, prev low, cur high, cur low). Three tables need the
    continuation bytes to be all of their high nibbles (cont_low: their low
    nibbles), or two_conts would mark more than continuations."""
    if len(cont_low) == 16:
        boxes, why3 = _try(status, 3)
        if boxes is not None:
            return 3, boxes
    else:
        why3 = "the continuation bytes do not fill their high nibbles"
    boxes, why4 = _try(status, 4)
    if boxes is not None:
        return 4, boxes
    raise NotDerivable(f"three tables: {why3}; four tables: {why4}")


def pairs_of(box):
    hp, lp, hc, lc = box
    return [(h << 4 | l, c << 4 | d) for h in hp for l in lp for c in hc for d in lc]


def shrink(boxes, status, form):
    """Each box in turn cut down to the nibbles of the forbidden pairs no other
    box covers: the same cover with fewer don't-care pairs, so a bit says what
    it is for. A sub-box of a box of forbidden and don't-care pairs is one too."""
    boxes = list(boxes)
    for i in range(len(boxes)):
        others = {p for j, b in enumerate(boxes) if j != i for p in pairs_of(b)}
        own = [p for p in pairs_of(boxes[i]) if status[p] == "F" and p not in others]
        boxes[i] = (sorted({x >> 4 for x, _ in own}), sorted({x & 15 for x, _ in own}),
                    sorted({y >> 4 for _, y in own}),
                    sorted({y & 15 for _, y in own}) if form == 4 else list(range(16)))
    return [b for b in boxes if b[0]]


def order_boxes(boxes, status, kind):
    """The bits in a fixed order: by the error kinds they cover, then by the box."""
    def key(box):
        hp, lp, hc, lc = box
        ks = sorted({kind[h << 4 | l, c << 4 | d] for h in hp for l in lp for c in hc
                     for d in lc if status[h << 4 | l, c << 4 | d] == "F"})
        return (ks, box)
    return sorted(boxes, key=key)
