"""`ScriptedChatModel`: a strict test double that answers from a fixed script.

Each step is a `ModelReply`, an exception to raise, or a function of the call that
returns a reply. A call beyond the script fails the test at once (`ScriptError`, an
`AssertionError`, so no runner mistakes it for an agent fault and retries), and
`assert_done` reports steps that were never used. Every call is kept in `calls` so a test
can assert on the exact prompts and tools the agent sent.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from arena.llm.base import Schema, ToolChoice
from arena.llm.types import ChatMessage, ModelReply, ToolCall, ToolSpec

_ids = itertools.count(1)


@dataclass(frozen=True, slots=True)
class ScriptedCall:
    """One call the double received."""

    messages: tuple[ChatMessage, ...]
    tools: tuple[ToolSpec, ...]
    tool_choice: ToolChoice


Step = ModelReply | BaseException | Callable[[ScriptedCall], ModelReply]
"""A scripted answer: a fixed reply, an error to raise, or a reply computed from the call."""


class ScriptError(AssertionError):
    """The script and the calls disagree (an extra call, or unused steps)."""


class ScriptedChatModel:
    """A `ChatModel` that replays `steps` in order and fails on anything unexpected."""

    def __init__(self, steps: Sequence[Step], model: str = "scripted") -> None:
        self._steps = list(steps)
        self._next = 0
        self._model = model
        self.calls: list[ScriptedCall] = []

    @property
    def model(self) -> str:
        """The name given at construction (`scripted` by default)."""
        return self._model

    async def generate(
        self,
        messages: Sequence[ChatMessage],
        tools: Sequence[ToolSpec],
        tool_choice: ToolChoice,
        legal: Schema | None = None,
    ) -> ModelReply:
        """The next scripted step's reply (or its exception).

        Raises:
            ScriptError: the script has no step left for this call.
        """
        call = ScriptedCall(tuple(messages), tuple(tools), tool_choice)
        self.calls.append(call)
        if self._next >= len(self._steps):
            raise ScriptError(
                f"unexpected call #{len(self.calls)} to {self._model}: the script has "
                f"{len(self._steps)} steps (tools offered: {[t.name for t in tools]})"
            )
        step = self._steps[self._next]
        self._next += 1
        if isinstance(step, BaseException):
            raise step
        return step(call) if callable(step) else step

    @property
    def remaining(self) -> int:
        """Steps not yet used."""
        return len(self._steps) - self._next

    def assert_done(self) -> None:
        """Fail when some scripted steps were never used.

        Raises:
            ScriptError: naming how many steps are left.
        """
        if self.remaining:
            raise ScriptError(
                f"{self.remaining} of {len(self._steps)} scripted steps of {self._model} "
                f"were never used ({len(self.calls)} calls made)"
            )


def tool_reply(name: str, arguments: dict[str, Any] | str, text: str = "") -> ModelReply:
    """A reply that calls tool `name` (a dict is JSON-encoded; a str is sent raw)."""
    raw = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
    return ModelReply(
        text=text, tool_calls=(ToolCall(id=f"call_{next(_ids)}", name=name, arguments=raw),)
    )


def text_reply(text: str) -> ModelReply:
    """A reply with text only (no tool call)."""
    return ModelReply(text=text)


def act(answer: dict[str, Any] | str) -> ModelReply:
    """A reply that calls the game's `act` tool with `answer` (a str is sent raw)."""
    return tool_reply("act", answer if isinstance(answer, str) else {"answer": answer})


class ReadingChatModel:
    """A `ChatModel` that reads each question and picks a listed legal answer (seeded).

    It answers the way the stub server's `random_legal` policy does, in process, and
    keeps every call, so conversation tests can play whole games without HTTP.
    """

    def __init__(self, seed: int = 0, model: str = "reader") -> None:
        import random

        self._rng = random.Random(seed)
        self._model = model
        self.calls: list[ScriptedCall] = []

    @property
    def model(self) -> str:
        """The name given at construction."""
        return self._model

    async def generate(
        self,
        messages: Sequence[ChatMessage],
        tools: Sequence[ToolSpec],
        tool_choice: ToolChoice,
        legal: Schema | None = None,
    ) -> ModelReply:
        """A legal answer to the last question, as an `act` call."""
        from tests.support.stub_policy import (
            StubRequest,
            StubTool,
            answer_from,
            belief_seats,
            legal_options,
        )

        self.calls.append(ScriptedCall(tuple(messages), tuple(tools), tool_choice))
        question = next(m.content for m in reversed(messages) if m.role == "user")
        request = StubRequest(
            {},
            self._model,
            tuple(StubTool(t.name, t.parameters) for t in tools),
            tool_choice,
            True,
            question,
        )
        options = legal_options(request)
        seats = belief_seats(request)
        if options:
            answer = answer_from(self._rng.choice(options), self._rng, None)
            if seats and answer["action"] == "vote":
                answer["wolf_probability"] = {str(s): 0.5 for s in seats}
        else:
            answer = {
                "action": "report_belief",
                "wolf_probability": {str(s): 0.5 for s in seats},
            }
        return act(answer)
