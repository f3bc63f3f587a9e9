"""Read a directory of replays into game summaries; the only I/O of `arena.ratings`.

Every regular, non-hidden file under the directory is tried. A file that is not a
readable finished replay (corrupt, foreign, truncated, still running, a second copy of a
game already read) is skipped and reported with a one-line reason, so one bad file never
hides a tournament's results. Each replay is folded into its `GameSummary` as soon as it
is read and then dropped, so memory grows with the number of games, not their size.
"""

from __future__ import annotations

from pathlib import Path

from arena.ratings.facts import summarize
from arena.ratings.stats import FrozenModel
from arena.ratings.tallies import GameSummary
from arena.rules.errors import ArenaError
from arena.storage.replay_file import ReplayError, read_header, read_replay


class SkippedFile(FrozenModel):
    """A file under the directory that gave no game, and why (one line, naming the file)."""

    path: str
    message: str


class GameSet(FrozenModel):
    """The finished games found under a directory, and the files skipped."""

    directory: str
    games: tuple[GameSummary, ...]
    skipped: tuple[SkippedFile, ...]


def candidate_files(directory: Path) -> list[Path]:
    """Regular files under `directory`, recursively, sorted; hidden files and dirs excluded."""
    return sorted(
        path
        for path in directory.rglob("*")
        if path.is_file()
        and not any(part.startswith(".") for part in path.relative_to(directory).parts)
    )


def load_games(directory: Path, *, tournament: str | None = None) -> GameSet:
    """Summaries of every finished replay under `directory`.

    Args:
        directory: searched recursively.
        tournament: keep only replays whose header names this tournament (others are
            left out silently: they are not faulty).

    Raises:
        ArenaError: `directory` does not exist or is not a directory.
    """
    if not directory.exists():
        raise ArenaError(f"{directory}: no such directory")
    if not directory.is_dir():
        raise ArenaError(f"{directory}: not a directory")
    games: list[GameSummary] = []
    skipped: list[SkippedFile] = []
    seen: dict[str, Path] = {}
    for path in candidate_files(directory):
        try:
            header = read_header(path)
            if tournament is not None and header.tournament != tournament:
                continue
            if header.result is None:
                raise ReplayError(f"{path}: unfinished game {header.game_id} (no result yet)")
            if header.game_id in seen:
                raise ReplayError(
                    f"{path}: game {header.game_id} was already read from {seen[header.game_id]}"
                )
            summary = summarize(read_replay(path))
        except ReplayError as exc:
            message = str(exc) if str(path) in str(exc) else f"{path}: {exc}"
            skipped.append(SkippedFile(path=str(path), message=message))
            continue
        seen[header.game_id] = path
        games.append(summary)
    return GameSet(directory=str(directory), games=tuple(games), skipped=tuple(skipped))
