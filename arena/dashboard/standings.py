"""Pictures of an `arena.ratings` report: ratings and win rates with intervals, per side.

Every number comes from `arena.ratings` (`build_report`, `agent_rows`); this module only
reshapes the report into tables and Altair charts.
"""

from __future__ import annotations

import altair as alt
import pandas as pd

from arena.dashboard.i18n import Lang, t
from arena.ratings import Report, Skill, WinRate, agent_rows

SIDES = ("overall", "wolf", "good")
SIDE_COLORS = alt.Scale(domain=list(SIDES), range=["#4c78a8", "#e45756", "#54a24b"])


def skill_frame(report: Report) -> pd.DataFrame:
    """One row per (agent, side) rating: mu and its interval."""
    rows = []
    for s in report.leaderboard.standings:
        skills: dict[str, Skill | None] = {"overall": s.overall, "wolf": s.wolf, "good": s.good}
        for side, skill in skills.items():
            if skill is None:
                continue
            low = skill.interval.low if skill.interval else skill.mu
            high = skill.interval.high if skill.interval else skill.mu
            rows.append((s.agent, side, skill.mu, low, high, skill.games))
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
    """Points with error bars, one row per agent, offset by side."""
    order = list(dict.fromkeys(frame["agent"]))
    sides = [t(f"side_{s}", lang) for s in SIDES]
    data = frame.assign(side=[t(f"side_{s}", lang) for s in frame["side"]])
    base = alt.Chart(data).encode(
        y=alt.Y("agent:N", sort=order, title=None, axis=alt.Axis(labelLimit=0)),
        yOffset=alt.YOffset("side:N", sort=sides),
        color=alt.Color(
            "side:N", scale=alt.Scale(domain=sides, range=SIDE_COLORS.range), title=t("side", lang)
        ),
        tooltip=["agent", "side", alt.Tooltip(f"{value}:Q", format=".3g"), "low", "high", "games"],
    )
    bars = base.mark_rule(strokeWidth=2).encode(
        x=alt.X("low:Q", title=title, scale=alt.Scale(zero=False)), x2="high:Q"
    )
    points = base.mark_point(filled=True, size=70).encode(x=f"{value}:Q")
    return alt.layer(bars, points, height=alt.Step(14))


def table(report: Report) -> pd.DataFrame:
    """The flat per-agent table of `arena.ratings.agent_rows`."""
    return pd.DataFrame(agent_rows(report))


def deception_chart(frame: pd.DataFrame, lang: Lang) -> alt.LayerChart | alt.FacetChart:
    """Deceptiveness against detection, one labelled point per agent.

    x: the wolf probability good seats gave the agent's wolves; y: the Brier score of the
    agent's good seats. Agents in the lower left lie well and see through lies. Each dot
    carries its agent's name beside it (and a legend), so the picture reads on its own.
    """
    data = frame.dropna(subset=["wolf_suspicion", "brier"])
    base = alt.Chart(data).encode(
        x=alt.X("wolf_suspicion:Q", title=t("deception_x", lang), scale=alt.Scale(zero=False)),
        y=alt.Y("brier:Q", title=t("deception_y", lang), scale=alt.Scale(zero=False)),
    )
    dots = base.mark_circle(size=120).encode(
        color=alt.Color("agent:N", title=t("agent", lang), legend=alt.Legend(orient="bottom")),
        tooltip=["agent", "games", "wolf_suspicion", "brier", "god_claim_rate"],
    )
    names = base.mark_text(align="left", dx=9, dy=-6, fontSize=11).encode(text="agent:N")
    return alt.layer(dots, names)


def cost_chart(frame: pd.DataFrame, lang: Lang) -> alt.Chart:
    """Tokens per game as bars, labelled with the dollars per game."""
    data = frame[frame["tokens_per_game"] > 0]
    chart: alt.Chart = (
        alt.Chart(data)
        .mark_bar()
        .encode(
            x=alt.X("tokens_per_game:Q", title=t("tokens_per_game", lang)),
            y=alt.Y("agent:N", sort="-x", title=None, axis=alt.Axis(labelLimit=0)),
            color=alt.Color(
                "cost_per_game_usd:Q",
                title=t("usd_per_game", lang),
                scale=alt.Scale(scheme="goldorange"),
            ),
            tooltip=["agent", "tokens_per_game", alt.Tooltip("cost_per_game_usd:Q", format="$.4f")],
        )
    )
    return chart
