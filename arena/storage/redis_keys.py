"""The Redis key layout: one namespace, and the name of every key the arena keeps in it.

Every reader and writer of the arena's Redis data names its keys here: the match queue
(`arena.queue.redis_queue`), the Live page (`dashboard/live.py`, which reads the two
`live` keys the workers write) and the desk of hosted games (`arena.storage.redis_desk`).
A key is the namespace (`PREFIX` unless the workers and the dashboard were given another
`--prefix`) and its parts, joined by `:`.

| key | type | holds |
| --- | --- | --- |
| `{p}:jobs` | stream, group `workers` | one message (`game_id`) per queued start |
| `{p}:dead` | stream | dead letters: `game_id`, `error`, `attempts`, `job` |
| `{p}:game:{id}` | hash | `state`, `job`, `fingerprint`, `attempts`, `error`, `result`, … |
| `{p}:lease:{id}` | counter | the fencing token (incremented by every start, end, failure) |
| `{p}:hb:{id}` | string with TTL | the heartbeat: exists while the lease holder is alive |
| `{p}:log:{id}` | list | the match's replay lines (header first), appended under the lease |
| `{p}:live:{id}` | stream | each log line (`seq`, `line`, `lease`); the finished header last |
| `{p}:replay:{id}` | string | the finished, signed replay, packed (`arena.queue.results`) |
| `{p}:live:index` | sorted set | running games by start time |
| `{p}:tournament:{name}` | set | the tournament's game ids |
| `{p}:spend:{name}` | hash | `{agent}:tokens`, `:usd`, `:games`, `:voided` over finished games |
| `{p}:slots:{endpoint}` | sorted set | model-call slots in use, by expiry |
| `{p}:epoch` | string | a random id made by the first client of an empty server |
| `{p}:lost` | hash | `at`, `by`, `epoch`: the last loss of state a worker noticed |
| `{p}:play:queue` | list | hosted games waiting for a worker to host them |
| `{p}:play:{id}:…` | … | a hosted game's desk (`arena.storage.redis_desk`) |
"""

from __future__ import annotations

PREFIX = "arena"
"""The namespace unless the workers and the dashboard were given another `--prefix`."""
GAME_KEYS = ("game", "lease", "hb", "log", "live", "replay")
"""The per-game keys of a queued match, in the order the queue's scripts take them."""


def key(prefix: str, *parts: str) -> str:
    """The key of `parts` in the namespace `prefix`: `arena:game:ID`."""
    return ":".join((prefix, *parts))


def game_keys(prefix: str, game_id: str) -> dict[str, str]:
    """A queued match's own keys, by name (`GAME_KEYS`)."""
    return {name: key(prefix, name, game_id) for name in GAME_KEYS}


def live_index(prefix: str = PREFIX) -> str:
    """The sorted set of running game ids, scored by when each started."""
    return key(prefix, "live", "index")


def live_stream(game_id: str, prefix: str = PREFIX) -> str:
    """The stream of a running game's replay lines."""
    return key(prefix, "live", game_id)


def desk_key(prefix: str, game_id: str, *parts: object) -> str:
    """A hosted game's desk key: its `table`, its `status`, a seat's `view` and so on."""
    return key(prefix, "play", game_id, *map(str, parts))


def desk_queue(prefix: str) -> str:
    """The list of hosted games waiting for a worker."""
    return key(prefix, "play", "queue")
