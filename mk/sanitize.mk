# SPDX-License-Identifier: MIT
# Hostile inputs, fuzz replays, faults, sanitizers and valgrind.
# Included by the top-level Makefile, which defines B, G, T, CC and the flags.

# ============================================= sanitizers and fuzzing
# Decoders sit on trust boundaries: no crash, no out-of-bounds access, no
# undefined behaviour, no silent data loss, on any input, in any chunking.
#
#   make check-hostile     hostile inputs with their exact results          (in make check)
#   make check-ref-wide    reference UTF-16/32 decoders vs Python's codecs   (in make check)
#   make check-ref-utf7    reference UTF-7 (RFC 2152) vs its vectors and Python's codec (in make check)
#   make check-fuzz-replay every fuzz target over its seeds and regressions  (in make check)
#   make check-faults      the CLI under faults; nothing lost               (in make check)
#   make check-sanitize    the C and CLI suites built with ASan+UBSan (clang, build/fuzz),
#                          and the CLI (and test_hostile) under valgrind
#   make check-stream-2g   2 GiB through the CLI with its max RSS measured   (CI)
#   make fuzz [FUZZ_SECONDS=60]  each libFuzzer target for FUZZ_SECONDS     (CI: 15 s each, -j2)
#
.PHONY: check-hostile check-ref-wide check-fuzz-replay check-faults check-sanitize \
        check-valgrind check-stream-2g fuzz fuzz-build always-remake

REF_SRCS = tests/ref/ref_utf8.c tests/ref/ref_utf16.c tests/ref/ref_utf32.c
REF_HDRS = tests/ref/ref_utf8.h tests/ref/ref_utf16.h tests/ref/ref_utf32.h tests/ref/ref_kinds.h
# One target per input encoding: the Unicode forms (tests/fuzz/fuzz_decode.c),
# the other systems (tests/fuzz/fuzz_variants.c), and one for the UTF-8 fast
# paths against the plain DFA loop (tests/fuzz/fuzz_fast.c).
# (FUZZ_ENCODINGS, FUZZ_VARIANTS and each target's FUZZ_FROM_NAME: from the
# registry's fuzz column, $(G)/encodings.mk.)
FUZZ_TARGETS = $(FUZZ_ENCODINGS) $(FUZZ_VARIANTS) $(if $(wildcard src/fast/utf8/select.c),fast)
VARIANT_DEPS = tests/fuzz/fuzz_variants.c tests/fuzz/fuzz_common.h tests/ref/ref_utf7.c tests/ref/ref_utf7.h tests/ref/ref_utf7_kinds.h \
  tests/ref/ref_forms.c tests/ref/ref_forms.h \
  $(G)/utf8-rfc2279.lexer.c $(G)/corrected-utf-8.lexer.c
FB = $(B)/fuzz

# ---- hostile inputs, reference UTF-16/32 decoders
check-hostile: $(T)/test_hostile
	$(T)/test_hostile

# The API's promises where a review found them broken: the worst-case sizes
# for every source, target, option and mode; the encoder and the transcoder
# writing alike, and decode_utf32 returning only what the target's encoder
# takes; a decoder or encoder full of garbage never reaching outside its
# tables or buffers (under ASan+UBSan in check-sanitize); decode_utf32's
# direct UTF-8 entry in every chunking and output room at every level.
CONTRACT_TESTS = test_bounds test_writer_agrees test_garbage_state test_direct test_lengths

.PHONY: check-contract
check-contract: $(CONTRACT_TESTS:%=$(T)/%)
	$(foreach t,$(CONTRACT_TESTS),$(T)/$(t) &&) true

CHECKS += check-contract

$(T)/ref_wide_dump: tests/ref/ref_wide_dump.c $(REF_SRCS) $(REF_HDRS) | $(T)
	$(CC) $(WARN) $(CFLAGS) -I tests/ref $< $(REF_SRCS) -o $@

check-ref-wide: $(T)/ref_wide_dump
	$(PYTHON) tests/ref/ref_wide_selftest.py $(T)

# ---- fuzz targets without libFuzzer: replay seeds and found regressions
# Seeds are made at run time from the test vectors and ../shared (never stored).
$(FB)/seeds/.stamp: tests/fuzz/make_seeds.py tests/common/vectors.h tests/stream/test_vectors.c | $(B)/.tools-ok
	@rm -rf $(FB)/seeds && mkdir -p $(FB)/seeds
	$(PYTHON) tests/fuzz/make_seeds.py $(FB)/seeds $(SHARED)
	@cd $(FB)/seeds && mkdir -p $(FUZZ_ENCODINGS) $(FUZZ_VARIANTS) # a target make_seeds.py has no seeds for yet
	@touch $@

$(T)/replay_%: tests/fuzz/fuzz_decode.c tests/fuzz/fuzz_common.h tests/fuzz/replay_main.c $(REF_SRCS) $(REF_HDRS) $(G)/utf8.lexer.c $(B)/libutfdfa.a | $(T)
	$(CC) $(WARN) $(CFLAGS) -DFUZZ_ENC=$* -DFUZZ_FROM=$(FUZZ_FROM_$*) -I include -I $(G) -I tests/ref $< tests/fuzz/replay_main.c \
	  $(REF_SRCS) $(B)/libutfdfa.a -o $@

$(FUZZ_VARIANTS:%=$(T)/replay_%): $(T)/replay_%: $(VARIANT_DEPS) tests/fuzz/replay_main.c $(B)/libutfdfa.a | $(T)
	$(CC) $(WARN) $(CFLAGS) -DFUZZ_ENC=$* -DFUZZ_FROM=$(FUZZ_FROM_$*) -I include -I $(G) -I tests/ref tests/fuzz/fuzz_variants.c \
	  tests/fuzz/replay_main.c tests/ref/ref_utf7.c tests/ref/ref_forms.c $(B)/libutfdfa.a -o $@

