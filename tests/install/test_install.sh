#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The install test (issue 7), run by `make check-install` from the repository root:
#
#  1. `make install` into a temporary DESTDIR with PREFIX=/opt/utfdfa-test, then
#     check what landed there: the exact file list, modes, library links, the
#     soname, that only the header's utfdfa_* functions are exported, the
#     pkg-config file, and that every man page renders without a warning and
#     documents every public function, type and constant of the header.
#  2. Play a user with the source tree gone: in a private mount namespace an
#     empty tmpfs covers the repository (when unshare works; otherwise the tree
#     is only kept off every path, and the test says so), the environment is
#     emptied and PATH is the DESTDIR's bin. There: the CLI conventions of both
#     commands, utfdfa-gen on a user grammar (RFC 3986 IPv4address) and on the
#     installed utf8.abnf, a program holding both DFAs (checked against Python's
#     ipaddress module), a consumer built with `pkg-config --cflags --libs
#     utfdfa` statically and against the shared library, and fully static
#     (`cc -static` with `pkg-config --static --libs`), a CMake project using
#     find_package(utfdfa) (both imported targets, refused versions, the
#     installed tree moved elsewhere), the installed examples built by their
#     own Makefile, the re2c example on the installed definitions, and man(1)
#     finding the pages.
#  3. `make uninstall` leaves nothing it installed, and leaves other files alone.
#  4. The same round trip with the default PREFIX (/usr/local in a DESTDIR).
#  5. `make install-strip`: the same files, stripped, still linking and running.
#
# Environment (from the Makefile): MAKE, CC, WARN, PYTHON, GRAMMARS, MAN_DATE.
# Last line: "test_install: N passed, M failed"; exit status 1 when M > 0.

# Compiler flags ($WARN, pkg-config's output) are split into words on purpose.
# shellcheck disable=SC2086,SC2046,SC2016
set -u

pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() {
    fail=$((fail + 1))
    printf 'FAIL: %s\n' "$*" >&2
}
# `condition; verdict $? "what"` counts the condition's status ($? is passed
# first: expanding a $(...) in the message would change it).
verdict() {
    if [ "$1" -eq 0 ]; then ok; else bad "$2"; fi
}
note() { printf 'note: %s\n' "$*"; }

# run CMD...: stdout in OUT, stderr in ERR, status in RC (stdin from /dev/null).
run() {
    OUT=$("$@" 2>"$SCRATCH/stderr" </dev/null)
    RC=$?
    ERR=$(cat "$SCRATCH/stderr")
}
# feed BYTES CMD...: the same with printf '%b' BYTES on stdin.
feed() {
    local bytes=$1
    shift
    OUT=$(printf '%b' "$bytes" | "$@" 2>"$SCRATCH/stderr")
    RC=$?
    ERR=$(cat "$SCRATCH/stderr")
}
contains() { case $1 in *"$2"*) return 0 ;; *) return 1 ;; esac; }

# ------------------------------------------------------------------ user phase

