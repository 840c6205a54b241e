# SPDX-License-Identifier: MIT
# The Python package (python/): `pip install ./python` builds the extension
# from the amalgamation; check-python installs it under build/python/site
# (never into the Python itself) and runs CPython's own codec tests and the
# property tests against it (python/tests/); bench-python (part of make
# bench) measures it against CPython's codecs on the lipsum corpus.
# Included by the top-level Makefile, which defines B, G, T, CC and the flags.
PY_DIR  = $(B)/python
PY_SITE = $(PY_DIR)/site
PY_REF  = $(PY_DIR)/libref_forms.so
PY_SRCS = $(wildcard python/src/utfdfa/*.c python/src/utfdfa/*.py) python/setup.py \
          python/pyproject.toml python/README.md
PY_TESTS = $(wildcard python/tests/test_*.py)

.PHONY: check-python bench-python

# What the build needs: pip, setuptools and wheel (setuptools' bdist_wheel)
# in $(PYTHON) itself, for the build runs without isolation (--no-build-isolation:
# isolation would fetch them from PyPI), the headers, and for the tests
# CPython's test package. As root: Debian's packages; a Python of its own
# (pyenv) gets wheel from Debian's python3-wheel-whl, installed with its pip.
PY_HAS = $(PYTHON) -c 'import sys, importlib.util as u; sys.exit(u.find_spec(sys.argv[1]) is None)'
PY_HEADERS = $(PYTHON) -c 'import os, sys, sysconfig; \
  sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'
PY_VER = $$($(PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])')
$(B)/.python-tools-ok: | $(B)
	@root=; [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && root=1; \
	debian=; case "$$($(PYTHON) -c 'import sys; print(sys.prefix)')" in /usr) debian=1;; esac; \
	missing=; \
	$(PY_HEADERS) || missing="$$missing python3-dev"; \
	$(PY_HAS) pip || missing="$$missing python3-pip"; \
	$(PY_HAS) setuptools || missing="$$missing python3-setuptools"; \
	$(PY_HAS) wheel || missing="$$missing $${debian:+python3-wheel}$${debian:-python3-wheel-whl}"; \
	$(PY_HAS) test.test_codecs || missing="$$missing libpython$(PY_VER)-testsuite"; \
	if [ -n "$$missing" ]; then \
	  if [ -z "$$root" ]; then echo "check-python: missing:$$missing; install with: sudo apt-get install$$missing" >&2; exit 1; fi; \
	  echo "installing$$missing with apt-get"; \
	  $(APT_INSTALL) $$missing >/dev/null || { echo "apt-get install$$missing failed" >&2; exit 1; }; \
	fi; \
	if ! $(PY_HAS) wheel; then \
	  whl=$$(ls /usr/share/python-wheels/wheel-*.whl 2>/dev/null | head -n 1); \
	  [ -n "$$whl" ] && $(PYTHON) -m pip install -q --no-index "$$whl" \
	    || { echo "check-python: $(PYTHON) has no wheel package (pip install wheel)" >&2; exit 1; }; \
	fi; \
	$(PY_HEADERS) || { echo "check-python: no Python.h for $(PYTHON)" >&2; exit 1; }
	@touch $@

# pip builds in python/ itself (python/build/, ignored by git).
$(PY_DIR)/.installed: $(PY_SRCS) $(AMALG)/.stamp | $(B)/.python-tools-ok
	@rm -rf $(PY_SITE) && mkdir -p $(PY_DIR)
	PIP_ROOT_USER_ACTION=ignore UTFDFA_AMALGAMATION=$(abspath $(AMALG)) $(PYTHON) -m pip install -q --no-index \
	  --no-build-isolation --disable-pip-version-check --target $(PY_SITE) ./python
	@touch $@

# The reference decoders of the UTF-8 forms and of UTF-7 (tests/ref), for the
# property tests (loaded with ctypes by the tests only; the package has none).
$(PY_REF): tests/ref/ref_forms.c tests/ref/ref_forms.h tests/ref/ref_utf7.c tests/ref/ref_utf7.h | $(B)
	@mkdir -p $(@D)
	$(CC) $(WARN) -O2 -shared -fPIC -I tests/ref tests/ref/ref_forms.c tests/ref/ref_utf7.c -o $@

check-python: $(PY_DIR)/.installed $(PY_REF) $(PY_TESTS)
	cd python/tests && PYTHONPATH=$(abspath $(PY_SITE)) UTFDFA_REF_LIB=$(abspath $(PY_REF)) \
	  $(PYTHON) -m unittest $(notdir $(basename $(PY_TESTS)))
	@echo "check-python: all passed"

CHECKS += check-python

bench-python: $(PY_DIR)/.installed
	PYTHONPATH=$(abspath $(PY_SITE)) $(PYTHON) python/bench.py $(SHARED)/corpus/lipsum

bench: bench-python
