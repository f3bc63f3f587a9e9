"""Token estimates: a provider-neutral guess by characters, corrected by what servers count.

Exact counts need each vendor's tokenizer; budgets need only a stable estimate that does
not run low. `estimate_tokens` counts ASCII words, digits and punctuation separately
(JSON and numbered lists cost more tokens per character than prose) and one token per
non-ASCII character (CJK). A `TokenGauge` then learns, per seat, the ratio between the
endpoint's own `prompt_tokens` and the estimate of the same request, so the history budget
is kept in the endpoint's tokens whatever its tokenizer.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from arena.llm.types import ChatMessage, ToolSpec

_PIECES = re.compile(r"[A-Za-z]+|[0-9]|\s+|[^\x00-\x7f]|[\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]")


def estimate_tokens(text: str) -> int:
    """Roughly how many tokens `text` costs (words by length, digits, symbols, CJK)."""
    count = 0
    for piece in _PIECES.findall(text):
        first = piece[0]
        if first.isspace():
            count += len(piece) > 1 and "\n" in piece
        elif first.isascii() and first.isalpha():
            count += 1 + len(piece) // 8
        else:
            count += 1
    return count


def request_tokens(messages: Sequence[ChatMessage], tools: Sequence[ToolSpec]) -> int:
    """The estimate of a whole request: tools as sent, then each message (with overhead)."""
    schema = json.dumps([t.model_dump(mode="json") for t in tools], ensure_ascii=False)
    return estimate_tokens(schema) + sum(4 + estimate_tokens(m.content) for m in messages)


@dataclass(slots=True)
class TokenGauge:
    """The endpoint's tokens per estimated token, learned from its usage reports."""

    ratio: float = 1.0
    samples: int = 0
    errors: list[float] = field(default_factory=list)
    """Each learned call's estimate against the server's count, relative to the count
    (0.1: 10 % high), made before that call taught the ratio: how far the gauge is off."""

    def observe(
        self, prompt_tokens: int, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec]
    ) -> None:
        """Learn from one call whose request the endpoint counted as `prompt_tokens`."""
        estimate = request_tokens(messages, tools)
        if prompt_tokens <= 0 or estimate <= 0:
            return
        seen = prompt_tokens / estimate
        if self.samples:
            self.errors.append(estimate * self.ratio / prompt_tokens - 1)
        self.samples += 1
        weight = 1 / min(self.samples, 8)
        self.ratio = seen if self.samples == 1 else self.ratio + weight * (seen - self.ratio)
