"""Remote agents in tournaments: on the real Redis queue with `arena worker`, and quarantine."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest

from arena.cli import main
from arena.rules import events as ev
from arena.storage.replay_file import read_replay
from tests.agents.remote.support import ROOT, example_module, example_process
from tests.queue.conftest import prefix  # noqa: F401 - the fixture
from tests.support.redis_db import REDIS_URL

TOKEN = "tournament-token"


@pytest.mark.redis
def test_a_redis_tournament_seats_the_example_agent(
    tmp_path: Path,
    prefix: str,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    env = {**os.environ, "AGENT_TOKEN": TOKEN}
    replays = tmp_path / "replays"
    with example_process("--token-env", "AGENT_TOKEN", env=env) as url:
        spec = tmp_path / "t.yaml"
        spec.write_text(
            f"name: {prefix}\nagents:\n  mine: {{spec: '{url}', token_env: AGENT_TOKEN}}\n"
            "  bot: bot\nboards: [wwk_guard]\ngames_per_pairing: 1\n"
        )
        args = ["--redis", REDIS_URL, "--prefix", prefix, "--replays", str(replays)]
        os.environ["AGENT_TOKEN"] = TOKEN
        try:
            assert main(["tournament", "submit", str(spec), *args]) == 0
        finally:
            del os.environ["AGENT_TOKEN"]
        capsys.readouterr()
        worker = subprocess.Popen(
            [sys.executable, "-m", "arena.cli", "worker", *args],
            env={**env, "PYTHONPATH": str(ROOT)},
            stderr=subprocess.DEVNULL,
        )
        try:
            for _ in range(600):  # at most 120 s
                main(["tournament", "status", str(spec), *args])
                if "2/2  done 2" in capsys.readouterr().out:
                    break
                assert worker.poll() is None
                time.sleep(0.2)
            else:
                pytest.fail("the worker did not finish the tournament")
        finally:
            worker.terminate()
            worker.wait(timeout=30)
    games = sorted(replays.glob(f"{prefix}-*.jsonl"))
    assert len(games) == 2
    for path in games:
        replay = read_replay(path)
        mine = {s.seat for s in replay.header.seats if (s.agent, s.spec) == ("mine", url)}
        assert mine and {t.seat for t in replay.traces} == mine
        assert not [e for e in replay.events if isinstance(e, ev.ActionDefaulted)]


def garbage_server() -> ThreadingHTTPServer:
    """The example agent, except that every decision is answered with `{}` (refused)."""
    module = example_module()

    class Garbage(module.Handler):  # type: ignore[name-defined,misc]
        def do_POST(self) -> None:  # noqa: N802
            length = int(self.headers.get("Content-Length", 0))
            body = self.rfile.read(length)
            message = json.loads(body)
            if message["type"] == "decide":
                self.send({}, 200)
                return
            status, reply, key = self.agent.reply(message)
            self.send(reply, status, key)

    Garbage.agent = module.Agent(None, 0)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Garbage)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def test_an_agent_answering_garbage_is_quarantined_not_retried_forever(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server = garbage_server()
    url = f"http://127.0.0.1:{server.server_address[1]}/agent"
    spec, replays = tmp_path / "t.yaml", tmp_path / "replays"
    spec.write_text(
        f"name: junk\nagents:\n  junk: '{url}'\n  bot: bot\n"
        "boards: [wwk_guard]\ngames_per_pairing: 3\nlimits: {retries: 0}\n"
    )
    try:
        main(["tournament", "run", str(spec), "--replays", str(replays), "--workers", "1"])
    finally:
        server.shutdown()
        server.server_close()
    out = capsys.readouterr().out
    assert "quarantined: junk voided 3 of its 3 games: its remaining games are skipped" in out
    assert "done 3" in out and "skipped 3" in out


def test_a_down_agent_stops_the_tournament_before_it_starts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{free.getsockname()[1]}/agent"
    spec, replays = tmp_path / "t.yaml", tmp_path / "replays"
    spec.write_text(f"name: down\nagents: {{gone: '{url}', bot: bot}}\nboards: [wwk_guard]\n")
    assert main(["tournament", "run", str(spec), "--replays", str(replays)]) == 2
    assert f"remote agent {url} is down: connection refused" in capsys.readouterr().err
    assert not replays.exists() or not list(replays.glob("*.jsonl"))


def test_remote_settings_on_another_agent_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = tmp_path / "t.yaml"
    spec.write_text("name: x\nagents: {a: {spec: bot, token_env: T}, b: random}\nboards: [std9]\n")
    assert main(["tournament", "status", str(spec), "--replays", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "token_env: settings of a remote agent (an http(s):// URL), not of bot" in err
