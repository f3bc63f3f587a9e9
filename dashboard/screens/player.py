"""Replay player page: scrub or play a game, seen by god, the public, the wolves or a seat.

The URL carries the game, the viewpoint and the step (`?game=F&view=seat:3&step=40`), so
a moment of a game can be shared. The step is the number of events that have happened:
the view at step N is `observe(events, viewer, until=N)`. A replay opens at step 0 (the
result is the end of the story) unless the link names a step (`step=N` or `step=end`).

Keyboard shortcuts work on the whole page (Streamlit button shortcuts): Space plays or
pauses, Left/Right step, Home/End go to the start/end, S/V/D jump to the next speech,
vote or death and Shift+S/V/D to the previous one.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import streamlit as st

from arena.dashboard.i18n import Lang, t, text, viewer_of, winner_label
from arena.dashboard.loading import Loaded, NotInFolder, resolve
from arena.dashboard.plain import error, escape, no_games
from arena.dashboard.player_ui import phase_at, pick_viewpoint, show, viewpoints_caption
from arena.dashboard.projection import Moments, moments, next_moment, project, public_phases
from arena.dashboard.session import header_index, hide_folder, language, load_cached, settings
from arena.errors import ArenaError
from arena.rules.observation import observe
from arena.storage.replay_file import has_outsiders

# Page scripts hold no bare string literals: Streamlit's magic would draw them.
PLAY_INTERVAL_S = 0.8  # seconds between steps while playing
MOMENT_KEYS = {"speech": "S", "vote": "V", "death": "D"}  # Shift+letter: the previous one


def start(game: str, total: int) -> None:
    """Reset the player's state when a different game is opened (URL values win)."""
    if st.session_state.get("player_game") == game:
        return
    st.session_state["player_game"] = game
    raw = st.query_params.get("step", "")
    step = total if raw == "end" else min(int(raw), total) if raw.isdigit() else 0
    st.session_state["step"] = step
    st.session_state["view"] = st.query_params.get("view", "public")
    st.session_state["playing"] = False


def go(step: int, total: int) -> None:
    """Move to `step` (a button callback, run before the slider is drawn)."""
    st.session_state["step"] = max(0, min(total, step))


def move(delta: int, total: int) -> None:
    """Step back or forward by `delta` events."""
    go(st.session_state["step"] + delta, total)


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
    st.session_state["ticked_at"] = time.monotonic()


def step_button(
    key: str,
    icon: str,
    shortcut: str,
    on_click: Callable[[int, int], None],
    to: int,
    total: int,
    disabled: bool,
    lang: Lang,
) -> None:
    """One icon button of the scrubber: `on_click(to, total)` when pressed."""
    st.button(
        "",
        icon=f":material/{icon}:",
        help=t(key, lang),
        key=key,
        on_click=on_click,
        args=(to, total),
        shortcut=shortcut,
        disabled=disabled,
    )


def controls(total: int, lang: Lang) -> None:
    """⏮ start, ◀ back, play/pause, ▶ forward, ⏭ end, with their page-wide shortcuts."""
    playing = bool(st.session_state.get("playing"))
    step = st.session_state["step"]
    start, end = step == 0, step >= total
    with st.container(horizontal=True):
        step_button("first", "skip_previous", "Home", go, 0, total, start, lang)
        step_button("prev", "chevron_left", "Left", move, -1, total, start, lang)
        st.button(
            t("pause" if playing else "play", lang),
            key="play",
            type="primary",
            icon=":material/pause:" if playing else ":material/play_arrow:",
            on_click=toggle,
            args=(total,),
            shortcut="Space",
        )
        step_button("next", "chevron_right", "Right", move, 1, total, end, lang)
        step_button("last", "skip_next", "End", go, total, total, end, lang)


def moment_buttons(marks: Moments, total: int, lang: Lang) -> None:
    """Previous / next speech, vote and death."""
    step = st.session_state["step"]
    with st.container(horizontal=True):
        for kind, steps in (("speech", marks.speeches), ("vote", marks.votes),
                            ("death", marks.deaths)):  # fmt: skip
            letter = MOMENT_KEYS[kind]
            for forward in (False, True):
                target = next_moment(steps, step, forward)
                st.button(
                    t(f"{'next' if forward else 'prev'}_{kind}", lang),
                    icon=":material/east:" if forward else ":material/west:",
                    key=f"{'next' if forward else 'prev'}_{kind}",
                    on_click=go,
                    args=(target if target is not None else step, total),
                    disabled=target is None,
                    shortcut=letter if forward else f"Shift+{letter}",
                    type="tertiary",
                )


