"""Decision requests: the referee asks a seat to choose among explicitly legal options.

A `DecisionRequest` names the seat, the kind of decision and each legal action with its
legal targets. Agents' tool schemas are generated from it, so a well-formed answer is
almost always legal; `check_legal` is the one place that validates an answer.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from arena.rules.actions import (
    Action,
    ActionKind,
    ChooseOrder,
    Link,
    Mist,
    RecommendExile,
    SelfExplode,
    Speak,
    Swap,
    Whisper,
    claim_contradiction,
)
from arena.rules.errors import IllegalActionError
from arena.rules.types import SeatId, SpeechContext


class DecisionKind(StrEnum):
    """What a seat is being asked to decide."""

    RUN_FOR_SHERIFF = "run_for_sheriff"
    WITHDRAW = "withdraw"
    SHERIFF_VOTE = "sheriff_vote"
    SPEECH = "speech"
    INTERRUPT = "interrupt"
    """A window after a speech in which any eligible wolf may self-explode (and a knight
    who has not yet duelled may duel)."""
    SPEECH_ORDER = "speech_order"
    RECOMMEND = "recommend"
    VOTE = "vote"
    SHOOT = "shoot"
    BADGE = "badge"
    GUARD = "guard"
    WOLF_TALK = "wolf_talk"
    KNIFE = "knife"
    WITCH = "witch"
    SEER = "seer"
    CHARM = "charm"
    DREAM = "dream"
    FEAR = "fear"
    HUNT = "hunt"
    IDENTIFY = "identify"
    """An exact-role check (gargoyle, pure-white maiden, wolf witch): the seat's card."""
    BLOCK = "block"
    PRINCE = "prince"
    """The exiled prince: flip and speak once more before the vote is re-run, or pass."""
    SWAP = "swap"
    """The magician: swap two seats' numbers for tonight, or pass."""
    MIST = "mist"
    """The alchemist witch's mist (未明之霧, once a game): three seats the knife must hit."""
    SNAKE = "snake"
    """The alchemist witch's snake (法老之蛇, once a game): save tonight's knife target."""
    CLAW = "claw"
    """The unsealed raven claw's one strike (狼鴉之爪): a seat no protection saves."""
    TRADE = "trade"
    """The miracle merchant: make a seat the lucky one with a gift (once a game), or pass."""
    LUCKY = "lucky"
    """The lucky one: use the gift (a check, a poison or a shield) once, or keep it."""
    ADMIRE = "admire"
    """The secret admirer, night 1: choose the seat she loves (mandatory)."""
    CONFUSE = "confuse"
    """The fox cub's one confusion (子狐, from night 2): a wolf confused stops the knife."""
    PUFFER = "puffer"
    """The pufferfish after the vote (河豚之怒, once a game): flip and take its voters."""
    MASK = "mask"
    """The phantom: mask a wolf from tonight's seer check (000:24), or pass."""
    HEAL = "heal"
    """The healer: protect another seat from tonight's knife (limited, 000:26), or pass."""
    WATCH = "watch"
    """The watchman: watch a seat, told at dawn whether it acted in the night (000:29)."""
    THIEF = "thief"
    """The thief, night 1: take one of the bottom cards shown to him (004 盗贼)."""
    AUTOPSY = "autopsy"
    """The coroner: examine a dead seat's body for its exact role (limited, 000:30), or pass."""
    CUPID = "cupid"
    """Cupid, on night 1 only: tie two seats as lovers (no pass, 000:22)."""


class ActionOption(BaseModel):
    """One legal action of a request and, where it takes a seat, the legal seats."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    action: ActionKind
    targets: tuple[SeatId, ...] = ()
    """Legal seats for the action's `target` (or `targets`, or a chosen `start`)."""
    target_required: bool = False
    """Whether the seat must be given: `target` (a white wolf king may explode without
    taking), or a sheriff's `start` (where the rules let him pick it, it is the choice)."""
    max_chars: int | None = None
    """Length limit of the action's text."""


