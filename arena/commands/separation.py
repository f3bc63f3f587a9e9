"""Each pairing's verdict so far, from a tournament's schedule and its replay folder.

A pairing's deals come in schedule order, each with its games (two when mirrored: the
same cards and seed, sides swapped). A deal is **scored** once every one of its games has
a finished replay in the folder: the first agent's mean result over them (a win 1, a draw
or a shared lovers' win ½, a loss 0). A deal with a void game, or a game the queue gave up
on (failed, skipped), is **dropped** (even before its other games are played); any other
is **open**. The scored deals, in schedule
order, make the pairing's verdict (`arena.ratings.sequential`: a confidence sequence that
may be read after every deal), so the verdict is a function of the replays alone.

`--until-separated` plays in rounds: each round takes, for every pairing not yet decided,
its next deals not yet played — `round_size` of them — and a pairing stops once decided or
once its deals are all played (the cap).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Sequence
from pathlib import Path
from typing import NamedTuple

from arena.errors import ArenaError
from arena.queue.jobs import MatchJob
from arena.queue.results import finished_replay, replay_path
from arena.ratings.results import winning_team
from arena.ratings.sequential import Verdict, verdict
from arena.rules.roles import is_wolf
from arena.rules.types import Team, Winner
from arena.tournament import TournamentSpec, pairings

MIN_ROUND = 2
"""A round's fewest deals per pairing still undecided."""
ROUND_SHARE = 0.25
"""A round's deals per pairing, at least this share of the deals it has already played: the
rounds grow with the question, so a long one waits at few round ends, and a pairing plays
at most about a quarter more deals than it needed."""

Deal = tuple[MatchJob, ...]
"""One deal's games of one pairing."""
DROPPED = "dropped"
"""A game that will never count: void, or given up by the queue."""


class Pairing(NamedTuple):
    """A pairing's deals and what its replays say so far."""

    a: str
    b: str
    deals: tuple[Deal, ...]
    """Every deal of the schedule, in its order."""
    open: tuple[Deal, ...]
    """The deals not played yet (a game without a replay and not given up), in order."""
    scores: tuple[float, ...]
    """The scored deals' scores, in schedule order."""
    dropped: int
    verdict: Verdict

    @property
    def played(self) -> int:
        """Deals scored or dropped: nothing more will come of them."""
        return len(self.deals) - len(self.open)


def check_separable(spec: TournamentSpec) -> None:
    """Refuse a tournament whose pairings cannot be judged deal by deal.

    Raises:
        ArenaError: fewer than two agents, or sides not mirrored (a deal's score has mean
            ½ between equals only when each agent plays each side of it).
    """
    if len(spec.agents) < 2:
        raise ArenaError("--until-separated compares agents: the tournament names only one")
    if not spec.mirrored:
        raise ArenaError(
            "--until-separated needs mirrored: true (each deal played from both sides; "
            "otherwise a deal's score favours whichever side it gave)"
        )


def capped(spec: TournamentSpec, max_deals: int | None) -> TournamentSpec:
    """`spec` with `max_deals` deals per pairing and board (the file's own count if None)."""
    if max_deals is None:
        return spec
    return spec.model_copy(update={"games_per_pairing": max_deals})


def deals_by_pairing(
    spec: TournamentSpec, jobs: Sequence[MatchJob]
) -> dict[tuple[str, str], list[Deal]]:
    """Each pairing's deals in schedule order (`jobs` is the whole schedule)."""
    out: dict[tuple[str, str], dict[tuple[int, object], list[MatchJob]]] = {}
    pairs = {frozenset(pair): pair for pair in pairings(list(spec.agents))}
    for job in jobs:
        pair = pairs[frozenset(job.seats)]
        out.setdefault(pair, {}).setdefault((job.seed, job.config.deal), []).append(job)
    return {pair: [tuple(games) for games in deals.values()] for pair, deals in out.items()}


def score(job: MatchJob, a: str, winner: Winner) -> float:
    """Agent `a`'s result in `job`: 1 if its side won, 0 if the other did, else ½.

    The side that won is `arena.ratings.results.winning_team`'s, as the leaderboard's
    head to head reads it (a draw or a lovers' win is neither side's).
    """
    roles = job.config.deal or ()
    wolves = {job.seats[i] for i, role in enumerate(roles) if is_wolf(role)}
    won = winning_team(winner)
    return 0.5 if won is None else float((won is Team.WOLF) == (a in wolves))


def pairing(
    pair: tuple[str, str], deals: Sequence[Deal], replays: Path, given_up: Collection[str] = ()
) -> Pairing:
    """What `replays` say of `pair` (`given_up`: game ids final without a replay).

    Raises:
        ArenaError: a replay in the folder holds another game under one of these ids.
    """
    a, b = pair
    scores: list[float] = []
    still: list[Deal] = []
    dropped = 0
    for deal in deals:
        results = [_result(job, replays, given_up) for job in deal]
        if DROPPED in results:  # it will never be scored, whatever its other games do
            dropped += 1
        elif None in results:
            still.append(deal)
        else:
            won = [r for r in results if isinstance(r, Winner)]
            scores.append(sum(score(j, a, w) for j, w in zip(deal, won, strict=True)) / len(deal))
    return Pairing(a, b, tuple(deals), tuple(still), tuple(scores), dropped, verdict(scores))


def _result(job: MatchJob, replays: Path, given_up: Collection[str]) -> Winner | str | None:
    """The game's winner, `DROPPED` (void, or given up), or None while it is open."""
    header = finished_replay(replay_path(replays, job.game_id), job)
    if header is None or header.result is None:
        return DROPPED if job.game_id in given_up else None
    if header.result.void or header.result.winner is None:
        return DROPPED
    return header.result.winner


def round_size(played: int) -> int:
    """A round's deals for a pairing that has played `played` (see `ROUND_SHARE`)."""
    return max(MIN_ROUND, math.ceil(played * ROUND_SHARE))


def next_round(pairs: Iterable[Pairing], least: int = 1) -> list[MatchJob]:
    """The next round's games: each undecided pairing's next deals not yet played.

    `least` is a floor on a pairing's deals (enough to keep a runner's workers busy).
    """
    todo = [
        job
        for p in pairs
        if p.verdict.better is None
        for deal in p.open[: max(least, round_size(p.played))]
        for job in deal
    ]
    return sorted(todo, key=lambda job: job.index)


def verdict_lines(pairs: Iterable[Pairing]) -> list[str]:
    """One line per pairing: deals, A's mean score and its interval, decided or not."""
    lines = ["Verdicts (95 % confidence sequence per pairing; the score is the first agent's):"]
    for p in pairs:
        v = p.verdict
        games = sum(len(deal) for deal in p.deals[: p.played])
        head = f"  {p.a} vs {p.b}: {v.deals} deals ({games} games)"
        if v.mean is None:
            lines.append(f"{head}: none scored yet")
            continue
        head += f", score {v.mean:.2f} [{v.low:.2f}, {v.high:.2f}]"
        dropped = f"; {p.dropped} dropped" if p.dropped else ""
        if v.better is not None:
            winner = p.a if v.better == "a" else p.b
            lines.append(f"{head}: {winner} is better (separated at {v.decided_at} deals){dropped}")
        elif p.played >= len(p.deals):
            lines.append(f"{head}: not separated, and every deal is played (the cap){dropped}")
        else:
            lines.append(f"{head}: not separated yet{dropped}")
    return lines
