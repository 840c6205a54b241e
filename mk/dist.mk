# SPDX-License-Identifier: MIT
# The single-file distribution and the license check.
# Included by the top-level Makefile, which defines B, G, T, CC and the flags.

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
# The suites force kernel levels: their copy has the test hooks (mk/lib.mk).
$(AT)/utfdfa-hooks.o: $(AT)/utfdfa.o
	cd $(AT)/alone && $(CC) $(AMALG_CFLAGS) -DUTFDFA_TEST_HOOKS -c utfdfa.c -o ../utfdfa-hooks.o

AMALG_RUN = consumer test_hostile test_decode test_variants test_forms test_utf7 test_utf7_ref \
            test_vectors
AMALG_CC  = $(CC) $(WARN) $(CFLAGS) -I $(AMALG)
$(AT)/consumer: tests/install/consumer.c $(AT)/utfdfa.o
	$(AMALG_CC) -DCONSUMER_NO_DFA_HEADER $< $(AT)/utfdfa.o -o $@
# The suites: the common library is built against include/utfdfa.h, which
# check-amalgamation proves equal to the amalgamated header.
$(foreach t,$(filter-out consumer,$(AMALG_RUN)),$(eval $(AT)/$(t): $(filter %/$(t).c,$(LIB_TESTS:%=tests/%.c))))
$(addprefix $(AT)/,$(filter-out consumer,$(AMALG_RUN))): $(TEST_COMMON) $(TEST_HDRS) $(AT)/utfdfa-hooks.o
	$(AMALG_CC) -I tests/common -I tests/ref $(filter %.c,$^) $(TEST_COMMON) $(AT)/utfdfa-hooks.o -o $@

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
# its second after a shebang. Not sources: the license and the Markdown docs,
# and test data whose bytes or line numbers are the test (fuzz regressions,
# malformed and RFC grammars, the install test's user grammar, the ABI list);
# nor what pip leaves in python/ (build/, *.egg-info, ignored by git).
.PHONY: check-license
LICENSE_EXEMPT = ./LICENSE ./.gitignore ./tests/abi/libutfdfa.symbols \
                 ./tests/install/ipv4.abnf
check-license:
	@n=0; bad=; for f in $$(find . \( -path ./$(B) -o -path ./.git -o -name __pycache__ \
	      -o -path ./tests/fuzz/regressions -o -path ./tests/gen/bad -o -path ./tests/gen/grammars \
	      -o -path ./python/build -o -name '*.egg-info' \) -prune \
	      -o -type f ! -name '*.pyc' ! -name '*.md' -print | LC_ALL=C sort); do \
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
