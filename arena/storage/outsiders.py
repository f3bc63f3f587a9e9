"""Who may read a running game's file: games with outsiders are hidden while they run.

A running game's file holds its seed and every role. While a person or an agent the arena
does not run itself plays (a `py:` plug-in, a remote agent), nobody else may read more of
it than the public view; games among the arena's own seats are open to the god view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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
    return any(agent_kind(seat.agent) not in INSIDER_AGENTS for seat in header.seats)
