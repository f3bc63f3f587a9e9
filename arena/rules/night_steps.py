"""What each step of the night does: the rows of `arena.rules.night`'s table and their parts.

A step is a `Step` row: the role whose first living seat acts, the question asked in the
night's first batch (`ask`), and what the step does at its place in the board's order — write
that answer (`write`), ask its own question there (`turn`: it needs what the night chose
before it, such as the knife), or run whoever lives (`run`). The functions here adapt the
role's request and result in `night_checks` and `night_skills` to one `Night`, so a new
role is a row of the table and one or two small functions, not a branch of the loop.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from arena.rules import events as ev
from arena.rules.actions import Action, Admire, Dream, Inspect, Pass, Poison, Protect, Save, Swap
from arena.rules.boards import NightStep
from arena.rules.dawn import night_deaths
from arena.rules.deaths import may_shoot
from arena.rules.decisions import ActionOption, DecisionKind, DecisionRequest
from arena.rules.night_acts import Acts, first_living
from arena.rules.night_checks import (
    emit_autopsy,
    emit_check,
    emit_role_check,
    mask,
    read_grave,
    wolf_witch_request,
)
from arena.rules.night_skills import (
    charm,
    claw,
    confuse,
    consort_block,
    cupid,
    emit_heal,
    emit_hunt,
    emit_trade,
    fear,
    gargoyle_knife,
    lay_mist,
    lucky,
    snake,
    unseal,
)
from arena.rules.roles import is_wolf
from arena.rules.table import Answers, Flow, Table
from arena.rules.types import DeathCause, Role, SeatId
from arena.rules.visibility import to_seats


@dataclass
class Night:
    """One night in play: the table, the night's number and order, and what was chosen."""

    t: Table
    n: int
    order: tuple[NightStep, ...]
    acts: Acts
    seats: dict[NightStep, SeatId | None] = field(default_factory=dict)
    """Each seated step's actor, fixed once the steps asked alone are done (None: nobody
    alive holds the role)."""
    answers: Answers = field(default_factory=dict)
    """The first batch's answers (the wolves' own excluded)."""


Harm = Literal["poison", "death"]
"""What a step's answer can do to tonight's deaths: poison a seat, or add or remove a death
some other way (a knife, a check that kills, a protection, a charm, a failed trade)."""
Asker = Callable[[Table, SeatId], DecisionRequest | None]
Writer = Callable[[Night, SeatId, Action], None]
Turn = Callable[[Night, SeatId], Flow[None]]
Run = Callable[[Night], Flow[None]]


@dataclass(frozen=True, slots=True)
class Step:
    """One row of the night table: who acts at a step and what the step does."""

    role: Role | None = None
    """The role whose first living seat acts (None: the step finds its own seats)."""
    ask: Asker | None = None
    """The question asked in the night's first batch: it needs nothing from the night so far
    (None from it: nothing to ask tonight)."""
    write: Writer | None = None
    """Writes the first batch's answer at the step's place in the order."""
    turn: Turn | None = None
    """Asks or acts at the step's place, where the actor lives (after the wolves)."""
    run: Run | None = None
    """Acts at the step's place every night, whoever lives: it finds its own seat."""
    harm: Harm | None = None
    """What the step can do to tonight's deaths (`_status_told_after` waits for it)."""
    status: Role | None = None
    """A status step: the living seats of this role are told whether their skill would
    work if they died tonight (001 你的開槍狀態)."""
    heeds: Harm = "poison"
    """The harms that decide the status: `poison` only, or any `death` where a death can
    take the seat with a cause that forbids the skill (lovers, a dreamer, a charm)."""


def nothing_to_ask() -> Flow[None]:
    """A flow that asks nothing: a step that only writes, in a place the loop yields from."""
    yield from ()


def tie_lovers(night: Night) -> Flow[None]:
    """Cupid ties the lovers on night 1 only (000:22)."""
    if night.n == 1:
        yield from cupid(night.t)


def fear_a_seat(night: Night) -> Flow[None]:
    """The nightmare's fear (001:1665)."""
    night.acts.blocked = yield from fear(night.t)


def block_a_seat(night: Night) -> Flow[None]:
    """The eclipse wolf consort's block (001:1925)."""
    night.acts.consort_blocked = yield from consort_block(night.t)


