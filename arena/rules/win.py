"""Win conditions (勝負判定): pure functions of the dead set and the rules.

Good wins when every wolf is dead. Wolves win by the board's mode: 屠城 (city) when the
wolves equal or outnumber the others (000) or when every non-wolf is dead (003); 屠邊
(side) when all gods or all villagers are dead (003's 10-player board: 3 of 4 villagers).
When both hold at once, the table has no wolf left, and good wins; `knife_first` (003
狼刀在先) is the exception and is applied by the night before any other death lands. A
wolf–good couple of lovers is a third side (人狼戀, common play, docs/roles.md).
"""

from __future__ import annotations

from collections.abc import Collection

from arena.rules.config import RuleSet
from arena.rules.roles import is_god, is_villager, is_wolf
from arena.rules.types import Role, SeatId, Winner


def winner(
    roles: tuple[Role, ...],
    dead: Collection[SeatId],
    rules: RuleSet,
    lovers: tuple[SeatId, SeatId] | None = None,
) -> Winner | None:
    """Who has won with `dead` seats dead, or None while the game goes on.

    With a wolf–good couple of `lovers` (人狼戀) the lovers and cupid are a side of their
    own: they win once nobody else is alive and both lovers are (docs/roles.md). Good
    still wins when every wolf-side card is dead, the wolf lover's too (his partner dies
    with him); the wolves' condition counts the wolf lover as one of the others.
    """
    living_seats = [seat for seat in range(1, len(roles) + 1) if seat not in dead]
    living = [roles[seat - 1] for seat in living_seats]
    if not any(is_wolf(role) for role in living):
        return Winner.GOOD
    side = third_side(roles, lovers)
    if side and all(s in side for s in living_seats) and not set(side[:2]) & set(dead):
        return Winner.LOVERS
    defectors = sum(1 for seat in side if seat not in dead and is_wolf(roles[seat - 1]))
    return Winner.WOLVES if wolves_have_won(roles, living, rules, defectors=defectors) else None


def third_side(roles: tuple[Role, ...], lovers: tuple[SeatId, SeatId] | None) -> tuple[SeatId, ...]:
    """The lovers' own side: a wolf–good couple, then cupid's seats (none for a same-side pair).

    Common play (人狼戀): a couple across the sides cannot win with either, so they play for
    themselves, and cupid, who made them, with them (docs/roles.md).
    """
    if lovers is None:
        return ()
    first, second = lovers
    if is_wolf(roles[first - 1]) == is_wolf(roles[second - 1]):
        return ()
    cupids = tuple(s for s, r in enumerate(roles, start=1) if r is Role.CUPID and s not in lovers)
    return (first, second, *cupids)


def wolves_have_won(
    roles: tuple[Role, ...], living: list[Role], rules: RuleSet, *, defectors: int = 0
) -> bool:
    """Whether the wolves' condition holds for the `living` roles (ignoring good's).

    `defectors`: living wolf-side cards that play for the lovers; they are not wolves here.
    """
    wolves = sum(1 for role in living if is_wolf(role)) - defectors
    if wolves <= 0:
        return False
    others = len(living) - wolves
    if rules.win == "city":
        return others == 0 if rules.city_win == "all" else wolves >= others
    if not any(is_god(role) for role in living):
        return True
    villagers_total = sum(1 for role in roles if is_villager(role))
    villagers_dead = villagers_total - sum(1 for role in living if is_villager(role))
    needed = rules.side_villagers_needed or villagers_total
    return villagers_dead >= needed
