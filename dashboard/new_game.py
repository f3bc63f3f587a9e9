"""Creating a game on the Play page: the board, its rules, who sits where; then join links.

The creator's choices go to `arena.humans.hosting.start_game`, which writes the game's
card; the page keeps the join links it returns, one per person, and shows them (or the
one-line reason the game cannot start) until the game is under way. The board is a
built-in one, an example board file, or a board file the creator uploads (docs/boards.md);
a bad file is refused in one line, in `arena play --board FILE`'s words.
"""

from __future__ import annotations

import os
from urllib.parse import parse_qs, urlparse, urlsplit

import streamlit as st

from arena.board_file import example_boards, parse_board_upload
from arena.errors import ArenaError
from arena.humans.hosting import is_local_only, join_url, start_game
from arena.rules.boards import BOARDS, Board
from arena.storage.desk import Pace

from .hosted import desk, hosted
from .i18n import Lang, game_lang, text
from .plain import error, escape
from .play_words import board_cards, board_name, seat_label
from .session import settings

KINDS = ("human", "bot", "random", "model")
PRESETS = (None, "tournament", "site", "classic")
UPLOAD = "upload"  # the board picker's last entry: a board file from the creator's computer
GAME_LANGS = ("zh", "en")  # a new game's languages; the default is the page's (`game_lang`)


@st.cache_resource(show_spinner=False)
def examples() -> dict[str, Board]:
    """The example board files (package data, in a wheel too), read once per process."""
    return example_boards()


def board_options() -> dict[str, Board]:
    """The boards the picker lists: the built-in ones, then the examples, each by id."""
    return {**BOARDS, **examples()}


def pick_board(lang: Lang) -> Board | None:
    """The board picked, or None while an upload is missing or refused (said in one line)."""
    options = board_options()
    keys = [*options, UPLOAD]
    picked = st.selectbox(
        text("play.board", lang),
        keys,
        index=keys.index("std9"),
        key="play_board",
        format_func=lambda k: (
            text("play.board_upload", lang) if k == UPLOAD else board_name(options[k], lang)
        ),
    )
    if picked != UPLOAD:
        return options[picked]
    sent = st.file_uploader(
        text("play.board_file", lang),
        type=["yaml", "yml"],
        key="play_board_file",
        help=text("play.board_file_help", lang),
    )
    if sent is None:
        return None
    try:
        return parse_board_upload(sent.getvalue(), sent.name)
    except ArenaError as exc:
        error(text("play.bad_board", lang, error=str(exc)))
        return None


def follow_page_lang(lang: Lang) -> None:
    """Default a new game's language to the page's, also after the page's language changes.

    Streamlit keeps a keyed widget's value across reruns (a changed `index` is ignored), so
    when the page switches between English and Chinese the form's game language is set to
    the new page's; a switch within Chinese scripts (zh-Hans, zh-Hant) keeps the choice.
    """
    default = game_lang(lang)
    known = "play_lang" in st.session_state  # Streamlit drops it while another page is shown
    if not known or st.session_state.get("play_lang_default") != default:
        st.session_state["play_lang_default"] = default
        st.session_state["play_lang"] = default


def create_form(lang: Lang) -> None:
    """Board, preset, seats, language, limits and pace; then the join links."""
    spec = pick_board(lang)
    if spec is None:
        return
    st.caption(escape(board_cards(spec, lang)))  # a board file's names are its author's text
    seats = spec.seats
    chosen_board: str | Board = spec.id if BOARDS.get(spec.id) == spec else spec
    follow_page_lang(lang)
    with st.form("play_create"):
        preset = st.selectbox(
            text("play.preset", lang),
            PRESETS,
            format_func=lambda p: text(f"play.preset_{p or 'default'}", lang),
        )
        chosen = st.radio(  # the game's language defaults to the page's (zh page: zh game)
            text("play.lang", lang),
            GAME_LANGS,
            horizontal=True,
            key="play_lang",
            format_func=lambda x: text(f"play.lang_{x}", lang),
        )
        plans = seat_inputs(seats, lang)
        limits = limit_inputs(lang)
        pace = pace_inputs(lang)
        where = "here"
        if settings().redis_url:
            where = st.radio(
                text("play.where", lang),
                ["here", "worker"],
                horizontal=True,
                format_func=lambda x: text(f"play.{x}", lang),
                key="play_where",
            )
        if st.form_submit_button(text("play.start", lang), type="primary"):
            start(chosen_board, preset, str(chosen), plans, limits, pace, where, lang)


