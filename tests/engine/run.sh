#!/bin/sh
# SPDX-License-Identifier: MIT
# The generated bulk engines (PREFIX_run, gen/emit_engine.py) against the step
# loop: one header a grammar (--prefix eng), tests/engine/test_run.c built
# against it and run at every level this CPU has. The grammars: every one in
# grammar/ and those tests/engine/grammars.list names; then the same header
# built with ENG_RUN_NO_SIMD and generated with --engine scalar (scalar only).
#   run.sh check    that, and again with the scalar engine's guesses moved
#                   (-DTEST_WRONG_GUESS) so that its check of them is tested
#   run.sh faults   each deliberate fault of gen/emit_engine.py (UTFDFA_ENGINE_FAULT)
#                   must make the test fail on every grammar with the engine it breaks
# Environment: B (build dir), CC, PYTHON; RUN, a command that runs the tests
# (an emulator, for a cross CC); FAULTS, the faults' list (below) to check.
set -eu
B=${B:-build}
CC=${CC:-cc}
PYTHON=${PYTHON:-python3}
RUN=${RUN:-}
OUT=$B/tests/engine
FLAGS="-std=c11 -Wall -Wextra -Wpedantic -Werror -O2"
mode=${1:-check}
mkdir -p "$OUT"

# build NAME DIR OPTIONS FILES...: DIR/engine.gen.h and DIR/test_run
build() {
    name=$1 dir=$2 opts=$3
    shift 3
    mkdir -p "$dir"
    [ "$opts" = - ] && opts=
    # shellcheck disable=SC2086
    $PYTHON gen/abnfc.py "$@" $opts --emit c --prefix eng -o "$dir/engine.gen.h"
    $CC $FLAGS $EXTRA -I "$dir" tests/engine/test_run.c -o "$dir/test_run"
}

