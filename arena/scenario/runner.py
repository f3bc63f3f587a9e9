"""Play a scenario: drive the referee with the script, defaults and refusals.

The runner answers each batch of requests in seat order: a scripted answer when one
matches, otherwise the request's own `default` (the passive choice documented in
docs/scenarios.md). A default the rules do not allow as an answer (an empty knife where
wolves may not skip) is applied the way the arena applies a timeout: as a recorded
`ActionDefaulted`. The run stops as soon as the scenario's check point has passed.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from arena.rules import events as ev
from arena.rules.actions import Action
from arena.rules.decisions import DecisionKind, DecisionRequest, check_legal
from arena.rules.errors import IllegalActionError
from arena.rules.referee import Referee
from arena.rules.roles import in_pack, spec
from arena.rules.types import Phase, SeatId
from arena.scenario.model import Refusal, Scenario
from arena.scenario.notation import DECISION_KINDS, CheckPoint, format_action, phase_key

SCENARIO_DEFAULT = "scenario: no scripted answer, the request's default"
"""The reason recorded when a default that is not a legal answer is applied."""


@dataclass(frozen=True, slots=True)
class Asked:
    """A request the referee issued, with its phase and the log length at that moment."""

    phase: str
    request: DecisionRequest
    at: int


@dataclass(frozen=True, slots=True)
class Run:
    """What a scenario's game did up to its check point."""

    events: tuple[ev.Event, ...]
    """The log cut at the check point."""
    phases: tuple[str, ...]
    """The phase label (`night N` / `day N`; `setup` before night 1) of each event."""
    asked: tuple[Asked, ...]
    """Requests issued before the check point."""
    problems: tuple[str, ...]
    """What went wrong while playing (refused script answers, unused entries, …)."""


class Timeline:
    """Labels events with their phase as they arrive and finds the check point's cut."""

    def __init__(self, point: CheckPoint) -> None:
        self.point = point
        self.phases: list[str] = []
        self.cut: int | None = None
        self._label = "setup"
        self._announced = False

    def feed(self, events: Sequence[ev.Event]) -> None:
        """Label the events not seen yet; record the cut when the point has passed."""
        for index in range(len(self.phases), len(events)):
            event = events[index]
            if isinstance(event, ev.PhaseStarted):
                if self.cut is None and self._passes(event):
                    self.cut = index
                night = event.phase is Phase.NIGHT
                self._label = f"{'night' if night else 'day'} {event.day}"
            self.phases.append(self._label)

    def _passes(self, event: ev.PhaseStarted) -> bool:
        kind, n = self.point.kind, self.point.day
        if kind == "night":
            return event.day == n and event.phase is not Phase.NIGHT
        if kind == "morning":
            if self._announced:
                return True
            self._announced = event.phase is Phase.ANNOUNCEMENT and event.day == n
            return False
        if kind == "exile":
            return event.phase is Phase.NIGHT and event.day == n + 1
        return False


class Cursor:
    """The script's answers, consumed in order; strict like a scripted test double."""

    def __init__(self, scenario: Scenario) -> None:
        self._wolves = frozenset(
            s for s, role in enumerate(scenario.deal, start=1) if in_pack(role) or spec(role).sealed
        )  # `wolves:` answers the pack (a raven claw once unsealed); a lone gargoyle has his own
        self._entries = scenario.script
        self._used = [0] * len(self._entries)
        self._index: dict[tuple[str, SeatId | None], list[int]] = defaultdict(list)
        for i, entry in enumerate(self._entries):
            self._index[(entry.phase, entry.seat)].append(i)

    def answers(self, phase: str, batch: tuple[DecisionRequest, ...]) -> dict[SeatId, Action]:
        """Scripted answers for a batch (seats without one are absent)."""
        found: dict[SeatId, Action] = {}
        team_used: set[int] = set()
        for request in batch:
            i = self._match(self._index[(phase, request.seat)], request)
            if i is None and request.seat in self._wolves:
                i = self._match(self._index[(phase, None)], request)
                if i is not None:
                    found[request.seat] = self._entries[i].actions[self._used[i]]
                    team_used.add(i)
                    continue
            if i is not None:
                found[request.seat] = self._entries[i].actions[self._used[i]]
                self._used[i] += 1
        for i in team_used:
            self._used[i] += 1
        return found

    def _match(self, candidates: list[int], request: DecisionRequest) -> int | None:
        left = [i for i in candidates if self._used[i] < len(self._entries[i].actions)]
        for i in left:
            if self._entries[i].key == request.kind.value:
                return i
        for i in left:
            key = self._entries[i].key
            if key not in DECISION_KINDS and request.option(key) is not None:  # type: ignore[arg-type]
                return i
        return None

    def unused(self) -> list[str]:
        """Entries with answers never asked for."""
        return [
            f"{e.phase} {e.who} {e.key}: {format_action(e.actions[self._used[i]])}"
            for i, e in enumerate(self._entries)
            if self._used[i] < len(e.actions) and not e.optional
        ]


