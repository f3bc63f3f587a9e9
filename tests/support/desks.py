"""One `Desk` contract, three backends: in-process, fakeredis, and the real server.

The `desk` fixture of the contract tests (tests/storage) and of the hosted games
(tests/humans), which import it in their conftest.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import fakeredis
import pytest
import redis

from arena.storage.desk import Desk, MemoryDesk
from arena.storage.redis_desk import RedisDesk
from tests.support.redis_db import REDIS_URL


@pytest.fixture(params=["memory", "fakeredis", pytest.param("redis", marks=pytest.mark.redis)])
def desk(request: pytest.FixtureRequest) -> Iterator[Desk]:
    if request.param == "memory":
        yield MemoryDesk()
        return
    prefix = f"test-{uuid.uuid4().hex[:12]}"
    client = (
        fakeredis.FakeRedis(decode_responses=True)
        if request.param == "fakeredis"
        else redis.Redis.from_url(REDIS_URL, decode_responses=True)
    )
    yield RedisDesk(client, prefix=prefix)
    keys = list(client.scan_iter(f"{prefix}:*"))
    if keys:
        client.delete(*keys)
    client.close()
