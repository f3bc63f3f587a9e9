"""Settings and the dashboard's only caches.

Both caches hold viewer-independent data: the header index of the replay folder, and
parsed replay files keyed by path, size and mtime. They are shared by every browser
session, which is safe precisely because no projection is ever stored in them.

Settings come from the script's arguments (`streamlit run dashboard/app.py -- --replays
DIR --redis URL`, which is what `arena dashboard` runs), else from the environment
(`ARENA_REPLAYS`, `ARENA_REDIS_URL`, `ARENA_REDIS_PREFIX`, `ARENA_EXAMS`), else the
defaults.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass
from pathlib import Path

import streamlit as st

from arena.storage.redis_keys import PREFIX

from .catalog import HeaderIndex
from .i18n import Lang, parse_lang
from .loading import Loaded, fingerprint, load


@dataclass(frozen=True, slots=True)
class Settings:
    """Where the dashboard reads from."""

    replays: Path
    redis_url: str | None
    public_url: str | None = None
    """The dashboard's address as people outside reach it (behind a proxy), for join links."""
    redis_prefix: str = PREFIX
    """The Redis key namespace: the workers' `--prefix`, which the Live page reads."""
    exams: Path = Path("exams")
    """The folder of exam results (`arena exam run --out`), which the Exams page lists."""


def settings(argv: list[str] | None = None) -> Settings:
    """The dashboard's settings (arguments win over the environment)."""
    parser = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    parser.add_argument("--replays", default=None)
    parser.add_argument("--redis", default=None)
    parser.add_argument("--public-url", default=None)
    parser.add_argument("--prefix", default=None)
    parser.add_argument("--exams", default=None)
    known, _ = parser.parse_known_args(sys.argv[1:] if argv is None else argv)
    replays = known.replays or os.environ.get("ARENA_REPLAYS") or "replays"
    redis_url = known.redis or os.environ.get("ARENA_REDIS_URL") or None
    public = known.public_url or os.environ.get("ARENA_PUBLIC_URL") or None
    prefix = known.prefix or os.environ.get("ARENA_REDIS_PREFIX") or PREFIX
    exams = known.exams or os.environ.get("ARENA_EXAMS") or "exams"
    return Settings(
        replays=Path(replays),
        redis_url=redis_url,
        public_url=public,
        redis_prefix=prefix,
        exams=Path(exams),
    )


@st.cache_resource(show_spinner=False)
def header_index() -> HeaderIndex:
    """The process-wide header index (re-reads only changed files)."""
    return HeaderIndex()


@st.cache_resource(show_spinner=False, max_entries=16)
def _load(path: str, size: int, mtime_ns: int) -> Loaded:
    return load(Path(path))


def load_cached(path: Path) -> Loaded:
    """A parsed replay, shared between sessions until the file changes.

    Raises:
        ReplayError: the file is not a readable replay.
    """
    return _load(*fingerprint(path))


def language() -> Lang:
    """The language picked in the sidebar (shared by all pages of a session)."""
    return parse_lang(st.session_state.get("lang"))


def hide_folder(message: str, folder: Path) -> str:
    """`message` without the server's replay folder path (viewers see names inside it)."""
    for prefix in {str(folder.resolve()), str(folder)}:
        message = message.replace(prefix + os.sep, "").replace(prefix, "the replay folder")
    return message
