"""Read a directory of replays into verified game summaries; the only I/O of `arena.ratings`.

Every regular, non-hidden file under the directory is tried. Only a finished replay that
verifies is rated (`arena.ratings.verify`: a file signed under the arena's key is read
as it is; any other is re-run through the referee). Every file not rated is left out
with a one-line reason naming the file, and counted by kind:

- `unreadable`: not a replay, or a line that cannot be parsed (corrupt, truncated);
- `unverified`: readable, but `arena validate` rejects its log;
- `bad signature`: its signature does not verify under the arena's key (an edited copy,
  another arena's file, a forgery: `arena.storage.seal`);
- `unsigned`: no signature (written before signing, or stripped); rated only when asked
  (`include_unsigned`), and then under agent names marked `UNSIGNED` so they stand
  apart from the signed games' standings;
- `unfinished`: a game still running (or abandoned) has no result yet;
- `duplicate`: the same game as a file already counted, found by content, never by id:
  the same body (every line but the header and signature: a copy under a new id) or
  the same config, seed, draw and answers. Signed files are counted before unsigned ones,
  so a copy never pushes out the original;
- `voided`: the game was voided (for example a model seat that kept falling back);
  left out unless asked for.

So one bad file never hides a tournament's results, and never crashes the leaderboard.
Verification and folding happen once per file: `FactsCache` remembers each file's
verdict and summary by path, size and mtime, and by content hash. `scan_folder` decides
what is rated from the cached heads alone; `load_games` then reads every summary, and
`arena.ratings.folder` only those of games its saved state has not folded yet.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Literal, NamedTuple

from arena.errors import ArenaError
from arena.ratings.cache import FactsCache, FileHead
from arena.ratings.stats import FrozenModel
from arena.ratings.tallies import GameSummary
from arena.ratings.verify import look_up, verified
from arena.storage.seal import ArenaKey, arena_key, check_seal

Reason = Literal[
    "unreadable", "unverified", "bad_signature", "unsigned", "unfinished", "duplicate", "voided"
]
REASONS: tuple[Reason, ...] = (
    "unreadable",
    "unverified",
    "bad_signature",
    "unsigned",
    "unfinished",
    "duplicate",
    "voided",
)
UNSIGNED = " (unsigned)"
"""Appended to every agent of an unsigned game rated with `include_unsigned`: its games
form their own standings rows, apart from (and never mixed into) the signed games' ones."""

Progress = Callable[[int, int], None]
"""Called as `progress(files_done, files_total)` while a directory is read."""

COMMIT_EVERY = 200
"""Files between cache commits, so an interrupted cold run keeps most of its work."""


class SkippedFile(FrozenModel):
    """A file under the directory that gave no rated game, and why (one line, naming it)."""

    path: str
    message: str
    reason: Reason = "unreadable"


class FolderFiles(FrozenModel):
    """What reading a directory found besides its games: the files looked at and left out.

    `GameSet` (with the games' summaries) and `FolderScan` (with the rated files only)
    both say it, alike.
    """

    directory: str
    skipped: tuple[SkippedFile, ...]
    files: int = 0
    """Files looked at (after the tournament filter)."""
    tournaments: dict[str, int] = {}
    """Rated games per tournament name (`""`: games of no tournament)."""
    ignored: int = 0
    """Files not named `*.jsonl`, not read (`replay_files`)."""

    def left_out(self) -> dict[Reason, int]:
        """How many files were left out, by reason (only reasons that occurred)."""
        counts = Counter(s.reason for s in self.skipped)
        return {reason: counts[reason] for reason in REASONS if counts[reason]}


class GameSet(FolderFiles):
    """The finished, verified games found under a directory, and the files left out."""

    games: tuple[GameSummary, ...]


def candidate_files(directory: Path) -> list[Path]:
    """Regular files under `directory`, recursively, sorted; hidden files and dirs excluded."""
    return sorted(
        path
        for path in directory.rglob("*")
        if path.is_file()
        and not any(part.startswith(".") for part in path.relative_to(directory).parts)
    )


def replay_files(directory: Path) -> tuple[list[Path], int]:
    """The replays under `directory` (`*.jsonl`), and how many other files it holds.

    A replay folder also gathers logs, notes and a tournament's `.txt`/`.err` files: they
    are no replays, and reading each as one reported it as an unreadable replay.
    """
    files = candidate_files(directory)
    replays = [path for path in files if path.suffix == ".jsonl"]
    return replays, len(files) - len(replays)


