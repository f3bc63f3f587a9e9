"""The `JobQueue` contract (arena/queue/base.py), run against every backend."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

import pytest

from arena.errors import ArenaError
from arena.queue.base import JobQueue
from arena.queue.jobs import FencedOut, GameState, MatchJob, MatchResult, Spend
from arena.tournament import TournamentSpec, schedule
from tests.contract.conftest import MakeQueue


def jobs(name: str = "contract", games: int = 2, max_attempts: int = 3) -> list[MatchJob]:
    spec = TournamentSpec.model_validate(
        {
            "name": name,
            "agents": {"a": "random", "b": "random"},
            "games_per_pairing": games,
            "max_attempts": max_attempts,
        }
    )
    return schedule(spec)


def run(coro: Coroutine[Any, Any, None]) -> None:
    asyncio.run(coro)


async def drain(queue: JobQueue, consumer: str = "w") -> list[str]:
    """Claim until nothing is left; the claimed game ids."""
    claimed = []
    while (lease := await queue.claim(consumer)) is not None:
        claimed.append(lease.job.game_id)
    return claimed


def test_every_submitted_job_is_claimed_once(make_queue: MakeQueue) -> None:
    async def scenario() -> None:
        queue = await make_queue()
        batch = jobs()
        report = await queue.submit(batch)
        assert report.queued == tuple(j.game_id for j in batch)
        claimed = await drain(queue)
        assert sorted(claimed) == sorted(j.game_id for j in batch)
        assert all(s.state is GameState.RUNNING for s in await queue.statuses(claimed))
        await queue.close()

    run(scenario())


def test_resubmission_never_duplicates(make_queue: MakeQueue) -> None:
    async def scenario() -> None:
        queue = await make_queue()
        batch = jobs()
        await queue.submit(batch)
        again = await queue.submit(batch)
        assert again.queued == () and len(again.existing) == len(batch)
        assert len(await drain(queue)) == len(batch)
        await queue.close()

    run(scenario())


def test_changed_content_under_a_known_id_is_refused_before_queueing(
    make_queue: MakeQueue,
) -> None:
    async def scenario() -> None:
        queue = await make_queue()
        first = jobs()
        await queue.submit(first[:1])
        changed = first[0].model_copy(update={"seed": first[0].seed + 1})
        with pytest.raises(ArenaError, match="different content"):
            await queue.submit([*first[1:], changed])
        assert (await queue.statuses([first[1].game_id]))[0].state is GameState.UNKNOWN
        await queue.close()

    run(scenario())


def test_append_only_at_the_log_end(make_queue: MakeQueue) -> None:
    async def scenario() -> None:
        queue = await make_queue()
        await queue.submit(jobs()[:1])
        lease = await queue.claim("w")
        assert lease is not None
        assert await queue.append(lease, 0, ["h", "a"]) == 2
        with pytest.raises(FencedOut):
            await queue.append(lease, 1, ["a-again"])
        assert await queue.append(lease, 2, ["b"]) == 3
        assert await queue.log(lease.job.game_id) == ["h", "a", "b"]
        await queue.close()

    run(scenario())


def test_a_live_match_is_never_taken_over(make_queue: MakeQueue) -> None:
    async def scenario() -> None:
        queue = await make_queue(heartbeat_s=0.5)  # refreshed every 0.1 s for 1.6 s in all
        await queue.submit(jobs()[:1])
        lease = await queue.claim("a")
        assert lease is not None
        for _ in range(16):
            await asyncio.sleep(0.1)
            assert await queue.heartbeat(lease)
            assert await queue.claim("b") is None
        await queue.close()

    run(scenario())


def test_expired_match_is_taken_over_and_the_stale_worker_fenced(make_queue: MakeQueue) -> None:
    async def scenario() -> None:
        queue = await make_queue(heartbeat_s=0.15)
        await queue.submit(jobs()[:1])
        old = await queue.claim("a")
        assert old is not None
        await queue.append(old, 0, ["header", "line-1"])
        await asyncio.sleep(0.3)
        new = await queue.claim("b")
        assert new is not None and new.job.game_id == old.job.game_id
        assert new.token > old.token and new.attempt == 2
        assert await queue.log(new.job.game_id) == ["header", "line-1"]
        with pytest.raises(FencedOut):
            await queue.append(old, 2, ["late write"])
        assert not await queue.heartbeat(old)
        with pytest.raises(FencedOut):
            await queue.complete(old, MatchResult(game_id=old.job.game_id), "")
        with pytest.raises(FencedOut):
            await queue.fail(old, "late failure")
        assert await queue.append(new, 2, ["line-2"]) == 3
        assert await queue.log(new.job.game_id) == ["header", "line-1", "line-2"]
        await queue.close()

    run(scenario())


def test_abandoned_match_is_taken_over_at_once(make_queue: MakeQueue) -> None:
    async def scenario() -> None:
        queue = await make_queue(heartbeat_s=30.0)
        await queue.submit(jobs()[:1])
        lease = await queue.claim("a")
        assert lease is not None
        await queue.abandon(lease)
        again = await queue.claim("b")
        assert again is not None and again.token > lease.token
        await queue.close()

    run(scenario())


def test_complete_acknowledges_and_adds_spend(make_queue: MakeQueue) -> None:
    async def scenario() -> None:
        queue = await make_queue()
        batch = jobs()
        await queue.submit(batch)
        for _ in batch:
            lease = await queue.claim("w")
            assert lease is not None
            result = MatchResult(
                game_id=lease.job.game_id,
                reason="test",
                spend={"a": Spend(tokens=100, usd=0.25, games=1), "b": Spend(tokens=1, voided=1)},
            )
            await queue.complete(lease, result, "final")
        statuses = await queue.statuses([j.game_id for j in batch])
        assert all(s.state is GameState.DONE and s.result is not None for s in statuses)
        spent = await queue.spend("contract")
        assert spent["a"].tokens == 100 * len(batch) and spent["b"].tokens == len(batch)
        assert spent["a"].usd == pytest.approx(0.25 * len(batch))
        assert (spent["a"].games, spent["a"].voided) == (len(batch), 0)
        assert (spent["b"].games, spent["b"].voided) == (0, len(batch))
        assert (await queue.submit(batch)).queued == ()
        assert await queue.claim("w") is None
        await queue.close()

    run(scenario())


def test_a_finished_replay_is_held_with_the_acknowledgement(make_queue: MakeQueue) -> None:
    async def scenario() -> None:
        queue = await make_queue()
        first, second = jobs(games=1)[:2]
        await queue.submit([first, second])
        lease = await queue.claim("w")
        assert lease is not None
        ids = [first.game_id, second.game_id]
        assert await queue.replays(ids) == {}
        await queue.complete(lease, MatchResult(game_id=lease.job.game_id), "final", "packed")
        assert await queue.replays(ids) == {lease.job.game_id: "packed"}
        assert not await queue.offer_replay(lease.job.game_id, "other")
        other = next(g for g in ids if g != lease.job.game_id)
        assert await queue.offer_replay(other, "offered")
        assert await queue.replays(ids) == {lease.job.game_id: "packed", other: "offered"}
        await queue.close()

    run(scenario())


def test_forget_drops_finished_games_only_and_spend_with_the_last(make_queue: MakeQueue) -> None:
    async def scenario() -> None:
        queue = await make_queue()
        done, failed, running, queued = jobs(games=2, max_attempts=1)[:4]
        await queue.submit([done, failed, running, queued])
        leases = {}
        for _ in range(3):
            lease = await queue.claim("w")
            assert lease is not None
            leases[lease.job.game_id] = lease
        assert set(leases) == {done.game_id, failed.game_id, running.game_id}
        spend = {"a": Spend(tokens=7, games=1)}
        result = MatchResult(game_id=done.game_id, spend=spend)
        await queue.complete(leases[done.game_id], result, "final", "packed")
        assert await queue.fail(leases[failed.game_id], "boom")
        everything = [done, failed, running, queued]
        assert await queue.forget(everything) == (done.game_id,)
        states = [s.state for s in await queue.statuses([j.game_id for j in everything])]
        assert states == [GameState.UNKNOWN, GameState.FAILED, GameState.RUNNING, GameState.QUEUED]
        assert await queue.replays([done.game_id]) == {}
        assert (await queue.spend("contract"))["a"].tokens == 7  # games of it remain
        assert await queue.forget(everything) == ()
        last = MatchResult(game_id=running.game_id)
        await queue.complete(leases[running.game_id], last, "final", "packed too")
        assert await queue.forget(everything) == (running.game_id,)
        assert (await queue.spend("contract"))["a"].tokens == 7
        assert (await queue.claim("w")) is not None  # the queued game is still handed out
        assert (await queue.submit([done])).queued == (done.game_id,)  # unknown: new again
        await queue.close()

    run(scenario())


def test_forget_leaves_nothing_of_a_game_the_backend_lost(make_queue: MakeQueue) -> None:
    """After a loss of state, a worker gives a finished replay back to the emptied queue
    (`offer_replay`) though the game itself is gone; forgetting it drops the replay too,
    once (a second forget finds nothing), and a game queued again is still kept."""

    async def scenario() -> None:
        queue = await make_queue()
        lost, queued = jobs(games=1)[:2]
        assert await queue.offer_replay(lost.game_id, "packed")
        await queue.submit([queued])
        assert await queue.forget([lost, queued]) == (lost.game_id,)
        assert await queue.replays([lost.game_id]) == {}
        assert await queue.forget([lost, queued]) == ()
        assert [s.state for s in await queue.statuses([queued.game_id])] == [GameState.QUEUED]
        await queue.close()

    run(scenario())


def test_forgetting_a_whole_tournament_drops_its_spend(make_queue: MakeQueue) -> None:
    async def scenario() -> None:
        queue = await make_queue()
        batch = jobs(games=1)[:2]
        await queue.submit(batch)
        for _ in batch:
            lease = await queue.claim("w")
            assert lease is not None
            spend = {"a": Spend(tokens=3, games=1)}
            result = MatchResult(game_id=lease.job.game_id, spend=spend)
            await queue.complete(lease, result, "final", "packed")
        assert (await queue.spend("contract"))["a"].tokens == 6
        assert sorted(await queue.forget(batch)) == sorted(j.game_id for j in batch)
        assert await queue.spend("contract") == {}
        await queue.close()

    run(scenario())


def test_failures_requeue_then_dead_letter(make_queue: MakeQueue) -> None:
    async def scenario() -> None:
        queue = await make_queue()
        job = jobs(max_attempts=2)[0]
        await queue.submit([job])
        first = await queue.claim("w")
        assert first is not None
        assert not await queue.fail(first, "boom 1")
        second = await queue.claim("w")
        assert second is not None and second.attempt == 2
        assert await queue.fail(second, "boom 2")
        assert await queue.claim("w") is None
        [status] = await queue.statuses([job.game_id])
        assert status.state is GameState.FAILED and status.error == "boom 2"
        [dead] = await queue.dead_letters()
        assert (dead.game_id, dead.error, dead.attempts) == (job.game_id, "boom 2", 2)
        assert dead.job == job
        assert (await queue.submit([job])).requeued == (job.game_id,)
        assert (await queue.claim("w")) is not None
        await queue.close()

    run(scenario())


def test_a_match_whose_workers_keep_dying_is_dead_lettered(make_queue: MakeQueue) -> None:
    async def scenario() -> None:
        queue = await make_queue(heartbeat_s=0.1)
        job = jobs(max_attempts=2)[0]
        await queue.submit([job])
        assert await queue.claim("a") is not None
        await asyncio.sleep(0.2)
        assert await queue.claim("b") is not None
        await asyncio.sleep(0.2)
        assert await queue.claim("c") is None
        [dead] = await queue.dead_letters()
        assert dead.error == "worker lost 2 times"
        await queue.close()

    run(scenario())


def test_endpoint_slots_bound_calls_in_flight(make_queue: MakeQueue) -> None:
    async def scenario() -> None:
        queue = await make_queue()
        assert await queue.try_slot("ep", 2, "x", 30)
        assert await queue.try_slot("ep", 2, "y", 30)
        assert not await queue.try_slot("ep", 2, "z", 30)
        assert await queue.try_slot("other", 1, "z", 30)
        await queue.release_slot("ep", "x")
        assert await queue.try_slot("ep", 2, "z", 30)
        await queue.close()

    run(scenario())


def test_expired_slots_are_freed(make_queue: MakeQueue) -> None:
    async def scenario() -> None:
        queue = await make_queue()
        assert await queue.try_slot("ep", 1, "crashed", 0.05)
        assert not await queue.try_slot("ep", 1, "next", 30)
        await asyncio.sleep(0.1)
        assert await queue.try_slot("ep", 1, "next", 30)
        await queue.close()

    run(scenario())
