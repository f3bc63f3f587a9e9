"""Items against games: how many games an exam is cut from to separate two bots of the dial.

Run: .venv/bin/python benchmarks/exam_power.py [--games 400] [--sizes 5,10,20,40]
     [--contestants bot,noisy:0.1:bot,noisy:0.3:bot] [--bootstrap 400] [--win-deals 200]
     [--store DIR] [--jobs 2]

1. Plays `--games` seeded bot games on std9 (beliefs off), signed as any game is, kept in
   `--store` so later runs skip the playing.
2. Cuts one exam from all of them (every vote, seer and knife moment: the kinds in which a
   dialled bot's random answers show) and has every contestant sit it
   (`arena.exam.sitting.sit`, as `arena exam run` does).
3. For each size G, cuts the pool into disjoint sets of G games and, in each set, computes
   each adjacent pair's paired difference over the set's items with its 95 % interval
   clustered by game (`arena.exam.intervals`, as `arena exam report` does): the share of
   sets in which the interval excludes 0 is the power at G games. A kind's items and the
   three kinds pooled (one 0/1 hit per decision item) are reported.
4. With `--win-deals D`, plays D mirrored deals of each adjacent pair (each deal twice, the
   sides swapped) and prints the first agent's win rate and the games a win rate needs to
   tell it from 50 % at 95 % and 80 % power, n = (1.96 + 0.84)^2 p(1 - p) / (p - 1/2)^2.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from arena.agents.bot.agent import BotAgent
from arena.agents.seats import MatchSpec, build_agents, to_seat_spec
from arena.exam.build import build
from arena.exam.contestant import Contestant
from arena.exam.files import key_path, read_exam, read_key
from arena.exam.intervals import Resamples, separated
from arena.exam.results import load
from arena.exam.scoring import score
from arena.exam.sitting import sit
from arena.match import Limits, new_header, play, run_game
from arena.rules.config import GameConfig
from arena.rules.referee import Referee
from arena.rules.roles import is_wolf
from arena.rules.types import Winner
from arena.storage.seal import arena_key

CONFIG = GameConfig(board="std9")
KINDS = ("vote", "seer", "knife")


def play_one(index: int, folder: str) -> None:
    """Game `index` (seed `index`) of bots into `folder`, unless it is there."""
    path = Path(folder) / f"g{index:05d}.jsonl"
    if path.exists():
        return
    agents = {s: BotAgent(seed=1000 * index + s) for s in range(1, 10)}
    header = new_header(f"pool-{index:05d}", CONFIG, index, agents)
    tmp = path.with_suffix(".part")
    asyncio.run(run_game(header, agents, tmp, limits=Limits(beliefs="off")))
    tmp.replace(path)


def fill(store: Path, games: int, jobs: int) -> float:
    """Play the games `store` lacks; the seconds it took."""
    store.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    with ProcessPoolExecutor(jobs) as pool:
        list(pool.map(play_one, range(1, games + 1), [str(store)] * games, chunksize=10))
    return time.perf_counter() - started


def sat(store: Path, games: int, contestants: Sequence[str]) -> Path:
    """The exam of the pool's first `games` games, sat by every contestant; its folder."""
    work = store.parent / f"{store.name}-exam-{games}"
    work.mkdir(exist_ok=True)
    exam_path = work / "exam.jsonl"
    if not exam_path.exists():
        files = [store / f"g{i:05d}.jsonl" for i in range(1, games + 1)]
        build(files, exam_path, seed=0, kinds=KINDS, per_game=None)
    exam = read_exam(exam_path)
    seats = [Contestant(c, MatchSpec()) for c in contestants]
    asyncio.run(sit(exam, seats, work / "answers", Limits(), lang="zh"))
    return work


def hits(work: Path) -> dict[str, dict[str, tuple[str, str, float]]]:
    """Every contestant's scored items: item id → (game, kind, hit)."""
    found = load([work / "answers"], work / "exam.jsonl", None)
    out: dict[str, dict[str, tuple[str, str, float]]] = {}
    for name, answers in found.sittings.items():
        out[name] = {}
        for item in found.exam.items:
            value = score(item, answers[item.id], found.key.truths[item.id]).value
            assert value is not None
            out[name][item.id] = (item.source, item.kind, value)
    return out


