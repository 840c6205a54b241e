# SPDX-License-Identifier: MIT
"""make bench-python: utfdfa's Python functions against CPython's codecs.

    python bench.py CORPUS_DIR [ROUNDS]

Per corpus file (*.utf8.txt, repeated to 4 MiB): bytes.decode("utf-8") vs
utfdfa.decode, and vs utfdfa.validate; str.encode("utf-8") vs
utfdfa.encode; the mutf8 package (PyPI) vs the mutf-8 codec where mutf8 is
installed. Rounds are interleaved (each round runs every contender once),
timed in thread CPU time; the table gives medians (ROUNDS, default 15, at
least 15) in GB/s of UTF-8 input and the ratio to CPython's (> 1: faster).
"""
import glob
import os
import statistics
import sys
import time

import utfdfa

SIZE = 4 << 20


def measure(contenders, rounds):
    """{name: median ns} over interleaved rounds."""
    times = {name: [] for name in contenders}
    for _ in range(rounds):
        for name, call in contenders.items():
            t0 = time.thread_time_ns()
            call()
            times[name].append(time.thread_time_ns() - t0)
    return {name: statistics.median(t) for name, t in times.items()}


def main():
    if len(sys.argv) < 2 or not os.path.isdir(sys.argv[1]):
        print("bench-python: no corpus at %s (../shared/corpus/lipsum): skipped"
              % (sys.argv[1] if len(sys.argv) > 1 else "?"))
        return
    rounds = max(15, int(sys.argv[2]) if len(sys.argv) > 2 else 15)
    try:
        import mutf8
    except ImportError:
        mutf8 = None
    files = sorted(glob.glob(os.path.join(sys.argv[1], "*.utf8.txt")))
    print("### Python: utfdfa %s vs CPython %s codecs (UTF-8 input GB/s, thread CPU time, "
          "median of %d interleaved rounds, %d MiB per corpus)\n"
          % (utfdfa.__version__, sys.version.split()[0], rounds, SIZE >> 20))
    print("| corpus | bytes.decode | utfdfa.decode | x | utfdfa.validate | x "
          "| str.encode | utfdfa.encode | x |" + (" mutf8 | mutf-8 codec | x |" if mutf8 else ""))
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|" + ("---:|---:|---:|" if mutf8 else ""))
    for path in files:
        data = open(path, "rb").read()
        data = (data * (SIZE // max(1, len(data)) + 1))[:SIZE]
        text = data.decode("utf-8", "ignore")  # the cut may split the last character
        data = text.encode("utf-8")
        contenders = {
            "py_dec": lambda: data.decode("utf-8"),
            "dec": lambda: utfdfa.decode(data),
            "val": lambda: utfdfa.validate(data),
            "py_enc": lambda: text.encode("utf-8"),
            "enc": lambda: utfdfa.encode(text),
        }
        if mutf8:
            m = text.encode("mutf-8")
            contenders["mutf8"] = lambda: mutf8.decode_modified_utf8(m)
            contenders["ours_m"] = lambda: m.decode("mutf-8")
        assert utfdfa.decode(data) == text and utfdfa.validate(data) is None
        assert utfdfa.encode(text) == data
        t = measure(contenders, rounds)
        gbs = {k: len(data) / v for k, v in t.items()}
        name = os.path.basename(path).split("-")[0]
        row = ("| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |"
               % (name, gbs["py_dec"], gbs["dec"], t["py_dec"] / t["dec"], gbs["val"],
                  t["py_dec"] / t["val"], gbs["py_enc"], gbs["enc"], t["py_enc"] / t["enc"]))
        if mutf8:
            row += " %.2f | %.2f | %.2f |" % (gbs["mutf8"], gbs["ours_m"], t["mutf8"] / t["ours_m"])
        print(row, flush=True)
    if not mutf8:
        print("\n(mutf8 is not installed: no mutf8 column; pip install mutf8 adds it)")


if __name__ == "__main__":
    main()
