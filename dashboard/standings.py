"""Pictures of an `arena.ratings` report: ratings and win rates with intervals, per side.

Every number comes from `arena.ratings` (`build_report`, `agent_rows`); this module only
reshapes the report into tables and Altair charts.
"""

from __future__ import annotations

import altair as alt
import pandas as pd

from arena.ratings import Rating, Report, WinRate, agent_rows
from arena.ratings.loader import UNSIGNED

from .i18n import Lang, t

SIDES = ("overall", "wolf", "good")
SIDE_COLORS = alt.Scale(domain=list(SIDES), range=["#4c78a8", "#e45756", "#54a24b"])


RATING_FORMAT = ".0f"
"""Ratings (Elo points, the agents' mean 1500) in whole points: `1552`."""
SHARE_FORMAT = ".0%"
"""Shares and probabilities (win rates, suspicion) as percentages: `47%`."""
SCORE_FORMAT = ".2f"
"""Brier scores (0 to 1, not a share) to two decimals: `0.17`."""
COUNT_FORMAT = "~s"
"""Token counts on an axis in SI units (`100k`, `1.5M`): separated digits crowd the ticks."""
TITLE_LINE = 28
"""Width of an axis title (a CJK character counts two) before it is broken in lines."""

TITLE_LINE_PX = 24
"""Line height of a broken axis title: the default lets Chinese lines touch."""


def cost_format(most: float) -> str:
    """The d3 format of dollar amounts up to `most`: cents from $1, else four decimals.

    A game's cost is often a fraction of a cent, which `$.2f` would show as `$0.00`.
    """
    return "$,.2f" if most >= 1 else "$.4f"


def title_lines(title: str) -> str | list[str]:
    """A long axis title as lines (Vega-Lite draws a list as lines), else as it is.

    A vertical axis title longer than its chart is cut with an ellipsis, so a long one is
    broken before its parenthetical (`(…)` or the Chinese `（…）`).
    """
    if sum(2 if ord(c) >= 0x2E80 else 1 for c in title) <= TITLE_LINE:  # CJK: two wide
        return title
    for mark in ("（", " ("):
        head, found, tail = title.partition(mark)
        if found and head:
            return [head, found.strip() + tail]
    return title


def skill_frame(report: Report) -> pd.DataFrame:
    """One row per (agent, side) rating: its Elo value (`mu`) and its interval."""
    rows = []
    for s in report.leaderboard.standings:
        ratings: dict[str, Rating | None] = {"overall": s.rating, "wolf": s.wolf, "good": s.good}
        for side, rating in ratings.items():
            if rating is None:
                continue
            low = rating.interval.low if rating.interval else rating.elo
            high = rating.interval.high if rating.interval else rating.elo
            rows.append((s.agent, side, rating.elo, low, high, rating.games))
    return pd.DataFrame(rows, columns=["agent", "side", "mu", "low", "high", "games"])


def win_frame(report: Report) -> pd.DataFrame:
    """One row per (agent, side) win rate with its Wilson interval."""
    rows = []
    for s in report.leaderboard.standings:
        rates: dict[str, WinRate] = {"overall": s.wins, "wolf": s.wolf_wins, "good": s.good_wins}
        for side, wins in rates.items():
            if wins.rate is None or wins.interval is None:
                continue
            rows.append(
                (s.agent, side, wins.rate, wins.interval.low, wins.interval.high, wins.games)
            )
    return pd.DataFrame(rows, columns=["agent", "side", "rate", "low", "high", "games"])


def interval_chart(
    frame: pd.DataFrame, value: str, title: str, lang: Lang
) -> alt.LayerChart | alt.FacetChart:
    """Points with error bars, one row per agent, offset by side.

    A win rate (`rate`) reads as a percentage, a rating to one decimal at most.
    """
    number = SHARE_FORMAT if value == "rate" else RATING_FORMAT
    order = list(dict.fromkeys(frame["agent"]))
    sides = [t(f"side_{s}", lang) for s in SIDES]
    data = frame.assign(side=[t(f"side_{s}", lang) for s in frame["side"]])
    base = alt.Chart(data).encode(
        y=alt.Y("agent:N", sort=order, title=None, axis=alt.Axis(labelLimit=0)),
        yOffset=alt.YOffset("side:N", sort=sides),
        color=alt.Color(
            "side:N", scale=alt.Scale(domain=sides, range=SIDE_COLORS.range), title=t("side", lang)
        ),
        tooltip=[
            "agent",
            "side",
            alt.Tooltip(f"{value}:Q", format=number),
            alt.Tooltip("low:Q", format=number),
            alt.Tooltip("high:Q", format=number),
            "games",
        ],
    )
    bars = base.mark_rule(strokeWidth=2).encode(
        x=alt.X(
            "low:Q",
            title=title,
            scale=alt.Scale(zero=False),
            axis=alt.Axis(format=number, titleLimit=0),
        ),
        x2="high:Q",
    )
    points = base.mark_point(filled=True, size=70).encode(x=f"{value}:Q")
    return alt.layer(bars, points, height=alt.Step(14))


