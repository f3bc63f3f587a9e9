"""Preparing a game at the edge: its seats checked, greeted and seated, its header written.

Every place that starts a game — `arena play`, a queue's worker, the Play page's host and
the golden games — hands its built seats to `prepare_game` and plays inside the block:

1. every model seat's endpoint is probed and every remote agent greeted (the preflight,
   `arena.agents.preflight`): a seat that cannot play fails the game in one line before
   its first event; a resumed game's agents are greeted again, not probed (its header
   keeps the endpoints);
2. the header is written from the seats and the probes' records (`new_header`), with each
   seat's tournament entry where the caller names one (its name, and the spec it plays);
3. the seats are put behind their endpoints' slots as the caller holds them (`hold`);
4. when the block ends, however it ends, the seats' connection pools are closed, in the
   loop that played the game.

The seats themselves come from one seat builder (`arena.agents.seats.build_agents`), from
whatever the caller reads them from: a command line, a tournament's entries, a game card.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Mapping
from typing import Any, NamedTuple

from arena.agents.base import Agent
from arena.agents.preflight import aclose_models, preflight
from arena.match import Entry, new_header
from arena.rules.config import GameConfig
from arena.rules.types import SeatId
from arena.storage.replay_file import ReplayHeader

Hold = Callable[[Mapping[SeatId, Agent], Mapping[str, Any]], Mapping[SeatId, Agent]]
"""`(agents, endpoints) -> agents`: the seats behind their endpoints' slots, given the
probes' records (`arena.agents.slots.hold_slots`, or the queue's shared gates)."""


class Prepared(NamedTuple):
    """A game ready to play: its header, and its seats as they play."""

    header: ReplayHeader
    agents: dict[SeatId, Agent]


class GamePlan(NamedTuple):
    """What a new game's header says besides its seats."""

    game_id: str
    config: GameConfig
    seed: int
    extra: Mapping[str, object] = {}
    """More header fields: a tournament's name, a fixed `created_at` (golden games)."""


@contextlib.asynccontextmanager
async def prepare_game(
    plan: GamePlan | ReplayHeader,
    agents: Mapping[SeatId, Agent],
    *,
    hold: Hold | None = None,
    entries: Mapping[SeatId, Entry] | None = None,
) -> AsyncIterator[Prepared]:
    """Check, greet and seat `agents` for the game `plan` names (a header: resumed).

    Raises:
        ArenaError: a model endpoint or a remote agent that cannot play, in one line.
    """
    try:
        if isinstance(plan, ReplayHeader):
            await preflight(agents, probe=False)
            header = plan
        else:
            endpoints = await preflight(agents)
            header = new_header(
                plan.game_id, plan.config, plan.seed, agents, entries=entries,
                endpoints=endpoints, **plan.extra,
            )  # fmt: skip
        seated = dict(hold(agents, header.endpoints) if hold is not None else agents)
        yield Prepared(header, seated)
    finally:
        await aclose_models(agents)
