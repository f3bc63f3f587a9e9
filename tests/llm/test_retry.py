import asyncio
import random
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest

from arena.llm.base import ProviderError
from arena.llm.retry import RetryPolicy, Transient, delay_for, parse_retry_after, with_retries


class Flaky(Exception):
    pass


class Fatal(Exception):
    pass


def classify(exc: BaseException) -> Transient | None:
    if isinstance(exc, Flaky):
        return Transient("flaky", retry_after_s=exc.args[0] if exc.args else None)
    return None


def run(failures: list[BaseException], policy: RetryPolicy) -> tuple[object, list[float], int]:
    waits: list[float] = []
    calls = 0

    async def call() -> str:
        nonlocal calls
        calls += 1
        if failures:
            raise failures.pop(0)
        return "ok"

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    result = asyncio.run(with_retries(call, classify, policy, label="ep", sleep=sleep))
    return result, waits, calls


def test_transient_failures_are_retried_until_success() -> None:
    result, waits, calls = run([Flaky(), Flaky()], RetryPolicy(retries=3, backoff_s=1.0, jitter=0))
    assert result == "ok"
    assert calls == 3
    assert waits == [1.0, 2.0]


def test_retry_after_is_honoured_and_capped() -> None:
    policy = RetryPolicy(retries=2, max_retry_after_s=5.0)
    _, waits, _ = run([Flaky(0.25), Flaky(30.0)], policy)
    assert waits == [0.25, 5.0]


def test_backoff_is_capped_and_jittered_within_bounds() -> None:
    policy = RetryPolicy(backoff_s=1.0, max_backoff_s=4.0, jitter=0.5)
    rng = random.Random(1)
    delays = [delay_for(n, Transient("x"), policy, rng) for n in range(6)]
    assert all(0.5 <= d <= 1.5 for d in delays[:1])
    assert all(2.0 <= d <= 6.0 for d in delays[3:])
    assert len(set(delays)) == len(delays)


def test_exhausted_retries_raise_provider_error_naming_the_endpoint() -> None:
    with pytest.raises(ProviderError, match=r"ep: flaky \(after 3 tries\)"):
        run([Flaky(), Flaky(), Flaky()], RetryPolicy(retries=2, backoff_s=0))


def test_a_permanent_failure_is_not_retried() -> None:
    calls = 0

    async def call() -> str:
        nonlocal calls
        calls += 1
        raise Fatal("bad request")

    with pytest.raises(Fatal):
        asyncio.run(with_retries(call, classify, RetryPolicy(retries=5), label="ep"))
    assert calls == 1


def test_parse_retry_after_forms() -> None:
    assert parse_retry_after({"Retry-After": "2"}) == 2.0
    assert parse_retry_after({"retry-after-ms": "250"}) == 0.25
    assert parse_retry_after({"Retry-After": "soon"}) is None
    assert parse_retry_after({}) is None
    later = format_datetime(datetime.now(UTC) + timedelta(seconds=30), usegmt=True)
    parsed = parse_retry_after({"Retry-After": later})
    assert parsed is not None and 20 < parsed <= 30