def table(report: Report) -> pd.DataFrame:
    """The flat per-agent table of `arena.ratings.agent_rows`."""
    return pd.DataFrame(agent_rows(report))


def deception_chart(frame: pd.DataFrame, lang: Lang) -> alt.LayerChart | alt.FacetChart:
    """Deceptiveness against detection, one labelled point per agent, with interval bars.

    x: the wolf probability good seats gave the agent's wolves; y: the Brier score of the
    agent's good seats; each with its interval over the deal bootstrap (`NAME_low`,
    `NAME_high` of `agent_rows`: a bar across x and one along y, drawn where there is one).
    Agents in the lower left lie well and see through lies. Each dot carries its agent's
    name beside it (and a legend), so the picture reads on its own.
    """
    data = frame.dropna(subset=["wolf_suspicion", "brier"])
    x_title, y_title = title_lines(t("deception_x", lang)), title_lines(t("deception_y", lang))
    x_axis = alt.Axis(format=SHARE_FORMAT, titleLimit=0, titleLineHeight=TITLE_LINE_PX)
    y_axis = alt.Axis(format=SCORE_FORMAT, titleLimit=0, titleLineHeight=TITLE_LINE_PX)
    unzeroed = alt.Scale(zero=False)

    def x(field: str) -> alt.X:
        return alt.X(f"{field}:Q", title=x_title, axis=x_axis, scale=unzeroed)

    def y(field: str) -> alt.Y:
        return alt.Y(f"{field}:Q", title=y_title, axis=y_axis, scale=unzeroed)

    color = alt.Color("agent:N", title=t("agent", lang), legend=alt.Legend(orient="bottom"))
    base = alt.Chart(data).encode(x=x("wolf_suspicion"), y=y("brier"))
    across = base.mark_rule(strokeWidth=2, opacity=0.6).encode(
        x=x("wolf_suspicion_low"), x2="wolf_suspicion_high:Q", color=color
    )
    along = base.mark_rule(strokeWidth=2, opacity=0.6).encode(
        y=y("brier_low"), y2="brier_high:Q", color=color
    )
    dots = base.mark_circle(size=120).encode(
        color=color,
        tooltip=[
            "agent",
            "games",
            alt.Tooltip("wolf_suspicion:Q", format=SHARE_FORMAT),
            alt.Tooltip("wolf_suspicion_low:Q", format=SHARE_FORMAT),
            alt.Tooltip("wolf_suspicion_high:Q", format=SHARE_FORMAT),
            alt.Tooltip("brier:Q", format=".3f"),
            alt.Tooltip("brier_low:Q", format=".3f"),
            alt.Tooltip("brier_high:Q", format=".3f"),
            alt.Tooltip("god_claim_rate:Q", format=SHARE_FORMAT),
        ],
    )
    names = base.mark_text(align="left", dx=9, dy=-6, fontSize=11).encode(text="agent:N")
    return alt.layer(across, along, dots, names)


def cost_chart(frame: pd.DataFrame, lang: Lang) -> alt.Chart:
    """Tokens per game as bars, labelled with the dollars per game."""
    data = frame[frame["tokens_per_game"] > 0]
    dollars = cost_format(float(data["cost_per_game_usd"].max()) if len(data) else 0.0)
    chart: alt.Chart = (
        alt.Chart(data)
        .mark_bar()
        .encode(
            x=alt.X(
                "tokens_per_game:Q",
                title=t("tokens_per_game", lang),
                axis=alt.Axis(format=COUNT_FORMAT),
            ),
            y=alt.Y("agent:N", sort="-x", title=None, axis=alt.Axis(labelLimit=0)),
            color=alt.Color(
                "cost_per_game_usd:Q",
                title=t("usd_per_game", lang),
                scale=alt.Scale(scheme="goldorange"),
                legend=alt.Legend(format=dollars),
            ),
            tooltip=[
                "agent",
                alt.Tooltip("tokens_per_game:Q", format=",.0f"),
                alt.Tooltip("cost_per_game_usd:Q", format="$.4f"),
            ],
        )
    )
    return chart


def with_unsigned_mark(report: Report, lang: Lang) -> Report:
    """`report` with the mark of agents rated from unsigned games in the reader's words.

    The ratings mark such an agent `AGENT (unsigned)` (`arena.ratings.loader.UNSIGNED`),
    an English word in every name of every table on a Chinese page: the mark is an arena
    word, so it is shown in the page's language (`bot（未签名）`), wherever a name appears.
    """
    mark = t("unsigned_mark", lang)
    if mark == UNSIGNED:
        return report
    marked = report.model_dump_json().replace(f'{UNSIGNED}"', f'{mark}"')
    return Report.model_validate_json(marked)
