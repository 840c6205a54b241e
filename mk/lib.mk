# SPDX-License-Identifier: MIT
# The library: decoders, encoders, fast paths, the CLI.
# Included by the top-level Makefile, which defines B, G, T, CC and the flags.

# ---------------------------------------------------------------- library
LIB_HEADERS = $(wildcard src/*.h src/api/*.h src/decode/*.h src/encode/*.h src/output/*.h) $(KERNEL_HEADERS) \
              $(UTF8_FAST_HDRS) include/utfdfa.h $(HEADERS) $(G)/utf8.fast.gen.h $(G)/utf8.simd.gen.h $(G)/utf8.shuffle.gen.h \
              $(REGISTRY_HEADER) $(ROWS_HEADER)

$(B)/obj/%.o: src/%.c $(LIB_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) $(SIZE_FLAGS) -fPIC -fvisibility=hidden -DUTFDFA_BUILD -I include -I src -I $(G) \
	  -c $< -o $@

# The decoders of RFC 2279 and UCS-4 are compiled for size (-Os; not where
# CFLAGS asks for -O0): their text goes through the fast paths and the unit
# kernels (UTF-8 for RFC 2279, UTF-32 for UCS-4) at the same speed, and what
# their plain loops do is rare: RFC 2279's forms beyond UTF-8, values above
# U+10FFFF, errors (a decode with replacement of RFC 2279 text with an error
# every 97 bytes measured 0.85x). It pays for the kernels within the
# library's bound of 400 KiB of text (about 330 KiB on x86-64 at -O2, by
# `size` of the shared library). (Corrected UTF-8, whose plain loop is all
# of its decoding, ran at 0.7x so.)
FOR_SIZE_SOURCES = rfc2279 ucs4le ucs4be
$(FOR_SIZE_SOURCES:%=$(B)/obj/convert_from_%.o): SIZE_FLAGS = $(if $(filter -O0,$(CFLAGS)),,-Os)
# So are UTF-8's lossy paths (glue between kernels, which do the work) and
# the API's helpers that run once a stream (sizes, names) or once a chunk
# and an error (the line and column tracker, whose decoding is the library's).
$(B)/obj/decode/utf8_lossy.o $(B)/obj/api/sizes.o $(B)/obj/api/encodings.o \
  $(B)/obj/api/position.o: \
  SIZE_FLAGS = $(if $(filter -O0,$(CFLAGS)),,-Os)

$(B)/obj/convert_from_%.o: src/decode/convert_from.c $(LIB_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) $(SIZE_FLAGS) -fPIC -fvisibility=hidden -DUTFDFA_BUILD -DSOURCE_NAME=$* \
	  -I include -I src -I $(G) -c $< -o $@

$(B)/libutfdfa.a: $(LIB_OBJS)
	$(check_version)
	rm -f $@ && ar rcs $@ $^

# The tests' library (TEST_LIB): libutfdfa.a with the dispatcher compiled
# with its test hooks (UTFDFA_TEST_HOOKS: utfdfa__fast_force, utfdfa__fast_has,
# which force a kernel level), so that the suites, benchmarks and fuzz
# targets can pick levels while the shipped library, the .so and the
# amalgamation carry no test code.
TEST_LIB = $(B)/libutfdfa-hooks.a
$(B)/obj/fast/dispatch_hooks.o: src/fast/dispatch.c $(LIB_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) -fPIC -fvisibility=hidden -DUTFDFA_BUILD -DUTFDFA_TEST_HOOKS -I include -I src \
	  -I $(G) -c $< -o $@

$(TEST_LIB): $(filter-out $(B)/obj/fast/dispatch.o,$(LIB_OBJS)) $(B)/obj/fast/dispatch_hooks.o
	rm -f $@ && ar rcs $@ $^

# The command-line tool: src/cli/, one file each concern.
CLI_SRCS = src/cli/main.c src/cli/stream.c src/cli/position.c src/cli/output.c
CLI_HDRS = src/cli/cli.h src/cli/stream.h src/cli/position.h src/cli/output.h

$(B)/utfdfa: $(CLI_SRCS) $(CLI_HDRS) include/utfdfa.h $(ROWS_HEADER) $(B)/libutfdfa.a
	$(CC) $(WARN) $(CFLAGS) -I include -I src/cli -I $(G) $(CLI_SRCS) $(B)/libutfdfa.a -o $@
