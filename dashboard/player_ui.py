"""Streamlit widgets of the replay player, shared by the Replay player and Live pages.

`show` draws a projected `View` and nothing else, so whatever it puts on screen came
through `observe` for that view's viewer and step.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import streamlit as st

from arena.llm.types import ModelCallRecord
from arena.rules.actions import Claims
from arena.rules.roles import spec
from arena.rules.types import Team
from arena.rules.visibility import SeatViewer
from arena.transcript import claims_text

from .charts import (
    ballot_frame,
    ballot_rounds,
    belief_picture,
    belief_timeline,
    circle_picture,
    day_label,
    seat_name,
    vote_picture,
)
from .i18n import (
    Lang,
    context_label,
    localize,
    t,
    viewpoint_label,
    viewpoints,
)
from .plain import error, plain, visible
from .projection import BallotRow, View
from .seat_table import draw, role_icon, seats_in, speaker, speaking_line


def pick_viewpoint(seats: int, lang: Lang, key: str, *, public_only: bool = False) -> str:
    """The viewpoint selector (god, public, wolves, seat N); the choice is `st.session_state[key]`.

    The choice lives under `key`, apart from the widget: the widget is keyed per
    language (its labels change with the language), and is drawn at the stored choice,
    so switching the language keeps the viewpoint.
    """
    options = ["public"] if public_only else viewpoints(seats)
    if st.session_state.get(key) not in options:
        st.session_state[key] = "public"
    widget = f"{key}_pick_{lang}"

    def keep() -> None:
        st.session_state[key] = st.session_state[widget]

    st.session_state[widget] = st.session_state[key]
    st.selectbox(
        t("viewpoint", lang),
        options,
        key=widget,
        on_change=keep,
        format_func=lambda k: viewpoint_label(k, lang),
    )
    choice: str = st.session_state[key]
    return choice


def phase_at(phases: Sequence[tuple[int, str]], step: int) -> str:
    """The title of the phase the step falls in (`step` events have happened)."""
    current = ""
    for start, title in phases:
        if start < step:
            current = title
    return current


def show(view: View, lang: Lang) -> None:
    """Draw one viewer's view: the latest line, the seat board, then tabs.

    Table, transcript, speeches and votes for everyone; beliefs and model calls in god
    view only. Player text is drawn as plain text (`arena.dashboard.plain`).
    """
    with st.container(border=True, key="latest"):
        plain(view.latest if view.latest is not None else t("nothing_yet", lang), one_line=True)
    seat_board(view, lang)
    names = ["circle", "transcript", "speeches", "votes"]
    names += ["beliefs", "calls"] if view.is_god else []
    tabs = dict(zip(names, st.tabs([t(n, lang) for n in names]), strict=True))
    with tabs["circle"]:
        circle_tab(view, lang)
    with tabs["transcript"]:
        transcript_tab(view)
    with tabs["speeches"]:
        speeches_tab(view, lang)
    with tabs["votes"]:
        votes_tab(view, lang)
    if view.is_god:
        with tabs["beliefs"]:
            beliefs_tab(view, lang)
        with tabs["calls"]:
            calls_tab(view.traces, lang)
    with st.expander(t("game", lang)):
        st.dataframe(pd.DataFrame(view.facts, columns=["", " "]), hide_index=True, width="stretch")


def seat_board(view: View, lang: Lang) -> None:
    """The table as this view knows it (`seat_table`): who is speaking in the middle.

    Who plays each seat is named only where the projection names it (god view, or a
    finished game's last step).
    """
    me = view.viewer.seat if isinstance(view.viewer, SeatViewer) else None
    speaking = speaker(view.observation)
    names = {c.seat: c.player for c in view.seats if c.player}
    seats = seats_in(view.observation, lang, me=me, speaking=speaking, names=names)
    draw(seats, lang, speaking_line(speaking, lang))


def circle_tab(view: View, lang: Lang) -> None:
    """The seating circle with the latest vote round's ballots as arrows."""
    rounds = ballot_rounds(view.ballots)
    today = [r for r in rounds if r[0] == view.observation.knowledge.day] or rounds[-1:]
    rows: list[BallotRow] = []
    if today:
        day, ballot = today[-1]
        rows = [r for r in view.ballots if (r.day, r.ballot) == (day, ballot)]
        st.caption(f"{day_label(day, lang)} · {t(f'ballot_{ballot}', lang)}")
    else:
        st.caption(t("no_votes", lang))
    if view.seats:
        st.altair_chart(circle_picture(view.seats, rows, lang), width="content")


def transcript_tab(view: View) -> None:
    """The visible lines, grouped by night and day; the current phase is open.

    Lines are plain text: a speech with Markdown or control characters shows literally.
    """
    for i, group in enumerate(view.groups):
        with st.expander(group.title, expanded=i == len(view.groups) - 1):
            plain(
                "\n".join(
                    f"{step:>3}  " + visible(line, one_line=True) for step, line in group.lines
                )
            )


def claims_line(claims: Claims, lang: Lang) -> str:
    """A speech's structured claims in `lang` (empty if none)."""
    if lang == "en":
        return claims_text(claims, "en").strip(" []")
    return localize(claims_text(claims, "zh"), lang).strip(" []")


def speeches_tab(view: View, lang: Lang) -> None:
    """Speeches as chat messages, with their structured claims under the text."""
    if not view.speeches:
        st.caption(t("no_speeches", lang))
    roles = {c.seat: c.role for c in view.seats}
    for s in view.speeches:
        role = roles.get(s.seat)
        with st.chat_message(seat_name(s.seat, lang), avatar=role_icon(role)):
            context = context_label(s.context, lang)
            st.markdown(f"**{seat_name(s.seat, lang)}** · {day_label(s.day, lang)} · {context}")
            plain(localize(s.text, lang))  # one script per page (`arena.text.script`)
            if claims := claims_line(s.claims, lang):
                st.caption(claims)


def votes_tab(view: View, lang: Lang) -> None:
    """Pick a round; see its ballots as a grid picture and a table of that round."""
    rounds = ballot_rounds(view.ballots)
    if not rounds:
        st.caption(t("no_votes", lang))
        return
    pick = st.selectbox(
        t("votes", lang),
        range(len(rounds)),
        index=len(rounds) - 1,
        key=f"vote_round_{lang}",
        format_func=lambda i: (
            f"{day_label(rounds[i][0], lang)} · {t(f'ballot_{rounds[i][1]}', lang)}"
        ),
    )
    day, ballot = rounds[pick if pick is not None and pick < len(rounds) else -1]
    rows = [r for r in view.ballots if (r.day, r.ballot) == (day, ballot)]
    st.altair_chart(vote_picture(rows, view.observation.knowledge.seats, lang), width="content")
    st.dataframe(ballot_frame(rows, lang), hide_index=True)


def beliefs_tab(view: View, lang: Lang) -> None:
    """Belief reports (god view only): the latest as a heat map, and their course."""
    if not view.beliefs:
        st.caption(t("no_beliefs", lang))
        return
    wolves = {c.seat for c in view.seats if c.role is not None and spec(c.role).team is Team.WOLF}
    seats = view.observation.knowledge.seats
    st.subheader(t("beliefs_now", lang))
    st.altair_chart(belief_picture(view.beliefs, seats, wolves, lang))
    st.subheader(t("beliefs_time", lang))
    st.altair_chart(belief_timeline(view.beliefs, wolves, lang), width="stretch")


def calls_tab(traces: Sequence[ModelCallRecord], lang: Lang) -> None:
    """Every model call so far, and one call's messages and reply (god view only)."""
    if not traces:
        st.caption(t("no_calls", lang))
        return
    st.dataframe(
        pd.DataFrame(
            {
                t("call_seat", lang): [c.seat for c in traces],
                t("call_request", lang): [c.step for c in traces],
                t("call_attempt", lang): [c.attempt for c in traces],
                t("call_model", lang): [c.model for c in traces],
                t("call_prompt", lang): [c.prompt_id for c in traces],
                t("call_ms", lang): [round(c.latency_ms) for c in traces],
                t("call_in", lang): [c.usage.prompt_tokens for c in traces],
                t("call_out", lang): [c.usage.completion_tokens for c in traces],
                t("call_usd", lang): [c.cost_usd for c in traces],
                t("call_error", lang): [c.error or "" for c in traces],
            }
        ),
        hide_index=True,
    )
    index = st.selectbox(
        t("calls", lang),
        range(len(traces)),
        index=len(traces) - 1,
        key=f"call_pick_{lang}",
        format_func=lambda i: f"{i + 1}: {seat_name(traces[i].seat, lang)} · {traces[i].model}",
    )
    call = traces[index]
    for message in call.messages:
        with st.chat_message(message.role):
            plain(message.content)
    if call.reply is not None:
        with st.chat_message("assistant"):
            plain(call.reply.text)
            for tool in call.reply.tool_calls:
                st.code(f"{tool.name}({tool.arguments})", language="json")
    if call.error:
        error(call.error)


def viewpoints_caption(key: str, lang: Lang) -> str:
    """A short line saying whose eyes the page is showing."""
    return f"👁 {viewpoint_label(key, lang)}"
