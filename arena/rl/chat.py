"""The text form of an observation: the chat a model seat would be sent, turn by turn.

A `SeatChat` keeps a seat's conversation exactly as the model seat builds it
(`arena.agents.model.conversation`): the system message (the game's rules, the seat's role guide,
how to answer), then per question the events the seat saw since the last one, its state,
the question and its legal answers; each chosen action is kept as the seat's answer. A
text policy reads the last user turn (or the whole chat) where a model would.
"""

from __future__ import annotations

import json

from arena.agents.model.conversation import Conversation, decision_question
from arena.agents.model.library import load_library
from arena.llm.types import ChatMessage
from arena.rules.actions import Action
from arena.rules.config import RuleSet
from arena.rules.decisions import DecisionRequest
from arena.rules.observation import Observation
from arena.transcript import Lang

HISTORY_TOKENS = 24_000
"""The chat's history budget before older days are condensed (the model seat's default)."""


class SeatChat:
    """One seat's chat, grown by `ask` and `answer` as the seat is asked and answers."""

    def __init__(self, lang: Lang, rules: RuleSet | None) -> None:
        self._lib = load_library(lang)
        self._chat = Conversation(self._lib, rules, HISTORY_TOKENS)
        self._answered = False

    def ask(self, view: Observation, request: DecisionRequest) -> str:
        """Add the question of `request` (seen from `view`) and return the new user turn."""
        if self._answered:
            self._chat.settle(defaulted=False)
            self._answered = False
        self._chat.ask(view, decision_question(view, request, self._lib))
        return self._chat.messages[-1].content

    def answer(self, action: Action) -> None:
        """Keep the seat's chosen `action` as its answer (the JSON a model would write)."""
        self._chat.answer(json.dumps(action.model_dump(mode="json"), ensure_ascii=False))
        self._answered = True

    @property
    def messages(self) -> tuple[ChatMessage, ...]:
        """The whole chat so far (system message first)."""
        return tuple(self._chat.messages)
