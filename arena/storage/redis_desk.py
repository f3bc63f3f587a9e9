"""`RedisDesk`: the `Desk` of hosted games on a Redis server (games hosted by a worker).

Key layout (prefix `arena` by default; the names are `arena.storage.redis_keys`'s):

| key | type | holds |
| --- | --- | --- |
| `{p}:play:queue` | list | game ids waiting for a worker to host them |
| `{p}:play:{id}:table` | string | the game's `Table` (JSON; never the seed) |
| `{p}:play:{id}:status` | string | the game's `Status` (JSON) |
| `{p}:play:{id}:view:{seat}` | list | the seat's visible events (JSON lines) |
| `{p}:play:{id}:pending:{seat}` | string | the seat's `Pending` decision (JSON) |
| `{p}:play:{id}:answers:{seat}` | hash | request step → answer (removed when taken) |

Every game key expires `TTL_S` after its last write. This module is the one place in
`arena.humans` that imports `redis`.
"""

from __future__ import annotations

from typing import Any

import redis

from arena.storage.desk import Pending, Status, Table
from arena.storage.redis_keys import PREFIX, desk_key, desk_queue

TTL_S = 24 * 3600


class RedisDesk:
    """A `Desk` on a Redis server (a synchronous client: a page and a host each use one)."""

    def __init__(self, client: redis.Redis, prefix: str = PREFIX) -> None:
        self._r = client
        self._p = prefix

    @classmethod
    def from_url(cls, url: str, prefix: str = PREFIX) -> RedisDesk:
        """Connect lazily to the server at `url`."""
        client = redis.Redis.from_url(
            url, decode_responses=True, socket_timeout=10, socket_connect_timeout=5
        )
        return cls(client, prefix)

    def _k(self, game_id: str, *parts: object) -> str:
        return desk_key(self._p, game_id, *parts)

    def _set(self, key: str, value: str) -> None:
        self._r.set(key, value, ex=TTL_S)

    def _get(self, key: str) -> str | None:
        value: Any = self._r.get(key)
        return None if value is None else str(value)

    def put_table(self, table: Table) -> None:  # noqa: D102
        self._set(self._k(table.game_id, "table"), table.model_dump_json())

    def table(self, game_id: str) -> Table | None:  # noqa: D102
        raw = self._get(self._k(game_id, "table"))
        return None if raw is None else Table.model_validate_json(raw)

    def set_status(self, game_id: str, status: Status) -> None:  # noqa: D102
        self._set(self._k(game_id, "status"), status.model_dump_json())

    def status(self, game_id: str) -> Status:  # noqa: D102
        raw = self._get(self._k(game_id, "status"))
        return Status() if raw is None else Status.model_validate_json(raw)

    def append_view(self, game_id: str, seat: int, lines: list[str]) -> None:  # noqa: D102
        if lines:
            key = self._k(game_id, "view", seat)
            pipe = self._r.pipeline()
            pipe.rpush(key, *lines)
            pipe.expire(key, TTL_S)
            pipe.execute()

    def view(self, game_id: str, seat: int, start: int = 0) -> list[str]:  # noqa: D102
        lines: Any = self._r.lrange(self._k(game_id, "view", seat), start, -1)
        return [str(line) for line in lines]

    def set_pending(self, game_id: str, seat: int, pending: Pending | None) -> None:  # noqa: D102
        key = self._k(game_id, "pending", seat)
        if pending is None:
            self._r.delete(key)
        else:
            self._set(key, pending.model_dump_json())

    def pending(self, game_id: str, seat: int) -> Pending | None:  # noqa: D102
        raw = self._get(self._k(game_id, "pending", seat))
        return None if raw is None else Pending.model_validate_json(raw)

    def post(self, game_id: str, seat: int, step: int, answer: str) -> bool:  # noqa: D102
        key = self._k(game_id, "answers", seat)
        pipe = self._r.pipeline()
        pipe.hsetnx(key, str(step), answer)
        pipe.expire(key, TTL_S)
        added, _ = pipe.execute()
        return bool(added)

    def take(self, game_id: str, seat: int, step: int) -> str | None:  # noqa: D102
        key = self._k(game_id, "answers", seat)
        pipe = self._r.pipeline(transaction=True)
        pipe.hget(key, str(step))
        pipe.hdel(key, str(step))
        raw, _ = pipe.execute()
        return None if raw is None else str(raw)

    def enqueue(self, game_id: str) -> None:  # noqa: D102
        self._r.rpush(desk_queue(self._p), game_id)

    def next_queued(self, timeout_s: float) -> str | None:  # noqa: D102
        found: Any = self._r.blpop([desk_queue(self._p)], timeout=max(1, round(timeout_s)))
        return None if found is None else str(found[1])
