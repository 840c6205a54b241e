# SPDX-License-Identifier: MIT
# Other platforms: the library, the CLI and a set of suites cross-built with
# Debian's compilers (-Werror: a warning only one host sees, such as an
# unused function on a big-endian one, fails here) and run under qemu-user.
# Not part of make check (qemu makes the suites several times slower);
# .ci/run runs it.
# Included by the top-level Makefile, which defines B, G, T, CC and the flags.
#
#   make check-cross   for each of CROSS_TARGETS: aarch64 (the NEON level),
#                      s390x (big-endian, 64-bit) and i686 (32-bit x86,
#                      where the scalar level runs): a sub-make builds
#                      build/cross/TARGET/ with CC=TARGET's compiler, then
#                      the suites run under qemu-TARGET (quick modes where
#                      qemu makes them long): the CLI against the native one
#                      (tests/cross/smoke.sh), and on aarch64 the whole CLI
#                      suite through a wrapper that starts the cross-built
#                      utfdfa under qemu. tests/cross/large_files.c holds
#                      32-bit hosts to 64-bit file offsets. Installs the
#                      compilers and qemu-user with apt-get when root.
#                      CROSS_TARGETS=aarch64 picks one.
CROSS_TARGETS ?= aarch64 s390x i686
CROSS_TRIPLE_aarch64 = aarch64-linux-gnu
CROSS_TRIPLE_s390x = s390x-linux-gnu
CROSS_TRIPLE_i686 = i686-linux-gnu
CROSS_QEMU_aarch64 = qemu-aarch64
CROSS_QEMU_s390x = qemu-s390x
CROSS_QEMU_i686 = qemu-i386
# 32-bit: readdir and stat on a 64-bit file system need 64-bit offsets.
CROSS_CFLAGS_i686 = -D_FILE_OFFSET_BITS=64
# qemu's -L: where the target's loader and libraries are (Debian's cross libc).
CROSS_RUN = $(CROSS_QEMU_$(1)) -L /usr/$(CROSS_TRIPLE_$(1))

# The suites, each a program of build/cross/TARGET/tests/ and its arguments
# ($(SHARED) for the corpus; the levels' names from their rows). Every
# target runs the scalar level's suites; aarch64, which has a SIMD level of
# its own, the level-forcing ones too.
CROSS_SUITES = test_kernels test_fast test_vectors test_rep_tokens test_lengths
CROSS_SUITES_aarch64 = test_wide test_fast_levels test_lookup test_direct test_utf7_kernels
# Quick modes: the exhaustive loops are the same code on every platform.
# The engine faults that reach the NEON and scalar engines (the pair table is
# AVX-512's alone).
CROSS_ENGINE_FAULTS = table hex-lines json-number-lines utf8; join hex-lines token-lines; \
                      tail hex-lines ipv4-lines; spec utf8 rfc3986-uri; overread hex-lines ipv4-lines

CROSS_ENV = UTFDFA_QUICK=1 TEST_FAST_QUICK=1 TEST_KERNELS_QUICK=1

.PHONY: check-cross
check-cross: $(CROSS_TARGETS:%=check-cross-%)
	@echo "check-cross: all passed ($(CROSS_TARGETS))"

$(B)/.cross-tools-ok-%: | $(B)
	$(call need_tools,$(CROSS_TRIPLE_$*)-gcc:gcc-$(CROSS_TRIPLE_$*) $(CROSS_QEMU_$*):qemu-user)
	@touch $@

# One target: the sub-make builds (its own B, the host's generated tables),
# then each suite runs; every level of the target's rows runs in test_vectors.
check-cross-%: $(B)/.cross-tools-ok-% $(B)/utfdfa | $(B)/.tools-ok
	$(MAKE) --no-print-directory B=$(B)/cross/$* CC=$(CROSS_TRIPLE_$*)-gcc \
	  CFLAGS="$(CFLAGS) $(CROSS_CFLAGS_$*)" \
	  $(B)/cross/$*/utfdfa $(patsubst %,$(B)/cross/$*/tests/%,$(CROSS_SUITES) $(CROSS_SUITES_$*))
	$(CROSS_TRIPLE_$*)-gcc $(WARN) $(CFLAGS) $(CROSS_CFLAGS_$*) -c tests/cross/large_files.c \
	  -o $(B)/cross/$*/large_files.o
	sh tests/cross/smoke.sh $(B)/utfdfa "$(call CROSS_RUN,$*) $(B)/cross/$*/utfdfa"
	@set -e; t=$(B)/cross/$*/tests; for s in $(CROSS_SUITES) $(CROSS_SUITES_$*); do \
	  echo "== check-cross $*: $$s"; \
	  case $$s in \
	  test_fast_levels|test_lookup|test_fast) args="$(SHARED)";; *) args="";; esac; \
	  env $(CROSS_ENV) $(call CROSS_RUN,$*) $$t/$$s $$args > $$t/$$s.log 2>&1 \
	    || { tail -n 30 $$t/$$s.log; echo "check-cross $*: $$s failed (log: $$t/$$s.log)"; exit 1; }; \
	  tail -n 1 $$t/$$s.log; \
	done; \
	for level in $(FAST_LEVEL_NAMES); do \
	  $(call CROSS_RUN,$*) $$t/test_vectors --level $$level > $$t/test_vectors.$$level.log 2>&1 \
	    || { tail -n 30 $$t/test_vectors.$$level.log; echo "check-cross $*: test_vectors --level $$level failed"; exit 1; }; \
	  echo "test_vectors --level $$level: $$(tail -n 1 $$t/test_vectors.$$level.log)"; \
	done
	@if [ "$*" = aarch64 ]; then \
	  echo "== check-cross $*: the generated bulk engines (tests/engine/run.sh), NEON and scalar"; \
	  for mode in check faults; do log=$(B)/cross/$*/engine-$$mode.log; \
	    B=$(B)/cross/$* CC=$(CROSS_TRIPLE_$*)-gcc PYTHON="$(PYTHON)" RUN="$(call CROSS_RUN,$*)" \
	      FAULTS="$(CROSS_ENGINE_FAULTS)" sh tests/engine/run.sh $$mode > $$log 2>&1 \
	      || { tail -n 30 $$log; echo "check-cross $*: engine $$mode failed (log: $$log)"; exit 1; }; \
	    tail -n 1 $$log; done; fi
	@if [ "$*" = aarch64 ]; then w=$(B)/cross/$*/qemu; mkdir -p $$w; \
	  printf '#!/bin/sh\nexec %s "%s" "$$@"\n' "$(call CROSS_RUN,$*)" "$(abspath $(B)/cross/$*/utfdfa)" \
	    > $$w/utfdfa; chmod +x $$w/utfdfa; \
	  echo "== check-cross $*: the CLI suite (tests/cli/test_cli.py) through $$w/utfdfa"; \
	  UTFDFA_CLI_EMULATOR=$(CROSS_QEMU_$*) $(PYTHON) tests/cli/test_cli.py $$w; fi
	@echo "check-cross $*: all passed"

