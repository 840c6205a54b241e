# SPDX-License-Identifier: MIT
# The fast paths' suites (src/fast/): every kernel level this CPU runs, each
# against the plain loop or an oracle of its own. Part of make check.
# Included by the top-level Makefile, which defines B, G, T, CC and the flags.

# The fast paths equal the plain per-byte loop: every variant, for UTF-8, for
# UTF-8 without shift rows and for the other grammars (tests/fast/test_fast.c).
$(T)/test_fast: tests/fast/test_fast.c tests/fast/fast_generic.c tests/fast/fast_generic.h \
                $(TEST_HDRS) $(TEST_COMMON) $(UTF8_VARIANTS) $(UTF8_FAST_HDRS) $(HEADERS) \
                $(FAST_GEN_HEADERS) $(TEST_LIB) | $(T)
	$(CC) $(WARN) $(CFLAGS) -I $(G) -I tests/common -I src/fast/utf8 -I src/fast -I tests/fast \
	  $< tests/fast/fast_generic.c tests/fast/utf8_variants.c $(TEST_COMMON) \
	  $(TEST_LIB) -o $@

.PHONY: check-fast
check-fast: $(T)/test_fast
	$(T)/test_fast $(SHARED)

CHECKS += check-fast

# The decoders the library calls, forced to each kernel level, against the
# plain loop (tests/fast/test_fast_levels.c).
.PHONY: check-fast-levels
$(T)/test_fast_levels: tests/fast/test_fast_levels.c $(TEST_HDRS) $(TEST_COMMON) \
                       $(TEST_LIB) $(G)/utf8.gen.h | $(T)
	$(CC) $(TEST_CFLAGS) -I include -I $(G) -I src/fast/utf8 -I src/fast $< $(TEST_COMMON) $(TEST_LIB) -o $@

check-fast-levels: $(T)/test_fast_levels
	$(T)/test_fast_levels $(SHARED)

CHECKS += check-fast-levels

# The fast kernels (src/fast/): every level this CPU runs, forced in turn,
# against an oracle written in the test (tests/fast/test_kernels.c);
# `build/tests/test_kernels --speed` prints a rough ASCII throughput per level.
.PHONY: check-kernels
$(T)/test_kernels: tests/fast/test_kernels.c $(TEST_HDRS) $(TEST_COMMON) $(KERNEL_HEADERS) \
                   $(TEST_LIB) | $(T)
	$(CC) $(WARN) $(CFLAGS) -I tests/common -I src $< $(TEST_COMMON) $(TEST_LIB) -o $@

# The fused kernel (utfdfa__wide_transcode) likewise (tests/fast/test_wide.c).
$(T)/test_wide: tests/fast/test_wide.c $(TEST_HDRS) $(TEST_COMMON) $(KERNEL_HEADERS) \
                $(TEST_LIB) | $(T)
	$(CC) $(WARN) $(CFLAGS) -I include -I tests/common -I src $< $(TEST_COMMON) $(TEST_LIB) -o $@

check-kernels: $(T)/test_kernels $(T)/test_wide
	$(T)/test_kernels
	$(T)/test_wide

CHECKS += check-kernels

# The lookup validators (src/fast/utf8/lookup*.h, src/fast/arm64/lookup_neon.h):
# each level this CPU runs, the library's UTF-8 kernels and the same kernels over every grammar
# whose tables gen/derive_simd.py derives, against the plain DFA
# (tests/fast/test_lookup.c).
# Three grammars of the test's own (tests/fast/lookup/) reach the kernels'
# other shapes: max_len 6, 5 with the cur_low table, 2.
.PHONY: check-lookup
LOOKUP_TEST_GRAMMARS = six five two
LOOKUP_TEST_HDRS = $(SIMD_GEN_HEADERS) $(LOOKUP_TEST_GRAMMARS:%=$(T)/lookup/%.gen.h) \
                   $(LOOKUP_TEST_GRAMMARS:%=$(T)/lookup/%.simd.gen.h)
$(T)/lookup/%.gen.h: tests/fast/lookup/%.abnf $(GEN_DEPS) | $(B)/.tools-ok
	@mkdir -p $(@D)
	$(ABNFC) $< --emit c -o $@

$(T)/lookup/%.simd.gen.h: tests/fast/lookup/%.abnf $(GEN_DEPS) | $(B)/.tools-ok
	@mkdir -p $(@D)
	$(ABNFC) $< --emit c-simd -o $@

$(T)/test_lookup: tests/fast/test_lookup.c $(TEST_HDRS) $(TEST_COMMON) $(UTF8_FAST_HDRS) \
                  $(HEADERS) $(LOOKUP_TEST_HDRS) $(TEST_LIB) | $(T)
	$(CC) $(WARN) $(CFLAGS) -I $(G) -I $(T)/lookup -I tests/common -I src/fast/utf8 -I src/fast $< \
	  $(TEST_COMMON) $(TEST_LIB) -o $@

check-lookup: $(T)/test_lookup
	$(T)/test_lookup $(SHARED)

CHECKS += check-lookup

# The 128-bit UTF-8 transcoder (src/fast/utf8/masked.h): its generated
# shuffle tables against an enumeration in the test, its window step on
# every sequence of character lengths that covers a window.
.PHONY: check-masked
$(T)/test_masked: tests/fast/test_masked.c $(TEST_HDRS) $(TEST_COMMON) $(UTF8_FAST_HDRS) \
                  $(HEADERS) $(G)/utf8.shuffle.gen.h $(G)/utf8.simd.gen.h | $(T)
	$(CC) $(WARN) $(CFLAGS) -I $(G) -I tests/common -I src/fast/utf8 -I src/fast $< \
	  $(TEST_COMMON) -o $@

check-masked: $(T)/test_masked
	$(T)/test_masked

CHECKS += check-masked

# The UTF-7 kernels at every level against an oracle of RFC 2152 / RFC 3501
# written in the test (tests/fast/test_utf7_kernels.c); the UTF-7 suites at
# every level.
.PHONY: check-utf7-kernels
$(T)/test_utf7_kernels: tests/fast/test_utf7_kernels.c $(TEST_HDRS) $(TEST_COMMON) \
                        $(KERNEL_HEADERS) $(TEST_LIB) | $(T)
	$(CC) $(WARN) $(CFLAGS) -I src -I tests/common $< $(TEST_COMMON) $(TEST_LIB) -o $@

check-utf7-kernels: $(T)/test_utf7_kernels $(T)/test_utf7 $(T)/test_utf7_ref $(T)/test_imap_iconv
	$(T)/test_utf7_kernels
	@for level in $(FAST_LEVEL_NAMES); do for t in test_utf7 test_utf7_ref test_imap_iconv; do \
	  echo "$$t --level $$level"; $(T)/$$t --level $$level || exit 1; done; done

CHECKS += check-utf7-kernels

# The AVX2 level's replacing windows by blocks of tokens
# (src/fast/utf8/rep_tokens.h) and the slab decoder over them, brute-forced
# against the replacing loop (tests/fast/test_rep_tokens.c).
.PHONY: check-rep-tokens
$(T)/test_rep_tokens: tests/fast/test_rep_tokens.c $(TEST_HDRS) $(TEST_COMMON) \
                      $(TEST_LIB) $(G)/utf8.gen.h src/fast/isa.h | $(T)
	$(CC) $(TEST_CFLAGS) -I include -I $(G) -I src/fast/utf8 -I src/fast $< $(TEST_COMMON) $(TEST_LIB) -o $@

check-rep-tokens: $(T)/test_rep_tokens
	$(T)/test_rep_tokens

CHECKS += check-rep-tokens
