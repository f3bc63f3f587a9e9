"""The night table: every step has one home, and each row can do its job where it may stand."""

from __future__ import annotations

from typing import get_args

from arena.rules.boards import NightStep
from arena.rules.composition import STEPS as PLACES
from arena.rules.night import EYES_ONLY, OPENINGS, STEPS

SPECIAL: frozenset[NightStep] = frozenset({"wolves", "thief"})
"""Steps the loop plays itself: the knife, and the thief before anyone on night 1."""


def test_every_night_step_has_exactly_one_home() -> None:
    """A step added to `NightStep` must get a row (or be eyes-only), or it would do nothing."""
    openings = [step for step, _ in OPENINGS if step is not None]
    homes = [*STEPS, *openings, *EYES_ONLY, *SPECIAL]
    assert sorted(homes) == sorted(get_args(NightStep))


def test_each_row_does_one_thing() -> None:
    for step, row in STEPS.items():
        doers = [d for d in (row.write, row.turn, row.run) if d is not None]
        if row.status is not None:
            assert row.role is None and not doers and row.ask is None, step
            continue
        assert len(doers) == 1, step
        assert (row.ask is not None) == (row.write is not None), step
        assert row.role is not None or row.run is not None, step


def test_only_answer_writing_rows_may_stand_before_the_wolves() -> None:
    """Steps before `wolves` are written from the first batch; a turn there would be lost."""
    for step, row in STEPS.items():
        if PLACES[step][1] != "after_wolves":
            assert row.write is not None, step


def test_the_openings_come_before_the_wolves() -> None:
    for step, _ in OPENINGS:
        if step is not None:
            assert PLACES[step][1] == "before_wolves", step
