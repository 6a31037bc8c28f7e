# Two commands on a fresh machine (Python 3.11): `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 8765

.PHONY: run test check install install-dev lint types clean examples-env example-client example-agent intents-model

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
	$(BIN)/ruff check src tests bench examples
	$(BIN)/ruff format --check src tests bench examples

types: install-dev
	$(BIN)/mypy

test: install-dev lint types
	$(BIN)/pytest -q

# The fast loop: lint, types and the SQLite tests (no PostgreSQL, no slow subprocess tests).
check: install-dev lint types
	$(BIN)/pytest -q -m "not postgres and not slow"

# The LangGraph example has its own environment: langchain-mcp-adapters needs the MCP SDK 1.x,
# Engram's server the 2.x; the agent reaches Engram over MCP like any other client.
EXAMPLES_VENV := examples/.venv
$(EXAMPLES_VENV)/installed: examples/langgraph_agent/requirements.txt
	$(PYTHON) -m venv $(EXAMPLES_VENV)
	$(EXAMPLES_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(EXAMPLES_VENV)/bin/pip install --quiet -r examples/langgraph_agent/requirements.txt
	touch $@

examples-env: $(EXAMPLES_VENV)/installed

example-client: install
	$(BIN)/python examples/mcp_client.py --engram-command $(BIN)/engram

example-agent: install examples-env
	$(EXAMPLES_VENV)/bin/python examples/langgraph_agent/agent.py --engram-command $(BIN)/engram

# The shipped intent model, re-trained after the packaged taxonomy or embedder changes (a test says when).
intents-model: install-dev
	$(BIN)/python -c "from engram.ingest.intents import write_packaged_model; print(write_packaged_model())"

clean:
	rm -rf $(VENV) $(EXAMPLES_VENV) .pytest_cache .mypy_cache .ruff_cache
