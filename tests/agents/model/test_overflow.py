"""Refusals for length, in the words real servers use (see `arena.agents.model.overflow`)."""

from __future__ import annotations

import pytest

from arena.agents.model.overflow import is_overflow, refit_budget, stated_window

REFUSALS = {
    # OpenAI's hosted API (code context_length_exceeded), through the OpenAI provider
    "openai:gpt@https://api.openai.com/v1: HTTP 400: This model's maximum context length is "
    "128000 tokens. However, your messages resulted in 130512 tokens.": 128000,
    # vLLM
    "openai:qwen@http://gpu:8000/v1: HTTP 400: This model's maximum context length is 4096 "
    "tokens. However, you requested 5000 tokens (4800 in the messages, 200 in the "
    "completion).": 4096,
    # llama.cpp's server (the window is a field of its own, not in the message)
    "openai:m@http://127.0.0.1:8080/v1: HTTP 400: the request exceeds the available context "
    "size. try increasing the context size or enable context shift": None,
    # llama.cpp's server 0.3.36 (read from the real one, SmolLM2 capped at 8192 a slot)
    "openai:smollm2@http://127.0.0.1:8391/v1: HTTP 400: request (10031 tokens) exceeds the "
    "available context size (8192 tokens), try increasing it": 8192,
    # llama-cpp-python
    "openai:m@http://127.0.0.1:8000/v1: HTTP 400: Requested tokens (2285) exceed context "
    "window of 2048": 2048,
    # Anthropic through LangChain
    "langchain:anthropic:claude@: Error code: 400 - {'type': 'error', 'error': {'type': "
    "'invalid_request_error', 'message': 'prompt is too long: 210000 tokens > 200000 "
    "maximum'}}": 200000,
}


@pytest.mark.parametrize(("error", "window"), REFUSALS.items())
def test_refusals_for_length_are_recognised_with_the_window_they_state(
    error: str, window: int | None
) -> None:
    assert is_overflow(error)
    assert stated_window(error) == window


@pytest.mark.parametrize(
    "error",
    [
        None,
        "openai:m@http://x/v1: HTTP 500: grammar compilation failed",
        "openai:m@http://x/v1: HTTP 400: messages: content must be a string",
        "openai:m@http://x/v1: HTTP 429: rate limit reached for requests",
        "openai:m@http://x/v1: no answer within 300 s",
    ],
)
def test_other_errors_are_not_refusals_for_length(error: str | None) -> None:
    assert not is_overflow(error)


def test_the_budget_to_refit_in_is_half_the_window_else_half_the_refused_chat() -> None:
    assert refit_budget("maximum context length is 8192 tokens", refused_tokens=9000) == 4096
    assert refit_budget("exceeds the available context size", refused_tokens=9000) == 4500
    assert refit_budget("exceeds the available context size", refused_tokens=1) == 1
