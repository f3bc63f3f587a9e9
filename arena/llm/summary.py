"""How each model seat played: decisions made by the model, and those the arena defaulted.

A game that ends normally can still be the arena's play rather than the model's (an
endpoint that answers but never legally plays on defaults), so `arena play` ends with one
line per model seat, read from the replay's answers: how many decisions were the model's
own, how many were defaulted, and why (the reasons grouped, most frequent first).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from arena.rules.referee import Answer
from arena.storage.replay_file import SeatAgent
from arena.text import Lang, t

_REASON = 90
"""Reasons are shortened to this many characters (they can quote an endpoint's error)."""


def seat_lines(answers: Iterable[Answer], seats: Sequence[SeatAgent], lang: Lang) -> list[str]:
    """One line per model seat: `seat 3 openai:m: 40 decisions, 38 its own, 2 defaulted (…)`."""
    answers = list(answers)
    lines = []
    for seat in seats:
        if seat.model is None:
            continue
        mine = [a for a in answers if a.seat == seat.seat]
        reasons = Counter(_short(a.defaulted) for a in mine if a.defaulted is not None)
        own = len(mine) - sum(reasons.values())
        line = t(
            "cli.model_seat", lang, seat=seat.seat, agent=seat.agent, decisions=len(mine), own=own
        )
        if reasons:
            why = "; ".join(f"{n}× {reason}" for reason, n in reasons.most_common(3))
            line += t("cli.model_defaults", lang, defaulted=sum(reasons.values()), why=why)
        lines.append(line)
    return lines


def _short(reason: str) -> str:
    text = " ".join(reason.split())
    return text if len(text) <= _REASON else text[: _REASON - 1] + "…"
