"""The environment's actions: one fixed `Discrete` space, an index per concrete answer.

Every answer a seat can give to any request of any board is one index of a flat space laid
out in blocks, one block per action kind (`BLOCKS`). The layout is sized for the largest
table a board may have (`MAX_SEATS`), so a policy trained on one board keeps its action
meanings on every other; `legal_mask` marks the indices a `DecisionRequest` allows.

Blocks and their indices (seats are 1-based, `N = MAX_SEATS`):

- `pass`, `run_for_sheriff`, `withdraw`, `tear_badge`, `save`, `reveal`: one index each;
- `self_explode`: taking nobody, then taking seat 1..N;
- one block of N per action aimed at one seat (`vote`, `shoot`, `kill`, `inspect`, …);
- `take_card`: bottom card 1, 2;
- `choose_order`: ascending then descending, each with no start, then start at seat 1..N;
- `recommend_exile`: one seat (N), then a pair of seats for a PK (every pair a < b);
- `trade`: seat × gift (check, poison, shield);
- `swap`, `link`: every pair a < b; `mist`: every triple a < b < c;
- `speak`: structured claim templates (`SpeechTemplate`): say nothing of note, claim a
  role, claim the seer with a check of seat k (good or wolf), suspect seat k, trust seat k;
- `whisper`: propose the knife on seat k (wolf talk; `pass` stays silent).

A speech's text is rendered from its claims (the bots' own wording, `lang`), so what a
policy says and what it claims never disagree, and other seats read it as a speech.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from arena.agents.bot.talk import speech_text, whisper_text
from arena.rules.actions import (
    PLAIN_ACTIONS,
    SEAT_ACTIONS,
    Action,
    ActionKind,
    CheckClaim,
    ChooseOrder,
    Claims,
    Link,
    Mist,
    RecommendExile,
    SelfExplode,
    Speak,
    Swap,
    TakeCard,
    Trade,
    Whisper,
    to_seat_action,
)
from arena.rules.boards import BOTTOM_CARDS
from arena.rules.composition import MAX_SEATS
from arena.rules.decisions import ActionOption, DecisionRequest
from arena.rules.errors import IllegalActionError
from arena.rules.types import Direction, Gift, Role, SeatId, SpeechContext
from arena.text import Lang

N = MAX_SEATS
ROLES: tuple[Role, ...] = tuple(Role)
"""Every role, in `Role` order: the one-hot order of the observation and the claim block."""
GIFTS: tuple[Gift, ...] = tuple(Gift)
DIRECTIONS: tuple[Direction, ...] = (Direction.ASCENDING, Direction.DESCENDING)

SINGLE_SEAT: tuple[ActionKind, ...] = SEAT_ACTIONS
"""Actions aimed at exactly one seat: one index per seat."""
NO_TARGET: tuple[str, ...] = tuple(PLAIN_ACTIONS)
_SEAT_KINDS = frozenset(SINGLE_SEAT) | {"take_card"}
"""Kinds whose index is their block's start plus `target - 1`."""
_PLAIN = PLAIN_ACTIONS
PAIRS: tuple[tuple[SeatId, SeatId], ...] = tuple(itertools.combinations(range(1, N + 1), 2))
TRIPLES: tuple[tuple[SeatId, SeatId, SeatId], ...] = tuple(
    itertools.combinations(range(1, N + 1), 3)
)
_PAIR_INDEX = {pair: i for i, pair in enumerate(PAIRS)}
_TRIPLE_INDEX = {triple: i for i, triple in enumerate(TRIPLES)}


@dataclass(frozen=True, slots=True)
class SpeechTemplate:
    """One structured speech: what it claims (`role`, a `check`, a `suspect`, a `trust`)."""

    role: Role | None = None
    check: tuple[SeatId, bool] | None = None
    """(seat, is_wolf): the seer's claimed check; the template also claims the seer."""
    suspect: SeatId | None = None
    trust: SeatId | None = None

    def claims(self) -> Claims:
        """The speech's `Claims`."""
        if self.check is not None:
            seat, wolf = self.check
            return Claims(role=Role.SEER, checks=(CheckClaim(seat=seat, is_wolf=wolf),))
        return Claims(
            role=self.role,
            suspects=(self.suspect,) if self.suspect is not None else (),
            trusts=(self.trust,) if self.trust is not None else (),
        )

    def seat(self) -> SeatId | None:
        """The seat the template names, if any."""
        if self.check is not None:
            return self.check[0]
        return self.suspect if self.suspect is not None else self.trust


