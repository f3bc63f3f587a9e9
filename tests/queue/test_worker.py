"""The worker: faithful play, takeover with resume and fencing, failures, budgets, limits."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from arena.agents.base import Agent, AgentReply
from arena.agents.random_agent import RandomAgent
from arena.agents.remote import RemoteAgent
from arena.commands.progress import progress_lines
from arena.queue.jobs import AgentEntry, GameState, MatchJob, MatchResult, Spend
from arena.queue.results import replay_path
from arena.queue.seating import build_seats, per_seat
from arena.queue.worker import Worker
from arena.rules import events as ev
from arena.rules.decisions import DecisionRequest
from arena.rules.errors import ConfigError
from arena.rules.observation import Observation
from arena.storage.replay_file import read_header, read_replay
from tests.agents.remote.support import InProcess
from tests.queue.conftest import QueueMaker, clean_events, make_jobs, replay_events, run_all

REMOTE = "http://agent.test/agent"
"""The example remote agent's URL, served in-process (`InProcess`)."""


def test_every_game_is_played_once_as_a_clean_run_would(
    new_queue: QueueMaker, tmp_path: Path
) -> None:
    jobs = make_jobs(games=2, boards=["std9", "wwk_guard"])

    async def scenario() -> None:
        stats = await run_all(new_queue(5.0), jobs, tmp_path, concurrency=3)
        assert (stats.done, stats.failed, stats.fenced) == (len(jobs), 0, 0)

    asyncio.run(scenario())
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"{j.game_id}.jsonl" for j in jobs]
    for job in jobs:
        path = replay_path(tmp_path, job.game_id)
        header = read_header(path)
        assert header.result is not None and header.tournament == "t"
        assert [s.agent for s in header.seats] == list(job.seats)  # the entries' names
        assert [s.spec for s in header.seats] == ["random"] * len(job.seats)
        assert replay_events(path) == clean_events(job)


class Stalling:
    """Plays like `RandomAgent` but hangs after `after` decisions until released."""

    def __init__(self, seed: int, after: int, gate: asyncio.Event, counter: list[int]) -> None:
        self._inner = RandomAgent(seed)
        self._after = after
        self._gate = gate
        self._counter = counter

    @property
    def name(self) -> str:
        return "random"

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        self._counter[0] += 1
        if self._counter[0] > self._after:
            await self._gate.wait()
        return await self._inner.decide(view, request, feedback)


class FrozenWorker(Worker):
    """A worker whose heartbeat stopped (a stalled process) but whose game goes on."""

    async def _keep(self, lease: object) -> None:
        await asyncio.Event().wait()


def test_stalled_worker_is_taken_over_resumed_and_fenced(
    new_queue: QueueMaker, tmp_path: Path
) -> None:
    job = make_jobs()[0]

    async def scenario() -> None:
        heartbeat = 2.0  # long enough that a loaded machine reaches the stall first
        queue = new_queue(heartbeat)
        await queue.submit([job])
        gate, counter = asyncio.Event(), [0]

        def stalling(entry: AgentEntry, seat: int, seed: int) -> Agent:
            return Stalling(seed, 60, gate, counter)

        stale = FrozenWorker(queue, tmp_path, consumer="stale", seat_builder=per_seat(stalling))
        lease = await queue.claim("stale")
        assert lease is not None
        task = asyncio.create_task(stale.run_match(lease))
        for _ in range(3000):  # at most 30 s; a failed match must fail the test, not hang it
            if counter[0] > 60 or task.done():
                break
            await asyncio.sleep(0.01)
        assert not task.done(), f"the stalled worker's match ended early: {task.result()}"
        assert counter[0] > 60
        await asyncio.sleep(heartbeat + 0.3)  # the frozen heartbeat expires
        logged = len(await queue.log(job.game_id))
        assert logged > 50
        fresh = Worker(queue, tmp_path, consumer="fresh")
        takeover = await queue.claim("fresh")
        assert takeover is not None and takeover.token > lease.token
        await fresh.run_match(takeover)
        assert (fresh.stats.resumed, fresh.stats.done) == (1, 1)
        gate.set()
        await task
        assert (stale.stats.fenced, stale.stats.done, stale.stats.failed) == (1, 0, 0)
        [status] = await queue.statuses([job.game_id])
        assert status.state is GameState.DONE and status.attempts == 2

    asyncio.run(scenario())
    path = replay_path(tmp_path, job.game_id)
    assert replay_events(path) == clean_events(job)
    seqs = [line for line in path.read_text().splitlines() if '"type":"event"' in line]
    assert len(seqs) == len(set(seqs)) == len(clean_events(job))


