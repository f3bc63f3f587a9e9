"""The match runner: asks the referee's pending decisions of their agents, concurrently.

A batch of simultaneous requests (votes, the night's independent actions) is sent to all
its agents at once, so a game's wall time is its chain of sequential steps, not the sum
of all calls. Each answer is checked with the rules; a late, malformed or illegal answer
is asked again with the error (`Limits.retries` times), then the request's documented
default is applied and recorded as an `ActionDefaulted` event. A game never stalls: past
the game's time limit every remaining decision is defaulted without asking.

Every event, answer and model call is appended to the replay file as it happens, so a
game killed mid-way resumes from its partial file (`resume_game`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal, TypeVar

from arena.agents.base import Agent, AgentReply, Believer, Gated
from arena.records import BeliefReport
from arena.rules.actions import Action
from arena.rules.config import GameConfig
from arena.rules.decisions import DecisionRequest, check_legal
from arena.rules.draw import CURRENT_DRAW
from arena.rules.errors import ArenaError, IllegalActionError
from arena.rules.events import GameEnded, PhaseStarted, Spoke
from arena.rules.observation import Observation, Projector
from arena.rules.referee import Referee, play_answers
from arena.rules.types import Phase, SeatId
from arena.rules.visibility import SeatViewer
from arena.storage.replay_file import (
    ReplayHeader,
    ReplayResult,
    ReplayWriter,
    SeatAgent,
    read_replay,
)


@dataclass(frozen=True, slots=True)
class Limits:
    """Time and retry limits of a match."""

    call_timeout_s: float = 60.0
    """One agent decision (all its model calls) must finish within this; waiting for a
    `Gated` agent's endpoint slot comes before the clock starts."""
    game_timeout_s: float = 6 * 3600.0
    """Past this, remaining decisions are defaulted without asking."""
    retries: int = 2
    """Re-asks after an invalid, illegal or late answer, before the default."""
    beliefs: Literal["off", "daily", "per_speech"] = "daily"
    """When seats are asked for a private belief report: before each exile vote, after
    every speech, or never. Agents that are not `Believer`s are skipped."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """One decision's result: the action to submit and, if defaulted, why."""

    seat: SeatId
    action: Action
    defaulted: str | None


T = TypeVar("T")


async def timed_call(
    agent: Agent, call: Callable[[], Awaitable[T]], timeout_s: float, deadline: float
) -> T:
    """Run one call of `agent` within `timeout_s`.

    A `Gated` agent first waits for its slot, bounded only by the game's `deadline`
    (`time.monotonic()` seconds), and the call's clock starts once the slot is held.

    Raises:
        TimeoutError: the call took longer than `timeout_s`, or the game's deadline
            passed while waiting for the slot.
    """
    async with contextlib.AsyncExitStack() as held:
        if isinstance(agent, Gated):
            async with asyncio.timeout(max(0.0, deadline - time.monotonic())):
                await held.enter_async_context(agent.slot())
        remaining = max(0.0, deadline - time.monotonic())
        return await asyncio.wait_for(call(), min(timeout_s, remaining))


async def decide(
    agent: Agent, view: Observation, request: DecisionRequest, limits: Limits, deadline: float
) -> tuple[Outcome, list[AgentReply]]:
    """Ask one agent for one decision with bounded retries; never raises for agent faults."""
    replies: list[AgentReply] = []
    feedback: str | None = None
    for _attempt in range(limits.retries + 1):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return Outcome(request.seat, request.default, "game time limit reached"), replies
        try:
            reply = await timed_call(
                agent,
                functools.partial(agent.decide, view, request, feedback),
                limits.call_timeout_s,
                deadline,
            )
        except TimeoutError:
            feedback = f"no answer within {limits.call_timeout_s:g} s"
            continue
        except ArenaError as exc:
            feedback = str(exc)
            continue
        replies.append(reply)
        if reply.action is None:
            feedback = reply.error or "no action in the reply"
            continue
        try:
            check_legal(request, reply.action)
        except IllegalActionError as exc:
            feedback = str(exc)
            continue
        return Outcome(request.seat, reply.action, None), replies
    reason = f"after {limits.retries + 1} tries: {feedback}"
    return Outcome(request.seat, request.default, reason), replies


class Recorder:
    """Mirrors the referee's new events and answers into a replay writer."""

    def __init__(self, referee: Referee, writer: ReplayWriter | None) -> None:
        self.referee = referee
        self.writer = writer
        self.events_written = 0
        self.answers_written = 0

    def flush(self) -> None:
        """Write what the referee produced since the last flush."""
        if self.writer is None:
            return
        for answer in self.referee.answers[self.answers_written :]:
            self.writer.answer(answer)
        for seq in range(self.events_written, len(self.referee.events)):
            self.writer.event(seq, self.referee.events[seq])
        self.answers_written = len(self.referee.answers)
        self.events_written = len(self.referee.events)


