#!/bin/sh
# SPDX-License-Identifier: MIT
# `make bench-engine`: one row a grammar of the `lines` grammars in
# tests/engine/grammars.list: the generated PREFIX_run() against the
# PREFIX_step() loop on 1 MiB of valid lines, and on the same bytes with an
# error in the last line; the shift DFA's loop where the header has one
# (tests/bench/engine_bench.c). Medians of BENCH_ENGINE_ROUNDS (default 15)
# interleaved rounds, thread CPU time. Environment: B, CC, PYTHON, BENCH_CFLAGS.
set -eu
B=${B:-build}
CC=${CC:-cc}
PYTHON=${PYTHON:-python3}
CFLAGS=${BENCH_CFLAGS:--O2}
ROUNDS=${BENCH_ENGINE_ROUNDS:-15}
OUT=$B/bench/engine
mkdir -p "$OUT"
echo "PREFIX_run (generated bulk engine) against the PREFIX_step() loop, 1 MiB of valid lines, GB/s"
echo "(medians of $ROUNDS rounds, thread CPU time; $(date -u +%Y-%m-%d), $CC $CFLAGS;"
echo " CPU: $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //')$(grep -qw avx512vbmi /proc/cpuinfo 2>/dev/null && echo ', AVX-512 VBMI')):"
echo
echo "| grammar | states | engine | step loop | run | run / loop | run, error at end | ratio | shift DFA loop |"
echo "|---|---:|---|---:|---:|---:|---:|---:|---:|"
grep -v '^#' tests/engine/grammars.list | while read -r name opts files; do
    case $name in *-lines) ;; *) continue ;; esac
    [ "$opts" = - ] && opts=
    dir=$OUT/$name
    mkdir -p "$dir"
    # shellcheck disable=SC2086
    $PYTHON gen/abnfc.py $files $opts --emit c --prefix eng -o "$dir/engine.gen.h"
    # shellcheck disable=SC2086
    $CC -std=c11 -Wall -Wextra -Wpedantic -Werror $CFLAGS -I "$dir" tests/bench/engine_bench.c -o "$dir/bench"
    "$dir/bench" "$name" "$ROUNDS"
done
