"""A seeded agent that picks uniformly among legal actions: the baseline and the fuzzer.

Each choice is drawn from a generator seeded by the seat's seed and the request alone
(seat, step, the refusal being answered), never from a stream shared across decisions:
a game resumed from its log, on another worker or after a crash, asks the same requests
and gets the same answers, and a game's answers do not depend on which seats were asked
first.

Only two choices are biased, so random games stay games: an interruption window (a wolf's
explosion, a knight's duel) is passed up 97% of the time, and a speaking wolf or knight
speaks rather than explodes or duels 90% of the time.

Its few words (a speech, a wolves' whisper) are in the game's language, as every seat's
are: an English table reads no Chinese from it. The words take no draw, so a game's
answers are the same in either language but for those texts.
"""

from __future__ import annotations

import random

from arena.agents.base import AgentReply
from arena.rules.actions import (
    PLAIN_ACTIONS,
    SEAT_ACTIONS,
    Action,
    ChooseOrder,
    Link,
    Mist,
    Pass,
    RecommendExile,
    SelfExplode,
    Speak,
    Swap,
    TakeCard,
    Trade,
    Whisper,
    to_seat_action,
)
from arena.rules.decisions import ActionOption, DecisionKind, DecisionRequest
from arena.rules.observation import Observation
from arena.rules.types import Direction, Gift
from arena.text.catalog import Lang, t


def random_action(request: DecisionRequest, rng: random.Random, lang: Lang = "zh") -> Action:
    """A uniformly random legal answer to `request` (the two biases above), worded in `lang`."""
    option = rng.choice(request.options)
    explode = request.option("self_explode") or request.option("duel")
    if explode is not None and request.kind is DecisionKind.INTERRUPT:
        option = explode if rng.random() < 0.03 else ActionOption(action="pass")
    elif explode is not None and request.kind is DecisionKind.SPEECH:
        option = explode if rng.random() < 0.1 else request.options[0]
    return build(option, request, rng, lang)


def build(
    option: ActionOption, request: DecisionRequest, rng: random.Random, lang: Lang = "zh"
) -> Action:
    """A concrete action for `option`, with a random legal target where one is needed."""
    target = rng.choice(option.targets) if option.targets else None
    match option.action:
        case "speak":
            return Speak(text=t("random.speech", lang, seat=request.seat))
        case "whisper":
            return Whisper(text=t("random.whisper", lang))
        case "choose_order":
            return ChooseOrder(direction=rng.choice(list(Direction)), start=target)
        case "self_explode":
            return SelfExplode(target=target)
        case "recommend_exile" if target is not None:
            return RecommendExile(targets=(target,))
        case "trade" if target is not None:
            return Trade(target=target, gift=rng.choice(list(Gift)))
        case "swap" if len(option.targets) >= 2:
            return Swap(targets=tuple(rng.sample(option.targets, 2)))
        case "take_card" if target is not None:
            return TakeCard(target=target)
        case "reveal" if request.kind is not DecisionKind.PUFFER:
            return Pass()
        case "mist":
            return Mist(targets=tuple(rng.sample(option.targets, 3)))
        case "link" if len(option.targets) >= 2:
            return Link(targets=tuple(rng.sample(option.targets, 2)))
    if option.action in PLAIN_ACTIONS:
        return PLAIN_ACTIONS[option.action]
    if target is None or option.action not in SEAT_ACTIONS:
        return Pass()
    return to_seat_action(option.action, target)


class RandomAgent:
    """Uniformly random legal play, a pure function of (seed, seat, step, feedback)."""

    def __init__(self, seed: int = 0, lang: Lang = "zh") -> None:
        self._seed = seed
        self._lang: Lang = lang

    @property
    def name(self) -> str:
        """`random`."""
        return "random"

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        """A random legal action from a generator seeded by this request (view ignored)."""
        rng = random.Random(f"{self._seed}/{request.seat}/{request.step}/{feedback or ''}")
        return AgentReply(action=random_action(request, rng, self._lang))
