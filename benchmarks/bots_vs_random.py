"""Scripted bots against random agents, per board: win rates with 95% Wilson intervals.

For every board (its own rules preset) and every line-up, N seeded games:

- `random` — everyone random (the baseline);
- `bot good` — bots on the good side, random wolves;
- `bot wolves` — random good side, bot wolves;
- `bots` — everyone a bot.

Roles are dealt by the referee from the game seed; the harness (not an agent) reads the
deal to seat each side's agents, and a thief plays for the side of the card he takes
(`BySide`). The bots are clearly better than random when `bot good` beats the baseline's
good win rate and `bot wolves` beats its wolf win rate.

Every game is counted under its own outcome: good, wolves, lovers (人狼戀: a wolf–good
couple outlived everyone, a third side on cupid boards, won by neither team), a draw (the
day limit), or void (no winner: the game was voided or stopped). Only `good` and
`wolves` are win rates of a team; the other outcomes are counted beside them, so a
lovers' win never reads as a wolves' one.

    .venv/bin/python benchmarks/bots_vs_random.py --games 200
"""

from __future__ import annotations

import argparse
import asyncio
import math
import time
from collections import Counter
from collections.abc import Callable
from typing import Literal

from arena.agents.base import Agent, AgentReply
from arena.agents.bot.agent import BotAgent
from arena.agents.random_agent import RandomAgent
from arena.board_file import board_ref
from arena.match import GameVoided, Limits, play
from arena.rules.boards import BOARDS, Board
from arena.rules.config import GameConfig
from arena.rules.decisions import DecisionRequest
from arena.rules.events import ActionDefaulted
from arena.rules.observation import Observation
from arena.rules.referee import Referee
from arena.rules.roles import is_wolf
from arena.rules.types import Role, Winner

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


Outcome = Literal["good", "wolves", "lovers", "draw", "void"]
OUTCOMES: dict[Winner | None, Outcome] = {
    Winner.GOOD: "good",
    Winner.WOLVES: "wolves",
    Winner.LOVERS: "lovers",
    Winner.DRAW: "draw",
    None: "void",
}
"""Each game's outcome by the referee's winner (None: voided or unfinished)."""


def agent(kind: str, seed: int) -> Agent:
    """A line-up's agent of `kind` (`bot` or `random`)."""
    return BotAgent(seed) if kind == "bot" else RandomAgent(seed)


class BySide:
    """The line-up's agent for the side of the card this seat holds now.

    Only the thief changes card (004: he takes a bottom card on night 1, a wolf's if one
    lies there), and then he plays for that card's side: in `bot good` a thief who took a
    wolf is a random wolf, as the other wolves are, not a bot among them. The card is read
    from the seat's own view, as the seat itself knows it.
    """

    def __init__(self, pick: Pick, seed: int) -> None:
        self.good = agent(pick(False), seed)
        self.wolf = agent(pick(True), seed)

    @property
    def name(self) -> str:
        """The good side's agent's name (the card dealt is good)."""
        return self.good.name

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        """Answer with the agent of the side of the seat's card now."""
        return await self.current(view).decide(view, request, feedback)

    def current(self, view: Observation) -> Agent:
        """The agent of the side of the card the seat holds in `view`."""
        role = view.knowledge.own_role
        return self.wolf if role is not None and is_wolf(role) else self.good


async def one_game(board: str | Board, seed: int, pick: Pick) -> tuple[Outcome, int]:
    """Play one game; returns its outcome and the number of defaulted answers."""
    referee = Referee(GameConfig(board=board), seed)
    agents: dict[int, Agent] = {}
    for seat, role in enumerate(referee.state.roles, start=1):
        if role is Role.THIEF:
            agents[seat] = BySide(pick, seed * 100 + seat)
        else:
            agents[seat] = agent(pick(is_wolf(role)), seed * 100 + seat)
    try:
        await play(referee, agents, limits=Limits(beliefs="off"))
    except GameVoided:
        pass  # counted as void: the referee has no winner
    defaults = sum(isinstance(e, ActionDefaulted) for e in referee.events)
    return OUTCOMES[referee.winner], defaults


async def run(boards: list[str | Board], games: int, first_seed: int) -> None:
    """Print one row per board and line-up: each outcome's share, the team rates' intervals."""
    print(
        f"{'board':<24}{'line-up':<12}{'good wins':>10}  {'95% CI':<14}{'wolf wins':>10}  "
        f"{'95% CI':<14}{'lovers':>7}{'draw':>6}{'void':>6}{'games/s':>9}{'defaults':>10}"
    )
    for board in boards:
        label = board.id if isinstance(board, Board) else board
        for name, pick in LINEUPS.items():
            start = time.perf_counter()
            counts: Counter[Outcome] = Counter()
            defaults = 0
            for seed in range(first_seed, first_seed + games):
                outcome, defaulted = await one_game(board, seed, pick)
                counts[outcome] += 1
                defaults += defaulted
            rate = games / (time.perf_counter() - start)
            g_low, g_high = wilson(counts["good"], games)
            w_low, w_high = wilson(counts["wolves"], games)
            print(
                f"{label:<24}{name:<12}{counts['good'] / games:>10.1%}  "
                f"[{g_low:.2f}, {g_high:.2f}]  {counts['wolves'] / games:>10.1%}  "
                f"[{w_low:.2f}, {w_high:.2f}]  {counts['lovers']:>7}{counts['draw']:>6}"
                f"{counts['void']:>6}{rate:>9.1f}{defaults:>10}"
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
