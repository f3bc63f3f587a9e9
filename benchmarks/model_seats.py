"""Model seats on real servers, checked as issue 30 asks: a 12-seat Chinese game per script.

Run: .venv/bin/python benchmarks/model_seats.py [--board wwk12] [--seed 5] [--days 2]
     [--slots 2] [--out DIR]

Starts one llama-server per model (`scripts/real-model.sh`, `scripts/real-model.sh qwen`;
`--slots` slots, 8,192 tokens a slot, one thread each) and plays one game of `--board` in
繁體 and one in 简体, SmolLM2 in seats 1-2, Qwen in seats 3-4 and bots in the rest, at the
arena's default settings for model seats (`EndpointSettings()`: history budget 24,000, no
reply limit, three tries), the games cut at `--days` days. Then prints, per model and
game, what the issue names:

- asked: decisions put to the model; own: answered by it (not defaulted);
- said something: its speeches that were not empty, a placeholder or another seat's words
  (`arena.ratings.speeches`' "spoke" share);
- defaults by cause, in the CLI summary's words (`arena.commands.summary.default_cause`);
- context refusals: calls the server refused for length;
- the gauge: each call's estimated prompt against the server's count (`TokenGauge.errors`,
  relative to the count, before that call taught the ratio), median and worst.

Targets: 0 defaults from parsing or the window, the gauge within 20 %.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.agents.model.agent import LLMAgent  # noqa: E402
from arena.agents.model.overflow import is_overflow  # noqa: E402
from arena.agents.preflight import aclose_models, preflight  # noqa: E402
from arena.agents.seats import EndpointSettings, MatchSpec, build_agents, parse_seats  # noqa: E402
from arena.agents.traits import trait  # noqa: E402
from arena.commands.summary import default_cause  # noqa: E402
from arena.match import Limits, new_header, run_game  # noqa: E402
from arena.ratings.speeches import spoke_ratios  # noqa: E402
from arena.rules.config import GameConfig  # noqa: E402
from arena.storage.replay_file import read_replay  # noqa: E402
from tests.support.llama_server import serving_models  # noqa: E402

MODELS = {"smollm2": "1-2", "qwen": "3-4"}
"""Server alias (and `scripts/real-model.sh` argument) → the seats it plays."""

SCRIPTS = {"zh-Hant": None, "zh-Hans": "zh-Hans"}
"""The game's script → what its model seats are told (`MatchSpec.agent_lang`)."""


async def play(
    path: Path, urls: dict[str, str], board: str, seed: int, days: int, script: str
) -> dict[str, list[float]]:
    """One game as `arena play` composes it; each model's gauge errors."""
    endpoints = {f"openai:{alias}": EndpointSettings(base_url=url) for alias, url in urls.items()}
    spec = MatchSpec(lang="zh", agent_lang=SCRIPTS[script], endpoints=endpoints)
    config = GameConfig(board=board, overrides={"max_days": days})
    specs = [f"{seats}=openai:{alias}" for alias, seats in MODELS.items()]
    agents = build_agents(parse_seats(specs, config.board_spec.seats), config, seed, spec)
    try:
        found = await preflight(agents, timeout_s=900)
        header = new_header(f"{board}-{script}", config, seed, agents, endpoints=found, lang=script)
        await run_game(header, agents, path, limits=Limits(beliefs="daily"))
    finally:
        await aclose_models(agents)
    errors: dict[str, list[float]] = {alias: [] for alias in MODELS}
    for agent in agents.values():
        seat = trait(agent, LLMAgent)
        if seat is not None:
            errors[seat.model].extend(seat.sizing.gauge.errors)
    return errors


def report(path: Path, errors: dict[str, list[float]]) -> list[str]:
    """Per model: asked, own, said something, defaults by cause, refusals, gauge error."""
    replay = read_replay(path)
    spoke = spoke_ratios(replay.events)
    lines = []
    for alias, seats in MODELS.items():
        mine = {s.seat for s in replay.header.seats if s.model == alias}
        asked = {(c.seat, c.step) for c in replay.traces if c.seat in mine and c.step >= 0}
        causes = Counter(
            default_cause(a.defaulted)
            for a in replay.answers
            if a.seat in mine and (a.seat, a.step) in asked and a.defaulted is not None
        )
        refused = sum(
            1 for c in replay.traces if c.seat in mine and c.error and is_overflow(c.error)
        )
        speeches = sum(spoke[s].den for s in mine if s in spoke)
        said = sum(spoke[s].num for s in mine if s in spoke)
        gauge = [abs(e) for e in errors[alias]]
        gauge_text = (
            f"gauge error median {statistics.median(gauge):.1%}, worst {max(gauge):.1%} "
            f"over {len(gauge)} calls"
            if gauge
            else "gauge: no calls learned"
        )
        lines.append(
            f"  {alias} (seats {seats}): asked {len(asked)}, "
            f"own {len(asked) - sum(causes.values())}, "
            f"said something {said} of {speeches} speeches, "
            f"defaults {dict(causes) or 'none'}, context refusals {refused}, {gauge_text}"
        )
    result = replay.header.result
    ending = "no result" if result is None else f"{result.winner or 'void'} ({result.reason})"
    return [f"{path.name}: {len(replay.answers)} answers, ended: {ending}", *lines]


def main() -> None:
    """Serve both models, play a game in each script, print the checks."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", default="wwk12")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--days", type=int, default=2)
    parser.add_argument("--slots", type=int, default=2)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    os.environ.setdefault("OPENAI_API_KEY", "not-needed")
    folder = args.out or Path(tempfile.mkdtemp(prefix="model-seats-"))
    folder.mkdir(parents=True, exist_ok=True)
    with serving_models(list(MODELS), folder, args.slots) as urls:
        for script in SCRIPTS:
            path = folder / f"{args.board}-{script}.jsonl"
            started = time.perf_counter()
            errors = asyncio.run(play(path, urls, args.board, args.seed, args.days, script))
            minutes = (time.perf_counter() - started) / 60
            print(f"{script}, {minutes:.1f} min:", flush=True)
            for text in report(path, errors):
                print(text, flush=True)


if __name__ == "__main__":
    main()
