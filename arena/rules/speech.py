"""Rounds of speeches, and the self-explosion windows between them.

003 发言规则 (4): a wolf may self-explode during anyone's speech, and every speech stops at
once. The referee models this with a window after each speech, in which every wolf who
may explode is asked (most agents pass at once), and with the speaker's own turn, which
offers `self_explode` instead of speaking. Several wolves exploding together: the lowest
seat goes first, the others may try again another day (001 備註 4).
"""

from __future__ import annotations

from collections.abc import Iterable

from arena.rules.actions import Duel, Pass, SelfExplode, Speak
from arena.rules.config import ExplodePhase
from arena.rules.deaths import can_take, duel, explode
from arena.rules.decisions import ActionOption, DecisionKind, DecisionRequest
from arena.rules.roles import is_wolf, spec
from arena.rules.table import Answers, Flow, Table
from arena.rules.types import Role, SeatId, SpeechContext


def speech_limit(t: Table, context: SpeechContext) -> int:
    """The character limit of a speech (the seeds' seconds, as text)."""
    if context in ("sheriff", "sheriff_pk"):
        return t.rules.sheriff_speech_chars
    if context == "last_words":
        return t.rules.last_words_chars
    return t.rules.speech_chars


def duel_option(t: Table, seat: SeatId, context: SpeechContext) -> ActionOption | None:
    """The knight's `duel` option: once, in the day's speeches only (001:621 放逐投票發言環節).

    Not in PK or defence speeches: those come after the vote has begun (docs/roles.md).
    """
    if context != "day" or t.role(seat) is not Role.KNIGHT:
        return None
    if not t.state.is_present(seat) or seat in t.state.duelled:
        return None
    targets = tuple(s for s in t.state.present() if s != seat)
    return ActionOption(action="duel", targets=targets, target_required=True)


def explosion_option(t: Table, seat: SeatId, phase: ExplodePhase) -> ActionOption | None:
    """The `self_explode` option for `seat` in `phase`, or None if it may not explode."""
    role = t.role(seat)
    if phase not in t.rules.explode_phases or not is_wolf(role) or not t.state.is_present(seat):
        return None
    if spec(role).lone:  # 001:2337 石像鬼…不能自曝
        return None
    if not spec(role).explode_take:
        allowed = t.rules.ordinary_wolves_explode or spec(role).explode_seals
        return ActionOption(action="self_explode") if allowed else None
    if not can_take(t, seat):
        return ActionOption(action="self_explode")
    targets = tuple(s for s in t.state.present() if s != seat)
    return ActionOption(action="self_explode", targets=targets)


def interrupt_requests(
    t: Table,
    phase: ExplodePhase,
    exclude: Iterable[SeatId] = (),
    context: SpeechContext | None = None,
) -> list[DecisionRequest]:
    """An interruption window: one request per wolf who may explode and knight who may duel."""
    skip = set(exclude)
    requests = []
    for seat in t.state.present():
        if seat in skip:
            continue
        option = explosion_option(t, seat, phase)
        if option is None and context is not None:
            option = duel_option(t, seat, context)
        if option is not None:
            options = (ActionOption(action="pass"), option)
            requests.append(t.request(seat, DecisionKind.INTERRUPT, options, Pass()))
    return requests


def speeches(
    t: Table, order: tuple[SeatId, ...], context: SpeechContext, phase: ExplodePhase
) -> Flow[bool]:
    """Each seat of `order` speaks in turn. Returns True if a self-explosion stopped them.

    Raises:
        GameOver: an explosion ended the game.
    """
    for seat in order:
        if not t.state.is_present(seat):
            continue
        options = [ActionOption(action="speak", max_chars=speech_limit(t, context))]
        skill = explosion_option(t, seat, phase) or duel_option(t, seat, context)
        if skill is not None:
            options.append(skill)
        request = t.request(seat, DecisionKind.SPEECH, options, Speak(text=""), context)
        answer = yield from t.ask_one(request)
        if isinstance(answer, SelfExplode):
            yield from explode(t, seat, answer)
            return True
        if isinstance(answer, Duel):
            if (yield from duel(t, seat, answer)):
                return True
            continue
        if isinstance(answer, Speak):
            t.speak(seat, answer, context)
        answers = yield from t.ask(interrupt_requests(t, phase, context=context))
        if (yield from first_explosion(t, answers)):
            return True
    return False


def first_explosion(t: Table, answers: Answers) -> Flow[bool]:
    """Carry out the lowest seat's interruption among `answers`; True if it ended the day.

    An explosion always ends the day; a knight's duel ends it when it hits a wolf. Only
    the lowest seat acts in one window (001 備註 4); the others may try in the next one.
    """
    acting = sorted(s for s, a in answers.items() if isinstance(a, SelfExplode | Duel))
    if not acting:
        return False
    action = answers[acting[0]]
    if isinstance(action, Duel):
        return (yield from duel(t, acting[0], action))
    assert isinstance(action, SelfExplode)
    yield from explode(t, acting[0], action)
    return True
