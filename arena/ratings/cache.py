"""The per-file facts cache: each replay is verified and folded once, then remembered.

Rating a folder means, for every file, re-running the referee on its answers (so a
flipped winner or an edited event is never rated) and folding it into a `GameSummary`:
tens of milliseconds a file. The cache keeps what each file contributes — its verdict
and, for a game that verifies, its summary — so a folder is re-read only where it
changed. Two keys:

- the file's path, size and modification time: an unchanged file costs one `stat`;
- the SHA-256 of its bytes: a file that was touched, copied or moved is recognised
  without being verified again.

Entries also carry the `facts_version`, a digest of the `arena` package's source, so a
newer referee, reader or metric never serves numbers computed by an older one.

The cache is an SQLite file under the replay folder (`.arena/facts.sqlite`, hidden, so
no listing mistakes it for a replay); a folder that cannot be written to gets an
in-memory cache for the one run. SQLite serialises writers, so the dashboard and the
command line can share it.
"""

from __future__ import annotations

import functools
import hashlib
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import arena
from arena.ratings.stats import FrozenModel
from arena.ratings.tallies import GameSummary

CACHE_DIR = ".arena"
CACHE_FILE = "facts.sqlite"

Verdict = Literal["rated", "voided", "unverified", "unreadable", "unfinished"]
"""What a file gives the leaderboard: a game, a voided game, a game that does not verify
(`arena validate` rejects it), nothing (it cannot be read), or nothing yet (no result).
Only finished replays' verdicts are cached."""


class FileFacts(FrozenModel):
    """What one finished replay file contributes to a leaderboard, verified once."""

    verdict: Verdict
    detail: str = ""
    """Why a file is left out, after its path (`:12: not JSON …` or `: header says …`)."""
    game_id: str | None = None
    tournament: str | None = None
    summary: GameSummary | None = None
    """The game's result and tallies (rated and voided games)."""


@functools.cache
def facts_version() -> str:
    """A digest of the `arena` package's Python source: what computed a cached fact."""
    root = Path(arena.__file__).parent
    digest = hashlib.sha256(arena.__version__.encode())
    for path in sorted(root.rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def file_digest(path: Path) -> str:
    """The SHA-256 of the file's bytes."""
    digest = hashlib.sha256()
    with path.open("rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@dataclass(frozen=True, slots=True)
class Stat:
    """The quick key of a file: path, size and modification time."""

    path: str
    size: int
    mtime_ns: int

    @classmethod
    def of(cls, path: Path) -> Stat:
        """Stat `path` (raises `OSError` as `os.stat` does)."""
        st = os.stat(path)
        return cls(str(path.resolve()), st.st_size, st.st_mtime_ns)


class FactsCache:
    """Verified facts per file, persisted in SQLite (or in memory)."""

    def __init__(self, location: Path | None) -> None:
        """Open the cache at `location` (a file), or an in-memory one for None."""
        self.location = location
        self._db = sqlite3.connect(":memory:" if location is None else str(location), timeout=30)
        self._db.executescript(
            "CREATE TABLE IF NOT EXISTS facts"
            " (sha256 TEXT, version TEXT, data TEXT, PRIMARY KEY (sha256, version));"
            "CREATE TABLE IF NOT EXISTS files"
            " (path TEXT PRIMARY KEY, size INTEGER, mtime_ns INTEGER, sha256 TEXT);"
        )
        self._version = facts_version()
        self._db.execute("DELETE FROM facts WHERE version != ?", (self._version,))
        self._db.commit()
        self._known: dict[Stat, tuple[str, str]] = {}
        self.hits = 0
        """Files answered from the cache in this session."""
        self.misses = 0
        """Files verified and folded in this session."""

    @classmethod
    def for_folder(cls, folder: Path) -> FactsCache:
        """The folder's own cache, or an in-memory one if the folder is read-only."""
        try:
            (folder / CACHE_DIR).mkdir(exist_ok=True)
            return cls(folder / CACHE_DIR / CACHE_FILE)
        except (OSError, sqlite3.Error):
            return cls(None)

    def preload(self) -> None:
        """Read every known file's key and facts in one query (a warm folder's fast path)."""
        rows = self._db.execute(
            "SELECT files.path, files.size, files.mtime_ns, files.sha256, facts.data"
            " FROM files JOIN facts ON facts.sha256 = files.sha256 AND facts.version = ?",
            (self._version,),
        ).fetchall()
        self._known = {
            Stat(path, size, mtime): (sha, data) for path, size, mtime, sha, data in rows
        }

    def by_stat(self, stat: Stat) -> tuple[str, FileFacts] | None:
        """The digest and facts of an unchanged file, if known."""
        known = self._known.get(stat)
        if known is None:
            row = self._db.execute(
                "SELECT files.sha256, facts.data FROM files JOIN facts"
                " ON facts.sha256 = files.sha256 AND facts.version = ?"
                " WHERE files.path = ? AND files.size = ? AND files.mtime_ns = ?",
                (self._version, stat.path, stat.size, stat.mtime_ns),
            ).fetchone()
            if row is None:
                return None
            known = row[0], row[1]
        self.hits += 1
        return known[0], FileFacts.model_validate_json(known[1])

    def by_digest(self, stat: Stat, sha256: str) -> FileFacts | None:
        """The facts of a file with these bytes, if known (and re-keys `stat` to them)."""
        row = self._db.execute(
            "SELECT data FROM facts WHERE sha256 = ? AND version = ?", (sha256, self._version)
        ).fetchone()
        if row is None:
            return None
        self.hits += 1
        self._remember_file(stat, sha256)
        return FileFacts.model_validate_json(row[0])

    def put(self, stat: Stat, sha256: str, facts: FileFacts) -> None:
        """Remember the facts of the file with these bytes."""
        self.misses += 1
        self._db.execute(
            "INSERT OR REPLACE INTO facts VALUES (?, ?, ?)",
            (sha256, self._version, facts.model_dump_json()),
        )
        self._remember_file(stat, sha256)

    def _remember_file(self, stat: Stat, sha256: str) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?)",
            (stat.path, stat.size, stat.mtime_ns, sha256),
        )

    def commit(self) -> None:
        """Write what was learnt so far (cheap to call often)."""
        try:
            self._db.commit()
        except sqlite3.Error:  # a full disk or a locked file must not lose the ratings
            self._db.rollback()

    def close(self) -> None:
        """Commit and close."""
        self.commit()
        self._db.close()
