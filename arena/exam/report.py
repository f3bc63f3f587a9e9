"""`arena exam report`: the answers scored against the key, per contestant and paired.

For every contestant, kind and group (all items; by the asked seat's role; by day): the
items, the share of its own answers, the kind's mean figure (`arena.exam.scoring`) with a
95 % interval clustered by game (`arena.exam.intervals`), the AUROC of its wolf
probabilities for `belief`, and a speech's further figures (the wolf team's shift, false
role and check claims, explosions); and `decisions`, the vote, seer and knife items
pooled (each a hit or a miss). For every pair of contestants and kind: the mean
difference over the items both were scored on, with its interval, and whether it excludes
0 (per pair). Everything is a pure function of the exam, key, answer and judgment files
(`arena.exam.judgments`): nothing here asks an agent.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

from arena.exam.answers import ItemAnswer
from arena.exam.files import Exam, Key
from arena.exam.intervals import Estimate, Resamples, separated
from arena.exam.items import KINDS, Kind
from arena.exam.judgments import Verdicts, current
from arena.exam.scoring import BETTER, Score, auroc, score

Figure = Kind | Literal["decisions"]
"""A kind of item, or `decisions`: the vote, seer and knife items pooled (one hit each)."""
FIGURES: tuple[Figure, ...] = (*KINDS, "decisions")
POOLED: frozenset[Kind] = frozenset({"vote", "seer", "knife"})
"""The kinds whose figure is a hit (1 or 0), pooled into `decisions`."""


def sense(kind: Figure) -> Literal["higher", "lower"]:
    """Which way `kind`'s figure is better (pooled hits: higher)."""
    return "higher" if kind == "decisions" else BETTER[kind]


def _of(kind: Figure, score: Score) -> bool:
    """Whether `score` counts toward `kind`'s figure."""
    return score.item.kind == kind or (kind == "decisions" and score.item.kind in POOLED)


