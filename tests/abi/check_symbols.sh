#!/bin/sh
# SPDX-License-Identifier: MIT
# The ABI check (make check-abi): the dynamic symbols libutfdfa.so defines,
# each with its version (NAME@@VERSION, plus the version nodes themselves),
# must be exactly the committed list tests/abi/libutfdfa.symbols. An export
# added by mistake (a stray UTFDFA_API, a version-script line) fails, and so
# does one removed or moved to another version. A deliberate change (a new
# function in a new minor version's node) updates the list in the same
# commit:  sh tests/abi/check_symbols.sh LIBRARY tests/abi/libutfdfa.symbols --update
#
#   check_symbols.sh LIBRARY LIST [--update]   last line: "check-abi: N passed, M failed"
set -u
so=$1 list=$2
got=$(nm -D --defined-only --with-symbol-versions "$so" |
    awk '$2 == "A" { print "version " $3; next } { print $3 }' | LC_ALL=C sort) || exit 2
if [ "${3:-}" = --update ]; then
    printf '%s\n' "$got" > "$list" && echo "check-abi: wrote $list" && exit 0
fi
if [ -z "$got" ]; then
    echo "check-abi: no dynamic symbols read from $so" >&2
    echo "check-abi: 0 passed, 1 failed"
    exit 1
fi
want=$(LC_ALL=C sort "$list")
if [ "$got" = "$want" ]; then
    echo "check-abi: 1 passed, 0 failed ($(printf '%s\n' "$got" | grep -vc '^version ') symbols in $(
        printf '%s\n' "$got" | grep -c '^version ') version nodes, as in $list)"
    exit 0
fi
echo "check-abi: $so does not export what $list says (- listed, not exported; + exported, not listed):" >&2
diff -u "$list" - <<EOD | sed -n '/^[-+][^-+]/p' >&2
$got
EOD
echo "check-abi: an export added or removed on purpose belongs in $list (and src/libutfdfa.map)" >&2
echo "check-abi: 0 passed, 1 failed"
exit 1
