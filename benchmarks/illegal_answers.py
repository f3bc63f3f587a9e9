"""How often do model seats answer illegally, and what does enforcing the legal answers buy?

Plays 12-seat `wolfking_guard` games in English, every seat a model seat talking real
HTTP to the stub server, in three set-ups:

- `uniform / act tool`: a model that ignores the question and writes any answer the
  stable `act` tool's schema admits (every seat equally likely) — the baseline the issue
  names, what a grammar-constrained weak model does through a tool;
- `reads / act tool`: a model that reads the listed legal answers and picks one;
- `uniform / json_legal`: the first model on a llama.cpp-like endpoint, where each
  request's legal answers are enforced as the output schema.

For each it prints decisions, first answers refused by the referee (illegal or
malformed; re-asked in the same chat), their rate, and decisions left to defaults.

    PYTHONPATH=. .venv/bin/python benchmarks/illegal_answers.py --games 3
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from collections.abc import Callable
from pathlib import Path

from arena.agents.preflight import aclose_models
from arena.agents.seats import EndpointSettings, MatchSpec, build_agents, parse_seats
from arena.llm.base import AnswerMode
from arena.match import Limits, new_header, run_game
from arena.rules import events as ev
from arena.rules.config import GameConfig
from arena.storage.replay_file import read_replay
from tests.support.stub_policy import Policy, random_legal, uniform
from tests.support.stub_server import StubModel, StubServer

BOARD = "wolfking_guard"
SETUPS: dict[str, tuple[Callable[[int], Policy], StubModel, AnswerMode]] = {
    "uniform / act tool": (uniform, StubModel(), "tools_strict"),
    "reads / act tool": (random_legal, StubModel(), "tools_strict"),
    "uniform / json_legal": (uniform, StubModel(schema_in_prompt=False), "json_legal"),
}
"""Policy, endpoint and answer mode. The mode is set, not probed: the probe rightly finds
that `uniform` cannot play through the tool (it rarely votes legally in three tries)."""


async def one_game(seed: int, url: str, mode: AnswerMode, path: Path) -> tuple[int, int, int]:
    """(decisions, refused first answers, defaults) of one game."""
    config = GameConfig(board=BOARD)
    settings = EndpointSettings(base_url=url, mode=mode)
    spec = MatchSpec(lang="en", endpoints={"openai": settings})
    agents = build_agents(parse_seats(["1-12=openai:m"], 12), config, seed, spec, beliefs="off")
    header = new_header(f"legal-{seed}", config, seed, agents)
    try:
        await run_game(header, agents, path, limits=Limits(beliefs="off", call_timeout_s=30))
    finally:
        await aclose_models(agents)  # before asyncio.run closes the loop under the clients
    replay = read_replay(path)
    decisions = {(t.seat, t.step) for t in replay.traces if t.step >= 0}
    refused = {(t.seat, t.step) for t in replay.traces if t.step >= 0 and t.attempt == 2}
    defaulted = sum(isinstance(e, ev.ActionDefaulted) for e in replay.events)
    return len(decisions), len(refused), defaulted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for name, (policy, caps, mode) in SETUPS.items():
            totals = [0, 0, 0]
            for seed in range(1, args.games + 1):
                with StubServer(policy(seed), capabilities={"m": caps}) as server:
                    path = Path(tmp) / f"{name.replace(' / ', '-')}-{seed}.jsonl"
                    counts = asyncio.run(one_game(seed, server.url, mode, path))
                totals = [a + b for a, b in zip(totals, counts, strict=True)]
            decisions, refused, defaulted = totals
            print(
                f"{name:22} ({mode}): {decisions} decisions, {refused} first answers refused "
                f"({refused / max(decisions, 1):.1%}), {defaulted} defaulted"
            )


if __name__ == "__main__":
    main()
