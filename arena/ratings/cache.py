"""The per-file facts cache: each replay is verified and folded once, then remembered.

Rating a folder means, for every file, re-running the referee on its answers (so a
flipped winner or an edited event is never rated) and folding it into a `GameSummary`:
tens of milliseconds a file. The cache keeps what each file contributes — its verdict
and, for a game that verifies, its summary — so a folder is re-read only where it
changed. Two keys:

- the file's path, size, modification and status-change times and inode: an unchanged
  file costs one `stat`. The status-change time cannot be set back (any write or `utime`
  moves it), so an edit of the same size with its modification time restored is a
  changed file, verified again;
- the SHA-256 of its bytes: a file that was touched, copied or moved is recognised
  without being verified again.

Entries also carry the `facts_version`, a digest of the `arena` package's source, so a
newer referee, reader or metric never serves numbers computed by an older one.

Each entry keeps its small head (verdict, game id, start time) apart from its summary, so
a warm folder reads only heads, and summaries only of games it has to fold. The same
file also keeps saved leaderboard states (`ReportFold.to_json`) keyed by a hash chain
over the rated files in rating order, so a folder that only gained newer games is
re-rated from the state of its older ones (`arena.ratings.folder`).

The cache is an SQLite file under the replay folder (`.arena/facts.sqlite`, hidden, so
no listing mistakes it for a replay); a folder that cannot be written to gets an
in-memory cache for the one run. SQLite serialises writers, so the dashboard and the
command line can share it.

Whoever can drop files in the folder can write that file too, so nothing in it is
trusted: every row (a file's key, a verdict's head, its summary, a saved state) carries
an HMAC-SHA256 under a key derived from the arena's key (`arena.storage.seal`), and a row
whose MAC does not verify is as good as absent (the file is verified again). A row planted
without the key — a genuine signature beside a forged summary, a state of made-up
ratings — is never read. A machine without an arena key keeps no cache between runs (it
could authenticate none): each run verifies every file, in memory.
"""

from __future__ import annotations

import functools
import hashlib
import secrets
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

import arena
from arena.ratings.cache_rows import KNOWN, RowMac, lay_out
from arena.ratings.cache_rows import Stat as Stat
from arena.ratings.stats import FrozenModel
from arena.ratings.tallies import GameSummary
from arena.storage.seal import ArenaKey, Seal, arena_key

CACHE_DIR = ".arena"
CACHE_FILE = "facts.sqlite"

Verdict = Literal["rated", "voided", "unverified", "unreadable", "unfinished"]
"""What a file gives the leaderboard: a game, a voided game, a game that does not verify
(`arena validate` rejects it), nothing (it cannot be read), or nothing yet (no result).
Only finished replays' verdicts are cached."""


class Content(FrozenModel):
    """What a file's signature and its copies are checked by, whatever the key.

    The signature is checked at every scan under the key in use (one HMAC), never cached
    as a verdict: the same file is signed under one machine's key and not another's.
    """

    seal: Seal | None
    """The signature line, if any."""
    digest: str
    """SHA-256 of every byte before the signature line (what it covers)."""
    body: str
    """SHA-256 of the lines between header and signature: the same in every copy."""
    play: str
    """SHA-256 of the config, seed, draw and answers: the same game however re-written."""


class _Judged(FrozenModel):
    """The verdict on one replay file and which game it holds.

    The fields `FileFacts` and its `FileHead` share, first in both: their cached JSON keeps
    the order it had.
    """

    verdict: Verdict
    detail: str = ""
    """Why a file is left out, after its path (`:12: not JSON …` or `: header says …`)."""
    game_id: str | None = None
    tournament: str | None = None


class FileFacts(_Judged):
    """What one finished replay file contributes to a leaderboard, verified once."""

    summary: GameSummary | None = None
    """The game's result and tallies (rated and voided games)."""
    content: Content | None = None
    """The file's signature and content digests (files that were read whole)."""

    def head(self) -> FileHead:
        """Everything but the summary."""
        created = self.summary.result.created_at if self.summary is not None else None
        return FileHead(
            verdict=self.verdict,
            detail=self.detail,
            game_id=self.game_id,
            tournament=self.tournament,
            created_at=created,
            summarized=self.summary is not None,
            content=self.content,
        )


