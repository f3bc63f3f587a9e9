"""A seat's known side and what it is told at the end, on seeded games of every board.

The side a request carries (`Knowledge.side`) is folded from the seat's own view: it is
either not known yet or the side the rules count at the end, never another (so it tells
nothing the seat does not know), and once every card is turned over it is known to all.
"""

from __future__ import annotations

import pytest

from arena.rules.config import GameConfig
from arena.rules.decisions import DecisionRequest
from arena.rules.observation import observe
from arena.rules.outcome import game_over, seat_rewards, seat_side
from arena.rules.referee import Referee
from arena.rules.types import Role, Side
from arena.rules.visibility import SeatViewer
from tests.conftest import BOARD_REFS, play_random

SPECIAL = {Role.CUPID, Role.SECRET_ADMIRER, Role.THIEF}


@pytest.mark.parametrize("board", sorted(BOARD_REFS, key=str))
def test_a_known_side_is_the_true_side_or_none(board: str) -> None:
    seen: dict[Side | None, int] = {}
    for seed in range(6):
        config = GameConfig(board=BOARD_REFS[board])
        asked: list[tuple[int, Side | None]] = []

        def note(referee: Referee, request: DecisionRequest) -> None:
            view = observe(referee.events, SeatViewer(seat=request.seat))
            asked.append((request.seat, view.knowledge.side))  # noqa: B023

        referee = play_random(config, seed, note)
        state = referee.state
        for seat, side in asked:
            assert side in (None, seat_side(state, seat)), (board, seed, seat)
            seen[side] = seen.get(side, 0) + 1
        for seat in range(1, state.seats + 1):
            final = observe(referee.events, SeatViewer(seat=seat)).knowledge
            assert final.side == seat_side(state, seat), (board, seed, seat)
            end = game_over(state, referee.events, seat)
            assert end.side == final.side and end.reward == seat_rewards(state)[seat]
            assert end.roles == {s: state.role(s) for s in range(1, state.seats + 1)}
            assert end.winner == state.winner and not end.voided and end.reason
    assert seen.get(Side.GOOD) and seen.get(Side.WOLF)
    if not set(GameConfig(board=BOARD_REFS[board]).board_spec.role_counts()) & SPECIAL:
        assert None not in seen  # only those three cards ever wait to know their side


def test_a_voided_game_tells_no_winner_and_no_reward() -> None:
    referee = Referee(GameConfig(board="wwk_guard"), 3)
    end = game_over(referee.state, referee.events, 2, void="seat 2 kept defaulting")
    assert end.winner is None and end.voided and end.reward == 0.0
    assert end.reason == "seat 2 kept defaulting" and len(end.roles) == 12
