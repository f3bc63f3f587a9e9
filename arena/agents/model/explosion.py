"""The self-explosion, a standing choice of its own, asked after the seat's speech.

The referee offers a wolf's speech turn `speak` and `self_explode` side by side, and the
shorter of the two answers is the irreversible one: in small SmolLM2-against-Qwen
tournaments every day ended when the first model wolf to speak answered
`{"action": "self_explode", "target": null}` (issue 30). The arena's framing must not
steer a model into an act it cannot take back, so a model seat is asked its speech alone
(`as_asked`: the speech turn without `self_explode`, in the question, the schema of legal
answers and the check of its answer), and the explosion is a question of its own in the
window right after the seat's own speech, where the referee asks every wolf who may
explode, the speaker too (`asks_window`), with `pass` listed first. The Play page offers
it the same way: the speech form, and the window's explosion as a standing offer apart
from it. Every other window is passed without a call unless the seat is asked in all of
them (`LLMAgent.explosion_windows`).
"""

from __future__ import annotations

from arena.rules import events as ev
from arena.rules.actions import Action, ActionKind
from arena.rules.decisions import DecisionKind, DecisionRequest
from arena.rules.observation import Observation

EXPLODE: ActionKind = "self_explode"


def as_asked(request: DecisionRequest) -> DecisionRequest:
    """`request` as a model seat is asked it: a speech turn without `self_explode`.

    The referee still holds the request it made; only the seat's question is narrower,
    so its answer is always legal there.
    """
    if request.kind is not DecisionKind.SPEECH or request.option(EXPLODE) is None:
        return request
    options = tuple(o for o in request.options if o.action != EXPLODE)
    return request.model_copy(update={"options": options})


def asks_window(view: Observation, request: DecisionRequest, *, every: bool) -> bool:
    """Whether a model seat is asked `request` rather than passing it without a call.

    Every request but a window is asked. A window is asked in every one with `every`,
    else only the window right after the seat's own speech that offers it the explosion:
    the standing choice its speech turn no longer lists.
    """
    if request.kind is not DecisionKind.INTERRUPT or every:
        return True
    if request.option(EXPLODE) is None or not view.seen:
        return False
    last = view.seen[-1].event
    return isinstance(last, ev.Spoke) and last.seat == request.seat


def is_offered(action: Action | None, request: DecisionRequest) -> bool:
    """Whether `action` answers `request` as the seat was asked it (`as_asked`).

    Only the explosion its speech turn no longer lists is refused here; any other answer
    goes to the referee, which says what is wrong with it.
    """
    if action is None:
        return False
    return action.kind != EXPLODE or request.option(EXPLODE) is not None
