"""The only door from a person's page to a hosted game: join tokens, seat views, answers.

Each human seat has its own secret join token (in its join link); only its sha256 is
kept in the game's `Table`. Every read of a seat's view and every answer needs the
seat's token: none, a wrong one, or another seat's is refused with `AccessDenied`. There
is no god, public or other-seat view of a live game here at all: a page can only ask
for its own seat, and what it gets (`SeatPage`) is built from that seat's `observe`
projection, the game's public card and the seat's own pending decision — never the
seed, never who plays the other seats.

An answer names the request `step` it answers. One for a step that is not the seat's
pending one is refused as stale (a replayed or forged answer); a second one for the
pending step is a harmless duplicate (the first wins).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Literal

from pydantic import BaseModel, ConfigDict

from arena.errors import ArenaError
from arena.rules.actions import Action
from arena.rules.boards import Board
from arena.rules.decisions import check_legal
from arena.rules.observation import Observation
from arena.rules.visibility import SeatViewer
from arena.storage.desk import STANDING_STEP, Desk, Pending, Status, Table, read_view


class AccessDenied(ArenaError):
    """No token, a wrong one, or another seat's; or a seat or game that is not there."""


class StaleAnswer(ArenaError):
    """An answer for a request that is not the seat's pending one (late or replayed)."""


def new_token() -> str:
    """A fresh secret join token."""
    return secrets.token_urlsafe(18)


def token_hash(token: str) -> str:
    """What the table keeps of a token."""
    return hashlib.sha256(token.encode()).hexdigest()


def authorize(desk: Desk, game_id: str, seat: int, token: str | None) -> Table:
    """The game's card, if `token` is `seat`'s join token.

    Raises:
        AccessDenied: an unknown game, a seat that is not a person's, or a token that is
            missing, wrong, or another seat's. The message never says which.
    """
    table = desk.table(game_id)
    expected = table.token_hashes.get(seat) if table is not None else None
    if table is None or expected is None or not token:
        raise AccessDenied("this join link is not valid")
    if not hmac.compare_digest(token_hash(token), expected):
        raise AccessDenied("this join link is not valid")
    return table


class SeatPage(BaseModel):
    """Everything one seat's page shows (and nothing else)."""

    model_config = ConfigDict(frozen=True)

    game_id: str
    board: str | Board
    """The game's board: a built-in id, or a custom board whole (`Table.board`)."""
    lang: str
    seat: int
    name: str
    seats: int
    observation: Observation
    """The seat's own projection of the log so far."""
    pending: Pending | None
    status: Status


def seat_page(desk: Desk, game_id: str, seat: int, token: str | None) -> SeatPage:
    """The seat's page data.

    Raises:
        AccessDenied: see `authorize`.
    """
    table = authorize(desk, game_id, seat, token)
    status = desk.status(game_id)
    return SeatPage(
        game_id=game_id,
        board=table.board,
        lang=table.lang,
        seat=seat,
        name=table.seats[seat].name,
        seats=len(table.seats),
        observation=read_view(desk.view(game_id, seat), SeatViewer(seat=seat)),
        pending=desk.pending(game_id, seat),
        status=status,
    )


def submit(
    desk: Desk, game_id: str, seat: int, token: str | None, step: int, action: Action
) -> Literal["accepted", "duplicate"]:
    """Post a person's answer to their pending request `step`.

    Raises:
        AccessDenied: see `authorize`.
        StaleAnswer: `step` is not the seat's pending request.
        IllegalActionError: the action is not among the request's legal options.
    """
    authorize(desk, game_id, seat, token)
    pending = desk.pending(game_id, seat)
    if pending is None or pending.request.step != step:
        raise StaleAnswer(f"request {step} is not waiting for an answer")
    check_legal(pending.request, action)
    posted = desk.post(game_id, seat, step, action.model_dump_json())
    return "accepted" if posted else "duplicate"


def arm(desk: Desk, game_id: str, seat: int, token: str | None, action: Action) -> None:
    """Arm a standing answer (a self-explosion, a duel) for the next window.

    Raises:
        AccessDenied: see `authorize`.
    """
    authorize(desk, game_id, seat, token)
    desk.take(game_id, seat, STANDING_STEP)  # re-arming replaces the armed answer
    desk.post(game_id, seat, STANDING_STEP, action.model_dump_json())


def disarm(desk: Desk, game_id: str, seat: int, token: str | None) -> None:
    """Withdraw an armed standing answer (nothing happens if none is armed).

    Raises:
        AccessDenied: see `authorize`.
    """
    authorize(desk, game_id, seat, token)
    desk.take(game_id, seat, STANDING_STEP)