def test_a_resumed_game_greets_its_remote_agents_again(
    new_queue: QueueMaker, tmp_path: Path
) -> None:
    """A takeover resumes from the log, whose header keeps the endpoints, so nothing is
    probed again; but the remote agent is greeted again, once for all its seats (a health
    check, and how a seat learns the features the hello lists): one that answers beliefs
    goes on being asked them."""
    job = make_jobs()[0]
    example = InProcess()

    async def scenario() -> None:
        heartbeat = 2.0
        queue = new_queue(heartbeat)
        await queue.submit([job])
        gate, counter = asyncio.Event(), [0]

        def stalling(entry: AgentEntry, seat: int, seed: int) -> Agent:
            return Stalling(seed, 15, gate, counter)

        def remote(entry: AgentEntry, seat: int, seed: int) -> Agent:
            return RemoteAgent(REMOTE, game_id=job.game_id, transport=example.transport())

        stale = FrozenWorker(queue, tmp_path, consumer="stale", seat_builder=per_seat(stalling))
        lease = await queue.claim("stale")
        assert lease is not None
        task = asyncio.create_task(stale.run_match(lease))
        for _ in range(3000):  # at most 30 s
            if counter[0] > 15 or task.done():
                break
            await asyncio.sleep(0.01)
        assert not task.done() and counter[0] > 15
        await asyncio.sleep(heartbeat + 0.3)
        fresh = Worker(queue, tmp_path, consumer="fresh", seat_builder=per_seat(remote))
        takeover = await queue.claim("fresh")
        assert takeover is not None
        await fresh.run_match(takeover)
        assert (fresh.stats.resumed, fresh.stats.done) == (1, 1)
        gate.set()
        await task

    asyncio.run(scenario())
    kinds = [json.loads(body)["type"] for body in example.bodies]
    assert kinds[0] == "hello" and kinds.count("hello") == 1
    assert "believe" in kinds, kinds
    replay = read_replay(replay_path(tmp_path, job.game_id))
    assert replay.beliefs  # the reports the resumed game recorded


def test_a_failing_match_goes_to_the_dead_letters(new_queue: QueueMaker, tmp_path: Path) -> None:
    jobs = make_jobs(max_attempts=2)

    def broken(entry: AgentEntry, seat: int, seed: int) -> Agent:
        raise ConfigError("no such model")

    async def scenario() -> None:
        queue = new_queue(5.0)
        stats = await run_all(queue, jobs, tmp_path, seat_builder=per_seat(broken))
        assert stats.failed == len(jobs) and stats.done == 0
        dead = await queue.dead_letters()
        assert {d.game_id for d in dead} == {j.game_id for j in jobs}
        assert all(d.error == "ConfigError: no such model" and d.attempts == 2 for d in dead)

    asyncio.run(scenario())
    assert list(tmp_path.iterdir()) == []


def test_spent_budget_skips_matches_not_yet_started(new_queue: QueueMaker, tmp_path: Path) -> None:
    jobs = make_jobs(agents={"a": {"spec": "random", "max_tokens": 1000}, "b": "random"})

    async def scenario() -> None:
        queue = new_queue(5.0)
        await queue.submit(jobs)
        first = await queue.claim("w")
        assert first is not None
        spent = MatchResult(game_id=first.job.game_id, spend={"a": Spend(tokens=1000)})
        await queue.complete(first, spent, "")
        stats = await run_all(queue, jobs, tmp_path)
        assert (stats.skipped, stats.done) == (1, 0)
        [status] = await queue.statuses([jobs[1].game_id])
        assert status.state is GameState.SKIPPED and status.result is not None
        assert status.result.reason == "budget: a used 1,000 of 1,000 tokens"

    asyncio.run(scenario())


def test_a_finished_replay_on_disk_is_acknowledged_not_replayed(
    new_queue: QueueMaker, tmp_path: Path
) -> None:
    job = make_jobs()[0]

    def unusable(entry: AgentEntry, seat: int, seed: int) -> Agent:
        raise AssertionError("the game was played again")

    async def scenario() -> None:
        await run_all(new_queue(5.0), [job], tmp_path)
        before = replay_path(tmp_path, job.game_id).read_text()
        queue = new_queue(5.0, prefix="forgetful")
        stats = await run_all(queue, [job], tmp_path, seat_builder=per_seat(unusable))
        assert (stats.done, stats.failed) == (1, 0)
        assert replay_path(tmp_path, job.game_id).read_text() == before

    asyncio.run(scenario())


