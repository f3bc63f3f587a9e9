"""What a seat sees on the Play page: the table as it knows it, today's speeches, its log.

Everything here is drawn from the seat's own `observe` projection (`SeatPage`), never
from the game: other seats are named by number only, and what this seat knows of each
is what its own view holds.
"""

from __future__ import annotations

import html
from urllib.parse import urlencode

import streamlit as st

from arena.humans.access import (
    SeatPage,
)
from arena.rules import events as ev
from arena.rules.boards import board
from arena.rules.roles import is_wolf

from .i18n import Lang, context_label, localize, render, text
from .plain import error, escape, plain, visible
from .play_words import board_cards, board_name, role_text, seat_label
from .player_ui import claims_line

PLAYER_PAGE = "player"  # the replay player's URL path (app.py)


def marks(page: SeatPage, lang: Lang, shown: Lang) -> dict[int, list[str]]:
    """What this seat knows of each seat, as short tags (from its own view only).

    Its card and the cards it knows (its fellow wolves, public reveals), its checks, the
    witch's save and poison, the lovers, the sheriff, and who is out or speaking.
    """
    k = page.observation.knowledge
    tags: dict[int, list[str]] = {n: [] for n in range(1, page.seats + 1)}
    for n, role in k.roles.items():
        if n != page.seat:
            tags[n].append(("🐺 " if is_wolf(role) else "🎴 ") + role_text(role, shown))
    for n, wolf in k.checks.items():
        tags[n].append(f"🔍 {text('play.mark_wolf' if wolf else 'play.mark_good', lang)}")
    for seen in page.observation.seen:
        if isinstance(seen.event, ev.WitchActed) and seen.event.seat == page.seat:
            if seen.event.saved is not None:
                tags[seen.event.saved].append(f"💊 {text('play.mark_saved', lang)}")
            if seen.event.poisoned is not None:
                tags[seen.event.poisoned].append(f"☠️ {text('play.mark_poisoned', lang)}")
    for n in k.lovers:
        tags[n].append(f"💕 {text('play.mark_lover', lang)}")
    if k.sheriff is not None:
        tags[k.sheriff].append(f"🎖️ {text('play.mark_sheriff', lang)}")
    return tags


def table(page: SeatPage, lang: Lang, shown: Lang) -> None:
    """The seats as this seat knows them: number, state, and what it knows of each.

    Drawn as cards that wrap (several in a row at 1400 px, two at phone width). Other
    seats are named by number only: a name would tell which seats people hold.
    """
    k = page.observation.knowledge
    tags = marks(page, lang, shown)
    cards = []
    for n in range(1, page.seats + 1):
        out = n in k.out
        speaking = page.status.speaking == n and not out
        state = text("play.mark_out", lang) if out else ""
        if speaking:
            state = f"🎙 {text('play.mark_speaking', lang)}"
        head = seat_label(n, shown) + (
            f" · {text('play.mark_you', lang)}" if n == page.seat else ""
        )
        own = role_text(k.own_role, shown) if n == page.seat and k.own_role else ""
        lines = [f"<b>{'💀' if out else '👤'} {html.escape(head)}</b>"]
        lines += [
            html.escape(x) for x in ([own] if own else []) + tags[n] + ([state] if state else [])
        ]
        css = "arena-seat" + (" arena-out" if out else "") + (" arena-speaking" if speaking else "")
        css += " arena-you" if n == page.seat else ""
        cards.append(f'<div class="{css}" data-seat="{n}">' + "<br>".join(lines) + "</div>")
    st.html(SEAT_STYLE + '<div class="arena-table">' + "".join(cards) + "</div>")


SEAT_STYLE = """<style>
.arena-table{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:8px}
.arena-seat{border:1px solid rgba(128,128,128,.35);border-radius:10px;padding:8px 10px;
font-size:.9rem;line-height:1.35}
.arena-speaking{border:2px solid #e0a800;background:rgba(224,168,0,.12)}
.arena-you{border:2px solid #1c83e1}
.arena-out{opacity:.5}
@media (max-width:480px){.arena-table{grid-template-columns:repeat(2,1fr)}}
</style>"""  # the table's look (static; every value in the cards is escaped)


def today(page: SeatPage) -> list[ev.Spoke]:
    """Today's speeches this seat heard, oldest first."""
    spoken: list[ev.Spoke] = []
    for seen in page.observation.seen:
        if isinstance(seen.event, ev.PhaseStarted) and not seen.event.phase.value.startswith("day"):
            spoken = []
        elif isinstance(seen.event, ev.Spoke):
            spoken.append(seen.event)
    return spoken


def conversation(page: SeatPage, lang: Lang, shown: Lang) -> None:
    """Today's speeches as a conversation, newest last, with their claims as tags."""
    st.caption(text("play.speeches", lang))
    spoken = today(page)
    if not spoken:
        st.caption(text("play.no_speeches", lang))
    for speech in spoken:
        who = seat_label(speech.seat, shown)
        with st.chat_message(who, avatar="⭐" if speech.seat == page.seat else "👤"):
            st.markdown(f"**{escape(who)}** · {escape(context_label(speech.context, shown))}")
            plain(localize(speech.text, shown) or "…")
            if claims := claims_line(speech.claims, shown):
                st.markdown(
                    " ".join(f":blue-badge[{escape(c.strip())}]" for c in claims.split(";"))
                )


def view(page: SeatPage, lang: Lang, shown: Lang) -> None:
    """Who is speaking, the table, today's speeches, and everything this seat has seen."""
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
    if status.speaking is not None:
        st.markdown(f"🎙 **{text('play.speaking', lang, s=seat_label(status.speaking, shown))}**")
    left, right = st.columns([3, 2])
    with left:
        st.caption(text("play.table", lang))
        table(page, lang, shown)
    with right:
        conversation(page, lang, shown)
    lines = [line for s in page.observation.seen if (line := render(s.event, shown)) is not None]
    st.caption(text("play.log", lang))
    plain("\n".join(visible(line, one_line=True) for line in reversed(lines[-200:])) or "…")


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
