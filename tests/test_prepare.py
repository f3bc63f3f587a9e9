"""`prepare_game`: one sequence for every game's start — probe, greet, header, slots, close."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

import pytest

from arena.agents.base import Agent
from arena.agents.delayed import Delayed
from arena.agents.random_agent import RandomAgent
from arena.agents.slots import LocalGate, Throttled
from arena.errors import ArenaError
from arena.llm.base import Capabilities
from arena.match import Entry, new_header
from arena.prepare import GamePlan, prepare_game
from arena.rules.config import GameConfig

CONFIG = GameConfig(board="std9")


class FakeEndpoint:
    """A probed chat model that counts its probes and closings (no network)."""

    def __init__(self, name: str = "fake:m@here", *, refuse: bool = False) -> None:
        self.endpoint = name
        self.model = "m"
        self.probe_timeout_s: float | None = 5.0
        self.refuse = refuse
        self.probes = 0
        self.closed = 0

    def check_credentials(self) -> None:
        if self.refuse:
            raise ArenaError("FAKE_KEY is not set")

    async def probe(self) -> Capabilities:
        self.probes += 1
        return Capabilities(endpoint=self.endpoint, model="m", mode="tools", slots=2)

    async def aclose(self) -> None:
        self.closed += 1

    async def generate(self, *args: Any, **kwargs: Any) -> Any:
        raise AssertionError("never asked here")


class ModelSeatAgent(RandomAgent):
    """A random player that plays through `chat` (a model seat, as far as the arena knows)."""

    def __init__(self, seed: int, chat: FakeEndpoint) -> None:
        super().__init__(seed)
        self.chat = chat

    @property
    def model(self) -> str:
        return "m"


def seats(chat: FakeEndpoint) -> dict[int, Agent]:
    """Nine random seats; seats 2 and 5 share one model endpoint, behind wrappers."""
    agents: dict[int, Agent] = {s: RandomAgent(s) for s in range(1, 10)}
    agents[2] = Delayed(ModelSeatAgent(2, chat), 0.0)
    agents[5] = Throttled(Delayed(ModelSeatAgent(5, chat), 0.0), LocalGate(1))
    return agents


def run(plan: Any, agents: Mapping[int, Agent], **kwargs: Any) -> Any:
    async def go() -> Any:
        async with prepare_game(plan, agents, **kwargs) as game:
            return game

    return asyncio.run(go())


def test_a_new_game_is_probed_once_per_endpoint_headed_and_closed() -> None:
    chat = FakeEndpoint()
    game = run(
        GamePlan("g-1", CONFIG, 7, {"tournament": "t"}),
        seats(chat),
        entries={3: Entry("x", "random")},
    )
    assert chat.probes == 1 and chat.closed == 1
    assert game.header.endpoints == {"fake:m@here": Capabilities(
        endpoint="fake:m@here", model="m", mode="tools", slots=2
    ).model_dump(mode="json")}  # fmt: skip
    assert game.header.tournament == "t" and game.header.seed == 7
    by_seat = {s.seat: s for s in game.header.seats}
    assert by_seat[3].agent == "x" and by_seat[3].spec == "random"
    assert by_seat[4].agent == "random" and by_seat[4].spec is None
    assert by_seat[2].model == "m" and by_seat[5].model == "m"  # seen through the wrappers


def test_a_resumed_game_keeps_its_header_and_is_not_probed() -> None:
    chat = FakeEndpoint()
    agents = seats(chat)
    logged = new_header("g-2", CONFIG, 3, agents, endpoints={"kept": {"slots": 1}})
    game = run(logged, agents)
    assert game.header is logged
    assert chat.probes == 0 and chat.closed == 1


def test_the_seats_are_held_as_the_caller_says_given_the_probes_records() -> None:
    seen: list[Mapping[str, Any]] = []

    def hold(agents: Mapping[int, Agent], endpoints: Mapping[str, Any]) -> dict[int, Agent]:
        seen.append(endpoints)
        return {s: Delayed(a, 0.0) for s, a in agents.items()}

    game = run(GamePlan("g-3", CONFIG, 1), seats(FakeEndpoint()), hold=hold)
    assert list(seen[0]) == ["fake:m@here"]
    assert all(isinstance(a, Delayed) for a in game.agents.values())


def test_a_seat_that_cannot_play_fails_in_one_line_and_is_still_closed() -> None:
    chat = FakeEndpoint(refuse=True)
    with pytest.raises(ArenaError, match=r"^seats 2,5: FAKE_KEY is not set$"):
        run(GamePlan("g-4", CONFIG, 1), seats(chat))
    assert chat.probes == 0 and chat.closed == 1


def test_the_pools_are_closed_when_the_game_in_the_block_fails() -> None:
    chat = FakeEndpoint()

    async def go() -> None:
        async with prepare_game(GamePlan("g-5", CONFIG, 1), seats(chat)):
            raise RuntimeError("the game broke")

    with pytest.raises(RuntimeError, match="the game broke"):
        asyncio.run(go())
    assert chat.closed == 1
