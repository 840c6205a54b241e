# SPDX-License-Identifier: MIT
# Benchmarks: make bench, bench-cli, bench-gen (none of them part of make check).
# make bench also runs bench-engine (mk/engine.mk) and bench-python
# (mk/python.mk): they add themselves as its prerequisites, so they run
# before its own tables. bench-arm64 is in mk/cross.mk.
# Included by the top-level Makefile, which defines B, G, T, CC and the flags.

# =============================================================== benchmark
# make bench   utfdfa, its fast paths (src/fast/utf8/), in-project baselines
#              and peers (iconv, ICU, libunistring, GLib, utf8proc, simdjson),
#              one Markdown table per operation (per corpus for the
#              transcoding matrix, BENCH_OPS=transcode). Installs the peers with
#              apt-get when root (else skips them with a note); never part of
#              make check. BENCH_CFLAGS sets the benchmark's flags; the
#              environment variables BENCH_REPS, BENCH_SAMPLE_MS, BENCH_OPS,
#              BENCH_ENGINES, BENCH_STAT, BENCH_LEVEL (one kernel level, not
#              the best: the library with its test hooks, mk/lib.mk) and
#              BENCH_LIB tune a run (tests/bench/bench.c, transcode.c, run.sh). SIMDUTF=DIR (a
#              directory holding simdutf's amalgamation, simdutf.h and
#              simdutf.cpp, made outside the repository) adds utfdfa level
#              by level against simdutf's kernels (simdutf_cmp.c).
BENCH_CFLAGS ?= -O2
SIMDUTF ?=

.PHONY: bench

bench: $(TEST_LIB) $(HEADERS) $(G)/utf8.fast.gen.h
	@B="$(B)" CC="$(CC)" BENCH_CFLAGS="$(BENCH_CFLAGS)" LIB_CFLAGS="$(CFLAGS)" \
	  SHARED="$(SHARED)" SIMDUTF="$(SIMDUTF)" sh tests/bench/run.sh

# make bench-cli: the utfdfa command against a 64 KiB-chunk loop over the
# library call doing the same work (tests/bench/lib_loop.c) and against
# iconv, on 64 MiB of the lipsum corpus, CPU time of each process,
# interleaved rounds (BENCH_CLI_ROUNDS, default 15), medians and ratios.
BENCH_CLI_ROUNDS ?= 15
.PHONY: bench-cli
$(B)/bench/lib_loop: tests/bench/lib_loop.c include/utfdfa.h $(B)/libutfdfa.a
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) -I include $< $(B)/libutfdfa.a -o $@

bench-cli: $(B)/utfdfa $(B)/bench/lib_loop
	$(PYTHON) tests/bench/cli_bench.py $(B) $(SHARED) $(BENCH_CLI_ROUNDS)

# make bench-gen   the generator's CPU time and peak memory on large automata
#              (tests/bench/grammars/), medians of RUNS runs (default 5) under
#              GNU time; BASE=REV measures that revision's generator too and
#              checks that both write the same automata for every grammar.
#              A benchmark, not part of make check (tests/bench/gen_bench.sh).
.PHONY: bench-gen
RUNS ?= 5
bench-gen: | $(B)/.tools-ok
	@B="$(B)" PYTHON="$(PYTHON)" BASE="$(BASE)" RUNS="$(RUNS)" sh tests/bench/gen_bench.sh
