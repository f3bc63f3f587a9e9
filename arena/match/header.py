"""A game's identity before it starts, and its result after: id, seed, header, result."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import NamedTuple

from arena.agents.base import Agent
from arena.agents.traits import Described, Prompted, trait
from arena.rules.config import GameConfig
from arena.rules.draw import CURRENT_DRAW
from arena.rules.events import GameEnded
from arena.rules.referee import Referee
from arena.rules.types import SeatId
from arena.storage.replay_file import ReplayHeader, ReplayResult, SeatAgent


class Entry(NamedTuple):
    """A tournament entry at a seat: the name it is rated under, and the spec it plays.

    A competitor is the tournament's entry, not its spec: an entry whose URL moves to
    another port stays one competitor, and two entries of one plug-in spec with different
    `options` (two checkpoints of one policy) are two.
    """

    name: str
    spec: str


def result_of(referee: Referee, void: str | None = None) -> ReplayResult:
    """The header's result block for a finished game, or for one voided by `void`."""
    if void is not None:
        return ReplayResult(
            winner=None, reason=void, days=referee.state.day, events=len(referee.events), void=True
        )
    ended = next(e for e in reversed(referee.events) if isinstance(e, GameEnded))
    return ReplayResult(
        winner=ended.winner,
        reason=ended.reason,
        days=referee.state.day,
        events=len(referee.events),
    )


def new_game_id(board: str) -> str:
    """A fresh game id: the board and random letters, never the seed.

    An id such as `wwk_guard-31` named the seed, and with the seed anyone can re-deal the
    roles; a player sees the id, so it must tell them nothing.
    """
    return f"{board}-{secrets.token_hex(5)}"


def secret_seed() -> int:
    """A seed nobody can guess (for games with people: the seed re-deals the roles)."""
    return secrets.randbelow(2**31)


def new_header(
    game_id: str,
    config: GameConfig,
    seed: int,
    agents: Mapping[SeatId, Agent],
    *,
    entries: Mapping[SeatId, Entry] | None = None,
    **extra: object,
) -> ReplayHeader:
    """A replay header for a game about to start.

    Each seat is named by its agent's name, or by its tournament entry in `entries` (its
    name as the tournament file spells it, and the spec beside it when they differ), with
    the model and prompt version it declares.
    """
    named = entries or {}
    seats = tuple(_seat(seat, agent, named.get(seat)) for seat, agent in sorted(agents.items()))
    return ReplayHeader.model_validate(
        {
            "game_id": game_id,
            "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "config": config,
            "seed": seed,
            "draw": CURRENT_DRAW,
            "seats": seats,
            **extra,
        }
    )


def _seat(seat: SeatId, agent: Agent, entry: Entry | None) -> SeatAgent:
    """One seat's line of the header."""
    described, prompted = trait(agent, Described), trait(agent, Prompted)
    return SeatAgent(
        seat=seat,
        agent=entry.name if entry is not None else agent.name,
        spec=entry.spec if entry is not None and entry.spec != entry.name else None,
        model=described.model if described is not None else None,
        prompt_version=prompted.prompt_version if prompted is not None else None,
    )
