# One command sets up and runs the example suite (`make demo`); one runs the tests (`make test`).
VENV ?= .venv
PY := $(VENV)/bin/python
PYTHON ?= python3

.PHONY: setup models sandbox browser postgres audio-tools audio-clips demo test lint bench clean
# Playwright drives Debian's chromium (`browser` below); it never downloads a browser of its own.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD := 1

setup: $(VENV)/.installed

# The demo installs agentunit, the runtimes of its two embedded models and the extras of the README's examples
# (privacy: travel_team; multimodal, video, audio: the image, video and voice examples; ~300 MB the first time);
# the tests need every extra and the reference libraries they cross-check against (minutes).
$(VENV)/.core: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet -e ".[embeddings,judge,privacy,multimodal,video,audio]"
	$(PY) -m compileall -q src  # bytecode even where PYTHONDONTWRITEBYTECODE is set: faster start-up
	touch $@

$(VENV)/.installed: $(VENV)/.core
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test]"
	touch $@

demo: $(VENV)/.core
	$(VENV)/bin/agentunit models install embeddings judge
	$(VENV)/bin/agentunit run examples/quickstart.yaml --db .agentunit/agentunit.db \
		-o reports/quickstart.json --junit reports/quickstart.xml --markdown reports/quickstart.md \
		--html reports/quickstart.html
	@echo "reports/quickstart.html is the report. agentunit is $(VENV)/bin/agentunit: run"
	@echo "  source $(VENV)/bin/activate"
	@echo "to type plain 'agentunit' in this shell, then 'agentunit init' to start a suite of your own."

lint: setup
	$(VENV)/bin/ruff check src tests bench examples tools

models: setup
	$(VENV)/bin/agentunit models install embeddings judge perplexity asr asr-tiny-en brisque

# bubblewrap isolates the programs the code metrics run (docs/code-and-moderation.md); root installs it.
sandbox:
	@command -v bwrap >/dev/null || { if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap >/dev/null; \
	else echo "bubblewrap is missing: sudo apt-get install bubblewrap (sandbox tests are skipped without it)"; fi; }

# chromium runs the browser tests of the viewer and the HTML report (tests/viewer, tests/reporting), driven by
# Playwright at /usr/bin/chromium; root installs Debian's package. Without it those tests are skipped.
browser:
	@command -v chromium >/dev/null || { if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	else echo "chromium is missing: sudo apt-get install chromium (browser tests are skipped without it)"; fi; }

# PostgreSQL's server binaries run the tests of the PostgreSQL results store (tests/store/test_postgres.py
# starts its own cluster in a temporary directory, on a free loopback port); root installs Debian's package
# and stops the cluster the package starts, which the tests do not use. Without it those tests are skipped.
postgres:
	@ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || { if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null \
		&& { command -v pg_ctlcluster >/dev/null && pg_lsclusters -h 2>/dev/null | while read v c _; do \
			pg_ctlcluster "$$v" "$$c" stop 2>/dev/null; done; true; }; \
	else echo "PostgreSQL is missing: sudo apt-get install postgresql (PostgreSQL store tests are skipped without it)"; fi; }

# espeak-ng and sox regenerate the committed speech clips (python tests/data/audio/build.py) and synthesise
# the language-set clips the tests build on first use (tests/audio/test_language_set.py). Root installs them.
audio-tools:
	@command -v espeak-ng >/dev/null && command -v sox >/dev/null || { if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq espeak-ng sox >/dev/null; \
	else echo "espeak-ng or sox is missing: sudo apt-get install espeak-ng sox (the language-set tests are skipped without them)"; fi; }

audio-clips: setup audio-tools
	$(PY) tests/data/audio/build.py

test: lint models sandbox browser postgres audio-tools
	HF_HUB_OFFLINE=1 $(PY) -m pytest

bench: models
	$(PY) bench/engine_throughput.py 1000
	$(PY) bench/engine_throughput.py 100000 --jsonl
	$(PY) bench/http_concurrency.py 2000 64 0.1
	$(PY) bench/deterministic_catalog.py 10000
	$(PY) bench/embeddings.py
	$(PY) bench/judge_agreement.py llm-rubric factuality g-eval answer_correctness --split test
	$(PY) bench/pii_detection.py
	$(PY) bench/sustainability.py
	$(PY) bench/code_execution.py
	$(PY) bench/code_language.py
	$(PY) bench/code_judge.py
	$(PY) bench/moderation.py
	$(PY) bench/moderation.py --method both
	$(PY) bench/audio.py
	$(PY) bench/viewer.py

clean:
	rm -rf $(VENV) .agentunit reports .pytest_cache .ruff_cache
