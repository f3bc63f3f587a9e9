"""Which moments of a game become items: whole seats, drawn in turns over roles.

**Why whole seats.** A contestant pays for an item mostly in prompt: the seat's rules,
its card and everything it saw up to the moment, ~1,000 tokens on a 9-seat board by day
two. `arena exam run` asks one seat's moments of a game as one stream, in step order, in
one server slot (`arena.exam.sitting`), so each moment's prompt extends the last one's and
the server reads only what is new: a seat's third vote costs the day's new speeches, not
the whole game again. Items of one moment share even that (a vote, its belief report and
its role guess). So an exam is drawn as streams: per game, seats take turns and each
gives all of its moments of the wanted kinds, in step order, until the game's share is
full (the last seat's earliest moments). On real servers this cut the prompt tokens a
contestant reads several times over against items drawn one by one (docs/benchmarks.md,
"The exam on real small models").

**Spread.** Every seat gets a rank from SHA-256 of the seed, the game's hash and the seat —
never Python's `random` — so the same replays and seed give the same items on every
machine, whatever order the files are read in. A game's seats are grouped by card and the
cards take turns, each giving its best-ranked seat first; which card comes first follows
the ranks too, so over many games every card leads about as often as it is dealt. A seat's
stream covers every day it was asked on, so the days are spread within each game and the
cards across games. The statistics do not suffer from the grouping: every interval is
clustered by game (`arena.exam.intervals`), and items of one game were never independent.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Callable, Hashable, Sequence
from itertools import zip_longest
from typing import TypeVar

from arena.exam.items import KINDS, Kind
from arena.exam.moments import Candidate
from arena.rules.types import SeatId

T = TypeVar("T")

DRAW_VERSION = "v2"
"""Part of every seat's rank: raised when the draw changes, so old and new exams differ
in their ids rather than silently in their items (v1 drew items one by one)."""


def rank(seed: int, source: str, seat: SeatId) -> bytes:
    """The seat's place in its game's draw: a hash, so it depends on nothing else."""
    text = f"werewolf-arena/exam/{DRAW_VERSION}/{seed}/{source}/{seat}"
    return hashlib.sha256(text.encode()).digest()


def draw(
    found: Sequence[Candidate], per_game: int | None, seed: int, source: str, kinds: Sequence[Kind]
) -> list[Candidate]:
    """Up to `per_game` candidates of `kinds` (all of them when None), as whole streams.

    The result is in draw order: seat after seat, each seat's moments in step order and
    the kinds of one moment in `arena.exam.items.KINDS` order.
    """
    order = {kind: i for i, kind in enumerate(KINDS)}
    streams: dict[SeatId, list[Candidate]] = defaultdict(list)
    for candidate in found:
        if candidate.kind in kinds:
            streams[candidate.moment.request.seat].append(candidate)
    for stream in streams.values():
        stream.sort(key=lambda c: (c.moment.request.step, order[c.kind]))
    seats = sorted(streams, key=lambda seat: rank(seed, source, seat))
    card = {seat: _card(streams[seat][0]) for seat in seats}
    taken = [c for seat in _spread(seats, card.__getitem__) for c in streams[seat]]
    return taken if per_game is None else taken[:per_game]


def _card(candidate: Candidate) -> Hashable:
    """The asked seat's card at its first moment (the group its seat takes turns in)."""
    moment = candidate.moment
    return moment.roles[moment.request.seat - 1]


def _spread(ranked: Sequence[T], bucket: Callable[[T], Hashable]) -> list[T]:
    """`ranked` re-ordered so that groups take turns, each group in its own rank order."""
    groups: dict[Hashable, list[T]] = defaultdict(list)
    for entry in ranked:
        groups[bucket(entry)].append(entry)
    return _interleave(list(groups.values()))


def _interleave(lists: Sequence[Sequence[T]]) -> list[T]:
    """One of each list in turn: the firsts, then the seconds, and so on."""
    sentinel = object()
    return [
        entry  # type: ignore[misc]
        for row in zip_longest(*lists, fillvalue=sentinel)
        for entry in row
        if entry is not sentinel
    ]
