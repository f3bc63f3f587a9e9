"""Streamlit widgets of the replay player, shared by the Replay player and Live pages.

`show` draws a projected `View` and nothing else, so whatever it puts on screen came
through `observe` for that view's viewer and step.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import streamlit as st

from arena.dashboard.charts import (
    ballot_frame,
    ballot_rounds,
    belief_picture,
    seat_name,
    vote_picture,
)
from arena.dashboard.i18n import t, viewpoint_label, viewpoints
from arena.dashboard.projection import SeatCard, View, role_label
from arena.llm.types import ModelCallRecord
from arena.rules.roles import spec
from arena.rules.types import Role, Team
from arena.transcript import Lang, claims_text
from arena.transcript import seat as seat_text

ICONS: dict[Role, str] = {
    Role.VILLAGER: "🧑‍🌾",
    Role.WEREWOLF: "🐺",
    Role.SEER: "🔮",
    Role.WITCH: "🧪",
    Role.HUNTER: "🏹",
    Role.GUARD: "🛡️",
    Role.IDIOT: "🤪",
    Role.WHITE_WOLF_KING: "🐺",
    Role.WOLF_KING: "🐺",
}
"""Avatars of the roles a viewer knows; an unknown role is a plain silhouette."""
UNKNOWN_ICON = "👤"
CARDS_PER_ROW = 6


def pick_viewpoint(seats: int, lang: Lang, key: str) -> str:
    """The viewpoint selector (god, public, wolves, seat N)."""
    options = viewpoints(seats)
    if st.session_state.get(key) not in options:
        st.session_state[key] = "public"
    choice: str = st.selectbox(
        t("viewpoint", lang), options, key=key, format_func=lambda k: viewpoint_label(k, lang)
    )
    return choice


def phase_at(phases: Sequence[tuple[int, str]], step: int) -> str:
    """The title of the phase the step falls in (`step` events have happened)."""
    current = ""
    for start, title in phases:
        if start < step:
            current = title
    return current


def show(view: View, lang: Lang) -> None:
    """Draw one viewer's view: the seat board, then tabs.

    Transcript, speeches and votes for everyone; beliefs and model calls in god view only.
    """
    if view.latest is None:
        st.info(t("nothing_yet", lang))
    else:
        st.info(view.latest)
    seat_board(view.seats, lang)
    names = ["transcript", "speeches", "votes"] + (["beliefs", "calls"] if view.is_god else [])
    tabs = st.tabs([t(n, lang) for n in names])
    with tabs[0]:
        transcript_tab(view)
    with tabs[1]:
        speeches_tab(view, lang)
    with tabs[2]:
        votes_tab(view, lang)
    if view.is_god:
        with tabs[3]:
            beliefs_tab(view, lang)
        with tabs[4]:
            calls_tab(view.traces, lang)
    with st.expander(t("game", lang)):
        st.table(pd.DataFrame(view.facts, columns=["", " "]).set_index(""))


def card_text(card: SeatCard, lang: Lang) -> tuple[str, str]:
    """(title line, detail line) of one seat card."""
    icon = ICONS[card.role] if card.role is not None else UNKNOWN_ICON
    role = role_label(card.role, lang)
    if card.role is not None:
        role = f":red[{role}]" if spec(card.role).team is Team.WOLF else f":blue[{role}]"
    marks = [t("alive" if card.present else "out", lang)]
    if card.sheriff:
        marks.append("🎖️ " + t("sheriff", lang))
    if card.checked_wolf is not None:
        marks.append(t("checked_wolf" if card.checked_wolf else "checked_good", lang))
    if card.is_viewer:
        marks.append("⭐ " + t("you", lang))
    status = "" if card.present else "💀 "
    return f"{status}**{seat_text(card.seat, lang)}** {icon} {role}", " · ".join(marks)


def seat_board(cards: Sequence[SeatCard], lang: Lang) -> None:
    """The table as cards, six to a row."""
    for row in range(0, len(cards), CARDS_PER_ROW):
        columns = st.columns(CARDS_PER_ROW)
        for column, card in zip(columns, cards[row : row + CARDS_PER_ROW], strict=False):
            title, detail = card_text(card, lang)
            with column.container(border=True):
                st.markdown(title)
                st.caption(f"{detail}  \n`{card.player}`")


def transcript_tab(view: View) -> None:
    """The visible lines, grouped by night and day; the current phase is open."""
    for i, group in enumerate(view.groups):
        with st.expander(group.title, expanded=i == len(view.groups) - 1):
            st.markdown("  \n".join(f"`{step:>3}` {line}" for step, line in group.lines))


def speeches_tab(view: View, lang: Lang) -> None:
    """Speeches as chat messages, with their structured claims under the text."""
    if not view.speeches:
        st.caption(t("no_speeches", lang))
    roles = {c.seat: c.role for c in view.seats}
    for s in view.speeches:
        role = roles.get(s.seat)
        with st.chat_message(seat_name(s.seat, lang), avatar=ICONS[role] if role else UNKNOWN_ICON):
            label = f"第{s.day}天" if lang == "zh" else f"Day {s.day}"
            st.markdown(f"**{seat_text(s.seat, lang)}** · {label} · {s.context}  \n{s.text}")
            if claims := claims_text(s.claims, lang).strip(" []"):
                st.caption(claims)


def votes_tab(view: View, lang: Lang) -> None:
    """Pick a round; see its ballots as a grid picture and a table."""
    rounds = ballot_rounds(view.ballots)
    if not rounds:
        st.caption(t("no_votes", lang))
        return
    day, ballot = st.selectbox(
        t("votes", lang),
        rounds,
        index=len(rounds) - 1,
        key="vote_round",
        format_func=lambda r: (
            f"{'第' + str(r[0]) + '天' if lang == 'zh' else 'Day ' + str(r[0])} · {r[1]}"
        ),
    )
    rows = [r for r in view.ballots if (r.day, r.ballot) == (day, ballot)]
    st.altair_chart(vote_picture(rows, view.observation.knowledge.seats, lang))
    st.dataframe(ballot_frame(view.ballots, lang), hide_index=True)


def beliefs_tab(view: View, lang: Lang) -> None:
    """The latest belief report of each seat as a heat map (god view only)."""
    if not view.beliefs:
        st.caption(t("no_beliefs", lang))
        return
    wolves = {c.seat for c in view.seats if c.role is not None and spec(c.role).team is Team.WOLF}
    st.altair_chart(belief_picture(view.beliefs, view.observation.knowledge.seats, wolves, lang))


def calls_tab(traces: Sequence[ModelCallRecord], lang: Lang) -> None:
    """Every model call so far, and one call's messages and reply (god view only)."""
    if not traces:
        st.caption(t("no_calls", lang))
        return
    st.dataframe(
        pd.DataFrame(
            {
                "seat": [c.seat for c in traces],
                "request": [c.step for c in traces],
                "attempt": [c.attempt for c in traces],
                "model": [c.model for c in traces],
                "prompt": [c.prompt_id for c in traces],
                "ms": [round(c.latency_ms) for c in traces],
                "tokens in": [c.usage.prompt_tokens for c in traces],
                "tokens out": [c.usage.completion_tokens for c in traces],
                "usd": [c.cost_usd for c in traces],
                "error": [c.error or "" for c in traces],
            }
        ),
        hide_index=True,
    )
    index = st.selectbox(
        t("calls", lang),
        range(len(traces)),
        index=len(traces) - 1,
        key="call_pick",
        format_func=lambda i: f"{i + 1}: {seat_name(traces[i].seat, lang)} · {traces[i].model}",
    )
    call = traces[index]
    for message in call.messages:
        with st.chat_message(message.role):
            st.text(message.content)
    if call.reply is not None:
        with st.chat_message("assistant"):
            st.text(call.reply.text)
            for tool in call.reply.tool_calls:
                st.code(f"{tool.name}({tool.arguments})", language="json")
    if call.error:
        st.error(call.error)


def viewpoints_caption(key: str, lang: Lang) -> str:
    """A short line saying whose eyes the page is showing."""
    return f"👁 {viewpoint_label(key, lang)}"
