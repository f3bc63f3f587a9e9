"""`arena tournament run|submit|status|forget` and `arena worker`: many games, many machines.

`run` plays a tournament in this process (an in-process queue and `--workers` match
slots); `submit` queues it on Redis for `arena worker` processes on any machines;
`status` reports progress from Redis or, without it, from the replay directory. Every
check (the file, the agents, the boards, the server) happens before anything is queued.

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
import contextlib
import json
import logging
import os
import signal
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from arena.agents.plugin import check_plugin, is_plugin_spec
from arena.queue.jobs import (
    FINAL_STATES,
    Durability,
    GameState,
    GameStatus,
    MatchJob,
    Spend,
    quarantined,
    spend_of,
    with_games,
)
from arena.queue.memory_queue import MemoryQueue
from arena.queue.redis_queue import RedisQueue
from arena.queue.results import (
    Collected,
    collect,
    finished_replay,
    forget_collected,
    replay_path,
)
from arena.queue.seating import bare_spec, build_seats, is_model, is_remote, preflight
from arena.queue.worker import Worker
from arena.rules.errors import ArenaError
from arena.rules.roles import is_wolf
from arena.storage.replay_file import read_replay
from arena.tournament import TournamentSpec, load_spec, schedule

SPOOL_DIR = ".spool"
"""Where `tournament run` keeps the logs of unfinished games, under the replay folder
(hidden, so replay listings and ratings never mistake them for replays)."""
SHUTDOWN_GRACE_S = 10.0
"""How long a stopping worker may take to hand its matches back before it exits anyway."""

BAR_WIDTH = 30
RECEIPTS = Path(".arena") / "submitted.json"
"""Under the replay folder: per `prefix/name`, the server epoch and the game ids queued."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `tournament` (run, submit, status) and `worker`."""
    top = sub.add_parser("tournament", help="run, queue or follow a tournament")
    actions = top.add_subparsers(dest="action", required=True, metavar="ACTION")

    run = actions.add_parser("run", help="play a tournament in this process")
    run.add_argument("spec", type=Path, help="tournament file (YAML)")
    run.add_argument("--workers", type=_positive, default=4, help="matches at once")
    run.add_argument("--replays", type=Path, default=Path("replays"), help="replay directory")
    run.set_defaults(handler=_run)

    submit = actions.add_parser("submit", help="queue a tournament on Redis")
    submit.add_argument("spec", type=Path, help="tournament file (YAML)")
    _add_queue(submit)
    submit.add_argument(
        "--replays",
        type=Path,
        default=Path("replays"),
        help="skip games whose finished replay is here (gathered from Redis first)",
    )
    submit.add_argument(
        "--no-preflight",
        action="store_true",
        help="do not probe the model endpoints from here (the workers hold the keys)",
    )
    _add_prefix(submit)
    submit.set_defaults(handler=_submit)

    status = actions.add_parser("status", help="progress, failures, tokens and money")
    status.add_argument("spec", type=Path, help="tournament file (YAML)")
    status.add_argument(
        "--redis",
        default=None,
        metavar="URL",
        help="read the queue (default: the replay directory)",
    )
    status.add_argument("--replays", type=Path, default=Path("replays"), help="replay directory")
    status.add_argument(
        "--collect",
        action="store_true",
        help="write the finished replays the workers handed to Redis into --replays",
    )
    _add_prefix(status)
    status.set_defaults(handler=_status)

    forget = actions.add_parser(
        "forget", help="drop finished games from Redis once their replays are in --replays"
    )
    forget.add_argument("spec", type=Path, help="tournament file (YAML)")
    _add_queue(forget)
    forget.add_argument(
        "--replays",
        type=Path,
        default=Path("replays"),
        help="the folder that keeps the games (gathered from Redis first)",
    )
    _add_prefix(forget)
    forget.set_defaults(handler=_forget)

    worker = sub.add_parser("worker", help="play queued matches from Redis")
    _add_queue(worker)
    worker.add_argument("--concurrency", type=_positive, default=4, help="matches at once")
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
    _add_prefix(worker)
    worker.set_defaults(handler=_worker)


def _add_queue(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--redis", required=True, metavar="URL", help="the queue's Redis, e.g. redis://host:6379/0"
    )


def _add_prefix(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--prefix",
        default="arena",
        help="Redis key namespace, to keep several arenas on one server",
    )


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


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
            await preflight(build_seats(job))
            unchecked -= set(job.seats)


def pending_jobs(spec: TournamentSpec, replays: Path) -> tuple[list[MatchJob], int]:
    """The jobs without a finished replay in `replays`, and how many were finished.

    Raises:
        ArenaError: a replay there holds a different game under one of these ids.
    """
    jobs = schedule(spec)
    todo = [job for job in jobs if finished_replay(replay_path(replays, job.game_id), job) is None]
    return todo, len(jobs) - len(todo)


