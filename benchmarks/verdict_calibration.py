"""Calibration of the verdicts on agents of known strength: coverage, false calls, power.

Run: .venv/bin/python benchmarks/verdict_calibration.py [--same 200x20]
     [--ladder 20x150]
     [--checkpoints 10,25,50,75,100,150] [--bootstrap 200] [--old-bootstrap 100]
     [--store DIR] [--jobs 2] [--only same|ladder]

The skill dial (`noisy:P:bot`, `arena.agents.noisy`) makes agents whose order is known
without a model: a share P of a bot's decisions answered by a uniformly random legal
answer. Every game is std9 between two agents, one holding every wolf seat and the other
every good seat, each deal played twice with the sides swapped (a tournament's pairing).

1. Deals are played once and kept in `--store` (one JSON line per deal: its seed, roles
   and both games' winners), so a rerun only rates; `--jobs` processes play them.
2. A against A' (`noisy:0.3:bot` and `noisy:0.30:bot`: one skill under two names, whose
   noise draws apart): the pool is cut into `--same` disjoint tournaments (COUNTxDEALS).
   Each is rated as `arena leaderboard` rates a folder (`arena.ratings.rate`: the batch
   Bradley-Terry fit, its deal bootstrap); the figures are the share of tournaments whose
   head-to-head interval covers 50 % (the target is 95 %) and whose rating difference is
   called separated (the target is at most 5 %), and the share in which the anytime-valid
   confidence sequence of `--until-separated` (`arena.ratings.sequential`) decided,
   within the tournament and over the whole pool read as a few long runs.
3. The ladder P = 0, 0.1, 0.3, 0.5, adjacent pairs: `--ladder` disjoint tournaments
   (COUNTxDEALS, one for every pair or one per pair) each. Rated on the first N deals of
   each tournament at every checkpoint: the share separated (in the right order; one the
   wrong way is counted apart) and the games to separation: the first checkpoint from
   which the pair stays separated at every later one. Beside it the sequential rule: the
   deals at which it decided (the tournament's cap when it did not), and the games that
   saves against a fixed count of the cap. The old rating (openskill's mu, re-rated in
   game order on each resample, read as two agents' disjoint intervals: the leaderboard
   before issue 28) beside it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import NamedTuple

import numpy as np

from arena.agents.seats import build_agents, to_seat_spec
from arena.match import Limits, play
from arena.ratings import GameResult, Leaderboard, SeatResult, deal_scores, rate
from arena.ratings.form import fit, overall_lineup
from arena.ratings.results import rating_order
from arena.ratings.sequential import decided_at
from arena.ratings.stats import wilson
from arena.rules.config import GameConfig
from arena.rules.referee import Referee
from arena.rules.roles import is_wolf, team_of
from arena.rules.types import Role, Winner

CONFIG = GameConfig(board="std9")
SAME = ("noisy:0.3:bot", "noisy:0.30:bot")
"""One agent under two names: the null hypothesis holds exactly."""
LADDER = ("bot", "noisy:0.1:bot", "noisy:0.3:bot", "noisy:0.5:bot")
"""Strongest first: each adjacent pair's first agent is the better."""
START = datetime(2026, 1, 1, tzinfo=UTC)


class Deal(NamedTuple):
    """One deal of a pair, both games: `winners[0]` with the first agent on the wolf seats."""

    seed: int
    roles: tuple[Role, ...]
    winners: tuple[Winner, Winner]


def play_deal(a: str, b: str, index: int) -> Deal:
    """Deal `index` (seed `index`) of `a` against `b`, once with `a` as the wolves, once good."""
    roles = Referee(CONFIG, index).state.roles
    winners: list[Winner] = []
    for a_wolves in (True, False):
        specs = {
            s: to_seat_spec(a if is_wolf(r) == a_wolves else b) for s, r in enumerate(roles, 1)
        }
        agents = build_agents(specs, CONFIG, index)
        referee = asyncio.run(play(Referee(CONFIG, index), agents, limits=Limits(beliefs="off")))
        assert referee.winner is not None
        winners.append(referee.winner)
    return Deal(index, tuple(roles), (winners[0], winners[1]))


