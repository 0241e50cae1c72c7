# Two commands on a fresh machine: `make run` serves the hall, `make test` runs every check.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test setup lint typecheck pytest browser services clean messages

# The languages' catalogs (docs/translating.md), compiled for the server (and again by it at start
# when one is missing or older than its .po).
CATALOGS := $(wildcard src/dominohall/locale/*/LC_MESSAGES/messages.po)

# The engine's hot modules are compiled by the install (setup.py): built again when they change.
$(STAMP): pyproject.toml setup.py $(wildcard src/dominohall/rules/*.py)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP) $(CATALOGS:.po=.mo)

%.mo: %.po $(STAMP)
	$(BIN)/python -m dominohall.i18n.extraction compile

# The messages marked in the code extracted, and every language's catalog brought up to them.
messages: $(STAMP)
	$(BIN)/python -m dominohall.i18n.extraction update

run: setup
	$(BIN)/dominohall serve --host 127.0.0.1 --port 8000 --data ./data

browser:
	@command -v chromium >/dev/null 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null)

# PostgreSQL and Redis for the tests that run on them: started (installed first) when not running.
services:
	@bash scripts/services.sh

lint: setup
	$(BIN)/ruff check src tests bench setup.py
	$(BIN)/ruff format --check src tests bench setup.py

typecheck: setup
	$(BIN)/mypy --strict src/dominohall

# The tests run in this many processes (pytest-xdist); each has its own hall, browser and databases.
TEST_WORKERS ?= 2
# Their temporary files (each test's SQLite hall, the servers' data folders) in memory where the
# machine has it: a test checks what the hall does, not how fast the disk syncs.
TEST_TMP ?= $(shell test -d /dev/shm -a -w /dev/shm && echo /dev/shm || echo /tmp)

pytest: setup browser services
	TMPDIR=$(TEST_TMP) $(BIN)/pytest -q -p no:cacheprovider -n $(TEST_WORKERS)

test: lint typecheck pytest

clean:
	rm -rf $(VENV) data
