# SPDX-License-Identifier: MIT
# The bulk engine every generated C header carries (PREFIX_run,
# gen/emit_engine.py): its proof and its benchmark.
# Included by the top-level Makefile, which defines B, CC and PYTHON.

ENGINE_DEPS = $(GEN_DEPS) tests/engine/run.sh tests/engine/test_run.c tests/engine/grammars.list \
              $(wildcard tests/engine/grammars/*.abnf)

# Every grammar's engine at every level this CPU has against the step loop
# (tests/engine/run.sh check); then each deliberately broken engine must fail
# that test (run.sh faults).
.PHONY: check-engine check-engine-faults bench-engine
check-engine: $(ENGINE_DEPS) | $(B)/.tools-ok
	@B="$(B)" CC="$(CC)" PYTHON="$(PYTHON)" sh tests/engine/run.sh check

check-engine-faults: $(ENGINE_DEPS) | $(B)/.tools-ok
	@B="$(B)" CC="$(CC)" PYTHON="$(PYTHON)" sh tests/engine/run.sh faults

CHECKS += check-engine check-engine-faults

# make bench-engine (part of make bench): PREFIX_run against the step loop
# on 1 MiB of valid lines of each grammar of tests/engine/grammars, and with
# an error in the last line (tests/bench/engine_bench.sh).
# Its peers: re2c and ragel are make check's tools; Hyperscan (x86-64 only in
# Debian) is installed with apt-get when root, as make bench's peers, else
# its column stays empty with a note.
bench-engine: $(ENGINE_DEPS) tests/bench/engine_bench.c tests/bench/engine_bench.sh | $(B)/.tools-ok
	@if ! dpkg -s libhyperscan-dev 2>/dev/null | grep -q '^Status: install ok installed' && \
	  [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "bench-engine: installing libhyperscan-dev with apt-get"; \
	  $(APT_INSTALL) libhyperscan-dev >/dev/null || echo "bench-engine: no libhyperscan-dev here"; \
	fi
	@B="$(B)" CC="$(CC)" PYTHON="$(PYTHON)" BENCH_CFLAGS="$(BENCH_CFLAGS)" sh tests/bench/engine_bench.sh

bench: bench-engine

# The installed example of the bulk engine (tests/examples/utf8_lines.c),
# built from the tree's header.
$(T)/utf8_lines: tests/examples/utf8_lines.c $(G)/utf8.gen.h | $(T)
	$(CC) $(WARN) $(CFLAGS) -I $(G) $< -o $@

.PHONY: check-example-lines
check-example-lines: $(T)/utf8_lines
	$(T)/utf8_lines

CHECKS += check-example-lines
