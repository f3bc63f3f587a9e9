"""Lost state: a Redis without persistence restarts empty in the middle of a tournament.

The drill starts its own `redis-server` (no snapshots, no append-only file) on a free
loopback port, kills it mid-tournament and starts it again, empty. The worker must say
so once and queue again what it was playing; `tournament status` must report the games
nobody can re-create as lost; nothing may hang.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import fakeredis
import pytest
import redis
from redis.exceptions import ResponseError

from arena.agents.base import Agent, AgentReply
from arena.agents.random_agent import RandomAgent
from arena.cli import main
from arena.commands.receipts import durability_warning
from arena.commands.worker import worker_argv
from arena.queue.jobs import AgentEntry, Durability, GameState, StateLost
from arena.queue.redis_queue import RedisQueue, redacted
from arena.queue.results import replay_path
from arena.queue.seating import per_seat
from arena.queue.worker import WorkerStats
from arena.rules.decisions import DecisionRequest
from arena.rules.observation import Observation
from arena.tournament import load_spec, schedule
from tests.queue.conftest import clean_events, make_jobs, replay_events, run_all

LOST_LINE = "lost the queue's data"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """A throwaway redis-server, which the test can kill and restart.

    Without persistence by default; `persist` gives it an append-only file synced on
    every write, so a kill loses nothing.
    """

    def __init__(self, directory: Path, persist: bool = False) -> None:
        self.port = free_port()
        self.directory = directory
        self.persist = persist
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--dir", str(self.directory)]
        if self.persist:
            command += ["--appendonly", "yes", "--appendfsync", "always"]
        else:
            command += ["--appendonly", "no"]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        client = redis.Redis(port=self.port)
        wait_for(lambda: _answers(client), "redis-server to answer")
        client.close()

    def kill(self) -> None:
        assert self.process is not None
        self.process.kill()
        self.process.wait(timeout=30)

    def start_empty(self, key: str, value: str) -> None:
        """Start the killed server again, without its data.

        The old server held `key` = `value` (a random epoch nobody writes again). Under
        CPU stress, about one restart in fifteen answered with it still there (the worker
        then rightly saw no loss and the drill timed out, as it did twice in CI); such a
        restart is not the one this drill needs, so it is made again, and the drill fails
        saying so if it never comes out empty.
        """
        for _ in range(3):
            self.start()
            client = redis.Redis(port=self.port, decode_responses=True)
            try:
                if client.get(key) != value:
                    return
            finally:
                client.close()
            self.kill()
        pytest.fail(f"redis-server on port {self.port} kept {key} through three restarts")


def _answers(client: redis.Redis) -> bool:
    try:
        return bool(client.ping())
    except redis.ConnectionError:
        return False


def wait_for(condition: Any, what: str, timeout_s: float = 90.0, log: Path | None = None) -> None:
    """Poll `condition`; fail (rather than hang) if it never holds, showing `log` if given."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() >= deadline:
            shown = log.read_text()[-4000:] if log is not None and log.exists() else ""
            pytest.fail(f"timed out waiting for {what}" + (f"; log:\n{shown}" if shown else ""))
        time.sleep(0.05)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    (tmp_path / "redis").mkdir()
    srv = Server(tmp_path / "redis")
    srv.start()
    yield srv
    if srv.process is not None and srv.process.poll() is None:
        srv.kill()


