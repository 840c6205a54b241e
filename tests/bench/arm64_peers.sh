#!/bin/sh
# SPDX-License-Identifier: MIT
# make bench-arm64's peers: builds the drivers OUT/ipb_simdjson and
# OUT/ipb_simdutf (tests/bench/ipb_peers.cpp), each when its peer is there,
# for tests/bench/arm64_ipb.sh to count beside utfdfa's levels. simdjson is
# Debian's AArch64 build (libsimdjson-dev:arm64, multiarch, a shared
# library); simdutf is not packaged, so SIMDUTF names a directory holding its
# amalgamation (simdutf.h, simdutf.cpp), made outside this repository and
# cross-built into OUT, its driver linked statically (a quarter of the
# instructions qemu logs at start-up, so a quicker count; the difference
# counted is the same). As root the missing packages (the C++ cross
# compiler, libsimdjson-dev:arm64 after dpkg --add-architecture arm64) are
# installed with apt-get; otherwise, or with BENCH_NO_INSTALL=1, a missing
# peer is skipped with a note, never an error. A driver not built this time
# is removed (no stale column).
# Environment: OUT (the bench directory), LIB (the cross-built
# libutfdfa.a), SIMDUTF, BENCH_NO_INSTALL.
set -eu
: "${OUT:?}" "${LIB:?}" "${SIMDUTF:=}" "${BENCH_NO_INSTALL:=0}"
CXX=aarch64-linux-gnu-g++
CC=aarch64-linux-gnu-gcc
SJ_LIB=/usr/lib/aarch64-linux-gnu/libsimdjson.so
SJ_PKG=libsimdjson-dev:arm64
WARN="-Wall -Wextra -Wpedantic -Werror"
mkdir -p "$OUT"
rm -f "$OUT/ipb_simdjson" "$OUT/ipb_simdutf"

installed() { dpkg -s "$1" 2>/dev/null | grep -q '^Status: install ok installed'; }
missing=""
command -v "$CXX" >/dev/null 2>&1 || missing="$missing g++-aarch64-linux-gnu"
installed "$SJ_PKG" || missing="$missing $SJ_PKG"
if [ -n "$missing" ] && [ "$BENCH_NO_INSTALL" != 1 ] && [ "$(id -u)" = 0 ] &&
    command -v apt-get >/dev/null 2>&1; then
    echo "bench-arm64: installing$missing with apt-get"
    # the arm64 package needs the architecture known to dpkg first
    dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64
    flock /tmp/utfdfa-apt.lock sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"' \
        apt-install $missing >"$OUT/apt.log" 2>&1 ||
        echo "bench-arm64: apt-get install failed (see $OUT/apt.log); the missing peers are skipped"
fi
if ! command -v "$CXX" >/dev/null 2>&1; then
    echo "bench-arm64: no $CXX (g++-aarch64-linux-gnu): the peers are skipped"
    exit 0
fi

$CC -std=c11 $WARN -O2 -I include -c tests/bench/ipb_input.c -o "$OUT/ipb_input.o"
# driver NAME DEFS INCLUDES OBJECTS-AND-LIBRARIES: OUT/ipb_NAME.
driver() {
    $CXX -std=c++17 $WARN -O3 $2 -I include $3 -c tests/bench/ipb_peers.cpp -o "$OUT/ipb_$1.o"
    $CXX -O3 "$OUT/ipb_$1.o" "$OUT/ipb_input.o" $4 -o "$OUT/ipb_$1"
}

if [ -f "$SJ_LIB" ] && [ -f /usr/include/simdjson.h ]; then
    # its header alone: /usr/include is the host's, not the target's
    mkdir -p "$OUT/simdjson-include"
    ln -sf /usr/include/simdjson.h "$OUT/simdjson-include/simdjson.h"
    driver simdjson -DHAVE_SIMDJSON "-isystem $OUT/simdjson-include" \
        "$LIB $SJ_LIB -Wl,-rpath,$(dirname "$SJ_LIB")"
else
    echo "bench-arm64: simdjson for arm64 not found (sudo dpkg --add-architecture arm64 &&" \
        "sudo apt-get update && sudo apt-get install $SJ_PKG): its column is skipped"
fi
if [ -n "$SIMDUTF" ]; then
    if [ ! -f "$SIMDUTF/simdutf.cpp" ] || [ ! -f "$SIMDUTF/simdutf.h" ]; then
        echo "bench-arm64: SIMDUTF=$SIMDUTF holds no simdutf.cpp and simdutf.h (its amalgamation)" >&2
        exit 1
    fi
    # built again when the amalgamation changes or another one is named
    if [ ! -f "$OUT/simdutf.o" ] || [ "$SIMDUTF/simdutf.cpp" -nt "$OUT/simdutf.o" ] ||
        [ "$(cat "$OUT/simdutf.from" 2>/dev/null)" != "$SIMDUTF" ]; then
        echo "bench-arm64: cross-building simdutf from $SIMDUTF ($CXX -O3, about a minute)"
        $CXX -O3 -std=c++17 -c "$SIMDUTF/simdutf.cpp" -o "$OUT/simdutf.o"
        printf '%s\n' "$SIMDUTF" > "$OUT/simdutf.from"
    fi
    driver simdutf -DHAVE_SIMDUTF "-isystem $SIMDUTF" "$OUT/simdutf.o $LIB -static"
fi