def unseal_the_claw(night: Night) -> Flow[None]:
    """At nightfall, with fewer than 3 wolves alive, the raven claw joins the pack (001:123)."""
    unseal(night.t, night.n)
    yield from nothing_to_ask()


def lay_the_mist(night: Night) -> Flow[None]:
    """The alchemist witch's mist: the only seats tonight's knife may fall on (001:123)."""
    night.acts.mist = yield from lay_mist(night.t, night.n, night.acts)


def confuse_a_seat(night: Night) -> Flow[None]:
    """The fox cub's confusion (001:127)."""
    night.acts.confused = yield from confuse(night.t, night.acts)


def mask_a_wolf(night: Night) -> Flow[None]:
    """The phantom's mask, before the seer's check (000:17, 24)."""
    night.acts.masked = yield from mask(night.t, night.acts)


def write_admirer(night: Night, seat: SeatId, answer: Action) -> None:
    """The secret admirer's love, and its side, which becomes hers (001:115)."""
    if isinstance(answer, Admire):
        wolf_side = night.t.state.wolf_side(answer.target)
        chose = ev.AdmirerChose(
            visibility=to_seats(seat), seat=seat, target=answer.target, wolf_side=wolf_side
        )
        night.t.emit(chose)


def write_swap(night: Night, seat: SeatId, answer: Action) -> None:
    """The magician's swap of two seats' numbers for tonight (001:113)."""
    if isinstance(answer, Swap):
        first, second = answer.targets
        night.acts.swap = (first, second)
        swapped = ev.SeatsSwapped(visibility=to_seats(seat), seat=seat, target=first, other=second)
        night.t.emit(swapped)


def write_dream(night: Night, seat: SeatId, answer: Action) -> None:
    """The dreamweaver's dreamer (001:1667)."""
    if isinstance(answer, Dream):
        night.acts.dreamer = answer.target
        night.t.emit(ev.DreamerChosen(visibility=to_seats(seat), seat=seat, target=answer.target))


def write_guard(night: Night, seat: SeatId, answer: Action) -> None:
    """The guard's protection, or none (000:25)."""
    night.acts.protected = answer.target if isinstance(answer, Protect) else None
    protected = ev.GuardProtected(visibility=to_seats(seat), seat=seat, target=night.acts.protected)
    night.t.emit(protected)


def write_heal(night: Night, seat: SeatId, answer: Action) -> None:
    """The healer's protection (000:26)."""
    night.acts.healed = emit_heal(night.t, seat, answer)


def write_role_check(night: Night, seat: SeatId, answer: Action) -> None:
    """An exact-role check that kills nobody (the gargoyle's, 001:125)."""
    emit_role_check(night.t, seat, answer)


def write_maiden(night: Night, seat: SeatId, answer: Action) -> None:
    """The pure-white maiden's check; from night 2 a wolf she checks dies (001:2113)."""
    target = emit_role_check(night.t, seat, answer)
    if night.n >= 2 and target is not None and is_wolf(night.t.role(target)):
        night.acts.check_kills.append(target)


def write_seer(night: Night, seat: SeatId, answer: Action) -> None:
    """The seer's check (000:28); the seat checked in truth answers the evil knight."""
    night.acts.checked = emit_check(night.t, seat, answer, night.acts)


def write_hunt(night: Night, seat: SeatId, answer: Action) -> None:
    """The demon hunter's hunt, from night 2 (001:1589-1591)."""
    night.acts.hunted = emit_hunt(night.t, seat, answer)


def write_trade(night: Night, seat: SeatId, answer: Action) -> None:
    """The miracle merchant's trade (001:117)."""
    emit_trade(night.t, seat, answer, night.acts)


def write_watch(night: Night, seat: SeatId, answer: Action) -> None:
    """The seat the watchman watches; he is told at dawn (000:29)."""
    night.acts.watched = answer.target if isinstance(answer, Inspect) else None


def write_autopsy(night: Night, seat: SeatId, answer: Action) -> None:
    """The coroner's autopsy (000:30)."""
    emit_autopsy(night.t, seat, answer)


def knife_as_gargoyle(night: Night, seat: SeatId) -> Flow[None]:
    """The gargoyle's knife status and strike, once every other wolf is dead (001:2337)."""
    night.acts.knife = yield from gargoyle_knife(night.t, night.n, seat, night.acts.knife)


