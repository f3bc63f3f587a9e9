"""Rules presets and their knobs, and the `GameConfig` a game is created from.

Where the seeds disagree, a preset picks one source: `tournament` follows seed 001 (the
judge's handbook), `site` seed 000 (the public complete-rules page), `classic` seeds
003/004 (face-to-face rules, 003 first). Every knob can be overridden one by one; where
a preset's source is silent the knob's docstring says which source fills the gap.
"""

from __future__ import annotations

import difflib
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from arena.errors import clip, one_line
from arena.rules.boards import BOARDS, Board, PresetName, WinMode, board, board_id
from arena.rules.composition import check_board
from arena.rules.errors import ConfigError
from arena.rules.types import Role

ExplodePhase = Literal["sheriff_speech", "sheriff_withdraw", "day_speech"]


class RuleSet(BaseModel):
    """Every rule that differs between sources. Field names are the knob names."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    sheriff: bool = True
    """Elect a sheriff (警長) on day 1 (003 警徽规则; 000: 12-player boards mostly)."""
    sheriff_vote_weight: float = Field(1.5, gt=0)
    """The sheriff's vote: 1.5 (000, 001, 003); 004 says 2."""
    guard_and_save: Literal["dies", "survives"] = "dies"
    """Guard and antidote on the same knifed seat (同守同救): 001/003 dies, 000 survives."""
    witch_self_save: Literal["never", "first_night", "always"] = "never"
    """May the witch save herself: 001 never, 000 first night only, 003 no."""
    knife_decision: Literal["unanimous", "plurality"] = "unanimous"
    """Unanimous nominations (001, 004) or a plurality with a recorded random tie-break (000)."""
    knife_rounds: int = Field(2, ge=1, le=5)
    """Nomination rounds to reach unanimity; wolves see each other's earlier nominations."""
    knife_no_agreement: Literal["empty", "lots"] = "empty"
    """Unanimity never reached: an empty knife (001, 004) or lots among the most nominated."""
    wolves_may_skip: bool = False
    """'No kill' is a legal nomination (004 允许空刀); 003 暂不允许空刀."""
    wolf_may_nominate_self: bool = True
    """000: a wolf cannot nominate himself (a self-knife needs a teammate's nomination)."""
    exile_nomination: bool = False
    """000: a first vote nominates up to 3 seats, who defend before the real vote."""
    exile_tie: Literal["pk", "lots", "peace"] = "pk"
    """A tie in the exile vote: PK speeches and a re-vote by the others (001, 003)."""
    exile_second_tie: Literal["peace", "lots"] = "peace"
    """A tie again after PK: no exile, a peaceful day (001, 003), or lots (000)."""
    last_words_night: Literal["first_night", "first_night_knife", "two_nights_single"] = (
        "first_night"
    )
    """Which night deaths speak: all of night 1 (000, 001), night-1 knife victims only (003),
    or all of night 1 and a lone death of night 2 (004)."""
    last_words_taken: Literal["none", "follow_source"] = "none"
    """Seats taken by a hunter, wolf king or white wolf king: none (003), or as the one who
    took them did (001; 004 with `last_words_exploded` for the white wolf king's take)."""
    shot_dies_with_shooter: bool = False
    """A shot seat dies at its shooter's time (004 猎人枪杀目标视为与猎人同一时间死亡): a
    night victim's shot makes one more death of that night, for the night's last words.
    The other seeds are silent; the shot is then a day death."""
    last_words_per_wolf: bool = False
    """003's alternative (注：另有一份遗言规则): as many last words as wolves, used up in
    order of death, day or night; every death uses one, but the poisoned and the shot or
    taken still say nothing. Replaces the other last-words knobs when on."""
    last_words_exploded: bool = False
    """An exploded wolf leaves last words (004 指刀); 001 自爆無遺言."""
    explode_phases: frozenset[ExplodePhase] = frozenset(
        {"sheriff_speech", "sheriff_withdraw", "day_speech"}
    )
    """When wolves may self-explode (001 備註 3; 003 警徽规则 (5), 发言规则 (4))."""
    ordinary_wolves_explode: bool = True
    """Plain wolves may self-explode; 000 only knows the white wolf king's explosion."""
    explosions_to_swallow_badge: int = Field(1, ge=1, le=3)
    """Explosions during sheriff elections that lose the badge (001 雙爆吞警徽: 2; 003: 1,
    12-player boards 2). Before that many, the election moves to the next day."""
    campaign_order: Literal["drawn", "lowest_first", "highest_first"] = "drawn"
    """Where the sheriff campaign speeches start: a drawn seat and direction (001's and
    003's clock rule), or, fixed before the game, the lowest or the highest seat number
    (003/004 发言规则 (1): 从号码最大或最小的开始). Seats that did not stand are skipped."""
    sheriff_pk_voters: Literal["non_candidates", "off_stage"] = "non_candidates"
    """Who votes in the sheriff PK: still only seats that never stood, the other candidates
    counting as withdrawn (003 警长规则 (4)), or everyone off the PK stage (001: 除了 PK 臺上
    其他玩家戴盔投票)."""
    withdraw_explosion_swallows_badge: bool = False
    """001: an explosion in the withdrawal step (退水環節) loses the badge at once."""
    exploded_wolf_joins_knife: bool = False
    """The wolf who exploded that day joins the night's knife (001 自爆狼參與夜間指刀; 003)."""
    flipped_idiot_exile: Literal["not_a_target", "dies"] = "not_a_target"
    """A flipped idiot in a later vote: no longer a legal exile target, so the wolves must
    knife him (001:205 即要追刀, 003:92), or a legal target who dies when voted out again
    (000:6 愚者第一次被投出時翻牌免死: the flip saves him the first time only)."""
    fear_cancels_knife: bool = True
    """The nightmare fearing a wolf cancels that night's knife (001:1665 恐懼小狼會使狼隊當夜
    無法開刀); 000:18 夢魘封不到…狼隊共享的那一刀."""
    fear_blocks_death_skill: bool = True
    """A feared hunter knifed that night cannot shoot (001:1665 如果當夜槍被刀走將無法發動
    技能); 000:18: the nightmare cannot block a death retaliation (臨終反擊)."""
    demon_hunter_poison_immune: bool = True
    """The witch's poison does not kill the demon hunter (common play: the card of the
    common online rules says 獵魔人免疫女巫的毒藥; 001 and 000 are silent)."""
    healer_protections: int = Field(2, ge=1, le=30)
    """How many nights the healer may protect (000:26 限次; the seed gives no number: 2,
    the common count of a limited shield, one fewer than the nights of a short game)."""
    coroner_autopsies: int = Field(2, ge=1, le=30)
    """How many autopsies the coroner has (000:30 限次; no number given: 2, like the healer)."""
    thief_takes_wolf: Literal["any", "both"] = "any"
    """When the thief must take a wolf card: whenever one lies among the bottom cards
    (`any`, common play of Chinese face-to-face rules) or only when both are wolves
    (`both`, the original card). 004 only says that he takes a card and buries the rest."""
    hunter_shoots_when_taken_by_wwk: bool = True
    """000's table: yes; 003: a hunter taken by the white wolf king cannot shoot."""
    wolf_king_shoots_on_explode: bool = False
    """The seeds list no explosion among the wolf king's triggers (000's table)."""
    knife_first: bool = False
    """003 狼刀在先: a knife that alone meets the wolves' win ends the game at once."""
    win: WinMode = "side"
    """屠城 or 屠邊; defaults to the board's."""
    city_win: Literal["parity", "all"] = "parity"
    """City: wolves ≥ living others (000), or every non-wolf dead (003)."""
    side_villagers_needed: int | None = None
    """Side: villagers to kill for the wolves (None: all; 003's 10-player board: 3)."""
    sheriff_order_anchor: Literal["sheriff", "death"] = "sheriff"
    """The sheriff picks left/right of himself and speaks last (001, 003, 004) or of the
    night's death, choosing the start seat after a peaceful night (000)."""
    sheriff_direction: Literal["choose", "alternate"] = "choose"
    """The sheriff picks left or right every day (003 发言规则 (2)), or only the first time,
    after which the side switches every day (004 发言规则 (2): 第二天换手). Alternation
    needs `sheriff_order_anchor="sheriff"`: it is about the sheriff's own left and right."""
    order_without_sheriff: Literal["random", "after_last_death"] = "random"
    """No sheriff: a drawn start and direction (001's clock rule) or after the last death
    (000, 003)."""
    wolf_talk_rounds: int = Field(1, ge=0, le=5)
    """Rounds of private wolf chat before nominations each night."""
    speech_chars: int = Field(1200, ge=1)
    """Length limit of a day speech: 001's 120 s at about 10 characters a second."""
    sheriff_speech_chars: int = Field(1500, ge=1)
    """Length limit of a sheriff campaign speech (001: 150 s)."""
    last_words_chars: int = Field(600, ge=1)
    """Length limit of last words and of wolf chat lines."""
    max_days: int = Field(30, ge=1)
    """A game still running after this many days ends in a draw (a safety bound)."""

    @model_validator(mode="after")
    def _check_combinations(self) -> RuleSet:
        if self.sheriff_direction == "alternate" and self.sheriff_order_anchor != "sheriff":
            raise ValueError(
                "sheriff_direction 'alternate' needs sheriff_order_anchor 'sheriff' "
                "(004 alternates the sheriff's own left and right)"
            )
        return self


