"""Roles as data: which side each is on, whether it is a god, and what it can do.

A role is a row in `ROLES`, not a class. The referee reads these flags; the behaviour
lives in the night and day flows that consult them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from arena.rules.types import DeathCause, Role, Team

_RETALIATION = frozenset(
    {
        DeathCause.KNIFE,
        DeathCause.EXILE,
        DeathCause.SHOT,
        DeathCause.TAKEN,
        DeathCause.BACKLASH,
        DeathCause.HUNTED,
        DeathCause.CLAWED,
    }
)
"""000's table (臨終能力): the hunter's and the wolf king's triggers — knifed (a wolf king's
self-knife included), exiled, taken by another death skill, the demon hunter's strike
(000:48 被獵魔者反噬: a wolf king he hunts, or the demon hunter's own backlash), the raven
claw's strike (a wolf's attack, like the knife); never
poisoned, duelled or dying as a lover."""

ReportField = Literal["role", "acted"]
"""What a night result can tell beyond wolf or good, as a field of a reported check."""


@dataclass(frozen=True, slots=True)
class RoleSpec:
    """What the rules need to know about one role."""

    role: Role
    team: Team
    zh: str
    """The role's name on a Chinese card (traditional characters, as in seed 001)."""
    en: str
    is_god: bool = False
    """A 神職: counted by the side win (屠邊) and by the seer's 'god' claims."""
    is_wolf: bool = False
    """Shows as a wolf to the seer, knows the other wolves and takes part in the knife."""
    shot_causes: frozenset[DeathCause] = frozenset()
    """The causes of death on which it takes a seat (000's table, 臨終能力): hunter 獵人,
    wolf king 狼王, avenger 復仇者 (exile only)."""
    explode_take: bool = False
    """Takes a seat when self-exploding in the day: white wolf king 白狼王."""
    lone: bool = False
    """Wolf side but alone (gargoyle 石像鬼, 001:2337): does not meet the other wolves nor
    join their knife, cannot self-explode, and holds a knife of his own once every other
    wolf is dead. Still a wolf to the seer, the hunt, the duel and the win."""
    sealed: bool = False
    """Wolf side but sealed at first (raven claw 狼鴉之爪, 001:123, roles.md): he does not
    meet the wolves nor join their knife, though they know him, until fewer than 3 wolves
    are alive at nightfall; then he joins the pack for good and holds one strike of his
    own that no protection stops."""
    explode_seals: bool = False
    """Self-exploding seals the gods' night abilities that night, and the explosion flips
    the card: blood-moon apostle 血月使徒 (001:1459). He may explode wherever a white wolf
    king may, even where plain wolves may not (his skill is the explosion)."""
    reports: frozenset[ReportField] = frozenset()
    """What its results tell beyond wolf or good, so a speech reporting one can say it: the
    coroner's exact card on a body (`role`, 000:30 得知死者的確切角色), the watchman's
    whether the watched seat acted (`acted`, 000:29 得知他昨夜有沒有行動)."""


_ACTED: frozenset[ReportField] = frozenset({"acted"})
_CARD: frozenset[ReportField] = frozenset({"role"})

