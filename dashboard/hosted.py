"""The desk of games with people, and the games this dashboard hosts (shared by pages).

The Play page creates and hosts games here (or queues them on Redis); the Live page shows
the ones hosted by this process, public view only. Both reach them through these
process-wide resources, made on first use (nothing connects at import time).
"""

from __future__ import annotations

import streamlit as st

from arena.humans.hosting import HostedGames
from arena.storage.desk import Desk, MemoryDesk

from .session import settings


@st.cache_resource(show_spinner=False)
def memory_desk() -> MemoryDesk:
    """The process-wide desk of games hosted here (single machine)."""
    return MemoryDesk()


@st.cache_resource(show_spinner=False)
def redis_desk(url: str, prefix: str) -> Desk:
    """The desk on the Redis server at `url`, keys under `prefix` (connects lazily)."""
    from arena.storage.redis_desk import RedisDesk

    return RedisDesk.from_url(url, prefix)


def desk() -> Desk:
    """Redis when the dashboard has a Redis URL, else this process's desk."""
    known = settings()
    return redis_desk(known.redis_url, known.redis_prefix) if known.redis_url else memory_desk()


@st.cache_resource(show_spinner=False)
def hosted() -> HostedGames:
    """The games this process hosts (the Live page shows them, public view only)."""
    return HostedGames()
