"""A worker that hosts games with people: `python -m arena.humans.worker --redis URL`.

The Play page of a dashboard started with `--redis URL` queues each game it creates
(when told to run it on a worker); this worker takes queued games from the same Redis
server and hosts each in its own thread, writing finished replays to `--replays`. People's
answers reach it through the game's inbox on the server, so the dashboard and the worker
may be on different machines, and a page reload or a reconnect never loses a seat.
"""

from __future__ import annotations

import argparse
import logging
import threading
from collections.abc import Sequence
from pathlib import Path

from arena.humans.host import host_in_thread, live_folder
from arena.storage.desk import Desk
from arena.storage.redis_keys import PREFIX

log = logging.getLogger(__name__)


def serve(desk: Desk, replays: Path, live: Path, stop: threading.Event, poll_s: float = 1.0) -> int:
    """Host queued games until `stop` is set; returns how many were started."""
    started = 0
    while not stop.is_set():
        game_id = desk.next_queued(poll_s)
        if game_id is None:
            continue
        if desk.table(game_id) is None:
            log.warning("queued game %s has no card; skipped", game_id)
            continue
        log.info("hosting %s", game_id)
        host_in_thread(desk, game_id, replays, live)
        started += 1
    return started


def main(argv: Sequence[str] | None = None) -> int:
    """Run the worker until interrupted."""
    parser = argparse.ArgumentParser(prog="python -m arena.humans.worker")
    parser.add_argument("--redis", required=True, help="e.g. redis://127.0.0.1:6379/0")
    parser.add_argument("--replays", type=Path, default=Path("replays"))
    parser.add_argument(
        "--prefix",
        default=PREFIX,
        help="Redis key namespace: the dashboard's --prefix (default: arena)",
    )
    parser.add_argument(
        "--live", type=Path, default=None, help="where running games are written (not shown)"
    )
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(message)s")
    logging.getLogger("arena").setLevel(logging.INFO)  # not the libraries' request lines
    from arena.storage.redis_desk import RedisDesk

    live = args.live or live_folder(args.replays)
    try:
        serve(RedisDesk.from_url(args.redis, args.prefix), args.replays, live, threading.Event())
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
