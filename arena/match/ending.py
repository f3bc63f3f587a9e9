"""The end of a game, told to every seat that learns (`arena.agents.base.Learner`).

A learning agent needs its reward, and nothing in a request carries it: the last
question a seat is asked may come nights before the end. So once a game is over —
finished, or voided by the arena — each seat with `game_over` is told the result, every
card, its own side and its reward (`arena.rules.outcome.GameOver`), with its last view.
Every seat is told at once, each held to the per-decision limit; a seat that raises or is
late is logged and goes no further: the game and its replay are already settled.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping

from arena.agents.base import Agent, Learner
from arena.agents.traits import trait
from arena.rules.observation import observe
from arena.rules.outcome import game_over
from arena.rules.referee import Referee
from arena.rules.types import SeatId
from arena.rules.visibility import SeatViewer

log = logging.getLogger("arena.match")


async def tell_end(
    referee: Referee, agents: Mapping[SeatId, Agent], void: str | None, timeout_s: float
) -> None:
    """Tell every learning seat among `agents` how the game ended (`void`: why voided)."""

    async def tell(seat: SeatId, learner: Learner) -> None:
        view = observe(referee.events, SeatViewer(seat=seat))
        end = game_over(referee.state, referee.events, seat, void=void)
        try:
            async with asyncio.timeout(timeout_s):
                await learner.game_over(view, end)
        except TimeoutError:
            log.info("seat %s took the end of the game for over %g s", seat, timeout_s)
        except Exception as exc:
            log.info("seat %s did not take the end of the game: %s", seat, exc)

    learners = [(s, trait(a, Learner)) for s, a in sorted(agents.items())]
    await asyncio.gather(*(tell(s, learner) for s, learner in learners if learner is not None))
