"""A model seat's chat model, built from its spec and its endpoint's settings.

`arena.agents.seats` builds every seat; a model seat (`openai:…`, `langchain:…`) gets its
provider's chat model from here, built lazily (nothing connects until the preflight
probes it). Only `arena/llm/*_provider.py` import the SDKs, and only when a seat needs one.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from arena.agents.model.probe import probe_mode
from arena.errors import ArenaError
from arena.llm.base import ChatModel
from arena.llm.retry import RetryPolicy

if TYPE_CHECKING:
    from arena.agents.seats import EndpointSettings, SeatSpec


def chat_model(seat: SeatSpec, settings: EndpointSettings) -> ChatModel:
    """The chat model for a model seat (built lazily: nothing connects yet)."""
    assert seat.model is not None
    retry = RetryPolicy(retries=settings.retries)
    if seat.kind == "openai":
        from arena.llm.openai_provider import OpenAIChatModel

        return OpenAIChatModel(
            seat.model,
            base_url=settings.base_url,
            api_key_env=settings.api_key_env or "OPENAI_API_KEY",
            timeout_s=settings.timeout_s,
            probe_timeout_s=settings.probe_timeout_s,
            retry=retry,
            mode=settings.mode,
            temperature=settings.temperature,
            max_tokens=settings.max_tokens,
            pin_slots=settings.pin_slots,
            dialogue=probe_mode,
        )
    from arena.llm.langchain_provider import LangChainChatModel

    options = dict(settings.options)
    if settings.base_url is not None:
        options.setdefault("base_url", settings.base_url)
    if settings.temperature is not None:
        options.setdefault("temperature", settings.temperature)
    if settings.max_tokens is not None:
        options.setdefault("max_tokens", settings.max_tokens)
    if settings.api_key_env is not None:
        options.setdefault("api_key", _env_key(settings.api_key_env))
    return LangChainChatModel(
        seat.model,
        timeout_s=settings.timeout_s,
        probe_timeout_s=settings.probe_timeout_s,
        retry=retry,
        mode=settings.mode,
        dialogue=probe_mode,
        **options,
    )


def _env_key(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        raise ArenaError(f"{name} is not set (named as api_key_env in the spec file)")
    return value
