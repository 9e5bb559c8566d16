# Two commands matter: `make demo` and `make test`. Both set up .venv themselves, each with only
# what it needs: `make demo` the runtime dependencies (a review needs nothing else), `make test`
# the `dev` extra on top (test tools, moto, chromadb, the LangGraph server ...).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# One stamp per installed set; pyproject.toml changes reinstall it.
RUNTIME := $(VENV)/.installed-runtime
DEV := $(VENV)/.installed-dev
BENCH := $(VENV)/.installed-bench
# --no-compile: pip would compile every file of every package up front (more than half of the
# install time, mostly files no command imports); scripts/precompile.py compiles what a review
# imports instead, which also serves machines where Python may not write __pycache__ itself.
# -qq: errors only (setuptools' note on every editable install, the machine's index notices).
# The editable install keeps setuptools' import finder: a .pth line would put this repository
# after site-packages, where python-hcl2 (dev extra) installs a top-level `cli` package.
PIP := $(BIN)/python -m pip install -qq --no-compile
# The pip a fresh venv comes with (23.x on Python 3.11) resolves these dependencies in about
# 110 s on an index mirror where pip 25+ takes about 20 s: the venv upgrades its pip first.
PIP_VERSION := pip>=25.1,<27

.PHONY: demo test bench lint clean install

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -qq --upgrade "$(PIP_VERSION)"

$(RUNTIME): pyproject.toml | $(BIN)/python
	$(PIP) -e .
	touch $@

# After the first install: what a review imports, byte-compiled once (scripts/precompile.py).
PRECOMPILED := $(VENV)/.precompiled
$(PRECOMPILED): $(RUNTIME)
	$(BIN)/python scripts/precompile.py
	touch $@

# The dev extra holds the bench extra too: a `make test` set-up runs `make bench` without more.
$(DEV): pyproject.toml | $(BIN)/python
	$(PIP) -e ".[dev]"
	$(BIN)/python scripts/precompile.py
	touch $@ $(RUNTIME) $(BENCH) $(PRECOMPILED)

$(BENCH): pyproject.toml | $(BIN)/python
	$(PIP) -e ".[bench]"
	touch $@ $(RUNTIME)

# checkov pins boto3/packaging versions that clash with ours: it gets a venv of its own.
CHECKOV := .venv-tools/checkov/bin/checkov
$(CHECKOV):
	$(PYTHON) -m venv .venv-tools/checkov
	.venv-tools/checkov/bin/python -m pip install --quiet "checkov>=3.2,<4"

install: $(RUNTIME) $(PRECOMPILED)

# The demo first (its own process compiles what it imports anyway), then the one-off compile
# that makes every later command start faster.
demo: $(RUNTIME)
	$(BIN)/contract-review demo
	@$(MAKE) --no-print-directory $(PRECOMPILED)

test: $(DEV) $(CHECKOV)
	$(BIN)/python -m pytest -n 2 --dist worksteal --durations=15

bench: $(BENCH)
	$(BIN)/contract-review bench all --out bench_results

lint: $(DEV)
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
