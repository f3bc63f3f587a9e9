"""Leaderboard page: ratings with intervals per side, deception metrics, tokens and cost.

Every number comes from `arena.ratings` over the finished games of the replay folder;
the report is cached per folder state (file sizes and mtimes), tournament and bootstrap
size. It aggregates finished games only, so it holds nothing a running game still hides.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pandas as pd
import streamlit as st

from arena.dashboard.catalog import candidate_files
from arena.dashboard.i18n import t
from arena.dashboard.session import header_index, language, settings
from arena.dashboard.standings import (
    cost_chart,
    deception_chart,
    interval_chart,
    skill_frame,
    table,
    win_frame,
)
from arena.ratings import Report, build_report, load_games, to_csv
from arena.rules.errors import ArenaError
from arena.transcript import Lang

ALL = "—"  # the tournament choice meaning "every game"


def folder_stamp(folder: Path) -> str:
    """A digest of the folder's files, sizes and mtimes: part of the report's cache key."""
    digest = hashlib.sha1()
    for entry in sorted(candidate_files(folder), key=lambda e: e.path):
        stat = entry.stat()
        digest.update(f"{entry.path}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()


@st.cache_resource(show_spinner="Rating games…", max_entries=8)
def report(folder: str, stamp: str, tournament: str | None, bootstrap: int) -> Report:
    """The ratings report of the folder's finished games (`stamp` keys the folder state)."""
    games = load_games(Path(folder), tournament=tournament)
    return build_report(games.games, bootstrap=bootstrap, skipped=games.skipped, directory=folder)


def controls(folder: Path) -> tuple[str | None, int]:
    """The tournament and bootstrap-size pickers."""
    left, right = st.columns([3, 1])
    tournaments = sorted({r.tournament for r in header_index().scan(folder).rows if r.tournament})
    pick = left.selectbox("Tournament", [ALL, *tournaments], key="board_tournament")
    bootstrap = right.number_input(
        "Bootstrap resamples", min_value=0, max_value=2000, value=200, step=50, key="bootstrap"
    )
    return (None if pick == ALL else pick), int(bootstrap)


def overview(rep: Report) -> None:
    """Games played, draws and the board's side balance."""
    board = rep.leaderboard
    a, b, c = st.columns(3)
    a.metric("Games", board.games)
    b.metric("Draws", board.draws)
    rate = board.wolf_side_wins.rate
    c.metric("Wolf side wins", "—" if rate is None else f"{rate:.0%}")


def ratings(rep: Report) -> None:
    """Ratings and win rates with their intervals, overall and per side."""
    level = f"{rep.leaderboard.confidence:.0%}"
    left, right = st.columns(2)
    with left:
        st.subheader(f"Rating (mu, {level} bootstrap interval)")
        st.altair_chart(interval_chart(skill_frame(rep), "mu", "rating"))
    with right:
        st.subheader(f"Win rate ({level} Wilson interval)")
        st.altair_chart(interval_chart(win_frame(rep), "rate", "win rate"))


def metrics(rep: Report, lang: Lang) -> None:
    """Deception metrics, cost per game, the full table and the skipped files."""
    frame = table(rep)
    left, right = st.columns(2)
    with left:
        st.subheader("Deception and detection")
        st.altair_chart(deception_chart(frame))
    with right:
        st.subheader("Tokens and money per game")
        st.altair_chart(cost_chart(frame))
    st.subheader("Per model")
    st.dataframe(
        pd.DataFrame({
            "model": [m.model for m in rep.models], "games": [m.games for m in rep.models],
            "calls": [m.usage.calls for m in rep.models],
            "tokens / game": [round(m.tokens_per_game) for m in rep.models],
            "USD / game": [m.cost_per_game for m in rep.models],
        }),
        hide_index=True,
    )  # fmt: skip
    st.subheader("Every number")
    st.dataframe(frame, hide_index=True)
    st.download_button("CSV", to_csv(rep), file_name="leaderboard.csv", mime="text/csv")
    if rep.skipped:
        with st.expander(f"⚠️ {t('unreadable', lang)}: {len(rep.skipped)}"):
            st.dataframe(
                pd.DataFrame({"file": [s.path for s in rep.skipped],
                              "reason": [s.message for s in rep.skipped]}),
                hide_index=True,
            )  # fmt: skip


def main() -> None:
    """Draw the page."""
    lang = language()
    folder = settings().replays
    st.title(f"🏆 {t('leaderboard', lang)}")
    try:
        tournament, bootstrap = controls(folder)
        rep = report(str(folder), folder_stamp(folder), tournament, bootstrap)
    except ArenaError as exc:
        st.error(str(exc))
        return
    overview(rep)
    if not rep.leaderboard.standings:
        st.info("No finished game in this folder yet.")
        return
    ratings(rep)
    metrics(rep, lang)


main()
