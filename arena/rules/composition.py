"""Which boards the rules can run: the checks every custom board passes, and its night order.

A custom board (docs/boards.md) deals any roles; the referee refuses, with one line naming
the problem, a combination it cannot run: no wolf, no good seat, fewer seats than a game
needs, a unique role dealt twice, a night order that loses a dealt role's step or puts it
where the night cannot play it. The same checks run on a board carried whole in a replay
header or a queued job, so a file edited by hand is refused on any machine.

The default night order is the canonical one: seed 000's table (000:17-31, 月老 1 … 女巫
10) with the roles it does not list placed where seed 001's board orders put them
(001:95-125). Only the dealt roles' steps are kept.
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Iterable
from typing import Literal, get_args

from arena.rules.boards import Board, NightStep
from arena.rules.errors import ConfigError
from arena.rules.roles import in_pack, is_god, is_villager, team_of
from arena.rules.types import Role, Team

MIN_SEATS = 6
"""The smallest table: two wolves against a seer, a witch and two villagers is the smallest
game whose first day has a vote that means something (common play; the seeds' boards
start at 9, 003:14)."""
MAX_SEATS = 20
"""The largest table the seat boards and prompts are laid out for."""
REPEATABLE: frozenset[Role] = frozenset({Role.VILLAGER, Role.WEREWOLF})
"""The only cards a board may deal more than once: every other role is one card (the seeds'
boards deal one of each god and special wolf, 003:14-37, 001 §三)."""

Place = Literal["before_wolves", "after_wolves", "anywhere"]

STEPS: dict[NightStep, tuple[tuple[Role, ...], Place, bool]] = {
    "secret_admirer": ((Role.SECRET_ADMIRER,), "before_wolves", True),
    "cupid": ((Role.CUPID,), "before_wolves", False),
    "gargoyle": ((Role.GARGOYLE,), "before_wolves", False),
    "gargoyle_check": ((Role.GARGOYLE,), "anywhere", True),
    "wolf_consort": ((Role.ECLIPSE_WOLF_CONSORT,), "before_wolves", True),
    "nightmare": ((Role.NIGHTMARE,), "before_wolves", True),
    "alchemist_mist": ((Role.ALCHEMIST_WITCH,), "before_wolves", True),
    "fox_cub": ((Role.FOX_CUB,), "before_wolves", True),
    "magician": ((Role.MAGICIAN,), "before_wolves", True),
    "dreamweaver": ((Role.DREAMWEAVER,), "before_wolves", True),
    "guard": ((Role.GUARD,), "before_wolves", True),
    "wolves": (tuple(r for r in Role if in_pack(r)), "anywhere", True),
    "gargoyle_knife": ((Role.GARGOYLE,), "after_wolves", True),
    "raven_claw": ((Role.RAVEN_CLAW,), "after_wolves", True),
    "alchemist_snake": ((Role.ALCHEMIST_WITCH,), "after_wolves", True),
    "wolf_beauty": ((Role.WOLF_BEAUTY,), "after_wolves", True),
    "witch": ((Role.WITCH,), "after_wolves", True),
    "seer": ((Role.SEER,), "after_wolves", True),
    "hunter_status": ((Role.HUNTER,), "after_wolves", False),
    "white_wolf_king_status": ((Role.WHITE_WOLF_KING,), "after_wolves", False),
    "knight": ((Role.KNIGHT,), "anywhere", False),
    "demon_hunter": ((Role.DEMON_HUNTER,), "after_wolves", True),
    "gravekeeper": ((Role.GRAVEKEEPER,), "after_wolves", True),
    "pure_white_maiden": ((Role.PURE_WHITE_MAIDEN,), "after_wolves", True),
    "wolf_witch": ((Role.WOLF_WITCH,), "after_wolves", True),
    "miracle_merchant": ((Role.MIRACLE_MERCHANT,), "after_wolves", True),
    "lucky_one": ((Role.MIRACLE_MERCHANT,), "after_wolves", True),
    "prince": ((Role.PRINCE,), "anywhere", False),
    "idiot": ((Role.IDIOT,), "anywhere", False),
    "bear": ((Role.BEAR,), "anywhere", False),
    "pufferfish": ((Role.PUFFERFISH,), "anywhere", False),
    "white_cat": ((Role.WHITE_CAT,), "anywhere", False),
    "phantom": ((Role.PHANTOM,), "before_wolves", True),
    "healer": ((Role.HEALER,), "anywhere", True),
    "watchman": ((Role.WATCHMAN,), "anywhere", True),
    "coroner": ((Role.CORONER,), "anywhere", True),
    "elder": ((Role.ELDER,), "anywhere", False),
    "thief": ((Role.THIEF,), "before_wolves", False),
}
"""Each night step: the roles it belongs to (any one dealt), where the night can play it
(`arena.rules.night`: the guard's and the dreamweaver's answers are written before the
wolves', the witch sees their knife, the checks and statuses follow them), and whether a
dealt role needs it (False: a step in which the role only opens its eyes or is told its
status, which a board may leave out, as 003's boards leave out the hunter's status; cupid's
is needed on night 1 only, `check_board`). The
phantom and the thief are asked first whatever their place (`arena.rules.night`: the
phantom right after the blockers, the thief before anyone on night 1); the healer's,
watchman's and coroner's answers come with the first batch and are written at their step."""

CANONICAL_ORDER: tuple[NightStep, ...] = (
    "cupid",  # 000:22 月老 1 (000:19 月老排在最前面); night 1 only
    "secret_admirer",  # 001:115 暗戀者 first (night 1 only, as 000:22 月老 1)
    "nightmare",  # 000:23 夢魘 2
    "wolf_consort",  # 001:119 蝕時狼妃——守衛
    "alchemist_mist",  # 001:123 煉金魔女 first (asked alone, after the blockers)
    "fox_cub",  # 001:127 子狐 first (asked alone, after the blockers)
    "phantom",  # 000:24 魅影 3, before the seer (000:17 所以掩碼會生效)
    "magician",  # 001:113 魔術師 first; after the blockers, who act before any step
    "dreamweaver",  # 001:111 噩夢之影——攝夢人——…狼人
    "gargoyle_check",  # 001:125 【次夜】 the gargoyle checks first (語術 001:2465)
    "guard",  # 000:25 守衛 4
    "healer",  # 000:26 醫者 5
    "elder",  # 004:3 守卫——长老——狼人 (he only opens his eyes)
    "wolves",  # 000:27 狼人 6
    "gargoyle_knife",  # 001:125 狼人——石像鬼
    "raven_claw",  # 001:123 狼人——狼鴉之爪
    "alchemist_snake",  # 001:123 狼鴉之爪——煉金魔女 (her second step: she sees the knife)
    "wolf_beauty",  # 001:101 狼美人+狼人——狼美人
    "seer",  # 000:28 預言家 7
    "watchman",  # 000:29 守夜人 8
    "coroner",  # 000:30 仵作 9
    "witch",  # 000:31 女巫 10
    "hunter_status",  # 001:95-111 …預言傢——獵人
    "white_wolf_king_status",  # 001:105 白狼王守衛
    "demon_hunter",  # 001:99 預言傢——獵魔人
    "gravekeeper",  # 001:125 獵人——守墓人
    "pure_white_maiden",  # 001:121 獵人——純白之女
    "wolf_witch",  # 001:121 純白之女——狼巫
    "miracle_merchant",  # 001:117 預言傢——奇跡商人
    "lucky_one",  # 001:117 奇跡商人——幸運兒 (the seat he gave a gift)
    "bear",  # 001:127 狼美人——熊——河豚——白貓 (eyes only)
    "pufferfish",
    "white_cat",
    "knight",  # 001:101, 107 last
    "prince",  # 001:119 last
    "idiot",  # 001:95, 99 last
)
"""Every later night's order: 000:17-31 with 001's other roles where its boards put them."""

CANONICAL_FIRST_NIGHT: tuple[NightStep, ...] = (
    "thief",  # 004:3 盗贼——丘比特——… (此顺序为第一夜)
    *(
        "gargoyle" if step == "gargoyle_check" else step
        for step in CANONICAL_ORDER
        if step != "gargoyle_knife"
    ),
    "gargoyle_check",
)
"""Night 1's: as later nights, but the thief takes his card first (004:3), and the gargoyle
opens his eyes before the wolves and checks at the very end, and holds no knife yet
(001:125 【首夜】石像鬼——狼人——…——守墓人——石像鬼)."""


def _dealt(steps: Iterable[NightStep], roles: Iterable[Role]) -> tuple[NightStep, ...]:
    present = set(roles)
    return tuple(step for step in steps if present & set(STEPS[step][0]))


def default_orders(
    roles: Iterable[Role],
) -> tuple[tuple[NightStep, ...], tuple[NightStep, ...] | None]:
    """The canonical night order of a deal, and night 1's where it differs (else None)."""
    cards = tuple(roles)
    later = _dealt(CANONICAL_ORDER, cards)
    first = _dealt(CANONICAL_FIRST_NIGHT, cards)
    return later, (first if first != later else None)


def suggest(word: str, known: Iterable[str]) -> str:
    """`; did you mean 'x'?` for the closest known word, else the list of known words."""
    choices = list(known)
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    if close:
        return f"; did you mean {close[0]!r}?"
    return f"; known: {', '.join(choices)}"


def check_board(b: Board) -> None:
    """Refuse a board the rules cannot run, naming the first problem.

    Raises:
        ConfigError: one line, e.g. `no wolves: deal at least one wolf-side card`.
    """
    _check_cards(b)
    _check_order("night_order", b.night_order, b.roles, required=True)
    if b.first_night_order is not None:
        _check_order("first_night_order", b.first_night_order, b.roles, required=False)
    if Role.CUPID in b.roles and "cupid" not in b.order_for(1):
        name = "first_night_order" if b.first_night_order is not None else "night_order"
        raise ConfigError(
            f"{name}: no 'cupid' step on night 1, but cupid is dealt: he ties the lovers "
            "on the first night only (000:22)"
        )


def _check_cards(b: Board) -> None:
    counts = Counter(b.roles)
    bottom = f" beside the {b.bottom} bottom cards" if b.bottom else ""
    if b.seats < MIN_SEATS:
        raise ConfigError(
            f"too few seats: {b.seats} cards{bottom}; a board needs at least {MIN_SEATS}"
        )
    if b.seats > MAX_SEATS:
        raise ConfigError(f"too many seats: {b.seats} cards{bottom}; at most {MAX_SEATS}")
    for role, n in counts.items():
        if n > 1 and role not in REPEATABLE:
            raise ConfigError(
                f"{n} {role.value} cards: {role.value} is a unique role "
                "(only villager and werewolf may be dealt more than once)"
            )
    if not any(team_of(r) is Team.WOLF for r in b.roles):
        raise ConfigError("no wolves: deal at least one wolf-side card (werewolf, wolf_king, …)")
    if not any(map(in_pack, b.roles)):
        raise ConfigError(
            "no wolf pack: the gargoyle plays alone; deal at least one werewolf "
            "(or another wolf who wakes with the pack)"
        )
    if not any(team_of(r) is Team.GOOD for r in b.roles):
        raise ConfigError("no good seats: deal at least one good card (villager, seer, …)")
    if b.win == "side" and not (any(map(is_god, b.roles)) and any(map(is_villager, b.roles))):
        raise ConfigError(
            "win: side needs at least one god and one villager "
            "(屠邊: the wolves win as soon as either group is gone); use win: city"
        )
    needed = b.settings.get("side_villagers_needed", b.side_villagers_needed)
    if isinstance(needed, int) and needed is not None and needed > counts[Role.VILLAGER]:
        raise ConfigError(
            f"side_villagers_needed {needed}: only {counts[Role.VILLAGER]} villagers are dealt"
        )


def _check_order(
    name: str, order: tuple[NightStep, ...], roles: tuple[Role, ...], *, required: bool
) -> None:
    known = get_args(NightStep)
    seen: set[str] = set()
    for step in order:
        if step not in known:
            raise ConfigError(f"{name}: unknown step {step!r}{suggest(step, known)}")
        if step in seen:
            raise ConfigError(f"{name}: step {step!r} is listed twice")
        seen.add(step)
    dealt = sorted(set(roles), key=list(Role).index)
    for role in dealt:
        for step, (owners, _, needs) in STEPS.items():
            if required and needs and role in owners and step not in seen:
                raise ConfigError(
                    f"{name}: no {step!r} step, but {role.value} is dealt: "
                    "its night action would never happen"
                )
    _check_places(name, order)


def _check_places(name: str, order: tuple[NightStep, ...]) -> None:
    wolves = order.index("wolves") if "wolves" in order else None
    for index, step in enumerate(order):
        place = STEPS[step][1]
        if place == "anywhere":
            continue
        if wolves is None:
            if place == "after_wolves":
                raise ConfigError(f"{name}: {step!r} comes after 'wolves', which is missing")
            continue
        if place == "before_wolves" and index > wolves:
            raise ConfigError(f"{name}: {step!r} must come before 'wolves'")
        if place == "after_wolves" and index < wolves:
            raise ConfigError(f"{name}: {step!r} must come after 'wolves'")
