# SPDX-License-Identifier: MIT
# Other hosts: the library, the CLI and two suites built by each cross
# compiler that is installed (a big-endian, a 32-bit and a non-x86 64-bit
# host), and run under qemu-user when it is there.
# Included by the top-level Makefile, which defines B, G, T, CC and the flags.
#
#   make check-cross   for each of CROSS_HOSTS whose HOST-gcc is installed
#                      (Debian: apt-get install gcc-HOST qemu-user), else a note
#
# Each host builds in $(B)/cross/HOST with the generated tables of $(G)
# (they do not depend on the host) and -Werror: a warning that only one
# host sees (an unused function on a big-endian one, an x86 function named
# outside the x86 guard) fails here. tests/cross/large_files.c holds 32-bit
# hosts to 64-bit file offsets. Under qemu: the CLI against the native one
# (tests/cross/smoke.sh), test_rep_tokens (which must skip off x86-64) and
# test_fast (the UTF-8 fast paths against the references, reading the corpus
# directory) in its quick mode.
CROSS_HOSTS = s390x-linux-gnu i686-linux-gnu aarch64-linux-gnu
# qemu-user's name for each host's CPU
cross_qemu = qemu-$(patsubst i686,i386,$(firstword $(subst -, ,$(1))))
CROSS_BUILT = libutfdfa.a utfdfa $(addprefix tests/,test_rep_tokens test_fast)

.PHONY: check-cross $(CROSS_HOSTS:%=check-cross-%)
check-cross: $(CROSS_HOSTS:%=check-cross-%)

$(CROSS_HOSTS:%=check-cross-%): check-cross-%: generated $(B)/utfdfa
	@if ! command -v $*-gcc >/dev/null 2>&1; then \
	  echo "check-cross: $*-gcc is not installed: skipped (apt-get install gcc-$*)"; exit 0; fi; \
	$(MAKE) --no-print-directory B=$(B)/cross/$* G=$(G) CC=$*-gcc \
	  $(CROSS_BUILT:%=$(B)/cross/$*/%) > $(B)/cross-$*.log 2>&1 \
	  || { tail -n 30 $(B)/cross-$*.log; echo "check-cross: the build for $* failed" >&2; exit 1; }; \
	$*-gcc $(WARN) $(CFLAGS) -c tests/cross/large_files.c -o $(B)/cross/$*/large_files.o \
	  || { echo "check-cross: $*: no 64-bit file offsets" >&2; exit 1; }; \
	echo "check-cross: $*: library, CLI and suites built with -Werror; 64-bit file offsets"; \
	qemu=$(call cross_qemu,$*); \
	if ! command -v $$qemu >/dev/null 2>&1; then \
	  echo "check-cross: $$qemu is not installed: $* not run (apt-get install qemu-user)"; exit 0; fi; \
	run="$$qemu -L /usr/$*"; \
	sh tests/cross/smoke.sh $(B)/utfdfa "$$run $(B)/cross/$*/utfdfa" && \
	$$run $(B)/cross/$*/tests/test_rep_tokens && \
	TEST_FAST_QUICK=1 $$run $(B)/cross/$*/tests/test_fast $(SHARED) | tail -n 1 \
	  | grep -q ' 0 failed$$' \
	  || { echo "check-cross: $* under $$qemu failed" >&2; exit 1; }; \
	echo "check-cross: $* under $$qemu: the CLI, test_rep_tokens and test_fast (quick) passed"

CHECKS += check-cross
