"""Finished replays gathered through the queue, so the submitter holds every game.

Workers write replays to their own disks; on several machines the submitting machine
would see none of them, and after a Redis loss a resubmitted game finished elsewhere
would be played again. So a worker hands each finished replay's bytes, exactly as it
wrote and signed them, to the queue with the job's acknowledgement (`JobQueue.complete`),
and:

- `collect` (`arena tournament status --collect`, and `submit` before it queues) writes
  every finished replay of a tournament the submitter's folder lacks, each checked to be
  that job's game and verified as `arena validate` does (its answers re-run to its log,
  its signature under this arena's key) before it is moved into place atomically, so
  `--replays` there holds every finished game and `submit` skips them. Whoever can
  write to Redis cannot make a game count as finished here: a replay that does not
  verify is reported (`Collected.refused`) and left out, and its game stays owed;
- `forget_collected` (`arena tournament forget`) collects, then drops from the queue
  the finished games whose replays the folder now holds, so a server that outlives
  its tournaments does not keep every game it ever played;
- a worker that notices a loss offers its folder's finished replays of the tournaments
  it served back to the emptied queue (`offer_replays`), and before playing a job it
  takes the job's finished replay from the queue if one is there (`take_finished`): a
  resubmitted game finished on any machine is acknowledged, not played again.

The queue keeps the text zlib-compressed (a replay's JSON lines shrink about tenfold),
base64-encoded so a client that decodes replies as text can carry it.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import os
import zlib
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import NamedTuple, Protocol

from arena.errors import ArenaError
from arena.queue.base import JobQueue
from arena.queue.jobs import MatchJob, MatchResult, spend_of, with_games
from arena.replay_check import check_replay
from arena.storage.replay_file import ReplayError, ReplayHeader, read_header, read_replay
from arena.storage.seal import ArenaKey, arena_key

MAX_REPLAY_BYTES = 256 * 1024 * 1024
"""The largest replay `unpack` expands (a bound on what a forged entry can make us hold)."""


class ReplayHolder(Protocol):
    """The part of a `JobQueue` that holds finished replays."""

    async def replays(self, game_ids: Sequence[str]) -> dict[str, str]:
        """The packed replays the queue holds among `game_ids` (absent ones left out)."""
        ...

    async def offer_replay(self, game_id: str, packed: str) -> bool:
        """Keep `packed` as the game's replay unless one is held; True if kept."""
        ...


def pack(text: str) -> str:
    """A replay's text as the queue keeps it: zlib, then base64."""
    return base64.b64encode(zlib.compress(text.encode("utf-8"), 6)).decode("ascii")


def unpack(packed: str) -> str:
    """The replay text of a `pack`ed entry.

    Raises:
        ArenaError: the entry is not a packed replay, or expands past `MAX_REPLAY_BYTES`.
    """
    try:
        inflater = zlib.decompressobj()
        raw = inflater.decompress(base64.b64decode(packed, validate=True), MAX_REPLAY_BYTES)
        if inflater.unconsumed_tail:
            raise ArenaError(f"a queued replay expands past {MAX_REPLAY_BYTES} bytes")
        return raw.decode("utf-8")
    except (binascii.Error, zlib.error, UnicodeDecodeError) as exc:
        raise ArenaError(f"a queued replay is not a packed replay: {exc}") from None


def replay_path(replays: Path, game_id: str) -> Path:
    """Where a game's replay file goes."""
    return replays / f"{game_id}.jsonl"


def finished_replay(path: Path, job: MatchJob) -> ReplayHeader | None:
    """The header of `job`'s finished replay at `path`, or None if there is none yet.

    Raises:
        ArenaError: a finished replay of a different game has this game's id.
    """
    try:
        header = read_header(path)
    except ReplayError:
        return None
    if header.result is None:
        return None
    seated = tuple((s.agent_spec, s.agent if s.spec is not None else None) for s in header.seats)
    expected = tuple((job.agent_of(seat).spec, name) for seat, name in enumerate(job.seats, 1))
    same = (header.game_id, header.config, header.seed)
    if same != (job.game_id, job.config, job.seed) or not _same_seats(seated, expected):
        raise ArenaError(f"{path} holds a different game with the id {job.game_id}")
    return header


def _same_seats(
    seated: tuple[tuple[str, str | None], ...], expected: tuple[tuple[str, str], ...]
) -> bool:
    """Whether a header's seats are the job's: each seat's spec, and its entry's name.

    The name is checked where the header names one apart from the spec; a file written
    before names were kept holds the specs alone.
    """
    return len(seated) == len(expected) and all(
        spec == want and name in (None, entry)
        for (spec, name), (want, entry) in zip(seated, expected, strict=True)
    )


class Collected(NamedTuple):
    """What `collect` did."""

    written: tuple[str, ...]
    """Game ids whose replay it wrote into the folder."""
    refused: tuple[str, ...]
    """One line per queued replay it did not write (not that job's game, unreadable)."""


