"""`MemoryQueue`: the in-process twin of `RedisQueue`, for `arena tournament run`.

Same contract (tests/contract/ runs both): leases with fencing tokens, heartbeats that
expire, takeover of a match whose heartbeat expired, dead letters after `max_attempts`
starts. Everything lives in one event loop, so each method is atomic by construction
(no `await` inside). The clock is injectable for tests.

With a `spool` directory, each game's log is also appended to `spool/{id}.log` (flushed
per write, deleted once the game completes), so a process killed mid-tournament leaves
what it played on disk: the next process that submits the same jobs loads those logs and
its workers resume the games there, as a Redis worker resumes from `arena:log:{id}`.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from arena.errors import ArenaError
from arena.queue.jobs import (
    DeadLetter,
    FencedOut,
    GameState,
    GameStatus,
    Lease,
    MatchJob,
    MatchResult,
    Spend,
    SubmitReport,
)


@dataclass
class _Game:
    job: MatchJob
    state: GameState = GameState.QUEUED
    attempts: int = 0
    error: str = ""
    result: MatchResult | None = None
    token: int = 0
    heartbeat_until: float | None = None
    message: int = 0
    log: list[str] = field(default_factory=list)


class MemoryQueue:
    """A `JobQueue` in this process's memory."""

    def __init__(
        self,
        *,
        heartbeat_s: float = 15.0,
        clock: Callable[[], float] = time.monotonic,
        spool: Path | None = None,
    ) -> None:
        self._heartbeat_s = heartbeat_s
        self._spool = spool
        self._clock = clock
        self._games: dict[str, _Game] = {}
        self._pending: deque[tuple[str, int]] = deque()
        self._running: set[str] = set()
        self._messages = 0
        self._dead: list[DeadLetter] = []
        self._spend: dict[str, dict[str, Spend]] = {}
        self._slots: dict[str, dict[str, float]] = {}
        self._replays: dict[str, str] = {}

    @property
    def heartbeat_s(self) -> float:
        """How long a match's heartbeat lives without a refresh."""
        return self._heartbeat_s

    def _enqueue(self, game: _Game) -> None:
        self._messages += 1
        game.message = self._messages
        game.state = GameState.QUEUED
        self._running.discard(game.job.game_id)
        self._pending.append((game.job.game_id, game.message))

    async def submit(self, jobs: Sequence[MatchJob]) -> SubmitReport:
        """Queue the jobs that are not already known (see `JobQueue.submit`)."""
        for job in jobs:
            known = self._games.get(job.game_id)
            if known is not None and known.job.fingerprint != job.fingerprint:
                raise ArenaError(
                    f"game {job.game_id} was submitted with different content; "
                    "give the changed tournament a new name"
                )
        queued, requeued, existing = [], [], []
        for job in jobs:
            game = self._games.get(job.game_id)
            if game is None:
                game = self._games[job.game_id] = _Game(job=job, log=self._unspool(job.game_id))
                self._enqueue(game)
                queued.append(job.game_id)
            elif game.state is GameState.FAILED:
                game.attempts, game.error = 0, ""
                self._enqueue(game)
                requeued.append(job.game_id)
            else:
                existing.append(job.game_id)
        return SubmitReport(
            queued=tuple(queued), requeued=tuple(requeued), existing=tuple(existing)
        )

    def _spooled(self, game_id: str) -> Path | None:
        return self._spool / f"{game_id}.log" if self._spool is not None else None

    def _unspool(self, game_id: str) -> list[str]:
        """The complete lines an earlier process spooled for this game.

        A line torn by a kill (no final newline) is cut off the file too, so the next
        append continues the log cleanly.
        """
        path = self._spooled(game_id)
        if path is None or not path.exists():
            return []
        *lines, torn = path.read_text(encoding="utf-8").split("\n")
        if torn:
            path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
        return lines

    def _spool_write(self, game_id: str, lines: Sequence[str]) -> None:
        path = self._spooled(game_id)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("a", encoding="utf-8") as out:
                out.write("".join(f"{line}\n" for line in lines))

    async def claim(self, consumer: str) -> Lease | None:
        """A job to play: a takeover of an expired match first, else the oldest queued."""
        now = self._clock()
        for game_id in list(self._running):
            game = self._games[game_id]
            if game.heartbeat_until is not None and game.heartbeat_until <= now:
                lease = self._start(game, consumer)
                if lease is not None:
                    return lease
        while self._pending:
            game_id, message = self._pending.popleft()
            queued = self._games.get(game_id)  # None: forgotten since
            if queued and queued.message == message and queued.state is GameState.QUEUED:
                lease = self._start(queued, consumer)
                if lease is not None:
                    return lease
        return None

    def _start(self, game: _Game, consumer: str) -> Lease | None:
        game.attempts += 1
        if game.attempts > game.job.max_attempts:
            self._bury(game, game.error or f"worker lost {game.attempts - 1} times")
            return None
        game.token += 1
        game.state = GameState.RUNNING
        self._running.add(game.job.game_id)
        game.heartbeat_until = self._clock() + self._heartbeat_s
        return Lease(
            job=game.job,
            token=game.token,
            message_id=str(game.message),
            attempt=game.attempts,
            consumer=consumer,
        )

    def _bury(self, game: _Game, error: str) -> None:
        game.state, game.error, game.heartbeat_until = GameState.FAILED, error, None
        self._running.discard(game.job.game_id)
        attempts = min(game.attempts, game.job.max_attempts)
        self._dead.append(
            DeadLetter(game_id=game.job.game_id, error=error, attempts=attempts, job=game.job)
        )

    def _current(self, lease: Lease) -> _Game | None:
        game = self._games.get(lease.job.game_id)
        if game is None or game.token != lease.token or game.state is not GameState.RUNNING:
            return None
        return game

    def _owned(self, lease: Lease) -> _Game:
        game = self._current(lease)
        if game is None:
            raise FencedOut(f"game {lease.job.game_id}: lease {lease.token} is no longer current")
        return game

    async def heartbeat(self, lease: Lease) -> bool:
        """Refresh the heartbeat; False once another start superseded the lease."""
        game = self._current(lease)
        if game is None:
            return False
        game.heartbeat_until = self._clock() + self._heartbeat_s
        return True

    async def append(self, lease: Lease, start: int, lines: Sequence[str]) -> int:
        """Append under the current lease at the expected position (see `JobQueue`)."""
        game = self._owned(lease)
        if start != len(game.log):
            raise FencedOut(
                f"game {lease.job.game_id}: write at line {start}, log has {len(game.log)}"
            )
        self._spool_write(game.job.game_id, lines)
        game.log.extend(lines)
        return len(game.log)

    async def log(self, game_id: str) -> list[str]:
        """The game's log lines so far."""
        game = self._games.get(game_id)
        return list(game.log) if game is not None else []

    async def complete(
        self, lease: Lease, result: MatchResult, final_line: str, replay: str = ""
    ) -> None:
        """Record the result and acknowledge; the log is dropped (the replay is durable)."""
        game = self._owned(lease)
        if replay:
            self._replays[game.job.game_id] = replay
        game.state = GameState(result.status)
        self._running.discard(game.job.game_id)
        game.result, game.error, game.heartbeat_until = result, "", None
        game.token += 1
        game.log = []
        if (path := self._spooled(game.job.game_id)) is not None:
            path.unlink(missing_ok=True)
        totals = self._spend.setdefault(game.job.tournament, {})
        for name, spend in result.spend.items():
            totals[name] = totals.get(name, Spend()) + spend

    async def replays(self, game_ids: Sequence[str]) -> dict[str, str]:
        """The packed finished replays held among `game_ids`."""
        return {g: self._replays[g] for g in game_ids if g in self._replays}

    async def offer_replay(self, game_id: str, packed: str) -> bool:
        """Keep `packed` as the game's replay unless one is held."""
        if game_id in self._replays:
            return False
        self._replays[game_id] = packed
        return True

    async def forget(self, jobs: Sequence[MatchJob]) -> tuple[str, ...]:
        """Drop the finished games among `jobs`; the ids forgotten (see `JobQueue`)."""
        forgotten = []
        for job in jobs:
            game = self._games.get(job.game_id)
            if game is not None and game.state not in (GameState.DONE, GameState.SKIPPED):
                continue  # queued, running or failed: kept
            held = self._games.pop(job.game_id, None) or self._replays.get(job.game_id)
            self._replays.pop(job.game_id, None)
            if held is not None:  # a game lost but for its replay goes too
                forgotten.append(job.game_id)
        for name in {job.tournament for job in jobs}:
            if not any(g.job.tournament == name for g in self._games.values()):
                self._spend.pop(name, None)
        return tuple(forgotten)

    async def fail(self, lease: Lease, error: str) -> bool:
        """Re-queue, or dead-letter after `max_attempts` starts; True if dead."""
        game = self._owned(lease)
        game.token += 1
        game.error, game.heartbeat_until = error, None
        if game.attempts >= game.job.max_attempts:
            self._bury(game, error)
            return True
        self._enqueue(game)
        return False

    async def abandon(self, lease: Lease) -> None:
        """Let the heartbeat lapse now so another worker takes over at once."""
        game = self._current(lease)
        if game is not None:
            game.heartbeat_until = self._clock()

    async def statuses(self, game_ids: Sequence[str]) -> list[GameStatus]:
        """Each game's status, in order."""
        out = []
        for game_id in game_ids:
            game = self._games.get(game_id)
            if game is None:
                out.append(GameStatus(game_id=game_id, state=GameState.UNKNOWN))
            else:
                out.append(
                    GameStatus(
                        game_id=game_id,
                        state=game.state,
                        attempts=game.attempts,
                        error=game.error,
                        result=game.result,
                    )
                )
        return out

    async def spend(self, tournament: str) -> dict[str, Spend]:
        """Spend per agent over the tournament's finished games."""
        return dict(self._spend.get(tournament, {}))

    async def dead_letters(self) -> list[DeadLetter]:
        """Every dead-lettered job, oldest first."""
        return list(self._dead)

    async def try_slot(self, endpoint: str, limit: int, holder: str, ttl_s: float) -> bool:
        """Take a call slot of `endpoint` if fewer than `limit` are held (expired ones free)."""
        now = self._clock()
        held = {h: t for h, t in self._slots.get(endpoint, {}).items() if t > now}
        if holder in held or len(held) < limit:
            held[holder] = now + ttl_s
            self._slots[endpoint] = held
            return True
        self._slots[endpoint] = held
        return False

    async def release_slot(self, endpoint: str, holder: str) -> None:
        """Give a call slot back."""
        self._slots.get(endpoint, {}).pop(holder, None)

    async def check_state(self) -> None:
        """Memory is never lost while the process lives."""

    async def close(self) -> None:
        """Nothing to release."""
