"""A request the endpoint refused as longer than its context window, and the budget to refit.

A seat's conversation is kept under its history budget (`EndpointSettings.history_tokens`),
but the budget is a setting and the server's window is not known in advance: the probe's
~4k-token prompt proves only that much. When a game's request outgrows the window, servers
say so in their own words (collected from the servers themselves):

- OpenAI, vLLM and llama-cpp-python: "This model's maximum context length is 4096 tokens.
  However, you requested 5000 tokens …" (HTTP 400, code `context_length_exceeded`);
- llama.cpp's server: "request (10031 tokens) exceeds the available context size (8192
  tokens), try increasing it" (HTTP 400, type `exceed_context_size_error`, read from
  version 0.3.36's; older ones said "the request exceeds the available context size. try
  increasing the context size or enable context shift", the window only in a field);
- llama-cpp-python in-process: "Requested tokens (2285) exceed context window of 2048";
- Anthropic: "prompt is too long: 210000 tokens > 200000 maximum".

Such a refusal is not the model's fault and not transient: the seat condenses its
conversation at once and asks again (`LLMAgent`), with a budget that fits — half the
window when the message states it, else half of the request that was refused. Ollama
truncates an over-long prompt silently instead (its `num_ctx`); nothing here can see that.
"""

from __future__ import annotations

import re

_OVERFLOW = re.compile(
    r"context (?:length|window|size)|maximum context|prompt is too long|too many tokens", re.I
)
_LIMIT = re.compile(
    r"maximum context length is (\d+)|context window of (\d+)|(\d+) maximum"
    r"|available context size \((\d+) tokens\)",
    re.I,
)


def is_overflow(error: str | None) -> bool:
    """Whether `error` (a provider error's message) says the request outgrew the window."""
    return error is not None and _OVERFLOW.search(error) is not None


def stated_window(error: str) -> int | None:
    """The context window in tokens, when the refusal states it."""
    match = _LIMIT.search(error)
    return int(next(g for g in match.groups() if g)) if match else None


def refit_budget(error: str, refused_tokens: int) -> int:
    """The history budget to ask again in: half the stated window, else half the refusal.

    Half leaves room for the tool, the reply and a day's growth before the next
    condensation; the budget only ever shrinks.
    """
    window = stated_window(error)
    return max(1, (window if window is not None else refused_tokens) // 2)
