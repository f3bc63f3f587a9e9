"""An agent from an installed package, named by its entry point, at every kind of table."""

from __future__ import annotations

import json
import subprocess
import time
import uuid
from pathlib import Path

import pytest
import redis

from arena.rules import events as ev
from arena.storage.replay_file import read_header, read_replay
from tests.plugins.conftest import NAME, Venv
from tests.support.redis_db import REDIS_URL

pytestmark = pytest.mark.slow  # each session pip-installs a package into a venv


def test_the_installed_package_registers_its_agent(installed: Venv, tmp_path: Path) -> None:
    run = installed.arena("agent", "check", NAME, "--games", "2", "--json", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert report["conformant"] and report["accepted"] == report["calls"] > 0


def _seat_of(replay: Path, spec: str) -> list[int]:
    return [s.seat for s in read_header(replay).seats if s.agent_spec == spec]


def test_arena_play_seats_it_by_name(installed: Venv, tmp_path: Path) -> None:
    out = tmp_path / "game.jsonl"
    run = installed.arena(
        "play",
        "--seat",
        f"3={NAME}",
        "--seed",
        "4",
        "--lang",
        "en",
        "--out",
        str(out),
        "--quiet",
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stderr
    replay = read_replay(out)
    assert replay.header.seats[2].agent == NAME and replay.header.seats[2].model == "suspicion-1"
    assert not [e for e in replay.events if isinstance(e, ev.ActionDefaulted)]
    assert [a for a in replay.answers if a.seat == 3]


def test_a_spec_file_gives_it_options(installed: Venv, tmp_path: Path) -> None:
    spec = tmp_path / "match.yaml"
    spec.write_text(
        f"seats: ['1-12={NAME}']\nlang: en\n"
        f"options:\n  {NAME}: {{words: 'Seat {{seat}} is odd.'}}\n"
    )
    out = tmp_path / "game.jsonl"
    run = installed.arena("play", "--spec", str(spec), "--out", str(out), "--quiet", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    speeches = [e for e in read_replay(out).events if isinstance(e, ev.Spoke)]
    assert speeches and all(e.text.endswith(" is odd.") for e in speeches)


TOURNAMENT = f"""\
name: {{name}}
agents:
  demo: {{{{spec: {NAME}, options: {{{{words: "Seat {{{{seat}}}} again."}}}}}}}}
  bots: bot
boards: [std9]
games_per_pairing: 1
"""


def test_a_tournament_plays_it_in_process(installed: Venv, tmp_path: Path) -> None:
    path, replays = tmp_path / "t.yaml", tmp_path / "replays"
    path.write_text(TOURNAMENT.format(name="plug"))
    run = installed.arena("tournament", "run", str(path), "--replays", str(replays), cwd=tmp_path)
    assert run.returncode == 0, run.stderr + run.stdout
    games = sorted(replays.glob("plug-*.jsonl"))
    assert len(games) == 2 and all(_seat_of(g, NAME) for g in games)
    speeches = [
        e
        for g in games
        for e in read_replay(g).events
        if isinstance(e, ev.Spoke) and e.seat in _seat_of(g, NAME)
    ]
    assert speeches and all(e.text.endswith(" again.") for e in speeches)


@pytest.mark.redis
def test_a_worker_on_the_redis_queue_plays_it(installed: Venv, tmp_path: Path) -> None:
    prefix = f"plugtest-{uuid.uuid4().hex[:8]}"
    path, replays = tmp_path / "t.yaml", tmp_path / "replays"
    path.write_text(TOURNAMENT.format(name=prefix))
    where = ["--redis", REDIS_URL, "--prefix", prefix]
    try:
        submitted = installed.arena("tournament", "submit", str(path), *where, cwd=tmp_path)
        assert submitted.returncode == 0, submitted.stderr
        worker = subprocess.Popen(
            [str(installed.python), "-m", "arena", "worker", *where, "--replays", str(replays)],
            cwd=tmp_path,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            for _ in range(600):  # polls; the games themselves take seconds
                status = installed.arena("tournament", "status", str(path), *where, cwd=tmp_path)
                if "2/2  done 2" in status.stdout:
                    break
                time.sleep(0.5)
            assert "2/2  done 2" in status.stdout, status.stdout
        finally:
            worker.terminate()
            worker.wait(timeout=60)
        games = sorted(replays.glob(f"{prefix}-*.jsonl"))
        assert len(games) == 2 and all(_seat_of(g, NAME) for g in games)
    finally:
        client = redis.Redis.from_url(REDIS_URL)
        keys = list(client.scan_iter(f"{prefix}:*"))
        if keys:
            client.delete(*keys)
        client.close()
