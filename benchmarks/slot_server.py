"""A 12-seat game with every seat on one local model: a slot per seat against one slot.

Plays `idiot12` (English, seed 7) with all twelve seats `openai:smollm2` on a server this
script starts:

- `--server slots` (the default): llama.cpp's own server with a slot per seat
  (`llama-server -m GGUF --alias smollm2 --parallel 12 -c 98304 --jinja`), each seat
  pinned to its slot;
- `--server one-slot`: the same binary with one slot of the same size and no prompt cache
  in host memory (`--parallel 1 -c 8192 --cache-ram 0`): one context that keeps only the
  last request's prompt, as the llama-cpp-python server the tests used before (without
  `--cache-ram 0` this llama-server saves idle prompts in RAM and restores them, which is
  not the server the issue compares against);
- `--server stub`: the arena's stub server (tests/support), no model: the same game's
  requests in a few seconds, to count what each server kind must read (below);
- `--server llama-cpp-python`: that server itself (it needs `llama_cpp` in `--python`'s
  environment; its `chatml-function-calling` format HTML-escapes the prompt, so its game
  is not the same game).

`--max-calls N` stops the game after N model calls (`--max-minutes M` after M minutes
of play, whichever comes first): two runs with the same `--max-calls`
and `--temperature 0` play the same first N calls (same seed, same prompts, greedy
replies), so their walls compare the same work.

It prints the calls made so far whenever their count changes (standard error, seconds
since the game started), then, from the replay's call records: wall time, calls per
minute, the share of prompt tokens the server served from its cache
(`usage.cached_tokens`), the median prompt tokens a call had to read, own decisions over
asked ones, and the wall against a limit: the time the calls' work takes at the server's
own measured rates, with nothing waiting — uncached prompt tokens ÷ prefill rate +
generated tokens ÷ decode rate, summed over the calls (on two cores the calls share the
same cores, so their work adds up; batched decoding can beat this sum a little). The
rates are measured by two calls before the game (a fresh 1,500-token prompt, then 128
tokens).

With `--server stub` it prints instead the prompt characters a server must read over the
whole game: with a slot per seat (each request against its seat's previous one) and with
one context (each request against the previous request, whoever sent it). Prefill is most
of a local server's time, so their ratio estimates the one-slot server's extra work
without a model (the stub's answers are not a model's, but the prompts are the game's).

    PYTHONPATH=. .venv/bin/python benchmarks/slot_server.py [--server one-slot] \
        [--max-calls 30 --temperature 0]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.agents.preflight import aclose_models, preflight
from arena.agents.seats import EndpointSettings, MatchSpec, build_agents, parse_seats
from arena.agents.slots import hold_slots
from arena.match import Limits, new_header, run_game
from arena.rules.config import GameConfig
from arena.storage.calls import automatic_answers
from arena.storage.replay_file import read_replay
from tests.support.llama_server import free_port, install, serving, threads
from tests.support.stub_server import StubServer

CONFIG = GameConfig(board="idiot12")
SEED = 7
LAUNCH = """
import runpy, sys
import llama_cpp.llama_cpp as ll
default = ll.llama_model_default_params
def params():
    p = default()
    p.use_extra_bufts = False
    return p
ll.llama_model_default_params = params
sys.argv = ["llama_cpp.server", *sys.argv[1:]]
runpy.run_module("llama_cpp.server", run_name="__main__")
"""


@contextlib.contextmanager
def one_slot(python: str, model: Path, log: Path) -> Iterator[str]:
    """llama-cpp-python's server as the tests ran it before (one context of 8,192)."""
    port = free_port()
    with log.open("w") as out:
        server = subprocess.Popen(
            [
                python, "-c", LAUNCH, "--model", str(model), "--model_alias", "smollm2",
                "--chat_format", "chatml-function-calling", "--host", "127.0.0.1",
                "--port", str(port), "--n_ctx", "8192", "--n_threads", str(threads()),
            ],
            stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}/v1"
    try:
        for _ in range(600):
            try:
                urllib.request.urlopen(f"{url}/models", timeout=1).read()
                break
            except OSError:
                time.sleep(0.2)
        yield url
    finally:
        server.terminate()
        server.wait(30)