def seat_inputs(seats: int, lang: Lang) -> dict[int, tuple[str, str]]:
    """Who sits where: each seat's kind and the name typed for it, in three columns."""
    st.caption(text("play.who", lang))
    plans: dict[int, tuple[str, str]] = {}
    columns = st.columns(3)
    for n in range(1, seats + 1):
        with columns[(n - 1) % 3]:
            kind = st.selectbox(
                text("play.kind", lang, n=n),
                KINDS,
                index=0 if n == 1 else 1,
                key=f"play_kind_{n}",
                format_func=lambda k: text(f"play.kind_{k}", lang),
            )
            name = st.text_input(text("play.name", lang), key=f"play_name_{n}")
            plans[n] = (kind, name)
    return plans


def limit_inputs(lang: Lang) -> tuple[float, float]:
    """A person's seconds for a decision and for a speech."""
    cols = st.columns(2)
    decision_s = cols[0].number_input(
        text("play.decision_s", lang), 10, 3600, 180, key="play_decision"
    )
    speech_s = cols[1].number_input(text("play.speech_s", lang), 10, 3600, 300, key="play_speech")
    return float(decision_s), float(speech_s)


def pace_inputs(lang: Lang) -> Pace:
    """The game's pace: the night's length, each step's, and a window's (`Pace`)."""
    default = Pace()
    paces = st.columns(3)
    night_s = paces[0].number_input(
        text("play.night_s", lang), 0.0, 3600.0, default.night_s, 0.5, key="play_night",
        help=text("play.night_s_help", lang),
    )  # fmt: skip
    step_s = paces[1].number_input(
        text("play.step_s", lang), 0.0, 600.0, default.step_s, 0.5, key="play_step"
    )
    window_s = paces[2].number_input(
        text("play.window_s", lang), 0.0, 600.0, default.window_s, 0.5, key="play_window",
        help=text("play.window_s_help", lang),
    )  # fmt: skip
    return Pace(night_s=night_s, step_s=step_s, window_s=window_s)


def start(
    board: str | Board,
    preset: str | None,
    game: str,
    plans: dict[int, tuple[str, str]],
    limits: tuple[float, float],
    pace: Pace,
    where: str,
    lang: Lang,
) -> None:
    """Start the game (`arena.humans.hosting.start_game`) and keep its join links."""
    with st.spinner(text("play.checking", lang)):
        started = start_game(
            desk(), board, plans, preset=preset, lang="zh" if game == "zh" else "en",
            limits=limits, pace=pace, where="worker" if where == "worker" else "here",
            page_lang=lang, replays=settings().replays, hosted=hosted(),
        )  # fmt: skip
    if started.error is not None:
        st.session_state.pop("play_links", None)
        key = "play.cannot_create" if started.stage == "create" else "play.cannot_start"
        error(text(key, lang, error=started.error))
        return
    st.session_state["play_links"] = (started.game_id, started.links)


def page_address() -> str:
    """The dashboard's address for links: a configured public URL, else this page's."""
    configured = settings().public_url or os.environ.get("ARENA_PUBLIC_URL")
    return configured or st.context.url or ""


def links(lang: Lang) -> None:
    """The join links of the game this session created (none for a game that failed).

    Redrawn every second (a fragment), so a game queued for a worker whose preflight
    fails there replaces its links with the reason.
    """
    made = st.session_state.get("play_links")
    if not made:
        return
    game_id, rows = made
    status = desk().status(game_id)
    if status.state == "failed":
        error(text("play.cannot_start", lang, error=status.error or ""))
        return
    if status.state == "checking":
        st.info(text("play.checking", lang))
    st.subheader(text("play.links", lang))
    base = page_address()
    if is_local_only(base):  # a link to this computer does not open on anyone else's
        host = urlsplit(base).hostname or "localhost"
        st.warning(text("play.local_links", lang, host=host), icon="⚠️")
    st.caption(text("play.copy_hint", lang))
    for link in rows:
        url = join_url(base, link.query)
        st.markdown(f"**{seat_label(link.seat, lang)} · {escape(link.name)}**")
        st.code(url, language=None)  # Streamlit's code block has a copy button


def join_box(lang: Lang) -> None:
    """Open a pasted join link in this tab."""
    with st.form("play_join"):
        pasted = st.text_input(text("play.link", lang), key="play_link")
        if st.form_submit_button(text("play.go", lang)):
            query = parse_qs(urlparse(pasted.strip()).query)
            for key in ("game", "seat", "token"):
                if key in query:
                    st.query_params[key] = query[key][0]
            st.rerun()
