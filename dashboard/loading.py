"""Opening one replay: the parsed file plus where its model calls sit on the timeline.

A parsed file is the same for every viewer, so it is the only thing the pages cache
(keyed by path, size and mtime); projections are computed per viewer and step.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from arena.errors import ArenaError
from arena.replay_check import check_read
from arena.storage.replay_file import Replay, read_replay, replay_status
from arena.storage.seal import arena_key


@dataclass(frozen=True, slots=True)
class Loaded:
    """A replay and, per trace, how many events had been logged when the call was made."""

    replay: Replay
    trace_steps: tuple[int, ...]
    """`trace_steps[i]` is the event count before `replay.traces[i]`: the call is shown
    from that step on (god view only)."""
    doubt: str | None = None
    """Why a finished game does not verify (a bad log or signature; `unsigned` for a file
    without a signature), or None: the player says it in one line."""


class NotInFolder(ArenaError):
    """A file name that names no file of the replay folder (`why`: `outside`, `missing`)."""

    def __init__(self, file: str, why: Literal["outside", "missing"]) -> None:
        where = "is not a file in" if why == "outside" else "does not exist in"
        super().__init__(f"{file!r} {where} the replay folder")
        self.why = why


def resolve(folder: Path, file: str) -> Path:
    """The path of `file` inside `folder`, refusing anything that escapes it.

    Raises:
        NotInFolder: `file` is absolute, leaves the folder, or does not exist.
    """
    root = folder.resolve()
    path = (root / file).resolve()
    if not path.is_relative_to(root) or path == root:
        raise NotInFolder(file, "outside")
    if not path.is_file():
        raise NotInFolder(file, "missing")
    return path


def fingerprint(path: Path) -> tuple[str, int, int]:
    """The cache key of a file: path, size and modification time."""
    stat = os.stat(path)
    return str(path), stat.st_size, stat.st_mtime_ns


def trace_steps(lines: list[str]) -> tuple[int, ...]:
    """For each trace line, the number of event lines before it.

    Every replay line starts with its `type` field (the field order is part of the
    format), so a prefix test places traces without parsing JSON a second time.
    """
    steps: list[int] = []
    events = 0
    for line in lines:
        if line.startswith('{"type":"event"'):
            events += 1
        elif line.startswith('{"type":"trace"'):
            steps.append(events)
    return tuple(steps)


def load(path: Path) -> Loaded:
    """Parse a replay file.

    Raises:
        ReplayError: the file is not a readable replay (the message names the line).
    """
    replay = read_replay(path)
    steps: tuple[int, ...] = ()
    if replay.traces:
        with path.open(encoding="utf-8") as file:
            steps = trace_steps(file.readlines())
    return Loaded(replay=replay, trace_steps=steps, doubt=doubt(replay, path))


def doubt(replay: Replay, path: Path) -> str | None:
    """`Loaded.doubt`: `arena validate`'s verdict on a finished game, when it is not ok."""
    if replay_status(replay).state != "finished":
        return None
    try:
        report = check_read(replay, path, arena_key())
    except ArenaError as exc:  # a bad key: the game cannot be shown to be the arena's
        return str(exc)
    if not report.ok:
        return report.message
    return None if report.signature == "signed" else "unsigned"
