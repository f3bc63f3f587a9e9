"""The keys the dashboard's live view reads: `arena:live:{game_id}` and `arena:live:index`."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Iterator
from pathlib import Path

import fakeredis
import pytest
import redis.asyncio as aioredis

from arena.agents.base import Agent, AgentReply
from arena.agents.random_agent import RandomAgent
from arena.queue.jobs import AgentEntry
from arena.queue.redis_queue import RedisQueue
from arena.queue.results import replay_path
from arena.queue.seating import per_seat
from arena.rules.decisions import DecisionRequest
from arena.rules.observation import Observation
from tests.queue.conftest import make_jobs, run_all
from tests.support.redis_db import REDIS_URL


@pytest.fixture(params=["fakeredis", pytest.param("redis", marks=pytest.mark.redis)])
def client_factory(request: pytest.FixtureRequest) -> Iterator[object]:
    server = fakeredis.FakeServer()

    def make() -> aioredis.Redis:
        if request.param == "fakeredis":
            return fakeredis.FakeAsyncRedis(server=server, decode_responses=True)
        return aioredis.Redis.from_url(REDIS_URL, decode_responses=True)

    yield make


def test_live_stream_mirrors_the_replay_and_the_index_tracks_running_games(
    client_factory: object, tmp_path: Path
) -> None:
    job = make_jobs(name=f"live-{uuid.uuid4().hex[:8]}")[0]
    prefix = f"livetest-{uuid.uuid4().hex[:8]}"
    seen_running: list[list[str]] = []

    async def scenario() -> list[tuple[str, dict[str, str]]]:
        client = client_factory()  # type: ignore[operator]
        queue = RedisQueue(client, prefix=prefix, heartbeat_s=5.0, block_s=0.01)

        class Peeking:
            def __init__(self, seed: int) -> None:
                self._inner = RandomAgent(seed)

            @property
            def name(self) -> str:
                return "random"

            async def decide(
                self, view: Observation, request: DecisionRequest, feedback: str | None = None
            ) -> AgentReply:
                if not seen_running:
                    seen_running.append(await client.zrange(f"{prefix}:live:index", 0, -1))
                return await self._inner.decide(view, request, feedback)

        def peeking(entry: AgentEntry, seat: int, seed: int) -> Agent:
            return Peeking(seed)

        await run_all(queue, [job], tmp_path, seat_builder=per_seat(peeking))
        entries: list[tuple[str, dict[str, str]]] = await client.xrange(
            f"{prefix}:live:{job.game_id}"
        )
        assert await client.zrange(f"{prefix}:live:index", 0, -1) == []
        assert await client.ttl(f"{prefix}:live:{job.game_id}") > 0
        await client.delete(*[k async for k in client.scan_iter(f"{prefix}:*")])
        await queue.close()
        return entries

    entries = asyncio.run(scenario())
    assert seen_running and all(ids == [job.game_id] for ids in seen_running)
    replay = replay_path(tmp_path, job.game_id).read_text().splitlines()
    assert replay.pop().startswith('{"type":"signature"')  # the file is signed, not the stream
    assert [int(f["seq"]) for _, f in entries] == list(range(len(replay) + 1))
    assert len({f["lease"] for _, f in entries}) == 1  # one lease, never taken over
    assert [f["line"] for _, f in entries[1:-1]] == replay[1:]
    first, last = (json.loads(entries[i][1]["line"]) for i in (0, -1))
    assert first["type"] == last["type"] == "header"
    assert first["result"] is None and last["result"]["winner"] in ("good", "wolves", "draw")
    assert last == json.loads(replay[0])
