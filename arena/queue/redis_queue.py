"""`RedisQueue`: the match queue on Redis Streams with a consumer group.

Its keys are `arena.storage.redis_keys`'s (prefix `arena` by default; the dashboard reads
the two `live` keys), the one table of the arena's Redis key layout.

A finished game's keys stay until `forget` (`arena tournament forget`) deletes them, the
tournament's set and spend with its last game; the live stream expires on its own.

A server that restarts without its data (no append-only file, no snapshot) comes back
empty: the epoch key is gone. Every client remembers the epoch it saw; a worker's claim
compares it first, so the loss is noticed within one claim cycle even when another
client has already re-created the keys (`check_state` raises `StateLost` once). Lease
tokens start from the server clock (microseconds) for a game the server has no counter
for, so a lease taken before a loss can never equal one taken after it.

A worker takes new messages with XREADGROUP; before that it looks for pending messages
idle longer than a heartbeat (XPENDING IDLE) and takes one over only if its heartbeat
key is gone (the START script, which also XCLAIMs it). A live worker's heartbeat resets
its message's idle time, so a long match is never a candidate. This is the only module,
with a Redis event store, that imports `redis`.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import redis.asyncio as aioredis
from redis.exceptions import RedisError, ResponseError

from arena.errors import ArenaError
from arena.queue import lua
from arena.queue.jobs import (
    DeadLetter,
    Durability,
    FencedOut,
    GameState,
    GameStatus,
    Lease,
    MatchJob,
    MatchResult,
    QueueUnavailable,
    Spend,
    StateLost,
    SubmitReport,
)
from arena.storage.redis_keys import PREFIX, game_keys, key, live_index

GROUP = "workers"
LIVE_TTL_S = 3600
"""How long a finished game's live stream stays readable."""


