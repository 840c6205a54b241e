# SPDX-License-Identifier: MIT
# The main test suites.
# Included by the top-level Makefile, which defines B, G, T, CC and the flags.

# ------------------------------------------------------------------ tests
# Each part of the test suite adds itself to CHECKS.
CHECKS = check-gen check-repro check-docs check-re2c check-ref check-unit check-engines \
         check-examples check-cli

check-gen: generated $(T)/registry_probe
	$(PYTHON) tests/gen/test_abnfc.py
	$(PYTHON) tests/gen/test_emit_fast.py
	$(PYTHON) tests/gen/test_emit_regex.py
	$(PYTHON) tests/gen/test_registry.py $(T)/registry_probe

# What the library says of each encoding, for test_registry.py.
$(T)/registry_probe: tests/gen/registry_probe.c include/utfdfa.h $(B)/libutfdfa.a | $(T)
	$(CC) $(WARN) $(CFLAGS) -I include $< $(B)/libutfdfa.a -o $@

# Two generations of everything must be byte-identical.
check-repro: | $(B)/.tools-ok
	@rm -rf $(B)/repro && mkdir -p $(B)/repro/a $(B)/repro/b
	@for d in a b; do for g in $(GRAMMARS); do \
	  for e in c re2c re2c-lexer regex ragel json dot mermaid; do \
	    $(ABNFC) grammar/$$g.abnf --emit $$e --defs $$g.defs.re -o $(B)/repro/$$d/$$g.$$e || exit 1; \
	  done; \
	  cp $(B)/repro/$$d/$$g.re2c $(B)/repro/$$d/$$g.defs.re; \
	  $(RE2C) $(RE2CFLAGS) -I $(B)/repro/$$d $(B)/repro/$$d/$$g.re2c-lexer -o $(B)/repro/$$d/$$g.lexer.c || exit 1; \
	done; done
	@for d in a b; do for g in $(FAST_GRAMMARS); do \
	  $(ABNFC) grammar/$$g.abnf --emit c-fast -o $(B)/repro/$$d/$$g.c-fast || exit 1; \
	done; done
	@for d in a b; do for g in $(SIMD_GRAMMARS); do \
	  $(ABNFC) grammar/$$g.abnf --emit c-simd -o $(B)/repro/$$d/$$g.c-simd \
	    2> $(B)/repro/$$d/$$g.c-simd.note || { cat $(B)/repro/$$d/$$g.c-simd.note >&2; exit 1; }; \
	done; done
	@diff -r $(B)/repro/a $(B)/repro/b && echo "check-repro: 1 passed, 0 failed (two generations identical)"

# The lookup validator's tables: each grammar's proved equal to its DFA, the
# others' reasons checked (tests/gen/test_simd_derive.py).
.PHONY: check-simd-derive
check-simd-derive: $(SIMD_GEN_HEADERS) | $(B)/.tools-ok
	CC="$(CC)" $(PYTHON) tests/gen/test_simd_derive.py $(G) $(SIMD_GRAMMARS)

CHECKS += check-simd-derive

# The docs: README is the entry point (at most 200 lines); every path a doc or
# a source file names exists, from the top or from src/ (decode/dfa.h), and
# so does every make check-/bench- target (tests/layout/check_paths.py); doc/grammars.md
# draws the UTF-8 DFA as a Mermaid diagram, which must be what the generator
# emits now.
README_MAX_LINES = 200
.PHONY: check-docs
check-docs: $(B)/utf8.mmd
	@n=$$(wc -l < README.md); [ $$n -le $(README_MAX_LINES) ] \
	  || { echo "check-docs: README.md is $$n lines, more than $(README_MAX_LINES): move detail to doc/" >&2; exit 1; }
	@$(PYTHON) tests/layout/test_check_paths.py -q
	@$(PYTHON) tests/layout/check_paths.py .
	@$(PYTHON) tests/gen/doc_mermaid.py doc/grammars.md $(B)/utf8.mmd

$(T)/re2c_cross.c: tests/conformance/re2c_cross.re | $(T) $(B)/.tools-ok
	$(RE2C) -8 --encoding-policy fail $(RE2CFLAGS) $< -o $@.tmp && mv $@.tmp $@

$(T)/re2c_cross: $(T)/re2c_cross.c $(G)/utf8.gen.h
	$(CC) $(WARN) -O2 -pthread -I $(G) $< -o $@

check-re2c: $(T)/re2c_cross
	$(T)/re2c_cross

$(T)/ref_dump: tests/ref/ref_utf8.c tests/ref/ref_dump.c tests/ref/ref_utf8.h | $(T)
	$(CC) $(WARN) -O2 tests/ref/ref_utf8.c tests/ref/ref_dump.c -o $@

