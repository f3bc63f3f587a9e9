"""The crash drill on the real Redis server: SIGKILL a worker mid-match, another finishes.

Every game must end exactly once, with exactly the events a clean run of the same seeds
produces (the step-seeded random agents make a resumed game play as an uninterrupted one),
and the killed matches' live streams must show no line twice.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
import redis

from arena.cli import main
from arena.commands.worker import worker_argv
from arena.queue.redis_queue import RedisQueue
from arena.queue.results import replay_path
from arena.queue.worker import Worker
from arena.storage.replay_file import read_header
from arena.tournament import load_spec, schedule
from tests.queue.conftest import clean_events, replay_events
from tests.support.redis_db import REDIS_URL

pytestmark = pytest.mark.redis


def start_worker(
    prefix: str, replays: Path, log: Path, heartbeat: float = 1
) -> subprocess.Popen[bytes]:
    command = worker_argv(REDIS_URL, prefix, replays, concurrency=2, heartbeat=heartbeat)
    return subprocess.Popen(command, stdout=log.open("wb"), stderr=subprocess.STDOUT)


def wait_for(condition: object, what: str, timeout_s: float = 60.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


def test_sigkilled_worker_match_is_finished_by_another(prefix: str, tmp_path: Path) -> None:
    spec_path = tmp_path / "crash.yaml"
    spec_path.write_text(
        f"name: {prefix}\nagents: {{a: 'delay:10:random', b: 'delay:10:random'}}\n"
        "boards: [wwk_guard]\ngames_per_pairing: 2\n"
    )
    jobs = schedule(load_spec(spec_path))
    replays = tmp_path / "replays"
    assert (
        main(
            [
                "tournament",
                "submit",
                str(spec_path),
                "--redis",
                REDIS_URL,
                "--prefix",
                prefix,
                "--replays",
                str(replays),
            ]
        )
        == 0
    )
    client: Any = redis.Redis.from_url(REDIS_URL, decode_responses=True)

    def log_lengths() -> dict[str, int]:
        return {j.game_id: client.llen(f"{prefix}:log:{j.game_id}") for j in jobs}

    first = start_worker(prefix, replays, tmp_path / "first.log")
    wait_for(lambda: max(log_lengths().values()) >= 60, "a match to be well under way")
    os.kill(first.pid, signal.SIGKILL)
    first.wait()
    killed = {game for game, length in log_lengths().items() if length}
    assert killed

    second = start_worker(prefix, replays, tmp_path / "second.log")
    try:
        wait_for(
            lambda: all(client.hget(f"{prefix}:game:{j.game_id}", "state") == "done" for j in jobs),
            "every game to finish",
        )
    finally:
        second.send_signal(signal.SIGTERM)
        second.wait(timeout=30)

    assert "resuming at event" in (tmp_path / "second.log").read_text()
    listed = sorted(p.name for p in replays.iterdir() if not p.name.startswith("."))
    assert listed == sorted(f"{j.game_id}.jsonl" for j in jobs)
    for job in jobs:
        path = replay_path(replays, job.game_id)
        assert read_header(path).result is not None
        assert replay_events(path) == clean_events(job)
        attempts = int(client.hget(f"{prefix}:game:{job.game_id}", "attempts") or 0)
        assert attempts == (2 if job.game_id in killed else 1)
    for game in killed:
        entries = client.xrange(f"{prefix}:live:{game}")
        assert [int(f["seq"]) for _, f in entries] == list(range(len(entries)))
        assert len({f["lease"] for _, f in entries}) == 2
        lines = replay_path(replays, game).read_text().splitlines()
        assert lines[-1].startswith('{"type":"signature"')  # the file, not the log, is signed
        assert [f["line"] for _, f in entries[1:-1]] == lines[1:-1]
    client.close()


def test_idle_worker_stops_promptly_on_the_real_server(prefix: str, tmp_path: Path) -> None:
    """Idle slots sit in XREADGROUP BLOCK; a cancellation landing there can be swallowed by
    redis-py (redis/redis-py#2028), so `stop()` must end them without cancelling them.

    Stopping at many points of the claim cycle (block 250 ms) must always end `run()`.
    """

    async def scenario() -> None:
        queue = await RedisQueue.connect(REDIS_URL, prefix=prefix, heartbeat_s=1.0)
        try:
            for step in range(40):
                worker = Worker(queue, tmp_path, concurrency=2)
                running = asyncio.create_task(worker.run())
                await asyncio.sleep(0.013 * step)
                worker.stop()
                await asyncio.wait_for(running, 30)
        finally:
            await queue.close()

    asyncio.run(scenario())


def test_sigterm_hands_a_running_match_back_at_once(prefix: str, tmp_path: Path) -> None:
    """`arena worker` on SIGTERM: exit 0 promptly, and the match it was playing is free to
    take over at once, long before its 30 s heartbeat would have expired."""
    spec_path = tmp_path / "term.yaml"
    spec_path.write_text(
        f"name: {prefix}\nagents: {{a: 'delay:10:random', b: 'delay:10:random'}}\n"
        "boards: [wwk_guard]\ngames_per_pairing: 1\n"
    )
    [job, *_] = schedule(load_spec(spec_path))
    replays = tmp_path / "replays"
    submit = ["tournament", "submit", str(spec_path), "--redis", REDIS_URL, "--prefix", prefix]
    assert main(submit) == 0
    client: Any = redis.Redis.from_url(REDIS_URL, decode_responses=True)
    log = tmp_path / "worker.log"
    worker = start_worker(prefix, replays, log, heartbeat=30)
    try:
        wait_for(lambda: client.llen(f"{prefix}:log:{job.game_id}") >= 30, "the match to start")
        worker.send_signal(signal.SIGTERM)
        assert worker.wait(timeout=30) == 0
    finally:
        worker.kill()
    assert "stopping: handing running matches back" in log.read_text()

    async def take_over() -> int:
        queue = await RedisQueue.connect(REDIS_URL, prefix=prefix, heartbeat_s=30.0)
        try:
            lease = await queue.claim("next")
            assert lease is not None and lease.job.game_id == job.game_id
            return lease.attempt
        finally:
            await queue.close()

    assert asyncio.run(take_over()) == 2
    client.close()
