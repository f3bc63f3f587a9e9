"""How a game ended for one seat: its side, its reward, and what it is told at the end.

A seat plays for its card's side, with three exceptions the rules make: the thief plays
for the card he took, a secret admirer for her love's side, and the lovers of a wolf–good
couple with their cupid for their own third side (人狼戀, docs/roles.md). The winning
side's seats get +1, every other seat -1 (dead or alive: Werewolf is a team game), and
every seat 0 in a draw (the day limit) or a game the arena voided.

`seat_side` reads the truth (`GameState`); `known_side` reads only what the seat has seen,
so a request can say the seat's side without telling it anything more: a cupid who has
not seen both lovers' cards, an admirer before her choice and a thief before his card
have no known side yet (None). At the end every card is turned over (`RolesRevealed`),
and the two agree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pydantic import BaseModel, ConfigDict

from arena.rules import events as ev
from arena.rules.roles import is_wolf, team_of
from arena.rules.state import GameState
from arena.rules.types import Role, SeatId, Side, Winner
from arena.rules.win import third_side

WIN = 1.0
LOSS = -1.0
DRAW = 0.0

_WON = {Winner.GOOD: Side.GOOD, Winner.WOLVES: Side.WOLF, Winner.LOVERS: Side.LOVERS}
"""The side each winner is (a draw is nobody's)."""


def seat_side(state: GameState, seat: SeatId) -> Side:
    """The side `seat` plays for, as the rules count it."""
    if seat in third_side(state.roles, state.lovers):
        return Side.LOVERS
    if state.admirers.get(seat):
        return Side.WOLF
    return Side(team_of(state.role(seat)))


def seat_rewards(state: GameState) -> dict[SeatId, float]:
    """Each seat's reward for the finished game in `state` (0 for all while it goes on)."""
    seats = range(1, state.seats + 1)
    won = _WON.get(state.winner) if state.winner is not None else None
    if won is None:
        return dict.fromkeys(seats, DRAW)
    return {seat: WIN if seat_side(state, seat) is won else LOSS for seat in seats}


def known_side(
    seat: SeatId | None,
    own_role: Role | None,
    roles: Mapping[SeatId, Role],
    lovers: tuple[SeatId, ...],
    partner_is_wolf: bool | None,
    visible: Sequence[ev.Event],
) -> Side | None:
    """The side `seat` plays for, as far as what it saw tells (None: not known yet).

    The arguments are the seat's own knowledge (`arena.rules.observation.know`) and the
    events it saw, never the game's state.
    """
    if seat is None or own_role is None or own_role is Role.THIEF:
        return None
    if partner_is_wolf is not None:  # a lover, told the partner's side
        return Side.LOVERS if is_wolf(own_role) != partner_is_wolf else Side(team_of(own_role))
    if own_role is Role.CUPID:  # known once both lovers' cards are
        if len(lovers) != 2 or not all(s in roles for s in lovers):
            return None
        first, second = (roles[s] for s in lovers)
        return Side.LOVERS if is_wolf(first) != is_wolf(second) else Side(team_of(own_role))
    if own_role is Role.SECRET_ADMIRER:
        chose = [e for e in visible if isinstance(e, ev.AdmirerChose) and e.seat == seat]
        return (Side.WOLF if chose[-1].wolf_side else Side.GOOD) if chose else None
    return Side(team_of(own_role))


class GameOver(BaseModel):
    """What a seat is told when its game is over: how it ended, every card, its reward."""

    model_config = ConfigDict(frozen=True)

    seat: SeatId
    winner: Winner | None
    """Who won (`draw` at the day limit); None when the arena voided the game."""
    reason: str
    """Why it ended: the rules' reason, or why the arena voided it."""
    voided: bool = False
    """The arena voided the game (a seat kept defaulting, or its time ran out): unrated."""
    roles: dict[SeatId, Role]
    """Every seat's card at the end (the thief's the card he took)."""
    side: Side
    """The side this seat played for (`seat_side`)."""
    reward: float
    """+1 if its side won, -1 if another did, 0 in a draw or a voided game."""


def game_over(
    state: GameState, events: Sequence[ev.Event], seat: SeatId, *, void: str | None = None
) -> GameOver:
    """What `seat` is told at the end of the game `events` made (`void`: why it was voided)."""
    ended = state.winner if void is None else None
    reason = void if void is not None else _reason(events)
    rewards = seat_rewards(state) if void is None else {}
    return GameOver(
        seat=seat,
        winner=ended,
        reason=reason,
        voided=void is not None,
        roles={s: state.role(s) for s in range(1, state.seats + 1)},
        side=seat_side(state, seat),
        reward=rewards.get(seat, DRAW),
    )


def _reason(events: Sequence[ev.Event]) -> str:
    """The rules' reason in the log's `GameEnded`."""
    ended = [e for e in events if isinstance(e, ev.GameEnded)]
    return ended[-1].reason if ended else "unfinished"