@dataclass
class _Play:
    scenario: Scenario
    referee: Referee
    cursor: Cursor
    timeline: Timeline
    refusals: list[Refusal]
    asked: list[Asked] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    batches: defaultdict[tuple[str, DecisionKind], int] = field(
        default_factory=lambda: defaultdict(int)
    )
    """How many batches with a request of each kind each phase has had so far."""

    def step(self) -> bool:
        """Answer one batch; False when the run must stop."""
        batch = self.referee.pending()
        phase = batch[0].phase_label
        at = len(self.referee.events)
        self.asked.extend(Asked(phase, request, at) for request in batch)
        if not self._refusals(phase, batch):
            return False
        scripted = self.cursor.answers(phase, batch)
        for request in batch:
            if not self._submit(phase, request, scripted.get(request.seat)):
                return False
        return True

    def _submit(self, phase: str, request: DecisionRequest, action: Action | None) -> bool:
        if action is None:
            try:
                check_legal(request, request.default)
                self.referee.submit(request.seat, request.default)
            except IllegalActionError:
                self.referee.submit(request.seat, request.default, defaulted=SCENARIO_DEFAULT)
            return True
        try:
            self.referee.submit(request.seat, action)
        except IllegalActionError as exc:
            self.problems.append(
                f"{phase} seat {request.seat} {request.kind}: scripted "
                f"'{format_action(action)}' was refused: {exc}"
            )
            return False
        return True

    def _refusals(self, phase: str, batch: tuple[DecisionRequest, ...]) -> bool:
        kinds = {request.kind for request in batch}
        for kind in kinds:
            self.batches[(phase, kind)] += 1
        for refusal in list(self.refusals):
            if refusal.phase != phase or refusal.kind not in kinds:
                continue
            if self.batches[(phase, refusal.kind)] != refusal.nth:
                continue
            self.refusals.remove(refusal)
            tried = f"{phase} seat {refusal.seat} '{format_action(refusal.action)}'"
            try:
                self.referee.submit(refusal.seat, refusal.action)
            except IllegalActionError as exc:
                if refusal.error not in str(exc):
                    self.problems.append(
                        f"refused: {tried} was refused with {str(exc)!r}, "
                        f"which does not contain {refusal.error!r}"
                    )
                continue
            self.problems.append(f"refused: {tried} was accepted, expected a refusal")
            return False
        return True


def play(scenario: Scenario) -> Run:
    """Play `scenario` up to its check point and return the cut log and what went wrong.

    Raises:
        ArenaError: the scenario's game cannot be set up (checked when it was loaded).
    """
    referee = Referee(scenario.config, scenario.seed)
    timeline = Timeline(scenario.at)
    run = _Play(scenario, referee, Cursor(scenario), timeline, list(scenario.expect.refused))
    timeline.feed(referee.events)
    while not referee.finished and timeline.cut is None:
        if not run.step():
            break
        timeline.feed(referee.events)
    cut = timeline.cut if timeline.cut is not None else len(referee.events)
    problems = list(run.problems)
    if not problems:
        problems += _ended_early(scenario.at, referee.events, timeline.phases)
        problems += [f"script entry never used: {u}" for u in run.cursor.unused()]
        problems += [
            f"refused: no batch #{r.nth} of {r.kind} requests in {r.phase} to try seat "
            f"{r.seat}'s answer on"
            for r in run.refusals
        ]
    return Run(
        events=tuple(referee.events[:cut]),
        phases=tuple(timeline.phases[:cut]),
        asked=tuple(a for a in run.asked if a.at <= cut),
        problems=tuple(problems),
    )


def _ended_early(point: CheckPoint, events: Sequence[ev.Event], phases: Sequence[str]) -> list[str]:
    ended = [i for i, e in enumerate(events) if isinstance(e, ev.GameEnded)]
    if not ended or point.phase is None or point.or_end:
        return []
    where = phases[ended[0]]
    if phase_key(where) >= phase_key(point.phase):
        return []
    end = events[ended[0]]
    reason = end.reason if isinstance(end, ev.GameEnded) else ""
    return [f"the game ended in {where} ({reason}), before the check point {point}"]
