"""Who may see an event, who is looking, and the one function that decides.

Every event carries a `Visibility`. `can_see` is the only place that compares it with a
`Viewer`; prompts, transcripts and dashboard pages all go through `observe`, which uses
it, so hidden information cannot leak by construction.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from arena.rules.types import SeatId, Team


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Public(_Frozen):
    """Everyone at the table, and spectators."""

    to: Literal["public"] = "public"


class ToSeats(_Frozen):
    """Only these seats (for example the seer's check result)."""

    to: Literal["seats"] = "seats"
    seats: tuple[SeatId, ...]


class ToTeam(_Frozen):
    """A team's private channel: `seats` are the members who had their eyes open."""

    to: Literal["team"] = "team"
    team: Team
    seats: tuple[SeatId, ...]


class RefereeOnly(_Frozen):
    """Only the referee (god view), for example the cause of a night death."""

    to: Literal["referee"] = "referee"


Visibility = Annotated[Public | ToSeats | ToTeam | RefereeOnly, Field(discriminator="to")]

PUBLIC = Public()
REFEREE = RefereeOnly()


def to_seats(*seats: SeatId) -> ToSeats:
    """Visibility for the given seats only."""
    return ToSeats(seats=tuple(sorted(set(seats))))


class GodViewer(_Frozen):
    """The referee's view: every event."""

    kind: Literal["god"] = "god"


class PublicViewer(_Frozen):
    """A spectator who sees only what is said and shown to the whole table."""

    kind: Literal["public"] = "public"


class TeamViewer(_Frozen):
    """A team's shared view, for example the wolves' (public plus the team channel)."""

    kind: Literal["team"] = "team"
    team: Team


class SeatViewer(_Frozen):
    """One seat: public events plus what was shown to that seat or its team while it looked."""

    kind: Literal["seat"] = "seat"
    seat: SeatId


Viewer = Annotated[GodViewer | PublicViewer | TeamViewer | SeatViewer, Field(discriminator="kind")]


def can_see(viewer: Viewer, visibility: Visibility) -> bool:
    """Whether `viewer` may see an event with `visibility`. The only visibility check."""
    if isinstance(viewer, GodViewer) or isinstance(visibility, Public):
        return True
    if isinstance(visibility, RefereeOnly):
        return False
    if isinstance(viewer, TeamViewer):
        return isinstance(visibility, ToTeam) and visibility.team is viewer.team
    if isinstance(viewer, SeatViewer):
        return viewer.seat in visibility.seats
    return False


def parse_viewer(text: str) -> Viewer:
    """Parse `god`, `public`, `wolves` or `seat:N` (the CLI's `--as`).

    Raises:
        ValueError: the text names no viewer.
    """
    match text.strip().lower().split(":"):
        case ["god"] | ["referee"]:
            return GodViewer()
        case ["public"] | ["spectator"]:
            return PublicViewer()
        case ["wolves"] | ["wolf"]:
            return TeamViewer(team=Team.WOLF)
        case ["seat", number] if number.isdigit() and int(number) >= 1:
            return SeatViewer(seat=int(number))
    raise ValueError(f"unknown viewer {text!r}; use god, public, wolves or seat:N")
