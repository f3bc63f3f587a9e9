# Two commands set everything up on a fresh machine:
#   make play   — install into .venv and play one real game with the built-in bots
#   make test   — install the dev tools, start Redis if needed, install Debian chromium if
#                 missing, then run ruff, mypy and the whole pytest suite
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell sha1sum pyproject.toml | cut -c1-12)

.PHONY: play test lint services

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	rm -f $(VENV)/.installed-* && touch $@

play: $(STAMP)
	$(VENV)/bin/arena play --board wwk_guard --seed 1

services:
	bash scripts/ensure-services.sh

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

test: $(STAMP) services lint
	$(PY) -m pytest
