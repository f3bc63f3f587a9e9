"""How fast the leaderboard is: rating with bootstrap, and reading replays into summaries.

Run: .venv/bin/python benchmarks/ratings_speed.py [--games N] [--replays M] [--bootstrap B]

1. `rate` over N synthetic team-vs-team results (4 agents, every ordered pairing playing
   every deal, as in a tournament), with and without the deal bootstrap: the cost of the
   batch fit, its resamples, the pair verdicts and the win table.
2. `load_games` over M real bot games (std9, beliefs after every speech) written to a
   temporary directory: the cost of reading and folding replays, per replay.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from pathlib import Path

from arena.agents.base import Agent
from arena.agents.bot.agent import BotAgent
from arena.match import Limits, new_header, run_game
from arena.ratings.loader import load_games
from arena.ratings.ratings import rate
from arena.ratings.report import build_report
from arena.ratings.results import GameResult, SeatResult
from arena.rules.config import GameConfig
from arena.rules.roles import team_of
from arena.rules.types import Role, Team, Winner

ROLES = (Role.WEREWOLF,) * 3 + (Role.SEER, Role.WITCH, Role.HUNTER) + (Role.VILLAGER,) * 3


def synthetic(n: int) -> list[GameResult]:
    rng = random.Random(1)
    agents = ("A", "B", "C", "D")
    pairs = [(w, g) for w in agents for g in agents if w != g]
    games = []
    for i in range(n):
        wolves, good = pairs[i % len(pairs)]
        seats = tuple(
            SeatResult(
                seat=s, agent=wolves if team_of(r) is Team.WOLF else good, role=r, team=team_of(r)
            )
            for s, r in enumerate(ROLES, start=1)
        )
        winner = Winner.WOLVES if rng.random() < 0.5 else Winner.GOOD
        games.append(
            GameResult(
                game_id=f"g{i:06d}",
                created_at="t",
                board="std9",
                winner=winner,
                days=3,
                seats=seats,
                deal=f"d-{i // len(pairs)}",
            )
        )
    return games


def write_bot_games(directory: Path, count: int) -> None:
    async def play() -> None:
        for i in range(count):
            agents: dict[int, Agent] = {s: BotAgent(seed=100 * i + s) for s in range(1, 10)}
            header = new_header(f"bench-{i}", GameConfig(board="std9"), i, agents)
            path = directory / f"bench-{i}.jsonl"
            await run_game(header, agents, path, limits=Limits(beliefs="per_speech"))

    asyncio.run(play())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--replays", type=int, default=50)
    parser.add_argument("--bootstrap", type=int, default=200)
    args = parser.parse_args()

    games = synthetic(args.games)
    start = time.perf_counter()
    rate(games, bootstrap=0)
    point = time.perf_counter() - start
    print(f"rate, {args.games} games, no bootstrap: {point * 1000:.0f} ms")
    start = time.perf_counter()
    rate(games, bootstrap=args.bootstrap)
    boot = time.perf_counter() - start
    print(f"rate, {args.games} games, bootstrap {args.bootstrap}: {boot:.2f} s")

    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        write_bot_games(directory, args.replays)
        size = sum(p.stat().st_size for p in directory.iterdir())
        start = time.perf_counter()
        found = load_games(directory)
        load = time.perf_counter() - start
        start = time.perf_counter()
        build_report(found.games, bootstrap=args.bootstrap)
        report = time.perf_counter() - start
    print(
        f"load_games, {len(found.games)} bot replays ({size / len(found.games) / 1024:.0f} KiB "
        f"each): {load * 1000 / len(found.games):.1f} ms per replay"
    )
    print(f"build_report on them, bootstrap {args.bootstrap}: {report:.2f} s")


if __name__ == "__main__":
    main()
