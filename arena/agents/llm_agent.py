"""`LLMAgent`: a seat played by a chat model, through tool calls only.

Each decision is one model call: the prompt (`arena.prompting`, rendered from the seat's
`Observation`), the legal options as tools (`arena.toolschema`), and a forced tool choice
(the one tool when there is one, else `required`). The first tool call is parsed into an
action; a reply without a call, or with a malformed one, comes back as
`AgentReply(action=None, error=...)` and the runner asks again with the error as
`feedback`. A re-ask continues the same conversation — the model sees its own rejected
call and the error as the tool's result — so it can correct itself instead of starting
over. Every call becomes a `ModelCallRecord` for the replay's trace stream.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from arena.agents.base import AgentReply
from arena.llm.base import ChatModel, ProviderError, ToolChoice
from arena.llm.types import ChatMessage, ModelCallRecord, ModelReply, ToolCall, ToolSpec, Usage
from arena.prompting import (
    DEFAULT_VERSION,
    Prompt,
    belief_prompt,
    decision_prompt,
    feedback_text,
    load_library,
)
from arena.records import BeliefReport
from arena.rules.actions import Pass
from arena.rules.config import RuleSet
from arena.rules.decisions import DecisionKind, DecisionRequest
from arena.rules.errors import ArenaError, InvalidActionError
from arena.rules.observation import Observation
from arena.rules.visibility import SeatViewer
from arena.toolschema import belief_tool, legal_tools, parse_belief, parse_tool_call
from arena.transcript import Lang

BELIEF_STEP = -1
"""The `step` of belief calls in traces (they answer no referee request)."""


@dataclass(frozen=True, slots=True)
class _Exchange:
    """The last call made for a request: what was sent and what came back."""

    step: int
    messages: tuple[ChatMessage, ...]
    reply: ModelReply | None


class LLMAgent:
    """An `Agent` and `Believer` backed by a `ChatModel`."""

    def __init__(
        self,
        model: ChatModel,
        *,
        lang: Lang = "zh",
        rules: RuleSet | None = None,
        label: str | None = None,
        prompt_version: str = DEFAULT_VERSION,
        history_tokens: int = 12_000,
        belief_retries: int = 1,
        explosion_windows: bool = False,
    ) -> None:
        """Create a seat's agent.

        Args:
            model: the chat model that answers.
            lang: the language of the prompts and, so, of the speeches.
            rules: the game's rules (public); the board's preset is assumed when None.
            label: the agent spec shown in the replay header (`openai:gpt-4.1-mini`).
            prompt_version: the `prompts/` version to use.
            history_tokens: the estimated-token budget of the game log in a prompt.
            belief_retries: re-asks of a malformed belief report before giving up.
            explosion_windows: ask the model in the self-explosion window after every
                speech. Off by default: each window costs a call per eligible wolf, and a
                wolf can still explode on its own speaking turn and when withdrawing.
        """
        self.chat = model
        self.lang: Lang = lang
        self.rules = rules
        self.library = load_library(lang, prompt_version)
        self.history_tokens = history_tokens
        self.belief_retries = belief_retries
        self.explosion_windows = explosion_windows
        self._label = label or f"llm:{model.model}"
        self._last: _Exchange | None = None
        self._attempts = (-1, 0)

    @property
    def name(self) -> str:
        """The agent spec, e.g. `openai:gpt-4.1-mini`."""
        return self._label

    @property
    def model(self) -> str:
        """The model's name (the replay header's `model`)."""
        return self.chat.model

    @property
    def prompt_version(self) -> str:
        """`werewolf-<lang>@<version>` (the replay header's `prompt_version`)."""
        return self.library.prompt_id

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        """One model call answering `request`; a re-ask continues the conversation."""
        if request.kind is DecisionKind.INTERRUPT and not self.explosion_windows:
            return AgentReply(action=Pass())
        tools = legal_tools(request, view.knowledge, self.library.tools)
        attempt = self._attempt(request.step)
        messages = self._messages(view, request, feedback)
        choice: ToolChoice = tools[0].name if len(tools) == 1 else "required"
        record, reply = await self._call(
            request.seat, request.step, attempt, messages, tools, choice
        )
        self._last = _Exchange(request.step, messages, reply)
        if reply is None:
            return AgentReply(action=None, error=record.error, calls=(record,))
        try:
            action = parse_tool_call(_first_call(reply, tools))
        except InvalidActionError as exc:
            record = record.model_copy(update={"error": str(exc)})
            return AgentReply(action=None, error=str(exc), calls=(record,))
        record = record.model_copy(update={"parsed_action": action.model_dump(mode="json")})
        return AgentReply(action=action, calls=(record,))

    async def believe(self, view: Observation) -> BeliefReport | None:
        """Private wolf probabilities for every other present seat, via `report_belief`.

        A malformed report is re-asked `belief_retries` times with the error; None after
        that, or when the endpoint fails (a belief report is instrumentation, never part
        of the game).
        """
        me = _seat(view)
        others = [s for s in view.knowledge.present() if s != me]
        if not others:
            return None
        tools = (belief_tool(others, self.library.tools),)
        prompt = belief_prompt(
            view, others, self.rules, self.library, budget_tokens=self.history_tokens
        )
        messages, calls = prompt.messages, []
        for attempt in range(1, self.belief_retries + 2):
            record, reply = await self._call(
                me, BELIEF_STEP, attempt, messages, tools, tools[0].name
            )
            if reply is None:
                return None
            try:
                table = parse_belief(_first_call(reply, tools), others)
            except InvalidActionError as exc:
                calls.append(record.model_copy(update={"error": str(exc)}))
                messages = _continued(messages, reply, feedback_text(str(exc), self.library))
                continue
            calls.append(record.model_copy(update={"parsed_action": {"wolf_probability": table}}))
            return BeliefReport(
                seat=me,
                day=view.knowledge.day,
                after_seq=view.log_length,
                wolf_probability=table,
                calls=tuple(calls),
            )
        return None

    def _messages(
        self, view: Observation, request: DecisionRequest, feedback: str | None
    ) -> tuple[ChatMessage, ...]:
        """A fresh prompt, or the last exchange continued with the runner's feedback."""
        last = self._last
        if feedback is not None and last is not None and last.step == request.step:
            if last.reply is None:
                return last.messages
            return _continued(last.messages, last.reply, feedback_text(feedback, self.library))
        prompt: Prompt = decision_prompt(
            view, request, self.rules, self.library, budget_tokens=self.history_tokens
        )
        return prompt.messages

    def _attempt(self, step: int) -> int:
        """Count tries per request, including ones the runner cut short by a timeout."""
        count = self._attempts[1] + 1 if self._attempts[0] == step else 1
        self._attempts = (step, count)
        return count

    async def _call(
        self,
        seat: int,
        step: int,
        attempt: int,
        messages: tuple[ChatMessage, ...],
        tools: tuple[ToolSpec, ...],
        choice: ToolChoice,
    ) -> tuple[ModelCallRecord, ModelReply | None]:
        started = time.perf_counter()
        reply: ModelReply | None = None
        error: str | None = None
        try:
            reply = await self.chat.generate(messages, tools, choice)
        except ProviderError as exc:
            error = str(exc)
        record = ModelCallRecord(
            seat=seat,
            step=step,
            attempt=attempt,
            model=self.chat.model,
            prompt_id=self.library.prompt_id,
            messages=messages,
            tools=tools,
            reply=reply,
            error=error,
            latency_ms=(time.perf_counter() - started) * 1000,
            usage=reply.usage if reply else Usage(),
            cost_usd=reply.cost_usd if reply else 0.0,
        )
        return record, reply


def _first_call(reply: ModelReply, tools: tuple[ToolSpec, ...]) -> ToolCall:
    if not reply.tool_calls:
        names = ", ".join(t.name for t in tools)
        raise InvalidActionError(f"the reply has no tool call; call exactly one of: {names}")
    return reply.tool_calls[0]


def _continued(
    messages: tuple[ChatMessage, ...], reply: ModelReply, feedback: str
) -> tuple[ChatMessage, ...]:
    """`messages` plus the model's rejected reply and the error, as the next turn.

    A rejected tool call is answered by a tool message (the protocol requires one per
    call); a reply without a call gets the error as a user message.
    """
    if not reply.tool_calls:
        said = ChatMessage(role="assistant", content=reply.text or "…")
        return (*messages, said, ChatMessage(role="user", content=feedback))
    said = ChatMessage(role="assistant", content=reply.text, tool_calls=reply.tool_calls)
    results = tuple(
        ChatMessage(role="tool", tool_call_id=call.id, content=feedback if i == 0 else "ignored")
        for i, call in enumerate(reply.tool_calls)
    )
    return (*messages, said, *results)


def _seat(view: Observation) -> int:
    if not isinstance(view.viewer, SeatViewer):
        raise ArenaError("an LLM seat needs a seat view, not a team or spectator view")
    return view.viewer.seat
