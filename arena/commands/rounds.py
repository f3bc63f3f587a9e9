"""`--until-separated`: play a tournament in rounds, and stop each pairing once it is decided.

Before each round the verdicts are read from the replay folder (`separation`); the round
is every undecided pairing's next deals; the run ends when no pairing has a deal left to
play — decided, or at the cap (`--max-deals`, else the file's `games_per_pairing`).

`run` plays the rounds in this process. `submit` stays in the foreground: it queues a
round on Redis, waits while the workers play it, collects their replays into `--replays`
(as `status --collect` does), and queues the next. Either can be stopped at any time and
run again with the same flags: the verdicts come from the folder, so it carries on from
the games already played (a game left queued on Redis is waited for, not queued twice).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import sys
from pathlib import Path

from arena.commands.embedded import run_embedded
from arena.commands.progress import collect_lines, progress_lines
from arena.commands.receipts import durability_warning, write_receipt
from arena.commands.separation import (
    Pairing,
    capped,
    check_separable,
    deals_by_pairing,
    next_round,
    pairing,
    verdict_lines,
)
from arena.errors import ArenaError
from arena.queue.jobs import FINAL_STATES, GameState, GameStatus, MatchJob
from arena.queue.redis_queue import RedisQueue
from arena.queue.results import collect, finished_replay, replay_path
from arena.tournament import TournamentSpec, load_spec, schedule

POLL_S = 2.0
"""How often `submit --until-separated` asks Redis whether its round is played."""
GIVEN_UP = (GameState.FAILED, GameState.SKIPPED)
"""Final states without a replay: the deal of such a game is dropped from its verdict."""


def add_options(parser: argparse.ArgumentParser, *, until: bool = True) -> None:
    """`--until-separated` (with `until`) and `--max-deals N`."""
    if until:
        parser.add_argument(
            "--until-separated",
            action="store_true",
            help="play in rounds; stop a pairing once its verdict is decided (needs mirrored)",
        )
    parser.add_argument(
        "--max-deals",
        metavar="N",
        help="deals per pairing and board at most: the schedule's games_per_pairing "
        "(default: the file's)",
    )


def load(args: argparse.Namespace) -> TournamentSpec:
    """The tournament file, with `--max-deals` for its deals per pairing.

    Raises:
        ArenaError: a bad file; `--max-deals` not a whole number of at least 1, or given
            to `run`/`submit` without `--until-separated`; `--until-separated` on a
            tournament that cannot be judged deal by deal (`check_separable`).
    """
    spec = load_spec(args.spec)
    max_deals = _max_deals(args.max_deals)
    until = getattr(args, "until_separated", None)
    if until is False and max_deals is not None:
        raise ArenaError("--max-deals caps --until-separated: give both, or neither")
    if until:
        check_separable(spec)
    return capped(spec, max_deals)


def _max_deals(text: str | None) -> int | None:
    if text is None:
        return None
    if not text.strip().isdigit() or int(text) < 1:
        raise ArenaError(f"--max-deals must be a whole number of at least 1, got {text!r}")
    return int(text)


def pairings_now(
    spec: TournamentSpec, jobs: list[MatchJob], replays: Path, given_up: set[str]
) -> list[Pairing]:
    """Every pairing's verdict so far, from the folder (see `separation.pairing`)."""
    return [
        pairing(pair, deals, replays, given_up)
        for pair, deals in deals_by_pairing(spec, jobs).items()
    ]


def status_lines(spec: TournamentSpec, replays: Path) -> list[str]:
    """`status`'s verdict lines (none when the tournament cannot be judged deal by deal)."""
    try:
        check_separable(spec)
    except ArenaError:
        return []
    return verdict_lines(pairings_now(spec, schedule(spec), replays, set()))


