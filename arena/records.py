"""Records kept beside a game's event log: plain data, safe for any view layer to import.

A `BeliefReport` is instrumentation, not a game fact: the runner asks for it and the
replay stores it next to the events (god view only). Model-call records live in
`arena.llm.types` with the other provider-neutral chat types.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from arena.llm.types import ModelCallRecord
from arena.rules.types import Role


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


class RoleGuess(BaseModel):
    """A seat's private guess of the card of each other seat it was asked about.

    Asked only by an exam (`arena exam run`), never in a game: an exam's `role` item names
    the seats whose card the seat cannot see, and a `RoleGuesser` answers each with one of
    the board's cards. Scored against the key (`arena exam report`).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    seat: int
    after_seq: int
    """The guess reflects the log up to (excluding) this event index."""
    roles: dict[int, Role]
    calls: tuple[ModelCallRecord, ...] = ()
