"""Time limits, on virtual time: a call's limit, a seat's own limit, the game's limit, and
the wait for an endpoint slot, which only the game's limit bounds."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.match import Limits
from arena.rules import events as ev
from arena.storage.replay_file import read_replay
from tests.match.fakes import (
    SHORT,
    Call,
    Fake,
    GatedFake,
    TimeLimitedFake,
    cut_calls,
    fakes,
    legal,
    play,
    prompt,
)


def test_a_call_past_its_limit_is_cut_asked_again_and_defaulted() -> None:
    log: list[Call] = []
    agents = fakes(log)
    agents[3] = Fake(log, lambda request, attempt: (100.0, legal(request)))
    referee, _ = play(agents, limits=Limits(call_timeout_s=10, retries=2))
    mine = [c for c in log if c.seat == 3]
    assert mine and all(c.cancelled and c.answered_at is None for c in mine)
    for first, *again in (mine[i : i + 3] for i in range(0, len(mine), 3)):
        assert [c.asked_at - first.asked_at for c in again] == [10.0, 20.0]
        assert [c.feedback for c in again] == ["no answer within 10 s"] * 2
    reasons = {a.defaulted for a in referee.answers if a.seat == 3}
    assert reasons == {"after 3 tries: no answer within 10 s"}
    assert referee.finished


def test_a_seat_s_own_limit_wins_and_its_cut_call_is_traced(tmp_path: Path) -> None:
    """A model seat's endpoint limit (2 s) replaces the match's (60 s); the trace of the
    call the limit cut off is written to the replay."""
    log: list[Call] = []
    agents = fakes(log)
    agents[3] = TimeLimitedFake(log, lambda r, a: (5.0, legal(r)), limit_s=2.0)
    path = tmp_path / "g.jsonl"
    referee, _ = play(agents, limits=Limits(call_timeout_s=60, retries=0), path=path)
    reasons = {a.defaulted for a in referee.answers if a.seat == 3}
    assert reasons == {"after 1 tries: no answer within 2 s"}
    cut = [t for t in read_replay(path).traces if t.cut_off]
    assert [(t.seat, t.step) for t in cut] == [(c.seat, c.step) for c in log if c.seat == 3]


def test_past_the_game_s_limit_nobody_is_asked_and_the_game_still_ends() -> None:
    """Everyone thinks 0.7 s; at 30 s the batch in flight is cut and every decision after
    it is the default, without a call."""
    log: list[Call] = []
    referee, elapsed = play(fakes(log, prompt(0.7)), limits=Limits(game_timeout_s=30), config=SHORT)
    assert referee.finished
    assert max(c.asked_at for c in log) < 30 <= min(c.asked_at for c in cut_calls(log)) + 0.7
    assert elapsed == pytest.approx(30)
    late = [a for a in referee.answers if a.defaulted is not None]
    assert late and {a.defaulted for a in late} == {"game time limit reached"}
    asked = {(c.step, c.seat) for c in log}
    unasked = [a for a in late if (a.step, a.seat) not in asked]
    assert unasked, "decisions past the limit are defaulted without asking"
    assert any(isinstance(e, ev.GameEnded) for e in referee.events)


def test_waiting_for_an_endpoint_slot_does_not_count_against_the_call() -> None:
    """Seat 3's slot frees at 100 s; its call limit is 10 s: it still answers itself."""
    log: list[Call] = []
    agents = fakes(log)
    agents[3] = GatedFake(log, free_at=100.0)
    referee, _ = play(agents, limits=Limits(call_timeout_s=10, retries=0))
    first = next(c for c in log if c.seat == 3)
    assert first.asked_at >= 100.0
    assert not [a for a in referee.answers if a.defaulted is not None]


def test_the_game_s_limit_bounds_the_wait_for_a_slot() -> None:
    log: list[Call] = []
    agents = fakes(log)
    agents[3] = GatedFake(log, free_at=1e9)
    limits = Limits(call_timeout_s=30, game_timeout_s=50)
    referee, elapsed = play(agents, limits=limits, config=SHORT)
    assert referee.finished and elapsed == pytest.approx(50)
    assert not [c for c in log if c.seat == 3], "never asked: its slot never freed"
    reasons = {a.defaulted for a in referee.answers if a.seat == 3}
    assert reasons == {"game time limit reached"}
