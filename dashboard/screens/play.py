"""Play page: create a game with people, or sit at a seat through its join link.

The page is its rooms put together: creating a game (`arena.dashboard.new_game`), a
seat's pending decision (`seat_answer`) and what the seat sees (`seat_view`), each named
in the page's words (`play_words`).

Creating a game writes its card to the `Desk` and shows one secret join link per human
seat (`?game=ID&seat=N&lang=L&token=T`, in the creator's page language); the game is
hosted in this process (single machine) or by a worker through Redis
(`python -m arena.humans.worker`). A seat's page reads only
through `arena.humans.access` with the link's token: its own `observe` projection, who is
speaking, and its pending decision, drawn as the form `arena.humans.answer` builds from
the request's legal options (which answers are offered, and the action each pick stands
for, are decided there: this page draws the options and sends the action).
The view refreshes twice a second; the decision form is redrawn when a new request comes.

Every word the arena writes comes from the catalog (`arena.text`) in the reader's
language: the page's own words, and the game's too (outcomes, decisions and their
options, role names, night results, the transcript's event lines), all rendered from
structured events and requests. The game's language is its creator's choice, the page's
each reader's: only what a seat said stays as written (in the page's script).

A game with model seats starts only once their endpoints pass `arena play`'s preflight
(the host runs it); one that cannot play shows its one-line reason here instead of join links.

The board is a built-in one, an example board file, or a board file the creator uploads
(docs/boards.md); a bad file is refused in one line, in `arena play --board FILE`'s
words. A custom board travels whole in the game's card (`Table.board`), so the game is
hosted, here or by a worker, and replayed like any other.
"""

from __future__ import annotations

import streamlit as st

from arena.dashboard.hosted import desk
from arena.dashboard.i18n import Lang, text
from arena.dashboard.new_game import create_form, join_box, links
from arena.dashboard.seat_answer import decision, standing
from arena.dashboard.seat_view import heading, view
from arena.dashboard.session import language
from arena.humans.access import AccessDenied, seat_page

REFRESH_S = 0.5
# (no bare strings at the top level of a page: Streamlit's magic would show them)


def seat_screen(game: str, seat_text: str, token: str, lang: Lang) -> None:
    """A seat's page: who it is, the decision where the eye is, then the live table."""
    try:
        page = seat_page(desk(), game, int(seat_text) if seat_text.isdigit() else 0, token)
    except AccessDenied:
        st.error(text("play.refused", lang))
        return
    shown = lang  # the game's own text too: only what a seat said stays as written
    drawn = page.pending.request.step if page.pending else None
    heading(page, lang, shown)
    decision(page, token, lang, shown)

    def body() -> None:
        now = seat_page(desk(), game, page.seat, token)
        step = now.pending.request.step if now.pending else None
        if step != drawn:
            st.rerun(scope="app")
        standing(now, token, lang, shown)
        view(now, lang, shown)

    st.fragment(body, run_every=REFRESH_S)()


def main() -> None:
    """Draw the page, every word the arena writes in the reader's language."""
    lang = language()
    st.title(f"🎲 {text('play.title', lang)}")
    params = st.query_params
    if params.get("game"):
        seat_screen(params.get("game", ""), params.get("seat", ""), params.get("token", ""), lang)
        return
    create, join = st.tabs([text("play.create", lang), text("play.join", lang)])
    with create:
        create_form(lang)
        st.fragment(links, run_every=1.0)(lang)
    with join:
        join_box(lang)


main()
