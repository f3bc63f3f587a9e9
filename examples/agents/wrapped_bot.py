"""Plug-ins built on the arena's own bot, from `arena.api` alone: copy one and change it.

    PYTHONPATH=examples/agents arena play --seat 1-3=py:wrapped_bot:noisy_bot
        --seat 4-6=py:wrapped_bot:voting_bot       (one line)

- `noisy_bot`: the bot, with a share of its decisions (`options: {share: 0.3}`) answered
  by a random legal answer, drawn per request so a game re-runs the same;
- `voting_bot`: the bot, except that its exile vote is its own: here it votes for the
  seat the speeches it heard named a suspect most often (put your learned vote there).

Each holds the bot `make_bot` builds for its seat (the very bot `--seat N=bot` seats) and
hands it every decision it does not take, and its belief reports.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from arena.api import (
    AgentLang,
    AgentReply,
    BeliefReport,
    DecisionRequest,
    Observation,
    actions,
    events,
    make_bot,
    random_answer,
)


class NoisyBot:
    """The bot, a seeded share of its decisions answered at random instead."""

    name = "noisy-bot"

    def __init__(self, seed: int, lang: AgentLang, share: float) -> None:
        self.bot = make_bot(seed, lang)
        self.seed, self.lang, self.share = seed, lang, share

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        """A random legal answer for a drawn share of requests; the bot's otherwise."""
        rng = random.Random(f"{self.seed}/{request.seat}/{request.step}/{feedback or ''}")
        if rng.random() < self.share:
            return AgentReply(action=random_answer(request, rng, self.lang))
        return await self.bot.decide(view, request, feedback)

    async def believe(self, view: Observation) -> BeliefReport | None:
        """The bot's own belief report."""
        return await self.bot.believe(view)


class VotingBot:
    """The bot, with an exile vote of its own."""

    name = "voting-bot"

    def __init__(self, seed: int, lang: AgentLang) -> None:
        self.bot = make_bot(seed, lang)

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        """Its own vote where it has one; the bot's answer to everything else."""
        option = request.option("vote")
        if request.kind == "vote" and option is not None and feedback is None:
            named = Counter(
                seat
                for seen in view.seen
                if isinstance(seen.event, events.Spoke)
                for seat in seen.event.claims.suspects
                if seat in option.targets
            )
            if named:
                return AgentReply(action=actions.Vote(target=named.most_common(1)[0][0]))
        return await self.bot.decide(view, request, feedback)

    async def believe(self, view: Observation) -> BeliefReport | None:
        """The bot's own belief report."""
        return await self.bot.believe(view)


def noisy_bot(
    seed: int = 0, lang: AgentLang = "zh", options: dict[str, Any] | None = None
) -> NoisyBot:
    """The factory a seat spec names (`py:wrapped_bot:noisy_bot`)."""
    return NoisyBot(seed, lang, float((options or {}).get("share", 0.3)))


def voting_bot(seed: int = 0, lang: AgentLang = "zh") -> VotingBot:
    """The factory a seat spec names (`py:wrapped_bot:voting_bot`)."""
    return VotingBot(seed, lang)
