"""Which moments of a game become items: a seeded draw spread over kinds, roles and days.

Every candidate gets a rank from SHA-256 of the seed, the game's hash and the item's id —
never Python's `random` — so the same replays and seed give the same items on every
machine, whatever order the files are read in. Per game, kinds take turns (in
`arena.exam.items.KINDS` order); within a kind, the asked seat's (role, day) groups take
turns, each giving its best-ranked moment first. So `--per-game 6` asks one of each kind
a game offers before a second of any, and a kind's items cover as many roles and days as
the game has.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Callable, Hashable, Sequence
from itertools import zip_longest
from typing import TypeVar

from arena.exam.items import KINDS, Kind, item_id
from arena.exam.moments import Candidate
from arena.rules.types import Role

T = TypeVar("T")


def rank(seed: int, source: str, candidate: Candidate) -> bytes:
    """The candidate's place in the draw: a hash, so it depends on nothing else."""
    ident = item_id(source, candidate.moment.request.seat, candidate.moment.request.step,
                    candidate.kind)  # fmt: skip
    return hashlib.sha256(f"werewolf-arena/exam/v1/{seed}/{ident}".encode()).digest()


def draw(
    found: Sequence[Candidate], per_game: int | None, seed: int, source: str, kinds: Sequence[Kind]
) -> list[Candidate]:
    """Up to `per_game` candidates of `kinds` (all of them when None), spread as above."""
    wanted = [k for k in KINDS if k in kinds]
    ranked = sorted((c for c in found if c.kind in wanted), key=lambda c: rank(seed, source, c))
    by_kind = {k: _spread([c for c in ranked if c.kind == k], _bucket) for k in wanted}
    turns = _interleave([by_kind[k] for k in wanted])
    return turns if per_game is None else turns[:per_game]


def _bucket(candidate: Candidate) -> tuple[Role, int]:
    moment = candidate.moment
    return moment.roles[moment.request.seat - 1], moment.request.day


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
