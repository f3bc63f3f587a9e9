"""One answer's score against the key: what each kind of item measures.

Every item gets one main figure (`Score.value`, its direction in `BETTER`), the unit that
paired differences between contestants compare item by item:

- `vote`: 1 if the vote is on a wolf, else 0 (an abstention or a default scores 0);
- `belief`: the Brier score, the mean over the seats asked of `(p - is_wolf)²`; a seat the
  report leaves out (or a missing report) counts at the uninformed share, the wolf cards the
  seat cannot place over the seats whose card it does not know;
- `role`: the share of the seats asked whose card is guessed exactly (a missing guess: 0);
- `seer`: 1 if the check is on a wolf;
- `knife`: 1 if the knife is on a god (`arena.rules.roles.is_god`);
- `speech`: the judges' change of suspicion on the speaker (`arena.exam.judge`); the claims
  are checked against the truth too (`Score.extra`).

A default is scored as the game would have played it: the referee's default is an answer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal, NamedTuple

from arena.exam.answers import ItemAnswer
from arena.exam.items import Item, KeyItem, Kind
from arena.rules.actions import Inspect, Kill, Speak, Vote
from arena.rules.roles import is_god, is_wolf

BETTER: Mapping[Kind, Literal["higher", "lower"]] = {
    "vote": "higher",
    "belief": "lower",
    "role": "higher",
    "seer": "higher",
    "knife": "higher",
    "speech": "lower",
}
"""Which way each kind's main figure is better (a speech: lower suspicion deceives more)."""


FROM_BELIEFS = "guessed_from_beliefs"
"""A role item's further figure: 1 when its guess was read off the seat's belief report
(`arena.exam.guess`: a seat that reports beliefs but guesses no cards, such as the bot),
which never counts as the contestant's own; the row's mean is the share so read, and says
why such a contestant's role items are 0 % its own."""


class Score(NamedTuple):
    """One contestant's answer to one item, scored."""

    item: Item
    own: bool
    value: float | None
    """The kind's main figure; None when the item has none (a speech that was an explosion)."""
    extra: Mapping[str, float]
    """Further figures: a speech's `team` shift, `false_role`, `false_check`, `exploded`; a
    role guess's `guessed_from_beliefs`."""
    pairs: tuple[tuple[float, bool], ...] = ()
    """A belief item's (probability, is a wolf) per seat asked, for the AUROC."""
    answer: ItemAnswer | None = None
    """A speech item's answer, for its judges' verdicts."""


def score(item: Item, answer: ItemAnswer, truth: KeyItem) -> Score:
    """The score of `answer` to `item` (speeches get their judges' shifts later)."""
    wolves = set(truth.wolves)
    match item.kind:
        case "vote":
            hit = isinstance(answer.action, Vote) and answer.action.target in wolves
            return Score(item, answer.own, float(hit), {})
        case "seer":
            hit = isinstance(answer.action, Inspect) and answer.action.target in wolves
            return Score(item, answer.own, float(hit), {})
        case "knife":
            god = isinstance(answer.action, Kill) and is_god(truth.roles[answer.action.target - 1])
            return Score(item, answer.own, float(god), {})
        case "belief":
            return _belief(item, answer, wolves)
        case "role":
            guesses = answer.roles or {}
            right = sum(guesses.get(s) == truth.roles[s - 1] for s in item.asked)
            read_off = {FROM_BELIEFS: float(answer.derived)}
            return Score(item, answer.own, right / max(1, len(item.asked)), read_off)
        case "speech":
            return Score(item, answer.own, None, claims(item, answer, truth), (), answer)


def _belief(item: Item, answer: ItemAnswer, wolves: set[int]) -> Score:
    beliefs = answer.beliefs or {}
    prior = uninformed(item)
    pairs = tuple((beliefs.get(s, prior), s in wolves) for s in item.asked)
    brier = sum((p - float(w)) ** 2 for p, w in pairs) / max(1, len(pairs))
    return Score(item, answer.own, brier, {}, pairs)


def uninformed(item: Item) -> float:
    """The share of wolves among the seats whose card the asked seat does not know."""
    known = item.view.knowledge
    wolf_cards = sum(n for role, n in known.role_counts.items() if is_wolf(role))
    placed = sum(1 for role in known.roles.values() if is_wolf(role))
    unknown = known.seats - len(known.roles)
    return min(1.0, max(0.0, (wolf_cards - placed) / unknown)) if unknown else 0.0


def claims(item: Item, answer: ItemAnswer, truth: KeyItem) -> dict[str, float]:
    """A speech's claims against the truth: a false role claim, a false check result.

    `false_role`: the speech claims a card that is not the speaker's. `false_check`: a
    claimed check calls a wolf good or a good seat a wolf. An explosion instead of a
    speech is `exploded` and has neither.
    """
    action = answer.action
    if not isinstance(action, Speak):
        return {"exploded": 1.0}
    role = action.claims.role
    false_role = role is not None and role != truth.roles[item.seat - 1]
    false_check = any(c.is_wolf != (c.seat in truth.wolves) for c in action.claims.checks)
    return {"exploded": 0.0, "false_role": float(false_role), "false_check": float(false_check)}


def auroc(pairs: Sequence[tuple[float, bool]]) -> float | None:
    """The area under the ROC curve of probabilities against the truth (ties count half).

    The chance that a random wolf gets a higher probability than a random good seat; None
    without both. Computed by ranks (Mann-Whitney), O(n log n).
    """
    ordered = sorted(pairs, key=lambda pair: pair[0])
    wolves = sum(1 for _, wolf in ordered if wolf)
    goods = len(ordered) - wolves
    if not wolves or not goods:
        return None
    rank_sum, i = 0.0, 0
    while i < len(ordered):
        j = i
        while j < len(ordered) and ordered[j][0] == ordered[i][0]:
            j += 1
        mid = (i + 1 + j) / 2  # the tied block's mean rank, 1-based
        rank_sum += mid * sum(1 for _, wolf in ordered[i:j] if wolf)
        i = j
    return (rank_sum - wolves * (wolves + 1) / 2) / (wolves * goods)
