"""Every random draw the referee makes: the deal, drawn speaking orders, lots.

A replay is validated (and a crashed game resumed) by re-running the referee from the
seed, so a draw must give the same result on every Python, forever. `random.Random`'s
`shuffle`, `choice`, `sample` and `randint` do not promise that across versions, so the
referee draws only through a `Draw`, and new files use `Sha256Draw`, whose output is
defined here and nowhere else: SHA-256 (a fixed standard) in counter mode, unbiased by
rejection. Rules code takes its randomness from `Table.draw` (a `Draw`) and never imports
`random`.

Files written before the draw was fixed record no `draw` in their header; they were dealt
by `PythonRandomDraw`, kept only so that they stay verifiable.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from random import Random
from typing import Literal, Protocol, TypeVar

DrawName = Literal["python_random", "sha256_v1"]
"""The draw algorithm a game used, as recorded in its replay header."""
CURRENT_DRAW: DrawName = "sha256_v1"
"""The algorithm every new game uses."""
LEGACY_DRAW: DrawName = "python_random"
"""The algorithm of files whose header names none (before the draw was fixed)."""

T = TypeVar("T")
_WORD = 1 << 64


class Draw(Protocol):
    """A seeded source of the referee's draws."""

    def below(self, n: int) -> int:
        """A uniform integer in `[0, n)`."""
        ...

    def pick(self, items: Sequence[T]) -> T:
        """One uniform element of `items` (non-empty)."""
        ...

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A uniform permutation of `items`, as a new list."""
        ...

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """`k` distinct elements of `items`, uniform, in draw order."""
        ...


class Sha256Draw:
    """Draws whose output is fixed forever, by this definition alone.

    Word `i` (i = 0, 1, 2, ...) is the first 8 bytes, big-endian, of
    `SHA-256("werewolf-arena/draw/v1/{seed}/{i}")` with the seed in decimal.

    `below(n)` rejects words at or above the largest multiple of `n` under 2**64 and
    returns the next word modulo `n`; `shuffled` is Fisher-Yates from the last position
    down, and `sample` its first `k` steps. Changing any of this changes every replay:
    add a new `DrawName` instead.
    """

    def __init__(self, seed: int) -> None:
        self._prefix = f"werewolf-arena/draw/v1/{seed}/"
        self._counter = 0

    def word(self) -> int:
        """The next 64-bit word of the stream."""
        digest = hashlib.sha256(f"{self._prefix}{self._counter}".encode("ascii")).digest()
        self._counter += 1
        return int.from_bytes(digest[:8], "big")

    def below(self, n: int) -> int:
        """A uniform integer in `[0, n)` (`n` at most 2**64)."""
        if not 0 < n <= _WORD:
            raise ValueError(f"below({n}): n must be in 1..2**64")
        limit = _WORD - _WORD % n
        while True:
            w = self.word()
            if w < limit:
                return w % n

    def pick(self, items: Sequence[T]) -> T:
        """One uniform element of `items` (non-empty)."""
        return items[self.below(len(items))]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A uniform permutation of `items`, as a new list."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """`k` distinct elements of `items`, uniform, in draw order."""
        if not 0 <= k <= len(items):
            raise ValueError(f"sample of {k} from {len(items)} items")
        pool = list(items)
        chosen: list[T] = []
        for _ in range(k):
            chosen.append(pool.pop(self.below(len(pool))))
        return chosen


class PythonRandomDraw:
    """The legacy draw: `random.Random(seed)`, exactly as files without a `draw` were dealt.

    Its results may change with the Python version; it exists only to keep those files
    verifiable where they still are. Never used for a new game.
    """

    def __init__(self, seed: int) -> None:
        self._rng = Random(seed)

    def below(self, n: int) -> int:
        """`randint(1, n) - 1`, the one way the legacy rules drew an integer."""
        return self._rng.randint(1, n) - 1

    def pick(self, items: Sequence[T]) -> T:
        """`Random.choice`."""
        return self._rng.choice(items)

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """`Random.shuffle` on a copy."""
        out = list(items)
        self._rng.shuffle(out)
        return out

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """`Random.sample`."""
        return self._rng.sample(list(items), k)


def new_draw(name: DrawName, seed: int) -> Draw:
    """The draw of a game that recorded `name` and `seed`."""
    if name == "sha256_v1":
        return Sha256Draw(seed)
    return PythonRandomDraw(seed)
