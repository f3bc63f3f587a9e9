"""Results gathered through the queue: the submitter holds every finished game (issue 19).

The drills run on the real Redis server, in a database of their own (13) under a fresh
prefix, with each worker a separate `arena worker` process writing to its own folder (a
machine of its own, as far as the files go); the submitter's folder is another one.
"""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from arena.cli import main
from arena.commands.worker import worker_argv
from arena.errors import ArenaError
from arena.queue.jobs import MatchJob
from arena.queue.results import Collected, collect, finished_replay, pack, replay_path, unpack
from arena.ratings.folder import folder_report
from arena.replay_check import check_replay
from arena.tournament import load_spec, schedule
from tests.queue.conftest import QueueMaker, make_jobs, run_all
from tests.support.forgery import FORGER_KEY, signing_key
from tests.support.redis_db import REDIS_URL


@pytest.fixture
def prefix() -> Iterator[str]:
    """A fresh key prefix on the real server, deleted after the test."""
    name = f"results-{uuid.uuid4().hex[:10]}"
    yield name
    drop_keys(name)


def drop_keys(prefix: str) -> None:
    """Delete every key of the prefix: what a restart without persistence does to it."""
    client = redis.Redis.from_url(REDIS_URL)
    keys = list(client.scan_iter(f"{prefix}:*"))
    if keys:
        client.delete(*keys)
    client.close()


