"""What the real-browser tests share: Debian chromium, and the dashboard as users start it.

The dashboard runs as `arena dashboard` would run it (`streamlit_command`: no Deploy
button, warning-level logs) on a free loopback port, with file watching off; every wait
is for the server to answer, never a sleep that assumes a speed.
"""

from __future__ import annotations

import os
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from arena.cli import parser
from arena.commands.dashboard import streamlit_command

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]  # fmt: skip
SHOTS = Path(__file__).resolve().parents[2] / "screenshots"
"""Screenshots for a person to look at (git-ignored), at the repository root."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_healthy(url: str, process: subprocess.Popen[bytes], limit_s: float = 60) -> None:
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        assert process.poll() is None, "streamlit exited early"
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as reply:
                if reply.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise AssertionError("the dashboard did not come up")


def start_dashboard(replays: Path, *extra: str) -> tuple[subprocess.Popen[bytes], str]:
    """`arena dashboard --replays REPLAYS EXTRA…` on a free port, once it answers."""
    replays.mkdir(parents=True, exist_ok=True)
    port = free_port()
    words = ["dashboard", "--replays", str(replays), "--port", str(port), *extra]
    command = streamlit_command(parser().parse_args(words))
    split = command.index("--")
    command[split:split] = ["--server.fileWatcherType", "none"]
    env = {k: v for k, v in os.environ.items() if k not in {"ARENA_REPLAYS", "ARENA_REDIS_URL"}}
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, process)
    except BaseException:
        process.terminate()
        raise
    return process, url


@contextmanager
def dashboard(replays: Path, *extra: str) -> Iterator[str]:
    """The dashboard's URL while it serves `replays` (see `start_dashboard`)."""
    process, url = start_dashboard(replays, *extra)
    try:
        yield url
    finally:
        process.terminate()
        process.wait(timeout=20)


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian chromium under playwright, the screenshots' folder made; closed on leaving."""
    from playwright.sync_api import sync_playwright

    SHOTS.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield browser
        finally:
            browser.close()
