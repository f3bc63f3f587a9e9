"""Live games read from Redis: the index of running games and each game's line stream.

The queue's workers publish every replay line of a running game to the stream
`arena:live:{game_id}` (field `line`: the JSONL line, field `seq`: its position) and keep
the ids of running games in the sorted set `arena:live:index`. A `Tail` is one session's
copy of a stream, extended by `poll` with only the entries it has not read yet; the lines
are parsed by the replay file's own parser, so a live game is just a growing replay.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arena.storage.replay_file import parse_replay_lines
from dashboard.loading import Loaded, trace_steps

INDEX_KEY = "arena:live:index"
"""Sorted set of running game ids (score: when the game started, as Unix seconds)."""
POLL_BATCH = 1000
"""Stream entries read per request."""


def stream_key(game_id: str) -> str:
    """The stream holding a running game's replay lines."""
    return f"arena:live:{game_id}"


def _text(value: Any) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def running(client: Any) -> list[tuple[str, float]]:
    """(game id, start time) of every running game, oldest first."""
    return [(_text(m), float(s)) for m, s in client.zrange(INDEX_KEY, 0, -1, withscores=True)]


@dataclass(frozen=True, slots=True)
class Tail:
    """The lines of one game's stream read so far, and the last stream id read."""

    game_id: str
    lines: tuple[str, ...] = ()
    last_id: str = "0-0"


def poll(client: Any, tail: Tail) -> Tail:
    """`tail` extended with the stream's new entries, in stream (publication) order.

    Raises:
        ValueError: an entry has no `line` field (not a live replay stream).
    """
    lines = list(tail.lines)
    last = tail.last_id
    while True:
        batch = client.xrange(stream_key(tail.game_id), min=f"({last}", count=POLL_BATCH)
        if not batch:
            break
        for entry_id, fields in batch:
            decoded = {_text(k): _text(v) for k, v in fields.items()}
            if "line" not in decoded:
                raise ValueError(f"{stream_key(tail.game_id)} entry {_text(entry_id)} has no line")
            lines.append(decoded["line"])
            last = _text(entry_id)
        if len(batch) < POLL_BATCH:
            break
    return Tail(game_id=tail.game_id, lines=tuple(lines), last_id=last)


def loaded(tail: Tail) -> Loaded:
    """The game so far as a replay.

    Raises:
        ReplayError: the stream's lines are not a readable replay.
    """
    lines = [line.rstrip("\n") for line in tail.lines]
    replay = parse_replay_lines(lines, source=stream_key(tail.game_id))
    return Loaded(replay=replay, trace_steps=trace_steps(lines) if replay.traces else ())
