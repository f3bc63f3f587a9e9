"""Two agents at a glance: the head-to-head matrix and the wolf-agent x good-agent table.

Every number comes from the report's `Leaderboard.pairs` (`PairVerdict.head_to_head`: the
first agent's per-deal score, a win 1, a draw ½, over the deals where one of them held
every wolf seat and the other every good seat, with its interval over the deal bootstrap)
and `Leaderboard.cells` (the wolves' wins of one pairing, with Wilson's interval). This
module only reshapes them into Altair grids: the row agent's score against the column
agent, in colour from red (loses every deal) to blue (wins every deal), written in the
cell with its interval's half-width and the games it stands on, and outlined when the
interval excludes ½ (the pair is separated head to head).
"""

from __future__ import annotations

import altair as alt
import pandas as pd

from arena.ratings import Report

from .i18n import Lang, t

SHARE = ".0%"
"""Scores and win rates as percentages: `62%`."""
CELL_PX = 76
"""A grid cell's side: three short lines of text fit in it."""
OUTLINE = "#222222"
"""The outline of a cell whose interval excludes ½."""

COLUMNS = ["row", "column", "score", "low", "high", "deals", "games", "separated", "label"]


def matrix_frame(report: Report, lang: Lang) -> pd.DataFrame:
    """One row per ordered pair that met: the row agent's per-deal score against the column's.

    Each pair appears twice, once from each side (the second's score is one minus the
    first's, its interval mirrored), so the grid reads along either agent's row.
    """
    rows = []
    for pair in report.leaderboard.pairs:
        met = pair.head_to_head
        if met is None:
            continue
        low, high = (met.interval.low, met.interval.high) if met.interval else (None, None)
        separated = low is not None and high is not None and (low > 0.5 or high < 0.5)
        sides = ((pair.first, pair.second, False), (pair.second, pair.first, True))
        for row, column, flip in sides:
            score = 1 - met.score if flip else met.score
            lo = None if low is None or high is None else (1 - high if flip else low)
            hi = None if low is None or high is None else (1 - low if flip else high)
            label = _label(score, lo, hi, met.games, lang)
            rows.append((row, column, score, lo, hi, met.deals, met.games, separated, label))
    return pd.DataFrame(rows, columns=COLUMNS)


def cells_frame(report: Report, lang: Lang) -> pd.DataFrame:
    """One row per (wolf agent, good agent) pairing played: the wolves' win rate."""
    rows = []
    for cell in report.leaderboard.cells:
        wins = cell.wins
        if wins.rate is None:
            continue
        lo, hi = (wins.interval.low, wins.interval.high) if wins.interval else (None, None)
        label = _label(wins.rate, lo, hi, wins.games, lang)
        games = wins.games  # a pairing plays each deal once: its games are its deals
        rows.append((cell.wolves, cell.good, wins.rate, lo, hi, games, games, False, label))
    return pd.DataFrame(rows, columns=COLUMNS)


def _label(score: float, low: float | None, high: float | None, games: int, lang: Lang) -> str:
    """`62%`, `±9%`, `80 games` on three lines (the half-width only with an interval)."""
    lines = [f"{score:.0%}"]
    if low is not None and high is not None:
        lines.append(f"±{(high - low) / 2:.0%}")
    lines.append(t("h2h_games", lang, n=games))
    return "\n".join(lines)


def grid_chart(
    frame: pd.DataFrame, order: list[str], titles: tuple[str, str, str], lang: Lang
) -> alt.LayerChart | alt.FacetChart:
    """A heat grid of `frame` (`matrix_frame` or `cells_frame`), agents in `order`.

    `titles` name the rows, the columns and the colour. Separated cells are outlined.
    """
    rows, columns, value = titles
    base = alt.Chart(frame).encode(
        y=alt.Y("row:N", sort=order, title=rows, axis=alt.Axis(labelLimit=0)),
        x=alt.X(
            "column:N",
            sort=order,
            title=columns,
            axis=alt.Axis(labelLimit=0, labelAngle=-30, orient="top"),
        ),
        tooltip=[
            alt.Tooltip("row:N", title=rows),
            alt.Tooltip("column:N", title=columns),
            alt.Tooltip("score:Q", title=value, format=SHARE),
            alt.Tooltip("low:Q", title=t("low", lang), format=SHARE),
            alt.Tooltip("high:Q", title=t("high", lang), format=SHARE),
            alt.Tooltip("deals:Q", title=t("deals", lang)),
            alt.Tooltip("games:Q", title=t("games", lang)),
        ],
    )
    cells = base.mark_rect().encode(
        color=alt.Color(
            "score:Q",
            title=value,
            scale=alt.Scale(scheme="redblue", domain=[0, 1], domainMid=0.5),
            legend=alt.Legend(format=SHARE, orient="bottom"),
        ),
        stroke=alt.condition("datum.separated", alt.value(OUTLINE), alt.value(None)),
        strokeWidth=alt.condition("datum.separated", alt.value(3), alt.value(0)),
    )
    text = base.mark_text(lineBreak="\n", fontSize=11).encode(
        text="label:N",
        color=alt.condition("abs(datum.score - 0.5) > 0.3", alt.value("white"), alt.value("black")),
    )
    size = alt.Step(CELL_PX)
    return alt.layer(cells, text).properties(width=size, height=size)
