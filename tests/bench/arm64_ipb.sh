#!/bin/sh
# SPDX-License-Identifier: MIT
# make bench-arm64: dynamic instructions per input byte on AArch64, counted
# by qemu-aarch64 (-singlestep -d exec,nochain: one log line per executed
# instruction), each operation run once and twice over the same input and
# the counts subtracted (what is left is one operation's, without start-up
# and set-up), for each corpus of SHARED/corpus/lipsum and each level
# (IPB_LEVELS: neon and scalar; empty: the peers alone); a count, not a
# timing, so the machine's load does not change it. IPB_BYTES: the bytes of each corpus file read
# (default 16384, cut back to a character boundary). The peers built into
# the drivers of IPB_PEERS (tests/bench/ipb_peers.cpp: simdjson, simdutf)
# follow the levels, counted the same way over the same bytes, each in the
# tables of the operations it has.
# Environment: B, SHARED, IPB_LEVELS, IPB_BYTES, IPB_OPS, QEMU, IPB (the
# cross-built driver, tests/bench/ipb.c), IPB_PEERS (the peers' drivers; empty:
# no peers).
set -eu
: "${B:=build}" "${SHARED:=../shared}" "${IPB_BYTES:=16384}"
: "${IPB_LEVELS=neon scalar}" "${IPB_OPS:=validate ascii-utf8 utf8-utf16le utf8-utf32 utf16le-utf8 utf32le-utf8 utf16le-utf32le utf32le-utf16le utf7-utf32le utf7-utf16le}"
: "${QEMU:=qemu-aarch64 -L /usr/aarch64-linux-gnu}" "${IPB:=$B/cross/aarch64/bench/ipb}"
: "${IPB_PEERS:=}"
dir="$SHARED/corpus/lipsum"
[ -d "$dir" ] || { echo "bench-arm64: no corpus at $dir: skipped"; exit 0; }

# Instructions of `DRIVER ARGS...`.
count() {
    prog=$1; shift
    $QEMU -singlestep -d exec,nochain "$prog" "$@" 2>&1 >/dev/null | grep -c '^Trace'
}

# Instructions per byte of one operation: `DRIVER ARGS... REPS` for REPS = 1
# and 2, the difference over the input's bytes ($bytes). A driver that fails
# (a peer disagreeing with utfdfa) stops the script.
per_byte() {
    $QEMU "$@" 1 > /dev/null || { echo "bench-arm64: $* failed" >&2; exit 1; }
    one=$(count "$@" 1)
    two=$(count "$@" 2)
    awk -v a="$one" -v b="$two" -v n="$bytes" 'BEGIN { printf "%.2f", (b - a) / n }'
}

# Each peer with operation $1 as DRIVER:PEER, in IPB_PEERS's and each
# driver's order.
peers_of() {
    printf '%s\n' "$peer_ops" | awk -v op="$1" 'NF == 3 && $3 == op { print $1 ":" $2 }'
}
peer_ops=$(for d in $IPB_PEERS; do $QEMU "$d" --list | sed "s|^|$d |"; done)

echo "bench-arm64: instructions per input byte under qemu-aarch64, first $IPB_BYTES bytes of each corpus"
[ -z "$IPB_PEERS" ] ||
    echo "bench-arm64: peers: $(for d in $IPB_PEERS; do $QEMU "$d" --versions; done | paste -sd';' | sed 's/;/; /g')"
for op in $IPB_OPS; do
    echo
    echo "### $op"
    echo
    header="| corpus | bytes |"; rule="|---|---|"
    for level in $IPB_LEVELS $(peers_of "$op" | sed 's/.*://'); do
        header="$header $level |"; rule="$rule---|"
    done
    echo "$header"; echo "$rule"
    for f in "$dir"/*.utf8.txt; do
        name=$(basename "$f" .utf8.txt | sed 's/-Lipsum//')
        # ascii-utf8 is the ASCII case: Latin text only.
        [ "$op" != ascii-utf8 ] || [ "$name" = Latin ] || continue
        bytes=$($QEMU "$IPB" "$op" scalar "$f" "$IPB_BYTES" 1 | cut -d' ' -f1)
        row="| $name | $bytes |"
        for level in $IPB_LEVELS; do
            row="$row $(per_byte "$IPB" "$op" "$level" "$f" "$IPB_BYTES") |"
        done
        for peer in $(peers_of "$op"); do
            row="$row $(per_byte "${peer%:*}" "${peer##*:}" "$op" "$f" "$IPB_BYTES") |"
        done
        echo "$row"
    done
done
