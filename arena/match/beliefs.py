"""Belief rounds: when seats are asked for their private wolf probabilities, and how.

A belief report is instrumentation, never part of the game: a seat that fails to give one
is skipped, and the game goes on the same. Model seats fold the daily report into their
exile vote (`BeliefFolder`), asked apart only when the vote came without one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping

from arena.agents.base import Agent, AgentReply, BeliefFolder, Believer, TimeLimited
from arena.agents.traits import trait
from arena.match.asking import limit_of, timed_call
from arena.match.limits import Limits, Outcome
from arena.records import BeliefReport
from arena.rules.decisions import DecisionKind
from arena.rules.events import PhaseStarted, Spoke
from arena.rules.observation import Observation, Projector
from arena.rules.referee import Referee
from arena.rules.types import Phase, SeatId
from arena.storage.replay_file import ReplayWriter


def folding(referee: Referee, agents: Mapping[SeatId, Agent]) -> set[SeatId]:
    """Seats about to vote whose agents report their beliefs with the vote."""
    voting = [r.seat for r in referee.pending() if r.kind is DecisionKind.VOTE]
    return {s for s in voting if (f := trait(agents[s], BeliefFolder)) and f.folds_beliefs}


async def folded_belief(
    outcome: Outcome,
    replies: list[AgentReply],
    agents: Mapping[SeatId, Agent],
    views: Mapping[SeatId, Projector],
    writer: ReplayWriter | None,
    limits: Limits,
    deadline: float,
) -> None:
    """Write the belief report that came with a vote, or ask for it now.

    The fallback question comes before the votes are revealed, so the report reflects
    what the seat knew when it voted.
    """
    report = next((r.belief for r in reversed(replies) if r.belief is not None), None)
    agent = agents[outcome.seat]
    if report is None and trait(agent, Believer) is not None:
        report = await ask_belief(agent, views[outcome.seat].observe(), limits, deadline)
    _write_belief(agent, report, writer)


def belief_due(referee: Referee, before: int, limits: Limits) -> bool:
    """Whether the events since `before` open a belief round under `limits.beliefs`."""
    new = referee.events[before:]
    if limits.beliefs == "per_speech":
        return any(isinstance(e, Spoke) for e in new)
    if limits.beliefs == "daily":
        return any(isinstance(e, PhaseStarted) and e.phase is Phase.VOTE for e in new)
    return False


async def collect_beliefs(
    referee: Referee,
    agents: Mapping[SeatId, Agent],
    views: Mapping[SeatId, Projector],
    writer: ReplayWriter | None,
    limits: Limits,
    deadline: float,
    *,
    skip: set[SeatId],
) -> None:
    """Ask every present seat whose agent reports beliefs (but those in `skip`), concurrently.

    Failures are skipped: a belief report is instrumentation, never part of the game.
    """
    seats = [
        s
        for s in referee.state.present()
        if trait(agents[s], Believer) is not None and s not in skip
    ]

    reports = await asyncio.gather(
        *(ask_belief(agents[s], views[s].observe(), limits, deadline) for s in seats)
    )
    for seat, report in zip(seats, reports, strict=True):
        _write_belief(agents[seat], report, writer)


async def ask_belief(
    agent: Agent, seen: Observation, limits: Limits, deadline: float
) -> BeliefReport | None:
    """One seat's belief report on its view `seen`, or None when it fails (within its limit).

    A report that is not a `BeliefReport` of the asked seat counts as a failure too. The
    exam asks its belief items with it too (`arena.exam.asking`). The seat (its outermost
    layer) holds its slot; the question goes to the layer that reports beliefs.
    """
    believer = trait(agent, Believer)
    assert believer is not None
    try:
        report = await timed_call(
            agent, lambda: believer.believe(seen), limit_of(agent, limits), deadline
        )
    except Exception:  # a timeout, a refusal or an agent's bug: no report, same game
        return None
    mine = isinstance(report, BeliefReport) and report.seat == getattr(seen.viewer, "seat", None)
    return report if mine else None


def _write_belief(agent: Agent, report: BeliefReport | None, writer: ReplayWriter | None) -> None:
    """Write `report` and any calls no report carries (a failed or cut-off question)."""
    if writer is None:
        return
    if (timed := trait(agent, TimeLimited)) is not None:
        for call in timed.pending_traces():
            writer.trace(call)
    if report is not None:
        writer.belief(report)
