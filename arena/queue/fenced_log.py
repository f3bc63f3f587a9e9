"""The match log a worker writes through its lease, and the replay file made from it.

The log is the replay's lines (header first) kept by the queue, not on the worker's
disk, so whichever worker takes a match over resumes from it: the recorded answers are
re-run through the referee (`play_answers`), which reproduces every event, and play goes
on. `FencedWriter` appends only what the log does not already hold — an event whose
`seq` is logged, or an answer already counted, is not written again — and every append
names the lease and the position it expects, so a superseded worker's write is refused.

When the game ends the worker writes the replay file atomically (temporary file, fsync,
rename) and only then acknowledges the job: a crash in between leaves a finished replay
that the next start recognizes and acknowledges without replaying.

The lines are the replay format's own (`arena.storage.replay_file`, which writes and reads
them); this module only fences them.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from arena.queue.base import JobQueue, raise_if_cancelled
from arena.queue.jobs import Lease
from arena.rules.events import Event
from arena.rules.referee import Answer
from arena.storage.replay_file import ReplayHeader, ReplayResult, ReplayWriter, parse_replay_lines
from arena.storage.replay_lines import header_line, signed_text
from arena.storage.seal import ArenaKey


@dataclass(frozen=True, slots=True)
class LoggedGame:
    """What a log already holds: the header, the answers, and counts of what is written."""

    header: ReplayHeader
    answers: tuple[Answer, ...]
    events: int
    lines: int


def parse_log(lines: Sequence[str]) -> LoggedGame:
    """Read a match log (the replay lines so far) with the replay format's own reader.

    Raises:
        ReplayError: the log is not a replay prefix (bad header, events out of sequence),
            naming its line.
    """
    replay = parse_replay_lines(lines, source="the match log")
    return LoggedGame(
        header=replay.header, answers=replay.answers, events=len(replay.events), lines=len(lines)
    )


LINGER_S = 0.005
"""How long the pump lets lines gather before an append: a fast bot game writes a few
appends per second instead of one per decision; a model game's lines are further apart
than this anyway, so the live view lags by at most this much."""


class FencedWriter(ReplayWriter):
    """A `ReplayWriter` whose lines go to the queue's log under a lease.

    The runner writes synchronously; lines are buffered and `pump` appends them in
    order, in batches, so a slow server never stalls the game loop. `pump` raises
    `FencedOut` as soon as an append is refused.
    """

    def __init__(
        self, queue: JobQueue, lease: Lease, header: ReplayHeader, logged: LoggedGame | None
    ) -> None:
        self.path = Path(f"{header.game_id}.jsonl")
        self.header = header
        self._queue = queue
        self._lease = lease
        self._buffer: list[str] = []
        self._wake = asyncio.Event()
        self._closed = False
        self._skip_events = logged.events if logged is not None else 0
        self._skip_answers = len(logged.answers) if logged is not None else 0
        self._position = logged.lines if logged is not None else 0
        if logged is None:
            self._write(header_line(header))

    def _write(self, line: str) -> None:
        self._buffer.append(line)
        self._wake.set()

    def event(self, seq: int, event: Event) -> None:
        """Append an event line unless the log already holds event `seq`."""
        if seq >= self._skip_events:
            super().event(seq, event)

    def answer(self, answer: Answer) -> None:
        """Append an answer line unless the log already holds it (re-run answers come first)."""
        if self._skip_answers:
            self._skip_answers -= 1
            return
        super().answer(answer)

    def finish(self, result: ReplayResult | None = None) -> ReplayHeader:
        """Stop taking lines; the header with `result` is what the replay file gets."""
        self._closed = True
        self._wake.set()
        self.header = self.header.model_copy(update={"result": result})
        return self.header

    def close(self) -> None:
        """Stop taking lines (the game may resume later from the log)."""
        self._closed = True
        self._wake.set()

    async def pump(self) -> None:
        """Append buffered lines until closed and drained.

        Raises:
            FencedOut: the lease was superseded; nothing more of this worker is written.
        """
        while True:
            await self._wake.wait()
            if not self._closed:
                await asyncio.sleep(LINGER_S)
            self._wake.clear()
            while self._buffer:
                batch, self._buffer = self._buffer, []
                self._position = await self._queue.append(self._lease, self._position, batch)
                raise_if_cancelled()
            if self._closed:
                return


def write_replay(
    path: Path, header: ReplayHeader, body: Sequence[str], key: ArenaKey | None
) -> None:
    """Write a finished replay durably: temporary file, fsync, atomic rename, fsync dir.

    The file is signed under `key` (the worker's copy of the tournament's key), unsigned
    without one.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    with tmp.open("w", encoding="utf-8") as file:
        file.write(signed_text([header_line(header), *body], key))
        file.flush()
        os.fsync(file.fileno())
    os.replace(tmp, path)
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)
