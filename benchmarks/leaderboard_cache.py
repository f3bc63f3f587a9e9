"""The leaderboard over a large folder: cold, warm, and after one more game finished.

Run: .venv/bin/python benchmarks/leaderboard_cache.py [--games 2000] [--distinct 40]
     [--bootstrap 200] [--jobs N]

Plays `--distinct` real bot games (std9, belief reports after every speech) and writes
`--games` replay files from them into a temporary folder: each copy gets its own game
id, start time and pairing of four agents (A-D, the wolves one agent and the good side
another), so every file has its own bytes and verifies on its own. Then times what
`arena leaderboard DIR` does (`load_games`: read, verify and fold each file through the
facts cache; `build_report`: ratings with the bootstrap), three times:

1. cold: an empty cache, every file verified;
2. warm: nothing changed, every file answered by its `stat`;
3. one more game: a new finished file (what every finished game of a running tournament
   does to the folder).
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
from arena.agents.bot import BotAgent
from arena.match import Limits, new_header, run_game
from arena.ratings.loader import load_games
from arena.ratings.report import build_report
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


def write_copy(source: list[str], roles: tuple[Role, ...], index: int, path: Path) -> None:
    """Game `index`: the source game under a new id, start time and pairing."""
    wolves, good = PAIRS[index % len(PAIRS)]
    header = json.loads(source[0])
    header["game_id"] = f"g{index:05d}"
    header["created_at"] = f"2026-11-{1 + index // 1000:02d}T00:00:{index % 1000:03d}+00:00"
    for seat in header["seats"]:
        seat["agent"] = wolves if is_wolf(roles[seat["seat"] - 1]) else good
    lines = [json.dumps(header, ensure_ascii=False, separators=(",", ":")), *source[1:]]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def timed(directory: Path, bootstrap: int, jobs: int) -> tuple[float, float, int]:
    start = time.perf_counter()
    found = load_games(directory)
    load = time.perf_counter() - start
    start = time.perf_counter()
    build_report(found.games, bootstrap=bootstrap, workers=jobs)
    return load, time.perf_counter() - start, len(found.games)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--distinct", type=int, default=40)
    parser.add_argument("--bootstrap", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
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
            f"bootstrap {args.bootstrap}, {args.jobs} process(es)"
        )
        for label in ("cold", "warm", "one more game"):
            if label == "one more game":
                lines, roles = sources[0]
                write_copy(lines, roles, args.games, folder / f"g{args.games:05d}.jsonl")
            load, report, games = timed(folder, args.bootstrap, args.jobs)
            print(
                f"{label:>13}: load_games {load:6.2f} s, build_report {report:6.2f} s, "
                f"total {load + report:6.2f} s ({games} games)"
            )


if __name__ == "__main__":
    main()
