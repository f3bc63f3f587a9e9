"""Token prices per model, to account the cost of every call.

Prices are US dollars per million tokens, as the vendors listed them in 2025; a spec file
may override or extend the table. A model the table does not know costs 0, and the
endpoint's `Capabilities.priced` says so, so a cost report never silently under-counts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from arena.llm.types import Usage


class Price(NamedTuple):
    """Dollars per million tokens."""

    input: float
    output: float
    cached_input: float | None = None
    """Cached prompt tokens (prompt-cache hits); the full input price when None."""


PRICES: dict[str, Price] = {
    "gpt-4.1": Price(2.00, 8.00, 0.50),
    "gpt-4.1-mini": Price(0.40, 1.60, 0.10),
    "gpt-4.1-nano": Price(0.10, 0.40, 0.025),
    "gpt-4o": Price(2.50, 10.00, 1.25),
    "gpt-4o-mini": Price(0.15, 0.60, 0.075),
    "o3": Price(2.00, 8.00, 0.50),
    "o4-mini": Price(1.10, 4.40, 0.275),
    "gpt-5": Price(1.25, 10.00, 0.125),
    "gpt-5-mini": Price(0.25, 2.00, 0.025),
    "claude-sonnet-4-5": Price(3.00, 15.00, 0.30),
    "claude-haiku-4-5": Price(1.00, 5.00, 0.10),
    "claude-opus-4-1": Price(15.00, 75.00, 1.50),
    "gemini-2.5-pro": Price(1.25, 10.00, 0.31),
    "gemini-2.5-flash": Price(0.30, 2.50, 0.075),
}


def price_of(model: str, table: Mapping[str, Price] = PRICES) -> Price | None:
    """The price of `model`: an exact entry, else the longest entry it starts with.

    Dated snapshots (`gpt-4.1-mini-2025-04-14`) and gateway prefixes (`openai/gpt-4.1`)
    find their base model's price.
    """
    name = model.rsplit("/", 1)[-1]
    if name in table:
        return table[name]
    matches = [key for key in table if name.startswith(key + "-")]
    return table[max(matches, key=len)] if matches else None


def cost_usd(usage: Usage, price: Price | None) -> float:
    """The dollar cost of `usage` at `price` (0 without a price)."""
    if price is None:
        return 0.0
    cached = min(usage.cached_tokens, usage.prompt_tokens)
    cached_rate = price.input if price.cached_input is None else price.cached_input
    dollars = (
        (usage.prompt_tokens - cached) * price.input
        + cached * cached_rate
        + usage.completion_tokens * price.output
    )
    return dollars / 1_000_000
