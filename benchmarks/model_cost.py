"""What does a model game cost? Calls, tokens, prefix reuse and replay size per game.

Plays the 12-seat `wolfking_guard` board in English with daily beliefs, every seat a
model seat talking real HTTP to the local stub server, which answers each question with
a random legal answer and 600-character speeches, drawn from the question alone (so a
seed plays the same game every run, and two conversation designs compare on the same
games). From
each replay (traces expanded back to the requests as sent) it prints per game:

- calls, and prompt tokens as characters / 4 of the tools and messages as sent;
- reusable prefix: the share of each request that is an exact prefix of the same seat's
  previous request (tools first, then messages — what a provider's prefix cache reuses),
  split into what is not: each seat's first request, the new turns, condensations;
- shared prefix: the same, against any earlier request of the game (a cache shared by
  every seat, as OpenAI's and DeepSeek's are per account and llama.cpp's per slot);
- effective tokens: uncached + 0.1 × cached prompt tokens, with cached = the reusable
  prefix (OpenAI-style caching at a tenth of the price);
- replay size, and the critical path: the batches the runner waits for one after the
  other (referee batches plus separate belief rounds).

    PYTHONPATH=. .venv/bin/python benchmarks/model_cost.py --games 3
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
from collections import defaultdict
from pathlib import Path

from arena.agents.preflight import aclose_models, preflight
from arena.agents.seats import EndpointSettings, MatchSpec, build_agents, parse_seats
from arena.llm.types import ModelCallRecord
from arena.match import Limits, new_header, run_game
from arena.rules.config import GameConfig
from arena.storage.calls import expand_calls
from arena.storage.replay_file import Replay, read_replay
from tests.support.stub_policy import random_legal
from tests.support.stub_server import StubServer

BOARD = "wolfking_guard"
SPEECH = ("I have listened carefully to everyone, and I want to lay out my reasoning. " * 9)[:600]


def request_text(record: ModelCallRecord) -> str:
    """A request as a prefix cache sees it: tools first, then each message in order."""
    tools = json.dumps([t.model_dump(mode="json") for t in record.tools or ()], ensure_ascii=False)
    return tools + "".join(f"\n<{m.role}>\n{m.content}" for m in record.messages)


def common_prefix(a: str, b: str) -> int:
    """The length of the longest common prefix (bisected with C-speed slice compares)."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def figures(replay: Replay, size: int) -> dict[str, float]:
    """The benchmark's figures for one replay."""
    calls = expand_calls([*replay.traces, *(c for b in replay.beliefs for c in b.calls)])
    previous: dict[int, str] = {}
    earlier: list[str] = []
    total = reusable = shared_any = first = condensed = 0
    for call in calls:
        text = request_text(call)
        before = previous.get(call.seat)
        shared = common_prefix(before, text) if before is not None else 0
        total += len(text)
        reusable += shared
        if before is None:
            first += len(text)
        elif shared < len(before):  # not an extension: a condensation point
            condensed += len(text) - shared
        shared_any += max((common_prefix(e, text) for e in earlier), default=0)
        previous[call.seat] = text
        earlier.append(text)
    tokens, cached = total / 4, reusable / 4
    steps = len({a.step for a in replay.answers})
    belief_rounds = len({b.after_seq for b in replay.beliefs if b.calls})
    return {
        "calls": len(calls),
        "prompt_tokens": tokens,
        "reusable_share": reusable / total if total else 0.0,
        "first_share": first / total if total else 0.0,
        "condensed_share": condensed / total if total else 0.0,
        "shared_share": shared_any / total if total else 0.0,
        "effective_tokens": (tokens - cached) + 0.1 * cached,
        "replay_bytes": size,
        "critical_path": steps + belief_rounds,
        "days": replay.header.result.days if replay.header.result else 0,
    }


async def one_game(seed: int, url: str, folder: Path, history: int) -> dict[str, float]:
    config = GameConfig(board=BOARD)
    settings = EndpointSettings(base_url=url, history_tokens=history)
    spec = MatchSpec(lang="en", endpoints={"openai": settings})
    seats = parse_seats(["1-12=openai:stub"], 12)
    agents = build_agents(seats, config, seed, spec, beliefs="daily")
    try:
        endpoints = await preflight(agents)
        header = new_header(f"cost-{seed}", config, seed, agents, endpoints=endpoints)
        path = folder / f"cost-{seed}.jsonl"
        await run_game(header, agents, path, limits=Limits(beliefs="daily", call_timeout_s=30))
    finally:
        await aclose_models(agents)  # before asyncio.run closes the loop under the clients
    return figures(read_replay(path), path.stat().st_size)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="keep the replays in this folder")
    parser.add_argument(
        "--history-tokens",
        type=int,
        default=EndpointSettings.model_fields["history_tokens"].default,
        help="each seat's history budget before older days are condensed (default: %(default)s)",
    )
    args = parser.parse_args()
    rows: dict[str, list[float]] = defaultdict(list)
    with (
        tempfile.TemporaryDirectory() as tmp,
        StubServer(random_legal(7, text=lambda: SPEECH, reproducible=True)) as server,
    ):
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        for seed in range(1, args.games + 1):
            result = asyncio.run(one_game(seed, server.url, folder, args.history_tokens))
            for key, value in result.items():
                rows[key].append(value)
            print(
                f"game {seed}: {result['calls']:.0f} calls, {result['prompt_tokens']:,.0f} prompt "
                f"tokens, reusable prefix {result['reusable_share']:.1%} (not: first "
                f"requests {result['first_share']:.1%}, condensations "
                f"{result['condensed_share']:.1%}, new turns the rest), shared with any "
                f"earlier request {result['shared_share']:.1%}, effective "
                f"{result['effective_tokens']:,.0f}, replay {result['replay_bytes'] / 1e6:.2f} MB, "
                f"critical path {result['critical_path']:.0f} steps, {result['days']:.0f} days"
            )
    print("mean:", ", ".join(f"{k} {statistics.mean(v):,.3f}" for k, v in rows.items()))


if __name__ == "__main__":
    main()
