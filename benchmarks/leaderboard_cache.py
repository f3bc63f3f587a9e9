"""The leaderboard over a large folder of signed games: cold, warm, and after one more game.

Run: .venv/bin/python benchmarks/leaderboard_cache.py [--games 2000] [--bootstrap 200]
     [--jobs N] [--play-jobs N] [--store DIR] [--check] [--command]

Plays `--games` real bot games (std9, belief reports after every speech), each its own
seed, under its own game id, start time and pairing of four agents (A-D: the wolves one
agent, the good side another), written and signed by the arena as any game is. Since
the leaderboard rates only signed games and counts a game once by its content (issue
19), copies of a few games under new ids would be left out: every file is a game of its
own. The games are kept in `--store` (default: a folder under the temporary directory
named by the game count and the signing key's id), so later runs skip the playing.

Each measurement copies the games into a fresh folder (no facts cache) and times what
`arena leaderboard DIR` does (`folder_report`: read, verify and fold every file through
the facts cache, rate from the folder's saved state), in four runs:

1. cold: an empty cache, every file verified and every game rated;
2. warm: nothing changed, every file answered by its `stat`, the saved state whole;
3. one more game: a new finished file with the newest start time (what every finished
   game of a running tournament does to the folder);
4. a late game: a new finished file that started before the last 10 rated games (a
   long game of a concurrent tournament worker), refolded from a checkpoint.

With `--command`, the whole command (`arena leaderboard DIR`, a new process: start-up,
imports, output) is timed too, cold on a fresh copy and then warm. With `--check`, the
last report is compared with `build_report(load_games(...))` from scratch without any
cache (it must be equal, and the time of that is printed too).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from arena.agents.base import Agent
from arena.agents.bot.agent import BotAgent
from arena.match import Limits, new_header, run_game
from arena.ratings.folder import folder_report
from arena.ratings.loader import load_games
from arena.ratings.report import Report, build_report
from arena.rules.config import GameConfig
from arena.rules.draw import CURRENT_DRAW
from arena.rules.referee import Referee
from arena.rules.roles import is_wolf
from arena.storage.seal import arena_key

AGENTS = ("A", "B", "C", "D")
PAIRS = [(w, g) for w in AGENTS for g in AGENTS if w != g]
CONFIG = GameConfig(board="std9")


def start_time(index: int) -> str:
    """The start time of game `index` (later games start later)."""
    return f"2026-11-{1 + index // 1000:02d}T00:{index % 1000 // 60:02d}:{index % 60:02d}+00:00"


def play_one(index: int, path: Path, started: str = "") -> None:
    """Game `index`: seed `index`, its own id, start time and pairing, signed on finishing."""
    roles = Referee(CONFIG, index, draw=CURRENT_DRAW).state.roles
    wolves, good = PAIRS[index % len(PAIRS)]
    agents: dict[int, Agent] = {s: BotAgent(seed=100 * index + s) for s in range(1, 10)}
    header = new_header(f"g{index:05d}", CONFIG, index, agents)
    seats = tuple(
        s.model_copy(update={"agent": wolves if is_wolf(roles[s.seat - 1]) else good})
        for s in header.seats
    )
    header = header.model_copy(update={"seats": seats, "created_at": started or start_time(index)})
    asyncio.run(run_game(header, agents, path, limits=Limits(beliefs="per_speech")))


def _play_range(store: str, first: int, stop: int) -> None:
    for i in range(first, stop):
        path = Path(store) / f"g{i:05d}.jsonl"
        if not path.exists():
            tmp = path.with_suffix(".part")
            play_one(i, tmp)
            tmp.replace(path)


def fill_store(store: Path, games: int, jobs: int) -> float:
    """Play the games `store` lacks (in `jobs` processes); the seconds it took."""
    store.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    chunk = 50
    with ProcessPoolExecutor(jobs) as pool:
        spans = [(i, min(i + chunk, games)) for i in range(0, games, chunk)]
        for done in pool.map(_play_range, [str(store)] * len(spans), *zip(*spans, strict=True)):
            del done
    return time.perf_counter() - start


def cpu_seconds() -> float:
    """User + system CPU of this process and of its finished children (worker processes)."""
    mine, children = (
        resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    )
    return mine.ru_utime + mine.ru_stime + children.ru_utime + children.ru_stime


def timed(directory: Path, bootstrap: int, jobs: int) -> tuple[float, float, Report, int]:
    """Wall and CPU seconds of `folder_report`, its report and how many games it rated."""
    start, cpu = time.perf_counter(), cpu_seconds()
    scan, report = folder_report(directory, bootstrap=bootstrap, workers=jobs)
    return time.perf_counter() - start, cpu_seconds() - cpu, report, len(scan.rated)


def fresh_copy(store: Path, games: int, where: Path) -> Path:
    """The store's first `games` games in a new folder without a facts cache."""
    folder = Path(tempfile.mkdtemp(dir=where))
    for i in range(games):
        shutil.copy2(store / f"g{i:05d}.jsonl", folder / f"g{i:05d}.jsonl")
    return folder