SPEECHES: tuple[SpeechTemplate, ...] = (
    SpeechTemplate(),
    *(SpeechTemplate(role=r) for r in ROLES),
    *(SpeechTemplate(check=(s, False)) for s in range(1, N + 1)),
    *(SpeechTemplate(check=(s, True)) for s in range(1, N + 1)),
    *(SpeechTemplate(suspect=s) for s in range(1, N + 1)),
    *(SpeechTemplate(trust=s) for s in range(1, N + 1)),
)
"""The `speak` block, in order: nothing of note, a role claim per role, a seer's check of
each seat as good, then as wolf, a suspicion of each seat, trust in each seat."""
_SPEECH_INDEX = {template: i for i, template in enumerate(SPEECHES)}
_NOTHING_SPEECH = _SPEECH_INDEX[SpeechTemplate()]
_ROLE_SPEECH = {role: _SPEECH_INDEX[SpeechTemplate(role=role)] for role in ROLES}
_CHECK_SPEECH = {
    (seat, wolf): _SPEECH_INDEX[SpeechTemplate(check=(seat, wolf))]
    for seat in range(1, N + 1)
    for wolf in (False, True)
}
_SUSPECT_SPEECH = {seat: _SPEECH_INDEX[SpeechTemplate(suspect=seat)] for seat in range(1, N + 1)}
_TRUST_SPEECH = {seat: _SPEECH_INDEX[SpeechTemplate(trust=seat)] for seat in range(1, N + 1)}
"""Each template's offset in the `speak` block by what it claims: plain keys, hashed in C
(a template's own hash and equality are Python, and `to_index` runs once a step)."""


def _sizes() -> list[tuple[str, int]]:
    sizes: list[tuple[str, int]] = [(kind, 1) for kind in NO_TARGET]
    sizes.append(("self_explode", 1 + N))
    sizes += [(kind, N) for kind in SINGLE_SEAT]
    sizes += [
        ("take_card", BOTTOM_CARDS),
        ("choose_order", len(DIRECTIONS) * (1 + N)),
        ("recommend_exile", N + len(PAIRS)),
        ("trade", N * len(GIFTS)),
        ("swap", len(PAIRS)),
        ("link", len(PAIRS)),
        ("mist", len(TRIPLES)),
        ("speak", len(SPEECHES)),
        ("whisper", N),
    ]
    return sizes


BLOCKS: dict[str, tuple[int, int]] = {}
"""Action kind → (first index, size) of its block."""
_start = 0
for _kind, _size in _sizes():
    BLOCKS[_kind] = (_start, _size)
    _start += _size
ACTION_COUNT = _start
"""The size of the `Discrete` action space (the same for every board)."""
_BLOCK_OF: list[tuple[str, int]] = [
    (kind, offset) for kind, (_, size) in BLOCKS.items() for offset in range(size)
]


def block_of(index: int) -> tuple[str, int]:
    """The action kind of `index` and its offset within the kind's block."""
    if not 0 <= index < ACTION_COUNT:
        raise IllegalActionError(f"action {index} is outside 0..{ACTION_COUNT - 1}")
    return _BLOCK_OF[index]


def legal_mask(
    request: DecisionRequest, seats: int, claimable: Sequence[Role] = ROLES
) -> npt.NDArray[np.int8]:
    """1 at every index `request` allows, 0 elsewhere (a new array).

    `seats` bounds the seats a speech or a whisper may name (the board's), and `claimable`
    the roles a speech may claim (the board's cards; every role by default).
    """
    return np.frombuffer(bytearray(mask_bytes(request, seats, claimable)), dtype=np.int8)


def mask_bytes(request: DecisionRequest, seats: int, claimable: Sequence[Role] = ROLES) -> bytes:
    """`legal_mask` as bytes, one per index: cheap to keep, to index and to join."""
    mask = bytearray(ACTION_COUNT)  # set entry by entry: cheaper than numpy for a few dozen
    claim = tuple(claimable)
    for option in request.options:
        for index in _option_indices(option, request.seat, seats, claim):
            mask[index] = 1
    return bytes(mask)


OPTION_KEY = operator.attrgetter("action", "targets", "target_required")
"""What an option's part of a mask depends on, as a plain tuple read in C: plain tuples hash
and compare in C, where the options' own models would run Python for each."""


