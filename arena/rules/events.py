"""Events: every fact of a game, in the past tense, each with who may see it.

The event log is the source of truth; state, views, transcripts and ratings are folds
over it. Field order and names are part of the replay format (docs/replay-format.md):
change them only with a schema version bump and an upcaster.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from arena.rules.actions import Claims
from arena.rules.boards import Board
from arena.rules.decisions import DecisionKind
from arena.rules.types import (
    DeathCause,
    Direction,
    Gift,
    Phase,
    Role,
    SeatId,
    SpeechContext,
    Winner,
)
from arena.rules.visibility import Visibility

Ballot = Literal["sheriff", "sheriff_pk", "exile", "nomination", "defence", "pk"]
"""Which vote a ballot belongs to."""


class _Event(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    visibility: Visibility


class GameStarted(_Event):
    """The table is set: the board and the public role composition (暗牌: cards hidden)."""

    kind: Literal["game_started"] = "game_started"
    board: str | Board
    """A built-in board's id, or a custom board whole (public: its cards are counted in
    `role_counts` anyway, and its night order and settings are the table's rules)."""
    seats: int
    role_counts: dict[Role, int]


class RolesDealt(_Event):
    """The deal, seat 1 first (referee only; recorded so a replay never re-deals)."""

    kind: Literal["roles_dealt"] = "roles_dealt"
    roles: tuple[Role, ...]


class RoleAssigned(_Event):
    """A seat looks at its card."""

    kind: Literal["role_assigned"] = "role_assigned"
    seat: SeatId
    role: Role


class WolvesMet(_Event):
    """The wolves open their eyes and see each other (team only)."""

    kind: Literal["wolves_met"] = "wolves_met"
    seats: tuple[SeatId, ...]
    roles: tuple[Role, ...]


class PhaseStarted(_Event):
    """A new stage of the game begins (night N, or a part of day N)."""

    kind: Literal["phase_started"] = "phase_started"
    phase: Phase
    day: int


class GuardProtected(_Event):
    """The guard's choice tonight (None: skipped, which lifts the no-repeat rule)."""

    kind: Literal["guard_protected"] = "guard_protected"
    seat: SeatId
    target: SeatId | None


class WolfWhispered(_Event):
    """A line of the wolves' private night talk."""

    kind: Literal["wolf_whispered"] = "wolf_whispered"
    seat: SeatId
    text: str
    round: int


class KnifeNominated(_Event):
    """A wolf's nomination for tonight's knife (None: no kill)."""

    kind: Literal["knife_nominated"] = "knife_nominated"
    seat: SeatId
    target: SeatId | None
    round: int


class KnifeChosen(_Event):
    """Tonight's knife, and how it was settled."""

    kind: Literal["knife_chosen"] = "knife_chosen"
    target: SeatId | None
    how: Literal["unanimous", "plurality", "lots", "empty", "feared", "confused"]


class KnifeShownToWitch(_Event):
    """The witch is shown tonight's knife target (only while her antidote is unused).

    So is the alchemist witch, while her snake is unused (001:123, roles.md).
    """

    kind: Literal["knife_shown_to_witch"] = "knife_shown_to_witch"
    seat: SeatId
    target: SeatId | None


class WitchActed(_Event):
    """The witch's potion tonight, at most one."""

    kind: Literal["witch_acted"] = "witch_acted"
    seat: SeatId
    saved: SeatId | None
    poisoned: SeatId | None


class SeerChecked(_Event):
    """The seer's check: good or wolf, nothing more (003 规则盲点 (5))."""

    kind: Literal["seer_checked"] = "seer_checked"
    seat: SeatId
    target: SeatId
    is_wolf: bool


class BeautyCharmed(_Event):
    """The wolf beauty's charm tonight (only she sees it; her teammates have shut their eyes)."""

    kind: Literal["beauty_charmed"] = "beauty_charmed"
    seat: SeatId
    target: SeatId


