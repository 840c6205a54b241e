# SPDX-License-Identifier: MIT
# The library: decoders, encoders, fast paths, the CLI.
# Included by the top-level Makefile, which defines B, G, T, CC and the flags.

# ---------------------------------------------------------------- library
LIB_HEADERS = $(wildcard src/*.h src/api/*.h src/decode/*.h src/encode/*.h) $(KERNEL_HEADERS) \
              $(UTF8_FAST_HDRS) include/utfdfa.h $(HEADERS) $(G)/utf8.fast.gen.h $(G)/utf8.simd.gen.h $(G)/utf8.shuffle.gen.h \
              $(REGISTRY_HEADER)

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
