"""A match's limits, and the void rule that stops a game its model seats do not play."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from arena.agents.base import DECISION_TIMEOUT_S
from arena.errors import ArenaError
from arena.rules.actions import Action
from arena.rules.types import SeatId


class Limits(BaseModel):
    """Time and retry limits of a match.

    One model for the runner, a queued job and a tournament file (`limits:`): what the
    worker plays under is what the file said, with nothing to copy between two shapes.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    call_timeout_s: float = Field(default=DECISION_TIMEOUT_S, gt=0)
    """One agent decision (all its model calls) must finish within this; waiting for a
    `Gated` agent's endpoint slot comes before the clock starts."""
    game_timeout_s: float = Field(default=6 * 3600.0, gt=0)
    """Past this, remaining decisions are defaulted without asking."""
    retries: int = Field(default=2, ge=0)
    """Re-asks after an invalid, illegal or late answer, before the default."""
    beliefs: Literal["off", "daily", "per_speech"] = "daily"
    """When seats are asked for a private belief report: at each exile vote, after every
    speech, or never. Agents that are not `Believer`s are skipped; model seats fold the
    daily report into their vote (`BeliefFolder`)."""
    void_after_defaults: int = Field(default=5, ge=1)
    """A game is voided once a model seat (or a plug-in, `Accountable`) has this many
    defaulted decisions …"""
    void_default_share: float = Field(default=0.25, ge=0, le=1)
    """… making up at least this share of its decisions: its play is the arena's defaults,
    not the model's, and such a game must not count in the ratings (docs/model-seats.md)."""


class GameVoided(ArenaError):
    """The game was stopped because a model seat kept falling back to defaults."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(slots=True)
class Tally:
    """Decisions and defaults per accountable seat (model, plug-in, remote), for the void rule."""

    limits: Limits
    decided: dict[SeatId, int]
    defaulted: dict[SeatId, int]

    def count(self, outcome: Outcome) -> str | None:
        """Count `outcome`; the void reason once its seat crosses the threshold."""
        seat = outcome.seat
        self.decided[seat] = self.decided.get(seat, 0) + 1
        if outcome.defaulted is None:
            return None
        self.defaulted[seat] = self.defaulted.get(seat, 0) + 1
        done, failed = self.decided[seat], self.defaulted[seat]
        if (
            failed >= self.limits.void_after_defaults
            and failed >= self.limits.void_default_share * done
        ):
            return (
                f"voided: seat {seat}'s agent fell back to defaults in {failed} of {done} "
                f"decisions (last: {outcome.defaulted})"
            )
        return None


@dataclass(frozen=True, slots=True)
class Outcome:
    """One decision's result: the action to submit and, if defaulted, why."""

    seat: SeatId
    action: Action
    defaulted: str | None
