"""The match runner: asks the referee's pending decisions of their agents, concurrently.

A batch of simultaneous requests (votes, the night's independent actions) is sent to all
its agents at once, so a game's wall time is its chain of sequential steps, not the sum
of all calls. Each answer is checked with the rules; a late, malformed or illegal answer
is asked again with the error (`Limits.retries` times), then the request's documented
default is applied and recorded as an `ActionDefaulted` event. A game never stalls: past
the game's time limit every remaining decision is defaulted without asking.

Every event, answer and model call is appended to the replay file as it happens, so a
game killed mid-way resumes from its partial file (`resume_game`).

Time is the running event loop's clock (`loop.time()`, `time.monotonic()` on asyncio's
own loops), the one `asyncio.timeout` and `wait_for` read: the game's deadline and each
call's limit keep one time, and a test loop on virtual time (tests/support/virtual_time.py)
drives every limit without waiting.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import secrets
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from arena.agents.base import (
    Accountable,
    Agent,
    AgentReply,
    BeliefFolder,
    Believer,
    Gated,
    TimeLimited,
)
from arena.records import BeliefReport
from arena.rules.actions import Action
from arena.rules.config import GameConfig
from arena.rules.decisions import DecisionKind, DecisionRequest, check_legal
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
    SeatHandover,
    read_replay,
)


class Limits(BaseModel):
    """Time and retry limits of a match.

    One model for the runner, a queued job and a tournament file (`limits:`): what the
    worker plays under is what the file said, with nothing to copy between two shapes.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    call_timeout_s: float = Field(default=60.0, gt=0)
    """One agent decision (all its model calls) must finish within this; waiting for a
    `Gated` agent's endpoint slot comes before the clock starts."""
    game_timeout_s: float = Field(default=6 * 3600.0, gt=0)
    """Past this, remaining decisions are defaulted without asking."""
    retries: int = Field(default=2, ge=0)
    """Re-asks after an invalid, illegal or late answer, before the default."""
    beliefs: Literal["off", "daily", "per_speech"] = "daily"
    """When seats are asked for a private belief report: at each exile vote, after every
    speech, or never. Agents that are not `Believer`s are skipped; model seats fold the
    daily report into their vote (`BeliefFolder`)."""
    void_after_defaults: int = Field(default=5, ge=1)
    """A game is voided once a model seat (or a plug-in, `Accountable`) has this many
    defaulted decisions …"""
    void_default_share: float = Field(default=0.25, ge=0, le=1)
    """… making up at least this share of its decisions: its play is the arena's defaults,
    not the model's, and such a game must not count in the ratings (docs/model-seats.md)."""


class GameVoided(ArenaError):
    """The game was stopped because a model seat kept falling back to defaults."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(slots=True)
class Tally:
    """Decisions and defaults per accountable seat (model, plug-in, remote), for the void rule."""

    limits: Limits
    decided: dict[SeatId, int]
    defaulted: dict[SeatId, int]

    def count(self, outcome: Outcome) -> str | None:
        """Count `outcome`; the void reason once its seat crosses the threshold."""
        seat = outcome.seat
        self.decided[seat] = self.decided.get(seat, 0) + 1
        if outcome.defaulted is None:
            return None
        self.defaulted[seat] = self.defaulted.get(seat, 0) + 1
        done, failed = self.decided[seat], self.defaulted[seat]
        if (
            failed >= self.limits.void_after_defaults
            and failed >= self.limits.void_default_share * done
        ):
            return (
                f"voided: seat {seat}'s agent fell back to defaults in {failed} of {done} "
                f"decisions (last: {outcome.defaulted})"
            )
        return None


@dataclass(frozen=True, slots=True)
class Outcome:
    """One decision's result: the action to submit and, if defaulted, why."""

    seat: SeatId
    action: Action
    defaulted: str | None


T = TypeVar("T")


def now() -> float:
    """The running loop's clock, in seconds: the time every limit of a match is kept in."""
    return asyncio.get_running_loop().time()


