"""`arena exam build` over a large folder of signed games: wall and CPU time.

Run: .venv/bin/python benchmarks/exam_build.py [--games 2000] [--per-game 10] [--jobs N]
     [--store DIR] [--play-jobs 2]

The games are `benchmarks/exam_power.py`'s pool (std9 bot games, each its own seed and id,
signed as any game is, as `benchmarks/leaderboard_cache.py` makes its 2,000), played into
`--store` once, so later runs and either benchmark reuse them. The whole
command is timed as a person runs it (a new process: start-up, imports, verifying and
re-running every file, cutting, writing both files), twice: the figures of the second
run are printed with the first's, and the two exam files must be equal byte for byte.
"""

from __future__ import annotations

import argparse
import hashlib
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from arena.storage.seal import arena_key

sys.path.insert(0, str(Path(__file__).resolve().parent))
from exam_power import fill  # noqa: E402 (the pool's games, played once)


def children_cpu() -> float:
    """User + system CPU seconds of the finished child processes so far."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timed_build(store: Path, out: Path, per_game: int, jobs: int | None) -> tuple[float, float]:
    """Wall and CPU seconds of `arena exam build STORE --out OUT` in a new process."""
    command = [sys.executable, "-m", "arena", "exam", "build", str(store), "--out", str(out)]
    command += ["--per-game", str(per_game), "--force"]
    if jobs is not None:
        command += ["--jobs", str(jobs)]
    start, cpu = time.perf_counter(), children_cpu()
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    print("   ", done.stdout.strip())
    return wall, children_cpu() - cpu


def main() -> None:
    """Fill the store, then time two builds."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--per-game", type=int, default=10)
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--play-jobs", type=int, default=2)
    parser.add_argument("--store", type=Path, default=None)
    args = parser.parse_args()
    key = arena_key(create=True)
    assert key is not None
    store = args.store or Path(tempfile.gettempdir()) / f"exam-pool-{key.id}"
    seconds = fill(store, args.games, args.play_jobs)
    files = sum(1 for p in store.glob("*.jsonl"))
    print(f"{files} signed games in {store} (played in {seconds:.1f} s)")
    outs = [Path(tempfile.mkdtemp()) / "exam.jsonl" for _ in range(2)]
    for n, out in enumerate(outs, start=1):
        wall, cpu = timed_build(store, out, args.per_game, args.jobs)
        print(f"build {n}: {wall:.1f} s wall, {cpu:.1f} s CPU")
    same = outs[0].read_bytes() == outs[1].read_bytes()
    digest = hashlib.sha256(outs[0].read_bytes()).hexdigest()[:16]
    print(f"the two exam files are {'equal' if same else 'DIFFERENT'} (sha256 {digest}…)")


if __name__ == "__main__":
    main()