def rates(url: str) -> tuple[float, float]:
    """(prefill, decode) tokens per second, from a fresh prompt and a long reply."""
    words = " ".join(f"w{i}" for i in range(1500))
    body = {
        "model": "smollm2",
        "messages": [{"role": "user", "content": f"{time.time()} Count these: {words}"}],
        "max_tokens": 128,
        "temperature": 0,
    }
    started = time.perf_counter()
    request = urllib.request.Request(
        f"{url}/chat/completions", json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=3600) as reply:
        data = json.load(reply)
    wall = time.perf_counter() - started
    timings = data.get("timings")
    if timings:  # llama-server: its own split
        return timings["prompt_per_second"], timings["predicted_per_second"]
    usage = data["usage"]  # llama-cpp-python: split the wall by a second, shorter call
    short = {**body, "max_tokens": 1}
    short["messages"] = [{"role": "user", "content": f"{time.time()} Count these: {words}"}]
    started = time.perf_counter()
    request = urllib.request.Request(
        f"{url}/chat/completions", json.dumps(short).encode(), {"Content-Type": "application/json"}
    )
    urllib.request.urlopen(request, timeout=3600).read()
    prefill_s = time.perf_counter() - started
    decode = usage["completion_tokens"] / max(wall - prefill_s, 1e-3)
    return usage["prompt_tokens"] / prefill_s, decode


async def play(url: str, path: Path, stop: Stop, temperature: float | None) -> float:
    """Play the game (or its part, see `Stop`); its wall time in seconds."""
    settings = EndpointSettings(
        base_url=url,
        timeout_s=3600,
        decision_timeout_s=7200,
        max_tokens=200,
        retries=1,
        temperature=temperature,
    )
    spec = MatchSpec(lang="en", endpoints={"openai": settings})
    agents = build_agents(parse_seats(["1-12=openai:smollm2"], 12), CONFIG, SEED, spec)
    try:
        endpoints = await preflight(agents, timeout_s=7200)
        started = time.perf_counter()
        header = new_header("slots", CONFIG, SEED, agents, endpoints=endpoints)
        seats = hold_slots(agents, endpoints)
        limits = Limits(call_timeout_s=7200, beliefs="daily")
        game = asyncio.create_task(run_game(header, seats, path, limits=limits))
        seen = 0
        while not game.done():
            await asyncio.wait({game}, timeout=1)
            calls, elapsed = _calls(path), time.perf_counter() - started
            if calls != seen:
                print(f"{elapsed:7.0f} s: {calls} calls", file=sys.stderr, flush=True)
                seen = calls
            if stop.reached(calls, elapsed):
                game.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await game
        return time.perf_counter() - started
    finally:
        await aclose_models(agents)


@dataclass(frozen=True)
class Stop:
    """Where a partial run stops: after `calls` model calls or `minutes` of play."""

    calls: int | None = None
    minutes: float | None = None

    def reached(self, calls: int, elapsed_s: float) -> bool:
        """Whether the game should stop now."""
        return (self.calls is not None and calls >= self.calls) or (
            self.minutes is not None and elapsed_s >= self.minutes * 60
        )


def _calls(path: Path) -> int:
    with contextlib.suppress(OSError):
        return sum('"type":"trace"' in line for line in path.read_text().splitlines())
    return 0


