# One command sets up and runs the example suite (`make demo`); one runs the tests (`make test`).
VENV ?= .venv
PY := $(VENV)/bin/python
PYTHON ?= python3

.PHONY: setup models demo test lint bench clean

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test]"
	$(PY) -m compileall -q src  # bytecode even where PYTHONDONTWRITEBYTECODE is set: faster start-up
	touch $@

demo: models
	$(VENV)/bin/agentunit run examples/quickstart.yaml --db .agentunit/agentunit.db \
		-o reports/quickstart.json --junit reports/quickstart.xml --markdown reports/quickstart.md \
		--html reports/quickstart.html

lint: setup
	$(VENV)/bin/ruff check src tests bench examples

models: setup
	$(VENV)/bin/agentunit models install embeddings judge perplexity

test: lint models
	HF_HUB_OFFLINE=1 $(PY) -m pytest

bench: models
	$(PY) bench/engine_throughput.py 1000
	$(PY) bench/engine_throughput.py 100000 --jsonl
	$(PY) bench/http_concurrency.py 2000 64 0.1
	$(PY) bench/deterministic_catalog.py 10000
	$(PY) bench/embeddings.py
	$(PY) bench/judge_accuracy.py
	$(PY) bench/pii_detection.py
	$(PY) bench/sustainability.py

clean:
	rm -rf $(VENV) .agentunit reports .pytest_cache .ruff_cache