ROLES: dict[Role, RoleSpec] = {
    spec.role: spec
    for spec in (
        RoleSpec(Role.VILLAGER, Team.GOOD, "平民", "Villager"),
        RoleSpec(Role.WEREWOLF, Team.WOLF, "狼人", "Werewolf", is_wolf=True),
        RoleSpec(Role.SEER, Team.GOOD, "預言家", "Seer", is_god=True),
        RoleSpec(Role.WITCH, Team.GOOD, "女巫", "Witch", is_god=True),
        RoleSpec(Role.HUNTER, Team.GOOD, "獵人", "Hunter", is_god=True, shot_causes=_RETALIATION),
        RoleSpec(Role.GUARD, Team.GOOD, "守衛", "Guard", is_god=True),
        RoleSpec(Role.IDIOT, Team.GOOD, "白痴", "Idiot", is_god=True),
        RoleSpec(
            Role.WHITE_WOLF_KING,
            Team.WOLF,
            "白狼王",
            "White wolf king",
            is_wolf=True,
            explode_take=True,
        ),
        RoleSpec(
            Role.WOLF_KING, Team.WOLF, "狼王", "Wolf king", is_wolf=True, shot_causes=_RETALIATION
        ),
        RoleSpec(Role.WOLF_BEAUTY, Team.WOLF, "狼美人", "Wolf beauty", is_wolf=True),
        RoleSpec(Role.KNIGHT, Team.GOOD, "騎士", "Knight", is_god=True),
        RoleSpec(Role.EVIL_KNIGHT, Team.WOLF, "惡靈騎士", "Evil knight", is_wolf=True),
        RoleSpec(Role.NIGHTMARE, Team.WOLF, "噩夢之影", "Nightmare", is_wolf=True),
        RoleSpec(Role.DREAMWEAVER, Team.GOOD, "攝夢人", "Dreamweaver", is_god=True),
        RoleSpec(
            Role.BLOOD_MOON_APOSTLE,
            Team.WOLF,
            "血月使徒",
            "Blood-moon apostle",
            is_wolf=True,
            explode_seals=True,
        ),
        RoleSpec(Role.DEMON_HUNTER, Team.GOOD, "獵魔人", "Demon hunter", is_god=True),
        RoleSpec(Role.GARGOYLE, Team.WOLF, "石像鬼", "Gargoyle", is_wolf=True, lone=True),
        RoleSpec(Role.GRAVEKEEPER, Team.GOOD, "守墓人", "Gravekeeper", is_god=True),
        RoleSpec(
            Role.ECLIPSE_WOLF_CONSORT, Team.WOLF, "蝕時狼妃", "Eclipse wolf consort", is_wolf=True
        ),
        RoleSpec(Role.PRINCE, Team.GOOD, "定序王子", "Prince", is_god=True),
        RoleSpec(Role.WOLF_WITCH, Team.WOLF, "狼巫", "Wolf witch", is_wolf=True),
        RoleSpec(Role.PURE_WHITE_MAIDEN, Team.GOOD, "純白之女", "Pure-white maiden", is_god=True),
        RoleSpec(Role.CUPID, Team.GOOD, "月老", "Cupid"),
        RoleSpec(Role.MAGICIAN, Team.GOOD, "魔術師", "Magician", is_god=True),
        RoleSpec(Role.ALCHEMIST_WITCH, Team.GOOD, "煉金魔女", "Alchemist witch", is_god=True),
        RoleSpec(Role.RAVEN_CLAW, Team.WOLF, "狼鴉之爪", "Raven claw", is_wolf=True, sealed=True),
        RoleSpec(Role.MIRACLE_MERCHANT, Team.GOOD, "奇跡商人", "Miracle merchant", is_god=True),
        RoleSpec(Role.SECRET_ADMIRER, Team.GOOD, "暗戀者", "Secret admirer"),
        RoleSpec(Role.FOX_CUB, Team.GOOD, "子狐", "Fox cub", is_god=True),
        RoleSpec(Role.BEAR, Team.GOOD, "熊", "Bear", is_god=True),
        RoleSpec(Role.PUFFERFISH, Team.GOOD, "河豚", "Pufferfish", is_god=True),
        RoleSpec(Role.WHITE_CAT, Team.GOOD, "白貓", "White cat", is_god=True),
        RoleSpec(Role.PHANTOM, Team.WOLF, "魅影", "Phantom", is_wolf=True),
        RoleSpec(Role.HEALER, Team.GOOD, "醫者", "Healer", is_god=True),
        RoleSpec(Role.WATCHMAN, Team.GOOD, "守夜人", "Watchman", is_god=True, reports=_ACTED),
        RoleSpec(Role.CORONER, Team.GOOD, "仵作", "Coroner", is_god=True, reports=_CARD),
        RoleSpec(Role.ELDER, Team.GOOD, "長老", "Elder", is_god=True),
        RoleSpec(Role.THIEF, Team.GOOD, "盜賊", "Thief"),
        RoleSpec(
            Role.AVENGER,
            Team.GOOD,
            "復仇者",
            "Avenger",
            is_god=True,
            shot_causes=frozenset({DeathCause.EXILE}),
        ),
    )
}


def spec(role: Role) -> RoleSpec:
    """The `RoleSpec` of `role`."""
    return ROLES[role]


def team_of(role: Role) -> Team:
    """The side `role` plays for."""
    return ROLES[role].team


def is_wolf(role: Role) -> bool:
    """Whether `role` is one of the wolves (the seer sees 'wolf')."""
    return ROLES[role].is_wolf


def in_pack(role: Role) -> bool:
    """Whether `role` wakes with the wolves from night 1: meets them, joins the knife.

    Not a gargoyle, nor a raven claw (sealed at first).
    """
    return ROLES[role].is_wolf and not ROLES[role].lone and not ROLES[role].sealed


def is_god(role: Role) -> bool:
    """Whether `role` is a god (神職) for the side win."""
    return ROLES[role].is_god


def is_villager(role: Role) -> bool:
    """Whether `role` is a plain villager (平民) for the side win."""
    return role is Role.VILLAGER
