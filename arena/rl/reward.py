"""Rewards at the end of a game, per seat and by the side the seat played for.

A seat plays for its card's side, with three exceptions the referee's rules make: the
thief plays for the card he took, a secret admirer for her love's side, and the lovers of
a wolf–good couple with their cupid for their own third side (人狼戀, docs/roles.md).
The winning side's seats get +1, every other seat -1 (dead or alive: Werewolf is a team
game), and every seat 0 when the game ends in a draw (the day limit).
"""

from __future__ import annotations

from arena.rules.roles import team_of
from arena.rules.state import GameState
from arena.rules.types import SeatId, Team, Winner
from arena.rules.win import third_side

WIN = 1.0
LOSS = -1.0
DRAW = 0.0


def seat_side(state: GameState, seat: SeatId) -> Team | Winner:
    """The side `seat` plays for at the end: a `Team`, or `Winner.LOVERS` for the third side."""
    if seat in third_side(state.roles, state.lovers):
        return Winner.LOVERS
    if state.admirers.get(seat):
        return Team.WOLF
    return team_of(state.role(seat))


def seat_rewards(state: GameState) -> dict[SeatId, float]:
    """Each seat's reward for the finished game in `state` (0 for all while it goes on)."""
    winner = state.winner
    seats = range(1, state.seats + 1)
    if winner is None or winner is Winner.DRAW:
        return dict.fromkeys(seats, DRAW)
    won: Team | Winner = {Winner.GOOD: Team.GOOD, Winner.WOLVES: Team.WOLF}.get(winner, winner)
    return {seat: WIN if seat_side(state, seat) == won else LOSS for seat in seats}
