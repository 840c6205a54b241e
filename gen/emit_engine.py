# SPDX-License-Identifier: MIT
"""The bulk engine of a generated C header: PREFIX_run() (--emit c).

    uint32_t p_run(uint32_t state, const uint8_t *buf, size_t len, size_t *at);

steps the DFA from `state` over buf[0..len) exactly as the p_step() loop
does: it returns the state after the last byte, or P_REJECT with *at = the
index of the byte that took the DFA there (*at = len when none did). A
chunked run (state out, state in) gives the same states as one run.

The engines, chosen here from the DFA and at run time from the CPU:

  scalar    portable C. Below WAYS * MARK bytes the step loop, one reject
            test every 8 bytes (the reject state is a sink). A block (WAYS *
            SEG bytes; the last one of the buffer shorter, whole MARKs) is
            cut into WAYS segments stepped at once, each its own chain of
            loads, so the core overlaps their latencies. Segment j > 0 starts
            from a guess: LOOK bytes before it, stepped from START (and from
            START again after a reject); most DFAs forget where they started
            within a line (convergence). Each chain keeps its state every
            MARK bytes; a guess that is not the state the previous segment
            really ends in costs that segment a plain re-run only up to the
            first mark where the re-run meets the guessed chain (from there
            the two are one: the DFA is deterministic).
  shuffle   x86 SSSE3 (and AVX2 when the byte-pair table below does not fit),
            <= 16 states: a segment's transition *function* is a vector (lane
            s: where s goes), composed with one pshufb per byte with the byte's
            transition vector: several segments at once (WAYS_OF) from the
            identity, joined in order at the end (enumerative,
            "data-parallel") stepping. With AVX-512 VBMI, one pshufb per four
            bytes when the table of every four classes fits 32 KiB (k <= 6
            classes), else per four bytes as two pair classes when their
            table fits (pairs of classes with one transition function share a
            pair class; a vpermi2b maps a pair to it, k <= 11), else per
            three (k <= 12), else per two.
  gather    x86 AVX2, <= 32 states (AVX2 has no vpermb to find many bytes'
            classes at once): two input bytes read as one 16-bit number index
            run_bpair, 65536 bytes, their pair class (pairs with one function
            share one); two pair classes index the rows of four bytes
            (run_pquad, when the rows of every two fit 32 KiB), else one the
            rows of two (run_prow). A segment loads 8
            bytes at once: per four bytes, three loads and one shuffle (run_pquad;
            run_prow: two) (pshufb
            on 16 lanes from the segment's end; 32 lanes are a ymm stepped
            from its start, T o f: both halves of T looked up by pshufb and
            blended on bit 4 of the state). Five segments at once (16 lanes),
            four (32): loads and registers bound it, not the latency.
  vpermb    x86 AVX-512 VBMI, <= 64 states: the same with vpermb over 32 or
            64 lanes (the transition vector read from memory by the
            instruction), four bytes (pair classes) or three a vpermb when
            their table fits 32 KiB.
  neon      AArch64 (NEON is baseline there), <= 16 states: the shuffle
            engine with tbl (vqtbl1q_u8) for pshufb.

A segment whose function sends the real state to REJECT is stepped again,
alone, with the step loop: that gives the exact index. The tables are
static const; no allocation; every symbol carries the prefix. The best engine
the CPU has is picked per call from __builtin_cpu_supports (cpuid read once
by the compiler's runtime); PREFIX_run_at(level, ...) runs a given one.
"""

import os

SCALAR, SSSE3, AVX2, VBMI, NEON = 0, 1, 2, 3, 4
LEVELS = ("scalar", "ssse3", "avx2", "avx512vbmi", "neon")
WAYS, SEG, LOOK = 8, 2048, 128     # scalar: chains, bytes a chain steps, guess look-back
MARK = 64                         # scalar: bytes between a chain's kept states
VSEG = 256                        # vector: bytes a segment steps at most
# Segments at once per level: enough independent shuffles to cover a shuffle's
# latency, few enough for the vector registers (16 below AVX-512, 32 with it);
# measured on an AVX-512 VBMI Xeon (six vpermb chains of 32 lanes, twelve pshufb).
WAYS_OF = {"ssse3": 6, "avx2": 6, "avx512vbmi": 12, "vpermb": 6, "neon": 4,
           # the AVX2 engine over the byte-pair table, 16 and 32 lanes: bound by loads and
           # registers, not by the shuffle's latency (measured on an AMD EPYC, Zen 3)
           "gather16": 5, "gather32": 4}

# Deliberate faults for the engine test's proof that it catches broken engines
# (`tests/engine/run.sh faults`); never set in a build.
FAULT = os.environ.get("UTFDFA_ENGINE_FAULT", "")
# The engine test's choice of a smaller table of several bytes (pair, triple) where
# a larger one fits, so that every table is proved at every width; never set in a build.
TABLE = os.environ.get("UTFDFA_ENGINE_TABLE", "")


def levels_for(dfa, scalar_only=False):
    """The levels a header gets for this DFA, best last."""
    if scalar_only:
        return [SCALAR]
    out = [SCALAR]
    if dfa.nstates <= 16:
        out += [SSSE3, AVX2] + ([VBMI] if pair_width_ok(dfa, 16) else []) + [NEON]
    elif dfa.nstates <= 64:
        out += ([AVX2] if avx2_kind(dfa) else []) + [VBMI]
    return out


def avx2_kind(dfa):
    """The rows the AVX2 engine steps with (gather_kind) at 16 or 32 lanes, or None
    (above 32 states; or too many classes: at 16 lanes, one shuffle a byte)."""
    return gather_kind(dfa, vec_width(dfa)) if dfa.nstates <= 32 else None


def describe(dfa, scalar_only=False):
    """One phrase: the engine the generator chose, and why."""
    n = dfa.nstates
    if scalar_only:
        return "scalar only (asked for)"
    g = avx2_kind(dfa)
    avx2 = f"AVX2 {_PER[g]} a shuffle from the byte-pair table" if g else "AVX2 a byte a shuffle"
    if n <= 16:
        per = _PER[table_kind(dfa, 16)] if pair_width_ok(dfa, 16) else "a byte"
        return (f"shuffle (pshufb: SSSE3 a byte a shuffle, {avx2}, {per} a shuffle with AVX-512 VBMI; "
                f"tbl, NEON): {n} states fit 16 lanes; scalar {WAYS}-way elsewhere")
    if n <= 64:
        w = vec_width(dfa)
        per = _PER[table_kind(dfa, w)]
        avx2 = f"; AVX2: two pshufb over 32 lanes, {_PER[g]} a step from the byte-pair table" if g else ""
        return (f"vpermb (AVX-512 VBMI, {per} a shuffle): {n} states fit {w} lanes{avx2}; "
                f"scalar {WAYS}-way elsewhere, NEON too")
    return f"scalar {WAYS}-way with convergence: {n} states exceed 64 lanes"


