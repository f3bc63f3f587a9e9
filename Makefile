# Two commands set everything up on a fresh machine:
#   make play   — install the runtime into .venv (no dev tools) and play one game with the
#                 built-in bots (`make play lang=zh-Hans` prints it in Simplified Chinese,
#                 lang=en in English; the default is Traditional)
#   make dashboard — add the dashboard (Streamlit) to the same editable install in .venv,
#                 then start it on replays/ (`pip install '.[dashboard]'` would replace the
#                 editable install with a copy, and later edits would silently stop working)
#   make test   — add the dev tools, start Redis if needed, install Debian chromium if
#                 missing, install the real small model and llama.cpp's own server
#                 (scripts/real-model.sh and scripts/llama-server.sh: llama-server built
#                 once from source, ~4 min on two idle cores, then cached), then run ruff, mypy
#                 and the whole pytest suite on every core (pytest-xdist; the browser and
#                 real-model tests, which start their own servers, share one worker)
#                 (lint: ruff check, ruff format --check, mypy, lint-imports: the
#                 layer table of docs/architecture.md, and scripts/sizes.py: the size
#                 ratchet, modules <= 400 lines, functions <= 60 lines and complexity 15)
# While working, `make check` is the fast tier: the lint and every test that needs no
# service — no Redis, no browser, no real model, no long run (the markers in
# pyproject.toml) — on every core, in a few minutes; it starts and installs nothing but
# the dev tools. `make test` is the proof before landing, and what CI runs.
# Each install is remembered by a stamp named after pyproject.toml's hash, so editing
# pyproject.toml reinstalls and nothing else does.
VENV ?= .venv
PY := $(VENV)/bin/python
HASH := $(shell sha1sum pyproject.toml | cut -c1-12)
RUNTIME := $(VENV)/.runtime-$(HASH)
DEV := $(VENV)/.dev-$(HASH)
DASHBOARD := $(VENV)/.dashboard-$(HASH)

.PHONY: play dashboard check test lint services model

$(RUNTIME): pyproject.toml
	@python3 scripts/install.py $(VENV)
	@rm -f $(VENV)/.runtime-* $(VENV)/.installed-* && touch $@

$(DEV): $(RUNTIME)
	@python3 scripts/install.py $(VENV) dev
	@rm -f $(VENV)/.dev-* && touch $@

$(DASHBOARD): $(RUNTIME)
	@python3 scripts/install.py $(VENV) dashboard
	@rm -f $(VENV)/.dashboard-* && touch $@

# The game's language and script: `make play lang=zh-Hans` (简体), zh-Hant (繁體, the
# default) or en. Lower case: LANG is the locale's variable.
lang ?= zh-Hant

play: $(RUNTIME)
	$(VENV)/bin/arena play --board wwk_guard --seed 1 --lang $(lang)

dashboard: $(DASHBOARD)
	$(VENV)/bin/arena dashboard --replays replays

services:
	bash scripts/ensure-services.sh

model:
	bash scripts/real-model.sh > /dev/null

lint: $(DEV)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports
	$(PY) scripts/sizes.py

# -n auto: a worker per core. The tests that start heavy servers of their own (browser:
# Streamlit and chromium; real_model: llama-server, whose games' time limits are set for
# one game on the machine) then run alone, one at a time: under xdist's loadgroup two
# workers still each started a llama-server in CI, and two games at a core each crawled.
JOBS ?= auto
FAST := not redis and not browser and not real_model and not slow

# The fast tier plays the random-playthrough fuzz (tests/rules/test_invariants.py) with
# 10 games per board and rule set instead of 100: every board and preset, a tenth the time.
check: lint
	ARENA_FUZZ_GAMES=10 $(PY) -m pytest -n $(JOBS) -m "$(FAST)"

HEAVY := browser or real_model

test: $(DEV) services model lint
	$(PY) -m pytest -n $(JOBS) -m "not ($(HEAVY))" --durations=15
	$(PY) -m pytest -m "$(HEAVY)" --durations=15
