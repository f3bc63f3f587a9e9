"""Pacing: a game with people hides how fast its seats answer (on a fake clock).

Every test here runs on an injected clock that moves only when the pacer sleeps, so
the lengths asserted are the pacer's own arithmetic, never wall-clock measurements.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Sequence
from pathlib import Path

from arena.agents.base import AgentReply, TimeLimited
from arena.agents.browser import BrowserSeat
from arena.humans.host import host_game
from arena.humans.lobby import create_game
from arena.humans.pace import Pacer, paced
from arena.llm.types import ModelCallRecord
from arena.replay_check import check_replay
from arena.rules import events as ev
from arena.rules.actions import Pass
from arena.rules.decisions import ActionOption, DecisionKind, DecisionRequest
from arena.rules.observation import Observation, Seen, observe
from arena.rules.visibility import SeatViewer
from arena.storage.desk import MemoryDesk, Pace
from arena.storage.replay_file import read_replay
from tests.humans.test_hosted_game import SEED, person, plans

PACE = Pace(night_s=30.0, step_s=2.0, window_s=5.0)


class FakeClock:
    """Time that passes only when someone sleeps (concurrent sleepers overlap)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        until = self.now + seconds
        await asyncio.sleep(0)
        self.now = max(self.now, until)


def request(kind: DecisionKind, *, night: bool, step: int = 0) -> DecisionRequest:
    return DecisionRequest(
        step=step,
        seat=1,
        kind=kind,
        day=1,
        night=night,
        options=(ActionOption(action="pass"),),
        default=Pass(),
    )


def view() -> Observation:
    return observe([], SeatViewer(seat=1))


class Instant:
    """An agent that answers at once (a bot), and counts how often it was asked."""

    name = "bot"

    def __init__(self) -> None:
        self.asked = 0

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        self.asked += 1
        return AgentReply(action=request.default)


def test_a_night_answer_is_held_to_the_step_and_a_window_to_its_length() -> None:
    clock = FakeClock()
    pacer = Pacer(PACE, clock=clock, sleep=clock.sleep)
    agent = paced(Instant(), pacer)
    cases = [
        (request(DecisionKind.SEER, night=True), 2.0),
        (request(DecisionKind.INTERRUPT, night=False), 5.0),
        (request(DecisionKind.VOTE, night=False), 0.0),
    ]
    for asked, floor in cases:
        before = clock.now
        asyncio.run(agent.decide(view(), asked))
        assert clock.now - before == floor, asked.kind


def test_what_follows_a_night_waits_for_the_night_floor_then_is_released_once() -> None:
    clock = FakeClock()
    pacer = Pacer(PACE, clock=clock, sleep=clock.sleep)
    released: list[float] = []
    pacer.on_release = lambda: released.append(clock.now)
    pacer.batch((request(DecisionKind.SEER, night=True),))
    clock.now = 7.0  # the night's steps took 7 s
    pacer.batch((request(DecisionKind.VOTE, night=False, step=5),))
    assert pacer.held()
    agents = [paced(Instant(), pacer) for _ in range(3)]

    async def day() -> None:
        vote = request(DecisionKind.VOTE, night=False, step=5)
        await asyncio.gather(*(a.decide(view(), vote) for a in agents))

    asyncio.run(day())
    assert released == [30.0] and clock.now == 30.0 and not pacer.held()


def test_a_paced_model_seat_keeps_its_own_time_limit_plus_the_longest_hold() -> None:
    class Timed(Instant):
        decision_timeout_s = 60.0

        def pending_traces(self) -> tuple[ModelCallRecord, ...]:
            return ()

    pacer = Pacer(PACE)
    limited = paced(Timed(), pacer)
    assert isinstance(limited, TimeLimited)
    assert limited.decision_timeout_s == 60.0 + 30.0 + 5.0
    assert not hasattr(paced(Instant(), pacer), "decision_timeout_s")


