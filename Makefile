# Referee: `make run` serves, `make test` runs the whole suite. Both set up .venv first.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PORT   ?= 8000
export REFEREE_INDEX ?= $(CURDIR)/var/index

BROWSER ?= 1

NODE_TOOLS := tests/clients

.PHONY: run test browser index index-force bench eval fit-ranker fuzz openapi clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Reinstall whenever pyproject.toml changes. Serving needs the project alone; the suite, the
# benchmarks and refitting the ranker also its test extras (browsers' driver, fuzzers, LightGBM).
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: $(VENV)/.installed
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

# Builds the index only when it is missing or older than the corpus and the indexer.
index: $(VENV)/.installed
	$(BIN)/python -m indexer --if-stale

index-force: $(VENV)/.installed
	$(BIN)/python -m indexer

# Host, port, workers and the rest come from the environment: see service/gunicorn_conf.py.
run: index
	PORT=$(PORT) $(BIN)/gunicorn -c python:service.gunicorn_conf

# The browser tests (tests/web/test_browser.py) drive Debian's Chromium. Run as root (as CI is), the
# set-up installs it, with a Chinese font for readable screenshots, when it is missing.
# BROWSER=0 leaves the browser tests out.
browser:
ifneq ($(BROWSER),0)
	@if [ -z "$$REFEREE_CHROMIUM" ] && ! command -v chromium >/dev/null; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "make: installing Debian's chromium for the browser tests"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-wqy-microhei >/dev/null; \
	  else \
	    echo "make: Chromium is missing, so the browser tests will fail: sudo apt-get install chromium, or make test BROWSER=0"; \
	  fi; \
	fi
endif

# openapi-typescript and tsc for the generated-client test, pinned by tests/clients/package-lock.json.
$(NODE_TOOLS)/node_modules/.installed: $(NODE_TOOLS)/package-lock.json
	@if command -v npm >/dev/null; then \
	  npm ci --prefix $(NODE_TOOLS) --no-audit --no-fund --loglevel=error && touch $@; \
	else \
	  echo "make: npm is missing, so the TypeScript client test will fail: install Node.js 20 or newer"; \
	fi

# The suite on TEST_WORKERS processes (pytest-xdist), each test file whole on one of them.
TEST_WORKERS ?= 2
test: $(VENV)/.installed-test browser $(NODE_TOOLS)/node_modules/.installed
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile $(if $(filter 0,$(BROWSER)),-m "not browser")

bench: index $(VENV)/.installed-test browser
	$(BIN)/python -m benchmarks

# schemathesis with 300 examples per operation and mode (the suite runs 20): over 5,000 requests.
fuzz: $(VENV)/.installed-test
	REFEREE_FUZZ_EXAMPLES=300 REFEREE_LOG_LEVEL=warning $(BIN)/python -m pytest -s -q -p no:cacheprovider tests/api/test_schema_fuzz.py

# Players' questions (dev half: tune on it) and questions the rulebooks do not answer; then the test
# half; then the chat endpoint's follow-up conversations; then games without players' questions
# (each shipped game left out in turn, and new games added from their PDFs: benchmarks/uncurated.py).
eval: index
	$(BIN)/python -m benchmarks.evaluate benchmarks/eval/players.jsonl --offtopic benchmarks/eval/offtopic.jsonl --split dev
	$(BIN)/python -m benchmarks.evaluate benchmarks/eval/players.jsonl --offtopic benchmarks/eval/offtopic.jsonl --split test
	$(BIN)/python -m benchmarks.evaluate_followups
	$(BIN)/python -m benchmarks.uncurated

# Refits the ranker's weights (service/retrieval/ranker.json) on the dev questions, after a change
# to the corpus, the term base or the ranker's traits; then `make eval` shows both halves.
fit-ranker: index $(VENV)/.installed-test
	$(BIN)/python -m benchmarks.fit_ranker

# Regenerates openapi.yaml from the running app's schemas (a test checks that they agree).
openapi: $(VENV)/.installed
	$(BIN)/python -m service.openapi > openapi.yaml

clean:
	rm -rf $(VENV) var .pytest_cache
