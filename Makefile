# One obvious way to run things: `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# The torch build to install first. CI and CPU-only machines use the CPU build; on an RTX 5090 use e.g.
#   make run TORCH_SPEC="torch --index-url https://download.pytorch.org/whl/cu128"
TORCH_SPEC ?= torch==2.13.0
STAMP := $(VENV)/.installed
# pytest-xdist workers for `make test`: two per core, at most 8 (`make test TEST_WORKERS=1` runs them one after
# another). Much of the suite waits (Pilot's event loop, child processes, PostgreSQL), so one worker per core left
# the cores idle: on the 2-core EPYC, 4 workers took the suite from 240 s to 215 s, green.
TEST_WORKERS ?= $(shell python3 -c "import os; print(min(8, 2 * (os.cpu_count() or 1)))")

.PHONY: run test lint bench mutants clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet $(TORCH_SPEC)
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

# `make run` installs what running needs, not the test tools; pip's progress bar stays on (a CUDA torch is GBs).
RUN_STAMP := $(VENV)/.installed-run
$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --progress-bar on $(TORCH_SPEC)
	$(BIN)/python -m pip install --progress-bar on -e .
	touch $(RUN_STAMP)

run: $(RUN_STAMP)
	$(BIN)/tutor

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --durations=15

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/tutor bench --quick

# Mutation testing of grading, theory, the progress rules and the timing harness ([tool.mutmut] in pyproject.toml;
# the survivors and why each is left are in README's development section). Niced: it keeps the cores busy.
# mutmut copies a source it does not mutate into mutants/ once and never again, so a later run would test the mutated
# files against stale neighbours (an old .mo catalog failed its stats run): refresh them first. The plugins no test of
# the selection uses are left out of each mutant's pytest (PYTEST_ADDOPTS, which mutmut's cache does not key on).
define MUTANTS_SYNC
import fnmatch, shutil, tomllib
from pathlib import Path
scope = tomllib.load(open("pyproject.toml", "rb"))["tool"]["mutmut"]["only_mutate"]
for src in Path("tutor").rglob("*"):
    mutated = src.suffix == ".py" and any(fnmatch.fnmatch(str(src), p) for p in scope)
    dst = Path("mutants") / src
    if src.is_file() and "__pycache__" not in src.parts and not mutated and dst.parent.is_dir() \
            and (not dst.exists() or dst.read_bytes() != src.read_bytes()):
        shutil.copy2(src, dst)
endef
export MUTANTS_SYNC
mutants: $(STAMP)
	$(BIN)/python -c "$$MUTANTS_SYNC"
	PYTEST_ADDOPTS="-p no:xdist -p no:textual-snapshot -p no:syrupy -p no:hypothesispytest -p no:timeout" \
		nice -n 19 $(BIN)/mutmut run --max-children 1 $(MUTANTS)
	$(BIN)/mutmut results

clean:
	rm -rf $(VENV) build dist .pytest_cache .ruff_cache .mypy_cache mutants

# The gettext catalogs (tutor/i18n/README.md): the ids extracted from the source into the template, each
# language's catalog updated from it (new ids empty, unused ones dropped), the .mo the app reads compiled.
I18N := tutor/i18n/locale
.PHONY: i18n
i18n: $(STAMP)
	$(BIN)/pybabel -q extract -F babel.cfg --no-location --sort-output --project="GPU Tutor" \
		--copyright-holder="GPU Tutor" -o $(I18N)/tutor.pot tutor
	$(BIN)/pybabel -q update -i $(I18N)/tutor.pot -d $(I18N) -D tutor --no-fuzzy-matching --ignore-obsolete
	$(BIN)/pybabel compile -d $(I18N) -D tutor --statistics
