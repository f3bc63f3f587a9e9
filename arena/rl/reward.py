"""Rewards at the end of a game, per seat and by the side the seat played for.

A seat plays for its card's side, with three exceptions the referee's rules make: the
thief plays for the card he took, a secret admirer for her love's side, and the lovers of
a wolf–good couple with their cupid for their own third side (人狼戀, docs/roles.md).
The winning side's seats get +1, every other seat -1 (dead or alive: Werewolf is a team
game), and every seat 0 when the game ends in a draw (the day limit).

The rule lives in `arena.rules.outcome` (the match tells every seat its reward at the end
with it); the environment reads it from here.
"""

from __future__ import annotations

from arena.rules.outcome import DRAW, LOSS, WIN, seat_rewards, seat_side

__all__ = ["DRAW", "LOSS", "WIN", "seat_rewards", "seat_side"]
