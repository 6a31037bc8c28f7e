# Two commands on a fresh machine (Python 3.11): `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 8765

.PHONY: run test check install install-dev lint types clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

install: $(BIN)/python
	$(BIN)/pip install --quiet -e .

install-dev: $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev]'

run: install
	$(BIN)/engram serve --host $(HOST) --port $(PORT)

lint: install-dev
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

types: install-dev
	$(BIN)/mypy

test: install-dev lint types
	$(BIN)/pytest -q

# The fast loop: lint, types and the SQLite tests (no PostgreSQL, no slow subprocess tests).
check: install-dev lint types
	$(BIN)/pytest -q -m "not postgres and not slow"

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
