# SPDX-License-Identifier: MIT
# libFuzzer targets.
# Included by the top-level Makefile, which defines B, G, T, CC and the flags.

# ---- libFuzzer (clang): the library rebuilt with coverage and ASan+UBSan
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_MAX_LEN ?= 1024
FUZZ_FLAGS    = -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
# Inlining as a hint only (src/common.h): forced, clang takes minutes a file.
FUZZ_LIB_FLAGS = $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -DUTFDFA_INLINE_HINTS


$(FB)/libutfdfa.a: always-remake | $(B)/.fuzz-tools-ok
	@$(MAKE) --no-print-directory B=$(FB) CC=$(FUZZ_CC) CFLAGS='$(FUZZ_LIB_FLAGS)' \
	  $@ $(FB)/libutfdfa-hooks.a $(FB)/gen/utf8.lexer.c $(FB)/gen/utf8-rfc2279.lexer.c $(FB)/gen/corrected-utf-8.lexer.c

$(FB)/fuzz_%: tests/fuzz/fuzz_decode.c tests/fuzz/fuzz_common.h $(REF_SRCS) $(REF_HDRS) $(FB)/libutfdfa.a
	$(FUZZ_CC) $(WARN) $(FUZZ_FLAGS) -fsanitize=fuzzer -DFUZZ_ENC=$* -DFUZZ_FROM=$(FUZZ_FROM_$*) -I include -I $(FB)/gen -I tests/ref \
	  $< $(REF_SRCS) $(FB)/libutfdfa.a -o $@

$(FUZZ_VARIANTS:%=$(FB)/fuzz_%): $(FB)/fuzz_%: $(VARIANT_DEPS:$(G)/%=$(FB)/gen/%) $(FB)/libutfdfa.a
	$(FUZZ_CC) $(WARN) $(FUZZ_FLAGS) -fsanitize=fuzzer -DFUZZ_ENC=$* -DFUZZ_FROM=$(FUZZ_FROM_$*) -I include -I $(FB)/gen \
	  -I tests/ref tests/fuzz/fuzz_variants.c tests/ref/ref_utf7.c tests/ref/ref_forms.c \
	  $(FB)/libutfdfa.a -o $@

# The variants ask which levels the CPU has: the library with its test hooks (mk/lib.mk).
$(FB)/fuzz_fast: tests/fuzz/fuzz_fast.c tests/fuzz/fuzz_common.h $(UTF8_VARIANTS) $(UTF8_FAST_HDRS) $(FB)/libutfdfa.a
	$(FUZZ_CC) $(WARN) $(FUZZ_FLAGS) -fsanitize=fuzzer -I include -I $(FB)/gen \
	  -I src/fast/utf8 -I src/fast -I tests/fast $< tests/fast/utf8_variants.c $(FB)/libutfdfa-hooks.a -o $@

# The fuzz build's generated files come from the sub-make above.
$(filter $(FB)/gen/%,$(VARIANT_DEPS:$(G)/%=$(FB)/gen/%)): $(FB)/libutfdfa.a ;

fuzz-build: $(FUZZ_TARGETS:%=$(FB)/fuzz_%)

# New inputs accumulate in build/fuzz/corpus/; a crash leaves its input in
# build/fuzz/artifacts/TARGET/ and the log's end is printed. One target per
# job: make -j2 fuzz runs two at a time.
FUZZ_RUNS = $(FUZZ_TARGETS:%=fuzz-run-%)
.PHONY: $(FUZZ_RUNS)
fuzz: $(FUZZ_RUNS)

$(FUZZ_RUNS): fuzz-run-%: $(FB)/fuzz_% $(FB)/seeds/.stamp
	@e=$*; s=$$e; [ $$e = fast ] && s=utf8; \
	mkdir -p $(FB)/corpus/$$e $(FB)/artifacts/$$e; \
	$(FB)/fuzz_$$e -max_total_time=$(FUZZ_SECONDS) -max_len=$(FUZZ_MAX_LEN) -timeout=30 \
	  -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix=$(FB)/artifacts/$$e/ \
	  $(FB)/corpus/$$e $(FB)/seeds/$$s > $(FB)/fuzz_$$e.log 2>&1 \
	  || { tail -n 40 $(FB)/fuzz_$$e.log; \
	       echo "fuzz_$$e: 0 passed, 1 failed (input saved in $(FB)/artifacts/$$e/)"; exit 1; }; \
	runs=$$(sed -n 's/^stat::number_of_executed_units: *//p' $(FB)/fuzz_$$e.log); \
	echo "fuzz_$$e: $$runs passed, 0 failed ($(FUZZ_SECONDS) s, $$(ls $(FB)/corpus/$$e | wc -l) corpus inputs)"
