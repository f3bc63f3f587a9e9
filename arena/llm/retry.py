"""The one retry layer for model calls: exponential backoff with jitter, honouring Retry-After.

Provider SDKs are built with their own retries off (`max_retries=0`), so a rate limit is
never retried twice over (ours times theirs) and every wait is visible here. Only
transient failures are retried: 429, 5xx, connection errors and timeouts. A 4xx other
than 429 is the request's fault and fails at once.

A try that fails and is retried is not lost: inside `failed_tries()` every such try is
collected (why, and how long it took), so a model seat writes a trace record for each one
and a game's calls, time and cost include the requests that hung or failed before one
succeeded.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import TypeVar

from arena.llm.base import ProviderError

T = TypeVar("T")
Sleep = Callable[[float], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How often and how long to wait before asking a failing endpoint again."""

    retries: int = 3
    """Extra tries after the first (0: no retry)."""
    backoff_s: float = 0.5
    """The first wait; each later wait doubles, up to `max_backoff_s`."""
    max_backoff_s: float = 20.0
    jitter: float = 0.5
    """Each computed wait is scaled by a uniform factor in [1 - jitter, 1 + jitter], so
    seats that hit a rate limit together do not all come back at the same instant."""
    max_retry_after_s: float = 60.0
    """A server's Retry-After is honoured up to this long."""


@dataclass(frozen=True, slots=True)
class Transient:
    """A failure worth retrying, and how long the server asked us to wait (if it did)."""

    reason: str
    retry_after_s: float | None = None


@dataclass(frozen=True, slots=True)
class FailedTry:
    """A try of a request that failed and was retried: why, and how long it took."""

    reason: str
    latency_ms: float


_TRIES: ContextVar[list[FailedTry] | None] = ContextVar("failed_tries", default=None)


@contextmanager
def failed_tries() -> Iterator[list[FailedTry]]:
    """Collect the retried tries of the requests made inside (in this task), in order."""
    tries: list[FailedTry] = []
    token = _TRIES.set(tries)
    try:
        yield tries
    finally:
        _TRIES.reset(token)


def parse_retry_after(headers: Mapping[str, str] | None) -> float | None:
    """Seconds to wait from `retry-after-ms` or `retry-after` (seconds or an HTTP date)."""
    if not headers:
        return None
    lower = {k.lower(): v for k, v in headers.items()}
    try:
        if "retry-after-ms" in lower:
            return max(0.0, float(lower["retry-after-ms"]) / 1000.0)
        value = lower.get("retry-after")
        if value is None:
            return None
        try:
            return max(0.0, float(value))
        except ValueError:
            when = parsedate_to_datetime(value)
            return max(0.0, (when - datetime.now(UTC)).total_seconds())
    except (ValueError, TypeError):
        return None


def delay_for(attempt: int, transient: Transient, policy: RetryPolicy, rng: random.Random) -> float:
    """The wait before retry number `attempt` (0-based)."""
    if transient.retry_after_s is not None:
        return min(transient.retry_after_s, policy.max_retry_after_s)
    base = min(policy.backoff_s * 2.0**attempt, policy.max_backoff_s)
    return base * rng.uniform(1 - policy.jitter, 1 + policy.jitter)


async def with_retries(
    call: Callable[[], Awaitable[T]],
    classify: Callable[[BaseException], Transient | None],
    policy: RetryPolicy,
    *,
    label: str,
    sleep: Sleep = asyncio.sleep,
    rng: random.Random | None = None,
) -> T:
    """Run `call`, retrying the failures `classify` calls transient.

    Raises:
        ProviderError: a transient failure outlasted the retries (the message names
            `label`, the last reason and the number of tries).
        Exception: a failure `classify` does not call transient, unchanged.
    """
    rng = rng or random.Random()
    for attempt in range(policy.retries + 1):
        started = time.perf_counter()
        try:
            return await call()
        except Exception as exc:
            transient = classify(exc)
            if transient is None:
                raise
            if attempt == policy.retries:
                raise ProviderError(
                    f"{label}: {transient.reason} (after {attempt + 1} tries)"
                ) from exc
            tries = _TRIES.get()
            if tries is not None:
                elapsed = (time.perf_counter() - started) * 1000
                tries.append(FailedTry(f"{label}: {transient.reason}; retried", elapsed))
            await sleep(delay_for(attempt, transient, policy, rng))
    raise AssertionError("unreachable: the loop returns or raises")
