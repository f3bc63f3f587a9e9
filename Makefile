# Two commands set everything up on a fresh machine:
#   make play   — install the runtime into .venv (no dev tools) and play one game with the
#                 built-in bots (`make play lang=zh-Hans` prints it in Simplified Chinese,
#                 lang=en in English; the default is Traditional)
#   make test   — add the dev tools, start Redis if needed, install Debian chromium if
#                 missing, install the real small model and llama.cpp's own server
#                 (scripts/real-model.sh and scripts/llama-server.sh: llama-server built
#                 once from source, ~16 min on two cores, then cached), then run ruff, mypy
#                 and the whole pytest suite (lint: ruff check, ruff format --check, mypy,
#                 and lint-imports: the layer table of docs/architecture.md)
# Each install is remembered by a stamp named after pyproject.toml's hash, so editing
# pyproject.toml reinstalls and nothing else does.
VENV ?= .venv
PY := $(VENV)/bin/python
HASH := $(shell sha1sum pyproject.toml | cut -c1-12)
RUNTIME := $(VENV)/.runtime-$(HASH)
DEV := $(VENV)/.dev-$(HASH)

.PHONY: play test lint services model

$(RUNTIME): pyproject.toml
	@python3 scripts/install.py $(VENV)
	@rm -f $(VENV)/.runtime-* $(VENV)/.installed-* && touch $@

$(DEV): $(RUNTIME)
	@python3 scripts/install.py $(VENV) dev
	@rm -f $(VENV)/.dev-* && touch $@

# The game's language and script: `make play lang=zh-Hans` (简体), zh-Hant (繁體, the
# default) or en. Lower case: LANG is the locale's variable.
lang ?= zh-Hant

play: $(RUNTIME)
	$(VENV)/bin/arena play --board wwk_guard --seed 1 --lang $(lang)

services:
	bash scripts/ensure-services.sh

model:
	bash scripts/real-model.sh > /dev/null

lint: $(DEV)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

test: $(DEV) services model lint
	$(PY) -m pytest
