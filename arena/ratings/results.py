"""A finished game reduced to what ratings need: who sat where, with which card, who won.

`game_result` is a pure function of a replay. The agent identity is the seat's `agent`
string from the header (`bot`, `random`, `openai:gpt-4.1-mini`), and the roles come from
the referee's `RolesDealt` event, so a result can never disagree with its event log. A
secret admirer who loves a wolf (`AdmirerChose.wolf_side`) plays, and is rated, for the
wolves.

A seat is rated as its player only for a game it played (`stood_in`): when more than
`STAND_IN_SHARE` of its decisions were not its player's own — answered by the arena's
default (a timeout, a closed terminal, a model's unusable answers) or by the bot a
person's seat was handed to (the header's `handovers`) — its result is kept under
`AGENT (stood in)`, a row of its own, rated for neither the player nor the stand-in.
The rule is the same for people, model seats and any other agent; a seat handed over
before it answered, or that never answered itself, is always stood in.

Every result carries its **deal** (`GameResult.deal`), the unit the leaderboard's
bootstrap resamples: games of one deal share its luck (the cards, the seed), so they are
drawn together or not at all. A tournament game's deal is a hash of what makes the deal:
the game's config with its dealt roles, its seed and its draw (`deal_key`) — the two
mirrored games of a deal and every pairing's games of it share it, whatever the
tournament's name. A game outside any tournament is a unit of its own (`g-` and its id).
`deal_order` is a tournament game's place in its schedule (the job index of its id,
`NAME-00042`), for reading deals in the order they were scheduled.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from pydantic import model_validator

from arena.ratings.stats import FrozenModel
from arena.rules.events import AdmirerChose, RolesDealt
from arena.rules.roles import team_of
from arena.rules.types import Role, SeatId, Team, Winner
from arena.storage.replay_file import Replay, ReplayError, ReplayHeader, SeatHandover

STAND_IN_SHARE = 0.25
"""Above this share of decisions not its player's own, a seat is not rated as its player
(the share at which a model seat's game is voided, `arena.match.Limits`)."""
STOOD_IN = " (stood in)"
"""Appended to the agent of a seat rated as neither its player nor its stand-in."""


class SeatResult(FrozenModel):
    """One seat of a finished game."""

    seat: SeatId
    agent: str
    """The agent spec that played the seat; the identity ratings are kept under (with
    `STOOD_IN` appended when the seat was `stood_in`)."""
    role: Role
    team: Team


class GameResult(FrozenModel):
    """The outcome of one game, as ratings and win rates see it."""

    game_id: str
    created_at: str
    """ISO-8601 start time; games are rated in (`created_at`, `game_id`) order."""
    board: str
    winner: Winner
    days: int
    seats: tuple[SeatResult, ...]
    deal: str
    """The deal this game was played on, the bootstrap's unit (`deal_key`): `d-` and a hash
    for a tournament game, `g-` and the game id for any other (a unit of its own). A
    result built without one is a unit of its own."""
    deal_order: int | None = None
    """The game's place in its tournament's schedule (the job index in `NAME-00042`); None
    outside a tournament. A deal's place is the least of its games'."""

    @model_validator(mode="before")
    @classmethod
    def _own_deal(cls, data: Any) -> Any:
        if isinstance(data, dict) and "deal" not in data and "game_id" in data:
            return {**data, "deal": f"g-{data['game_id']}"}
        return data

    def lineup(self, team: Team) -> dict[str, int]:
        """Seats per agent on `team` (an agent may hold several seats of a side)."""
        counts: dict[str, int] = {}
        for seat in self.seats:
            if seat.team is team:
                counts[seat.agent] = counts.get(seat.agent, 0) + 1
        return counts

    @property
    def agents(self) -> tuple[str, ...]:
        """Every agent that played, sorted."""
        return tuple(sorted({seat.agent for seat in self.seats}))

    def outcome(self, team: Team) -> float:
        """1 if `team` won, 0.5 for a draw, 0 if it lost.

        A lovers' win (人狼戀) is neither team's: both sides are rated as for a draw.
        """
        if winning_team(self.winner) is None:
            return 0.5
        return 1.0 if winning_team(self.winner) is team else 0.0


def winning_team(winner: Winner) -> Team | None:
    """The side that won, or None for a draw or a lovers' win (a third side)."""
    match winner:
        case Winner.GOOD:
            return Team.GOOD
        case Winner.WOLVES:
            return Team.WOLF
        case Winner.DRAW | Winner.LOVERS:
            return None


def dealt_roles(replay: Replay) -> tuple[Role, ...]:
    """The deal (seat 1 first) from the replay's `RolesDealt` event.

    Raises:
        ReplayError: the log has no deal, or the deal does not fit the header's seats.
    """
    deal = next((e for e in replay.events if isinstance(e, RolesDealt)), None)
    if deal is None:
        raise ReplayError(f"game {replay.header.game_id}: the event log has no deal")
    seats = sorted(seat.seat for seat in replay.header.seats)
    if seats != list(range(1, len(deal.roles) + 1)):
        raise ReplayError(
            f"game {replay.header.game_id}: {len(deal.roles)} roles dealt "
            f"but the header seats are {seats}"
        )
    return deal.roles


def stood_in(replay: Replay, seat: SeatId) -> bool:
    """Whether more than `STAND_IN_SHARE` of `seat`'s decisions were not its player's own.

    Not its own: a defaulted answer, or any answer from the step its seat was handed
    over on. A seat with no decision at all was not played by anyone: not stood in.
    """
    handover = next((h for h in replay.header.handovers if h.seat == seat), None)
    answers = [a for a in replay.answers if a.seat == seat]
    if not answers:
        return handover is not None
    others = sum(1 for a in answers if a.defaulted is not None or _after(a.step, handover))
    return others > STAND_IN_SHARE * len(answers)


def _after(step: int, handover: SeatHandover | None) -> bool:
    return handover is not None and step >= handover.step


def deal_key(header: ReplayHeader) -> str:
    """The deal of a game (see `GameResult.deal`): what makes it, hashed, in a tournament.

    A tournament game's config names its dealt roles (`GameConfig.deal`), and with its
    seed and draw it fixes every card and every draw of the referee: `d-` and the first
    16 hex digits of the SHA-256 of those, as canonical JSON. Any other game: `g-` and
    its id, a unit of its own (two loose games on one seed are not taken for one deal).
    """
    if header.tournament is None:
        return f"g-{header.game_id}"
    what = {
        "config": header.config.model_dump(mode="json"),
        "seed": header.seed,
        "draw": header.draw,
    }
    text = json.dumps(what, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return "d-" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def deal_order(header: ReplayHeader) -> int | None:
    """A tournament game's job index, from its id `NAME-00042` (None if it has none)."""
    if header.tournament is None:
        return None
    name, _, index = header.game_id.rpartition("-")
    return int(index) if name == header.tournament and index.isascii() and index.isdigit() else None


def game_result(replay: Replay) -> GameResult:
    """The rating-relevant outcome of a finished replay.

    Raises:
        ReplayError: the game is unfinished (no result in the header) or has no deal.
    """
    header = replay.header
    if header.result is None:
        raise ReplayError(f"game {header.game_id}: unfinished (no result in the header)")
    roles = dealt_roles(replay)
    turned = {e.seat for e in replay.events if isinstance(e, AdmirerChose) and e.wolf_side}
    seats = tuple(
        SeatResult(
            seat=seat.seat,
            agent=seat.agent + STOOD_IN if stood_in(replay, seat.seat) else seat.agent,
            role=roles[seat.seat - 1],
            team=Team.WOLF if seat.seat in turned else team_of(roles[seat.seat - 1]),
        )
        for seat in sorted(header.seats, key=lambda s: s.seat)
    )
    return GameResult(
        game_id=header.game_id,
        created_at=header.created_at,
        board=header.config.board_id,
        winner=header.result.winner,
        days=header.result.days,
        seats=seats,
        deal=deal_key(header),
        deal_order=deal_order(header),
    )


def rating_order(result: GameResult) -> tuple[str, str]:
    """Where a game is folded: by start time, then game id (the recent form's order)."""
    return result.created_at, result.game_id
