#!/bin/sh
# SPDX-License-Identifier: MIT
# make bench-arm64: dynamic instructions per input byte on AArch64, counted
# by qemu-aarch64 (-singlestep -d exec,nochain: one log line per executed
# instruction), each operation run once and twice over the same input and
# the counts subtracted (what is left is one operation's, without start-up
# and set-up), for each corpus of SHARED/corpus/lipsum and each level
# (IPB_LEVELS: neon and scalar); a count, not a timing, so the machine's
# load does not change it. IPB_BYTES: the bytes of each corpus file read
# (default 16384, cut back to a character boundary).
# Environment: B, SHARED, IPB_LEVELS, IPB_BYTES, IPB_OPS, QEMU, IPB (the
# cross-built driver, tests/bench/ipb.c).
set -eu
: "${B:=build}" "${SHARED:=../shared}" "${IPB_BYTES:=16384}"
: "${IPB_LEVELS:=neon scalar}" "${IPB_OPS:=validate ascii-utf8 utf8-utf16le utf8-utf32 utf16le-utf8}"
: "${QEMU:=qemu-aarch64 -L /usr/aarch64-linux-gnu}" "${IPB:=$B/cross/aarch64/bench/ipb}"
dir="$SHARED/corpus/lipsum"
[ -d "$dir" ] || { echo "bench-arm64: no corpus at $dir: skipped"; exit 0; }

# Instructions of `ipb OP LEVEL FILE BYTES REPS`.
count() {
    $QEMU -singlestep -d exec,nochain "$IPB" "$@" 2>&1 >/dev/null | grep -c '^Trace'
}

echo "bench-arm64: instructions per input byte under qemu-aarch64, first $IPB_BYTES bytes of each corpus"
for op in $IPB_OPS; do
    echo
    echo "### $op"
    echo
    header="| corpus | bytes |"; rule="|---|---|"
    for level in $IPB_LEVELS; do header="$header $level |"; rule="$rule---|"; done
    echo "$header"; echo "$rule"
    for f in "$dir"/*.utf8.txt; do
        name=$(basename "$f" .utf8.txt | sed 's/-Lipsum//')
        # ascii-utf8 is the ASCII case: Latin text only.
        [ "$op" != ascii-utf8 ] || [ "$name" = Latin ] || continue
        bytes=$($QEMU "$IPB" "$op" scalar "$f" "$IPB_BYTES" 1 | cut -d' ' -f1)
        row="| $name | $bytes |"
        for level in $IPB_LEVELS; do
            one=$(count "$op" "$level" "$f" "$IPB_BYTES" 1)
            two=$(count "$op" "$level" "$f" "$IPB_BYTES" 2)
            row="$row $(awk -v a="$one" -v b="$two" -v n="$bytes" 'BEGIN { printf "%.2f", (b - a) / n }') |"
        done
        echo "$row"
    done
done
