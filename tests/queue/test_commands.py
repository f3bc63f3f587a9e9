"""`arena tournament run|submit|status` and their one-line errors."""

from __future__ import annotations

import logging
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis

from arena.cli import main
from arena.commands.worker import worker_logging
from arena.tournament import load_spec, schedule
from tests.queue.conftest import clean_events, replay_events
from tests.support.redis_db import REDIS_URL

SPEC = "name: {name}\nagents: {{a: random, b: random}}\nboards: [std9]\ngames_per_pairing: 2\n"


def write_spec(tmp_path: Path, name: str = "cmd") -> Path:
    path = tmp_path / "t.yaml"
    path.write_text(SPEC.format(name=name))
    return path


def test_run_plays_everything_and_a_rerun_skips_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec, replays = write_spec(tmp_path), tmp_path / "replays"
    assert main(["tournament", "run", str(spec), "--workers", "2", "--replays", str(replays)]) == 0
    out = capsys.readouterr().out
    assert "cmd: 4 games, 0 already finished" in out and "4/4  done 4" in out
    assert len(list(replays.glob("cmd-*.jsonl"))) == 4
    assert main(["tournament", "status", str(spec), "--replays", str(replays)]) == 0
    assert "4/4  done 4" in capsys.readouterr().out
    assert main(["tournament", "run", str(spec), "--replays", str(replays)]) == 0
    assert "4 already finished" in capsys.readouterr().out


def test_a_killed_embedded_run_resumes_its_unfinished_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """SIGKILL `tournament run` mid-game: the rerun resumes from the spooled logs, and
    every game ends exactly as an uninterrupted run of its seeds would."""
    spec = tmp_path / "slow.yaml"
    spec.write_text(
        "name: slow\nagents: {a: 'delay:5:random', b: 'delay:5:random'}\n"
        "boards: [std9]\ngames_per_pairing: 1\n"
    )
    replays = tmp_path / "replays"
    spool = replays / ".spool"
    command = [sys.executable, "-m", "arena.cli", "tournament", "run", str(spec)]
    run = subprocess.Popen([*command, "--replays", str(replays)], stdout=subprocess.DEVNULL)
    try:
        for _ in range(3000):  # at most 60 s
            if spool.exists() and any(
                len(p.read_text().splitlines()) > 40 for p in spool.iterdir()
            ):
                break
            assert run.poll() is None, "the run ended before it could be killed"
            time.sleep(0.02)
        else:
            pytest.fail("no game got under way")
    finally:
        run.kill()
        run.wait()
    started = sorted(p.stem for p in spool.iterdir())
    with next(spool.iterdir()).open("a") as torn:
        torn.write('{"type":"ev')  # a line cut short by the kill
    assert main(["tournament", "run", str(spec), "--replays", str(replays)]) == 0
    assert f"resuming {len(started)} partly played games" in capsys.readouterr().out
    jobs = schedule(load_spec(spec))
    assert sorted(p.name for p in replays.glob("*.jsonl")) == sorted(
        f"{j.game_id}.jsonl" for j in jobs
    )
    for job in jobs:
        assert replay_events(replays / f"{job.game_id}.jsonl") == clean_events(job)
    assert not list(spool.iterdir())


def test_status_of_an_unplayed_tournament(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(["tournament", "status", str(write_spec(tmp_path)), "--replays", str(tmp_path)]) == 0
    )
    assert "0/4  unknown 4" in capsys.readouterr().out


def test_a_replay_of_another_game_under_the_same_id_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec, replays = write_spec(tmp_path), tmp_path / "replays"
    assert main(["tournament", "run", str(spec), "--replays", str(replays)]) == 0
    spec.write_text(SPEC.format(name="cmd").replace("std9", "std10"))
    assert main(["tournament", "run", str(spec), "--replays", str(replays)]) == 2
    assert "holds a different game with the id cmd-00000" in capsys.readouterr().err


def test_bad_input_is_one_line_before_anything_is_queued(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\nagents: {a: randomm}\n")
    assert main(["tournament", "submit", str(bad), "--redis", "redis://127.0.0.1:1"]) == 2
    assert capsys.readouterr().err.startswith("arena: error: ")
    good = write_spec(tmp_path)
    assert main(["tournament", "submit", str(good), "--redis", "redis://127.0.0.1:1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("arena: error: cannot reach Redis at redis://127.0.0.1:1")
    assert err.count("\n") == 1


@pytest.mark.redis
def test_submit_twice_queues_once(
    tmp_path: Path, prefix: str, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = write_spec(tmp_path, name=prefix)
    args = ["--redis", REDIS_URL, "--prefix", prefix, "--replays", str(tmp_path)]
    assert main(["tournament", "submit", str(spec), *args]) == 0
    assert f"{prefix}: queued 4, re-queued 0 failed, 0 already known" in capsys.readouterr().out
    assert main(["tournament", "submit", str(spec), *args]) == 0
    assert "queued 0, re-queued 0 failed, 4 already known" in capsys.readouterr().out
    assert main(["tournament", "status", str(spec), *args]) == 0
    assert "0/4  queued 4" in capsys.readouterr().out
    client = redis.Redis.from_url(REDIS_URL)
    assert client.xlen(f"{prefix}:jobs") == 4
    client.close()


def test_a_finished_tournament_ends_with_a_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec, replays = tmp_path / "s.yaml", tmp_path / "replays"
    spec.write_text("name: sum\nagents: {bot: bot, rnd: random}\nboards: [std9]\n")
    assert main(["tournament", "run", str(spec), "--replays", str(replays)]) == 0
    out = capsys.readouterr().out
    assert "Summary: 4 games finished; wolves won" in out
    lines = [line for line in out.splitlines() if line.startswith(("  bot: ", "  rnd: "))]
    assert len(lines) == 2
    assert all(" of 4 (as wolves " in line and "/2, as good " in line for line in lines)
    hint = f"ratings with intervals: arena leaderboard {replays} --tournament {spec}"
    assert hint in out
    assert main(["tournament", "status", str(spec), "--replays", str(replays)]) == 0
    assert "Summary: 4 games finished" in capsys.readouterr().out
    assert main(["leaderboard", str(replays), "--tournament", str(spec), "--bootstrap", "0"]) == 0
    assert "Rated 4 verified games of tournament sum (4 of 4 scheduled)" in capsys.readouterr().out


def test_a_worker_logs_its_games_not_every_http_request(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`arena worker` prints the arena's lines; the HTTP client's INFO line per model call
    (seen in a real tournament's worker logs: one per call) stays out, its warnings not."""
    root = logging.getLogger()
    monkeypatch.setattr(root, "handlers", [])  # as in a fresh process: basicConfig applies
    monkeypatch.setattr(root, "level", root.level)
    monkeypatch.setattr(logging.getLogger("arena"), "level", logging.NOTSET)
    worker_logging()
    logging.getLogger("httpx").info("HTTP Request: POST http://127.0.0.1:1/v1 200 OK")
    logging.getLogger("httpx").warning("connection pool is full")
    logging.getLogger("arena.worker").info("game t-00000: good (every wolf is dead, day 2)")
    err = capsys.readouterr().err
    assert "HTTP Request" not in err
    assert "connection pool is full" in err and "game t-00000: good" in err