def progress_lines(
    statuses: Sequence[GameStatus], spend: dict[str, Spend], *, finished_on_disk: int = 0
) -> list[str]:
    """A progress bar, the counts by state, spend per agent, and the failures."""
    counts = Counter(s.state for s in statuses)
    counts[GameState.DONE] += finished_on_disk
    total = len(statuses) + finished_on_disk
    final = sum(counts[s] for s in FINAL_STATES)
    filled = BAR_WIDTH * final // total if total else BAR_WIDTH
    lines = [
        f"[{'#' * filled}{'-' * (BAR_WIDTH - filled)}] {final}/{total}  "
        + "  ".join(f"{state.value} {counts[state]}" for state in GameState if counts[state])
    ]
    if counts[GameState.LOST]:
        lines.append(
            f"  lost {counts[GameState.LOST]}: submitted, but the server no longer knows them "
            "(restarted without its data?); `arena tournament submit` queues them again"
        )
    for name, used in sorted(spend.items()):
        if used.tokens or used.usd:
            lines.append(f"  {name}: {used.tokens:,} tokens, ${used.usd:.4f}")
    for name, used in sorted(spend.items()):
        paused = quarantined(name, used)
        if paused is not None:
            lines.append(f"  {paused}: its remaining games are skipped")
    for s in statuses:
        if s.state is GameState.FAILED:
            lines.append(f"  failed {s.game_id} after {s.attempts} attempts: {s.error}")
        elif s.state is GameState.SKIPPED and s.result is not None:
            lines.append(f"  skipped {s.game_id}: {s.result.reason}")
    return lines


def summary_lines(
    jobs: Sequence[MatchJob], statuses: Sequence[GameStatus], replays: Path, rate_hint: str
) -> list[str]:
    """The end-of-tournament summary: who won how often, by side, and how to rate it."""
    tally: dict[str, Counter[str]] = {}
    sides: Counter[str] = Counter()
    days = 0
    for job, status in zip(jobs, statuses, strict=True):
        outcome = _outcome(job, status, replays)
        if outcome is None:
            continue
        winner, game_days = outcome
        sides[winner] += 1
        days += game_days
        roles = job.config.deal or ()
        played = {
            (name, "wolves" if seat <= len(roles) and is_wolf(roles[seat - 1]) else "good")
            for seat, name in enumerate(job.seats, start=1)
        }
        for name, side in played:
            counts = tally.setdefault(name, Counter())
            counts[f"{side} games"] += 1
            counts[f"{side} wins"] += winner == side
            counts["draws"] += winner == "draw"
    games = sum(sides.values())
    if not games:
        return ["Summary: no game finished yet"]
    lines = [
        f"Summary: {games} games finished; wolves won {sides['wolves']}, good {sides['good']}, "
        f"draws {sides['draw']}; {days / games:.1f} days on average"
    ]
    for name, c in sorted(tally.items()):
        lines.append(
            f"  {name}: won {c['wolves wins'] + c['good wins']} of "
            f"{c['wolves games'] + c['good games']} (as wolves {c['wolves wins']}/"
            f"{c['wolves games']}, as good {c['good wins']}/{c['good games']}; "
            f"draws {c['draws']})"
        )
    lines.append(f"ratings with intervals: {rate_hint}")
    return lines


def _outcome(job: MatchJob, status: GameStatus, replays: Path) -> tuple[str, int] | None:
    result = status.result
    if result is not None and result.winner is not None:
        return str(result.winner), result.days
    header = finished_replay(replay_path(replays, job.game_id), job)
    if header is None or header.result is None:
        return None
    return str(header.result.winner), header.result.days


def _run(args: argparse.Namespace) -> int:
    spec = load_spec(args.spec)
    jobs, finished = pending_jobs(spec, args.replays)
    asyncio.run(check_endpoints(jobs))
    print(f"{spec.name}: {len(jobs) + finished} games, {finished} already finished")
    code = asyncio.run(_run_embedded(jobs, args.replays, args.workers, finished))
    every = schedule(spec)
    statuses = [GameStatus(game_id=job.game_id, state=GameState.UNKNOWN) for job in every]
    hint = f"arena leaderboard {args.replays} --tournament {args.spec}"
    print("\n".join(summary_lines(every, statuses, args.replays, hint)))
    return code


async def _run_embedded(jobs: list[MatchJob], replays: Path, workers: int, finished: int) -> int:
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
    return 1 if stats.failed else 0


def _submit(args: argparse.Namespace) -> int:
    spec = load_spec(args.spec)
    jobs, finished = pending_jobs(spec, args.replays)
    if not args.no_preflight:
        asyncio.run(check_endpoints(jobs))
    collected = asyncio.run(_collect(args.redis, args.prefix, spec, args.replays))
    if collected.written or collected.refused:
        print(collect_lines(collected))
        jobs, finished = pending_jobs(spec, args.replays)
    return asyncio.run(
        _submit_jobs(args.redis, args.prefix, spec.name, jobs, finished, args.replays)
    )


