"""Leaderboard page: ratings, head to head, the win table, deception metrics, cost.

Sections: the headline rating (the batch fit, Elo points) and win rates with intervals per
side; the head-to-head matrix (each agent's per-deal score against each opponent, outlined
where separated) and the wolf-agent x good-agent win table (`arena.dashboard.head_to_head`);
deception against detection per agent with interval bars; tokens and cost; every number.

Every number comes from `arena.ratings` over the finished games of the replay folder
that verify. The report comes from `arena.ratings.folder.folder_report`, which `arena
leaderboard` uses too: its per-file facts cache and saved rating states (in
`DIR/.arena/`) make a changed folder cost only its new or changed files, and a folder
that only gained newer games re-rates only those; a progress bar shows the reading. The
finished report is kept per folder state (file sizes and mtimes), tournament and
bootstrap size, so an unchanged folder is not read again. It aggregates finished games
only, so it holds nothing a running game still hides.
"""

from __future__ import annotations

import hashlib
import threading
from collections import Counter
from pathlib import Path

import pandas as pd
import streamlit as st

from arena.dashboard.catalog import candidate_files
from arena.dashboard.head_to_head import cells_frame, grid_chart, matrix_frame
from arena.dashboard.i18n import Lang, t
from arena.dashboard.plain import error
from arena.dashboard.session import header_index, hide_folder, language, settings
from arena.dashboard.standings import (
    cost_chart,
    deception_chart,
    interval_chart,
    skill_frame,
    table,
    win_frame,
    with_unsigned_mark,
)
from arena.errors import ArenaError
from arena.ratings import Report, to_csv
from arena.ratings.folder import folder_report

ALL = "—"  # the tournament choice meaning "every game"
USD_CELL = "$%.4f"  # dollars per game: often a fraction of a cent, so four decimals


