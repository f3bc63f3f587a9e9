"""Live games read from Redis: the index of running games and each game's line stream.

The queue's workers (`arena.queue.redis_queue`) publish every replay line of a running
game to the stream `{prefix}:live:{game_id}` (the key layout is `arena.storage.redis_keys`,
which both sides import) (field `line`: the JSONL line, field `seq`:
its position; the finished header comes last) and keep the ids of running games in the
sorted set `{prefix}:live:index`; the prefix is the workers' `--prefix` (`arena` unless
they were given another), and the dashboard's own `--prefix` must match it. A `Tail` is
one session's copy of a stream, extended by `poll` with only the entries it has not read
yet; the lines are parsed by the replay file's own parser, so a live game is just a
growing replay.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arena.storage.redis_keys import PREFIX, live_index, live_stream
from arena.storage.replay_file import parse_replay_lines

from .loading import Loaded, trace_steps

POLL_BATCH = 1000
"""Stream entries read per request."""


def _text(value: Any) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def running(client: Any, prefix: str = PREFIX) -> list[tuple[str, float]]:
    """(game id, start time) of every running game, oldest first."""
    index = client.zrange(live_index(prefix), 0, -1, withscores=True)
    return [(_text(m), float(s)) for m, s in index]


@dataclass(frozen=True, slots=True)
class Tail:
    """The lines of one game's stream read so far, and the last stream id read."""

    game_id: str
    lines: tuple[str, ...] = ()
    last_id: str = "0-0"
    prefix: str = PREFIX
    """The key namespace the game's stream is in."""


def poll(client: Any, tail: Tail) -> Tail:
    """`tail` extended with the stream's new entries.

    An entry's `seq` is its line's position in the replay; when the game finishes the
    worker publishes the finished header (with the result) as one more entry, which takes
    the place of line 1 rather than being appended.

    Raises:
        ValueError: an entry has no `line`, or its `seq` skips lines (not a live replay
            stream).
    """
    lines = list(tail.lines)
    last = tail.last_id
    key = live_stream(tail.game_id, tail.prefix)
    while True:
        batch = client.xrange(key, min=f"({last}", count=POLL_BATCH)
        for entry_id, fields in batch:
            last = _text(entry_id)
            place(lines, {_text(k): _text(v) for k, v in fields.items()}, f"{key} entry {last}")
        if len(batch) < POLL_BATCH:
            break
    return Tail(game_id=tail.game_id, lines=tuple(lines), last_id=last, prefix=tail.prefix)


def place(lines: list[str], fields: dict[str, str], where: str) -> None:
    """Put one stream entry's line where its `seq` says (see `poll`)."""
    line = fields.get("line")
    if line is None:
        raise ValueError(f"{where} has no line")
    raw = fields.get("seq", str(len(lines)))
    if not raw.isdigit():
        raise ValueError(f"{where} has a bad seq {raw!r}")
    seq = int(raw)
    if lines and seq > 0 and line.startswith('{"type":"header"'):
        lines[0] = line
    elif seq < len(lines):
        lines[seq] = line
    elif seq == len(lines):
        lines.append(line)
    else:
        raise ValueError(f"{where} is line {seq + 1}, but only {len(lines)} lines were read")


def loaded(tail: Tail) -> Loaded:
    """The game so far as a replay.

    Raises:
        ReplayError: the stream's lines are not a readable replay.
    """
    lines = [line.rstrip("\n") for line in tail.lines]
    replay = parse_replay_lines(lines, source=live_stream(tail.game_id, tail.prefix))
    return Loaded(replay=replay, trace_steps=trace_steps(lines) if replay.traces else ())