# make bench-arm64: instructions per input byte on AArch64 under qemu, for
# each operation, corpus and level (tests/bench/arm64_ipb.sh, a count, so
# the machine's load does not change it; IPB_BYTES, IPB_LEVELS, IPB_OPS
# tune it), the peers after the levels, counted the same way
# (tests/bench/ipb_peers.cpp, built by tests/bench/arm64_peers.sh):
# simdjson's validate_utf8 from Debian's libsimdjson-dev:arm64 (multiarch;
# installed with apt-get when root, else skipped with a note, as make
# bench's peers; BENCH_NO_INSTALL=1 leaves the system alone) and, with
# SIMDUTF=DIR (simdutf's amalgamation, made outside the repository, as for
# make bench), simdutf's arm64 kernel for every operation, cross-built into
# build/. The drivers are linked statically where they can be (all but
# simdjson's, a shared library): qemu then logs none of the dynamic loader's
# start-up, which is most of a run, and the difference counted is the same
# but for the PLT stubs' few instructions. Then llvm-mca's cycles per
# iteration of the NEON inner loops (tests/bench/mca_neon.c) on a Neoverse
# core (MCA_CPU). A benchmark, never part of make check.
MCA ?= llvm-mca-14
MCA_CPU ?= neoverse-n1
XA = $(B)/cross/aarch64
.PHONY: bench-arm64
bench-arm64: $(B)/.cross-tools-ok-aarch64 | $(B)/.tools-ok
	$(MAKE) --no-print-directory B=$(XA) CC=aarch64-linux-gnu-gcc $(XA)/libutfdfa.a $(XA)/libutfdfa-hooks.a
	@mkdir -p $(XA)/bench
	aarch64-linux-gnu-gcc $(WARN) -O2 -static -I include tests/bench/ipb.c tests/bench/ipb_input.c \
	  $(XA)/libutfdfa-hooks.a -o $(XA)/bench/ipb
	@OUT="$(XA)/bench" LIB="$(XA)/libutfdfa.a" SIMDUTF="$(SIMDUTF)" sh tests/bench/arm64_peers.sh
	@peers=; for d in simdjson simdutf; do [ ! -x $(XA)/bench/ipb_$$d ] || peers="$$peers $(XA)/bench/ipb_$$d"; done; \
	  B="$(B)" SHARED="$(SHARED)" IPB="$(XA)/bench/ipb" IPB_PEERS="$$peers" sh tests/bench/arm64_ipb.sh
	aarch64-linux-gnu-gcc $(WARN) -O2 -S -I src/fast/utf8 -I src/fast -I $(XA)/gen tests/bench/mca_neon.c \
	  -o $(XA)/bench/mca_neon.s
	@echo; echo "### llvm-mca ($(MCA) -mcpu=$(MCA_CPU)): cycles per iteration of each NEON loop body"; echo
	@echo "| loop | bytes an iteration | instructions | cycles (block reciprocal throughput) | cycles per byte |"
	@echo "|---|---|---|---|---|"
	@for f in mca_lookup_group:64 mca_lookup_ascii2:128 mca_widen32:64 mca_widen16:64 \
	  mca_utf8_three16:48 mca_utf16_utf8_twos:32 mca_utf16_utf8_threes:32 mca_utf16_utf8_any:32 \
	  mca_utf32_utf8_four:64 mca_utf16_utf32:32 mca_utf32_utf16:64; do fn=$${f%%:*}; bytes=$${f#*:}; \
	  awk -v f="$$fn" '$$0 == f ":" {on = 1; next} on && /\.cfi_endproc/ {exit} \
	    on && $$1 !~ /^(\.|#|\/\/)/ && $$1 != "ret" && $$0 !~ /:$$/ { \
	      if ($$1 == "movi" && $$2 ~ /16b,$$/) sub(/0xffffffffffffff/, "0x"); print}' \
	    $(XA)/bench/mca_neon.s > $(XA)/bench/$$fn.s; \
	  out=$$($(MCA) -mtriple=aarch64-linux-gnu -mcpu=$(MCA_CPU) $(XA)/bench/$$fn.s 2>&1); \
	  ins=$$(wc -l < $(XA)/bench/$$fn.s); \
	  rt=$$(printf '%s\n' "$$out" | awk '/Block RThroughput/ {print $$3}'); \
	  echo "| $$fn | $$bytes | $$ins | $$rt | $$(awk -v r="$$rt" -v b="$$bytes" 'BEGIN {printf "%.3f", r / b}') |"; done
