# SPDX-License-Identifier: MIT
# utfdfa: a table-driven UTF decoder generated from ABNF.
#
#   make         generate the DFAs from grammar/ and build the library and CLI
#   make check   run every test (what CI runs)
#   make dfa     draw the DFAs (build/*.dot, and .svg when graphviz is there)
#   make install, make install-strip, make uninstall   (see the install section)
#   make amalgamate   the single-file build: build/amalgamation/utfdfa.c and utfdfa.h
#
# Generated files live under build/ only.

# Builds use every core by default: when make is given no -j (on its command
# line or in MAKEFLAGS from the environment) and is not a sub-make, the goals
# that compile (none, all, shared, install, install-strip, amalgamate, ...)
# run with -j$(nproc). -jN, -j1 included, always wins, and sub-makes share
# their parent's jobs. Test goals keep running one at a time unless -j is
# given: their output stays in order.
BUILD_GOALS = all generated shared dfa install install-strip amalgamate
ifeq ($(MAKELEVEL)$(filter -j% --jobs%,$(MAKEFLAGS)),0)
ifeq ($(filter-out $(BUILD_GOALS),$(MAKECMDGOALS)),)
ifeq ($(findstring j,$(shell printf '%s' "$${MAKEFLAGS%%-- *}")),)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
endif
endif
endif

PYTHON ?= python3
RE2C   ?= re2c
CC     ?= cc
CFLAGS ?= -O2 -g
WARN    = -std=c11 -Wall -Wextra -Wpedantic -Werror
RE2CFLAGS = -W -Werror --no-generation-date --no-version -i

B = build
G = $(B)/gen
T = $(B)/tests

