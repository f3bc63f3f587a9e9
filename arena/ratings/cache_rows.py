"""The facts cache's rows: a file's quick key, the tables, and every row's MAC.

The cache (`arena.ratings.cache`) lives in the replay folder, where whoever can drop a
replay can also write it, so each row it reads must be one this arena wrote: `RowMac`
gives every row an HMAC-SHA256 under a key derived from the arena's key, over the
row's every field, and a row whose MAC does not verify is not read.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from arena.storage.seal import ArenaKey


@dataclass(frozen=True, slots=True)
class Stat:
    """The quick key of a file: path, size, modification and status-change time, inode.

    The status-change time (`st_ctime_ns`) moves with every write and every `utime`, and
    nobody but the kernel sets it, so a file edited and given its old modification time
    back is not taken for the file the cache knew.
    """

    path: str
    size: int
    mtime_ns: int
    ctime_ns: int
    inode: int

    @classmethod
    def of(cls, path: Path) -> Stat:
        """Stat `path` (raises `OSError` as `os.stat` does)."""
        st = os.stat(path)
        return cls(str(path.resolve()), st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)

    def text(self) -> str:
        """The key as the MAC covers it."""
        return f"{self.path}\0{self.size}\0{self.mtime_ns}\0{self.ctime_ns}\0{self.inode}"


CACHE_LAYOUT = 3
"""The tables' layout (`PRAGMA user_version`): 3 added the MACs and the status-change
time and inode to a file's key. A cache of another layout is emptied and rebuilt."""
_MAC_LABEL = b"werewolf-arena facts cache v1\n"
"""Derives the cache's MAC key from the arena's key (it signs nothing else)."""


class RowMac:
    """The MACs of the cache's rows, under a key derived from the arena's key."""

    def __init__(self, key: ArenaKey) -> None:
        self._key = hmac.new(key.secret, _MAC_LABEL, hashlib.sha256).digest()

    def of(self, kind: str, *parts: object) -> str:
        """The MAC of a row of `kind` holding `parts` (each written out, NUL-separated)."""
        text = "\0".join([kind, *("" if p is None else str(p) for p in parts)])
        return hmac.new(self._key, text.encode("utf-8"), hashlib.sha256).hexdigest()

    def holds(self, mac: object, kind: str, *parts: object) -> bool:
        """Whether `mac` is the MAC of that row (compared in constant time)."""
        return isinstance(mac, str) and hmac.compare_digest(mac, self.of(kind, *parts))


KNOWN = (
    "SELECT files.path, files.size, files.mtime_ns, files.ctime_ns, files.inode, files.sha256,"
    " files.mac, verdicts.head, verdicts.head_mac FROM files JOIN verdicts"
    " ON verdicts.sha256 = files.sha256 AND verdicts.version = ?"
)
"""Every known file's key and head with their MACs (a `WHERE` may follow)."""


def lay_out(db: sqlite3.Connection) -> None:
    """Make the tables, emptying a cache of another layout (`CACHE_LAYOUT`) first."""
    if db.execute("PRAGMA user_version").fetchone()[0] != CACHE_LAYOUT:
        db.executescript(
            "DROP TABLE IF EXISTS facts; DROP TABLE IF EXISTS verdicts;"
            " DROP TABLE IF EXISTS files; DROP TABLE IF EXISTS states;"
            f" PRAGMA user_version = {CACHE_LAYOUT};"
        )
    db.executescript(
        "CREATE TABLE IF NOT EXISTS verdicts (sha256 TEXT, version TEXT, head TEXT,"
        " head_mac TEXT, summary TEXT, summary_mac TEXT, PRIMARY KEY (sha256, version));"
        "CREATE TABLE IF NOT EXISTS files (path TEXT PRIMARY KEY, size INTEGER,"
        " mtime_ns INTEGER, ctime_ns INTEGER, inode INTEGER, sha256 TEXT, mac TEXT);"
        "CREATE TABLE IF NOT EXISTS states (kind TEXT, version TEXT, games INTEGER,"
        " chain TEXT, data TEXT, mac TEXT, PRIMARY KEY (kind, version, chain));"
    )
