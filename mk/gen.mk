# SPDX-License-Identifier: MIT
# Generation: the grammars compiled by gen/ into build/gen.
# Included by the top-level Makefile, which defines B, G, T, CC and the flags.

# -------------------------------------------------------------- generation
# Every output depends on its grammar, every generator file and this
# Makefile; abnfc writes through a temporary file and renames it.
$(G)/%.gen.h: grammar/%.abnf $(GEN_DEPS) | $(G) $(B)/.tools-ok
	$(ABNFC) $< --emit c -o $@

$(G)/%.fast.gen.h: grammar/%.abnf $(GEN_DEPS) | $(G) $(B)/.tools-ok
	$(ABNFC) $< --emit c-fast -o $@

# The lookup validator's tables (gen/derive_simd.py), for every grammar the
# runtime decodes with: a grammar that does not fit the model gets a header
# that says why (PREFIX_SIMD_DERIVED 0, PREFIX_SIMD_WHY) and a note on stderr.
SIMD_GRAMMARS = $(ENCODING_GRAMMARS)
SIMD_GEN_HEADERS = $(SIMD_GRAMMARS:%=$(G)/%.simd.gen.h)
generated: $(SIMD_GEN_HEADERS)

$(G)/%.simd.gen.h: grammar/%.abnf $(GEN_DEPS) | $(G) $(B)/.tools-ok
	$(ABNFC) $< --emit c-simd -o $@

# The fused kernels' pshufb and tbl controls (wide.gen.h, included by
# src/fast/x86/wide_sse4.h and src/fast/arm64/wide_neon.h).
generated: $(G)/wide.gen.h
$(G)/wide.gen.h: gen/emit_wide.py $(GEN_DEPS) | $(G) $(B)/.tools-ok
	$(PYTHON) gen/emit_wide.py -o $@

# The 128-bit UTF-8 transcoder's shuffle tables (gen/emit_shuffle.py).
generated: $(G)/utf8.shuffle.gen.h

$(G)/%.shuffle.gen.h: grammar/%.abnf $(GEN_DEPS) | $(G) $(B)/.tools-ok
	$(ABNFC) $< --emit c-shuffle -o $@

# The registry's outputs read the grammars its rows name.
# The tables include the rows header: whatever needs them has it too.
$(REGISTRY_HEADER): $(REGISTRY) $(ENCODING_GRAMMARS:%=grammar/%.abnf) $(GEN_DEPS) \
                      $(ROWS_HEADER) | $(G) $(B)/.tools-ok
	$(PYTHON) gen/registry.py $(REGISTRY) --emit c -o $@

$(ROWS_HEADER): $(REGISTRY) $(GEN_DEPS) | $(G) $(B)/.tools-ok
	$(PYTHON) gen/registry.py $(REGISTRY) --emit rows -o $@

$(G)/encodings.mk: $(REGISTRY) $(GEN_DEPS) | $(G) $(B)/.tools-ok
	$(PYTHON) gen/registry.py $(REGISTRY) --emit make -o $@

$(G)/%.defs.re: grammar/%.abnf $(GEN_DEPS) | $(G) $(B)/.tools-ok
	$(ABNFC) $< --emit re2c -o $@

$(G)/%.lexer.re: grammar/%.abnf $(GEN_DEPS) | $(G) $(B)/.tools-ok
	$(ABNFC) $< --emit re2c-lexer --defs $*.defs.re -o $@

$(G)/%.lexer.c: $(G)/%.lexer.re $(G)/%.defs.re | $(B)/.tools-ok
	$(RE2C) $(RE2CFLAGS) -I $(G) $< -o $@.tmp && mv $@.tmp $@

$(G)/%.json: grammar/%.abnf $(GEN_DEPS) | $(G) $(B)/.tools-ok
	$(ABNFC) $< --emit json -o $@

$(B)/%.dot: grammar/%.abnf $(GEN_DEPS) | $(B) $(B)/.tools-ok
	$(ABNFC) $< --emit dot -o $@

$(B)/%.mmd: grammar/%.abnf $(GEN_DEPS) | $(B) $(B)/.tools-ok
	$(ABNFC) $< --emit mermaid -o $@

dfa: $(PICTURES)
	@if command -v dot >/dev/null 2>&1; then \
	  for f in $(GRAMMARS); do dot -Tsvg $(B)/$$f.dot -o $(B)/$$f.svg && echo "wrote $(B)/$$f.svg"; done; \
	else echo "graphviz is not installed: wrote the .dot files only (apt-get install graphviz)"; fi