_PER = {"quad": "four bytes", "pquad": "four bytes (two pair classes)", "triple": "three bytes",
        "pair": "two bytes", "prow": "two bytes (a pair class)", None: "a byte"}
_GROUP = {"quad": 4, "pquad": 4, "triple": 3, "pair": 2}


def table_kind(dfa, width):
    """The table of several bytes a shuffle that the AVX-512 VBMI engine reads, or None:
    quads of classes (16 lanes), else quads of pair classes, else triples, else pairs."""
    if TABLE in ("triple", "pair") and {"triple": triple_width_ok, "pair": pair_width_ok}[TABLE](dfa, width):
        return TABLE
    if width == 16 and quad_width_ok(dfa, 16):
        return "quad"
    if pquad_width_ok(dfa, width):
        return "pquad"
    if triple_width_ok(dfa, width):
        return "triple"
    if pair_width_ok(dfa, width):
        return "pair"
    return None


def pair_functions(dfa):
    """The distinct functions of two bytes (the pair classes): (the id of each class
    pair c1 * k + c2, the functions in order of first appearance)."""
    k, ct, n = dfa.nclasses, dfa.class_trans, dfa.nstates
    ids, funcs, seen = [], [], {}
    for c1 in range(k):
        for c2 in range(k):
            f = tuple(ct[ct[s][c1]][c2] for s in range(n))
            if f not in seen:
                seen[f] = len(funcs)
                funcs.append(f)
            ids.append(seen[f])
    return ids, funcs


def pquad_width_ok(dfa, width):
    """Whether quads of pair classes fit: a pair's index below 128 (one vpermi2b maps it
    to its pair class), and the table of every two pair classes in 32 KiB. Counting the
    pair classes costs k * k * n: only when k * k <= 128."""
    if dfa.nclasses ** 2 > 128:
        return False
    return len(pair_functions(dfa)[1]) ** 2 * width <= 32768


def _pquad_table(dfa, p, width):
    """run_pclass[c1 * k + c2]: the pair class of two bytes; run_pquad[(q1 * m + q2) * width
    + s]: where state s goes on a pair of pair class q1 then one of q2."""
    n = dfa.nstates
    ids, funcs = pair_functions(dfa)
    m = len(funcs)
    out = [f"/* {p}_run_pclass[c1 * {dfa.nclasses} + c2]: the pair class of a byte of class c1 then",
           " * one of c2 (pairs with one transition function share one). */",
           f"__attribute__((aligned(64))) static const uint8_t {p}_run_pclass[128] = {{",
           "    " + ",".join(map(str, ids + [0] * (128 - len(ids)))) + ",", "};"] if len(ids) <= 128 else []
    out += [f"/* {p}_run_pquad[(q1 * {m} + q2) * {width} + s]: the state number s goes to on two pairs",
           " * of pair classes q1, q2: four bytes a shuffle. */",
           f"__attribute__((aligned(64))) static const uint8_t {p}_run_pquad[{m * m} * {width}] = {{"]
    lk = _likely(dfa, 4)
    k = dfa.nclasses
    wrong = (ids[lk[0] * k + lk[1]], ids[lk[2] * k + lk[3]])
    for q1 in range(m):
        for q2 in range(m):
            row = [funcs[q2][funcs[q1][s]] for s in range(n)] + [0] * (width - n)
            if _fault("pquad") and (q1, q2) == wrong:  # one row wrong from START
                row[dfa.start] = dfa.reject
            out.append("    " + ",".join(str(v) for v in row) + ",")
    out += ["};", ""]
    return out


def _fault(name):
    return FAULT == name


def emit_run(comp, prefix, scalar_only=False):
    """The lines of the bulk engine, for the end of the C header."""
    dfa = comp.dfa
    P, p = prefix.upper(), prefix.lower()
    levels = levels_for(dfa, scalar_only)
    out = ["/* ---------------------------------------------------------------- bulk run",
           f" * {p}_run(state, buf, len, &at): the {p}_step() loop over buf[0..len). Returns the",
           f" * state after the last byte, or {P}_REJECT with at = the index of the byte that",
           " * rejected (at = len when none did; a state that is REJECT already rejects at the",
           " * first byte). Any chunking gives the same result (state out, state in).",
           f" * Engine chosen for this DFA: {describe(dfa, scalar_only)}.",
           f" * {p}_run_at(level, ...) runs one level; {p}_run_has(level) says whether this",
           f" * header has it and the CPU runs it. Define {P}_RUN_NO_SIMD for the scalar engine only.",
           " */",
           "#include <stddef.h>",
           "",
           f"enum {p}_run_level {{"]
    out += [f"    {P}_RUN_{name.upper()} = {i}," for i, name in enumerate(LEVELS)]
    out += [f"    {P}_RUN_NLEVELS = {len(LEVELS)}", "};",
            f"static const char *const {p}_run_level_name[{P}_RUN_NLEVELS] = {{"]
    out += [f'    "{name}",' for name in LEVELS]
    out += ["};", f'#define {P}_RUN_ENGINE "{describe(dfa, scalar_only)}"', ""]
    out += _plain(dfa, P, p)
    out += _scalar(dfa, P, p)
    vec = [lv for lv in levels if lv not in (SCALAR, NEON)]
    if NEON in levels:
        out += [f"#if defined(__aarch64__) && defined(__ARM_NEON) && (defined(__GNUC__) || "
                f"defined(__clang__)) && !defined({P}_RUN_NO_SIMD)",
                f"#define {P}_RUN_ARM64 1",
                "#include <arm_neon.h>", ""]
        out += _vector_table(dfa, p, 16)
        out += _neon(P, p)
        out += ["#endif", ""]
    if vec:
        out += [f"#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) "
                f"&& !defined({P}_RUN_NO_SIMD)",
                f"#define {P}_RUN_X86 1",
                "#include <immintrin.h>", ""]
        out += _vector_table(dfa, p, vec_width(dfa))
        kind = table_kind(dfa, vec_width(dfa)) if VBMI in levels else None
        gkind = avx2_kind(dfa) if AVX2 in levels else None
        for kd in dict.fromkeys(x for x in (kind, gkind) if x):
            out += {"quad": _quad_table, "pquad": _pquad_table, "triple": _triple_table,
                    "pair": _pair_table, "prow": _prow_table}[kd](dfa, p, vec_width(dfa))
        if gkind:
            out += _bpair_table(dfa, p, vec_width(dfa), gkind)
            out += _gather(dfa, P, p, gkind, vec_width(dfa))
        if dfa.nstates <= 16:
            out += _shuffle(dfa, P, p, "ssse3", "ssse3")
            if not gkind:
                out += _shuffle(dfa, P, p, "avx2", "avx2")
            if VBMI in levels:
                out += _shuffle(dfa, P, p, "avx512vbmi", "avx2,avx512f,avx512bw,avx512vl,avx512vbmi")
        else:
            out += _vpermb(dfa, P, p)
        out += ["#endif", ""]
    out += _dispatch(P, p, vec, NEON in levels)
    return out


