"""One `JobQueue` contract, three backends: in-process, fakeredis, and the real server."""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable, Iterator

import fakeredis
import pytest
import redis
import redis.asyncio as aioredis

from arena.queue.base import JobQueue
from arena.queue.memory_queue import MemoryQueue
from arena.queue.redis_queue import RedisQueue
from tests.support.redis_db import REDIS_URL

MakeQueue = Callable[..., Awaitable[JobQueue]]


@pytest.fixture(params=["memory", "fakeredis", pytest.param("redis", marks=pytest.mark.redis)])
def make_queue(request: pytest.FixtureRequest) -> Iterator[MakeQueue]:
    """An async factory `make_queue(heartbeat_s=...)`, called inside the test's loop."""
    prefix = f"test-{uuid.uuid4().hex[:12]}"
    server = fakeredis.FakeServer()

    async def make(heartbeat_s: float = 0.3) -> JobQueue:
        if request.param == "memory":
            return MemoryQueue(heartbeat_s=heartbeat_s)
        client: aioredis.Redis
        if request.param == "fakeredis":
            client = fakeredis.FakeAsyncRedis(server=server, decode_responses=True)
        else:
            client = aioredis.Redis.from_url(REDIS_URL, decode_responses=True)
        return RedisQueue(client, prefix=prefix, heartbeat_s=heartbeat_s, block_s=0.02)

    yield make
    if request.param == "redis":
        sync = redis.Redis.from_url(REDIS_URL)
        keys = list(sync.scan_iter(f"{prefix}:*"))
        if keys:
            sync.delete(*keys)
        sync.close()
