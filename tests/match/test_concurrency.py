"""The runner asks a batch's seats at once, and the next batch only after the last answer.

A game's (virtual) time is then its chain of batches, each as long as its slowest seat:
the sum of the slowest thinking time per batch, not the sum of all of them.
"""

from __future__ import annotations

from pathlib import Path

from arena.agents.base import AgentReply
from arena.match import Limits
from arena.rules.decisions import DecisionRequest
from arena.storage.replay_file import read_replay
from tests.match.fakes import (
    SEATS,
    AccountableFake,
    Call,
    Fake,
    by_step,
    fakes,
    legal,
    play,
    seat_seconds,
)


def test_a_batch_is_asked_at_once_and_lasts_as_long_as_its_slowest_seat() -> None:
    log: list[Call] = []
    referee, elapsed = play(fakes(log, seat_seconds))
    steps = by_step(log)
    assert referee.finished and len(log) == len(referee.answers)
    assert max(len(calls) for calls in steps.values()) > 1, "the rules have simultaneous batches"
    start = 0.0
    for calls in steps.values():
        assert {c.asked_at for c in calls} == {start}, "every seat of a batch is asked at once"
        start += max(c.seat for c in calls)
    assert elapsed == start
    assert elapsed < sum(c.seat for c in log), "batches overlap their seats' thinking"


def test_answers_are_recorded_as_they_come_not_in_seat_order(tmp_path: Path) -> None:
    """A seat that answers first is written first: a crash keeps every answer given."""

    def high_seats_first(request: DecisionRequest, attempt: int) -> tuple[float, AgentReply]:
        return 13.0 - request.seat, legal(request)

    log: list[Call] = []
    path = tmp_path / "g.jsonl"
    referee, _ = play(fakes(log, high_seats_first), path=path)
    batches = [c for c in by_step(log).values() if len(c) > 1]
    assert batches
    for calls in batches:
        step = calls[0].step
        order = [a.seat for a in referee.answers if a.step == step]
        assert order == sorted(order, reverse=True) and len(order) == len(calls)
    assert read_replay(path).answers == tuple(referee.answers)


def test_a_voided_game_stops_asking_and_cuts_the_calls_in_flight(tmp_path: Path) -> None:
    """Seat 3 (a plug-in, accountable) refuses at once; the others take 100 s. The void
    comes while others of its batch still think: they are cancelled, nobody is asked again."""
    log: list[Call] = []
    agents: dict[int, Fake] = fakes(log, lambda r, a: (100.0, legal(r)))
    agents[3] = AccountableFake(log, lambda r, a: (0.0, AgentReply(action=None, error="no")))
    limits = Limits(retries=0, void_after_defaults=3, void_default_share=0.25)
    path = tmp_path / "void.jsonl"
    referee, elapsed = play(agents, limits=limits, path=path)
    result = read_replay(path).header.result
    assert result is not None and result.void
    assert result.reason.startswith("voided: seat 3's agent fell back to defaults in 3 of 3")
    third = [c for c in log if c.seat == 3][2]
    batch = [c for c in log if c.step == third.step]
    assert len(batch) > 1
    assert all(c.cancelled and c.answered_at is None for c in batch if c.seat != 3)
    assert max(c.asked_at for c in log) == third.asked_at == elapsed
    assert not referee.finished


def test_every_seat_of_the_table_is_asked() -> None:
    log: list[Call] = []
    play(fakes(log))
    assert {c.seat for c in log} == set(SEATS)
