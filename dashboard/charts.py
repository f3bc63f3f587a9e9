"""Altair pictures of a view: the seating circle with votes, ballots and beliefs.

Charts take the rows of an already projected `View`, never the raw log.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence

import altair as alt
import pandas as pd

from arena.rules.roles import spec
from arena.rules.types import Team

from .i18n import Lang, t, text
from .projection import BallotRow, Belief, SeatCard

CIRCLE_PX = 420
"""Width and height of the seating circle."""
TIMELINE_PX = 320
"""The least height of the beliefs-over-time chart."""
LEGEND_ROW_PX = 32
"""Height one legend entry takes in Streamlit's chart theme (its title takes one more)."""


def seat_name(n: int | None, lang: Lang) -> str:
    """Axis label of a seat (`#3` / `3號`); None is an abstention."""
    if n is None:
        return t("abstain", lang)
    return text("seat.one", lang, n=n)


def day_label(day: int, lang: Lang) -> str:
    """`Day 2` / `第2天`."""
    return t("day", lang, d=day)


def ballot_rounds(rows: Sequence[BallotRow]) -> list[tuple[int, str]]:
    """The (day, ballot) rounds present in `rows`, in the order they were cast."""
    return list(dict.fromkeys((r.day, r.ballot) for r in rows))


def ballot_frame(rows: Sequence[BallotRow], lang: Lang) -> pd.DataFrame:
    """The ballots as a table (one row per ballot cast), headed in `lang`."""
    return pd.DataFrame(
        {
            t("col_day", lang): [r.day for r in rows],
            t("ballot", lang): [t(f"ballot_{r.ballot}", lang) for r in rows],
            t("voter", lang): [seat_name(r.voter, lang) for r in rows],
            t("target", lang): [seat_name(r.target, lang) for r in rows],
            t("weight", lang): [r.weight for r in rows],
        }
    )


def vote_picture(
    rows: Sequence[BallotRow], seats: int, lang: Lang
) -> alt.LayerChart | alt.FacetChart:
    """One round's ballots as a voter × target grid.

    Every voter and target is labelled (no label is dropped for lack of room), and each
    cell shows its ballot's weight without trailing zeros (the sheriff's counts 1.5).
    """
    frame = pd.DataFrame(
        {
            "voter": [seat_name(r.voter, lang) for r in rows],
            "target": [seat_name(r.target, lang) for r in rows],
            "weight": [r.weight for r in rows],
        }
    )
    order = [seat_name(n, lang) for n in range(1, seats + 1)] + [t("abstain", lang)]
    axis = alt.Axis(labelAngle=0, labelOverlap=False, labelLimit=0)
    base = alt.Chart(frame).encode(
        x=alt.X("target:N", sort=order, title=t("voted_for", lang), axis=axis),
        y=alt.Y("voter:N", sort=order, title=t("voter", lang), axis=axis),
    )
    cells = base.mark_rect(cornerRadius=3).encode(
        color=alt.Color("weight:Q", scale=alt.Scale(scheme="oranges", domain=[0, 2]), legend=None),
        tooltip=[
            alt.Tooltip("voter:N", title=t("voter", lang)),
            alt.Tooltip("target:N", title=t("target", lang)),
            alt.Tooltip("weight:Q", title=t("weight", lang), format="~g"),
        ],
    )
    labels = base.mark_text(fontSize=12).encode(text=alt.Text("weight:Q", format="~g"))
    return alt.layer(cells, labels, height=alt.Step(26), width=alt.Step(40))


def seat_xy(n: int, seats: int) -> tuple[float, float]:
    """Where seat `n` sits on the unit circle: seat 1 at the top, then clockwise."""
    angle = math.pi / 2 - 2 * math.pi * (n - 1) / seats
    return math.cos(angle), math.sin(angle)