_TOURNAMENT = dict(
    knife_decision="unanimous",
    knife_no_agreement="empty",
    wolves_may_skip=False,
    guard_and_save="dies",
    witch_self_save="never",
    exile_tie="pk",
    exile_second_tie="peace",
    last_words_night="first_night",
    last_words_taken="follow_source",
    last_words_exploded=False,
    explosions_to_swallow_badge=2,
    withdraw_explosion_swallows_badge=True,
    sheriff_pk_voters="off_stage",
    exploded_wolf_joins_knife=True,
    order_without_sheriff="random",
    knife_first=False,
)
_SITE = dict(
    knife_decision="plurality",
    knife_rounds=1,
    wolves_may_skip=False,
    wolf_may_nominate_self=False,
    guard_and_save="survives",
    witch_self_save="first_night",
    exile_nomination=True,
    exile_tie="pk",
    exile_second_tie="lots",
    last_words_night="first_night",
    last_words_taken="none",
    last_words_exploded=False,
    explode_phases=frozenset({"day_speech"}),
    ordinary_wolves_explode=False,
    sheriff_order_anchor="death",
    order_without_sheriff="after_last_death",
    knife_first=False,
    flipped_idiot_exile="dies",
    fear_cancels_knife=False,
    fear_blocks_death_skill=False,
)
_CLASSIC = dict(
    knife_decision="unanimous",
    knife_no_agreement="lots",
    wolves_may_skip=False,
    guard_and_save="dies",
    witch_self_save="never",
    exile_tie="pk",
    exile_second_tie="peace",
    last_words_night="first_night_knife",
    last_words_taken="none",
    last_words_exploded=True,
    exploded_wolf_joins_knife=True,
    hunter_shoots_when_taken_by_wwk=False,
    order_without_sheriff="after_last_death",
    knife_first=True,
    city_win="all",
)
PRESETS: dict[PresetName, dict[str, Any]] = {
    "tournament": _TOURNAMENT,
    "site": _SITE,
    "classic": _CLASSIC,
}