def _play_line(pair: tuple[str, str], index: int) -> str:
    deal = play_deal(*pair, index)
    return json.dumps({"deal": deal.seed, "roles": list(deal.roles), "winners": deal.winners})


def _read_line(line: str) -> Deal:
    """A deal of the store, from the line `_play_line` wrote."""
    data = json.loads(line)
    first, second = (Winner(w) for w in data["winners"])
    return Deal(data["deal"], tuple(Role(r) for r in data["roles"]), (first, second))


def pool(store: Path, pair: tuple[str, str], deals: int, jobs: int) -> list[Deal]:
    """Deals 1..`deals` of `pair`, played where `store` lacks them; in deal order."""
    store.mkdir(parents=True, exist_ok=True)
    path = store / f"{pair[0]}--{pair[1]}.jsonl".replace(":", "_")
    have: dict[int, Deal] = {}
    if path.exists():
        for line in path.read_text().splitlines():
            deal = _read_line(line)
            have[deal.seed] = deal
    missing = [i for i in range(1, deals + 1) if i not in have]
    if missing:
        started = time.perf_counter()
        with ProcessPoolExecutor(jobs) as workers, path.open("a") as out:
            for line in workers.map(_play_line, [pair] * len(missing), missing, chunksize=8):
                out.write(line + "\n")
                deal = _read_line(line)
                have[deal.seed] = deal
        seconds = time.perf_counter() - started
        print(f"  played {2 * len(missing)} games of {pair[0]} v {pair[1]} in {seconds:.0f} s")
    return [have[i] for i in range(1, deals + 1)]


def results(pair: tuple[str, str], deals: Sequence[Deal], name: str) -> list[GameResult]:
    """The deals' games as the leaderboard reads them from a tournament's replays."""
    out: list[GameResult] = []
    for order, deal in enumerate(deals):
        for side, winner in enumerate(deal.winners):
            a_wolves = side == 0
            seats = tuple(
                SeatResult(
                    seat=s,
                    agent=pair[0] if is_wolf(r) == a_wolves else pair[1],
                    role=r,
                    team=team_of(r),
                )
                for s, r in enumerate(deal.roles, 1)
            )
            job = 2 * order + side
            out.append(
                GameResult(
                    game_id=f"{name}-{job:05d}",
                    created_at=(START + timedelta(minutes=job)).isoformat(),
                    board=CONFIG.board_id,
                    winner=winner,
                    days=0,
                    seats=seats,
                    deal=f"d-{name}-{deal.seed}",
                    deal_order=job,
                )
            )
    return out


def verdict_of(board: Leaderboard, pair: tuple[str, str]) -> tuple[bool, bool, float | None]:
    """(separated, the first agent rated higher, the head-to-head interval covers 1/2)."""
    found = next(p for p in board.pairs if {p.first, p.second} == set(pair))
    met = found.head_to_head
    covers = (
        None
        if met is None or met.interval is None
        else met.interval.low <= 0.5 <= met.interval.high
    )
    return bool(found.separated), found.first == pair[0], covers


def old_separated(
    pair: tuple[str, str], games: Sequence[GameResult], bootstrap: int, seed: int
) -> bool:
    """The old leaderboard's reading: openskill's mu re-rated in game order on each deal
    resample (Poisson(1) deal counts), each agent's 95 % percentile interval; separated
    when the two intervals are disjoint, the first agent above."""
    ordered = sorted(games, key=rating_order)
    deals = sorted({g.deal for g in ordered})
    rng = np.random.default_rng(seed)
    mus: list[tuple[float, float]] = []
    for _ in range(bootstrap):
        counts = dict(zip(deals, rng.poisson(1.0, len(deals)), strict=True))
        table = fit([overall_lineup(g) for g in ordered for _ in range(counts[g.deal])])
        mus.append((table.get(pair[0], (25.0, 0.0))[0], table.get(pair[1], (25.0, 0.0))[0]))
    first, second = np.array(mus).T
    return bool(np.percentile(first, 2.5) > np.percentile(second, 97.5))


