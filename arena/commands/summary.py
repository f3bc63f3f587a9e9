"""How each model seat played: decisions made by the model, and those the arena defaulted.

A game that ends normally can still be the arena's play rather than the model's (an
endpoint that answers but never legally plays on defaults), so `arena play` ends with one
line per model seat, read from the replay's answers and traces: how many decisions the
model was asked, how many of those were its own, how many were defaulted and why (the
reasons grouped, most frequent first), and, apart, how many answers the arena gave
without asking (`automatic_answers`: a self-explosion window the seat is not asked in),
which are neither the model's decisions nor its failures. A seat that made no model call
(a plug-in, which names its agent as its model) answered every decision itself. A seat
that gave speeches is told how many said something: an empty, placeholder or copied
speech is a legal answer of the model's own that says nothing (`arena.ratings.speeches`).

A default's reason is said in the reader's language as what happened (`default_cause`:
the context was full, the server refused, the time ran out, or no usable answer came);
the provider's own words, with its URL, stay in the trace (`arena replay --calls`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Literal

from arena.agents.model.overflow import is_overflow
from arena.llm.types import ModelCallRecord
from arena.ratings.speeches import spoke_ratios
from arena.rules.events import Event
from arena.rules.referee import Answer
from arena.storage.calls import automatic_answers
from arena.storage.replay_file import SeatAgent
from arena.text import Lang, t

Cause = Literal["context", "refused", "timeout", "invalid"]
"""What made the arena default a decision, as the closing lines name it."""


def default_cause(reason: str) -> Cause:
    """What happened, read from a default's recorded reason (`Outcome.reason`).

    A refusal for length is the context window's (`arena.agents.model.overflow`); an
    HTTP status or a provider's URL is the server's refusal; a limit that ran out is a
    timeout; anything else is the model's answers, refused by the referee.
    """
    if is_overflow(reason):
        return "context"
    if "no answer within" in reason or "timed out" in reason or "time limit" in reason:
        return "timeout"
    if "://" in reason or _HTTP.search(reason):
        return "refused"
    return "invalid"


_HTTP = re.compile(r"\bHTTP \d{3}\b")


def seat_lines(
    answers: Iterable[Answer],
    seats: Sequence[SeatAgent],
    lang: Lang,
    traces: Iterable[ModelCallRecord] = (),
    events: Sequence[Event] = (),
) -> list[str]:
    """One line per model seat: `seat 3 openai:m: 40 decisions asked, 38 its own, …`."""
    answers, traces = list(answers), list(traces)
    calling = {c.seat for c in traces}  # a plug-in names a model but leaves no call traces
    model_seats = [s.seat for s in seats if s.model is not None and s.seat in calling]
    automatic = automatic_answers(answers, traces, model_seats)
    spoke = spoke_ratios(events)
    lines = []
    for seat in seats:
        if seat.model is None:
            continue
        mine = [a for a in answers if a.seat == seat.seat and (a.seat, a.step) not in automatic]
        reasons = Counter(
            t(f"cli.cause_{default_cause(a.defaulted)}", lang)
            for a in mine
            if a.defaulted is not None
        )
        own = len(mine) - sum(reasons.values())
        line = t(
            "cli.model_seat", lang, seat=seat.seat, agent=seat.agent, decisions=len(mine), own=own
        )
        if reasons:
            why = "; ".join(f"{n}× {reason}" for reason, n in reasons.most_common())
            line += t("cli.model_defaults", lang, defaulted=sum(reasons.values()), why=why)
        unasked = sum(1 for a in answers if a.seat == seat.seat and (a.seat, a.step) in automatic)
        if unasked:
            line += t("cli.model_automatic", lang, n=unasked)
        if seat.seat in spoke:
            said = spoke[seat.seat]
            line += t("cli.model_spoke", lang, speeches=said.den, said=said.num)
        lines.append(line)
    return lines