class RatedFile(FrozenModel):
    """A file whose game is rated: where it is, its bytes' digest, its place in order."""

    path: str
    sha256: str
    game_id: str
    created_at: str
    unsigned: bool = False
    """Rated with `include_unsigned`: its agents are rated as `agent + UNSIGNED`."""


class FolderScan(FolderFiles):
    """Which files of a directory are rated and which are left out, without summaries."""

    rated: tuple[RatedFile, ...]
    """In file order (the order of `candidate_files`)."""

    @property
    def unsigned(self) -> int:
        """Unsigned games rated (apart) because `include_unsigned` asked for them."""
        return sum(1 for entry in self.rated if entry.unsigned)


@contextmanager
def open_cache(directory: Path, cache: FactsCache | bool) -> Iterator[FactsCache]:
    """The cache to read `directory` through: `cache` itself, the folder's own, or none.

    When the reading ends, however it ends, a cache opened here is closed, and a cache the
    caller handed in is committed and left open for the caller's next reading.

    Raises:
        ArenaError: `directory` does not exist or is not a directory.
    """
    if not directory.exists():
        raise ArenaError(f"{directory}: no such directory")
    if not directory.is_dir():
        raise ArenaError(f"{directory}: not a directory")
    if isinstance(cache, FactsCache):
        store = cache
    else:
        store = FactsCache.for_folder(directory) if cache else FactsCache(None)
    try:
        yield store
    finally:
        if store is not cache:
            store.close()
        else:
            store.commit()


def load_games(
    directory: Path,
    *,
    tournament: str | None = None,
    game_ids: Collection[str] | None = None,
    include_voided: bool = False,
    include_unsigned: bool = False,
    cache: FactsCache | bool = True,
    progress: Progress | None = None,
) -> GameSet:
    """Summaries of every finished replay under `directory` that verifies.

    Args:
        directory: searched recursively.
        tournament: keep only replays whose header names this tournament (others are
            left out silently: they are not faulty).
        game_ids: keep only these games (a tournament's schedule), also silently.
        include_voided: rate voided games too.
        include_unsigned: rate unsigned games too, apart (`UNSIGNED`).
        cache: the facts cache to use; True for the folder's own, False for none.
        progress: called after each file.

    Raises:
        ArenaError: `directory` does not exist or is not a directory.
    """
    with open_cache(directory, cache) as store:
        scan, fresh = scan_folder(
            directory,
            store,
            tournament,
            game_ids,
            include_voided,
            progress,
            include_unsigned=include_unsigned,
        )
        games = [rated_summary(store, fresh, entry) for entry in scan.rated]
        return GameSet(
            directory=scan.directory,
            games=tuple(games),
            skipped=scan.skipped,
            files=scan.files,
            tournaments=scan.tournaments,
            ignored=scan.ignored,
        )


def rated_summary(
    cache: FactsCache, fresh: dict[str, GameSummary], entry: RatedFile
) -> GameSummary:
    """The summary of a rated file: verified just now, or from the cache.

    Raises:
        ArenaError: the cache holds the file's head but not its summary (an edited cache).
    """
    summary = fresh.get(entry.sha256) or cache.summary(entry.sha256)
    if summary is None:
        raise ArenaError(f"{entry.path}: no summary in the facts cache; run with --no-cache")
    return apart(summary) if entry.unsigned else summary


def apart(summary: GameSummary) -> GameSummary:
    """An unsigned game's summary with every agent marked `UNSIGNED` (rated apart)."""
    result = summary.result
    seats = tuple(s.model_copy(update={"agent": s.agent + UNSIGNED}) for s in result.seats)
    return summary.model_copy(update={"result": result.model_copy(update={"seats": seats})})