def scores(pair: tuple[str, str], deals: Sequence[Deal], name: str) -> list[float]:
    """The first agent's per-deal scores, in schedule order."""
    return [s.score for s in deal_scores(results(pair, deals, name), *pair)]


def chunks(deals: Sequence[Deal], spec: str) -> list[Sequence[Deal]]:
    """`COUNTxDEALS`: that many disjoint tournaments of that many deals, in pool order."""
    count, size = map(int, spec.split("x"))
    return [deals[i * size : (i + 1) * size] for i in range(count)]


def same_agent(store: Path, spec: str, bootstrap: int, jobs: int) -> None:
    """Step 2: A against A'."""
    count, size = map(int, spec.split("x"))
    deals = pool(store, SAME, count * size, jobs)
    covered = separated = decided = rated = 0
    started = time.perf_counter()
    for t, chosen in enumerate(chunks(deals, spec)):
        board = rate(results(SAME, chosen, f"same{t}"), bootstrap=bootstrap, seed=t)
        apart, _, covers = verdict_of(board, SAME)
        rated += covers is not None
        covered += bool(covers)
        separated += apart
        decided += decided_at(scores(SAME, chosen, f"same{t}")) is not None
    seconds = (time.perf_counter() - started) / count
    long_runs = [deals[i : i + 500] for i in range(0, len(deals) - 499, 500)]
    long_decided = sum(decided_at(scores(SAME, run, "long")) is not None for run in long_runs)
    wins = sum(w is Winner.WOLVES for d in deals for w in d.winners) / (2 * len(deals))
    print(
        f"\nA v A' ({SAME[0]} v {SAME[1]}), {count} tournaments of {size} deals ({2 * size} games):"
    )
    print(f"  wolves won {wins:.1%} of the {2 * len(deals)} games")
    print(f"  head-to-head 95 % interval covers 50 %: {_share(covered, rated)}")
    print(f"  rating difference called separated: {_share(separated, count)}")
    print(f"  confidence sequence decided within it: {decided}/{count} = {decided / count:.1%}")
    print(f"  ... over {len(long_runs)} runs of 500 deals: decided in {long_decided}")
    print(f"  rating one tournament: {seconds:.2f} s ({bootstrap} resamples)")