def place(text: str, path: Path, job: MatchJob, key: ArenaKey | None = None) -> None:
    """Write `text` to `path` if it is `job`'s finished game and verifies (durably, atomically).

    Verified as `arena validate` verifies a file, under `key` (None: the arena's key): a
    log its answers do not reproduce, or a signature that is missing or does not verify,
    is refused, so no game counts as finished here that the arena did not play and sign.

    Raises:
        ArenaError: it is not a finished replay of `job` (another game, no result), or it
            does not verify (the reason, in one line).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.collect")
    try:
        with tmp.open("w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        try:
            header = finished_replay(tmp, job)
        except ArenaError:
            raise ArenaError(f"the queued replay of {job.game_id} is another game") from None
        if header is None:
            raise ArenaError(f"the queued replay of {job.game_id} is not a finished game")
        _verify(tmp, job, key)
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()


def _verify(path: Path, job: MatchJob, key: ArenaKey | None) -> None:
    """Refuse a replay that `arena validate` rejects, or that is not signed under `key`."""
    report = check_replay(path, key if key is not None else arena_key())
    if not report.ok:
        where = f" (line {report.line})" if report.line else ""
        raise ArenaError(
            f"the queued replay of {job.game_id} does not verify{where}: {report.message}"
        )
    if report.signature != "signed":
        raise ArenaError(
            f"the queued replay of {job.game_id} does not verify: {report.signature_message}"
        )


async def collect(queue: ReplayHolder, jobs: Sequence[MatchJob], replays: Path) -> Collected:
    """Write into `replays` every finished replay of `jobs` the queue holds and it lacks."""
    missing = []
    for job in jobs:
        try:
            if finished_replay(replay_path(replays, job.game_id), job) is None:
                missing.append(job)
        except ArenaError:
            continue  # another game under this id here: `submit` and `status` say so
    held = await queue.replays([job.game_id for job in missing])
    written, refused = [], []
    key = arena_key() if held else None
    for job in missing:
        if job.game_id not in held:
            continue
        try:
            place(unpack(held[job.game_id]), replay_path(replays, job.game_id), job, key)
        except (ArenaError, OSError) as exc:
            refused.append(f"{job.game_id}: {exc}")
            continue
        written.append(job.game_id)
    return Collected(tuple(written), tuple(refused))


async def forget_collected(
    queue: JobQueue, jobs: Sequence[MatchJob], replays: Path
) -> tuple[Collected, tuple[str, ...]]:
    """`collect`, then forget the finished games whose replay `replays` holds.

    A game is forgotten only once its finished replay is in the folder, checked to be
    that job's game: the folder, not the queue, is then the record of it, and a resubmit
    from it skips the game. What the queue still plays or failed stays.
    """
    collected = await collect(queue, jobs, replays)
    held = []
    for job in jobs:
        try:
            if finished_replay(replay_path(replays, job.game_id), job) is not None:
                held.append(job)
        except ArenaError:
            continue  # another game under this id here: not this job's record
    return collected, await queue.forget(held)


async def take_finished(queue: ReplayHolder, job: MatchJob, path: Path) -> bool:
    """Write `job`'s finished replay from the queue to `path`; False if it holds none.

    A held replay of another game (a forged or stale entry), or one that does not verify
    (`place`), is ignored: the job is played.
    """
    held = await queue.replays([job.game_id])
    if job.game_id not in held:
        return False
    try:
        place(unpack(held[job.game_id]), path, job)
    except ArenaError:
        return False
    return True


async def offer_replays(queue: ReplayHolder, replays: Path, tournaments: Collection[str]) -> int:
    """Offer the queue every finished replay in `replays` of these tournaments; how many kept.

    Only top-level `*.jsonl` files are looked at (where a worker writes); unreadable and
    unfinished ones are passed over.
    """
    kept = 0
    for path in sorted(replays.glob("*.jsonl")):
        try:
            header = read_header(path)
            if header.result is None or header.tournament not in tournaments:
                continue
            text = path.read_text(encoding="utf-8")
        except (ReplayError, OSError, UnicodeDecodeError):
            continue
        kept += await queue.offer_replay(header.game_id, pack(text))
    return kept


def match_result(job: MatchJob, header: ReplayHeader, path: Path, worker: str) -> MatchResult:
    """The queue's record of a finished game: its result, and the spend its replay shows."""
    assert header.result is not None
    void = header.result.reason if header.result.void else None
    return MatchResult(
        game_id=job.game_id,
        winner=header.result.winner,
        reason=header.result.reason,
        days=header.result.days,
        events=header.result.events,
        spend=with_games(spend_of(read_replay(path).traces, job), job, void),
        replay=str(path),
        worker=worker,
    )
