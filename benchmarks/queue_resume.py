"""Time from a worker's death (SIGKILL) to its match resuming on another worker.

Worker A plays one long match (random agents with an injected latency); worker B is
running and idle. A is killed mid-match; the clock runs from the kill until B holds the
match's new lease (`takeover`) and until B's first line reaches the log (`resumed`).
Both are bounded by the heartbeat lifetime `H`: the key outlives the last refresh by
between 2/3 H and H, plus B's polling pace (a quarter heartbeat, at most 1 s).

    .venv/bin/python benchmarks/queue_resume.py [--heartbeats 1 3 5] [--repeats 3]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import signal
import subprocess
import tempfile
import time
import uuid
from pathlib import Path
from statistics import mean

import redis

from arena.cli import main as arena
from arena.commands.worker import worker_argv

URL = "redis://127.0.0.1:6379/0"


def worker(prefix: str, heartbeat: float, tmp: Path, tag: str) -> subprocess.Popen[bytes]:
    log = tmp / f"{tag}.log"
    proc = subprocess.Popen(
        worker_argv(URL, prefix, tmp / "r", heartbeat=heartbeat),
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )
    while "slots on" not in log.read_text():
        time.sleep(0.02)
    return proc


def wait(condition: object, timeout_s: float = 120.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.002)


def once(heartbeat: float) -> tuple[float, float]:
    prefix = f"bench-{uuid.uuid4().hex[:8]}"
    client = redis.Redis.from_url(URL, decode_responses=True)
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        spec = tmp / "t.yaml"
        spec.write_text(f"name: {prefix}\nagents: {{a: 'delay:30:random'}}\ngames_per_pairing: 1\n")
        game = f"{prefix}-00000"
        log_key, lease_key = f"{prefix}:log:{game}", f"{prefix}:lease:{game}"
        first = worker(prefix, heartbeat, tmp, "a")
        submit = ["tournament", "submit", str(spec), "--redis", URL, "--prefix", prefix]
        with contextlib.redirect_stdout(io.StringIO()):
            assert arena([*submit, "--replays", str(tmp / "r")]) == 0
        wait(lambda: client.llen(log_key) >= 30)
        second = worker(prefix, heartbeat, tmp, "b")
        os.kill(first.pid, signal.SIGKILL)
        killed = time.perf_counter()
        first.wait()
        length = client.llen(log_key)
        wait(lambda: client.get(lease_key) == "2")
        takeover = time.perf_counter() - killed
        wait(lambda: client.llen(log_key) > length)
        resumed = time.perf_counter() - killed
        second.terminate()
        second.wait()
    keys = list(client.scan_iter(f"{prefix}:*"))
    if keys:
        client.delete(*keys)
    client.close()
    return takeover, resumed


def main(args: argparse.Namespace) -> None:
    print("SIGKILL mid-match -> another worker holds the lease -> its first line is logged")
    for heartbeat in args.heartbeats:
        runs = [once(heartbeat) for _ in range(args.repeats)]
        takeover = [t for t, _ in runs]
        resumed = [r for _, r in runs]
        print(
            f"heartbeat {heartbeat:g} s: takeover {mean(takeover):.2f} s "
            f"(min {min(takeover):.2f}, max {max(takeover):.2f}), "
            f"resumed {mean(resumed):.2f} s (max {max(resumed):.2f})"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--heartbeats", type=float, nargs="+", default=[1.0, 3.0, 5.0])
    parser.add_argument("--repeats", type=int, default=3)
    main(parser.parse_args())
