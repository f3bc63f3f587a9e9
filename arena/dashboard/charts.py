"""Altair pictures of a view: who voted whom, and belief heat maps.

Charts take the rows of an already projected `View`, never the raw log.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import altair as alt
import pandas as pd

from arena.dashboard.projection import BallotRow, Belief
from arena.transcript import Lang

_ABSTAIN = {"en": "abstain", "zh": "棄票"}


def seat_name(n: int | None, lang: Lang) -> str:
    """Axis label of a seat (`#3` / `3號`); None is an abstention."""
    if n is None:
        return _ABSTAIN[lang]
    return f"{n}號" if lang == "zh" else f"#{n}"


def ballot_rounds(rows: Sequence[BallotRow]) -> list[tuple[int, str]]:
    """The (day, ballot) rounds present in `rows`, in the order they were cast."""
    return list(dict.fromkeys((r.day, r.ballot) for r in rows))


def ballot_frame(rows: Sequence[BallotRow], lang: Lang) -> pd.DataFrame:
    """The ballots as a table (one row per ballot cast)."""
    return pd.DataFrame(
        {
            "day": [r.day for r in rows],
            "ballot": [r.ballot for r in rows],
            "voter": [seat_name(r.voter, lang) for r in rows],
            "target": [seat_name(r.target, lang) for r in rows],
            "weight": [r.weight for r in rows],
        }
    )


def vote_picture(
    rows: Sequence[BallotRow], seats: int, lang: Lang
) -> alt.LayerChart | alt.FacetChart:
    """One round's ballots as a voter × target grid.

    Each cell is a ballot labelled by its weight (the sheriff's counts 1.5), so a bloc
    voting together shows up as a column.
    """
    frame = ballot_frame(rows, lang)
    order = [seat_name(n, lang) for n in range(1, seats + 1)] + [_ABSTAIN[lang]]
    base = alt.Chart(frame).encode(
        x=alt.X("target:N", sort=order, title="→", axis=alt.Axis(labelAngle=0)),
        y=alt.Y("voter:N", sort=order, title=None),
    )
    cells = base.mark_rect(cornerRadius=3).encode(
        color=alt.Color("weight:Q", scale=alt.Scale(scheme="oranges", domain=[0, 2]), legend=None),
        tooltip=["voter", "target", "weight"],
    )
    labels = base.mark_text(fontSize=12).encode(text=alt.Text("weight:Q", format="g"))
    return alt.layer(cells, labels, height=28 * max(1, frame["voter"].nunique()))


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
    base = alt.Chart(frame).encode(
        x=alt.X(
            "target:N",
            sort=[target(n) for n in range(1, seats + 1)],
            title="P(wolf) of",
            axis=alt.Axis(labelAngle=0, labelOverlap=False),
        ),
        y=alt.Y(
            "seat:N",
            sort=[seat_name(n, lang) for n in range(1, seats + 1)],
            title="reported by",
            axis=alt.Axis(labelOverlap=False),
        ),
    )
    cells = base.mark_rect().encode(
        color=alt.Color("p_wolf:Q", scale=alt.Scale(scheme="redblue", domain=[1, 0])),
        tooltip=["seat", "target", alt.Tooltip("p_wolf:Q", format=".2f"), "day"],
    )
    labels = base.mark_text(fontSize=10).encode(text=alt.Text("p_wolf:Q", format=".1f"))
    return alt.layer(cells, labels, height=24 * seats)
