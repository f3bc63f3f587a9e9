"""The seats a policy does not play: any seat spec, answered inside the environment.

`arena.rl.env(board, opponents=...)` seats an agent built from a seat spec at each seat
the policy does not play: `{4: "bot", 5: "random"}`, or seat specs as `arena play --seat`
takes them (`"4-12=bot"`, `["4-9=bot", "10-12=noisy:0.3:bot"]`). Any spec but a person
works: `bot`, `random`, `noisy:P:SPEC`, a plug-in (`py:MODULE:FACTORY`, an installed
agent's name), a remote agent's URL, a model seat (`openai:…`, `langchain:…`).

They are the very seats a game would seat (`arena.agents.seats.build_agents`, with the
seat seeds `arena play --seed S` gives them), built afresh for every game, and they are
asked as a game asks them (`arena.match.decide`: the view of their own seat, the same
time limit, re-asks with the referee's reason, and the request's default after the last
refusal). The environment answers their requests itself, in seat order within a batch,
so the policy's agents (`env.agents`) are the other seats only and never wait for them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Mapping, Sequence
from typing import Any, TypeVar

from arena.agents.base import Agent
from arena.agents.preflight import aclose_models, preflight
from arena.agents.remote.client import RemoteAgent
from arena.agents.seats import MatchSpec, SeatSpec, build_agents, parse_seat_spec
from arena.agents.traits import trait
from arena.errors import ArenaError
from arena.llm.base import ChatModel
from arena.match import Limits, decide, now
from arena.rules.config import GameConfig
from arena.rules.decisions import DecisionRequest
from arena.rules.errors import ConfigError
from arena.rules.observation import observe
from arena.rules.referee import Referee
from arena.rules.types import SeatId
from arena.rules.visibility import SeatViewer
from arena.transcript import Lang

T = TypeVar("T")

Opponents = Mapping[int, str] | Sequence[str] | str
"""`{seat: spec}`, or seat specs (`"4-12=bot"`, a list of them)."""


def parse_opponents(opponents: Opponents, seats: int) -> dict[SeatId, SeatSpec]:
    """Each opponent's seat and spec, for a table of `seats`.

    Raises:
        ConfigError: a bad spec, a seat named twice, a person, or no seat left to the
            policy; one line, starting `opponents:`.
    """
    if isinstance(opponents, Mapping):
        texts = [f"{seat}={spec}" for seat, spec in opponents.items()]
    else:
        texts = [opponents] if isinstance(opponents, str) else list(opponents)
    table: dict[SeatId, SeatSpec] = {}
    for text in texts:
        try:
            parsed = parse_seat_spec(text, seats)
        except ArenaError as exc:
            raise ConfigError(f"opponents: {exc}") from None
        for seat, spec in parsed.items():
            if seat in table:
                raise ConfigError(f"opponents: seat {seat} is named twice")
            if spec.kind == "human":
                raise ConfigError(f"opponents: seat {seat}: a person cannot sit in the environment")
            table[seat] = spec
    if len(table) >= seats:
        raise ConfigError("opponents: every seat is taken; leave the policy at least one")
    return table


class Opposition:
    """The opponents of one environment: seated for each game, asked in its own loop."""

    def __init__(self, specs: Mapping[SeatId, SeatSpec], config: GameConfig, lang: Lang) -> None:
        """Opponents at `specs`' seats of `config`'s games, speaking `lang`."""
        self.seats = frozenset(specs)
        self._specs = dict(specs)
        self._config = config
        self._match = MatchSpec(lang=lang)
        self._limits = Limits()
        self._agents: dict[SeatId, Agent] = {}
        self._models: dict[str, ChatModel] = {}
        """Model seats' chat models, kept across games: each endpoint is probed once."""
        self._loop: asyncio.AbstractEventLoop | None = None

    def deal(self, seed: int) -> None:
        """Seat new agents for the game of `seed`, checked and greeted as a game's are.

        Raises:
            ArenaError: a plug-in that cannot be made, an endpoint or agent that is down.
        """
        probe = not self._models
        self._run(self._release(models=False))
        self._agents = build_agents(
            self._specs, self._config, seed, self._match, game_id=f"rl-{seed}",
            models=self._models,
        )  # fmt: skip
        self._run(preflight(self._agents, probe=probe))

    def answer(self, referee: Referee, request: DecisionRequest) -> None:
        """Ask the opponent at `request.seat` as a game would, and submit its answer."""
        agent = self._agents[request.seat]
        view = observe(referee.events, SeatViewer(seat=request.seat))
        outcome = self._run(self._ask(agent, view, request))
        referee.submit(request.seat, outcome.action, defaulted=outcome.defaulted)

    def close(self) -> None:
        """Close the seats' connections and the loop they were asked in."""
        if self._agents:
            self._run(self._release(models=True))
        if self._loop is not None:
            self._loop.close()
            self._loop = None

    async def _ask(self, agent: Agent, view: Any, request: DecisionRequest) -> Any:
        outcome, _ = await decide(
            agent, view, request, self._limits, now() + self._limits.game_timeout_s
        )
        return outcome

    async def _release(self, *, models: bool) -> None:
        """Close the last game's remote agents' connections.

        With `models`, the chat models' too (between games the next seats share them).
        """
        if models:
            await aclose_models(self._agents)
        for agent in self._agents.values():
            if not models and (remote := trait(agent, RemoteAgent)) is not None:
                await remote.aclose()
        self._agents = {}

    def _run(self, call: Coroutine[Any, Any, T]) -> T:
        if self._loop is None:
            self._loop = asyncio.new_event_loop()
        return self._loop.run_until_complete(call)
