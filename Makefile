# Two commands matter: `make demo` and `make test`. Both set up .venv themselves.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
EXTRAS ?= dev

.PHONY: demo test bench lint clean install

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[$(EXTRAS)]"
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/contract-review demo

test: $(STAMP)
	$(BIN)/python -m pytest -n 2

bench: $(STAMP)
	$(BIN)/contract-review bench all

lint: $(STAMP)
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
