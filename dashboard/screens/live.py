"""Live page: games running on workers, read from Redis and updated as events arrive.

Each session keeps its own `Tail` of the chosen game's stream (in session state, never
shared), polls it every few seconds inside a fragment, and projects the game so far for
the chosen viewpoint, exactly like the replay player. The same poll watches the index of
running games, so a game that starts shows up in the list without a click, and a game
that ends stays on screen marked finished (its stream outlives it for an hour).

A game with a person or an outside agent at the table (`has_outsiders`) is shown in the
public view only until its stream carries the finished header: whatever the session
asked for, no god, wolf or seat view of it is drawn while its seats are deciding (issue
19: the roles of a running game are readable by its own seats only).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import redis
import streamlit as st

from arena.dashboard.hosted import desk, hosted
from arena.dashboard.i18n import Lang, render, t, text, viewer_of, winner_label
from arena.dashboard.live import Tail, loaded, poll, running
from arena.dashboard.plain import error, plain, visible
from arena.dashboard.player_ui import pick_viewpoint, show, viewpoints_caption
from arena.dashboard.projection import project
from arena.dashboard.seat_table import draw, seats_in, speaking_line
from arena.dashboard.session import language, settings
from arena.errors import ArenaError
from arena.humans.hosting import public_view
from arena.storage.redis_keys import live_stream
from arena.storage.replay_file import ReplayHeader, has_outsiders, parse_replay_lines

REFRESH_S = 2.0  # seconds between polls of the running games and of the watched stream


@st.cache_resource(show_spinner=False)
def client(url: str) -> Any:
    """One connection pool per Redis URL (connects lazily, on the first command)."""
    return redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5)


def known_games(conn: Any, prefix: str, games: list[tuple[str, float]]) -> dict[str, float]:
    """The running games plus those this session saw running whose stream still exists."""
    known: dict[str, float] = st.session_state.setdefault("live_known", {})
    running_now = dict(games)
    for game in [g for g in known if g not in running_now]:
        if not conn.exists(live_stream(game, prefix)):
            del known[game]
    known.update(running_now)
    return dict(sorted(known.items(), key=lambda item: item[1]))


def pick_game(games: dict[str, float], lang: Lang) -> str:
    """The game to watch, each labelled with its start time (the newest is the default).

    Labels stay the same when a game ends (a changed label would lose the choice); the
    fragment below says whether it is running or finished.
    """
    started = {
        g: datetime.fromtimestamp(s, UTC).strftime("%Y-%m-%d %H:%M:%S") for g, s in games.items()
    }
    options = list(games)
    choice: str = st.selectbox(
        t("game", lang),
        options,
        index=len(options) - 1,
        key="live_game",
        format_func=lambda g: f"{g} · {started[g]}",
    )
    return choice


def watched(conn: Any, prefix: str, game: str) -> Tail:
    """This session's tail of the game's stream, brought up to date."""
    tails: dict[str, Tail] = st.session_state.setdefault("live_tails", {})
    tail = tails[game] = poll(conn, tails.get(game, Tail(game_id=game, prefix=prefix)))
    return tail


def header_of(tail: Tail) -> ReplayHeader:
    """The game's latest header (the finished one, once published).

    Raises:
        ArenaError: the stream is empty, or its first line is not a replay header.
    """
    if not tail.lines:
        raise ArenaError("the game has published nothing yet")
    return parse_replay_lines([tail.lines[0]], source=live_stream(tail.game_id, tail.prefix)).header


def is_guarded(header: ReplayHeader) -> bool:
    """Whether only the public view may be drawn: running, with an outsider at the table."""
    return header.result is None and has_outsiders(header)


def status_line(header_result: Any, lang: Lang) -> str:
    """`finished: good won` / `finished: a draw` for a finished game's result."""
    winner = header_result.winner.value
    if winner == "draw":
        return t("finished_draw", lang)
    return t("finished", lang, winner=winner_label(winner, lang))


def follow(conn: Any, prefix: str, game: str, running_ids: set[str], lang: Lang) -> None:
    """Poll the index and the game's stream; draw its latest state (a fragment on a timer).

    A change in the set of running games reruns the whole page, so the game list is
    redrawn with the new game in it.
    """

    def body() -> None:
        try:
            if {g for g, _ in running(conn, prefix)} != running_ids:
                st.rerun(scope="app")
            tail = watched(conn, prefix, game)
            if not tail.lines:
                st.caption(t("nothing_yet", lang))
                return
            game_so_far = loaded(tail)
        except (redis.RedisError, ArenaError, ValueError) as exc:
            error(f"{game}: {exc}")
            return
        total = len(game_so_far.replay.events)
        header = game_so_far.replay.header
        if header.result is not None:
            st.success(status_line(header.result, lang), icon="✔")
        else:
            st.caption(f"● {t('running', lang)}")
        view_key = "public" if is_guarded(header) else st.session_state["live_view"]
        st.caption(f"{viewpoints_caption(view_key, lang)} · {t('live_events', lang, n=total)}")
        show(project(game_so_far, viewer_of(view_key), total, lang), lang)

    st.fragment(body, run_every=REFRESH_S)()


def wait_for_games(conn: Any, prefix: str) -> None:
    """With no game to show, poll the index and redraw the page once one starts."""

    def body() -> None:
        try:
            if running(conn, prefix):
                st.rerun(scope="app")
        except redis.RedisError:
            return

    st.fragment(body, run_every=REFRESH_S)()


def hosted_here(lang: Lang) -> None:
    """Games this dashboard hosts (the Play page's), public view only, refreshed.

    The table (`seat_table`, as the Play page and the player draw it), then the lines.
    """
    ids = hosted().ids()
    st.subheader(text("play.hosted", lang))
    if not ids:
        st.caption(text("play.hosted_none", lang))
        return
    game = st.selectbox(t("game", lang), ids, key="live_hosted")

    def body() -> None:
        status = desk().status(game)
        if status.state == "finished" and status.winner:
            st.success(winner_label(status.winner, lang))
        seen = public_view(desk(), game)
        speaking = status.speaking if status.state != "finished" else None
        draw(seats_in(seen, lang, speaking=speaking), lang, speaking_line(speaking, lang))
        lines = [line for s in seen.seen if (line := render(s.event, lang)) is not None]
        plain("\n".join(visible(line, one_line=True) for line in reversed(lines[-200:])) or "…")

    st.fragment(body, run_every=REFRESH_S)()


def main() -> None:
    """Draw the page: games hosted here, then games running on workers (Redis)."""
    lang = language()
    st.title(f"📡 {t('live', lang)}")
    hosted_here(lang)
    known = settings()
    if known.redis_url is None:
        st.info(t("no_redis", lang))
        return
    conn, prefix = client(known.redis_url), known.redis_prefix
    try:
        games = running(conn, prefix)
        shown = known_games(conn, prefix, games)
    except redis.RedisError as exc:
        error(t("redis_down", lang, error=exc))
        return
    if not shown:
        st.info(t("no_running", lang))
        wait_for_games(conn, prefix)
        return
    running_ids = {g for g, _ in games}
    game = pick_game(shown, lang)
    try:
        header = header_of(watched(conn, prefix, game))
    except (redis.RedisError, ArenaError, ValueError) as exc:
        error(f"{game}: {exc}")
        return
    guarded = is_guarded(header)
    if guarded:  # a person or an outside agent is still deciding
        st.info(t("running_guarded", lang), icon="🔒")
    seats = len(header.seats) or header.config.board_spec.seats
    pick_viewpoint(seats, lang, "live_view", public_only=guarded)
    follow(conn, prefix, game, running_ids, lang)


main()
