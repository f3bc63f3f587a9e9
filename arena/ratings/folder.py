"""A folder's leaderboard, re-rated only where the folder changed.

`arena leaderboard DIR` and the dashboard's Leaderboard page both call `folder_report`.
It does what `build_report(load_games(DIR).games)` does, with the same result to the
bit (a test compares them), but a warm folder never re-reads what it already folded:

1. `scan_folder` decides which files are rated from the facts cache's small heads (a
   `stat` and one cached row per known file; new files are verified and folded).
2. The rated files, in rating order (start time, then game id), give a hash chain:
   link `i` is SHA-256 of link `i - 1` and file `i`'s SHA-256, starting from the kind
   of state (`STATE_KIND`; the bootstrap's size and seed are no part of a state: they
   are applied when the report is made from it).
3. The cache's saved `ReportFold` over the longest matching prefix of that chain is
   extended by the remaining games only (their summaries are the only ones read), and
   saved again. An unchanged folder matches its whole chain and folds nothing; a
   finished tournament game (a newer start time) folds one game.
4. Anything else (an older game added, a file edited or removed) matches a shorter
   prefix or none, and the rest is folded from there: never a stale number, only a
   slower run. Checkpoints every `CHECKPOINT_STRIDE` games keep that prefix long when
   a game finishes out of order (it started before games already rated, as concurrent
   tournament games do).

The saved states are JSON (`ReportFold.to_json`) in the folder's `.arena/facts.sqlite`,
entries tagged with the `arena` source digest like the facts, so a newer version never
continues an older one's state.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection, Sequence
from pathlib import Path

from arena.ratings.cache import FactsCache
from arena.ratings.loader import (
    FolderScan,
    Progress,
    RatedFile,
    open_cache,
    rated_summary,
    scan_folder,
)
from arena.ratings.ratings import check_arguments
from arena.ratings.report import Report, ReportFold
from arena.ratings.tallies import GameSummary

Step = Callable[[str], None]
"""Told what the rating step is doing (for a progress line)."""


STATE_KIND = "report"
"""What a saved state is a state of (`ReportFold`, whose own layout is `STATE_FORMAT`)."""


def chain(kind: str, files: Sequence[RatedFile]) -> list[str]:
    """Link `i`: the hash of link `i - 1` (`kind` before the first) and file `i`'s digest."""
    links: list[str] = []
    link = hashlib.sha256(kind.encode()).hexdigest()
    for entry in files:
        mark = "/unsigned" if entry.unsigned else ""  # rated under other names (`apart`)
        link = hashlib.sha256(f"{link}/{entry.sha256}{mark}".encode()).hexdigest()
        links.append(link)
    return links


def folder_report(
    directory: Path,
    *,
    tournament: str | None = None,
    game_ids: Collection[str] | None = None,
    include_voided: bool = False,
    include_unsigned: bool = False,
    bootstrap: int = 200,
    seed: int = 0,
    confidence: float = 0.95,
    workers: int = 1,
    cache: FactsCache | bool = True,
    progress: Progress | None = None,
    step: Step | None = None,
) -> tuple[FolderScan, Report]:
    """What was rated under `directory` and its report (see `load_games` and `rate`).

    Raises:
        ArenaError: `directory` does not exist or is not a directory.
        ValueError: a negative `bootstrap`, `workers` below 1, a bad `confidence`.
    """
    check_arguments(bootstrap, confidence, workers)
    with open_cache(directory, cache) as store:
        scan, fresh = scan_folder(
            directory,
            store,
            tournament,
            game_ids,
            include_voided,
            progress,
            include_unsigned=include_unsigned,
            workers=workers,
        )
        fold = _folded(store, scan, fresh, step)
        if step is not None:
            step(f"rating {len(scan.rated)} games ({bootstrap} resamples of their deals)…")
        report = fold.report(
            bootstrap, seed, confidence, skipped=scan.skipped, directory=str(directory)
        )
        return scan, report


CHECKPOINT_STRIDE = 32
"""Saved checkpoints sit at multiples of this many games: the two latest, kept beside the
full states, cover a game that finishes up to 32-63 places before the newest one (games
that started earlier and ran longer, as a tournament's concurrent workers finish them)."""


def _folded(
    store: FactsCache, scan: FolderScan, fresh: dict[str, GameSummary], step: Step | None
) -> ReportFold:
    kind = STATE_KIND
    ordered = sorted(scan.rated, key=lambda e: (e.created_at, e.game_id))
    links = chain(kind, ordered)
    fold, done = ReportFold(), 0
    saved = store.best_state([kind, f"{kind}/checkpoint"], links)
    if saved is not None:
        try:
            fold, done = ReportFold.from_json(saved[1]), saved[0]
        except ValueError:  # a state this code cannot read: fold from scratch
            fold, done = ReportFold(), 0
    if fold.games != done:
        fold, done = ReportFold(), 0
    if done == len(ordered):
        return fold
    if step is not None:
        step(f"folding {len(ordered) - done} new of {len(ordered)} games…")
    latest = len(ordered) // CHECKPOINT_STRIDE * CHECKPOINT_STRIDE
    stops = [n for n in (latest - CHECKPOINT_STRIDE, latest) if done < n < len(ordered)]
    for stop in [*stops, len(ordered)]:
        games = [rated_summary(store, fresh, e) for e in ordered[done:stop]]
        if not fold.extend(games):  # cannot happen in order; fold all from scratch if it does
            fold = ReportFold()
            fold.extend([rated_summary(store, fresh, e) for e in ordered[:stop]])
        done = stop
        label = kind if stop == len(ordered) else f"{kind}/checkpoint"
        store.put_state(label, stop, links[stop - 1], fold.to_json())
    return fold
