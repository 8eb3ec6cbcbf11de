# oddscalc: set up, test, report, benchmark, build the docs.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
GAME   ?= caribbean
ARGS   ?=

.PHONY: setup test verify report docs bench lint wheel-check clean prove

setup: $(VENV)/.installed

$(VENV)/.installed: setup.cfg pyproject.toml
	@echo "setting up $(VENV) (first run only; a few minutes: the report follows)" >&2
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@echo "  installing oddscalc and its dependencies with pip..." >&2
	@$(BIN)/python -m pip install --quiet --upgrade pip >&2
	@# setuptools warns, in a box, of a folder shadowing the package, which an editable install in its own checkout
	@# always has: the box only alarms a newcomer (PYTHONWARNINGS reaches the build backend pip runs)
	@PYTHONWARNINGS=ignore::UserWarning $(BIN)/python -m pip install --quiet -e '.[test,dev]' >&2
	@echo "  compiling the numba kernels once, two groups at a time..." >&2
	@$(BIN)/python -m oddscalc.cli.warmup  # the numba kernels compiled once, two at a time: no first run pays
	@PYTHONPATH=tests $(BIN)/python -c 'from oracles.dealer_search import warm; warm()'  # and the tests' oracle's
	@touch $@

# the report alone on stdout, so `make report > report.md` is the report
report: setup
	@$(BIN)/oddscalc report $(GAME) $(ARGS)

# one pytest worker per core (pytest-xdist): the suite is mostly single-threaded Python
PYTEST := $(BIN)/python -m pytest -q -n auto --dist worksteal
# and one numba thread per worker: the workers fill the cores already, and the parallel kernels' threads
# competing with the other worker cost the suite a sixth of its time (178 s against 148 s here).
# The deep checks keep every thread, so the kernels' work split across threads is checked there.
# The package's and oracles' bytecode written once first: with PYTHONDONTWRITEBYTECODE (as on CI) each worker
# compiled them again while collecting (2 s of CPU a worker); the up-to-date check is a tenth of a second.
test: setup
	@$(BIN)/python -m compileall -q oddscalc tests/oracles >/dev/null
	NUMBA_NUM_THREADS=1 $(PYTEST) -m "not deep"

# the deep checks: larger cases (more seats, a lost cluster worker) of what the suite checks in small, minutes
verify: setup
	$(PYTEST) -m deep

# the house baccarat's best common strategy at SEATS seats proven over hours, resumable: a stopped run goes on
# from proofs/ (kept in the repository, so that a proof outlives the machine); `oddscalc proof FILE` reads it.
# A proof an earlier version of the search left is taken over (the file then names both versions).
# SCHEDULER=tcp://HOST:PORT searches its open boxes on that dask cluster
SEATS ?= 7
SCHEDULER ?=
prove: setup
	@mkdir -p proofs
	@$(BIN)/oddscalc seats house-baccarat --players $(SEATS) --prove-common \
		--checkpoint proofs/house-baccarat-$(SEATS)-seats.checkpoint --take-over $(if $(SCHEDULER),--scheduler $(SCHEDULER))

docs: setup
	$(BIN)/python -m oddscalc.report.site

bench: setup
	$(BIN)/python benchmarks/run.py

lint: setup
	$(BIN)/python -m ruff check oddscalc tests benchmarks
	$(BIN)/python -m mypy oddscalc tests benchmarks

# a wheel installed in a fresh venv outside the checkout: the shipped tables must come with it
wheel-check: setup
	bash .ci/wheel-check $(BIN)/python

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .mypy_cache
