"""The Redis key layout has one owner: the queue, the Live page and the desk name keys alike."""

from __future__ import annotations

import asyncio

import fakeredis

from arena.queue.jobs import MatchJob
from arena.queue.redis_queue import RedisQueue
from arena.rules.config import GameConfig
from arena.storage.redis_keys import live_index, live_stream


def test_a_running_game_is_where_the_live_page_looks_under_any_prefix() -> None:
    async def go() -> set[str]:
        client = fakeredis.FakeAsyncRedis(decode_responses=True)
        queue = RedisQueue(client, prefix="ns")
        job = MatchJob.model_validate({
            "game_id": "g-1", "tournament": "t", "index": 0, "config": GameConfig(board="std9"),
            "seed": 1, "seats": ("a",) * 9, "agents": {"a": {"spec": "random"}},
        })  # fmt: skip
        await queue.submit([job])
        lease = await queue.claim("w")
        assert lease is not None
        await queue.append(lease, 0, ['{"type":"header"}'])
        return {k async for k in client.scan_iter()}

    keys = asyncio.run(go())
    assert live_stream("g-1", "ns") in keys and live_index("ns") in keys
    assert not [k for k in keys if not k.startswith("ns:")]
