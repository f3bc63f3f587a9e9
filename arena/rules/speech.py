"""Rounds of speeches, and the self-explosion windows between them.

003 发言规则 (4): a wolf may self-explode during anyone's speech, and every speech stops at
once. The referee models this with a window after each speech, in which every wolf who
may explode is asked (most agents pass at once), and with the speaker's own turn, which
offers `self_explode` instead of speaking. Several wolves exploding together: the lowest
seat goes first, the others may try again another day (001 備註 4).
"""

from __future__ import annotations

from collections.abc import Iterable

from arena.rules import events as ev
from arena.rules.actions import Pass, SelfExplode, Speak
from arena.rules.config import ExplodePhase
from arena.rules.deaths import can_take, explode
from arena.rules.decisions import ActionOption, DecisionKind, DecisionRequest
from arena.rules.roles import is_wolf, spec
from arena.rules.table import Answers, Flow, Table
from arena.rules.types import SeatId, SpeechContext
from arena.rules.visibility import PUBLIC


def speech_limit(t: Table, context: SpeechContext) -> int:
    """The character limit of a speech (the seeds' seconds, as text)."""
    if context in ("sheriff", "sheriff_pk"):
        return t.rules.sheriff_speech_chars
    if context == "last_words":
        return t.rules.last_words_chars
    return t.rules.speech_chars


def explosion_option(t: Table, seat: SeatId, phase: ExplodePhase) -> ActionOption | None:
    """The `self_explode` option for `seat` in `phase`, or None if it may not explode."""
    role = t.role(seat)
    if phase not in t.rules.explode_phases or not is_wolf(role) or not t.state.is_present(seat):
        return None
    if not spec(role).explode_take:
        return ActionOption(action="self_explode") if t.rules.ordinary_wolves_explode else None
    if not can_take(t, seat):
        return ActionOption(action="self_explode")
    targets = tuple(s for s in t.state.present() if s != seat)
    return ActionOption(action="self_explode", targets=targets)


def interrupt_requests(
    t: Table, phase: ExplodePhase, exclude: Iterable[SeatId] = ()
) -> list[DecisionRequest]:
    """An explosion window: one request per wolf who may explode now."""
    skip = set(exclude)
    requests = []
    for wolf in t.present_wolves():
        option = explosion_option(t, wolf, phase) if wolf not in skip else None
        if option is not None:
            options = (ActionOption(action="pass"), option)
            requests.append(t.request(wolf, DecisionKind.INTERRUPT, options, Pass()))
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
        explode_option = explosion_option(t, seat, phase)
        if explode_option is not None:
            options.append(explode_option)
        request = t.request(seat, DecisionKind.SPEECH, options, Speak(text=""), context)
        answer = yield from t.ask_one(request)
        if isinstance(answer, SelfExplode):
            yield from explode(t, seat, answer)
            return True
        if isinstance(answer, Speak):
            t.emit(
                ev.Spoke(
                    visibility=PUBLIC,
                    seat=seat,
                    text=answer.text,
                    claims=answer.claims,
                    context=context,
                )
            )
        answers = yield from t.ask(interrupt_requests(t, phase))
        if (yield from first_explosion(t, answers)):
            return True
    return False


def first_explosion(t: Table, answers: Answers) -> Flow[bool]:
    """Carry out the lowest seat's explosion among `answers`; True if there was one."""
    exploders = sorted(s for s, a in answers.items() if isinstance(a, SelfExplode))
    if not exploders:
        return False
    action = answers[exploders[0]]
    assert isinstance(action, SelfExplode)
    yield from explode(t, exploders[0], action)
    return True
