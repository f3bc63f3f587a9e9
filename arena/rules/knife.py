"""The wolves' knife: talk rounds, nominations, and how the knife is settled.

001 狼人請統一意見: the wolves' nominations must agree (`knife_decision: unanimous`, within
`knife_rounds`; no agreement in time is an empty knife, or lots where
`knife_no_agreement: lots`); 000 takes a plurality with a recorded random tie-break
(`TieBroken`), so a replay never re-rolls.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from arena.rules import events as ev
from arena.rules.actions import Kill, Pass, Whisper
from arena.rules.animals import pickable
from arena.rules.decisions import ActionOption, DecisionKind, DecisionRequest
from arena.rules.table import Answers, Flow, Table
from arena.rules.types import SeatId
from arena.rules.visibility import ToTeam


def wolf_phase(
    t: Table,
    wolves: tuple[SeatId, ...],
    others: list[DecisionRequest],
    before_wolves: Callable[[Answers], None],
    limit: tuple[SeatId, ...] | None = None,
) -> Flow[tuple[Answers, SeatId | None]]:
    """Wolf talk rounds, then nomination rounds; `others` ride along in the first batch.

    `before_wolves` receives the first batch's answers before any wolf event is written
    (the guard acts first in the night order). Returns the answers of `others` and the
    knife (None: an empty knife); `limit` is tonight's mist, the only seats it may hit.
    Wolves see each round's nominations before the next, so unanimity can be reached
    (001: 狼人請統一意見; no agreement in time is an empty knife).
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
        requests = [_knife_request(t, w, limit) for w in wolves]
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


def _knife_request(
    t: Table, wolf: SeatId, limit: tuple[SeatId, ...] | None = None
) -> DecisionRequest:
    """A wolf's nomination: a living seat (within tonight's mist, if one was laid).

    A wolf left no legal seat (a mist on himself alone, where he may not knife himself)
    can only pass.
    """
    targets = tuple(
        s
        for s in t.state.living()
        if (t.rules.wolf_may_nominate_self or s != wolf)
        and (limit is None or s in limit)
        and pickable(t, s)
    )
    options = [ActionOption(action="kill", targets=targets, target_required=True)]
    if not targets:
        options = []
    if t.rules.wolves_may_skip or not targets:
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
