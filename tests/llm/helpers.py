"""Shared builders for the LLM tests: fast providers pointed at a stub server.

They probe with the model seat's dialogue, as the seat factory builds them.
"""

from __future__ import annotations

from arena.agents.model.probe import probe_mode
from arena.llm.base import AnswerMode
from arena.llm.langchain_provider import LangChainChatModel
from arena.llm.openai_provider import OpenAIChatModel
from arena.llm.retry import RetryPolicy
from arena.llm.types import ChatMessage, ToolSpec

VOTE = ToolSpec(
    name="vote",
    description="Vote.",
    parameters={
        "type": "object",
        "properties": {"target": {"type": "integer", "enum": [1, 2, 3]}},
        "required": ["target"],
        "additionalProperties": False,
    },
)
ASK = [ChatMessage(role="system", content="Play."), ChatMessage(role="user", content="Vote.")]


class Sleeps:
    """Records the waits the retry layer asks for, without waiting."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


def openai_model(
    url: str,
    name: str,
    *,
    retries: int = 1,
    timeout_s: float = 5.0,
    mode: AnswerMode | None = "tools_strict",
    sleeps: Sleeps | None = None,
) -> OpenAIChatModel:
    return OpenAIChatModel(
        name,
        base_url=url,
        api_key="test-key",
        timeout_s=timeout_s,
        retry=RetryPolicy(retries=retries, backoff_s=0.001, max_retry_after_s=0.05),
        mode=mode,
        sleep=sleeps or Sleeps(),
        dialogue=probe_mode,
    )


def langchain_model(
    url: str,
    name: str,
    *,
    retries: int = 1,
    timeout_s: float = 5.0,
    mode: AnswerMode | None = "tools_strict",
    sleeps: Sleeps | None = None,
) -> LangChainChatModel:
    return LangChainChatModel(
        f"openai:{name}",
        base_url=url,
        api_key="test-key",
        timeout_s=timeout_s,
        retry=RetryPolicy(retries=retries, backoff_s=0.001, max_retry_after_s=0.05),
        mode=mode,
        sleep=sleeps or Sleeps(),
        dialogue=probe_mode,
    )
