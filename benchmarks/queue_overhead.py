"""Queue overhead per match: the same games played directly and through each queue backend.

Direct: `run_game` writing the replay file, one game after another. Queued: one worker
slot (`Worker(concurrency=1)`) over `MemoryQueue`, fakeredis, and the real Redis server
(if one answers on 127.0.0.1:6379). The difference per match is what the queue costs:
leasing, the heartbeat task, fenced log appends, the durable replay write, the ack.

    .venv/bin/python benchmarks/queue_overhead.py [--games 40]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
import uuid
from pathlib import Path

import fakeredis
import redis.asyncio as aioredis

from arena.agents.base import Agent
from arena.agents.random_agent import RandomAgent
from arena.agents.seats import seat_seed
from arena.match import new_header, run_game
from arena.queue.base import JobQueue
from arena.queue.jobs import FINAL_STATES, MatchJob
from arena.queue.memory_queue import MemoryQueue
from arena.queue.redis_queue import RedisQueue
from arena.queue.worker import Worker
from arena.tournament import TournamentSpec, schedule


def tournament(games: int) -> list[MatchJob]:
    spec = TournamentSpec.model_validate(
        {
            "name": "overhead",
            "agents": {"a": "random", "b": "random"},
            "games_per_pairing": (games + 1) // 2,
        }
    )
    return schedule(spec)[:games]


async def direct(jobs: list[MatchJob], out: Path) -> float:
    start = time.perf_counter()
    for job in jobs:
        agents: dict[int, Agent] = {
            s: RandomAgent(seat_seed(job.seed, s)) for s in range(1, len(job.seats) + 1)
        }
        header = new_header(job.game_id, job.config, job.seed, agents)
        await run_game(header, agents, out / f"{job.game_id}.jsonl")
    return time.perf_counter() - start


async def queued(queue: JobQueue, jobs: list[MatchJob], out: Path) -> float:
    await queue.submit(jobs)
    ids = [job.game_id for job in jobs]

    async def done() -> bool:
        return all(s.state in FINAL_STATES for s in await queue.statuses(ids))

    start = time.perf_counter()
    await Worker(queue, out, concurrency=1, poll_s=0.005).run(done)
    elapsed = time.perf_counter() - start
    await queue.close()
    return elapsed


async def real_redis() -> JobQueue | None:
    client = aioredis.Redis.from_url("redis://127.0.0.1:6379/0", decode_responses=True)
    try:
        await client.ping()
    except OSError:
        return None
    except Exception:  # any failure means "no server to measure"
        return None
    return RedisQueue(client, prefix=f"bench-{uuid.uuid4().hex[:8]}", block_s=0.005)


async def main(games: int) -> None:
    backends: list[tuple[str, JobQueue | None]] = [
        ("memory", MemoryQueue()),
        ("fakeredis", RedisQueue(fakeredis.FakeAsyncRedis(decode_responses=True), block_s=0.005)),
        ("redis 127.0.0.1", await real_redis()),
    ]
    jobs = tournament(games)
    with tempfile.TemporaryDirectory() as tmp:
        await direct(jobs[:2], Path(tmp) / "warm-up")
        base = min([await direct(jobs, Path(tmp) / f"direct-{i}") for i in range(2)])
        print(f"{games} games of wwk_guard, random agents, one at a time (same seeds)")
        print(f"{'direct run_game':<18} {1000 * base / games:8.1f} ms/match")
        for name, queue in backends:
            if queue is None:
                print(f"{name:<18} (no server)")
                continue
            elapsed = await queued(queue, jobs, Path(tmp) / name)
            overhead = 1000 * (elapsed - base) / games
            print(
                f"{name:<18} {1000 * elapsed / games:8.1f} ms/match  "
                f"overhead {overhead:+6.1f} ms/match"
            )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    asyncio.run(main(parser.parse_args().games))