def _plain(dfa, P, p):
    """The step loop, one reject test every 8 bytes; every engine's fallback."""
    unrolled = [f"        t = {p}_trans[t + {p}_class[b[i + {j}]]];" for j in range(8)]
    tail_cond = "i < len" if not _fault("tail") else "i + 1 < len"
    return [f"static inline uint32_t {p}_run_plain(uint32_t s, const uint8_t *b, size_t len, size_t *at)",
            "{",
            "    size_t i = 0;",
            "    while (len - i " + ("+ 1 " if _fault("overread") else "") + ">= 8) {",
            "        uint32_t t = s;"] + unrolled + [
            f"        if (t == {P}_REJECT)",
            "            break; /* the sink: step these 8 again, one by one */",
            "        s = t;",
            "        i += 8;",
            "    }",
            f"    for (; {tail_cond}; i++) {{",
            f"        s = {p}_trans[s + {p}_class[b[i]]];",
            f"        if (s == {P}_REJECT) {{",
            "            *at = i;",
            f"            return {P}_REJECT;",
            "        }",
            "    }",
            "    *at = len;",
            "    return s;",
            "}", ""]


def _scalar(dfa, P, p):
    """WAYS chains over a block; segments after the first start from a guess."""
    out = [f"#define {P}_RUN_WAYS {WAYS}",
           f"#define {P}_RUN_SEG {SEG}",
           f"#define {P}_RUN_MARK {MARK} /* a chain's state is kept every MARK bytes */",
           f"#ifndef {P}_RUN_LOOK /* bytes of look-back (a test may change it and the start) */",
           f"#define {P}_RUN_LOOK {LOOK}",
           "#endif",
           f"#ifndef {P}_RUN_GUESS_FROM /* where segment j's look-back starts */",
           f"#define {P}_RUN_GUESS_FROM(j) {P}_START",
           "#endif"]
    for name in ("block", "block_tail"):
        out += _block(P, p, name)
    out += [f"static inline uint32_t {p}_run_scalar(uint32_t s, const uint8_t *buf, size_t len, size_t *at)",
            "{",
            "    size_t i = 0, a;",
            f"    const size_t block = (size_t){P}_RUN_WAYS * {P}_RUN_SEG;",
            "    for (; len - i >= block; i += block) {",
            f"        s = {p}_run_block(s, buf + i, &a);",
            f"        if (s == {P}_REJECT) {{",
            "            *at = i + a;",
            f"            return {P}_REJECT;",
            "        }",
            "    }",
            f"    if (len - i >= (size_t){P}_RUN_WAYS * {P}_RUN_MARK) {{ /* a shorter block, of whole marks */",
            f"        size_t seg = (len - i) / {P}_RUN_WAYS / {P}_RUN_MARK * {P}_RUN_MARK;",
            f"        s = {p}_run_block_tail(s, buf + i, seg, &a);",
            f"        if (s == {P}_REJECT) {{",
            "            *at = i + a;",
            f"            return {P}_REJECT;",
            "        }",
            f"        i += {P}_RUN_WAYS * seg;",
            "    }",
            f"    s = {p}_run_plain(s, buf + i, len - i, &a);",
            "    *at = i + a;",
            "    return s;",
            "}", ""]
    return out


