"""`arena export trajectories REPLAYS --as SEAT [--out FILE]`: offline RL data from replays.

Each finished replay is re-run on its recorded answers and every decision of the chosen
seat (or of every seat) is written as one JSON line: the seat's observation vector and
action mask as `arena.rl.env` shows them, the legal options, the answer and its action
index, and the seat's reward on its last line (`arena.rl.trajectory`; the format is in
docs/agents.md). Unfinished and voided games are skipped and counted on stderr.
Needs the rl extra (`pip install 'werewolf-arena[rl]'`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from arena.errors import ArenaError
from arena.storage.replay_file import ReplayError, read_replay


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `arena export trajectories`."""
    export = sub.add_parser("export", help="export replays in other forms (trajectories)")
    kinds = export.add_subparsers(dest="kind", required=True, metavar="KIND")
    trajectories = kinds.add_parser(
        "trajectories",
        help="per-seat (observation, legal options, action, reward) JSONL for offline RL",
    )
    trajectories.add_argument(
        "replays",
        nargs="+",
        type=Path,
        metavar="REPLAYS",
        help="replay files, or directories searched recursively for *.jsonl",
    )
    trajectories.add_argument(
        "--as",
        dest="seat",
        required=True,
        metavar="SEAT",
        help="the seat whose decisions to write: N or seat:N, or all",
    )
    trajectories.add_argument(
        "--out", type=Path, default=None, metavar="FILE", help="write here (default: stdout)"
    )
    trajectories.set_defaults(handler=_trajectories)


def parse_seat(text: str) -> int | None:
    """`3` or `seat:3` → 3; `all` → None (every seat).

    Raises:
        ArenaError: anything else.
    """
    word = text.strip().lower().removeprefix("seat:")
    if word == "all":
        return None
    if word.isdigit() and int(word) >= 1:
        return int(word)
    raise ArenaError(f"--as {text!r}: give a seat number (3 or seat:3) or all")


def replay_files(paths: list[Path]) -> Iterator[Path]:
    """The files named, and the `*.jsonl` files under the directories named, sorted.

    Raises:
        ArenaError: a path does not exist.
    """
    for path in paths:
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*.jsonl") if p.is_file())
        elif path.is_file():
            yield path
        else:
            raise ArenaError(f"no such replay file or directory: {path}")


def _trajectories(args: argparse.Namespace) -> int:
    try:
        from arena.rl.trajectory import jsonl, trajectories
    except ImportError as exc:
        from arena.rl import EXTRA_HINT

        raise ArenaError(f"{EXTRA_HINT} ({exc.name} is missing)") from None
    seat = parse_seat(args.seat)
    files = list(replay_files(args.replays))
    out: TextIO = sys.stdout if args.out is None else _open(args.out)
    written = games = 0
    skipped: list[str] = []
    try:
        for path in files:
            try:
                replay = read_replay(path)
                if seat is not None and seat > replay.header.config.board_spec.seats:
                    skipped.append(f"{path}: the game has no seat {seat}")
                    continue
                lines = trajectories(replay, None if seat is None else (seat,))
            except ReplayError as exc:
                skipped.append(f"{path}: {exc}")
                continue
            for text in jsonl(lines):
                out.write(text + "\n")
            written += len(lines)
            games += 1
    finally:
        if out is not sys.stdout:
            out.close()
    for reason in skipped:
        print(f"skipped {reason}", file=sys.stderr)
    where = f" to {args.out}" if args.out is not None else ""
    print(f"wrote {written} decisions from {games} games{where}", file=sys.stderr)
    return 0


def _open(path: Path) -> TextIO:
    try:
        return path.open("w", encoding="utf-8")
    except OSError as exc:
        raise ArenaError(f"cannot write {path}: {exc.strerror}") from None