grammars() {
    for f in grammar/*.abnf; do echo "$(basename "$f" .abnf) - $f"; done
    grep -v '^#' tests/engine/grammars.list
}

if [ "$mode" = check ]; then
    passed=0
    failed=0
    EXTRA=
    tmp=$OUT/list
    grammars > "$tmp"
    while read -r name opts files; do
        # shellcheck disable=SC2086
        build "$name" "$OUT/$name" "$opts" $files
        EXTRA=-DTEST_WRONG_GUESS build "$name" "$OUT/$name-wrong-guess" "$opts" $files
        for v in "$name" "$name-wrong-guess"; do
            if $RUN "$OUT/$v/test_run" "$v" > "$OUT/$v/out"; then
                passed=$((passed + 1))
            else
                failed=$((failed + 1))
            fi
            tail -n 1 "$OUT/$v/out"
        done
    done < "$tmp"
    # The triple table where quads of pair classes fit, so that it stays proved at
    # 16 and 32 lanes (UTFDFA_ENGINE_TABLE, gen/emit_engine.py).
    for name in json-number-lines ipv4-lines; do
        line=$(grammars | awk -v n="$name" '$1 == n')
        # shellcheck disable=SC2086
        set -- $line
        shift 2
        UTFDFA_ENGINE_TABLE=triple build "$name" "$OUT/$name-triple" - "$@"
        if $RUN "$OUT/$name-triple/test_run" "$name-triple" > "$OUT/$name-triple/out" &&
           grep -q "three bytes a shuffle" "$OUT/$name-triple/engine.gen.h"; then
            passed=$((passed + 1))
        else
            echo "run.sh: $name-triple: not the triple table, or it failed" >&2
            failed=$((failed + 1))
        fi
        tail -n 1 "$OUT/$name-triple/out"
    done
    # Scalar only: asked of the generator, and asked of the compiler.
    build scalar-only "$OUT/scalar-only" --engine=scalar tests/engine/grammars/ipv4-lines.abnf
    EXTRA=-DENG_RUN_NO_SIMD build no-simd "$OUT/no-simd" - tests/engine/grammars/hex-lines.abnf
    for v in scalar-only no-simd; do
        if $RUN "$OUT/$v/test_run" "$v" > "$OUT/$v/out" && [ "$(head -n 1 "$OUT/$v/out")" = scalar ] &&
           ! grep -q immintrin "$OUT/scalar-only/engine.gen.h"; then
            passed=$((passed + 1))
        else
            echo "run.sh: $v: not the scalar engine alone, or it failed" >&2
            failed=$((failed + 1))
        fi
        tail -n 1 "$OUT/$v/out"
    done
    echo "check-engine: $passed passed, $failed failed"
    [ "$failed" = 0 ]
    exit
fi

# faults: FAULT GRAMMARS... (each grammar has the engine the fault breaks)
EXTRA=
caught=0
missed=0
FAULTS=${FAULTS:-"table hex-lines ipv4-lines utf8; pair corrected-utf-8 utf8-rfc2279 rfc8259-string;
triple json-number-lines ipv4-lines utf8; quad hex-lines atom-lines token-lines;
pquad json-number-lines ipv4-lines rfc3339-lines utf7;
bpair hex-lines json-number-lines ipv4-lines rfc3339-lines corrected-utf-8 rfc8259-string;
prow corrected-utf-8 rfc8259-string;
join hex-lines ipv4-lines rfc3339-lines; tail hex-lines ipv4-lines uri-lines;
spec utf8 utf7-imap rfc3986-uri; resync utf7-imap rfc3986-uri uri-lines; overread hex-lines ipv4-lines uri-lines"}
while read -r spec; do
    [ -n "$spec" ] || continue
    # shellcheck disable=SC2086
    set -- $spec
    fault=$1
    shift
    case $fault in pair|triple|quad)
        if ! grep -qw avx512vbmi /proc/cpuinfo 2>/dev/null || [ -n "$RUN" ]; then
            echo "fault $fault: not checked here: only the AVX-512 VBMI engine reads that table, and this CPU has none"
            continue
        fi ;;
    pquad|bpair|prow) # the AVX2 engine reads these (and the AVX-512 VBMI one the pquad table)
        if ! grep -qw avx2 /proc/cpuinfo 2>/dev/null || [ -n "$RUN" ]; then
            echo "fault $fault: not checked here: only the x86 AVX2 and AVX-512 VBMI engines read that table"
            continue
        fi ;;
    esac
    for name in "$@"; do
        line=$(grammars | awk -v n="$name" '$1 == n')
        set -- $line
        shift
        opts=$1
        shift
        dir=$OUT/fault-$fault-$name
        # shellcheck disable=SC2086
        EXTRA=
        case $fault in spec|resync) EXTRA=-DTEST_WRONG_GUESS ;; esac
        table= # the triple fault where the triple table is the test's choice (check, above)
        [ "$fault" = triple ] && table=triple
        UTFDFA_ENGINE_TABLE=$table UTFDFA_ENGINE_FAULT=$fault build "$name" "$dir" "$opts" "$@"
        if [ "$fault" = table ] && grep -q "states fit \(32\|64\) lanes" "$dir/engine.gen.h" &&
           { ! grep -qw avx512vbmi /proc/cpuinfo 2>/dev/null || [ -n "$RUN" ]; }; then
            echo "fault table, $name: not checked here: above 16 states only the AVX-512 VBMI engine reads that table"
            continue
        fi
        if $RUN "$dir/test_run" "$name" > "$dir/out" 2> "$dir/err"; then
            echo "run.sh: fault $fault in $name's engine went unseen" >&2
            missed=$((missed + 1))
        else
            caught=$((caught + 1))
            echo "fault $fault, $name: caught: $(head -n 1 "$dir/err")"
        fi
    done
done <<EOF
$(echo "$FAULTS" | tr ';' '\n')
EOF
echo "check-engine-faults: $caught passed, $missed failed (each a deliberately broken engine the test caught)"
[ "$missed" = 0 ]
