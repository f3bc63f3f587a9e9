"""`arena leaderboard [DIR]`: ratings, win rates, deception metrics and costs of a set of games.

Reads every replay under DIR (default `replays/`), or only one tournament's games
(`--tournament NAME` or a tournament file, whose schedule also says how many games are
still to play). Only finished games that verify are rated (`arena validate`'s check,
cached per file under `DIR/.arena/`): their log re-runs and their signature verifies
under the arena's key; unsigned games only with `--include-unsigned`, and then apart
(every agent named `AGENT (unsigned)`). A game is counted once however many copies
there are (found by content). Every file left out is reported on stderr (one line each)
and counted by reason. The table shows point estimates with their
intervals; `--csv` and `--json` write the full numbers (docs/metrics.md defines them).
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from arena.commands.leaderboard_text import render
from arena.errors import ArenaError
from arena.ratings.export import pairs_csv, to_csv, to_json
from arena.ratings.folder import folder_report
from arena.ratings.loader import UNSIGNED, FolderScan, Reason
from arena.text import inert, inert_lines
from arena.tournament import load_spec, schedule


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `arena leaderboard`."""
    board = sub.add_parser("leaderboard", help="rate the agents of a directory of replays")
    board.add_argument(
        "directory",
        nargs="?",
        type=Path,
        default=Path("replays"),
        metavar="DIR",
        help="directory of replays, searched recursively (default: replays); "
        "a tournament file (.yaml) here means --tournament FILE",
    )
    csv = "also write one CSV row per agent, and one per pair of agents (board.pairs.csv)"
    board.add_argument("--csv", type=Path, default=None, metavar="FILE", help=csv)
    board.add_argument(
        "--json", type=Path, default=None, metavar="FILE", help="also write the full report as JSON"
    )
    board.add_argument(
        "--bootstrap",
        type=int,
        default=200,
        metavar="N",
        help="bootstrap resamples for the intervals (default: 200; 0: none)",
    )
    board.add_argument("--seed", type=int, default=0, help="seed of the bootstrap resampling")
    board.add_argument(
        "--jobs",
        type=int,
        default=None,
        metavar="N",
        help="processes verifying new replay files (default: every core when there are "
        "many; the numbers do not depend on it)",
    )
    board.add_argument(
        "--tournament",
        default=None,
        metavar="NAME|FILE",
        help="only games of this tournament: its name, or its file (.yaml), whose "
        "schedule also counts the games not played yet",
    )
    board.add_argument(
        "--include-voided",
        action="store_true",
        help="also rate voided games (left out by default)",
    )
    board.add_argument(
        "--include-unsigned",
        action="store_true",
        help="also rate games without a signature (older files), apart: as 'AGENT (unsigned)'",
    )
    board.add_argument(
        "--no-cache",
        action="store_true",
        help="verify every file again instead of using DIR/.arena/facts.sqlite",
    )
    board.set_defaults(handler=_leaderboard)


REASON_TEXT: dict[Reason, str] = {
    "unreadable": "unreadable",
    "unverified": "failed verification",
    "bad_signature": "bad signature",
    "unsigned": "unsigned (--include-unsigned rates them apart)",
    "unfinished": "unfinished",
    "duplicate": "duplicate",
    "voided": "voided",
}
"""How each reason for leaving a file out is counted in the output."""
LISTED_PER_REASON = 20
"""Files listed on stderr per reason; the rest are counted."""


@dataclass(frozen=True, slots=True)
class Selection:
    """Which games to rate: a directory, and optionally one tournament."""

    directory: Path
    tournament: str | None = None
    scheduled: frozenset[str] | None = None
    """The tournament file's game ids, when a file named the tournament."""


def _is_spec(path: Path) -> bool:
    return path.suffix in (".yaml", ".yml") and path.is_file()


def selection(directory: Path, tournament: str | None) -> Selection:
    """Resolve DIR and `--tournament` (a name, or a tournament file) to what is rated.

    Raises:
        ArenaError: an unreadable tournament file, or both DIR and --tournament naming one.
    """
    if _is_spec(directory):
        if tournament is not None:
            raise ArenaError(f"{directory} is a tournament file; give it or --tournament")
        directory, tournament = Path("replays"), str(directory)
    if tournament is None or not (
        tournament.endswith((".yaml", ".yml")) or _is_spec(Path(tournament))
    ):
        return Selection(directory, tournament)
    spec = load_spec(Path(tournament))
    ids = frozenset(job.game_id for job in schedule(spec))
    return Selection(directory, spec.name, ids)


