"""Fold one replay into its `GameSummary`: the result plus every seat's tallies.

Each fold below reads one stream of the replay (events, answers, traces, belief reports)
and returns partial `Tallies` per seat; `summarize` adds them up. All of it is a pure
function of the replay: the same file always gives the same summary.
"""

from __future__ import annotations

import functools
import operator
from collections import defaultdict
from collections.abc import Iterable, Sequence

from arena.llm.types import ModelCallRecord
from arena.ratings.beliefs import belief_tallies
from arena.ratings.ngrams import ngrams, overlap
from arena.ratings.results import SeatResult, game_result
from arena.ratings.speeches import spoke_ratios
from arena.ratings.stats import Ratio, mean_of
from arena.ratings.tallies import GameSummary, ModelTally, SeatTallies, Tallies, UsageTally
from arena.rules.events import (
    Event,
    PhaseStarted,
    PlayerExiled,
    SelfExploded,
    Spoke,
    VoteCast,
    WolfWhispered,
)
from arena.rules.referee import Answer
from arena.rules.roles import is_god, is_wolf
from arena.rules.types import Role, SeatId, Team
from arena.storage.calls import automatic_answers
from arena.storage.replay_file import Replay, ReplayError

EXILE_BALLOTS = frozenset({"exile", "nomination", "defence", "pk"})
"""Ballots that decide (or nominate for) an exile; sheriff ballots are not about wolves."""

UNKNOWN_MODEL = "(unknown)"
"""The model key of a call that reported no model id."""


def summarize(replay: Replay) -> GameSummary:
    """The result and per-seat tallies of a finished replay.

    Raises:
        ReplayError: the game is unfinished or its log has no usable deal.
    """
    result = game_result(replay)
    roles = tuple(_judged_as(seat) for seat in result.seats)
    calls = all_calls(replay)
    try:
        parts = (
            claim_tallies(replay.events, roles),
            vote_tallies(replay.events, roles),
            leak_tallies(replay.events, roles),
            {seat: Tallies(spoke=r) for seat, r in spoke_ratios(replay.events).items()},
            explosion_tallies(replay.events, roles),
            belief_tallies(replay.events, replay.beliefs, roles),
            decision_tallies(replay.answers, replay.traces),
            usage_tallies(calls),
        )
    except IndexError:
        raise ReplayError(
            f"game {result.game_id}: an event names a seat outside 1-{len(roles)}"
        ) from None
    seats = tuple(
        SeatTallies(seat=seat, tallies=_sum_tallies([p[seat] for p in parts if seat in p]))
        for seat in range(1, len(roles) + 1)
    )
    return GameSummary(result=result, seats=seats, models=model_tallies(calls))


_NO_TALLIES = Tallies()


def _sum_tallies(present: Sequence[Tallies]) -> Tallies:
    """The sum of a seat's tallies from each part that has any.

    A cold leaderboard sums tens of thousands: no empty `Tallies` is built or added for
    the parts without the seat.
    """
    return functools.reduce(operator.add, present) if present else _NO_TALLIES


def _judged_as(seat: SeatResult) -> Role:
    """The card a seat's tallies judge it by: its own, or a plain wolf's for a wolf-side seat.

    A secret admirer who loved a wolf played for the wolves without a wolf card; judged as
    a wolf, a vote or a belief that found her is counted right.
    """
    if seat.team is Team.WOLF and not is_wolf(seat.role):
        return Role.WEREWOLF
    return seat.role


def claim_tallies(events: Sequence[Event], roles: Sequence[Role]) -> dict[SeatId, Tallies]:
    """`god_claims` and `claim_survival` of each wolf seat."""
    day = 0
    spoke: set[SeatId] = set()
    claimed: set[SeatId] = set()
    claim_days: set[tuple[SeatId, int]] = set()
    exiled: set[tuple[SeatId, int]] = set()
    for event in events:
        match event:
            case PhaseStarted(day=d):
                day = d
            case Spoke(seat=seat, claims=claims, context=context) if is_wolf(roles[seat - 1]):
                spoke.add(seat)
                if claims.role is not None and is_god(claims.role):
                    claimed.add(seat)
                    if context != "last_words":
                        claim_days.add((seat, day))
            case PlayerExiled(seat=seat):
                exiled.add((seat, day))
    return {
        seat: Tallies(
            god_claims=Ratio(num=int(seat in claimed), den=int(seat in spoke)),
            claim_survival=Ratio(
                num=sum(1 for d in claim_days if d[0] == seat and d not in exiled),
                den=sum(1 for d in claim_days if d[0] == seat),
            ),
        )
        for seat in range(1, len(roles) + 1)
        if is_wolf(roles[seat - 1])
    }


