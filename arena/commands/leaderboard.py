"""`arena leaderboard [DIR]`: ratings, win rates, deception metrics and costs of a set of games.

Reads every replay under DIR (default `replays/`), reports each file it cannot use on
stderr (one line each) and rates the rest. The table shows point estimates with their
intervals; `--csv` and `--json` write the full numbers (docs/metrics.md defines them).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from arena.ratings.loader import load_games
from arena.ratings.metrics import AgentMetrics
from arena.ratings.ratings import Skill, WinRate
from arena.ratings.report import Report, build_report, to_csv, to_json
from arena.rules.errors import ArenaError

NONE = "-"
"""What a cell shows when there is no data (for example no belief reports)."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `arena leaderboard`."""
    board = sub.add_parser("leaderboard", help="rate the agents of a directory of replays")
    board.add_argument(
        "directory",
        nargs="?",
        type=Path,
        default=Path("replays"),
        metavar="DIR",
        help="directory of replays, searched recursively (default: replays)",
    )
    board.add_argument(
        "--csv", type=Path, default=None, metavar="FILE", help="also write one CSV row per agent"
    )
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
        help="processes for the bootstrap (default: every core for large jobs; "
        "the intervals do not depend on it)",
    )
    board.add_argument(
        "--tournament", default=None, metavar="NAME", help="only games of this tournament"
    )
    board.set_defaults(handler=_leaderboard)


PARALLEL_WORK = 100_000
"""Resampled games (resamples x games) from which the bootstrap is worth worker processes:
about 5.5 s on one core. Starting spawned workers costs about 1.5 s here, so 60,000
(300 games x 200) ran no faster on 2 cores, and 200,000 ran 1.7x faster (docs/benchmarks.md)."""


def _auto_jobs(work: int) -> int:
    return (os.cpu_count() or 1) if work >= PARALLEL_WORK else 1


def _leaderboard(args: argparse.Namespace) -> int:
    if args.bootstrap < 0:
        raise ArenaError(f"--bootstrap must be 0 or more, not {args.bootstrap}")
    if args.jobs is not None and args.jobs < 1:
        raise ArenaError(f"--jobs must be 1 or more, not {args.jobs}")
    found = load_games(args.directory, tournament=args.tournament)
    for skipped in found.skipped:
        print(f"skipped {skipped.message}", file=sys.stderr)
    if not found.games:
        which = f" of tournament {args.tournament!r}" if args.tournament else ""
        extra = f" ({len(found.skipped)} files skipped)" if found.skipped else ""
        raise ArenaError(f"{args.directory}: no finished replays{which} to rate{extra}")
    report = build_report(
        found.games,
        bootstrap=args.bootstrap,
        seed=args.seed,
        skipped=found.skipped,
        directory=str(args.directory),
        workers=args.jobs or _auto_jobs(args.bootstrap * len(found.games)),
    )
    print(render(report))
    _write(args.csv, to_csv(report))
    _write(args.json, to_json(report))
    return 0


def _write(path: Path | None, text: str) -> None:
    if path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise ArenaError(f"{path}: cannot write: {exc.strerror or exc}") from None


def _pct(value: float | None) -> str:
    return NONE if value is None else f"{100 * value:.0f}%"


def _num(value: float | None, digits: int = 2) -> str:
    return NONE if value is None else f"{value:.{digits}f}"


def _skill(skill: Skill | None) -> str:
    if skill is None:
        return NONE
    if skill.interval is None:
        return f"{skill.mu:.1f} ±{skill.sigma:.1f}σ"
    return f"{skill.mu:.1f} [{skill.interval.low:.1f}, {skill.interval.high:.1f}]"


def _wins(wins: WinRate) -> str:
    if wins.rate is None or wins.interval is None:
        return NONE
    low, high = wins.interval.low, wins.interval.high
    return f"{100 * wins.rate:.0f}% [{100 * low:.0f}-{100 * high:.0f}] n={wins.games}"


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """Left-aligned first column, right-aligned others, two spaces apart."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = []
    for row in [header, *rows]:
        cells = [
            c.ljust(w) if i == 0 else c.rjust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def _ratings(report: Report) -> str:
    header = ["agent", "games", "overall μ", "as wolves μ", "as good μ", "wolf wins", "good wins"]
    rows = [
        [
            s.agent,
            str(s.games),
            _skill(s.overall),
            _skill(s.wolf),
            _skill(s.good),
            _wins(s.wolf_wins),
            _wins(s.good_wins),
        ]
        for s in report.leaderboard.standings
    ]
    return table(header, rows)


def _metric_row(m: AgentMetrics) -> list[str]:
    wolf, good, total = m.as_wolf, m.as_good, m.total
    return [
        m.agent,
        _pct(wolf.god_claims.value),
        _pct(wolf.claim_survival.value),
        _num(wolf.wolf_suspicion.value),
        _num(good.brier.value),
        _pct(good.vote_accuracy.value),
        _pct(wolf.partner_votes.value),
        _num(wolf.misdirection.value, 3),
        _pct(wolf.whisper_leak.value),
        _pct(total.fallbacks.value),
        f"{m.tokens_per_game:,.0f}" if total.usage.calls else NONE,
        f"${m.cost_per_game:.4f}" if total.usage.calls else NONE,
    ]


def _deception(report: Report) -> str:
    header = [
        "agent",
        "god claims",
        "claim survives",
        "suspicion",
        "brier",
        "vote acc",
        "votes partner",
        "misdirection",
        "leak",
        "fallback",
        "tokens/game",
        "$/game",
    ]
    order = [s.agent for s in report.leaderboard.standings]
    rows = [_metric_row(m) for m in sorted(report.agents, key=lambda m: order.index(m.agent))]
    return table(header, rows)


def _models(report: Report) -> str:
    header = ["model", "games", "calls", "tokens/game", "cached", "$/game", "$ total"]
    rows = [
        [
            u.model,
            str(u.games),
            str(u.usage.calls),
            f"{u.tokens_per_game:,.0f}",
            _pct(u.usage.cached_tokens / u.usage.prompt_tokens if u.usage.prompt_tokens else None),
            f"${u.cost_per_game:.4f}",
            f"${u.usage.cost_usd:.2f}",
        ]
        for u in report.models
    ]
    return table(header, rows)


def render(report: Report) -> str:
    """The leaderboard as plain text: ratings, deception and cost, and model usage."""
    board = report.leaderboard
    side = board.wolf_side_wins
    intervals = (
        f"{100 * board.confidence:.0f}% bootstrap intervals ({board.bootstrap} resamples, "
        f"seed {board.seed})"
        if board.bootstrap
        else "no bootstrap (μ ±σ shown)"
    )
    parts = [
        f"{board.games} games from {report.directory or 'memory'}; "
        f"wolves won {_wins(side)}, draws {board.draws}; {intervals}",
        "",
        "Ratings (openskill μ; win rates with Wilson 95% intervals)",
        _ratings(report),
        "",
        "Deception and reliability (wolf seats: claims, suspicion, partner votes, "
        "misdirection, leak; good seats: brier, vote acc)",
        _deception(report),
    ]
    if report.models:
        parts += ["", "Model usage", _models(report)]
    if report.skipped:
        parts += ["", f"{len(report.skipped)} files skipped (listed on stderr)"]
    return "\n".join(parts)
