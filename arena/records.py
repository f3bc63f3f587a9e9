"""Records kept beside a game's event log: plain data, safe for any view layer to import.

A `BeliefReport` is instrumentation, not a game fact: the runner asks for it and the
replay stores it next to the events (god view only). Model-call records live in
`arena.llm.types` with the other provider-neutral chat types.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from arena.llm.types import ModelCallRecord


class BeliefReport(BaseModel):
    """A seat's private estimate, per other seat, of the probability it is a wolf.

    Asked by the runner (once a day, or after every speech) and stored beside the event
    log in the replay, never shown to another seat: deception and persuasion metrics and
    the dashboard's god-view heat map read it.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    seat: int
    day: int
    after_seq: int
    """The report reflects the log up to (excluding) this event index."""
    wolf_probability: dict[int, float]
    calls: tuple[ModelCallRecord, ...] = ()
