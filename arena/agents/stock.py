"""The arena's own seats as building blocks for plug-ins (`arena.api` exports them).

A plug-in that builds on the bot or the random agent — a noisy bot, a bot with a learned
vote, a random player with a rule of its own — makes them here, with the arguments its
factory is given (`seed`, `lang`), and wraps them: its `decide` answers what it wants to
answer and hands the rest to the agent it holds. `lang` is taken as a plug-in's factory
gets it (`en`, `zh` or `zh-Hans`, `arena.text.script.AgentLang`): the arena's seats write
English or Chinese, and a Simplified table is shown their Chinese in Simplified characters.
"""

from __future__ import annotations

import random
from typing import Protocol

from arena.agents.base import Agent, Believer
from arena.agents.random_agent import RandomAgent, random_action
from arena.rules.actions import Action
from arena.rules.decisions import DecisionRequest
from arena.text.catalog import Lang
from arena.text.script import AgentLang


class Bot(Agent, Believer, Protocol):
    """The bot: an agent that also reports its beliefs (`believe`)."""


def spoken(lang: AgentLang) -> Lang:
    """The language the arena's seats write for a game told `lang`."""
    return "en" if lang == "en" else "zh"


def make_bot(seed: int = 0, lang: AgentLang = "zh") -> Bot:
    """The arena's bot, as `--seat N=bot` seats it given the seat's `seed`.

    It answers `decide` and reports its beliefs (`believe`), both for a wrapper to pass on.
    """
    from arena.agents.bot.agent import BotAgent  # imported here: model seats work without it

    return BotAgent(seed, lang=spoken(lang))


def make_random(seed: int = 0, lang: AgentLang = "zh") -> Agent:
    """The `random` seat, as `--seat N=random` seats it given the seat's `seed`."""
    return RandomAgent(seed, spoken(lang))


def random_answer(request: DecisionRequest, rng: random.Random, lang: AgentLang = "zh") -> Action:
    """A uniformly random legal answer to `request`, drawn from `rng` as `random` draws it.

    `noisy:P:SPEC` draws the same way; an explosion or a duel is rarely drawn.
    """
    return random_action(request, rng, spoken(lang))
