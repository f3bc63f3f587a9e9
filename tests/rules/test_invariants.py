"""Seeded random playthroughs on every board and preset, checked against invariants.

Set ARENA_FUZZ_GAMES to play more games per board and preset (default 100: 2,100 games).
"""

from __future__ import annotations

import os

import pytest

from arena.rules import events as ev
from arena.rules.config import GameConfig
from arena.rules.decisions import DecisionKind, DecisionRequest
from arena.rules.observation import observe
from arena.rules.referee import Referee, play_answers
from arena.rules.roles import is_wolf
from arena.rules.types import Winner
from arena.rules.visibility import SeatViewer
from arena.rules.win import third_side, wolves_have_won
from tests.conftest import BOARD_REFS, play_random

GAMES = int(os.environ.get("ARENA_FUZZ_GAMES", "100"))
PRESETS = ("tournament", "site", "classic")
DEPARTING = {DecisionKind.SHOOT, DecisionKind.BADGE, DecisionKind.PUFFER}
"""Decisions a seat makes on its way out (a voted-out pufferfish may still flip, 001:127)."""


def _check_request(referee: Referee, request: DecisionRequest) -> None:
    """Dead seats never act; a seat out of the game only finishes its own departure."""
    state = referee.state
    seat = request.seat
    if state.is_present(seat):
        if request.night:
            assert state.is_alive(seat) or seat in state.exploded, (seat, request.kind)
        return
    if request.kind in DEPARTING or request.context == "last_words":
        return
    joins = referee.config.rules.exploded_wolf_joins_knife and seat in state.exploded
    assert joins and request.kind in (DecisionKind.KNIFE, DecisionKind.WOLF_TALK), (
        f"seat {seat} is out but was asked {request.kind}"
    )


def _check_votes(referee: Referee) -> None:
    """Only eligible seats vote: present, not a flipped idiot; no sheriff candidate (in a
    sheriff PK under `sheriff_pk_voters=off_stage`: nobody on the PK stage)."""
    state_roles = referee.state.roles
    off_stage = referee.config.rules.sheriff_pk_voters == "off_stage"
    out: set[int] = set()
    idiots: set[int] = set()
    candidates: set[int] = set()
    stage: set[int] = set()
    for event in referee.events:
        match event:
            case ev.DeathsAnnounced(seats=seats):
                out |= set(seats)
            case ev.IdiotRevealed(seat=seat):
                idiots.add(seat)
            case ev.SheriffCandidates(seats=seats):
                candidates |= set(seats)
            case ev.SpeakingOrderSet(context="sheriff_pk", order=order):
                stage = set(order)
            case ev.VoteCast(voter=voter, ballot=ballot, target=target):
                assert voter not in out and voter not in idiots
                if ballot not in ("sheriff", "sheriff_pk"):  # 004:3 lovers never vote each other
                    assert target is None or target != referee.state.partner(voter)
                assert target is None or target not in out
                if ballot == "sheriff" or (ballot == "sheriff_pk" and not off_stage):
                    assert voter not in candidates
                if ballot == "sheriff_pk":
                    assert voter not in stage and target in stage | {None}
    assert len(state_roles) == referee.state.seats


def _check_end(referee: Referee) -> None:
    ends = [e for e in referee.events if isinstance(e, ev.GameEnded)]
    assert len(ends) == 1
    assert isinstance(referee.events[-1], ev.RolesRevealed)
    state = referee.state
    sides = state.win_roles()  # a secret admirer counts with her love's side
    living = [sides[s - 1] for s in state.living()]
    side = third_side(sides, state.lovers)
    if ends[0].winner is Winner.GOOD:
        assert not any(is_wolf(r) for r in living)
    elif ends[0].winner is Winner.LOVERS:
        assert side and set(state.living()) <= set(side) and set(side[:2]) <= set(state.living())
    elif ends[0].winner is Winner.WOLVES:
        rules = referee.config.rules
        defectors = sum(1 for s in side if state.is_alive(s) and is_wolf(sides[s - 1]))
        won = wolves_have_won(sides, living, rules, defectors=defectors)
        assert won or rules.knife_first
    else:
        assert state.day >= referee.config.rules.max_days


def _check_knowledge(referee: Referee) -> None:
    """No seat's projection holds a role it may not know (the leak invariant)."""
    state = referee.state
    public_roles = {
        e.seat
        for e in referee.events
        if isinstance(e, ev.PlayerShot | ev.KnightDuelled | ev.CardRevealed)
    }
    public_roles |= state.revealed_idiots
    wolves = set(state.wolves(living=False))
    for seat in state.all_seats:
        before_end = next(i for i, e in enumerate(referee.events) if isinstance(e, ev.GameEnded))
        view = observe(referee.events, SeatViewer(seat=seat), until=before_end)
        checked = {
            e.target for e in referee.events if isinstance(e, ev.RoleChecked) and e.seat == seat
        }
        allowed = {seat} | public_roles | checked | (wolves if seat in wolves else set())
        assert set(view.knowledge.roles) <= allowed, (seat, view.knowledge.roles, allowed)
        assert not any(isinstance(s.event, ev.PlayerDied | ev.RolesDealt) for s in view.seen)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("board", sorted(BOARD_REFS))
def test_random_playthroughs_keep_invariants(board: str, preset: str) -> None:
    _playthroughs(GameConfig(board=BOARD_REFS[board], preset=preset))


VARIANTS = {
    "004": {
        "sheriff_direction": "alternate",
        "sheriff_vote_weight": 2,
        "last_words_night": "two_nights_single",
        "wolves_may_skip": True,
        "knife_no_agreement": "empty",
        "shot_dies_with_shooter": True,
        "last_words_taken": "follow_source",
        "last_words_exploded": True,
        "campaign_order": "highest_first",
    },
    "003-last-words-per-wolf": {"last_words_per_wolf": True, "campaign_order": "lowest_first"},
}
"""Rule sets that no preset names but the seeds describe, as knobs over `classic`."""


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("board", sorted(BOARD_REFS))
def test_random_playthroughs_of_seed_variants_keep_invariants(board: str, variant: str) -> None:
    config = GameConfig(board=BOARD_REFS[board], preset="classic", overrides=VARIANTS[variant])
    _playthroughs(config)


def _playthroughs(config: GameConfig) -> None:
    winners = set()
    for seed in range(GAMES):
        referee = play_random(config, seed, _check_request)
        assert referee.finished and referee.winner is not None
        winners.add(referee.winner)
        _check_end(referee)
        _check_votes(referee)
        if seed % 10 == 0:
            _check_knowledge(referee)
    assert Winner.DRAW not in winners


@pytest.mark.parametrize("board", sorted(BOARD_REFS))
def test_rerunning_the_answers_reproduces_the_log(board: str) -> None:
    for seed in range(5):
        referee = play_random(GameConfig(board=BOARD_REFS[board]), seed)
        again = play_answers(referee.config, seed, referee.answers)
        dumped = [e.model_dump(mode="json") for e in referee.events]
        assert [e.model_dump(mode="json") for e in again.events] == dumped
        assert again.finished


def test_answer_order_within_a_batch_does_not_change_the_log() -> None:
    config = GameConfig(board="wwk_guard")
    first = play_random(config, 11)
    by_step: dict[int, list] = {}
    for answer in first.answers:
        by_step.setdefault(answer.step, []).append(answer)
    shuffled = [a for step in sorted(by_step) for a in reversed(by_step[step])]
    again = play_answers(config, 11, shuffled)
    assert [e.model_dump() for e in again.events] == [e.model_dump() for e in first.events]
