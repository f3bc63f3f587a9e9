"""A game's identity before it starts, and its result after: id, seed, header, result."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from datetime import UTC, datetime

from arena.agents.base import Agent
from arena.rules.config import GameConfig
from arena.rules.draw import CURRENT_DRAW
from arena.rules.events import GameEnded
from arena.rules.referee import Referee
from arena.rules.types import SeatId
from arena.storage.replay_file import ReplayHeader, ReplayResult, SeatAgent


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
    game_id: str, config: GameConfig, seed: int, agents: Mapping[SeatId, Agent], **extra: object
) -> ReplayHeader:
    """A replay header for a game about to start."""
    seats = tuple(
        SeatAgent(
            seat=seat,
            agent=agent.name,
            model=getattr(agent, "model", None),
            prompt_version=getattr(agent, "prompt_version", None),
        )
        for seat, agent in sorted(agents.items())
    )
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