def _block(P, p, name):
    """run_block (WAYS * SEG bytes, a constant the compiler folds into the chains'
    addresses) or run_block_tail (WAYS * seg, seg a multiple of MARK below SEG)."""
    ways = range(WAYS)
    guess = "g{j} = {p}_trans[g{j} + {p}_class[b[{j} * seg - look + i]]];"
    tail = name == "block_tail"
    out = [f"/* One block of WAYS * {'seg' if tail else 'SEG'} bytes from state s"
           + (" (seg a multiple of MARK, below SEG)" if tail else "") + ":",
           " * the state after it, or REJECT and *at. */",
           f"static inline uint32_t {p}_run_{name}(uint32_t s, const uint8_t *b, "
           + ("size_t seg, " if tail else "") + "size_t *at)",
           "{"] + ([] if tail else [f"    const size_t seg = {P}_RUN_SEG;"]) + [
           "    uint32_t g[" + f"{P}_RUN_WAYS], e[{P}_RUN_WAYS], mk[{P}_RUN_WAYS][{P}_RUN_SEG / {P}_RUN_MARK];",
           "    size_t i;",
           "    int j;",
           "    uint32_t " + ", ".join(f"g{j} = {P}_RUN_GUESS_FROM({j})" for j in ways if j) + ";",
           f"    const size_t look = seg < {P}_RUN_LOOK ? seg : {P}_RUN_LOOK;",
           "    for (i = 0; i < look; i++) { /* the guesses: the look-back from START */"]
    for j in ways:
        if j:
            out.append("        " + guess.format(j=j, p=p, P=P))
            out.append(f"        g{j} = g{j} == {P}_REJECT ? {P}_START : g{j};")
    out += ["    }",
            "    {",
            "        uint32_t " + ", ".join(f"s{j} = " + ("s" if j == 0 else f"g{j}") for j in ways) + ";",
            "        size_t c;",
            f"        for (c = 0; c < seg / {P}_RUN_MARK; c++) {{",
            f"            for (i = c * {P}_RUN_MARK; i < (c + 1) * {P}_RUN_MARK; i++) {{"]
    for j in ways:
        out.append(f"                s{j} = {p}_trans[s{j} + {p}_class[b[{j} * seg + i]]];")
    out += ["            }"]
    out += ["            " + " ".join(f"mk[{j}][c] = s{j};" for j in ways if j)]
    out += ["        }"]
    out += ["        " + " ".join(f"e[{j}] = s{j};" for j in ways)]
    out += ["        " + " ".join(f"g[{j}] = g{j};" for j in ways if j) + " g[0] = s;", "    }"]
    check = (f"s != g[j] || e[j] == {P}_REJECT" if not _fault("spec")
             else f"(j == 0 && s != g[j]) || e[j] == {P}_REJECT")
    # Resynchronisation: a guessed chain that met the real one at a mark goes on
    # as the real one would (the DFA is deterministic), so a wrong guess costs
    # the bytes up to the first mark where the two chains agree.
    meet = (f"s == mk[j][c] && e[j] != {P}_REJECT" if not _fault("resync")
            else f"(s == mk[j][c] || c == 0) && e[j] != {P}_REJECT")
    out += [f"    for (j = 0; j < {P}_RUN_WAYS; j++) {{",
            f"        if ({check}) {{ /* a wrong guess, or the reject: step it again to a mark where the chains meet */",
            "            size_t a, c;",
            f"            for (c = 0; c < seg / {P}_RUN_MARK; c++) {{",
            f"                s = {p}_run_plain(s, b + (size_t)j * seg + c * {P}_RUN_MARK, {P}_RUN_MARK, &a);",
            f"                if (s == {P}_REJECT) {{",
            f"                    *at = (size_t)j * seg + c * {P}_RUN_MARK + a;",
            f"                    return {P}_REJECT;",
            "                }",
            f"                if (j > 0 && {meet}) {{",
            "                    s = e[j];",
            "                    break;",
            "                }",
            "            }",
            "        } else {",
            "            s = e[j];",
            "        }",
            "    }",
            "    return s;",
            "}", ""]
    return out


def _vector_table(dfa, p, width):
    """run_vec[byte * width + s]: the state s goes to on that byte (numbers, not pre-multiplied)."""
    n = dfa.nstates
    rows = []
    for b in range(256):
        c = dfa.classes[b]
        row = [dfa.class_trans[s][c] for s in range(n)] + [0] * (width - n)
        rows.append(row)
    if _fault("table"):  # one byte's transition wrong, for one state
        b = max(range(256), key=lambda x: (rows[x][dfa.start] != dfa.reject, -x))
        rows[b][dfa.start] = (rows[b][dfa.start] + 1) % n
    out = [f"/* {p}_run_vec[byte * {width} + s]: the state number s goes to on byte (lanes past",
           f" * {n} unused). One vector a byte, so a segment steps with one shuffle a byte. */",
           f"__attribute__((aligned(64))) static const uint8_t {p}_run_vec[256 * {width}] = {{"]
    for b in range(256):
        out.append(f"    /* {b:02X} */ " + ",".join(str(v) for v in rows[b]) + ",")
    out += ["};", ""]
    return out


def _finish(P, p, ways, width, store):
    """A segmented engine's tail: store each way's function, join them in
    order, advance past the segments, and step what is left plainly."""
    out = [f"        {store.format(dst=f'fn[{k}]', f=f'f{k}')};" for k in range(ways)]
    join = _join(P, p, ways, width)
    if _fault("join"):  # the last segment's reject goes unseen
        join = [ln.replace(f"if (nx == {P}_REJECT)", f"if (nx == {P}_REJECT && q + 1 < {ways})")
                for ln in join]
    return out + join + [f"        i += {ways} * seg;",
                         "    }",
                         f"    s = {p}_run_plain(s, buf + i, len - i, at);",
                         "    *at += i;",
                         "    return s;",
                         "}", ""]


def _join(P, p, ways, width):
    """The segments' functions applied in order; the dying segment stepped again."""
    return [f"        for (q = 0; q < {ways}; q++) {{",
            f"            uint32_t nx = (uint32_t)fn[q][s / {P}_NCLASSES] * {P}_NCLASSES;",
            f"            if (nx == {P}_REJECT) {{",
            f"                s = {p}_run_plain(s, b + q * seg, seg, at);",
            "                *at += i + q * seg;",
            f"                return {P}_REJECT;",
            "            }",
            "            s = nx;",
            "        }"]