class DreamerChosen(_Event):
    """The dreamweaver's dreamer tonight (only he sees it)."""

    kind: Literal["dreamer_chosen"] = "dreamer_chosen"
    seat: SeatId
    target: SeatId


class SeatFeared(_Event):
    """The nightmare's fear tonight (only he sees it; he may tell his team in their talk)."""

    kind: Literal["seat_feared"] = "seat_feared"
    seat: SeatId
    target: SeatId


class SkillBlocked(_Event):
    """A feared seat opens its eyes and is shown that its skill is blocked tonight."""

    kind: Literal["skill_blocked"] = "skill_blocked"
    seat: SeatId


class DemonHunted(_Event):
    """The demon hunter's hunt tonight (only he sees it; its outcome shows at dawn)."""

    kind: Literal["demon_hunted"] = "demon_hunted"
    seat: SeatId
    target: SeatId


class RoleChecked(_Event):
    """An exact-role check (gargoyle, pure-white maiden, wolf witch): the target's card."""

    kind: Literal["role_checked"] = "role_checked"
    seat: SeatId
    target: SeatId
    role: Role


class GargoyleStruck(_Event):
    """The gargoyle's own knife, once the other wolves are dead (only he sees it)."""

    kind: Literal["gargoyle_struck"] = "gargoyle_struck"
    seat: SeatId
    target: SeatId | None


class GraveRead(_Event):
    """The gravekeeper learns whether the seat exiled the day before was good or a wolf."""

    kind: Literal["grave_read"] = "grave_read"
    seat: SeatId
    target: SeatId
    is_wolf: bool


class SeatBlocked(_Event):
    """The eclipse wolf consort's block (only she sees it; she may tell her team)."""

    kind: Literal["seat_blocked"] = "seat_blocked"
    seat: SeatId
    target: SeatId


class SeatsSwapped(_Event):
    """The magician's swap tonight (only he sees it): actions on one land on the other."""

    kind: Literal["seats_swapped"] = "seats_swapped"
    seat: SeatId
    target: SeatId
    other: SeatId


class MistLaid(_Event):
    """The alchemist witch's mist (未明之霧, once a game): the three seats, hers alone."""

    kind: Literal["mist_laid"] = "mist_laid"
    seat: SeatId
    targets: tuple[SeatId, ...]


class KnifeLimited(_Event):
    """The wolves are shown that tonight they may knife only one of these seats (the mist).

    It names no caster: the wolves learn the limit, not who laid it.
    """

    kind: Literal["knife_limited"] = "knife_limited"
    targets: tuple[SeatId, ...]


class SnakeActed(_Event):
    """The alchemist witch's snake (法老之蛇) tonight: the knife target saved, or None."""

    kind: Literal["snake_acted"] = "snake_acted"
    seat: SeatId
    saved: SeatId | None


class ClawUnsealed(_Event):
    """The raven claw is unsealed (狼鴉之爪解除封印): fewer than 3 wolves live at nightfall.

    He meets the living wolves and joins their knife from tonight on.
    """

    kind: Literal["claw_unsealed"] = "claw_unsealed"
    seat: SeatId
    wolves: tuple[SeatId, ...]
    roles: tuple[Role, ...]


class ClawStruck(_Event):
    """The unsealed raven claw's one strike (only he sees it; no protection stops it)."""

    kind: Literal["claw_struck"] = "claw_struck"
    seat: SeatId
    target: SeatId


class GiftGiven(_Event):
    """The miracle merchant's trade (only he sees it); its outcome shows at dawn."""

    kind: Literal["gift_given"] = "gift_given"
    seat: SeatId
    target: SeatId
    gift: Gift


class GiftReceived(_Event):
    """A good seat is told it is the lucky one and what its gift is (not who gave it)."""

    kind: Literal["gift_received"] = "gift_received"
    seat: SeatId
    gift: Gift


class GiftUsed(_Event):
    """The lucky one uses the gift (only it sees it); a check tells good or wolf."""

    kind: Literal["gift_used"] = "gift_used"
    seat: SeatId
    gift: Gift
    target: SeatId
    is_wolf: bool | None
    """The check's verdict (None for a poison or a shield)."""


