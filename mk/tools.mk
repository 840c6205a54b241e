# SPDX-License-Identifier: MIT
# Tools: what each part needs, installed with apt-get when missing (as root), directories.
# Included by the top-level Makefile, which defines B, G, T, CC and the flags.

# ------------------------------------------------------------------ tools
# A fresh Debian machine may lack re2c (and python3). Install what is
# missing when we can (root with apt-get), otherwise say exactly what to run.
# Installs take turns (flock): with make -j, two apt-get runs at once would
# fight over dpkg's lock and one would fail.
APT_INSTALL = flock /tmp/utfdfa-apt.lock sh -c \
  'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$$@"' apt-install
$(B)/.tools-ok: | $(B)
	$(call need_tools,$(RE2C):re2c ragel:ragel $(PYTHON):python3)
	@touch $@

deps: $(B)/.tools-ok

$(B) $(G) $(T):
	@mkdir -p $@


# ---- every tool the project installs, in one place
# Tools are installed with apt-get when missing and we are root; otherwise
# the exact command is printed. $(call need_tools,COMMAND:PACKAGE ...)
define need_tools
	@missing=""; for p in $(1); do c=$${p%%:*}; k=$${p#*:}; \
	  case "$$c" in /*) [ -e "$$c" ] || missing="$$missing $$k";; \
	  *) command -v "$$c" >/dev/null 2>&1 || missing="$$missing $$k";; esac; done; \
	[ -z "$$missing" ] || missing=" $$(printf '%s\n' $$missing | sort -u | tr '\n' ' ' | sed 's/ $$//')"; \
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

# Tools the install test needs: groff (groff-base) for the man pages, pkg-config,
# nm/readelf/strip (binutils), cmake for the CMake package.
$(B)/.install-tools-ok: | $(B)
	$(call need_tools,groff:groff-base pkg-config:pkgconf nm:binutils readelf:binutils cmake:cmake)
	@touch $@

$(B)/.faults-tools-ok: | $(B)
	@missing=""; command -v strace >/dev/null 2>&1 || missing="$$missing strace"; \
	[ -x /usr/bin/time ] || missing="$$missing time"; \
	if [ -n "$$missing" ] && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "installing$$missing with apt-get"; \
	  $(APT_INSTALL) $$missing >/dev/null || true; \
	fi
	@touch $@

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
