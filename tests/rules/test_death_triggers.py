"""Seed 000's death-trigger table (臨終能力), every cell, as a table-driven test.

000:43-51: who may take a seat with him on which death. Rows are causes of death, columns
the hunter (獵人開槍), the wolf king (狼王帶人) and the avenger (復仇者帶人). The site preset
is 000's; the two knobs that other seeds change are checked after the table.
"""

from __future__ import annotations

import pytest

from arena.rules.boards import board
from arena.rules.config import resolve_rules
from arena.rules.deaths import may_shoot
from arena.rules.types import DeathCause, Role

SITE = resolve_rules(board("wwk_guard"), "site")
COLUMNS = (Role.HUNTER, Role.WOLF_KING, Role.AVENGER)

TABLE: dict[str, tuple[tuple[DeathCause, ...], tuple[bool, bool, bool]]] = {
    "被狼人夜刀 | ✅ | ✅（含隊友自刀） | ❌": ((DeathCause.KNIFE,), (True, True, False)),
    "被投票放逐 | ✅ | ✅ | ✅（唯一觸發條件）": ((DeathCause.EXILE,), (True, True, True)),
    "被獵人槍／狼王爪／白狼王自爆帶走 | ✅ | ✅ | ❌": (
        (DeathCause.SHOT, DeathCause.TAKEN),
        (True, True, False),
    ),
    "被獵魔者反噬 | ✅ | ✅ | ❌": ((DeathCause.BACKLASH, DeathCause.HUNTED), (True, True, False)),
    "被女巫毒死 | ❌ | ❌ | ❌": ((DeathCause.POISON,), (False, False, False)),
    "被騎士決鬥處決 | ❌ | ❌ | ❌": ((DeathCause.DUEL,), (False, False, False)),
    "與情侶殉情 | ❌ | ❌ | ❌": ((DeathCause.LOVER,), (False, False, False)),
}
"""000:45-51, each row quoted, with the causes it names and its three cells."""

CELLS = [
    pytest.param(cause, role, allowed, id=f"{cause.value}-{role.value}")
    for row, (causes, cells) in TABLE.items()
    for cause in causes
    for role, allowed in zip(COLUMNS, cells, strict=True)
]


@pytest.mark.parametrize(("cause", "role", "allowed"), CELLS)
def test_every_cell_of_the_death_trigger_table(
    cause: DeathCause, role: Role, allowed: bool
) -> None:
    assert may_shoot(role, cause, SITE) is allowed


def test_the_table_quotes_seed_000() -> None:
    rows = {row.split(" | ")[0] for row in TABLE}
    assert len(rows) == 7 and len(CELLS) == 27


@pytest.mark.parametrize(
    "cause",
    [DeathCause.EXPLODED, DeathCause.CHARMED, DeathCause.DREAM],
    ids=lambda c: c.value,
)
@pytest.mark.parametrize("role", COLUMNS, ids=lambda r: r.value)
def test_causes_outside_the_table_trigger_nothing(cause: DeathCause, role: Role) -> None:
    """A self-explosion (no seed lists it), a charmed seat and a dreamer (linked deaths,
    read like a lover's) trigger nothing."""
    assert not may_shoot(role, cause, SITE)


def test_roles_without_a_trigger_never_take_anyone() -> None:
    for role in Role:
        if role not in COLUMNS:
            assert not any(may_shoot(role, cause, SITE) for cause in DeathCause), role


def test_classic_hunter_taken_by_the_white_wolf_king_cannot_shoot() -> None:
    classic = resolve_rules(board("wwk12"), "classic")
    assert not may_shoot(Role.HUNTER, DeathCause.TAKEN, classic)
    assert may_shoot(Role.WOLF_KING, DeathCause.TAKEN, classic)


def test_wolf_king_explosion_knob() -> None:
    on = resolve_rules(board("wolfking_guard"), "tournament", {"wolf_king_shoots_on_explode": True})
    assert may_shoot(Role.WOLF_KING, DeathCause.EXPLODED, on)
    assert not may_shoot(Role.HUNTER, DeathCause.EXPLODED, on)