class FileHead(_Judged):
    """`FileFacts` without the summary: what deciding whether and where to rate needs."""

    created_at: str | None = None
    """The game's start time (with `game_id`, its place in rating order)."""
    summarized: bool = False
    """Whether the file has a summary (`FactsCache.summary`)."""
    content: Content | None = None


FACTS_FORMAT = 4
"""The layout of a cached summary (2: each result names its deal, `GameResult.deal`; 3:
the seats' tallies count the speeches that said something, `Tallies.spoke`; 4: and the
wolves' self-explosions, `Tallies.explosions`). It
enters `facts_version`, so rows of another layout are verified and folded again rather
than read without their new fields (the source digest changes with any edit anyway;
this says it on purpose, where a reader looks for it)."""


@functools.cache
def facts_version() -> str:
    """A digest of `FACTS_FORMAT` and the `arena` package's Python source: what computed a fact."""
    root = Path(arena.__file__).parent
    digest = hashlib.sha256(f"{arena.__version__}/facts-format-{FACTS_FORMAT}".encode())
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


KEPT_STATES = 3
"""Saved leaderboard states kept per kind (bootstrap and seed; full or checkpoint): the
newest; older ones are dropped."""
KEPT_ALL_STATES = 24
"""Saved states kept in all (about 100 KiB each for four agents and 200 resamples), so a
dashboard user trying many bootstrap sizes does not grow the file without bound."""


