"""Seat specs that name a URL: parsing, settings, building the seat, and the preflight.

`http://…` and `https://…` are seat specs wherever a seat spec is read (`arena play
--seat`, spec files, tournament files, the Play page); the seat builder calls
`remote_agent` for them and `preflight_remote` before a game or a tournament. A
token is never written in a file: settings name the environment variable holding it.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Mapping
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field

from arena.agents.base import DECISION_TIMEOUT_S
from arena.agents.remote.client import RemoteAgent
from arena.agents.remote.transport import check_health
from arena.agents.traits import trait
from arena.errors import ArenaError
from arena.text.script import AgentLang


class RemoteSettings(BaseModel):
    """How to reach and time one remote agent."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    token_env: str | None = None
    """The environment variable holding the agent's token (unsigned requests without)."""
    decision_timeout_s: float = Field(DECISION_TIMEOUT_S, gt=0)
    """The per-decision time limit (every seat kind's default, `DECISION_TIMEOUT_S`)."""
    overage_s: float = Field(0.0, ge=0)
    """The game's overage budget (Kaggle's model, docs/agents.md): none unless given."""
    lang: AgentLang = "zh"
    """The game's language, sent in `start` (`arena.text.script.AgentLang`)."""


def is_url(spec: str) -> bool:
    """Whether a seat spec names a remote agent."""
    return spec.startswith(("http://", "https://"))


def check_url(spec: str) -> str:
    """`spec` if it is a usable agent URL.

    Raises:
        ArenaError: one line: no host, a space, a fragment, or not http(s).
    """
    parts = urlsplit(spec)
    if parts.scheme not in ("http", "https") or not parts.hostname or " " in spec:
        raise ArenaError(f"bad agent URL {spec!r}: use http(s)://HOST[:PORT]/PATH")
    if parts.fragment:
        raise ArenaError(f"bad agent URL {spec!r}: a URL with a #fragment is not sent")
    try:
        parts.port  # noqa: B018 - raises on a port that is not a number
    except ValueError:
        raise ArenaError(f"bad agent URL {spec!r}: the port is not a number") from None
    return spec


def token_of(settings: RemoteSettings) -> str | None:
    """The agent's token from its environment variable (None when it has none).

    Raises:
        ArenaError: the variable is named but not set.
    """
    if settings.token_env is None:
        return None
    token = os.environ.get(settings.token_env)
    if not token:
        raise ArenaError(f"{settings.token_env} is not set (named as token_env for the agent)")
    return token


def remote_agent(
    url: str, settings: RemoteSettings, *, game_id: str, name: str | None = None
) -> RemoteAgent:
    """One seat's agent for one game (its own secret: build one per seat and game).

    Raises:
        ArenaError: a bad URL, or a token variable that is not set.
    """
    return RemoteAgent(
        check_url(url),
        game_id=game_id,
        token=token_of(settings),
        name=name,
        limit_s=settings.decision_timeout_s,
        overage_s=settings.overage_s,
        lang=settings.lang,
    )


async def preflight_remote(agents: Mapping[int, object], *, timeout_s: float = 5.0) -> None:
    """Say `hello` to every remote agent among `agents` (each URL once, concurrently).

    Each seat's agent then knows the features its hello listed (`RemoteAgent.greeted`):
    this is where the arena learns that an agent answers belief questions. A remote agent
    is found through any wrapper (`arena.agents.traits.trait`).

    Raises:
        ArenaError: one line naming the agent and its seats, when one is down or wrong.
    """
    seats: dict[tuple[str, str | None], list[tuple[int, RemoteAgent]]] = {}
    for seat, agent in sorted(agents.items()):
        remote = trait(agent, RemoteAgent)
        if remote is not None:
            seats.setdefault((remote.url, remote.token), []).append((seat, remote))

    async def hello(url: str, token: str | None, at: list[tuple[int, RemoteAgent]]) -> None:
        try:
            reply = await check_health(
                url, token, timeout_s=timeout_s, transport=at[0][1].transport
            )
        except ArenaError as exc:
            raise ArenaError(f"seats {','.join(str(s) for s, _ in at)}: {exc}") from None
        for _, remote in at:
            remote.greeted(reply)

    await asyncio.gather(*(hello(url, token, at) for (url, token), at in seats.items()))