def strike_as_claw(night: Night, seat: SeatId) -> Flow[None]:
    """The raven claw's own strike, after the knife (001:123)."""
    night.acts.clawed = yield from claw(night.t, seat)


def save_with_snake(night: Night, seat: SeatId) -> Flow[None]:
    """The alchemist witch's second step: she sees the knife and may save it (001:123)."""
    night.acts.saved = (yield from snake(night.t, seat, night.acts.knife)) or night.acts.saved


def charm_a_seat(night: Night, seat: SeatId) -> Flow[None]:
    """The wolf beauty's charm after her team (001:101); a confused beauty charms nobody."""
    if seat == night.acts.confused:
        night.t.emit(ev.SkillBlocked(visibility=to_seats(seat), seat=seat))  # 子狐迷惑
        return
    yield from charm(night.t, seat)


def check_as_wolf_witch(night: Night, seat: SeatId) -> Flow[None]:
    """The wolf witch's check after the maiden's; from night 2 it kills the maiden (001:2115)."""
    answer = yield from night.t.ask_one(wolf_witch_request(night.t, seat))
    target = emit_role_check(night.t, seat, answer)
    if night.n >= 2 and target is not None and night.t.role(target) is Role.PURE_WHITE_MAIDEN:
        night.acts.check_kills.append(target)


def read_the_grave(night: Night, seat: SeatId) -> Flow[None]:
    """The gravekeeper learns the side of the seat exiled the day before (001:125)."""
    read_grave(night.t, night.n, seat)
    yield from nothing_to_ask()


def witch_turn(night: Night) -> Flow[None]:
    """The witch's turn, after the knife; it sets (or clears) tonight's save and poison."""
    night.acts.saved, night.acts.poisoned = yield from _witch(night.t, night.n, night.acts.knife)


def lucky_turn(night: Night) -> Flow[None]:
    """The lucky one is told its gift, and may use it (001:117 奇跡商人——幸運兒)."""
    yield from lucky(night.t, night.acts)


def _witch(t: Table, n: int, knife: SeatId | None) -> Flow[tuple[bool, SeatId | None]]:
    """The witch's turn: she sees the knife while her antidote is unused (003 (3)).

    One potion a night; self-save per `witch_self_save`; poison any other living seat.
    """
    witch = first_living(t, Role.WITCH)
    if witch is None or (t.state.antidote_used and t.state.poison_used):
        return False, None
    options: list[ActionOption] = []
    if not t.state.antidote_used:
        t.emit(ev.KnifeShownToWitch(visibility=to_seats(witch), seat=witch, target=knife))
        rule = t.rules.witch_self_save
        self_ok = rule == "always" or (rule == "first_night" and n == 1)
        if knife is not None and (knife != witch or self_ok):
            options.append(ActionOption(action="save", targets=(knife,)))
    if not t.state.poison_used:
        targets = tuple(s for s in t.state.living() if s != witch)
        options.append(ActionOption(action="poison", targets=targets, target_required=True))
    options.append(ActionOption(action="pass"))
    answer = yield from t.ask_one(t.request(witch, DecisionKind.WITCH, options, Pass()))
    saved = knife if isinstance(answer, Save) else None
    poisoned = answer.target if isinstance(answer, Poison) else None
    t.emit(ev.WitchActed(visibility=to_seats(witch), seat=witch, saved=saved, poisoned=poisoned))
    return saved is not None, poisoned


def tell_status(night: Night, role: Role) -> None:
    """Thumb up or down (001 你的開槍狀態): could he use his skill if he died tonight.

    A hunter: not when tonight's cause would forbid the shot (poison, a dream death); a
    white wolf king: not when poisoned (001 白狼王守衛 備註 5).
    """
    t, acts = night.t, night.acts
    deaths = night_deaths(t, acts)
    for seat in t.state.seats_with(role):
        if t.state.is_alive(seat):
            cause = deaths.get(seat)
            feared = seat == acts.blocked and t.rules.fear_blocks_death_skill
            if role is Role.HUNTER:
                usable = not feared and (cause is None or may_shoot(role, cause, t.rules))
            else:
                usable = cause is not DeathCause.POISON
            t.emit(ev.SkillStatusTold(visibility=to_seats(seat), seat=seat, usable=usable))
