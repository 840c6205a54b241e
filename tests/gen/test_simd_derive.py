#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Proof that the emitted lookup-validator tables (--emit c-simd) are the DFA.

usage: test_simd_derive.py GENDIR GRAMMAR... [--all-mutations]   (make check-simd-derive)
       test_simd_derive.py --prove HEADER GRAMMAR_FILE   (one header, e.g. a mutant)

The numbers come from the generated header itself, parsed here and, when a
C compiler is given ($CC), also printed by a program that includes it (so
what is proved is what C compiles); gen/derive_simd.py's reasoning is not
used. The model the kernels implement, with K = max_len - 1:

  pair(x, y) = prev_high[x>>4] & prev_low[x&15] & cur_high[y>>4] & cur_low[y&15]
  must(i)    = some j in 2..K has b[i-j] >= longer_min[j-1]
  error at i = pair(b[i-1], b[i]) ^ (must(i) ? two_conts : 0) != 0

with PAD before the input and one PAD after it. Its state is the last K
bytes, abstracted to classes of bytes that nothing (neither the language
DFA's transitions nor any table or threshold) tells apart, plus "an error
has been seen". The product with the grammar's language DFA is explored in
full, and in every reachable state:

  (1) the model's verdict for the text so far (no error, nor at the closing
      PAD) is the DFA's (the state accepts); once the model has seen an
      error the DFA must never accept again (every extension is invalid);
  (2) the block commit rule: with no error so far, t = the largest j in
      1..K with b[e-j] >= longer_min[j-1] (0 if none), the DFA accepts
      b[0..e-t): a kernel that stops at e may hand on b[0..e-t) as valid.

Because the classes are exact, this covers every byte string. A brute-force
run of the model on raw bytes (every string of up to 2 bytes, every string
of up to 4 class representatives, random strings up to 8) cross-checks the
abstraction, and every single-bit mutation of UTF-8's tables is run through
the proof: a mutation that changes the language must fail it. Grammars that
do not fit the model must say why, in the header and on stderr.
"""

import collections
import contextlib
import io
import os
import random
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "gen"))

import abnfc  # noqa: E402  (run in-process: what the Makefile runs)
import compiler  # noqa: E402  (the grammar's DFA: the specification)

TABLES = ("prev_high", "prev_low", "cur_high", "cur_low", "longer_min")
# What each grammar is expected to give: (cur_low needed, max_len, bits), or a
# phrase of the reason it does not fit. A change here is a change of the model.
EXPECT = {
    "utf8": (0, 4, 8), "cesu-8": (0, 3, 5), "wtf-8": (0, 4, 7), "mutf-8": (1, 3, 8),
    "utf8-rfc2279": "need 9 nibble products",
    "corrected-utf-8": "FE-FF both starts a character and continues one",
    "utf7": "both starts a character and continues one",
    "utf7-imap": "both starts a character and continues one",
    "iso-8859-1": "every character is one byte",
}

# Small grammars that break one requirement each, and what the generator must say.
REASONS = [
    ("%x00-7F / %xC0 %x80-8F %x80-BF / %xC0 %x90-BF", "starting C0 takes 2 or 3 bytes"),
    ("%x00-7F / %xE0 %x80-BF %x80-8F / %xE1 2( %x80-BF )",
     "after E0 80, the bytes that continue are 80-8F"),
    ("%x00-7F / %xC0 2( %x80-BF ) / %xD0 %x80-BF", "lead C0 (3 bytes) lies below D0"),
    ("%x00-7F / %xC0 *%x80-BE %xBF", "arbitrarily long"),
    ("%x00-7F / %xC0 %x80-9F / %xC1 %xA0-A3", "80-A3 are not a product"),
    ("%x00-7F / %xC0 %x10", "byte 10 both starts a character and continues one"),
    ("%x20-7F / %x80 2( %x00-0F )", "longer_min[1] would be 0x80"),
    ("%x00-7F / %xF8 8( %x80-BF )", "characters of 9 bytes"),
]


class ProofError(Exception):
    pass


def run_abnfc(args):
    """abnfc's exit status, its output and what it said on stderr."""
    err = io.StringIO()
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.h")
        with contextlib.redirect_stderr(err):
            rc = abnfc.main(args + ["-o", out])
        text = open(out, encoding="utf-8").read() if rc == 0 else ""
    return rc, text, err.getvalue()