class Row(BaseModel):
    """One contestant's figures on one kind of item, over one group of items."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    contestant: str
    kind: Figure
    group: str = "all"
    """`all`, `role:ROLE` (the asked seat's card) or `day:N`."""
    items: int
    games: int
    own: float
    """The share of these items the contestant answered itself."""
    value: float | None
    low: float | None = None
    high: float | None = None
    better: Literal["higher", "lower"]
    auroc: float | None = None
    extra: dict[str, float] = {}


class Pair(BaseModel):
    """Contestant `a` minus contestant `b` on one kind, over the items both were scored on."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    a: str
    b: str
    kind: Figure
    items: int
    games: int
    difference: float
    low: float | None
    high: float | None
    separated: bool
    """The interval excludes 0 (a 95 % interval per pair, not corrected for many pairs)."""
    better: Literal["higher", "lower"]


class ExamReport(BaseModel):
    """An exam's scores: per contestant, kind and group, and paired."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    exam_id: str
    items: int
    games: int
    contestants: tuple[str, ...]
    judges: tuple[str, ...]
    bootstrap: int
    seed: int
    rows: tuple[Row, ...]
    pairs: tuple[Pair, ...]


Sittings = Mapping[str, Mapping[str, ItemAnswer]]
"""Each contestant's answers by item id."""


def scores(exam: Exam, key: Key, sittings: Sittings) -> dict[str, list[Score]]:
    """Every contestant's scored answers, in the exam's order.

    Items a contestant has not answered are left out: a sitting still running is scored on
    what it has.
    """
    return {
        name: [
            score(item, answers[item.id], key.truths[item.id])
            for item in exam.items
            if item.id in answers
        ]
        for name, answers in sittings.items()
    }


def _judged(
    scored: dict[str, list[Score]], judges: Sequence[str], verdicts: Verdicts
) -> dict[str, list[Score]]:
    """The scores with each speech's value: its judges' mean shift on the speaker."""
    return {
        name: [_with_verdicts(name, s, judges, verdicts) for s in found]
        for name, found in scored.items()
    }


def _with_verdicts(name: str, entry: Score, judges: Sequence[str], verdicts: Verdicts) -> Score:
    if entry.item.kind != "speech" or entry.answer is None:
        return entry
    found = current(verdicts, judges, name, entry.item.id, entry.answer)
    moved = [j for j in found if j.speaker is not None and j.team is not None]
    if not moved:
        return entry
    speaker = sum(j.speaker for j in moved) / len(moved)  # type: ignore[misc]
    team = sum(j.team for j in moved) / len(moved)  # type: ignore[misc]
    return entry._replace(value=speaker, extra={**entry.extra, "team": team})


def report(
    exam: Exam,
    key: Key,
    sittings: Sittings,
    *,
    judges: Sequence[str],
    verdicts: Verdicts,
    bootstrap: int = 1000,
    seed: int = 0,
) -> ExamReport:
    """Score every sitting against `key` and summarize it (see the module's docstring).

    A speech's figure is the mean over `judges` of their kept `verdicts` on it
    (`arena.exam.judge.judge_speeches` gives them); a speech no judge has a verdict on yet
    has none.
    """
    scored = _judged(scores(exam, key, sittings), judges, verdicts)
    resamples = Resamples([i.source for i in exam.items], bootstrap, seed)
    rows = [row for name in scored for row in _rows(name, scored[name], resamples)]
    pairs = [
        pair
        for a, b in itertools.combinations(sorted(scored), 2)
        for pair in _pairs(a, b, scored[a], scored[b], resamples)
    ]
    return ExamReport(
        exam_id=exam.header.exam_id,
        items=len(exam.items),
        games=len(exam.header.sources),
        contestants=tuple(sorted(scored)),
        judges=tuple(judges),
        bootstrap=bootstrap,
        seed=seed,
        rows=tuple(rows),
        pairs=tuple(pairs),
    )


def _groups(entries: Sequence[Score]) -> Iterable[tuple[str, list[Score]]]:
    """All of `entries`, then by the asked seat's role, then by day."""
    yield "all", list(entries)
    for role in sorted({s.item.role for s in entries}):
        yield f"role:{role}", [s for s in entries if s.item.role == role]
    for day in sorted({s.item.day for s in entries}):
        yield f"day:{day}", [s for s in entries if s.item.day == day]


def _rows(name: str, entries: list[Score], resamples: Resamples) -> Iterable[Row]:
    for kind in FIGURES:
        of_kind = [s for s in entries if _of(kind, s)]
        for group, chosen in _groups(of_kind) if of_kind else ():
            valued = [(s.item.source, s.value) for s in chosen if s.value is not None]
            estimate = resamples.mean(valued) if group == "all" else _plain(valued)
            yield Row(
                contestant=name,
                kind=kind,
                group=group,
                items=len(chosen),
                games=len({s.item.source for s in chosen}),
                own=sum(s.own for s in chosen) / len(chosen),
                value=estimate.value if estimate else None,
                low=estimate.low if estimate else None,
                high=estimate.high if estimate else None,
                better=sense(kind),
                auroc=auroc([p for s in chosen for p in s.pairs]) if kind == "belief" else None,
                extra=_extra(chosen),
            )


def _plain(values: list[tuple[str, float]]) -> Estimate | None:
    """A mean without an interval (the groups by role and day: many, and small)."""
    if not values:
        return None
    return Estimate(sum(v for _, v in values) / len(values), None, None, len(values), 0)


def _extra(entries: Sequence[Score]) -> dict[str, float]:
    """The mean of each further figure over the entries that have it."""
    names = sorted({name for s in entries for name in s.extra})
    out = {}
    for name in names:
        values = [s.extra[name] for s in entries if name in s.extra]
        out[name] = sum(values) / len(values)
    return out


def _pairs(
    a: str, b: str, first: list[Score], second: list[Score], resamples: Resamples
) -> Iterable[Pair]:
    theirs = {s.item.id: s for s in second}
    for kind in FIGURES:
        diffs = [
            (s.item.source, s.value - theirs[s.item.id].value)  # type: ignore[operator]
            for s in first
            if _of(kind, s)
            and s.value is not None
            and s.item.id in theirs
            and theirs[s.item.id].value is not None
        ]
        estimate = resamples.mean(diffs)
        if estimate is None:
            continue
        yield Pair(
            a=a,
            b=b,
            kind=kind,
            items=estimate.items,
            games=estimate.games,
            difference=estimate.value,
            low=estimate.low,
            high=estimate.high,
            separated=separated(estimate),
            better=sense(kind),
        )
