"""What a seat sees on the Play page: the table as it knows it, today's speeches, its log.

Everything here is drawn from the seat's own `observe` projection (`SeatPage`), never
from the game: other seats are named by number only, and what this seat knows of each
is what its own view holds.
"""

from __future__ import annotations

from urllib.parse import urlencode

import streamlit as st

from arena.humans.access import (
    SeatPage,
)
from arena.rules import events as ev
from arena.rules.boards import board

from .i18n import Lang, context_label, localize, render, text
from .plain import error, escape, plain, visible
from .play_words import board_cards, board_name, role_text, seat_label
from .player_ui import claims_line
from .seat_table import draw, seats_in, speaking_line

PLAYER_PAGE = "player"  # the replay player's URL path (app.py)


def today(page: SeatPage) -> list[ev.Spoke]:
    """Today's speeches this seat heard, oldest first."""
    spoken: list[ev.Spoke] = []
    for seen in page.observation.seen:
        if isinstance(seen.event, ev.PhaseStarted) and not seen.event.phase.value.startswith("day"):
            spoken = []
        elif isinstance(seen.event, ev.Spoke):
            spoken.append(seen.event)
    return spoken


def message(speech: ev.Spoke, page: SeatPage, shown: Lang) -> None:
    """One speech as a chat message, its structured claims as tags."""
    who = seat_label(speech.seat, shown)
    with st.chat_message(who, avatar="⭐" if speech.seat == page.seat else "👤"):
        st.markdown(f"**{escape(who)}** · {escape(context_label(speech.context, shown))}")
        plain(localize(speech.text, shown) or "…")
        if claims := claims_line(speech.claims, shown):
            st.markdown(" ".join(f":blue-badge[{escape(c.strip())}]" for c in claims.split(";")))


def last_speech(page: SeatPage, lang: Lang, shown: Lang) -> None:
    """Today's latest speech, right under the decision: what a person is answering.

    On a phone the columns below stack (the table, then the conversation), which put the
    speech a decision answers a few screens down; here it is on the decision's screen.
    """
    spoken = today(page)
    if spoken:
        with st.container(border=True, key="last_speech"):
            st.caption(text("play.last_speech", lang))
            message(spoken[-1], page, shown)


def conversation(page: SeatPage, lang: Lang, shown: Lang) -> None:
    """Today's earlier speeches as a conversation, newest last (the latest is above)."""
    st.caption(text("play.speeches", lang))
    spoken = today(page)
    if not spoken:
        st.caption(text("play.no_speeches", lang))
    for speech in spoken[:-1]:
        message(speech, page, shown)


def view(page: SeatPage, lang: Lang, shown: Lang) -> None:
    """The latest speech, the table, today's speeches, and everything this seat has seen."""
    status = page.status
    if status.state in ("waiting", "checking"):  # a seat is not told the table has models
        st.info(text("play.waiting", lang))
    elif status.state == "finished":
        outcome = text(f"outcome.{status.winner}", shown) if status.winner else ""
        st.success(text("play.over", lang, w=outcome, f=status.replay))
        if status.replay:  # the finished game, from this seat's view, in the replay player
            query = urlencode(
                {"game": status.replay, "view": f"seat:{page.seat}", "step": "end", "lang": lang}
            )  # the reader's language: a link opens a new page, which reads it from here
            label = escape(text("play.over_replay", lang))
            st.markdown(f"🎬 [{label}]({PLAYER_PAGE}?{query})")
    elif status.state == "failed":
        error(text("play.failed", lang, e=status.error))
    last_speech(page, lang, shown)
    left, right = st.columns([3, 2])
    with left:
        st.caption(text("play.table", lang))
        table(page, shown)
    with right:
        conversation(page, lang, shown)
    lines = [line for s in page.observation.seen if (line := render(s.event, shown)) is not None]
    st.caption(text("play.log", lang))
    plain("\n".join(visible(line, one_line=True) for line in reversed(lines[-200:])) or "…")


def table(page: SeatPage, lang: Lang) -> None:
    """The seats as this seat knows them (`seat_table`), who is speaking in the middle.

    Other seats are named by number only: a name would tell which seats people hold.
    """
    speaking = page.status.speaking
    seats = seats_in(page.observation, lang, me=page.seat, speaking=speaking)
    draw(seats, lang, speaking_line(speaking, lang))


def heading(page: SeatPage, lang: Lang, shown: Lang) -> None:
    """Who this seat is: number, name, card and board."""
    k = page.observation.knowledge
    you = text("play.you_are", lang, seat=seat_label(page.seat, shown), name=page.name)
    role = f" · {text('play.role', lang, r=role_text(k.own_role, shown))}" if k.own_role else ""
    st.markdown(f"**{escape(you)}**{role}")
    spec = board(page.board)
    played = text("play.board_line", lang, b=board_name(spec, shown), c=board_cards(spec, shown))
    st.caption(escape(played))  # a board file's names are its author's text, not Markdown
    if any(
        isinstance(s.event, ev.SelfExploded) and s.event.seat == page.seat
        for s in page.observation.seen
    ):
        st.error(text("play.you_exploded", lang), icon="💥")  # the press went off: say so
