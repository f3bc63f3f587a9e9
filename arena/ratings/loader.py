"""Read a directory of replays into verified game summaries; the only I/O of `arena.ratings`.

Every regular, non-hidden file under the directory is tried. Only a finished replay that
verifies is rated: its recorded answers, re-run through the referee, must reproduce its
event log and its header's result exactly (`arena validate`'s check), so a flipped
winner or an edited event never reaches a rating. Every other file is left out with a
one-line reason naming the file, and counted by kind:

- `unreadable`: not a replay, or a line that cannot be parsed (corrupt, truncated);
- `unverified`: readable, but `arena validate` rejects it;
- `unfinished`: a game still running (or abandoned) has no result yet;
- `duplicate`: a second copy of a game already read;
- `voided`: the game was voided (for example a model seat that kept falling back);
  left out unless asked for.

So one bad file never hides a tournament's results, and never crashes the leaderboard.
Verification and folding happen once per file: `FactsCache` remembers each file's
verdict and summary by path, size and mtime, and by content hash.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any, Literal

from arena.ratings.cache import FactsCache, FileFacts, Stat, file_digest
from arena.ratings.facts import summarize
from arena.ratings.stats import FrozenModel
from arena.ratings.tallies import GameSummary
from arena.replay_check import check_replay
from arena.rules.errors import ArenaError
from arena.storage.replay_file import ReplayHeader, read_header, read_replay

Reason = Literal["unreadable", "unverified", "unfinished", "duplicate", "voided"]
REASONS: tuple[Reason, ...] = ("unreadable", "unverified", "unfinished", "duplicate", "voided")

Progress = Callable[[int, int], None]
"""Called as `progress(files_done, files_total)` while a directory is read."""

COMMIT_EVERY = 200
"""Files between cache commits, so an interrupted cold run keeps most of its work."""


class SkippedFile(FrozenModel):
    """A file under the directory that gave no rated game, and why (one line, naming it)."""

    path: str
    message: str
    reason: Reason = "unreadable"


class GameSet(FrozenModel):
    """The finished, verified games found under a directory, and the files left out."""

    directory: str
    games: tuple[GameSummary, ...]
    skipped: tuple[SkippedFile, ...]
    files: int = 0
    """Files looked at (after the tournament filter)."""
    tournaments: dict[str, int] = {}
    """Rated games per tournament name (`""`: games of no tournament)."""

    def left_out(self) -> dict[Reason, int]:
        """How many files were left out, by reason (only reasons that occurred)."""
        counts = Counter(s.reason for s in self.skipped)
        return {reason: counts[reason] for reason in REASONS if counts[reason]}


def candidate_files(directory: Path) -> list[Path]:
    """Regular files under `directory`, recursively, sorted; hidden files and dirs excluded."""
    return sorted(
        path
        for path in directory.rglob("*")
        if path.is_file()
        and not any(part.startswith(".") for part in path.relative_to(directory).parts)
    )


def void_reason(header: Any) -> str | None:
    """Why the game was voided, or None for a game that counts.

    A voided result says so with `void: true` and gives its reason in `reason` (a model
    seat that kept falling back); older or newer spellings (`voided`, or the reason
    itself in `void`) are read too.
    """
    result = getattr(header, "result", None)
    for name in ("void", "voided"):
        value = getattr(result, name, None)
        if isinstance(value, str) and value:
            return value
        if value is True:
            return str(getattr(result, "reason", "") or "voided")
    return None


def verify_file(path: Path, header: ReplayHeader) -> FileFacts:
    """Read, verify and fold one finished replay (the expensive step the cache saves)."""
    ids = {"game_id": header.game_id, "tournament": header.tournament}
    void = void_reason(header)
    if void is not None and getattr(header.result, "winner", None) is None:
        return FileFacts(verdict="voided", detail=f": voided: {void}", **ids)  # nothing to rate
    try:
        replay = read_replay(path)
        check = check_replay(path)
        if not check.ok:
            where = f":{check.line}" if check.line else ""
            detail = check.message.removeprefix(str(path)).removeprefix(where)
            detail = detail if detail.startswith(":") else f": {detail}"
            return FileFacts(verdict="unverified", detail=f"{where}{detail}", **ids)
        summary = summarize(replay)
    except ArenaError as exc:
        return FileFacts(verdict="unreadable", detail=_detail(str(exc), path), **ids)
    except (OSError, UnicodeDecodeError, RecursionError, ValueError) as exc:
        reason = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
        return FileFacts(verdict="unreadable", detail=f": cannot read: {reason}", **ids)
    if void is not None:
        return FileFacts(verdict="voided", detail=f": voided: {void}", summary=summary, **ids)
    return FileFacts(verdict="rated", summary=summary, **ids)


def _detail(message: str, path: Path) -> str:
    """`message` without its leading path, starting with `:`."""
    rest = message.removeprefix(str(path))
    return rest if rest.startswith(":") else f": {message}"


def file_facts(path: Path, cache: FactsCache) -> FileFacts:
    """The facts of one file: from the cache when its bytes are known, else verified.

    Unreadable headers and unfinished games are cheap to find and change as a game is
    written, so they are never cached.
    """
    try:
        stat = Stat.of(path)
        known = cache.by_stat(stat)
        if known is not None:
            return known[1]
        header = read_header(path)
    except ArenaError as exc:
        return FileFacts(verdict="unreadable", detail=_detail(str(exc), path))
    except (OSError, ValueError) as exc:
        return FileFacts(verdict="unreadable", detail=f": cannot read: {exc}")
    if header.result is None:
        return FileFacts(
            verdict="unfinished",
            detail=f": unfinished game {header.game_id} (no result yet)",
            game_id=header.game_id,
            tournament=header.tournament,
        )
    try:
        sha256 = file_digest(path)
    except OSError as exc:
        return FileFacts(verdict="unreadable", detail=f": cannot read: {exc}")
    facts = cache.by_digest(stat, sha256)
    if facts is None:
        facts = verify_file(path, header)
        cache.put(stat, sha256, facts)
    return facts


def load_games(
    directory: Path,
    *,
    tournament: str | None = None,
    game_ids: Collection[str] | None = None,
    include_voided: bool = False,
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
        cache: the facts cache to use; True for the folder's own, False for none.
        progress: called after each file.

    Raises:
        ArenaError: `directory` does not exist or is not a directory.
    """
    if not directory.exists():
        raise ArenaError(f"{directory}: no such directory")
    if not directory.is_dir():
        raise ArenaError(f"{directory}: not a directory")
    store = cache if isinstance(cache, FactsCache) else None
    if store is None:
        store = FactsCache.for_folder(directory) if cache else FactsCache(None)
    try:
        return _load(directory, store, tournament, game_ids, include_voided, progress)
    finally:
        if store is not cache:
            store.close()
        else:
            store.commit()