def parse_header(text):
    """The #defines and the tables' numbers, as C would read them."""
    defs = dict(re.findall(r"^#define (\w+) (.*)$", text, re.M))
    m = re.search(r"static const struct utfdfa_simd_tables (\w+) = \{(.*?)\n\};", text, re.S)
    if not m:
        return defs, None
    t = {"name": m.group(1)}
    for field, body in re.findall(r"\.(\w+)\s*=\s*\{([^}]*)\}", m.group(2)):
        t[field] = [int(v, 0) for v in body.replace(",", " ").split()]
    for field, val in re.findall(r"\.(\w+)\s*=\s*(0x[0-9A-Fa-f]+|\d+),", m.group(2)):
        t[field] = int(val, 0)
    return defs, t


def pair(t, x, y):
    return (t["prev_high"][x >> 4] & t["prev_low"][x & 15]
            & t["cur_high"][y >> 4] & t["cur_low"][y & 15])


def error_at(t, window, y):
    """window: the K bytes before y (oldest first)."""
    must = any(window[-j] >= t["longer_min"][j - 1] for j in range(2, len(window) + 1))
    return (pair(t, window[-1], y) ^ (t["two_conts"] if must else 0)) != 0


def model_valid(t, data):
    """The model run on raw bytes."""
    k = t["max_len"] - 1
    buf = [t["pad"]] * k + list(data) + [t["pad"]]
    return not any(error_at(t, buf[i - k:i], buf[i]) for i in range(k, len(buf)))


def byte_classes(t, lang):
    """Bytes grouped by everything the model and the DFA see of them."""
    k = t["max_len"] - 1
    groups = {}
    for b in range(256):
        key = (tuple(row[b] for row in lang.trans), t["prev_high"][b >> 4],
               t["prev_low"][b & 15], t["cur_high"][b >> 4], t["cur_low"][b & 15],
               tuple(b >= t["longer_min"][j] for j in range(k)))
        groups.setdefault(key, []).append(b)
    return [g[0] for g in sorted(groups.values())]


def _abstract_error(t, last, thr, y):
    """error_at with the bytes before the last one known by their comparisons only."""
    must = any(thr[-j][j - 1] for j in range(2, len(thr) + 1))
    return (pair(t, last, y) ^ (t["two_conts"] if must else 0)) != 0


def check_state(t, lang, state):
    """(1) and (2) in one reachable product state."""
    if state[0] == "err":
        if lang.accepting[state[1]]:
            raise ProofError("the model has seen an error but the DFA accepts "
                             f"(after {bytes(state[2]).hex(' ')})")
        return
    last, thr, hist, path = state
    model_ok = not _abstract_error(t, last, thr, t["pad"])
    if model_ok != bool(lang.accepting[hist[0]]):
        raise ProofError(f"after {bytes(path).hex(' ') or 'nothing'} the model says "
                         f"{'valid' if model_ok else 'invalid'}, the DFA the opposite")
    cut = max([j for j in range(1, len(thr) + 1) if thr[-j][j - 1]], default=0)
    if hist[cut] is None or not lang.accepting[hist[cut]]:
        raise ProofError(f"block commit: after {bytes(path).hex(' ')} with no error, "
                         f"the text before the last {cut} byte(s) is not valid")


def prove(t, lang):
    """Explore the product of the model and the language DFA; (states, classes).
    A state is (last byte's class, the comparisons of the last K bytes with
    longer_min, the DFA's states after the last K+1 prefixes) or (error, DFA
    state); each carries one byte string reaching it, for the messages."""
    k = t["max_len"] - 1
    if not 2 <= t["max_len"] <= 8 or any(t["longer_min"][j] < 0x81 for j in range(1, k)):
        raise ProofError("max_len or longer_min out of the kernels' range")
    reps = byte_classes(t, lang)
    thr_of = {y: tuple(y >= t["longer_min"][j] for j in range(k)) for y in reps + [t["pad"]]}
    start = (t["pad"], (thr_of[t["pad"]],) * k, (lang.start,) + (None,) * k, ())
    seen, todo = {start[:3]}, collections.deque([start])
    while todo:
        state = todo.popleft()  # breadth first: the shortest counterexample
        check_state(t, lang, state)
        for y in reps:
            if state[0] == "err":
                nxt = ("err", lang.trans[state[1]][y], state[2] + (y,))
            elif _abstract_error(t, state[0], state[1], y):
                nxt = ("err", lang.trans[state[2][0]][y], state[3] + (y,))
            else:
                last, thr, hist, path = state
                nxt = (y, thr[1:] + (thr_of[y],), (lang.trans[hist[0]][y],) + hist[:k],
                       path + (y,))
            key = nxt[:2] if nxt[0] == "err" else nxt[:3]
            if key not in seen:
                seen.add(key)
                todo.append(nxt)
    return len(seen), len(reps)