def _pair_phase(P, p, ways, step, store, width, idtype, backward, pair_load, k, group=2, pk=None):
    """Segments of whole 64-byte groups, stepped `group` (2 or 4) bytes at a time:
    the bytes' classes by vpermb from the class table, a pair's index c1 * k + c2
    by vpmaddubsw (a quad's, p1 * k * k + p2, by vpmaddwd after it), made a row
    offset by a shift and stored; then one shuffle a pair (a quad). With pk (quads of
    pair classes), each pair's index is made its pair class by vpermi2b first, and a
    quad's index is q1 * pk + q2."""
    shift = width.bit_length() - 1
    n = 64 // group        # groups a 64-byte load holds (21 triples of 63 bytes)
    stride = n * group     # bytes a load steps
    otype, make = ("uint16_t", f"_mm512_slli_epi16(pr, {shift})") if group == 2 else \
        ("uint32_t", f"_mm512_slli_epi32(_mm512_madd_epi16(pr, wq), {shift})") if group == 4 else \
        ("uint16_t", f"_mm512_slli_epi16(_mm512_add_epi16(_mm512_mullo_epi16(pr, wk), c3), {shift})")
    # A load of 64 bytes steps `stride`: with triples, the byte after the last
    # one stepped is read too, so the phase leaves one byte of the buffer to
    # what follows it (a masked load instead is several times slower on Zen).
    load = "_mm512_loadu_si512((const void *)(b + q * seg + r))"
    slack = "" if stride == 64 else " - 1"
    out = [f"    const __m512i cl0 = _mm512_loadu_si512((const void *)({p}_class + 0));",
           f"    const __m512i cl1 = _mm512_loadu_si512((const void *)({p}_class + 64));",
           f"    const __m512i cl2 = _mm512_loadu_si512((const void *)({p}_class + 128));",
           f"    const __m512i cl3 = _mm512_loadu_si512((const void *)({p}_class + 192));",
           f"    const __m512i wt = _mm512_set1_epi16((short)(1 << 8 | {k})); /* first byte * k + second */"]
    if group == 4:
        out.append(f"    const __m512i wq = _mm512_set1_epi32(1 << 16 | {pk or k * k}); /* first pair * "
                   f"{'pk' if pk else 'k * k'} + second */")
    if pk:
        out += [f"    const __m512i pc0 = _mm512_loadu_si512((const void *)({p}_run_pclass + 0));",
                f"    const __m512i pc1 = _mm512_loadu_si512((const void *)({p}_run_pclass + 64));"]
    if group == 3:  # triple j: its first two classes to bytes 2j, 2j + 1; its third to 2j
        out += [f"    const __m512i wk = _mm512_set1_epi16({k});",
                f"    const __m512i ia = _mm512_loadu_si512((const void *)({p}_run_triple_gather + 0));",
                f"    const __m512i ib = _mm512_loadu_si512((const void *)({p}_run_triple_gather + 64));"]
    out += [f"    while (len - i {'>' if slack else '>='} {ways} * {stride}) {{",
           f"        size_t seg = (len - i{slack}) / ({ways} * {stride}) * {stride};",
           "        const uint8_t *b = buf + i;",
           f"        __attribute__((aligned(64))) uint8_t fn[{ways}][{width}];",
           f"        __attribute__((aligned(64))) {otype} off[{ways}][{32 if otype == 'uint16_t' else 16}];",
           "        size_t j, u;",
           f"        {idtype} " + ", ".join(f"f{x} = id" for x in range(ways)) + ";",
           f"        if (seg > {VSEG // stride * stride})",
           f"            seg = {VSEG // stride * stride};",
           f"        for (j = 0; j < seg; j += {stride}) {{",
           "            size_t r = " + (f"seg - {stride} - j;" if backward else "j;"),
           f"            for (q = 0; q < {ways}; q++) {{",
           f"                __m512i x = {load};",
           "                __m512i lo = _mm512_permutex2var_epi8(cl0, x, cl1);",
           "                __m512i hi = _mm512_permutex2var_epi8(cl2, x, cl3);",
           "                __m512i c = _mm512_mask_blend_epi8(_mm512_movepi8_mask(x), lo, hi);",
           "                __m512i pr = _mm512_maddubs_epi16(" + ("c" if group != 3 else
                "_mm512_permutexvar_epi8(ia, c)") + ", wt);"] + ([
           "                pr = _mm512_maskz_permutex2var_epi8((__mmask64)0x5555555555555555ull, pc0, pr, pc1);"]
           if pk else []) + ([
           "                __m512i c3 = _mm512_maskz_permutexvar_epi8((__mmask64)0x5555555555555555ull, ib, c);"]
           if group == 3 else []) + [
           f"                _mm512_store_si512((void *)off[q], {make});",
           "            }",
           f"            for (u = 0; u < {n}; u++) {{",
           "                size_t v = " + (f"{n - 1} - u;" if backward else "u;")]
    for x in range(ways):
        out.append(f"                f{x} = {step.format(f=f'f{x}', t=pair_load.format(o=f'off[{x}][v]'))};")
    out += ["            }", "        }"]
    out += [f"        {store.format(dst=f'fn[{x}]', f=f'f{x}')};" for x in range(ways)]
    out += _join(P, p, ways, width)
    out += [f"        i += {ways} * seg;", "    }"]
    return out


def triple_width_ok(dfa, width):
    """Whether the triple table (three bytes a shuffle) fits in 32 KiB."""
    return dfa.nclasses ** 3 * width <= 32768


