"""The moments of a verified game: every request the referee issued, re-run, never read.

A replay's answers are fed back through the referee (`arena.rules.referee.Referee`); at
the start of each batch the requests it issues are captured with the log's length and
the truth of that moment. Nothing about a request is taken from the file: a tampered
answer either fails the re-run or changes the log, and the file is then refused.

Each request is then matched against the exam's kinds (`Candidate`): which question it
can be asked as, for which seat.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple

from arena.exam.items import Kind
from arena.rules import events as ev
from arena.rules.decisions import DecisionKind, DecisionRequest
from arena.rules.referee import Answer, Referee
from arena.rules.roles import is_wolf
from arena.rules.types import Phase, Role, SeatId


class Moment(NamedTuple):
    """A request as the referee issued it, where the log stood, and the truth then."""

    request: DecisionRequest
    until: int
    """The log's length at the moment (the request's view is the log cut here)."""
    roles: tuple[Role, ...]
    wolves: tuple[SeatId, ...]
    ballot_opens: bool
    """Whether the day's first exile ballot opens here (when daily beliefs are asked)."""


class Candidate(NamedTuple):
    """A moment that can be asked as `kind`."""

    moment: Moment
    kind: Kind


def rerun(referee: Referee, answers: Sequence[Answer]) -> list[Moment]:
    """Feed `answers` to a fresh `referee`, capturing each batch's requests as it opens.

    Raises:
        IllegalActionError: an answer matches no open request, or is not legal.
    """
    moments: list[Moment] = []
    captured = -1
    for answer in answers:
        if referee.finished:
            break
        captured = _capture(referee, captured, moments)
        referee.resubmit(answer)
    return moments


def _capture(referee: Referee, captured: int, moments: list[Moment]) -> int:
    """Add the open batch's requests (once per batch); the batch's step."""
    pending = referee.pending()
    if not pending or pending[0].step == captured:
        return captured
    state = referee.state
    wolves = tuple(s for s in state.all_seats if state.wolf_side(s))
    opens = _ballot_opens(referee.events)
    until = len(referee.events)
    for request in pending:
        moments.append(Moment(request, until, state.roles, wolves, opens))
    return pending[0].step


def _ballot_opens(events: Sequence[ev.Event]) -> bool:
    """Whether the log's last phase is the day's vote and no ballot was cast in it yet."""
    for event in reversed(events):
        if isinstance(event, ev.VoteCast):
            return False
        if isinstance(event, ev.PhaseStarted):
            return event.phase is Phase.VOTE
    return False


def candidates(moments: Sequence[Moment]) -> Iterator[Candidate]:
    """Every (moment, kind) an exam may ask, by the rules of `arena.exam.items.Kind`."""
    for moment in moments:
        request = moment.request
        wolf = moment.request.seat in moment.wolves
        match request.kind:
            case DecisionKind.VOTE if moment.ballot_opens:
                if not wolf:
                    yield Candidate(moment, "vote")
                    yield Candidate(moment, "belief")
                yield Candidate(moment, "role")
            case DecisionKind.SEER:
                yield Candidate(moment, "seer")
            case DecisionKind.KNIFE if _is_wolf_card(moment):
                yield Candidate(moment, "knife")
            case DecisionKind.SPEECH if wolf and _speaks_alive(request):
                yield Candidate(moment, "speech")


def _speaks_alive(request: DecisionRequest) -> bool:
    """A speech of a seat still at the table (last words move no one's view of the speaker)."""
    return request.option("speak") is not None and request.context != "last_words"


def _is_wolf_card(moment: Moment) -> bool:
    return is_wolf(moment.roles[moment.request.seat - 1])