async def play(
    referee: Referee,
    agents: Mapping[SeatId, Agent],
    *,
    writer: ReplayWriter | None = None,
    limits: Limits = Limits(),
    on_event: Callable[[int], None] | None = None,
) -> Referee:
    """Drive `referee` to the end with `agents`, recording into `writer`."""
    recorder = Recorder(referee, writer)
    recorder.flush()
    views = {s: Projector(referee.events, SeatViewer(seat=s)) for s in agents}
    deadline = time.monotonic() + limits.game_timeout_s
    while not referee.finished:
        tasks = [
            asyncio.create_task(
                decide(agents[r.seat], views[r.seat].observe(), r, limits, deadline)
            )
            for r in referee.pending()
        ]
        try:
            for finished in asyncio.as_completed(tasks):
                outcome, replies = await finished
                if writer is not None:
                    for reply in replies:
                        for call in reply.calls:
                            writer.trace(call)
                before = len(referee.events)
                referee.submit(outcome.seat, outcome.action, defaulted=outcome.defaulted)
                recorder.flush()
                if _belief_due(referee, before, limits):
                    await _collect_beliefs(referee, agents, views, writer, limits, deadline)
                if on_event is not None:
                    on_event(len(referee.events))
        finally:
            for task in tasks:  # a stopped game stops asking its agents (no-op when done)
                task.cancel()
    return referee


def _belief_due(referee: Referee, before: int, limits: Limits) -> bool:
    new = referee.events[before:]
    if limits.beliefs == "per_speech":
        return any(isinstance(e, Spoke) for e in new)
    if limits.beliefs == "daily":
        return any(isinstance(e, PhaseStarted) and e.phase is Phase.VOTE for e in new)
    return False


async def _collect_beliefs(
    referee: Referee,
    agents: Mapping[SeatId, Agent],
    views: Mapping[SeatId, Projector],
    writer: ReplayWriter | None,
    limits: Limits,
    deadline: float,
) -> None:
    """Ask every present seat whose agent reports beliefs, concurrently.

    Failures are skipped: a belief report is instrumentation, never part of the game.
    """
    seats = [s for s in referee.state.present() if isinstance(agents[s], Believer)]

    async def one(seat: SeatId) -> BeliefReport | None:
        agent = agents[seat]
        assert isinstance(agent, Believer)
        try:
            view = views[seat].observe()
            return await timed_call(
                agent, lambda: agent.believe(view), limits.call_timeout_s, deadline
            )
        except (TimeoutError, ArenaError):
            return None

    reports = await asyncio.gather(*(one(s) for s in seats))
    if writer is not None:
        for report in reports:
            if report is not None:
                writer.belief(report)


def result_of(referee: Referee) -> ReplayResult:
    """The header's result block for a finished game."""
    ended = next(e for e in reversed(referee.events) if isinstance(e, GameEnded))
    return ReplayResult(
        winner=ended.winner,
        reason=ended.reason,
        days=referee.state.day,
        events=len(referee.events),
    )


def new_game_id(board: str) -> str:
    """A fresh game id: the board and random letters, never the seed.

    An id such as `wwk_guard-31` named the seed, and with the seed anyone can re-deal the
    roles; a player sees the id, so it must tell them nothing.
    """
    return f"{board}-{secrets.token_hex(5)}"


def secret_seed() -> int:
    """A seed nobody can guess (for games with people: the seed re-deals the roles)."""
    return secrets.randbelow(2**31)


def new_header(
    game_id: str, config: GameConfig, seed: int, agents: Mapping[SeatId, Agent], **extra: object
) -> ReplayHeader:
    """A replay header for a game about to start."""
    seats = tuple(
        SeatAgent(
            seat=seat,
            agent=agent.name,
            model=getattr(agent, "model", None),
            prompt_version=getattr(agent, "prompt_version", None),
        )
        for seat, agent in sorted(agents.items())
    )
    return ReplayHeader.model_validate(
        {
            "game_id": game_id,
            "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "config": config,
            "seed": seed,
            "draw": CURRENT_DRAW,
            "seats": seats,
            **extra,
        }
    )


async def run_game(
    header: ReplayHeader,
    agents: Mapping[SeatId, Agent],
    path: Path | None,
    *,
    limits: Limits = Limits(),
) -> Referee:
    """Play a new game, writing its replay to `path` (None: keep it in memory only)."""
    _check_seats(header.config, agents)
    writer = ReplayWriter(path, header) if path is not None else None
    referee = Referee(header.config, header.seed, draw=header.draw)
    await play(referee, agents, writer=writer, limits=limits)
    if writer is not None:
        writer.finish(result_of(referee))
    return referee


async def resume_game(
    path: Path, agents: Mapping[SeatId, Agent], *, limits: Limits = Limits()
) -> Referee:
    """Continue a game from its partial replay: re-run the recorded answers, then play on.

    The file is rewritten from what re-running produced (so a torn last line from a crash
    is dropped) before play continues.
    """
    replay = read_replay(_drop_torn_tail(path))
    _check_seats(replay.header.config, agents)
    header = replay.header
    referee = play_answers(header.config, header.seed, replay.answers, draw=header.draw)
    writer = ReplayWriter(path, replay.header.model_copy(update={"result": None}))
    for trace in replay.traces:
        writer.trace(trace)
    await play(referee, agents, writer=writer, limits=limits)
    writer.finish(result_of(referee))
    return referee


def _drop_torn_tail(path: Path) -> Path:
    text = path.read_text(encoding="utf-8")
    if text and not text.endswith("\n"):
        path.write_text(text[: text.rfind("\n") + 1], encoding="utf-8")
    return path


def _check_seats(config: GameConfig, agents: Mapping[SeatId, Agent]) -> None:
    seats = set(range(1, config.board_spec.seats + 1))
    if set(agents) != seats:
        missing = sorted(seats - set(agents))
        extra = sorted(set(agents) - seats)
        raise ArenaError(
            f"agents must cover seats 1-{len(seats)}: missing {missing}, extra {extra}"
        )
