"""How fast the referee is: games per second per board with random legal agents.

Run: .venv/bin/python benchmarks/core_speed.py [--games N] [--board ID|FILE ...]
The agents answer synchronously (no asyncio, no I/O), so this times the rules core plus
the cheapest possible agent: the per-game figure is the referee's cost.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from arena.agents.random_agent import random_action
from arena.board_file import board_ref
from arena.rules.boards import BOARDS, board
from arena.rules.config import GameConfig
from arena.rules.referee import Referee


def one_game(config: GameConfig, seed: int) -> tuple[int, int]:
    rng = random.Random(seed)
    referee = Referee(config, seed)
    decisions = 0
    while not referee.finished:
        for request in referee.pending():
            referee.submit(request.seat, random_action(request, rng))
            decisions += 1
    return len(referee.events), decisions


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument(
        "--board",
        action="append",
        help="a board id or a board file (repeatable; default: every built-in board)",
    )
    args = parser.parse_args()
    print(f"{'board':<24}{'preset':<12}{'games/s':>9}{'ms/game':>9}{'events':>8}{'decisions':>11}")
    for ref in args.board or list(BOARDS):
        config = GameConfig(board=board_ref(ref))
        spec = board(config.board)
        times, events, decisions = [], [], []
        for seed in range(args.games):
            start = time.perf_counter()
            n_events, n_decisions = one_game(config, seed)
            times.append(time.perf_counter() - start)
            events.append(n_events)
            decisions.append(n_decisions)
        total = sum(times)
        print(
            f"{spec.id:<24}{spec.preset:<12}{args.games / total:>9.0f}"
            f"{1000 * statistics.median(times):>9.2f}{statistics.mean(events):>8.0f}"
            f"{statistics.mean(decisions):>11.0f}"
        )


if __name__ == "__main__":
    main()
