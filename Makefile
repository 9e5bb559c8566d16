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
# --no-compile: Python byte-compiles each module when it is first imported, instead of pip
# compiling every file of every package up front (a third of the install time, mostly unused).
PIP := $(BIN)/python -m pip install --quiet --no-compile

.PHONY: demo test bench lint clean install

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(RUNTIME): pyproject.toml | $(BIN)/python
	$(PIP) -e .
	touch $@

# The dev extra holds the bench extra too: a `make test` set-up runs `make bench` without more.
$(DEV): pyproject.toml | $(BIN)/python
	$(PIP) -e ".[dev]"
	touch $@ $(RUNTIME) $(BENCH)

$(BENCH): pyproject.toml | $(BIN)/python
	$(PIP) -e ".[bench]"
	touch $@ $(RUNTIME)

# checkov pins boto3/packaging versions that clash with ours: it gets a venv of its own.
CHECKOV := .venv-tools/checkov/bin/checkov
$(CHECKOV):
	$(PYTHON) -m venv .venv-tools/checkov
	.venv-tools/checkov/bin/python -m pip install --quiet "checkov>=3.2,<4"

install: $(RUNTIME)

demo: $(RUNTIME)
	$(BIN)/contract-review demo

test: $(DEV) $(CHECKOV)
	$(BIN)/python -m pytest -n 2 --durations=15

bench: $(BENCH)
	$(BIN)/contract-review bench all --out bench_results

lint: $(DEV)
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
