# ordstat: every target does its own set-up, idempotently (fast when already done).
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := .make
APT_PACKAGES := r-base-core r-base-dev r-cran-rpart r-cran-mclust r-cran-mass \
                r-cran-reticulate r-cran-testthat r-cran-mlbench r-cran-ranger \
                r-cran-randomforest r-cran-rrcov r-cran-ordinal r-cran-rmarkdown \
                r-cran-knitr r-cran-jsonlite r-cran-pkgdown r-cran-roxygen2 pandoc \
                qpdf chromium-headless-shell
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: setup system-deps venv venv-r rpkg rdoc rtest rcheck vignettes docs wheel-check lint demo test test-fast bench clean

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
	$(PY) -m pip install -q -e ".[dev,r,plot,dask,compare,docs]"
	@mkdir -p $(STAMP) && touch $@

# The R package calls Python through reticulate. Debian's reticulate 1.28 cannot convert arrays
# with numpy 2 (docs/architecture.md, "R interop facts"), so R gets its own environment at the oldest
# supported releases (numpy < 2, pandas 2.2, scikit-learn 1.6) with the project installed
# editable; the R package finds it from the repository (ORDSTAT_PYTHON overrides).
VENV_R := .venv-r
PY_R := $(VENV_R)/bin/python
RLIB := .rlib
RPKG := r_bridge
RPKG_FILES := $(shell find $(RPKG)/DESCRIPTION $(RPKG)/NAMESPACE $(RPKG)/R $(RPKG)/man $(RPKG)/tests -type f 2>/dev/null)
RPKG_FILES += $(shell find $(RPKG)/inst -type f 2>/dev/null)
RPKG_FILES += $(shell find $(RPKG)/vignettes -type f 2>/dev/null)

venv-r: $(STAMP)/venv-r

$(STAMP)/venv-r: pyproject.toml Makefile | system-deps
	@mkdir -p $(STAMP)
	@[ -x $(PY_R) ] || $(PYTHON) -m venv $(VENV_R)
	@echo "installing the project into $(VENV_R) (numpy < 2, for reticulate)"
	@{ $(PY_R) -m pip install -q --upgrade pip && \
	   $(PY_R) -m pip install -q -e ".[dev]" "numpy>=1.26,<2" "pandas>=2.2,<2.3" \
	     "scikit-learn>=1.6,<1.7" "scipy>=1.11,<1.12"; \
	 } >$(STAMP)/venv-r.log 2>&1 || { cat $(STAMP)/venv-r.log; exit 1; }
	@touch $@

# The R package goes into a project-local library, reinstalled only when its files change.
rpkg: $(STAMP)/rpkg

$(STAMP)/rpkg: $(RPKG_FILES) | system-deps
	@mkdir -p $(RLIB) $(STAMP)
	R CMD INSTALL --no-multiarch --library=$(RLIB) $(RPKG) >$(STAMP)/rpkg.log 2>&1 || { cat $(STAMP)/rpkg.log; exit 1; }
	@touch $@

# The R package's help pages (man/) and NAMESPACE, written by roxygen2 from its roxygen comments
# (R/*.R; man-roxygen/ holds the argument texts the model functions share); run after changing
# a comment and commit the result (tests/r/test_rpkg_docs.py fails while they are stale).
rdoc: | system-deps
	Rscript -e 'roxygen2::roxygenise("$(RPKG)")'

rtest: $(STAMP)/rpkg $(STAMP)/venv-r
	cd $(RPKG)/tests && R_LIBS=$(CURDIR)/$(RLIB) ORDSTAT_PYTHON=$(CURDIR)/$(PY_R) ORDSTAT_REQUIRE_PYTHON=true \
	    Rscript -e 'testthat::test_dir("testthat", package = "ordstat", load_package = "installed", stop_on_failure = TRUE)'

# R CMD check --as-cran of the built tarball (status OK: no error, warning or note), run offline
# (the two _R_CHECK_ variables skip what needs CRAN's servers or a time server); the example
# timing threshold is 600 s instead of 5 s because the first example that fits a tree ensemble
# compiles the tree kernels or, in make test, waits for the file lock of the numba cache while
# .venv-r compiles them next to it (measured: 83 s elapsed for 7.5 s of CPU on a loaded
# machine), which CRAN never meets (no Python there: every example is guarded by
# ordstat_available()); then the
# tarball installed into a scratch library and used from new R sessions outside the repository.
# Rerun only when the package's files change.
rcheck: $(STAMP)/rcheck