def circle_picture(
    cards: Sequence[SeatCard], rows: Sequence[BallotRow], lang: Lang
) -> alt.LayerChart:
    """The table seen from above, with one round's ballots as arrows voter → target.

    A seat that is out is grey; a seat whose role the viewer knows is red (wolf side)
    or blue (good side); the rest are neutral. Arrows stop short of the target and end
    in a triangle pointing at it.
    """
    frame = _seat_frame(cards, lang)
    lines = _arrow_frame(rows, len(cards), lang)
    scale = alt.Scale(domain=[-1.25, 1.25])
    x = alt.X("x:Q", scale=scale, axis=None)
    y = alt.Y("y:Q", scale=scale, axis=None)
    states = ["wolf", "good", "unknown", "out"]
    colors = alt.Scale(domain=states, range=["#e45756", "#4c78a8", "#bab0ac", "#e0e0e0"])
    tips = [
        alt.Tooltip("voter:N", title=t("voter", lang)),
        alt.Tooltip("target:N", title=t("target", lang)),
        alt.Tooltip("weight:Q", title=t("weight", lang), format="~g"),
    ]
    shafts = (
        alt.Chart(lines)
        .mark_rule(color="#f58518", strokeWidth=2)
        .encode(x=x, y=y, x2="x2:Q", y2="y2:Q", tooltip=tips)
    )
    heads = (
        alt.Chart(lines)
        .mark_point(shape="triangle-up", filled=True, size=110, color="#f58518", opacity=1)
        .encode(x=alt.X("x2:Q", scale=scale, axis=None), y=alt.Y("y2:Q", scale=scale, axis=None),
                angle=alt.Angle("angle:Q", scale=None), tooltip=tips)
    )  # fmt: skip
    dots = (
        alt.Chart(frame)
        .mark_circle(size=1300, opacity=1, stroke="#555", strokeWidth=1)
        .encode(x=x, y=y, color=alt.Color("state:N", scale=colors, legend=None),
                tooltip=[alt.Tooltip("seat:N", title=t("call_seat", lang))])
    )  # fmt: skip
    names = (
        alt.Chart(frame).mark_text(fontSize=13, fontWeight="bold").encode(x=x, y=y, text="seat:N")
    )
    layered: alt.LayerChart = alt.layer(
        shafts, heads, dots, names, width=CIRCLE_PX, height=CIRCLE_PX
    ).configure_view(strokeWidth=0)
    return layered


def _seat_frame(cards: Sequence[SeatCard], lang: Lang) -> pd.DataFrame:
    """Each seat's place on the circle, its name and its colour's state."""
    seats = len(cards)
    return pd.DataFrame(
        [
            {
                "x": seat_xy(c.seat, seats)[0],
                "y": seat_xy(c.seat, seats)[1],
                "seat": seat_name(c.seat, lang),
                "state": _state(c),
            }
            for c in cards
        ]
    )


def _arrow_frame(rows: Sequence[BallotRow], seats: int, lang: Lang) -> pd.DataFrame:
    """Each ballot's arrow: from just off the voter to just short of its target."""
    arrows = []
    for r in rows:
        if r.target is None or r.target == r.voter:
            continue
        (x1, y1), (x2, y2) = seat_xy(r.voter, seats), seat_xy(r.target, seats)
        dx, dy = x2 - x1, y2 - y1
        length = math.hypot(dx, dy) or 1.0
        end_x, end_y = x2 - 0.16 * dx / length, y2 - 0.16 * dy / length
        start_x, start_y = x1 + 0.12 * dx / length, y1 + 0.12 * dy / length
        arrows.append(
            {
                "x": start_x, "y": start_y, "x2": end_x, "y2": end_y,
                "angle": (90 - math.degrees(math.atan2(dy, dx))) % 360,
                "voter": seat_name(r.voter, lang), "target": seat_name(r.target, lang),
                "weight": r.weight,
            }
        )  # fmt: skip
    return pd.DataFrame(arrows, columns=["x", "y", "x2", "y2", "angle", "voter", "target",
                                         "weight"])  # fmt: skip