class Progress:
    """Progress on a terminal (stderr): files verified, then the rating step."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.enabled = stream.isatty()

    def files(self, done: int, total: int) -> None:
        """Called by the loader after each file."""
        if self.enabled and (done == total or done % 20 == 0):
            self.stream.write(f"\rreading and verifying replays: {done}/{total}\033[K")
            self.stream.flush()

    def step(self, text: str) -> None:
        """Replace the progress line with `text`."""
        if self.enabled:
            self.stream.write(f"\r{text}\033[K")
            self.stream.flush()

    def done(self) -> None:
        """Clear the progress line."""
        self.step("")


def _leaderboard(args: argparse.Namespace) -> int:
    if args.bootstrap < 0:
        raise ArenaError(f"--bootstrap must be 0 or more, not {args.bootstrap}")
    if args.jobs is not None and args.jobs < 1:
        raise ArenaError(f"--jobs must be 1 or more, not {args.jobs}")
    chosen = selection(args.directory, args.tournament)
    progress = Progress(sys.stderr)
    found, report = folder_report(
        chosen.directory,
        tournament=chosen.tournament,
        game_ids=chosen.scheduled,
        include_voided=args.include_voided,
        include_unsigned=args.include_unsigned,
        bootstrap=args.bootstrap,
        seed=args.seed,
        workers=args.jobs or os.cpu_count() or 1,  # verifies new files
        cache=not args.no_cache,
        progress=progress.files,
        step=progress.step,
    )
    progress.done()
    _list_left_out(found)
    if not found.rated:
        which = f" of tournament {chosen.tournament!r}" if chosen.tournament else ""
        extra = f" ({left_out_text(found)})" if found.skipped else ""
        raise ArenaError(f"{chosen.directory}: no finished replays{which} to rate{extra}")
    print(inert(rated_line(found, chosen)))
    print(inert_lines(render(report)))  # agent labels come from replay headers
    _write(args.csv, to_csv(report))
    _write(pairs_path(args.csv), pairs_csv(report))
    _write(args.json, to_json(report))
    return 0


def _list_left_out(found: FolderScan) -> None:
    if found.ignored:
        print(f"ignored {found.ignored} files not named *.jsonl (not replays)", file=sys.stderr)
    listed: dict[Reason, int] = {}
    for skipped in found.skipped:
        listed[skipped.reason] = listed.get(skipped.reason, 0) + 1
        if listed[skipped.reason] <= LISTED_PER_REASON:
            print(inert(f"skipped {skipped.message}"), file=sys.stderr)
    for reason, count in found.left_out().items():
        if count > LISTED_PER_REASON:
            more = count - LISTED_PER_REASON
            print(f"skipped {more} more {REASON_TEXT[reason]} files", file=sys.stderr)


def left_out_text(found: FolderScan) -> str:
    """`3 files left out: 1 unreadable, 2 failed verification` (empty if none)."""
    counts = found.left_out()
    if not counts:
        return ""
    parts = ", ".join(f"{n} {REASON_TEXT[reason]}" for reason, n in counts.items())
    return f"{len(found.skipped)} files left out: {parts}"


def rated_line(found: FolderScan, chosen: Selection) -> str:
    """What was rated: which tournament (or which mix of them), and what was left out."""
    games = len(found.rated)
    if chosen.tournament is not None:
        what = f"Rated {games} verified games of tournament {chosen.tournament}"
        if chosen.scheduled is not None:
            what += f" ({games} of {len(chosen.scheduled)} scheduled)"
    else:
        named = {name: n for name, n in found.tournaments.items() if name}
        loose = found.tournaments.get("", 0)
        counts = [f"{n} of tournament {name}" for name, n in named.items()]
        counts += [f"{loose} outside any tournament"] if loose else []
        what = f"Rated {games} verified games"
        if len(counts) > 1:
            what += f" together: {', '.join(counts)} (rate one tournament with --tournament)"
        elif list(found.tournaments) not in ([], [""]):
            what += f" of tournament {next(iter(found.tournaments))}"
    if found.unsigned:
        what += f" ({found.unsigned} of them unsigned, rated apart as 'AGENT{UNSIGNED}')"
    left = left_out_text(found)
    return f"{what}; {left} (listed on stderr)" if left else what


def pairs_path(path: Path | None) -> Path | None:
    """Where `--csv FILE` writes its pairs: `board.csv` -> `board.pairs.csv`."""
    if path is None:
        return None
    return path.with_name(f"{path.stem}.pairs{path.suffix or '.csv'}")


def _write(path: Path | None, text: str) -> None:
    if path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise ArenaError(f"{path}: cannot write: {exc.strerror or exc}") from None
