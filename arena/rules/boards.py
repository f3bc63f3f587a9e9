"""The boards (板型): which roles are dealt, how the wolves win, the night order, the preset.

Sources: seed 003 ("推荐配置": 9-player city, 10-player side, 12-player white wolf king,
12-player idiot) and seed 001 §二(一) (night orders of the tournament boards 預女獵愚,
狼王守衛, 白狼王守衛, 狼美騎士, 狼王攝夢人) and §三 (each board's rules and 備註). Boards
that 001 lists by night order only (狼王魔術師 001:113, 暗戀者 001:115, 奇跡商人 001:117)
take the deal of common play and the tournament preset of the other 001 boards
(docs/roles.md says why).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Literal

from arena.rules.errors import ConfigError
from arena.rules.types import Role

NightStep = Literal[
    "cupid",
    "secret_admirer",
    "magician",
    "alchemist_mist",
    "fox_cub",
    "gargoyle",
    "gargoyle_check",
    "wolf_consort",
    "nightmare",
    "dreamweaver",
    "guard",
    "wolves",
    "gargoyle_knife",
    "raven_claw",
    "alchemist_snake",
    "wolf_beauty",
    "witch",
    "seer",
    "hunter_status",
    "white_wolf_king_status",
    "knight",
    "demon_hunter",
    "gravekeeper",
    "pure_white_maiden",
    "wolf_witch",
    "miracle_merchant",
    "lucky_one",
    "prince",
    "idiot",
    "bear",
    "pufferfish",
    "white_cat",
    "phantom",
    "healer",
    "watchman",
    "coroner",
    "elder",
    "thief",
]
"""One step of a night, named by who opens their eyes. Steps of roles not dealt are skipped.

