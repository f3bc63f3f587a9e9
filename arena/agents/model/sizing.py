"""A seat's chat measured as its endpoint counts it, and fitted in the server's window.

The gauge estimates what a request carries as prompt in the endpoint's answer mode
(`Measured.as_sent`: in `json_legal` the `act` tool's schema is not sent, and an estimate
that counted it ran 2-4 times low on llama.cpp, vLLM and Ollama), times the tokens per
estimated token the seat learned from the server's own counts (`TokenGauge`). The chat's
budget is the configured `history_tokens`, or the server's window less a reply's when
that is smaller (llama-server caps a slot at the model's training window: 8,192 tokens
for SmolLM2 whatever `-c` gave it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from arena.agents.model.overflow import refit_budget, stated_window
from arena.llm.base import REPLY_RESERVE, Measured
from arena.llm.tokens import TokenGauge, estimate_tokens, request_tokens
from arena.llm.types import ChatMessage, ToolSpec

if TYPE_CHECKING:
    from arena.agents.model.conversation import Conversation
    from arena.rules.observation import Observation

Measure = Callable[[Sequence[ChatMessage]], int]
"""The endpoint's prompt tokens for a request holding these messages."""


def estimated(messages: Sequence[ChatMessage]) -> int:
    """The default `Measure`: the messages' estimated tokens, with a few for each's frame."""
    return sum(4 + estimate_tokens(m.content) for m in messages)


@dataclass(slots=True)
class Sizing:
    """One seat's measure of its requests, on a model that may say what it sends."""

    model: Measured | None
    """The model's own account of what it sends and how much fits (None: it has none, and
    the request is taken as the chat plus the tool)."""
    gauge: TokenGauge = field(default_factory=TokenGauge)
    tool: ToolSpec | None = None
    """The game's `act` tool, once built."""

    def sent(
        self, messages: Sequence[ChatMessage]
    ) -> tuple[Sequence[ChatMessage], Sequence[ToolSpec]]:
        """What a request holding `messages` carries as prompt."""
        tools = (self.tool,) if self.tool is not None else ()
        return self.model.as_sent(messages, tools) if self.model else (messages, tools)

    def measure(self, messages: Sequence[ChatMessage]) -> int:
        """The endpoint's prompt tokens for a request holding `messages` (a `Measure`)."""
        return round(request_tokens(*self.sent(messages)) * self.gauge.ratio)

    def observe(self, prompt_tokens: int, messages: Sequence[ChatMessage]) -> None:
        """Learn from a call whose request holding `messages` the server counted."""
        self.gauge.observe(prompt_tokens, *self.sent(messages))

    def fit(self, chat: Conversation) -> None:
        """Keep `chat` within the server's window, once the server has said it."""
        window = self.model.window if self.model is not None else None
        if window is not None:
            known = chat.window_tokens
            chat.window_tokens = window if known is None else min(known, window)
            chat.budget_tokens = min(chat.budget_tokens, window)

    def ask(self, chat: Conversation, view: Observation, question: str) -> None:
        """Ask `question` in `chat`, within its budget and the server's window if known."""
        self.fit(chat)
        chat.ask(view, question, measure=self.measure)

    def refit(
        self, refused: Conversation, before: Conversation, view: Observation, question: str,
        error: str,
    ) -> bool:  # fmt: skip
        """After `error` refused the chat `refused` for length: ask again from `before`.

        `before` is the chat before the refused question: it is condensed now, in a budget
        and a window that shrink to fit (`arena.agents.model.overflow`), and the question
        is asked again in it. True when it is now shorter than the refused request.
        """
        sent = self.measure(refused.messages)
        before.condense_now(view, refit_budget(error, sent), self.refused_window(error, sent))
        self.ask(before, view, question)
        return self.measure(before.messages) < sent

    def refused_window(self, error: str, refused_tokens: int) -> int:
        """The prompt tokens a request may hold after `error` refused one for length.

        The stated window less a reply's, else anything shorter than the refused request.
        """
        stated = stated_window(error)
        if stated is None:
            return max(1, refused_tokens - 1)
        reply = self.model.reply_tokens if self.model is not None else None
        return max(1, stated - (reply or REPLY_RESERVE))