def wait_for(condition: Callable[[], bool], what: str, timeout_s: float = 120.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def tournament(tmp_path: Path, prefix: str) -> tuple[Path, list[MatchJob]]:
    spec = tmp_path / "gather.yaml"
    spec.write_text(
        f"name: {prefix}\nagents: {{a: random, b: random}}\nboards: [wwk_guard]\n"
        "games_per_pairing: 2\n"
    )
    return spec, schedule(load_spec(spec))


def cli(command: str, spec: Path, prefix: str, replays: Path, *extra: str) -> None:
    argv = ["tournament", command, str(spec), "--redis", REDIS_URL, "--prefix", prefix]
    assert main([*argv, "--replays", str(replays), *extra]) == 0


def start_worker(prefix: str, replays: Path, log: Path) -> subprocess.Popen[bytes]:
    command = worker_argv(REDIS_URL, prefix, replays, concurrency=2, heartbeat=2)
    return subprocess.Popen(command, stdout=log.open("wb"), stderr=subprocess.STDOUT)


def stop(worker: subprocess.Popen[bytes]) -> None:
    worker.send_signal(signal.SIGTERM)
    try:
        worker.wait(timeout=30)
    finally:
        worker.kill()


def play_everything(
    client: Any, prefix: str, jobs: list[MatchJob], machine: Path, log: Path
) -> None:
    """One worker process plays every queued game into `machine`'s folder, then stops."""
    worker = start_worker(prefix, machine, log)
    try:
        wait_for(all_done(client, prefix, jobs), "every game to finish")
    finally:
        stop(worker)


def all_done(client: Any, prefix: str, jobs: list[MatchJob]) -> Callable[[], bool]:
    return lambda: all(client.hget(f"{prefix}:game:{j.game_id}", "state") == "done" for j in jobs)


def held(client: Any, prefix: str, jobs: list[MatchJob]) -> int:
    return sum(bool(client.exists(f"{prefix}:replay:{j.game_id}")) for j in jobs)


def same_files(jobs: list[MatchJob], here: Path, there: Path) -> bool:
    return all(
        replay_path(here, j.game_id).read_bytes() == replay_path(there, j.game_id).read_bytes()
        for j in jobs
    )


@pytest.mark.redis
def test_status_collect_gathers_a_remote_workers_signed_replays(
    prefix: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec, jobs = tournament(tmp_path, prefix)
    submitter, machine = tmp_path / "submitter", tmp_path / "worker-machine"
    cli("submit", spec, prefix, submitter)
    client: Any = redis.Redis.from_url(REDIS_URL, decode_responses=True)
    play_everything(client, prefix, jobs, machine, tmp_path / "worker.log")
    assert not list(submitter.glob("*.jsonl"))
    capsys.readouterr()

    cli("status", spec, prefix, submitter, "--collect")

    assert f"collected {len(jobs)} finished replays" in capsys.readouterr().out
    assert same_files(jobs, submitter, machine)
    assert all(check_replay(replay_path(submitter, j.game_id)).ok for j in jobs)
    scan, _ = folder_report(submitter, bootstrap=0)
    assert len(scan.rated) >= 1  # mirrored pairings of one seed play one game: counted once
    assert set(scan.left_out()) <= {"duplicate"}
    cli("status", spec, prefix, submitter, "--collect")
    assert "collected 0 finished replays" in capsys.readouterr().out
    client.close()


@pytest.mark.redis
def test_forget_drops_finished_games_from_redis_once_the_folder_holds_them(
    prefix: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec, jobs = tournament(tmp_path, prefix)
    submitter, machine = tmp_path / "submitter", tmp_path / "worker-machine"
    cli("submit", spec, prefix, submitter)
    capsys.readouterr()
    cli("forget", spec, prefix, submitter)  # nothing played yet: nothing to forget
    out = capsys.readouterr().out
    assert f"forgot 0 finished games of {prefix}" in out
    assert f"kept {len(jobs)} on Redis: {len(jobs)} queued" in out
    client: Any = redis.Redis.from_url(REDIS_URL, decode_responses=True)
    play_everything(client, prefix, jobs, machine, tmp_path / "worker.log")
    capsys.readouterr()

    cli("forget", spec, prefix, submitter)

    out = capsys.readouterr().out
    assert f"collected {len(jobs)} finished replays" in out
    assert f"forgot {len(jobs)} finished games of {prefix} on Redis" in out and "kept" not in out
    assert same_files(jobs, submitter, machine)
    left = sorted(client.scan_iter(f"{prefix}:*"))
    per_game = [k for k in left if any(j.game_id in k for j in jobs)]
    assert per_game == [] and f"{prefix}:tournament:{prefix}" not in left
    assert f"{prefix}:spend:{prefix}" not in left
    cli("status", spec, prefix, submitter)
    assert f"done {len(jobs)}" in capsys.readouterr().out  # the folder is the record now
    cli("submit", spec, prefix, submitter)
    assert f"queued 0, re-queued 0 failed, 0 already known, {len(jobs)} finished here" in (
        capsys.readouterr().out
    )
    client.close()


@pytest.mark.redis
def test_a_resubmit_after_a_loss_plays_no_finished_game_again(
    prefix: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec, jobs = tournament(tmp_path, prefix)
    first_submitter = tmp_path / "first-submitter"
    cli("submit", spec, prefix, first_submitter)
    client: Any = redis.Redis.from_url(REDIS_URL, decode_responses=True)
    machine = tmp_path / "worker-machine"
    worker = start_worker(prefix, machine, tmp_path / "worker.log")
    try:
        wait_for(all_done(client, prefix, jobs), "every game to finish")
        drop_keys(prefix)  # the server restarts without its data; nothing was collected
        wait_for(lambda: held(client, prefix, jobs) == len(jobs), "the replays given back")
        capsys.readouterr()
        submitter = tmp_path / "second-submitter"
        cli("submit", spec, prefix, submitter)
    finally:
        stop(worker)
    out = capsys.readouterr().out
    assert f"collected {len(jobs)} finished replays" in out
    assert f"queued 0, re-queued 0 failed, 0 already known, {len(jobs)} finished here" in out
    assert same_files(jobs, submitter, machine)  # a game played again has other bytes
    assert f"gave back the {len(jobs)} finished replays" in (tmp_path / "worker.log").read_text()
    cli("forget", spec, prefix, submitter)  # the games are gone but for the replays given back
    assert f"forgot {len(jobs)} finished games" in capsys.readouterr().out
    left = [k for k in client.scan_iter(f"{prefix}:*") if any(j.game_id in k for j in jobs)]
    assert left == [], "nothing of a forgotten game may stay"
    client.close()


def test_a_worker_takes_a_game_finished_elsewhere_instead_of_playing_it(
    new_queue: QueueMaker, tmp_path: Path
) -> None:
    """The queue holds finished replays but no longer the games (a loss, then a submit
    before any submitter collected): a worker on another machine writes them, plays none.
    A held replay that is another game's is not taken: that job is played."""
    jobs = make_jobs(games=2)
    elsewhere, here = tmp_path / "elsewhere", tmp_path / "here"

    async def scenario() -> None:
        assert (await run_all(new_queue(prefix="before"), jobs, elsewhere)).done == len(jobs)
        after = new_queue(prefix="after")
        for job in jobs[1:]:
            text = replay_path(elsewhere, job.game_id).read_text(encoding="utf-8")
            assert await after.offer_replay(job.game_id, pack(text))
        forged = replay_path(elsewhere, jobs[1].game_id).read_text(encoding="utf-8")
        assert await after.offer_replay(jobs[0].game_id, pack(forged))
        stats = await run_all(after, jobs, here)
        assert (stats.gathered, stats.done) == (len(jobs) - 1, len(jobs))

    asyncio.run(scenario())
    assert same_files(jobs[1:], here, elsewhere)
    assert check_replay(replay_path(here, jobs[0].game_id)).ok


def test_a_forged_queue_entry_is_refused_in_one_line() -> None:
    assert unpack(pack("line\n")) == "line\n"
    for bad in ("not base64!", pack("x")[:-4] + "AAAA"):
        with pytest.raises(ArenaError, match="not a packed replay"):
            unpack(bad)


def test_worker_hands_the_queue_its_replay_bytes(new_queue: QueueMaker, tmp_path: Path) -> None:
    jobs = make_jobs(games=1)

    async def scenario() -> dict[str, str]:
        queue = new_queue()
        await run_all(queue, jobs, tmp_path)
        return await queue.replays([j.game_id for j in jobs])

    kept = asyncio.run(scenario())
    assert {g: unpack(p) for g, p in kept.items()} == {
        j.game_id: replay_path(tmp_path, j.game_id).read_text(encoding="utf-8") for j in jobs
    }


def test_collect_places_only_replays_that_verify_and_the_rest_stay_owed(
    new_queue: QueueMaker, tmp_path: Path
) -> None:
    """A Redis writer cannot make a game count as finished here: an altered log and a
    replay signed under another arena's key are reported and left out; those games are
    still owed (no finished replay in the folder), and a genuine one is placed."""
    jobs = make_jobs(games=2)
    assert len(jobs) >= 3
    played, forged, here = tmp_path / "played", tmp_path / "forged", tmp_path / "here"

    async def scenario() -> Collected:
        assert (await run_all(new_queue(prefix="a"), jobs, played)).done == len(jobs)
        with signing_key(FORGER_KEY):
            assert (await run_all(new_queue(prefix="b"), jobs[1:2], forged)).done == 1
        queue = new_queue(prefix="c")
        lines = replay_path(played, jobs[0].game_id).read_text(encoding="utf-8").split("\n")
        header = json.loads(lines[0])
        header["result"]["winner"] = "wolves" if header["result"]["winner"] != "wolves" else "good"
        altered = "\n".join([json.dumps(header, separators=(",", ":")), *lines[1:]])
        offers = {
            jobs[0].game_id: altered,
            jobs[1].game_id: replay_path(forged, jobs[1].game_id).read_text(encoding="utf-8"),
            jobs[2].game_id: replay_path(played, jobs[2].game_id).read_text(encoding="utf-8"),
        }
        for game_id, text in offers.items():
            assert await queue.offer_replay(game_id, pack(text))
        return await collect(queue, jobs, here)

    collected = asyncio.run(scenario())
    assert collected.written == (jobs[2].game_id,)
    refused = dict(line.split(": ", 1) for line in collected.refused)
    assert set(refused) == {jobs[0].game_id, jobs[1].game_id}
    assert all("does not verify" in why for why in refused.values()), refused
    assert "won, the log says" in refused[jobs[0].game_id]
    assert "not this arena's key" in refused[jobs[1].game_id], refused
    for job in jobs[:2]:
        assert finished_replay(replay_path(here, job.game_id), job) is None  # still owed
    assert [p.name for p in here.iterdir()] == [f"{jobs[2].game_id}.jsonl"]
