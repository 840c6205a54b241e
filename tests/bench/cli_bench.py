#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`make bench-cli`: the utfdfa command against the library it wraps and
against iconv, on the same file, as whole processes.

    python3 tests/bench/cli_bench.py BUILD_DIR SHARED_DIR [ROUNDS]

The input is the lipsum corpus (SHARED_DIR/corpus/lipsum, every script)
concatenated and repeated to 64 MiB, written to BUILD_DIR/bench/, and the
same text as one line (line feeds made spaces), where a line's start is
always in an earlier chunk. Each row
runs its commands in turn, round after round (interleaved, so drift on a
shared machine hits both alike), output to /dev/null, and takes each run's
CPU time (user + system, from wait4) of the child alone. The table gives
the medians and the median of the per-round ratios. A benchmark, never a
test: it asserts only that every command succeeded.
"""

import os
import shutil
import statistics
import subprocess
import sys
import time

SIZE = 64 * 1024 * 1024


def corpus(build, shared):
    lipsum = os.path.join(shared, "corpus", "lipsum")
    if not os.path.isdir(lipsum):
        sys.exit("bench-cli: %s is missing: no corpus to measure" % lipsum)
    path = os.path.join(build, "bench", "lipsum-64MiB.utf8.txt")
    if os.path.exists(path) and os.path.getsize(path) == SIZE:
        return path
    texts = b"".join(open(os.path.join(lipsum, f), "rb").read()
                     for f in sorted(os.listdir(lipsum)) if f.endswith(".utf8.txt"))
    data = (texts * (SIZE // len(texts) + 1))
    cut = SIZE
    while data[cut] & 0xC0 == 0x80:  # end on a character boundary
        cut -= 1
    data = data[:cut] + b"\n" * (SIZE - cut)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)
    return path


def one_line(build, path):
    """The same text with its line feeds made spaces: one 64 MiB line."""
    out = os.path.join(build, "bench", "lipsum-64MiB-one-line.utf8.txt")
    if not (os.path.exists(out) and os.path.getsize(out) == SIZE):
        with open(path, "rb") as f, open(out, "wb") as g:
            g.write(f.read().replace(b"\n", b" "))
    return out


def cpu_seconds(argv):
    with open(os.devnull, "wb") as null:
        p = subprocess.Popen(argv, stdout=null)
        _, status, usage = os.wait4(p.pid, 0)
    if status != 0:
        sys.exit("bench-cli: %s failed (status %d)" % (" ".join(argv), status))
    return usage.ru_utime + usage.ru_stime


def measure(rows, rounds):
    results = []
    for title, a, b in rows:
        ta, tb = [], []
        for _ in range(rounds):
            ta.append(cpu_seconds(a))
            tb.append(cpu_seconds(b))
        ratios = [x / y for x, y in zip(ta, tb)]
        results.append((title, statistics.median(ta), statistics.median(tb),
                        statistics.median(ratios), min(ratios), max(ratios)))
    return results


def main():
    build, shared = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 15
    cli = os.path.join(build, "utfdfa")
    loop = os.path.join(build, "bench", "lib_loop")
    f = corpus(build, shared)
    rows = [
        ("`utfdfa check` / `utfdfa_check` loop", [cli, "check", f], [loop, "check", f]),
        ("`utfdfa -t utf-16le` / `utfdfa_transcode` loop", [cli, "-t", "utf-16le", f],
         [loop, "transcode", "utf-8", "utf-16le", f]),
        ("`utfdfa -t utf-32le` / `utfdfa_transcode` loop", [cli, "-t", "utf-32le", f],
         [loop, "transcode", "utf-8", "utf-32le", f]),
    ]
    g = one_line(build, f)
    rows.append(("one line: `utfdfa check` / `utfdfa_check` loop", [cli, "check", g],
                 [loop, "check", g]))
    iconv = shutil.which("iconv")
    if iconv:
        rows.append(("`utfdfa -f utf-8 -t utf-32le` / `iconv -f UTF-8 -t UTF-32LE`",
                     [cli, "-f", "utf-8", "-t", "utf-32le", f],
                     [iconv, "-f", "UTF-8", "-t", "UTF-32LE", f]))
    else:
        print("bench-cli: iconv not found: its row is skipped")
    print("bench-cli: %s, %d MiB of lipsum (10 scripts), %d interleaved rounds, CPU time"
          " (user+sys) per process" % (time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                                       SIZE >> 20, rounds))
    print()
    print("| A / B | A median s | B median s | A/B median | A/B min-max |")
    print("| --- | --- | --- | --- | --- |")
    for title, ma, mb, r, lo, hi in measure(rows, rounds):
        print("| %s | %.3f | %.3f | %.2f | %.2f-%.2f |" % (title, ma, mb, r, lo, hi))


if __name__ == "__main__":
    main()