def run_rounds(spec: TournamentSpec, replays: Path, workers: int) -> int:
    """`run --until-separated`: rounds in this process until no pairing has a deal to play."""
    jobs = schedule(spec)
    given_up: set[str] = set()
    code = 0
    while True:
        pairs = pairings_now(spec, jobs, replays, given_up)
        todo = _unplayed(next_round(pairs, _least(pairs, workers)), replays)
        if not todo:
            break
        print(_round_line(pairs, todo), flush=True)
        failed, statuses = asyncio.run(run_embedded(todo, replays, workers, 0))
        given_up |= {s.game_id for s in statuses if s.state in GIVEN_UP}
        code = code or failed
    print("\n".join(verdict_lines(pairs)))
    return code


def _unplayed(jobs: list[MatchJob], replays: Path) -> list[MatchJob]:
    """`jobs` without a finished replay in the folder (an open deal's played game stays)."""
    return [job for job in jobs if finished_replay(replay_path(replays, job.game_id), job) is None]


def _least(pairs: list[Pairing], workers: int) -> int:
    """Deals per undecided pairing that keep `workers` busy."""
    open_pairs = [p for p in pairs if p.verdict.better is None and p.open]
    if not open_pairs:
        return 1
    games = len(open_pairs[0].open[0])
    return math.ceil(workers / (games * len(open_pairs)))


def _round_line(pairs: list[Pairing], todo: list[MatchJob]) -> str:
    undecided = sum(p.verdict.better is None and bool(p.open) for p in pairs)
    return f"round: {len(todo)} games for {undecided} pairings not yet separated"


async def submit_rounds(url: str, prefix: str, spec: TournamentSpec, replays: Path) -> int:
    """`submit --until-separated`: queue a round, wait for it, collect it; again."""
    queue = await RedisQueue.connect(url, prefix=prefix)
    try:
        warning = durability_warning(await queue.durability(), queue.url)
        if warning is not None:
            print(warning, file=sys.stderr)
        pairs = await _rounds(queue, prefix, spec, replays)
    finally:
        await queue.close()
    print("\n".join(verdict_lines(pairs)))
    return 0


async def _rounds(
    queue: RedisQueue, prefix: str, spec: TournamentSpec, replays: Path
) -> list[Pairing]:
    jobs = schedule(spec)
    while True:
        collected = await collect(queue, jobs, replays)
        if collected.written or collected.refused:
            print(collect_lines(collected))
        statuses = await queue.statuses([job.game_id for job in jobs])
        given_up = {s.game_id for s in statuses if s.state in GIVEN_UP}
        pairs = pairings_now(spec, jobs, replays, given_up)
        todo = _unplayed(next_round(pairs), replays)
        if not todo:
            return pairs
        report = await queue.submit(todo)
        write_receipt(replays, prefix, spec.name, await queue.epoch(), [j.game_id for j in todo])
        print(f"{_round_line(pairs, todo)}: queued {len(report.queued)}", flush=True)
        await _wait(queue, todo, replays)


async def _wait(queue: RedisQueue, todo: list[MatchJob], replays: Path) -> None:
    """Until every game of the round is final (or its replay is here), a line each 10 polls.

    A game the server no longer knows (it lost its data) is queued again.
    """
    ids = [job.game_id for job in todo]
    polls = 0
    while True:
        statuses = await queue.statuses(ids)
        here = [_here(s, job, replays) for s, job in zip(statuses, todo, strict=True)]
        lost = [job for s, job in zip(here, todo, strict=True) if s.state is GameState.UNKNOWN]
        if lost:
            await queue.submit(lost)
        if all(s.state in FINAL_STATES for s in here):
            return
        if polls % 10 == 0:
            print(progress_lines(here, {})[0], flush=True)
        polls += 1
        await asyncio.sleep(POLL_S)


def _here(status: GameStatus, job: MatchJob, replays: Path) -> GameStatus:
    """`status`, done when the game's finished replay is in the folder already."""
    if (
        status.state in FINAL_STATES
        or finished_replay(replay_path(replays, job.game_id), job) is None
    ):
        return status
    return status.model_copy(update={"state": GameState.DONE})
