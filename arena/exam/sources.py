"""The replays an exam is cut from: found, verified, re-run, or refused in one line.

Only a game the arena signed and that re-runs to its own log is used: its signature must
verify under the arena's key (`arena.storage.seal`), its answers must reproduce every
event and its result through the referee, and it must be finished and not voided. A file
that fails is named with the reason, one line, and left out; the build goes on.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from arena.errors import ArenaError
from arena.exam.moments import Moment, rerun
from arena.match import result_of
from arena.ratings.loader import candidate_files
from arena.ratings.verify import play_digest, void_reason
from arena.replay_check import check_log
from arena.rules.errors import IllegalActionError
from arena.rules.referee import Referee
from arena.storage.replay_file import Replay, ReplayError, parse_replay_lines
from arena.storage.seal import ArenaKey, check_seal


class VerifiedGame(NamedTuple):
    """A signed game that re-ran to its own log, with every moment of it."""

    sha256: str
    """SHA-256 of the file's bytes (`sha256sum FILE`)."""
    play: str
    """What makes the game (config, seed, draw, answers): copies share it."""
    replay: Replay
    moments: list[Moment]


class Refused(NamedTuple):
    """A file left out, and why (one line)."""

    path: str
    reason: str


def replay_files(paths: Sequence[Path]) -> tuple[list[Path], list[Refused]]:
    """The files named, and every regular non-hidden file under the folders named.

    A path that does not exist is refused, not an error: the others are still read.
    """
    files: list[Path] = []
    missing: list[Refused] = []
    for path in paths:
        if path.is_dir():
            files.extend(candidate_files(path))
        elif path.is_file():
            files.append(path)
        else:
            missing.append(Refused(str(path), "no such file or folder"))
    return sorted(set(files)), missing


def verify(path: Path, key: ArenaKey | None) -> VerifiedGame | Refused:
    """Read `path`, check its signature, re-run it; the game, or why it is left out."""
    try:
        data = path.read_bytes()
        lines = data.decode("utf-8").split("\n")  # not splitlines: U+2028 may be in a text
        replay = parse_replay_lines(lines[:-1] if lines[-1] == "" else lines, str(path))
    except ReplayError as exc:
        return Refused(str(path), f"unreadable: {exc.reason} (line {exc.line})")
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        return Refused(str(path), f"unreadable: {type(exc).__name__}")
    header = replay.header
    if header.result is None:
        return Refused(str(path), "unfinished: no result in its header")
    void = void_reason(header)
    if void is not None:
        return Refused(str(path), f"voided: {void}")
    seal = check_seal(replay.seal, replay.digest, key)
    if seal.state != "signed":
        return Refused(str(path), seal.message)
    referee = Referee(header.config, header.seed, draw=header.draw)
    try:
        moments = rerun(referee, replay.answers)
    except (IllegalActionError, ArenaError):
        moments = []
    if not _reproduced(replay, referee):
        return Refused(str(path), f"failed verification: {check_log(replay, path).message}")
    sha = hashlib.sha256(data).hexdigest()
    return VerifiedGame(sha, play_digest(replay), replay, moments)


def _reproduced(replay: Replay, referee: Referee) -> bool:
    """Whether the re-run gave the file's log exactly, to its end, and its result."""
    if not referee.finished or len(referee.events) != len(replay.events):
        return False
    if tuple(referee.events) != replay.events:
        return False
    return replay.header.result == result_of(referee)
