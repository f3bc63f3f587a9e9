"""Do simultaneous decisions really overlap? And how many tokens does a game cost?

Plays full games with every seat an `LLMAgent` talking real HTTP to the local stub server,
which answers every call after an injected latency L with a random legal tool call. It
prints the wall time against two bounds:

- sequential steps × L — the chain of batches the runner must wait for one after the
  other (a batch of simultaneous requests, or a round of belief reports, costs one L);
- model calls × L — what the game would take if no two calls overlapped.

A wall time near the first and far below the second shows the runner asks simultaneous
decisions at once. Tokens are the stub's estimates (about 4 ASCII characters or 1 CJK
character a token); cached tokens emulate an OpenAI-style prefix cache.

    .venv/bin/python benchmarks/llm_latency.py --latency 0.1 --games 2
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from arena.agents.base import Agent, AgentReply
from arena.agents.model.agent import LLMAgent
from arena.llm.base import ToolChoice
from arena.llm.openai_provider import OpenAIChatModel
from arena.llm.types import ChatMessage, ModelReply, ToolSpec, Usage
from arena.match import Limits, play
from arena.records import BeliefReport
from arena.rules.config import GameConfig
from arena.rules.decisions import DecisionRequest
from arena.rules.observation import Observation
from arena.rules.referee import Referee
from arena.transcript import Lang
from tests.support.stub_policy import random_legal
from tests.support.stub_server import StubServer

Beliefs = Literal["off", "daily", "per_speech"]


@dataclass
class SeatModel:
    """One seat's view of the shared endpoint: counts its calls and tokens."""

    inner: OpenAIChatModel
    usage: Usage = Usage()
    calls: int = 0

    @property
    def model(self) -> str:
        return self.inner.model

    async def generate(
        self, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec], tool_choice: ToolChoice
    ) -> ModelReply:
        reply = await self.inner.generate(messages, tools, tool_choice)
        self.calls += 1
        self.usage = self.usage + reply.usage
        return reply


class Counted:
    """An `LLMAgent` wrapper that records which decisions and belief rounds it served."""

    def __init__(self, agent: LLMAgent, log: Counts) -> None:
        self.agent, self.log = agent, log

    @property
    def name(self) -> str:
        return self.agent.name

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        self.log.asks[(request.step, request.seat)] += 1
        return await self.agent.decide(view, request, feedback)

    async def believe(self, view: Observation) -> BeliefReport | None:
        self.log.belief_rounds.add(view.log_length)
        return await self.agent.believe(view)


@dataclass
class Counts:
    """Decisions asked per (batch, seat) and the log positions of belief rounds."""

    asks: defaultdict[tuple[int, int], int] = field(default_factory=lambda: defaultdict(int))
    belief_rounds: set[int] = field(default_factory=set)

    def sequential_steps(self) -> int:
        """Batches, plus re-ask rounds within a batch, plus belief rounds."""
        per_batch: dict[int, int] = defaultdict(int)
        for (step, _), n in self.asks.items():
            per_batch[step] = max(per_batch[step], n)
        return sum(per_batch.values()) + len(self.belief_rounds)


@dataclass(frozen=True)
class GameResult:
    """What one game measured."""

    wall: float
    batches: int
    steps: int
    calls: int
    seats: dict[int, tuple[int, Usage]]
    winner: str
    days: int


async def one_game(url: str, board: str, seed: int, lang: Lang, beliefs: Beliefs) -> GameResult:
    config = GameConfig(board=board)
    endpoint = OpenAIChatModel("stub-llm", base_url=url, api_key="unused", mode="tools_strict")
    seats = {s: SeatModel(endpoint) for s in range(1, config.board_spec.seats + 1)}
    counts = Counts()
    agents: dict[int, Agent] = {
        s: Counted(LLMAgent(m, lang=lang, rules=config.rules), counts) for s, m in seats.items()
    }
    referee = Referee(config, seed)
    started = time.perf_counter()
    await play(referee, agents, limits=Limits(beliefs=beliefs))
    wall = time.perf_counter() - started
    await endpoint.aclose()
    return GameResult(
        wall=wall,
        batches=len({step for step, _ in counts.asks}),
        steps=counts.sequential_steps(),
        calls=sum(m.calls for m in seats.values()),
        seats={s: (m.calls, m.usage) for s, m in seats.items()},
        winner=str(referee.winner),
        days=referee.state.day,
    )


def report(result: GameResult, latency: float) -> None:
    wall, steps, calls = result.wall, result.steps, result.calls
    print(
        f"  {result.days} days, {result.winner} win; {result.batches} request batches, "
        f"{steps} sequential steps, {calls} model calls"
    )
    print(
        f"  wall {wall:6.2f} s | steps × L = {steps * latency:6.2f} s | "
        f"calls × L = {calls * latency:6.2f} s"
    )
    print(
        f"  wall / (steps × L) = {wall / (steps * latency):.2f}; "
        f"overlap (calls × L / wall) = {calls * latency / wall:.2f}×"
    )
    total = sum((u for _, u in result.seats.values()), Usage())
    print(
        f"  tokens per game: prompt {total.prompt_tokens:,} (cached {total.cached_tokens:,}), "
        f"completion {total.completion_tokens:,}"
    )
    print("  seat  calls   prompt   cached  completion")
    for seat, (n, u) in sorted(result.seats.items()):
        print(
            f"  {seat:4d}  {n:5d}  {u.prompt_tokens:7,d}  {u.cached_tokens:7,d}  "
            f"{u.completion_tokens:10,d}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.1, help="injected seconds per call")
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--board", default="wwk_guard")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--lang", choices=["zh", "en"], default="zh")
    parser.add_argument("--beliefs", choices=["off", "daily", "per_speech"], default="daily")
    args = parser.parse_args()
    results: list[GameResult] = []
    policy = random_legal(args.seed, weights={"self_explode": 0.03})
    with StubServer(policy, latency_s=args.latency) as server:
        for game in range(args.games):
            seed = args.seed + game
            print(
                f"game {game + 1}: board {args.board}, seed {seed}, L = {args.latency:g} s, "
                f"beliefs {args.beliefs}, prompts {args.lang}"
            )
            result = asyncio.run(one_game(server.url, args.board, seed, args.lang, args.beliefs))
            report(result, args.latency)
            results.append(result)
    wall = sum(r.wall for r in results)
    steps = sum(r.steps for r in results) * args.latency
    calls = sum(r.calls for r in results) * args.latency
    print(f"all games: wall {wall:.2f} s vs steps × L {steps:.2f} s vs calls × L {calls:.2f} s")


if __name__ == "__main__":
    main()
