"""Shared fixtures: seeded random games driven synchronously through the referee."""

from __future__ import annotations

import random
from collections.abc import Callable

from arena.agents.random_agent import random_action
from arena.rules.config import GameConfig
from arena.rules.decisions import DecisionRequest
from arena.rules.referee import Referee

Hook = Callable[[Referee, DecisionRequest], None]


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