def _triple_table(dfa, p, width):
    """run_triple[((c1 * k + c2) * k + c3) * width + s]: where state s goes on bytes of
    classes c1, c2, c3; run_triple_gather: the byte permutations that bring triple j's
    classes to bytes 2j, 2j + 1 and to byte 2j."""
    n, k, ct = dfa.nstates, dfa.nclasses, dfa.class_trans
    out = [f"/* {p}_run_triple[((c1 * {k} + c2) * {k} + c3) * {width} + s]: the state number s goes",
           " * to on bytes of classes c1, c2, c3: three bytes a shuffle. */",
           f"__attribute__((aligned(64))) static const uint8_t {p}_run_triple[{k ** 3} * {width}] = {{"]
    wrong = _likely(dfa, 3)
    for t in [(a, b, c) for a in range(k) for b in range(k) for c in range(k)]:
        row = [ct[ct[ct[s][t[0]]][t[1]]][t[2]] for s in range(n)] + [0] * (width - n)
        if _fault("triple") and t == wrong:  # one triple's row wrong from START
            row[dfa.start] = dfa.reject
        out.append("    " + ",".join(str(v) for v in row) + ",")
    out += ["};", ""]
    ga = [3 * (i // 2) + i % 2 if i // 2 < 21 else 0 for i in range(64)]
    gb = [3 * (i // 2) + 2 if i // 2 < 21 and i % 2 == 0 else 0 for i in range(64)]
    out += [f"static const uint8_t {p}_run_triple_gather[128] = {{",
            "    " + ",".join(map(str, ga)) + ",",
            "    " + ",".join(map(str, gb)) + ",", "};", ""]
    return out


def quad_width_ok(dfa, width):
    """Whether the quad table (four bytes a shuffle) fits in 32 KiB."""
    return dfa.nclasses ** 4 * width <= 32768


def _quad_table(dfa, p, width):
    """run_quad[(((c1 * k + c2) * k + c3) * k + c4) * width + s]: where state s goes on
    bytes of classes c1, c2, c3, c4."""
    n, k, ct = dfa.nstates, dfa.nclasses, dfa.class_trans
    out = [f"/* {p}_run_quad[(((c1 * {k} + c2) * {k} + c3) * {k} + c4) * {width} + s]: the state number",
           " * s goes to on bytes of classes c1, c2, c3, c4: four bytes a shuffle. */",
           f"__attribute__((aligned(64))) static const uint8_t {p}_run_quad[{k ** 4} * {width}] = {{"]
    quads = [(a, b, c, d) for a in range(k) for b in range(k) for c in range(k) for d in range(k)]
    wrong = _likely(dfa, 4)
    for t in quads:
        row = [ct[ct[ct[ct[s][t[0]]][t[1]]][t[2]]][t[3]] for s in range(n)] + [0] * (width - n)
        if _fault("quad") and t == wrong:  # one quad's row wrong from START
            row[dfa.start] = dfa.reject
        out.append("    " + ",".join(str(v) for v in row) + ",")
    out += ["};", ""]
    return out


def _likely(dfa, m):
    """The classes of m bytes that valid text often has from START (each time the
    largest class that does not reject): where a fault's wrong row is put, so
    that the test's valid text meets it."""
    k, ct = dfa.nclasses, dfa.class_trans
    size = [len(dfa.class_bytes(c)) for c in range(k)]
    out, st = [], dfa.start
    for _ in range(m):
        c = max((c for c in range(k) if ct[st][c] != dfa.reject), key=lambda c: size[c], default=0)
        out.append(c)
        st = ct[st][c]
    return tuple(out)


def pair_width_ok(dfa, width):
    """Whether the pair table fits: offsets in 16 bits, and at most 32 KiB."""
    return dfa.nclasses ** 2 * width <= 32768


def _pair_table(dfa, p, width):
    """run_pair[(c1 * k + c2) * width + s]: where state s goes on a byte of class c1 then c2."""
    n, k, ct = dfa.nstates, dfa.nclasses, dfa.class_trans
    out = [f"/* {p}_run_pair[(c1 * {k} + c2) * {width} + s]: the state number s goes to on a byte of",
           " * class c1 then one of class c2: two bytes a shuffle. */",
           f"__attribute__((aligned(64))) static const uint8_t {p}_run_pair[{k * k} * {width}] = {{"]
    wrong = _likely(dfa, 2)
    for c1 in range(k):
        for c2 in range(k):
            row = [ct[ct[s][c1]][c2] for s in range(n)] + [0] * (width - n)
            if _fault("pair") and (c1, c2) == wrong:  # one pair's row wrong from START
                row[dfa.start] = dfa.reject
            out.append(f"    /* {c1},{c2} */ " + ",".join(str(v) for v in row) + ",")
    out += ["};", ""]
    return out


def _vec_body(P, p, ways, load, step, store, width, idtype, ident, backward, pairs=None):
    seg_max = VSEG
    out = ["{",
           f"    const {idtype} id = {ident};",
           "    size_t i = 0, q;",
           "    uint32_t s = state;",
           ]
    if pairs:
        out += _pair_phase(P, p, ways, step, store, width, idtype, backward, *pairs)
    out += [
           f"    while (len - i >= {ways}) {{",
           f"        size_t seg = (len - i) / {ways};",
           "        const uint8_t *b = buf + i;",
           f"        __attribute__((aligned(64))) uint8_t fn[{ways}][{width}];",
           "        size_t j;",
           f"        {idtype} " + ", ".join(f"f{k} = id" for k in range(ways)) + ";",
           f"        if (seg > {seg_max})",
           f"            seg = {seg_max};",
           "        for (j = 0; j < seg; j++) {"]
    if backward:  # f = f o T[byte], from the segment's last byte to its first
        out += ["            size_t r = seg - 1 - j;"]
    for k in range(ways):
        idx = ("r" if backward else "j") + ("" if k == 0 else f" + {k} * seg")
        out.append(f"            f{k} = {step.format(f=f'f{k}', t=load.format(b=f'(size_t)b[{idx}]'))};")
    out += ["        }"]
    return out + _finish(P, p, ways, width, store)


def _shuffle(dfa, P, p, level, target):
    ident = "_mm_setr_epi8(" + ", ".join(str(i) for i in range(16)) + ")"
    pairs = None
    if level == "avx512vbmi":
        table = table_kind(dfa, 16)
        pairs = (f"_mm_load_si128((const __m128i *)(const void *)((const uint8_t *){p}_run_{table} + {{o}}))",
                 dfa.nclasses, _GROUP[table], len(pair_functions(dfa)[1]) if table == "pquad" else None)
    return ([f"__attribute__((target(\"{target}\")))",
             f"static inline uint32_t {p}_run_{level}(uint32_t state, const uint8_t *buf, size_t len, "
             "size_t *at)"]
            + _vec_body(P, p, WAYS_OF[level],
                        f"_mm_load_si128((const __m128i *)(const void *)({p}_run_vec + {{b}} * 16))",
                        "_mm_shuffle_epi8({f}, {t})",
                        "_mm_store_si128((__m128i *)(void *){dst}, {f})", 16, "__m128i", ident, True,
                        pairs))


def _neon(P, p):
    # the literal in parentheses: clang's vld1q_u8 is a macro, and the braces' commas would split it
    ident = "vld1q_u8(((const uint8_t[16]){" + ", ".join(str(i) for i in range(16)) + "}))"
    return ([f"static inline uint32_t {p}_run_neon(uint32_t state, const uint8_t *buf, size_t len, "
             "size_t *at)"]
            + _vec_body(P, p, WAYS_OF["neon"], f"vld1q_u8({p}_run_vec + {{b}} * 16)", "vqtbl1q_u8({f}, {t})",
                        "vst1q_u8({dst}, {f})", 16, "uint8x16_t", ident, True))


def _vpermb(dfa, P, p):
    """vpermb over 32 lanes (AVX-512 VL) for <= 32 states, else 64."""
    w = vec_width(dfa)
    if w == 32:
        vt, pre, tgt = "__m256i", "_mm256", "avx512f,avx512bw,avx512vl,avx512vbmi"
        load = f"_mm256_load_si256((const __m256i *)(const void *)({p}_run_vec + {{b}} * 32))"
        store = "_mm256_store_si256((__m256i *)(void *){dst}, {f})"
        q = 4
    else:
        vt, pre, tgt = "__m512i", "_mm512", "avx512f,avx512bw,avx512vbmi"
        load = f"_mm512_load_si512((const void *)({p}_run_vec + {{b}} * 64))"
        store = "_mm512_store_si512((void *){dst}, {f})"
        q = 8
    ident = f"{pre}_set_epi64" + ("x(" if w == 32 else "(") + ", ".join(
        f"(long long)0x{sum(b << (8 * (b - 8 * k)) for b in range(8 * k, 8 * k + 8)):016X}ull"
        for k in reversed(range(q))) + ")"
    table = table_kind(dfa, w)
    pairs = (load.replace("{b} * " + str(w), "0").replace("_run_vec + 0", f"_run_{table} + {{o}}"),
             dfa.nclasses, _GROUP[table], len(pair_functions(dfa)[1]) if table == "pquad" else None) \
        if table else None
    return ([f"__attribute__((target(\"{tgt}\")))",
             f"static inline uint32_t {p}_run_avx512vbmi(uint32_t state, const uint8_t *buf, size_t len, "
             "size_t *at)"]
            + _vec_body(P, p, WAYS_OF["vpermb"], load, f"{pre}_permutexvar_epi8({{f}}, {{t}})", store, w, vt, ident,
                        False, pairs))


def vec_width(dfa):
    n = dfa.nstates
    return 16 if n <= 16 else 32 if n <= 32 else 64


def _dispatch(P, p, vec, neon):
    feats = {SSSE3: "ssse3", AVX2: "avx2", VBMI: "avx512vbmi"}
    out = [f"/* Whether this header has `level` and this CPU runs it. */",
           f"static inline int {p}_run_has(int level)",
           "{",
           "    switch (level) {",
           f"    case {P}_RUN_SCALAR:",
           "        return 1;"]
    if vec:
        out.append(f"#ifdef {P}_RUN_X86")
        for lv in vec:
            out += [f"    case {P}_RUN_{LEVELS[lv].upper()}:",
                    "        __builtin_cpu_init();",
                    f"        return __builtin_cpu_supports(\"{feats[lv]}\")"
                    + (" && __builtin_cpu_supports(\"avx512bw\") && __builtin_cpu_supports(\"avx512vl\")"
                       if lv == VBMI else "") + ";"]
        out.append("#endif")
    if neon:
        out += [f"#ifdef {P}_RUN_ARM64", f"    case {P}_RUN_NEON:", "        return 1;", "#endif"]
    out += ["    default:",
            "        return 0;",
            "    }",
            "}", "",
            f"/* {p}_run() at one level ({p}_run_has(level) must be true). */",
            f"static inline uint32_t {p}_run_at(int level, uint32_t state, const uint8_t *buf, "
            "size_t len, size_t *at)",
            "{",
            "    switch (level) {"]
    if vec:
        out.append(f"#ifdef {P}_RUN_X86")
        for lv in vec:
            out += [f"    case {P}_RUN_{LEVELS[lv].upper()}:",
                    f"        return {p}_run_{LEVELS[lv]}(state, buf, len, at);"]
        out.append("#endif")
    if neon:
        out += [f"#ifdef {P}_RUN_ARM64", f"    case {P}_RUN_NEON:",
                f"        return {p}_run_neon(state, buf, len, at);", "#endif"]
    out += ["    default:",
            f"        return {p}_run_scalar(state, buf, len, at);",
            "    }",
            "}", "",
            f"static inline uint32_t {p}_run(uint32_t state, const uint8_t *buf, size_t len, size_t *at)",
            "{"]
    if vec:
        out += [f"#ifdef {P}_RUN_X86",
                "    int level;",
                "    if (len < 64) /* not worth asking the CPU */",
                f"        return {p}_run_plain(state, buf, len, at);",
                f"    for (level = {P}_RUN_NLEVELS - 1; level > {P}_RUN_SCALAR; level--)",
                f"        if ({p}_run_has(level))",
                f"            return {p}_run_at(level, state, buf, len, at);",
                "#endif"]
    if neon:
        out += [f"#ifdef {P}_RUN_ARM64",
                "    if (len >= 64)",
                f"        return {p}_run_neon(state, buf, len, at);",
                "#endif"]
    out += [f"    return {p}_run_scalar(state, buf, len, at);", "}", ""]
    return out


# The AVX2 engine: no vpermb to find many bytes' classes at once, so two input
# bytes read as one 16-bit number index a table of 65536 (the byte-pair table)
# that holds their pair's row offset (or its index, where an offset does not fit
# a byte); two pairs' entries make a quad's row. Three loads (input, two entries)
# and one shuffle step four bytes (two shuffles with the rows of two).
GATHER_BYTES = 32768   # the most bytes of rows a gather table may have (L1)
GATHER_WORD = 8        # bytes a segment loads at once (measured: 8 beats 4)


def gather_kind(dfa, width):
    """The rows the AVX2 engine steps with: "pquad" (two pair classes, four bytes a
    shuffle), "prow" (one pair class, two bytes), or None (more than 64 classes, or
    more than 256 pair classes: the byte-pair table holds a pair class in a byte)."""
    if dfa.nclasses > 64:
        return None
    m = len(pair_functions(dfa)[1])
    if m * m * width <= GATHER_BYTES:
        return "pquad"
    return "prow" if m <= 256 else None


def _prow_table(dfa, p, width):
    """run_prow[q * width + s]: where state s goes on a pair of bytes of pair class q."""
    funcs = pair_functions(dfa)[1]
    out = [f"/* {p}_run_prow[q * {width} + s]: the state number s goes to on two bytes of pair class q. */",
           f"__attribute__((aligned(64))) static const uint8_t {p}_run_prow[{len(funcs)} * {width}] = {{"]
    wrong = pair_functions(dfa)[0][_likely(dfa, 2)[0] * dfa.nclasses + _likely(dfa, 2)[1]]
    for q, fn in enumerate(funcs):
        row = list(fn) + [0] * (width - dfa.nstates)
        if _fault("prow") and q == wrong:  # the likely pair's row wrong from START
            row[dfa.start] = dfa.reject
        out.append("    " + ",".join(map(str, row)) + ",")
    return out + ["};", ""]


def bpair_scale(dfa, width, kind):
    """What run_bpair's entries are multiplied by: width (the entry is a row's offset)
    when that fits a byte, else 1 (an index, made an offset by the engine)."""
    return width if (len(pair_functions(dfa)[1]) - 1) * width < 256 else 1


def _bpair_table(dfa, p, width, kind):
    """run_bpair[b1 << 8 | b0]: the row of bytes b0 then b1 (a 16-bit little-endian
    load of the two makes the index): their pair class, times bpair_scale. Bytes, not wider: the rows of one b1 lie 256 bytes apart, which
    spreads them over 16 sets of the L1 cache (at 512, 8: measured slower). A row
    depends on b1's class alone, so the table is written as k rows of 256 (macros)
    and 256 uses of them: the header stays small."""
    k, cls = dfa.nclasses, dfa.classes
    ids = pair_functions(dfa)[0]
    scale = bpair_scale(dfa, width, kind)
    bad = _likely(dfa, 2)
    wrong = None
    if _fault("bpair"):  # the likely pair's entries point to a pair that rejects from START
        ct = dfa.class_trans
        wrong = next((c1 * k + c2 for c1 in range(k) for c2 in range(k)
                      if ct[ct[dfa.start][c1]][c2] == dfa.reject), (bad[0] * k + bad[1] + 1) % (k * k))
    out = [f"/* {p}_run_bpair[b1 << 8 | b0]: the row of bytes b0 then b1 in {p}_run_{kind}"
           + (f", times {scale}" if scale > 1 else "") + "", " * (a 16-bit little-endian load of the two makes the index). */"]
    for c2 in range(k):
        row = []
        for b0 in range(256):
            c1 = cls[b0]
            row.append(str(ids[wrong if wrong is not None and (c1, c2) == bad else c1 * k + c2] * scale))
        out.append(f"#define {p.upper()}_RUN_BPAIR_{c2} " + ",".join(row))
    out.append(f"static const uint8_t {p}_run_bpair[65536] = {{")
    for b1 in range(0, 256, 8):
        out.append("    " + " ".join(f"{p.upper()}_RUN_BPAIR_{cls[x]}," for x in range(b1, b1 + 8)))
    out.append("};")
    out += [f"#undef {p.upper()}_RUN_BPAIR_{c}" for c in range(k)]
    return out + [""]


def _gather(dfa, P, p, kind, width):
    """The AVX2 engine over the byte-pair table: 16 lanes as the shuffle engine
    (f = f o T, a segment stepped from its end), or 32 lanes stepped forward
    (f = T o f, T's halves broadcast, each looked up with pshufb and the two
    blended on bit 4 of the state): WAYS_OF["gather16" / "gather32"] segments of whole words of
    GATHER_WORD bytes (one load), one pquad row or two prow rows every four bytes."""
    wide = width == 32
    ways = WAYS_OF["gather32" if wide else "gather16"]
    word = GATHER_WORD
    wt = f"uint{8 * word}_t"
    rows = f"{p}_run_{kind}"
    m = len(pair_functions(dfa)[1])
    vt = "__m256i" if wide else "__m128i"
    if wide:
        ident = "_mm256_setr_epi8(" + ", ".join(str(i) for i in range(32)) + ")"
        store = "_mm256_store_si256((__m256i *)(void *){dst}, {f})"
    else:
        ident = "_mm_setr_epi8(" + ", ".join(str(i) for i in range(16)) + ")"
        store = "_mm_store_si128((__m128i *)(void *){dst}, {f})"

    def step(f, off):
        if wide:
            return f"{f} = {p}_run_fwd32({f}, {rows} + {off});"
        return f"{f} = _mm_shuffle_epi8({f}, _mm_load_si128((const __m128i *)(const void *)({rows} + {off})));"

    def offs(w):
        """The row offsets of word w, in the order they are applied."""
        times = "" if bpair_scale(dfa, width, kind) > 1 else f" * {width}"
        pairs = [f"{p}_run_bpair[" + (f"({w} >> {16 * h}) & 0xFFFFu]" if h else f"{w} & 0xFFFFu]")
                 for h in range(word // 2)]
        pairs[-1] = f"{p}_run_bpair[{w} >> {8 * word - 16}]"
        if kind == "pquad":
            got = [f"((size_t){pairs[h]} * {m} + {pairs[h + 1]}){times}" for h in range(0, len(pairs), 2)]
        else:
            got = [f"(size_t){x}{times}" for x in pairs]
        return got if wide else got[::-1]
    out = []
    if wide:
        out += ['__attribute__((target("avx2")))',
                f"static inline __m256i {p}_run_fwd32(__m256i f, const uint8_t *row)",
                "{ /* T o f for 32 lanes: T[f[s]] from T's half that bit 4 of f[s] picks */",
                "    __m256i lo = _mm256_broadcastsi128_si256(_mm_load_si128((const __m128i *)(const void *)row));",
                "    __m256i hi = _mm256_broadcastsi128_si256(_mm_load_si128((const __m128i *)(const void *)(row + 16)));",
                "    return _mm256_blendv_epi8(_mm256_shuffle_epi8(lo, f), _mm256_shuffle_epi8(hi, f), "
                "_mm256_slli_epi16(f, 3));",
                "}", ""]
    out += [f"static inline {wt} {p}_run_load{8 * word}(const uint8_t *b)",
            "{",
            f"    {wt} w;",
            f"    __builtin_memcpy(&w, b, {word});",
            "    return w;",
            "}", "",
            '__attribute__((target("avx2")))',
            f"static inline uint32_t {p}_run_avx2(uint32_t state, const uint8_t *buf, size_t len, size_t *at)",
            "{",
            f"    const {vt} id = {ident};",
            "    size_t i = 0, q;",
            "    uint32_t s = state;",
            f"    while (len - i >= {ways} * {word}) {{",
            f"        size_t seg = (len - i) / ({ways} * {word}) * {word}, r;",
            "        const uint8_t *b = buf + i;",
            f"        __attribute__((aligned(64))) uint8_t fn[{ways}][{width}];",
            f"        {vt} " + ", ".join(f"f{x} = id" for x in range(ways)) + ";",
            f"        if (seg > {VSEG})",
            f"            seg = {VSEG};",
            (f"        for (r = 0; r < seg; r += {word}) {{" if wide else "        for (r = seg; r > 0;) {"),
            *([] if wide else [f"            r -= {word};"]),
            f"            {wt} " + ", ".join(f"w{x} = {p}_run_load{8 * word}(b + {x} * seg + r)"
                                            for x in range(ways)) + ";"]
    for x in range(ways):
        out += ["            " + step(f"f{x}", o) for o in offs(f"w{x}")]
    out += ["        }"]
    return out + _finish(P, p, ways, width, store)
