# Referee: `make run` serves, `make test` runs the whole suite. Both set up .venv first.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PORT   ?= 8000
export REFEREE_INDEX ?= $(CURDIR)/var/index

.PHONY: run test index index-force bench eval openapi clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Reinstall whenever pyproject.toml changes.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

# Builds the index only when it is missing or older than the corpus and the indexer.
index: $(VENV)/.installed
	$(BIN)/python -m indexer --if-stale

index-force: $(VENV)/.installed
	$(BIN)/python -m indexer

run: index
	$(BIN)/gunicorn --bind 127.0.0.1:$(PORT) --workers 2 --threads 4 --worker-class gthread \
		--limit-request-line 16384 --access-logfile - 'service:create_app()'

test: $(VENV)/.installed
	$(BIN)/python -m pytest

bench: index
	$(BIN)/python -m benchmarks

eval: index
	$(BIN)/python -m indexer.eval benchmarks/eval/search_dev.jsonl

# Regenerates openapi.yaml from the running app's schemas (a test checks that they agree).
openapi: $(VENV)/.installed
	$(BIN)/python -m service.openapi > openapi.yaml

clean:
	rm -rf $(VENV) var .pytest_cache
