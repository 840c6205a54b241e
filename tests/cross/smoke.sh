#!/bin/sh
# SPDX-License-Identifier: MIT
# The CLI built for another host, run under qemu-user, against the native
# build: the same bytes and exit status for every output encoding (a
# big-endian host writes UTF-16LE, a 32-bit one large counts), check's
# report, and a missing FILE among others.
#
#   sh tests/cross/smoke.sh NATIVE_UTFDFA 'qemu-s390x -L /usr/s390x-linux-gnu CROSS_UTFDFA'
set -u
native=$1 cross=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/utfdfa-cross.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
printf 'h\303\251llo \360\237\230\200 \344\270\255 +-&~\n' > "$tmp/text"
printf 'ok \303\251\355\240\200 \300\257 \364\220\200\200 tail\n' > "$tmp/bad"
passed=0 failed=0
same() { # what, then the arguments for both builds
    what=$1; shift
    $native "$@" > "$tmp/want" 2> "$tmp/want.err"; want=$?
    $cross "$@" > "$tmp/got" 2> "$tmp/got.err"; got=$?
    if [ "$got" = "$want" ] && cmp -s "$tmp/want" "$tmp/got" && cmp -s "$tmp/want.err" "$tmp/got.err"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1)); echo "FAIL $what: exit $got (native $want)"
    fi
}
for to in utf-8 utf-16le utf-16be utf-32le utf-32be utf-16 utf-32 utf-7 utf-7-imap cesu-8 mutf-8 \
          wtf-8 ucs-4le ucs-4be corrected-utf-8 utf-8-rfc2279; do
    same "-t $to" -t "$to" "$tmp/text"
    $native -t "$to" "$tmp/text" > "$tmp/$to" 2>/dev/null
    same "-f $to" -f "$to" "$tmp/$to"
done
for mode in strict replace ignore; do
    for to in utf-8 utf-16be utf-32le; do same "--errors=$mode -t $to" --errors=$mode -t $to "$tmp/bad"; done
done
same "check --all" check --all "$tmp/text" "$tmp/bad"
same "a missing FILE among others" -t utf-16be "$tmp/text" "$tmp/missing" "$tmp/text"
echo "cross smoke: $passed passed, $failed failed"
[ "$failed" = 0 ]