def _load(
    directory: Path,
    cache: FactsCache,
    tournament: str | None,
    game_ids: Collection[str] | None,
    include_voided: bool,
    progress: Progress | None,
) -> GameSet:
    games: list[GameSummary] = []
    skipped: list[SkippedFile] = []
    seen: dict[str, Path] = {}
    tournaments: dict[str, int] = {}
    paths = candidate_files(directory)
    cache.preload()
    looked = 0
    for done, path in enumerate(paths, start=1):
        facts = file_facts(path, cache)
        if done % COMMIT_EVERY == 0:
            cache.commit()
        if progress is not None:
            progress(done, len(paths))
        if facts.game_id is not None and (
            (tournament is not None and facts.tournament != tournament)
            or (game_ids is not None and facts.game_id not in game_ids)
        ):
            continue
        looked += 1
        reason: Reason | None = None
        detail = facts.detail
        if facts.verdict in ("unreadable", "unverified", "unfinished"):
            reason = facts.verdict
        elif facts.game_id in seen:
            reason = "duplicate"
            detail = f": game {facts.game_id} was already read from {seen[facts.game_id]}"
        elif facts.verdict == "voided" and (not include_voided or facts.summary is None):
            reason = "voided"
        if reason is not None:
            skipped.append(SkippedFile(path=str(path), message=f"{path}{detail}", reason=reason))
            continue
        assert facts.summary is not None and facts.game_id is not None
        seen[facts.game_id] = path
        games.append(facts.summary)
        tournaments[facts.tournament or ""] = tournaments.get(facts.tournament or "", 0) + 1
    return GameSet(
        directory=str(directory),
        games=tuple(games),
        skipped=tuple(skipped),
        files=looked,
        tournaments=dict(sorted(tournaments.items())),
    )
