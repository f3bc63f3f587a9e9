"""llama.cpp's own server (`llama-server`) with a real small model, for tests and benchmarks.

`scripts/real-model.sh` (run by `make test`) builds the server once (cached in
~/.cache/arena) and installs the model; `serving` starts it on a free loopback port as
the outside checks do — `llama-server -m GGUF --alias NAME --parallel N -c CTX --jinja` —
and stops it after. `--jinja` applies the model's own chat template, which does not
HTML-escape the prompt; the slots keep one prompt cache each, so model seats taking
turns each read only their new turns.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


class ServerFailed(RuntimeError):
    """The server could not be installed or did not come up."""


def install(model: str = "smollm2") -> tuple[Path, Path]:
    """The server binary and `model`'s GGUF, built or installed on first use.

    Raises:
        ServerFailed: a script failed (its error output says why).
    """
    paths = []
    for script, args in (("llama-server.sh", []), ("real-model.sh", [model])):
        done = subprocess.run(
            ["bash", str(ROOT / "scripts" / script), *args], capture_output=True, text=True
        )
        if done.returncode != 0:
            raise ServerFailed(f"scripts/{script} failed: {done.stderr[-2000:]}")
        paths.append(Path(done.stdout.strip()))
    return paths[0], paths[1]


def threads() -> int:
    """Threads for the server: `ARENA_LLAMA_THREADS`, else one per core on a quiet machine.

    On a machine busier than its cores, llama.cpp's threads wait for each other at every
    step (measured here: 2 threads prefilled 5-11 tokens/s and decoded 1-3 with a load
    of 7 on 2 cores, 1 thread 28 and 22), so a loaded machine gets one thread.
    """
    given = os.environ.get("ARENA_LLAMA_THREADS")
    if given:
        return int(given)
    cores = os.cpu_count() or 2
    return 1 if os.getloadavg()[0] > cores else cores


def free_port() -> int:
    """A free loopback port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def serving(
    binary: Path,
    model: Path,
    log: Path,
    *,
    alias: str = "smollm2",
    parallel: int = 4,
    context: int = 32_768,
    n_threads: int | None = None,
    ready_s: float = 300.0,
    extra: Sequence[str] = (),
) -> Iterator[str]:
    """Run llama-server for the block; yields its OpenAI base URL (`…/v1`).

    `context` is shared by the `parallel` slots (each gets `context / parallel`); `extra`
    arguments go last (e.g. `--cache-ram 0`).

    Raises:
        ServerFailed: the server exited or was not ready within `ready_s`.
    """
    port = free_port()
    command = [
        str(binary), "-m", str(model), "--alias", alias, "--parallel", str(parallel),
        "-c", str(context), "--jinja", "--host", "127.0.0.1", "--port", str(port),
        "-t", str(n_threads or threads()), *extra,
    ]  # fmt: skip
    with log.open("w") as out:
        server = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    root = f"http://127.0.0.1:{port}"
    try:
        _wait_ready(server, root, log, ready_s)
        yield f"{root}/v1"
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


@contextlib.contextmanager
def serving_models(aliases: Sequence[str], folder: Path, slots: int) -> Iterator[dict[str, str]]:
    """One server per model for the block, as the benchmarks run them: `slots` slots of
    8,192 tokens and one thread each (one core a model on two cores), logs in `folder`.

    Yields each alias's base URL; `aliases` are `scripts/real-model.sh` arguments.
    """
    with contextlib.ExitStack() as stack:
        urls = {}
        for alias in aliases:
            binary, model = install(alias)
            log = folder / f"{alias}-server.log"
            urls[alias] = stack.enter_context(
                serving(binary, model, log, alias=alias, parallel=slots,
                        context=slots * 8192, n_threads=1)
            )  # fmt: skip
        yield urls


def _wait_ready(server: subprocess.Popen[bytes], root: str, log: Path, ready_s: float) -> None:
    """Wait until `/health` answers 200 (it answers 503 while the model loads)."""
    until = time.monotonic() + ready_s
    while time.monotonic() < until:
        if server.poll() is not None:
            raise ServerFailed(f"llama-server exited: {log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(f"{root}/health", timeout=2) as reply:
                if reply.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.2)
    tail = log.read_text()[-2000:]
    raise ServerFailed(f"llama-server was not ready within {ready_s:g} s: {tail}")
