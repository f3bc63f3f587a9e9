"""Playing a tournament's games in this process: `arena tournament run`'s engine.

An in-process queue (`MemoryQueue`) with a spool under the replay folder, and one
`Worker` with as many match slots as `--workers`: the same worker the Redis queue's
machines run, so a game plays the same here as there. A progress line every 2 s.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from arena.commands.progress import progress_lines
from arena.queue.jobs import FINAL_STATES, GameStatus, MatchJob
from arena.queue.memory_queue import MemoryQueue
from arena.queue.worker import Worker

SPOOL_DIR = ".spool"
"""Where `tournament run` keeps the logs of unfinished games, under the replay folder
(hidden, so replay listings and ratings never mistake them for replays)."""


async def run_embedded(
    jobs: list[MatchJob], replays: Path, workers: int, finished: int
) -> tuple[int, list[GameStatus]]:
    """Play `jobs` on an in-process queue with `workers` match slots; its exit code, statuses.

    Each unfinished game's log is spooled under `SPOOL_DIR`, so a rerun resumes it.
    """
    queue = MemoryQueue(spool=replays / SPOOL_DIR)
    await queue.submit(jobs)
    partial = [job.game_id for job in jobs if await queue.log(job.game_id)]
    if partial:
        print(f"resuming {len(partial)} partly played games from {replays / SPOOL_DIR}/")
    ids = [job.game_id for job in jobs]
    tournament = jobs[0].tournament if jobs else ""

    async def all_final() -> bool:
        return all(s.state in FINAL_STATES for s in await queue.statuses(ids))

    async def report() -> list[str]:
        statuses = await queue.statuses(ids)
        return progress_lines(statuses, await queue.spend(tournament), finished_on_disk=finished)

    async def ticker() -> None:
        while True:
            await asyncio.sleep(2.0)
            print((await report())[0], flush=True)

    tick = asyncio.create_task(ticker())
    try:
        stats = await Worker(queue, replays, concurrency=workers, consumer="embedded").run(
            all_final
        )
    finally:
        tick.cancel()
    print("\n".join(await report()))
    print(f"replays in {replays}/")
    return 1 if stats.failed else 0, await queue.statuses(ids)