GEN_DEPS = $(wildcard gen/*.py) Makefile
ABNFC    = $(PYTHON) gen/abnfc.py
REGISTRY = grammar/encodings.registry

# The registry (one row per encoding) gives the lists below: ENCODING_GRAMMARS
# (decoded with their tables), UNIT_GRAMMARS (checked against hand-written
# decoders), CONVERT_SOURCES (the conversion engine's instances: src/convert.h
# is instantiated once per source, src/convert_from.c compiled with each
# name, so make -j compiles them side by side), FUZZ_ENCODINGS and
# FUZZ_VARIANTS. make remakes the fragment first when it is out of date.
include $(G)/encodings.mk
GRAMMARS = $(ENCODING_GRAMMARS) $(UNIT_GRAMMARS)

HEADERS  = $(GRAMMARS:%=$(G)/%.gen.h)
# The UTF-8 fast paths' derived tables (gen/emit_fast.py): UTF-8's for the
# library, the others' for tests/decode/test_fast.c (the same code over them).
FAST_GRAMMARS = utf8 utf8-rfc2279 corrected-utf-8
FAST_GEN_HEADERS = $(FAST_GRAMMARS:%=$(G)/%.fast.gen.h)
# The registry's tables: internal (included by the library, never installed).
REGISTRY_HEADER = $(G)/encodings.gen.h
DEFS     = $(GRAMMARS:%=$(G)/%.defs.re)
LEXER_RES = $(GRAMMARS:%=$(G)/%.lexer.re)
LEXERS   = $(GRAMMARS:%=$(G)/%.lexer.c)
JSONS    = $(GRAMMARS:%=$(G)/%.json)
PICTURES = $(GRAMMARS:%=$(B)/%.dot) $(GRAMMARS:%=$(B)/%.mmd)
# The lexer sources are outputs too (issue 2), not intermediates make may delete.
GENERATED = $(HEADERS) $(FAST_GEN_HEADERS) $(REGISTRY_HEADER) $(DEFS) $(LEXER_RES) $(LEXERS) $(JSONS)

.PHONY: all generated dfa check check-gen check-re2c check-repro check-readme \
        check-ref check-unit check-engines check-examples check-cli deps clean
.DELETE_ON_ERROR:

# The decoders (src/decode/) are instantiated once per source encoding:
# src/decode/convert_from.c compiled with each name of CONVERT_SOURCES (from
# the registry), so make -j compiles them side by side.
# The fast kernels (src/fast/): scalar, SSE2 and AVX2 levels chosen at run
# time; the AVX2 functions carry their target attribute, so no per-file flags.
KERNEL_SRCS = src/fast/scalar.c src/fast/x86/sse2.c src/fast/x86/avx2.c src/fast/dispatch.c
KERNEL_HEADERS = src/fast/kernels.h src/fast/levels.h src/fast/x86/x86.h
# The UTF-8 fast paths (src/fast/utf8/): one file per ISA, select.c chooses at run time.
UTF8_FAST_SRCS = src/fast/utf8/portable.c src/fast/utf8/bmi2.c src/fast/utf8/avx2.c \
                 src/fast/utf8/select.c
UTF8_FAST_HDRS = $(wildcard src/fast/utf8/*.h)
LIB_SRCS = $(wildcard src/api/*.c) src/decode/byte_order.c $(UTF8_FAST_SRCS) $(KERNEL_SRCS)
LIB_OBJS = $(LIB_SRCS:src/%.c=$(B)/obj/%.o) $(CONVERT_SOURCES:%=$(B)/obj/convert_from_%.o)

all: generated $(B)/libutfdfa.a $(B)/utfdfa

generated: $(GENERATED)

# ------------------------------------------------------------------ tools
# A fresh Debian machine may lack re2c (and python3). Install what is
# missing when we can (root with apt-get), otherwise say exactly what to run.
# Installs take turns (flock): with make -j, two apt-get runs at once would
# fight over dpkg's lock and one would fail.
APT_INSTALL = flock /tmp/utfdfa-apt.lock sh -c \
  'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$$@"' apt-install
$(B)/.tools-ok: | $(B)
	@missing=""; \
	command -v $(RE2C) >/dev/null 2>&1 || missing="$$missing re2c"; \
	command -v $(PYTHON) >/dev/null 2>&1 || missing="$$missing python3"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing$$missing with apt-get"; \
	    $(APT_INSTALL) $$missing >/dev/null \
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

$(G)/%.fast.gen.h: grammar/%.abnf $(GEN_DEPS) | $(G) $(B)/.tools-ok
	$(ABNFC) $< --emit c-fast -o $@

# The registry's outputs read the grammars its rows name.
$(REGISTRY_HEADER): $(REGISTRY) $(ENCODING_GRAMMARS:%=grammar/%.abnf) $(GEN_DEPS) \
                      | $(G) $(B)/.tools-ok
	$(PYTHON) gen/registry.py $(REGISTRY) --emit c -o $@

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

# ---------------------------------------------------------------- library
LIB_HEADERS = $(wildcard src/*.h src/api/*.h src/decode/*.h src/encode/*.h) $(KERNEL_HEADERS) \
              $(UTF8_FAST_HDRS) include/utfdfa.h $(HEADERS) $(G)/utf8.fast.gen.h $(REGISTRY_HEADER)

$(B)/obj/%.o: src/%.c $(LIB_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) -fPIC -fvisibility=hidden -DUTFDFA_BUILD -I include -I src -I $(G) \
	  -c $< -o $@

$(B)/obj/convert_from_%.o: src/decode/convert_from.c $(LIB_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) -fPIC -fvisibility=hidden -DUTFDFA_BUILD -DSOURCE_NAME=$* -I include \
	  -I src -I $(G) -c $< -o $@

$(B)/libutfdfa.a: $(LIB_OBJS)
	$(check_version)
	rm -f $@ && ar rcs $@ $^

# The command-line tool: src/cli/, one file each concern.
CLI_SRCS = src/cli/main.c src/cli/stream.c src/cli/position.c src/cli/output.c
CLI_HDRS = src/cli/cli.h src/cli/stream.h src/cli/position.h src/cli/output.h

$(B)/utfdfa: $(CLI_SRCS) $(CLI_HDRS) include/utfdfa.h $(B)/libutfdfa.a
	$(CC) $(WARN) $(CFLAGS) -I include -I src/cli $(CLI_SRCS) $(B)/libutfdfa.a -o $@

# ------------------------------------------------------------------ tests
# Each part of the test suite adds itself to CHECKS.
CHECKS = check-gen check-repro check-readme check-re2c check-ref check-unit check-engines \
         check-examples check-cli

check-gen: generated $(T)/registry_probe
	$(PYTHON) tests/gen/test_abnfc.py
	$(PYTHON) tests/gen/test_emit_fast.py
	$(PYTHON) tests/gen/test_registry.py $(T)/registry_probe

# What the library says of each encoding, for test_registry.py.
$(T)/registry_probe: tests/gen/registry_probe.c include/utfdfa.h $(B)/libutfdfa.a | $(T)
	$(CC) $(WARN) $(CFLAGS) -I include $< $(B)/libutfdfa.a -o $@

# Two generations of everything must be byte-identical.
check-repro: | $(B)/.tools-ok
	@rm -rf $(B)/repro && mkdir -p $(B)/repro/a $(B)/repro/b
	@for d in a b; do for g in $(GRAMMARS); do \
	  for e in c re2c re2c-lexer json dot mermaid; do \
	    $(ABNFC) grammar/$$g.abnf --emit $$e --defs $$g.defs.re -o $(B)/repro/$$d/$$g.$$e || exit 1; \
	  done; \
	  cp $(B)/repro/$$d/$$g.re2c $(B)/repro/$$d/$$g.defs.re; \
	  $(RE2C) $(RE2CFLAGS) -I $(B)/repro/$$d $(B)/repro/$$d/$$g.re2c-lexer -o $(B)/repro/$$d/$$g.lexer.c || exit 1; \
	done; done
	@for d in a b; do for g in $(FAST_GRAMMARS); do \
	  $(ABNFC) grammar/$$g.abnf --emit c-fast -o $(B)/repro/$$d/$$g.c-fast || exit 1; \
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

SHARED ?= ../shared

# ---- the C suites, by feature: tests/decode (each decoder against its
# reference), tests/encode, tests/stream (the generic driver: every encoding's
# vectors through every sink, error mode, chunking and output room; hostile
# inputs), tests/contract (the API's promises under abuse). tests/common (the
# feeding loop, the references of tests/ref behind one interface, CHECK, the
# small helpers) is compiled once into a static library linked into each.
TEST_CFLAGS = $(WARN) $(CFLAGS) -I tests/common -I tests/ref
TEST_HDRS = $(wildcard tests/common/*.h) $(wildcard tests/ref/*.h)
TEST_COMMON_OBJS = $(addprefix $(T)/common/,common.o drive.o oracle.o ref_utf8.o ref_utf16.o \
                                             ref_utf32.o ref_forms.o ref_utf7.o)
TEST_COMMON = $(T)/libtestcommon.a

$(T)/common/%.o: tests/common/%.c $(TEST_HDRS) include/utfdfa.h | $(T)
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -I include -c $< -o $@
$(T)/common/%.o: tests/ref/%.c $(TEST_HDRS) include/utfdfa.h | $(T)
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -I include -c $< -o $@
$(TEST_COMMON): $(TEST_COMMON_OBJS)
	rm -f $@ && ar rcs $@ $^

# A suite is tests/FEATURE/NAME.c, linked with the common library and libutfdfa.a.
LIB_TESTS = decode/test_decode decode/test_variants decode/test_forms decode/test_utf7 \
            decode/test_utf7_ref decode/test_imap_iconv encode/test_encode stream/test_vectors \
            stream/test_hostile contract/test_bounds contract/test_writer_agrees \
            contract/test_garbage_state decode/test_byte_order
$(foreach t,$(LIB_TESTS),$(eval $(T)/$(notdir $(t)): tests/$(t).c))
$(addprefix $(T)/,$(notdir $(LIB_TESTS))): $(TEST_COMMON) $(TEST_HDRS) include/utfdfa.h \
                                            $(B)/libutfdfa.a | $(T)
	$(CC) $(TEST_CFLAGS) -I include -I $(T) $(filter %.c,$^) $(TEST_COMMON) $(B)/libutfdfa.a -o $@

# The re2c lexer generated from the same ABNF against the table engine.
$(T)/test_engines: tests/decode/test_engines.c $(G)/utf8.lexer.c $(TEST_COMMON) $(TEST_HDRS) \
                   $(B)/libutfdfa.a | $(T)
	$(CC) $(TEST_CFLAGS) -I include -I $(G) $< $(TEST_COMMON) $(B)/libutfdfa.a -o $@

check-engines: $(T)/test_engines
	$(T)/test_engines

# Decoders and encoders against their references; IMAP's UTF-7 against glibc's
# (iconv(3); a note and a pass without it); CESU-8, modified UTF-8 and WTF-8
# against tests/ref/ref_forms.c (and through the CLI against Python's codecs);
# UTF-16/32 without a byte order against Python's codecs.
check-unit: $(T)/test_decode $(T)/test_variants $(T)/test_encode $(T)/test_utf7 $(T)/test_utf7_ref \
            $(T)/test_forms $(T)/test_imap_iconv $(T)/test_byte_order check-deprecated
	$(T)/test_decode $(SHARED)
	$(T)/test_variants
	$(T)/test_encode
	$(T)/test_utf7
	$(T)/test_utf7_ref
	$(T)/test_forms
	$(T)/test_imap_iconv
	$(T)/test_byte_order

# UTF-16 and UTF-32 without a byte order against Python's codecs: the
# expected results are generated (tests/decode/byte_order_vectors.py).
$(T)/byte_order_vectors.h: tests/decode/byte_order_vectors.py | $(T) $(B)/.tools-ok
	$(PYTHON) $< $@.tmp && mv $@.tmp $@

$(T)/test_byte_order: $(T)/byte_order_vectors.h

# The old name enum utfdfa_errors still compiles, in C and C++, with a
# deprecation warning; with UTFDFA_NO_DEPRECATED it is gone.
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
	@echo "check-deprecated: 3 passed, 0 failed"

# The generic driver (tests/stream/test_vectors.c).
.PHONY: check-stream
check-stream: $(T)/test_vectors
	$(T)/test_vectors

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

# ============================================================ install (issue 7)
# (shared library, install/uninstall, pkg-config, man pages, utfdfa-gen)
#
#   make install   [PREFIX=/usr/local] [DESTDIR=/staging/root]
#   make uninstall [PREFIX=/usr/local] [DESTDIR=/staging/root]   removes what install put there
#
# Layout under PREFIX (each directory can be overridden: BINDIR, LIBDIR, ...):
#   bin/utfdfa                    the CLI
#   bin/utfdfa-gen                the generator: a sh wrapper that runs share/utfdfa/gen/abnfc.py
#   lib/libutfdfa.a               static library
#   lib/libutfdfa.so.X.Y.Z        shared library, soname libutfdfa.so.X (X.Y.Z = UTFDFA_VERSION),
#   lib/libutfdfa.so.X, .so       with the usual links; only utfdfa_* symbols are exported
#   lib/pkgconfig/utfdfa.pc       pkg-config --cflags --libs utfdfa (--static: the same, libc only)
#   lib/cmake/utfdfa/             find_package(utfdfa): utfdfa::utfdfa (shared), utfdfa::utfdfa_static
#   include/utfdfa.h              the API
#   include/utfdfa/NAME.gen.h     standalone DFA headers: #include <utfdfa/utf8.gen.h>
#   share/utfdfa/NAME.defs.re     re2c definitions: re2c -I "$(pkg-config --variable=pkgdatadir utfdfa)"
#   share/utfdfa/grammar/*.abnf   the grammars
#   share/utfdfa/gen/*.py         the generator itself
#   share/man/man1/utfdfa.1, utfdfa-gen.1, share/man/man3/utfdfa.3 (+ one .so page per function)
#   share/doc/utfdfa/LICENSE      the license
#   share/doc/utfdfa/examples/    the examples and a Makefile that builds them through pkg-config
#
#   make install-strip             the same, the binaries and libraries stripped of debug information
#
# Needs GNU make 4.0 or later ($(file)).

PREFIX        ?= /usr/local
BINDIR         = $(PREFIX)/bin
LIBDIR         = $(PREFIX)/lib
INCLUDEDIR     = $(PREFIX)/include
DFAINCLUDEDIR  = $(INCLUDEDIR)/utfdfa
DATAROOTDIR    = $(PREFIX)/share
PKGDATADIR     = $(DATAROOTDIR)/utfdfa
MANDIR         = $(DATAROOTDIR)/man
PKGCONFIGDIR   = $(LIBDIR)/pkgconfig
CMAKEDIR       = $(LIBDIR)/cmake/utfdfa
DOCDIR         = $(DATAROOTDIR)/doc/utfdfa
EXAMPLESDIR    = $(DOCDIR)/examples
STRIP         ?= strip
INSTALL       ?= install

# The one version number is UTFDFA_VERSION in the header; its first field is the soname's.
LIB_VERSION := $(shell sed -n 's/^.define UTFDFA_VERSION "\([0-9][0-9.]*\)".*/\1/p' include/utfdfa.h)
LIB_MAJOR   := $(firstword $(subst ., ,$(LIB_VERSION)))
# ... and it must be UTFDFA_VERSION_MAJOR.MINOR.PATCH, the macros beside it.
LIB_VERSION_PARTS := $(shell sed -n 's/^.define UTFDFA_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9][0-9]*\)$$/\2/p' \
                       include/utfdfa.h | paste -sd. -)
check_version = $(if $(LIB_VERSION),,$(error no UTFDFA_VERSION "X.Y.Z" in include/utfdfa.h))$(if \
  $(filter $(LIB_VERSION),$(LIB_VERSION_PARTS)),,$(error include/utfdfa.h: UTFDFA_VERSION \
  "$(LIB_VERSION)" is not UTFDFA_VERSION_MAJOR.MINOR.PATCH ($(LIB_VERSION_PARTS))))
# Exported symbols and their versions: the linker's version script.
VERSION_SCRIPT = src/libutfdfa.map
SONAME       = libutfdfa.so.$(LIB_MAJOR)
SHLIB        = $(B)/libutfdfa.so.$(LIB_VERSION)
# Public functions, from the header: one man3 link page each. ($(PAREN): make
# counts parentheses inside $(shell ...).)
PAREN       := (
API_FUNCS   := $(shell sed -n 's/^UTFDFA_API [^$(PAREN)]*[ *]\(utfdfa_[a-z0-9_]*\)[$(PAREN)].*/\1/p' include/utfdfa.h)
# Man pages carry this date, not the build's, so their output is reproducible.
# Change it when the pages change.
MAN_DATE     = 2026-11-25
MAN_PAGES    = $(B)/man/utfdfa.1 $(B)/man/utfdfa-gen.1 $(B)/man/utfdfa.3
GEN_PY       = $(wildcard gen/*.py)
ALL_GRAMMARS = $(wildcard grammar/*.abnf)

# What install puts under $(DESTDIR); uninstall removes exactly this.
INSTALLED = $(BINDIR)/utfdfa $(BINDIR)/utfdfa-gen \
            $(LIBDIR)/libutfdfa.a $(LIBDIR)/$(notdir $(SHLIB)) $(LIBDIR)/$(SONAME) \
            $(LIBDIR)/libutfdfa.so $(PKGCONFIGDIR)/utfdfa.pc $(INCLUDEDIR)/utfdfa.h \
            $(HEADERS:$(G)/%=$(DFAINCLUDEDIR)/%) $(DEFS:$(G)/%=$(PKGDATADIR)/%) \
            $(ALL_GRAMMARS:grammar/%=$(PKGDATADIR)/grammar/%) $(GEN_PY:gen/%=$(PKGDATADIR)/gen/%) \
            $(MANDIR)/man1/utfdfa.1 $(MANDIR)/man1/utfdfa-gen.1 $(MANDIR)/man3/utfdfa.3 \
            $(API_FUNCS:%=$(MANDIR)/man3/%.3) \
            $(CMAKE_FILES:%=$(CMAKEDIR)/%) $(DOCDIR)/LICENSE \
            $(addprefix $(EXAMPLESDIR)/,$(notdir $(EXAMPLES)) Makefile)
# The CMake package: find_package(utfdfa) reads these.
CMAKE_FILES = utfdfaConfig.cmake utfdfaConfigVersion.cmake utfdfaTargets.cmake
# The examples as a user gets them: built by share/doc/utfdfa/examples/Makefile
# (tests/examples/Makefile.installed) through pkg-config.
EXAMPLES = tests/examples/fd_chunks.c tests/examples/json_string.c tests/examples/re2c_ident.re

.PHONY: install install-strip uninstall shared check-install check-example-re2c check-example-fd \
        install-dirs-always

# ---- shared library: the same -fPIC -fvisibility=hidden objects as the archive
shared: $(B)/libutfdfa.so
all: $(B)/libutfdfa.so

$(SHLIB): $(LIB_OBJS) $(VERSION_SCRIPT)
	$(check_version)
	$(CC) $(CFLAGS) $(LDFLAGS) -shared -Wl,-soname,$(SONAME) -Wl,--no-undefined \
	  -Wl,--version-script=$(VERSION_SCRIPT) $(LIB_OBJS) -o $@

$(B)/$(SONAME): $(SHLIB)
	ln -sf $(notdir $<) $@

$(B)/libutfdfa.so: $(B)/$(SONAME)
	ln -sf $(notdir $<) $@

# ---- files that name the install directories: rebuilt when PREFIX & co change
$(B)/install-dirs: install-dirs-always | $(B)
	@printf '%s\n' '$(PREFIX) $(BINDIR) $(LIBDIR) $(INCLUDEDIR) $(DFAINCLUDEDIR) $(PKGDATADIR)' \
	  '$(MANDIR) $(PKGCONFIGDIR) $(CMAKEDIR) $(DOCDIR) $(EXAMPLESDIR)' \
	  '$(LIB_VERSION) $(MAN_DATE)' > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

# pkg-config paths relative to ${prefix} where they can be, so PKG_CONFIG_SYSROOT_DIR
# and a moved prefix work.
pc_path = $(patsubst $(PREFIX)/%,$${prefix}/%,$(1))

define UTFDFA_PC
# SPDX-License-Identifier: MIT
prefix=$(PREFIX)
bindir=$(call pc_path,$(BINDIR))
libdir=$(call pc_path,$(LIBDIR))
includedir=$(call pc_path,$(INCLUDEDIR))
dfaincludedir=$(call pc_path,$(DFAINCLUDEDIR))
pkgdatadir=$(call pc_path,$(PKGDATADIR))
grammardir=$(call pc_path,$(PKGDATADIR))/grammar

Name: utfdfa
Description: UTF decoder and transcoder whose DFA tables are generated from ABNF
Version: $(LIB_VERSION)
Cflags: -I$${includedir}
Libs: -L$${libdir} -lutfdfa
# Static linking (pkg-config --static) needs nothing more: the library uses
# only the C library (and the compiler's own runtime, which cc links anyway).
Libs.private:
endef

$(B)/utfdfa.pc: $(B)/install-dirs Makefile | $(B)
	$(file >$@.tmp,$(UTFDFA_PC))
	@mv $@.tmp $@

# ---- the CMake package (lib/cmake/utfdfa). Paths are relative to the file's
# own directory (@PREFIX_REL@: PREFIX relative to CMAKEDIR), so the package
# works from a DESTDIR and from a moved tree; a directory outside PREFIX stays
# absolute.
cm_path = $(patsubst $(PREFIX)/%,$${_utfdfa_prefix}/%,$(1))
# CMake refuses a package built for another pointer size (a 32-bit build).
SIZEOF_VOID_P = $(shell $(CC) -dM -E -x c /dev/null 2>/dev/null | sed -n 's/^.define __SIZEOF_POINTER__ //p')

define UTFDFA_CMAKE_CONFIG
# SPDX-License-Identifier: MIT
# utfdfa's CMake package (generated by the Makefile; do not edit).
#
#   find_package(utfdfa 0.1 REQUIRED)
#   target_link_libraries(app PRIVATE utfdfa::utfdfa)          # libutfdfa.so
#   target_link_libraries(app PRIVATE utfdfa::utfdfa_static)   # libutfdfa.a
#
# Both targets carry the include directory (<utfdfa.h>, <utfdfa/utf8.gen.h>).
# utfdfa_DATADIR is the directory of the re2c definitions, the grammars and
# the generator (pkg-config's pkgdatadir); utfdfa_GEN is the utfdfa-gen program.
include("$${CMAKE_CURRENT_LIST_DIR}/utfdfaTargets.cmake")
get_filename_component(_utfdfa_prefix "$${CMAKE_CURRENT_LIST_DIR}/@PREFIX_REL@" ABSOLUTE)
set(utfdfa_DATADIR "$(call cm_path,$(PKGDATADIR))")
set(utfdfa_GEN "$(call cm_path,$(BINDIR))/utfdfa-gen")
unset(_utfdfa_prefix)
endef

define UTFDFA_CMAKE_TARGETS
# SPDX-License-Identifier: MIT
# utfdfa's imported targets (generated by the Makefile; do not edit).
get_filename_component(_utfdfa_prefix "$${CMAKE_CURRENT_LIST_DIR}/@PREFIX_REL@" ABSOLUTE)
if(NOT TARGET utfdfa::utfdfa)
  add_library(utfdfa::utfdfa SHARED IMPORTED)
  set_target_properties(utfdfa::utfdfa PROPERTIES
    IMPORTED_LOCATION "$(call cm_path,$(LIBDIR))/$(notdir $(SHLIB))"
    IMPORTED_SONAME "$(SONAME)"
    INTERFACE_INCLUDE_DIRECTORIES "$(call cm_path,$(INCLUDEDIR))")
endif()
if(NOT TARGET utfdfa::utfdfa_static)
  add_library(utfdfa::utfdfa_static STATIC IMPORTED)
  set_target_properties(utfdfa::utfdfa_static PROPERTIES
    IMPORTED_LOCATION "$(call cm_path,$(LIBDIR))/libutfdfa.a"
    IMPORTED_LINK_INTERFACE_LANGUAGES "C"
    INTERFACE_INCLUDE_DIRECTORIES "$(call cm_path,$(INCLUDEDIR))")
endif()
unset(_utfdfa_prefix)
endef

# find_package(utfdfa X.Y) takes this version when X is its major version and
# X.Y is not newer: the README's compatibility promise.
define UTFDFA_CMAKE_VERSION
# SPDX-License-Identifier: MIT
# utfdfa's package version (generated by the Makefile; do not edit).
set(PACKAGE_VERSION "$(LIB_VERSION)")
if(PACKAGE_VERSION VERSION_LESS PACKAGE_FIND_VERSION)
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
elseif(PACKAGE_FIND_VERSION_MAJOR STREQUAL "$(LIB_MAJOR)")
  set(PACKAGE_VERSION_COMPATIBLE TRUE)
  if(PACKAGE_FIND_VERSION STREQUAL PACKAGE_VERSION)
    set(PACKAGE_VERSION_EXACT TRUE)
  endif()
else()
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
endif()
if(NOT "$${CMAKE_SIZEOF_VOID_P}" STREQUAL "" AND NOT "$${CMAKE_SIZEOF_VOID_P}" STREQUAL "$(SIZEOF_VOID_P)")
  math(EXPR _utfdfa_bits "$(SIZEOF_VOID_P) * 8")
  set(PACKAGE_VERSION "$${PACKAGE_VERSION} ($${_utfdfa_bits}-bit)")
  set(PACKAGE_VERSION_UNSUITABLE TRUE)
  unset(_utfdfa_bits)
endif()
endef

$(B)/cmake/utfdfaConfig.cmake: UTFDFA_CMAKE = $(UTFDFA_CMAKE_CONFIG)
$(B)/cmake/utfdfaTargets.cmake: UTFDFA_CMAKE = $(UTFDFA_CMAKE_TARGETS)
$(B)/cmake/utfdfaConfigVersion.cmake: UTFDFA_CMAKE = $(UTFDFA_CMAKE_VERSION)
$(B)/cmake:
	@mkdir -p $@

$(CMAKE_FILES:%=$(B)/cmake/%): $(B)/install-dirs Makefile | $(B)/cmake $(B)/.tools-ok
	$(file >$@.in,$(UTFDFA_CMAKE))
	@rel=$$($(PYTHON) -c 'import os, sys; print(os.path.relpath(sys.argv[1], sys.argv[2]))' \
	        '$(PREFIX)' '$(CMAKEDIR)') && \
	sed -e "s|@PREFIX_REL@|$$rel|g" $@.in > $@.tmp && rm -f $@.in && mv $@.tmp $@

# The wrapper finds the generator beside itself first (@REL@ = PKGDATADIR relative
# to BINDIR), so it also runs from a DESTDIR or a moved tree; then at PKGDATADIR.
# python3 -I: the user's PYTHONPATH cannot shadow the generator's modules;
# -B: no __pycache__ left in the installed tree.
define UTFDFA_GEN_WRAPPER
#!/bin/sh
# SPDX-License-Identifier: MIT
# utfdfa-gen @VERSION@: compile a regular ABNF grammar into a minimal DFA and
# write it as C, re2c, dot, Mermaid or JSON. See utfdfa-gen(1).
self=$$(readlink -f -- "$$0" 2>/dev/null) || self=$$0
gen=$$(dirname -- "$$self")/@REL@/gen/abnfc.py
[ -f "$$gen" ] || gen='@PKGDATADIR@/gen/abnfc.py'
python=$${UTFDFA_PYTHON:-python3}
if ! command -v "$$python" >/dev/null 2>&1; then
    echo "utfdfa-gen: $$python not found (Debian: apt-get install python3)" >&2
    exit 2
fi
if [ ! -f "$$gen" ]; then
    echo "utfdfa-gen: the generator is not installed: $$gen" >&2
    exit 2
fi
UTFDFA_GEN_PROG=utfdfa-gen
UTFDFA_GEN_VERSION='@VERSION@'
export UTFDFA_GEN_PROG UTFDFA_GEN_VERSION
exec "$$python" -I -B "$$gen" "$$@"
endef

$(B)/utfdfa-gen: $(B)/install-dirs Makefile | $(B) $(B)/.tools-ok
	$(file >$@.in,$(UTFDFA_GEN_WRAPPER))
	@rel=$$($(PYTHON) -c 'import os, sys; print(os.path.relpath(sys.argv[1], sys.argv[2]))' \
	        '$(PKGDATADIR)' '$(BINDIR)') && \
	sed -e "s|@REL@|$$rel|g" -e 's|@PKGDATADIR@|$(PKGDATADIR)|g' -e 's|@VERSION@|$(LIB_VERSION)|g' \
	  $@.in > $@.tmp && rm -f $@.in && chmod 755 $@.tmp && mv $@.tmp $@

$(B)/man/%: man/% $(B)/install-dirs | $(B)
	@mkdir -p $(@D)
	sed -e 's|@VERSION@|$(LIB_VERSION)|g' -e 's|@DATE@|$(MAN_DATE)|g' \
	    -e 's|@MAJOR@|$(word 1,$(subst ., ,$(LIB_VERSION)))|g' \
	    -e 's|@MINOR@|$(word 2,$(subst ., ,$(LIB_VERSION)))|g' \
	    -e 's|@PATCH@|$(word 3,$(subst ., ,$(LIB_VERSION)))|g' \
	    -e 's|@PKGDATADIR@|$(PKGDATADIR)|g' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' \
	    -e 's|@LIBDIR@|$(LIBDIR)|g' -e 's|@DOCDIR@|$(DOCDIR)|g' $< > $@.tmp && mv $@.tmp $@

# ---- install / uninstall
install: all $(B)/utfdfa.pc $(B)/utfdfa-gen $(MAN_PAGES) $(CMAKE_FILES:%=$(B)/cmake/%)
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PKGCONFIGDIR) \
	  $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(DFAINCLUDEDIR) $(DESTDIR)$(PKGDATADIR)/grammar \
	  $(DESTDIR)$(PKGDATADIR)/gen $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3 \
	  $(DESTDIR)$(CMAKEDIR) $(DESTDIR)$(EXAMPLESDIR)
	$(INSTALL) -m 755 $(B)/utfdfa $(B)/utfdfa-gen $(DESTDIR)$(BINDIR)/
	$(INSTALL) -m 644 $(B)/libutfdfa.a $(DESTDIR)$(LIBDIR)/
	$(INSTALL) -m 755 $(SHLIB) $(DESTDIR)$(LIBDIR)/
	ln -sf $(notdir $(SHLIB)) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libutfdfa.so
	$(INSTALL) -m 644 $(B)/utfdfa.pc $(DESTDIR)$(PKGCONFIGDIR)/
	$(INSTALL) -m 644 $(CMAKE_FILES:%=$(B)/cmake/%) $(DESTDIR)$(CMAKEDIR)/
	$(INSTALL) -m 644 LICENSE $(DESTDIR)$(DOCDIR)/
	$(INSTALL) -m 644 $(EXAMPLES) $(DESTDIR)$(EXAMPLESDIR)/
	$(INSTALL) -m 644 tests/examples/Makefile.installed $(DESTDIR)$(EXAMPLESDIR)/Makefile
	$(INSTALL) -m 644 include/utfdfa.h $(DESTDIR)$(INCLUDEDIR)/
	$(INSTALL) -m 644 $(HEADERS) $(DESTDIR)$(DFAINCLUDEDIR)/
	$(INSTALL) -m 644 $(DEFS) $(DESTDIR)$(PKGDATADIR)/
	$(INSTALL) -m 644 $(ALL_GRAMMARS) $(DESTDIR)$(PKGDATADIR)/grammar/
	$(INSTALL) -m 644 $(GEN_PY) $(DESTDIR)$(PKGDATADIR)/gen/
	$(INSTALL) -m 644 $(B)/man/utfdfa.1 $(B)/man/utfdfa-gen.1 $(DESTDIR)$(MANDIR)/man1/
	$(INSTALL) -m 644 $(B)/man/utfdfa.3 $(DESTDIR)$(MANDIR)/man3/
	@for f in $(API_FUNCS); do \
	  printf '.so man3/utfdfa.3\n' > $(DESTDIR)$(MANDIR)/man3/$$f.3 && \
	  chmod 644 $(DESTDIR)$(MANDIR)/man3/$$f.3 || exit 1; \
	done
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ]; then \
	  PATH="$$PATH:/sbin:/usr/sbin"; command -v ldconfig >/dev/null && ldconfig || true; fi

# install, then strip what was installed: the debug information is most of the
# size (-g). Programs and the shared library lose every symbol not needed to
# link or run; the archive keeps its symbols (it is linked from), not the rest.
install-strip: install
	$(STRIP) --strip-unneeded $(DESTDIR)$(BINDIR)/utfdfa $(DESTDIR)$(LIBDIR)/$(notdir $(SHLIB))
	$(STRIP) --strip-debug $(DESTDIR)$(LIBDIR)/libutfdfa.a

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	rm -rf $(DESTDIR)$(PKGDATADIR)/gen/__pycache__
	-rmdir $(DESTDIR)$(PKGDATADIR)/gen $(DESTDIR)$(PKGDATADIR)/grammar $(DESTDIR)$(PKGDATADIR) \
	  $(DESTDIR)$(DFAINCLUDEDIR) $(DESTDIR)$(CMAKEDIR) $(DESTDIR)$(LIBDIR)/cmake \
	  $(DESTDIR)$(EXAMPLESDIR) $(DESTDIR)$(DOCDIR) 2>/dev/null

# ---- tests
# Tools the install test needs: groff (groff-base) for the man pages, pkg-config,
# nm/readelf/strip (binutils), cmake for the CMake package.
$(B)/.install-tools-ok: | $(B)
	@missing=""; \
	command -v groff >/dev/null 2>&1 || missing="$$missing groff-base"; \
	command -v pkg-config >/dev/null 2>&1 || missing="$$missing pkgconf"; \
	{ command -v nm && command -v readelf; } >/dev/null 2>&1 || missing="$$missing binutils"; \
	command -v cmake >/dev/null 2>&1 || missing="$$missing cmake"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing$$missing with apt-get"; \
	    $(APT_INSTALL) $$missing >/dev/null \
	      || { echo "apt-get install$$missing failed" >&2; exit 1; }; \
	  else \
	    echo "missing:$$missing; install with: sudo apt-get install$$missing" >&2; \
	    exit 1; \
	  fi; \
	fi
	@touch $@

# Installs into a temporary DESTDIR (twice: a custom and the default PREFIX), then
# plays a user with the source tree hidden; see the script's comment.
check-install: all | $(B)/.install-tools-ok
	@MAKE='$(MAKE)' CC='$(CC)' WARN='$(WARN)' PYTHON='$(PYTHON)' GRAMMARS='$(GRAMMARS)' \
	  API_FUNCS='$(API_FUNCS)' bash tests/install/test_install.sh

# Example 2: a user's own re2c lexer that !includes the generated definitions.
$(T)/re2c_ident.c: tests/examples/re2c_ident.re $(G)/utf8.defs.re | $(T) $(B)/.tools-ok
	$(RE2C) $(RE2CFLAGS) -I $(G) $< -o $@.tmp && mv $@.tmp $@

$(T)/re2c_ident: $(T)/re2c_ident.c $(G)/utf8.gen.h
	$(CC) $(WARN) $(CFLAGS) -I $(G) $< -o $@

check-example-re2c: $(T)/re2c_ident
	$(T)/re2c_ident

# Example 3: incremental decoding of a file descriptor read in arbitrary chunks.
$(T)/fd_chunks: tests/examples/fd_chunks.c include/utfdfa.h $(B)/libutfdfa.a | $(T)
	$(CC) $(WARN) $(CFLAGS) -I include $< $(B)/libutfdfa.a -o $@

check-example-fd: $(T)/fd_chunks
	$(T)/fd_chunks $(SHARED)

CHECKS += check-example-re2c check-example-fd check-install

# ---- the ABI: libutfdfa.so exports exactly tests/abi/libutfdfa.symbols, each
# symbol with its version (src/libutfdfa.map); see tests/abi/check_symbols.sh.
.PHONY: check-abi
check-abi: $(SHLIB) | $(B)/.install-tools-ok
	@sh tests/abi/check_symbols.sh $(SHLIB) tests/abi/libutfdfa.symbols

CHECKS += check-abi

# ---- the single-file distribution, for vendoring (as SQLite and simdutf ship)
#   make amalgamate   build/amalgamation/utfdfa.c (the whole library, the generated
#                     tables inside) and build/amalgamation/utfdfa.h (the API)
# gen/dist/amalgamate.py inlines every local #include and instantiates
# src/decode/convert_from.c once per CONVERT_SOURCES name, as the units above are.
# check-amalgamation compiles utfdfa.c alone in an empty directory with the
# flags a vendoring project would use, then builds the install test's consumer
# and the C suites against that object and the amalgamated header (no
# include/, no build/gen/, no libutfdfa.a) and runs them.
AMALG = $(B)/amalgamation
AT    = $(T)/amalgamation
AMALG_CFLAGS = -std=c11 -O2 -Wall -Wextra -Wpedantic -Werror

.PHONY: amalgamate check-amalgamation
amalgamate: $(AMALG)/.stamp

$(AMALG)/.stamp: gen/dist/amalgamate.py $(LIB_HEADERS) src/decode/convert_from.c $(LIB_SRCS) \
                 LICENSE Makefile | $(B)/.tools-ok
	$(check_version)
	$(PYTHON) gen/dist/amalgamate.py --out $(AMALG) --gen $(G) --version $(LIB_VERSION) \
	  --convert '$(CONVERT_SOURCES)' $(LIB_SRCS)
	@touch $@

$(AMALG)/utfdfa.c $(AMALG)/utfdfa.h: $(AMALG)/.stamp ;

# Alone: a directory holding nothing but utfdfa.c, no -I.
$(AT)/utfdfa.o: $(AMALG)/.stamp
	@rm -rf $(AT)/alone && mkdir -p $(AT)/alone && cp $(AMALG)/utfdfa.c $(AT)/alone/
	cd $(AT)/alone && $(CC) $(AMALG_CFLAGS) -c utfdfa.c -o ../utfdfa.o

AMALG_RUN = consumer test_hostile test_decode test_variants test_forms test_utf7 test_utf7_ref \
            test_vectors
AMALG_CC  = $(CC) $(WARN) $(CFLAGS) -I $(AMALG)
$(AT)/consumer: tests/install/consumer.c $(AT)/utfdfa.o
	$(AMALG_CC) -DCONSUMER_NO_DFA_HEADER $< $(AT)/utfdfa.o -o $@
# The suites: the common library is built against include/utfdfa.h, which
# check-amalgamation proves equal to the amalgamated header.
$(foreach t,$(filter-out consumer,$(AMALG_RUN)),$(eval $(AT)/$(t): $(filter %/$(t).c,$(LIB_TESTS:%=tests/%.c))))
$(addprefix $(AT)/,$(filter-out consumer,$(AMALG_RUN))): $(TEST_COMMON) $(TEST_HDRS) $(AT)/utfdfa.o
	$(AMALG_CC) -I tests/common -I tests/ref $(filter %.c,$^) $(TEST_COMMON) $(AT)/utfdfa.o -o $@

# test_decode's exhaustive part runs against the library in check-unit: the
# code is the same, so here it is skipped (UTFDFA_QUICK).
check-amalgamation: $(AMALG_RUN:%=$(AT)/%) | $(B)/.install-tools-ok
	@! grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' $(AMALG)/utfdfa.c $(AMALG)/utfdfa.h \
	  || { echo "check-amalgamation: a local #include is left" >&2; exit 1; }
	@bad=$$(nm -g --defined-only $(AT)/utfdfa.o | awk 'NF == 3 && $$3 !~ /^utfdfa_/ {print $$3}'); \
	  [ -z "$$bad" ] || { echo "check-amalgamation: utfdfa.o defines $$bad" >&2; exit 1; }
	@sed '1,/^\/\* ---- include\/utfdfa\.h ---- \*\/$$/d' $(AMALG)/utfdfa.h > $(AT)/utfdfa.h.body && \
	  sed '1{/SPDX-License-Identifier/d;}' include/utfdfa.h | cmp -s - $(AT)/utfdfa.h.body \
	  || { echo "check-amalgamation: utfdfa.h is not include/utfdfa.h" >&2; exit 1; }
	$(AT)/consumer
	$(AT)/test_hostile
	UTFDFA_QUICK=1 $(AT)/test_decode $(SHARED)
	$(AT)/test_variants
	$(AT)/test_forms
	$(AT)/test_utf7
	$(AT)/test_utf7_ref
	$(AT)/test_vectors
	@echo "check-amalgamation: all passed"

CHECKS += check-amalgamation

# ---- every source file says its license (MIT, LICENSE) in its first line, or
# its second after a shebang. Not sources: the license and README themselves,
# and test data whose bytes or line numbers are the test (fuzz regressions,
# malformed and RFC grammars, the install test's user grammar, the ABI list).
.PHONY: check-license
LICENSE_EXEMPT = ./LICENSE ./README.md ./.gitignore ./tests/abi/libutfdfa.symbols \
                 ./tests/install/ipv4.abnf
check-license:
	@n=0; bad=; for f in $$(find . \( -path ./$(B) -o -path ./.git -o -name __pycache__ \
	      -o -path ./tests/fuzz/regressions -o -path ./tests/gen/bad -o -path ./tests/gen/grammars \) -prune \
	      -o -type f ! -name '*.pyc' -print | LC_ALL=C sort); do \
	  case " $(LICENSE_EXEMPT) " in *" $$f "*) continue;; esac; \
	  n=$$((n + 1)); \
	  head -n 2 "$$f" | sed '1{/^#!/d;}' | head -n 1 | grep -q 'SPDX-License-Identifier: MIT\b' \
	    || bad="$$bad $$f"; \
	done; \
	if [ -n "$$bad" ]; then \
	  echo "check-license: no SPDX-License-Identifier: MIT line at the top of:$$bad" >&2; \
	  echo "check-license: $$((n - $$(echo $$bad | wc -w))) passed, $$(echo $$bad | wc -w) failed"; exit 1; \
	fi; echo "check-license: $$n passed, 0 failed (every source file names its license)"

CHECKS += check-license


# ======================================== sanitizers and fuzzing (issue 6)
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
# Tools are installed with apt-get when missing and we are root; otherwise
# the exact command is printed. $(call need_tools,COMMAND:PACKAGE ...)
define need_tools
	@missing=""; for p in $(1); do c=$${p%%:*}; k=$${p#*:}; \
	  case "$$c" in /*) [ -e "$$c" ] || missing="$$missing $$k";; \
	  *) command -v "$$c" >/dev/null 2>&1 || missing="$$missing $$k";; esac; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing$$missing with apt-get"; \
	    $(APT_INSTALL) $$missing >/dev/null \
	      || { echo "apt-get install$$missing failed" >&2; exit 1; }; \
	  else \
	    echo "missing:$$missing; install with: sudo apt-get install$$missing" >&2; exit 1; \
	  fi; \
	fi
endef

.PHONY: check-hostile check-ref-wide check-fuzz-replay check-faults check-sanitize \
        check-valgrind check-stream-2g fuzz fuzz-build issue6-force

REF_SRCS = tests/ref/ref_utf8.c tests/ref/ref_utf16.c tests/ref/ref_utf32.c
REF_HDRS = tests/ref/ref_utf8.h tests/ref/ref_utf16.h tests/ref/ref_utf32.h tests/ref/ref_kinds.h
# One target per input encoding: the Unicode forms (tests/fuzz/fuzz_decode.c),
# the other systems (tests/fuzz/fuzz_variants.c), and one for the UTF-8 fast
# paths against the plain DFA loop (tests/fuzz/fuzz_fast.c).
# (FUZZ_ENCODINGS and FUZZ_VARIANTS: from the registry, $(G)/encodings.mk.)
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
# tables or buffers (under ASan+UBSan in check-sanitize).
CONTRACT_TESTS = test_bounds test_writer_agrees test_garbage_state

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
	@touch $@

$(T)/replay_%: tests/fuzz/fuzz_decode.c tests/fuzz/fuzz_common.h tests/fuzz/replay_main.c $(REF_SRCS) $(REF_HDRS) $(G)/utf8.lexer.c $(B)/libutfdfa.a | $(T)
	$(CC) $(WARN) $(CFLAGS) -DFUZZ_ENC=$* -I include -I $(G) -I tests/ref $< tests/fuzz/replay_main.c \
	  $(REF_SRCS) $(B)/libutfdfa.a -o $@

$(FUZZ_VARIANTS:%=$(T)/replay_%): $(T)/replay_%: $(VARIANT_DEPS) tests/fuzz/replay_main.c $(B)/libutfdfa.a | $(T)
	$(CC) $(WARN) $(CFLAGS) -DFUZZ_ENC=$* -I include -I $(G) -I tests/ref tests/fuzz/fuzz_variants.c \
	  tests/fuzz/replay_main.c tests/ref/ref_utf7.c tests/ref/ref_forms.c $(B)/libutfdfa.a -o $@

$(T)/replay_fast: tests/fuzz/fuzz_fast.c tests/fuzz/fuzz_common.h tests/fuzz/replay_main.c $(UTF8_FAST_SRCS) \
                 $(UTF8_FAST_HDRS) $(G)/utf8.gen.h $(G)/utf8.fast.gen.h | $(T)
	$(CC) $(WARN) $(CFLAGS) -DUTFDFA_FAST_VARIANTS -I include -I $(G) -I src/fast/utf8 $< \
	  tests/fuzz/replay_main.c $(UTF8_FAST_SRCS) -o $@

# The fast-path target reads the UTF-8 seeds (its 2 header bytes are theirs).
check-fuzz-replay: $(FUZZ_TARGETS:%=$(T)/replay_%) $(FB)/seeds/.stamp
	@for e in $(FUZZ_TARGETS); do \
	  s=$$e; [ $$e = fast ] && s=utf8; \
	  reg=; [ -d tests/fuzz/regressions/$$e ] && reg=tests/fuzz/regressions/$$e; \
	  $(T)/replay_$$e replay_$$e $(FB)/seeds/$$s $$reg || exit 1; \
	done

# ---- the CLI under faults (strace is optional: its checks skip without it;
# so is GNU time, which test_cli uses to measure a 20 MB stream's memory)
$(B)/.faults-tools-ok: | $(B)
	@missing=""; command -v strace >/dev/null 2>&1 || missing="$$missing strace"; \
	[ -x /usr/bin/time ] || missing="$$missing time"; \
	if [ -n "$$missing" ] && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "installing$$missing with apt-get"; \
	  $(APT_INSTALL) $$missing >/dev/null || true; \
	fi
	@touch $@

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
                  check-kernels check-cli check-beyond-cli check-faults

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

# ---- libFuzzer (clang): the library rebuilt with coverage and ASan+UBSan
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_MAX_LEN ?= 1024
FUZZ_FLAGS    = -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_LIB_FLAGS = $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link

$(B)/.fuzz-tools-ok: | $(B)
	$(call need_tools,$(FUZZ_CC):clang)
	@rt=$$($(FUZZ_CC) --print-runtime-dir 2>/dev/null); \
	if ! ls $$rt/libclang_rt.fuzzer*.a >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing libclang-rt-dev (libFuzzer) with apt-get"; \
	    $(APT_INSTALL) libclang-rt-dev >/dev/null \
	      || { echo "apt-get install libclang-rt-dev failed" >&2; exit 1; }; \
	  else \
	    echo "libFuzzer is missing; install with: sudo apt-get install libclang-rt-dev" >&2; exit 1; \
	  fi; \
	fi
	@touch $@

$(FB)/libutfdfa.a: issue6-force | $(B)/.fuzz-tools-ok
	@$(MAKE) --no-print-directory B=$(FB) CC=$(FUZZ_CC) CFLAGS='$(FUZZ_LIB_FLAGS)' \
	  $@ $(FB)/gen/utf8.lexer.c $(FB)/gen/utf8-rfc2279.lexer.c $(FB)/gen/corrected-utf-8.lexer.c

$(FB)/fuzz_%: tests/fuzz/fuzz_decode.c tests/fuzz/fuzz_common.h $(REF_SRCS) $(REF_HDRS) $(FB)/libutfdfa.a
	$(FUZZ_CC) $(WARN) $(FUZZ_FLAGS) -fsanitize=fuzzer -DFUZZ_ENC=$* -I include -I $(FB)/gen -I tests/ref \
	  $< $(REF_SRCS) $(FB)/libutfdfa.a -o $@

$(FUZZ_VARIANTS:%=$(FB)/fuzz_%): $(FB)/fuzz_%: $(VARIANT_DEPS:$(G)/%=$(FB)/gen/%) $(FB)/libutfdfa.a
	$(FUZZ_CC) $(WARN) $(FUZZ_FLAGS) -fsanitize=fuzzer -DFUZZ_ENC=$* -I include -I $(FB)/gen \
	  -I tests/ref tests/fuzz/fuzz_variants.c tests/ref/ref_utf7.c tests/ref/ref_forms.c \
	  $(FB)/libutfdfa.a -o $@

$(FB)/fuzz_fast: tests/fuzz/fuzz_fast.c tests/fuzz/fuzz_common.h $(UTF8_FAST_SRCS) $(UTF8_FAST_HDRS) $(FB)/libutfdfa.a
	$(FUZZ_CC) $(WARN) $(FUZZ_FLAGS) -fsanitize=fuzzer -DUTFDFA_FAST_VARIANTS -I include -I $(FB)/gen \
	  -I src/fast/utf8 $< $(UTF8_FAST_SRCS) -o $@

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

# ===================================================== benchmark (issue 5)
# make bench   utfdfa, its fast paths (src/fast/utf8/), in-project baselines
#              and peers (iconv, ICU, libunistring, GLib, utf8proc, simdjson),
#              one Markdown table per operation (per corpus for the
#              transcoding matrix, BENCH_OPS=transcode). Installs the peers with
#              apt-get when root (else skips them with a note); never part of
#              make check. BENCH_CFLAGS sets the benchmark's flags; the
#              environment variables BENCH_REPS, BENCH_SAMPLE_MS, BENCH_OPS,
#              BENCH_ENGINES, BENCH_STAT and BENCH_LIB tune a run
#              (tests/bench/bench.c, transcode.c, run.sh).
BENCH_CFLAGS ?= -O2

.PHONY: bench check-fast

bench: $(B)/libutfdfa.a $(HEADERS) $(G)/utf8.fast.gen.h
	@B="$(B)" CC="$(CC)" BENCH_CFLAGS="$(BENCH_CFLAGS)" LIB_CFLAGS="$(CFLAGS)" \
	  SHARED="$(SHARED)" sh tests/bench/run.sh

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

# The fast paths equal the plain per-byte loop: every variant, for UTF-8, for
# UTF-8 without shift rows and for the other grammars (tests/decode/test_fast.c).
$(T)/test_fast: tests/decode/test_fast.c tests/decode/fast_generic.c tests/decode/fast_generic.h \
                $(TEST_HDRS) $(TEST_COMMON) $(UTF8_FAST_SRCS) $(UTF8_FAST_HDRS) $(HEADERS) \
                $(FAST_GEN_HEADERS) | $(T)
	$(CC) $(WARN) $(CFLAGS) -DUTFDFA_FAST_VARIANTS -I $(G) -I tests/common -I src/fast/utf8 \
	  -I tests/decode $< tests/decode/fast_generic.c $(UTF8_FAST_SRCS) $(TEST_COMMON) -o $@

check-fast: $(T)/test_fast
	$(T)/test_fast $(SHARED)

CHECKS += check-fast

# The fast kernels (src/fast/): every level this CPU runs, forced in turn,
# against an oracle written in the test (tests/fast/test_kernels.c);
# `build/tests/test_kernels --speed` prints a rough ASCII throughput per level.
.PHONY: check-kernels
$(T)/test_kernels: tests/fast/test_kernels.c $(TEST_HDRS) $(TEST_COMMON) $(KERNEL_HEADERS) \
                   $(B)/libutfdfa.a | $(T)
	$(CC) $(WARN) $(CFLAGS) -I src -I tests/common $< $(TEST_COMMON) $(B)/libutfdfa.a -o $@

check-kernels: $(T)/test_kernels
	$(T)/test_kernels

CHECKS += check-kernels

# ======================================================================
# Read last, so every section's `CHECKS +=` above is in it.
check: $(CHECKS)
	@echo "make check: all passed"

clean:
	rm -rf $(B)