def resolve_rules(
    board_: Board, preset: PresetName, overrides: dict[str, Any] | None = None
) -> RuleSet:
    """The rules of a game: the preset, the board's win mode and settings, then overrides.

    Raises:
        ConfigError: an unknown preset or knob, or a knob value of the wrong type.
    """
    if preset not in PRESETS:
        raise ConfigError(f"unknown preset {preset!r}; known presets: {', '.join(PRESETS)}")
    values: dict[str, Any] = dict(PRESETS[preset])
    values["win"] = board_.win
    values["side_villagers_needed"] = board_.side_villagers_needed
    if preset == "classic" and board_.seats >= 12:
        values["explosions_to_swallow_badge"] = 2  # 003 警徽规则 (5): 12人标准局需要2次自爆
    for knob, value in {**board_.settings, **(overrides or {})}.items():
        if knob not in RuleSet.model_fields:  # the closest three, not a screenful of all
            near = difflib.get_close_matches(knob, list(RuleSet.model_fields), n=3, cutoff=0.5)
            hint = f"; the closest: {', '.join(near)}" if near else " (see RuleSet's fields)"
            raise ConfigError(f"unknown rules knob {clip(repr(knob))}{hint}")
        values[knob] = value
    try:
        return RuleSet.model_validate(values)
    except ValidationError as exc:
        about_knob = bool(exc.errors()[0]["loc"])  # else a rule about a combination of knobs
        raise ConfigError(("rules knob " if about_knob else "rules: ") + one_line(exc)) from None


class GameConfig(BaseModel):
    """Everything that, with the seed and the answers, determines a game."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    board: str | Board
    """A built-in board's id (`arena.rules.boards.BOARDS`), or a custom board whole
    (docs/boards.md): a replay or a job then carries everything the game needs."""
    preset: PresetName | None = None
    """The rules preset; the board's own when omitted."""
    overrides: dict[str, Any] = Field(default_factory=dict)
    """Knob overrides on top of the preset, by knob name."""
    deal: tuple[Role, ...] | None = None
    """A fixed role per seat (scenarios, tests); dealt from the seed when omitted."""

    @model_validator(mode="after")
    def _check(self) -> GameConfig:
        b = board(self.board)
        if isinstance(self.board, Board):
            if self.board.id in BOARDS:
                raise ValueError(
                    f"custom board {self.board.id!r} has a built-in board's id; choose another"
                )
            check_board(self.board)
        resolve_rules(b, self.preset or b.preset, self.overrides)
        if self.deal is not None and sorted(self.deal) != sorted(b.roles):
            bottom = f" (the last {b.bottom} are the bottom cards)" if b.bottom else ""
            raise ValueError(
                f"deal does not match board {b.id!r}: expected the roles "
                f"{sorted(r.value for r in b.roles)}{bottom}"
            )
        return self

    @property
    def board_id(self) -> str:
        """The board's id: a custom board's own (it names its games and leaderboard rows)."""
        return board_id(self.board)

    @property
    def board_spec(self) -> Board:
        """The `Board` this config names."""
        return board(self.board)

    @property
    def rules(self) -> RuleSet:
        """The resolved `RuleSet` (preset, board defaults, then overrides)."""
        b = self.board_spec
        return resolve_rules(b, self.preset or b.preset, self.overrides)
