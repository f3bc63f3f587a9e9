"""Provider-neutral chat types: messages, tools, replies, usage and call records.

Agents and prompts speak only these types; the adapters in `*_provider.py` translate them
to and from a vendor SDK.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ChatMessage(_Frozen):
    """One message of a chat prompt."""

    role: Literal["system", "user", "assistant", "tool"]
    """Model seats send only `system`, `user` and `assistant`; `tool` appears in old replays."""
    content: str
    tool_call_id: str | None = None
    """For `tool` messages: the call this answers."""
    tool_calls: tuple[ToolCall, ...] = ()
    """For `assistant` messages: the calls the model made."""


class ToolSpec(_Frozen):
    """A function tool offered to the model: name, description, JSON-schema parameters."""

    name: str
    description: str
    parameters: dict[str, Any]
    strict: bool = True


class ToolCall(_Frozen):
    """A tool call as the model made it; `arguments` is the raw JSON text."""

    id: str
    name: str
    arguments: str


class Usage(_Frozen):
    """Token counts of one call (cached prompt tokens where the provider reports them)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            cached_tokens=self.cached_tokens + other.cached_tokens,
        )


class ModelReply(_Frozen):
    """What a chat model answered: text and/or tool calls, usage, the raw payload."""

    text: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    usage: Usage = Usage()
    model: str = ""
    raw: dict[str, Any] = Field(default_factory=dict)
    """The provider's payload (older replays only: it doubled their size, so it is not kept)."""
    cost_usd: float = 0.0
    """The call's price from the adapter's price table (0 for a model it has no price for)."""
    finish_reason: str = ""
    """Why the reply ended, as the endpoint said (`length`: cut by `max_tokens`)."""


class ModelCallRecord(_Frozen):
    """One model call of one decision, kept in the replay's trace stream (god view only).

    Records of one seat's conversation are stored as deltas (`arena.storage.calls`): `base`
    leading messages are those of the conversation's previous call, `messages` holds the
    rest, and `tools` is None when unchanged. `expand_calls` restores every request exactly
    as sent. Records written before deltas existed have `base` 0 and their tools: whole.
    """

    seat: int
    step: int
    """The referee's request step this call served (-1 for a belief question)."""
    attempt: int
    """1 for the first try, 2+ for re-asks after an invalid or illegal answer."""
    model: str
    prompt_id: str
    """`template@version` of the prompt."""
    messages: tuple[ChatMessage, ...]
    tools: tuple[ToolSpec, ...] | None
    reply: ModelReply | None
    parsed_action: dict[str, Any] | None = None
    error: str | None = None
    latency_ms: float = 0.0
    usage: Usage = Usage()
    cost_usd: float = 0.0
    conversation: str | None = None
    """The seat's conversation this call belongs to (None: a self-contained record)."""
    call: int = 0
    """The call's index within its conversation (0, 1, 2, …)."""
    base: int = 0
    """Leading messages shared with the conversation's previous call (not repeated here)."""
    notes: tuple[str, ...] = ()
    """What the parser forgave (a speech cut to its limit)."""
    cut_off: bool = False
    """The call was cancelled by a time limit before it answered."""
    retried: bool = False
    """A try that failed (timed out, HTTP 429/5xx, a dropped connection, a body that is
    not a reply) and that the provider sent again: `error` says why, `latency_ms` how long
    it took; the same request's next record is its next try. No usage came back, so its
    tokens and cost count as 0 while it counts as a call."""


ChatMessage.model_rebuild()