def folder_stamp(folder: Path) -> str:
    """A digest of the folder's files, sizes and mtimes: part of the report's cache key."""
    digest = hashlib.sha1()
    for entry in sorted(candidate_files(folder), key=lambda e: e.path):
        stat = entry.stat()
        digest.update(f"{entry.path}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()


KEPT_REPORTS = 8  # finished reports kept, shared by every session


@st.cache_resource(show_spinner=False)
def _reports() -> tuple[threading.Lock, dict[tuple[str, str, str | None, int, bool], Report]]:
    """Finished reports by (folder, folder stamp, tournament, bootstrap size), oldest first."""
    return threading.Lock(), {}


def report(
    folder: Path, tournament: str | None, bootstrap: int, lang: Lang, unsigned: bool = False
) -> Report:
    """The ratings report of the folder's finished games, reading only what changed.

    Only games whose signature verifies are rated, unless `unsigned` (then unsigned games
    too, apart: `AGENT (unsigned)`), as `arena leaderboard --include-unsigned`.
    """
    key = (str(folder), folder_stamp(folder), tournament, bootstrap, unsigned)
    lock, kept = _reports()
    with lock:
        rep = kept.get(key)
    if rep is not None:
        return rep
    bar = st.progress(0.0, text=t("rating_games", lang))

    def progress(done: int, total: int) -> None:
        if done == total or done % 25 == 0:
            bar.progress(done / total, text=f"{t('rating_games', lang)} {done} / {total}")

    _scan, rep = folder_report(
        folder,
        tournament=tournament,
        bootstrap=bootstrap,
        progress=progress,
        include_unsigned=unsigned,
    )
    bar.empty()
    with lock:
        kept[key] = rep
        while len(kept) > KEPT_REPORTS:
            kept.pop(next(iter(kept)))
    return rep


def controls(folder: Path, lang: Lang) -> tuple[str | None, int]:
    """The tournament and bootstrap-size pickers."""
    left, right = st.columns([3, 1])
    tournaments = sorted({r.tournament for r in header_index().scan(folder).rows if r.tournament})
    pick = left.selectbox(
        t("f_tournament", lang),
        [ALL, *tournaments],
        key="board_tournament",
        format_func=lambda x: t("all_games", lang) if x == ALL else x,
    )
    bootstrap = right.number_input(
        t("bootstrap", lang), min_value=0, max_value=2000, value=200, step=50, key="bootstrap"
    )
    return (None if pick == ALL else pick), int(bootstrap)


def overview(rep: Report, lang: Lang) -> None:
    """Games played, draws and the board's side balance."""
    board = rep.leaderboard
    a, b, c = st.columns(3)
    a.metric(t("games", lang), board.games)
    b.metric(t("draws", lang), board.draws)
    rate = board.wolf_side_wins.rate
    c.metric(t("wolf_side_wins", lang), "—" if rate is None else f"{rate:.0%}")


def ratings(rep: Report, lang: Lang) -> None:
    """Ratings and win rates with their intervals, overall and per side."""
    level = f"{rep.leaderboard.confidence:.0%}"
    left, right = st.columns(2)
    with left:
        st.subheader(t("rating_title", lang, level=level))
        st.altair_chart(interval_chart(skill_frame(rep), "mu", t("rating", lang), lang))
    with right:
        st.subheader(t("win_title", lang, level=level))
        st.altair_chart(interval_chart(win_frame(rep), "rate", t("win_rate", lang), lang))


def head_to_head(rep: Report, lang: Lang) -> None:
    """The head-to-head matrix and the wolf-agent x good-agent win table."""
    level = f"{rep.leaderboard.confidence:.0%}"
    order = [s.agent for s in rep.leaderboard.standings]
    st.subheader(t("h2h_title", lang, level=level))
    frame = matrix_frame(rep, lang)
    if frame.empty:
        st.info(t("h2h_none", lang))
        return
    st.caption(t("h2h_caption", lang))
    titles = (t("agent", lang), t("h2h_opponent", lang), t("h2h_score", lang))
    st.altair_chart(grid_chart(frame, order, titles, lang))
    st.subheader(t("cells_title", lang, level=level))
    titles = (t("cells_wolves", lang), t("cells_good", lang), t("cells_rate", lang))
    st.altair_chart(grid_chart(cells_frame(rep, lang), order, titles, lang))


def metrics(rep: Report, folder: Path, lang: Lang) -> None:
    """Deception metrics, cost per game, the full table and the skipped files."""
    frame = table(rep)
    left, right = st.columns(2)
    with left:
        st.subheader(t("deception_title", lang))
        level = f"{rep.leaderboard.confidence:.0%}"
        st.caption(t("deception_caption", lang, level=level))
        st.altair_chart(deception_chart(frame, lang))
    with right:
        st.subheader(t("cost_title", lang))
        if not (frame["tokens_per_game"] > 0).any():  # an empty chart's legend reads $NaN
            st.info(t("no_model_cost", lang))
        else:
            st.altair_chart(cost_chart(frame, lang))
    if rep.models:
        per_model(rep, lang)
    other_numbers(rep, frame, folder, lang)


def per_model(rep: Report, lang: Lang) -> None:
    """Calls, tokens and dollars per model (only when a model played)."""
    st.subheader(t("per_model", lang))
    st.dataframe(
        pd.DataFrame({
            t("col_model", lang): [m.model for m in rep.models],
            t("col_games", lang): [m.games for m in rep.models],
            t("col_calls", lang): [m.usage.calls for m in rep.models],
            t("tokens_per_game", lang): [round(m.tokens_per_game) for m in rep.models],
            t("usd_per_game", lang): [m.cost_per_game for m in rep.models],
        }),
        hide_index=True,
        column_config={t("usd_per_game", lang): st.column_config.NumberColumn(format=USD_CELL)},
    )  # fmt: skip


def other_numbers(rep: Report, frame: pd.DataFrame, folder: Path, lang: Lang) -> None:
    """The full table, its CSV and the skipped files."""
    st.subheader(t("every_number", lang))
    st.dataframe(frame, hide_index=True)
    st.download_button("CSV", to_csv(rep), file_name="leaderboard.csv", mime="text/csv")
    if rep.skipped:
        with st.expander(f"⚠️ {t('unreadable', lang)}: {len(rep.skipped)}"):
            st.dataframe(
                pd.DataFrame({
                    t("col_file", lang): [hide_folder(str(s.path), folder) for s in rep.skipped],
                    t("col_reason", lang): [hide_folder(s.message, folder) for s in rep.skipped],
                }),
                hide_index=True,
            )  # fmt: skip


def main() -> None:
    """Draw the page."""
    lang = language()
    folder = settings().replays
    st.title(f"🏆 {t('leaderboard', lang)}")
    try:
        tournament, bootstrap = controls(folder, lang)
        unsigned = st.toggle(t("include_unsigned", lang), key="board_unsigned")
        rep = with_unsigned_mark(report(folder, tournament, bootstrap, lang, unsigned), lang)
    except ArenaError as exc:
        error(hide_folder(str(exc), folder))
        return
    overview(rep, lang)
    left = Counter(s.reason for s in rep.skipped)
    if left:
        parts = ", ".join(f"{n} {t('left_' + reason, lang)}" for reason, n in sorted(left.items()))
        st.caption(t("left_out", lang, n=len(rep.skipped), parts=parts))
    if not rep.leaderboard.standings:
        st.info(t("no_finished", lang))
        return
    ratings(rep, lang)
    head_to_head(rep, lang)
    metrics(rep, folder, lang)


main()