class AdmirerChose(_Event):
    """The secret admirer's love (only she sees it), and the side she now plays for."""

    kind: Literal["admirer_chose"] = "admirer_chose"
    seat: SeatId
    target: SeatId
    wolf_side: bool
    """Whether her love is on the wolf side, and so is she (she is told her side)."""


class SeatConfused(_Event):
    """The fox cub's one confusion (子狐迷惑; only he sees it).

    A wolf-side seat confused stops the pack's knife tonight; a wolf beauty charms nobody.
    """

    kind: Literal["seat_confused"] = "seat_confused"
    seat: SeatId
    target: SeatId


class BearGrowled(_Event):
    """The moderator's dawn announcement to the whole table: did the bear growl (熊咆哮)?

    It growls when the bear is alive and a living neighbour of his (the nearest living seat
    on either side) is a wolf; every dawn has the announcement, a dead bear's is no growl.
    """

    kind: Literal["bear_growled"] = "bear_growled"
    growled: bool


class PufferRaged(_Event):
    """The pufferfish flipped after the vote (河豚之怒): these voters of his are taken."""

    kind: Literal["puffer_raged"] = "puffer_raged"
    seat: SeatId
    targets: tuple[SeatId, ...]


class CatReprieved(_Event):
    """The white cat is out (its cause, referee only) but lives on until day `until` ends.

    Its card flips for the table (`CardRevealed`): at dawn for a night death, at once by day.
    """

    kind: Literal["cat_reprieved"] = "cat_reprieved"
    seat: SeatId
    cause: DeathCause
    until: int
    at_night: bool


class WolfMasked(_Event):
    """The phantom's mask tonight: a seer's check of this wolf shows good (000:24, 17).

    Only the phantom sees it (he opens his eyes alone, before the wolves; he may tell his
    team in their talk). The masked wolf is not told.
    """

    kind: Literal["wolf_masked"] = "wolf_masked"
    seat: SeatId
    target: SeatId


class HealerProtected(_Event):
    """The healer's protection tonight (None: none, which lifts the no-repeat rule).

    Only the healer sees it, and never whether it stopped a knife (000:39 兩者都不會收到任何提示).
    """

    kind: Literal["healer_protected"] = "healer_protected"
    seat: SeatId
    target: SeatId | None


class SeatWatched(_Event):
    """The watchman's watch, told at dawn: did the seat use a night skill (000:29)."""

    kind: Literal["seat_watched"] = "seat_watched"
    seat: SeatId
    target: SeatId
    acted: bool


class BodyExamined(_Event):
    """The coroner's autopsy of a dead seat: its exact card (000:30 得知死者的確切角色)."""

    kind: Literal["body_examined"] = "body_examined"
    seat: SeatId
    target: SeatId
    role: Role


class KnifeWithstood(_Event):
    """The elder withstood the knife: his first knife takes his spare life, not him.

    Referee only (common play for 004's 长老, docs/roles.md): the morning is peaceful and
    nobody, the elder included, is told why.
    """

    kind: Literal["knife_withstood"] = "knife_withstood"
    seat: SeatId


class BottomCardsDealt(_Event):
    """The cards left face down beside the table on a thief board (004 底牌; referee only)."""

    kind: Literal["bottom_cards_dealt"] = "bottom_cards_dealt"
    cards: tuple[Role, ...]


class BottomCardsShown(_Event):
    """The thief, night 1, is shown the bottom cards, in order (card 1, card 2)."""

    kind: Literal["bottom_cards_shown"] = "bottom_cards_shown"
    seat: SeatId
    cards: tuple[Role, ...]


class CardTaken(_Event):
    """The thief takes bottom card `card` (1-based): `role` is his card from now on.

    His thief card goes face down in its place, with the other bottom card (buried, 埋).
    """

    kind: Literal["card_taken"] = "card_taken"
    seat: SeatId
    card: int
    role: Role