def ladder(
    store: Path,
    spec: str,
    checkpoints: Sequence[int],
    bootstrap: int,
    jobs: int,
    old_bootstrap: int,
) -> None:
    """Step 3: adjacent pairs of the dial (`spec`: one COUNTxDEALS, or one per pair)."""
    pairs = list(zip(LADDER, LADDER[1:], strict=False))
    specs = spec.split(",") if "," in spec else [spec] * len(pairs)
    for pair, one in zip(pairs, specs, strict=True):
        count, size = map(int, one.split("x"))
        points = [c for c in checkpoints if c <= size]
        deals = pool(store, pair, count * size, jobs)
        right = dict.fromkeys(points, 0)
        wrong = dict.fromkeys(points, 0)
        old = dict.fromkeys(points, 0)
        to_separation: list[int | None] = []
        old_to_separation: list[int | None] = []
        sequential: list[int] = []
        for t, chosen in enumerate(chunks(deals, one)):
            apart_at: list[bool] = []
            old_at: list[bool] = []
            for n in points:
                games = results(pair, chosen[:n], f"lad{t}")
                board = rate(games, bootstrap=bootstrap, seed=t)
                apart, ordered, _ = verdict_of(board, pair)
                right[n] += apart and ordered
                wrong[n] += apart and not ordered
                apart_at.append(apart and ordered)
                if old_bootstrap:
                    old_at.append(old_separated(pair, games, old_bootstrap, t))
                    old[n] += old_at[-1]
            to_separation.append(_stays(points, apart_at))
            old_to_separation.append(_stays(points, old_at) if old_bootstrap else None)
            first = decided_at(scores(pair, chosen, f"lad{t}"))
            sequential.append(size if first is None or first[1] != "a" else first[0])
        score = sum(
            1.0
            if w is (Winner.WOLVES if side == 0 else Winner.GOOD)
            else 0.5
            if w is Winner.DRAW
            else 0.0
            for d in deals
            for side, w in enumerate(d.winners)
        ) / (2 * len(deals))
        print(f"\n{pair[0]} v {pair[1]}: {pair[0]} scores {score:.3f} over {2 * len(deals)} games; "
              f"{count} tournaments of up to {size} deals")  # fmt: skip
        for n in points:
            print(f"  {2 * n:4d} games: separated {right[n] / count:.0%}"
                  + (f" (the wrong way {wrong[n] / count:.0%})" if wrong[n] else "")
                  + (f"; old rating {old[n] / count:.0%}" if old_bootstrap else ""))  # fmt: skip
        print("  games to separation (stays separated at every later checkpoint):")
        print(f"    batch fit: {_median(to_separation, count, size)}")
        if old_bootstrap:
            print(f"    old rating: {_median(old_to_separation, count, size)}")
        used = statistics.mean(sequential)
        stopped = sum(s < size for s in sequential)
        print(f"  --until-separated: decided in {stopped}/{count}, {2 * used:.0f} games on average "
              f"against {2 * size} fixed ({1 - used / size:.0%} saved)")  # fmt: skip


def _share(hits: int, trials: int) -> str:
    """`hits/trials = share [Wilson 95 % interval]`: how sure the benchmark's own figure is."""
    found = wilson(hits, trials)
    assert found is not None
    return f"{hits}/{trials} = {hits / trials:.1%} [{found.low:.1%}, {found.high:.1%}]"


def _stays(points: Sequence[int], apart: Sequence[bool]) -> int | None:
    """The first checkpoint from which every later one is separated (None: never)."""
    return next((n for i, n in enumerate(points) if all(apart[i:])), None)


def _median(found: Sequence[int | None], count: int, size: int) -> str:
    """The median games to separation over every tournament (one never separated counts
    as more than the cap), and how many were separated for good by the cap."""
    games = [2 * n if n is not None else float("inf") for n in found]
    middle = statistics.median(games)
    said = f"> {2 * size}" if middle == float("inf") else f"{middle:.0f}"
    done = sum(n is not None for n in found)
    return f"median {said} games; separated for good by {2 * size} in {done}/{count}"


def main() -> None:
    """Play what the store lacks, then print every figure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--same", default="200x20", help="COUNTxDEALS of A against A'")
    parser.add_argument("--ladder", default="20x150", help="COUNTxDEALS, or one per adjacent pair")
    parser.add_argument("--checkpoints", default="10,25,50,75,100,150")
    parser.add_argument("--bootstrap", type=int, default=200)
    parser.add_argument("--store", type=Path, default=Path("/tmp/arena-calibration"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", choices=("same", "ladder"), default=None)
    parser.add_argument(
        "--old-bootstrap", type=int, default=100, help="resamples of the old rating (0: skip)"
    )
    args = parser.parse_args()
    if args.only != "ladder":
        same_agent(args.store, args.same, args.bootstrap, args.jobs)
    if args.only != "same":
        checkpoints = [int(c) for c in args.checkpoints.split(",")]
        ladder(args.store, args.ladder, checkpoints, args.bootstrap, args.jobs, args.old_bootstrap)


if __name__ == "__main__":
    main()