`knight`, `prince` and `idiot` open their eyes and close them again (001 騎士請睜眼，騎士請
閉眼): the steps are listed for the board's order and write nothing; so does `demon_hunter` on night
1 (001:1505-1507), who hunts from night 2 (001:1589-1591), and `gargoyle` (001:2375-2377:
the gargoyle's eyes on night 1, before his check at the end of that night); so does
`raven_claw` while he is sealed or his strike is spent, `bear`, `pufferfish` and
`white_cat` (001:127: their skills are at dawn and by day), and `fox_cub` on night 1.
The alchemist witch wakes twice (001:123): `alchemist_mist` before the dreamweaver,
`alchemist_snake` after the raven claw. `lucky_one` is the lucky one 幸運兒 (001:117), the
seat the miracle merchant gave a gift, not a card. Steps before `wolves` are written
before the wolves' events; every step's decision that depends on nothing before it is
asked in the first batch of the night (docs/rules.md).
"""

BOTTOM_CARDS = 2
"""Cards left face down as 底牌 on a board that deals the thief (004 给盗贼选牌: common play,
two): the thief takes one of them on night 1, and the other stays buried."""

PresetName = Literal["tournament", "site", "classic"]
WinMode = Literal["city", "side"]


@dataclass(frozen=True, slots=True)
class Board:
    """A board: the deal, the win mode and the night order."""

    id: str
    zh: str
    en: str
    roles: tuple[Role, ...]
    """The multiset of cards dealt, one per seat — plus `BOTTOM_CARDS` face down where the
    thief is among them (004 底牌)."""
    win: WinMode
    """屠城 (`city`) or 屠邊 (`side`)."""
    preset: PresetName
    """The rules preset the board's source uses."""
    night_order: tuple[NightStep, ...]
    """The order of every night (from night 2 where `first_night_order` is given)."""
    source: str
    side_villagers_needed: int | None = None
    """For a side board: how many villagers must die for the wolves (None: all of them)."""
    first_night_order: tuple[NightStep, ...] | None = None
    """Night 1's own order where the board's source gives one (001:125 【首夜】…【次夜】)."""
    settings: dict[str, Any] = field(default_factory=dict)
    """Rules knobs the board sets over its preset, by name (`RuleSet`): a custom board's
    `settings:` (docs/boards.md). A game's own overrides still win over them."""

    def order_for(self, night: int) -> tuple[NightStep, ...]:
        """The steps of night `night`."""
        if night == 1 and self.first_night_order is not None:
            return self.first_night_order
        return self.night_order

    @property
    def seats(self) -> int:
        """The number of players: every card but the bottom cards."""
        return len(self.roles) - self.bottom

    @property
    def bottom(self) -> int:
        """How many cards lie face down beside the table (the thief's 底牌), else 0."""
        return BOTTOM_CARDS if Role.THIEF in self.roles else 0

    def role_counts(self) -> dict[Role, int]:
        """How many of each role is dealt, in `Role` order."""
        counts = Counter(self.roles)
        return {role: counts[role] for role in Role if counts[role]}


def _deal(**counts: int) -> tuple[Role, ...]:
    return tuple(role for name, n in counts.items() for role in [Role(name)] * n)


_CLASSIC_ORDER: tuple[NightStep, ...] = ("guard", "wolves", "witch", "seer", "hunter_status")

BOARDS: dict[str, Board] = {
    board.id: board
    for board in (
        Board(
            "std9",
            "9人標準屠城局",
            "9-player standard (city)",
            _deal(seer=1, witch=1, hunter=1, werewolf=3, villager=3),
            win="city",
            preset="classic",
            night_order=_CLASSIC_ORDER,
            source="003:14-19",
        ),
        Board(
            "std10",
            "10人標準屠邊局",
            "10-player standard (side)",
            _deal(seer=1, witch=1, hunter=1, werewolf=3, villager=4),
            win="side",
            preset="classic",
            night_order=_CLASSIC_ORDER,
            source="003:20-25",
            side_villagers_needed=3,
        ),
        Board(
            "wwk12",
            "12人白狼王標準屠邊局",
            "12-player white wolf king (side)",
            _deal(seer=1, witch=1, hunter=1, guard=1, villager=4, werewolf=3, white_wolf_king=1),
            win="side",
            preset="classic",
            night_order=_CLASSIC_ORDER,
            source="003:26-31",
        ),
        Board(
            "idiot12",
            "12人白痴標準屠邊局",
            "12-player idiot (side)",
            _deal(seer=1, witch=1, hunter=1, idiot=1, villager=4, werewolf=4),
            win="side",
            preset="classic",
            night_order=_CLASSIC_ORDER,
            source="003:32-37",
        ),
        Board(
            "yunv",
            "預女獵愚",
            "Seer-Witch-Hunter-Idiot (tournament)",
            _deal(seer=1, witch=1, hunter=1, idiot=1, villager=4, werewolf=4),
            win="side",
            preset="tournament",
            night_order=("wolves", "witch", "seer", "hunter_status", "idiot"),
            source="001:95,185-236",
        ),
        Board(
            "wolfking_guard",
            "狼王守衛",
            "Wolf king + guard (tournament)",
            _deal(seer=1, witch=1, hunter=1, guard=1, villager=4, werewolf=3, wolf_king=1),
            win="side",
            preset="tournament",
            night_order=("guard", "wolves", "witch", "seer", "hunter_status"),
            source="001:103,391-442",
        ),
        Board(
            "wwk_guard",
            "白狼王守衛",
            "White wolf king + guard (tournament)",
            _deal(seer=1, witch=1, hunter=1, guard=1, villager=4, werewolf=3, white_wolf_king=1),
            win="side",
            preset="tournament",
            night_order=(
                "guard",
                "wolves",
                "witch",
                "seer",
                "hunter_status",
                "white_wolf_king_status",
            ),
            source="001:105,1007-1058",
        ),
        Board(
            "wwk_knight",
            "白狼王騎士",
            "White wolf king + knight (tournament)",
            _deal(seer=1, witch=1, knight=1, guard=1, villager=4, werewolf=3, white_wolf_king=1),
            win="side",
            preset="tournament",
            night_order=("guard", "wolves", "witch", "seer", "knight"),
            source="001:107",
        ),
        Board(
            "wolf_beauty_knight",
            "狼美騎士",
            "Wolf beauty + knight (tournament)",
            _deal(seer=1, witch=1, knight=1, guard=1, villager=4, werewolf=3, wolf_beauty=1),
            win="side",
            preset="tournament",
            night_order=("guard", "wolves", "wolf_beauty", "witch", "seer", "knight"),
            source="001:101,595-646",
        ),
        Board(
            "evil_knight",
            "惡靈騎士",
            "Evil knight (tournament)",
            _deal(seer=1, witch=1, hunter=1, guard=1, villager=4, werewolf=3, evil_knight=1),
            win="side",
            preset="tournament",
            night_order=("guard", "wolves", "witch", "seer", "hunter_status"),
            source="001:97,1223-1276",
        ),
        Board(
            "nightmare",
            "噩夢之影",
            "Nightmare + dreamweaver (tournament)",
            _deal(seer=1, witch=1, hunter=1, dreamweaver=1, villager=4, werewolf=3, nightmare=1),
            win="side",
            preset="tournament",
            night_order=("nightmare", "dreamweaver", "wolves", "witch", "seer", "hunter_status"),
            source="001:111,1639-1692",
        ),
        Board(
            "wolfking_dreamweaver",
            "狼王攝夢人",
            "Wolf king + dreamweaver (tournament)",
            _deal(seer=1, witch=1, hunter=1, dreamweaver=1, villager=4, werewolf=3, wolf_king=1),
            win="side",
            preset="tournament",
            night_order=("dreamweaver", "wolves", "witch", "seer", "hunter_status"),
            source="001:109,809-860,1667",
        ),
        Board(
            "blood_moon",
            "血月獵魔人",
            "Blood-moon apostle + demon hunter (tournament)",
            _deal(
                seer=1,
                witch=1,
                demon_hunter=1,
                idiot=1,
                villager=4,
                werewolf=3,
                blood_moon_apostle=1,
            ),
            win="side",
            preset="tournament",
            night_order=("wolves", "witch", "seer", "demon_hunter", "idiot"),
            source="001:99,1431-1484",
        ),
        Board(
            "gargoyle_gravekeeper",
            "石像鬼守墓人",
            "Gargoyle + gravekeeper (tournament)",
            _deal(
                seer=1,
                witch=1,
                hunter=1,
                gravekeeper=1,
                villager=4,
                werewolf=3,
                gargoyle=1,
            ),
            win="side",
            preset="tournament",
            night_order=(
                "gargoyle_check",
                "wolves",
                "gargoyle_knife",
                "witch",
                "seer",
                "hunter_status",
                "gravekeeper",
            ),
            source="001:125,2311-2364,2373-2399,2463-2487",
            first_night_order=(
                "gargoyle",
                "wolves",
                "witch",
                "seer",
                "hunter_status",
                "gravekeeper",
                "gargoyle_check",
            ),
        ),
        Board(
            "eternal_wheel",
            "永序之輪",
            "Eclipse wolf consort + prince (tournament)",
            _deal(
                seer=1,
                witch=1,
                guard=1,
                prince=1,
                villager=4,
                werewolf=3,
                eclipse_wolf_consort=1,
            ),
            win="side",
            preset="tournament",
            night_order=("wolf_consort", "guard", "wolves", "witch", "seer", "prince"),
            source="001:119,1857-1910",
        ),
        Board(
            "pure_white_night",
            "純白夜影",
            "Wolf witch + pure-white maiden (tournament)",
            _deal(
                witch=1,
                hunter=1,
                guard=1,
                pure_white_maiden=1,
                villager=4,
                werewolf=3,
                wolf_witch=1,
            ),
            win="side",
            preset="tournament",
            night_order=(
                "guard",
                "wolves",
                "witch",
                "hunter_status",
                "pure_white_maiden",
                "wolf_witch",
            ),
            source="001:121,2087-2140",
        ),
        Board(
            "wolfking_magician",
            "狼王魔術師",
            "Wolf king + magician (tournament)",
            _deal(seer=1, witch=1, hunter=1, magician=1, villager=4, werewolf=3, wolf_king=1),
            win="side",
            preset="tournament",
            night_order=("magician", "wolves", "witch", "seer", "hunter_status"),
            source="001:113",
        ),
        Board(
            "mist_raven",
            "迷霧鴉影",
            "Raven claw + alchemist witch (tournament)",
            _deal(
                seer=1,
                alchemist_witch=1,
                dreamweaver=1,
                idiot=1,
                villager=4,
                werewolf=3,
                raven_claw=1,
            ),
            win="side",
            preset="tournament",
            night_order=(
                "alchemist_mist",
                "dreamweaver",
                "wolves",
                "raven_claw",
                "alchemist_snake",
                "seer",
                "idiot",
            ),
            source="001:123",
        ),
        Board(
            "miracle_merchant",
            "奇跡商人",
            "Wolf king + miracle merchant (tournament)",
            _deal(
                seer=1,
                witch=1,
                guard=1,
                miracle_merchant=1,
                villager=4,
                werewolf=3,
                wolf_king=1,
            ),
            win="side",
            preset="tournament",
            night_order=("guard", "wolves", "witch", "seer", "miracle_merchant", "lucky_one"),
            source="001:117",
        ),
        Board(
            "secret_admirer",
            "暗戀者",
            "Secret admirer (tournament)",
            _deal(
                seer=1,
                witch=1,
                hunter=1,
                guard=1,
                secret_admirer=1,
                villager=3,
                werewolf=4,
            ),
            win="side",
            preset="tournament",
            night_order=("secret_admirer", "guard", "wolves", "witch", "seer", "hunter_status"),
            source="001:115",
        ),
        Board(
            "animal_dream",
            "動物夢境",
            "Animal dream: fox cub, bear, pufferfish, white cat (tournament)",
            _deal(
                fox_cub=1,
                bear=1,
                pufferfish=1,
                white_cat=1,
                villager=4,
                werewolf=3,
                wolf_beauty=1,
            ),
            win="side",
            preset="tournament",
            night_order=("fox_cub", "wolves", "wolf_beauty", "bear", "pufferfish", "white_cat"),
            source="001:127",
        ),
    )
}


def board(board_id: str | Board) -> Board:
    """Look a board up by id or by its Chinese name (狼美騎士); a custom `Board` is itself.

    A game names a built-in board by id and carries a custom board whole (docs/boards.md),
    so every place that holds a board reference holds one of the two.

    Raises:
        ConfigError: an unknown board; the message lists the known ids.
    """
    if isinstance(board_id, Board):
        return board_id
    found = BOARDS.get(board_id) or next((b for b in BOARDS.values() if b.zh == board_id), None)
    if found is None:
        known = ", ".join(BOARDS)
        raise ConfigError(
            f"unknown board {board_id!r}; known boards: {known} (or a board file, .yaml)"
        ).keyed("error.unknown_board", board=repr(board_id), known=known)
    return found


def board_id(ref: str | Board) -> str:
    """The id of a board reference: a built-in id as given, a custom board's own id."""
    return ref.id if isinstance(ref, Board) else board(ref).id
