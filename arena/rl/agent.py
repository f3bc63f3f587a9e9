"""`PolicyAgent`: a policy trained in `WerewolfEnv`, sitting at a real table as an `Agent`.

The agent folds its seat's `Observation` with the environment's own `Tracker` and masks
the request with the environment's own `legal_mask`, so the policy is shown exactly what it
was trained on: the same vector, the same mask, the same action indices. Its index becomes
an `Action` as in the environment. A policy that picks an index outside the mask gets the
arena's usual treatment of a refused answer: it is asked again with the reason as
`feedback` (a policy may ignore it), then the request's default is recorded.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from arena.agents.base import AgentReply
from arena.rl.codec import legal_mask, to_action
from arena.rl.observation import Tracker
from arena.rules.decisions import DecisionRequest
from arena.rules.observation import Observation
from arena.rules.visibility import SeatViewer
from arena.transcript import Lang

EnvObservation = dict[str, npt.NDArray[np.int8]]
Policy = Callable[[EnvObservation], int]
"""A policy: the environment's observation (`observation`, `action_mask`) → an action index."""


class PolicyAgent:
    """An `Agent` that answers with `policy`'s action index."""

    def __init__(self, policy: Policy, *, lang: Lang = "en", label: str = "rl-policy") -> None:
        """Seat `policy`; `lang` is the language its speeches are rendered in."""
        self._policy = policy
        self._lang: Lang = lang
        self._label = label
        self._tracker: Tracker | None = None
        self._seat = 0

    @property
    def name(self) -> str:
        """The label the replay header shows."""
        return self._label

    def observation(self, view: Observation, request: DecisionRequest) -> EnvObservation:
        """What the environment would show this seat now: its vector and the request's mask."""
        if not isinstance(view.viewer, SeatViewer):
            raise TypeError("a policy plays a seat: its view must be a seat's")
        seat = view.viewer.seat
        if self._tracker is None or seat != self._seat or self._tracker.read > len(view.seen):
            self._tracker, self._seat = Tracker((seat,)), seat
        self._tracker.feed(view.events)
        k = view.knowledge
        return {
            "observation": self._tracker.vector(seat, request),
            "action_mask": legal_mask(request, k.seats, tuple(k.role_counts)),
        }

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        """The policy's choice for `request`, as an `Action`."""
        obs = self.observation(view, request)
        index = int(self._policy(obs))
        if not 0 <= index < len(obs["action_mask"]) or not obs["action_mask"][index]:
            return AgentReply(action=None, error=f"action {index} is not in the action mask")
        return AgentReply(action=to_action(index, request, self._lang))


def random_policy(seed: int = 0) -> Policy:
    """A policy that picks uniformly among the legal indices (a baseline, and the example)."""
    rng = np.random.default_rng(seed)

    def policy(obs: EnvObservation) -> int:
        legal = np.flatnonzero(obs["action_mask"])
        return int(legal[rng.integers(len(legal))])

    return policy
