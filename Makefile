# utfdfa: a table-driven UTF decoder generated from ABNF.
#
#   make         generate the DFAs from grammar/ and build the library and CLI
#   make check   run every test (what CI runs)
#   make dfa     draw the DFAs (build/*.dot, and .svg when graphviz is there)
#
# Generated files live under build/ only.

PYTHON ?= python3
RE2C   ?= re2c
CC     ?= cc
CFLAGS ?= -O2 -g
WARN    = -std=c11 -Wall -Wextra -Wpedantic -Werror
RE2CFLAGS = -W -Werror --no-generation-date --no-version -i

B = build
G = $(B)/gen
T = $(B)/tests

GRAMMARS = utf8
GEN_DEPS = $(wildcard gen/*.py) Makefile
ABNFC    = $(PYTHON) gen/abnfc.py

HEADERS  = $(GRAMMARS:%=$(G)/%.gen.h)
DEFS     = $(GRAMMARS:%=$(G)/%.defs.re)
LEXERS   = $(GRAMMARS:%=$(G)/%.lexer.c)
JSONS    = $(GRAMMARS:%=$(G)/%.json)
PICTURES = $(GRAMMARS:%=$(B)/%.dot) $(GRAMMARS:%=$(B)/%.mmd)
GENERATED = $(HEADERS) $(DEFS) $(LEXERS) $(JSONS)

.PHONY: all generated dfa check check-gen check-re2c check-repro check-readme \
        check-ref check-unit check-engines check-examples check-cli deps clean
.DELETE_ON_ERROR:

LIB_SRCS = src/utfdfa.c
LIB_OBJS = $(LIB_SRCS:src/%.c=$(B)/obj/%.o)

all: generated $(B)/libutfdfa.a $(B)/utfdfa

generated: $(GENERATED)

# ------------------------------------------------------------------ tools
# A fresh Debian machine may lack re2c (and python3). Install what is
# missing when we can (root with apt-get), otherwise say exactly what to run.
$(B)/.tools-ok: | $(B)
	@missing=""; \
	command -v $(RE2C) >/dev/null 2>&1 || missing="$$missing re2c"; \
	command -v $(PYTHON) >/dev/null 2>&1 || missing="$$missing python3"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing$$missing with apt-get"; \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing) >/dev/null \
	      || { echo "apt-get install$$missing failed" >&2; exit 1; }; \
	  else \
	    echo "missing:$$missing; install with: sudo apt-get install$$missing" >&2; \
	    exit 1; \
	  fi; \
	fi
	@touch $@

deps: $(B)/.tools-ok

$(B) $(G) $(T):
	@mkdir -p $@

# -------------------------------------------------------------- generation
# Every output depends on its grammar, every generator file and this
# Makefile; abnfc writes through a temporary file and renames it.
$(G)/%.gen.h: grammar/%.abnf $(GEN_DEPS) | $(G) $(B)/.tools-ok
	$(ABNFC) $< --emit c -o $@

$(G)/%.defs.re: grammar/%.abnf $(GEN_DEPS) | $(G) $(B)/.tools-ok
	$(ABNFC) $< --emit re2c -o $@

$(G)/%.lexer.re: grammar/%.abnf $(GEN_DEPS) | $(G) $(B)/.tools-ok
	$(ABNFC) $< --emit re2c-lexer -o $@

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

# ---------------------------------------------------------------- library
$(B)/obj/%.o: src/%.c include/utfdfa.h $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) -fPIC -fvisibility=hidden -DUTFDFA_BUILD -I include -I $(G) -c $< -o $@

$(B)/libutfdfa.a: $(LIB_OBJS)
	rm -f $@ && ar rcs $@ $^

$(B)/utfdfa: src/cli.c include/utfdfa.h $(B)/libutfdfa.a
	$(CC) $(WARN) $(CFLAGS) -I include $< $(B)/libutfdfa.a -o $@

# ------------------------------------------------------------------ tests
# Each part of the test suite adds itself to CHECKS.
CHECKS = check-gen check-repro check-readme check-re2c check-ref check-unit check-engines \
         check-examples check-cli

check: $(CHECKS)
	@echo "make check: all passed"

check-gen: generated
	$(PYTHON) tests/gen/test_abnfc.py

# Two generations of everything must be byte-identical.
check-repro: | $(B)/.tools-ok
	@rm -rf $(B)/repro && mkdir -p $(B)/repro/a $(B)/repro/b
	@for d in a b; do for g in $(GRAMMARS); do \
	  for e in c re2c re2c-lexer json dot mermaid; do \
	    $(ABNFC) grammar/$$g.abnf --emit $$e -o $(B)/repro/$$d/$$g.$$e || exit 1; \
	  done; \
	  cp $(B)/repro/$$d/$$g.re2c $(B)/repro/$$d/$$g.defs.re; \
	  $(RE2C) $(RE2CFLAGS) -I $(B)/repro/$$d $(B)/repro/$$d/$$g.re2c-lexer -o $(B)/repro/$$d/$$g.lexer.c || exit 1; \
	done; done
	@diff -r $(B)/repro/a $(B)/repro/b && echo "check-repro: 1 passed, 0 failed (two generations identical)"

# README shows the UTF-8 DFA as a Mermaid diagram: it must be what the generator emits now.
check-readme: $(B)/utf8.mmd
	@$(PYTHON) tests/gen/readme_mermaid.py README.md $(B)/utf8.mmd

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

$(T)/test_decode: tests/unit/test_decode.c tests/unit/vectors.h tests/ref/ref_utf8.c include/utfdfa.h $(B)/libutfdfa.a | $(T)
	$(CC) $(WARN) $(CFLAGS) -I include -I tests/ref -I tests/unit $< tests/ref/ref_utf8.c $(B)/libutfdfa.a -o $@

SHARED ?= ../shared

$(T)/test_engines: tests/unit/test_engines.c tests/unit/vectors.h $(G)/utf8.lexer.c $(B)/libutfdfa.a | $(T)
	$(CC) $(WARN) $(CFLAGS) -I include -I $(G) -I tests/unit $< $(B)/libutfdfa.a -o $@

check-engines: $(T)/test_engines
	$(T)/test_engines

check-unit: $(T)/test_decode
	$(T)/test_decode $(SHARED)

# Embedding: the example includes only the generated header.
$(T)/json_string: tests/examples/json_string.c $(G)/utf8.gen.h | $(T)
	$(CC) $(WARN) $(CFLAGS) -I $(G) $< -o $@

check-examples: $(T)/json_string
	$(T)/json_string

check-cli: $(B)/utfdfa
	$(PYTHON) tests/cli/test_cli.py $(B)

clean:
	rm -rf $(B)