def redacted(url: str) -> str:
    """`url` without its password, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username or ''}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


class RedisQueue:
    """A `JobQueue` on a Redis server (or a fakeredis client in tests)."""

    def __init__(
        self,
        client: aioredis.Redis,
        *,
        prefix: str = PREFIX,
        heartbeat_s: float = 15.0,
        block_s: float | None = None,
    ) -> None:
        """Wrap `client`, which must decode responses (`decode_responses=True`).

        `block_s` is how long `claim` waits for a new message; it also paces the search
        for expired matches, so it defaults to a quarter heartbeat (at most a second).
        """
        self._r: Any = client
        """Typed `Any`: redis-py's reply types span both decode modes; this one decodes."""
        self._p = prefix
        self._heartbeat_s = heartbeat_s
        wait_s = block_s if block_s is not None else min(1.0, heartbeat_s / 4)
        self._block_ms = max(1, int(wait_s * 1000))
        self._scripts = {
            name: client.register_script(getattr(lua, name))
            for name in (
                "SUBMIT",
                "START",
                "HEARTBEAT",
                "APPEND",
                "COMPLETE",
                "FAIL",
                "ABANDON",
                "FORGET",
                "TRY_SLOT",
            )
        }
        self._group_ready = False
        self._epoch: str | None = None
        """The server's epoch as this client first saw it (None before the first use)."""
        self._state_lock = asyncio.Lock()
        self.url = "redis"
        """Where the server is, for messages (set by `connect`)."""

    @classmethod
    async def connect(cls, url: str, **kwargs: Any) -> RedisQueue:
        """Connect to `url` and check the server answers.

        Raises:
            QueueUnavailable: the URL is malformed or the server does not answer.
        """
        try:
            client = aioredis.Redis.from_url(
                url, decode_responses=True, socket_connect_timeout=3, health_check_interval=30
            )
            await client.ping()
        except (RedisError, ValueError, OSError) as exc:
            raise QueueUnavailable(f"cannot reach Redis at {redacted(url)}: {exc}") from None
        queue = cls(client, **kwargs)
        queue.url = redacted(url)
        return queue

    @property
    def heartbeat_s(self) -> float:
        """How long a match's heartbeat lives without a refresh."""
        return self._heartbeat_s

    def _k(self, *parts: str) -> str:
        return key(self._p, *parts)

    def _game_keys(self, game_id: str) -> dict[str, str]:
        return game_keys(self._p, game_id)

    async def _ensure_group(self) -> None:
        if self._group_ready:
            return
        try:
            await self._r.xgroup_create(self._k("jobs"), GROUP, id="0", mkstream=True)
        except ResponseError as exc:
            if "BUSYGROUP" not in str(exc):
                raise
        await self._r.set(self._k("epoch"), secrets.token_hex(8), nx=True)
        if self._epoch is None:  # first use; a changed epoch is for check_state to say
            self._epoch = await self._r.get(self._k("epoch"))
        self._group_ready = True

    async def epoch(self) -> str | None:
        """The server's current epoch (None: no client has used this empty server yet)."""
        value: str | None = await self._r.get(self._k("epoch"))
        return value

    async def check_state(self) -> None:
        """Raise `StateLost` once if the server lost its data since this client saw it.

        Before raising, the jobs stream, its group and a new epoch are re-created (so
        the queue works again, empty) and the loss is recorded under `{p}:lost`.
        """
        async with self._state_lock:  # one slot notices; the others find the keys re-made
            seen = self._epoch
            if seen is None:
                await self._ensure_group()
                return
            if await self.epoch() == seen:
                await self._ensure_group()  # a no-op unless the stream was deleted
                return
            self._epoch, self._group_ready = None, False
            await self._ensure_group()
            now = datetime.now(UTC).isoformat(timespec="seconds")
            await self._r.hset(self._k("lost"), mapping={"at": now, "epoch": self._epoch or ""})
        raise StateLost(
            f"Redis at {self.url} lost the queue's data (epoch {seen} is gone: restarted "
            "without persistence?)"
        )

    async def lost_at(self) -> str | None:
        """When a worker last noticed that the server lost its data, if ever."""
        value: str | None = await self._r.hget(self._k("lost"), "at")
        return value

    async def durability(self) -> Durability:
        """Whether the server persists its data (unknown where `CONFIG` is refused)."""
        answers: dict[str, str | None] = {}
        for name in ("appendonly", "save"):
            try:
                reply = await self._r.config_get(name)
            except ResponseError:  # managed servers often rename or forbid CONFIG
                reply = {}
            answers[name] = reply.get(name)
        appendonly = answers["appendonly"]
        return Durability(
            appendonly=None if appendonly is None else appendonly == "yes",
            save=answers["save"],
        )

    async def submit(self, jobs: Sequence[MatchJob]) -> SubmitReport:
        """Queue the jobs that are not already known (see `JobQueue.submit`)."""
        await self._ensure_group()
        known = await self._fingerprints([job.game_id for job in jobs])
        for job in jobs:
            if known.get(job.game_id) not in (None, job.fingerprint):
                raise ArenaError(
                    f"game {job.game_id} was submitted with different content; "
                    "give the changed tournament a new name"
                )
        report: dict[str, list[str]] = {"queued": [], "requeued": [], "existing": []}
        for job in jobs:
            outcome = await self._scripts["SUBMIT"](
                keys=[
                    self._k("game", job.game_id),
                    self._k("tournament", job.tournament),
                    self._k("jobs"),
                ],
                args=[job.game_id, job.fingerprint, job.model_dump_json(), job.max_attempts],
            )
            if outcome == "conflict":
                raise ArenaError(f"game {job.game_id} was submitted concurrently, differently")
            report[outcome].append(job.game_id)
        return SubmitReport(**{k: tuple(v) for k, v in report.items()})

    async def _fingerprints(self, game_ids: Sequence[str]) -> dict[str, str]:
        pipe = self._r.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.hget(self._k("game", game_id), "fingerprint")
        values = await pipe.execute()
        return {g: v for g, v in zip(game_ids, values, strict=True) if v is not None}

    async def claim(self, consumer: str) -> Lease | None:
        """A takeover of an expired match, else a new message (waiting `block_s`), else None.

        Raises:
            StateLost: the server lost its data since the last claim (see `check_state`).
        """
        await self.check_state()
        try:
            pending = await self._r.xpending_range(
                self._k("jobs"),
                GROUP,
                min="-",
                max="+",
                count=20,
                idle=int(self._heartbeat_s * 1000),
            )
            for entry in pending:
                lease = await self._start(consumer, entry["message_id"], takeover=True)
                if lease is not None:
                    return lease
            reply = await self._r.xreadgroup(
                GROUP, consumer, {self._k("jobs"): ">"}, count=1, block=self._block_ms
            )
        except ResponseError as exc:
            if "NOGROUP" not in str(exc) and "UNBLOCKED" not in str(exc):
                raise
            # The stream is gone: deleted under us, or lost with the server's data after
            # the check above (redis-py retries a read cut by a restart on the new, empty
            # server). Only the epoch tells which, so ask it rather than re-make the group
            # and adopt a new epoch silently.
            self._group_ready = False
            await self.check_state()
            return None
        for _stream, messages in reply or []:
            for message_id, _fields in messages:
                lease = await self._start(consumer, message_id, takeover=False)
                if lease is not None:
                    return lease
        return None

    async def _start(self, consumer: str, message_id: str, *, takeover: bool) -> Lease | None:
        found = await self._r.xrange(self._k("jobs"), min=message_id, max=message_id)
        if not found:
            await self._r.xack(self._k("jobs"), GROUP, message_id)
            return None
        game_id = found[0][1]["game_id"]
        keys = self._game_keys(game_id)
        reply = await self._scripts["START"](
            keys=[
                keys["game"],
                keys["lease"],
                keys["hb"],
                live_index(self._p),
                self._k("jobs"),
                self._k("dead"),
            ],
            args=[
                game_id,
                consumer,
                int(self._heartbeat_s * 1000),
                message_id,
                GROUP,
                "1" if takeover else "0",
            ],
        )
        if reply[0] != "ok":
            return None
        return Lease(
            job=MatchJob.model_validate_json(reply[3]),
            token=int(reply[1]),
            message_id=message_id,
            attempt=int(reply[2]),
            consumer=consumer,
        )

    async def heartbeat(self, lease: Lease) -> bool:
        """Refresh the heartbeat and the message's idle time; False once superseded."""
        keys = self._game_keys(lease.job.game_id)
        alive = await self._scripts["HEARTBEAT"](
            keys=[keys["lease"], keys["hb"], self._k("jobs")],
            args=[
                lease.token,
                int(self._heartbeat_s * 1000),
                GROUP,
                lease.consumer,
                lease.message_id,
            ],
        )
        return bool(alive)

    async def append(self, lease: Lease, start: int, lines: Sequence[str]) -> int:
        """Append under the current lease at the expected position (see `JobQueue`)."""
        if not lines:
            return start
        keys = self._game_keys(lease.job.game_id)
        length = int(
            await self._scripts["APPEND"](
                keys=[keys["lease"], keys["log"], keys["live"]], args=[lease.token, start, *lines]
            )
        )
        if length == -1:
            raise FencedOut(f"game {lease.job.game_id}: lease {lease.token} is no longer current")
        if length == -2:
            raise FencedOut(f"game {lease.job.game_id}: write at line {start} is out of sequence")
        return length

    async def log(self, game_id: str) -> list[str]:
        """The game's log lines so far."""
        lines: list[str] = await self._r.lrange(self._k("log", game_id), 0, -1)
        return lines

    async def complete(
        self, lease: Lease, result: MatchResult, final_line: str, replay: str = ""
    ) -> None:
        """Record the result and the packed replay, publish the header, acknowledge."""
        keys = self._game_keys(lease.job.game_id)
        spend = [
            x
            for name, s in result.spend.items()
            for x in (name, s.tokens, repr(s.usd), s.games, s.voided)
        ]
        done = await self._scripts["COMPLETE"](
            keys=[
                keys["game"],
                keys["lease"],
                keys["hb"],
                keys["log"],
                keys["live"],
                live_index(self._p),
                self._k("jobs"),
                self._k("spend", lease.job.tournament),
                keys["replay"],
            ],
            args=[
                lease.token,
                lease.job.game_id,
                GROUP,
                lease.message_id,
                result.status,
                result.model_dump_json(),
                final_line,
                LIVE_TTL_S,
                replay,
                *spend,
            ],
        )
        if not done:
            raise FencedOut(f"game {lease.job.game_id}: lease {lease.token} is no longer current")

    async def replays(self, game_ids: Sequence[str]) -> dict[str, str]:
        """The packed finished replays held among `game_ids`."""
        pipe = self._r.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.get(self._k("replay", game_id))
        values = await pipe.execute()
        return {g: v for g, v in zip(game_ids, values, strict=True) if v is not None}

    async def offer_replay(self, game_id: str, packed: str) -> bool:
        """Keep `packed` as the game's replay unless one is held (SET NX)."""
        return bool(await self._r.set(self._k("replay", game_id), packed, nx=True))

    async def forget(self, jobs: Sequence[MatchJob]) -> tuple[str, ...]:
        """Delete every key of the finished games among `jobs`; the ids forgotten.

        One script per game (each atomic on its own), sent in one pipeline.
        """
        pipe = self._r.pipeline(transaction=False)
        for job in jobs:
            await self._scripts["FORGET"](
                keys=[
                    *self._game_keys(job.game_id).values(),  # game, lease, hb, log, live, replay
                    self._k("tournament", job.tournament),
                    live_index(self._p),
                    self._k("spend", job.tournament),
                ],
                args=[job.game_id],
                client=pipe,
            )
        gone = await pipe.execute() if jobs else []
        return tuple(job.game_id for job, ok in zip(jobs, gone, strict=True) if ok)

    async def fail(self, lease: Lease, error: str) -> bool:
        """Re-queue, or dead-letter after `max_attempts` starts; True if dead."""
        keys = self._game_keys(lease.job.game_id)
        dead = int(
            await self._scripts["FAIL"](
                keys=[
                    keys["game"],
                    keys["lease"],
                    keys["hb"],
                    self._k("jobs"),
                    self._k("dead"),
                    live_index(self._p),
                ],
                args=[lease.token, lease.job.game_id, GROUP, lease.message_id, error],
            )
        )
        if dead == -1:
            raise FencedOut(f"game {lease.job.game_id}: lease {lease.token} is no longer current")
        return dead == 1

    async def abandon(self, lease: Lease) -> None:
        """Drop the heartbeat and mark the message idle so a takeover happens at once."""
        keys = self._game_keys(lease.job.game_id)
        await self._scripts["ABANDON"](
            keys=[keys["lease"], keys["hb"], self._k("jobs")],
            args=[
                lease.token,
                GROUP,
                lease.consumer,
                lease.message_id,
                int(self._heartbeat_s * 1000) + 1,
            ],
        )

    async def statuses(self, game_ids: Sequence[str]) -> list[GameStatus]:
        """Each game's status, in order."""
        pipe = self._r.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.hmget(self._k("game", game_id), "state", "attempts", "error", "result")
        rows = await pipe.execute()
        out = []
        for game_id, (state, attempts, error, result) in zip(game_ids, rows, strict=True):
            out.append(
                GameStatus(
                    game_id=game_id,
                    state=GameState(state or "unknown"),
                    attempts=int(attempts or 0),
                    error=error or "",
                    result=MatchResult.model_validate_json(result) if result else None,
                )
            )
        return out

    async def spend(self, tournament: str) -> dict[str, Spend]:
        """Spend per agent over the tournament's finished games."""
        raw: dict[str, str] = await self._r.hgetall(self._k("spend", tournament))
        names = {key.rsplit(":", 1)[0] for key in raw}
        return {
            name: Spend(
                tokens=int(raw.get(f"{name}:tokens", 0)),
                usd=float(raw.get(f"{name}:usd", 0.0)),
                games=int(raw.get(f"{name}:games", 0)),
                voided=int(raw.get(f"{name}:voided", 0)),
            )
            for name in sorted(names)
        }

    async def dead_letters(self) -> list[DeadLetter]:
        """Every dead-lettered job, oldest first."""
        entries = await self._r.xrange(self._k("dead"))
        return [
            DeadLetter(
                game_id=f["game_id"],
                error=f["error"],
                attempts=int(f["attempts"]),
                job=MatchJob.model_validate(json.loads(f["job"])),
            )
            for _id, f in entries
        ]

    async def try_slot(self, endpoint: str, limit: int, holder: str, ttl_s: float) -> bool:
        """Take a call slot of `endpoint` if fewer than `limit` are held, over all workers."""
        got = await self._scripts["TRY_SLOT"](
            keys=[self._k("slots", endpoint)], args=[limit, holder, max(1, int(ttl_s * 1000))]
        )
        return bool(got)

    async def release_slot(self, endpoint: str, holder: str) -> None:
        """Give a call slot back."""
        await self._r.zrem(self._k("slots", endpoint), holder)

    async def close(self) -> None:
        """Close the connection pool."""
        await self._r.aclose()
