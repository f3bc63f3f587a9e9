"""`arena tournament run|submit|status|forget`: many games, many machines.

`run` plays a tournament in this process (an in-process queue and `--workers` match
slots); `submit` queues it on Redis for `arena worker` processes on any machines;
`status` reports progress from Redis or, without it, from the replay directory, and each
pairing's verdict so far. Every check (the file, the agents, the boards, the server, the
flags) happens before anything is queued. With `--until-separated`, `run` and `submit`
play in rounds and stop each pairing once it is decided (`arena.commands.rounds`).

Workers hand every finished replay to Redis with its result (`arena.queue.results`):
`status --collect`, and `submit` before it queues, write those the replay folder lacks
into it, so the submitting machine holds every finished game whatever machine played it,
and a resubmit never queues a game already finished. `forget` does the same, then drops
from Redis every finished game whose replay the folder holds (its result, its packed
replay, its keys), so a long-lived server does not keep every game it ever played.

`submit` warns when the server does not keep its data across a restart, and leaves a
receipt of what it queued under the replay folder (`.arena/submitted.json`), so
`status` can tell a game the server lost (submitted, no longer known) from one never
submitted, and games finished on disk are counted as done whatever the server says.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from arena.agents.plugin import check_plugin, is_plugin_spec
from arena.agents.preflight import aclose_models, preflight
from arena.commands import rounds, worker
from arena.commands.embedded import run_embedded
from arena.commands.progress import (
    collect_lines,
    status_from_disk,
    status_from_redis,
    summary_lines,
)
from arena.commands.queue_options import add_prefix, add_queue, positive
from arena.commands.receipts import durability_warning, write_receipt
from arena.errors import ArenaError
from arena.queue.jobs import FINAL_STATES, GameState, GameStatus, MatchJob
from arena.queue.redis_queue import RedisQueue
from arena.queue.results import (
    Collected,
    collect,
    finished_replay,
    forget_collected,
    replay_path,
)
from arena.queue.seating import bare_spec, build_seats, is_model, is_remote
from arena.tournament import TournamentSpec, load_spec, schedule


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `tournament` (run, submit, status, forget) and `worker`."""
    top = sub.add_parser("tournament", help="run, queue or follow a tournament")
    actions = top.add_subparsers(dest="action", required=True, metavar="ACTION")
    _add_run(actions)
    _add_submit(actions)
    _add_status(actions)
    _add_forget(actions)
    worker.register(sub)


def _action(
    actions: argparse._SubParsersAction[argparse.ArgumentParser], name: str, help: str, replays: str
) -> argparse.ArgumentParser:
    """A tournament action with its tournament file and its replay folder.

    `replays` is the folder's help: what the action does with it.
    """
    action = actions.add_parser(name, help=help)
    action.add_argument("spec", type=Path, help="tournament file (YAML)")
    action.add_argument("--replays", type=Path, default=Path("replays"), help=replays)
    return action