# The build runs the R vignette once and fails when it finds no Python (the check runs its code
# again, without rebuilding its output).
$(STAMP)/rcheck: $(RPKG_FILES) $(STAMP)/venv-r | system-deps
	@rm -rf $(STAMP)/rcheck.d && mkdir -p $(STAMP)/rcheck.d
	cd $(STAMP)/rcheck.d && ORDSTAT_PYTHON=$(CURDIR)/$(PY_R) ORDSTAT_REQUIRE_PYTHON=true \
	    R CMD build --no-manual $(CURDIR)/$(RPKG) >build.log 2>&1 || { cat build.log; exit 1; }
	cd $(STAMP)/rcheck.d && ORDSTAT_PYTHON=$(CURDIR)/$(PY_R) ORDSTAT_REQUIRE_PYTHON=true \
	    _R_CHECK_CRAN_INCOMING_REMOTE_=false _R_CHECK_SYSTEM_CLOCK_=false \
	    _R_CHECK_FORCE_SUGGESTS_=false _R_CHECK_EXAMPLE_TIMING_THRESHOLD_=600 \
	    R CMD check --as-cran --no-manual --no-build-vignettes --no-tests ordstat_*.tar.gz >check.log 2>&1; status=$$?; \
	    if [ $$status -ne 0 ] || ! grep -q '^Status: OK' ordstat.Rcheck/00check.log; then \
	        cat check.log; exit 1; fi; tail -n 1 ordstat.Rcheck/00check.log
	tests/install/check_rtarball.sh $(STAMP)/rcheck.d/ordstat_*.tar.gz $(CURDIR)/$(PY_R)
	@touch $@

# The main job: the papers' experiments again (quick run), ours beside theirs, as an HTML report.
demo: setup
	$(VENV)/bin/ordstat reproduce --quick --jobs 2 --out report --progress

# The set-up (the two environments and the R package in parallel); the wheel check (its own fresh
# environment) while both environments compile the tree kernels (numba, once per environment,
# then cached), first: a process needing a kernel that another is still compiling compiles it
# again, as the R tests, R CMD check and the vignettes each did when they ran beside the
# compiles; then R tests, R CMD check (and the tarball used outside the repository) and the
# vignettes, two at a time; the documentation site, warnings as errors; the Python suite at the
# oldest supported releases in .venv-r (not R, not slow, not the end-to-end report, CLI and
# install checks, not the trees' and ensembles' own tests, whose kernels the R tests, R CMD check
# and the vignettes run in .venv-r, 20 examples per hypothesis property: a check of those
# releases; .venv-r compiles the kernels of the criteria the R side uses, R_CRITERIA); then the
# whole Python suite at the newest releases (with the site opened in headless Chromium), last,
# so that its summary closes the run.
R_CRITERIA = ['gini', 'ordinal', 'entropy', 'twoing', 'gini_quadratic']
test:
	$(MAKE) --no-print-directory -j2 setup venv-r rpkg
	$(VENV)/bin/ruff check .
	@$(PY) -c "import ordstat; ordstat.compile_kernels()" >$(STAMP)/compile.log 2>&1 & one=$$!; \
	  $(PY_R) -c "import ordstat; ordstat.compile_kernels($(R_CRITERIA))" >$(STAMP)/compile-r.log 2>&1 & two=$$!; \
	  $(MAKE) --no-print-directory wheel-check; status=$$?; \
	  wait $$one || { cat $(STAMP)/compile.log; exit 1; }; \
	  wait $$two || { cat $(STAMP)/compile-r.log; exit 1; }; exit $$status
	$(MAKE) --no-print-directory -j2 rtest rcheck vignettes
	$(MAKE) --no-print-directory docs DOCS_FLAGS=--strict
	set -o pipefail; ORDSTAT_HYPOTHESIS=compat $(PY_R) -m pytest -n 2 -q -p no:cacheprovider \
	    -m "not r and not slow" --ignore=tests/r --ignore=tests/docs --ignore=tests/install \
	    --ignore=tests/reproduce --ignore=tests/cli --ignore=tests/trees --ignore=tests/ensemble \
	    | tail -n 1
	ORDSTAT_REQUIRE_R=1 ORDSTAT_REQUIRE_DOCS=1 $(PY) -m pytest -n 2 -q --durations=15

# Execute the Python and R vignettes and render them to vignettes/_build/*.html.
vignettes: setup venv-r rpkg
	set -o pipefail; R_LIBS=$(CURDIR)/$(RLIB) ORDSTAT_PYTHON=$(CURDIR)/$(PY_R) \
	    ORDSTAT_REQUIRE_PYTHON=true $(PY) vignettes/render.py 2>&1 | grep -v "Kernel is running over TCP"

# The documentation site (Sphinx API reference, user guide, gallery of the executed Python
# vignettes, pkgdown's R pages) in docs/_build/html; docs/build.py executes a vignette only
# when its notebook is missing or older than the script.
docs: setup venv-r rpkg
	R_LIBS=$(CURDIR)/$(RLIB) ORDSTAT_PYTHON=$(CURDIR)/$(PY_R) $(PY) docs/build.py $(DOCS_FLAGS)

# The wheel and sdist as users get them: built, twine-checked, the wheel installed into a fresh
# virtual environment outside the source tree and used there, without and with the plot extra.
wheel-check: setup
	bash tests/install/check_wheel.sh $(CURDIR)/$(PY)

lint: setup
	$(VENV)/bin/ruff check .

test-fast: setup
	$(PY) -m pytest -n 2 -q -m "not slow and not r"

bench: setup
	$(PY) -m benchmarks

clean:
	rm -rf $(VENV) $(VENV_R) $(RLIB) $(STAMP) *.egg-info docs/_build docs/api docs/gallery docs/_generated
