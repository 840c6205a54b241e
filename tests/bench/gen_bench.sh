#!/bin/sh
# SPDX-License-Identifier: MIT
# `make bench-gen`: how long the generator takes, and how much memory, on
# large automata (tests/bench/grammars/). Each grammar is compiled to a C
# header RUNS times under GNU time; the medians of CPU time (user + system)
# and of peak RSS are printed. A benchmark, not a test: no number fails it.
#
# With BASE=REV (a git revision) the generator of that revision is measured
# too, and both must write byte-identical automata (--emit c and json) for
# every grammar of grammar/, tests/gen/grammars/ and tests/bench/grammars/:
# speed work must not change what comes out. A difference exits 1.
#
# Environment: BASE, PYTHON, RUNS (default 5), B (build dir).
set -eu

PYTHON=${PYTHON:-python3}
RUNS=${RUNS:-5}
B=${B:-build}
OUT=$B/bench-gen
rm -rf "$OUT"
mkdir -p "$OUT"

if ! /usr/bin/time -v true >/dev/null 2>&1; then
    echo "bench-gen: GNU time (/usr/bin/time -v) is needed: apt-get install time" >&2
    exit 1
fi

median() {
    sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2];
                                        else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# measure LABEL ABNFC: one table row per benchmark grammar.
measure() {
    for g in tests/bench/grammars/*.abnf; do
        name=$(basename "$g" .abnf)
        log=$OUT/$1-$name
        : >"$log.cpu"
        : >"$log.rss"
        i=0
        while [ "$i" -lt "$RUNS" ]; do
            /usr/bin/time -v "$PYTHON" "$2" "$g" --emit c -o "$log.gen.h" 2>"$log.time"
            awk -F': ' '/User time/ { u = $2 } /System time/ { s = $2 } END { print u + s }' \
                "$log.time" >>"$log.cpu"
            awk -F': ' '/Maximum resident/ { printf "%.1f\n", $2 / 1024 }' "$log.time" >>"$log.rss"
            i=$((i + 1))
        done
        printf '%-10s %-16s %5d %12s %15s\n' "$1" "$name" "$RUNS" \
            "$(median <"$log.cpu")" "$(median <"$log.rss")"
    done
}

# same_output ABNFC_A ABNFC_B: every grammar's automata written alike by both.
# A grammar the base cannot compile (one that needs a later feature, such as
# several files or --terminals utf-8) is skipped and counted.
same_output() {
    n=0
    differ=0
    skipped=0
    for g in grammar/*.abnf tests/gen/grammars/*.abnf tests/bench/grammars/*.abnf; do
        for e in c json; do
            if ! "$PYTHON" "$1" "$g" --emit $e -o "$OUT/a.out" 2>/dev/null; then
                skipped=$((skipped + 1))
                continue
            fi
            n=$((n + 1))
            if ! "$PYTHON" "$2" "$g" --emit $e -o "$OUT/b.out" || ! cmp -s "$OUT/a.out" "$OUT/b.out"; then
                echo "bench-gen: $g --emit $e differs"
                differ=$((differ + 1))
            fi
        done
    done
    echo "bench-gen: $n outputs compared with $BASE, $differ differ ($skipped skipped: $BASE cannot compile them)"
    [ "$differ" = 0 ]
}

echo "bench-gen: $(date +%F), $RUNS runs each, $(nproc) cores"
printf '%-10s %-16s %5s %12s %15s\n' generator grammar runs "cpu s (med)" "peak MiB (med)"
if [ -n "${BASE:-}" ]; then
    mkdir -p "$OUT/base"
    git archive "$BASE" gen include/utfdfa.h | tar -x -C "$OUT/base"
    measure "$BASE" "$OUT/base/gen/abnfc.py"
fi
measure current gen/abnfc.py
if [ -n "${BASE:-}" ]; then
    same_output "$OUT/base/gen/abnfc.py" gen/abnfc.py
fi