def brute_force(t, lang, rng):
    """The model on raw bytes against the DFA; the number of strings tried."""
    def dfa_ok(data):
        s = lang.start
        for b in data:
            s = lang.trans[s][b]
        return bool(lang.accepting[s])
    strings = [b""] + [bytes([a]) for a in range(256)] + \
              [bytes([a, b]) for a in range(256) for b in range(256)]
    reps = byte_classes(t, lang)
    for n in (3,):
        idx = [0] * n
        while True:
            strings.append(bytes(reps[i] for i in idx))
            p = n - 1
            while p >= 0 and idx[p] == len(reps) - 1:
                idx[p] = 0
                p -= 1
            if p < 0:
                break
            idx[p] += 1
    strings += [bytes(rng.randrange(256) for _ in range(rng.randrange(3, 9)))
                for _ in range(3000)]
    strings += [bytes(rng.choice(reps) for _ in range(rng.randrange(5, 9)))
                for _ in range(20000)]
    for s in strings:
        if model_valid(t, s) != dfa_ok(s):
            raise ProofError(f"{s.hex(' ')}: model {model_valid(t, s)}, DFA {dfa_ok(s)}")
    return len(strings)


def c_values(headers, gendir):
    """The tables as the C compiler reads them (None without $CC)."""
    cc = os.environ.get("CC")
    if not cc or not headers:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "dump.c")
        lines = ["#include <stdio.h>"] + [f'#include "{os.path.basename(h)}"'
                                          for h, _ in headers]
        lines.append("static void dump(const char *n, const struct utfdfa_simd_tables *t) {")
        lines.append('    printf("%s", n);')
        lines.append("    for (int i = 0; i < 16; i++) printf(\" %d %d %d %d\", t->prev_high[i], "
                     "t->prev_low[i], t->cur_high[i], t->cur_low[i]);")
        lines.append('    for (int i = 0; i < 7; i++) printf(" %d", t->longer_min[i]);')
        lines.append('    printf(" %d %d %d\\n", t->two_conts, t->max_len, t->pad);\n}')
        lines.append("int main(void) {")
        lines += [f'    dump("{name}", &{name});' for _, name in headers]
        lines += ["    return 0;", "}"]
        with open(src, "w") as f:
            f.write("\n".join(lines) + "\n")
        exe = os.path.join(tmp, "dump")
        subprocess.run(cc.split() + ["-std=c11", "-Wall", "-Wextra", "-Werror", "-I", gendir,
                                     src, "-o", exe], check=True)
        out = subprocess.run([exe], check=True, capture_output=True, text=True).stdout
    return {ln.split()[0]: [int(v) for v in ln.split()[1:]] for ln in out.splitlines()}


def flat(t):
    vals = []
    for i in range(16):
        vals += [t["prev_high"][i], t["prev_low"][i], t["cur_high"][i], t["cur_low"][i]]
    return vals + t["longer_min"] + [t["two_conts"], t["max_len"], t["pad"]]


def mutations(t, lang, sample=None):
    """Single-bit flips of the tables through the proof: (caught, survived).
    All of them (544 for UTF-8, half a minute), or a fixed sample."""
    caught, survived = 0, []
    k = t["max_len"] - 1
    fields = [(f, i) for f in TABLES[:4] for i in range(16)] + \
             [("longer_min", j) for j in range(k)] + [("two_conts", None)]
    flips = [(f, i, bit) for f, i in fields for bit in range(8)]
    if sample:
        flips = random.Random(2).sample(flips, sample)
    for f, i, bit in flips:
        m = {key: (list(v) if isinstance(v, list) else v) for key, v in t.items()}
        if i is None:
            m[f] ^= 1 << bit
        else:
            m[f][i] ^= 1 << bit
        try:
            prove(m, lang)
            survived.append(f"{f}[{i}] bit {bit}" if i is not None else f"{f} bit {bit}")
        except ProofError:
            caught += 1
    return caught, survived


def check_reasons(failures):
    """Each small grammar of REASONS through abnfc: the header and stderr say why."""
    with tempfile.TemporaryDirectory() as tmp:
        for i, (body, want) in enumerate(REASONS):
            path = os.path.join(tmp, f"r{i}.abnf")
            with open(path, "w") as f:
                f.write(f"; @start T\n; @unit C\nT = *( C )\nC = {body}\n")
            rc, text, said = run_abnfc([path, "--emit", "c-simd", "--prefix", "r", "-v"])
            if rc or want not in said or \
                    "#define R_SIMD_DERIVED 0\n#define R_SIMD_WHY" not in text:
                failures.append(f"C = {body}: expected {want!r}, got {said.strip()}")
    print(f"  {len(REASONS)} small grammars that do not fit: each says why")


