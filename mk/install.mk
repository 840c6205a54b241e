# SPDX-License-Identifier: MIT
# Install, the shared library, pkg-config and CMake files, the ABI.
# Included by the top-level Makefile, which defines B, G, T, CC and the flags.

# ================================================================= install
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
# The man pages in man/ read as they are (man -l man/utfdfa.1): each carries
# its date (not the build's, so the output is reproducible; change it when the
# pages change, one date on all), the version (UTFDFA_VERSION) and the default
# PREFIX's directories, which the build replaces with the configured ones.
# make check-man holds them to that.
MAN_DATE    := $(shell sed -n 's/^\.TH UTFDFA 1 \([0-9-]*\) .*/\1/p' man/utfdfa.1)
MAN_PREFIX   = /usr/local
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
EXAMPLES = tests/examples/fd_chunks.c tests/examples/json_string.c tests/examples/re2c_ident.re \
           tests/examples/utf8_lines.c

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
# X.Y is not newer: doc/install.md, "Version and compatibility".
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

# The default directories the pages name become markers first (the sources
# have none: check-man), then the configured directories, so a directory
# written in is never rewritten again.
$(B)/man/%: man/% $(B)/install-dirs | $(B)
	@mkdir -p $(@D)
	sed -e 's|$(MAN_PREFIX)/share/doc/utfdfa|@DOCDIR@|g' -e 's|$(MAN_PREFIX)/share/utfdfa|@PKGDATADIR@|g' \
	    -e 's|$(MAN_PREFIX)/include|@INCLUDEDIR@|g' -e 's|$(MAN_PREFIX)/lib|@LIBDIR@|g' \
	    -e 's|@PKGDATADIR@|$(PKGDATADIR)|g' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' \
	    -e 's|@LIBDIR@|$(LIBDIR)|g' -e 's|@DOCDIR@|$(DOCDIR)|g' $< > $@.tmp && mv $@.tmp $@

# The pages in man/ as they are read from the source tree: no @PLACEHOLDER@,
# the header's version, one date, man and groff without a warning.
.PHONY: check-man
check-man: | $(B)/.install-tools-ok
	@$(PYTHON) tests/install/check_man_sources.py include/utfdfa.h man/utfdfa.1 man/utfdfa-gen.1 \
	  man/utfdfa.3

CHECKS += check-man

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
# Installs into a temporary DESTDIR (twice: a custom and the default PREFIX), then
# plays a user with the source tree hidden; see the script's comment.
check-install: all | $(B)/.install-tools-ok
	@MAKE='$(MAKE)' CC='$(CC)' WARN='$(WARN)' PYTHON='$(PYTHON)' GRAMMARS='$(GRAMMARS)' \
	  API_FUNCS='$(API_FUNCS)' MAN_DATE='$(MAN_DATE)' bash tests/install/test_install.sh

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