class LoversLinked(_Event):
    """Cupid's red thread (000:22), seen by cupid only: the two now live and die together."""

    kind: Literal["lovers_linked"] = "lovers_linked"
    seat: SeatId
    lovers: tuple[SeatId, SeatId]


class LoverMet(_Event):
    """A lover opens his eyes on night 1 and meets his partner (004:3 情侶睁眼), to him only.

    He learns the partner's seat and side, never the card (不可以亮牌給對方看; the side
    stands for the gestures 004:3 allows, docs/roles.md): a wolf–good couple now plays for
    the lovers (人狼戀).
    """

    kind: Literal["lover_met"] = "lover_met"
    seat: SeatId
    partner: SeatId
    partner_is_wolf: bool


class CardRevealed(_Event):
    """A card flipped face up for the whole table (001:1459 自動翻牌)."""

    kind: Literal["card_revealed"] = "card_revealed"
    seat: SeatId
    role: Role


class KnightDuelled(_Event):
    """The knight flips his card and duels a seat; the table sees whether it was a wolf."""

    kind: Literal["knight_duelled"] = "knight_duelled"
    seat: SeatId
    target: SeatId
    is_wolf: bool


class SkillStatusTold(_Event):
    """A hunter (or white wolf king) is told whether his skill works (thumb up or down)."""

    kind: Literal["skill_status_told"] = "skill_status_told"
    seat: SeatId
    usable: bool


class PlayerDied(_Event):
    """The truth of a death, with its cause (referee only).

    The table learns of a death only through `DeathsAnnounced`, without its cause.
    """

    kind: Literal["player_died"] = "player_died"
    seat: SeatId
    cause: DeathCause
    day: int
    at_night: bool


class DeathsAnnounced(_Event):
    """Seats publicly out of the game, without cause (empty: a peaceful night, 平安夜)."""

    kind: Literal["deaths_announced"] = "deaths_announced"
    seats: tuple[SeatId, ...]


class SheriffCandidates(_Event):
    """Who stood for sheriff (上警), read out in seat order."""

    kind: Literal["sheriff_candidates"] = "sheriff_candidates"
    seats: tuple[SeatId, ...]


class SpeakingOrderSet(_Event):
    """The order of a round of speeches; `drawn` marks a seeded random start (recorded)."""

    kind: Literal["speaking_order_set"] = "speaking_order_set"
    order: tuple[SeatId, ...]
    context: SpeechContext
    direction: Direction
    drawn: bool


class Spoke(_Event):
    """A speech: free text plus structured claims."""

    kind: Literal["spoke"] = "spoke"
    seat: SeatId
    text: str
    claims: Claims
    context: SpeechContext


class SelfExploded(_Event):
    """A wolf self-exploded (自爆): he is out and the speeches stop at once."""

    kind: Literal["self_exploded"] = "self_exploded"
    seat: SeatId


class SheriffWithdrew(_Event):
    """Candidates who withdrew (退水); they lose their sheriff vote."""

    kind: Literal["sheriff_withdrew"] = "sheriff_withdrew"
    seats: tuple[SeatId, ...]


class VoteCast(_Event):
    """One ballot, revealed with all the others at once (None: abstained)."""

    kind: Literal["vote_cast"] = "vote_cast"
    ballot: Ballot
    voter: SeatId
    target: SeatId | None
    weight: float


class VotesCounted(_Event):
    """A ballot's tally (seat, weighted votes), highest first, and the leaders."""

    kind: Literal["votes_counted"] = "votes_counted"
    ballot: Ballot
    tally: tuple[tuple[SeatId, float], ...]
    leaders: tuple[SeatId, ...]


class TieBroken(_Event):
    """Lots drawn among tied seats (the seeded draw is recorded, never re-rolled)."""

    kind: Literal["tie_broken"] = "tie_broken"
    purpose: Literal["knife", "nomination", "exile"]
    among: tuple[SeatId, ...]
    chosen: tuple[SeatId, ...]


class SheriffElected(_Event):
    """A sheriff (警長) is elected."""

    kind: Literal["sheriff_elected"] = "sheriff_elected"
    seat: SeatId


