"""Closed vocabularies of the game: seats, roles, teams, phases, causes of death.

Everything here is plain data shared by every other module of the rules core. Seats are
numbered from 1, as they are called at a real table ("3 號玩家").
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

SeatId = int
"""A seat number, 1-based, as the moderator calls it."""


class Team(StrEnum):
    """The two sides. Every role belongs to exactly one."""

    GOOD = "good"
    WOLF = "wolf"


class Side(StrEnum):
    """Whom a seat plays for at the end: its card's team, or the lovers' third side.

    A `Team` but for 人狼戀: a wolf–good couple of lovers and their cupid play for
    themselves (`arena.rules.outcome`, docs/roles.md).
    """

    GOOD = "good"
    WOLF = "wolf"
    LOVERS = "lovers"


class Role(StrEnum):
    """Every role the referee knows. The `Role` value is the id used in files and tools."""

    VILLAGER = "villager"
    WEREWOLF = "werewolf"
    SEER = "seer"
    WITCH = "witch"
    HUNTER = "hunter"
    GUARD = "guard"
    IDIOT = "idiot"
    WHITE_WOLF_KING = "white_wolf_king"
    WOLF_KING = "wolf_king"
    WOLF_BEAUTY = "wolf_beauty"
    KNIGHT = "knight"
    DREAMWEAVER = "dreamweaver"
    AVENGER = "avenger"
    EVIL_KNIGHT = "evil_knight"
    NIGHTMARE = "nightmare"
    BLOOD_MOON_APOSTLE = "blood_moon_apostle"
    DEMON_HUNTER = "demon_hunter"
    GARGOYLE = "gargoyle"
    GRAVEKEEPER = "gravekeeper"
    ECLIPSE_WOLF_CONSORT = "eclipse_wolf_consort"
    PRINCE = "prince"
    WOLF_WITCH = "wolf_witch"
    PURE_WHITE_MAIDEN = "pure_white_maiden"
    MAGICIAN = "magician"
    ALCHEMIST_WITCH = "alchemist_witch"
    RAVEN_CLAW = "raven_claw"
    MIRACLE_MERCHANT = "miracle_merchant"
    SECRET_ADMIRER = "secret_admirer"
    FOX_CUB = "fox_cub"
    BEAR = "bear"
    PUFFERFISH = "pufferfish"
    WHITE_CAT = "white_cat"
    PHANTOM = "phantom"
    HEALER = "healer"
    WATCHMAN = "watchman"
    CORONER = "coroner"
    ELDER = "elder"
    THIEF = "thief"
    CUPID = "cupid"


class Phase(StrEnum):
    """The coarse stage of the game a `PhaseStarted` event opens."""

    NIGHT = "night"
    SHERIFF_ELECTION = "sheriff_election"
    ANNOUNCEMENT = "announcement"
    SPEECHES = "speeches"
    VOTE = "vote"
    GAME_OVER = "game_over"


class DeathCause(StrEnum):
    """Why a seat died. Referee-only for night deaths: the seeds announce deaths without cause."""

    KNIFE = "knife"
    POISON = "poison"
    EXILE = "exile"
    SHOT = "shot"
    """Taken by a hunter's gun or a wolf king's claw."""
    TAKEN = "taken"
    """Taken by a white wolf king's self-explosion."""
    EXPLODED = "exploded"
    """A wolf who self-exploded."""
    DUEL = "duel"
    """Lost a knight's duel: the duelled wolf, or the knight whose target was good."""
    CHARMED = "charmed"
    """Died with the wolf beauty who charmed it (殉情, like a lover)."""
    DREAM = "dream"
    """A dreamer taken by the dreamweaver: he died that night, or dreamed it twice running."""
    REFLECTED = "reflected"
    """A seer who checked, or a witch who poisoned, the evil knight (his one reflect)."""
    LOVER = "lover"
    """Died with a lover (000:22 同生共死; 000:51: it triggers nothing)."""
    BACKLASH = "backlash"
    """A demon hunter killed by hunting a good seat (000:48 被獵魔者反噬)."""
    CHECKED = "checked"
    """Checked to death from night 2 (001:2113 查驗出局): a wolf the pure-white maiden
    checks, or the maiden the wolf witch checks."""
    CLAWED = "clawed"
    """Struck by the raven claw's one strike, which no protection stops (迷霧鴉影, roles.md)."""
    PUFFED = "puffed"
    """Voted for the pufferfish, who flipped after the vote (河豚之怒, 動物夢境, roles.md)."""
    HUNTED = "hunted"
    """A wolf struck by the demon hunter's hunt (001:1591 獵殺; 000:48's row, see roles.md)."""
    FAILED_TRADE = "failed_trade"
    """The miracle merchant who traded with a wolf-side seat (交易失敗; common play)."""


class Gift(StrEnum):
    """What the miracle merchant gives the lucky one (幸運兒): one use of a god's skill."""

    CHECK = "check"
    """The seer's check: good or wolf."""
    POISON = "poison"
    """The witch's poison."""
    SHIELD = "shield"
    """The guard's protection from that night's knife."""


class Direction(StrEnum):
    """Which way the speaking order runs around the table."""

    ASCENDING = "ascending"
    """順序: 3, 4, 5, … wrapping from the last seat to seat 1."""
    DESCENDING = "descending"
    """逆序: 5, 4, 3, … wrapping from seat 1 to the last seat."""


class Winner(StrEnum):
    """Who won. `DRAW` only happens when a game hits its configured day limit."""

    GOOD = "good"
    WOLVES = "wolves"
    DRAW = "draw"
    LOVERS = "lovers"
    """人狼戀: a wolf–good couple of lovers (and their cupid) outlived everyone else
    (docs/roles.md, Cupid)."""


SpeechContext = Literal["sheriff", "sheriff_pk", "day", "pk", "defence", "last_words", "prince"]
"""Where a speech was given; it decides its length limit and how transcripts label it."""