$(T)/replay_fast: tests/fuzz/fuzz_fast.c tests/fuzz/fuzz_common.h tests/fuzz/replay_main.c $(UTF8_VARIANTS) \
                 $(UTF8_FAST_HDRS) $(G)/utf8.gen.h $(G)/utf8.fast.gen.h $(G)/utf8.simd.gen.h \
                 $(TEST_LIB) | $(T)
	$(CC) $(WARN) $(CFLAGS) -I include -I $(G) -I src/fast/utf8 -I src/fast -I tests/fast $< \
	  tests/fuzz/replay_main.c tests/fast/utf8_variants.c $(TEST_LIB) -o $@

# The fast-path target reads the UTF-8 seeds (its 2 header bytes are theirs).
check-fuzz-replay: $(FUZZ_TARGETS:%=$(T)/replay_%) $(FB)/seeds/.stamp
	@for e in $(FUZZ_TARGETS); do \
	  s=$$e; [ $$e = fast ] && s=utf8; \
	  reg=; [ -d tests/fuzz/regressions/$$e ] && reg=tests/fuzz/regressions/$$e; \
	  $(T)/replay_$$e replay_$$e $(FB)/seeds/$$s $$reg || exit 1; \
	done

# ---- the CLI under faults (strace is optional: its checks skip without it;
# so is GNU time, which test_cli uses to measure a 20 MB stream's memory)

check-faults: $(B)/utfdfa | $(B)/.faults-tools-ok
	$(PYTHON) tests/cli/test_faults.py $(B)

# A 2 GiB stream generated on the fly; the max RSS comes from GNU time.
check-stream-2g: $(B)/utfdfa
	$(call need_tools,/usr/bin/time:time)
	$(PYTHON) tests/cli/test_faults.py $(B) --big

CHECKS += check-hostile check-ref-wide check-fuzz-replay check-faults

# ---- reference UTF-7 (RFC 2152): an oracle for the library's UTF-7, written
# from the RFC alone. Its own vectors and round trips, then against Python's
# utf-7 codec (tests/ref/ref_utf7_selftest.py; nothing generated is stored).
.PHONY: check-ref-utf7

$(T)/ref_utf7_test: tests/ref/ref_utf7_test.c tests/ref/ref_utf7.c tests/ref/ref_utf7.h | $(T)
	$(CC) $(WARN) $(CFLAGS) -I tests/ref $< tests/ref/ref_utf7.c -o $@

check-ref-utf7: $(T)/ref_utf7_test
	$(T)/ref_utf7_test
	$(PYTHON) tests/ref/ref_utf7_selftest.py $(T)

CHECKS += check-ref-utf7

# ---- sanitizers: the same rules, rebuilt by a sub-make into the fuzz build
# Every C suite, the examples and the CLI suites, built with ASan+UBSan by
# clang: the library is the one the fuzz targets link ($(FB)/libutfdfa.a,
# FUZZ_FLAGS plus libFuzzer's coverage hooks, which do nothing outside a
# fuzzer), so CI compiles it once. clang's UBSan also checks pointer
# arithmetic (NULL + 0), which gcc's does not.
# Two parts are lighter there: test_decode's exhaustive part (UTFDFA_QUICK=1)
# and test_fast's length-3 strings (TEST_FAST_QUICK=1) take minutes under
# ASan and run in make check; re2c_cross only checks the grammar. The CLI
# suites run with LeakSanitizer off: a leak at exit would turn every exit
# status into 23; leaks are valgrind's job (check-valgrind, --leak-check=full).
# With make -j2 (as .ci/run) the sanitized suites and valgrind run side by side.
SANITIZE_CHECKS = check-unit check-stream check-engines check-examples check-example-fd check-example-re2c \
                  check-hostile check-contract check-ref-wide check-ref-utf7 check-fuzz-replay check-fast \
                  check-kernels check-lookup check-fast-levels check-rep-tokens check-utf7-kernels check-cli \
                  check-beyond-cli check-faults

.PHONY: check-sanitize-suites
check-sanitize: check-sanitize-suites check-valgrind
	@echo "check-sanitize: all passed"

check-sanitize-suites: $(FB)/libutfdfa.a | $(B)/.faults-tools-ok
	UTFDFA_QUICK=1 TEST_FAST_QUICK=1 TEST_KERNELS_QUICK=1 $(MAKE) --no-print-directory B=$(FB) CC=$(FUZZ_CC) \
	  CFLAGS='$(FUZZ_LIB_FLAGS)' $(SANITIZE_CHECKS)

check-cli check-beyond-cli check-faults: export ASAN_OPTIONS = detect_leaks=0

# valgrind: the plain build (valgrind cannot run ASan binaries): the hostile
# suite, the CLI's representative commands under faults (every decoder,
# encoder, error mode and exit path), and the CLI suite with the first two
# invocations of each of its tests under valgrind (valgrind's start-up is a
# second; every invocation would take most of an hour).
check-valgrind: $(B)/utfdfa $(T)/test_hostile | $(B)/.faults-tools-ok
	$(call need_tools,valgrind:valgrind)
	valgrind -q --error-exitcode=99 --leak-check=full $(T)/test_hostile
	$(PYTHON) tests/cli/test_faults.py $(B) --valgrind
	TEST_CLI_VALGRIND=2 $(PYTHON) tests/cli/test_cli.py $(B)
