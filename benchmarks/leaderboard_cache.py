"""The leaderboard over a large folder: cold, warm, and after one more game finished.

Run: .venv/bin/python benchmarks/leaderboard_cache.py [--games 2000] [--distinct 40]
     [--bootstrap 200] [--jobs N]

Plays `--distinct` real bot games (std9, belief reports after every speech) and writes
`--games` replay files from them into a temporary folder: each copy gets its own game
id, start time and pairing of four agents (A-D, the wolves one agent and the good side
another), so every file has its own bytes and verifies on its own. Then times what
`arena leaderboard DIR` does (`folder_report`: read, verify and fold new files through
the facts cache, rate from the folder's saved state), in four runs:

1. cold: an empty cache, every file verified and every game rated;
2. warm: nothing changed, every file answered by its `stat`, the saved state whole;
3. one more game: a new finished file with the newest start time (what every finished
   game of a running tournament does to the folder);
4. a late game: a new finished file that started before the last 10 rated games (a
   long game of a concurrent tournament worker), refolded from a checkpoint.

With `--check`, the last report is compared with `build_report(load_games(...))` from
scratch without any cache (it must be equal, and the time of that is printed too).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import tempfile
import time
from pathlib import Path

from arena.agents.base import Agent
from arena.agents.bot.agent import BotAgent
from arena.match import Limits, new_header, run_game
from arena.ratings.folder import folder_report
from arena.ratings.loader import load_games
from arena.ratings.report import Report, build_report
from arena.rules.config import GameConfig
from arena.rules.roles import is_wolf
from arena.rules.types import Role
from arena.storage.replay_file import read_replay

AGENTS = ("A", "B", "C", "D")
PAIRS = [(w, g) for w in AGENTS for g in AGENTS if w != g]


def play_distinct(directory: Path, count: int) -> list[Path]:
    async def play() -> None:
        for i in range(count):
            agents: dict[int, Agent] = {s: BotAgent(seed=100 * i + s) for s in range(1, 10)}
            header = new_header(f"seed-{i}", GameConfig(board="std9"), i, agents)
            await run_game(
                header, agents, directory / f"seed-{i}.jsonl", limits=Limits(beliefs="per_speech")
            )

    asyncio.run(play())
    return sorted(directory.glob("seed-*.jsonl"))


def start_time(index: int) -> str:
    """The start time of game `index` (later games start later)."""
    return f"2026-11-{1 + index // 1000:02d}T00:{index % 1000 // 60:02d}:{index % 60:02d}+00:00"


def write_copy(
    source: list[str], roles: tuple[Role, ...], index: int, path: Path, started: str = ""
) -> None:
    """Game `index`: the source game under a new id, start time and pairing."""
    wolves, good = PAIRS[index % len(PAIRS)]
    header = json.loads(source[0])
    header["game_id"] = f"g{index:05d}"
    header["created_at"] = started or start_time(index)
    for seat in header["seats"]:
        seat["agent"] = wolves if is_wolf(roles[seat["seat"] - 1]) else good
    lines = [json.dumps(header, ensure_ascii=False, separators=(",", ":")), *source[1:]]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def timed(directory: Path, bootstrap: int, jobs: int) -> tuple[float, Report, int]:
    start = time.perf_counter()
    scan, report = folder_report(directory, bootstrap=bootstrap, workers=jobs)
    return time.perf_counter() - start, report, len(scan.rated)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--distinct", type=int, default=40)
    parser.add_argument("--bootstrap", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--check", action="store_true", help="compare with a run from scratch")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        seeds_dir, folder = Path(tmp) / "seeds", Path(tmp) / "replays"
        seeds_dir.mkdir()
        folder.mkdir()
        sources = []
        for path in play_distinct(seeds_dir, args.distinct):
            replay = read_replay(path)
            roles = next(e.roles for e in replay.events if e.kind == "roles_dealt")
            sources.append((path.read_text(encoding="utf-8").splitlines(), roles))
        for i in range(args.games):
            lines, roles = sources[i % len(sources)]
            write_copy(lines, roles, i, folder / f"g{i:05d}.jsonl")
        size = sum(p.stat().st_size for p in folder.iterdir() if p.is_file())
        print(
            f"{args.games} replays ({size / args.games / 1024:.0f} KiB each), "
            f"bootstrap {args.bootstrap}, {args.jobs} process(es), load {os.getloadavg()[0]:.1f}"
        )
        report = None
        for label in ("cold", "warm", "one more game", "a late game"):
            lines, roles = sources[0]
            if label == "one more game":
                write_copy(lines, roles, args.games, folder / f"g{args.games:05d}.jsonl")
            if label == "a late game":
                late = args.games + 1
                started = start_time(args.games - 10)[:-6] + ".5+00:00"  # just after it
                write_copy(lines, roles, late, folder / f"g{late:05d}.jsonl", started)
            seconds, report, games = timed(folder, args.bootstrap, args.jobs)
            print(f"{label:>13}: folder_report {seconds:6.2f} s ({games} games)")
        if args.check and report is not None:
            start = time.perf_counter()
            found = load_games(folder, cache=False)
            scratch = build_report(
                found.games,
                bootstrap=args.bootstrap,
                skipped=found.skipped,
                directory=str(folder),
                workers=args.jobs,
            )
            seconds = time.perf_counter() - start
            print(f"from scratch: {seconds:.2f} s, equal to the last report: {scratch == report}")


if __name__ == "__main__":
    main()
