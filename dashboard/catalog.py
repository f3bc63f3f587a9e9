"""The replay folder as a table of games, read from header lines only.

Listing thousands of games must stay fast, so only line 1 of each file is parsed
(`read_header`), and a file is parsed again only when its size or modification time
changes. A file that is not a readable replay (corrupt, foreign, a newer schema) becomes
an `Unreadable` row with the reason; it never stops the rest from loading.

Headers are viewer-independent (board, seats' agents, result), so this index may be shared
by every session of the dashboard.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from arena.storage.replay_file import ReplayError, ReplayHeader, read_header

UNFINISHED = "unfinished"
"""The winner column of a game whose header has no result yet (running or crashed)."""


@dataclass(frozen=True, slots=True)
class GameRow:
    """One game of the listing."""

    file: str
    """Path relative to the replay folder (the key the player page opens)."""
    game_id: str
    created_at: str
    board: str
    seats: int
    agents: tuple[str, ...]
    """Distinct agent labels, with the model where one is named (`openai:gpt-4.1`)."""
    tournament: str
    winner: str
    days: int
    events: int

    @property
    def day(self) -> date | None:
        """The calendar day the game started, if the header's time is ISO-8601."""
        try:
            return date.fromisoformat(self.created_at[:10])
        except ValueError:
            return None


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A file in the folder that is not a readable replay, and why."""

    file: str
    reason: str


@dataclass(frozen=True, slots=True)
class Catalog:
    """The folder's games, newest first, and the files that could not be read."""

    rows: tuple[GameRow, ...]
    unreadable: tuple[Unreadable, ...]


def agent_label(agent: str, model: str | None) -> str:
    """How a seat's player is named in filters: the spec, plus the model if not in it."""
    return agent if model is None or model in agent else f"{agent}:{model}"


def row_of(file: str, header: ReplayHeader) -> GameRow:
    """The listing row of one header."""
    result = header.result
    return GameRow(
        file=file,
        game_id=header.game_id,
        created_at=header.created_at,
        board=header.config.board_id,
        seats=len(header.seats),
        agents=tuple(sorted({agent_label(s.agent, s.model) for s in header.seats})),
        tournament=header.tournament or "",
        winner=(result.winner.value if result.winner else "void") if result else UNFINISHED,
        days=result.days if result else 0,
        events=result.events if result else 0,
    )


def candidate_files(folder: Path) -> Iterator[os.DirEntry[str]]:
    """Every regular, non-hidden file under `folder` (recursively), but temp files.

    Foreign files are listed as unreadable rather than silently skipped; writers' `*.tmp`
    files are transient and left out.
    """
    stack = [str(folder)]
    while stack:
        with os.scandir(stack.pop()) as entries:
            for entry in entries:
                if entry.name.startswith("."):
                    continue
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
                elif entry.is_file() and not entry.name.endswith(".tmp"):
                    yield entry


class HeaderIndex:
    """A process-wide cache of parsed headers keyed by path, size and mtime.

    Thread-safe: Streamlit serves sessions from several threads.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._known: dict[str, tuple[int, int, GameRow | Unreadable]] = {}

    def scan(self, folder: Path) -> Catalog:
        """List `folder`, re-reading only new or changed files.

        Raises:
            ReplayError: the folder does not exist or is not a directory.
        """
        if not folder.is_dir():
            raise ReplayError(f"replay folder {folder} does not exist or is not a folder")
        rows: list[GameRow] = []
        bad: list[Unreadable] = []
        seen: set[str] = set()
        for entry in candidate_files(folder):
            stat = entry.stat()
            seen.add(entry.path)
            item = self._item(folder, entry.path, stat.st_size, stat.st_mtime_ns)
            if isinstance(item, GameRow):
                rows.append(item)
            else:
                bad.append(item)
        with self._lock:
            for gone in set(self._known) - seen:
                if Path(gone).is_relative_to(folder):
                    del self._known[gone]
        rows.sort(key=lambda r: (r.created_at, r.file), reverse=True)
        bad.sort(key=lambda u: u.file)
        return Catalog(rows=tuple(rows), unreadable=tuple(bad))

    def _item(self, folder: Path, path: str, size: int, mtime: int) -> GameRow | Unreadable:
        with self._lock:
            cached = self._known.get(path)
        if cached is not None and cached[:2] == (size, mtime):
            return cached[2]
        file = os.path.relpath(path, folder)
        item: GameRow | Unreadable
        try:
            item = row_of(file, read_header(Path(path)))
        except ReplayError as exc:
            item = Unreadable(file=file, reason=str(exc).replace(path, file, 1))
        with self._lock:
            self._known[path] = (size, mtime, item)
        return item


@dataclass(frozen=True, slots=True)
class Filters:
    """What the Replays page narrows the listing to (an empty set means no constraint)."""

    boards: Collection[str] = ()
    agents: Collection[str] = ()
    winners: Collection[str] = ()
    tournaments: Collection[str] = ()
    since: date | None = None
    until: date | None = None
    text: str = ""
    """A substring of the game id or file name."""


def matches(row: GameRow, f: Filters) -> bool:
    """Whether `row` passes every filter; a game matches an agent filter if any seat does."""
    if f.boards and row.board not in f.boards:
        return False
    if f.winners and row.winner not in f.winners:
        return False
    if f.tournaments and row.tournament not in f.tournaments:
        return False
    if f.agents and not set(row.agents) & set(f.agents):
        return False
    if f.text and f.text.lower() not in f"{row.game_id} {row.file}".lower():
        return False
    if f.since is not None or f.until is not None:
        day = row.day
        if day is None or (f.since and day < f.since) or (f.until and day > f.until):
            return False
    return True


def select(rows: Collection[GameRow], f: Filters) -> list[GameRow]:
    """The rows that pass `f`, in their listing order."""
    return [r for r in rows if matches(r, f)]
