"""The skill dial: `noisy:P:SPEC`, an agent that answers a share P of its decisions at random.

SPEC plays the seat (any seat spec but a person), except that each decision is, with
probability P, answered instead by a uniformly random legal answer, drawn as the random
agent draws it (`arena.agents.random_agent.random_action`, with its two biases that keep
random games games). P = 0 is SPEC itself, P = 1 the random agent, and the shares between
make a ladder of agents whose order is known without a model (`noisy:0.1:bot` is stronger
than `noisy:0.3:bot`), on which the arena's verdicts are calibrated (docs/benchmarks.md).

Whether a decision is a noisy one, and the answer then, come from a generator seeded by
the seat's seed, the agent's full name (its spec as written, the name its games are rated
under) and the request alone (seat, step, the refusal being answered), never from Python's
global `random` or a stream shared across decisions. So a replay re-runs identically, a
resumed game answers as the uninterrupted one would, and two names draw apart:
`noisy:0.3:bot` and `noisy:0.30:bot` are one skill under two names, whose games differ
even where the two sit at the same seats of the same deal — the arena's A-against-A test.
"""

from __future__ import annotations

import random
import re
from typing import NamedTuple

from arena.agents.base import Agent, AgentReply
from arena.agents.random_agent import random_action
from arena.agents.traits import Wrapper
from arena.errors import ArenaError, clip
from arena.rules.decisions import DecisionRequest
from arena.rules.observation import Observation
from arena.text.catalog import Lang

PREFIX = "noisy:"
"""The seat-spec prefix of the skill dial."""

_SHARE = re.compile(r"^(0(\.\d+)?|1(\.0+)?|\.\d+)$")
"""A share as written: 0, 0.3, .3, 1, 1.0 (no sign, no exponent, nothing past 1)."""


class NoisySpec(NamedTuple):
    """A parsed `noisy:P:SPEC`: the share as written and the spec it wraps."""

    share: str
    inner: str


def is_noisy(spec: str) -> bool:
    """Whether `spec` is a `noisy:P:SPEC` (well formed or not)."""
    return spec.startswith(PREFIX)


def parse_noisy(spec: str) -> NoisySpec:
    """Split `noisy:P:SPEC` into its share and the spec it wraps.

    Only the dial's own part is checked here: the caller checks SPEC with the grammar of
    the place it is used (`arena play`'s seats, a tournament file's agents).

    Raises:
        ArenaError: the share is not a number from 0 to 1, SPEC is missing, names a person,
            or is itself noisy (one dial per seat).
    """
    share, sep, inner = spec.removeprefix(PREFIX).partition(":")
    if not _SHARE.match(share):
        raise ArenaError(
            f"bad agent spec {clip(repr(spec))}: the share in noisy:P:SPEC must be a number "
            "from 0 to 1, e.g. noisy:0.3:bot"
        )
    if not sep or not inner:
        raise ArenaError(
            f"bad agent spec {clip(repr(spec))}: name the agent after the share, e.g. noisy:0.3:bot"
        )
    if inner == "human" or inner.startswith("human:"):
        raise ArenaError(f"bad agent spec {clip(repr(spec))}: a person's answers are not noisy")
    if is_noisy(inner):
        raise ArenaError(f"bad agent spec {clip(repr(spec))}: one noisy: per agent")
    return NoisySpec(share, inner)


def strip_noise(spec: str) -> str:
    """The spec a `noisy:P:SPEC` wraps (`spec` itself when it is not noisy)."""
    return spec.removeprefix(PREFIX).partition(":")[2] if is_noisy(spec) else spec


class Noisy(Wrapper):
    """Another agent, except a seeded share of its decisions answered at random.

    What else the seat is (`model`, `chat`, `believe`, …) is the inner agent's, found
    through the wrapper (`arena.agents.traits.trait`).
    """

    def __init__(self, inner: Agent, share: float, seed: int, name: str, lang: Lang = "zh") -> None:
        """Wrap `inner`.

        Args:
            inner: the agent that answers the other decisions.
            share: the probability that a decision is answered at random (0 to 1).
            seed: the seat's seed (`arena.agents.seats.seat_seed`).
            name: the agent's full name, its spec as written (`noisy:0.3:bot`).
            lang: the game's language, the random answers' words (a speech, a whisper).
        """
        super().__init__(inner)
        self._lang: Lang = lang
        self._share = share
        self._seed = seed
        self._name = name

    @property
    def name(self) -> str:
        """The spec as written, `noisy:0.3:bot`: the name its games are rated under."""
        return self._name

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        """A random legal answer for a drawn share of requests; the inner agent's otherwise."""
        key = f"noisy/{self._seed}/{self._name}/{request.seat}/{request.step}/{feedback or ''}"
        rng = random.Random(key)
        if rng.random() < self._share:
            return AgentReply(action=random_action(request, rng, self._lang))
        return await self.inner.decide(view, request, feedback)
