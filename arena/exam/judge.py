"""Judging a wolf's speech: how far it moved the table's suspicion, read at that moment.

A speech item's answer is put back into its game: the source game is re-run from the key
(`KeySource`) to the item's step, the contestant's speech is submitted for the speaker,
and the referee emits it as it would have. The judges are the good seats still at the
table, other than the speaker; each is a judge panel member's seat (by default the arena's
bot, whose belief model reads the structured claims, `arena.agents.bot.beliefs`; any seat
spec that reports beliefs may judge) and is asked its belief report twice, on its own
view just before the speech and just after it. The speech's score is the mean over judges
of the change in the speaker's wolf probability (`speaker`), and of the change in the
mean wolf probability of the wolf team's seats the judge reports on (`team`): lower is
more deceptive. Both views come from `observe` on the re-run log, so a judge knows exactly
what that seat knew.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from arena.agents.base import Believer
from arena.agents.traits import trait
from arena.exam.answers import ItemAnswer
from arena.exam.contestant import Contestant
from arena.exam.files import Exam, Key
from arena.exam.items import Item, KeyItem, KeySource
from arena.exam.judgments import Judgment, Verdicts, answer_hash, current
from arena.match import Limits, ask_belief, now
from arena.records import BeliefReport
from arena.rules import events as ev
from arena.rules.actions import Action, Speak
from arena.rules.errors import IllegalActionError
from arena.rules.observation import Observation, observe
from arena.rules.referee import Referee
from arena.rules.visibility import SeatViewer


class Shift(NamedTuple):
    """One judge's change of suspicion, averaged over its listeners."""

    speaker: float
    team: float
    listeners: int


class Scene(NamedTuple):
    """A speech put back into its game: every listener's view before and after it."""

    before: dict[int, Observation]
    after: dict[int, Observation]


def scene(item: Item, speech: Action, source: KeySource, truth: KeyItem) -> Scene | None:
    """The listeners' views around `speech`, or None if it is no speech (an explosion).

    Raises:
        IllegalActionError: the key's answers do not lead to the item's request (a key
            that is not this exam's, or was edited).
    """
    if not isinstance(speech, Speak):
        return None
    referee = Referee(source.config, source.seed, draw=source.draw)
    for answer in source.answers:
        if answer.step >= item.step:
            break
        referee.submit(answer.seat, answer.action, defaulted=answer.defaulted, recorded=True)
    request = referee.request_for(item.seat)
    if request is None or request.step != item.step or len(referee.events) != item.until:
        raise IllegalActionError(f"the key does not re-run to item {item.id}")
    listeners = [s for s in referee.state.present() if s != item.seat and s not in truth.wolves]
    before = {s: observe(referee.events, SeatViewer(seat=s)) for s in listeners}
    referee.submit(item.seat, speech)
    spoke = referee.events[item.until]
    assert isinstance(spoke, ev.Spoke) and spoke.seat == item.seat
    cut = item.until + 1
    after = {s: observe(referee.events, SeatViewer(seat=s), until=cut) for s in listeners}
    return Scene(before, after)


async def shift(
    judge: Contestant, item: Item, views: Scene, truth: KeyItem, exam_id: str, limits: Limits
) -> Shift | None:
    """One judge's mean change of suspicion over the listeners; None if none reported.

    Each question gets a fresh seat of the judge (its reading of the view before the speech
    never colours its reading after it).
    """
    speaker: list[float] = []
    team: list[float] = []
    deadline = now() + limits.game_timeout_s
    for listener, before_view in views.before.items():
        agent = judge.seat_at(item, exam_id, seat=listener)
        if trait(agent, Believer) is None:
            return None
        before = await ask_belief(agent, before_view, limits, deadline)
        again = judge.seat_at(item, exam_id, seat=listener)
        after = await ask_belief(again, views.after[listener], limits, deadline)
        if before is None or after is None:
            continue
        change = _change(before, after, item.seat, truth.wolves)
        if change is not None:
            speaker.append(change[0])
            team.append(change[1])
    if not speaker:
        return None
    return Shift(sum(speaker) / len(speaker), sum(team) / len(team), len(speaker))


def _change(
    before: BeliefReport, after: BeliefReport, speaker: int, wolves: Sequence[int]
) -> tuple[float, float] | None:
    """(speaker's change, the wolf team's mean change) between two reports, where both tell."""
    b, a = before.wolf_probability, after.wolf_probability
    if speaker not in b or speaker not in a:
        return None
    team = [w for w in wolves if w in a and w in b]
    team_change = sum(a[w] - b[w] for w in team) / len(team)
    return a[speaker] - b[speaker], team_change


async def judge_speeches(
    exam: Exam,
    key: Key,
    sittings: Mapping[str, Mapping[str, ItemAnswer]],
    judges: Sequence[Contestant],
    verdicts: Verdicts,
) -> list[Judgment]:
    """Every verdict `verdicts` lacks: each judge on each contestant's speech answers.

    Raises:
        IllegalActionError: the key does not re-run to a speech item (not this exam's key).
    """
    limits = Limits()
    names = [j.label for j in judges]
    found: list[Judgment] = []
    for item in (i for i in exam.items if i.kind == "speech"):
        truth = key.truths[item.id]
        for contestant, answers in sorted(sittings.items()):
            answer = answers.get(item.id)
            if answer is None or answer.action is None:
                continue
            done = {j.judge for j in current(verdicts, names, contestant, item.id, answer)}
            todo = [j for j in judges if j.label not in done]
            views = scene(item, answer.action, key.sources[item.source], truth) if todo else None
            if views is None:
                continue
            for judge in todo:
                moved = await shift(judge, item, views, truth, exam.header.exam_id, limits)
                found.append(_judgment(judge.label, contestant, item, answer, moved))
    return found


def _judgment(
    judge: str, contestant: str, item: Item, answer: ItemAnswer, moved: Shift | None
) -> Judgment:
    return Judgment(
        judge=judge,
        contestant=contestant,
        item=item.id,
        answer=answer_hash(answer),
        speaker=moved.speaker if moved is not None else None,
        team=moved.team if moved is not None else None,
        listeners=moved.listeners if moved is not None else 0,
    )
