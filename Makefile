# One obvious way to run things: `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# The torch build to install first. CI and CPU-only machines use the CPU build; on an RTX 5090 use e.g.
#   make run TORCH_SPEC="torch --index-url https://download.pytorch.org/whl/cu128"
TORCH_SPEC ?= torch==2.13.0
STAMP := $(VENV)/.installed

.PHONY: run test lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet $(TORCH_SPEC)
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/tutor

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/tutor bench --quick

clean:
	rm -rf $(VENV) build dist .pytest_cache .ruff_cache .mypy_cache