def test_endpoint_limit_bounds_model_calls_across_matches(
    new_queue: QueueMaker, tmp_path: Path
) -> None:
    jobs = make_jobs(
        agents={"m": {"spec": "delay:2:random", "endpoint": "local"}, "bot": "random"},
        concurrency={"local": 3},
        games_per_pairing=1,
    )
    in_flight, peak = [0], [0]

    class Counting:
        def __init__(self, inner: Agent) -> None:
            self._inner = inner

        @property
        def name(self) -> str:
            return self._inner.name

        async def decide(
            self, view: Observation, request: DecisionRequest, feedback: str | None = None
        ) -> AgentReply:
            in_flight[0] += 1
            peak[0] = max(peak[0], in_flight[0])
            try:
                return await self._inner.decide(view, request, feedback)
            finally:
                in_flight[0] -= 1

    def counted(job: MatchJob) -> dict[int, Agent]:
        agents = build_seats(job)
        return {
            s: Counting(a) if job.agent_of(s).endpoint == "local" else a for s, a in agents.items()
        }

    async def scenario() -> None:
        stats = await run_all(new_queue(5.0), jobs, tmp_path, concurrency=2, seat_builder=counted)
        assert stats.done == len(jobs) == 2

    asyncio.run(scenario())
    assert peak[0] == 3
    for job in jobs:
        assert read_replay(replay_path(tmp_path, job.game_id)).header.result is not None


def test_waiting_for_an_endpoint_slot_never_counts_as_a_late_answer(
    new_queue: QueueMaker, tmp_path: Path
) -> None:
    """One slot, calls of 25 ms, a 150 ms call limit: eight good seats voting at once
    queue longer than the limit (7 x 25 ms, more with both matches), yet no decision is
    defaulted, because the clock of a call starts only once its slot is held."""
    jobs = make_jobs(
        agents={"m": {"spec": "delay:25:random", "endpoint": "local"}, "n": "random"},
        concurrency={"local": 1},
        limits={"call_timeout_s": 0.15},
        games_per_pairing=1,
    )

    async def scenario() -> None:
        stats = await run_all(new_queue(5.0), jobs, tmp_path, concurrency=2)
        assert stats.done == len(jobs) == 2

    asyncio.run(scenario())
    for job in jobs:
        replay = read_replay(replay_path(tmp_path, job.game_id))
        assert replay.header.result is not None
        assert not [e for e in replay.events if isinstance(e, ev.ActionDefaulted)]


def test_stop_hands_a_running_match_back_for_immediate_takeover(
    new_queue: QueueMaker, tmp_path: Path
) -> None:
    """`stop()` cancels the match, not the slot: the lease is abandoned, so another
    worker takes the match over at once instead of after the heartbeat expires."""
    job = make_jobs()[0]

    async def scenario() -> None:
        queue = new_queue(60.0)  # an expiry this long would fail the test if it were needed
        await queue.submit([job])
        gate, counter = asyncio.Event(), [0]

        def stalling(entry: AgentEntry, seat: int, seed: int) -> Agent:
            return Stalling(seed, 40, gate, counter)

        worker = Worker(queue, tmp_path, concurrency=2, seat_builder=per_seat(stalling))
        running = asyncio.create_task(worker.run())
        for _ in range(3000):  # at most 30 s
            if counter[0] > 40:
                break
            await asyncio.sleep(0.01)
        assert counter[0] > 40 and not running.done()
        worker.stop()
        done, _ = await asyncio.wait([running], timeout=30)
        assert done, "the worker did not stop within 30 s"
        stats = running.result()
        assert (stats.done, stats.failed, stats.fenced) == (0, 0, 0)
        takeover = await queue.claim("next")
        assert takeover is not None and takeover.attempt == 2
        [status] = await queue.statuses([job.game_id])
        assert status.state is GameState.RUNNING

    asyncio.run(scenario())
    assert not replay_path(tmp_path, job.game_id).exists()


class Garbage:
    """An agent whose every answer is refused (a remote agent answering nonsense)."""

    accountable = True

    @property
    def name(self) -> str:
        return "garbage"

    async def decide(
        self, view: Observation, request: DecisionRequest, feedback: str | None = None
    ) -> AgentReply:
        return AgentReply(action=None, error="not an Answer")


def test_an_agent_whose_games_keep_voiding_is_quarantined(
    new_queue: QueueMaker, tmp_path: Path
) -> None:
    """After three voided games (half or more of its games), its other games are skipped."""
    jobs = make_jobs(games=4, agents={"a": "bot", "b": "random"})

    def seat(job: MatchJob) -> dict[int, Agent]:
        agents = build_seats(job)
        return {s: Garbage() if job.agent_of(s).spec == "bot" else a for s, a in agents.items()}

    async def scenario() -> None:
        queue = new_queue(5.0)
        stats = await run_all(queue, jobs, tmp_path, seat_builder=seat, concurrency=1)
        assert (stats.done, stats.skipped) == (3, len(jobs) - 3)
        statuses = await queue.statuses([j.game_id for j in jobs])
        skipped = [s.result.reason for s in statuses if s.state is GameState.SKIPPED and s.result]
        assert set(skipped) == {"quarantined: a voided 3 of its 3 games"}
        spent = await queue.spend("t")
        assert (spent["a"].games, spent["a"].voided) == (3, 3)
        assert (spent["b"].games, spent["b"].voided) == (3, 0)
        lines = progress_lines(statuses, spent)
        assert "  quarantined: a voided 3 of its 3 games: its remaining games are skipped" in lines

    asyncio.run(scenario())
