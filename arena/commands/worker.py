"""`arena worker`: play queued matches from Redis, until stopped.

A worker claims games from the queue (`arena.queue.worker.Worker`), plays up to
`--concurrency` at once, writes each finished replay to its `--replays` folder and hands
the same bytes to Redis. SIGTERM or Ctrl-C hands its matches back at once; a second signal,
or a stop that takes longer than `SHUTDOWN_GRACE_S`, leaves at once (exit code 3), and the
matches resume elsewhere when their heartbeats expire (docs/tournaments.md).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
from pathlib import Path
from typing import NoReturn

from arena.commands.queue_options import add_prefix, add_queue, positive
from arena.commands.receipts import durability_warning
from arena.errors import ArenaError
from arena.queue.redis_queue import RedisQueue
from arena.queue.worker import Worker

SHUTDOWN_GRACE_S = 10.0
"""How long a stopping worker may take to hand its matches back before it exits anyway."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `worker`."""
    worker = sub.add_parser("worker", help="play queued matches from Redis")
    add_queue(worker)
    worker.add_argument("--concurrency", type=positive, default=4, help="matches at once")
    worker.add_argument(
        "--replays", type=Path, default=Path("replays"), help="where finished replays go"
    )
    worker.add_argument(
        "--heartbeat",
        type=float,
        default=15.0,
        metavar="SECONDS",
        help="heartbeat lifetime; a dead worker's match resumes after it",
    )
    add_prefix(worker)
    worker.set_defaults(handler=_worker)


def worker_argv(
    url: str,
    prefix: str,
    replays: Path,
    *,
    concurrency: int = 1,
    heartbeat: float | None = None,
) -> list[str]:
    """The command line of an `arena worker` in a new process of this Python.

    The fault handler is on, so a hung worker can be made to show its stacks.
    """
    argv = [sys.executable, "-X", "faulthandler", "-m", "arena.cli", "worker", "--redis", url]
    argv += ["--prefix", prefix, "--concurrency", str(concurrency), "--replays", str(replays)]
    if heartbeat is not None:
        argv += ["--heartbeat", str(heartbeat)]
    return argv


def worker_logging() -> None:
    """Log the arena's own lines (a game started, finished, failed) to standard error.

    Only warnings from the libraries: httpx logs every HTTP request at INFO, and a line
    per model call drowns the games.
    """
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(message)s")
    logging.getLogger("arena").setLevel(logging.INFO)


def _worker(args: argparse.Namespace) -> int:
    worker_logging()
    if args.heartbeat <= 0:
        raise ArenaError("--heartbeat must be positive")
    return asyncio.run(
        _serve(args.redis, args.prefix, args.heartbeat, args.concurrency, args.replays)
    )


async def _serve(url: str, prefix: str, heartbeat: float, concurrency: int, replays: Path) -> int:
    queue = await RedisQueue.connect(url, prefix=prefix, heartbeat_s=heartbeat)
    worker = Worker(queue, replays, concurrency=concurrency)
    log = logging.getLogger("arena.worker")
    log.info(
        "worker %s: %d slots on %s (prefix %s)", worker.consumer, concurrency, queue.url, prefix
    )
    warning = durability_warning(await queue.durability(), queue.url)
    if warning is not None:
        log.warning("%s", warning)
    task = asyncio.create_task(worker.run())
    loop = asyncio.get_running_loop()

    def on_signal() -> None:
        """First signal: stop cooperatively within a grace period. Second: leave now."""
        if worker.stopping:
            _hard_exit(log, "second signal")
        log.info("stopping: handing running matches back (grace %g s)", SHUTDOWN_GRACE_S)
        worker.stop()
        loop.call_later(
            SHUTDOWN_GRACE_S, lambda: None if task.done() else _hard_exit(log, "grace over")
        )

    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, on_signal)
    with contextlib.suppress(asyncio.CancelledError):
        await task
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(queue.close(), SHUTDOWN_GRACE_S)
    return 0


def _hard_exit(log: logging.Logger, why: str) -> NoReturn:
    """Leave now, without waiting for tasks that ignore cancellation.

    Safe by design: whatever the worker held is reclaimed once its heartbeat expires and
    resumes from the queue's log.
    """
    log.warning("forced exit (%s); unfinished matches resume elsewhere after heartbeat expiry", why)
    logging.shutdown()
    os._exit(3)