def explosion_tallies(events: Sequence[Event], roles: Sequence[Role]) -> dict[SeatId, Tallies]:
    """`explosions` of each wolf seat: whether it self-exploded in this game."""
    exploded = {e.seat for e in events if isinstance(e, SelfExploded)}
    return {
        seat: Tallies(explosions=Ratio(num=int(seat in exploded), den=1))
        for seat in range(1, len(roles) + 1)
        if is_wolf(roles[seat - 1])
    }


def vote_tallies(events: Sequence[Event], roles: Sequence[Role]) -> dict[SeatId, Tallies]:
    """`vote_accuracy` of good seats and `partner_votes` of wolf seats."""
    hits: dict[SeatId, Ratio] = defaultdict(Ratio)
    for event in events:
        if not isinstance(event, VoteCast) or event.ballot not in EXILE_BALLOTS:
            continue
        if event.target is None:
            continue
        on_wolf = is_wolf(roles[event.target - 1])
        if is_wolf(roles[event.voter - 1]):
            hits[event.voter] += Ratio(num=int(on_wolf and event.target != event.voter), den=1)
        else:
            hits[event.voter] += Ratio(num=int(on_wolf), den=1)
    return {
        seat: Tallies(partner_votes=r) if is_wolf(roles[seat - 1]) else Tallies(vote_accuracy=r)
        for seat, r in hits.items()
    }


def leak_tallies(events: Sequence[Event], roles: Sequence[Role]) -> dict[SeatId, Tallies]:
    """`whisper_leak` of each wolf seat's public speeches."""
    chat: set[tuple[str, ...]] = set()
    leaks: dict[SeatId, list[float]] = defaultdict(list)
    for event in events:
        if isinstance(event, WolfWhispered):
            chat |= ngrams(event.text)
        elif isinstance(event, Spoke) and is_wolf(roles[event.seat - 1]):
            share = overlap(event.text, chat)
            if share is not None:
                leaks[event.seat].append(share)
    return {seat: Tallies(whisper_leak=mean_of(values)) for seat, values in leaks.items()}


def decision_tallies(
    answers: Sequence[Answer], traces: Sequence[ModelCallRecord]
) -> dict[SeatId, Tallies]:
    """`fallbacks` (from answers) and `retries` (from traces) per seat.

    A model seat's fallbacks count only the decisions its model was asked: answers the
    arena gave without asking (`automatic_answers`) are neither its own nor defaulted.
    """
    fallbacks: dict[SeatId, Ratio] = defaultdict(Ratio)
    automatic = automatic_answers(answers, traces)
    for answer in answers:
        if (answer.seat, answer.step) in automatic:
            continue
        fallbacks[answer.seat] += Ratio(num=int(answer.defaulted is not None), den=1)
    attempts: dict[tuple[SeatId, int], int] = {}
    for call in traces:
        key = (call.seat, call.step)
        attempts[key] = max(attempts.get(key, 0), call.attempt)
    retries: dict[SeatId, Ratio] = defaultdict(Ratio)
    for (seat, _step), most in attempts.items():
        retries[seat] += Ratio(num=int(most >= 2), den=1)
    return {
        seat: Tallies(fallbacks=fallbacks.get(seat, Ratio()), retries=retries.get(seat, Ratio()))
        for seat in set(fallbacks) | set(retries)
    }


def all_calls(replay: Replay) -> list[ModelCallRecord]:
    """Every model call of the game: decisions' traces and belief reports' calls."""
    return [*replay.traces, *(call for report in replay.beliefs for call in report.calls)]


def _usage(call: ModelCallRecord) -> UsageTally:
    return UsageTally(
        calls=1,
        prompt_tokens=call.usage.prompt_tokens,
        completion_tokens=call.usage.completion_tokens,
        cached_tokens=call.usage.cached_tokens,
        cost_usd=call.cost_usd,
    )


def usage_tallies(calls: Iterable[ModelCallRecord]) -> dict[SeatId, Tallies]:
    """Tokens and money per seat."""
    usage: dict[SeatId, UsageTally] = defaultdict(UsageTally)
    for call in calls:
        usage[call.seat] += _usage(call)
    return {seat: Tallies(usage=u) for seat, u in usage.items()}


def model_tallies(calls: Iterable[ModelCallRecord]) -> tuple[ModelTally, ...]:
    """Tokens and money per model id, sorted by model."""
    usage: dict[str, UsageTally] = defaultdict(UsageTally)
    for call in calls:
        usage[call.model or UNKNOWN_MODEL] += _usage(call)
    return tuple(ModelTally(model=m, usage=u) for m, u in sorted(usage.items()))
