"""Scripted bots against random agents, per board: win rates with 95% Wilson intervals.

For every board (its own rules preset) and every line-up, N seeded games:

- `random` — everyone random (the baseline);
- `bot good` — bots on the good side, random wolves;
- `bot wolves` — random good side, bot wolves;
- `bots` — everyone a bot.

Roles are dealt by the referee from the game seed; the harness (not an agent) reads the
deal to seat each side's agents. The bots are clearly better than random when `bot good`
beats the baseline's good win rate and `bot wolves` beats its wolf win rate.

    .venv/bin/python benchmarks/bots_vs_random.py --games 200
"""

from __future__ import annotations

import argparse
import asyncio
import math
import time
from collections.abc import Callable

from arena.agents.base import Agent
from arena.agents.bot import BotAgent
from arena.agents.random_agent import RandomAgent
from arena.board_file import board_ref
from arena.match import Limits, play
from arena.rules.boards import BOARDS, Board
from arena.rules.config import GameConfig
from arena.rules.events import ActionDefaulted
from arena.rules.referee import Referee
from arena.rules.roles import is_wolf
from arena.rules.types import Winner

Pick = Callable[[bool], str]
LINEUPS: dict[str, Pick] = {
    "random": lambda wolf: "random",
    "bot good": lambda wolf: "random" if wolf else "bot",
    "bot wolves": lambda wolf: "bot" if wolf else "random",
    "bots": lambda wolf: "bot",
}


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


async def one_game(board: str | Board, seed: int, pick: Pick) -> tuple[Winner | None, int]:
    """Play one game; returns the winner and the number of defaulted answers."""
    referee = Referee(GameConfig(board=board), seed)
    agents: dict[int, Agent] = {}
    for seat, role in enumerate(referee.state.roles, start=1):
        kind = pick(is_wolf(role))
        agents[seat] = (
            BotAgent(seed * 100 + seat) if kind == "bot" else RandomAgent(seed * 100 + seat)
        )
    await play(referee, agents, limits=Limits(beliefs="off"))
    defaults = sum(isinstance(e, ActionDefaulted) for e in referee.events)
    return referee.winner, defaults


async def run(boards: list[str | Board], games: int, first_seed: int) -> None:
    """Print one row per board and line-up."""
    print(
        f"{'board':<24}{'line-up':<12}{'good wins':>10}  {'95% CI':<15}{'games/s':>9}"
        f"{'defaults':>10}"
    )
    for board in boards:
        label = board.id if isinstance(board, Board) else board
        for name, pick in LINEUPS.items():
            start = time.perf_counter()
            good = defaults = 0
            for seed in range(first_seed, first_seed + games):
                winner, defaulted = await one_game(board, seed, pick)
                good += winner is Winner.GOOD
                defaults += defaulted
            rate = games / (time.perf_counter() - start)
            low, high = wilson(good, games)
            print(
                f"{label:<24}{name:<12}{good / games:>10.1%}  [{low:.2f}, {high:.2f}]   "
                f"{rate:>9.1f}{defaults:>10}"
            )


def main() -> None:
    """Parse the flags and run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per board and line-up")
    parser.add_argument(
        "--board",
        action="append",
        help="a board id or a board file (repeatable; default: every built-in board)",
    )
    parser.add_argument("--first-seed", type=int, default=1)
    args = parser.parse_args()
    boards = [board_ref(ref) for ref in args.board or list(BOARDS)]
    asyncio.run(run(boards, args.games, args.first_seed))


if __name__ == "__main__":
    main()
