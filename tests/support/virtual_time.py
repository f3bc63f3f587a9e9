"""An asyncio event loop on virtual time: tests of time limits that never wait.

The loop's clock (`loop.time()`, which `asyncio.sleep`, `asyncio.timeout`, `wait_for` and
the match runner read) starts at 0 and moves only when every task is blocked: it then
jumps straight to the next timer. A game with 60-second limits runs in milliseconds, and
a test asserts on the virtual seconds it took, never on the wall clock.

Nothing may wake the loop from another thread (no executors): with no timer set and
nothing ready, every task waits for something that can never come, and the loop says so
(`Stalled`) instead of hanging.
"""

from __future__ import annotations

import asyncio
import selectors
from collections.abc import Coroutine
from typing import Any, Generic, NamedTuple, TypeVar

T = TypeVar("T")


class Stalled(RuntimeError):
    """Every task waits, and no timer is set: on a real loop the test would hang."""


class _JumpingSelector(selectors.DefaultSelector):
    """Polls without blocking; where the loop would block until a timer, moves the clock."""

    def __init__(self, loop: VirtualTimeLoop) -> None:
        super().__init__()
        self._loop = loop

    def select(self, timeout: float | None = None) -> list[Any]:
        ready: list[Any] = super().select(0)
        if ready or timeout == 0:
            return ready
        if timeout is None:
            raise Stalled("every task is waiting and no timer is set")
        self._loop.advance(timeout)
        return []


class VirtualTimeLoop(asyncio.SelectorEventLoop):
    """A selector loop whose clock only the loop itself moves."""

    def __init__(self) -> None:
        self._now = 0.0
        super().__init__(_JumpingSelector(self))

    def time(self) -> float:
        """Virtual seconds since the loop was made."""
        return self._now

    def advance(self, seconds: float) -> None:
        """Move the clock on by `seconds` (the loop calls it when all tasks wait)."""
        self._now += seconds


class Timed(NamedTuple, Generic[T]):
    """A coroutine's result and the virtual seconds it took."""

    result: T
    elapsed_s: float


def run(main: Coroutine[Any, Any, T]) -> Timed[T]:
    """Run `main` to the end on a fresh `VirtualTimeLoop` (as `asyncio.run` would)."""
    with asyncio.Runner(loop_factory=VirtualTimeLoop) as runner:
        loop = runner.get_loop()
        started = loop.time()
        result = runner.run(main)
        return Timed(result, loop.time() - started)
