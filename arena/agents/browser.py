"""`BrowserSeat`: the agent of a person playing from a browser page.

It publishes the pending decision (the `DecisionRequest` with its legal options and a
deadline) on the game's `Desk`, then waits for the person's answer in the seat's inbox.
An answer the rules refuse is sent back as feedback and the person may answer again
until the deadline; a person who is late gets the request's recorded default (the runner
records `ActionDefaulted`). After `handover_after` timeouts in a row the seat is handed to
a bot for the rest of the game, and the handover is noted in the replay header.

A self-explosion window (`DecisionKind.INTERRUPT`, after every speech) lasts `window_s`
when the game is paced (`arena.humans.pace`): the person may explode until then, and
silence there is their "no explosion" (the request's passive answer, recorded as theirs),
neither a late answer nor a step towards the handover. An answer the person armed during
a speech (`access.arm`, the Play page's standing action) is the window's answer.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from arena.agents.base import Agent, AgentReply
from arena.rules.actions import parse_action
from arena.rules.decisions import DecisionKind, DecisionRequest, check_legal
from arena.rules.errors import IllegalActionError, InvalidActionError
from arena.rules.observation import Observation
from arena.storage.desk import STANDING_STEP, Desk, Pending
from arena.storage.replay_file import SeatHandover


class BrowserSeat:
    """A person's seat, answered through the game's inbox."""

    def __init__(
        self,
        desk: Desk,
        game_id: str,
        seat: int,
        person: str,
        fallback: Agent,
        *,
        decision_timeout_s: float = 180.0,
        speech_timeout_s: float = 300.0,
        handover_after: int = 2,
        window_s: float = 0.0,
        poll_s: float = 0.1,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.desk = desk
        self.game_id = game_id
        self.seat = seat
        self.person = person
        self.fallback = fallback
        self.decision_timeout_s = decision_timeout_s
        self.speech_timeout_s = speech_timeout_s
        self.handover_after = handover_after
        self.window_s = window_s
        self.poll_s = poll_s
        self._clock = clock
        self._late_steps: set[int] = set()
        self._late_in_a_row = 0
        self.handover: SeatHandover | None = None

    @property
    def name(self) -> str:
        """`human:<name>`: the person's stable chosen name, rated like any agent."""
        return f"human:{self.person}"

    def _is_window(self, request: DecisionRequest) -> bool:
        return self.window_s > 0 and request.kind is DecisionKind.INTERRUPT

    def _timeout(self, request: DecisionRequest) -> float:
        if self._is_window(request):
            return self.window_s
        text = request.kind in (DecisionKind.SPEECH, DecisionKind.WOLF_TALK)
        return self.speech_timeout_s if text else self.decision_timeout_s

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        """Wait for the person's answer to `request` until its deadline."""
        if request.step in self._late_steps:
            return AgentReply(action=None, error="the person did not answer in time", late=True)
        if self.handover is not None:
            return await self.fallback.decide(view, request, feedback)
        deadline = self._clock() + self._timeout(request)
        self.desk.set_pending(
            self.game_id, self.seat, Pending(request=request, deadline=deadline, feedback=feedback)
        )
        try:
            while self._clock() < deadline:
                raw = self.desk.take(self.game_id, self.seat, request.step)
                if raw is None and request.kind is DecisionKind.INTERRUPT:
                    raw = self.desk.take(self.game_id, self.seat, STANDING_STEP)  # armed
                if raw is not None:
                    try:
                        action = parse_action(raw)
                        check_legal(request, action)
                    except (InvalidActionError, IllegalActionError) as exc:
                        refused = Pending(request=request, deadline=deadline, feedback=str(exc))
                        self.desk.set_pending(self.game_id, self.seat, refused)
                        continue
                    self._late_in_a_row = 0
                    return AgentReply(action=action)
                await asyncio.sleep(self.poll_s)
        finally:
            self.desk.set_pending(self.game_id, self.seat, None)
        if self._is_window(request):
            return AgentReply(action=request.default)  # the window closed: no explosion
        return self._late(request)

    def _late(self, request: DecisionRequest) -> AgentReply:
        self._late_steps.add(request.step)
        self._late_in_a_row += 1
        if self._late_in_a_row >= self.handover_after:
            self.handover = SeatHandover(
                seat=self.seat,
                step=request.step + 1,
                agent=self.fallback.name,
                reason=f"{self._late_in_a_row} decisions in a row without an answer",
            )
        timeout = self._timeout(request)
        return AgentReply(action=None, error=f"no answer within {timeout:g} s", late=True)
