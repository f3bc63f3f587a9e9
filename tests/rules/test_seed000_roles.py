"""Seed 000's and 004's custom-board roles: what the watchman counts as acting, the thief's
bottom cards, and the example boards that deal them.

The rules themselves are scenarios (`scenarios/{phantom,healer,watchman,coroner,avenger,
elder,thief}/`); these tests pin the parts a scenario cannot state directly.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.board_file import load_board_file
from arena.rules import events as ev
from arena.rules.composition import default_orders
from arena.rules.config import GameConfig
from arena.rules.night_checks import night_skill_user
from arena.rules.referee import Referee
from arena.rules.types import Role
from arena.rules.visibility import to_seats
from tests.conftest import EXAMPLE_BOARDS

EXAMPLE_PATH = Path(__file__).resolve().parents[2] / "arena" / "boards"
V = to_seats(3)
ACTING: list[tuple[ev.Event, int | None]] = [
    (ev.GuardProtected(visibility=V, seat=3, target=5), 3),
    (ev.GuardProtected(visibility=V, seat=3, target=None), None),
    (ev.HealerProtected(visibility=V, seat=3, target=5), 3),
    (ev.HealerProtected(visibility=V, seat=3, target=None), None),
    (ev.KnifeNominated(visibility=V, seat=3, target=5, round=1), 3),
    (ev.KnifeNominated(visibility=V, seat=3, target=None, round=1), None),
    (ev.WolfWhispered(visibility=V, seat=3, text="刀5", round=1), None),
    (ev.WitchActed(visibility=V, seat=3, saved=5, poisoned=None), 3),
    (ev.WitchActed(visibility=V, seat=3, saved=None, poisoned=None), None),
    (ev.KnifeShownToWitch(visibility=V, seat=3, target=5), None),
    (ev.SeerChecked(visibility=V, seat=3, target=5, is_wolf=False), 3),
    (ev.WolfMasked(visibility=V, seat=3, target=3), 3),
    (ev.SeatFeared(visibility=V, seat=3, target=5), 3),
    (ev.BodyExamined(visibility=V, seat=3, target=5, role=Role.SEER), 3),
    (ev.CardTaken(visibility=V, seat=3, card=1, role=Role.WEREWOLF), 3),
    (ev.SkillBlocked(visibility=V, seat=3), None),
    (ev.SkillStatusTold(visibility=V, seat=3, usable=True), None),
    (ev.GraveRead(visibility=V, seat=3, target=5, is_wolf=True), None),
]
"""000:29 天亮得知他昨夜有沒有行動: a choice that took effect is acting; a pass, a whisper,
being told something, or a failed skill is not (docs/roles.md, Watchman)."""


@pytest.mark.parametrize(("event", "seat"), ACTING, ids=lambda x: getattr(x, "kind", str(x)))
def test_what_the_watchman_counts_as_acting(event: ev.Event, seat: int | None) -> None:
    assert night_skill_user(event) == seat


def test_a_thief_board_seats_two_fewer_players_than_cards() -> None:
    board = EXAMPLE_BOARDS["classic_thief_elder12"]
    assert len(board.roles) == 14 and board.bottom == 2 and board.seats == 12
    referee = Referee(GameConfig(board=board), 5)
    dealt = next(e for e in referee.events if isinstance(e, ev.RolesDealt))
    bottom = next(e for e in referee.events if isinstance(e, ev.BottomCardsDealt))
    assert len(dealt.roles) == 12 and len(bottom.cards) == 2
    assert sorted([*dealt.roles, *bottom.cards]) == sorted(board.roles)
    kinds = [e.kind for e in referee.events]
    if "wolves_met" in kinds:  # the thief card was buried: nobody was asked
        assert kinds.index("wolves_met") > kinds.index("phase_started")
    else:  # the thief is asked first, the wolves meet after his turn
        assert [r.kind for r in referee.pending()] == ["thief"]


def test_the_canonical_order_puts_the_thief_first_on_night_one_only() -> None:
    roles = (Role.THIEF, Role.SEER, Role.WITCH, Role.ELDER, Role.WEREWOLF)
    later, first = default_orders(roles)
    assert later == ("elder", "wolves", "seer", "witch")
    assert first == ("thief", "elder", "wolves", "seer", "witch")


def test_the_canonical_order_is_000s_table() -> None:
    """000:22-31: 夢魘 2, 魅影 3, 守衛 4, 醫者 5, 狼人 6, 預言家 7, 守夜人 8, 仵作 9, 女巫 10."""
    roles = (
        Role.NIGHTMARE,
        Role.PHANTOM,
        Role.GUARD,
        Role.HEALER,
        Role.WEREWOLF,
        Role.SEER,
        Role.WATCHMAN,
        Role.CORONER,
        Role.WITCH,
    )
    later, first = default_orders(roles)
    assert first is None
    assert later == (
        "nightmare",
        "phantom",
        "guard",
        "healer",
        "wolves",
        "seer",
        "watchman",
        "coroner",
        "witch",
    )


def test_the_example_boards_deal_every_new_role() -> None:
    dealt = {r for b in EXAMPLE_BOARDS.values() for r in b.roles}
    new = {Role.PHANTOM, Role.HEALER, Role.WATCHMAN, Role.CORONER, Role.AVENGER}
    assert new | {Role.ELDER, Role.THIEF} <= dealt
    board = load_board_file(EXAMPLE_PATH / "site_phantom_healer12.yaml")
    assert board.night_order[:4] == ("nightmare", "phantom", "guard", "healer")
