"""The worker: claim a match, play (or resume) it under its lease, make it durable, ack.

One `Worker` runs `concurrency` matches at once in one event loop. For each claimed
lease it:

1. acknowledges at once a game whose finished replay is already on disk (a crash after
   the replay was written but before the acknowledgement), or held by the queue (played
   on another machine before a loss, then submitted again: written here, not replayed);
2. skips a game whose agents' budget is spent, or with an agent quarantined because its
   games keep voiding (`arena.queue.jobs.quarantined`; recorded as `skipped`);
3. otherwise plays it, from the start or from the queue's log of an earlier start,
   writing every line through a `FencedWriter` while a heartbeat task keeps the lease;
4. writes the replay file durably, then `complete`s the job, handing the queue the
   replay's bytes so the submitter gathers it (`arena.queue.results`).

A refused write or a lost heartbeat means another worker owns the match now: this one
stops it without acknowledging or failing anything. Any other error `fail`s the job
(re-queued, or dead-lettered after `max_attempts`).

A queue that lost its data (a Redis restarted without persistence, `StateLost`) is
noticed by the next claim or by the first refused write, and said once, in one line at
ERROR: the worker stops the matches it was playing, queues them again on the emptied
server (from the start: their logs are gone; a game whose replay is already on disk is
only acknowledged), gives the queue back the finished replays in its folder of the
tournaments it served, and keeps serving. Games it was not playing cannot be re-created
here: submitting the tournament again queues them, and those finished on any worker
that gave its replays back are acknowledged, not played (docs/tournaments.md). A queue that
cannot be reached is also logged once, and once more when it is back.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import socket
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from arena.agents.base import Agent
from arena.agents.slots import throttle
from arena.match import Entry, GameVoided, play, result_of
from arena.prepare import GamePlan, prepare_game
from arena.queue.base import JobQueue, raise_if_cancelled
from arena.queue.fenced_log import FencedWriter, LoggedGame, parse_log, write_replay
from arena.queue.jobs import (
    FencedOut,
    GameState,
    Lease,
    MatchJob,
    MatchResult,
    StateLost,
    paused,
)
from arena.queue.results import (
    finished_replay,
    match_result,
    offer_replays,
    pack,
    replay_path,
    take_finished,
)
from arena.queue.seating import EndpointGate, SeatBuilder, build_seats
from arena.rules.referee import Referee, play_answers
from arena.storage.replay_file import ReplayHeader
from arena.storage.replay_lines import header_line
from arena.storage.seal import arena_key

log = logging.getLogger("arena.worker")
RETRY_S = 1.0
"""Pause after a queue error (server restarting, network blip) before trying again."""
RECANCEL_S = 0.5
"""While stopping, a match still running this long after its cancellation is cancelled
again: asyncio code in libraries (and `asyncio.wait_for` on 3.11) can swallow one."""


@dataclass
class WorkerStats:
    """What one worker did."""

    done: int = 0
    skipped: int = 0
    failed: int = 0
    fenced: int = 0
    resumed: int = 0
    lost: int = 0
    """Times the queue lost its data while this worker served it."""
    requeued: int = 0
    """Matches this worker queued again after such a loss."""
    offered: int = 0
    """Finished replays this worker gave back to a queue that had lost them."""
    gathered: int = 0
    """Jobs acknowledged with a finished replay the queue held (played on another machine
    before a loss, then submitted again), instead of playing them again."""
    errors: list[str] = field(default_factory=list)


class Worker:
    """Plays the queue's matches, `concurrency` at a time."""

    def __init__(
        self,
        queue: JobQueue,
        replays: Path,
        *,
        concurrency: int = 1,
        consumer: str | None = None,
        seat_builder: SeatBuilder = build_seats,
        poll_s: float = 0.05,
    ) -> None:
        self.queue = queue
        self.replays = replays
        self.concurrency = concurrency
        self.consumer = consumer or f"{socket.gethostname()}:{os.getpid()}"
        self.seat_builder = seat_builder
        self.poll_s = poll_s
        self.key = arena_key(create=True)
        """The tournament's signing key (`arena.storage.seal`): read before any game, so a
        worker with a bad key stops at once instead of after playing."""
        self.stats = WorkerStats()
        self._stopping = False
        self._matches: dict[asyncio.Task[None], Lease] = {}
        self._orphans: dict[str, MatchJob] = {}
        """Jobs whose match was fenced while the queue could not be asked why."""
        self._tournaments: set[str] = set()
        """The tournaments this worker played games of: after a loss it gives their
        finished replays in its folder back to the queue (`offer_replays`)."""
        self._last_error: str | None = None
        self._errors_in_row = 0

    async def run(self, until: Callable[[], Awaitable[bool]] | None = None) -> WorkerStats:
        """Play matches until `until()` is true (checked when idle), `stop()`, or forever."""
        async with asyncio.TaskGroup() as group:
            for _ in range(self.concurrency):
                group.create_task(self._loop(until))
        return self.stats

    @property
    def stopping(self) -> bool:
        """Whether `stop()` was called (or `until()` came true)."""
        return self._stopping

    def stop(self) -> None:
        """Shut down cooperatively; running matches are handed back at once.

        Idle slots leave after their current claim (at most the queue's block time);
        running matches are cancelled, and `run_match` hands each back to the queue.

        Why not just cancel `run()`: a cancellation that lands inside a blocking Redis read
        (XREADGROUP BLOCK) can be swallowed by redis-py (redis/redis-py#2028), leaving a slot
        waiting forever. Idle slots are therefore never cancelled; a match is, and again
        every `RECANCEL_S` until it ends, in case one cancellation was swallowed.
        """
        self._stopping = True
        for match in self._matches:
            match.cancel()

    async def _loop(self, until: Callable[[], Awaitable[bool]] | None) -> None:
        while not self._stopping:
            try:
                lease = await self.queue.claim(self.consumer)
                self._queue_ok()
                if self._orphans:
                    await self._adopt_orphans()
                if lease is not None:
                    await self._run_in_task(lease)
                    continue
                if until is not None and await until():
                    self._stopping = True
                    return
            except StateLost as lost:
                await self._recover(lost)
            except Exception as exc:  # a queue outage must not end the worker
                self._queue_error(exc)
                await asyncio.sleep(RETRY_S)
            await asyncio.sleep(self.poll_s)

    def _queue_error(self, exc: Exception) -> None:
        """Log a queue error once, not once a second for as long as it lasts."""
        text = _describe(exc)
        self._errors_in_row += 1
        if text != self._last_error:
            self._last_error = text
            log.error("queue error, retrying every %g s (said once): %s", RETRY_S, text)

    def _queue_ok(self) -> None:
        if self._last_error is not None:
            log.info("queue reachable again after %d failed attempts", self._errors_in_row)
            self._last_error, self._errors_in_row = None, 0

    async def _recover(self, lost: StateLost, fenced: Lease | None = None) -> None:
        """The queue lost its data: stop this worker's matches and queue them again."""
        current = asyncio.current_task()
        running = {task: lease for task, lease in self._matches.items() if task is not current}
        for task in running:
            task.cancel()
        while running and not all(task.done() for task in running):
            await asyncio.wait(running, timeout=RECANCEL_S)
            for task in running:
                task.cancel()  # again: a library may have swallowed the last one
        jobs = {lease.job.game_id: lease.job for lease in running.values()}
        jobs |= self._orphans
        if fenced is not None:
            jobs[fenced.job.game_id] = fenced.job
        self._orphans = {}
        self.stats.lost += 1
        self.stats.requeued += len(jobs)
        if jobs:
            await self.queue.submit(list(jobs.values()))
        offered = await offer_replays(self.queue, self.replays, self._tournaments)
        self.stats.offered += offered
        log.error(
            "%s. Queued again the %d matches this worker was playing%s and gave back the %d "
            "finished replays in its folder; every other queued or running game is gone: "
            "submit the tournament again (finished games are not played again) and give "
            "Redis persistence (docs/tournaments.md)",
            lost,
            len(jobs),
            f" ({', '.join(sorted(jobs))})" if jobs else "",
            offered,
        )

    async def _run_in_task(self, lease: Lease) -> None:
        """Play `lease` in its own task, so `stop()` cancels the match and not the slot."""
        if self._stopping:  # claimed just as the worker began to stop
            await self.queue.abandon(lease)
            return
        match = asyncio.create_task(self.run_match(lease))
        self._matches[match] = lease
        try:
            while not match.done():
                await asyncio.wait([match], timeout=RECANCEL_S)
                if self._stopping and not match.done():
                    match.cancel()  # again: a library may have swallowed the last one
        finally:
            if not match.done():  # this slot itself was cancelled mid-match
                match.cancel()
                await asyncio.wait([match])  # let it hand the lease back first
            self._matches.pop(match, None)
        if not match.cancelled() and (error := match.exception()) is not None:
            raise error

    async def run_match(self, lease: Lease) -> None:
        """Play one leased match to a durable result (see the module docstring).

        Cancelled (a worker shutting down), it hands the match back at once so another
        worker resumes it without waiting for the heartbeat to expire.
        """
        try:
            await self._attempt(lease)
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                await self.queue.abandon(lease)
            raise

    async def _attempt(self, lease: Lease) -> None:
        job = lease.job
        fenced: BaseException | None = None
        try:
            await self._run(lease)
        except* FencedOut as group:
            fenced = _first(group)
        except* Exception as group:
            error = _describe(_first(group))
            self.stats.errors.append(f"{job.game_id}: {error}")
            await self._fail(lease, error)
        if fenced is not None:
            await self._fenced(lease, fenced)

    async def _fail(self, lease: Lease, error: str) -> None:
        job = lease.job
        try:
            dead = await self.queue.fail(lease, error)
        except FencedOut as exc:  # taken over, or the queue lost the game
            await self._fenced(lease, exc)
            return
        except Exception as exc:  # the queue itself is out: keep the job for a recovery
            self._orphans[job.game_id] = job
            self._queue_error(exc)
            return
        self.stats.failed += dead
        log.error(
            "game %s: attempt %d failed%s: %s",
            job.game_id,
            lease.attempt,
            " (dead-lettered)" if dead else "",
            error,
        )

    async def _fenced(self, lease: Lease, why: BaseException) -> None:
        """A refused write: another worker took the match over, or the queue lost it."""
        try:
            await self.queue.check_state()
        except StateLost as lost:
            await self._recover(lost, fenced=lease)
            return
        except Exception:  # cannot ask now: queue it again if a loss turns up later
            self._orphans[lease.job.game_id] = lease.job
        else:
            if await self._requeue_if_forgotten([lease.job]):
                return
        self.stats.fenced += 1
        log.warning("game %s: lease %d lost: %s", lease.job.game_id, lease.token, why)

    async def _requeue_if_forgotten(self, jobs: list[MatchJob]) -> bool:
        """Queue again the jobs the queue no longer knows (lost with its data, said once)."""
        statuses = await self.queue.statuses([job.game_id for job in jobs])
        forgotten = [
            job for job, s in zip(jobs, statuses, strict=True) if s.state is GameState.UNKNOWN
        ]
        if forgotten:
            await self.queue.submit(forgotten)
            self.stats.requeued += len(forgotten)
            for job in forgotten:
                log.info("game %s: queued again (lost with the queue's data)", job.game_id)
        return bool(forgotten)

    async def _adopt_orphans(self) -> None:
        """Jobs that ended while the queue was out: queue again those it forgot since."""
        jobs, self._orphans = list(self._orphans.values()), {}
        try:
            await self._requeue_if_forgotten(jobs)
        except Exception:  # out again: try after the next claim
            self._orphans |= {job.game_id: job for job in jobs}

    async def _run(self, lease: Lease) -> None:
        job = lease.job
        self._tournaments.add(job.tournament)
        path = replay_path(self.replays, job.game_id)
        header = finished_replay(path, job)
        if header is None and await take_finished(self.queue, job, path):
            log.info("game %s: finished elsewhere; its replay taken from the queue", job.game_id)
            self.stats.gathered += 1
            header = finished_replay(path, job)
        if header is not None:
            await self._complete(lease, header, spend_path=path)
            return
        lines = await self.queue.log(job.game_id)
        logged = parse_log(lines) if lines else None
        reason = paused(job, await self.queue.spend(job.tournament))
        if logged is None and reason is not None:
            result = MatchResult(
                game_id=job.game_id, status="skipped", reason=reason, worker=self.consumer
            )
            await self.queue.complete(lease, result, "")
            self.stats.skipped += 1
            return
        agents = self.seat_builder(job)
        plan = logged.header if logged is not None else self._plan(job)
        entries = {seat: Entry(job.seats[seat - 1], job.agent_of(seat).spec) for seat in agents}
        hold = functools.partial(self._throttled, job)
        async with prepare_game(plan, agents, hold=hold, entries=entries) as game:
            if logged is not None:
                self.stats.resumed += 1
                log.info(
                    "game %s: resuming at event %d (attempt %d)",
                    job.game_id,
                    logged.events,
                    lease.attempt,
                )
            referee, writer = self._prepare(lease, game.header, logged)
            void = await self._play(lease, referee, game.agents, writer)
        final = writer.finish(result_of(referee, void))
        write_replay(path, final, (await self.queue.log(job.game_id))[1:], self.key)
        await self._complete(lease, final, spend_path=path)

    @staticmethod
    def _plan(job: MatchJob) -> GamePlan:
        """A new game's header fields: the job's game, its tournament and language."""
        return GamePlan(job.game_id, job.config, job.seed, job.header_fields)

    def _throttled(
        self, job: MatchJob, agents: Mapping[int, Agent], _endpoints: object
    ) -> dict[int, Agent]:
        """Each seat behind its entry's endpoint gate, where the job limits the endpoint."""
        out: dict[int, Agent] = {}
        for seat, agent in agents.items():
            endpoint = job.agent_of(seat).endpoint_label
            limit = job.concurrency.get(endpoint) if endpoint is not None else None
            gate = None
            if endpoint is not None and limit is not None:
                gate = EndpointGate(self.queue, endpoint, limit, 2 * job.limits.call_timeout_s)
            out[seat] = throttle(agent, gate)
        return out

    def _prepare(
        self, lease: Lease, header: ReplayHeader, logged: LoggedGame | None
    ) -> tuple[Referee, FencedWriter]:
        """The referee and the fenced writer: a new game's, or a logged game's re-run."""
        job = lease.job
        if logged is None:
            referee = Referee(job.config, job.seed, draw=header.draw)
            return referee, FencedWriter(self.queue, lease, header, None)
        referee = play_answers(job.config, job.seed, logged.answers, draw=header.draw)
        return referee, FencedWriter(self.queue, lease, header, logged)

    async def _play(
        self, lease: Lease, referee: Referee, agents: dict[int, Agent], writer: FencedWriter
    ) -> str | None:
        """Play the match; the void reason if a model seat kept falling back (else None)."""
        void: str | None = None
        async with asyncio.TaskGroup() as group:
            keeper = group.create_task(self._keep(lease))
            pump = group.create_task(writer.pump())
            try:
                await play(referee, agents, writer=writer, limits=lease.job.limits)
            except GameVoided as voided:
                void = voided.reason
            writer.close()
            await pump
            keeper.cancel()
        return void

    async def _keep(self, lease: Lease) -> None:
        """Refresh the heartbeat three times per lifetime; raise once it is lost."""
        while True:
            await asyncio.sleep(self.queue.heartbeat_s / 3)
            if not await self.queue.heartbeat(lease):
                raise FencedOut(f"game {lease.job.game_id}: heartbeat refused")
            raise_if_cancelled()

    async def _complete(self, lease: Lease, header: ReplayHeader, *, spend_path: Path) -> None:
        job = lease.job
        result = match_result(job, header, spend_path, self.consumer)
        packed = pack(spend_path.read_text(encoding="utf-8"))
        await self.queue.complete(lease, result, header_line(header), packed)
        self.stats.done += 1
        log.info("game %s: %s (%s, day %d)", job.game_id, result.winner, result.reason, result.days)


def _first(group: BaseExceptionGroup[BaseException]) -> BaseException:
    """The first leaf exception of a (possibly nested) exception group."""
    exc: BaseException = group
    while isinstance(exc, BaseExceptionGroup):
        exc = exc.exceptions[0]
    return exc


def _describe(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