def report(path: Path, wall: float, prefill: float, decode: float) -> None:
    """Print the figures of the played (part of the) game."""
    replay = read_replay(path, torn_tail="drop")
    calls = list(replay.traces)
    prompt = sum(c.usage.prompt_tokens for c in calls)
    cached = sum(c.usage.cached_tokens for c in calls)
    made = sum(c.usage.completion_tokens for c in calls)
    read = statistics.median(c.usage.prompt_tokens - c.usage.cached_tokens for c in calls)
    limit = (prompt - cached) / prefill + made / decode
    automatic = automatic_answers(replay.answers, calls)
    asked = [a for a in replay.answers if (a.seat, a.step) not in automatic]
    own = sum(a.defaulted is None for a in asked)
    finished = replay.header.result is not None
    print(f"game finished: {finished}; {len(replay.answers)} answers, {len(calls)} calls")
    print(f"wall {wall / 60:.1f} min; {len(calls) / (wall / 60):.2f} calls/min")
    print(f"prompt tokens {prompt}, from cache {cached} ({cached / max(prompt, 1):.1%})")
    print(f"median prompt tokens a call read {read:.0f}")
    print(f"generated tokens {made}; rates: prefill {prefill:.0f}/s, decode {decode:.1f}/s")
    print(f"limit {limit / 60:.1f} min; wall / limit {wall / max(limit, 1e-9):.2f}")
    print(f"asked decisions {len(asked)}, own {own}; answered by the arena {len(automatic)}")


def _text(body: dict[str, Any]) -> str:
    """A request's prompt as one string (roles, contents, tool calls), for prefix counts."""
    return "".join(
        f"<{m['role']}>{m.get('content') or ''}{json.dumps(m.get('tool_calls'))}"
        for m in body["messages"]
    )


def _common(a: str, b: str) -> int:
    return len(os.path.commonprefix([a, b]))


def reading(requests: list[dict[str, Any]]) -> tuple[int, int, int]:
    """(total, read with a slot per seat, read with one context) prompt characters.

    The game's requests are those that name a slot (the probe's do not); a slot keeps its
    seat's previous prompt, one context keeps only the previous request's.
    """
    game = [r for r in requests if "id_slot" in r]
    last: dict[int, str] = {}
    previous = ""
    total = slots = one = 0
    for body in game:
        text = _text(body)
        total += len(text)
        slots += len(text) - _common(text, last.get(body["id_slot"], ""))
        one += len(text) - _common(text, previous)
        last[body["id_slot"]] = previous = text
    return total, slots, one


def estimate(path: Path) -> None:
    """Play the game on the stub server; print what each server kind must read."""
    with StubServer(slots=12) as stub:
        wall = asyncio.run(play(stub.url, path, Stop(), None))
        total, slots, one = reading(stub.requests)
    calls = len([r for r in stub.requests if "id_slot" in r])
    print(f"stub game in {wall:.0f} s: {calls} calls, {total} prompt characters")
    print(f"read with a slot per seat {slots} ({slots / total:.1%})")
    print(f"read with one context {one} ({one / total:.1%}); ratio {one / max(slots, 1):.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--server", choices=["slots", "one-slot", "stub", "llama-cpp-python"], default="slots"
    )
    parser.add_argument("--python", default=".venv-model/bin/python", help="llama_cpp's")
    parser.add_argument("--max-calls", type=int, default=None)
    parser.add_argument("--max-minutes", type=float, default=None, help="stop after")
    parser.add_argument("--temperature", type=float, default=None, help="server's if unset")
    parser.add_argument("--out", type=Path, default=None, help="keep the replay here")
    args = parser.parse_args()
    if args.server == "stub":
        with tempfile.TemporaryDirectory() as tmp:
            estimate(args.out or Path(tmp) / "game.jsonl")
        return
    binary, model = install("smollm2")
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "server.log"
        path = args.out or Path(tmp) / "game.jsonl"
        server = {
            "slots": lambda: serving(binary, model, log, parallel=12, context=12 * 8192),
            "one-slot": lambda: serving(
                binary, model, log, parallel=1, context=8192, extra=("--cache-ram", "0")
            ),
            "llama-cpp-python": lambda: one_slot(args.python, model, log),
        }[args.server]()
        with server as url:
            prefill, decode = rates(url)
            print(f"{args.server}: threads {threads()}; rates measured", file=sys.stderr)
            stop = Stop(args.max_calls, args.max_minutes)
            wall = asyncio.run(play(url, path, stop, args.temperature))
            report(path, wall, prefill, decode)


if __name__ == "__main__":
    main()
