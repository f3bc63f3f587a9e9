"""Pictures of an `arena.ratings` report: ratings and win rates with intervals, per side.

Every number comes from `arena.ratings` (`build_report`, `agent_rows`); this module only
reshapes the report into tables and Altair charts.
"""

from __future__ import annotations

import altair as alt
import pandas as pd

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


def interval_chart(frame: pd.DataFrame, value: str, title: str) -> alt.LayerChart | alt.FacetChart:
    """Points with error bars, one row per agent, offset by side."""
    order = list(dict.fromkeys(frame["agent"]))
    base = alt.Chart(frame).encode(
        y=alt.Y("agent:N", sort=order, title=None),
        yOffset=alt.YOffset("side:N", sort=list(SIDES)),
        color=alt.Color("side:N", scale=SIDE_COLORS, title="side"),
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


def deception_chart(frame: pd.DataFrame) -> alt.Chart:
    """Deceptiveness against detection, one point per agent.

    x: the wolf probability good seats gave the agent's wolves; y: the Brier score of the
    agent's good seats. Agents in the lower left lie well and see through lies.
    """
    data = frame.dropna(subset=["wolf_suspicion", "brier"])
    chart: alt.Chart = (
        alt.Chart(data)
        .mark_circle(size=120)
        .encode(
            x=alt.X("wolf_suspicion:Q", title="suspicion of its wolves (lower: better liar)"),
            y=alt.Y("brier:Q", title="Brier of its good seats (lower: better detector)"),
            color=alt.Color("agent:N", legend=None),
            tooltip=["agent", "games", "wolf_suspicion", "brier", "god_claim_rate"],
        )
    )
    return chart


def cost_chart(frame: pd.DataFrame) -> alt.Chart:
    """Tokens per game as bars, labelled with the dollars per game."""
    data = frame[frame["tokens_per_game"] > 0]
    chart: alt.Chart = (
        alt.Chart(data)
        .mark_bar()
        .encode(
            x=alt.X("tokens_per_game:Q", title="tokens per game"),
            y=alt.Y("agent:N", sort="-x", title=None),
            color=alt.Color(
                "cost_per_game_usd:Q", title="USD / game", scale=alt.Scale(scheme="goldorange")
            ),
            tooltip=["agent", "tokens_per_game", alt.Tooltip("cost_per_game_usd:Q", format="$.4f")],
        )
    )
    return chart
