"""Matches per minute with 1, 2, 4 and 8 worker processes on the real Redis server.

Each worker is an `arena worker` subprocess with one match slot. The agents are random
players behind an injected model latency (`delay:MS:random`), on one endpoint label
(`local`); a second series caps that endpoint's calls in flight (`concurrency:
{local: L}`) to show throughput flattening at the provider's limit. Workers are started
and ready before the clock starts; the clock stops when every game is `done`.

    .venv/bin/python benchmarks/queue_throughput.py [--delay-ms 40] [--games-per-worker 3]
        [--workers 1 2 4 8] [--limit 4]
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

import redis.asyncio as aioredis

from arena.commands.worker import worker_argv
from arena.queue.jobs import GameState
from arena.queue.redis_queue import RedisQueue
from arena.tournament import TournamentSpec, schedule

URL = "redis://127.0.0.1:6379/0"


def spec(delay_ms: int, games: int, limit: int | None) -> TournamentSpec:
    agent = {"spec": f"delay:{delay_ms}:random", "endpoint": "local"}
    return TournamentSpec.model_validate(
        {
            "name": "throughput",
            "agents": {"a": agent, "b": agent},
            "games_per_pairing": (games + 1) // 2,
            "concurrency": {"local": limit} if limit else {},
        }
    )


def start_workers(count: int, prefix: str, tmp: Path) -> list[subprocess.Popen[bytes]]:
    procs = []
    for i in range(count):
        log = tmp / f"worker-{i}.log"
        procs.append(
            subprocess.Popen(
                worker_argv(URL, prefix, tmp / "replays"),
                stdout=log.open("wb"),
                stderr=subprocess.STDOUT,
            )
        )
    deadline = time.monotonic() + 60
    while not all("slots on" in (tmp / f"worker-{i}.log").read_text() for i in range(count)):
        assert time.monotonic() < deadline, "workers did not start"
        time.sleep(0.05)
    return procs


async def measure(workers: int, args: argparse.Namespace, limit: int | None) -> tuple[float, int]:
    games = args.games_per_worker * workers
    jobs = schedule(spec(args.delay_ms, games, limit))[:games]
    prefix = f"bench-{uuid.uuid4().hex[:8]}"
    client = aioredis.Redis.from_url(URL, decode_responses=True)
    queue = RedisQueue(client, prefix=prefix)
    with tempfile.TemporaryDirectory() as name:
        procs = start_workers(workers, prefix, Path(name))
        try:
            start = time.perf_counter()
            await queue.submit(jobs)
            peak = 0
            while True:
                statuses = await queue.statuses([j.game_id for j in jobs])
                peak = max(peak, await client.zcard(f"{prefix}:slots:local"))
                if all(s.state is GameState.DONE for s in statuses):
                    break
                failed = [s for s in statuses if s.state is GameState.FAILED]
                if failed or time.perf_counter() - start > 600:
                    logs = "".join(p.read_text() for p in Path(name).glob("worker-*.log"))
                    raise SystemExit(f"games did not finish: {failed or statuses}\n{logs}")
                await asyncio.sleep(0.02)
            elapsed = time.perf_counter() - start
        finally:
            for proc in procs:
                proc.terminate()
            for i, proc in enumerate(procs):
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    proc.send_signal(signal.SIGABRT)
                    proc.wait()
                    log = (Path(name) / f"worker-{i}.log").read_text()
                    raise SystemExit(f"worker {i} ignored SIGTERM:\n{log[-6000:]}") from None
    keys = [k async for k in client.scan_iter(f"{prefix}:*")]
    if keys:
        await client.delete(*keys)
    await queue.close()
    return 60 * games / elapsed, peak


async def main(args: argparse.Namespace) -> None:
    print(
        f"wwk_guard, random agents with {args.delay_ms} ms per decision, "
        f"{args.games_per_worker} games per worker, one match slot per worker"
    )
    for limit in (None, args.limit):
        label = f"endpoint limit {limit} calls" if limit else "no endpoint limit"
        base = None
        for workers in args.workers:
            rate, peak = await measure(workers, args, limit)
            base = base or rate / workers
            print(
                f"{label:<24} {workers} workers: {rate:6.1f} matches/min  "
                f"({rate / base:4.2f}x one worker; peak calls in flight {peak or '-'})"
            )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--delay-ms", type=int, default=40)
    parser.add_argument("--games-per-worker", type=int, default=3)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4, 8])
    parser.add_argument("--limit", type=int, default=4)
    asyncio.run(main(parser.parse_args()))