def power(
    scored: dict[str, dict[str, tuple[str, str, float]]],
    a: str,
    b: str,
    size: int,
    rounds: int,
) -> dict[str, tuple[float, float, int]]:
    """Per kind (and `all`): (share of disjoint sets of `size` games separated, mean
    difference, items per set)."""
    games = sorted({g for g, _, _ in scored[a].values()})
    random.Random(size).shuffle(games)
    sets = [games[i : i + size] for i in range(0, len(games) - size + 1, size)]
    out: dict[str, tuple[float, float, int]] = {}
    for kind in (*KINDS, "all"):
        wins, diffs, items = 0, 0.0, 0
        for chosen in sets:
            keep = set(chosen)
            pairs = [
                (g, v - scored[b][i][2])
                for i, (g, k, v) in scored[a].items()
                if g in keep and (kind == "all" or k == kind)
            ]
            estimate = Resamples(chosen, rounds, seed=0).mean(pairs)
            if estimate is None:
                continue
            wins += separated(estimate)
            diffs += estimate.value
            items += estimate.items
        out[kind] = (wins / len(sets), diffs / len(sets), items // len(sets))
    return out


def win_rate(a: str, b: str, deals: int) -> tuple[float, int]:
    """A's share of wins over `deals` mirrored deals against B (draws count half)."""
    points, games = 0.0, 0
    for deal in range(1, deals + 1):
        roles = Referee(CONFIG, 10_000 + deal).state.roles
        for a_wolves in (True, False):
            specs = {
                s: to_seat_spec(a if is_wolf(r) == a_wolves else b) for s, r in enumerate(roles, 1)
            }
            agents = build_agents(specs, CONFIG, 10_000 + deal)
            referee = asyncio.run(
                play(Referee(CONFIG, 10_000 + deal), agents, limits=Limits(beliefs="off"))
            )
            won = referee.winner is (Winner.WOLVES if a_wolves else Winner.GOOD)
            points += 1.0 if won else 0.5 if referee.winner is Winner.DRAW else 0.0
            games += 1
    return points / games, games


def games_needed(p: float) -> float:
    """Games a win rate `p` needs to be told from 1/2 (95 %, 80 % power), one-sample."""
    return float("inf") if p == 0.5 else (1.96 + 0.84) ** 2 * p * (1 - p) / (p - 0.5) ** 2


def main() -> None:
    """Play, cut, sit, and print the power per size and pair."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--sizes", default="5,10,20,40")
    parser.add_argument("--contestants", default="bot,noisy:0.1:bot,noisy:0.3:bot")
    parser.add_argument("--bootstrap", type=int, default=400)
    parser.add_argument("--win-deals", type=int, default=0)
    parser.add_argument("--store", type=Path, default=None)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    key = arena_key(create=True)
    assert key is not None
    store = args.store or Path(tempfile.gettempdir()) / f"exam-pool-{key.id}"
    seconds = fill(store, args.games, args.jobs)
    print(f"played {args.games} std9 bot games into {store}: {seconds:.1f} s")
    contestants = args.contestants.split(",")
    started = time.perf_counter()
    work = sat(store, args.games, contestants)
    exam = read_exam(work / "exam.jsonl")
    read_key(key_path(exam.path), exam)
    print(
        f"{exam.header.items} items ({', '.join(KINDS)}) from {len(exam.header.sources)} "
        f"games, sat by {len(contestants)} in {time.perf_counter() - started:.1f} s"
    )
    scored = hits(work)
    for a, b in zip(contestants, contestants[1:], strict=False):
        print(f"\n{a} - {b}: share of disjoint sets separated at 95 % (mean difference, items)")
        for size in map(int, args.sizes.split(",")):
            found = power(scored, a, b, size, args.bootstrap)
            cells = "  ".join(f"{k} {s:.0%} ({d:+.3f}, {n})" for k, (s, d, n) in found.items())
            print(f"  {size:3d} games: {cells}")
        if args.win_deals:
            p, games = win_rate(a, b, args.win_deals)
            print(f"  win rate of {a}: {p:.3f} over {games} games; a win rate needs "
                  f"~{games_needed(p):.0f} games at 80 % power")  # fmt: skip


if __name__ == "__main__":
    main()
