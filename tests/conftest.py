"""Shared fixtures: seeded random games driven synchronously through the referee."""

from __future__ import annotations

import random
from collections.abc import Callable

from arena.agents.random_agent import random_action
from arena.board_file import example_boards
from arena.rules.boards import BOARDS, Board
from arena.rules.config import GameConfig
from arena.rules.decisions import DecisionRequest
from arena.rules.referee import Referee

Hook = Callable[[Referee, DecisionRequest], None]

EXAMPLE_BOARDS: dict[str, Board] = example_boards()
"""The example board files (arena/boards/), custom boards that users play or copy."""
BOARD_REFS: dict[str, str | Board] = {**{b: b for b in BOARDS}, **EXAMPLE_BOARDS}
"""Every board a test should play: the built-in ones by id, the example files whole."""


def play_random(config: GameConfig, seed: int, on_request: Hook | None = None) -> Referee:
    """Play a whole game with seeded random legal answers, calling `on_request` per request."""
    rng = random.Random(seed)
    referee = Referee(config, seed)
    asked = 0
    while not referee.finished:
        for request in referee.pending():
            if on_request is not None:
                on_request(referee, request)
            referee.submit(request.seat, random_action(request, rng))
            asked += 1
            assert asked < 20_000, "the game does not terminate"
    return referee