class FactsCache:
    """Verified facts per file, and saved leaderboard states, in SQLite (or in memory).

    Every row carries its MAC (`RowMac`); a row whose MAC does not verify is not read.
    """

    def __init__(self, location: Path | None, key: ArenaKey | None = None) -> None:
        """Open the cache at `location` (a file), or an in-memory one for None.

        Rows are authenticated under `key` (None: the arena's key). Without any key the
        cache is in memory whatever `location` says: nothing could tell its rows from
        planted ones in a later run.

        Raises:
            ArenaError: the arena's key cannot be read (`arena_key`).
        """
        key = key if key is not None else arena_key()
        if key is None:
            location, key = None, ArenaKey(secrets.token_bytes(32), "this run")
        self.location = location
        self._mac = RowMac(key)
        self._db = sqlite3.connect(":memory:" if location is None else str(location), timeout=30)
        lay_out(self._db)
        self._version = facts_version()
        self._db.execute("DELETE FROM verdicts WHERE version != ?", (self._version,))
        self._db.execute("DELETE FROM states WHERE version != ?", (self._version,))
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
        """Read every known file's key and head in one query (a warm folder's fast path)."""
        rows = self._db.execute(KNOWN, (self._version,)).fetchall()
        self._known = {}
        for row in rows:
            known = self._authentic(row)
            if known is not None:
                self._known[known[0]] = known[1]

    def by_stat(self, stat: Stat) -> tuple[str, FileHead] | None:
        """The digest and head of an unchanged file, if known."""
        known = self._known.get(stat)
        if known is None:
            row = self._db.execute(
                KNOWN + " WHERE files.path = ? AND files.size = ? AND files.mtime_ns = ?"
                " AND files.ctime_ns = ? AND files.inode = ?",
                (self._version, stat.path, stat.size, stat.mtime_ns, stat.ctime_ns, stat.inode),
            ).fetchone()
            found = self._authentic(row) if row is not None else None
            if found is None:
                return None
            known = found[1]
        self.hits += 1
        return known[0], FileHead.model_validate_json(known[1])

    def _authentic(self, row: tuple[Any, ...]) -> tuple[Stat, tuple[str, str]] | None:
        """A `KNOWN` row as (key, (digest, head)) if both its MACs verify, else None."""
        path, size, mtime, ctime, inode, sha, file_mac, head, head_mac = row
        stat = Stat(path, size, mtime, ctime, inode)
        if not self._mac.holds(file_mac, "file", stat.text(), sha):
            return None
        if not self._mac.holds(head_mac, "head", sha, self._version, head):
            return None
        return stat, (str(sha), str(head))

    def by_digest(self, stat: Stat, sha256: str) -> FileHead | None:
        """The head of a file with these bytes, if known (and re-keys `stat` to them)."""
        row = self._db.execute(
            "SELECT head, head_mac FROM verdicts WHERE sha256 = ? AND version = ?",
            (sha256, self._version),
        ).fetchone()
        if row is None or not self._mac.holds(row[1], "head", sha256, self._version, row[0]):
            return None
        self.hits += 1
        self._remember_file(stat, sha256)
        return FileHead.model_validate_json(row[0])

    def summary(self, sha256: str) -> GameSummary | None:
        """The summary of the file with these bytes, if it has one (and it is authentic)."""
        row = self._db.execute(
            "SELECT summary, summary_mac FROM verdicts WHERE sha256 = ? AND version = ?",
            (sha256, self._version),
        ).fetchone()
        if row is None or row[0] is None:
            return None
        if not self._mac.holds(row[1], "summary", sha256, self._version, row[0]):
            return None
        return GameSummary.model_validate_json(row[0])

    def put(self, stat: Stat, sha256: str, facts: FileFacts) -> None:
        """Remember the facts of the file with these bytes."""
        self.misses += 1
        summary = facts.summary.model_dump_json() if facts.summary is not None else None
        head = facts.head().model_dump_json()
        self._db.execute(
            "INSERT OR REPLACE INTO verdicts VALUES (?, ?, ?, ?, ?, ?)",
            (
                sha256,
                self._version,
                head,
                self._mac.of("head", sha256, self._version, head),
                summary,
                self._mac.of("summary", sha256, self._version, summary),
            ),
        )
        self._remember_file(stat, sha256)

    def _remember_file(self, stat: Stat, sha256: str) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                stat.path,
                stat.size,
                stat.mtime_ns,
                stat.ctime_ns,
                stat.inode,
                sha256,
                self._mac.of("file", stat.text(), sha256),
            ),
        )

    def best_state(self, kinds: Sequence[str], chains: Sequence[str]) -> tuple[int, str] | None:
        """The saved state of one of `kinds` over the longest prefix of the games, if any.

        `chains[i]` is the hash chain over the first `i + 1` games; returns the number
        of games the state covers and its data.
        """
        marks = ", ".join("?" * len(kinds))
        rows = self._db.execute(
            f"SELECT rowid, kind, games, chain FROM states WHERE kind IN ({marks}) AND version = ?"
            " ORDER BY games DESC",
            (*kinds, self._version),
        ).fetchall()
        for rowid, kind, games, chain in rows:
            if 0 < games <= len(chains) and chains[games - 1] == chain:
                data, mac = self._db.execute(
                    "SELECT data, mac FROM states WHERE rowid = ?", (rowid,)
                ).fetchone()
                if self._mac.holds(mac, "state", kind, self._version, games, chain, data):
                    return games, str(data)
        return None

    def put_state(self, kind: str, games: int, chain: str, data: str) -> None:
        """Save a state of `kind` over `games` games (keeping the `KEPT_STATES` newest)."""
        mac = self._mac.of("state", kind, self._version, games, chain, data)
        self._db.execute(
            "INSERT OR REPLACE INTO states VALUES (?, ?, ?, ?, ?, ?)",
            (kind, self._version, games, chain, data, mac),
        )
        self._db.execute(
            "DELETE FROM states WHERE kind = ? AND rowid NOT IN"
            " (SELECT rowid FROM states WHERE kind = ? ORDER BY rowid DESC LIMIT ?)",
            (kind, kind, KEPT_STATES),
        )
        self._db.execute(
            "DELETE FROM states WHERE rowid NOT IN"
            " (SELECT rowid FROM states ORDER BY rowid DESC LIMIT ?)",
            (KEPT_ALL_STATES,),
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
