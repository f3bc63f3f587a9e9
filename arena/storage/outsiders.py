"""Who may read a running game's file: games with outsiders are hidden while they run.

A running game's file holds its seed and every role. While a person or an agent the arena
does not run itself plays (a `py:` plug-in, a remote agent), nobody else may read more of
it than the public view; games among the arena's own seats are open to the god view. On
disk that means such a file is its owner's alone (mode 0600, `open_running`) until the
game is finished and signed: another account on the machine cannot read it while the
game runs, wherever it is written (the live folder beside the replays, a worker's folder).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    from arena.storage.replay_file import ReplayHeader

INSIDER_AGENTS = frozenset({"bot", "random", "openai", "langchain"})
"""Agent kinds the arena itself runs. Any other seat (a person, a `py:` plug-in, a remote
agent) is an outsider: while it plays, the game's file must not be readable beyond the
public view by anyone else (its seed and every role are in it)."""

NOISY = "noisy:"
"""The skill dial's prefix (`arena.agents.noisy`, a layer above): `noisy:0.3:bot` is a bot."""


def agent_kind(agent: str) -> str:
    """The kind of a header's agent spec: `bot`, `openai`, `py`, `human`, … (through `noisy:P:`)."""
    if agent.startswith(NOISY):
        agent = agent.removeprefix(NOISY).partition(":")[2]
    return agent.partition(":")[0]


def has_outsiders(header: ReplayHeader) -> bool:
    """Whether a person or an outside agent plays one of the game's seats."""
    return any(agent_kind(seat.agent_spec) not in INSIDER_AGENTS for seat in header.seats)


def open_running(path: Path, *, append: bool, private: bool) -> IO[str]:
    """A running game's file opened for writing: appended to (made if missing), or new.

    `private` (a game with outsiders): mode 0600, also for a file an older run left
    wider; otherwise the usual mode.
    """
    flags = os.O_WRONLY | os.O_CREAT | (os.O_APPEND if append else os.O_TRUNC)
    fd = os.open(path, flags, 0o600 if private else 0o666)
    try:
        if private:
            os.chmod(path, 0o600)
        return os.fdopen(fd, "a" if append else "w", encoding="utf-8")
    except BaseException:
        os.close(fd)
        raise