def timeline(total: int, phases: Sequence[tuple[int, str]], marks: Moments, lang: Lang) -> int:
    """The scrubber: buttons, a jump list of phases, the slider and where it is."""
    buttons, jump_col = st.columns([3, 2], vertical_alignment="bottom")
    with buttons:
        controls(total, lang)
    jump_col.selectbox(
        t("jump", lang),
        range(len(phases)),
        index=None,
        key="jump",
        on_change=jump,
        args=(phases,),
        format_func=lambda i: f"{phases[i][1]} ({phases[i][0]})",
        placeholder=t("choose", lang),
    )
    moment_buttons(marks, total, lang)
    step: int = st.slider(t("step", lang), 0, total, key="step")
    phase = phase_at(phases, step) or t("setup", lang)
    st.caption(f"{phase} · {step} / {total}")
    return step


def shown_steps(loaded: Loaded, view_key: str) -> tuple[int, ...]:
    """The steps at which `view_key`'s view changes: one past each event it sees."""
    key = f"shown_steps:{loaded.replay.header.game_id}:{view_key}"
    if key not in st.session_state:
        seen = observe(loaded.replay.events, viewer_of(view_key)).seen
        st.session_state[key] = tuple(s.seq + 1 for s in seen)
    steps: tuple[int, ...] = st.session_state[key]
    return steps


def advance(total: int, shown: tuple[int, ...]) -> None:
    """One tick of playback: the next step the viewer sees change, or stop at the end.

    Steps that change nothing for the viewer (the deal's hidden cards, a night's private
    acts in the public view) are passed over, so playback never idles on them. Only a
    timer tick advances (not a rerun caused by a click while playing): a step happens
    once at least most of an interval has passed since the last one.
    """
    now = time.monotonic()
    if now - st.session_state.get("ticked_at", 0.0) < PLAY_INTERVAL_S * 0.75:
        return
    st.session_state["ticked_at"] = now
    if st.session_state["step"] < total:
        step = st.session_state["step"]
        st.session_state["step"] = next((s for s in shown if s > step), total)
    if st.session_state["step"] >= total:
        st.session_state["playing"] = False


def board(loaded: Loaded, lang: Lang) -> None:
    """The timeline and the projected view (a fragment, rerun on a timer while playing).

    A fragment's timer is fixed when the fragment is drawn, so pressing Play or Pause
    (or reaching the end) reruns the whole page to draw it again with the right timer.
    """
    total = len(loaded.replay.events)
    playing = bool(st.session_state.get("playing"))
    phases = public_phases(loaded.replay, lang)
    marks = moments(loaded.replay)

    def body() -> None:
        if st.session_state.get("playing") != playing:
            st.rerun(scope="app")
        if playing:
            advance(total, shown_steps(loaded, st.session_state["view"]))
        step = timeline(total, phases, marks, lang)
        view_key = st.session_state["view"]
        st.query_params["step"] = str(step)
        st.caption(viewpoints_caption(view_key, lang))
        show(project(loaded, viewer_of(view_key), step, lang), lang)
        if st.session_state.get("playing") != playing:
            st.rerun(scope="app")

    st.fragment(body, run_every=PLAY_INTERVAL_S if playing else None)()


def choose_game(lang: Lang) -> None:
    """With no game chosen: the folder's games, newest first, to open one here."""
    try:
        rows = header_index().scan(settings().replays).rows
    except ArenaError as exc:
        error(hide_folder(str(exc), settings().replays))
        return
    if not rows:
        no_games(lang)
        return
    st.page_link(
        "screens/replays.py", label=t("replays", lang), icon="📚", query_params={"lang": lang}
    )
    labels = {
        r.file: f"{r.created_at[:16]} · {r.board} · {winner_label(r.winner, lang)}" for r in rows
    }
    picked = st.selectbox(
        t("game", lang), [None, *labels], format_func=lambda f: labels.get(f, "…")
    )
    if picked is not None:  # through the URL, so `start` opens it as a link would
        st.query_params["game"] = picked
        st.rerun()


def main() -> None:
    """Draw the page."""
    lang = language()
    st.title(f"🎬 {t('player', lang)}")
    game = st.query_params.get("game") or st.session_state.get("player_game")
    if not game:
        choose_game(lang)
        return
    try:
        loaded = load_cached(resolve(settings().replays, game))
    except NotInFolder as exc:  # a link to a game this folder does not hold: in words
        error(t(f"game_{exc.why}", lang, file=repr(game)))
        return
    except ArenaError as exc:
        error(hide_folder(str(exc), settings().replays))
        return
    start(game, len(loaded.replay.events))
    st.query_params["game"] = game
    header = loaded.replay.header
    st.subheader(escape(f"{header.game_id} · {header.config.board_id}"))
    if loaded.doubt == "unsigned":
        st.warning(text("cli.unsigned", lang), icon="⚠️")
    elif loaded.doubt is not None:
        st.warning(escape(text("cli.unverified", lang, reason=loaded.doubt)), icon="⚠️")
    guarded = header.result is None and has_outsiders(header)
    if guarded:  # a person is still deciding: no god, wolf or seat view for anyone
        st.info(t("running_guarded", lang), icon="🔒")
    seats = len(header.seats) or header.config.board_spec.seats
    view_key = pick_viewpoint(seats, lang, "view", public_only=guarded)
    st.query_params["view"] = view_key
    board(loaded, lang)


main()
