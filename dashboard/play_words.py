"""How the Play page names boards, seats and roles: in the page's words, in the game's script.

A game's own text (its roles, its seats) is shown in the game's language in the page's
script (`shown_lang`); the page's own words come from the catalog in the page's language.
"""

from __future__ import annotations

from arena.rules.boards import Board
from arena.rules.types import Role
from arena.transcript import role_name

from .i18n import Lang, game_lang, localize, text


def shown_lang(page: Lang, game: str) -> Lang:
    """The language a game's own text is shown in: the game's, in the page's script.

    A Chinese game on an English page is shown as written (Traditional characters).
    """
    if game != "zh":
        return "en"
    return page if page != "en" else "zh-Hant"


def board_name(spec: Board, lang: Lang) -> str:
    """A board's name in `lang`, with its id."""
    return f"{spec.en if lang == 'en' else localize(spec.zh, lang)} ({spec.id})"


def board_cards(spec: Board, lang: Lang) -> str:
    """A board's players, win mode and cards: `10 seats · city · Seer×1 · …`."""
    cards = [
        text("board.role_count", lang, role=role_text(role, lang), n=n)
        for role, n in spec.role_counts().items()
    ]
    head = [text("board.seats", lang, n=spec.seats), text(f"win_mode.{spec.win}", lang)]
    return " · ".join(head + cards)


def seat_label(seat: int | None, lang: Lang) -> str:
    """`#3` or `3號` (`3号`)."""
    return text("seat.one", lang, n=seat) if seat else text("seat.nobody", lang)


def role_text(role: Role, lang: Lang) -> str:
    """A role's name in `lang`."""
    return localize(role_name(role, game_lang(lang)), lang)
