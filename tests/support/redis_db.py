"""The real Redis server's databases the tests use: a pair of their own per xdist worker.

`make test` runs the suite in parallel (pytest-xdist). Tests of one worker run one at a
time, but two workers' tests run at once, and some keys are not a test's own: the live
index (`arena:live:index`) lists every running game of a database, and a hosted game's
worker (`arena.humans.worker`, prefix `arena`) plays whatever game its database queues.
So each worker gets its own databases: `REDIS_URL` for queues, desks and workers,
`LIVE_URL` for the live pages, whose index no other test may write into. Database 0, a
developer's own arena, is never used.

`ARENA_TEST_REDIS` (default `redis://127.0.0.1:6379`) names another server, so that two
checkouts on one machine can each run their Redis tests against a server of their own
(`redis-server --port 6390 --save "" --appendonly no --daemonize yes`).
"""

from __future__ import annotations

import os

HOST = os.environ.get("ARENA_TEST_REDIS", "redis://127.0.0.1:6379").rstrip("/")
"""The server the tests use (`ARENA_TEST_REDIS`, default the local one on 6379)."""
DATABASES = 16
"""Redis's default `databases`: databases 1-14 make seven workers' pairs."""


def worker_index() -> int:
    """This xdist worker's number (`gw3` → 3), 0 when the suite runs in one process."""
    name = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    return int(name.removeprefix("gw"))


def _database(offset: int) -> int:
    db = 1 + 2 * worker_index() + offset
    if db >= DATABASES - 1:
        raise RuntimeError(
            f"xdist worker {worker_index()} has no Redis database of its own "
            f"(at most {(DATABASES - 2) // 2} workers: run with -n 7 or fewer)"
        )
    return db


REDIS_URL = f"{HOST}/{_database(0)}"
"""Queues, desks and workers: every key under a prefix of the test's own."""
LIVE_URL = f"{HOST}/{_database(1)}"
"""The live pages' database: `arena:live:index` holds only this worker's tests' games."""
