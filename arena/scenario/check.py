"""Compare a scenario's expectations with what its game did, in a fixed order.

Every check reads the log cut at the check point: the state is folded from it, what a
seat learned comes from `observe` (the one projection), and deaths come from the
referee-only `PlayerDied` events, which carry the cause.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from arena.rules import events as ev
from arena.rules.observation import observe
from arena.rules.state import GameState, replay
from arena.rules.visibility import SeatViewer
from arena.scenario.model import AskMatch, EventMatch, Expect, Scenario
from arena.scenario.notation import Death
from arena.scenario.runner import Asked, Run


def mismatches(scenario: Scenario, run: Run) -> list[str]:
    """Every expectation that does not hold, in the documented order (empty: it passes)."""
    state = replay(len(scenario.deal), run.events)
    expect = scenario.expect
    found: list[str] = []
    for check in _CHECKS:
        found += check(expect, run, state)
    return found


def _deaths(expect: Expect, run: Run, state: GameState) -> list[str]:
    if expect.deaths is None:
        return []
    got = sorted(
        (
            Death(e.seat, e.cause, e.at_night, e.day)
            for e in run.events
            if isinstance(e, ev.PlayerDied)
        ),
        key=_death_key,
    )
    wanted = sorted(expect.deaths, key=_death_key)
    if got == wanted:
        return []
    return [f"deaths: expected {_list(wanted)}, got {_list(got)}"]


def _death_key(death: Death) -> tuple[int, int, int]:
    return (death.day, 0 if death.at_night else 1, death.seat)


def _alive(expect: Expect, run: Run, state: GameState) -> list[str]:
    found = []
    living = list(state.living())
    if expect.alive is not None and sorted(expect.alive) != living:
        found.append(f"alive: expected {sorted(expect.alive)}, got {living}")
    dead = sorted(s for s in expect.alive_includes if not state.is_alive(s))
    if dead:
        found.append(f"alive_includes: {dead} dead, living {living}")
    alive = sorted(s for s in expect.dead_includes if state.is_alive(s))
    if alive:
        found.append(f"dead_includes: {alive} alive, living {living}")
    return found


def _triggers(expect: Expect, run: Run, state: GameState) -> list[str]:
    """Whether each seat was offered its death trigger (`shoot`) after it died."""
    found = []
    for seat, wanted in sorted(expect.triggers.items()):
        died = next(
            (
                i
                for i, e in enumerate(run.events)
                if isinstance(e, ev.PlayerDied) and e.seat == seat
            ),
            None,
        )
        if died is None:
            found.append(f"triggers: seat {seat} did not die")
            continue
        offered = any(
            a.request.seat == seat and a.at > died and a.request.option("shoot") is not None
            for a in run.asked
        )
        if offered != wanted:
            verb = "could" if offered else "could not"
            found.append(f"triggers: seat {seat} {verb} use its death trigger")
    return found


def _sheriff(expect: Expect, run: Run, state: GameState) -> list[str]:
    if expect.sheriff is None:
        return []
    got = state.sheriff if state.sheriff is not None else "none"
    return [] if got == expect.sheriff else [f"sheriff: expected {expect.sheriff}, got {got}"]


def _exiles(expect: Expect, run: Run, state: GameState) -> list[str]:
    found = []
    for day, wanted in sorted(expect.exiles.items()):
        got = [
            e.seat
            for e, phase in zip(run.events, run.phases, strict=True)
            if isinstance(e, ev.PlayerExiled) and phase == f"day {day}"
        ]
        if isinstance(wanted, tuple):
            if len(got) != 1 or got[0] not in wanted:
                shown = ", ".join(map(str, got)) or "none"
                found.append(f"exiles: day {day}: expected one of {list(wanted)}, got {shown}")
            continue
        expected = [] if wanted == "none" else [wanted]
        if got != expected:
            shown = ", ".join(map(str, got)) or "none"
            found.append(f"exiles: day {day}: expected {wanted}, got {shown}")
    return found


def _winner(expect: Expect, run: Run, state: GameState) -> list[str]:
    if expect.winner is None:
        return []
    got = state.winner.value if state.winner is not None else "none"
    return [] if got == expect.winner else [f"winner: expected {expect.winner}, got {got}"]


def _last_words(expect: Expect, run: Run, state: GameState) -> list[str]:
    if expect.last_words is None:
        return []
    got = sorted(
        e.seat for e in run.events if isinstance(e, ev.Spoke) and e.context == "last_words"
    )
    if got == sorted(expect.last_words):
        return []
    return [f"last_words: expected {sorted(expect.last_words)}, got {got}"]


def _learned(expect: Expect, run: Run, state: GameState) -> list[str]:
    found = []
    for negate, table in ((False, expect.learned), (True, expect.not_learned)):
        for seat, matchers in sorted(table.items()):
            seen = observe(run.events, SeatViewer(seat=seat)).seen
            events = [s.event for s in seen]
            phases = [run.phases[s.seq] for s in seen]
            for matcher in matchers:
                problem = _count(matcher, events, phases, negate)
                if problem:
                    name = "not_learned" if negate else "learned"
                    found.append(f"{name}: seat {seat} saw {problem}")
    return found


def _events(expect: Expect, run: Run, state: GameState) -> list[str]:
    found = []
    for negate, matchers in ((False, expect.events), (True, expect.no_events)):
        for matcher in matchers:
            problem = _count(matcher, run.events, run.phases, negate)
            if problem:
                found.append(f"{'no_events' if negate else 'events'}: the log has {problem}")
    return found


def _sequence(expect: Expect, run: Run, state: GameState) -> list[str]:
    position = 0
    for matcher in expect.sequence:
        while position < len(run.events) and not _event_matches(
            matcher, run.events[position], run.phases[position]
        ):
            position += 1
        if position == len(run.events):
            return [f"sequence: no {matcher} after the events before it"]
        position += 1
    return []


def _count(
    matcher: EventMatch, events: Sequence[ev.Event], phases: Sequence[str], negate: bool
) -> str | None:
    n = sum(
        1
        for event, phase in zip(events, phases, strict=True)
        if _event_matches(matcher, event, phase)
    )
    wanted = 0 if negate else matcher.count
    if wanted is None:
        return None if n >= 1 else f"no {matcher}"
    return None if n == wanted else f"{n} × {matcher}, expected {wanted}"


def _event_matches(matcher: EventMatch, event: ev.Event, phase: str) -> bool:
    if event.kind != matcher.kind or (matcher.phase is not None and phase != matcher.phase):
        return False
    data = event.model_dump(mode="json")
    return all(_same(data.get(name), value) for name, value in matcher.fields.items())


def _same(got: Any, wanted: Any) -> bool:
    if isinstance(got, list) and isinstance(wanted, list | tuple):
        return len(got) == len(wanted) and all(map(_same, got, wanted))
    if isinstance(got, dict) and isinstance(wanted, dict):
        return got.keys() == {str(k) for k in wanted} and all(
            _same(got[str(k)], v) for k, v in wanted.items()
        )
    return bool(got == wanted)


def _asked(expect: Expect, run: Run, state: GameState) -> list[str]:
    found = []
    for negate, table in ((False, expect.asked), (True, expect.not_asked)):
        for seat, matchers in sorted(table.items()):
            mine = [a for a in run.asked if a.request.seat == seat]
            for matcher in matchers:
                hit = any(_ask_matches(matcher, asked) for asked in mine)
                if hit == negate:
                    verb = "was asked" if negate else "was never asked"
                    found.append(
                        f"{'not_asked' if negate else 'asked'}: seat {seat} {verb} {matcher}"
                    )
    return found


def _ask_matches(matcher: AskMatch, asked: Asked) -> bool:
    request = asked.request
    if matcher.kind is not None and request.kind is not matcher.kind:
        return False
    if matcher.phase is not None and asked.phase != matcher.phase:
        return False
    if matcher.context is not None and request.context != matcher.context:
        return False
    if matcher.action is None:
        return True
    option = request.option(matcher.action)  # type: ignore[arg-type]
    if option is None:
        return False
    return matcher.targets is None or sorted(option.targets) == sorted(matcher.targets)


def _list(deaths: Sequence[Death]) -> str:
    return "[" + ", ".join(map(str, deaths)) + "]" if deaths else "none"


_CHECKS: tuple[Callable[[Expect, Run, GameState], list[str]], ...] = (
    _deaths,
    _alive,
    _triggers,
    _sheriff,
    _exiles,
    _winner,
    _last_words,
    _learned,
    _asked,
    _events,
    _sequence,
)