def pick_or_pass(action: ActionKind, targets: tuple[SeatId, ...]) -> tuple[ActionOption, ...]:
    """The options of a skill aimed at seats that may go unused tonight: choose, or pass.

    Choosing the action names its seat (`target_required`); passing is always legal.
    """
    return (
        ActionOption(action=action, targets=targets, target_required=True),
        ActionOption(action="pass"),
    )


class DecisionRequest(BaseModel):
    """The referee asking one seat for one decision."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    step: int
    """Index of the batch of simultaneous requests this belongs to (0, 1, 2, …)."""
    seat: SeatId
    kind: DecisionKind
    day: int
    """The day (or night) number the decision belongs to."""
    night: bool
    options: tuple[ActionOption, ...]
    default: Action
    """The passive answer applied when the seat gives no valid one (see docs/scenarios.md)."""
    context: SpeechContext | None = None
    """For speeches: which speech this is."""

    def option(self, action: ActionKind) -> ActionOption | None:
        """The option for `action`, or None when that action is not legal here."""
        return next((o for o in self.options if o.action == action), None)

    @property
    def phase_label(self) -> str:
        """`night N` or `day N`, the key scenarios use."""
        return f"{'night' if self.night else 'day'} {self.day}"


def check_legal(request: DecisionRequest, action: Action) -> None:
    """Check `action` against the request's legal options, and a speech's claims.

    Raises:
        IllegalActionError: the action kind is not offered, a seat is not a legal
            target, a text is too long, or a speech's claims contradict themselves
            (`claim_contradiction`). The message says what is legal.
    """
    check_options(request, action)
    if isinstance(action, Speak):
        wrong = claim_contradiction(request.seat, action.claims)
        if wrong is not None:
            raise IllegalActionError(f"speech refused: its {wrong}")


def check_options(request: DecisionRequest, action: Action) -> None:
    """Check `action` against the request's legal options only (not a speech's claims).

    A recorded answer is re-run with this check (`Referee.submit(recorded=True)`): the
    claims never change what the referee does, and a file written before claims were
    checked stays verifiable.

    Raises:
        IllegalActionError: the action kind is not offered, a seat is not a legal
            target, or a text is too long. The message lists what is legal.
    """
    option = request.option(action.kind)
    if option is None:
        legal = ", ".join(o.action for o in request.options)
        raise IllegalActionError(
            f"seat {request.seat} cannot {action.kind} now ({request.kind}); legal: {legal}"
        )
    for seat in _targets_of(action):
        if seat not in option.targets:
            raise IllegalActionError(
                f"seat {seat} is not a legal target for {action.kind}; legal seats: "
                f"{', '.join(map(str, option.targets)) or 'none'}"
            )
    if isinstance(action, SelfExplode) and option.target_required and action.target is None:
        raise IllegalActionError("self_explode needs a target seat to take")
    if isinstance(action, ChooseOrder) and action.start is None and option.target_required:
        raise IllegalActionError("choose_order needs a start seat after a peaceful night")
    text = action.text if isinstance(action, Speak | Whisper) else None
    if text is not None and option.max_chars is not None and len(text) > option.max_chars:
        raise IllegalActionError(
            f"{action.kind} text is {len(text)} characters; the limit is {option.max_chars}"
        )


def _targets_of(action: Action) -> tuple[SeatId, ...]:
    if isinstance(action, RecommendExile | Mist):
        if len(set(action.targets)) != len(action.targets):
            raise IllegalActionError(f"{action.kind} names the same seat twice")
        return action.targets
    if isinstance(action, ChooseOrder):
        return () if action.start is None else (action.start,)
    if isinstance(action, Swap | Link):
        if len(set(action.targets)) != len(action.targets):
            raise IllegalActionError(f"{action.kind} needs two different seats")
        return action.targets
    target = getattr(action, "target", None)
    return () if target is None else (target,)
