"""Replays page: every game in the replay folder, filterable, from header lines only."""

from __future__ import annotations

from datetime import date

import pandas as pd
import streamlit as st

from arena.dashboard.catalog import Catalog, Filters, GameRow, select
from arena.dashboard.i18n import Lang, t, winner_label
from arena.dashboard.plain import error, no_games
from arena.dashboard.session import header_index, hide_folder, language, settings
from arena.storage.replay_file import ReplayError

# How many of the filtered games the 'open' picker lists (the table shows them all).
PICK_LIMIT = 300


def filters(catalog: Catalog, lang: Lang) -> Filters:
    """The filter widgets, with choices taken from the listed games."""
    rows = catalog.rows
    cols = st.columns(5)
    choose = t("choose", lang)
    boards = cols[0].multiselect(
        t("f_board", lang), sorted({r.board for r in rows}), key="f_board", placeholder=choose
    )
    agents = cols[1].multiselect(
        t("f_agent", lang), sorted({a for r in rows for a in r.agents}), key="f_agent",
        placeholder=choose,
    )  # fmt: skip
    winners = cols[2].multiselect(
        t("f_winner", lang), sorted({r.winner for r in rows}), key="f_winner",
        format_func=lambda w: winner_label(w, lang), placeholder=choose,
    )  # fmt: skip
    tournaments = cols[3].multiselect(
        t("f_tournament", lang), sorted({r.tournament for r in rows if r.tournament}),
        key="f_tournament", placeholder=choose,
    )  # fmt: skip
    days = [d for r in rows if (d := r.day) is not None]
    span: tuple[date, ...] = ()
    if days:
        picked = cols[4].date_input(t("f_date", lang), (min(days), max(days)), key="dates")
        span = tuple(picked) if isinstance(picked, tuple | list) else (picked,)
    text = st.text_input(t("f_search", lang), key="search")
    return Filters(
        boards=boards,
        agents=agents,
        winners=winners,
        tournaments=tournaments,
        since=span[0] if span else None,
        until=span[1] if len(span) > 1 else None,
        text=text,
    )


# Table columns, the most telling first: the winner must be in view on a laptop screen.
COLUMNS = ("game", "winner", "days", "board", "seats", "started", "agents", "tournament",
           "events", "file")  # fmt: skip


def frame(rows: list[GameRow], lang: Lang) -> pd.DataFrame:
    """The listing as a table, headed in `lang`."""
    values = {
        "game": [r.game_id for r in rows],
        "winner": [winner_label(r.winner, lang) for r in rows],
        "days": [r.days for r in rows],
        "board": [r.board for r in rows],
        "seats": [r.seats for r in rows],
        "started": [r.created_at[:16].replace("T", " ") for r in rows],
        "agents": [", ".join(r.agents) for r in rows],
        "tournament": [r.tournament for r in rows],
        "events": [r.events for r in rows],
        "file": [r.file for r in rows],
    }
    return pd.DataFrame({t(f"col_{c}", lang): values[c] for c in COLUMNS})


def open_game(file: str, lang: Lang) -> None:
    """Go to the player with `file` loaded, in the reader's language."""
    st.switch_page("screens/player.py", query_params={"game": file, "lang": lang})


def listing(rows: list[GameRow], total: int, lang: Lang) -> None:
    """The games table (click a row to open it) and a picker for keyboards and tests."""
    st.caption(f"{len(rows)} / {total}")
    picked = st.dataframe(
        frame(rows, lang),
        hide_index=True,
        on_select="rerun",
        selection_mode="single-row",
        key="games",
    )
    chosen = picked.selection.rows if picked is not None else []
    if chosen:
        open_game(rows[chosen[0]].file, lang)
    if not rows:
        return
    left, right = st.columns([4, 1], vertical_alignment="bottom")
    file = left.selectbox(t("game", lang), [r.file for r in rows[:PICK_LIMIT]], key="pick_game")
    if right.button(t("open", lang), key="open_game", type="primary") and file:
        open_game(file, lang)


def unreadable(catalog: Catalog, lang: Lang) -> None:
    """Files that are not readable replays, each with the reason."""
    if not catalog.unreadable:
        return
    with st.expander(f"⚠️ {t('unreadable', lang)}: {len(catalog.unreadable)}"):
        st.dataframe(
            pd.DataFrame(
                {
                    t("col_file", lang): [u.file for u in catalog.unreadable],
                    t("col_reason", lang): [u.reason for u in catalog.unreadable],
                }
            ),
            hide_index=True,
        )


def main() -> None:
    """Draw the page."""
    lang = language()
    folder = settings().replays
    st.title(f"📚 {t('replays', lang)}")
    try:
        catalog = header_index().scan(folder)
    except ReplayError as exc:
        error(hide_folder(str(exc), folder))
        return
    if not catalog.rows:
        no_games(lang)
        unreadable(catalog, lang)
        return
    rows = select(catalog.rows, filters(catalog, lang))
    listing(rows, len(catalog.rows), lang)
    unreadable(catalog, lang)


main()
