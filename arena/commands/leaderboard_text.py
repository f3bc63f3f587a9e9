"""`arena leaderboard`'s text: the report as aligned tables, one section per question.

Sections: ratings (the batch fit on the Elo scale, side ratings, recent form, win
rates), pairs (difference, verdict, games needed, head to head in words), the win
table (wolf agent x good agent), deception and reliability, model usage. Every number
comes from the report (`arena.ratings`); this module only lays it out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from arena.ratings.board import Leaderboard, PairVerdict, Rating, WinRate
from arena.ratings.export import agent_rows
from arena.ratings.form import Skill
from arena.ratings.report import Report
from arena.text import ljust, rjust, width

NONE = "-"
"""What a cell shows when there is no data (for example no belief reports)."""
MANY_DEALS = 100_000
"""Above this many more deals, "games needed" says only that no difference shows."""


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """Left-aligned first column, right-aligned others, two spaces apart.

    Widths are terminal columns (`arena.text.width`), so a Chinese agent name, whose
    characters take two columns each, keeps its row aligned.
    """
    widths = [max(width(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = []
    for row in [header, *rows]:
        cells = [
            ljust(c, w) if i == 0 else rjust(c, w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def _pct(value: float | None) -> str:
    return NONE if value is None else f"{100 * value:.0f}%"


def rating_text(rating: Rating | None, signed: bool = False) -> str:
    """`1552 [1518, 1590]` (Elo points; `+52 [+18, +90]` when `signed`)."""
    if rating is None:
        return NONE
    form = "{:+.0f}" if signed else "{:.0f}"
    if rating.interval is None:
        return form.format(rating.elo)
    low, high = (form.format(x) for x in (rating.interval.low, rating.interval.high))
    return f"{form.format(rating.elo)} [{low}, {high}]"


def _form(skill: Skill) -> str:
    return f"{skill.mu:.1f} ±{skill.sigma:.1f}"


def wins_text(wins: WinRate) -> str:
    """`62% [55-69] n=80` (Wilson interval)."""
    if wins.rate is None or wins.interval is None:
        return NONE
    low, high = wins.interval.low, wins.interval.high
    return f"{100 * wins.rate:.0f}% [{100 * low:.0f}-{100 * high:.0f}] n={wins.games}"


def _ratings(board: Leaderboard) -> str:
    header = ["agent", "games", "deals", "rating", "as wolves", "as good", "form μ"]
    header += ["wolf wins", "good wins"]
    rows = [
        [
            s.agent,
            str(s.games),
            str(s.deals),
            rating_text(s.rating),
            rating_text(s.wolf),
            rating_text(s.good),
            _form(s.form),
            wins_text(s.wolf_wins),
            wins_text(s.good_wins),
        ]
        for s in board.standings
    ]
    return table(header, rows)


def verdict_text(pair: PairVerdict) -> str:
    """`separated`, or about how many more deals (and games) would separate the pair."""
    if pair.separated:
        return "separated"
    if pair.separated is None:
        return "no interval" if pair.deals >= 2 else "too few deals"
    more = pair.needed.more_deals if pair.needed is not None else None
    if more is None or pair.needed is None:
        return "not separated; no difference seen"
    if more > MANY_DEALS:
        return f"not separated; over {MANY_DEALS:,} more deals"
    return f"not separated; ~{more:,} more deals ({pair.needed.more_games:,} games)"


def _pairs(board: Leaderboard) -> str:
    header = ["pair", "difference", "verdict", "head to head"]
    rows = [
        [
            f"{p.first} - {p.second}",
            rating_text(Rating(elo=p.difference, interval=p.interval, games=0, deals=0), True),
            verdict_text(p),
            p.said or "never met",
        ]
        for p in board.pairs
    ]
    return table(header, rows)


def _cells(board: Leaderboard) -> str:
    wolves = sorted({c.wolves for c in board.cells})
    good = sorted({c.good for c in board.cells})
    found = {(c.wolves, c.good): c.wins for c in board.cells}
    rows = [
        [w, *(wins_text(found[(w, g)]) if (w, g) in found else NONE for g in good)] for w in wolves
    ]
    return table(["wolves \\ good", *good], rows)


SHOWN: tuple[tuple[str, str, Callable[[float], str]], ...] = (
    ("god_claim_rate", "god claims (w)", _pct),
    ("claim_survival", "claim survives (w)", _pct),
    ("wolf_suspicion", "suspicion (w)", "{:.2f}".format),
    ("brier", "brier (g)", "{:.2f}".format),
    ("vote_accuracy", "vote acc (g)", _pct),
    ("partner_vote_rate", "votes partner (w)", _pct),
    ("wolf_misdirection", "misdirection (w)", "{:.3f}".format),
    ("whisper_leak", "leak (w)", _pct),
    ("spoke", "spoke", _pct),
    ("explosion_rate", "self-explodes (w)", _pct),
    ("fallback_rate", "fallback", _pct),
    ("tokens_per_game", "tokens/game", "{:,.0f}".format),
    ("cost_per_game_usd", "$/game", "${:.4f}".format),
)
"""The metrics the text shows: name in `agent_rows`, label ((w): wolf seats, (g): good
seats), and how a value is written."""


def _metric_cell(row: Mapping[str, object], name: str, write: Callable[[float], str]) -> str:
    value, low, high = (row.get(f"{name}{end}") for end in ("", "_low", "_high"))
    if not isinstance(value, int | float):
        return NONE
    if not isinstance(low, int | float) or not isinstance(high, int | float):
        return write(value)
    return f"{write(value)} [{write(low)}, {write(high)}]"


def _deception(report: Report) -> str:
    rows = agent_rows(report)
    shown = [(name, label, write) for name, label, write in SHOWN if _any(rows, name)]
    lines = [
        [label, *(_metric_cell(row, name, write) for row in rows)] for name, label, write in shown
    ]
    return table(["metric", *(str(row["agent"]) for row in rows)], lines)


SHOWN_AT_ZERO = frozenset({"spoke"})
"""Metrics listed whenever any agent has a value, 0 included: agents that never said a
word are what the spoke share is there to show."""


def _any(rows: Sequence[Mapping[str, object]], name: str) -> bool:
    """Whether any agent has a value of metric `name` (unused metrics are not listed)."""
    unused: tuple[object, ...] = (None,) if name in SHOWN_AT_ZERO else (None, 0, 0.0)
    return any(row.get(name) not in unused for row in rows)


def _differences(report: Report) -> str:
    """Every paired metric difference whose interval excludes 0, one line each."""
    labels = {name: label for name, label, _ in SHOWN}
    writes = {name: write for name, _, write in SHOWN}
    lines = []
    for d in report.metric_pairs:
        if d.metric not in labels or d.interval is None:
            continue
        if d.interval.low <= 0 <= d.interval.high:
            continue
        write = writes[d.metric]
        bounds = f"[{write(d.interval.low)}, {write(d.interval.high)}]"
        lines.append(
            f"  {labels[d.metric]}: {d.first} - {d.second} = {write(d.difference)} {bounds} "
            f"over {d.deals} deals"
        )
    return "\n".join(lines) if lines else "  none"


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


def headline(report: Report) -> str:
    """What was rated, the boards' side balance, and how the intervals are made."""
    board = report.leaderboard
    edges = ", ".join(f"{name} {rating_text(r, True)}" for name, r in board.boards.items())
    intervals = (
        f"{100 * board.confidence:.0f}% intervals from {board.bootstrap} resamples of the "
        f"deals (seed {board.seed}), each pair's its own"
        if board.bootstrap
        else "no bootstrap: no intervals, no verdicts"
    )
    return (
        f"{board.games} games on {board.deals} deals from {report.directory or 'memory'}; "
        f"wolves won {wins_text(board.wolf_side_wins)}, draws {board.draws}; "
        f"the wolves' edge in Elo: {edges or NONE}; {intervals}"
    )


def render(report: Report) -> str:
    """The leaderboard as plain text: every section of the report."""
    board = report.leaderboard
    parts = [
        headline(report),
        "",
        "Ratings (Bradley-Terry fit of all games at once, Elo points, agents' mean 1500; "
        "form: openskill μ over recent games, not a verdict; win rates with Wilson 95% "
        "intervals)",
        _ratings(board),
    ]
    if board.pairs:
        parts += ["", "Pairs (rating difference; head to head: per-deal score)", _pairs(board)]
    if board.cells:
        parts += ["", "Wins of the wolf side (rows) against the good side (columns)"]
        parts.append(_cells(board))
    parts += ["", "Deception and reliability ((w): the agent's wolf seats; (g): its good seats)"]
    parts.append(_deception(report))
    if board.bootstrap and len(board.standings) > 1:
        parts += ["", "Metric differences whose interval excludes 0 (paired by deal)"]
        parts.append(_differences(report))
    if report.models:
        parts += ["", "Model usage", _models(report)]
    return "\n".join(parts)
