"""How the Play page names boards, seats and roles: in the reader's language.

A game's own text (its roles, its seats) is the arena's, from the catalog, so it is shown
in the page's language whatever the game's (a Chinese game on an English page says
"Seer", not 預言家).
"""

from __future__ import annotations

from arena.rules.boards import Board
from arena.rules.types import Role
from arena.transcript import role_name

from .i18n import Lang, game_lang, localize, text


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