def _option_indices(
    option: ActionOption, me: SeatId, seats: int, claimable: tuple[Role, ...]
) -> Sequence[int]:
    kind = option.action
    start, _ = BLOCKS[kind]
    targets = option.targets
    if kind in _PLAIN:
        return [start]
    if kind in _SEAT_KINDS or kind == "whisper":
        if kind == "whisper":
            targets = tuple(s for s in range(1, seats + 1) if s != me)
        return [start + t - 1 for t in targets]
    if kind == "self_explode":
        return ([] if option.target_required else [start]) + [start + t for t in targets]
    if kind == "choose_order":
        starts = [] if option.target_required and targets else [0]
        starts += list(targets)
        return [start + d * (1 + N) + s for d in range(len(DIRECTIONS)) for s in starts]
    if kind == "recommend_exile":
        pairs = itertools.combinations(sorted(targets), 2)
        return [start + t - 1 for t in targets] + [start + N + _PAIR_INDEX[p] for p in pairs]
    if kind == "trade":
        return [start + (t - 1) * len(GIFTS) + g for t in targets for g in range(len(GIFTS))]
    if kind in ("swap", "link"):
        return [start + _PAIR_INDEX[p] for p in itertools.combinations(sorted(targets), 2)]
    if kind == "mist":
        return [start + _TRIPLE_INDEX[c] for c in itertools.combinations(sorted(targets), 3)]
    if kind == "speak":
        return _speech_indices(start, me, seats, claimable)
    raise AssertionError(f"no action block for {kind}")


@cache
def _speech_indices(
    start: int, me: SeatId, seats: int, claimable: tuple[Role, ...]
) -> tuple[int, ...]:
    allowed = set(claimable)
    return tuple(
        start + i
        for i, t in enumerate(SPEECHES)
        if (t.role is None or t.role in allowed)
        and (t.seat() is None or (t.seat() != me and t.seat() <= seats))  # type: ignore[operator]
    )


def to_action(index: int, request: DecisionRequest, lang: Lang = "en") -> Action:
    """The concrete `Action` of `index` for `request` (not yet checked against it).

    Actions are frozen, so each is built once and shared (a speech per template, context,
    language and length limit).

    Raises:
        IllegalActionError: `index` is outside the space.
    """
    index = int(index)
    if 0 <= index < ACTION_COUNT and (known := FIXED_ACTIONS[index]) is not None:
        return known
    kind, offset = block_of(index)
    if kind == "speak":
        option = request.option("speak")
        limit = option.max_chars if option is not None else None
        return _speech(offset, request.context or "day", lang, limit)
    if kind == "whisper":
        option = request.option("whisper")
        limit = option.max_chars if option is not None else None
        return _whisper(offset + 1, lang, limit)
    action = FIXED_ACTIONS[index] = _action(kind, offset)
    return action


FIXED_ACTIONS: list[Action | None] = [None] * ACTION_COUNT
"""The action of each index whose action is the same for every request (not a speech or a
whisper, whose text depends on the request), once `to_action` has built it; None before.
A list, so a caller in a hot loop (the environment's `step`) reads it without a call."""


@cache
def _speech(offset: int, context: SpeechContext, lang: Lang, limit: int | None) -> Speak:
    claims = SPEECHES[offset].claims()
    return Speak(text=speech_text(claims, lang, context, None, limit), claims=claims)


@cache
def _whisper(seat: SeatId, lang: Lang, limit: int | None) -> Whisper:
    return Whisper(text=whisper_text(seat, False, lang, limit))


@cache
def _action(kind: str, offset: int) -> Action:
    """The action of a block without text: the same for every request."""
    if kind in _PLAIN:
        return _PLAIN[kind]
    if kind in _SEAT_KINDS and kind != "take_card":
        return _single(kind, offset + 1)
    match kind:
        case "self_explode":
            return SelfExplode(target=offset or None)
        case "take_card":
            return TakeCard(target=offset + 1)
        case "choose_order":
            direction, start = divmod(offset, 1 + N)
            return ChooseOrder(direction=DIRECTIONS[direction], start=start or None)
        case "recommend_exile":
            seats = (offset + 1,) if offset < N else PAIRS[offset - N]
            return RecommendExile(targets=seats)
        case "trade":
            seat, gift = divmod(offset, len(GIFTS))
            return Trade(target=seat + 1, gift=GIFTS[gift])
        case "swap":
            return Swap(targets=PAIRS[offset])
        case "link":
            return Link(targets=PAIRS[offset])
        case "mist":
            return Mist(targets=TRIPLES[offset])
    raise AssertionError(f"no action for block {kind}")


