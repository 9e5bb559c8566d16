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

# checkov pins boto3/packaging versions that clash with ours: it gets a venv of its own.
CHECKOV := .venv-tools/checkov/bin/checkov
$(CHECKOV):
	$(PYTHON) -m venv .venv-tools/checkov
	.venv-tools/checkov/bin/python -m pip install --quiet "checkov>=3.2,<4"

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/contract-review demo

test: $(STAMP) $(CHECKOV)
	$(BIN)/python -m pytest -n 2

# matplotlib is in both the dev and bench extras, so this also runs on the `make test` set-up.
bench: EXTRAS = dev,bench
bench: $(STAMP)
	$(BIN)/contract-review bench all --out bench_results

lint: $(STAMP)
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