@pytest.mark.redis  # starts its own redis-server
def test_redis_restart_drill(
    server: Server, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec_path = tmp_path / "drill.yaml"
    spec_path.write_text(
        "name: drill\nagents: {a: 'delay:20:random', b: 'delay:20:random'}\n"
        "boards: [wwk_guard]\ngames_per_pairing: 2\n"
    )
    jobs = schedule(load_spec(spec_path))
    replays = tmp_path / "replays"
    common = ["--redis", server.url, "--prefix", "drill", "--replays", str(replays)]
    assert main(["tournament", "submit", str(spec_path), *common]) == 0
    submitted = capsys.readouterr()
    assert "queued 4" in submitted.out
    assert "does not persist its data" in submitted.err

    client: Any = redis.Redis(port=server.port, decode_responses=True)

    def running() -> list[str]:
        return [
            j.game_id
            for j in jobs
            if client.hget(f"drill:game:{j.game_id}", "state") == "running"
            and client.llen(f"drill:log:{j.game_id}") >= 20
        ]

    log_path = tmp_path / "worker.log"
    worker = subprocess.Popen(
        worker_argv(server.url, "drill", replays, concurrency=2, heartbeat=1.0),
        stdout=log_path.open("wb"),
        stderr=subprocess.STDOUT,
    )
    try:
        wait_for(lambda: len(running()) == 2, "two matches under way")
        epoch = client.get("drill:epoch")
        server.kill()
        finished_before = {j.game_id for j in jobs if replay_path(replays, j.game_id).exists()}
        server.start_empty("drill:epoch", epoch)  # nothing was saved
        client = redis.Redis(port=server.port, decode_responses=True)
        wait_for(
            lambda: LOST_LINE in log_path.read_text(),
            "the worker to notice the loss",
            log=log_path,
        )
        wait_for(lambda: client.exists("drill:epoch"), "the worker to re-create the queue")
        requeued = {j.game_id for j in jobs if client.exists(f"drill:game:{j.game_id}")}
        wait_for(
            lambda: all(client.hget(f"drill:game:{g}", "state") == "done" for g in requeued),
            "the re-queued matches to finish",
        )
        assert main(["tournament", "status", str(spec_path), *common]) == 0
        status = capsys.readouterr().out
        elsewhere = ["--redis", server.url, "--prefix", "drill"]
        elsewhere += ["--replays", str(tmp_path / "another-machine")]
        assert main(["tournament", "status", str(spec_path), *elsewhere]) == 0
        remote = capsys.readouterr().out
    finally:
        worker.send_signal(signal.SIGTERM)
        worker.wait(timeout=30)

    log = log_path.read_text()
    assert log.count(LOST_LINE) == 1
    assert "NOGROUP" not in log
    assert requeued and requeued.isdisjoint(finished_before)
    gone = [
        j.game_id
        for j in jobs
        if j.game_id not in requeued and not replay_path(replays, j.game_id).exists()
    ]
    assert gone  # the queued games nobody was playing cannot be re-created by a worker
    assert f"lost {len(gone)}" in status
    assert "unknown" not in status
    assert "submit` queues them again" in status
    assert f"done {len(requeued) + len(finished_before)}" in status
    # status from another machine: no receipt of the submission and no replays there, so
    # it cannot tell a lost game from one never submitted, but says the server lost data
    unknown = len(jobs) - len(requeued)
    assert f"unknown {unknown}" in remote and f"done {len(requeued)}" in remote
    assert f"{unknown} games it does not know may have been lost" in remote
    assert "Redis lose its data at" in remote
    client.close()


@pytest.mark.redis  # starts its own redis-server
def test_a_redis_outage_in_the_middle_of_a_match(tmp_path: Path) -> None:
    """A persistent server goes away for longer than the lease, mid-match, and comes back.

    Nothing is lost, so nothing may be said lost: the worker logs the outage once and
    its end once, the interrupted matches resume from their logs (or start again), and
    every game ends exactly once with the events of a clean run of the same seeds.
    """
    (tmp_path / "redis").mkdir()
    server = Server(tmp_path / "redis", persist=True)
    server.start()
    spec_path = tmp_path / "outage.yaml"
    spec_path.write_text(
        "name: outage\nagents: {a: 'delay:20:random', b: 'delay:20:random'}\n"
        "boards: [wwk_guard]\ngames_per_pairing: 2\n"
    )
    jobs = schedule(load_spec(spec_path))
    replays = tmp_path / "replays"
    common = ["--redis", server.url, "--prefix", "outage", "--replays", str(replays)]
    assert main(["tournament", "submit", str(spec_path), *common]) == 0
    client: Any = redis.Redis(port=server.port, decode_responses=True)

    def logged(game_id: str) -> int:
        try:
            return int(client.llen(f"outage:log:{game_id}"))
        except redis.ConnectionError:
            return 0

    log_path = tmp_path / "worker.log"
    worker = subprocess.Popen(
        worker_argv(server.url, "outage", replays, concurrency=2, heartbeat=1.0),
        stdout=log_path.open("wb"),
        stderr=subprocess.STDOUT,
    )
    try:
        wait_for(lambda: any(logged(j.game_id) >= 20 for j in jobs), "a match under way")
        server.kill()
        wait_for(lambda: "queue error" in log_path.read_text(), "the worker to see the outage")
        time.sleep(3.0)  # three heartbeats: every lease has expired when the server is back
        server.start()
        client = redis.Redis(port=server.port, decode_responses=True)
        wait_for(
            lambda: all(client.hget(f"outage:game:{j.game_id}", "state") == "done" for j in jobs),
            "every game to finish",
            timeout_s=180.0,
        )
    finally:
        worker.send_signal(signal.SIGTERM)
        worker.wait(timeout=30)
        client.close()
        server.kill()
    log = log_path.read_text()
    assert LOST_LINE not in log and "NOGROUP" not in log
    assert "Traceback" not in log
    assert log.count("queue reachable again") >= 1
    assert log.count("queue error") <= 3, "an outage is said once, not once a second"
    for job in jobs:
        path = replay_path(replays, job.game_id)
        assert replay_events(path) == clean_events(job), job.game_id
    assert sorted(p.name for p in replays.glob("*.jsonl")) == sorted(
        f"{j.game_id}.jsonl" for j in jobs
    )


class Flushing:
    """A random agent that empties the whole server once, at its game's `at`-th decision."""

    def __init__(self, seed: int, client: Any, at: int, flushed: list[bool]) -> None:
        self._inner = RandomAgent(seed)
        self._client, self._at, self._flushed = client, at, flushed
        self._calls = 0

    @property
    def name(self) -> str:
        return self._inner.name

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        self._calls += 1
        if self._calls == self._at and not self._flushed:
            self._flushed.append(True)
            await self._client.flushall()
        return await self._inner.decide(view, request, feedback)


def test_worker_says_once_and_queues_its_match_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    server = fakeredis.FakeServer()
    jobs = make_jobs("flush", games=1, mirrored=False)  # one match: no race with a second

    async def scenario() -> WorkerStats:
        client = fakeredis.FakeAsyncRedis(server=server, decode_responses=True)
        queue = RedisQueue(client, prefix="f", heartbeat_s=5.0, block_s=0.01)
        flushed: list[bool] = []

        def flushing(entry: AgentEntry, seat: int, seed: int) -> Agent:
            return Flushing(seed, client, 5, flushed)

        stats = await run_all(queue, jobs, tmp_path, seat_builder=per_seat(flushing))
        statuses = await queue.statuses([j.game_id for j in jobs])
        assert all(s.state is GameState.DONE for s in statuses)
        await queue.close()
        return stats

    with caplog.at_level(logging.INFO, logger="arena.worker"):
        stats = asyncio.run(scenario())
    assert (stats.lost, stats.requeued, stats.done, stats.fenced) == (1, 1, 1, 0)
    lost = [r for r in caplog.records if LOST_LINE in r.getMessage()]
    assert len(lost) == 1 and lost[0].levelno == logging.ERROR
    assert (
        "Queued again the 1 matches this worker was playing (flush-00000)" in lost[0].getMessage()
    )
    assert not [r for r in caplog.records if "queue error" in r.getMessage()]
    for job in jobs:
        assert replay_path(tmp_path, job.game_id).exists()


def test_check_state_raises_once_and_the_queue_works_again() -> None:
    async def scenario() -> None:
        server = fakeredis.FakeServer()
        one = RedisQueue(fakeredis.FakeAsyncRedis(server=server, decode_responses=True), prefix="p")
        two = RedisQueue(fakeredis.FakeAsyncRedis(server=server, decode_responses=True), prefix="p")
        await one.submit(make_jobs("x"))
        await two.check_state()
        await one._r.flushall()
        with pytest.raises(StateLost, match="lost the queue's data"):
            await one.check_state()
        await one.check_state()  # said once
        with pytest.raises(StateLost):  # another client notices too, though keys exist again
            await two.check_state()
        assert await one.lost_at() is not None
        assert await one.claim("c") is None  # no NOGROUP: the stream and group are back
        await one.close()
        await two.close()

    asyncio.run(scenario())


def test_a_loss_between_the_check_and_the_read_is_still_said(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The server restarts empty after `claim` checked the epoch and before it reads.

    In the CI drill a slot was blocked in XREADGROUP when the server died; redis-py
    retried the read on the new, empty server, which answered NOGROUP. Re-making the
    group there must not adopt the new epoch silently: the loss is said, once.
    """

    async def scenario() -> None:
        server = fakeredis.FakeServer()
        queue = RedisQueue(
            fakeredis.FakeAsyncRedis(server=server, decode_responses=True), prefix="r"
        )
        await queue.submit(make_jobs("x"))
        checked = queue.check_state

        async def check_then_restart() -> None:
            await checked()
            await queue._r.flushall()  # the restart lands just after the check

        monkeypatch.setattr(queue, "check_state", check_then_restart)
        with pytest.raises(StateLost, match="lost the queue's data"):
            await queue.claim("c")
        monkeypatch.undo()
        assert await queue.lost_at() is not None
        assert await queue.claim("c") is None  # said once; the group is back
        await queue.close()

    asyncio.run(scenario())


def test_a_submit_that_remakes_the_stream_never_adopts_the_new_epoch() -> None:
    """Whatever re-makes the stream and group on an emptied server (a submit from a
    worker's re-queue, racing the claim that saw NOGROUP), the loss is still said once."""

    async def scenario() -> None:
        server = fakeredis.FakeServer()
        queue = RedisQueue(
            fakeredis.FakeAsyncRedis(server=server, decode_responses=True), prefix="s"
        )
        await queue.submit(make_jobs("x"))
        await queue._r.flushall()
        queue._group_ready = False  # the claim's NOGROUP window, before it asks the epoch
        await queue.submit(make_jobs("y"))
        with pytest.raises(StateLost, match="lost the queue's data"):
            await queue.check_state()
        await queue.check_state()  # said once
        await queue.close()

    asyncio.run(scenario())


@pytest.mark.redis  # starts its own redis-server
def test_status_reports_submitted_games_the_server_forgot(
    server: Server, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = tmp_path / "s.yaml"
    spec.write_text("name: forgot\nagents: {a: random, b: random}\n")
    common = ["--redis", server.url, "--replays", str(tmp_path / "replays")]
    assert main(["tournament", "submit", str(spec), *common]) == 0
    redis.Redis(port=server.port).flushall()
    capsys.readouterr()
    assert main(["tournament", "status", str(spec), *common]) == 0
    out = capsys.readouterr().out
    assert "0/4  lost 4" in out and "unknown" not in out
    other = tmp_path / "o.yaml"
    other.write_text("name: never\nagents: {a: random, b: random}\n")
    assert main(["tournament", "status", str(other), *common]) == 0
    assert "0/4  unknown 4" in capsys.readouterr().out  # never submitted is not lost


def test_durability_warnings() -> None:
    url = "redis://h:6379/0"
    bare = durability_warning(Durability(appendonly=False, save=""), url)
    assert bare is not None and bare.startswith("warning: Redis at redis://h:6379/0 does not")
    snapshots = durability_warning(Durability(appendonly=False, save="3600 1"), url)
    assert snapshots is not None and "snapshots only" in snapshots
    assert durability_warning(Durability(appendonly=True, save=""), url) is None
    refused = durability_warning(Durability(), url)
    assert refused is not None and "refused CONFIG GET" in refused
    assert redacted("redis://:s3cret@h:1/0") == "redis://:***@h:1/0"


def test_servers_that_refuse_config_are_tolerated(monkeypatch: pytest.MonkeyPatch) -> None:
    async def scenario() -> Durability:
        client = fakeredis.FakeAsyncRedis(decode_responses=True)

        async def refuse(*args: Any, **kwargs: Any) -> Any:
            raise ResponseError("unknown command 'CONFIG'")

        monkeypatch.setattr(client, "config_get", refuse)
        queue = RedisQueue(client)
        try:
            return await queue.durability()
        finally:
            await queue.close()

    durability = asyncio.run(scenario())
    assert not durability.known


@pytest.mark.redis  # starts its own redis-server
def test_real_server_without_persistence_is_reported(server: Server) -> None:
    async def scenario() -> Durability:
        queue = await RedisQueue.connect(server.url)
        try:
            return await queue.durability()
        finally:
            await queue.close()

    durability = asyncio.run(scenario())
    assert durability.known and not durability.persists
