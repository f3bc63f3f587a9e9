"""The `JobQueue` port: what a worker and a submitter need from a match queue.

Two backends implement it with one contract (tests/contract/): `RedisQueue` (Redis
Streams and a consumer group, for workers on many machines) and `MemoryQueue` (an
in-process twin for `arena tournament run`). The contract, in words:

- `submit` is idempotent per game id: a queued, running or finished game is left alone,
  a dead-lettered one is queued again, and a game id whose content changed is refused.
- `claim` hands out a queued job, or takes over a running one whose heartbeat expired;
  a match whose heartbeat is alive is never taken, however long it runs. Every claim
  carries a larger fencing `token` than the last one of that game.
- `append` adds lines to the game's log only under the current token and only at the
  expected position, so a stalled worker's late write is rejected (`FencedOut`) and no
  line is written twice. A takeover resumes from that log.
- `complete` acknowledges the job (after the caller made the replay durable) and keeps
  the finished replay's packed bytes, which `replays` hands back on any machine
  (`arena.queue.results`); `offer_replay` keeps one only where none is held. `fail`
  re-queues a job, or dead-letters it once it has been started `max_attempts` times.
- `forget` drops finished games (`done`, `skipped`) and their replays, never a queued,
  running or failed one, and whatever is left of a game the backend lost (a replay a
  worker gave back after the loss); a tournament's spend goes with its last game. A forgotten
  game is unknown to the queue: submitted again, it is played again, so the caller
  forgets only games whose replays it holds.
- A backend that loses its data (a Redis restarted without persistence) says so once,
  with `StateLost` from `check_state` or `claim`, and works again, empty.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Protocol

from arena.queue.jobs import (
    DeadLetter,
    GameStatus,
    Lease,
    MatchJob,
    MatchResult,
    Spend,
    SubmitReport,
)


class JobQueue(Protocol):
    """A durable, fenced queue of matches."""

    @property
    def heartbeat_s(self) -> float:
        """How long a match's heartbeat lives without a refresh."""
        ...

    async def submit(self, jobs: Sequence[MatchJob]) -> SubmitReport:
        """Queue the jobs that are not already known.

        Raises:
            ArenaError: a game id is known with different content.
        """
        ...

    async def claim(self, consumer: str) -> Lease | None:
        """A job to play (new, retried, or taken over after its heartbeat expired), or None.

        Raises:
            StateLost: the backend lost its data since the last claim (once per loss).
        """
        ...

    async def check_state(self) -> None:
        """Raise `StateLost` once if the backend lost its data since this client saw it.

        The backend is usable again (empty) when this returns or raises.
        """
        ...

    async def heartbeat(self, lease: Lease) -> bool:
        """Keep the match's heartbeat alive; False once the lease was lost."""
        ...

    async def append(self, lease: Lease, start: int, lines: Sequence[str]) -> int:
        """Append `lines` at position `start` of the game's log; returns the new length.

        Raises:
            FencedOut: the lease is stale or `start` is not the log's length.
        """
        ...

    async def log(self, game_id: str) -> list[str]:
        """The game's log lines so far (empty for a game never started)."""
        ...

    async def complete(
        self, lease: Lease, result: MatchResult, final_line: str, replay: str = ""
    ) -> None:
        """Record the result, publish `final_line` (the finished header) and acknowledge.

        `replay` is the finished replay, packed (`arena.queue.results.pack`; "" for a
        skipped game): kept for `replays`, in the same step as the acknowledgement.

        Raises:
            FencedOut: the lease is stale (another worker owns the match now).
        """
        ...

    async def replays(self, game_ids: Sequence[str]) -> dict[str, str]:
        """The packed finished replays held among `game_ids` (absent ones left out)."""
        ...

    async def offer_replay(self, game_id: str, packed: str) -> bool:
        """Keep `packed` as the game's finished replay unless one is held; True if kept."""
        ...

    async def forget(self, jobs: Sequence[MatchJob]) -> tuple[str, ...]:
        """Drop every trace of the finished games among `jobs`; the ids dropped."""
        ...

    async def fail(self, lease: Lease, error: str) -> bool:
        """Record a failure: re-queue, or dead-letter after `max_attempts`; True if dead.

        Raises:
            FencedOut: the lease is stale.
        """
        ...

    async def abandon(self, lease: Lease) -> None:
        """Drop the heartbeat (a worker shutting down) so another worker resumes soon."""
        ...

    async def statuses(self, game_ids: Sequence[str]) -> list[GameStatus]:
        """The status of each game, in order (`unknown` if never submitted)."""
        ...

    async def spend(self, tournament: str) -> dict[str, Spend]:
        """Tokens and money per agent over the tournament's finished games."""
        ...

    async def dead_letters(self) -> list[DeadLetter]:
        """Every dead-lettered job, oldest first."""
        ...

    async def try_slot(self, endpoint: str, limit: int, holder: str, ttl_s: float) -> bool:
        """Take one of `limit` call slots of `endpoint` for `holder` (expires after `ttl_s`)."""
        ...

    async def release_slot(self, endpoint: str, holder: str) -> None:
        """Give a call slot back."""
        ...

    async def close(self) -> None:
        """Release connections."""
        ...


def raise_if_cancelled() -> None:
    """Re-raise a cancellation of the current task that a queue client swallowed.

    redis-py (redis/redis-py#2028) and fakeredis can catch a `CancelledError` that lands
    inside a command and carry on; the task then still has a cancellation requested
    (`Task.cancelling()`) but runs on. Loops that call a queue check after each call.

    Raises:
        asyncio.CancelledError: the current task's cancellation was requested.
    """
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError
