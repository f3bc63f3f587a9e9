"""The seats around the table: one drawing for the Play page, the Live page and the player.

Every page that shows a game draws its seats here, from one viewer's `Observation`, so a
seat reads the same wherever it is seen: its number, who plays it (where the page may
say), alive or out, its card where the view knows it, what the view knows of it (a check,
the witch's potions, the lovers, the sheriff), and whether it is speaking now.

Drawn as the seats around a table: clockwise from the top left, with who is speaking in
the middle, while the table has room for its ring (a container query, so the same table
fits a page's column as well as a whole page); narrower (a phone), the middle goes on top
and the seats wrap two to a row. Either way no seat is wider than its room and none is
hidden. Every value drawn is escaped: names and the arena's words alike.
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import streamlit as st

from arena.rules import events as ev
from arena.rules.observation import Observation
from arena.rules.roles import is_wolf
from arena.rules.types import Role

from .i18n import Lang, text
from .plain import visible
from .play_words import role_text, seat_label

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
    Role.WOLF_BEAUTY: "🐺",
    Role.KNIGHT: "⚔️",
    Role.DREAMWEAVER: "💤",
    Role.AVENGER: "🗡️",
    Role.EVIL_KNIGHT: "🐺",
    Role.NIGHTMARE: "🐺",
    Role.BLOOD_MOON_APOSTLE: "🐺",
    Role.DEMON_HUNTER: "🪓",
    Role.GARGOYLE: "🗿",
    Role.GRAVEKEEPER: "⚰️",
    Role.ECLIPSE_WOLF_CONSORT: "🐺",
    Role.PRINCE: "🤴",
    Role.WOLF_WITCH: "🐺",
    Role.PURE_WHITE_MAIDEN: "🤍",
    Role.MAGICIAN: "🎩",
    Role.ALCHEMIST_WITCH: "⚗️",
    Role.RAVEN_CLAW: "🐺",
    Role.MIRACLE_MERCHANT: "💰",
    Role.SECRET_ADMIRER: "💌",
    Role.FOX_CUB: "🦊",
    Role.BEAR: "🐻",
    Role.PUFFERFISH: "🐡",
    Role.WHITE_CAT: "🐈",
    Role.PHANTOM: "🐺",
    Role.HEALER: "⛑️",
    Role.WATCHMAN: "🏮",
    Role.CORONER: "🩺",
    Role.ELDER: "👴",
    Role.THIEF: "🦹",
    Role.CUPID: "💘",
}
"""Avatars of the roles a viewer knows; an unknown role is a plain silhouette."""
UNKNOWN_ICON = "👤"


def role_icon(role: Role | None) -> str:
    """A role's avatar; the silhouette for an unknown role (or one added without an icon)."""
    return UNKNOWN_ICON if role is None else ICONS.get(role, UNKNOWN_ICON)


CELL_PX = 118
"""The narrowest a seat may be in the ring; a table without room for its ring wraps."""


@dataclass(frozen=True, slots=True)
class TableSeat:
    """One seat as a view knows it, its words already in the reader's language."""

    seat: int
    name: str
    """Who plays it, where the page may say (empty: the seat is named by number only)."""
    alive: bool
    role: Role | None
    """Its card, only if the view knows it."""
    marks: tuple[str, ...]
    """What the view knows of it beyond its card: checks, potions, lovers, sheriff."""
    speaking: bool
    """Whether it is this seat's turn to speak."""
    you: bool
    """Whether the view is this seat's own."""


def speaker(obs: Observation) -> int | None:
    """Who is speaking in a replayed moment: the seat whose speech is the latest thing seen.

    Anything seen after a speech (a vote, a phase, a death) ends that seat's turn.
    """
    if obs.seen and isinstance(last := obs.seen[-1].event, ev.Spoke):
        return last.seat
    return None


def speaking_line(seat: int | None, lang: Lang) -> str:
    """The table's middle: `🎙 Speaking now: #3`, or nothing when nobody is speaking."""
    return f"🎙 {text('play.speaking', lang, s=seat_label(seat, lang))}" if seat else ""


def seats_in(
    obs: Observation,
    lang: Lang,
    *,
    me: int | None = None,
    speaking: int | None = None,
    names: Mapping[int, str] | None = None,
) -> tuple[TableSeat, ...]:
    """The table as `obs` knows it: `me` is the viewing seat, `speaking` whose turn it is.

    `names` are only what the page may show (the player's agent labels in god view or at
    a finished game's end; none on a seat's own page, where a name would tell which
    seats people hold).
    """
    k = obs.knowledge
    marks = known_marks(obs, lang, me)
    return tuple(
        TableSeat(
            seat=n,
            name=(names or {}).get(n, ""),
            alive=n not in k.out,
            role=k.roles.get(n) or (k.own_role if n == me else None),
            marks=tuple(marks[n]),
            speaking=speaking == n and n not in k.out,
            you=n == me,
        )
        for n in range(1, k.seats + 1)
    )