# Runs as `test_install.sh --user-phase WORK DESTDIR PREFIX VERSION` from a copy
# of this script in WORK/src, with an empty environment but PATH, HOME, LC_ALL,
# CC, WARN and HIDDEN_REPO.
user_phase() {
    local W=$1 D=$2 PREFIX=$3 VERSION=$4
    local P=$D$PREFIX S=$W/src MAJOR=${VERSION%%.*}
    SCRATCH=$W/user
    mkdir -p "$SCRATCH" && cd "$SCRATCH" || exit 1

    if [ -n "${HIDDEN_REPO:-}" ]; then
        [ ! -e "$HIDDEN_REPO/Makefile" ]; verdict $? "the source tree is hidden"
    fi
    [ "$(command -v utfdfa)" = "$P/bin/utfdfa" ]; verdict $? "utfdfa is found on PATH in the DESTDIR"
    [ "$(command -v utfdfa-gen)" = "$P/bin/utfdfa-gen" ]; verdict $? "utfdfa-gen is found on PATH"

    # ---- utfdfa: --help, --version, -l, utfdfa: errors, -f/-t/-c, long options
    run utfdfa --version
    [ $RC = 0 ] && [ "$OUT" = "utfdfa $VERSION" ]; verdict $? "utfdfa --version prints 'utfdfa $VERSION'"
    run utfdfa -V
    [ $RC = 0 ] && [ "$OUT" = "utfdfa $VERSION" ]; verdict $? "utfdfa -V"
    run utfdfa --help
    local help=$OUT
    [ $RC = 0 ] && contains "$OUT" "Usage: utfdfa"; verdict $? "utfdfa --help"
    for opt in --from --to --errors -c --bom --output --list --help --version check; do
        contains "$help" "$opt"; verdict $? "utfdfa --help mentions $opt"
    done
    run utfdfa -h
    [ $RC = 0 ] && [ "$OUT" = "$help" ]; verdict $? "utfdfa -h is --help"
    run utfdfa check --help
    [ $RC = 0 ] && [ "$OUT" = "$help" ]; verdict $? "utfdfa check --help"
    run utfdfa check --version
    [ $RC = 0 ] && [ "$OUT" = "utfdfa $VERSION" ]; verdict $? "utfdfa check --version"
    run utfdfa -l
    local list=$OUT
    [ $RC = 0 ]; verdict $? "utfdfa -l"
    for enc in utf-8 utf-16le utf-16be utf-32le utf-32be; do
        printf '%s\n' "$list" | grep -q -- "^$enc " ; verdict $? "utfdfa -l lists $enc"
    done
    printf '%s\n' "$list" | grep -q -- "^utf-8 .*utf8"; verdict $? "utfdfa -l lists utf-8's aliases"
    run utfdfa --list
    [ $RC = 0 ] && [ "$OUT" = "$list" ]; verdict $? "utfdfa --list is -l"

    run utfdfa --bogus
    [ $RC = 2 ] && [ "${ERR#utfdfa: }" != "$ERR" ] && contains "$ERR" "--bogus"
    verdict $? "unknown option: exit 2, 'utfdfa: ...' naming it (got $RC: $ERR)"
    run utfdfa -t nope
    [ $RC = 2 ] && [ "${ERR#utfdfa: unknown encoding \'nope\'}" != "$ERR" ]
    verdict $? "unknown encoding: exit 2, 'utfdfa: unknown encoding 'nope'' (got $RC: $ERR)"
    run utfdfa --errors=sometimes
    [ $RC = 2 ] && [ "${ERR#utfdfa: }" != "$ERR" ]; verdict $? "unknown error mode: exit 2"
    run utfdfa missing.txt
    [ $RC = 1 ] && [ "$ERR" = "utfdfa: missing.txt: No such file or directory" ]
    verdict $? "missing file: exit 1 (as iconv), 'utfdfa: missing.txt: No such file or directory' (got $RC: $ERR)"

    feed 'a\377b' utfdfa
    [ $RC = 1 ] && [ "$OUT" = a ] &&
        [ "$ERR" = "utfdfa: <stdin>: invalid utf-8 (invalid-lead) at byte offset 1, line 1, column 2" ]
    verdict $? "strict: what precedes the error, then 'utfdfa: <stdin>: ...', exit 1 (got $RC: $ERR)"
    feed 'a\377b\300\257c' utfdfa -c
    [ $RC = 0 ] && [ "$OUT" = abc ]; verdict $? "-c drops ill-formed bytes (iconv's -c)"
    feed 'a\377b\300\257c' utfdfa --errors=ignore
    [ $RC = 0 ] && [ "$OUT" = abc ]; verdict $? "--errors=ignore"
    feed 'a\377b\300\257c' utfdfa --errors replace
    [ $RC = 0 ] && [ "$OUT" = "$(printf 'a\357\277\275b\357\277\275\357\277\275c')" ]
    verdict $? "--errors replace: one U+FFFD per maximal subpart"

    # Transcoding against Python's codecs, in every option spelling.
    printf 'h\303\251llo \342\202\254 \360\237\230\200\nline 2\n' > sample.txt
    python3 -c 'import sys; t = open(sys.argv[1], "rb").read().decode("utf-8")
for enc in ("utf-16-le", "utf-32-be"):
    open("want." + enc, "wb").write(t.encode(enc))' sample.txt
    utfdfa -f utf-8 -t utf-16le sample.txt > got.1 && cmp -s got.1 want.utf-16-le
    verdict $? "-f utf-8 -t utf-16le matches Python"
    utfdfa --from=utf-8 --to=UTF-16LE sample.txt > got.2 && cmp -s got.2 want.utf-16-le
    verdict $? "--from=utf-8 --to=UTF-16LE"
    utfdfa --from utf-8 --to utf-16le - < sample.txt > got.3 && cmp -s got.3 want.utf-16-le
    verdict $? "--from utf-8 --to utf-16le from standard input (-)"
    utfdfa -t utf-32be -o got.4 sample.txt && cmp -s got.4 want.utf-32-be
    verdict $? "-t utf-32be -o FILE matches Python"
    utfdfa --output=got.5 -f utf-16le want.utf-16-le && cmp -s got.5 sample.txt
    verdict $? "--output=FILE -f utf-16le: round trip"
    printf 'x\377\n' > bad.txt
    run utfdfa check sample.txt bad.txt
    [ $RC = 1 ] && [ "$ERR" = "bad.txt:1:2: invalid utf-8 (invalid-lead) at byte offset 1" ]
    verdict $? "check: 'FILE:L:C: ...', exit 1 (got $RC: $ERR)"
    run utfdfa check sample.txt
    [ $RC = 0 ] && [ -z "$OUT$ERR" ]; verdict $? "check of a valid file: silent, exit 0"

    # ---- utfdfa-gen: conventions
    run utfdfa-gen --version
    [ $RC = 0 ] && [ "$OUT" = "utfdfa-gen $VERSION" ]; verdict $? "utfdfa-gen --version (got $RC: $OUT)"
    run utfdfa-gen --help
    local ghelp=$OUT
    [ $RC = 0 ] && [ "${OUT#usage: utfdfa-gen }" != "$OUT" ]; verdict $? "utfdfa-gen --help names utfdfa-gen"
    for opt in --start --emit --prefix --output --version --terminals utf-8 c re2c dot mermaid json; do
        contains "$ghelp" "$opt"; verdict $? "utfdfa-gen --help mentions $opt"
    done
    run utfdfa-gen -h
    [ $RC = 0 ] && [ "$OUT" = "$ghelp" ]; verdict $? "utfdfa-gen -h is --help"
    run utfdfa-gen
    [ $RC = 2 ] && contains "$ERR" "utfdfa-gen: error:"; verdict $? "utfdfa-gen without a grammar: exit 2"
    run utfdfa-gen "$S/ipv4.abnf" --emit pascal
    [ $RC = 2 ] && contains "$ERR" "utfdfa-gen: error: argument --emit"; verdict $? "--emit pascal: exit 2"
    # Errors without a position start 'utfdfa-gen: '; a grammar error is
    # exactly FILE:LINE:COL: message, with no program name (issue 2, utfdfa-gen(1)).
    run utfdfa-gen missing.abnf
    [ $RC = 1 ] && [ "${ERR#utfdfa-gen: missing.abnf: }" != "$ERR" ]
    verdict $? "missing grammar: exit 1, 'utfdfa-gen: missing.abnf: ...' (got $RC: $ERR)"
    printf 'greeting = "hi" name\n' > bad.abnf
    run utfdfa-gen bad.abnf
    [ $RC = 1 ] && [ "$ERR" = "bad.abnf:1:17: rule 'name' is not defined" ]
    verdict $? "grammar error: exit 1, 'FILE:LINE:COL: message' (got $RC: $ERR)"
    run utfdfa-gen "$S/ipv4.abnf" --emit c -o -
    [ $RC = 0 ] && contains "$OUT" "generated by" && [ ! -e ./- ]; verdict $? "-o - is standard output"
    if [ -c /dev/full ]; then
        run utfdfa-gen "$S/ipv4.abnf" --emit c -o /dev/full
        [ $RC = 1 ] && [ "$ERR" = "utfdfa-gen: /dev/full: No space left on device" ] && [ -c /dev/full ]
        verdict $? "-o /dev/full: one-line error, exit 1, still a device (got $RC: $ERR)"
        utfdfa-gen "$S/ipv4.abnf" --emit c > /dev/full 2> full.err
        RC=$?
        [ $RC = 1 ] && [ "$(cat full.err)" = "utfdfa-gen: standard output: No space left on device" ]
        verdict $? "standard output full: one-line error, exit 1 (got $RC: $(cat full.err))"
    fi

    # ---- utfdfa-gen on a user grammar, every output format
    cp "$S/ipv4.abnf" ipv4.abnf
    run utfdfa-gen ipv4.abnf --start IPv4address --emit c -o ipv4.gen.h --prefix ipv4
    [ $RC = 0 ] && [ -z "$OUT" ] && grep -q '^#define IPV4_GEN_H' ipv4.gen.h &&
        grep -q 'ipv4_step(' ipv4.gen.h && ! grep -qi 'utf8_' ipv4.gen.h
    verdict $? "utfdfa-gen --emit c --prefix ipv4 -o ipv4.gen.h"
    utfdfa-gen ipv4.abnf --start IPv4address --emit c --prefix ipv4 > ipv4.stdout.h &&
        cmp -s ipv4.gen.h ipv4.stdout.h
    verdict $? "standard output and -o give the same bytes (deterministic)"
    utfdfa-gen ipv4.abnf --start IPv4address --emit re2c -o ipv4.defs.re &&
        grep -q '^IPv4address = dec_octet' ipv4.defs.re && grep -q '^dec_octet = ' ipv4.defs.re
    verdict $? "--emit re2c"
    utfdfa-gen ipv4.abnf --start IPv4address --emit re2c --prefix ip -o ip.defs.re &&
        grep -q '^ip_IPv4address = ip_dec_octet' ip.defs.re && grep -q '^ip_dec_octet = ' ip.defs.re &&
        ! grep -q '^dec_octet' ip.defs.re
    verdict $? "--emit re2c --prefix ip: every definition is ip_NAME (issue 7)"
    utfdfa-gen ipv4.abnf --start IPv4address --emit dot -o ipv4.dot && grep -q '^digraph' ipv4.dot
    verdict $? "--emit dot"
    utfdfa-gen ipv4.abnf --start IPv4address --emit mermaid -o ipv4.mmd && grep -q '^flowchart' ipv4.mmd
    verdict $? "--emit mermaid"
    utfdfa-gen ipv4.abnf --start IPv4address --emit json -o ipv4.json &&
        python3 -c 'import json, sys; j = json.load(open(sys.argv[1]))
sys.exit(j["start"] != "IPv4address")' ipv4.json
    verdict $? "--emit json: valid JSON naming the start rule"
    utfdfa-gen "$P/share/utfdfa/grammar/utf8.abnf" --emit c --prefix u8 -o u8.gen.h &&
        grep -q '^#define U8_GEN_H' u8.gen.h
    verdict $? "utfdfa-gen on the installed utf8.abnf, --prefix u8"

    # Several files make one grammar: RFC 6265 defines token in prose, RFC 7230 in ABNF.
    run utfdfa-gen "$S/rfc6265-cookie.abnf" "$S/rfc7230-token.abnf" --start cookie-pair
    [ $RC = 0 ] && contains "$OUT" "start cookie-pair: language DFA"
    verdict $? "utfdfa-gen with two grammar files (got $RC: $ERR)"
    run utfdfa-gen "$S/rfc6265-cookie.abnf" --start cookie-pair
    [ $RC = 1 ] && contains "$ERR" "rule 'token' is prose (<token, defined in [RFC2616], Section 2.2>)"
    verdict $? "utfdfa-gen: a prose rule no file defines is an error naming it (got $RC: $ERR)"

    # ---- a program with both DFAs (and the installed utf8 one), statically linked
    export PKG_CONFIG_PATH=$P/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$D
    local cflags libs
    cflags=$(pkg-config --cflags utfdfa) && libs=$(pkg-config --libs utfdfa)
    verdict $? "pkg-config --cflags --libs utfdfa"
    contains " $cflags " " -I$P/include " && contains " $libs " " -L$P/lib " && contains " $libs " " -lutfdfa "
    verdict $? "pkg-config flags point into the DESTDIR (got '$cflags' '$libs')"
    $CC $WARN -O2 -I. $cflags "$S/ipv4_main.c" -Wl,-Bstatic $libs -Wl,-Bdynamic -o ipv4_main
    verdict $? "compile ipv4_main.c with ipv4.gen.h and u8.gen.h"
    python3 - "$S" <<'EOF'
# Candidates for IPv4address and the verdicts of an independent oracle:
# Python's ipaddress, which (since 3.9.5) takes exactly RFC 3986's dec-octet:
# 0-255 in ASCII digits without leading zeros.
import ipaddress, random, sys
rng = random.Random(3986)
cands = {"", "0.0.0.0", "255.255.255.255", "256.0.0.0", "1.2.3", "1.2.3.4.5", "01.2.3.4",
         "1.2.3.04", "00.0.0.0", "1..2.3", "1.2.3.4 ", " 1.2.3.4", "1.2.3.-4", "a.b.c.d",
         "249.250.251.252", "199.200.99.100", "1.2.3.4a", "9.99.100.255"}
alphabet = "0123456789." * 3 + "x-/: "
while len(cands) < 20000:
    if rng.random() < 0.6:
        octet = lambda: rng.choice([str(rng.randrange(300)), str(rng.randrange(10)),
                                    "0" + str(rng.randrange(100)), str(rng.randrange(1000))])
        cands.add(".".join(octet() for _ in range(rng.choice([3, 4, 4, 4, 4, 5]))))
    else:
        cands.add("".join(rng.choice(alphabet) for _ in range(rng.randrange(16))))
def valid(s):
    try:
        ipaddress.IPv4Address(s)
        return 1
    except ValueError:
        return 0
cands = sorted(cands)
with open("cands.txt", "w") as f:
    f.write("".join(c + "\n" for c in cands))
with open("want.txt", "w") as f:
    f.write("".join("%d\n" % valid(c) for c in cands))
EOF
    if [ -x ipv4_main ]; then
        ./ipv4_main cands.txt > ipv4.out
        RC=$?
        tail -n 1 ipv4.out
        [ $RC = 0 ] && tail -n 1 ipv4.out | grep -q '^ipv4_main: [0-9]* passed, 0 failed$'
        verdict $? "ipv4_main's own checks"
        local mism
        mism=$(head -n -1 ipv4.out | paste -d' ' - want.txt cands.txt | awk '$1 != $2' | head -n 5 | tr '\n' ';')
        [ "$(head -n -1 ipv4.out | wc -l)" = "$(wc -l < want.txt)" ] && [ -z "$mism" ]
        verdict $? "the ipv4 DFA agrees with Python's ipaddress on $(wc -l < want.txt) strings${mism:+: got/want/text $mism}"
    else
        bad "ipv4_main was not built"
    fi

    # ---- the consumer, static and shared, with nothing but pkg-config's flags
    $CC $WARN -O2 "$S/consumer.c" $cflags -Wl,-Bstatic $libs -Wl,-Bdynamic -o consumer-static
    verdict $? "build the consumer statically"
    $CC $WARN -O2 "$S/consumer.c" $(pkg-config --cflags --libs utfdfa) -o consumer-shared
    verdict $? "build the consumer against the shared library"
    ! readelf -d consumer-static | grep -q 'NEEDED.*libutfdfa'
    verdict $? "the static consumer does not need libutfdfa.so"
    readelf -d consumer-shared | grep -q "NEEDED.*\[libutfdfa\.so\.$MAJOR\]"
    verdict $? "the shared consumer needs libutfdfa.so.$MAJOR (the soname)"
    run ./consumer-static
    printf '%s (static)\n' "${OUT##*$'\n'}"
    [ $RC = 0 ] && [[ ${OUT##*$'\n'} =~ ^consumer:\ [0-9]+\ passed,\ 0\ failed$ ]]
    verdict $? "the static consumer passes"
    if ldconfig -p 2>/dev/null | grep -q "libutfdfa\.so\.$MAJOR "; then
        note "a libutfdfa.so.$MAJOR is installed system-wide: not checking that the loader needs LD_LIBRARY_PATH"
    else
        run ./consumer-shared
        [ $RC != 0 ] && contains "$ERR" "libutfdfa.so.$MAJOR"
        verdict $? "the shared consumer does not run without LD_LIBRARY_PATH"
    fi
    LD_LIBRARY_PATH=$P/lib run ./consumer-shared
    printf '%s (shared)\n' "${OUT##*$'\n'}"
    [ $RC = 0 ] && [[ ${OUT##*$'\n'} =~ ^consumer:\ [0-9]+\ passed,\ 0\ failed$ ]]
    verdict $? "the shared consumer passes"
    LD_LIBRARY_PATH=$P/lib ldd ./consumer-shared | grep -q "libutfdfa\.so\.$MAJOR => $P/lib/libutfdfa\.so\.$MAJOR "
    verdict $? "the shared consumer loads the DESTDIR's library"

    # ---- a fully static program: pkg-config --static and cc -static
    local slibs
    slibs=$(pkg-config --static --libs utfdfa)
    verdict $? "pkg-config --static --libs utfdfa"
    $CC $WARN -O2 -static "$S/consumer.c" $cflags $slibs -o consumer-allstatic
    verdict $? "build the consumer with -static and pkg-config --static --libs ($slibs)"
    ! readelf -l consumer-allstatic | grep -q 'INTERP' && ! readelf -d consumer-allstatic | grep -q 'NEEDED'
    verdict $? "the -static consumer has no interpreter and needs no shared library"
    run ./consumer-allstatic
    printf '%s (-static)\n' "${OUT##*$'\n'}"
    [ $RC = 0 ] && [[ ${OUT##*$'\n'} =~ ^consumer:\ [0-9]+\ passed,\ 0\ failed$ ]]
    verdict $? "the -static consumer passes"

    # ---- CMake: find_package(utfdfa) from the DESTDIR, then from a moved copy
    if command -v cmake >/dev/null 2>&1; then
        mkdir -p cmake-src && cp "$S/CMakeLists.txt" "$S/consumer.c" cmake-src/
        cmake_build() { # PREFIX_PATH BUILD_DIR [cmake -D...]: configure and build, output in OUT
            local pp=$1 bd=$2
            shift 2
            OUT=$(cmake -S cmake-src -B "$bd" -DCMAKE_PREFIX_PATH="$pp" "$@" 2>&1 &&
                cmake --build "$bd" 2>&1)
        }
        cmake_build "$P" cm1 -DUTFDFA_WANT=$MAJOR.0
        verdict $? "CMake: find_package(utfdfa $MAJOR.0) and build against utfdfa::utfdfa, utfdfa::utfdfa_static${OUT:+: ${OUT: -400}}"
        contains "$OUT" "utfdfa version: $VERSION" &&
            contains "$OUT" "utfdfa::utfdfa: $P/lib/libutfdfa.so.$VERSION (include: $P/include)" &&
            contains "$OUT" "utfdfa::utfdfa_static: $P/lib/libutfdfa.a (include: $P/include)" &&
            contains "$OUT" "utfdfa_DATADIR: $P/share/utfdfa"
        verdict $? "CMake: the targets point into the DESTDIR"
        for t in shared static; do
            run "cm1/consumer-cmake-$t"
            printf '%s (CMake, %s)\n' "${OUT##*$'\n'}" "$t"
            [ $RC = 0 ] && [[ ${OUT##*$'\n'} =~ ^consumer:\ [0-9]+\ passed,\ 0\ failed$ ]]
            verdict $? "the CMake consumer ($t) passes"
        done
        readelf -d cm1/consumer-cmake-shared | grep -q "NEEDED.*\[libutfdfa\.so\.$MAJOR\]" &&
            ! readelf -d cm1/consumer-cmake-static | grep -q 'NEEDED.*libutfdfa'
        verdict $? "CMake: utfdfa::utfdfa is the shared library, utfdfa::utfdfa_static the static one"
        for want in "$((MAJOR + 1)).0" "$MAJOR.$(( $(printf '%s' "$VERSION" | cut -d. -f2) + 1 ))"; do
            cmake_build "$P" "cm-$want" -DUTFDFA_WANT="$want"
            [ $? != 0 ] && contains "$OUT" "utfdfa"
            verdict $? "CMake: find_package(utfdfa $want) refuses version $VERSION"
        done
        cp -a "$P" "$W/moved"
        cmake_build "$W/moved" cm2
        verdict $? "CMake: the installed tree, moved elsewhere, still builds${OUT:+: ${OUT: -400}}"
        contains "$OUT" "utfdfa::utfdfa_static: $W/moved/lib/libutfdfa.a"
        verdict $? "CMake: a moved tree's targets point into it (relocatable)"
        run cm2/consumer-cmake-static
        [ $RC = 0 ]; verdict $? "the CMake consumer built from the moved tree passes"
        rm -rf "$W/moved"
    else
        bad "cmake is not installed: the CMake package is not tested"
    fi

    # ---- the installed examples, built by their Makefile through pkg-config
    cp -r "$P/share/doc/utfdfa/examples" examples
    if command -v make >/dev/null 2>&1; then
        run make -C examples check
        printf '%s\n' "$OUT" | grep ': [0-9]* passed, [0-9]* failed$'
        [ $RC = 0 ] && [ "$(printf '%s\n' "$OUT" | grep -c ': [0-9]* passed, 0 failed$')" -ge 2 ]
        verdict $? "make -C share/doc/utfdfa/examples check builds and passes the examples (got $RC: ${ERR: -300})"
        [ -x examples/fd_chunks ] && [ -x examples/json_string ] && [ -x examples/utf8_lines ] &&
          contains "$OUT" "utf8_lines: "
        verdict $? "the examples' Makefile built and ran fd_chunks, json_string and utf8_lines"
        if command -v re2c >/dev/null 2>&1; then
            contains "$OUT" "re2c_ident: " ; verdict $? "the examples' Makefile built and ran re2c_ident"
        fi
    else
        note "make is not installed: the installed examples were not built"
    fi

    # ---- the man page's first example compiles as printed
    python3 - "$P/share/man/man3/utfdfa.3" > man_example.c <<'EOF'
import sys
src = open(sys.argv[1]).read()
ex = src.split(".SH EXAMPLES", 1)[1].split(".EX\n", 1)[1].split("\n.EE", 1)[0]
print(ex.replace("\\-", "-").replace("\\e", "\\"))
EOF
    $CC -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Wpedantic -Werror $cflags \
        -c man_example.c -o man_example.o
    verdict $? "the EXAMPLES code of utfdfa(3) compiles"

    # ---- example 2 on the installed re2c definitions
    if command -v re2c >/dev/null 2>&1; then
        re2c -W -Werror --no-generation-date --no-version -i \
            -I "$(pkg-config --variable=pkgdatadir utfdfa)" "$S/re2c_ident.re" -o re2c_ident.c &&
            $CC $WARN -O2 -I "$(pkg-config --variable=dfaincludedir utfdfa)" re2c_ident.c -o re2c_ident &&
            ./re2c_ident > re2c_ident.out
        verdict $? "re2c_ident.re built on the installed utf8.defs.re and utf8.gen.h passes"
        tail -n 1 re2c_ident.out
    else
        note "re2c is not installed: skipped building the re2c example from the installed definitions"
    fi

    # ---- man finds the pages, including a function's link page
    if command -v man >/dev/null 2>&1; then
        MANWIDTH=80 man -M "$P/share/man" 3 utfdfa_transcode > man3.txt 2>&1 &&
            grep -q 'utfdfa_transcode' man3.txt && grep -q 'Library Functions Manual' man3.txt
        verdict $? "man 3 utfdfa_transcode shows utfdfa(3)"
        MANWIDTH=80 man -M "$P/share/man" 1 utfdfa-gen > man1.txt 2>&1 && grep -q 'utfdfa-gen' man1.txt
        verdict $? "man 1 utfdfa-gen"
    else
        note "man is not installed: skipped looking the pages up with man"
    fi

    printf 'user-phase: %d passed, %d failed\n' "$pass" "$fail"
    [ "$fail" = 0 ]
}

if [ "${1:-}" = --user-phase ]; then
    shift
    user_phase "$@"
    exit $?
fi

# ------------------------------------------------------------------ main

HERE=$(cd "$(dirname "$0")" && pwd -P)
REPO=$(cd "$HERE/../.." && pwd -P)
cd "$REPO" || exit 1
MAKE=${MAKE:-make}
CC=${CC:-cc}
WARN=${WARN:--std=c11 -Wall -Wextra -Wpedantic -Werror}
PYTHON=${PYTHON:-python3}
GRAMMARS=${GRAMMARS:-utf8}
# The test chooses the install variables: none may leak in from the caller's
# make command line (MAKEFLAGS carries it after " -- ") or environment.
MAKEFLAGS=${MAKEFLAGS%%-- *}
export MAKEFLAGS
unset PREFIX DESTDIR BINDIR LIBDIR INCLUDEDIR DFAINCLUDEDIR DATAROOTDIR PKGDATADIR MANDIR PKGCONFIGDIR

WORK=$(mktemp -d "${TMPDIR:-/tmp}/utfdfa-install.XXXXXX") || exit 1
trap 'rm -rf "$WORK"' EXIT
SCRATCH=$WORK
D=$WORK/destdir
PREFIX=/opt/utfdfa-test
P=$D$PREFIX

VERSION=$(sed -n 's/^#define UTFDFA_VERSION "\(.*\)"/\1/p' include/utfdfa.h)
MAJOR=${VERSION%%.*}
MAN_DATE=${MAN_DATE:-$(sed -n 's/^\.TH UTFDFA 1 \([0-9-]*\) .*/\1/p' man/utfdfa.1)}

# The header's public names, found by a parser of its own (not the Makefile's).
"$PYTHON" - include/utfdfa.h > "$WORK/api.txt" <<'EOF'
import re, sys
h = open(sys.argv[1]).read()
h = re.sub(r"/\*.*?\*/", " ", h, flags=re.S)
for f in re.findall(r"UTFDFA_API\s[^;(]*?\b(utfdfa_\w+)\s*\(", h):
    print("function", f)
for kind, name in re.findall(r"\b(enum|struct)\s+(utfdfa_\w+)\s*\{", h):
    print("type", name)
for name in re.findall(r"\}\s*(utfdfa_\w+)\s*;", h):
    print("type", name)
for body in re.findall(r"\benum\s+\w+\s*\{(.*?)\}", h, flags=re.S):
    for name in re.findall(r"\b(UTFDFA_[A-Z0-9_]+)\b", body):
        if not re.search(r"=\s*" + name, body):
            print("constant", name)
print("constant", "UTFDFA_VERSION")
EOF
FUNCS=$(sed -n 's/^function //p' "$WORK/api.txt" | sort)
[ -n "$VERSION" ] && [ -n "$FUNCS" ] && [ -n "$MAN_DATE" ]
verdict $? "version ($VERSION), functions and MAN_DATE found"

# ---- 1. install into a DESTDIR
if ! "$MAKE" -s install DESTDIR="$D" PREFIX="$PREFIX" > "$WORK/install.log" 2>&1; then
    cat "$WORK/install.log" >&2
    bad "make install DESTDIR=... PREFIX=$PREFIX"
    printf 'test_install: %d passed, %d failed\n' "$pass" "$fail"
    exit 1
fi
ok

{
    printf '%s\n' bin/utfdfa bin/utfdfa-gen include/utfdfa.h lib/libutfdfa.a lib/libutfdfa.so \
        "lib/libutfdfa.so.$MAJOR" "lib/libutfdfa.so.$VERSION" lib/pkgconfig/utfdfa.pc \
        share/man/man1/utfdfa.1 share/man/man1/utfdfa-gen.1 share/man/man3/utfdfa.3 \
        lib/cmake/utfdfa/utfdfaConfig.cmake lib/cmake/utfdfa/utfdfaConfigVersion.cmake \
        lib/cmake/utfdfa/utfdfaTargets.cmake share/doc/utfdfa/LICENSE \
        share/doc/utfdfa/examples/Makefile share/doc/utfdfa/examples/fd_chunks.c \
        share/doc/utfdfa/examples/json_string.c share/doc/utfdfa/examples/re2c_ident.re \
        share/doc/utfdfa/examples/utf8_lines.c
    for g in $GRAMMARS; do
        printf '%s\n' "include/utfdfa/$g.gen.h" "share/utfdfa/$g.defs.re"
    done
    for f in grammar/*.abnf; do printf 'share/utfdfa/grammar/%s\n' "${f#grammar/}"; done
    for f in gen/*.py; do printf 'share/utfdfa/gen/%s\n' "${f#gen/}"; done
    for f in $FUNCS; do printf 'share/man/man3/%s.3\n' "$f"; done
} | sort > "$WORK/expected.txt"
(cd "$P" && find . \( -type f -o -type l \) | sed 's|^\./||' | sort) > "$WORK/installed.txt"
[ -z "$(find "$D" \( -type f -o -type l \) ! -path "$P/*")" ]; verdict $? "everything is under DESTDIR/PREFIX"
diff "$WORK/expected.txt" "$WORK/installed.txt" >&2; verdict $? "the installed files are exactly the expected $(wc -l < "$WORK/expected.txt")"

while read -r f; do
    [ -L "$P/$f" ] && continue
    case $f in
        bin/* | "lib/libutfdfa.so.$VERSION") want=755 ;;
        *) want=644 ;;
    esac
    [ "$(stat -c %a "$P/$f")" = $want ]; verdict $? "$f has mode $want"
done < "$WORK/installed.txt"
[ "$(readlink "$P/lib/libutfdfa.so")" = "libutfdfa.so.$MAJOR" ] &&
    [ "$(readlink "$P/lib/libutfdfa.so.$MAJOR")" = "libutfdfa.so.$VERSION" ]
verdict $? "libutfdfa.so -> libutfdfa.so.$MAJOR -> libutfdfa.so.$VERSION (relative links)"
cmp -s "$P/include/utfdfa.h" include/utfdfa.h && cmp -s "$P/bin/utfdfa" build/utfdfa &&
    cmp -s "$P/include/utfdfa/utf8.gen.h" build/gen/utf8.gen.h &&
    cmp -s "$P/share/utfdfa/utf8.defs.re" build/gen/utf8.defs.re
verdict $? "installed copies are the built files"

# ---- the shared library: soname, exports
SO=$P/lib/libutfdfa.so.$VERSION
[ "$(readelf -d "$SO" | sed -n 's/.*Library soname: \[\(.*\)\].*/\1/p')" = "libutfdfa.so.$MAJOR" ]
verdict $? "soname is libutfdfa.so.$MAJOR"
# (Names without their @@VERSION; the version nodes, absolute symbols, left out:
# `make check-abi` checks the versions.)
EXPORTS=$(nm -D --defined-only "$SO" | awk '$2 != "A" {sub(/@.*/, "", $3); print $3}' | sort)
[ -n "$EXPORTS" ] && ! printf '%s\n' "$EXPORTS" | grep -v '^utfdfa_' >&2
verdict $? "the shared library exports only utfdfa_* symbols"
[ "$EXPORTS" = "$FUNCS" ]
verdict $? "its exports are exactly the header's $(printf '%s\n' "$FUNCS" | wc -l) functions$(
    diff <(printf '%s\n' "$FUNCS") <(printf '%s\n' "$EXPORTS") | grep '^[<>]' | tr '\n' ' ')"
! nm -g --defined-only "$P/lib/libutfdfa.a" | awk 'NF == 3 {print $3}' | grep -v '^utfdfa_' >&2
verdict $? "the static library defines no global symbol outside utfdfa_*"
! readelf -d "$SO" | grep -q 'TEXTREL'; verdict $? "the shared library has no text relocations"

# ---- pkg-config file
PKG_CONFIG_PATH=$P/lib/pkgconfig pkg-config --validate utfdfa; verdict $? "pkg-config --validate utfdfa"
[ "$(PKG_CONFIG_PATH=$P/lib/pkgconfig pkg-config --modversion utfdfa)" = "$VERSION" ]
verdict $? "pkg-config --modversion utfdfa is $VERSION"
[ "$(PKG_CONFIG_PATH=$P/lib/pkgconfig pkg-config --variable=prefix utfdfa)" = "$PREFIX" ]
verdict $? "utfdfa.pc has prefix=$PREFIX"
grep -q '^Libs.private:' "$P/lib/pkgconfig/utfdfa.pc" &&
    [ "$(echo $(PKG_CONFIG_PATH=$P/lib/pkgconfig pkg-config --static --libs utfdfa))" = "-L$PREFIX/lib -lutfdfa" ]
verdict $? "utfdfa.pc says what static linking needs (Libs.private: nothing beyond libc)"

# ---- man pages
for page in share/man/man1/utfdfa.1 share/man/man1/utfdfa-gen.1 share/man/man3/utfdfa.3; do
    f=$P/$page
    warnings=$(LC_ALL=C groff -ww -z -man -t "$f" 2>&1) && [ -z "$warnings" ]; verdict $? "groff -ww -z -man $page: no warnings ${warnings:+($warnings)}"
    if command -v man >/dev/null 2>&1; then
        warnings=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$f" 2>&1 > /dev/null) &&
            [ -z "$warnings" ]; verdict $? "man --warnings -l $page: no warnings ${warnings:+($warnings)}"
    fi
    ! grep -n '@[A-Z_]*@' "$f" >&2; verdict $? "$page: every @PLACEHOLDER@ is filled in"
    ! grep -n '/usr/local' "$f" >&2; verdict $? "$page: names PREFIX=$PREFIX's directories, not /usr/local's"
    ! LC_ALL=C grep -q "$(printf '[^\t -~]')" "$f"; verdict $? "$page is plain ASCII"
    grep -q "^\.TH [^ ]* [0-9] $MAN_DATE \"utfdfa $VERSION\"" "$f"
    verdict $? "$page: .TH carries the pinned date $MAN_DATE and version $VERSION"
done
grep -q "$PREFIX/share/utfdfa/grammar/" "$P/share/man/man1/utfdfa-gen.1" &&
    grep -q "$PREFIX/include/utfdfa.h" "$P/share/man/man3/utfdfa.3" &&
    grep -q "$PREFIX/lib/pkgconfig/utfdfa.pc" "$P/share/man/man3/utfdfa.3"
verdict $? "the man pages' FILES name the directories under PREFIX=$PREFIX"
for f in $FUNCS; do
    [ "$(cat "$P/share/man/man3/$f.3")" = ".so man3/utfdfa.3" ]; verdict $? "man3/$f.3 is a link to utfdfa(3)"
done
undocumented=$("$PYTHON" - "$WORK/api.txt" "$P/share/man/man3/utfdfa.3" <<'EOF'
import re, sys
page = open(sys.argv[2]).read().replace("\\-", "-")
need = {"function": 3, "type": 2, "constant": 2}  # NAME+SYNOPSIS+text; SYNOPSIS+text
for line in open(sys.argv[1]):
    what, name = line.split()
    n = len(re.findall(r"(?<![\w])" + re.escape(name) + r"(?![\w])", page))
    if n < need[what]:
        print(f"{what} {name} ({n}x)")
EOF
)
[ -z "$undocumented" ]; verdict $? "utfdfa(3) documents every public function, type and constant${undocumented:+; missing: ${undocumented//$'\n'/, }}"

# Every installed text file says its license at its top (after a shebang): the
# sources, what the Makefile writes (utfdfa.pc, the CMake files, utfdfa-gen)
# and the tables generated from the grammars. Not LICENSE itself, nor the
# one-line .so pages that point to utfdfa(3).
nolicense=$(cd "$P" && find . -type f | sed 's|^\./||' | sort | while read -r f; do
    case $f in share/doc/utfdfa/LICENSE | share/man/man3/utfdfa_*.3) continue ;; esac
    grep -Iq . "$f" 2>/dev/null || continue # binary
    head -n 2 "$f" | sed '1{/^#!/d;}' | head -n 1 | grep -q 'SPDX-License-Identifier: MIT' || printf '%s ' "$f"
done)
[ -z "$nolicense" ]; verdict $? "every installed text file starts with its SPDX-License-Identifier${nolicense:+; not: $nolicense}"

# Nothing installed may point back into the source tree.
leaks=$(grep -rIl -- "$REPO" "$D")
[ -z "$leaks" ]; verdict $? "no installed text file mentions $REPO ${leaks:+($leaks)}"

# ---- 2. the user phase, the source tree hidden when the system lets us
mkdir -p "$WORK/src" "$WORK/home"
cp "$HERE/test_install.sh" tests/install/consumer.c tests/install/ipv4_main.c tests/install/ipv4.abnf \
    tests/install/cmake/CMakeLists.txt tests/examples/re2c_ident.re \
    tests/gen/grammars/rfc6265-cookie.abnf tests/gen/grammars/rfc7230-token.abnf "$WORK/src/"
USER_ENV=(env -i "PATH=$P/bin:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin" "HOME=$WORK/home"
          "LC_ALL=C.UTF-8" "CC=$CC" "WARN=$WARN")
USER_CMD=(bash "$WORK/src/test_install.sh" --user-phase "$WORK" "$D" "$PREFIX" "$VERSION")
case $WORK/ in
    "$REPO"/*) can_hide=no ;;
    *) can_hide=yes ;;
esac
if [ $can_hide = yes ] && command -v unshare >/dev/null 2>&1 &&
    unshare -m sh -c 'mount -t tmpfs utfdfa-hidden "$1" && [ ! -e "$1/Makefile" ]' _ "$REPO" 2>/dev/null; then
    unshare -m sh -c 'mount -t tmpfs utfdfa-hidden "$1" && shift && exec "$@"' _ "$REPO" \
        "${USER_ENV[@]}" "HIDDEN_REPO=$REPO" "${USER_CMD[@]}" > "$WORK/user.log" 2>&1
else
    note "cannot hide the source tree (unshare -m needs root); running the user phase with it off every path"
    (cd "$WORK" && "${USER_ENV[@]}" "${USER_CMD[@]}") > "$WORK/user.log" 2>&1
fi
grep -v '^user-phase: ' "$WORK/user.log"
summary=$(grep '^user-phase: ' "$WORK/user.log" | tail -n 1)
if [[ $summary =~ ^user-phase:\ ([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
    pass=$((pass + BASH_REMATCH[1]))
    fail=$((fail + BASH_REMATCH[2]))
else
    bad "the user phase did not finish"
fi

[ -z "$(find "$D" -name __pycache__)" ]; verdict $? "running utfdfa-gen left no __pycache__ in the installed tree"

# ---- 3. uninstall removes what install put there, and only that
mkdir -p "$P/share/man/man3" "$P/include"
for f in bin/other-tool lib/libother.so.1 include/other.h share/man/man3/other.3; do
    printf 'not ours\n' > "$P/$f"
done
"$MAKE" -s uninstall DESTDIR="$D" PREFIX="$PREFIX" > "$WORK/uninstall.log" 2>&1
verdict $? "make uninstall DESTDIR=... PREFIX=$PREFIX $(cat "$WORK/uninstall.log")"
left=$(cd "$P" && find . \( -type f -o -type l \) | sed 's|^\./||' | sort | tr '\n' ' ')
[ "$left" = "bin/other-tool include/other.h lib/libother.so.1 share/man/man3/other.3 " ]
verdict $? "uninstall leaves exactly the files it did not install (left: $left)"
[ ! -e "$P/share/utfdfa" ] && [ ! -e "$P/include/utfdfa" ]
verdict $? "uninstall removes share/utfdfa and include/utfdfa"
rm -f "$P/bin/other-tool" "$P/lib/libother.so.1" "$P/include/other.h" "$P/share/man/man3/other.3"
[ -z "$(find "$D" \( -type f -o -type l \))" ]; verdict $? "the DESTDIR holds no file after uninstall"

# ---- 4. the default PREFIX is /usr/local
D2=$WORK/default
"$MAKE" -s install DESTDIR="$D2" > "$WORK/install2.log" 2>&1
verdict $? "make install DESTDIR=... (default PREFIX) $(cat "$WORK/install2.log")"
[ -x "$D2/usr/local/bin/utfdfa" ] && [ -e "$D2/usr/local/lib/libutfdfa.so.$MAJOR" ] &&
    [ -e "$D2/usr/local/share/man/man3/utfdfa.3" ] && [ -e "$D2/usr/local/share/utfdfa/grammar/utf8.abnf" ]
verdict $? "the default PREFIX is /usr/local"
grep -qx 'prefix=/usr/local' "$D2/usr/local/lib/pkgconfig/utfdfa.pc"; verdict $? "utfdfa.pc: prefix=/usr/local"
[ "$(cd / && env -i PATH=/usr/bin:/bin "$D2/usr/local/bin/utfdfa-gen" --version)" = "utfdfa-gen $VERSION" ]
verdict $? "the staged /usr/local utfdfa-gen runs from its DESTDIR"
"$MAKE" -s uninstall DESTDIR="$D2" > "$WORK/uninstall2.log" 2>&1
verdict $? "make uninstall DESTDIR=... (default PREFIX)"
[ -z "$(find "$D2" \( -type f -o -type l \))" ]; verdict $? "no file left after the default-PREFIX uninstall"

# ---- 5. install-strip: the same files, without debug information, still working
D3=$WORK/stripped
P3=$D3$PREFIX
"$MAKE" -s install-strip DESTDIR="$D3" PREFIX="$PREFIX" > "$WORK/install3.log" 2>&1
verdict $? "make install-strip DESTDIR=... PREFIX=$PREFIX $(cat "$WORK/install3.log")"
(cd "$P3" && find . \( -type f -o -type l \) | sed 's|^\./||' | sort) > "$WORK/installed3.txt"
diff "$WORK/expected.txt" "$WORK/installed3.txt" >&2; verdict $? "install-strip installs the same files as install"
for f in bin/utfdfa:build/utfdfa "lib/libutfdfa.so.$VERSION:build/libutfdfa.so.$VERSION" \
    lib/libutfdfa.a:build/libutfdfa.a; do
    built=${f#*:} f=${f%%:*}
    ! readelf -S -W "$P3/$f" 2>/dev/null | grep -q '\.debug_'
    verdict $? "$f has no debug sections after install-strip"
    [ "$(stat -c %s "$P3/$f")" -lt "$(stat -c %s "$built")" ]
    verdict $? "$f is smaller stripped ($(stat -c %s "$P3/$f") bytes, $(stat -c %s "$built") unstripped)"
done
sh tests/abi/check_symbols.sh "$P3/lib/libutfdfa.so.$VERSION" tests/abi/libutfdfa.symbols > "$WORK/abi3.log" 2>&1
verdict $? "the stripped shared library still exports tests/abi/libutfdfa.symbols $(cat "$WORK/abi3.log")"
[ "$("$P3/bin/utfdfa" --version)" = "utfdfa $VERSION" ]; verdict $? "the stripped utfdfa runs"
cflags3=$(PKG_CONFIG_PATH=$P3/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$D3 pkg-config --cflags utfdfa)
libs3=$(PKG_CONFIG_PATH=$P3/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$D3 pkg-config --libs utfdfa)
$CC $WARN -O2 tests/install/consumer.c $cflags3 -Wl,-Bstatic $libs3 -Wl,-Bdynamic -o "$WORK/consumer-stripped-a" &&
    "$WORK/consumer-stripped-a" > /dev/null
verdict $? "a consumer linked with the stripped libutfdfa.a passes"
$CC $WARN -O2 tests/install/consumer.c $cflags3 $libs3 -o "$WORK/consumer-stripped-so" &&
    LD_LIBRARY_PATH=$P3/lib "$WORK/consumer-stripped-so" > /dev/null
verdict $? "a consumer linked with the stripped libutfdfa.so passes"
"$MAKE" -s uninstall DESTDIR="$D3" PREFIX="$PREFIX" > /dev/null 2>&1 && [ -z "$(find "$D3" \( -type f -o -type l \))" ]
verdict $? "uninstall after install-strip leaves no file"

printf 'test_install: %d passed, %d failed\n' "$pass" "$fail"
[ "$fail" = 0 ]
