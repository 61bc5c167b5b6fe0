# ordstat: every target does its own set-up, idempotently (fast when already done).
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := .make
APT_PACKAGES := r-base-core r-base-dev r-cran-rpart r-cran-mclust r-cran-mass \
                r-cran-reticulate r-cran-testthat r-cran-mlbench
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: setup system-deps venv demo test test-fast bench clean

setup: system-deps venv

# Debian packages: checked with dpkg (a fraction of a second), installed only when missing.
system-deps:
	@missing=$$(for p in $(APT_PACKAGES); do \
	    dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if ! $(PYTHON) -c 'import venv, ensurepip' >/dev/null 2>&1; then missing="$$missing python3-venv python3-dev"; fi; \
	if [ -n "$$missing" ]; then \
	    echo "installing Debian packages:$$missing"; \
	    $(SUDO) apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing build-essential; \
	fi

venv: $(STAMP)/venv

$(STAMP)/venv: pyproject.toml | system-deps
	@[ -x $(PY) ] || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e ".[dev,r,plot]"
	@mkdir -p $(STAMP) && touch $@

demo: setup
	$(VENV)/bin/ordstat compare --bundled anes96 --scheme cv10 --seed 1

test: setup
	$(PY) -m pytest -n 2 -q

test-fast: setup
	$(PY) -m pytest -n 2 -q -m "not slow and not r"

bench: setup
	$(PY) -m benchmarks

clean:
	rm -rf $(VENV) $(STAMP) *.egg-info