async def timed_call(
    agent: Agent, call: Callable[[], Awaitable[T]], timeout_s: float, deadline: float
) -> T:
    """Run one call of `agent` within `timeout_s`.

    A `Gated` agent first waits for its slot, bounded only by the game's `deadline` (on
    the loop's clock, `now()`), and the call's clock starts once the slot is held.

    Raises:
        TimeoutError: the call took longer than `timeout_s`, or the game's deadline
            passed while waiting for the slot.
    """
    async with contextlib.AsyncExitStack() as held:
        if isinstance(agent, Gated):
            async with asyncio.timeout(max(0.0, deadline - now())):
                await held.enter_async_context(agent.slot())
        remaining = max(0.0, deadline - now())
        return await asyncio.wait_for(call(), min(timeout_s, remaining))


def limit_of(agent: Agent, limits: Limits) -> float:
    """The seconds one question to `agent` may take.

    Its own limit (`TimeLimited`: a model seat's endpoint), else the match's; a belief
    question is held to the same limit as a decision.
    """
    own = agent.decision_timeout_s if isinstance(agent, TimeLimited) else None
    return own or limits.call_timeout_s


async def decide(
    agent: Agent, view: Observation, request: DecisionRequest, limits: Limits, deadline: float
) -> tuple[Outcome, list[AgentReply]]:
    """Ask one agent for one decision with bounded retries; never raises for agent faults.

    An agent that raises (any `Exception`, its bug or ours) or returns something other
    than an `AgentReply` is treated as a malformed answer: asked again with the error as
    feedback, then defaulted. Only cancellation (the game stopping) goes through.
    `deadline` is the game's, on the loop's clock (`now()`): past it the request is
    defaulted without asking.
    """
    replies: list[AgentReply] = []
    feedback: str | None = None
    timeout_s = limit_of(agent, limits)
    for _attempt in range(limits.retries + 1):
        remaining = deadline - now()
        if remaining <= 0:
            return Outcome(request.seat, request.default, "game time limit reached"), replies
        try:
            reply = await timed_call(
                agent,
                functools.partial(agent.decide, view, request, feedback),
                timeout_s,
                deadline,
            )
        except TimeoutError:
            feedback = f"no answer within {timeout_s:g} s"
            if isinstance(agent, TimeLimited):
                replies.append(
                    AgentReply(action=None, error=feedback, calls=agent.pending_traces())
                )
            continue
        except ArenaError as exc:
            feedback = str(exc)
            continue
        except Exception as exc:  # an agent's bug is its seat's default, never the game's end
            feedback = f"the agent raised {type(exc).__name__}: {_one_line(exc)}"
            continue
        if not isinstance(reply, AgentReply):
            feedback = f"the agent returned {type(reply).__name__}, not an AgentReply"
            continue
        replies.append(reply)
        if reply.action is None and reply.late:
            reason = f"timed out: {reply.error or 'no answer'}"
            return Outcome(request.seat, request.default, reason), replies
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


def _one_line(exc: BaseException, limit: int = 300) -> str:
    """An exception's message on one line, cut to `limit` characters (it goes in the log)."""
    text = " ".join(str(exc).split()) or "(no message)"
    return text if len(text) <= limit else text[: limit - 1] + "…"


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
    deadline = now() + limits.game_timeout_s
    tally = Tally(limits, {}, {})
    accountable = {s for s, a in agents.items() if _accountable(a)}
    owed: set[SeatId] = set()
    """Seats whose daily belief report is to come with their exile vote."""
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
                if outcome.seat in owed:
                    owed.discard(outcome.seat)
                    await _folded_belief(outcome, replies, agents, views, writer, limits, deadline)
                before = len(referee.events)
                referee.submit(outcome.seat, outcome.action, defaulted=outcome.defaulted)
                recorder.flush()
                void = tally.count(outcome) if outcome.seat in accountable else None
                if void is not None:
                    raise GameVoided(void)
                if _belief_due(referee, before, limits):
                    owed = _folding(referee, agents) if limits.beliefs == "daily" else set()
                    await _collect_beliefs(
                        referee, agents, views, writer, limits, deadline, skip=owed
                    )
                if on_event is not None:
                    on_event(len(referee.events))
        finally:
            for task in tasks:  # a stopped game stops asking its agents (no-op when done)
                task.cancel()
    return referee


def _accountable(agent: Agent) -> bool:
    """Whether the void rule counts `agent`'s defaults: a model seat's, or a plug-in's."""
    if getattr(agent, "chat", None) is not None:
        return True
    return isinstance(agent, Accountable) and bool(agent.accountable)