def _add_run(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    run = _action(actions, "run", "play a tournament in this process", "replay directory")
    run.add_argument("--workers", type=positive, default=4, help="matches at once")
    rounds.add_options(run)
    run.set_defaults(handler=_run)


def _add_submit(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    submit = _action(
        actions,
        "submit",
        "queue a tournament on Redis",
        "skip games whose finished replay is here (gathered from Redis first)",
    )
    add_queue(submit)
    submit.add_argument(
        "--no-preflight",
        action="store_true",
        help="do not probe the model endpoints from here (the workers hold the keys)",
    )
    add_prefix(submit)
    rounds.add_options(submit)
    submit.set_defaults(handler=_submit)


def _add_status(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    status = _action(actions, "status", "progress, failures, tokens and money", "replay directory")
    status.add_argument(
        "--redis",
        default=None,
        metavar="URL",
        help="read the queue (default: the replay directory)",
    )
    status.add_argument(
        "--collect",
        action="store_true",
        help="write the finished replays the workers handed to Redis into --replays",
    )
    add_prefix(status)
    rounds.add_options(status, until=False)
    status.set_defaults(handler=_status)


def _add_forget(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    forget = _action(
        actions,
        "forget",
        "drop finished games from Redis once their replays are in --replays",
        "the folder that keeps the games (gathered from Redis first)",
    )
    add_queue(forget)
    add_prefix(forget)
    forget.set_defaults(handler=_forget)


async def check_endpoints(jobs: Sequence[MatchJob]) -> None:
    """Check every agent once before anything is queued.

    Every plug-in is made, every model endpoint probed, every remote agent greeted.

    Raises:
        ArenaError: a plug-in that cannot be imported or made, a missing key, or an
            endpoint that does not answer properly.
    """
    entries = {name: entry for job in jobs for name, entry in job.agents.items()}
    for entry in entries.values():
        if is_plugin_spec(bare := bare_spec(entry.spec)):
            check_plugin(bare, options=entry.options, build=True)
    unchecked = {
        name
        for job in jobs
        for name in job.agents
        if is_model(job.agents[name]) or is_remote(job.agents[name])
    }
    for job in jobs:
        if unchecked & set(job.seats):
            agents = build_seats(job)
            try:
                await preflight(agents)
            finally:  # in this loop: a pool left to the collector closes in the next one
                await aclose_models(agents)
            unchecked -= set(job.seats)


def pending_jobs(spec: TournamentSpec, replays: Path) -> tuple[list[MatchJob], int]:
    """The jobs without a finished replay in `replays`, and how many were finished.

    Raises:
        ArenaError: a replay there holds a different game under one of these ids.
    """
    jobs = schedule(spec)
    todo = [job for job in jobs if finished_replay(replay_path(replays, job.game_id), job) is None]
    return todo, len(jobs) - len(todo)


def _run(args: argparse.Namespace) -> int:
    spec = rounds.load(args)
    jobs, finished = pending_jobs(spec, args.replays)
    asyncio.run(check_endpoints(jobs))
    print(f"{spec.name}: {len(jobs) + finished} games, {finished} already finished")
    if args.until_separated:
        code = rounds.run_rounds(spec, args.replays, args.workers)
    else:
        code, _ = asyncio.run(run_embedded(jobs, args.replays, args.workers, finished))
    every = schedule(spec)
    statuses = [GameStatus(game_id=job.game_id, state=GameState.UNKNOWN) for job in every]
    hint = f"arena leaderboard {args.replays} --tournament {args.spec}"
    print("\n".join(summary_lines(every, statuses, args.replays, hint)))
    return code


def _submit(args: argparse.Namespace) -> int:
    spec = rounds.load(args)
    jobs, finished = pending_jobs(spec, args.replays)
    if not args.no_preflight:
        asyncio.run(check_endpoints(jobs))
    if args.until_separated:
        return asyncio.run(rounds.submit_rounds(args.redis, args.prefix, spec, args.replays))
    collected = asyncio.run(_collect(args.redis, args.prefix, spec, args.replays))
    if collected.written or collected.refused:
        print(collect_lines(collected))
        jobs, finished = pending_jobs(spec, args.replays)
    return asyncio.run(
        _submit_jobs(args.redis, args.prefix, spec.name, jobs, finished, args.replays)
    )


async def _submit_jobs(
    url: str, prefix: str, name: str, jobs: list[MatchJob], finished: int, replays: Path
) -> int:
    queue = await RedisQueue.connect(url, prefix=prefix)
    try:
        warning = durability_warning(await queue.durability(), queue.url)
        if warning is not None:
            print(warning, file=sys.stderr)
        report = await queue.submit(jobs)
        epoch = await queue.epoch()
    finally:
        await queue.close()
    write_receipt(replays, prefix, name, epoch, [job.game_id for job in jobs])
    print(
        f"{name}: queued {len(report.queued)}, re-queued {len(report.requeued)} failed, "
        f"{len(report.existing)} already known, {finished} finished here"
    )
    return 0


def _status(args: argparse.Namespace) -> int:
    spec = rounds.load(args)
    jobs = schedule(spec)
    if args.collect:
        if args.redis is None:
            raise ArenaError("--collect reads the replays from Redis: give --redis URL")
        pending_jobs(spec, args.replays)  # another game under one of these ids: say so first
        print(collect_lines(asyncio.run(_collect(args.redis, args.prefix, spec, args.replays))))
    if args.redis is None:
        lines, statuses = status_from_disk(jobs, args.replays)
    else:
        lines, statuses = asyncio.run(
            status_from_redis(args.redis, args.prefix, spec.name, jobs, args.replays)
        )
    print(f"{spec.name}")
    print("\n".join(lines + rounds.status_lines(spec, args.replays)))
    if all(s.state in FINAL_STATES for s in statuses):
        hint = f"arena leaderboard {args.replays} --tournament {args.spec}"
        print("\n".join(summary_lines(jobs, statuses, args.replays, hint)))
    return 0


def _forget(args: argparse.Namespace) -> int:
    spec = load_spec(args.spec)
    jobs = schedule(spec)
    pending_jobs(spec, args.replays)  # another game under one of these ids: say so first
    collected, forgotten, kept = asyncio.run(
        _forget_finished(args.redis, args.prefix, jobs, args.replays)
    )
    print(collect_lines(collected))
    print(
        f"forgot {len(forgotten)} finished games of {spec.name} on Redis; "
        f"their replays are in {args.replays}"
    )
    counts = Counter(status.state.value for status in kept if status.state is not GameState.UNKNOWN)
    if counts:
        parts = ", ".join(f"{n} {state}" for state, n in sorted(counts.items()))
        print(f"kept {sum(counts.values())} on Redis: {parts}")
    return 0


async def _forget_finished(
    url: str, prefix: str, jobs: list[MatchJob], replays: Path
) -> tuple[Collected, tuple[str, ...], list[GameStatus]]:
    queue = await RedisQueue.connect(url, prefix=prefix)
    try:
        collected, forgotten = await forget_collected(queue, jobs, replays)
        gone = set(forgotten)
        kept = await queue.statuses([job.game_id for job in jobs if job.game_id not in gone])
        return collected, forgotten, kept
    finally:
        await queue.close()


async def _collect(url: str, prefix: str, spec: TournamentSpec, replays: Path) -> Collected:
    queue = await RedisQueue.connect(url, prefix=prefix)
    try:
        return await collect(queue, schedule(spec), replays)
    finally:
        await queue.close()