def durability_warning(durability: Durability, url: str) -> str | None:
    """One line on what a restart of the server at `url` would lose, or None if nothing."""
    if not durability.known:
        return (
            f"note: cannot tell whether Redis at {url} keeps its data across a restart "
            "(it refused CONFIG GET); without persistence a restart loses every queued and "
            "running game (docs/tournaments.md)"
        )
    if durability.appendonly:
        return None
    if durability.save:
        return (
            f"note: Redis at {url} keeps snapshots only (save {durability.save!r}, appendonly "
            "no): a restart loses what changed since the last snapshot; appendonly yes is "
            "safer (docs/tournaments.md)"
        )
    return (
        f"warning: Redis at {url} does not persist its data (appendonly no, no snapshots): "
        "a restart loses every queued and running game; start it with --appendonly yes "
        "(docs/tournaments.md)"
    )


def read_receipts(replays: Path) -> dict[str, dict[str, object]]:
    """What `submit` queued from here, by `prefix/name` (empty if nothing or unreadable)."""
    try:
        data = json.loads((replays / RECEIPTS).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def submitted_ids(replays: Path, prefix: str, name: str) -> set[str]:
    """The game ids `submit` queued from here for this tournament."""
    entry = read_receipts(replays).get(f"{prefix}/{name}", {})
    games = entry.get("games", []) if isinstance(entry, dict) else []
    return {g for g in games if isinstance(g, str)} if isinstance(games, list) else set()


def write_receipt(replays: Path, prefix: str, name: str, epoch: str | None, ids: list[str]) -> None:
    """Remember what was queued (best effort: a read-only folder only loses the receipt)."""
    receipts = read_receipts(replays)
    ids = sorted(submitted_ids(replays, prefix, name) | set(ids))
    receipts[f"{prefix}/{name}"] = {"epoch": epoch, "games": ids}
    path = replays / RECEIPTS
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(receipts, indent=1), encoding="utf-8")
        tmp.replace(path)


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
    spec = load_spec(args.spec)
    jobs = schedule(spec)
    if args.collect:
        if args.redis is None:
            raise ArenaError("--collect reads the replays from Redis: give --redis URL")
        pending_jobs(spec, args.replays)  # another game under one of these ids: say so first
        print(collect_lines(asyncio.run(_collect(args.redis, args.prefix, spec, args.replays))))
    if args.redis is None:
        lines, statuses = _status_from_disk(jobs, args.replays)
    else:
        lines, statuses = asyncio.run(
            _status_from_redis(args.redis, args.prefix, spec.name, jobs, args.replays)
        )
    print(f"{spec.name}")
    print("\n".join(lines))
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


def collect_lines(collected: Collected) -> str:
    """What `collect` wrote into the replay folder, and each replay it refused."""
    lines = [f"collected {len(collected.written)} finished replays from Redis"]
    lines += [f"  not collected: {line}" for line in collected.refused]
    return "\n".join(lines)


def _status_from_disk(jobs: list[MatchJob], replays: Path) -> tuple[list[str], list[GameStatus]]:
    statuses: list[GameStatus] = []
    spend: dict[str, Spend] = {}
    for job in jobs:
        path = replay_path(replays, job.game_id)
        if finished_replay(path, job) is None:
            state = GameState.RUNNING if path.exists() else GameState.UNKNOWN
            statuses.append(GameStatus(game_id=job.game_id, state=state))
            continue
        statuses.append(GameStatus(game_id=job.game_id, state=GameState.DONE))
        replay = read_replay(path)
        result = replay.header.result
        void = result.reason if result is not None and result.void else None
        for agent, used in with_games(spend_of(replay.traces, job), job, void).items():
            spend[agent] = spend.get(agent, Spend()) + used
    return progress_lines(statuses, spend), statuses


async def _status_from_redis(
    url: str, prefix: str, name: str, jobs: list[MatchJob], replays: Path
) -> tuple[list[str], list[GameStatus]]:
    queue = await RedisQueue.connect(url, prefix=prefix)
    try:
        statuses = await queue.statuses([job.game_id for job in jobs])
        spend = await queue.spend(name)
        lost_at = await queue.lost_at()
    finally:
        await queue.close()
    submitted = submitted_ids(replays, prefix, name)
    statuses = [
        _known_here(status, job, replays, submitted)
        for status, job in zip(statuses, jobs, strict=True)
    ]
    lines = progress_lines(statuses, spend)
    unknown = sum(s.state is GameState.UNKNOWN for s in statuses)
    if lost_at is not None and unknown:
        lines.append(
            f"  note: a worker saw Redis lose its data at {lost_at}; {unknown} games it does "
            "not know may have been lost (no receipt of their submission here)"
        )
    return lines, statuses


def _known_here(
    status: GameStatus, job: MatchJob, replays: Path, submitted: set[str]
) -> GameStatus:
    """A game the server does not know: done if its replay is here, lost if queued from here."""
    if status.state is not GameState.UNKNOWN:
        return status
    if finished_replay(replay_path(replays, job.game_id), job) is not None:
        return status.model_copy(update={"state": GameState.DONE})
    if job.game_id in submitted:
        return status.model_copy(update={"state": GameState.LOST})
    return status


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