def scan_folder(
    directory: Path,
    cache: FactsCache,
    tournament: str | None = None,
    game_ids: Collection[str] | None = None,
    include_voided: bool = False,
    progress: Progress | None = None,
    *,
    include_unsigned: bool = False,
    key: ArenaKey | None = None,
    workers: int = 1,
) -> tuple[FolderScan, dict[str, GameSummary]]:
    """Which files of `directory` are rated (see `load_games`), and the summaries verified now.

    Reads only the cache's small heads for known files: a warm folder costs a `stat` and a
    row per file, whatever its games hold. New files are verified in `workers` processes
    when there are many (`verified`). Signatures are checked under `key` (None: the
    arena's key, `arena_key()`).
    """
    key = key if key is not None else arena_key()
    fresh: dict[str, GameSummary] = {}
    entries: list[_Entry] = []
    paths, ignored = replay_files(directory)
    cache.preload()
    looked = [look_up(path, cache) for path in paths]
    new = verified(
        [(p, seen.header) for p, seen in zip(paths, looked, strict=True) if seen.header],
        workers,
        key,
    )
    for done, (path, seen) in enumerate(zip(paths, looked, strict=True), start=1):
        sha256, head, summary = seen.sha256, seen.head, None
        if head is None:
            assert seen.stat is not None and sha256 is not None
            facts = next(new)
            cache.put(seen.stat, sha256, facts)
            head, summary = facts.head(), facts.summary
        if done % COMMIT_EVERY == 0:
            cache.commit()
        if progress is not None:
            progress(done, len(paths))
        if head.game_id is not None and (
            (tournament is not None and head.tournament != tournament)
            or (game_ids is not None and head.game_id not in game_ids)
        ):
            continue
        if sha256 is not None and summary is not None:
            fresh[sha256] = summary
        entries.append(_Entry(path, sha256, head, _judge(head, key, include_voided)))
    return _decide(directory, entries, include_unsigned, ignored), fresh


class _Entry(NamedTuple):
    path: Path
    sha256: str | None
    head: FileHead
    verdict: tuple[Reason | None, str]
    """Why the file is left out whatever the others hold (None: rated, or `unsigned`),
    and the detail after its path."""


def _judge(head: FileHead, key: ArenaKey | None, include_voided: bool) -> tuple[Reason | None, str]:
    """What a file's own head says: left out (and why), unsigned, or rated."""
    if head.verdict in ("unreadable", "unverified", "unfinished"):
        return head.verdict, head.detail
    if head.verdict == "voided" and (not include_voided or not head.summarized):
        return "voided", head.detail
    content = head.content
    signature = check_seal(
        content.seal if content else None, content.digest if content else None, key
    )
    if signature.state == "bad":
        return "bad_signature", f": {signature.message}"
    if signature.state == "unsigned":
        return "unsigned", f": {signature.message}"
    return None, head.detail


def _decide(
    directory: Path, entries: list[_Entry], include_unsigned: bool, ignored: int
) -> FolderScan:
    """Rate each file not left out, signed ones first, each game once (by content)."""
    order = sorted(range(len(entries)), key=lambda i: entries[i].verdict[0] == "unsigned")
    seen: dict[str, Path] = {}
    outcome: dict[int, tuple[Reason | None, str]] = {}
    for i in order:
        path, _, head, (reason, detail) = entries[i]
        if reason is None or (reason == "unsigned" and include_unsigned):
            content = head.content
            keys = [] if content is None else [("body", content.body), ("play", content.play)]
            same = next(((what, seen[k]) for what, k in keys if k in seen), None)
            if same is not None:
                what = "body" if same[0] == "body" else "config, seed and answers"
                reason, detail = "duplicate", f": the same game ({what}) as {same[1]}"
            else:
                seen |= {k: path for _, k in keys}
        outcome[i] = (reason, detail)
    rated: list[RatedFile] = []
    skipped: list[SkippedFile] = []
    tournaments: dict[str, int] = {}
    for i, (path, sha256, head, _) in enumerate(entries):
        reason, detail = outcome[i]
        unsigned = reason == "unsigned" and include_unsigned
        if reason is not None and not unsigned:
            skipped.append(SkippedFile(path=str(path), message=f"{path}{detail}", reason=reason))
            continue
        assert sha256 is not None and head.game_id is not None and head.created_at is not None
        rated.append(
            RatedFile(
                path=str(path),
                sha256=sha256,
                game_id=head.game_id,
                created_at=head.created_at,
                unsigned=unsigned,
            )
        )
        tournaments[head.tournament or ""] = tournaments.get(head.tournament or "", 0) + 1
    return FolderScan(
        directory=str(directory),
        rated=tuple(rated),
        skipped=tuple(skipped),
        files=len(entries),
        tournaments=dict(sorted(tournaments.items())),
        ignored=ignored,
    )
