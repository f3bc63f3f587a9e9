"""Helpers for worker tests: small tournaments of step-seeded random agents."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import fakeredis
import pytest
import redis

from arena.agents.base import Agent
from arena.agents.random_agent import RandomAgent
from arena.agents.seats import seat_seed
from arena.match import new_header, run_game
from arena.queue.base import JobQueue
from arena.queue.jobs import FINAL_STATES, MatchJob
from arena.queue.memory_queue import MemoryQueue
from arena.queue.redis_queue import RedisQueue
from arena.queue.worker import Worker, WorkerStats
from arena.storage.replay_file import read_replay
from arena.tournament import TournamentSpec, schedule
from tests.support.redis_db import REDIS_URL

QueueMaker = Callable[..., JobQueue]


def make_jobs(name: str = "t", games: int = 1, **fields: Any) -> list[MatchJob]:
    data: dict[str, Any] = {
        "name": name,
        "agents": {"a": "random", "b": "random"},
        "games_per_pairing": games,
    }
    data.update(fields)
    return schedule(TournamentSpec.model_validate(data))


@pytest.fixture(params=["memory", "fakeredis"])
def new_queue(request: pytest.FixtureRequest) -> Iterator[QueueMaker]:
    """`new_queue(heartbeat_s, prefix)`: a queue of the parametrized backend (in the loop).

    Redis-backed queues of one test share a server; another `prefix` is another queue.
    """
    server = fakeredis.FakeServer()

    def make(heartbeat_s: float = 5.0, prefix: str = "t") -> JobQueue:
        if request.param == "memory":
            return MemoryQueue(heartbeat_s=heartbeat_s)
        client = fakeredis.FakeAsyncRedis(server=server, decode_responses=True)
        return RedisQueue(client, prefix=prefix, heartbeat_s=heartbeat_s, block_s=0.01)

    yield make


async def run_all(
    queue: JobQueue, jobs: list[MatchJob], replays: Path, **worker: Any
) -> WorkerStats:
    """Submit `jobs` and play until every one is final."""
    await queue.submit(jobs)
    ids = [job.game_id for job in jobs]

    async def done() -> bool:
        return all(s.state in FINAL_STATES for s in await queue.statuses(ids))

    return await Worker(queue, replays, poll_s=0.01, **worker).run(done)


def clean_events(job: MatchJob) -> list[str]:
    """The event lines of `job` played straight through, without any queue."""
    agents: dict[int, Agent] = {
        seat: RandomAgent(seat_seed(job.seed, seat)) for seat in range(1, len(job.seats) + 1)
    }
    header = new_header(job.game_id, job.config, job.seed, agents)
    referee = asyncio.run(run_game(header, agents, None))
    return [e.model_dump_json() for e in referee.events]


def replay_events(path: Path) -> list[str]:
    return [e.model_dump_json() for e in read_replay(path).events]


@pytest.fixture
def prefix() -> Iterator[str]:
    """A fresh key prefix on the real Redis server, deleted after the test."""
    name = f"qtest-{uuid.uuid4().hex[:10]}"
    yield name
    client = redis.Redis.from_url(REDIS_URL)
    keys = list(client.scan_iter(f"{name}:*"))
    if keys:
        client.delete(*keys)
    client.close()