def command_run(folder: Path, bootstrap: int) -> tuple[float, float, str]:
    """Wall and CPU seconds of `arena leaderboard DIR` in a new process, and its first line."""
    argv = [sys.executable, "-m", "arena.cli", "leaderboard", str(folder)]
    argv += ["--bootstrap", str(bootstrap)]
    start, cpu = time.perf_counter(), cpu_seconds()
    done = subprocess.run(argv, capture_output=True, text=True, check=True)
    lines = (done.stdout.strip() or done.stderr.strip()).splitlines()
    wall = time.perf_counter() - start
    return wall, cpu_seconds() - cpu, lines[0] if lines else ""


def load() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--bootstrap", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--play-jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--store", type=Path, default=None, help="where the played games stay")
    parser.add_argument("--check", action="store_true", help="compare with a run from scratch")
    parser.add_argument("--command", action="store_true", help="time `arena leaderboard` too")
    args = parser.parse_args()

    key = arena_key(create=True)
    assert key is not None
    total = args.games + 2  # and one more game, and a late one
    store = args.store or Path(tempfile.gettempdir()) / f"arena-bench-{total}-{key.id}"
    seconds = fill_store(store, total - 1, args.play_jobs)
    late = store / f"g{total - 1:05d}.jsonl"
    if not late.exists():  # started just after the 10th game before the newest
        play_one(total - 1, late, start_time(args.games - 10)[:-6] + ".5+00:00")
    print(f"{total} signed games in {store} (played in {seconds:.0f} s)")

    with tempfile.TemporaryDirectory() as tmp:
        folder = fresh_copy(store, args.games, Path(tmp))
        size = sum(p.stat().st_size for p in folder.iterdir() if p.is_file())
        print(
            f"{args.games} replays ({size / args.games / 1024:.0f} KiB each), "
            f"bootstrap {args.bootstrap}, {args.jobs} process(es)"
        )
        report = None
        for label in ("cold", "warm", "one more game", "a late game"):
            index = {"one more game": args.games, "a late game": args.games + 1}.get(label)
            if index is not None:
                shutil.copy2(store / f"g{index:05d}.jsonl", folder / f"g{index:05d}.jsonl")
            before = load()
            seconds, cpu, report, games = timed(folder, args.bootstrap, args.jobs)
            print(
                f"{label:>13}: folder_report {seconds:6.2f} s wall, {cpu:6.2f} s CPU "
                f"({games} games; load {before} before, {load()} after)"
            )
        if args.command:
            cold = fresh_copy(store, args.games, Path(tmp))
            for label in ("cold", "warm", "warm"):
                before = load()
                seconds, cpu, first = command_run(cold, args.bootstrap)
                print(
                    f"arena leaderboard, {label}: {seconds:6.2f} s wall, {cpu:6.2f} s CPU "
                    f"(load {before}): {first}"
                )
        if args.check and report is not None:
            start = time.perf_counter()
            found = load_games(folder, cache=False)
            scratch = build_report(
                found.games,
                bootstrap=args.bootstrap,
                skipped=found.skipped,
                directory=str(folder),
            )
            seconds = time.perf_counter() - start
            print(f"from scratch: {seconds:.2f} s, equal to the last report: {scratch == report}")


if __name__ == "__main__":
    main()