@cache
def _single(kind: ActionKind, seat: SeatId) -> Action:
    return to_seat_action(kind, seat)


def to_index(action: Action, *, nearest: bool = False) -> int | None:
    """The index of `action`, or None when no index says it exactly.

    A free speech maps to the template that says the same claims, when one does (no
    claims: "nothing of note"); a whisper to its template when it is one's text, word for
    word. A speech claiming several things and any other whisper map to None, unless
    `nearest`: then a speech maps to the template of its first claim (a check, else the
    role, else the first suspect, else the first trust).
    """
    kind = action.kind
    start, _ = BLOCKS[kind]
    if kind in _PLAIN:
        return start
    if kind in _SEAT_KINDS:
        target = getattr(action, "target", None)
        return start + target - 1 if isinstance(target, int) else None
    match action:
        case Speak(claims=claims):
            offset = _nearest(claims) if nearest else _template_of(claims)
            return None if offset is None else start + offset
        case SelfExplode(target=seat):
            return start + (seat or 0)
        case ChooseOrder(direction=direction, start=first):
            return start + DIRECTIONS.index(direction) * (1 + N) + (first or 0)
        case RecommendExile(targets=seats):
            if len(seats) == 1:
                return start + seats[0] - 1
            return start + N + _PAIR_INDEX[_sorted_pair(seats)]
        case Trade(target=seat, gift=gift):
            return start + (seat - 1) * len(GIFTS) + GIFTS.index(gift)
        case Swap(targets=seats) | Link(targets=seats):
            return start + _PAIR_INDEX[_sorted_pair(seats)]
        case Mist(targets=seats):
            a, b, c = sorted(seats)
            return start + _TRIPLE_INDEX[(a, b, c)]
        case Whisper(text=text):
            seat = _whispers().get(text)
            return None if seat is None else start + seat - 1
    return None


@cache
def _whispers() -> dict[str, SeatId]:
    """The whisper templates' texts (both languages) → the seat they propose."""
    return {
        whisper_text(seat, False, lang, None): seat
        for seat in range(1, N + 1)
        for lang in ("zh", "en")
    }


def _sorted_pair(seats: tuple[SeatId, ...]) -> tuple[SeatId, SeatId]:
    a, b = sorted(seats)
    return a, b


def _template_of(claims: Claims) -> int | None:
    """The offset of the template whose claims equal `claims`, if one does."""
    if claims.checks:
        c = claims.checks[0]
        exact = Claims(role=Role.SEER, checks=(CheckClaim(seat=c.seat, is_wolf=c.is_wolf),))
        return _CHECK_SPEECH[c.seat, c.is_wolf] if claims == exact else None
    named = [
        *([_ROLE_SPEECH[claims.role]] if claims.role is not None else []),
        *(_SUSPECT_SPEECH[s] for s in claims.suspects),
        *(_TRUST_SPEECH[s] for s in claims.trusts),
    ]
    if not named:
        return _NOTHING_SPEECH
    return named[0] if len(named) == 1 else None


def _nearest(claims: Claims) -> int:
    """The offset of the speech's first claim's template: check, role, suspect, then trust."""
    if claims.checks:
        return _CHECK_SPEECH[claims.checks[0].seat, claims.checks[0].is_wolf]
    if claims.role is not None:
        return _ROLE_SPEECH[claims.role]
    if claims.suspects:
        return _SUSPECT_SPEECH[claims.suspects[0]]
    if claims.trusts:
        return _TRUST_SPEECH[claims.trusts[0]]
    return _NOTHING_SPEECH


def describe(index: int) -> str:
    """A short label of `index`, for logs and docs (`vote 3`, `speak: suspect 5`)."""
    kind, offset = block_of(index)
    if kind in _PLAIN:
        return kind
    if kind in _SEAT_KINDS or kind == "whisper":
        return f"{kind} {offset + 1}"
    if kind == "speak":
        t = SPEECHES[offset]
        if t.check is not None:
            return f"speak: seer, {t.check[0]} {'wolf' if t.check[1] else 'good'}"
        if t.role is not None:
            return f"speak: claim {t.role.value}"
        if t.suspect is not None:
            return f"speak: suspect {t.suspect}"
        if t.trust is not None:
            return f"speak: trust {t.trust}"
        return "speak: nothing of note"
    return f"{kind} #{offset}"