def known_marks(obs: Observation, lang: Lang, me: int | None) -> dict[int, list[str]]:
    """Short tags of what the view knows of each seat.

    Its checks, the potions the viewing witch used, the lovers, the sheriff.
    """
    k = obs.knowledge
    tags: dict[int, list[str]] = {n: [] for n in range(1, k.seats + 1)}
    for n, wolf in k.checks.items():
        tags[n].append(f"🔍 {text('play.mark_wolf' if wolf else 'play.mark_good', lang)}")
    for seen in obs.seen:
        if isinstance(e := seen.event, ev.WitchActed) and me is not None and e.seat == me:
            if e.saved is not None:
                tags[e.saved].append(f"💊 {text('play.mark_saved', lang)}")
            if e.poisoned is not None:
                tags[e.poisoned].append(f"☠️ {text('play.mark_poisoned', lang)}")
    for n in k.lovers:
        tags[n].append(f"💕 {text('play.mark_lover', lang)}")
    if k.sheriff is not None:
        tags[k.sheriff].append(f"🎖️ {text('play.mark_sheriff', lang)}")
    return tags


def ring(seats: int) -> tuple[int, int, list[tuple[int, int]]]:
    """(columns, rows, each seat's (row, column)): the seats clockwise around a rectangle.

    Seat 1 at the top left; the top row is the widest side, so the table is wider than
    tall, and the middle keeps at least one cell for who is speaking.
    """
    columns = max(3, math.ceil(seats / 4) + 1)
    rows = max(3, math.ceil(max(0, seats - 2 * columns) / 2) + 2)
    places = [(1, c) for c in range(1, columns + 1)]
    places += [(r, columns) for r in range(2, rows)]
    places += [(rows, c) for c in range(columns, 0, -1)]
    places += [(r, 1) for r in range(rows - 1, 1, -1)]
    return columns, rows, places[:seats]


def seat_html(seat: TableSeat, place: tuple[int, int], lang: Lang) -> str:
    """One seat's card: number (and you), who plays it, its card, its marks, its state."""
    head = f"{'👤' if seat.alive else '💀'} {seat_label(seat.seat, lang)}"
    if seat.you:
        head += f" · ⭐ {text('play.mark_you', lang)}"
    lines = [f"<b>{html.escape(head)}</b>"]
    if seat.name:
        name = html.escape(visible(seat.name, one_line=True))
        lines.append(f'<span class="arena-name">{name}</span>')
    if seat.role is not None:
        side = "arena-wolf" if is_wolf(seat.role) else "arena-good"
        role = html.escape(f"{role_icon(seat.role)} {role_text(seat.role, lang)}")
        lines.append(f'<span class="{side}">{role}</span>')
    lines += [html.escape(mark) for mark in seat.marks]
    if not seat.alive:
        lines.append(html.escape(text("play.mark_out", lang)))
    elif seat.speaking:
        lines.append(html.escape(f"🎙 {text('play.mark_speaking', lang)}"))
    css = "arena-seat" + (" arena-out" if not seat.alive else "")
    css += (" arena-speaking" if seat.speaking else "") + (" arena-you" if seat.you else "")
    where = f"--r:{place[0]};--c:{place[1]}"
    body = "<br>".join(lines)
    return f'<div class="{css}" data-seat="{seat.seat}" style="{where}">{body}</div>'


def table_html(seats: Sequence[TableSeat], lang: Lang, middle: str = "") -> str:
    """The whole table as HTML: its style, the middle line and the seats around it."""
    columns, rows, places = ring(len(seats))
    cards = "".join(seat_html(s, p, lang) for s, p in zip(seats, places, strict=True))
    label = html.escape(text("play.table", lang))
    span = f"--rows:{rows};--cols:{columns}"
    centre = f'<div class="arena-middle" style="{span}">{html.escape(middle)}</div>'
    ring_css = RING_STYLE.replace("WIDTH", str(columns * CELL_PX)).replace("COLS", str(columns))
    return (
        f"{SEAT_STYLE}{ring_css}"
        f'<div class="arena-around"><div class="arena-table" role="group" aria-label="{label}">'
        f"{centre}{cards}</div></div>"
    )


def draw(seats: Sequence[TableSeat], lang: Lang, middle: str = "") -> None:
    """Draw the table (see `table_html`)."""
    st.html(table_html(seats, lang, middle))


SEAT_STYLE = """<style>
.arena-around{container-type:inline-size;container-name:arena-table;width:100%}
.arena-table{display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:8px}
.arena-seat{border:1px solid rgba(128,128,128,.35);border-radius:10px;padding:6px 9px;
font-size:.9rem;line-height:1.35;min-width:0;overflow-wrap:anywhere}
.arena-middle{grid-column:1/-1;text-align:center;font-weight:600;padding:6px;
border-radius:40px;background:rgba(120,90,40,.14);min-height:1.4em;overflow-wrap:anywhere}
.arena-middle:empty{display:none}
.arena-name{opacity:.8;font-size:.85rem}
.arena-wolf{color:#d33}
.arena-good{color:#1c6fd1}
.arena-speaking{border:2px solid #e0a800;background:rgba(224,168,0,.12)}
.arena-you{border:2px solid #1c83e1}
.arena-out{opacity:.5}
</style>"""
"""The table's look on a narrow page: the middle on top (when someone is speaking), two
seats to a row."""

RING_STYLE = """<style>
@container arena-table (min-width:WIDTHpx){
.arena-table{grid-template-columns:repeat(COLS,minmax(0,1fr))}
.arena-seat{grid-row:var(--r);grid-column:var(--c)}
.arena-middle,.arena-middle:empty{grid-row:2/var(--rows);grid-column:2/var(--cols);
display:flex;align-items:center;justify-content:center}
}
</style>"""
"""The ring, where the table has room for it (`WIDTH`, `COLS` filled in per table)."""
