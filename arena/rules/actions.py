"""What a seat can answer: frozen action models, one `kind` literal each.

Actions are imperative (`Vote`, `Kill`, `Inspect`); the events they cause are past tense.
`Pass` is the one passive answer: abstain, skip, don't run, don't shoot, don't explode.
"""

from __future__ import annotations

from typing import Annotated, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from arena.errors import one_line
from arena.rules.claims import EXCLUSIVE as EXCLUSIVE
from arena.rules.claims import OWN_SEAT_BARRED as OWN_SEAT_BARRED
from arena.rules.claims import ClaimList as ClaimList
from arena.rules.claims import checks_conflict as checks_conflict
from arena.rules.claims import claim_contradiction as claim_contradiction
from arena.rules.claims import claimed_seats as claimed_seats
from arena.rules.errors import InvalidActionError
from arena.rules.types import Direction, Gift, Role, SeatId


class _Action(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class CheckClaim(_Action):
    """A claimed night result about one seat: 'I checked seat N, it is a wolf / good'.

    The seer's check is the common case; the other information roles report theirs in the
    same shape, so a table weighs every reported result alike: the coroner adds the exact
    card he found on the body (`role`), the watchman whether the seat acted (`acted`).
    `is_wolf` is always the speaker's verdict on the seat.
    """

    seat: SeatId
    is_wolf: bool
    role: Role | None = None
    """The exact card the result shows, when it shows one (the coroner's autopsy)."""
    acted: bool | None = None
    """Whether the seat used a night skill that night, when the result says (a watch)."""


class Claims(_Action):
    """The structured part of a speech, which makes deception measurable."""

    role: Role | None = None
    """The role the speaker claims to be, if any."""
    checks: tuple[CheckClaim, ...] = ()
    """Check results the speaker claims (seer claims, or reports of them): one per seat
    (`checks_conflict`)."""
    suspects: tuple[SeatId, ...] = ()
    """Seats the speaker says are wolves."""
    trusts: tuple[SeatId, ...] = ()
    """Seats the speaker vouches for as good."""


class Speak(_Action):
    """Give a speech: campaign, day speech, PK or defence speech, or last words."""

    kind: Literal["speak"] = "speak"
    text: str
    claims: Claims = Claims()


class Pass(_Action):
    """Do nothing: abstain, skip the night action, don't run, stay, don't shoot."""

    kind: Literal["pass"] = "pass"


class RunForSheriff(_Action):
    """Stand for sheriff (上警)."""

    kind: Literal["run_for_sheriff"] = "run_for_sheriff"


class Withdraw(_Action):
    """Withdraw from the sheriff race (退水); a withdrawn candidate cannot vote."""

    kind: Literal["withdraw"] = "withdraw"


class Vote(_Action):
    """Vote for a seat: the sheriff candidate to elect or the player to exile."""

    kind: Literal["vote"] = "vote"
    target: SeatId


class ChooseOrder(_Action):
    """The sheriff chooses the direction of the day's speeches (警左/警右)."""

    kind: Literal["choose_order"] = "choose_order"
    direction: Direction
    start: SeatId | None = None
    """The first speaker, only where the rules let the sheriff pick it (000, peaceful night)."""


class RecommendExile(_Action):
    """The sheriff recommends whom to exile (歸票): one seat, or two for a PK."""

    kind: Literal["recommend_exile"] = "recommend_exile"
    targets: tuple[SeatId, ...] = Field(min_length=1, max_length=2)


class Shoot(_Action):
    """Take a seat on death (hunter's gun, wolf king's claw)."""

    kind: Literal["shoot"] = "shoot"
    target: SeatId


class PassBadge(_Action):
    """Hand the sheriff's badge to a living seat (移交警徽)."""

    kind: Literal["pass_badge"] = "pass_badge"
    target: SeatId


class TearBadge(_Action):
    """Tear the badge up: no sheriff for the rest of the game (撕毀警徽)."""

    kind: Literal["tear_badge"] = "tear_badge"


class SelfExplode(_Action):
    """A wolf reveals himself and dies at once, ending the day's speeches (自爆)."""

    kind: Literal["self_explode"] = "self_explode"
    target: SeatId | None = None
    """The seat a white wolf king takes with him; other wolves leave it empty."""


class Protect(_Action):
    """The guard protects a seat from tonight's knife."""

    kind: Literal["protect"] = "protect"
    target: SeatId


class Whisper(_Action):
    """A line of the wolves' private night talk."""

    kind: Literal["whisper"] = "whisper"
    text: str


class Kill(_Action):
    """A wolf nominates tonight's knife target (self-knife allowed where the rules say)."""

    kind: Literal["kill"] = "kill"
    target: SeatId


class Save(_Action):
    """The witch uses her antidote on tonight's knife target."""

    kind: Literal["save"] = "save"


class Poison(_Action):
    """The witch poisons a seat."""

    kind: Literal["poison"] = "poison"
    target: SeatId


class Charm(_Action):
    """The wolf beauty charms a seat: if she dies, it dies with her (魅惑)."""

    kind: Literal["charm"] = "charm"
    target: SeatId


class Dream(_Action):
    """The dreamweaver chooses tonight's dreamer (攝夢): immune tonight, linked to him."""

    kind: Literal["dream"] = "dream"
    target: SeatId


class Fear(_Action):
    """The nightmare fears a seat: its ability fails tonight (恐懼)."""

    kind: Literal["fear"] = "fear"
    target: SeatId


class Duel(_Action):
    """The knight flips his card and duels a seat (決鬥): a wolf dies, else the knight."""

    kind: Literal["duel"] = "duel"
    target: SeatId


class Hunt(_Action):
    """The demon hunter hunts a seat (獵殺, from night 2): a wolf dies, else he does."""

    kind: Literal["hunt"] = "hunt"
    target: SeatId


class Block(_Action):
    """The eclipse wolf consort blocks a seat: its ability fails tonight (封鎖; once a game)."""

    kind: Literal["block"] = "block"
    target: SeatId


class Mask(_Action):
    """The phantom masks a wolf: a seer's check of it tonight shows good (000:24 掩碼)."""

    kind: Literal["mask"] = "mask"
    target: SeatId


class TakeCard(_Action):
    """The thief takes one of the bottom cards shown to him: it becomes his role (盜賊)."""

    kind: Literal["take_card"] = "take_card"
    target: int
    """Which bottom card: 1 or 2, in the order he was shown them (not a seat)."""


class Reveal(_Action):
    """The exiled prince flips his card: one more speech, then the vote is run again."""

    kind: Literal["reveal"] = "reveal"


class Swap(_Action):
    """The magician swaps two seats' numbers for tonight (交換號碼牌).

    Every night action aimed at one of them lands on the other (docs/roles.md).
    """

    kind: Literal["swap"] = "swap"
    targets: tuple[SeatId, ...] = Field(min_length=2, max_length=2)
    """The two seats, different ones."""


class Mist(_Action):
    """The alchemist witch lays her mist (未明之霧; once a game) on three seats.

    Tonight the wolves may knife only one of them.
    """

    kind: Literal["mist"] = "mist"
    targets: tuple[SeatId, ...] = Field(min_length=3, max_length=3)


class Trade(_Action):
    """The miracle merchant's one trade: `target` becomes the lucky one with `gift`.

    A wolf-side target makes the trade fail, and the merchant dies that night.
    """

    kind: Literal["trade"] = "trade"
    target: SeatId
    gift: Gift


class Admire(_Action):
    """The secret admirer's love, chosen on night 1: she plays for its side (暗戀)."""

    kind: Literal["admire"] = "admire"
    target: SeatId


class Confuse(_Action):
    """The fox cub confuses a seat (子狐迷惑; once a game, from night 2)."""

    kind: Literal["confuse"] = "confuse"
    target: SeatId


class Link(_Action):
    """Cupid ties two seats as lovers (000:22 指定兩人繫紅線), himself allowed (004:3)."""

    kind: Literal["link"] = "link"
    targets: tuple[SeatId, ...] = Field(min_length=2, max_length=2)
    """The two lovers, different seats."""


class Inspect(_Action):
    """The seer checks a seat: good or wolf."""

    kind: Literal["inspect"] = "inspect"
    target: SeatId


Action = Annotated[
    Speak
    | Pass
    | RunForSheriff
    | Withdraw
    | Vote
    | ChooseOrder
    | RecommendExile
    | Shoot
    | PassBadge
    | TearBadge
    | SelfExplode
    | Protect
    | Whisper
    | Kill
    | Save
    | Poison
    | Inspect
    | Charm
    | Dream
    | Duel
    | Fear
    | Hunt
    | Block
    | Reveal
    | Swap
    | Mist
    | Trade
    | Admire
    | Confuse
    | Mask
    | TakeCard
    | Link,
    Field(discriminator="kind"),
]
ACTION_ADAPTER: TypeAdapter[Action] = TypeAdapter(Action)


def parse_action(raw: str | bytes | dict[str, object]) -> Action:
    """Parse an action from JSON text or a plain dict.

    Raises:
        InvalidActionError: not JSON, an unknown `kind`, or wrong fields; the message
            names the first problem.
    """
    try:
        if isinstance(raw, dict):
            return ACTION_ADAPTER.validate_python(raw)
        return ACTION_ADAPTER.validate_json(raw)
    except ValidationError as exc:
        raise InvalidActionError(f"malformed action: {one_line(exc, default='action')}") from None


ActionKind = Literal[
    "speak",
    "pass",
    "run_for_sheriff",
    "withdraw",
    "vote",
    "choose_order",
    "recommend_exile",
    "shoot",
    "pass_badge",
    "tear_badge",
    "self_explode",
    "protect",
    "whisper",
    "kill",
    "save",
    "poison",
    "inspect",
    "charm",
    "dream",
    "duel",
    "fear",
    "hunt",
    "block",
    "mask",
    "take_card",
    "reveal",
    "swap",
    "mist",
    "trade",
    "admire",
    "confuse",
    "link",
]

PLAIN_ACTIONS: dict[str, Action] = {
    "pass": Pass(),
    "run_for_sheriff": RunForSheriff(),
    "withdraw": Withdraw(),
    "tear_badge": TearBadge(),
    "save": Save(),
    "reveal": Reveal(),
}
"""The actions that take nothing but their kind, one shared instance each (they are frozen)."""


def action_models() -> dict[str, type[BaseModel]]:
    """Every action model by its `kind`, in the `Action` union's order."""
    return {
        str(model.model_fields["kind"].default): model for model in get_args(get_args(Action)[0])
    }


def _is_seat_action(model: type[BaseModel]) -> bool:
    fields = model.model_fields
    one_target = set(fields) == {"kind", "target"} and fields["target"].is_required()
    return one_target and model is not TakeCard


SEAT_ACTIONS: tuple[ActionKind, ...] = tuple(
    kind for kind in get_args(ActionKind) if _is_seat_action(action_models()[kind])
)
"""The actions aimed at exactly one seat, `to_seat_action` builds them: a required `target`
and no other field (`TakeCard`'s target is a bottom card, not a seat). In `ActionKind`
order, which the RL codec's index blocks follow; derived from the models, so a new
one-seat action joins without a second list to keep."""


def to_seat_action(kind: ActionKind, target: SeatId) -> Action:
    """The `kind` action (one of `SEAT_ACTIONS`) aimed at `target`.

    Raises:
        InvalidActionError: `kind` takes more or other than one seat.
    """
    if kind not in SEAT_ACTIONS:
        raise InvalidActionError(f"{kind} is not aimed at one seat")
    return ACTION_ADAPTER.validate_python({"kind": kind, "target": target})
