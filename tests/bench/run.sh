#!/bin/sh
# SPDX-License-Identifier: MIT
# `make bench`: install the peers (as root, with apt-get), build tests/bench
# with every peer that is there, run it. A peer that is missing is skipped
# with a note, never an error; a result that disagrees with the reference
# decoder is an error.
#
# Environment (the Makefile passes them): B (build dir), CC, CXX,
# BENCH_CFLAGS (the benchmark's and the fast paths' flags), LIB_CFLAGS (the
# flags build/libutfdfa.a was built with), SHARED (../shared),
# BENCH_LIB (a library to measure instead of build/libutfdfa-hooks.a,
# libutfdfa.a with the level-forcing hooks; it needs utfdfa__fast_force),
# BENCH_BASE_SO (a libutfdfa.so measured beside it, utf7dec: base_lib.c) and
# BENCH_NO_INSTALL=1 to leave the system alone; SIMDUTF (a directory holding
# simdutf's amalgamation, simdutf.h and simdutf.cpp, fetched and made
# outside this repository) adds utfdfa against simdutf level by level.
set -eu

B=${B:-build}
CC=${CC:-cc}
CXX=${CXX:-g++}
BENCH_CFLAGS=${BENCH_CFLAGS:--O2}
LIB_CFLAGS=${LIB_CFLAGS:--O2 -g}
SHARED=${SHARED:-../shared}
# The library with its test hooks (mk/lib.mk): BENCH_LEVEL forces a level.
LIB=${BENCH_LIB:-$B/libutfdfa-hooks.a} # another build of the library to measure, if wanted
OUT=$B/bench
WARN="-std=c11 -Wall -Wextra -Wpedantic -Werror"
mkdir -p "$OUT"

# ---------------------------------------------------------------- peers
# glibc's iconv is part of libc; the others are Debian packages.
PKGS="pkg-config g++ libicu-dev libunistring-dev libglib2.0-dev libutf8proc-dev libsimdjson-dev"
missing=""
if command -v dpkg >/dev/null 2>&1; then
    for p in $PKGS; do
        dpkg -s "$p" 2>/dev/null | grep -q '^Status: install ok installed' || missing="$missing $p"
    done
