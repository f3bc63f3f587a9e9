"""The overhead per decision of a remote agent on loopback (issue 18, target: under 5 ms).

The example agent (`examples/agents/remote_agent.py`) runs as a separate process on
127.0.0.1 with a token, so both signatures are made and checked; every seat of N seeded
12-seat games is a `RemoteAgent` on it. Each decision's time is what the runner waits for
`RemoteAgent.decide`: serializing the seat's projection and the request, signing, the
HTTP round trip, the agent parsing, verifying and answering, and the arena verifying and
parsing the answer. The agent's own time — its policy, `choose` — is measured apart, on
the same messages in-process, and subtracted: what remains is the protocol's overhead.

A second run sends the same games through `httpx.MockTransport` to the example's handler
in-process (no socket, no HTTP server), to split the overhead between the arena's side
and the wire plus the agent's stdlib server.

    .venv/bin/python benchmarks/remote_overhead.py --games 5 --rounds 500

The probe asks one seat one mid-game decision at a time, interleaved with a null HTTP
exchange (`hello`) to the same process, so the two loopback series meet the same load:
on a busy machine the scheduler, not the protocol, sets most of a round trip.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx

from arena.agents.random_agent import random_action
from arena.agents.remote import RemoteAgent
from arena.agents.remote.protocol import Hello
from arena.agents.remote.transport import signed_headers
from arena.conformance import Probe
from arena.match import Limits, play
from arena.ratings.stats import quantile
from arena.rules.config import GameConfig
from arena.rules.events import ActionDefaulted
from arena.rules.observation import observe
from arena.rules.referee import Referee
from arena.rules.visibility import SeatViewer

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tests.agents.remote.support import EXAMPLE, InProcess  # noqa: E402

TOKEN = "benchmark-token"


async def games(url: str, seeds: range, transport=None) -> tuple[list[float], int]:
    """Per-decision times (ms) over the games, and the number of defaults."""
    probes: list[Probe] = []
    defaults = 0
    for seed in seeds:
        seats = {
            s: RemoteAgent(url, game_id=f"bench-{seed}", token=TOKEN, transport=transport)
            for s in range(1, 13)
        }
        referee = Referee(GameConfig(board="wwk_guard"), seed)
        timed = {s: Probe(a) for s, a in seats.items()}
        probes += timed.values()
        try:
            await play(referee, timed, limits=Limits(beliefs="off"))
        finally:
            for agent in seats.values():
                await agent.aclose()
        defaults += sum(isinstance(e, ActionDefaulted) for e in referee.events)
    return [c.latency_s * 1000 for probe in probes for c in probe.calls], defaults


def policy_times(seeds: range) -> tuple[list[float], list[int]]:
    """The example's `choose` (ms) on every decide message of the games, and body sizes."""
    agent = InProcess(token=TOKEN)

    async def run() -> None:
        for seed in seeds:
            seats = {
                s: RemoteAgent(
                    "http://in-process/agent",
                    game_id=f"bench-{seed}",
                    token=TOKEN,
                    transport=agent.transport(),
                )
                for s in range(1, 13)
            }
            await play(
                Referee(GameConfig(board="wwk_guard"), seed), seats, limits=Limits(beliefs="off")
            )

    asyncio.run(run())
    messages = [json.loads(b) for b in agent.bodies]
    decides = [m for m in messages if m["type"] == "decide"]
    times = []
    for message in decides:
        rng = random.Random(0)
        started = time.perf_counter()
        agent.module.choose(message, rng)
        times.append((time.perf_counter() - started) * 1000)
    sizes = [len(b) for b in agent.bodies if b'"decide"' in b[:40]]
    return times, sizes


async def probe(url: str, rounds: int) -> tuple[list[float], list[float], list[float]]:
    """One seat's decisions one at a time, interleaved with null HTTP exchanges (`hello`).

    Returns the decision times, the null exchanges' times and the arena side's own cost
    (the same decision through the in-process transport), in ms. Interleaving makes
    both loopback series meet the same machine load.
    """
    referee = Referee(GameConfig(board="wwk_guard"), 1)
    while referee.state.day < 2 and not referee.finished:  # a mid-game view: day 2
        for request in referee.pending():
            referee.submit(request.seat, random_action(request, random.Random(request.step)))
    request = referee.pending()[0]
    view = observe(referee.events, SeatViewer(seat=request.seat))
    remote = RemoteAgent(url, game_id="probe", token=TOKEN)
    local = RemoteAgent(
        "http://in-process/agent",
        game_id="probe",
        token=TOKEN,
        transport=InProcess(token=TOKEN).transport(),
    )
    hello = Hello(nonce="n").model_dump_json().encode()
    decided, null, arena_side = [], [], []
    async with httpx.AsyncClient(trust_env=False) as client:
        await remote.decide(view, request)
        await local.decide(view, request)
        for _ in range(rounds):
            started = time.perf_counter()
            await remote.decide(view, request)
            decided.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            await client.post(url, content=hello, headers=signed_headers(hello, TOKEN))
            null.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            await local.decide(view, request)
            arena_side.append((time.perf_counter() - started) * 1000)
    await remote.aclose()
    await local.aclose()
    return decided, null, arena_side


def summary(name: str, values: list[float]) -> str:
    return (
        f"| {name} | {len(values)} | {min(values):.2f} | {statistics.median(values):.2f} | "
        f"{quantile(values, 0.9):.2f} | {quantile(values, 0.99):.2f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=500)
    args = parser.parse_args()
    seeds = range(1, args.games + 1)
    env = {**os.environ, "AGENT_TOKEN": TOKEN}
    process = subprocess.Popen(
        [sys.executable, str(EXAMPLE), "--port", "0", "--token-env", "AGENT_TOKEN"],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    load = os.getloadavg()[0]
    try:
        assert process.stdout is not None
        url = process.stdout.readline().split(" at ", 1)[1].strip()
        decided, null, arena_side = asyncio.run(probe(url, args.rounds))
        in_games, defaults = asyncio.run(games(url, seeds))
    finally:
        process.terminate()
        process.wait(timeout=10)
    policy, sizes = policy_times(seeds)
    own = statistics.median(policy)
    print(
        f"load average {load:.1f} on {os.cpu_count()} cores; {args.games} games of wwk_guard, "
        f"12 remote seats, {len(in_games)} decisions, {defaults} defaults; decide bodies: "
        f"median {statistics.median(sizes) / 1000:.1f} kB, max {max(sizes) / 1000:.1f} kB"
    )
    print("| per decision (ms) | n | min | median | p90 | p99 |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    print(summary("one seat, one decision at a time: the runner's wait", decided))
    print(summary("the agent's own time (`choose`)", policy))
    print(summary("**overhead**: the wait − the agent's own time", [d - own for d in decided]))
    print(summary("a null HTTP exchange (`hello`), interleaved", null))
    print(summary("the arena's side alone (in-process transport)", arena_side))
    print(summary("whole games, 12 seats (nights ask several at once)", in_games))


if __name__ == "__main__":
    main()
