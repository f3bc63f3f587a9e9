"""A request queued behind other seats on a server does not count against its decision.

Three model seats vote at once on a server that answers one request at a time (as
llama.cpp's server with one slot does). Each answer takes `LATENCY_S`; the third waits
for two others first. `arena play` holds one of the server's slots (read by the probe)
before each decision's clock starts, so every vote is the model's own within a limit
that one answer fits in and three do not; the same seats without the slots time out.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from arena.agents.base import Agent
from arena.agents.preflight import aclose_models, preflight
from arena.agents.random_agent import random_action
from arena.agents.seats import EndpointSettings, MatchSpec, build_agents, parse_seats
from arena.agents.slots import hold_slots
from arena.match import Limits, Outcome, decide, now
from arena.rules.config import GameConfig
from arena.rules.decisions import DecisionKind, DecisionRequest
from arena.rules.observation import Observation, observe
from arena.rules.referee import Referee
from arena.rules.visibility import SeatViewer
from tests.support.stub_server import StubServer

CONFIG = GameConfig(board="wwk_guard")
SEATS = (1, 2, 3)
LATENCY_S = 0.6
"""One answer's time on the stub server."""
DECISION_S = 1.5
"""A decision's limit: one answer fits with room to spare, three in a row do not."""


def three_votes() -> list[tuple[Observation, DecisionRequest]]:
    """The first exile vote of a random game in which seats 1-3 all vote."""
    rng = random.Random(4)
    referee = Referee(CONFIG, 4)
    while not referee.finished:
        pending = referee.pending()
        votes = [r for r in pending if r.kind is DecisionKind.VOTE and r.seat in SEATS]
        if len(votes) == len(SEATS):
            return [(observe(referee.events, SeatViewer(seat=r.seat)), r) for r in votes]
        for request in pending:
            referee.submit(request.seat, random_action(request, rng))
    raise AssertionError("no vote of seats 1-3 in this game")


@pytest.mark.parametrize("gated", [True, False])
def test_a_queued_request_does_not_count_against_its_decision(tmp_path: Path, gated: bool) -> None:
    votes = three_votes()
    with StubServer(slots=1, latency_s=LATENCY_S) as server:
        settings = EndpointSettings(base_url=server.url, mode="tools", retries=0)
        spec = MatchSpec(lang="en", endpoints={"openai": settings})
        agents = build_agents(parse_seats(["1-3=openai:m"], 12), CONFIG, seed=4, spec=spec)

        async def go() -> list[Outcome]:
            try:
                endpoints = await preflight(agents)
                assert endpoints[f"openai:m@{server.url}"]["slots"] == 1
                seats: dict[int, Agent] = hold_slots(agents, endpoints) if gated else agents
                limits = Limits(call_timeout_s=DECISION_S, retries=0)
                deadline = now() + 600
                done = await asyncio.gather(
                    *(decide(seats[r.seat], view, r, limits, deadline) for view, r in votes)
                )
                return [outcome for outcome, _ in done]
            finally:
                await aclose_models(agents)

        outcomes = asyncio.run(go())
    defaulted = [o.defaulted for o in outcomes if o.defaulted is not None]
    if gated:
        assert defaulted == []
    else:
        assert defaulted, "without the slots the third vote should have waited too long"
