"""The bot's handlers: one per decision kind, the table `BotAgent.choose` looks a kind up in.

Each handler takes one `Turn` (the bot's reading of its view, the request, and the
decision's own dice) and returns the bot's action; the play itself lives in the modules
the handlers call (`day`, `night`, `speech`, `wolves`). A decision kind the arena adds
needs a row here: `tests/agents/bot/test_bot.py` fails on a kind without one.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import NamedTuple

from arena.agents.bot import day, night, speech, wolves
from arena.agents.bot.reading import Reading
from arena.rules.actions import Action, Pass
from arena.rules.decisions import DecisionKind as K
from arena.rules.decisions import DecisionRequest
from arena.rules.types import Role
from arena.text import Lang


class Turn(NamedTuple):
    """One decision as a handler takes it."""

    r: Reading
    """The bot's reading of its own view."""
    request: DecisionRequest
    rng: random.Random
    """This decision's own dice (`arena.agents.bot.chance.dice`)."""
    seed: int
    """The bot's seed (for choices kept across a whole game, such as a wolf's plan)."""
    lang: Lang
    """The language of the bot's words."""


Handler = Callable[[Turn], Action]


def _speech(t: Turn) -> Action:
    """A wolf's self-explosion or a knight's duel if due, else the speech."""
    skill = wolves.explosion(t.r, t.request, t.seed) or day.duel(t.r, t.request)
    return skill or speech.speak(t.r, t.request, t.rng, t.lang)


def _interrupt(t: Turn) -> Action:
    """The window after a speech: a self-explosion or a duel if due, else let it pass."""
    return wolves.explosion(t.r, t.request, t.seed) or day.duel(t.r, t.request) or Pass()


def _identify(t: Turn) -> Action:
    """The pure white maiden checks as a seer does; other identifiers identify."""
    if t.r.role is Role.PURE_WHITE_MAIDEN:
        return night.seer(t.r, t.request, t.rng)
    return night.identify(t.r, t.request, t.rng)


HANDLERS: dict[K, Handler] = {
    K.RUN_FOR_SHERIFF: lambda t: day.run_for_sheriff(t.r, t.request, t.rng),
    K.WITHDRAW: lambda t: day.withdraw(t.r, t.request, t.seed, t.rng),
    K.SHERIFF_VOTE: lambda t: day.sheriff_vote(t.r, t.request, t.rng),
    K.SPEECH: _speech,
    K.INTERRUPT: _interrupt,
    K.SPEECH_ORDER: lambda t: day.speech_order(t.r, t.request, t.rng),
    K.RECOMMEND: lambda t: day.recommend(t.r, t.request, t.rng),
    K.VOTE: lambda t: day.vote(t.r, t.request, t.rng),
    K.SHOOT: lambda t: day.shoot(t.r, t.request, t.rng),
    K.BADGE: lambda t: day.badge(t.r, t.request, t.rng),
    K.GUARD: lambda t: night.guard(t.r, t.request, t.rng),
    K.WOLF_TALK: lambda t: night.whisper(t.r, t.request, t.seed, t.rng, t.lang),
    K.KNIFE: lambda t: night.knife(t.r, t.request, t.rng),
    K.WITCH: lambda t: night.witch(t.r, t.request, t.rng),
    K.SEER: lambda t: night.seer(t.r, t.request, t.rng),
    K.CHARM: lambda t: night.charm(t.r, t.request, t.rng),
    K.DREAM: lambda t: night.dream(t.r, t.request, t.rng),
    K.FEAR: lambda t: night.fear(t.r, t.request, t.rng),
    K.HUNT: lambda t: night.hunt(t.r, t.request, t.rng),
    K.IDENTIFY: _identify,
    K.BLOCK: lambda t: night.block(t.r, t.request, t.rng),
    K.PRINCE: lambda t: day.prince(t.r, t.request),
    K.SWAP: lambda t: night.swap(t.r, t.request, t.rng),
    K.MIST: lambda t: night.mist(t.r, t.request, t.rng),
    K.SNAKE: lambda t: night.witch(t.r, t.request, t.rng),  # saves like the antidote
    K.CLAW: lambda t: night.claw(t.r, t.request, t.rng),
    K.TRADE: lambda t: night.trade(t.r, t.request, t.rng),
    K.LUCKY: lambda t: night.lucky(t.r, t.request, t.rng),
    K.ADMIRE: lambda t: night.admire(t.r, t.request, t.rng),
    K.CONFUSE: lambda t: night.confuse(t.r, t.request, t.rng),
    K.PUFFER: lambda t: day.puffer(t.r, t.request),
    K.MASK: lambda t: night.mask(t.r, t.request, t.rng),
    K.HEAL: lambda t: night.heal(t.r, t.request, t.rng),
    K.WATCH: lambda t: night.watch(t.r, t.request, t.rng),
    K.AUTOPSY: lambda t: night.autopsy(t.r, t.request, t.rng),
    K.THIEF: lambda t: night.take_card(t.r, t.request, t.rng),
    K.CUPID: lambda t: night.cupid(t.r, t.request, t.rng),
}
"""The bot's handler of each decision kind."""
