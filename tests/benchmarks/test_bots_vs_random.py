"""`benchmarks/bots_vs_random.py` counts each game under its own outcome.

A lovers' win (人狼戀) is neither team's: it must not read as a wolves' win (nor as a
good one), or a cupid board's figures would flatter the wolves.
"""

from __future__ import annotations

import asyncio

from arena.board_file import parse_board_text
from arena.rules.types import Winner
from benchmarks.bots_vs_random import LINEUPS, OUTCOMES, one_game

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
    """Seed 2 of the small cupid board, random seats: the couple outlives everyone."""
    board = parse_board_text(SMALL_CUPID, "cupid_small.yaml")
    outcome, defaults = asyncio.run(one_game(board, 2, LINEUPS["random"]))
    assert outcome == "lovers"
    assert defaults == 0
