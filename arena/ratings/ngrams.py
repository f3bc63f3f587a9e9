"""Text overlap for the whisper-leak metric: token n-grams that work for Chinese and English.

A token is one CJK character or one run of other letters and digits, lowercased; spaces
and punctuation only separate tokens. So `今晚刀3號` is five tokens (`今 晚 刀 3 號`) and
"Kill seat 3, tonight!" is four. Overlap is measured on sets of `N`-token windows.
"""

from __future__ import annotations

import re
from collections.abc import Set

N = 3
"""Window length: three tokens is a short phrase in either language; shorter windows match
too much ordinary table talk ("3 號 是"), longer ones miss paraphrases."""

_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af"
_TOKEN = re.compile(rf"[{_CJK}]|[^\W_{_CJK}]+")


def tokens(text: str) -> list[str]:
    """The tokens of `text` (see the module docstring)."""
    return _TOKEN.findall(text.lower())


def ngrams(text: str, n: int = N) -> frozenset[tuple[str, ...]]:
    """The set of `n`-token windows of `text` (empty when it has fewer than `n` tokens)."""
    toks = tokens(text)
    return frozenset(tuple(toks[i : i + n]) for i in range(len(toks) - n + 1))


def overlap(text: str, corpus: Set[tuple[str, ...]], n: int = N) -> float | None:
    """The share of `text`'s distinct n-grams that occur in `corpus` (None: `text` too short).

    `corpus` is a set of n-grams, for example the wolves' night talk so far.
    """
    grams = ngrams(text, n)
    if not grams:
        return None
    return len(grams & corpus) / len(grams)
