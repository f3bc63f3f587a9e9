"""`benchmarks/bots_vs_random.py` counts each game under its own outcome.

A lovers' win (人狼戀) is neither team's: it must not read as a wolves' win (nor as a
good one), or a cupid board's figures would flatter the wolves. A thief plays for the side
of the card he takes.
"""

from __future__ import annotations

import asyncio

from arena.agents.bot.agent import BotAgent
from arena.agents.random_agent import RandomAgent
from arena.board_file import board_ref, parse_board_text
from arena.rules import events as ev
from arena.rules.boards import Board
from arena.rules.observation import observe
from arena.rules.types import Role, Winner
from arena.rules.visibility import PUBLIC, SeatViewer, to_seats
from benchmarks.bots_vs_random import LINEUPS, OUTCOMES, BySide, one_game

SMALL_CUPID = """\
id: cupid_small
roles: {cupid: 1, seer: 1, villager: 2, werewolf: 2}
win: city
preset: tournament
settings: {sheriff: false}
"""
"""The six-seat cupid board of scenarios/cupid/wolf_and_good_couple_wins_alone.yaml."""


def test_every_winner_has_its_own_outcome() -> None:
    assert set(OUTCOMES) == {*Winner, None}
    assert len(set(OUTCOMES.values())) == len(OUTCOMES)


def test_a_lovers_win_is_counted_as_the_lovers() -> None:
    """Seed 6 of the small cupid board, random seats: the couple outlives everyone."""
    board = parse_board_text(SMALL_CUPID, "cupid_small.yaml")
    outcome, defaults = asyncio.run(one_game(board, 6, LINEUPS["random"]))
    assert outcome == "lovers"
    assert defaults == 0


def test_a_thief_who_takes_a_wolf_plays_with_the_wolves_agent() -> None:
    """In `bot good` the wolves are random: so is a thief once he holds a wolf's card."""
    board = board_ref("classic_thief_elder12")
    assert isinstance(board, Board)
    dealt = [
        ev.GameStarted(
            visibility=PUBLIC, board=board.id, seats=12, role_counts=board.role_counts()
        ),
        ev.RoleAssigned(visibility=to_seats(3), seat=3, role=Role.THIEF),
    ]
    took = [
        ev.CardTaken(visibility=to_seats(3), seat=3, card=1, role=Role.WEREWOLF),
        ev.RoleAssigned(visibility=to_seats(3), seat=3, role=Role.WEREWOLF),
    ]
    seat = BySide(LINEUPS["bot good"], 7)
    assert isinstance(seat.current(observe(dealt, SeatViewer(seat=3))), BotAgent)
    assert isinstance(seat.current(observe(dealt + took, SeatViewer(seat=3))), RandomAgent)
