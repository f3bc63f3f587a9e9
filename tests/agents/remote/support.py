"""The example remote agent, in a process of its own or in-process behind httpx's mock.

`example_module()` loads `examples/agents/remote_agent.py` (outside the package) so tests
reuse its protocol handling; `InProcess` serves it through `httpx.MockTransport`, records
every request body exactly as sent, and lets a test replace any answer (`misbehave`).
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import random
import threading
from collections.abc import Callable, Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx

from arena.golden import example_remote_agent

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "agents" / "remote_agent.py"

Misbehave = Callable[[dict[str, Any], httpx.Response], httpx.Response]
"""`(message, the example's proper response) -> the response to send instead`."""


def example_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("remote_agent_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class InProcess:
    """The example agent behind `httpx.MockTransport`, recording what it was sent."""

    def __init__(
        self, token: str | None = None, seed: int = 0, misbehave: Misbehave | None = None
    ) -> None:
        self.module = example_module()
        self.agent = self.module.Agent(token, seed)
        self.misbehave = misbehave
        self.bodies: list[bytes] = []
        self.choose: Callable[[dict[str, Any], random.Random], dict[str, Any]] | None = None

    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self.handle)

    async def handle(self, request: httpx.Request) -> httpx.Response:
        body = request.content
        self.bodies.append(body)
        message = json.loads(body)
        if not self.agent.authentic(request.headers, body, message):
            return httpx.Response(401, json={"error": "not signed by the arena"})
        if self.choose is not None:
            self.module.choose = self.choose
        status, reply, key = self.agent.reply(message)
        data = json.dumps(reply).encode()
        headers = {"Content-Type": "application/json"}
        if key is not None:
            headers["X-Arena-Signature"] = self.module.sign(key, data)
        response = httpx.Response(status, content=data, headers=headers)
        return self.misbehave(message, response) if self.misbehave else response


example_process = example_remote_agent
"""The example agent as a separate process on a free port (`arena.golden`'s runner)."""


@contextlib.contextmanager
def served(module: ModuleType, seed: int = 0) -> Iterator[str]:
    """The example `module` (as loaded, maybe altered by the test) served over HTTP in a
    thread of this process; yields its URL. For agents that misbehave on purpose."""
    handler = type("Handler", (module.Handler,), {"agent": module.Agent(None, seed)})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/agent"
    finally:
        server.shutdown()
        server.server_close()
