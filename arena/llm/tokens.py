"""A provider-neutral token estimate, by characters.

Exact counts need each vendor's tokenizer; budgets only need a stable, slightly
pessimistic estimate. ASCII text runs about four characters a token; CJK and other
non-ASCII characters about one token each.
"""

from __future__ import annotations


def estimate_tokens(text: str) -> int:
    """Roughly how many tokens `text` costs."""
    ascii_chars = sum(1 for ch in text if ord(ch) < 128)
    return (ascii_chars + 3) // 4 + (len(text) - ascii_chars)
