"""A Python agent for Werewolf Arena: copy this file and make the choices your own.

From this folder, check it (`arena agent check py:python_agent:make_agent`), then seat it
(`arena play --seat 3=py:python_agent:make_agent --lang en`).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from arena.api import (
    CONTRACT_VERSION,
    AgentReply,
    BeliefReport,
    DecisionRequest,
    Observation,
    actions,
    events,
)

assert CONTRACT_VERSION == 1, "written for version 1 of the agent contract"

AIMED = {"vote", "kill", "inspect", "poison", "shoot", "pass_badge"}
"""Options that name one seat and that this agent aims at the table's top suspect."""


class SuspicionAgent:
    """Names whom the table suspects most; speaks to say so; otherwise plays safe."""

    name = "suspicion-1"

    def __init__(self, seed: int = 0, options: dict[str, Any] | None = None) -> None:
        self.rng = random.Random(seed)
        self.words = (options or {}).get("words", "I suspect seat {seat}.")

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        """One answer to `request`; `feedback` says why the last one was refused."""
        if feedback is not None and request.kind != "knife":  # refused: take the default
            return AgentReply(action=request.default)  # (legal but for a knife: no kill)
        ranked = self.suspects(view)
        for option in request.options:
            if option.action == "speak" and ranked:
                text = self.words.format(seat=ranked[0])
                claims = actions.Claims(suspects=(ranked[0],))
                return AgentReply(action=actions.Speak(text=text, claims=claims))
            if option.action in AIMED and option.targets:
                choice = next((s for s in ranked if s in option.targets), None)
                target = choice or self.rng.choice(option.targets)
                action = actions.parse_action({"kind": option.action, "target": target})
                return AgentReply(action=action)
        return AgentReply(action=request.default)

    async def believe(self, view: Observation) -> BeliefReport | None:
        """Optional: each other seat's chance of being a wolf, from the table's suspicion."""
        me, seats = view.viewer.seat, view.knowledge.seats  # type: ignore[union-attr]
        others = [s for s in range(1, seats + 1) if s != me and s not in view.knowledge.out]
        if not others:
            return None
        votes = self.suspicion(view)
        total = sum(votes[s] + 1 for s in others)
        return BeliefReport(
            seat=me,
            day=view.knowledge.day,
            after_seq=view.log_length,
            wolf_probability={s: (votes[s] + 1) / total for s in others},
        )

    def suspicion(self, view: Observation) -> Counter[int]:
        """How often each seat was named a suspect in the speeches this seat heard."""
        return Counter(
            seat
            for seen in view.seen
            if isinstance(seen.event, events.Spoke)
            for seat in seen.event.claims.suspects
        )

    def suspects(self, view: Observation) -> list[int]:
        """Seats by suspicion, most first, leaving out itself and the cards it knows.

        Before anyone has named a suspect, a seeded hunch: one seat still in the game.
        """
        known = set(view.knowledge.roles)  # its own card, and its fellow wolves' if a wolf
        known |= {view.viewer.seat, *view.knowledge.out}  # type: ignore[union-attr]
        ranked = [s for s, _ in self.suspicion(view).most_common() if s not in known]
        others = [s for s in range(1, view.knowledge.seats + 1) if s not in known]
        return ranked or ([self.rng.choice(others)] if others else [])


def make_agent(seed: int = 0, options: dict[str, Any] | None = None) -> SuspicionAgent:
    """The factory a seat spec names: called once per seat, with the arguments it takes."""
    return SuspicionAgent(seed, options)