def _state(card: SeatCard) -> str:
    if not card.present:
        return "out"
    if card.role is None:
        return "unknown"
    return "wolf" if spec(card.role).team is Team.WOLF else "good"


def belief_picture(
    rows: Sequence[Belief], seats: int, wolves: Collection[int], lang: Lang
) -> alt.LayerChart | alt.FacetChart:
    """Each seat's latest wolf-probability estimate of every other seat (god view only).

    The true wolves (`wolves`, known to the referee) are marked on the target axis, so a
    column of blue under a wolf is a deception that worked.
    """
    latest: dict[tuple[int, int], Belief] = {}
    for b in rows:
        latest[(b.seat, b.target)] = b

    def target(n: int) -> str:
        return seat_name(n, lang) + (" 🐺" if n in wolves else "")

    frame = pd.DataFrame(
        {
            "seat": [seat_name(b.seat, lang) for b in latest.values()],
            "target": [target(b.target) for b in latest.values()],
            "p_wolf": [b.wolf_probability for b in latest.values()],
            "day": [b.day for b in latest.values()],
        }
    )
    axis = alt.Axis(labelAngle=0, labelOverlap=False)
    base = alt.Chart(frame).encode(
        x=alt.X("target:N", sort=[target(n) for n in range(1, seats + 1)],
                title=t("p_wolf_of", lang), axis=axis),
        y=alt.Y("seat:N", sort=[seat_name(n, lang) for n in range(1, seats + 1)],
                title=t("reported_by", lang), axis=axis),
    )  # fmt: skip
    cells = base.mark_rect().encode(
        color=alt.Color(
            "p_wolf:Q", scale=alt.Scale(scheme="redblue", domain=[1, 0]), title=t("p_wolf", lang)
        ),
        tooltip=["seat", "target", alt.Tooltip("p_wolf:Q", format=".2f"), "day"],
    )
    labels = base.mark_text(fontSize=10).encode(text=alt.Text("p_wolf:Q", format=".1f"))
    return alt.layer(cells, labels, height=24 * seats)


def belief_timeline(rows: Sequence[Belief], wolves: Collection[int], lang: Lang) -> alt.Chart:
    """How suspected each seat was over the game, one line per seat (wolves dashed).

    Each point is the mean wolf probability the other seats gave the seat in one round
    of belief reports. The chart is at least as tall as its legend (one entry per seat):
    Streamlit cuts a legend taller than its chart, which lost #12 on a twelve-seat table.
    Colours come from a twenty-colour scheme: with the theme's ten, #12 had #1's colour.
    """
    sums: dict[tuple[int, int], list[float]] = {}
    for b in rows:
        sums.setdefault((b.after_step, b.target), []).append(b.wolf_probability)
    frame = pd.DataFrame(
        [
            {
                "step": step,
                "seat": seat_name(target, lang) + (" 🐺" if target in wolves else ""),
                "p": sum(ps) / len(ps),
                "wolf": target in wolves,
            }
            for (step, target), ps in sorted(sums.items())
        ],
        columns=["step", "seat", "p", "wolf"],
    )
    chart: alt.Chart = (
        alt.Chart(frame)
        .mark_line(point=True)
        .encode(
            x=alt.X("step:Q", title=t("step", lang)),
            y=alt.Y("p:Q", title=t("mean_p_wolf", lang), scale=alt.Scale(domain=[0, 1])),
            color=alt.Color(
                "seat:N", title=t("call_seat", lang), sort=None, scale=alt.Scale(scheme="tableau20")
            ),
            strokeDash=alt.StrokeDash("wolf:N", legend=None),
            tooltip=["seat", "step", alt.Tooltip("p:Q", format=".2f")],
        )
        .properties(height=max(TIMELINE_PX, LEGEND_ROW_PX * (frame["seat"].nunique() + 1)))
    )
    return chart
