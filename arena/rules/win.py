"""Win conditions (勝負判定): pure functions of the dead set and the rules.

Good wins when every wolf is dead. Wolves win by the board's mode: 屠城 (city) when the
wolves equal or outnumber the others (000) or when every non-wolf is dead (003); 屠邊
(side) when all gods or all villagers are dead (003's 10-player board: 3 of 4 villagers).
When both hold at once, the table has no wolf left, and good wins; `knife_first` (003
狼刀在先) is the exception and is applied by the night before any other death lands.
"""

from __future__ import annotations

from collections.abc import Collection

from arena.rules.config import RuleSet
from arena.rules.roles import is_god, is_villager, is_wolf
from arena.rules.types import Role, SeatId, Winner


def winner(roles: tuple[Role, ...], dead: Collection[SeatId], rules: RuleSet) -> Winner | None:
    """Who has won with `dead` seats dead, or None while the game goes on."""
    living = [role for seat, role in enumerate(roles, start=1) if seat not in dead]
    wolves = sum(1 for role in living if is_wolf(role))
    if wolves == 0:
        return Winner.GOOD
    return Winner.WOLVES if wolves_have_won(roles, living, rules) else None


def wolves_have_won(roles: tuple[Role, ...], living: list[Role], rules: RuleSet) -> bool:
    """Whether the wolves' condition holds for the `living` roles (ignoring good's)."""
    others = sum(1 for role in living if not is_wolf(role))
    if rules.win == "city":
        wolves = len(living) - others
        return others == 0 if rules.city_win == "all" else wolves >= others
    if not any(is_god(role) for role in living):
        return True
    villagers_total = sum(1 for role in roles if is_villager(role))
    villagers_dead = villagers_total - sum(1 for role in living if is_villager(role))
    needed = rules.side_villagers_needed or villagers_total
    return villagers_dead >= needed
