"""Replay player page: scrub or play a game, seen by god, the public, the wolves or a seat.

The URL carries the game, the viewpoint and the step (`?game=F&view=seat:3&step=40`), so
a moment of a game can be shared. The step is the number of events that have happened:
the view at step N is `observe(events, viewer, until=N)`.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from arena.dashboard.i18n import t, viewer_of
from arena.dashboard.loading import Loaded, resolve
from arena.dashboard.player_ui import phase_at, pick_viewpoint, show, viewpoints_caption
from arena.dashboard.projection import project, public_phases
from arena.dashboard.session import language, load_cached, settings
from arena.rules.errors import ArenaError
from arena.transcript import Lang

PLAY_INTERVAL_S = 0.8  # Seconds between steps while playing.


def start(game: str, total: int) -> None:
    """Reset the player's state when a different game is opened (URL values win)."""
    if st.session_state.get("player_game") == game:
        return
    st.session_state["player_game"] = game
    raw = st.query_params.get("step", "")
    st.session_state["step"] = min(int(raw), total) if raw.isdigit() else total
    st.session_state["view"] = st.query_params.get("view", "public")
    st.session_state["playing"] = False


def move(delta: int, total: int) -> None:
    """Step back or forward (a button callback, run before the slider is drawn)."""
    st.session_state["step"] = max(0, min(total, st.session_state["step"] + delta))


def jump(phases: Sequence[tuple[int, str]]) -> None:
    """Go to the start of the phase picked in the jump list (just after its first event)."""
    pick = st.session_state.get("jump")
    if pick is not None:
        st.session_state["step"] = phases[pick][0] + 1
        st.session_state["jump"] = None


def toggle(total: int) -> None:
    """Play or pause; playing from the end starts over."""
    playing = not st.session_state.get("playing", False)
    if playing and st.session_state["step"] >= total:
        st.session_state["step"] = 0
    st.session_state["playing"] = playing


def timeline(total: int, phases: Sequence[tuple[int, str]], lang: Lang) -> int:
    """The scrubber: slider, step buttons, play/pause and a jump list of phases."""
    playing = bool(st.session_state.get("playing"))
    buttons, jump_col = st.columns([1, 2], vertical_alignment="bottom")
    with buttons.container(horizontal=True):
        st.button("⏮", help=t("prev", lang), on_click=move, args=(-1, total), key="prev")
        st.button(
            ("⏸ " + t("pause", lang)) if playing else ("▶ " + t("play", lang)),
            on_click=toggle,
            args=(total,),
            key="play",
            type="primary",
        )
        st.button("⏭", help=t("next", lang), on_click=move, args=(1, total), key="next")
    jump_col.selectbox(
        t("jump", lang),
        range(len(phases)),
        index=None,
        key="jump",
        on_change=jump,
        args=(phases,),
        format_func=lambda i: f"{phases[i][1]} ({phases[i][0]})",
    )
    step: int = st.slider(t("step", lang), 0, total, key="step")
    st.caption(f"**{phase_at(phases, step)}** · {step} / {total}")
    return step


def advance(total: int) -> None:
    """One tick of playback: the next step, or stop at the end."""
    if st.session_state["step"] < total:
        st.session_state["step"] += 1
    if st.session_state["step"] >= total:
        st.session_state["playing"] = False


def board(loaded: Loaded, lang: Lang) -> None:
    """The timeline and the projected view (a fragment, rerun on its own while playing)."""
    total = len(loaded.replay.events)
    playing = bool(st.session_state.get("playing"))

    def body() -> None:
        if st.session_state.get("playing"):
            advance(total)
        step = timeline(total, public_phases(loaded.replay, lang), lang)
        view_key = st.session_state["view"]
        st.query_params["step"] = str(step)
        st.caption(viewpoints_caption(view_key, lang))
        show(project(loaded, viewer_of(view_key), step, lang), lang)
        if playing and not st.session_state.get("playing"):
            st.rerun(scope="app")

    st.fragment(body, run_every=PLAY_INTERVAL_S if playing else None)()


def main() -> None:
    """Draw the page."""
    lang = language()
    st.title(f"🎬 {t('player', lang)}")
    game = st.query_params.get("game") or st.session_state.get("player_game")
    if not game:
        st.page_link("screens/replays.py", label=t("replays", lang), icon="📚")
        return
    try:
        loaded = load_cached(resolve(settings().replays, game))
    except ArenaError as exc:
        st.error(str(exc))
        return
    start(game, len(loaded.replay.events))
    st.query_params["game"] = game
    header = loaded.replay.header
    st.subheader(f"{header.game_id} · {header.config.board}")
    view_key = pick_viewpoint(len(header.seats) or header.config.board_spec.seats, lang, "view")
    st.query_params["view"] = view_key
    board(loaded, lang)


main()
