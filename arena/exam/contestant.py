"""A contestant: a seat spec, and a fresh seat of it for every moment an exam asks.

Seats are built by the one factory games use (`arena.agents.seats.build_agents`), from the
same spec strings (`bot`, `random`, `noisy:P:SPEC`, `py:MODULE:FACTORY`, an installed
agent, a URL, `openai:MODEL`, `langchain:PROVIDER:MODEL`), so a contestant answers an item
exactly as it would play that seat. Each moment gets a new seat — a model seat's
conversation starts there, rendered from the view alone — while a model's endpoint is
probed once and its chat model (connection pool, token gauge, chosen answer mode) is
shared by every seat of the contestant. A remote agent is greeted once, and each of its
seats knows the features its hello listed.
"""

from __future__ import annotations

import hashlib
from typing import Any

from arena.agents.base import Agent
from arena.agents.preflight import preflight
from arena.agents.remote import check_health
from arena.agents.remote.client import RemoteAgent
from arena.agents.remote.protocol import HelloReply
from arena.agents.remote.seat import RemoteSettings, token_of
from arena.agents.seats import MatchSpec, SeatSpec, build_agents, endpoint_settings, to_seat_spec
from arena.agents.traits import trait
from arena.errors import ArenaError
from arena.exam.items import Item
from arena.llm.base import ChatModel


class Contestant:
    """One contestant of a sitting: its spec and how to seat it at a moment."""

    def __init__(self, spec: str, match: MatchSpec) -> None:
        """Check the spec (one line if it is bad); nothing connects yet.

        Raises:
            ArenaError: a bad or unknown spec, or a person (`human`), who sits no exam here.
        """
        self.label = spec
        self.seat: SeatSpec = to_seat_spec(spec)
        if self.seat.kind == "human":
            raise ArenaError(f"{spec}: a person cannot sit an exam from the command line")
        self.match = match
        self._models: dict[str, ChatModel] = {}
        self._hello: HelloReply | None = None
        self.endpoints: dict[str, dict[str, Any]] = {}

    @property
    def is_model(self) -> bool:
        """Whether the contestant calls a chat model itself (`openai:`, `langchain:`)."""
        return self.seat.kind in ("openai", "langchain")

    def seat_at(self, item: Item, exam_id: str, seat: int | None = None) -> Agent:
        """A fresh seat of this contestant for `item`'s moment (another `seat` of it: a judge).

        Its seed and game id follow from the moment alone (the same for every contestant
        and every sitting): a bot answers a moment the same way each time.
        """
        seat = item.seat if seat is None else seat
        moment = f"{exam_id}/{item.source}/{seat}/{item.step}"
        seed = int.from_bytes(hashlib.sha256(moment.encode()).digest()[:4], "big") >> 1
        agents = build_agents(
            {seat: self.seat},
            item.config,
            seed,
            self.match,
            game_id=f"{exam_id}-{item.source[:12]}-{item.step}",
            models=self._models,
        )
        agent = agents[seat]
        remote = trait(agent, RemoteAgent)
        if remote is not None and self._hello is not None:
            remote.greeted(self._hello)
        return agent

    async def prepare(self, item: Item, exam_id: str) -> None:
        """Probe the model endpoint or greet the remote agent, once, before any item.

        Raises:
            ArenaError: the endpoint or agent is down or unusable (one line).
        """
        agent = self.seat_at(item, exam_id)
        self.endpoints = await preflight({item.seat: agent})
        if self.seat.kind == "remote":
            assert self.seat.model is not None
            settings = endpoint_settings(self.seat, self.match)
            token = token_of(RemoteSettings(token_env=settings.token_env))
            self._hello = await check_health(self.seat.model, token)

    @property
    def slots(self) -> int | None:
        """Calls in flight at most: the spec's `slots`, else the probed server's slot count."""
        configured = endpoint_settings(self.seat, self.match).slots
        probed = [e.get("slots") for e in self.endpoints.values()]
        found = next((s for s in probed if isinstance(s, int) and s > 0), None)
        return configured or found

    async def aclose(self) -> None:
        """Close the shared chat models' connection pools (in the loop that used them)."""
        for model in self._models.values():
            aclose = getattr(model, "aclose", None)
            if aclose is not None:
                await aclose()
        self._models.clear()
