"""A decision nobody answered is the request's own default, recorded for the seat alone.

And the void rule: a game whose accountable seat mostly plays the arena's defaults (at
least `void_after_defaults` of them, at least `void_default_share` of its decisions) is
stopped and marked void, so it never counts in the ratings.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.agents.base import AgentReply
from arena.match import Limits
from arena.replay_check import check_replay
from arena.rules import events as ev
from arena.rules.decisions import DecisionRequest
from arena.rules.visibility import to_seats
from arena.storage.replay_file import read_replay
from tests.match.fakes import AccountableFake, Call, Fake, fakes, legal, play

REFUSAL = AgentReply(action=None, error="no tool call")


def test_a_default_is_the_request_s_own_and_is_recorded_for_its_seat(tmp_path: Path) -> None:
    log: list[Call] = []
    agents = fakes(log)
    agents[3] = Fake(log, lambda request, attempt: (0.0, REFUSAL))
    path = tmp_path / "g.jsonl"
    referee, _ = play(agents, limits=Limits(retries=0), path=path)
    asked = {c.step: c.request for c in log if c.seat == 3}
    answers = [a for a in referee.answers if a.seat == 3]
    assert referee.finished and answers and {a.step for a in answers} == set(asked)
    for answer in answers:
        assert answer.action == asked[answer.step].default
        assert answer.defaulted == "after 1 tries: no tool call"
    defaulted = [e for e in referee.events if isinstance(e, ev.ActionDefaulted)]
    assert [(e.seat, e.decision) for e in defaulted] == [(3, asked[a.step].kind) for a in answers]
    assert all(e.visibility == to_seats(3) for e in defaulted)
    assert all(a.defaulted is None for a in referee.answers if a.seat != 3)
    replay = read_replay(path)
    assert replay.answers == tuple(referee.answers)
    assert replay.header.result is not None and not replay.header.result.void, (
        "a seat that is not accountable (a bot, a person) never voids the game"
    )
    assert check_replay(path).ok


def every(n: int) -> object:
    """Seat behaviour: refuse every `n`-th decision, answer the others."""
    seen: list[int] = []

    def behave(request: DecisionRequest, attempt: int) -> tuple[float, AgentReply]:
        if request.step not in seen:
            seen.append(request.step)
        return (0.0, REFUSAL if len(seen) % n == 0 else legal(request))

    return behave


@pytest.mark.parametrize(
    ("n", "void"),
    [(2, "voided: seat 3's agent fell back to defaults in 2 of 4 decisions"), (5, None)],
)
def test_a_game_is_void_once_an_accountable_seat_mostly_defaults(
    tmp_path: Path, n: int, void: str | None
) -> None:
    """Refusing every 2nd decision crosses 25 % at the 2nd default; every 5th never does.

    Seed 6 gives seat 3 a long game (a dozen decisions and more)."""
    log: list[Call] = []
    agents = fakes(log)
    agents[3] = AccountableFake(log, every(n))  # type: ignore[arg-type]
    limits = Limits(retries=0, void_after_defaults=2, void_default_share=0.25)
    path = tmp_path / "g.jsonl"
    referee, _ = play(agents, limits=limits, path=path, seed=6)
    result = read_replay(path).header.result
    assert result is not None
    if void is None:
        assert referee.finished and not result.void
        assert sum(1 for a in referee.answers if a.seat == 3 and a.defaulted) >= 2
    else:
        assert result.void and result.reason == f"{void} (last: after 1 tries: no tool call)"
        assert not referee.finished
        assert check_replay(path).ok
