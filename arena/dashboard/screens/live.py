"""Live page: games running on workers, read from Redis and updated as events arrive.

Each session keeps its own `Tail` of the chosen game's stream (in session state, never
shared), polls it every few seconds inside a fragment, and projects the game so far for
the chosen viewpoint, exactly like the replay player.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import redis
import streamlit as st

from arena.dashboard.i18n import t, viewer_of
from arena.dashboard.live import Tail, loaded, poll, running, stream_key
from arena.dashboard.player_ui import pick_viewpoint, show, viewpoints_caption
from arena.dashboard.projection import project
from arena.dashboard.session import language, settings
from arena.rules.errors import ArenaError
from arena.storage.replay_file import parse_replay_lines
from arena.transcript import Lang

REFRESH_S = 2.0  # Seconds between polls of the running game's stream.


@st.cache_resource(show_spinner=False)
def client(url: str) -> Any:
    """One connection pool per Redis URL (connects lazily, on the first command)."""
    return redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5)


def pick_game(games: list[tuple[str, float]], lang: Lang) -> str:
    """The running game to watch."""
    started = {g: datetime.fromtimestamp(s, UTC).strftime("%Y-%m-%d %H:%M:%S") for g, s in games}
    choice: str = st.selectbox(
        t("game", lang),
        list(started),
        key="live_game",
        format_func=lambda g: f"{g} · {started[g]}",
    )
    return choice


def seats_of(conn: Any, game: str) -> int:
    """How many seats the game has, from its header (the stream's first line).

    Raises:
        ReplayError: the first line is not a replay header.
    """
    first = conn.xrange(stream_key(game), count=1)
    if not first:
        raise ArenaError("the game has published nothing yet")
    fields = {k.decode() if isinstance(k, bytes) else k: v for k, v in first[0][1].items()}
    line = fields.get("line", b"")
    text = line.decode("utf-8") if isinstance(line, bytes) else str(line)
    return parse_replay_lines([text], source=stream_key(game)).header.config.board_spec.seats


def follow(conn: Any, game: str, lang: Lang) -> None:
    """Poll the game's stream and draw its latest state (a fragment, rerun on a timer)."""

    def body() -> None:
        tails: dict[str, Tail] = st.session_state.setdefault("live_tails", {})
        try:
            tail = tails[game] = poll(conn, tails.get(game, Tail(game_id=game)))
            if not tail.lines:
                st.caption(t("nothing_yet", lang))
                return
            game_so_far = loaded(tail)
        except (redis.RedisError, ArenaError, ValueError) as exc:
            st.error(f"{game}: {exc}")
            return
        total = len(game_so_far.replay.events)
        view_key = st.session_state["live_view"]
        st.caption(f"{viewpoints_caption(view_key, lang)} · {total} events")
        show(project(game_so_far, viewer_of(view_key), total, lang), lang)

    st.fragment(body, run_every=REFRESH_S)()


def main() -> None:
    """Draw the page."""
    lang = language()
    st.title(f"📡 {t('live', lang)}")
    url = settings().redis_url
    if url is None:
        st.info(
            "Start the dashboard with `arena dashboard --redis redis://HOST:6379/0` "
            "(or set ARENA_REDIS_URL) to watch games running on workers."
        )
        return
    conn = client(url)
    try:
        games = running(conn)
    except redis.RedisError as exc:
        st.error(f"cannot read running games from {url}: {exc}")
        return
    if not games:
        st.info("No game is running right now." if lang == "en" else "目前沒有進行中的對局。")
        if st.button("↻", key="live_refresh"):
            st.rerun()
        return
    game = pick_game(games, lang)
    try:
        seats = seats_of(conn, game)
    except (redis.RedisError, ArenaError, ValueError) as exc:
        st.error(f"{game}: {exc}")
        return
    pick_viewpoint(seats, lang, "live_view")
    follow(conn, game, lang)


main()
