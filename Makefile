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
# LARGE_FILES: 64-bit off_t and ino_t on 32-bit hosts too, so that open,
# stat and readdir work on any file (readdir fails with EOVERFLOW on a 64-bit
# directory offset otherwise); no public type depends on it.
LARGE_FILES = -D_FILE_OFFSET_BITS=64
WARN    = -std=c11 -Wall -Wextra -Wpedantic -Werror $(LARGE_FILES)
RE2CFLAGS = -W -Werror --no-generation-date --no-version -i

B = build
G = $(B)/gen
T = $(B)/tests

GEN_DEPS = $(wildcard gen/*.py) Makefile
ABNFC    = $(PYTHON) gen/abnfc.py
REGISTRY = grammar/encodings.registry

# The registry (one row per encoding) gives the lists below: ENCODING_GRAMMARS
# (decoded with their tables), UNIT_GRAMMARS (checked against hand-written
# decoders), CONVERT_SOURCES (the decoders' instances: src/decode/convert.h
# is instantiated once per source, src/decode/convert_from.c compiled with each
# name, so make -j compiles them side by side), FUZZ_ENCODINGS,
# FUZZ_VARIANTS and FUZZ_FROM_NAME (the fuzz targets and the encoding each
# reads). make remakes the fragment first when it is out of date.
include $(G)/encodings.mk
GRAMMARS = $(ENCODING_GRAMMARS) $(UNIT_GRAMMARS)

HEADERS  = $(GRAMMARS:%=$(G)/%.gen.h)
# The UTF-8 fast paths' derived tables (gen/emit_fast.py): UTF-8's for the
# library, the others' for tests/fast/test_fast.c (the same code over them).
FAST_GRAMMARS = utf8 utf8-rfc2279 corrected-utf-8
FAST_GEN_HEADERS = $(FAST_GRAMMARS:%=$(G)/%.fast.gen.h)
# The registry's tables: internal (included by the library, never installed).
REGISTRY_HEADER = $(G)/encodings.gen.h
# Each row's yes-or-no facts (bit masks): included by the registry's tables
# and by the CLI, which links only the public API.
ROWS_HEADER = $(G)/encoding_rows.gen.h
DEFS     = $(GRAMMARS:%=$(G)/%.defs.re)
LEXER_RES = $(GRAMMARS:%=$(G)/%.lexer.re)
LEXERS   = $(GRAMMARS:%=$(G)/%.lexer.c)
JSONS    = $(GRAMMARS:%=$(G)/%.json)
PICTURES = $(GRAMMARS:%=$(B)/%.dot) $(GRAMMARS:%=$(B)/%.mmd)
# The lexer sources are outputs too (users include them), not intermediates make may delete.
GENERATED = $(HEADERS) $(FAST_GEN_HEADERS) $(REGISTRY_HEADER) $(ROWS_HEADER) $(DEFS) $(LEXER_RES) $(LEXERS) $(JSONS)

.PHONY: all generated dfa check check-gen check-re2c check-repro check-docs \
        check-ref check-unit check-engines check-examples check-cli deps clean
.DELETE_ON_ERROR:

# The decoders (src/decode/) are instantiated once per source encoding:
# src/decode/convert_from.c compiled with each name of CONVERT_SOURCES (from
# the registry), so make -j compiles them side by side.
# The fast kernels (src/fast/): the levels of src/fast/levels.h, one row each
# in the ISA's folder (x86/: SSE2, SSE4, AVX2, AVX-512 BW, AVX-512 VBMI;
# arm64/: NEON) after scalar, one chosen at run time; each SIMD function
# carries its target attribute, so no per-file flags (a file of another ISA
# compiles to nothing).
KERNEL_SRCS = src/fast/scalar.c src/fast/x86/sse2.c src/fast/x86/avx2.c \
              src/fast/x86/avx512vbmi.c src/fast/x86/units_avx512.c src/fast/dispatch.c \
              src/fast/utf7.c src/fast/x86/utf7_sse4.c src/fast/x86/utf7_avx2.c \
              src/fast/x86/wide_sse4.c src/fast/x86/units_sse4.c src/fast/x86/wide_avx2.c \
              src/fast/arm64/neon.c src/fast/arm64/wide_neon.c src/fast/arm64/utf7_neon.c \
              src/fast/x86/count.c src/fast/arm64/count.c
KERNEL_HEADERS = src/fast/kernels.h src/fast/levels.h src/fast/isa.h src/fast/x86/levels.h \
                 src/fast/x86/detect.h src/fast/arm64/levels.h src/fast/x86/x86.h src/fast/x86/utf7_x86.h \
                 src/fast/utf7_layout.h src/fast/utf7_loop.h src/fast/x86/wide_sse4.h src/fast/count.h $(G)/wide.gen.h
# The UTF-8 fast paths (src/fast/utf8/, NEON's in src/fast/arm64/): one file
# per ISA, select.c chooses at run time.
UTF8_FAST_SRCS = src/fast/utf8/portable.c src/fast/utf8/avx2.c src/fast/utf8/masked.c \
                 src/fast/utf8/avx512.c src/fast/utf8/lookup.c \
                 src/fast/utf8/select.c src/fast/utf8/part.c src/fast/arm64/utf8_neon.c
UTF8_FAST_HDRS = $(wildcard src/fast/utf8/*.h) $(wildcard src/fast/arm64/*.h)
# Every technique as its own entry point, for the tests and the benchmark
# (built with them, never into the library).
UTF8_VARIANTS = tests/fast/utf8_variants.c tests/fast/utf8_variants.h tests/fast/branchy_block.h
LIB_SRCS = $(wildcard src/api/*.c) src/decode/byte_order.c src/decode/utf8_part.c src/decode/unit_fast.c \
           src/decode/utf8_lossy.c src/output/utf7_writer.c src/encode/codes.c \
           $(UTF8_FAST_SRCS) $(KERNEL_SRCS)
LIB_OBJS = $(LIB_SRCS:src/%.c=$(B)/obj/%.o) $(CONVERT_SOURCES:%=$(B)/obj/convert_from_%.o)

all: generated $(B)/libutfdfa.a $(B)/utfdfa

generated: $(GENERATED)

# The rules, by concern (mk/*.mk).
include mk/tools.mk \
        mk/gen.mk \
        mk/lib.mk \
        mk/tests.mk \
        mk/install.mk \
        mk/dist.mk \
        mk/sanitize.mk \
        mk/fuzz.mk \
        mk/fast_tests.mk \
        mk/bench.mk \
        mk/cross.mk \
        mk/engine.mk \
        mk/python.mk

# ======================================================================
# Read last, so every section's `CHECKS +=` above is in it.
check: $(CHECKS)
	@echo "make check: all passed"

clean:
	rm -rf $(B)