# The reference decoder is itself checked against Python's codecs.
check-ref: $(T)/ref_dump
	$(PYTHON) tests/ref/ref_selftest.py $(T)

SHARED ?= ../shared

# ---- the C suites, by feature: tests/decode (each decoder against its
# reference), tests/encode, tests/stream (the generic driver: every encoding's
# vectors through every sink, error mode, chunking and output room; hostile
# inputs), tests/contract (the API's promises under abuse). tests/common (the
# feeding loop, the references of tests/ref behind one interface, CHECK, the
# small helpers) is compiled once into a static library linked into each.
TEST_CFLAGS = $(WARN) $(CFLAGS) -I tests/common -I tests/ref
TEST_HDRS = $(wildcard tests/common/*.h) $(wildcard tests/ref/*.h)
TEST_COMMON_OBJS = $(addprefix $(T)/common/,common.o drive.o oracle.o plain_dfa.o levels.o ref_utf8.o \
                                             ref_utf16.o ref_utf32.o ref_forms.o ref_utf7.o)
TEST_COMMON = $(T)/libtestcommon.a

$(T)/common/%.o: tests/common/%.c $(TEST_HDRS) include/utfdfa.h | $(T)
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -I include -c $< -o $@
$(T)/common/%.o: tests/ref/%.c $(TEST_HDRS) include/utfdfa.h | $(T)
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -I include -c $< -o $@
# The level loop takes the levels' names from their rows (src/fast/levels.h).
$(T)/common/levels.o: TEST_CFLAGS += -I src
$(T)/common/levels.o: $(KERNEL_HEADERS)
$(TEST_COMMON): $(TEST_COMMON_OBJS)
	rm -f $@ && ar rcs $@ $^

# A suite is tests/FEATURE/NAME.c, linked with the common library and the
# library with its test hooks (TEST_LIB, mk/lib.mk).
LIB_TESTS = decode/test_decode decode/test_variants decode/test_forms decode/test_utf7 \
            decode/test_utf7_ref decode/test_imap_iconv encode/test_encode encode/test_encode_levels \
            stream/test_vectors \
            stream/test_hostile contract/test_bounds contract/test_writer_agrees \
            contract/test_garbage_state decode/test_byte_order decode/test_utf8_part \
            stream/test_direct decode/test_error_rule stream/test_target_change stream/test_position \
            contract/test_lengths
$(foreach t,$(LIB_TESTS),$(eval $(T)/$(notdir $(t)): tests/$(t).c))
$(addprefix $(T)/,$(notdir $(LIB_TESTS))): $(TEST_COMMON) $(TEST_HDRS) include/utfdfa.h \
                                            $(TEST_LIB) | $(T)
	$(CC) $(TEST_CFLAGS) -I include -I $(T) -I $(G) $(filter %.c,$^) $(TEST_COMMON) \
	  $(TEST_LIB) -o $@
# The generated fact it checks (utf8_sublanguages).
$(T)/test_utf8_part: $(REGISTRY_HEADER)

# The re2c lexer generated from the same ABNF against the table engine.
$(T)/test_engines: tests/decode/test_engines.c $(G)/utf8.lexer.c $(TEST_COMMON) $(TEST_HDRS) \
                   $(B)/libutfdfa.a | $(T)
	$(CC) $(TEST_CFLAGS) -I include -I $(G) $< $(TEST_COMMON) $(B)/libutfdfa.a -o $@

check-engines: $(T)/test_engines
	$(T)/test_engines

# Decoders and encoders against their references; IMAP's UTF-7 against glibc's
# (iconv(3); a note and a pass without it); CESU-8, modified UTF-8 and WTF-8
# against tests/ref/ref_forms.c (and through the CLI against Python's codecs);
# UTF-16/32 without a byte order against Python's codecs; the UTF-8 text
# inside RFC 2279, CESU-8, modified UTF-8 and WTF-8 (UTF-8's fast paths)
# against tests/ref at every kernel level; the encoder at every kernel level
# against a model of its contract over tests/ref.
check-unit: $(T)/test_decode $(T)/test_variants $(T)/test_encode $(T)/test_encode_levels \
            $(T)/test_utf7 $(T)/test_utf7_ref $(T)/test_forms $(T)/test_imap_iconv $(T)/test_byte_order $(T)/test_utf8_part \
            $(T)/test_error_rule $(T)/test_target_change $(T)/test_position check-deprecated
	$(T)/test_decode $(SHARED)
	$(T)/test_variants
	$(T)/test_encode
	$(T)/test_encode_levels
	$(T)/test_utf7
	$(T)/test_utf7_ref
	$(T)/test_forms
	$(T)/test_imap_iconv
	$(T)/test_byte_order
	$(T)/test_utf8_part
	$(T)/test_error_rule
	$(T)/test_target_change
	$(T)/test_position

# UTF-16 and UTF-32 without a byte order against Python's codecs: the
# expected results are generated (tests/decode/byte_order_vectors.py).
$(T)/byte_order_vectors.h: tests/decode/byte_order_vectors.py | $(T) $(B)/.tools-ok
	$(PYTHON) $< $@.tmp && mv $@.tmp $@

$(T)/test_byte_order: $(T)/byte_order_vectors.h

# The old name enum utfdfa_errors still compiles, in C and C++, with a
# deprecation warning; with UTFDFA_NO_DEPRECATED it is gone; a compiler that
# is not GCC-like (played by -U__GNUC__ -U__clang__) compiles it silently.
.PHONY: check-deprecated
check-deprecated: | $(T)
	@printf '#include <utfdfa.h>\nint main(void) { enum utfdfa_errors m = UTFDFA_REPLACE; return (int)m - 1; }\n' \
	  > $(T)/old_name.c && cp $(T)/old_name.c $(T)/old_name.cpp
	@$(CC) -std=c11 -I include -c $(T)/old_name.c -o $(T)/old_name.o 2> $(T)/old_name.err \
	  && grep -q 'enum utfdfa_errors is deprecated' $(T)/old_name.err \
	  || { echo "check-deprecated: enum utfdfa_errors does not compile with a warning" >&2; exit 1; }
	@if command -v c++ >/dev/null 2>&1; then c++ -I include -c $(T)/old_name.cpp -o $(T)/old_name.o \
	  2>/dev/null || { echo "check-deprecated: enum utfdfa_errors fails in C++" >&2; exit 1; }; fi
	@! $(CC) -std=c11 -DUTFDFA_NO_DEPRECATED -I include -c $(T)/old_name.c -o $(T)/old_name.o 2>/dev/null \
	  || { echo "check-deprecated: UTFDFA_NO_DEPRECATED still has enum utfdfa_errors" >&2; exit 1; }
	@$(CC) $(WARN) -U__GNUC__ -U__clang__ -I include -c $(T)/old_name.c -o $(T)/old_name.o \
	  || { echo "check-deprecated: a compiler that is not GCC-like (-U__GNUC__) is given GCC's pragma" >&2; \
	       exit 1; }
	@echo "check-deprecated: 4 passed, 0 failed"

# The generic driver (tests/stream/test_vectors.c), with the run-time choice
# and then forced to each kernel level (src/fast/levels.h): a CPU without a
# level skips it, and every level the CPU has must agree. The names: every
# ISA's rows (src/fast/levels.h, src/fast/*/levels.h); a build skips the
# ones it lacks.
FAST_LEVEL_NAMES := ${shell sed -n 's/^[[:space:]]*X([A-Z0-9_]*, *\([a-z0-9_]*\),.*/\1/p' \
                      src/fast/levels.h $(sort $(wildcard src/fast/*/levels.h))}
.PHONY: check-stream
check-stream: $(T)/test_vectors
	$(T)/test_vectors
	@for level in $(FAST_LEVEL_NAMES); do echo "test_vectors --level $$level"; \
	  $(T)/test_vectors --level $$level || exit 1; done

CHECKS += check-stream

check-beyond-cli: $(B)/utfdfa
	$(PYTHON) tests/cli/test_beyond.py $(B)

CHECKS += check-beyond-cli

# Embedding: the example includes only the generated header.
$(T)/json_string: tests/examples/json_string.c $(G)/utf8.gen.h | $(T)
	$(CC) $(WARN) $(CFLAGS) -I $(G) $< -o $@

check-examples: $(T)/json_string
	$(T)/json_string

check-cli: $(B)/utfdfa | $(B)/.faults-tools-ok
	$(PYTHON) tests/cli/test_cli.py $(B)
	$(PYTHON) tests/cli/test_positions.py $(B)
	$(PYTHON) tests/cli/test_output_files.py $(B)

# The runtime's layout (src/: library, fast paths, CLI): no source file over
# 500 lines, no function over 80, none over 8 parameters in the folders the
# script's scope lists, the layers' includes (output/ below decode/ and
# encode/); tests/layout/check_layout.py, tried first on trees of its own
# (tests/layout/test_check_layout.py).
.PHONY: check-layout
check-layout: | $(B)/.tools-ok
	@$(PYTHON) tests/layout/test_check_layout.py -q
	$(PYTHON) tests/layout/check_layout.py src
CHECKS += check-layout