def _folding(referee: Referee, agents: Mapping[SeatId, Agent]) -> set[SeatId]:
    """Seats about to vote whose agents report their beliefs with the vote."""
    return {
        r.seat
        for r in referee.pending()
        if r.kind is DecisionKind.VOTE
        and isinstance(agents[r.seat], BeliefFolder)
        and agents[r.seat].folds_beliefs  # type: ignore[attr-defined]
    }


async def _folded_belief(
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
    if report is None and isinstance(agent, Believer):
        report = await _belief(agent, views[outcome.seat], limits, deadline)
    _write_belief(agent, report, writer)


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
    *,
    skip: set[SeatId],
) -> None:
    """Ask every present seat whose agent reports beliefs (but those in `skip`), concurrently.

    Failures are skipped: a belief report is instrumentation, never part of the game.
    """
    seats = [
        s for s in referee.state.present() if isinstance(agents[s], Believer) and s not in skip
    ]

    reports = await asyncio.gather(*(_belief(agents[s], views[s], limits, deadline) for s in seats))
    for seat, report in zip(seats, reports, strict=True):
        _write_belief(agents[seat], report, writer)


async def _belief(
    agent: Agent, view: Projector, limits: Limits, deadline: float
) -> BeliefReport | None:
    """One seat's belief report, or None when it fails (within the seat's limit).

    A report that is not a `BeliefReport` of the asked seat counts as a failure too.
    """
    assert isinstance(agent, Believer)
    seen = view.observe()
    try:
        report = await timed_call(
            agent, lambda: agent.believe(seen), limit_of(agent, limits), deadline
        )
    except Exception:  # a timeout, a refusal or an agent's bug: no report, same game
        return None
    mine = isinstance(report, BeliefReport) and report.seat == getattr(seen.viewer, "seat", None)
    return report if mine else None


def _write_belief(agent: Agent, report: BeliefReport | None, writer: ReplayWriter | None) -> None:
    """Write `report` and any calls no report carries (a failed or cut-off question)."""
    if writer is None:
        return
    if isinstance(agent, TimeLimited):
        for call in agent.pending_traces():
            writer.trace(call)
    if report is not None:
        writer.belief(report)


def result_of(referee: Referee, void: str | None = None) -> ReplayResult:
    """The header's result block for a finished game, or for one voided by `void`."""
    if void is not None:
        return ReplayResult(
            winner=None, reason=void, days=referee.state.day, events=len(referee.events), void=True
        )
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
    progress: Callable[[Referee], None] | None = None,
) -> Referee:
    """Play a new game, writing its replay to `path` (None: keep it in memory only).

    `progress` is called with the referee after every answer (a slow game's heartbeat).
    """
    _check_seats(header.config, agents)
    writer = ReplayWriter(path, header) if path is not None else None
    referee = Referee(header.config, header.seed, draw=header.draw)
    void = await _play_or_void(referee, agents, writer, limits, progress)
    if writer is not None:
        _note_handovers(writer, agents)
        writer.finish(result_of(referee, void))
    return referee


def _note_handovers(writer: ReplayWriter, agents: Mapping[SeatId, Agent]) -> None:
    """Add to the header the seats whose agents handed them over (`agent.handover`).

    A person's seat played by a bot, or by the arena's defaults once the terminal closed,
    is recorded, so ratings do not count it as the person's (`arena.ratings.results`).
    """
    found = [getattr(agent, "handover", None) for _, agent in sorted(agents.items())]
    new = tuple(h for h in found if isinstance(h, SeatHandover))
    known = {h.seat for h in writer.header.handovers}
    fresh = tuple(h for h in new if h.seat not in known)
    if fresh:
        handovers = writer.header.handovers + fresh
        writer.header = writer.header.model_copy(update={"handovers": handovers})


async def _play_or_void(
    referee: Referee,
    agents: Mapping[SeatId, Agent],
    writer: ReplayWriter | None,
    limits: Limits,
    progress: Callable[[Referee], None] | None = None,
) -> str | None:
    """Play to the end; the void reason if the game was voided instead."""
    tick = None if progress is None else (lambda _: progress(referee))
    try:
        await play(referee, agents, writer=writer, limits=limits, on_event=tick)
    except GameVoided as voided:
        return voided.reason
    return None


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
    void = await _play_or_void(referee, agents, writer, limits)
    _note_handovers(writer, agents)
    writer.finish(result_of(referee, void))
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