def check_grammar(name, gendir, rng, failures):
    path = os.path.join(ROOT, "grammar", f"{name}.abnf")
    comp = compiler.compile_grammar([path])
    with open(os.path.join(gendir, f"{name}.simd.gen.h"), encoding="utf-8") as f:
        defs, t = parse_header(f.read())
    prefix = re.sub(r"[^0-9A-Za-z]", "_", name).upper()
    want = EXPECT.get(name)
    if defs.get(f"{prefix}_SIMD_DERIVED") == "0":
        why = defs.get(f"{prefix}_SIMD_WHY", "")
        rc, _, said = run_abnfc([path, "--emit", "c-simd", "--source", f"grammar/{name}.abnf", "-v"])
        ok = rc == 0 and len(why) > 2 and why.strip('"') in said
        if not ok or t is not None or not isinstance(want, str) or want not in why:
            failures.append(f"{name}: not derived, reason {why} (stderr: {said.strip()})"
                            f"; expected {want!r}")
        print(f"  {name}: not derived: {why}")
        return None
    t0 = time.time()
    try:
        used = 0
        for v in t["prev_high"]:
            used |= v
        bits = bin(used).count("1")
        got = (int(defs[f"{prefix}_SIMD_CUR_LOW"]), t["max_len"], bits)
        if got != want or int(defs[f"{prefix}_SIMD_MAX_LEN"]) != t["max_len"]:
            raise ProofError(f"(cur_low, max_len, bits) = {got}, expected {want}")
        if defs.get(f"{prefix}_SIMD_SHORT_WHOLE") == "1":
            lang, cc = comp.language, t["two_conts"]
            for b in range(t["longer_min"][0]):
                cont = t["cur_high"][b >> 4] & t["cur_low"][b & 15] & cc
                if not cont and not lang.accepting[lang.trans[lang.start][b]]:
                    raise ProofError(f"SHORT_WHOLE, but byte {b:02X} is neither a "
                                     "continuation nor a character")
        elif defs.get(f"{prefix}_SIMD_SHORT_WHOLE") != "0":
            raise ProofError("no SHORT_WHOLE")
        states, classes = prove(t, comp.language)
        tried = brute_force(t, comp.language, rng)
        print(f"  {name}: proved: {states} product states over {classes} byte classes, "
              f"{tried} strings cross-checked, {time.time() - t0:.2f}s")
    except ProofError as e:
        failures.append(f"{name}: {e}")
    return t


def main(argv):
    if argv[1:2] == ["--prove"]:
        with open(argv[2], encoding="utf-8") as f:
            _, t = parse_header(f.read())
        try:
            print("%d product states over %d byte classes: proved" %
                  prove(t, compiler.compile_grammar([argv[3]]).language))
            return 0
        except ProofError as e:
            print(f"proof fails: {e}")
            return 1
    gendir, names = argv[1], [a for a in argv[2:] if not a.startswith("--")]
    rng, failures, headers = random.Random(1), [], []
    t0 = time.time()
    for name in names:
        t = check_grammar(name, gendir, rng, failures)
        if t is not None:
            headers.append((os.path.join(gendir, f"{name}.simd.gen.h"), t["name"]))
            if name == "utf8":
                utf8 = t
    check_reasons(failures)
    compiled = c_values(headers, gendir)
    if compiled is not None:
        for path, tname in headers:
            _, t = parse_header(open(path, encoding="utf-8").read())
            if compiled[tname] != flat(t):
                failures.append(f"{path}: C reads other numbers than were proved")
        print(f"  the C compiler reads the same {len(headers)} table sets")
    if "utf8" in names:
        lang = compiler.compile_grammar([os.path.join(ROOT, "grammar", "utf8.abnf")]).language
        caught, survived = mutations(utf8, lang, None if "--all-mutations" in argv else 40)
        print(f"  utf8 mutations: {caught} single-bit flips caught by the proof, "
              f"{len(survived)} change nothing the DFA can see"
              + (f" ({', '.join(survived[:4])}, ...)" if survived else ""))
        if not caught:
            failures.append("no mutation of utf8's tables fails the proof")
    for f in failures:
        print(f"FAIL {f}", file=sys.stderr)
    total = len(names) + len(REASONS) + 2  # the grammars, REASONS, C's numbers, mutations
    print(f"test_simd_derive: {total - len(failures)} passed, {len(failures)} failed "
          f"({time.time() - t0:.1f}s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