fi
if [ -n "$missing" ] && [ "${BENCH_NO_INSTALL:-0}" != 1 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "bench: installing$missing with apt-get"
        flock /tmp/utfdfa-apt.lock sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"' apt-install $missing \
            >"$OUT/apt.log" 2>&1 || echo "bench: apt-get install failed (see $OUT/apt.log); the missing peers are skipped"
    else
        echo "bench: not installed:$missing (sudo apt-get install$missing); those peers are skipped"
    fi
fi

DEFS=""
PEER_CFLAGS=""
LIBS=""
LINK=$CC
OBJS=""
have_pc() { command -v pkg-config >/dev/null 2>&1 && pkg-config --exists "$1" 2>/dev/null; }
# System headers of other libraries are not ours to warn about.
pc_cflags() { pkg-config --cflags "$1" | sed 's/-I/-isystem /g'; }

if have_pc icu-uc; then
    DEFS="$DEFS -DHAVE_ICU"; PEER_CFLAGS="$PEER_CFLAGS $(pc_cflags icu-uc)"; LIBS="$LIBS $(pkg-config --libs icu-uc)"
else
    echo "bench: ICU not found (libicu-dev): skipped"
fi
if printf '#include <unistr.h>\nint main(void){return u8_check((const uint8_t *)"", 0) != 0;}\n' |
    $CC -x c - -lunistring -o "$OUT/try-unistring" >/dev/null 2>&1; then
    DEFS="$DEFS -DHAVE_UNISTRING"; LIBS="$LIBS -lunistring"
else
    echo "bench: libunistring not found (libunistring-dev): skipped"
fi
if have_pc glib-2.0; then
    DEFS="$DEFS -DHAVE_GLIB"; PEER_CFLAGS="$PEER_CFLAGS $(pc_cflags glib-2.0)"; LIBS="$LIBS $(pkg-config --libs glib-2.0)"
else
    echo "bench: GLib not found (libglib2.0-dev): skipped"
fi
if have_pc libutf8proc; then
    DEFS="$DEFS -DHAVE_UTF8PROC"; PEER_CFLAGS="$PEER_CFLAGS $(pc_cflags libutf8proc)"; LIBS="$LIBS $(pkg-config --libs libutf8proc)"
else
    echo "bench: utf8proc not found (libutf8proc-dev): skipped"
fi
# simdjson is C++: a shim built with g++ gives C its validate_utf8.
if have_pc simdjson && command -v "$CXX" >/dev/null 2>&1 &&
    $CXX -O2 -std=c++17 $(pkg-config --cflags simdjson) -c tests/bench/simdjson_shim.cpp \
        -o "$OUT/simdjson_shim.o" 2>"$OUT/simdjson_shim.log"; then
    DEFS="$DEFS -DHAVE_SIMDJSON"; LIBS="$LIBS $(pkg-config --libs simdjson)"
    OBJS="$OBJS $OUT/simdjson_shim.o"; LINK=$CXX
else
    echo "bench: simdjson not found (libsimdjson-dev, g++): skipped"
fi

# simdutf, only when SIMDUTF names its amalgamation: built here with
# g++ -O3 (once per change of simdutf.cpp), reached through a C++ shim.
SIMDUTF_OBJS=""
BENCH_DEFS=""
if [ -n "${SIMDUTF:-}" ]; then
    if [ ! -f "$SIMDUTF/simdutf.cpp" ] || [ ! -f "$SIMDUTF/simdutf.h" ]; then
        echo "bench: SIMDUTF=$SIMDUTF holds no simdutf.cpp and simdutf.h (its amalgamation)" >&2
        exit 2
    fi
    if [ ! -f "$OUT/simdutf.o" ] || [ "$SIMDUTF/simdutf.cpp" -nt "$OUT/simdutf.o" ]; then
        echo "bench: building simdutf from $SIMDUTF (g++ -O3, about a minute)"
        $CXX -O3 -std=c++17 -c "$SIMDUTF/simdutf.cpp" -o "$OUT/simdutf.o"
    fi
    $CXX -O3 -std=c++17 -Wall -Wextra -isystem "$SIMDUTF" -c tests/bench/simdutf_shim.cpp \
        -o "$OUT/simdutf_shim.o"
    $CC $WARN $BENCH_CFLAGS -I include -I tests/common -I tests/ref -c tests/bench/simdutf_cmp.c \
        -o "$OUT/simdutf_cmp.o"
    BENCH_DEFS="-DHAVE_SIMDUTF"
    SIMDUTF_OBJS="$OUT/simdutf_cmp.o $OUT/simdutf_shim.o $OUT/simdutf.o"
    LINK=$CXX
fi

# CPython's utf_7 codec, embedded (python3-config --embed), for utf7dec.
if command -v python3-config >/dev/null 2>&1 &&
    $CC $BENCH_CFLAGS $(python3-config --includes | sed 's/-I/-isystem /g') -I tests/bench \
        -c tests/bench/python_peer.c -o "$OUT/python_peer.o" 2>"$OUT/python_peer.log" &&
    printf 'int main(void){return 0;}\n' | $CC -x c - $(python3-config --embed --ldflags) \
        -o "$OUT/try-python" >>"$OUT/python_peer.log" 2>&1; then
    DEFS="$DEFS -DHAVE_PYTHON"; LIBS="$LIBS $(python3-config --embed --ldflags)"
    OBJS="$OBJS $OUT/python_peer.o"
else
    echo "bench: CPython's headers or libpython (python3-dev) not found: its utf_7 peer is skipped"
fi

# ---------------------------------------------------------------- build
# The fast paths are compiled here from src/, with every variant
# (tests/fast/utf8_variants.c); the public API is build/libutfdfa-hooks.a (the
# library `make` built, with its level-forcing hooks).
ARCH_NOTE="no -march: x86-64 baseline (SSE2); the fast paths' BMI2/AVX2 variants are compiled with target attributes and chosen at run time"
FLAGS_NOTE="benchmark and fast paths: $BENCH_CFLAGS ($ARCH_NOTE); $LIB: $LIB_CFLAGS; peers: Debian's builds"
FAST_OBJS=
for f in src/fast/utf8/*.c tests/fast/utf8_variants.c; do
    o="$OUT/fast_$(basename "$f" .c).o"
    $CC $WARN $BENCH_CFLAGS -I "$B/gen" -I src/fast/utf8 -I src/fast -c "$f" -o "$o"
    FAST_OBJS="$FAST_OBJS $o"
done
$CC $WARN $BENCH_CFLAGS -c tests/ref/ref_utf8.c -o "$OUT/ref_utf8.o"
$CC $WARN $BENCH_CFLAGS -c tests/ref/ref_utf7.c -o "$OUT/ref_utf7.o"
$CC $WARN $BENCH_CFLAGS $DEFS $PEER_CFLAGS -c tests/bench/peers.c -o "$OUT/peers.o"
$CC $WARN $BENCH_CFLAGS -I include -c tests/bench/base_lib.c -o "$OUT/base_lib.o"
$CC $WARN $BENCH_CFLAGS $DEFS $PEER_CFLAGS -c tests/bench/transcode_peers.c -o "$OUT/transcode_peers.o"
$CC $WARN $BENCH_CFLAGS -I include -I tests/ref -c tests/bench/transcode.c -o "$OUT/transcode.o"
$CC $WARN $BENCH_CFLAGS -I include -I tests/ref -c tests/bench/sizes.c -o "$OUT/sizes.o"
$CC $WARN $BENCH_CFLAGS $BENCH_DEFS -DBENCH_FLAGS="\"$FLAGS_NOTE\"" \
    -I include -I tests/common -I "$B/gen" -I src/fast/utf8 -I tests/fast -I tests/ref \
    -c tests/bench/bench.c -o "$OUT/bench.o"
$CC $WARN $BENCH_CFLAGS -c tests/common/common.c -o "$OUT/test_common.o"
$LINK "$OUT/bench.o" "$OUT/test_common.o" "$OUT/peers.o" "$OUT/base_lib.o" "$OUT/transcode.o" "$OUT/sizes.o" "$OUT/transcode_peers.o" $FAST_OBJS "$OUT/ref_utf8.o" "$OUT/ref_utf7.o" $OBJS $SIMDUTF_OBJS "$LIB" \
    $LIBS -o "$OUT/bench"

# ---------------------------------------------------------------- run
echo "bench: running $OUT/bench (a few minutes; the table also goes to $OUT/bench.md)"
# The status is kept whatever it is (set -e would leave the brace group at
# a failure, and a stale status file with it).
rm -f "$OUT/status"
{ status=0; "$OUT/bench" "$SHARED" || status=$?; echo "$status" >"$OUT/status"; } | tee "$OUT/bench.md"
exit "$(cat "$OUT/status")"