class SheriffElectionPostponed(_Event):
    """A self-explosion stopped the election; it resumes the next day (雙爆吞警徽)."""

    kind: Literal["sheriff_election_postponed"] = "sheriff_election_postponed"
    candidates: tuple[SeatId, ...]


class BadgeLost(_Event):
    """There is no sheriff from now on (警徽流失)."""

    kind: Literal["badge_lost"] = "badge_lost"
    reason: Literal["no_candidates", "no_voters", "no_votes", "tie", "explosion", "torn"]


class BadgePassed(_Event):
    """A departing sheriff hands the badge on (移交警徽)."""

    kind: Literal["badge_passed"] = "badge_passed"
    seat: SeatId
    to: SeatId


class ExileRecommended(_Event):
    """The sheriff's recommendation before the vote (歸票)."""

    kind: Literal["exile_recommended"] = "exile_recommended"
    seat: SeatId
    targets: tuple[SeatId, ...]


class PlayerExiled(_Event):
    """The vote's result: this seat is exiled (放逐)."""

    kind: Literal["player_exiled"] = "player_exiled"
    seat: SeatId


class IdiotRevealed(_Event):
    """An exiled idiot flips his card: he stays, but never votes again."""

    kind: Literal["idiot_revealed"] = "idiot_revealed"
    seat: SeatId


class PlayerShot(_Event):
    """A seat takes another on death or explosion (hunter, wolf king, white wolf king)."""

    kind: Literal["player_shot"] = "player_shot"
    seat: SeatId
    role: Role
    target: SeatId


class ActionDefaulted(_Event):
    """A seat gave no valid answer in time; the arena's documented default was applied."""

    kind: Literal["action_defaulted"] = "action_defaulted"
    seat: SeatId
    decision: DecisionKind
    reason: str


class GameEnded(_Event):
    """The game is over."""

    kind: Literal["game_ended"] = "game_ended"
    winner: Winner
    reason: str


class RolesRevealed(_Event):
    """All cards turned over at the end, seat 1 first."""

    kind: Literal["roles_revealed"] = "roles_revealed"
    roles: tuple[Role, ...]


Event = Annotated[
    GameStarted
    | RolesDealt
    | RoleAssigned
    | WolvesMet
    | PhaseStarted
    | GuardProtected
    | WolfWhispered
    | KnifeNominated
    | KnifeChosen
    | KnifeShownToWitch
    | WitchActed
    | SeerChecked
    | SkillStatusTold
    | BeautyCharmed
    | DreamerChosen
    | KnightDuelled
    | SeatFeared
    | SkillBlocked
    | DemonHunted
    | RoleChecked
    | GargoyleStruck
    | GraveRead
    | SeatBlocked
    | SeatsSwapped
    | MistLaid
    | KnifeLimited
    | SnakeActed
    | ClawUnsealed
    | ClawStruck
    | GiftGiven
    | GiftReceived
    | GiftUsed
    | AdmirerChose
    | SeatConfused
    | BearGrowled
    | PufferRaged
    | CatReprieved
    | WolfMasked
    | HealerProtected
    | SeatWatched
    | BodyExamined
    | KnifeWithstood
    | BottomCardsDealt
    | BottomCardsShown
    | CardTaken
    | LoversLinked
    | LoverMet
    | CardRevealed
    | PlayerDied
    | DeathsAnnounced
    | SheriffCandidates
    | SpeakingOrderSet
    | Spoke
    | SelfExploded
    | SheriffWithdrew
    | VoteCast
    | VotesCounted
    | TieBroken
    | SheriffElected
    | SheriffElectionPostponed
    | BadgeLost
    | BadgePassed
    | ExileRecommended
    | PlayerExiled
    | IdiotRevealed
    | PlayerShot
    | ActionDefaulted
    | GameEnded
    | RolesRevealed,
    Field(discriminator="kind"),
]
EVENT_ADAPTER: TypeAdapter[Event] = TypeAdapter(Event)
