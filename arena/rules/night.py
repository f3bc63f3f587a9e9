"""The night: guard, wolves, witch, seer and the skill-status calls, then the dawn.

Decisions that do not depend on each other are asked together: the guard, the seer and
the wolves' first round go out as one batch; only the witch waits for the knife. Events
are still written in the board's night order (001 §二(一); 000 夜晚的行動順序).

Resolution (000 夜間結算細節, 003 规则盲点): the guard blocks the knife, not poison; guard
and antidote on one seat follow `guard_and_save`; the witch uses one potion a night; the
knife-first rule (003 (6)) ends the game before the poison lands.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from arena.rules import events as ev
from arena.rules.actions import Inspect, Kill, Pass, Poison, Protect, Save, Whisper
from arena.rules.decisions import ActionOption, DecisionKind, DecisionRequest
from arena.rules.roles import is_wolf
from arena.rules.table import Answers, Flow, Table
from arena.rules.types import DeathCause, Phase, Role, SeatId, Winner
from arena.rules.visibility import PUBLIC, ToTeam, to_seats
from arena.rules.win import winner


def night(t: Table, n: int) -> Flow[None]:
    """Play night `n` and record its deaths (announced the next morning).

    Raises:
        GameOver: the night's deaths ended the game.
    """
    t.emit(ev.PhaseStarted(visibility=PUBLIC, phase=Phase.NIGHT, day=n))
    guard = _first_living(t, Role.GUARD) if "guard" in t.board.night_order else None
    seer = _first_living(t, Role.SEER) if "seer" in t.board.night_order else None
    wolves = knife_party(t, n)
    first: list[DecisionRequest] = []
    if guard is not None:
        first.append(_guard_request(t, guard))
    if seer is not None:
        first.append(_seer_request(t, seer))
    guarded: list[SeatId | None] = []
    answers, knife = yield from _wolf_phase(
        t, wolves, first, lambda a: guarded.append(_emit_guard(t, guard, a))
    )
    protected = guarded[0] if guarded else None
    witch_save, poisoned = False, None
    for step in t.board.night_order:
        if step == "witch":
            witch_save, poisoned = yield from _witch(t, n, knife)
        elif step == "seer" and seer is not None:
            target = answers[seer]
            if isinstance(target, Inspect):
                t.emit(
                    ev.SeerChecked(
                        visibility=to_seats(seer),
                        seat=seer,
                        target=target.target,
                        is_wolf=is_wolf(t.role(target.target)),
                    )
                )
        elif step in ("hunter_status", "white_wolf_king_status"):
            role = Role.HUNTER if step == "hunter_status" else Role.WHITE_WOLF_KING
            for seat in t.state.seats_with(role):
                if t.state.is_alive(seat):
                    t.emit(
                        ev.SkillStatusTold(
                            visibility=to_seats(seat), seat=seat, usable=seat != poisoned
                        )
                    )
    _resolve(t, n, knife, protected, witch_save, poisoned)


def knife_party(t: Table, n: int) -> tuple[SeatId, ...]:
    """Wolves who choose tonight's knife.

    The living wolves, plus a wolf who exploded the day before where
    `exploded_wolf_joins_knife` (001 自爆狼參與夜間指刀).
    """
    party = set(t.state.wolves())
    if t.rules.exploded_wolf_joins_knife:
        party |= {s for s, day in t.state.exploded.items() if day == n - 1}
    return tuple(sorted(party))


def _first_living(t: Table, role: Role) -> SeatId | None:
    return next((s for s in t.state.seats_with(role) if t.state.is_alive(s)), None)


def _guard_request(t: Table, guard: SeatId) -> DecisionRequest:
    targets = tuple(s for s in t.state.living() if s != t.state.last_guarded)
    options = (
        ActionOption(action="protect", targets=targets, target_required=True),
        ActionOption(action="pass"),
    )
    return t.request(guard, DecisionKind.GUARD, options, Pass())


def _seer_request(t: Table, seer: SeatId) -> DecisionRequest:
    targets = tuple(s for s in t.state.living() if s != seer)
    options = (ActionOption(action="inspect", targets=targets, target_required=True),)
    return t.request(seer, DecisionKind.SEER, options, Inspect(target=targets[0]))


def _emit_guard(t: Table, guard: SeatId | None, answers: Answers) -> SeatId | None:
    if guard is None:
        return None
    answer = answers[guard]
    target = answer.target if isinstance(answer, Protect) else None
    t.emit(ev.GuardProtected(visibility=to_seats(guard), seat=guard, target=target))
    return target


def _wolf_phase(
    t: Table,
    wolves: tuple[SeatId, ...],
    others: list[DecisionRequest],
    before_wolves: Callable[[Answers], None],
) -> Flow[tuple[Answers, SeatId | None]]:
    """Wolf talk rounds, then nomination rounds; `others` ride along in the first batch.

    `before_wolves` receives the first batch's answers before any wolf event is written
    (the guard acts first in the night order). Returns the answers of `others` and the
    knife (None: an empty knife). Wolves see each
    round's nominations before the next, so unanimity can be reached (001: 狼人請統一意見;
    no agreement in time is an empty knife).
    """
    collected: Answers = {}
    pending = list(others)
    channel = t.wolf_channel(wolves)
    for round_ in range(1, t.rules.wolf_talk_rounds + 1):
        options = (
            ActionOption(action="whisper", max_chars=t.rules.last_words_chars),
            ActionOption(action="pass"),
        )
        talk = [t.request(w, DecisionKind.WOLF_TALK, options, Pass()) for w in wolves]
        answers = yield from t.ask([*pending, *talk])
        if pending:
            before_wolves(answers)
        collected |= {seat: a for seat, a in answers.items() if seat not in wolves}
        pending = []
        for seat in wolves:
            said = answers[seat]
            if isinstance(said, Whisper) and said.text.strip():
                t.emit(
                    ev.WolfWhispered(visibility=channel, seat=seat, text=said.text, round=round_)
                )
    rounds = t.rules.knife_rounds if t.rules.knife_decision == "unanimous" else 1
    nominations: dict[SeatId, SeatId | None] = {}
    for round_ in range(1, rounds + 1):
        requests = [_knife_request(t, w) for w in wolves]
        answers = yield from t.ask([*pending, *requests])
        if pending:
            before_wolves(answers)
        collected |= {seat: a for seat, a in answers.items() if seat not in wolves}
        pending = []
        nominations = {}
        for seat in wolves:
            answer = answers[seat]
            nominations[seat] = answer.target if isinstance(answer, Kill) else None
            t.emit(
                ev.KnifeNominated(
                    visibility=channel, seat=seat, target=nominations[seat], round=round_
                )
            )
        if t.rules.knife_decision == "unanimous" and len(set(nominations.values())) == 1:
            target = next(iter(nominations.values()))
            t.emit(
                ev.KnifeChosen(
                    visibility=channel, target=target, how="unanimous" if target else "empty"
                )
            )
            return collected, target
    if t.rules.knife_decision == "unanimous" and t.rules.knife_no_agreement == "empty":
        t.emit(ev.KnifeChosen(visibility=channel, target=None, how="empty"))
        return collected, None
    return collected, _plurality_knife(t, nominations, channel)


def _knife_request(t: Table, wolf: SeatId) -> DecisionRequest:
    targets = tuple(s for s in t.state.living() if t.rules.wolf_may_nominate_self or s != wolf)
    options = [ActionOption(action="kill", targets=targets, target_required=True)]
    if t.rules.wolves_may_skip:
        options.append(ActionOption(action="pass"))
    return t.request(wolf, DecisionKind.KNIFE, options, Pass())


def _plurality_knife(
    t: Table, nominations: dict[SeatId, SeatId | None], channel: ToTeam
) -> SeatId | None:
    counts = Counter(target for target in nominations.values() if target is not None)
    if not counts:
        t.emit(ev.KnifeChosen(visibility=channel, target=None, how="empty"))
        return None
    top = max(counts.values())
    tied = tuple(sorted(seat for seat, n in counts.items() if n == top))
    if len(tied) == 1:
        t.emit(ev.KnifeChosen(visibility=channel, target=tied[0], how="plurality"))
        return tied[0]
    chosen = t.draw.pick(tied)
    t.emit(ev.TieBroken(visibility=channel, purpose="knife", among=tied, chosen=(chosen,)))
    t.emit(ev.KnifeChosen(visibility=channel, target=chosen, how="lots"))
    return chosen


def _witch(t: Table, n: int, knife: SeatId | None) -> Flow[tuple[bool, SeatId | None]]:
    """The witch's turn: she sees the knife while her antidote is unused (003 (3)).

    One potion a night; self-save per `witch_self_save`; poison any other living seat.
    """
    witch = _first_living(t, Role.WITCH)
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


def _resolve(
    t: Table,
    n: int,
    knife: SeatId | None,
    protected: SeatId | None,
    saved: bool,
    poisoned: SeatId | None,
) -> None:
    """Apply the night's deaths; the table hears of them in the morning."""
    knifed = None
    if knife is not None:
        guarded = protected == knife
        both = guarded and saved
        dies = t.rules.guard_and_save == "dies" if both else not (guarded or saved)
        knifed = knife if dies else None
    if knifed is not None and t.rules.knife_first:
        if winner(t.state.roles, t.state.dead | {knifed}, t.rules) is Winner.WOLVES:
            t.die(knifed, DeathCause.KNIFE, at_night=True)
            t.end(Winner.WOLVES, "the knife landed first (狼刀在先)", announce=(knifed,))
    deaths: dict[SeatId, DeathCause] = {}
    if knifed is not None:
        deaths[knifed] = DeathCause.KNIFE
    if poisoned is not None:
        deaths[poisoned] = DeathCause.POISON  # poison silences the hunter even if also knifed
    for seat in sorted(deaths):
        t.die(seat, deaths[seat], at_night=True)
    t.check_win(announce=sorted(deaths))
