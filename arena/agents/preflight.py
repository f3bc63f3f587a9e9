"""The preflight before a game: every model endpoint probed, every remote agent greeted.

`preflight` checks keys (without network), then probes every endpoint concurrently, then
says `hello` to every remote agent, and fails with one clear `ArenaError` before the game
starts — never in the middle of one. Seats with one chat model are probed once (the seat
builder gives the seats of one spec and endpoint one model). `aclose_models` closes what
the seats opened, in the loop that played the game. Both find a seat's chat model and
remote agent through any wrapper (`arena.agents.traits`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

from arena.agents.base import Agent
from arena.agents.remote.client import RemoteAgent
from arena.agents.remote.seat import preflight_remote
from arena.agents.traits import ModelSeat, trait
from arena.errors import ArenaError
from arena.llm.base import Probed
from arena.rules.types import SeatId

DEFAULT_PROBE_S = 1200.0
"""A probe's limit when neither the endpoint nor the caller gives one (4 × 300 s)."""
GREETING_S = 10.0
"""The longest a remote agent's `hello` may take."""


def probed(agents: Mapping[SeatId, Agent]) -> list[tuple[Probed, list[SeatId]]]:
    """Each endpoint's chat model among `agents`, with the seats that share it."""
    users: dict[int, tuple[Probed, list[SeatId]]] = {}
    for seat, agent in sorted(agents.items()):
        model = trait(agent, ModelSeat)
        if model is not None and isinstance(model.chat, Probed):
            users.setdefault(id(model.chat), (model.chat, []))[1].append(seat)
    return list(users.values())


async def preflight(
    agents: Mapping[SeatId, Agent], *, timeout_s: float | None = None, probe: bool = True
) -> dict[str, dict[str, Any]]:
    """Check every model endpoint and greet every remote agent; `ReplayHeader.endpoints`.

    Keys are checked first for all endpoints (no network), then every endpoint is probed
    concurrently, each within its own probe limit (`probe_timeout_s`, which follows its
    `timeout_s`) unless `timeout_s` is given for all, then every remote agent is greeted
    (`hello`). The result maps each endpoint to its capability record. Without `probe`
    (a resumed game, whose header keeps the records) only the remote agents are greeted.

    Raises:
        ArenaError: a missing key, an unreachable endpoint, a rejected key, an unknown
            model, a probe past its limit, or a remote agent that is down — naming the
            endpoint or agent and its seats.
    """
    users = probed(agents) if probe else []
    for chat, seats in users:
        try:
            chat.check_credentials()
        except ArenaError as exc:
            raise ArenaError(f"seats {_seats(seats)}: {exc}") from None
    results = await asyncio.gather(*(_probe(c, s, timeout_s) for c, s in users))
    await preflight_remote(agents, timeout_s=min(timeout_s or GREETING_S, GREETING_S))
    return dict(results)


async def _probe(
    chat: Probed, seats: list[SeatId], timeout_s: float | None
) -> tuple[str, dict[str, Any]]:
    """One endpoint's capability record, or its failure in one line naming its seats."""
    limit = timeout_s or chat.probe_timeout_s or DEFAULT_PROBE_S
    try:
        caps = await asyncio.wait_for(chat.probe(), limit)
    except TimeoutError:
        raise ArenaError(
            f"{chat.endpoint} (seats {_seats(seats)}): the probe got no answer within "
            f"{limit:g} s (set probe_timeout_s, or --probe-timeout)"
        ) from None
    except ArenaError as exc:
        raise ArenaError(f"seats {_seats(seats)}: {exc}") from None
    return chat.endpoint, caps.model_dump(mode="json")


def _seats(seats: Sequence[SeatId]) -> str:
    return ",".join(map(str, seats))


async def aclose_models(agents: Mapping[SeatId, Agent]) -> None:
    """Close the connection pools of the agents' chat models and remote agents.

    Call it at the end of the coroutine that played the game, in the same event loop:
    a pool left to the garbage collector would try to close itself in whatever loop is
    running then.
    """
    for agent in agents.values():
        remote = trait(agent, RemoteAgent)
        if remote is not None:
            await remote.aclose()
    for chat, _ in probed(agents):
        await chat.aclose()