def test_silence_in_a_self_explosion_window_is_no_explosion_not_a_timeout() -> None:
    desk = MemoryDesk()
    seat = BrowserSeat(
        desk, "g", 1, "ann", Instant(), window_s=0.02, poll_s=0.005, handover_after=1
    )
    window = request(DecisionKind.INTERRUPT, night=False)
    reply = asyncio.run(seat.decide(view(), window))
    assert reply.action == Pass() and reply.error is None
    assert seat.handover is None, "a closed window is not a step towards the handover"
    late = asyncio.run(
        BrowserSeat(desk, "g", 1, "ann", Instant(), decision_timeout_s=0.02, poll_s=0.005).decide(
            view(), request(DecisionKind.VOTE, night=False, step=1)
        )
    )
    assert late.action is None and late.error


def test_every_night_and_every_window_lasts_the_same_however_the_seats_answer(
    tmp_path: Path,
) -> None:
    """A whole paced game: the table sees nights of exactly `night_s`, windows of `window_s`.

    The person answers in real time, which the fake clock does not count, so every
    seat answers "at once"; what the pages see is then the pace alone — the same
    length for a night with a dead witch as for one with every role acting.
    """
    clock = FakeClock()
    published: dict[int, float] = {}

    class Recording(MemoryDesk):
        def append_view(self, game_id: str, seat: int, lines: list[str]) -> None:
            for line in lines:
                published.setdefault(json.loads(line)["seq"], clock.now)
            super().append_view(game_id, seat, lines)

    desk = Recording()
    game, tokens = create_game(desk, "std9", plans({2: "ann"}), lang="en", pace=PACE)

    async def main() -> Path:
        pacer = Pacer(PACE, clock=clock, sleep=clock.sleep)
        path, _ = await asyncio.gather(
            host_game(desk, game, tmp_path / "r", tmp_path / "l", seed=SEED, poll_s=0.005,
                      pacer=pacer),
            person(desk, game, 2, tokens[2], random.Random(2), []),
        )  # fmt: skip
        return path

    path = asyncio.run(main())
    assert check_replay(path).ok
    events = read_replay(path).events
    phases = [(s.seq, s.event) for s in _seen(events, 2) if isinstance(s.event, ev.PhaseStarted)]
    nights = [
        published[after[0]] - published[start[0]]
        for start, after in zip(phases, phases[1:], strict=False)
        if start[1].phase == "night"
    ]
    assert len(nights) >= 2 and set(nights) == {PACE.night_s}, nights
    speeches: list[tuple[int, float]] = []
    day = 0
    for seen in _seen(events, 2):
        if isinstance(seen.event, ev.PhaseStarted):
            day = seen.event.day
        elif isinstance(seen.event, ev.Spoke) and seen.event.context == "day":
            speeches.append((day, published[seen.seq]))
    gaps = {b[1] - a[1] for a, b in zip(speeches, speeches[1:], strict=False) if a[0] == b[0]}
    assert gaps == {PACE.window_s}, gaps


def _seen(events: Sequence[ev.Event], seat: int) -> tuple[Seen, ...]:
    return observe(events, SeatViewer(seat=seat)).seen


def test_an_explosion_armed_during_a_speech_is_the_next_windows_answer() -> None:
    """The Play page's standing action: armed on the desk, taken at once by the window."""
    from arena.humans.access import arm, disarm
    from arena.rules.actions import SelfExplode
    from arena.storage.desk import SeatPlan

    desk = MemoryDesk()
    plans = {n: SeatPlan(kind="human" if n == 1 else "bot") for n in range(1, 10)}
    game, tokens = create_game(desk, "std9", plans)
    seat = BrowserSeat(desk, game, 1, "ann", Instant(), window_s=5.0, poll_s=0.005)
    window = request(DecisionKind.INTERRUPT, night=False).model_copy(
        update={"options": (ActionOption(action="self_explode"), ActionOption(action="pass"))}
    )
    arm(desk, game, 1, tokens[1], SelfExplode())
    disarm(desk, game, 1, tokens[1])
    arm(desk, game, 1, tokens[1], SelfExplode())
    reply = asyncio.run(asyncio.wait_for(seat.decide(view(), window), 1.0))  # not the 5 s
    assert reply.action == SelfExplode()
    assert desk.take(game, 1, -1) is None, "an armed answer is used once"
